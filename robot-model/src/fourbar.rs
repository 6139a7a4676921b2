//! Planar four-bar linkage kinematics, e.g. for an ankle joint driven by a
//! RobStride actuator through a linkage.
//!
//! # Conventions
//!
//! * Sagittal plane, coordinates `[x, z]` with x forward and z up, viewed with
//!   x to the right and z up (i.e. looking along +y). Plane angles are measured
//!   from +x, counter-clockwise (towards +z).
//! * The origin O is the joint (output-crank) pivot. The actuator
//!   (input-crank) pivot A is at [`FourBar::ground`] from O.
//! * Input crank A→B has length [`FourBar::input_crank`] and plane angle α.
//!   Coupler B→C has length [`FourBar::coupler`]. Output crank O→C has length
//!   [`FourBar::output_crank`] and plane angle β.
//! * The joint rotates about +y. A positive rotation about +y turns +z towards
//!   +x, which is clockwise in this view, so `β = β0 − q` with q the joint
//!   angle and β0 the output-crank plane angle at `q = 0`.
//! * Motor side: `α = alpha_zero + sign·θ`, with θ the motor angle measured
//!   from the linkage's zero (the actuator's own direction and zero offset are
//!   applied before this) and `sign = ±1`.
//! * At `q = 0` the input crank is at `alpha_zero`; β0 is found by assembling
//!   the linkage at `α = alpha_zero` on the chosen [`Branch`].
//! * Returned angles (q, θ, β0) are wrapped to (−π, π].
//! * The ratio is `J = dq/dθ` (joint velocity per motor velocity), so joint
//!   torque = motor torque / J when losses are ignored.
//!
//! # Branches
//!
//! For a given input angle the two assemblies are mirror images of C about
//! the line O–B. [`Branch`] picks one by the sign of `cross(B − O, C − O)`.
//! That sign is kept for both directions of the map, so away from singular
//! poses `motor_to_joint(joint_to_motor(q)) == q` up to rounding. When both
//! input-crank solutions for a given output angle have the required sign, the
//! one on the same side of the line A–C as the `q = 0` pose is used, which is
//! the continuous choice.
//!
//! # Toggles
//!
//! At an output toggle (O, B, C collinear) J is infinite; at an input toggle
//! (A, B, C collinear) J is 0. [`FourBar::check_range`] keeps a joint range
//! [`MIN_TRANSMISSION_ANGLE`] away from both.

use std::f64::consts::{PI, TAU};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod gap;
mod param;

pub use gap::Gap;
pub use param::FourBarParam;
use param::{bad, bad_param, finite, finite_param};

/// Smallest allowed angle between the coupler and either crank (20°).
///
/// The force along the coupler only turns a crank with its component
/// perpendicular to that crank, `sin μ`. Below about 20° the linkage is close
/// to a toggle: force transmission collapses, small errors in the lengths
/// give large errors in the pose, and the linkage may jam or flip branch.
pub const MIN_TRANSMISSION_ANGLE: f64 = 20.0 * PI / 180.0;

/// Cosines (acos arguments) this far outside [−1, 1] are rounding errors and
/// are clamped; beyond it the linkage does not assemble.
const CLAMP_TOL: f64 = 1e-12;

/// Sampling step of [`FourBar::check_range`] (0.25°).
const RANGE_STEP: f64 = 0.25 * PI / 180.0;

/// Which of the two assemblies of the linkage is used, named by the sign of
/// the orientation of triangle (O, B, C). For the lite_biped ankle it is
/// `CounterClockwise` (output crank pointing backwards, β0 ≈ 165.65°).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Branch {
    /// `cross(B − O, C − O) > 0`: going from ray O→B to ray O→C turns
    /// counter-clockwise (C lies to the left of O→B, seen with x right, z up).
    CounterClockwise,
    /// `cross(B − O, C − O) < 0`: going from ray O→B to ray O→C turns
    /// clockwise (C lies to the right of O→B, seen with x right, z up).
    Clockwise,
}

impl Branch {
    /// Both branches.
    pub const ALL: [Branch; 2] = [Branch::CounterClockwise, Branch::Clockwise];

    /// The branch as a definition and the JSON write it: `counter_clockwise`, `clockwise`.
    pub const fn name(self) -> &'static str {
        match self {
            Branch::CounterClockwise => "counter_clockwise",
            Branch::Clockwise => "clockwise",
        }
    }

    /// The branch named so.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == name)
    }

    fn sign(self) -> f64 {
        match self {
            Branch::CounterClockwise => 1.0,
            Branch::Clockwise => -1.0,
        }
    }
}

