//! The run-time path to MuJoCo's library for this crate's tests and benches, or an error naming
//! the script that installs it (`link.rs`).

#[path = "link.rs"]
mod link;

fn main() {
    link::link();
}
