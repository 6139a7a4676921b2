//! `my_robot`: a robot defined with `robot!`, its controller, and (in `main.rs`) its command-line
//! tool.

pub mod controller;
pub mod robot;

pub use controller::LookAround;
pub use robot::{PanTilt, PanTiltCommand, PanTiltState};
