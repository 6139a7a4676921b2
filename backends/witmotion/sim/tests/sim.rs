//! The simulated IMU as a host sees it through the real serial path: `serialport` opens the
//! pty's slave as it would `/dev/ttyUSB0`, and the bytes are parsed by `witmotion-protocol`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use witmotion_protocol::{
    BaudRate, Command, FrameKind, OutputContent, OutputRate, Parser, Reading, register,
};
use witmotion_sim::{Failure, Motion, Settings, SimImu, SimOptions};

fn device(rate: OutputRate, baud: BaudRate) -> SimImu {
    SimImu::spawn(SimOptions::new(Settings::streaming(rate, baud))).unwrap()
}

fn open(sim: &SimImu, baud: u32) -> serialport::TTYPort {
    serialport::new(sim.path(), baud)
        .timeout(Duration::from_millis(20))
        .open_native()
        .unwrap()
}

/// Every reading that arrives within `time`, with the parser's counters.
fn listen(
    port: &mut serialport::TTYPort,
    time: Duration,
) -> (Vec<Reading>, witmotion_protocol::Counters) {
    let mut parser = Parser::new();
    let mut readings = Vec::new();
    let mut buffer = [0u8; 512];
    let end = Instant::now() + time;
    while Instant::now() < end {
        if let Ok(n) = port.read(&mut buffer) {
            readings.extend(
                parser
                    .push(&buffer[..n])
                    .filter_map(|f| Reading::decode(&f).ok()),
            );
        }
    }
    (readings, parser.counters())
}

fn count(readings: &[Reading], kind: FrameKind) -> usize {
    readings.iter().filter(|r| r.kind() == kind).count()
}

#[test]
fn a_still_level_device_streams_gravity_up_and_the_identity_at_its_rate() {
    let sim = device(OutputRate::Hz100, BaudRate::B460800);
    let mut port = open(&sim, 460_800);
    let (readings, counters) = listen(&mut port, Duration::from_millis(500));
    assert_eq!(counters.checksum_failures, 0);
    // 50 sets in 0.5 s; generous bounds for a loaded machine.
    let sets = count(&readings, FrameKind::Quaternion);
    assert!((25..=60).contains(&sets), "{sets}");
    for reading in &readings {
        match reading {
            Reading::Acceleration(a) => assert!((a.z - 9.80665).abs() < 0.005 && a.x.abs() < 0.005),
            Reading::Quaternion(q) => assert!(q.w > 0.99999, "{q:?}"),
            Reading::AngularVelocity(w) => assert_eq!([w.x, w.y, w.z], [0.0; 3]),
            other => panic!("not asked for: {other:?}"),
        }
    }
}

#[test]
fn a_rotating_device_reports_its_rate_and_a_turning_orientation() {
    let sim = device(OutputRate::Hz200, BaudRate::B460800);
    sim.set_motion(Motion::Rotating {
        axis: [0.0, 0.0, 1.0],
        rate: 1.0,
    });
    let mut port = open(&sim, 460_800);
    let (readings, _) = listen(&mut port, Duration::from_millis(300));
    let yaws: Vec<f32> = readings
        .iter()
        .filter_map(|r| match r {
            Reading::Quaternion(q) => Some(q.to_euler().2),
            _ => None,
        })
        .collect();
    assert!(
        yaws.windows(2).all(|w| w[1] >= w[0]),
        "turning one way: {yaws:?}"
    );
    let rate = readings.iter().find_map(|r| match r {
        Reading::AngularVelocity(w) => Some(w.z),
        _ => None,
    });
    assert!((rate.unwrap() - 1.0).abs() < 0.002);
}

fn write(port: &mut serialport::TTYPort, commands: &[Command]) {
    for command in commands {
        port.write_all(&command.encode()).unwrap();
    }
    port.flush().unwrap();
    std::thread::sleep(Duration::from_millis(60));
}

