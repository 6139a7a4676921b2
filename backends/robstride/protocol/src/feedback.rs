//! The type-2 feedback frame, also the layout of type-24 active reports (docs/robstride-protocol.md §6).
//!
//! ```text
//! id   bits 23..22 mode (0 reset, 1 calibration, 2 run), 21..16 faults, 15..8 motor, 7..0 host
//! data [0..2] position  [2..4] velocity  [4..6] torque   u16 big-endian, scaled per model
//!      [6..8] winding temperature, °C × 10, u16 big-endian
//! ```

use crate::id::IdFields;
use robot_actuator::RobstrideModel;

/// The motor's state, ID bits 23–22.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// 0: reset (disabled).
    Reset,
    /// 1: calibration.
    Calibration,
    /// 2: run (the manual's "Motor" mode).
    Run,
}

/// One fault flag of a feedback frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FeedbackFault {
    /// Bit 16.
    Undervoltage,
    /// Bit 17.
    Overcurrent,
    /// Bit 18.
    Overtemperature,
    /// Bit 19.
    MagneticEncoder,
    /// Bit 20: "gridlock/stall overload" in the current manuals ("HALL encoder fault" in older
    /// sources).
    StallOverload,
    /// Bit 21.
    Uncalibrated,
}

impl FeedbackFault {
    /// Every flag, lowest bit first.
    pub const ALL: [FeedbackFault; 6] = [
        FeedbackFault::Undervoltage,
        FeedbackFault::Overcurrent,
        FeedbackFault::Overtemperature,
        FeedbackFault::MagneticEncoder,
        FeedbackFault::StallOverload,
        FeedbackFault::Uncalibrated,
    ];

    /// The flag's bit in the id.
    pub const fn id_bit(self) -> u32 {
        16 + self as u32
    }
}

/// The six fault flags of a feedback frame, ID bits 21–16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FeedbackFaults(u8);

impl FeedbackFaults {
    /// The flags from ID bits 21–16, shifted down to bits 5–0 (higher bits are dropped).
    pub const fn from_bits(bits: u8) -> FeedbackFaults {
        FeedbackFaults(bits & 0x3F)
    }

    /// The flags as bits 5–0.
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether no flag is set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `fault` is set.
    pub const fn contains(self, fault: FeedbackFault) -> bool {
        self.0 & (1 << fault as u8) != 0
    }

    /// The flags that are set, lowest bit first.
    pub fn iter(self) -> impl Iterator<Item = FeedbackFault> {
        FeedbackFault::ALL
            .into_iter()
            .filter(move |f| self.contains(*f))
    }
}

/// A feedback frame as sent: the codes before scaling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RawFeedback {
    /// The motor's CAN id (bits 15–8).
    pub motor: u8,
    /// The host byte (bits 7–0); do not match replies on it (§3).
    pub host: u8,
    /// The motor's state.
    pub mode: Mode,
    /// The fault flags.
    pub faults: FeedbackFaults,
    /// Position code.
    pub position: u16,
    /// Velocity code.
    pub velocity: u16,
    /// Torque code.
    pub torque: u16,
    /// Winding temperature, °C × 10.
    pub temperature: u16,
}

/// A feedback frame in physical units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feedback {
    /// The motor's CAN id.
    pub motor: u8,
    /// The host byte; do not match replies on it (§3).
    pub host: u8,
    /// The motor's state.
    pub mode: Mode,
    /// The fault flags.
    pub faults: FeedbackFaults,
    /// Position, rad, within ±4π.
    pub position: f32,
    /// Velocity, rad/s.
    pub velocity: f32,
    /// Torque, N·m.
    pub torque: f32,
    /// Winding temperature, °C.
    pub temperature: f32,
}

impl RawFeedback {
    /// The feedback in the id and data of a type-2 or type-24 frame, or `None` when the mode
    /// bits hold 3. The caller has checked the type.
    #[inline]
    pub(crate) fn from_parts(id: IdFields, data: &[u8; 8]) -> Option<RawFeedback> {
        let mode = match id.data2 >> 14 {
            0 => Mode::Reset,
            1 => Mode::Calibration,
            2 => Mode::Run,
            _ => return None,
        };
        let [p0, p1, v0, v1, t0, t1, c0, c1] = *data;
        Some(RawFeedback {
            motor: id.id_byte(),
            host: id.low,
            mode,
            faults: FeedbackFaults::from_bits((id.data2 >> 8) as u8),
            position: u16::from_be_bytes([p0, p1]),
            velocity: u16::from_be_bytes([v0, v1]),
            torque: u16::from_be_bytes([t0, t1]),
            temperature: u16::from_be_bytes([c0, c1]),
        })
    }

    /// The feedback in physical units, scaled with `model`'s ranges.
    #[inline]
    pub fn to_physical(&self, model: RobstrideModel) -> Feedback {
        let s = model.scaling();
        // Range::decode's `u · (max − min) / 65535 + min` for the three ranges and `u / 10` for
        // the temperature, written as four lanes of one formula so that the four divisions can
        // become one vector division (`u · 1 / 10 + 0` is exactly `u / 10`).
        let lane = |u: u16, r: crate::Range| (u, r.max() - r.min(), 65535.0, r.min());
        let lanes = [
            lane(self.position, s.position),
            lane(self.velocity, s.velocity),
            lane(self.torque, s.torque),
            (self.temperature, 1.0, 10.0, 0.0),
        ];
        let [position, velocity, torque, temperature] =
            lanes.map(|(u, span, divisor, min)| f32::from(u) * span / divisor + min);
        Feedback {
            motor: self.motor,
            host: self.host,
            mode: self.mode,
            faults: self.faults,
            position,
            velocity,
            torque,
            temperature,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaling::Code16;

    #[test]
    fn to_physical_is_bit_exact_with_range_decode_for_every_code() {
        for model in RobstrideModel::ALL {
            let s = model.scaling();
            for u in 0..=u16::MAX {
                let raw = RawFeedback {
                    motor: 1,
                    host: 0xFD,
                    mode: Mode::Run,
                    faults: FeedbackFaults::default(),
                    position: u,
                    velocity: u,
                    torque: u,
                    temperature: u,
                };
                let f = raw.to_physical(model);
                assert_eq!(f.position.to_bits(), s.position.decode(u).to_bits());
                assert_eq!(f.velocity.to_bits(), s.velocity.decode(u).to_bits());
                assert_eq!(f.torque.to_bits(), s.torque.decode(u).to_bits());
                assert_eq!(f.temperature.to_bits(), (f32::from(u) / 10.0).to_bits());
            }
        }
    }
}