/// Side of the coupler at which a toggle (singular pose) is approached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToggleSide {
    /// Coupler vs input crank, at B (J goes to 0).
    Input,
    /// Coupler vs output crank, at C (J goes to infinity).
    Output,
}

impl std::fmt::Display for ToggleSide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ToggleSide::Input => "input",
            ToggleSide::Output => "output",
        })
    }
}

/// Errors of the four-bar kinematics. Messages are predicates, meant to
/// follow a subject such as "the four-bar of joint `x` ".
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum FourBarError {
    /// A parameter or argument is invalid (non-finite, non-positive length,
    /// sign not ±1, empty or too wide range).
    #[error("has bad geometry: {what} (got {value})")]
    BadGeometry {
        /// What is wrong.
        what: &'static str,
        /// The offending value.
        value: f64,
        /// The parameter it is, where it is one (not a joint range): a definition's error is
        /// placed on its value.
        param: Option<FourBarParam>,
    },
    /// The linkage cannot be assembled (on the chosen branch) at joint angle
    /// `at` (rad).
    #[error("does not assemble at joint angle {}: {}", angle(*.at), why(.gap))]
    DoesNotAssemble {
        /// Joint angle, rad.
        at: f64,
        /// Which two links cannot meet, and by how much; `None` when they meet, but not with
        /// the branch's orientation.
        gap: Option<Gap>,
    },
    /// The linkage cannot be assembled (on the chosen branch) at motor angle
    /// `theta` (rad).
    #[error("does not assemble at motor angle {}: {}", angle(*.theta), why(.gap))]
    MotorDoesNotAssemble {
        /// Motor angle, rad.
        theta: f64,
        /// Which two links cannot meet, and by how much.
        gap: Option<Gap>,
    },
    /// The linkage is at or too close to a toggle at joint angle `at` (rad).
    #[error(
        "is too close to a toggle at joint angle {at} rad ({:.3}°): \
         {side}-side transmission angle {:.3}° is outside [{:.0}°, {:.0}°]",
        .at.to_degrees(),
        .transmission_angle.to_degrees(),
        MIN_TRANSMISSION_ANGLE.to_degrees(),
        180.0 - MIN_TRANSMISSION_ANGLE.to_degrees()
    )]
    Singular {
        /// Joint angle, rad.
        at: f64,
        /// Which side of the coupler is near the toggle.
        side: ToggleSide,
        /// The offending angle at that side, rad, in [0, π].
        transmission_angle: f64,
    },
}

/// Geometry of a planar four-bar linkage (see the module docs for the
/// conventions). Lengths in m, angles in rad.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FourBar {
    /// Actuator (input-crank) pivot A from the joint pivot O, `[x, z]`, m.
    pub ground: [f64; 2],
    /// Input crank length |AB|, m.
    pub input_crank: f64,
    /// Coupler length |BC|, m.
    pub coupler: f64,
    /// Output crank length |OC|, m.
    pub output_crank: f64,
    /// Input-crank plane angle α at joint zero, rad.
    pub alpha_zero: f64,
    /// Motor direction in `α = alpha_zero + sign·θ`: +1 or −1 (a number).
    pub sign: f64,
    /// Assembly branch.
    pub branch: Branch,
}

/// Points of the linkage at one pose, `[x, z]` in m (O is the origin).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkagePose {
    /// Input-crank pivot A (the ground point).
    pub a: [f64; 2],
    /// Input crank / coupler joint B.
    pub b: [f64; 2],
    /// Coupler / output crank joint C.
    pub c: [f64; 2],
}

/// Summary of a joint range checked by [`FourBar::check_range`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RangeReport {
    /// Smallest output-side transmission angle (coupler vs output crank), rad.
    pub min_transmission_angle: f64,
    /// Largest output-side transmission angle, rad.
    pub max_transmission_angle: f64,
    /// Smallest input-side angle (coupler vs input crank), rad.
    pub min_input_angle: f64,
    /// Largest input-side angle, rad.
    pub max_input_angle: f64,
    /// Smallest (signed) ratio J = dq/dθ.
    pub min_ratio: f64,
    /// Largest (signed) ratio J = dq/dθ.
    pub max_ratio: f64,
    /// Motor angle θ at the lower and at the upper joint limit, rad.
    pub motor_range: (f64, f64),
}

/// One assembled pose: crank joints and plane angles.
#[derive(Debug, Clone, Copy)]
struct Config {
    b: [f64; 2],
    c: [f64; 2],
    alpha: f64,
    beta: f64,
}

