//! `backend-mujoco`: the MuJoCo backend, a [`robot_runtime::hardware::Component`] that simulates a
//! robot's emitted MJCF in lock-step with the control loop and drives it with the MIT law, as
//! `mujoco_ros2_control/MujocoSystem` does for ROS, over the typed state and command structs.
//!
//! It stands where the emitted descriptions put MujocoSystem: the one `<Robot>Hardware` block of
//! the MuJoCo backend, every controlled joint and every IMU. Controllers run on it unchanged.
//!
//! # What it does
//! * **`on_init`** refuses interfaces MuJoCo has nothing for (`current`, `temperature`, a
//!   commanded `acceleration`), naming each.
//! * **`on_configure`** compiles the model ([`ModelSource`]: the robot's own emitted scene, on
//!   the floor or hanging on a test stand, rendered from its definition into MuJoCo's virtual
//!   file system with the model it includes; or a user's file), sets the physics timestep to the loop
//!   period divided by [`MujocoOptions::substeps`], and maps every claimed joint, its motor
//!   (`<motor>` named like the joint) and each IMU's `<prefix>_quat` (`framequat`), `_gyro`
//!   and `_accel` (`accelerometer`) by name. One error names everything missing. The initial
//!   state is the model's `home` keyframe when it has one, else each joint's declared initial
//!   position.
//! * **`write`** stores each driven joint's targets; an infinite command is refused, naming
//!   joint and interface; NaN means "no command".
//! * **`read`** steps the physics up to the loop clock's time, so in lock-step with a
//!   simulated clock every cycle runs exactly `substeps` steps, and before **every** step the
//!   MIT law `τ = stiffness·(q* − q) + damping·(v* − v) + τ_ff` is computed from that step's
//!   state, clamped to the joint's effort limit and written into the motor's `ctrl`. Then it
//!   fills position, velocity, effort (the motor's force MuJoCo actually applied in the last
//!   step), acceleration where declared, and each IMU: orientation in ros2_control's
//!   `x, y, z, w` order (MuJoCo's is `w, x, y, z`), angular velocity and linear acceleration
//!   (specific force: +9.81 m/s² up at rest) in the sensor frame. The IMU values are those
//!   MuJoCo computed at the start of the last physics step (its sensors run before the
//!   integration), one timestep older than the joint positions.
//! * A position-commanded joint without `stiffness`/`damping` commands is a servo with the
//!   [`ServoGains`] defaults; a velocity-only joint a damper towards its velocity; an
//!   effort-only joint gets its feed-forward torque. Mimic joints follow through the MJCF's
//!   joint equality and are read only.
//! * **Inactive** (configured, never activated or deactivated): the physics still runs, under
//!   zero torque, so an unpowered robot sags; `on_deactivate` forgets the targets and zeroes every
//!   motor's control at once.
//!
//! # Pictures (feature `render`)
//! [`render`] draws a MuJoCo state headless (EGL; Mesa's software rasterizer where there is no
//! GPU) into RGB pixels or a PNG, through a camera tracking the robot's root body.
//! [`MujocoSystem::with_frame`] has the component write one such frame itself when the simulated
//! clock reaches a given time ([`frame`]: that one `read` runs long, no other cycle pays). Without
//! an EGL driver the error names the Debian packages to install ([`render::INSTALL_GL`]). Off by
//! default, so the backend builds and simulates where there is no OpenGL.
//!
//! # Time
//! The loop's clock is the simulation's: with `Pacing::Simulated` (paced to wall-clock time,
//! for watching) or `Pacing::SimulatedFast` (as fast as the physics runs) from
//! `robot_runtime::control_loop`, the clock advances one period per cycle and the physics exactly
//! as far. Under a wall clock it follows wall time instead, up to ten periods per read.
#![warn(missing_docs)]

pub mod fall;
#[cfg(feature = "render")]
pub mod frame;
mod law;
mod model;
mod options;
pub mod overlap;
mod plan;
#[cfg(feature = "render")]
pub mod render;
mod system;

#[cfg(feature = "render")]
pub use frame::FrameRequest;
pub use options::{DEFAULT_SUBSTEPS, ModelSource, MujocoOptions, ServoGains};
pub use system::{HOME_KEYFRAME, MujocoSystem, Snapshot};
