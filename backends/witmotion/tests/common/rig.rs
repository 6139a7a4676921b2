//! lite_biped's whole real path in one `System`, as `robot run` builds it: a RobStride component
//! per bus on simulated actuators, and the IMU component on a simulated device over a pty.

use std::time::Duration;

use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::Transport;
use robot_core::control_loop::ControlLoop;
use robot_core::hardware::{Clock, Component, System};
use robots::LiteBiped;
use robots::controllers::Squat;
use robstride_sim::SimBus;
use robstride_sim::bus::NodeId;
use robstride_sim::robot::attach_actuators;
use witmotion_sim::SimImu;

pub const PERIOD: Duration = Duration::from_millis(5);

pub struct Rig {
    pub buses: Vec<(SimBus, Vec<(usize, NodeId)>)>,
    pub imu: SimImu,
    pub control_loop: ControlLoop<LiteBiped, Squat>,
}

pub fn rig() -> Rig {
    let robot = LiteBiped::DESCRIPTION;
    let mut buses = Vec::new();
    let mut components: Vec<Box<dyn Component<LiteBiped>>> = Vec::new();
    for bus in robot.buses.iter() {
        let sim = SimBus::new(&bus.name);
        let nodes = attach_actuators(robot, &bus.name, None, &sim);
        let host = sim.clone();
        components.push(Box::new(RobstrideBus::<LiteBiped>::new(
            &bus.name,
            None,
            BusOptions::default(),
            move || Ok(Box::new(host.host()) as Box<dyn Transport>),
        )));
        buses.push((sim, nodes));
    }
    let imu = SimImu::spawn(super::streaming()).unwrap();
    let mut options = super::options(imu.path());
    // The device is a thread on a shared test machine, not hardware.
    options.max_age = Duration::from_millis(100);
    components.push(Box::new(super::component::<LiteBiped>(&imu, options)));
    let system = System::new(components).unwrap();
    Rig {
        buses,
        imu,
        control_loop: ControlLoop::new(system, Squat::default(), None),
    }
}

impl Rig {
    pub fn clock(cycle: u32) -> Clock {
        Clock {
            time: PERIOD * cycle,
            period: PERIOD,
        }
    }

    /// The simulated buses one period on; the IMU runs on the wall clock, so wait a period too.
    pub fn advance(&self) {
        for (bus, _) in &self.buses {
            bus.advance(PERIOD);
        }
        std::thread::sleep(PERIOD);
    }
}
