//! Configuration commands, host to device: `FF AA register lo hi`, a 16-bit register write
//! (`docs/witmotion-protocol.md` §7).
//!
//! Registers and values are those of WitMotion's SDK: `Linux_C/normal/REG.h` and `WitWriteReg`,
//! `WitStartAccCali`, `WitSetOutputRate`, … in `Linux_C/normal/wit_c_sdk.c` of
//! `WITMOTION/WitStandardProtocol_JY901` (commit `e8f4e3a`). A write only sticks inside an
//! unlocked window: [`Command::Unlock`], the writes, then [`Command::Save`] to keep them over a
//! power cycle (the SDK sends each write after an unlock and waits 20 ms; WitMotion's protocol
//! notes say the window closes 10 s after the unlock). The device sends no acknowledgement;
//! read a register back with [`Command::ReadRegisters`] to check.

use crate::error::CommandError;
use crate::kind::FrameKind;

/// Bytes 0 and 1 of every command.
pub const COMMAND_HEADER: [u8; 2] = [0xFF, 0xAA];

/// Bytes in a command.
pub const COMMAND_LEN: usize = 5;

/// The register addresses this crate names (`Linux_C/normal/REG.h`).
pub mod register {
    /// Save, restart or factory reset.
    pub const SAVE: u8 = 0x00;
    /// Calibration mode.
    pub const CALSW: u8 = 0x01;
    /// Output content: which frame types are sent.
    pub const RSW: u8 = 0x02;
    /// Output rate.
    pub const RRATE: u8 = 0x03;
    /// Serial baud rate.
    pub const BAUD: u8 = 0x04;
    /// Read four registers from the given one: the answer is a `0x5F` frame.
    pub const READADDR: u8 = 0x27;
    /// Firmware version (read only).
    pub const VERSION: u8 = 0x2E;
    /// Unlock key.
    pub const KEY: u8 = 0x69;
}

/// The KEY value that unlocks writes: `KEY_UNLOCK 0xB588` (`REG.h`), `FF AA 69 88 B5` on the
/// wire (`unlock_imu_cmd` in the SDK's `wit_normal_ros.py`).
pub const KEY_UNLOCK: u16 = 0xB588;

/// SAVE values (`REG.h`: `SAVE_PARAM 0x00`, `SAVE_SWRST 0xFF`).
const SAVE_PARAMETERS: u16 = 0x0000;
const SAVE_RESTART: u16 = 0x00FF;
/// Not in `REG.h`: `ridSaveSettings` in `include/witmotion/types.h` of
/// `ElettraSciComp/witmotion_IMU_QT` documents "raw[0] = 0x01" as the factory reset.
const SAVE_FACTORY_RESET: u16 = 0x0001;

/// A configuration command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// KEY ← 0xB588: opens the write window.
    Unlock,
    /// SAVE ← 0x0000: keeps the current configuration over a power cycle.
    Save,
    /// SAVE ← 0x00FF: restarts the device (`SAVE_SWRST`).
    Restart,
    /// SAVE ← 0x0001: restores the factory configuration (documented by ElettraSciComp's
    /// library, not by WitMotion's `REG.h`).
    FactoryReset,
    /// CALSW ← mode.
    Calibrate(Calibration),
    /// RSW ← the types to send.
    SetOutputContent(OutputContent),
    /// RRATE ← the rate code.
    SetOutputRate(OutputRate),
    /// BAUD ← the baud code; the device switches at once, the host must follow.
    SetBaudRate(BaudRate),
    /// READADDR ← the first register: the device answers with a `0x5F` frame holding it and
    /// the next three (`WitReadReg`: `FF AA 27 reg 00`).
    ReadRegisters {
        /// The first register.
        first: u8,
    },
    /// Any other register write, raw (biases, ranges, ports…). [`Command::decode`] returns this
    /// only for registers it has no variant for.
    WriteRegister {
        /// The register.
        register: u8,
        /// The value.
        value: u16,
    },
}

impl Command {
    /// The register and value written.
    pub const fn register_value(&self) -> (u8, u16) {
        match *self {
            Command::Unlock => (register::KEY, KEY_UNLOCK),
            Command::Save => (register::SAVE, SAVE_PARAMETERS),
            Command::Restart => (register::SAVE, SAVE_RESTART),
            Command::FactoryReset => (register::SAVE, SAVE_FACTORY_RESET),
            Command::Calibrate(mode) => (register::CALSW, mode as u16),
            Command::SetOutputContent(content) => (register::RSW, content.bits()),
            Command::SetOutputRate(rate) => (register::RRATE, rate as u16),
            Command::SetBaudRate(baud) => (register::BAUD, baud as u16),
            Command::ReadRegisters { first } => (register::READADDR, first as u16),
            Command::WriteRegister { register, value } => (register, value),
        }
    }

    /// The five bytes on the wire: `FF AA register lo hi`.
    pub const fn encode(&self) -> [u8; COMMAND_LEN] {
        let (register, value) = self.register_value();
        let [lo, hi] = value.to_le_bytes();
        [COMMAND_HEADER[0], COMMAND_HEADER[1], register, lo, hi]
    }

