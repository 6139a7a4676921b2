//! `robot run --record FILE.mcap` and `robot plot FILE.mcap --out FILE.svg`: the recording
//! plotted afterwards is the picture `--plot` drew during the run, byte for byte; a path that
//! cannot be written is refused before anything runs; a run killed with SIGKILL leaves a file
//! readable up to its last complete chunk; on simulated time its stamps run from zero.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn folder(name: &str) -> PathBuf {
    let cwd = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    cwd
}

fn robot(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run robot")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The whole number right before `before` in `text` (`401` of `401 cycles at`).
fn number_before(text: &str, before: &str) -> u64 {
    let end = text
        .find(before)
        .unwrap_or_else(|| panic!("no `{before}` in {text}"));
    let digits: String = text[..end]
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().unwrap()
}

#[test]
fn a_recording_plots_as_the_run_plotted_itself() {
    let cwd = folder("record-plot");
    let run = robot(
        &cwd,
        &[
            "run",
            "--seconds",
            "2",
            "--record",
            "run.mcap",
            "--plot",
            "during.svg",
        ],
    );
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", text(&run.stderr));
    // A loaded machine skips deadlines: what ran is what the statistics say.
    let cycles = number_before(&stdout, " cycles at 200 Hz");
    assert!(
        stdout.contains(&format!("recorded {cycles} cycles into run.mcap")),
        "{stdout}"
    );
    let plot = robot(&cwd, &["plot", "run.mcap", "--out", "after.svg"]);
    let said = text(&plot.stdout);
    assert!(plot.status.success(), "{said}{}", text(&plot.stderr));
    assert_eq!(
        said,
        format!("plotted {cycles} cycles of run.mcap into after.svg\n")
    );
    let (during, after) = (
        std::fs::read(cwd.join("during.svg")).unwrap(),
        std::fs::read(cwd.join("after.svg")).unwrap(),
    );
    assert!(
        during == after,
        "the recording's plot differs from the run's"
    );
}

#[test]
fn an_unwritable_record_path_is_refused_before_anything_runs() {
    let cwd = folder("record-unwritable");
    let run = robot(
        &cwd,
        &["run", "--seconds", "1", "--record", "missing/run.mcap"],
    );
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert!(!run.status.success(), "{stdout}");
    assert!(
        stderr.contains("--record missing/run.mcap: the folder `missing` does not exist"),
        "{stderr}"
    );
    assert!(!stdout.contains("cycles at"), "the loop ran: {stdout}");
}

#[test]
fn a_plot_of_what_is_not_a_recording_names_it() {
    let cwd = folder("record-not-mcap");
    std::fs::write(cwd.join("notes.mcap"), "not a recording").unwrap();
    let plot = robot(&cwd, &["plot", "notes.mcap", "--out", "x.svg"]);
    assert!(!plot.status.success());
    let stderr = text(&plot.stderr);
    assert!(
        stderr.starts_with("error: `notes.mcap` is not an MCAP recording: "),
        "{stderr}"
    );
}

#[test]
fn a_run_killed_with_sigkill_leaves_a_file_readable_to_its_last_chunk() {
    let cwd = folder("record-sigkill");
    let mut child = Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(["run", "--seconds", "60", "--record", "run.mcap"])
        .current_dir(&cwd)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run robot");
    // The file stays empty until the first chunk (closed at 768 KiB or each second) reaches
    // it; a second one beginning to reach it makes the kill land mid-run rather than right at
    // the first write.
    let path = cwd.join("run.mcap");
    let started = Instant::now();
    let mut first = 0;
    loop {
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if first == 0 && size > 0 {
            first = size;
        } else if first > 0 && size > first {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(50),
            "no chunk written (size {size})"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap(); // SIGKILL: no handler, no summary, no footer
    child.wait().unwrap();

    let mut last = 0;
    let summary = ros2_record::read::cycles(&path, |_, cycle| {
        assert!(cycle.stamp_ns > last, "cycles in order");
        last = cycle.stamp_ns;
    })
    .unwrap();
    assert!(summary.truncated.is_some(), "{summary:?}");
    // At least the first whole chunk: 768 KiB holds about 168 cycles of lite_biped (4.7 kB a
    // cycle before compression), and the file grew past it when the second began to reach it.
    assert!(summary.cycles >= 100, "{summary:?}");
    // A chunk may close between a cycle's /joint_states and its /tf: the cut leaves one short.
    let tf = summary.messages.get("/tf").copied().unwrap_or(0);
    assert!(tf.abs_diff(summary.cycles) <= 1, "{summary:?}");
    assert_eq!(
        summary.messages.get("/robot_description"),
        Some(&1),
        "{summary:?}"
    );
    // And plotted, saying it ends early.
    let plot = robot(&cwd, &["plot", "run.mcap", "--out", "killed.svg"]);
    let said = text(&plot.stdout);
    assert!(plot.status.success(), "{said}{}", text(&plot.stderr));
    assert!(
        said.starts_with("note: `run.mcap` ends early (a run killed mid-way?)")
            && said.contains(&format!("plotted {} cycles of run.mcap", summary.cycles)),
        "{said}"
    );
}

#[test]
fn a_full_disk_ends_the_recording_with_a_message_and_the_run_goes_on() {
    let cwd = folder("record-full-disk");
    // /dev/full: every write fails with ENOSPC, as on a full disk; chunks go out each second.
    let run = robot(&cwd, &["run", "--seconds", "2", "--record", "/dev/full"]);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", text(&run.stderr));
    assert!(
        stdout.contains(
            "the recording stopped: cannot write the recording `/dev/full`: I/O error from \
             writing, or reading a compression stream: No space left on device (os error 28); \
             the run goes on"
        ),
        "{stdout}"
    );
    let cycles = number_before(&stdout, " cycles at 200 Hz");
    let recorded = number_before(&stdout, " cycles: cannot write");
    let lost = number_before(&stdout, " more cycles were not recorded");
    assert_eq!(recorded + lost, cycles, "every cycle ran: {stdout}");
}

#[test]
fn on_simulated_time_a_recording_is_stamped_from_zero_and_on_the_wall_clock_from_the_epoch() {
    let cwd = folder("record-sim-time");
    // --fast: simulated time, as on MuJoCo; /clock's time is what ROS tools replay it on.
    for (args, simulated) in [
        (&["--fast", "--seconds", "3"][..], true),
        (&["--seconds", "1"][..], false),
    ] {
        let mut run_args = vec!["run", "--record", "run.mcap"];
        run_args.extend(args);
        let run = robot(&cwd, &run_args);
        assert!(run.status.success(), "{}", text(&run.stderr));
        let mut stamps = Vec::new();
        let summary = ros2_record::read::cycles(&cwd.join("run.mcap"), |_, cycle| {
            stamps.push(cycle.stamp_ns);
        })
        .unwrap();
        assert!(stamps.len() > 150, "{summary:?}");
        let (first, last) = (stamps[0], *stamps.last().unwrap());
        assert!(first < last, "{first} {last}");
        if simulated {
            assert_eq!(summary.info.loop_start_ns, Some(0), "{summary:?}");
            assert!(last <= 3_000_000_000, "{last}");
        } else {
            // 2023-11-14 onwards: the wall clock's epoch.
            assert!(first > 1_700_000_000_000_000_000, "{first}");
        }
    }
}
