// A contact sensor has `contact` and `normal_force`, not a force vector: a compile error.
use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    link base {}
    link foot { collision sphere { radius: 0.02 } }
    joint ankle: fixed { parent: base, child: foot }
    contact sole { link: foot, plugin: "pkg/Touch" }
}

fn main() {
    let state = TinyState::default();
    let _ = state.sole.force.z;
}