    /// The command in five bytes, as a simulated device reads it. Never panics.
    pub fn decode(bytes: &[u8; COMMAND_LEN]) -> Result<Command, CommandError> {
        let [h0, h1, register, lo, hi] = *bytes;
        if [h0, h1] != COMMAND_HEADER {
            return Err(CommandError::Header { found: [h0, h1] });
        }
        let value = u16::from_le_bytes([lo, hi]);
        let bad_value = CommandError::Value { register, value };
        // The byte-sized registers take their code in `lo`, `hi` zero.
        let byte_value = (hi == 0).then_some(lo);
        Ok(match register {
            register::KEY if value == KEY_UNLOCK => Command::Unlock,
            register::SAVE => match value {
                SAVE_PARAMETERS => Command::Save,
                SAVE_RESTART => Command::Restart,
                SAVE_FACTORY_RESET => Command::FactoryReset,
                _ => return Err(bad_value),
            },
            register::CALSW => Command::Calibrate(
                byte_value
                    .and_then(Calibration::from_code)
                    .ok_or(bad_value)?,
            ),
            register::RSW => Command::SetOutputContent(OutputContent::from_bits(value)),
            register::RRATE => Command::SetOutputRate(
                byte_value
                    .and_then(OutputRate::from_code)
                    .ok_or(bad_value)?,
            ),
            register::BAUD => {
                Command::SetBaudRate(byte_value.and_then(BaudRate::from_code).ok_or(bad_value)?)
            }
            register::READADDR => Command::ReadRegisters {
                first: byte_value.ok_or(bad_value)?,
            },
            register::KEY => return Err(bad_value),
            register => Command::WriteRegister { register, value },
        })
    }
}

/// CALSW modes (`REG.h`, `/* CALSW */`), the ones whose use WitMotion's code shows.
///
/// A calibration runs until [`Calibration::End`] is written; the SDK's
/// `WitStartAccCali`/`WitStopAccCali` bracket it so, with the device lying still and level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Calibration {
    /// `NORMAL`: ends a calibration, back to normal output.
    End = 0x00,
    /// `CALGYROACC`: accelerometer (and gyroscope) bias calibration, lying still and level
    /// (`WitStartAccCali`).
    Accelerometer = 0x01,
    /// `CALALTITUDE`: zeroes the barometric height.
    HeightReset = 0x03,
    /// `CALANGLEZ`: zeroes the yaw, the heading ("Yaw \[Z\] Euler angle origin point reset" in
    /// ElettraSciComp's `types.h`).
    HeadingReset = 0x04,
    /// `CALMAGMM`: magnetometer calibration, turning the device about every axis
    /// (`WitStartMagCali`).
    Magnetometer = 0x07,
    /// `CALREFANGLE`: takes the current attitude as the angle reference (`WitCaliRefAngle`).
    AngleReference = 0x08,
    /// `CALMAG2STEP`: two-step magnetometer calibration (`enter_mag_cali_cmd` in the SDK's
    /// `wit_normal_ros.py`).
    MagnetometerTwoStep = 0x09,
}

impl Calibration {
    /// The mode of a CALSW value, or `None` for one without a variant.
    pub const fn from_code(code: u8) -> Option<Calibration> {
        Some(match code {
            0x00 => Calibration::End,
            0x01 => Calibration::Accelerometer,
            0x03 => Calibration::HeightReset,
            0x04 => Calibration::HeadingReset,
            0x07 => Calibration::Magnetometer,
            0x08 => Calibration::AngleReference,
            0x09 => Calibration::MagnetometerTwoStep,
            _ => return None,
        })
    }
}

/// RSW: which frame types the device sends, bit n for type `0x50 + n` (`REG.h`: `RSW_TIME 0x01`
/// … `RSW_GSA 0x400`; the WT901 datasheet's "RSWL/RSWH byte definition", §5.2.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutputContent(u16);

impl OutputContent {
    /// Nothing.
    pub const NONE: OutputContent = OutputContent(0);
    /// The factory setting: acceleration, angular velocity, angle, magnetic field (the
    /// datasheet's defaults, bits 1–4).
    pub const DEFAULT: OutputContent = OutputContent(0x001E);

    /// The content of an RSW value. Bits 11–15 are undefined and kept.
    pub const fn from_bits(bits: u16) -> OutputContent {
        OutputContent(bits)
    }

    /// The RSW value.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The bit of a streamed type; `None` for [`FrameKind::RegisterValues`], which answers a
    /// read and is never streamed.
    pub const fn bit(kind: FrameKind) -> Option<u16> {
        match kind {
            FrameKind::RegisterValues => None,
            kind => Some(1 << (kind as u8 - FrameKind::Time as u8)),
        }
    }

    /// This content and `kind` too.
    pub const fn with(self, kind: FrameKind) -> OutputContent {
        match OutputContent::bit(kind) {
            Some(bit) => OutputContent(self.0 | bit),
            None => self,
        }
    }

    /// Whether `kind` is sent.
    pub const fn contains(self, kind: FrameKind) -> bool {
        match OutputContent::bit(kind) {
            Some(bit) => self.0 & bit != 0,
            None => false,
        }
    }
}

