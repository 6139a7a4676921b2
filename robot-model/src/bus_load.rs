//! Worst-case CAN bus load of one control cycle, and the ceiling it must stay under.
//!
//! Every cycle sends one RobStride type-1 (MIT) command to each actuator on the bus, and each is
//! answered by exactly one type-2 feedback frame (docs/robstride-protocol.md §12), so a bus carries two 8-byte
//! extended frames per actuator per cycle. The worst-case length of a CAN frame with `s` data bytes
//! and worst-case bit stuffing is `g + 8s + 13 + ⌊(g + 8s − 1) / 4⌋` bits, `g = 54` for 29-bit ids
//! (Davis, Burns, Bril, Lukkien, "Controller Area Network (CAN) schedulability analysis: refuted,
//! revisited and revised", Real-Time Systems 35, 2007): 160 bits for 8 bytes, interframe space
//! included.
//!
//! # The ceiling: 80 % unless the bus says otherwise
//!
//! A cycle whose frames fill the whole bit rate has no slack, so a bus must stay under
//! [`DEFAULT_MAX_LOAD`] of its bit rate, or under the `max_load` its definition gives
//! (`bus arm { max_load: 95 % }`, [`Bus::max_load`](crate::model::Bus::max_load)):
//! * CAN arbitrates by priority, so the worst-case latency of the lower-priority frames grows
//!   steeply as the load nears 100 %: the last reply of a cycle may arrive after the next cycle
//!   has started;
//! * an error frame and the retransmission it causes take up to another frame's worth of bits,
//!   and each one must still fit in the cycle;
//! * the bus carries other traffic too: parameter reads and writes (types 17/18), fault frames
//!   (type 21), enable, stop and zero frames, active reports if they were switched on.
//!
//! The compile-time rule ([`crate::validate`]) checks every bus at the robot's update rate;
//! [`check_rate`] checks every bus at another loop rate, for a runner that takes the rate from its
//! command line.

use crate::model::{Bus, Robot};

/// Worst-case bits of one 8-byte extended data frame, interframe space included.
pub const WORST_CASE_FRAME_BITS: u32 = {
    let g = 54;
    let s = 8;
    g + 8 * s + 13 + (g + 8 * s - 1) / 4
};

/// Frames one actuator puts on its bus each cycle: the command and its reply.
pub const FRAMES_PER_ACTUATOR: usize = 2;

/// Classic CAN tops out at 1 Mbit/s.
pub const MAX_CLASSIC_CAN_BITRATE: u32 = 1_000_000;

pub use crate::model::DEFAULT_MAX_LOAD;

/// The load one bus carries at one loop rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BusLoad {
    /// Actuators on the bus.
    pub actuators: usize,
    /// Frames per control cycle.
    pub frames_per_cycle: usize,
    /// The loop rate this load is at, Hz.
    pub rate: u32,
    /// Bits per second the frames need at that rate, worst case.
    pub needed_bits_per_second: u64,
    /// The bus bit rate, bit/s.
    pub bitrate: u32,
    /// `needed_bits_per_second / bitrate`: above 1 the cycle cannot fit at all.
    pub utilisation: f64,
    /// The share of the bit rate the bus may fill: its `max_load`, else [`DEFAULT_MAX_LOAD`].
    pub max_load: f64,
    /// The highest loop rate at which the bus still fits at all (100 % load), Hz.
    pub max_update_rate: f64,
    /// The highest whole loop rate at which the bus stays within `max_load`, Hz.
    pub max_rate_within_ceiling: u64,
}

impl BusLoad {
    /// Whether the load stays within the bus's ceiling.
    pub fn fits(&self) -> bool {
        self.utilisation <= self.max_load
    }
}

/// The worst-case load of `bus` at `robot.update_rate`.
pub fn load(robot: &Robot, bus: &Bus) -> BusLoad {
    load_at(robot, bus, robot.update_rate)
}

/// The worst-case load of `bus` at a loop rate of `rate` Hz.
pub fn load_at(robot: &Robot, bus: &Bus, rate: u32) -> BusLoad {
    let actuators = robot
        .actuated_joints()
        .filter(|j| j.actuator.as_ref().is_some_and(|a| a.bus == bus.name))
        .count();
    let frames_per_cycle = actuators * FRAMES_PER_ACTUATOR;
    let bits_per_cycle = frames_per_cycle as u64 * u64::from(WORST_CASE_FRAME_BITS);
    let needed_bits_per_second = bits_per_cycle * u64::from(rate);
    let bitrate = bus.kind.bitrate();
    let max_load = bus.max_load();
    let (max_update_rate, max_rate_within_ceiling) = if bits_per_cycle == 0 {
        (f64::INFINITY, u64::MAX)
    } else {
        let per_cycle = bits_per_cycle as f64;
        let within = (f64::from(bitrate) * max_load / per_cycle).floor();
        (
            f64::from(bitrate) / per_cycle,
            if within.is_finite() && within >= 0.0 {
                within as u64
            } else {
                0
            },
        )
    };
    BusLoad {
        actuators,
        frames_per_cycle,
        rate,
        needed_bits_per_second,
        bitrate,
        utilisation: needed_bits_per_second as f64 / f64::from(bitrate),
        max_load,
        max_update_rate,
        max_rate_within_ceiling,
    }
}

