//! The mock backend (work in progress).
