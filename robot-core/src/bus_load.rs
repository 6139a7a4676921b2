//! Worst-case CAN bus load of one control cycle.
//!
//! Every cycle sends one RobStride type-1 (MIT) command to each actuator on the bus, and each is
//! answered by exactly one type-2 feedback frame (PROTOCOL.md §12), so a bus carries two 8-byte
//! extended frames per actuator per cycle. The worst-case length of a CAN frame with `s` data bytes
//! and worst-case bit stuffing is `g + 8s + 13 + ⌊(g + 8s − 1) / 4⌋` bits, `g = 54` for 29-bit ids
//! (Davis, Burns, Bril, Lukkien, "Controller Area Network (CAN) schedulability analysis: refuted,
//! revisited and revised", Real-Time Systems 35, 2007): 160 bits for 8 bytes, interframe space
//! included.

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

/// The load one bus carries at the robot's update rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BusLoad {
    /// Actuators on the bus.
    pub actuators: usize,
    /// Frames per control cycle.
    pub frames_per_cycle: usize,
    /// Bits per second the frames need at the update rate, worst case.
    pub needed_bits_per_second: u64,
    /// `needed_bits_per_second / bitrate`: above 1 the cycle cannot fit.
    pub utilisation: f64,
    /// The highest update rate at which the bus still fits, Hz.
    pub max_update_rate: f64,
}

/// The worst-case load of `bus` at `robot.update_rate`.
pub fn load(robot: &Robot, bus: &Bus) -> BusLoad {
    let actuators = robot
        .actuated_joints()
        .filter(|j| j.actuator.as_ref().is_some_and(|a| a.bus == bus.name))
        .count();
    let frames_per_cycle = actuators * FRAMES_PER_ACTUATOR;
    let bits_per_cycle = frames_per_cycle as u64 * u64::from(WORST_CASE_FRAME_BITS);
    let needed_bits_per_second = bits_per_cycle * u64::from(robot.update_rate);
    let bitrate = f64::from(bus.kind.bitrate());
    BusLoad {
        actuators,
        frames_per_cycle,
        needed_bits_per_second,
        utilisation: needed_bits_per_second as f64 / bitrate,
        max_update_rate: if bits_per_cycle == 0 {
            f64::INFINITY
        } else {
            bitrate / bits_per_cycle as f64
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_eight_byte_extended_frame_is_160_bits_worst_case() {
        assert_eq!(WORST_CASE_FRAME_BITS, 160);
    }
}