#[test]
fn the_device_takes_writes_only_after_an_unlock_and_answers_a_register_read() {
    let sim = device(OutputRate::Hz50, BaudRate::B115200);
    let mut port = open(&sim, 115_200);
    write(&mut port, &[Command::SetOutputRate(OutputRate::Hz10)]);
    assert_eq!(sim.settings().rate, OutputRate::Hz50, "locked");
    write(
        &mut port,
        &[
            Command::Unlock,
            Command::SetOutputRate(OutputRate::Hz20),
            Command::Save,
        ],
    );
    assert_eq!(sim.saved().rate, OutputRate::Hz20);
    write(
        &mut port,
        &[Command::ReadRegisters {
            first: register::RSW,
        }],
    );
    let (readings, _) = listen(&mut port, Duration::from_millis(200));
    let values = readings.iter().find_map(|r| match r {
        Reading::RegisterValues(v) => Some(*v),
        _ => None,
    });
    let content = Settings::streaming(OutputRate::Hz20, BaudRate::B115200).content;
    assert_eq!(
        values,
        Some([
            content.bits(),
            OutputRate::Hz20 as u16,
            BaudRate::B115200 as u16,
            0
        ])
    );
}

#[test]
fn at_the_wrong_baud_the_host_sees_no_frame() {
    let sim = device(OutputRate::Hz100, BaudRate::B115200);
    let mut port = open(&sim, 460_800);
    let (readings, counters) = listen(&mut port, Duration::from_millis(300));
    assert!(readings.is_empty(), "{readings:?}");
    assert!(counters.skipped_bytes > 100, "{counters:?}");
    // A baud change applies at once: a host that follows reads frames again.
    drop(port);
    let mut port = open(&sim, 115_200);
    write(
        &mut port,
        &[Command::Unlock, Command::SetBaudRate(BaudRate::B460800)],
    );
    assert_eq!(sim.settings().baud, BaudRate::B460800);
    drop(port);
    let mut port = open(&sim, 460_800);
    let (readings, _) = listen(&mut port, Duration::from_millis(200));
    assert!(count(&readings, FrameKind::Acceleration) > 5);
}

#[test]
fn each_failure_shows_on_the_wire() {
    let sim = device(OutputRate::Hz200, BaudRate::B460800);
    let mut port = open(&sim, 460_800);
    let listen_for = |port: &mut serialport::TTYPort| listen(port, Duration::from_millis(200));
    sim.set_failure(Some(Failure::Silent));
    std::thread::sleep(Duration::from_millis(30));
    let _ = listen(&mut port, Duration::from_millis(30));
    assert_eq!(listen_for(&mut port).1.frames, 0);
    sim.set_failure(Some(Failure::FlipBit { every: 1 }));
    let (_, counters) = listen_for(&mut port);
    assert!(
        counters.frames == 0 && counters.checksum_failures > 20,
        "{counters:?}"
    );
    sim.set_failure(Some(Failure::Truncated));
    assert_eq!(listen_for(&mut port).1.frames, 0);
    sim.set_failure(Some(Failure::Garbage));
    assert!(listen_for(&mut port).1.frames < 3);
    sim.set_failure(Some(Failure::WrongKinds(
        OutputContent::NONE.with(FrameKind::MagneticField),
    )));
    let (readings, _) = listen_for(&mut port);
    assert!(
        readings
            .iter()
            .all(|r| r.kind() == FrameKind::MagneticField)
            && !readings.is_empty()
    );
    sim.set_failure(Some(Failure::Unplugged));
    std::thread::sleep(Duration::from_millis(50));
    let mut buffer = [0u8; 64];
    let read = (0..10)
        .map(|_| port.read(&mut buffer))
        .find(|r| !matches!(r, Ok(n) if *n > 0));
    assert!(
        matches!(&read, Some(Err(e)) if e.kind() != std::io::ErrorKind::TimedOut),
        "{read:?}"
    );
}
