//! The topic backend under the schedules: the real `TopicSystem` on endpoints whose other end is
//! a peer in process, on the world's clock. The peer is the simulator or robot driver the
//! topics connect to: it publishes the joint states (and the IMU) every loop period, and moves
//! each joint a fifth of the way to the position last commanded every period.
//!
//! Its faults ([`PeerFault`]): lost (it publishes nothing more), stale (nothing for a while),
//! a message refused (an array shorter than the names), a NaN value, the IMU lost.
//!
//! What reaches it is judged as a bus's frames are: no command value that is not finite, and no
//! position command beyond its joint's limits. A `JointState` has no torque-off: the peer holds
//! (or stops) on its own when commands cease, so there is no motor to find on at the end.

use std::time::Duration;

use backend_topic::Endpoints;
use robot_runtime::typed::RobotTypes;
use robot_runtime::{InterfaceKind, Robot};
use ros2_msg::msg::{Imu, JointState};

use crate::violation::{Violation, add};
use crate::world::World;

/// How the peer goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PeerFault {
    /// It publishes nothing more: the process died, the network went.
    Lost,
    /// It publishes nothing for this many ms, then goes on.
    Stale(u32),
    /// Its next state message has a `position` array one shorter than `name`.
    Refused,
    /// Its next state message has NaN for the first joint's position.
    NotANumber,
    /// Its IMU publishes nothing more.
    ImuLost,
}

/// The peer's side.
#[derive(Debug)]
pub struct Peer {
    /// Its joints, in the order its state messages name them, with their limits.
    joints: Vec<(String, Option<(f64, f64)>)>,
    positions: Vec<f64>,
    targets: Vec<f64>,
    /// Its next publication, on the world's clock.
    next: Duration,
    period: Duration,
    imu: bool,
    lost: bool,
    imu_lost: bool,
    quiet_until: Duration,
    refuse_next: bool,
    nan_next: bool,
    /// Commands received.
    pub commands: u64,
    violations: Vec<Violation>,
}

impl Peer {
    /// The peer of robot `R`'s topics, publishing every `period`, with the IMU if `imu`.
    pub fn new<R: RobotTypes>(period: Duration, imu: bool) -> Peer {
        let robot: &Robot = R::DESCRIPTION;
        let joints: Vec<(String, Option<(f64, f64)>)> = (0..robot.joints.len())
            .filter(|&j| {
                R::STATE_LAYOUT
                    .joint_slot(j, InterfaceKind::Position)
                    .is_some()
                    && robot.joints[j].mimic.is_none()
            })
            .map(|j| {
                let joint = &robot.joints[j];
                let limits = joint
                    .limits
                    .as_ref()
                    .and_then(|l| Some((l.lower?, l.upper?)));
                (joint.name.to_string(), limits)
            })
            .collect();
        let positions = joints
            .iter()
            .map(|(_, limits)| limits.map_or(0.0, |(lo, hi)| 0.0_f64.clamp(lo, hi)))
            .collect::<Vec<_>>();
        Peer {
            targets: positions.clone(),
            positions,
            joints,
            next: Duration::ZERO,
            period,
            imu,
            lost: false,
            imu_lost: false,
            quiet_until: Duration::ZERO,
            refuse_next: false,
            nan_next: false,
            commands: 0,
            violations: Vec::new(),
        }
    }

    /// `fault` strikes at `now`.
    pub fn strike(&mut self, fault: PeerFault, now: Duration) {
        match fault {
            PeerFault::Lost => self.lost = true,
            PeerFault::Stale(ms) => {
                self.quiet_until = now + Duration::from_millis(u64::from(ms));
            }
            PeerFault::Refused => self.refuse_next = true,
            PeerFault::NotANumber => self.nan_next = true,
            PeerFault::ImuLost => self.imu_lost = true,
        }
    }

    /// Whether a publication is due at `now` (and the next one scheduled): the joints move on.
    fn due(&mut self, now: Duration) -> bool {
        if now < self.next {
            return false;
        }
        while self.next <= now {
            self.next += self.period;
            for (position, target) in self.positions.iter_mut().zip(&self.targets) {
                *position += 0.2 * (target - *position);
            }
        }
        !self.lost && now >= self.quiet_until
    }

    /// Fills `message` with the state, if one is published by `now`.
    fn state(&mut self, now: Duration, message: &mut JointState) -> bool {
        if !self.due(now) {
            return false;
        }
        message.name.clear();
        message.position.clear();
        message.velocity.clear();
        for ((name, _), &position) in self.joints.iter().zip(&self.positions) {
            message.name.push(name.clone());
            message.position.push(position);
        }
        if std::mem::take(&mut self.refuse_next) {
            message.position.pop();
        }
        if std::mem::take(&mut self.nan_next)
            && let Some(first) = message.position.first_mut()
        {
            *first = f64::NAN;
        }
        true
    }

