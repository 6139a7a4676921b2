//! One bus switched off and on again while the other runs, as ros2_control's
//! `set_hardware_component_state` does it, on lite_biped's two simulated buses in real time:
//! the left leg's motors report disabled and only it goes quiet; activated again, it comes back
//! through its lifecycle at zero torque, its joints where they were, until a controller takes
//! them; the run ends with every motor disabled.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::{Duration, Instant};

use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::Transport;
use robot_core::InterfaceKind;
use robot_core::control_loop::{
    ComponentRequestError, ControlLoop, Controller, ControllerError, LoopHandle, LoopOptions,
    StopAfter,
};
use robot_core::controller_manager::{
    Claims, ControllerManager, Managed, ManagerHandle, Strictness, controller_manager,
};
use robot_core::hardware::{Clock, Component, Lifecycle, System};
use robot_core::typed::{RobotTypes, Values};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};
use robstride_sim::SimActuator;
use robstride_sim::SimBus;
use robstride_sim::bus::NodeId;
use robstride_sim::robot::attach_actuators;
use robstride_sim::wall_clock::WallClock;

/// Holds every joint it claims where it was when activated, as a stiff servo.
struct Hold {
    slots: Vec<usize>,
}

impl Controller<LiteBiped> for Hold {
    fn on_activate(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        let layout = <LiteBiped as RobotTypes>::COMMAND_LAYOUT;
        for &slot in &self.slots {
            if let robot_core::typed::Slot::Joint { kind, .. } = layout.slots[slot] {
                match kind {
                    InterfaceKind::Stiffness => command.as_mut_slice()[slot] = 20.0,
                    InterfaceKind::Damping => command.as_mut_slice()[slot] = 1.0,
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        _command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        Ok(())
    }
}

fn leg(name: &str, side: &str) -> Managed<LiteBiped> {
    let joints: Vec<&str> = (LiteBiped::DESCRIPTION.joints.iter())
        .filter(|j| j.name.starts_with(side) && j.actuator.is_some())
        .map(|j| j.name.as_ref())
        .collect();
    let claims = Claims::of_joints::<LiteBiped>(&joints).unwrap();
    Managed {
        name: name.to_string(),
        kind: "test/Hold".to_string(),
        reads: Vec::new(),
        active: true,
        controller: Box::new(Hold {
            slots: claims.slots().to_vec(),
        }),
        claims,
    }
}

/// Whether each motor of bus `bus` is enabled.
fn enabled(buses: &[(SimBus, Vec<(usize, NodeId)>)], bus: usize) -> Vec<bool> {
    let (sim, nodes) = &buses[bus];
    (nodes.iter())
        .map(|(_, node)| {
            sim.with_node(*node, |m: &mut SimActuator| m.enabled())
                .unwrap()
        })
        .collect()
}

struct Running {
    buses: Vec<(SimBus, Vec<(usize, NodeId)>)>,
    handle: LoopHandle<LiteBiped, ControllerManager<LiteBiped>>,
    manager: ManagerHandle,
}

/// lite_biped on its two simulated buses on the wall clock, each leg held by a controller of
/// its own, running and active.
fn running() -> Running {
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
            move || Ok(Box::new(WallClock::new(host.clone())) as Box<dyn Transport>),
        )));
        buses.push((sim, nodes));
    }
    let (manager, handle) =
        controller_manager(vec![leg("left", "left_"), leg("right", "right_")]).unwrap();
    let system = System::new(components).unwrap();
    let control_loop = ControlLoop::new(system, manager, None);
    let options = LoopOptions {
        activate: true,
        stop_after: StopAfter {
            cycles: None,
            duration: Some(Duration::from_secs(30)),
        },
        ..LoopOptions::default()
    };
    let running = Running {
        buses,
        handle: control_loop.spawn(options).unwrap(),
        manager: handle,
    };
    let started = Instant::now();
    while running.handle.control().lifecycle() != Lifecycle::Active || !running.manager.running() {
        assert!(started.elapsed() < Duration::from_secs(5), "never active");
        std::thread::sleep(Duration::from_millis(5));
    }
    running
}

