//! How fast `robot chaos` runs lite_biped's schedules: one second of robot time with no fault
//! (the whole real path: set-up, 200 cycles of 14 motors and the IMU, torque-off), and a batch of
//! drawn schedules (most cut short by their faults), on one thread.

use criterion::{Criterion, criterion_group, criterion_main};
use robot_chaos::schedule::Ending;
use robot_chaos::{Schedule, Shape, run};
use robots::LiteBiped;

fn schedules(c: &mut Criterion) {
    let shape = Shape::of(LiteBiped::DESCRIPTION);
    let mut clean = Schedule::draw(3, &shape, 200);
    clean.faults.clear();
    clean.ending = Ending::Finish;
    c.bench_function("lite_biped schedule, no fault, 1 s", |b| {
        b.iter(|| run::<LiteBiped>(&clean, None));
    });
    let drawn: Vec<Schedule> = (0..20)
        .map(|i| Schedule::draw(robot_chaos::rng::schedule_seed(1, i), &shape, 200))
        .collect();
    c.bench_function("lite_biped, 20 drawn schedules", |b| {
        b.iter(|| {
            for schedule in &drawn {
                run::<LiteBiped>(schedule, None);
            }
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = schedules
}
criterion_main!(benches);