    /// Takes a command message, judging what reached it.
    fn command(&mut self, now: Duration, message: &JointState) {
        self.commands += 1;
        for (k, array) in [&message.position, &message.velocity, &message.effort]
            .into_iter()
            .enumerate()
        {
            for (name, &value) in message.name.iter().zip(array) {
                if !value.is_finite() {
                    add(
                        &mut self.violations,
                        "nothing non-finite on the wire",
                        format!(
                            "at {:.1} ms the topic carried {value} for `{name}` ({})",
                            now.as_secs_f64() * 1e3,
                            ["position", "velocity", "effort"][k]
                        ),
                    );
                }
            }
        }
        for (name, &value) in message.name.iter().zip(&message.position) {
            let Some(index) = self.joints.iter().position(|(n, _)| n == name) else {
                continue;
            };
            if let Some((lower, upper)) = self.joints[index].1
                && !(lower - 1e-9..=upper + 1e-9).contains(&value)
            {
                add(
                    &mut self.violations,
                    "no command beyond a limit",
                    format!(
                        "at {:.1} ms the topic commanded `{name}` to {value:.4}, outside its \
                         limits [{lower:.4}, {upper:.4}]",
                        now.as_secs_f64() * 1e3
                    ),
                );
            }
            if value.is_finite() {
                self.targets[index] = value;
            }
        }
    }

    /// What the peer saw broken.
    pub fn violations(&self) -> Vec<Violation> {
        self.violations.clone()
    }
}

/// The component's ends of the topics: the world's peer, on the world's clock.
#[derive(Debug)]
pub struct Topics {
    world: World,
    command: JointState,
    state: JointState,
    imu: Imu,
}

impl Topics {
    /// Endpoints on `world`'s peer, the command message starting as `template`.
    pub fn new(world: &World, template: JointState) -> Topics {
        let mut imu = Imu::default();
        imu.orientation.w = 1.0;
        imu.linear_acceleration.z = 9.80665;
        Topics {
            world: world.clone(),
            command: template,
            state: JointState::default(),
            imu,
        }
    }
}

impl Endpoints for Topics {
    fn command(&mut self) -> &mut JointState {
        &mut self.command
    }

    fn publish(&mut self) {
        let command = &self.command;
        self.world.with_peer(|peer, now| peer.command(now, command));
        self.world.trace(&[0xC0]);
    }

    fn latest_state(&mut self) -> Option<&JointState> {
        let state = &mut self.state;
        let fresh = self.world.with_peer(|peer, now| peer.state(now, state))?;
        fresh.then_some(&self.state)
    }

    fn latest_imu(&mut self) -> Option<&Imu> {
        let fresh = self.world.with_peer(|peer, now| {
            peer.imu && !peer.imu_lost && !peer.lost && now >= peer.quiet_until
        })?;
        fresh.then_some(&self.imu)
    }

    fn now(&self) -> Duration {
        self.world.now()
    }

    fn pause(&mut self, pause: Duration) {
        self.world.advance(pause);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_peer_flags_a_command_beyond_a_limit_or_not_finite() {
        let mut peer = Peer::new::<robots::LiteBiped>(Duration::from_millis(5), true);
        let mut message = JointState::default();
        let (name, limits) = peer.joints[0].clone();
        let (_, upper) = limits.unwrap();
        message.name.push(name);
        message.position.push(upper);
        peer.command(Duration::ZERO, &message);
        assert!(peer.violations().is_empty());
        message.position[0] = upper + 0.01;
        message.velocity.push(f64::NAN);
        peer.command(Duration::ZERO, &message);
        let found: Vec<&str> = peer.violations().iter().map(|v| v.invariant).collect();
        assert_eq!(
            found,
            [
                "nothing non-finite on the wire",
                "no command beyond a limit"
            ]
        );
    }

    #[test]
    fn the_peer_publishes_every_period_and_goes_quiet_when_struck() {
        let mut peer = Peer::new::<robots::LiteBiped>(Duration::from_millis(5), true);
        let mut message = JointState::default();
        assert!(peer.state(Duration::ZERO, &mut message));
        assert!(!peer.state(Duration::from_millis(1), &mut message));
        assert!(peer.state(Duration::from_millis(5), &mut message));
        peer.strike(PeerFault::Stale(20), Duration::from_millis(5));
        assert!(!peer.state(Duration::from_millis(10), &mut message));
        assert!(peer.state(Duration::from_millis(25), &mut message));
        peer.strike(PeerFault::Refused, Duration::from_millis(25));
        assert!(peer.state(Duration::from_millis(30), &mut message));
        assert_eq!(message.position.len() + 1, message.name.len());
        peer.strike(PeerFault::Lost, Duration::from_millis(30));
        assert!(!peer.state(Duration::from_secs(1), &mut message));
    }
}