/// A bus whose worst-case load at a loop rate is above its ceiling.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "bus `{bus}` is overloaded at {} Hz: {} frames of {} bits per cycle need {} bit/s, {} of its {} bit/s, above its {} ceiling; {}",
    .load.rate,
    .load.frames_per_cycle,
    WORST_CASE_FRAME_BITS,
    .load.needed_bits_per_second,
    percent(.load.utilisation),
    .load.bitrate,
    percent(.load.max_load),
    advice(.load)
)]
pub struct BusOverload {
    /// The bus's name.
    pub bus: String,
    /// Its load at the rate checked.
    pub load: BusLoad,
}

/// What to do about an overload.
fn advice(load: &BusLoad) -> String {
    let mut options = Vec::new();
    if load.max_rate_within_ceiling > 0 {
        options.push(format!(
            "run at {} Hz or less",
            load.max_rate_within_ceiling
        ));
    }
    options.push("move actuators to another bus".to_string());
    // Raising the ceiling helps only when the cycle fits the bit rate at all.
    if load.utilisation <= 1.0 {
        let needed = (load.utilisation * 100.0).ceil().min(100.0);
        options.push(format!(
            "raise the bus's ceiling with `max_load: {needed} %`"
        ));
    }
    match options.as_slice() {
        [only] => only.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        [] => String::new(),
    }
}

/// `0.8` → `80 %`, `2.56` → `256 %`, at most one decimal.
pub(crate) fn percent(share: f64) -> String {
    let text = format!("{:.1}", share * 100.0);
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} %")
}

/// The overload of `bus` at `rate` Hz, if it is above its ceiling.
pub fn overload(robot: &Robot, bus: &Bus, rate: u32) -> Option<BusOverload> {
    let load = load_at(robot, bus, rate);
    (!load.fits()).then(|| BusOverload {
        bus: bus.name.to_string(),
        load,
    })
}

/// Buses above their ceiling at a loop rate, as [`check_rate`] reports them.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}", .overloads.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct BusOverloadError {
    /// Every overloaded bus, in declaration order; never empty.
    pub overloads: Vec<BusOverload>,
}

/// Checks every bus of `robot` at a loop rate of `rate` Hz (for `robot run --rate`): the same
/// rule `robot!` checks at the update rate, with each bus's own ceiling.
pub fn check_rate(robot: &Robot, rate: u32) -> Result<(), BusOverloadError> {
    let overloads: Vec<BusOverload> = robot
        .buses
        .iter()
        .filter_map(|bus| overload(robot, bus, rate))
        .collect();
    if overloads.is_empty() {
        Ok(())
    } else {
        Err(BusOverloadError { overloads })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn an_eight_byte_extended_frame_is_160_bits_worst_case() {
        assert_eq!(WORST_CASE_FRAME_BITS, 160);
    }

    /// The fixture's `front` bus: two actuators at 1 Mbit/s, 640 bits per cycle; 80 % of the bit
    /// rate fits 1250 cycles a second.
    fn front() -> (Robot, Bus) {
        let robot = fixture::robot();
        let bus = robot.bus("front").unwrap().clone();
        (robot, bus)
    }

    #[test]
    fn the_ceiling_is_80_percent_by_default() {
        let (robot, bus) = front();
        assert_eq!(bus.max_load, None);
        let load = load_at(&robot, &bus, 1250);
        assert_eq!(load.needed_bits_per_second, 800_000);
        assert!(load.fits());
        assert_eq!(load.max_rate_within_ceiling, 1250);
        // 1300 Hz is 83.2 %: it fits the bit rate, but not the ceiling.
        let load = load_at(&robot, &bus, 1300);
        assert!(load.utilisation < 1.0 && !load.fits());
    }

    #[test]
    fn a_bus_may_raise_its_ceiling() {
        let (robot, mut bus) = front();
        bus.max_load = Some(0.95);
        assert!(load_at(&robot, &bus, 1300).fits());
        assert!(!load_at(&robot, &bus, 1500).fits());
    }

    #[test]
    fn check_rate_reports_each_overloaded_bus_with_what_to_do() {
        let robot = fixture::robot();
        assert_eq!(check_rate(&robot, robot.update_rate), Ok(()));
        assert_eq!(check_rate(&robot, 1250), Ok(()));
        let error = check_rate(&robot, 1300).unwrap_err();
        assert_eq!(error.overloads.len(), 1, "only `front` has two actuators");
        assert_eq!(
            error.to_string(),
            "bus `front` is overloaded at 1300 Hz: 4 frames of 160 bits per cycle need 832000 \
             bit/s, 83.2 % of its 1000000 bit/s, above its 80 % ceiling; run at 1250 Hz or less, \
             move actuators to another bus or raise the bus's ceiling with `max_load: 84 %`"
        );
        // Past 100 % no ceiling helps.
        let error = check_rate(&robot, 2000).unwrap_err();
        assert_eq!(error.overloads[0].load.utilisation, 1.28);
        assert!(!error.to_string().contains("max_load"), "{error}");
    }
}