fn sub(u: [f64; 2], v: [f64; 2]) -> [f64; 2] {
    [u[0] - v[0], u[1] - v[1]]
}

fn add(u: [f64; 2], v: [f64; 2]) -> [f64; 2] {
    [u[0] + v[0], u[1] + v[1]]
}

fn cross(u: [f64; 2], v: [f64; 2]) -> f64 {
    u[0] * v[1] - u[1] * v[0]
}

fn norm(u: [f64; 2]) -> f64 {
    u[0].hypot(u[1])
}

fn polar(r: f64, angle: f64) -> [f64; 2] {
    [r * angle.cos(), r * angle.sin()]
}

/// Unsigned angle between two vectors, in [0, π].
fn angle_between(u: [f64; 2], v: [f64; 2]) -> f64 {
    cross(u, v).abs().atan2(u[0] * v[0] + u[1] * v[1])
}

/// Wraps to (−π, π]; values already inside are returned unchanged (exact),
/// except that −0.0 becomes 0.0.
fn wrap(x: f64) -> f64 {
    if x > -PI && x <= PI {
        return x + 0.0;
    }
    let y = x.rem_euclid(TAU);
    if y > PI { y - TAU } else { y }
}

/// Angle at the first of two points at distance `d` apart (d > 0), with
/// circles of radius `r` (around it) and `l` (around the other) meeting.
fn triangle_angle(r: f64, d: f64, l: f64) -> Option<f64> {
    if d.is_nan() || d <= 0.0 {
        return None;
    }
    let cos = (r * r + d * d - l * l) / (2.0 * r * d);
    if !cos.is_finite() || cos.abs() > 1.0 + CLAMP_TOL {
        return None;
    }
    Some(cos.clamp(-1.0, 1.0).acos())
}

/// `-1.3963 rad (-80°)`: at most 4 decimals in rad, 3 in degrees.
fn angle(rad: f64) -> String {
    let short = |v: f64, decimals: usize| {
        let text = format!("{v:.decimals$}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        if text == "-0" {
            "0".to_string()
        } else {
            text.to_string()
        }
    };
    format!("{} rad ({}°)", short(rad, 4), short(rad.to_degrees(), 3))
}

/// The second half of a does-not-assemble message.
fn why(gap: &Option<Gap>) -> String {
    match gap {
        Some(gap) => gap.to_string(),
        None => {
            "the links close, but only flipped through a toggle, in the other branch's orientation"
                .to_string()
        }
    }
}

impl FourBar {
    /// Distance |OA| between the two pivots, m.
    pub fn ground_length(&self) -> f64 {
        norm(self.ground)
    }

    fn validate(&self) -> Result<(), FourBarError> {
        use FourBarParam::*;
        finite_param(Ground, "ground x must be finite", self.ground[0])?;
        finite_param(Ground, "ground z must be finite", self.ground[1])?;
        let ground = self.ground_length();
        if !ground.is_finite() || ground <= 0.0 {
            return Err(bad_param(
                Ground,
                "ground length must be finite and positive",
                ground,
            ));
        }
        let lengths = [
            (
                InputCrank,
                "input_crank must be finite and positive",
                self.input_crank,
            ),
            (Coupler, "coupler must be finite and positive", self.coupler),
            (
                OutputCrank,
                "output_crank must be finite and positive",
                self.output_crank,
            ),
        ];
        for (param, what, len) in lengths {
            if !(len.is_finite() && len > 0.0) {
                return Err(bad_param(param, what, len));
            }
        }
        finite_param(AlphaZero, "alpha_zero must be finite", self.alpha_zero)?;
        if self.sign != 1.0 && self.sign != -1.0 {
            return Err(bad_param(Sign, "sign must be +1 or -1", self.sign));
        }
        Ok(())
    }

    /// Assembles at input angle α on the configured branch; else the gap between the output
    /// crank and the coupler.
    fn assemble_at_input(&self, alpha: f64) -> Result<Config, Option<Gap>> {
        let b = add(self.ground, polar(self.input_crank, alpha));
        let gamma = triangle_angle(self.output_crank, norm(b), self.coupler).ok_or_else(|| {
            Some(Gap::between(
                [
                    ("coupler", self.coupler),
                    ("output crank", self.output_crank),
                ],
                ("the joint pivot", "the input crank's end"),
                norm(b),
            ))
        })?;
        let beta = b[1].atan2(b[0]) + self.branch.sign() * gamma;
        let c = polar(self.output_crank, beta);
        Ok(Config { b, c, alpha, beta })
    }

