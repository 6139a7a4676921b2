//! Frames decoded to SI units, and encoded back for the device's side
//! (`docs/witmotion-protocol.md` §2–3).
//!
//! The fourth word of the acceleration, angular-velocity and magnetic-field frames is the chip
//! temperature in the WT901 datasheet (v20-0702 §5.1.2, 5.1.3, 5.1.5); WitMotion's SDK reads it
//! only from the acceleration frame (`CopeWitData` in `Linux_C/normal/wit_c_sdk.c` files it as
//! register TEMP, and skips it for the other two). A WTGAHRS2 sends the temperature in the
//! angular-velocity frame too, and 0 in the magnetic-field frame (`tests/captures.rs`): read the
//! acceleration frame's. The angle frame's fourth word is the firmware version (register
//! VERSION for the SDK, "Version=(VH<<8)|VL" in the datasheet).

use crate::error::{DecodeError, EncodeError, Field};
use crate::frame::Frame;
use crate::kind::FrameKind;
use crate::orientation::Quaternion;
use crate::scale::{
    ACCELERATION_PER_WORD, ANGLE_PER_WORD, ANGULAR_VELOCITY_PER_WORD, QUATERNION_NORM_TOLERANCE,
    QUATERNION_PER_WORD, TEMPERATURE_PER_WORD, TEMPERATURE_WORDS_PER_DEGREE, angle_word,
    saturating_word,
};

/// A decoded frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reading {
    /// `0x50`.
    Time(Time),
    /// `0x51`.
    Acceleration(Acceleration),
    /// `0x52`.
    AngularVelocity(AngularVelocity),
    /// `0x53`.
    Angle(Angle),
    /// `0x54`.
    MagneticField(MagneticField),
    /// `0x59`: the device's own orientation, normalised.
    Quaternion(Quaternion),
    /// `0x5F`: four consecutive registers, the first the one
    /// [`Command::ReadRegisters`](crate::Command::ReadRegisters) asked for (the frame does not
    /// say which).
    RegisterValues([u16; 4]),
}

impl Reading {
    /// The reading a frame carries. Never panics; the error names a type kept raw
    /// ([`DecodeError::NotDecoded`]) or a quaternion that is not one.
    #[inline]
    pub fn decode(frame: &Frame) -> Result<Reading, DecodeError> {
        let words = frame.words();
        Ok(match frame.kind() {
            FrameKind::Time => Reading::Time(Time::from_data(*frame.data())),
            FrameKind::Acceleration => Reading::Acceleration(Acceleration::from_words(words)),
            FrameKind::AngularVelocity => {
                Reading::AngularVelocity(AngularVelocity::from_words(words))
            }
            FrameKind::Angle => Reading::Angle(Angle::from_words(words)),
            FrameKind::MagneticField => Reading::MagneticField(MagneticField::from_words(words)),
            FrameKind::Quaternion => Reading::Quaternion(quaternion_from_words(words)?),
            FrameKind::RegisterValues => Reading::RegisterValues(words.map(|w| w as u16)),
            kind @ (FrameKind::PortStatus
            | FrameKind::Pressure
            | FrameKind::GpsPosition
            | FrameKind::GpsSpeed
            | FrameKind::GpsAccuracy) => return Err(DecodeError::NotDecoded { kind }),
        })
    }

    /// The frame type that carries this reading.
    pub const fn kind(&self) -> FrameKind {
        match self {
            Reading::Time(_) => FrameKind::Time,
            Reading::Acceleration(_) => FrameKind::Acceleration,
            Reading::AngularVelocity(_) => FrameKind::AngularVelocity,
            Reading::Angle(_) => FrameKind::Angle,
            Reading::MagneticField(_) => FrameKind::MagneticField,
            Reading::Quaternion(_) => FrameKind::Quaternion,
            Reading::RegisterValues(_) => FrameKind::RegisterValues,
        }
    }

    /// The frame a device sends for this reading: each value rounded to the nearest word,
    /// saturated at full scale (angles wrapped into [−π, π)). Refuses NaN and ±∞.
    pub fn encode(&self) -> Result<Frame, EncodeError> {
        match self {
            Reading::Time(t) => Ok(t.encode()),
            Reading::Acceleration(a) => a.encode(),
            Reading::AngularVelocity(w) => w.encode(),
            Reading::Angle(a) => a.encode(),
            Reading::MagneticField(m) => m.encode(),
            Reading::Quaternion(q) => encode_quaternion(q),
            Reading::RegisterValues(values) => Ok(Frame::from_words(
                FrameKind::RegisterValues,
                values.map(|v| v as i16),
            )),
        }
    }
}

