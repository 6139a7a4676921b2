//! `my_robot`: robots defined with `robot!` (a pan-tilt head, and a legged strider), their
//! controllers, and (in `main.rs`) their command-line tool.

pub mod controller;
pub mod crouch;
pub mod robot;
pub mod strider;

pub use controller::LookAround;
pub use crouch::Crouch;
pub use robot::{PanTilt, PanTiltCommand, PanTiltState};
pub use strider::{Strider, StriderCommand, StriderState};
