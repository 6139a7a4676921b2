//! No shipped robot overlaps itself at the home pose (`robot_collision`), nor the example
//! crate's (examples/my_robot, its definitions compiled here as modules, as its build script
//! compiles them): a run of any of them would otherwise start with a warning, and a simulation
//! with its links pushed apart. Every collision shape of theirs is a primitive, so nothing is
//! left out either.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

#[allow(dead_code)]
#[path = "../../examples/my_robot/src/robot.rs"]
mod pan_tilt;
#[allow(dead_code)]
#[path = "../../examples/my_robot/src/strider.rs"]
mod strider;

use robot_collision::{SelfCollision, home_pose};
use robots::{LiteBiped, SixAxisArm};

#[test]
fn no_shipped_or_example_robot_overlaps_itself_at_the_home_pose() {
    for robot in [
        LiteBiped::DESCRIPTION,
        SixAxisArm::DESCRIPTION,
        pan_tilt::PanTilt::DESCRIPTION,
        strider::Strider::DESCRIPTION,
    ] {
        assert_eq!(
            home_pose(robot).unwrap(),
            SelfCollision::default(),
            "{}",
            robot.name
        );
    }
}