/// The on-board clock (`0x50`): "YY MM DD hh mm ss msL msH", year 20YY (WT901 datasheet
/// §5.1.1). Kept as sent; a clock never set reads whatever the device starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Time {
    /// Years since 2000.
    pub year: u8,
    /// Month, 1–12.
    pub month: u8,
    /// Day of the month.
    pub day: u8,
    /// Hour, 0–23.
    pub hour: u8,
    /// Minute.
    pub minute: u8,
    /// Second.
    pub second: u8,
    /// Millisecond, 0–999.
    pub millisecond: u16,
}

impl Time {
    fn from_data(d: [u8; 8]) -> Time {
        Time {
            year: d[0],
            month: d[1],
            day: d[2],
            hour: d[3],
            minute: d[4],
            second: d[5],
            millisecond: u16::from_le_bytes([d[6], d[7]]),
        }
    }

    /// The `0x50` frame.
    pub const fn encode(&self) -> Frame {
        let [ms0, ms1] = self.millisecond.to_le_bytes();
        Frame::new(
            FrameKind::Time,
            [
                self.year,
                self.month,
                self.day,
                self.hour,
                self.minute,
                self.second,
                ms0,
                ms1,
            ],
        )
    }
}

/// Specific force along the sensor axes (`0x51`), m/s²: +9.81 on z when lying still and level,
/// as REP-145 wants it. Range ±16 g.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Acceleration {
    /// Along x, m/s².
    pub x: f32,
    /// Along y, m/s².
    pub y: f32,
    /// Along z, m/s².
    pub z: f32,
    /// Chip temperature, °C.
    pub temperature: f32,
}

impl Acceleration {
    /// The reading of an acceleration frame's words.
    #[inline]
    pub fn from_words([x, y, z, t]: [i16; 4]) -> Acceleration {
        Acceleration {
            x: f32::from(x) * ACCELERATION_PER_WORD,
            y: f32::from(y) * ACCELERATION_PER_WORD,
            z: f32::from(z) * ACCELERATION_PER_WORD,
            temperature: f32::from(t) / TEMPERATURE_WORDS_PER_DEGREE,
        }
    }

    /// The `0x51` frame.
    pub fn encode(&self) -> Result<Frame, EncodeError> {
        let [x, y, z] = vector_words([self.x, self.y, self.z], ACCELERATION_PER_WORD)?;
        let t = temperature_word(self.temperature)?;
        Ok(Frame::from_words(FrameKind::Acceleration, [x, y, z, t]))
    }
}

/// Angular velocity about the sensor axes (`0x52`), rad/s, right-handed. Range ±2000 °/s.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AngularVelocity {
    /// About x, rad/s.
    pub x: f32,
    /// About y, rad/s.
    pub y: f32,
    /// About z, rad/s.
    pub z: f32,
    /// The fourth word as a temperature, °C (see the module docs: firmware-dependent).
    pub temperature: f32,
}

impl AngularVelocity {
    /// The reading of an angular-velocity frame's words.
    #[inline]
    pub fn from_words([x, y, z, t]: [i16; 4]) -> AngularVelocity {
        AngularVelocity {
            x: f32::from(x) * ANGULAR_VELOCITY_PER_WORD,
            y: f32::from(y) * ANGULAR_VELOCITY_PER_WORD,
            z: f32::from(z) * ANGULAR_VELOCITY_PER_WORD,
            temperature: f32::from(t) / TEMPERATURE_WORDS_PER_DEGREE,
        }
    }

    /// The `0x52` frame.
    pub fn encode(&self) -> Result<Frame, EncodeError> {
        let [x, y, z] = vector_words([self.x, self.y, self.z], ANGULAR_VELOCITY_PER_WORD)?;
        let t = temperature_word(self.temperature)?;
        Ok(Frame::from_words(FrameKind::AngularVelocity, [x, y, z, t]))
    }
}

/// The device's Euler angles (`0x53`), rad, in its Z-Y-X convention
/// ([`orientation`](crate::orientation)): roll and yaw in [−π, π), pitch in [−π/2, π/2].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Angle {
    /// About x, applied last, rad.
    pub roll: f32,
    /// About y, rad.
    pub pitch: f32,
    /// About z, applied first, rad.
    pub yaw: f32,
    /// The firmware version word.
    pub version: u16,
}

impl Angle {
    /// The reading of an angle frame's words.
    #[inline]
    pub fn from_words([roll, pitch, yaw, version]: [i16; 4]) -> Angle {
        Angle {
            roll: f32::from(roll) * ANGLE_PER_WORD,
            pitch: f32::from(pitch) * ANGLE_PER_WORD,
            yaw: f32::from(yaw) * ANGLE_PER_WORD,
            version: version as u16,
        }
    }

    /// The orientation these angles describe, sensor frame to reference frame.
    #[inline]
    pub fn to_quaternion(&self) -> Quaternion {
        Quaternion::from_euler(self.roll, self.pitch, self.yaw)
    }

