//! The robot-rs book (`src/`, built by mdbook: `scripts/test` writes it into `target/book/`), each
//! chapter the docs of a module here, so that `cargo test -p robot-book --doc` compiles and runs
//! every Rust example in it. A chapter added to the book's `SUMMARY.md` (`docs/SUMMARY.md`,
//! with the reference notes beside the chapters) gets its module here too
//! (`tests/links.rs` checks both, and that every relative link resolves).
#![warn(missing_docs)]

#[doc = include_str!("../introduction.md")]
pub mod introduction {}
#[doc = include_str!("src/emitted-files.md")]
pub mod emitted_files {}
#[doc = include_str!("src/ros2-description-package.md")]
pub mod ros2_description_package {}
#[doc = include_str!("src/running-a-controller.md")]
pub mod running_a_controller {}
#[doc = include_str!("src/runtime-configuration.md")]
pub mod runtime_configuration {}
#[doc = include_str!("src/defining-a-robot.md")]
pub mod defining_a_robot {}
#[doc = include_str!("src/your-own-robot.md")]
pub mod your_own_robot {}
#[doc = include_str!("src/topic-backend.md")]
pub mod topic_backend {}
#[doc = include_str!("src/robstride-backend.md")]
pub mod robstride_backend {}
#[doc = include_str!("src/witmotion-backend.md")]
pub mod witmotion_backend {}
#[doc = include_str!("src/fault-simulation.md")]
pub mod fault_simulation {}
#[doc = include_str!("src/performance.md")]
pub mod performance {}