impl Running {
    /// Whether each motor of bus `bus` is enabled.
    fn enabled(&self, bus: usize) -> Vec<bool> {
        enabled(&self.buses, bus)
    }

    /// Operation-control frames sent on bus `bus` over `wait`.
    fn traffic(&self, bus: usize, wait: Duration) -> usize {
        let (sim, _) = &self.buses[bus];
        let _ = sim.take_sent();
        std::thread::sleep(wait);
        (sim.take_sent().iter())
            .filter(|f| (f.extended_id().unwrap() >> 24) as u8 == 1)
            .count()
    }
}

#[test]
fn a_bus_set_inactive_disables_its_motors_alone_and_comes_back_at_zero_torque() {
    let rig = running();
    assert_eq!(rig.enabled(0), [true; 7]);
    assert_eq!(rig.enabled(1), [true; 7]);
    // As the service does it: the controller that claims the left leg first, then the bus.
    let answer = rig.manager.switch(
        &[],
        &["left".to_string()],
        Strictness::Strict,
        Duration::from_secs(2),
    );
    assert!(answer.ok, "{}", answer.message);
    let control = rig.handle.control();
    assert_eq!(
        control.set_component(0, false, Duration::from_secs(2)),
        Ok(Lifecycle::Inactive)
    );
    assert_eq!(
        rig.enabled(0),
        [false; 7],
        "the left leg's motors report disabled"
    );
    assert_eq!(rig.enabled(1), [true; 7], "the right leg's are still on");
    assert_eq!(control.component(0), Some(Lifecycle::Inactive));
    assert_eq!(control.component(1), Some(Lifecycle::Active));
    let cycles = control.cycles();
    assert_eq!(
        rig.traffic(0, Duration::from_millis(100)),
        0,
        "the left bus is quiet"
    );
    assert!(
        rig.traffic(1, Duration::from_millis(100)) > 0,
        "the right one is not"
    );
    assert!(control.cycles() > cycles + 10, "and the loop goes on");

    // Active again, through on_activate: enabled, commanded at zero torque where it is.
    assert_eq!(
        control.set_component(0, true, Duration::from_secs(2)),
        Ok(Lifecycle::Active)
    );
    assert_eq!(rig.enabled(0), [true; 7]);
    let (sim, nodes) = &rig.buses[0];
    for (_, node) in nodes {
        sim.with_node(*node, |m: &mut SimActuator| m.take_applied());
    }
    std::thread::sleep(Duration::from_millis(100));
    for (joint, node) in nodes {
        let applied = sim
            .with_node(*node, |m: &mut SimActuator| m.take_applied())
            .unwrap();
        let name = &LiteBiped::DESCRIPTION.joints[*joint].name;
        assert!(applied.duration > 0.05, "{name}: {applied:?}");
        // Zero, to the operation-control frame's torque resolution (one code: 0.5 mN·m on an
        // RS02).
        assert!(applied.peak < 5e-3, "{name} applied torque: {applied:?}");
    }
    let Running { buses, handle, .. } = rig;
    let (_, loop_result) = handle.stop();
    loop_result.unwrap();
    for bus in 0..2 {
        assert_eq!(enabled(&buses, bus), [false; 7], "bus {bus} off at the end");
    }
}

#[test]
fn a_component_is_not_activated_alone_while_the_loop_is_inactive() {
    let rig = running();
    let control = rig.handle.control();
    control.request_deactivate();
    let started = Instant::now();
    while control.lifecycle() != Lifecycle::Inactive {
        assert!(started.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        control.set_component(0, true, Duration::from_secs(2)),
        Err(ComponentRequestError::Refused(Lifecycle::Inactive))
    );
    assert_eq!(rig.enabled(0), [false; 7]);
}