    /// The `0x53` frame.
    pub fn encode(&self) -> Result<Frame, EncodeError> {
        let roll = finite(self.roll, Field::Roll)?;
        let pitch = finite(self.pitch, Field::Pitch)?;
        let yaw = finite(self.yaw, Field::Yaw)?;
        Ok(Frame::from_words(
            FrameKind::Angle,
            [
                angle_word(roll),
                angle_word(pitch),
                angle_word(yaw),
                self.version as i16,
            ],
        ))
    }
}

/// The magnetic field along the sensor axes (`0x54`), in the magnetometer's raw counts.
///
/// No scale is documented for all devices: the datasheets give the bare word ("Hx=((HxH<<8)|
/// HxL)"), and WitMotion's C# SDK converts it by the magnetometer chip named in register
/// MAGSENSOR (0x72) with a helper it ships only compiled (`DipSensorMagHelper.GetMagToUt` in
/// `JY901Processor.cs`). So the counts stay counts: enough for a heading, not tesla.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MagneticField {
    /// Along x, counts.
    pub x: i16,
    /// Along y, counts.
    pub y: i16,
    /// Along z, counts.
    pub z: i16,
    /// The fourth word as a temperature, °C (see the module docs: firmware-dependent).
    pub temperature: f32,
}

impl MagneticField {
    /// The reading of a magnetic-field frame's words.
    #[inline]
    pub fn from_words([x, y, z, t]: [i16; 4]) -> MagneticField {
        MagneticField {
            x,
            y,
            z,
            temperature: f32::from(t) / TEMPERATURE_WORDS_PER_DEGREE,
        }
    }

    /// The `0x54` frame.
    pub fn encode(&self) -> Result<Frame, EncodeError> {
        let t = temperature_word(self.temperature)?;
        Ok(Frame::from_words(
            FrameKind::MagneticField,
            [self.x, self.y, self.z, t],
        ))
    }
}

/// The quaternion frame's words are w, x, y, z: "Q0 … Q3" in the datasheets, with Q0 the
/// scalar part, as both recordings in `tests/captures.rs` show.
#[inline]
fn quaternion_from_words([w, x, y, z]: [i16; 4]) -> Result<Quaternion, DecodeError> {
    let q = Quaternion::new(
        f32::from(x) * QUATERNION_PER_WORD,
        f32::from(y) * QUATERNION_PER_WORD,
        f32::from(z) * QUATERNION_PER_WORD,
        f32::from(w) * QUATERNION_PER_WORD,
    );
    // |‖q‖ − 1| ≤ tolerance, compared squared: no square root.
    const LOWEST: f32 = (1.0 - QUATERNION_NORM_TOLERANCE) * (1.0 - QUATERNION_NORM_TOLERANCE);
    const HIGHEST: f32 = (1.0 + QUATERNION_NORM_TOLERANCE) * (1.0 + QUATERNION_NORM_TOLERANCE);
    let squared = q.dot(q);
    if !(LOWEST..=HIGHEST).contains(&squared) {
        return Err(DecodeError::QuaternionNorm);
    }
    // 1/‖q‖ by one Newton step from 1, (3 − ‖q‖²)/2: no square root, no division, and off by
    // 3(‖q‖² − 1)²/8, below 1.5·10⁻⁶ at the tolerance's edge and 10⁻⁸ for the recorded frames.
    let inverse = 0.5 * (3.0 - squared);
    Ok(Quaternion::new(
        q.x * inverse,
        q.y * inverse,
        q.z * inverse,
        q.w * inverse,
    ))
}

fn encode_quaternion(q: &Quaternion) -> Result<Frame, EncodeError> {
    let w = finite(q.w, Field::W)?;
    let [x, y, z] = finite3([q.x, q.y, q.z])?;
    let word = |c| saturating_word(c, QUATERNION_PER_WORD);
    Ok(Frame::from_words(
        FrameKind::Quaternion,
        [word(w), word(x), word(y), word(z)],
    ))
}

fn vector_words(v: [f32; 3], per_word: f32) -> Result<[i16; 3], EncodeError> {
    Ok(finite3(v)?.map(|c| saturating_word(c, per_word)))
}

fn temperature_word(celsius: f32) -> Result<i16, EncodeError> {
    Ok(saturating_word(
        finite(celsius, Field::Temperature)?,
        TEMPERATURE_PER_WORD,
    ))
}

fn finite3([x, y, z]: [f32; 3]) -> Result<[f32; 3], EncodeError> {
    Ok([
        finite(x, Field::X)?,
        finite(y, Field::Y)?,
        finite(z, Field::Z)?,
    ])
}

#[inline]
fn finite(value: f32, field: Field) -> Result<f32, EncodeError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(EncodeError::NonFinite { field })
    }
}
