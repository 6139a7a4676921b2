//! The parameters read and written with types 17 and 18 (docs/robstride-protocol.md §8, from M §4.1.13).
//!
//! ```text
//! data [0..2] index, u16 little-endian   [2..4] 00 00
//!      [4..8] value, little-endian: f32, u32, u16/i16 in bytes 4–5, u8 in byte 4 (rest 0)
//! ```

use crate::error::{EncodeError, Field};

/// A parameter's value type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// One byte, in data byte 4.
    U8,
    /// Unsigned 16 bits, bytes 4–5.
    U16,
    /// Signed 16 bits, bytes 4–5.
    I16,
    /// Unsigned 32 bits, bytes 4–7.
    U32,
    /// IEEE-754 single, bytes 4–7.
    F32,
}

/// A parameter value.
#[derive(Debug, Clone, Copy, PartialEq)]
#[allow(missing_docs)]
pub enum ParamValue {
    U8(u8),
    U16(u16),
    I16(i16),
    U32(u32),
    F32(f32),
}

impl ParamValue {
    /// The value's type.
    pub const fn ty(self) -> ParamType {
        match self {
            ParamValue::U8(_) => ParamType::U8,
            ParamValue::U16(_) => ParamType::U16,
            ParamValue::I16(_) => ParamType::I16,
            ParamValue::U32(_) => ParamType::U32,
            ParamValue::F32(_) => ParamType::F32,
        }
    }

    /// Data bytes 4–7 carrying the value.
    pub fn to_bytes(self) -> [u8; 4] {
        match self {
            ParamValue::U8(v) => [v, 0, 0, 0],
            ParamValue::U16(v) => {
                let [a, b] = v.to_le_bytes();
                [a, b, 0, 0]
            }
            ParamValue::I16(v) => {
                let [a, b] = v.to_le_bytes();
                [a, b, 0, 0]
            }
            ParamValue::U32(v) => v.to_le_bytes(),
            ParamValue::F32(v) => v.to_le_bytes(),
        }
    }

    /// The value of type `ty` in data bytes 4–7. Bytes beyond the type's width are ignored
    /// (the manual says they are 0 but does not say a reply is invalid otherwise).
    pub fn from_bytes(ty: ParamType, bytes: [u8; 4]) -> ParamValue {
        let [a, b, c, d] = bytes;
        match ty {
            ParamType::U8 => ParamValue::U8(a),
            ParamType::U16 => ParamValue::U16(u16::from_le_bytes([a, b])),
            ParamType::I16 => ParamValue::I16(i16::from_le_bytes([a, b])),
            ParamType::U32 => ParamValue::U32(u32::from_le_bytes(bytes)),
            ParamType::F32 => ParamValue::F32(f32::from_le_bytes([a, b, c, d])),
        }
    }
}

/// The number alone, as a person writes it (`30`, `0.5`, `3`): the type is the parameter's.
impl core::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ParamValue::U8(v) => v.fmt(f),
            ParamValue::U16(v) => v.fmt(f),
            ParamValue::I16(v) => v.fmt(f),
            ParamValue::U32(v) => v.fmt(f),
            ParamValue::F32(v) => v.fmt(f),
        }
    }
}

