//! An output frame's type byte, and the names WitMotion's SDK gives each.

/// An output frame's type: the byte after the header.
///
/// Every type WitMotion's SDK names (`WIT_TIME` … `WIT_GSA`, `WIT_REGVALUE` in
/// `Linux_C/normal/REG.h` of `WITMOTION/WitStandardProtocol_JY901`). This crate decodes the
/// first five, the quaternion and the register values to SI units ([`Reading`](crate::Reading));
/// the others stay raw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum FrameKind {
    /// `0x50`: the on-board clock.
    Time = 0x50,
    /// `0x51`: acceleration and temperature.
    Acceleration = 0x51,
    /// `0x52`: angular velocity and temperature.
    AngularVelocity = 0x52,
    /// `0x53`: Euler angles and firmware version.
    Angle = 0x53,
    /// `0x54`: magnetic field and temperature.
    MagneticField = 0x54,
    /// `0x55`: the D0–D3 port states (so `55 55` can start a frame).
    PortStatus = 0x55,
    /// `0x56`: barometric pressure and height.
    Pressure = 0x56,
    /// `0x57`: GPS longitude and latitude.
    GpsPosition = 0x57,
    /// `0x58`: GPS height, heading and ground speed.
    GpsSpeed = 0x58,
    /// `0x59`: orientation quaternion.
    Quaternion = 0x59,
    /// `0x5A`: GPS satellites and dilution of precision.
    GpsAccuracy = 0x5A,
    /// `0x5F`: four registers read with [`Command::ReadRegisters`](crate::Command::ReadRegisters).
    RegisterValues = 0x5F,
}

impl FrameKind {
    /// Every documented type, in byte order.
    pub const ALL: [FrameKind; 12] = [
        FrameKind::Time,
        FrameKind::Acceleration,
        FrameKind::AngularVelocity,
        FrameKind::Angle,
        FrameKind::MagneticField,
        FrameKind::PortStatus,
        FrameKind::Pressure,
        FrameKind::GpsPosition,
        FrameKind::GpsSpeed,
        FrameKind::Quaternion,
        FrameKind::GpsAccuracy,
        FrameKind::RegisterValues,
    ];

    /// The type of a type byte, or `None` for an undocumented one.
    #[inline]
    pub const fn from_byte(byte: u8) -> Option<FrameKind> {
        Some(match byte {
            0x50 => FrameKind::Time,
            0x51 => FrameKind::Acceleration,
            0x52 => FrameKind::AngularVelocity,
            0x53 => FrameKind::Angle,
            0x54 => FrameKind::MagneticField,
            0x55 => FrameKind::PortStatus,
            0x56 => FrameKind::Pressure,
            0x57 => FrameKind::GpsPosition,
            0x58 => FrameKind::GpsSpeed,
            0x59 => FrameKind::Quaternion,
            0x5A => FrameKind::GpsAccuracy,
            0x5F => FrameKind::RegisterValues,
            _ => return None,
        })
    }

    /// The type byte.
    #[inline]
    pub const fn byte(self) -> u8 {
        self as u8
    }

    /// The type's name, `acceleration`.
    pub const fn name(self) -> &'static str {
        match self {
            FrameKind::Time => "time",
            FrameKind::Acceleration => "acceleration",
            FrameKind::AngularVelocity => "angular velocity",
            FrameKind::Angle => "angle",
            FrameKind::MagneticField => "magnetic field",
            FrameKind::PortStatus => "port status",
            FrameKind::Pressure => "pressure",
            FrameKind::GpsPosition => "GPS position",
            FrameKind::GpsSpeed => "GPS speed",
            FrameKind::Quaternion => "quaternion",
            FrameKind::GpsAccuracy => "GPS accuracy",
            FrameKind::RegisterValues => "register values",
        }
    }
}
