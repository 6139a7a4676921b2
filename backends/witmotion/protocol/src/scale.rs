//! From raw words to SI units and back, one constant per factor with its source
//! (`docs/witmotion-protocol.md` §2 has the table).
//!
//! Every factor is WitMotion's own, stated twice: in code by the SDK
//! (`WITMOTION/WitStandardProtocol_JY901`, commit `e8f4e3a`: `Linux_C/normal/main.c`,
//! `Python/Python-WitProtocol/chs/lib/protocol_resolver/roles/wit_protocol_resolver.py`,
//! `Windows_C#/Wit.Example_JY901/Jy901/Components/JY901Processor.cs`) and in prose by the WT901
//! datasheet v20-0702, §5.1.2–5.1.6 and its register table. The SDK's code scales by
//! fixed ranges (±16 g, ±2000 °/s) whatever the ACCRANGE and GYRORANGE registers hold, and so
//! does this crate.
//!
//! Decoding multiplies the word by one `f32` factor. Encoding rounds to the nearest word and
//! saturates at ±32767/−32768, as the sensor's own outputs do at full scale; angles wrap instead,
//! since +180° and −180° are one angle.

use core::f32::consts::PI;

/// Standard gravity g<sub>n</sub>, m/s²: the value this crate gives the "g" of the
/// acceleration formula.
///
/// WitMotion's formula is `a = word / 32768 · 16 g` with "g is gravity acceleration, 9.8 m/s²"
/// (WT901 datasheet v20-0702 §5.1.2; the SDK's ROS node `ROS/wit/wit_ros_ws/src/scripts/
/// wit_normal_ros.py` multiplies by 9.8). The g of an accelerometer's range and sensitivity is
/// the unit g<sub>n</sub> = 9.80665 m/s² exactly (3rd CGPM, 1901; ISO 80000-3), not local gravity,
/// which the sensor cannot know; "9.8" is that unit rounded in prose. The difference is 0.07 %,
/// 1.4 counts at 1 g.
pub const STANDARD_GRAVITY: f32 = 9.806_65;

/// Acceleration full scale, g: a word of 32768 would be 16 g.
///
/// `fAcc[i] = sReg[AX+i] / 32768.0f * 16.0f` (`Linux_C/normal/main.c`); `accRange = 16.0`
/// (`wit_protocol_resolver.py`); "ax=((AxH<<8)|AxL)/32768*16g" (WT901 datasheet §5.1.2).
pub const ACCELERATION_FULL_SCALE_G: f32 = 16.0;

/// Angular-velocity full scale, °/s: a word of 32768 would be 2000 °/s.
///
/// `fGyro[i] = sReg[GX+i] / 32768.0f * 2000.0f` (`Linux_C/normal/main.c`);
/// "wx=((wxH<<8)|wxL)/32768*2000(°/s)" (WT901 datasheet §5.1.3).
pub const ANGULAR_VELOCITY_FULL_SCALE_DEG_PER_S: f32 = 2000.0;

/// Angle full scale, °: a word of 32768 would be 180°.
///
/// `fAngle[i] = sReg[Roll+i] / 32768.0f * 180.0f` (`Linux_C/normal/main.c`);
/// "Roll=((RollH<<8)|RollL)/32768*180(°)" (WT901 datasheet §5.1.4).
pub const ANGLE_FULL_SCALE_DEG: f32 = 180.0;

/// Words per °C of a temperature word.
///
/// "T=((TH<<8)|TL)/100" (WT901 datasheet §5.1.2, 5.1.3, 5.1.5); `tempVal / 100.0`
/// (`wit_protocol_resolver.py`); `reg51_3 / 100.0` (`JY901Processor.cs`). The MPU6050-based
/// JY61 family used `T/340 + 36.53` instead (BWT61CL datasheet §6.1.1); this crate does not
/// support those.
pub const TEMPERATURE_WORDS_PER_DEGREE: f32 = 100.0;

