//! What the component tests share: one simulated bus with its motors, the component of a robot
//! on it, and the last operation-control frame sent.
#![allow(dead_code)] // each test binary uses its own part
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

pub mod plot;

use std::time::Duration;

use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::Transport;
use robot_core::RobstrideModel;
use robot_core::config::RuntimeConfig;
use robot_core::hardware::Clock;
use robot_core::typed::RobotTypes;
use robstride_protocol::{Command, Mit, Request};
use robstride_sim::SimActuator;
use robstride_sim::SimBus;
use robstride_sim::bus::NodeId;
use robstride_sim::motor::MotorModel;

/// Two joints on one bus, the shoulder's zero offset 0.5 rad in the definition.
pub mod pair {
    use robot_macros::robot;

    robot! {
        robot Pair { update_rate: 200 Hz }
        bus arm {}
        link base {}
        link upper {}
        link lower {}
        joint shoulder: revolute {
            parent: base,
            child: upper,
            axis: [0, 1, 0],
            limits { lower: -2, upper: 2, velocity: 5, effort: 10 },
            actuator { bus: arm, can_id: 1, model: RS02, zero_offset: 0.5 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
        joint elbow: revolute {
            parent: upper,
            child: lower,
            axis: [0, 1, 0],
            limits { lower: -2, upper: 2, velocity: 5, effort: 10 },
            actuator { bus: arm, can_id: 2, model: RS02 },
            command: [position, velocity, effort, stiffness, damping],
            state: [position, velocity, effort],
        }
    }
}

/// The clock every cycle of these tests runs on: 200 Hz.
pub const CLOCK: Clock = Clock {
    time: Duration::ZERO,
    period: Duration::from_millis(5),
};

/// An RS02 with CAN id `id`, at rest at motor angle `angle` rad.
pub fn rs02(id: u8, angle: f64) -> SimActuator {
    SimActuator::new(
        RobstrideModel::RS02,
        id,
        MotorModel::new(RobstrideModel::RS02, None),
        angle,
    )
}

/// A simulated bus named `bus` with `motors` attached (their node ids, in order), and the
/// component of robot `R`'s bus `bus` on it, configured by `config`; not yet initialised.
pub fn rig<R: RobotTypes>(
    bus: &str,
    config: Option<&RuntimeConfig>,
    motors: impl IntoIterator<Item = SimActuator>,
) -> (SimBus, Vec<NodeId>, RobstrideBus<R>) {
    let sim = SimBus::new(bus);
    let nodes = motors.into_iter().map(|m| sim.attach(m)).collect();
    let component = component_on(&sim, config, BusOptions::default());
    (sim, nodes, component)
}

/// The component of robot `R`'s bus named as `sim` is, on `sim`, with `options`.
pub fn component_on<R: RobotTypes>(
    sim: &SimBus,
    config: Option<&RuntimeConfig>,
    options: BusOptions,
) -> RobstrideBus<R> {
    let host = sim.clone();
    RobstrideBus::<R>::new(&sim.name(), config, options, move || {
        Ok(Box::new(host.host()) as Box<dyn Transport>)
    })
}

/// The operation-control command in the last frame sent to an RS02.
pub fn last_mit(sim: &SimBus) -> Mit {
    let frame = *sim.sent().last().expect("a frame");
    match Request::decode(&frame, RobstrideModel::RS02)
        .unwrap()
        .command
    {
        Command::Mit(mit) => mit.mit(),
        other => panic!("not an operation-control frame: {other:?}"),
    }
}
