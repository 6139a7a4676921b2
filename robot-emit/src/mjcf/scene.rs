//! The scenes a robot is simulated in: `<robot>.scene.xml` (on the floor) and, for a floating base,
//! `<robot>.stand.scene.xml` (hanging on a test stand).
//!
//! ```text
//! <mujoco model="<robot>_scene">                  (<robot>_stand)
//!   <include file="<robot>.mjcf.xml"/>
//!   <visual>, <asset> floor texture, material
//!   <worldbody> light, floor plane
//!   <equality><weld name="stand" body1 relpose/>    stand only: the root held in the air
//!   <keyframe><key name="home" qpos/>
//! </mujoco>
//! ```
//!
//! MuJoCo (3.17) inserts an included file's children where the `<include>` is, so the robot's own
//! model must be a whole `<mujoco>` document and the include sits at the top level; repeated
//! sections (`<asset>`, `<worldbody>`, `<equality>`) merge. Names cannot clash: the robot's geoms,
//! lights, textures, materials, keys and welds are unnamed or absent, and MuJoCo keeps one
//! namespace per kind of element.
//!
//! **The stand** keeps the root's free joint and holds it with a weld equality at the stand's
//! pose: a root welded by having no joint would be a static body, for which MuJoCo computes no
//! acceleration, so an IMU on it would read zero instead of gravity. The weld is a constraint, so
//! it gives a little under load (a quarter of a millimetre down for lite_biped hanging passively,
//! measured with MuJoCo 3.17).
//!
//! **Home.** Every joint is at its initial position (`robot_core::kinematics::initial_position`),
//! and the heights come from the definition's kinematics, never typed in: on the floor a floating
//! base stands at [`kinematics::standing_height`], so its lowest collision geometry touches the
//! floor at z = 0; a fixed base stays at the origin and the floor is put at its lowest collision
//! point instead. On the stand the root is [`STAND_CLEARANCE`] higher, so the feet hang free. Key
//! `home` holds that pose: the free joint's position and unit quaternion first (floating base
//! only), then the joints in MuJoCo's order, [`kinematics::tree_order`].

use super::render;
use crate::EmitError;
use crate::format::{header_comment, number, numbers};
use crate::xml::Element;
use robot_model::kinematics::{self, LowestPoint};
use robot_model::model::Robot;

/// How far above its standing height a floating base hangs in `<robot>.stand.scene.xml`, m.
pub const STAND_CLEARANCE: f64 = 0.05;

/// The name of the keyframe of the home pose, in every scene.
const HOME_KEY: &str = "home";
/// The name of the weld equality that holds the root on the stand.
pub const STAND_WELD: &str = "stand";

/// `<robot>.scene.xml`: the robot's model included, a floor, a light and the `home` keyframe.
pub(crate) fn scene(robot: &Robot) -> Result<String, EmitError> {
    let home = Home::of(robot)?;
    Stage {
        home: &home,
        on_stand: false,
    }
    .write(robot)
}

/// `<robot>.stand.scene.xml` for a floating-base robot: as [`scene`], with the root held by a weld
/// [`STAND_CLEARANCE`] above its standing height; `None` for a fixed-base robot, which stands on
/// its base already.
pub(crate) fn stand_scene(robot: &Robot) -> Result<Option<String>, EmitError> {
    if !robot.floating_base {
        return Ok(None);
    }
    let home = Home::of(robot)?;
    Stage {
        home: &home,
        on_stand: true,
    }
    .write(robot)
    .map(Some)
}

/// The home pose, from the definition's kinematics.
#[derive(Debug)]
struct Home {
    /// The root body's name.
    root: String,
    /// Whether the root has a free joint in the robot's model.
    floating: bool,
    /// Every joint's initial position, in `robot.joints` order.
    positions: Vec<f64>,
    /// MuJoCo's joint order: indices into `robot.joints`, movable joints only.
    order: Vec<usize>,
    /// The lowest collision point with the root at the origin.
    lowest: LowestPoint,
}

