//! The type-21 fault frame (docs/robstride-protocol.md §7).
//!
//! ```text
//! id   bits 15..8 motor, 7..0 host (assumed as for type 2; §3 does not list type 21)
//! data [0..4] fault word, u32 little-endian   [4..8] warning word, u32 little-endian
//! ```
//!
//! The bits are the manuals' (the same in all eight): phase A/B/C overcurrent at 16/4/5, not the
//! 13/11/12 of `kscalelabs/actuator`; stall at bit 14 of the *fault* word, not the warning word.

/// One bit of the fault word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Bit 0: motor overtemperature.
    MotorOvertemperature,
    /// Bit 1: driver-chip fault.
    DriverChip,
    /// Bit 2: undervoltage.
    Undervoltage,
    /// Bit 3: overvoltage.
    Overvoltage,
    /// Bit 4: phase-B overcurrent.
    PhaseBOvercurrent,
    /// Bit 5: phase-C overcurrent.
    PhaseCOvercurrent,
    /// Bit 7: encoder not calibrated.
    EncoderUncalibrated,
    /// Bit 8: hardware identification fault.
    HardwareIdentification,
    /// Bit 9: position initialisation fault.
    PositionInitialisation,
    /// Bit 14: stall / I²t overload protection.
    StallOverload,
    /// Bit 16: phase-A overcurrent.
    PhaseAOvercurrent,
}

impl Fault {
    /// Every fault, lowest bit first.
    pub const ALL: [Fault; 11] = [
        Fault::MotorOvertemperature,
        Fault::DriverChip,
        Fault::Undervoltage,
        Fault::Overvoltage,
        Fault::PhaseBOvercurrent,
        Fault::PhaseCOvercurrent,
        Fault::EncoderUncalibrated,
        Fault::HardwareIdentification,
        Fault::PositionInitialisation,
        Fault::StallOverload,
        Fault::PhaseAOvercurrent,
    ];

    /// The fault's bit in the fault word.
    pub const fn bit(self) -> u32 {
        match self {
            Fault::MotorOvertemperature => 0,
            Fault::DriverChip => 1,
            Fault::Undervoltage => 2,
            Fault::Overvoltage => 3,
            Fault::PhaseBOvercurrent => 4,
            Fault::PhaseCOvercurrent => 5,
            Fault::EncoderUncalibrated => 7,
            Fault::HardwareIdentification => 8,
            Fault::PositionInitialisation => 9,
            Fault::StallOverload => 14,
            Fault::PhaseAOvercurrent => 16,
        }
    }
}

/// The fault word: the named bits of [`Fault`] and any others the firmware sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FaultWord(pub u32);

impl FaultWord {
    /// The bits of every named fault.
    pub const KNOWN: u32 = {
        let mut mask = 0;
        let mut i = 0;
        while i < Fault::ALL.len() {
            mask |= 1 << Fault::ALL[i].bit();
            i += 1;
        }
        mask
    };

    /// Whether `fault` is set.
    pub const fn contains(self, fault: Fault) -> bool {
        self.0 & (1 << fault.bit()) != 0
    }

    /// The named faults that are set, lowest bit first.
    pub fn iter(self) -> impl Iterator<Item = Fault> {
        Fault::ALL.into_iter().filter(move |f| self.contains(*f))
    }

    /// Set bits that no source names.
    pub const fn unknown_bits(self) -> u32 {
        self.0 & !Self::KNOWN
    }
}

/// The warning word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WarningWord(pub u32);

impl WarningWord {
    /// Whether bit 0, the overtemperature warning (135 °C; 93 °C on RS01), is set.
    pub const fn overtemperature(self) -> bool {
        self.0 & 1 != 0
    }

    /// Set bits that no source names.
    pub const fn unknown_bits(self) -> u32 {
        self.0 & !1
    }
}

/// A type-21 fault frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FaultFrame {
    /// The motor's CAN id (bits 15–8).
    pub motor: u8,
    /// The host byte (bits 7–0).
    pub host: u8,
    /// The fault word.
    pub faults: FaultWord,
    /// The warning word.
    pub warnings: WarningWord,
}

impl FaultFrame {
    pub(crate) fn from_parts(motor: u8, host: u8, data: &[u8; 8]) -> FaultFrame {
        let [f0, f1, f2, f3, w0, w1, w2, w3] = *data;
        FaultFrame {
            motor,
            host,
            faults: FaultWord(u32::from_le_bytes([f0, f1, f2, f3])),
            warnings: WarningWord(u32::from_le_bytes([w0, w1, w2, w3])),
        }
    }
}
