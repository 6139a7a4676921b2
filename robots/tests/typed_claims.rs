//! Claims in a controller's type, under the controller manager on the mock: a controller of the
//! left leg's bus beside another, one of the whole robot refused beside it, and one controller
//! type serving either side of the `leg` limb.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod manager;

use robot_core::control_loop::ControllerError;
use robot_core::controller_manager::{JointSet, Managed, Strictness, TypedController, WholeRobot};
use robot_core::hardware::Clock;
use robots::lite_biped::lite_biped::{LeftLegBusCommand, LegCommand};
use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};

use manager::{LEFT, RIGHT, active, cycles, knee, running, switch};

/// Drives the left knee to `target`: claims the left leg bus by its type, and is handed only its
/// joints.
struct LeftKnee {
    target: f64,
}

impl TypedController<LiteBiped> for LeftKnee {
    type Claims = robots::lite_biped::lite_biped::LeftLegBus;

    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        command: LeftLegBusCommand<'_>,
    ) -> Result<(), ControllerError> {
        let knee = command.left_knee_pitch;
        knee.position += (self.target - knee.position).clamp(-0.01, 0.01);
        knee.stiffness = 30.0;
        knee.damping = 1.0;
        Ok(())
    }
}

#[test]
fn a_typed_controller_claims_its_bus_by_its_type_and_runs_beside_another() {
    let left = Managed::typed(
        "left_knee",
        "robots/LeftKnee",
        LeftKnee { target: 0.4 },
        true,
    )
    .unwrap();
    let claims = left.claims.names::<LiteBiped>();
    assert_eq!(
        claims.len(),
        35,
        "every interface of the left leg's seven joints: {claims:?}"
    );
    assert!(claims.iter().all(|c| c.starts_with("left_")), "{claims:?}");
    let everything = Managed::typed("everything", "robots/All", Everything, false).unwrap();
    assert_eq!(
        everything.claims.slots().len(),
        <LiteBiped as robot_core::typed::RobotTypes>::COMMAND_LAYOUT.len()
    );
    let (mut control_loop, handle, mut clock) = running(vec![
        left,
        knee("right_knee", false, -0.3, true),
        everything,
    ]);
    cycles(&mut control_loop, &mut clock, 100);
    let command = control_loop.command();
    assert!((command.left_knee_pitch.position - 0.4).abs() < 1e-9);
    assert!((command.right_knee_pitch.position + 0.3).abs() < 1e-9);
    // The whole robot's controller collides with the typed one's claims.
    let (answer, _) = switch(
        &mut control_loop,
        &mut clock,
        &handle,
        &["everything"],
        &[],
        Strictness::Strict,
    );
    assert!(!answer.ok);
    assert!(
        answer.message.contains(
            "'left_hip_pitch/position' is currently claimed by another controller ('left_knee')"
        ),
        "{}",
        answer.message
    );
}

/// Claims the whole robot.
struct Everything;

impl TypedController<LiteBiped> for Everything {
    type Claims = WholeRobot;

    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        command: &mut LiteBipedCommand,
    ) -> Result<(), ControllerError> {
        command.right_knee_pitch.position = 0.0;
        Ok(())
    }
}

/// One controller type for either leg: it claims a side of the `leg` limb and is handed that
/// side's `LegCommand`, whose knee it drives to `target`.
struct KneeTo<S> {
    target: f64,
    _side: std::marker::PhantomData<S>,
}

impl<S> TypedController<LiteBiped> for KneeTo<S>
where
    S: for<'a> JointSet<LiteBiped, View<'a> = LegCommand<'a>> + Send,
{
    type Claims = S;

    fn update(
        &mut self,
        _clock: Clock,
        _state: &LiteBipedState,
        leg: LegCommand<'_>,
    ) -> Result<(), ControllerError> {
        leg.knee_pitch.position += (self.target - leg.knee_pitch.position).clamp(-0.01, 0.01);
        leg.knee_pitch.stiffness = 30.0;
        Ok(())
    }
}

fn knee_to<S>(name: &str, target: f64) -> Managed<LiteBiped>
where
    S: for<'a> JointSet<LiteBiped, View<'a> = LegCommand<'a>> + Send,
{
    let controller = KneeTo::<S> {
        target,
        _side: std::marker::PhantomData,
    };
    Managed::typed(name, "test/KneeTo", controller, true).unwrap()
}

#[test]
fn one_controller_type_serves_each_side_of_a_limb() {
    use robots::lite_biped::lite_biped::{LeftLeg, RightLeg};
    assert_eq!(
        <LeftLeg as JointSet<LiteBiped>>::JOINTS,
        LEFT,
        "the left side's joints, in the limb's order"
    );
    assert_eq!(<RightLeg as JointSet<LiteBiped>>::JOINTS, RIGHT);
    let (mut control_loop, handle, mut clock) = running(vec![
        knee_to::<LeftLeg>("left", 0.5),
        knee_to::<RightLeg>("right", -0.2),
    ]);
    cycles(&mut control_loop, &mut clock, 100);
    let command = control_loop.command();
    assert!((command.left_knee_pitch.position - 0.5).abs() < 1e-9);
    assert!((command.right_knee_pitch.position + 0.2).abs() < 1e-9);
    assert_eq!(active(&handle), ["left", "right"]);
}
