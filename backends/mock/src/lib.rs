//! `backend-mock`: the mock backend, a [`robot_runtime::hardware::Component`] with the semantics of
//! ros2_control's `mock_components/GenericSystem`, over the typed state and command structs that
//! `robot!` generates.
//!
//! It stands where the emitted descriptions put GenericSystem: the one `<Robot>Hardware` block of
//! the mock backend, every controlled joint, no sensor. Controllers run against it unchanged
//! (`docs/hardware-lifecycle.md`); the RobStride and MuJoCo backends implement the same
//! contract.
//!
//! ```
//! use backend_mock::MockSystem;
//! use robot_runtime::hardware::{Clock, Component, System};
//! use robots::{LiteBiped, LiteBipedCommand, LiteBipedState};
//!
//! let mock: Box<dyn Component<LiteBiped>> = Box::new(MockSystem::<LiteBiped>::new());
//! let mut system = System::new(vec![mock])?;
//! let (mut state, mut command) = (LiteBipedState::default(), LiteBipedCommand::default());
//! let clock = Clock { time: Default::default(), period: std::time::Duration::from_millis(5) };
//! system.configure()?;
//! system.activate(clock, &mut state, &mut command)?;
//! command.left_knee_pitch.position = 0.3;
//! system.write(clock, &command)?;
//! system.read(clock, &mut state)?;
//! assert_eq!(state.left_knee_pitch.position, 0.3); // mirrored on the next read
//! # Ok::<(), robot_runtime::hardware::HardwareError>(())
//! ```
//!
//! # What it does, after `generic_system.cpp`
//!
//! * **`on_init`** resolves, once, the state and command slot of every interface of every
//!   controlled joint into flat index lists; `read` and `write` only index and never allocate.
//!   Anything that cannot be mocked fails here with [`ErrorKind::Unsupported`], naming it: a mimic
//!   joint with commands, or with a state its followed joint lacks; options naming joints or
//!   interfaces that do not fit.
//! * **Initial values** (`on_configure`): every state starts at its `initial_value`, else 0, and
//!   position states get `position_state_following_offset` added once; commands start at their
//!   `initial_value`, else NaN. The loop owns the state struct, so the mock keeps its own copy and
//!   every read delivers it whole: the first read after configuring gives the initial values.
//! * **Mirroring**: GenericSystem's `write` does nothing and its `read` copies commands to
//!   same-named states, because command and state handles are memory it shares with the
//!   controllers. Here commands arrive through `write`, which stores them; every `read` mirrors
//!   the stored ones, so a command shows as a state on the next read, as there.
//!   * `position` → `position` + `position_state_following_offset`;
//!   * every other same-named interface as is: `velocity`, `acceleration`, `effort` (the MIT
//!     feed-forward comes back as the effort state), `current`. `stiffness` and `damping` have no
//!     state and are not mirrored; a state without a command (`temperature`) keeps its initial
//!     value;
//!   * a NaN command means "no command yet" and leaves its state;
//!   * an infinite command is an [`ErrorKind::InvalidCommand`] error naming joint and interface.
//!     GenericSystem fails its `read` on an infinite value only for the interfaces it loops back
//!     (and silently skips an infinite position); here every command of a driven joint is checked,
//!     in `write`, where it enters, and a bad set is not stored at all, so re-activating recovers.
//! * **`custom_interface_with_following_offset`** ([`MockSystem::with_custom_interface_with_following_offset`]):
//!   position commands plus the offset go to that state (`current` or `temperature`, our only
//!   non-standard state interfaces) and positions get no offset.
//! * **`calculate_dynamics`**: position, velocity and acceleration follow the joint's
//!   [`CommandMode`] with GenericSystem's integration (see
//!   [below](#calculate_dynamics)); other interfaces are still mirrored.
//! * **`disable_commands`**: nothing is mirrored, not even mimic joints or sensors; the states stay
//!   at their initial values (a disconnected driver).
//! * **Mimic joints**: after mirroring, every read, position = `offset + multiplier · target`,
//!   velocity and acceleration (where declared) = `multiplier · target`.
//! * **Hardware params** the mock does not know (bus, CAN id, model, direction, zero offset,
//!   four-bar) are ignored, as GenericSystem ignores unknown `<param>`s: a four-bar joint mirrors
//!   in joint space like any other.
//! * **Lifecycle**: `on_activate` and `on_deactivate` do nothing (GenericSystem has neither); the
//!   System seeds safe commands, which the first `write` stores. An inactive System does not call
//!   `write`, so new commands are not mirrored; the last stored one still is.
//! * **Disabled joints** ([`MockSystem::with_disabled_joints`], from the runtime configuration): still
//!   claimed and reported at their initial state, their commands never read.
//!
//! # Sensors
//! The mock descriptions carry no `<sensor>`, so by default the mock claims none and the IMU slots
//! are left to whoever claims them; when nobody does, the `System` sets them to NaN every read
//! (as GenericSystem's sensor states start). With `mock_sensor_commands`, GenericSystem makes a command
//! interface per sensor state for an outside node to set; our IMUs have no command interfaces,
//! so the mock claims every IMU and takes its values from a [`SensorInput`]
//! ([`MockSystem::sensor_input`]) any thread may set; they start at the identity orientation and
//! zero rates.
//!
//! # `calculate_dynamics`
//! GenericSystem switches a joint's mode when a controller claims its `position`, `velocity` or
//! `acceleration` command (`perform_command_mode_switch`, default position). Our controllers claim
//! nothing, so the mode is set when the mock is built: the lowest derivative the joint declares as
//! a command, or [`MockSystem::with_command_mode`]. Each read, with `dt` the clock's period: velocity
//! mode sets the velocity from the command, `a = (v − v_old)/dt`, `p += v·dt`; acceleration mode
//! `v += a·dt`, then `p += v·dt`; position mode `p = command + offset`, `v = (p − p_old)/dt`,
//! `a = (v − v_old)/dt`. Only finite results are stored, and a state the joint does not declare
//! carries nothing between reads, as in the source.
//!
//! # Differences from `mock_components/GenericSystem`
//!
//! Checked against ros2_control's `hardware_interface/src/mock_components/generic_system.cpp`
//! (master, 2026-08). Each behaviour row has its test in `tests/generic_system.rs` or
//! `tests/lifecycle_and_sensors.rs` (g), or
//! `tests/calculate_dynamics.rs` (d).
//!
//! | | GenericSystem | `MockSystem` | test |
//! |---|---|---|---|
//! | GPIO | mirrors `<gpio>` commands to states; `mock_gpio_commands` makes a command for every GPIO state | no GPIO in the model; `mock_gpio_commands` is refused as an unknown parameter | g `there_is_no_gpio_and_no_mock_gpio_commands` |
//! | IMU at start | sensor states start at NaN (or their `initial_value`) until set | identity orientation (`w` = 1), zero rates and acceleration | g `mock_sensor_commands_take_imu_values_from_the_sensor_input` |
//! | sensor values | with `mock_sensor_commands`, a command interface per sensor state, set by a controller; an infinite one fails `read` | a [`SensorInput`] any thread sets, a whole IMU at a time (a set being written is taken on the next read); an infinite value is refused by [`SensorInput::set_imu`], so `read` never fails on one | g, same test; `a_reader_never_sees_half_a_set` (unit) |
//! | sensors claimed | every `<sensor>` of its block | none unless `mock_sensor_commands` (the mock descriptions carry no `<sensor>`) | g `claims_every_controlled_joint_and_no_sensor` |
//! | reconfigure (`on_configure` again) | keeps the states, puts 0 only where NaN, and adds `position_state_following_offset` to the positions again; commands keep their values | resets: every state to its initial value (offset added once), every command to its `initial_value` or NaN; the IMU set last published is applied again | g `reconfiguring_starts_again_from_the_initial_values`, `reconfiguring_does_not_add_the_offset_again` |
//! | `custom_interface_with_following_offset` | a hardware parameter, read only when `position_state_following_offset` is given; a name no interface has only warns | an option ([`MockSystem::with_custom_interface_with_following_offset`]), applied with any offset, 0 included, so without `position_state_following_offset` too; only `current` or `temperature`; `on_init` fails when no joint has a `position` command and that state | g `custom_interface_with_following_offset_works_without_an_offset`, `custom_interface_with_following_offset_must_be_a_non_standard_state` |
//! | chained mimics | updated in declaration order: a mimic of a mimic declared after it lags one read | ordered by depth (a followed mimic first): the chain settles within one read | g `chained_mimics_follow_in_the_same_read_whatever_the_declaration_order` |
//! | mimic with a state its followed joint lacks | `read` throws (`The requested state interface not found`) | `on_init` fails with [`ErrorKind::Unsupported`], naming both joints | g `mimic_of_a_joint_without_that_state_is_unsupported` |
//! | `calculate_dynamics` mode | switched by the controllers' claims (`perform_command_mode_switch`), position until then: a velocity-only joint stands still | fixed when built: the lowest derivative the joint commands, or [`MockSystem::with_command_mode`] | d `calculate_dynamics_velocity_mode_integrates_position` |
//! | offset under `calculate_dynamics` | velocity and acceleration modes add the offset on every read while the velocity is not finite (an operator-precedence slip) | added through `on_configure` only | d `the_following_offset_reaches_integrated_positions_only_through_on_configure` |
//! | infinite command | `read` fails for the looped-back interfaces only; an infinite position is skipped silently | `write` fails for any command of a driven joint, naming it, and stores none of the set | g `infinite_command_is_an_error` |
//! | commands at activation | stay at `initial_value` or NaN until a controller writes | the System seeds commands holding the measured position with zero gains, which the first `write` stores | g `seeded_safe_commands_hold_the_joints_still` |
//! | interface types | `double` and `bool` interfaces are mirrored | `f64` only: our vocabulary has no other type | by construction ([`robot_runtime::Values`]) |
//! | disabled joints | none | [`MockSystem::with_disabled_joints`], from the runtime configuration: reported at their initial state, never driven | g `disabled_joint_is_never_driven` |
//!
//! [`ErrorKind::Unsupported`]: robot_runtime::hardware::ErrorKind::Unsupported
//! [`ErrorKind::InvalidCommand`]: robot_runtime::hardware::ErrorKind::InvalidCommand
#![warn(missing_docs)]

mod dynamics;
mod options;
mod plan;
mod sensor_input;
mod system;

pub use options::{CommandMode, MockOptions};
pub use sensor_input::{SensorInput, SensorInputError};
pub use system::MockSystem;
