//! Bring-up tools for WitMotion-protocol IMUs, used by `robot imu`.
#![warn(missing_docs)]
