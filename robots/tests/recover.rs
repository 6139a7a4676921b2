//! `robot recover`: a `robot run --record` killed with SIGKILL mid-run leaves a file `rosbags`
//! refuses; `robot recover` makes a complete file of it that `rosbags` and PyPI `mcap` with
//! `mcap-ros2-support` open (`recover_readers.py` beside this file), every message decoding, as
//! many on each topic as `mcap`'s streaming reader read from the cut file; `robot plot` draws it
//! without a note of an early end. The recording itself is refused as the output.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use integration_tests::tools::{Tool, require};

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

/// Runs lite_biped on the mock recording into `run.mcap` in `cwd`, and kills it with `kill -9`
/// once `chunks` chunks have reached the file (each one grows it).
fn record_and_kill(cwd: &Path, chunks: usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(["run", "--seconds", "120", "--record", "run.mcap"])
        .current_dir(cwd)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run robot");
    let path = cwd.join("run.mcap");
    let started = Instant::now();
    let (mut sizes, mut last) = (0, 0);
    while sizes < chunks {
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if size > last {
            (sizes, last) = (sizes + 1, size);
        }
        assert!(
            started.elapsed() < Duration::from_secs(100),
            "{sizes} chunks written (size {size})"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SIGKILL, from outside: no handler, no summary, no footer.
    let status = Command::new("kill")
        .args(["-9", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&exit),
        Some(9)
    );
}

/// The number before `after` on the line that starts with `line` in `text`.
fn number(text: &str, line: &str, after: &str) -> u64 {
    let found = (text.lines())
        .find_map(|l| l.strip_prefix(line))
        .unwrap_or_else(|| panic!("no line `{line}` in {text}"));
    let rest = found.split(after).next().unwrap_or_default();
    let digits: String = rest
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().unwrap()
}

/// The per-topic counts `robot recover` printed (`  /joint_states  1000`).
fn printed_counts(stdout: &str) -> BTreeMap<String, u64> {
    (stdout.lines())
        .filter_map(|line| line.strip_prefix("  "))
        .filter_map(|line| {
            let (topic, count) = line.trim().split_once(' ')?;
            Some((topic.to_string(), count.trim().parse().ok()?))
        })
        .collect()
}

fn counts(value: &serde_json::Value) -> BTreeMap<String, u64> {
    serde_json::from_value(value.clone()).unwrap()
}

#[test]
fn a_run_killed_with_sigkill_is_recovered_for_readers_that_need_the_summary() {
    let Some(mut python) = require(Tool::McapReaders) else {
        return;
    };
    let cwd = folder("recover-sigkill");
    record_and_kill(&cwd, 5);

    // The refused output first: the recording is left as it was.
    let before = std::fs::read(cwd.join("run.mcap")).unwrap();
    let refused = robot(&cwd, &["recover", "run.mcap", "--out", "./run.mcap"]);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        text(&refused.stderr),
        "error: `run.mcap` is the recording being recovered: write the recovered file to \
         another path\n"
    );
    assert!(std::fs::read(cwd.join("run.mcap")).unwrap() == before);

    let started = Instant::now();
    let recover = robot(&cwd, &["recover", "run.mcap", "--out", "recovered.mcap"]);
    let took = started.elapsed();
    let stdout = text(&recover.stdout);
    assert!(
        recover.status.success(),
        "{stdout}{}",
        text(&recover.stderr)
    );
    println!("{stdout}(took {took:?})");
    let messages = number(&stdout, "recovered ", " messages on ");
    assert!(
        stdout.contains(" messages on 7 channels, ")
            && stdout.contains(" of run.mcap into recovered.mcap\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nkept: 1 metadata record\nrebuilt: the summary, indexes and statistics, and rosbag2's metadata"),
        "{stdout}"
    );
    // Killed between two chunks (each written whole; their message indexes may be cut), or
    // while one was being written.
    let held = "what the recorder still held, at most one chunk (768 KiB or 1 s of the run), \
                never reached the file\n";
    assert!(
        stdout.ends_with(&format!(
            "\nlost: nothing in the file (it ends after a whole record); {held}"
        )) || (stdout.contains("\nlost: no message: the last ")
            && stdout.ends_with(&format!(
                " (an index, which the new file has whole); {held}"
            )))
            || stdout.ends_with(" (the chunk being written when the recording stopped)\n"),
        "{stdout}"
    );
    let printed = printed_counts(&stdout);
    assert_eq!(printed.values().sum::<u64>(), messages, "{stdout}");
    let cycles = printed["/joint_states"];
    // Several chunks, each of about 168 cycles (768 KiB) or a second of loop time, whichever
    // comes first; the first holds the schemas and channels.
    let chunks = number(&stdout, "recovered ", " whole chunks");
    assert!(chunks >= 4 && cycles >= 150, "{stdout}");
    // A chunk full mid-cycle holds the cycle's first topics, the next its last.
    for topic in ["/joint_commands", "/tf", "/imu/data"] {
        assert!(
            (cycles - 1..=cycles).contains(&printed[topic]),
            "{topic}: {stdout}"
        );
    }

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recover_readers.py");
    let output = python
        .arg(script)
        .args([cwd.join("run.mcap"), cwd.join("recovered.mcap")])
        .output()
        .unwrap();
    let (out, err) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{out}{err}");
    let seen: serde_json::Value = serde_json::from_str(&out).unwrap();
    let refusal = seen["cut"]["rosbags"].as_str().unwrap();
    assert!(refusal.contains("File end magic is invalid"), "{refusal}");
    let streamed = counts(&seen["cut"]["stream"]);
    assert_eq!(seen["cut"]["stream_stopped"], "EndOfFile", "{out}");
    let recovered = &seen["recovered"];
    assert_eq!(counts(&recovered["mcap"]), streamed, "{out}");
    assert_eq!(counts(&recovered["rosbags"]), streamed, "{out}");
    assert_eq!(printed, streamed, "{stdout}");
    assert_eq!(recovered["statistics"], messages);
    assert_eq!(recovered["rosbags_total"], messages);
    let rosbag2 = recovered["rosbag2"].as_str().unwrap();
    assert!(
        rosbag2.contains(&format!("\nmessage_count: {messages}\n"))
            && rosbag2.contains("relative_file_paths:\n  - recovered.mcap\n"),
        "{rosbag2}"
    );

    // Plotted whole, with no note of an early end.
    let plot = robot(&cwd, &["plot", "recovered.mcap", "--out", "recovered.svg"]);
    let said = text(&plot.stdout);
    assert!(plot.status.success(), "{said}{}", text(&plot.stderr));
    assert_eq!(
        said,
        format!("plotted {cycles} cycles of recovered.mcap into recovered.svg\n")
    );
    let svg = std::fs::read_to_string(cwd.join("recovered.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);

    // A complete file recovers to itself, nothing lost.
    let again = robot(&cwd, &["recover", "recovered.mcap", "--out", "again.mcap"]);
    let said = text(&again.stdout);
    assert!(again.status.success(), "{said}{}", text(&again.stderr));
    assert!(
        said.starts_with(&format!("recovered {messages} messages on 7 channels, "))
            && said.ends_with("\nlost: nothing (the file was complete)\n"),
        "{said}"
    );
}