impl Home {
    fn of(robot: &Robot) -> Result<Home, EmitError> {
        let root = robot.root_link().ok_or_else(|| EmitError::Serialize {
            what: "MJCF scene",
            message: "the robot has no root link".to_string(),
        })?;
        let positions = kinematics::initial_positions(robot);
        let poses = kinematics::link_poses(robot, &positions)?;
        let order = kinematics::tree_order(robot)?
            .into_iter()
            .filter(|&i| robot.joints[i].kind.is_movable())
            .collect();
        Ok(Home {
            root: root.name.to_string(),
            floating: robot.floating_base,
            lowest: kinematics::lowest_collision_point(robot, &poses),
            positions,
            order,
        })
    }

    /// The lowest collision point's z with the root at the origin; 0 when nothing is bounded.
    fn lowest_z(&self) -> f64 {
        self.lowest.point.as_ref().map_or(0.0, |p| p.z)
    }
}

/// What a scene adds to the robot: where the root and the floor are, and the home keyframe.
#[derive(Debug)]
struct Stage<'a> {
    home: &'a Home,
    /// Hanging on the test stand, else on the floor.
    on_stand: bool,
}

impl Stage<'_> {
    /// The scene document.
    fn write(&self, robot: &Robot) -> Result<String, EmitError> {
        let mujoco = Element::new("mujoco")
            .attr("model", self.model_name(robot))
            .child(Element::new("include").attr("file", format!("{}.mjcf.xml", robot.name)))
            .child(self.visual())
            .child(self.assets())
            .child(self.world())
            .children(self.stand())
            .child(self.keyframe());
        let mut comments = vec![header_comment(robot)];
        comments.extend(self.comments());
        render(comments, mujoco)
    }

    /// The height of the root body's origin at home (where a stand holds it).
    fn root_height(&self) -> f64 {
        match (self.home.floating, self.on_stand) {
            (true, false) => -self.home.lowest_z(),
            (true, true) => -self.home.lowest_z() + STAND_CLEARANCE,
            (false, _) => 0.0,
        }
    }

    /// The floor's height: z = 0 under a floating base, the lowest point under a fixed one.
    fn floor_height(&self) -> f64 {
        if self.home.floating {
            0.0
        } else {
            self.home.lowest_z()
        }
    }

    fn model_name(&self, robot: &Robot) -> String {
        let what = if self.on_stand { "stand" } else { "scene" };
        format!("{}_{what}", robot.name)
    }

    /// Comments saying what the heights are and where they come from.
    fn comments(&self) -> Vec<String> {
        let home = self.home;
        let mut lines = Vec::new();
        let place = match &home.lowest.point {
            Some(p) => format!(
                "collision {} of link {}, at z = {} m with the root at the origin",
                p.collision,
                p.link,
                number(p.z)
            ),
            None => "no collision geometry that can be bounded".to_string(),
        };
        lines.push(format!("Lowest point: {place}."));
        lines.push(match (home.floating, self.on_stand) {
            (true, false) => format!(
                "Key home: the free root at z = {} m, so the lowest point is on the floor at z = 0.",
                number(self.root_height())
            ),
            (true, true) => format!(
                "Test stand: the root held by weld `stand` at z = {} m, {} m above where it stands, so the feet hang free.",
                number(self.root_height()),
                number(STAND_CLEARANCE)
            ),
            (false, _) => format!(
                "Fixed base at the origin; the floor at the lowest point, z = {} m.",
                number(self.floor_height())
            ),
        });
        if !home.lowest.unbounded.is_empty() {
            let meshes: Vec<String> = (home.lowest.unbounded.iter())
                .map(|(link, i)| format!("collision {i} of {link}"))
                .collect();
            lines.push(format!(
                "Not counted (meshes have no size in the definition): {}.",
                meshes.join(", ")
            ));
        }
        lines
    }

    /// A headlight soft enough that the scene light shapes the robot.
    fn visual(&self) -> Element {
        let headlight = Element::new("headlight")
            .attr("diffuse", "0.6 0.6 0.6")
            .attr("ambient", "0.3 0.3 0.3")
            .attr("specular", "0 0 0");
        Element::new("visual").child(headlight)
    }

    /// The floor's checker texture and material.
    fn assets(&self) -> Element {
        let texture = Element::new("texture")
            .attr("name", "floor")
            .attr("type", "2d")
            .attr("builtin", "checker")
            .attr("rgb1", "0.2 0.3 0.4")
            .attr("rgb2", "0.1 0.2 0.3")
            .attr("mark", "edge")
            .attr("markrgb", "0.8 0.8 0.8")
            .attr("width", "300")
            .attr("height", "300");
        let material = Element::new("material")
            .attr("name", "floor")
            .attr("texture", "floor")
            .attr("texuniform", "true")
            .attr("texrepeat", "5 5")
            .attr("reflectance", "0.2");
        Element::new("asset").child(texture).child(material)
    }

    /// A light from above and the floor, an infinite plane.
    fn world(&self) -> Element {
        let light = Element::new("light")
            .attr("name", "sun")
            .attr("type", "directional")
            .attr("pos", "0 0 3")
            .attr("dir", "0 0 -1");
        let floor_height = self.floor_height();
        let floor = Element::new("geom")
            .attr("name", "floor")
            .attr("type", "plane")
            .attr("size", "0 0 0.05")
            .attr("material", "floor")
            .optional_attr(
                "pos",
                (floor_height != 0.0).then(|| numbers(&[0.0, 0.0, floor_height])),
            );
        Element::new("worldbody")
            .child(light)
            .child(floor)
            .children(self.stand_frame())
    }

    /// The test stand drawn, on the stand scene only: a post behind the robot, an arm over it
    /// and a strap down to the root, where the weld holds it. Only to see: no geom of it collides
    /// (`contype` and `conaffinity` 0) or weighs anything (a world body's geoms). Sized from the
    /// root's height, so a hexapod's stand is as much smaller as it is.
    fn stand_frame(&self) -> Vec<Element> {
        if !self.on_stand {
            return Vec::new();
        }
        let top = self.root_height();
        let (floor, over) = (
            self.floor_height(),
            top + 0.15 * (top - self.floor_height()),
        );
        let behind = -0.5 * (top - floor);
        let radius = 0.02 * (top - floor);
        let bar = |name: &str, from: [f64; 3], to: [f64; 3]| {
            Element::new("geom")
                .attr("name", name)
                .attr("type", "capsule")
                .attr(
                    "fromto",
                    numbers(&[from[0], from[1], from[2], to[0], to[1], to[2]]),
                )
                .attr("size", numbers(&[radius]))
                .attr("rgba", "0.5 0.5 0.5 1")
                .attr("contype", "0")
                .attr("conaffinity", "0")
        };
        vec![
            bar("stand_post", [behind, 0.0, floor], [behind, 0.0, over]),
            bar("stand_arm", [behind, 0.0, over], [0.0, 0.0, over]),
            bar("stand_strap", [0.0, 0.0, over], [0.0, 0.0, top]),
        ]
    }

    /// The stand's weld: the root body held, unrotated, at [`Self::root_height`]. `relpose` is the
    /// world's pose in the root's frame (MuJoCo's `body2` relative to `body1`); without it the weld
    /// would hold the pose of the model's reference configuration, the root at the origin. Stiff
    /// (10 ms time constant, twice the emitted timestep, the shortest MuJoCo keeps), critically
    /// damped.
    fn stand(&self) -> Option<Element> {
        if !self.on_stand {
            return None;
        }
        let relpose = numbers(&[0.0, 0.0, -self.root_height(), 1.0, 0.0, 0.0, 0.0]);
        let weld = Element::new("weld")
            .attr("name", STAND_WELD)
            .attr("body1", self.home.root.as_str())
            .attr("relpose", relpose)
            .attr("solref", "0.01 1");
        Some(Element::new("equality").child(weld))
    }

    /// `<keyframe><key name="home" qpos/>`: the free joint (floating base), then every joint's
    /// initial position in MuJoCo's order.
    fn keyframe(&self) -> Element {
        let home = self.home;
        let mut qpos = Vec::with_capacity(7 + home.order.len());
        if home.floating {
            qpos.extend([0.0, 0.0, self.root_height(), 1.0, 0.0, 0.0, 0.0]);
        }
        qpos.extend(home.order.iter().map(|&i| home.positions[i]));
        let key = Element::new("key")
            .attr("name", HOME_KEY)
            .optional_attr("qpos", (!qpos.is_empty()).then(|| numbers(&qpos)));
        Element::new("keyframe").child(key)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests;