    /// Assembles at output angle β: of the two input-crank solutions, takes one
    /// with the branch's orientation, preferring side `sigma0` of line A–C; else the gap
    /// between the input crank and the coupler (`None`: neither has the orientation).
    fn assemble_at_output(&self, beta: f64, sigma0: f64) -> Result<Config, Option<Gap>> {
        let c = polar(self.output_crank, beta);
        let ac = sub(c, self.ground);
        let eta = triangle_angle(self.input_crank, norm(ac), self.coupler).ok_or_else(|| {
            Some(Gap::between(
                [("input crank", self.input_crank), ("coupler", self.coupler)],
                ("the actuator pivot", "the output crank's end"),
                norm(ac),
            ))
        })?;
        let psi = ac[1].atan2(ac[0]);
        for sigma in [sigma0, -sigma0] {
            let alpha = psi + sigma * eta;
            let b = add(self.ground, polar(self.input_crank, alpha));
            // Normalised orientation; tolerate rounding at an exact output toggle.
            let orient = self.branch.sign() * cross(b, c) / (norm(b) * self.output_crank);
            if orient >= -CLAMP_TOL {
                return Ok(Config { b, c, alpha, beta });
            }
        }
        Err(None)
    }

    /// β0 and the side (±1) of line A–C on which B lies at `q = 0`.
    fn reference(&self) -> Result<(f64, f64), FourBarError> {
        self.validate()?;
        let cfg = self
            .assemble_at_input(self.alpha_zero)
            .map_err(|gap| FourBarError::DoesNotAssemble { at: 0.0, gap })?;
        let side = cross(sub(cfg.c, self.ground), sub(cfg.b, self.ground));
        Ok((wrap(cfg.beta), if side >= 0.0 { 1.0 } else { -1.0 }))
    }

    fn config_at_joint(&self, q: f64, beta0: f64, sigma0: f64) -> Result<Config, FourBarError> {
        self.assemble_at_output(beta0 - q, sigma0)
            .map_err(|gap| FourBarError::DoesNotAssemble { at: q, gap })
    }

    fn joint_config(&self, q: f64) -> Result<Config, FourBarError> {
        let (beta0, sigma0) = self.reference()?;
        self.config_at_joint(finite("joint angle must be finite", q)?, beta0, sigma0)
    }

    fn theta_of(&self, cfg: &Config) -> f64 {
        wrap(self.sign * (cfg.alpha - self.alpha_zero))
    }

    /// Output-side transmission angle at C (coupler vs output crank).
    fn mu_out(cfg: &Config) -> f64 {
        angle_between(sub(cfg.b, cfg.c), [-cfg.c[0], -cfg.c[1]])
    }

    /// Input-side angle at B (coupler vs input crank).
    fn mu_in(&self, cfg: &Config) -> f64 {
        angle_between(sub(self.ground, cfg.b), sub(cfg.c, cfg.b))
    }

    /// J from velocity analysis: d/dt |B − C|² = 0 with Ḃ = α̇·⊥(B − A) and
    /// Ċ = β̇·⊥C gives β̇/α̇ = cross(B−C, B−A) / cross(B−C, C); then q̇ = −β̇
    /// and α̇ = sign·θ̇.
    fn ratio_of(&self, cfg: &Config, q: f64) -> Result<f64, FourBarError> {
        let bc = sub(cfg.b, cfg.c);
        let num = cross(bc, sub(cfg.b, self.ground));
        let den = cross(bc, cfg.c);
        let j = -self.sign * num / den;
        if den.abs() <= CLAMP_TOL * self.coupler * self.output_crank || !j.is_finite() {
            return Err(FourBarError::Singular {
                at: q,
                side: ToggleSide::Output,
                transmission_angle: Self::mu_out(cfg),
            });
        }
        Ok(j)
    }

    /// Output-crank plane angle β0 at joint zero, rad in (−π, π].
    pub fn output_angle_at_zero(&self) -> Result<f64, FourBarError> {
        Ok(self.reference()?.0)
    }

    /// Motor angle θ (rad, in (−π, π]) for joint angle `q` (rad).
    pub fn joint_to_motor(&self, q: f64) -> Result<f64, FourBarError> {
        Ok(self.theta_of(&self.joint_config(q)?))
    }

    /// Joint angle q (rad, in (−π, π]) for motor angle `theta` (rad).
    pub fn motor_to_joint(&self, theta: f64) -> Result<f64, FourBarError> {
        let (beta0, _) = self.reference()?;
        let alpha = self.alpha_zero + self.sign * finite("motor angle must be finite", theta)?;
        let cfg = self
            .assemble_at_input(alpha)
            .map_err(|gap| FourBarError::MotorDoesNotAssemble { theta, gap })?;
        Ok(wrap(beta0 - cfg.beta))
    }