macro_rules! params {
    ($($(#[$doc:meta])* $name:ident = $index:literal, $text:literal, $ty:ident, $access:ident;)*) => {
        /// A parameter of the 0x70xx table (§8).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Param {
            $($(#[$doc])* $name,)*
        }

        impl Param {
            /// Every parameter, by index.
            pub const ALL: &'static [Param] = &[$(Param::$name,)*];

            /// The parameter's index.
            pub const fn index(self) -> u16 {
                match self { $(Param::$name => $index,)* }
            }

            /// The manual's name, `loc_kp`.
            pub const fn name(self) -> &'static str {
                match self { $(Param::$name => $text,)* }
            }

            /// The value type.
            pub const fn ty(self) -> ParamType {
                match self { $(Param::$name => ParamType::$ty,)* }
            }

            /// Whether the manual marks the parameter read-only (R).
            pub const fn read_only(self) -> bool {
                match self { $(Param::$name => params!(@ro $access),)* }
            }

            /// The parameter with index `index`, if the table lists it.
            pub const fn from_index(index: u16) -> Option<Param> {
                match index { $($index => Some(Param::$name),)* _ => None }
            }
        }
    };
    (@ro R) => { true };
    (@ro W) => { false };
}

/// The unit of [`Param::CanTimeout`]: ticks per second (20000 is 1 s; docs/robstride-protocol.md §8 and §12).
pub const CAN_TIMEOUT_TICKS_PER_SECOND: u32 = 20_000;

params! {
    /// Run mode, see [`RunMode`].
    RunMode = 0x7005, "run_mode", U8, W;
    /// Current-mode Iq target, A.
    IqRef = 0x7006, "iq_ref", F32, W;
    /// Velocity-mode target, rad/s.
    SpdRef = 0x700A, "spd_ref", F32, W;
    /// Torque limit, N·m.
    LimitTorque = 0x700B, "limit_torque", F32, W;
    /// Current-loop Kp.
    CurKp = 0x7010, "cur_kp", F32, W;
    /// Current-loop Ki.
    CurKi = 0x7011, "cur_ki", F32, W;
    /// Current filter gain, 0..1.
    CurFiltGain = 0x7014, "cur_filt_gain", F32, W;
    /// Position target (PP and CSP), rad.
    LocRef = 0x7016, "loc_ref", F32, W;
    /// CSP speed limit, rad/s.
    LimitSpd = 0x7017, "limit_spd", F32, W;
    /// Current limit in velocity/position modes, A.
    LimitCur = 0x7018, "limit_cur", F32, W;
    /// Load-side multi-turn angle, rad.
    MechPos = 0x7019, "mechPos", F32, R;
    /// Filtered Iq, A.
    Iqf = 0x701A, "iqf", F32, R;
    /// Load-side speed, rad/s (0x701B, not 0x701A).
    MechVel = 0x701B, "mechVel", F32, R;
    /// Bus voltage, V.
    Vbus = 0x701C, "VBUS", F32, R;
    /// Turn count (in SP's `Index_List` only, not in the manual's table).
    Rotation = 0x701D, "rotation", I16, W;
    /// Position Kp.
    LocKp = 0x701E, "loc_kp", F32, W;
    /// Speed Kp.
    SpdKp = 0x701F, "spd_kp", F32, W;
    /// Speed Ki.
    SpdKi = 0x7020, "spd_ki", F32, W;
    /// Speed filter gain.
    SpdFiltGain = 0x7021, "spd_filt_gain", F32, W;
    /// Velocity-mode acceleration, rad/s².
    AccRad = 0x7022, "acc_rad", F32, W;
    /// PP speed, rad/s.
    VelMax = 0x7024, "vel_max", F32, W;
    /// PP acceleration, rad/s².
    AccSet = 0x7025, "acc_set", F32, W;
    /// Active-report period: 1 = 10 ms, each +1 adds 5 ms.
    EpscanTime = 0x7026, "EPScan_time", U16, W;
    /// CAN watchdog: 20000 = 1 s, 0 = off.
    CanTimeout = 0x7028, "canTimeout", U32, W;
    /// Power-on angle range: 0 gives 0..2π, 1 gives −π..π (save with type 22).
    ZeroSta = 0x7029, "zero_sta", U8, W;
    /// 1 disables the unpowered back-drive damping.
    Damper = 0x702A, "damper", U8, W;
    /// Zero offset.
    AddOffset = 0x702B, "add_offset", F32, W;
    /// Cogging compensation switch.
    AlveolousOpen = 0x702C, "alveolous_open", U8, W;
    /// Longer initialisation calibration.
    IqTest = 0x702D, "iq_test", U8, W;
    /// Separate PP deceleration, rad/s².
    DccSet = 0x702E, "dcc_set", F32, W;
}

/// The values of [`Param::RunMode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum RunMode {
    /// 0: operation control (type 1).
    Operation = 0,
    /// 1: PP position.
    Position = 1,
    /// 2: velocity.
    Velocity = 2,
    /// 3: current.
    Current = 3,
    /// 5: CSP position.
    Csp = 5,
}

/// A checked write: a writable parameter and a value of its type, finite if a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParamWrite {
    param: Param,
    value: ParamValue,
}

impl ParamWrite {
    /// A write of `value` to `param`; an error if `param` is read-only, `value` is of another
    /// type, or a NaN or infinite float.
    pub fn new(param: Param, value: ParamValue) -> Result<ParamWrite, EncodeError> {
        let index = param.index();
        if param.read_only() {
            return Err(EncodeError::ReadOnly { index });
        }
        if value.ty() != param.ty() {
            return Err(EncodeError::ParamType { index });
        }
        if let ParamValue::F32(v) = value
            && !v.is_finite()
        {
            return Err(EncodeError::NonFinite {
                field: Field::Value,
            });
        }
        Ok(ParamWrite { param, value })
    }

    /// A write of run mode `mode`.
    pub const fn run_mode(mode: RunMode) -> ParamWrite {
        ParamWrite {
            param: Param::RunMode,
            value: ParamValue::U8(mode as u8),
        }
    }

    /// The parameter.
    pub const fn param(&self) -> Param {
        self.param
    }

    /// The value.
    pub const fn value(&self) -> ParamValue {
        self.value
    }

    /// The 8 data bytes of the type-18 frame.
    pub fn data(&self) -> [u8; 8] {
        let [i0, i1] = self.param.index().to_le_bytes();
        let [v0, v1, v2, v3] = self.value.to_bytes();
        [i0, i1, 0, 0, v0, v1, v2, v3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_maps_back_to_its_parameter() {
        for &p in Param::ALL {
            assert_eq!(Param::from_index(p.index()), Some(p), "{}", p.name());
        }
        assert_eq!(Param::ALL.len(), 30);
        assert_eq!(Param::from_index(0x7000), None);
    }

    #[test]
    fn mech_vel_is_0x701b_not_0x701a() {
        assert_eq!(Param::MechVel.index(), 0x701B);
        assert_eq!(Param::from_index(0x701A), Some(Param::Iqf));
    }

    #[test]
    fn writes_are_checked() {
        assert_eq!(
            ParamWrite::new(Param::Vbus, ParamValue::F32(24.0)),
            Err(EncodeError::ReadOnly { index: 0x701C })
        );
        assert_eq!(
            ParamWrite::new(Param::RunMode, ParamValue::F32(1.0)),
            Err(EncodeError::ParamType { index: 0x7005 })
        );
        assert_eq!(
            ParamWrite::new(Param::LocRef, ParamValue::F32(f32::NAN)),
            Err(EncodeError::NonFinite {
                field: Field::Value
            })
        );
    }
}