/// RRATE codes (`REG.h`: `RRATE_02HZ 0x01` … `RRATE_NONE 0x0d`; HWT905 datasheet v20-0707
/// §5.2.9). The device lowers the rate by itself when the baud rate cannot carry it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum OutputRate {
    /// 0.2 Hz (ElettraSciComp's `types.h` says 0.1 Hz; WitMotion's `REG.h` name and datasheet
    /// say 0.2).
    Hz0_2 = 0x01,
    /// 0.5 Hz.
    Hz0_5 = 0x02,
    /// 1 Hz.
    Hz1 = 0x03,
    /// 2 Hz.
    Hz2 = 0x04,
    /// 5 Hz.
    Hz5 = 0x05,
    /// 10 Hz, the factory setting.
    Hz10 = 0x06,
    /// 20 Hz.
    Hz20 = 0x07,
    /// 50 Hz.
    Hz50 = 0x08,
    /// 100 Hz.
    Hz100 = 0x09,
    /// 125 Hz ("only WT931" in `REG.h`).
    Hz125 = 0x0A,
    /// 200 Hz.
    Hz200 = 0x0B,
    /// One set of frames, then none.
    Once = 0x0C,
    /// No output.
    Stopped = 0x0D,
}

impl OutputRate {
    /// Every rate, by code.
    pub const ALL: [OutputRate; 13] = [
        OutputRate::Hz0_2,
        OutputRate::Hz0_5,
        OutputRate::Hz1,
        OutputRate::Hz2,
        OutputRate::Hz5,
        OutputRate::Hz10,
        OutputRate::Hz20,
        OutputRate::Hz50,
        OutputRate::Hz100,
        OutputRate::Hz125,
        OutputRate::Hz200,
        OutputRate::Once,
        OutputRate::Stopped,
    ];

    /// The rate of an RRATE code, or `None` for an undefined one.
    pub const fn from_code(code: u8) -> Option<OutputRate> {
        match code {
            0x01..=0x0D => Some(OutputRate::ALL[code as usize - 1]),
            _ => None,
        }
    }

    /// Frames of each type per second; `None` for [`OutputRate::Once`] and
    /// [`OutputRate::Stopped`].
    pub const fn hertz(self) -> Option<f32> {
        Some(match self {
            OutputRate::Hz0_2 => 0.2,
            OutputRate::Hz0_5 => 0.5,
            OutputRate::Hz1 => 1.0,
            OutputRate::Hz2 => 2.0,
            OutputRate::Hz5 => 5.0,
            OutputRate::Hz10 => 10.0,
            OutputRate::Hz20 => 20.0,
            OutputRate::Hz50 => 50.0,
            OutputRate::Hz100 => 100.0,
            OutputRate::Hz125 => 125.0,
            OutputRate::Hz200 => 200.0,
            OutputRate::Once | OutputRate::Stopped => return None,
        })
    }
}

/// BAUD codes for the serial port (`REG.h`: `WIT_BAUD_4800 1` … `WIT_BAUD_921600 9`; HWT905
/// datasheet §5.2.10). Factory setting 9600, or 115200 on devices with a USB converter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BaudRate {
    /// 4800 bit/s.
    B4800 = 1,
    /// 9600 bit/s.
    B9600 = 2,
    /// 19200 bit/s.
    B19200 = 3,
    /// 38400 bit/s.
    B38400 = 4,
    /// 57600 bit/s.
    B57600 = 5,
    /// 115200 bit/s.
    B115200 = 6,
    /// 230400 bit/s.
    B230400 = 7,
    /// 460800 bit/s.
    B460800 = 8,
    /// 921600 bit/s.
    B921600 = 9,
}

impl BaudRate {
    /// Every baud rate, by code.
    pub const ALL: [BaudRate; 9] = [
        BaudRate::B4800,
        BaudRate::B9600,
        BaudRate::B19200,
        BaudRate::B38400,
        BaudRate::B57600,
        BaudRate::B115200,
        BaudRate::B230400,
        BaudRate::B460800,
        BaudRate::B921600,
    ];

    /// The baud rate of a BAUD code, or `None` for an undefined one.
    pub const fn from_code(code: u8) -> Option<BaudRate> {
        match code {
            1..=9 => Some(BaudRate::ALL[code as usize - 1]),
            _ => None,
        }
    }

    /// The rate in bit/s.
    pub const fn bits_per_second(self) -> u32 {
        match self {
            BaudRate::B4800 => 4800,
            BaudRate::B9600 => 9600,
            BaudRate::B19200 => 19200,
            BaudRate::B38400 => 38400,
            BaudRate::B57600 => 57600,
            BaudRate::B115200 => 115_200,
            BaudRate::B230400 => 230_400,
            BaudRate::B460800 => 460_800,
            BaudRate::B921600 => 921_600,
        }
    }

    /// The code of a rate in bit/s, or `None` for one the device does not offer.
    pub fn from_bits_per_second(rate: u32) -> Option<BaudRate> {
        BaudRate::ALL
            .into_iter()
            .find(|b| b.bits_per_second() == rate)
    }
}