    /// Ratio J = dq/dθ at joint angle `q`, from velocity analysis;
    /// `|J| = input_crank·sin(input angle) / (output_crank·sin μ)`.
    /// Fails with [`FourBarError::Singular`] only at an exact output toggle.
    pub fn ratio(&self, q: f64) -> Result<f64, FourBarError> {
        let cfg = self.joint_config(q)?;
        self.ratio_of(&cfg, q)
    }

    /// Ratio J = dq/dθ at motor angle `theta`.
    pub fn ratio_at_motor(&self, theta: f64) -> Result<f64, FourBarError> {
        let q = self.motor_to_joint(theta)?;
        self.ratio(q)
    }

    /// Output-side transmission angle μ (coupler vs output crank, at C) at
    /// joint angle `q`, rad in [0, π]; 90° is ideal, 0 and π are toggles.
    pub fn transmission_angle(&self, q: f64) -> Result<f64, FourBarError> {
        Ok(Self::mu_out(&self.joint_config(q)?))
    }

    /// Input-side angle (coupler vs input crank, at B) at joint angle `q`,
    /// rad in [0, π]; 0 and π are toggles where J = 0.
    pub fn input_transmission_angle(&self, q: f64) -> Result<f64, FourBarError> {
        Ok(self.mu_in(&self.joint_config(q)?))
    }

    /// Points A, B, C at joint angle `q` (O is the origin).
    pub fn pose(&self, q: f64) -> Result<LinkagePose, FourBarError> {
        let cfg = self.joint_config(q)?;
        Ok(LinkagePose {
            a: self.ground,
            b: cfg.b,
            c: cfg.c,
        })
    }

    /// Checks the joint range `lower..=upper` (rad): samples every 0.25°
    /// plus both ends, and fails if the linkage does not assemble at a sample
    /// or if either the output-side or the input-side angle leaves
    /// [[`MIN_TRANSMISSION_ANGLE`], π − [`MIN_TRANSMISSION_ANGLE`]]. The
    /// range may be at most one full turn wide.
    pub fn check_range(&self, lower: f64, upper: f64) -> Result<RangeReport, FourBarError> {
        let (beta0, sigma0) = self.reference()?;
        finite("lower joint limit must be finite", lower)?;
        finite("upper joint limit must be finite", upper)?;
        if lower >= upper {
            return Err(bad("lower joint limit must be below the upper one", lower));
        }
        let width = upper - lower;
        if !width.is_finite() || width > TAU {
            return Err(bad("joint range must be at most one turn wide", width));
        }
        // width ≤ 2π bounds this to 1440 samples, so the cast cannot overflow.
        let n = ((width / RANGE_STEP).ceil() as usize).max(1);
        let ok = MIN_TRANSMISSION_ANGLE..=PI - MIN_TRANSMISSION_ANGLE;
        let mut report = RangeReport {
            min_transmission_angle: f64::INFINITY,
            max_transmission_angle: f64::NEG_INFINITY,
            min_input_angle: f64::INFINITY,
            max_input_angle: f64::NEG_INFINITY,
            min_ratio: f64::INFINITY,
            max_ratio: f64::NEG_INFINITY,
            motor_range: (0.0, 0.0),
        };
        for i in 0..=n {
            let q = if i == n {
                upper
            } else {
                lower + width * (i as f64) / (n as f64)
            };
            let cfg = self.config_at_joint(q, beta0, sigma0)?;
            let (mu, mu_in) = (Self::mu_out(&cfg), self.mu_in(&cfg));
            for (side, angle) in [(ToggleSide::Output, mu), (ToggleSide::Input, mu_in)] {
                if !ok.contains(&angle) {
                    return Err(FourBarError::Singular {
                        at: q,
                        side,
                        transmission_angle: angle,
                    });
                }
            }
            let j = self.ratio_of(&cfg, q)?;
            report.min_transmission_angle = report.min_transmission_angle.min(mu);
            report.max_transmission_angle = report.max_transmission_angle.max(mu);
            report.min_input_angle = report.min_input_angle.min(mu_in);
            report.max_input_angle = report.max_input_angle.max(mu_in);
            report.min_ratio = report.min_ratio.min(j);
            report.max_ratio = report.max_ratio.max(j);
            if i == 0 {
                report.motor_range.0 = self.theta_of(&cfg);
            }
            if i == n {
                report.motor_range.1 = self.theta_of(&cfg);
            }
        }
        Ok(report)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
