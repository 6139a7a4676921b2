// A `CanId` comes only from `CanId::new`, which checks the range: there is no unchecked
// constructor to call, not even a hidden one.
fn main() {
    let _ = robot_core::model::CanId::__validated(200);
}