/// One word of acceleration, m/s².
pub const ACCELERATION_PER_WORD: f32 = ACCELERATION_FULL_SCALE_G * STANDARD_GRAVITY / 32768.0;

/// One word of angular velocity, rad/s.
pub const ANGULAR_VELOCITY_PER_WORD: f32 =
    ANGULAR_VELOCITY_FULL_SCALE_DEG_PER_S / 32768.0 * (PI / 180.0);

/// One word of angle, rad (π/32768).
pub const ANGLE_PER_WORD: f32 = ANGLE_FULL_SCALE_DEG / 32768.0 * (PI / 180.0);

/// One word of a quaternion component: 1/32768.
///
/// "Q0=((Q0H<<8)|Q0L)/32768" (WT901SDCL datasheet v20-0605 §6.1.6); `/ 32768.0`
/// (`wit_protocol_resolver.py`, `JY901Processor.cs`).
pub const QUATERNION_PER_WORD: f32 = 1.0 / 32768.0;

/// One word of temperature, °C.
pub const TEMPERATURE_PER_WORD: f32 = 1.0 / TEMPERATURE_WORDS_PER_DEGREE;

/// How far from 1 the norm of a decoded quaternion may be before the frame is rejected.
///
/// Rounding the four components moves the norm by at most 3·10⁻⁵, and the recorded
/// quaternions are within 6·10⁻⁵ of unit norm (`docs/witmotion-protocol.md` §5); this is 16
/// times that. A frame further off is corruption that the 8-bit checksum let through, or a
/// device whose fusion has not started (all zeros). The check is coarse: an error of one high
/// byte (256 counts) is caught on a component above 0.13 in size, not on one near 0.
pub const QUATERNION_NORM_TOLERANCE: f32 = 0.001;

/// The word nearest `value / per_word`, saturated to the `i16` range. Callers check that `value`
/// is finite (a NaN would become 0).
#[inline]
pub(crate) fn saturating_word(value: f32, per_word: f32) -> i16 {
    // `as` saturates at the i16 range.
    libm::roundf(value / per_word) as i16
}

/// The angle word of `radians`, wrapped into [−π, π) first. Callers check that it is finite.
#[inline]
pub(crate) fn angle_word(radians: f32) -> i16 {
    let words = libm::roundf(radians / ANGLE_PER_WORD);
    let wrapped = words - 65536.0 * libm::floorf((words + 32768.0) / 65536.0);
    // In range by construction; `as` saturates if rounding of a huge angle left it outside.
    wrapped as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_scale_words_are_the_documented_ranges() {
        let g = 32768.0 * ACCELERATION_PER_WORD / STANDARD_GRAVITY;
        assert!((g - 16.0).abs() < 1e-5, "{g}");
        let deg_per_s = 32768.0 * ANGULAR_VELOCITY_PER_WORD * 180.0 / PI;
        assert!((deg_per_s - 2000.0).abs() < 1e-2, "{deg_per_s}");
        assert_eq!(-32768.0 * ANGLE_PER_WORD, -PI);
    }

    #[test]
    fn words_saturate_and_angles_wrap() {
        assert_eq!(saturating_word(1e9, ACCELERATION_PER_WORD), i16::MAX);
        assert_eq!(saturating_word(-1e9, ACCELERATION_PER_WORD), i16::MIN);
        assert_eq!(saturating_word(0.004, 0.01), 0);
        assert_eq!(saturating_word(0.006, 0.01), 1);
        assert_eq!(saturating_word(-0.006, 0.01), -1);
        assert_eq!(angle_word(PI), i16::MIN);
        assert_eq!(angle_word(-PI), i16::MIN);
        assert_eq!(angle_word(3.0 * PI), i16::MIN);
        assert_eq!(angle_word(PI / 2.0), 16384);
        assert_eq!(angle_word(PI / 2.0 - 4.0 * PI), 16384);
        assert_eq!(angle_word(-PI / 2.0), -16384);
        assert_eq!(angle_word(1e30), angle_word(1e30)); // in range, no panic
    }
}
