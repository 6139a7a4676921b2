//! Why a linkage does not close at a pose, by how much, and which link to change.

/// Two links hinged at two points that cannot meet: they are too short to reach across the
/// distance between those points, or one is so much longer than the other that they cannot fold
/// back to it. Lengths in m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gap {
    /// The two links that must meet, with their lengths: `("coupler", 0.05)`.
    pub links: [(&'static str, f64); 2],
    /// The two points their other ends are hinged at: `("the joint pivot", "the input crank's end")`.
    pub points: (&'static str, &'static str),
    /// The distance between those points.
    pub distance: f64,
}

impl Gap {
    /// Two links that do not close across `distance`, for the caller that found so.
    pub(super) fn between(
        links: [(&'static str, f64); 2],
        points: (&'static str, &'static str),
        distance: f64,
    ) -> Gap {
        Gap {
            links,
            points,
            distance,
        }
    }

    /// How far the links are from meeting, m: positive when they are too short, negative when
    /// one is too long.
    pub fn shortfall(&self) -> f64 {
        let [(_, a), (_, b)] = self.links;
        if self.distance > a + b {
            self.distance - (a + b)
        } else {
            self.distance - (a - b).abs()
        }
    }
}

/// A length in mm, at most 3 decimals.
fn mm(metres: f64) -> String {
    let text = format!("{:.3}", metres * 1000.0);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} mm")
}

impl std::fmt::Display for Gap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [(first, a), (second, b)] = self.links;
        let (p, q) = self.points;
        let d = mm(self.distance);
        if self.distance > a + b {
            write!(
                f,
                "the {first} ({}) and the {second} ({}) reach at most {}, but {p} and {q} are {d} apart: together they are {} too short",
                mm(a),
                mm(b),
                mm(a + b),
                mm(self.shortfall()),
            )
        } else {
            let ((long, l), (short, s)) = if a >= b {
                ((first, a), (second, b))
            } else {
                ((second, b), (first, a))
            };
            write!(
                f,
                "the {long} ({}) is {} too long for the {short} ({}): together they reach no closer than {}, but {p} and {q} are {d} apart",
                mm(l),
                mm(-self.shortfall()),
                mm(s),
                mm(l - s),
            )
        }
    }
}
