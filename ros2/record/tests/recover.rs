//! `recover`: a recording cut anywhere (every few hundred bytes, and at every chunk's edges)
//! recovers to a complete file holding exactly the messages of the whole chunks before the cut,
//! in order, which this crate's reader and the `mcap` crate's summary read; a damaged chunk is
//! skipped alone; an uncut recording recovers to the same messages and the same rosbag2
//! metadata; what is not a recording is refused naming it, and nothing is left behind.
//!
//! The oracle is the uncut file's own summary: its chunk indexes say where each chunk lies, and
//! the `mcap` crate reads each chunk's messages through them.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::Pendulum;
use mcap::records::ChunkIndex;
use robot_core::hardware::Clock;
use ros2_record::McapRecording;
use ros2_record::read;
use ros2_record::recover::{Ending, RecoverError, Recovery, recover};
use ros2_state::snapshot::Snapshot;

/// One message as a reader sees it: topic, sequence, log time, publish time, content.
type Seen = (String, u32, u64, u64, Vec<u8>);

const CYCLES: u64 = 600;
/// Cycles per chunk: the recording's chunks are closed by hand, as the recorder's flush period
/// closes them, so where they lie does not depend on timing.
const PER_CHUNK: u64 = 50;

/// A recording of `CYCLES` cycles of the pendulum, a chunk every `PER_CHUNK`, as `run.mcap`.
fn recording() -> Vec<u8> {
    let mut recording = McapRecording::<Pendulum, Vec<u8>>::new(
        Vec::new(),
        Path::new("run.mcap"),
        "pendulum on mock",
        "<robot name=\"pendulum\"/>".into(),
    )
    .unwrap();
    let period = Duration::from_millis(1);
    for cycle in 1..=CYCLES {
        let mut snapshot = Snapshot::<Pendulum> {
            cycle,
            clock: Clock {
                time: period * u32::try_from(cycle).unwrap(),
                period,
            },
            epoch_at_start: Duration::from_secs(1_700_000_000),
            ..Snapshot::default()
        };
        let t = cycle as f64 / 1000.0;
        snapshot.command.swing.position = (10.0 * t).sin();
        snapshot.command.swing.stiffness = 5.0 + t;
        snapshot.state.swing.position = (10.0 * t).cos();
        recording.write(&snapshot).unwrap();
        if cycle % PER_CHUNK == 0 {
            recording.flush().unwrap();
        }
    }
    recording.finish().unwrap()
}

fn seen(message: &mcap::Message<'_>) -> Seen {
    (
        message.channel.topic.clone(),
        message.sequence,
        message.log_time,
        message.publish_time,
        message.data.to_vec(),
    )
}

/// The chunks of a complete file, each with its messages, by its summary.
fn chunks(whole: &[u8]) -> Vec<(ChunkIndex, Vec<Seen>)> {
    let summary = mcap::Summary::read(whole).unwrap().expect("a summary");
    (summary.chunk_indexes.iter())
        .map(|index| {
            let messages = summary.stream_chunk(whole, index).unwrap();
            let messages = messages.map(|m| seen(&m.unwrap())).collect();
            (index.clone(), messages)
        })
        .collect()
}

/// A recovered file's messages, read through its summary (which must be there) and checked
/// against its statistics; and its `rosbag2` metadata record's `serialized_metadata`.
fn read_recovered(path: &Path) -> (Vec<Seen>, String) {
    let bytes = std::fs::read(path).unwrap();
    let summary = mcap::Summary::read(&bytes).unwrap().expect("a summary");
    let mut messages = Vec::new();
    for index in &summary.chunk_indexes {
        assert_eq!(index.compression, "zstd");
        let chunk = summary.stream_chunk(&bytes, index).unwrap();
        messages.extend(chunk.map(|m| seen(&m.unwrap())));
    }
    let stats = summary.stats.as_ref().expect("statistics");
    assert_eq!(stats.message_count, messages.len() as u64);
    let rosbag2 = (summary.metadata_indexes.iter())
        .find(|index| index.name == "rosbag2")
        .expect("a rosbag2 metadata record");
    let rosbag2 = mcap::read::metadata(&bytes, rosbag2).unwrap();
    // The same messages streamed, in the same order: the chunks are in log-time order.
    let streamed: Vec<Seen> = (mcap::MessageStream::new(&bytes).unwrap())
        .map(|m| seen(&m.unwrap()))
        .collect();
    assert_eq!(streamed, messages);
    (messages, rosbag2.metadata["serialized_metadata"].clone())
}

/// The topics' counts in `messages`.
fn counts(messages: &[Seen]) -> BTreeMap<String, u64> {
    let mut counts = BTreeMap::new();
    for (topic, ..) in messages {
        *counts.entry(topic.clone()).or_default() += 1;
    }
    counts
}

/// Recovers the first `cut` bytes of `whole`; checks what came out against the chunks that lie
/// wholly before the cut. Returns the recovery, or the error when no such chunk has a message.
fn recover_cut(
    dir: &Path,
    whole: &[u8],
    chunks: &[(ChunkIndex, Vec<Seen>)],
    cut: usize,
) -> Result<Recovery, RecoverError> {
    let input = dir.join("cut.mcap");
    let out = dir.join("recovered.mcap");
    let _ = std::fs::remove_file(&out);
    std::fs::write(&input, &whole[..cut]).unwrap();
    let before: Vec<&(ChunkIndex, Vec<Seen>)> = (chunks.iter())
        .filter(|(index, _)| index.chunk_start_offset + index.chunk_length <= cut as u64)
        .collect();
    let expected: Vec<Seen> = before.iter().flat_map(|(_, m)| m.clone()).collect();
    let result = recover(&input, &out);
    let partial = dir.join("recovered.mcap.partial");
    assert!(!partial.exists(), "cut at {cut}: the partial file was left");
    let recovery = match result {
        Ok(recovery) => recovery,
        Err(error) => {
            assert!(expected.is_empty(), "cut at {cut}: {error}");
            assert!(!out.exists(), "cut at {cut}: a file was written");
            return Err(error);
        }
    };
    let (messages, rosbag2) = read_recovered(&out);
    assert!(messages == expected, "cut at {cut}: {recovery:?}");
    assert_eq!(recovery.messages, counts(&expected), "cut at {cut}");
    assert_eq!(recovery.chunks, before.len() as u64, "cut at {cut}");
    assert!(recovery.skipped.is_empty(), "cut at {cut}: {recovery:?}");
    assert_eq!(recovery.unusable, 0, "cut at {cut}");
    assert_eq!(recovery.metadata, 1, "robot_run, cut at {cut}");
    assert!(recovery.rosbag2_rebuilt);
    assert!(
        rosbag2.contains(&format!("\nmessage_count: {}\n", expected.len())),
        "cut at {cut}: {rosbag2}"
    );
    let first = expected.iter().map(|m| m.2).min().unwrap();
    let last = expected.iter().map(|m| m.2).max().unwrap();
    assert_eq!(recovery.span_ns, Some((first, last)), "cut at {cut}");
    assert!(
        rosbag2.contains(&format!(
            "duration:\n  nanoseconds: {}\nstarting_time:\n  nanoseconds_since_epoch: {first}\n",
            last - first
        )),
        "cut at {cut}: {rosbag2}"
    );
    // Where reading stopped: the bytes lost run from there to the cut.
    let read_to = match &recovery.ending {
        Ending::Cut { offset, lost, .. } => {
            assert_eq!(offset + lost, cut as u64, "cut at {cut}: {recovery:?}");
            *offset
        }
        Ending::Unfinished | Ending::Complete => cut as u64,
    };
    let last_chunk = before
        .last()
        .map(|(i, _)| i.chunk_start_offset + i.chunk_length);
    assert!(read_to >= last_chunk.unwrap_or(0), "cut at {cut}");
    // Cut through a chunk past its opcode and length, or through the message indexes after one.
    for (index, _) in chunks {
        let (start, end) = (
            index.chunk_start_offset,
            index.chunk_start_offset + index.chunk_length,
        );
        let at = cut as u64;
        let (kind, in_an_index) = if (start + 9..end).contains(&at) {
            (Some("chunk"), false)
        } else if (end + 9..end + index.message_index_length).contains(&at) {
            (Some("message index"), true)
        } else {
            continue;
        };
        assert!(
            matches!(recovery.ending, Ending::Cut { kind: k, .. } if k == kind),
            "cut at {cut}: {recovery:?}"
        );
        assert_eq!(recovery.ending.in_an_index(), in_an_index, "cut at {cut}");
    }
    // This crate's reader reads it to its end, every cycle in order.
    let mut stamps = Vec::new();
    let summary = read::cycles(&out, |info, cycle| {
        assert_eq!(info.title.as_deref(), Some("pendulum on mock"));
        stamps.push(cycle.stamp_ns);
    })
    .unwrap();
    assert_eq!(summary.truncated, None, "cut at {cut}");
    assert_eq!(
        summary.cycles,
        expected_count(&expected, "/joint_states"),
        "cut at {cut}"
    );
    assert!(stamps.windows(2).all(|w| w[0] < w[1]), "cut at {cut}");
    Ok(recovery)
}

fn expected_count(messages: &[Seen], topic: &str) -> u64 {
    messages.iter().filter(|m| m.0 == topic).count() as u64
}

#[test]
fn a_recording_cut_anywhere_recovers_the_whole_chunks_before_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let whole = recording();
    let chunks = chunks(&whole);
    assert!(chunks.len() > 10, "{} chunks", chunks.len());
    // Every few hundred bytes, and at each chunk's edges.
    let mut cuts: Vec<usize> = (1..whole.len()).step_by(251).collect();
    for (index, _) in &chunks {
        let (start, end) = (
            index.chunk_start_offset as usize,
            (index.chunk_start_offset + index.chunk_length) as usize,
        );
        cuts.extend([start, start + 1, end - 1, end, end + 1]);
    }
    cuts.sort_unstable();
    cuts.dedup();
    let (mut recovered, mut refused) = (0, 0);
    for &cut in &cuts {
        match recover_cut(dir.path(), &whole, &chunks, cut) {
            Ok(_) => recovered += 1,
            Err(_) => refused += 1,
        }
    }
    // Refused only before the first chunk with messages ends.
    assert!(recovered > 400 && refused > 0, "{recovered} {refused}");
}

#[test]
fn a_cut_before_any_message_is_refused_saying_what_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let whole = recording();
    let chunks = chunks(&whole);
    // The first chunk holds the schemas and channels; the second, the first messages.
    assert!(chunks[0].1.is_empty() && !chunks[1].1.is_empty());
    let second = chunks[1].0.chunk_start_offset;
    let error = recover_cut(dir.path(), &whole, &chunks, second as usize + 100).unwrap_err();
    let text = error.to_string();
    let expected = format!(
        "`{}`: nothing to recover: no message in the 1 whole chunk before byte {second} (a \
         chunk record of {} bytes, of which the file holds 91)",
        dir.path().join("cut.mcap").display(),
        chunks[1].0.chunk_length - 9,
    );
    assert_eq!(text, expected);
}

#[test]
fn an_uncut_recording_recovers_to_the_same_messages_and_rosbag2_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let whole = recording();
    let chunks = chunks(&whole);
    let recovery = recover_cut(dir.path(), &whole, &chunks, whole.len()).unwrap();
    assert_eq!(recovery.ending, Ending::Complete);
    assert_eq!(recovery.chunks, chunks.len() as u64);
    let original = mcap::Summary::read(&whole).unwrap().unwrap();
    assert_eq!(recovery.channels, original.channels.len(), "{recovery:?}");
    assert_eq!(recovery.messages["/joint_states"], CYCLES);
    // Recovered under the recording's own name: the same rosbag2 metadata, to the byte.
    let out = dir.path().join("again").join("run.mcap");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let input = dir.path().join("run.mcap");
    std::fs::write(&input, &whole).unwrap();
    recover(&input, &out).unwrap();
    let (_, rebuilt) = read_recovered(&out);
    let index = (original.metadata_indexes.iter())
        .find(|i| i.name == "rosbag2")
        .unwrap();
    let metadata = mcap::read::metadata(&whole, index).unwrap();
    assert_eq!(rebuilt, metadata.metadata["serialized_metadata"]);
    // Header as the recorder writes it.
    let bytes = std::fs::read(&out).unwrap();
    let header = mcap::read::LinearReader::new(&bytes)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let mcap::records::Record::Header(header) = header else {
        panic!("{header:?}")
    };
    assert_eq!(header.profile, "ros2");
    assert_eq!(header.library, ros2_record::writer::LIBRARY);
}

/// The file with one byte at `at` flipped.
fn flipped(whole: &[u8], at: u64) -> Vec<u8> {
    let mut bytes = whole.to_vec();
    bytes[at as usize] ^= 0x5a;
    bytes
}

#[test]
fn a_damaged_chunk_is_skipped_alone() {
    let dir = tempfile::tempdir().unwrap();
    let whole = recording();
    let chunks = chunks(&whole);
    let (index, lost) = &chunks[5];
    // In its compressed data, and in its CRC (after the opcode, length, times and size).
    let data = index.compressed_data_offset().unwrap() + index.compressed_size / 2;
    let crc = index.chunk_start_offset + 1 + 8 + 8 + 8 + 8;
    for (at, why) in [(data, ""), (crc, "Chunk CRC failed")] {
        let input = dir.path().join("damaged.mcap");
        let out = dir.path().join("recovered.mcap");
        std::fs::write(&input, flipped(&whole, at)).unwrap();
        let recovery = recover(&input, &out).unwrap();
        assert_eq!(recovery.skipped.len(), 1, "{recovery:?}");
        let skipped = &recovery.skipped[0];
        assert_eq!(skipped.offset, index.chunk_start_offset);
        assert_eq!(skipped.length, index.chunk_length);
        assert_eq!(skipped.kind, "chunk");
        assert!(skipped.reason.contains(why), "{skipped:?}");
        assert_eq!(recovery.chunks, chunks.len() as u64 - 1);
        assert_eq!(recovery.ending, Ending::Complete);
        let expected: Vec<Seen> = (chunks.iter())
            .filter(|(i, _)| i != index)
            .flat_map(|(_, m)| m.clone())
            .collect();
        let (messages, _) = read_recovered(&out);
        assert!(messages == expected);
        assert_eq!(
            recovery.message_count() + lost.len() as u64,
            chunks.iter().map(|(_, m)| m.len() as u64).sum::<u64>()
        );
    }
}

#[test]
fn what_is_not_a_recording_is_refused_naming_it_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("recovered.mcap");
    let whole = recording();
    let mut magic_then_noise = whole[..8].to_vec();
    magic_then_noise.extend(b"Bonjour, this is no record at all, only text".repeat(30));
    let cases: [(&str, Vec<u8>, &str); 5] = [
        (
            "empty.mcap",
            Vec::new(),
            "`{}` is empty: nothing to recover (the run was killed before its first chunk was written?)",
        ),
        (
            "notes.mcap",
            b"not a recording, some notes".to_vec(),
            "`{}` is not an MCAP recording: it does not start with MCAP's magic bytes",
        ),
        (
            "short.mcap",
            b"\x89MC".to_vec(),
            "`{}` is not an MCAP recording: it is shorter than MCAP's magic bytes",
        ),
        (
            "magic.mcap",
            whole[..8].to_vec(),
            "`{}` is not an MCAP recording: it ends after its magic bytes",
        ),
        (
            "noise.mcap",
            magic_then_noise,
            "`{}` is not an MCAP recording: its first record (opcode 0x42) is not a header",
        ),
    ];
    for (name, bytes, message) in cases {
        let input = dir.path().join(name);
        std::fs::write(&input, bytes).unwrap();
        let error = recover(&input, &out).unwrap_err();
        assert_eq!(
            error.to_string(),
            message.replace("{}", &input.display().to_string())
        );
        assert!(!out.exists(), "{name}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "{name}");
        std::fs::remove_file(&input).unwrap();
    }
    let missing = dir.path().join("missing.mcap");
    let error = recover(&missing, &out).unwrap_err().to_string();
    assert!(
        error.starts_with(&format!(
            "cannot read the recording `{}`: ",
            missing.display()
        )),
        "{error}"
    );
}

#[test]
fn the_recording_itself_is_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let whole = recording();
    let input = dir.path().join("cut.mcap");
    std::fs::write(&input, &whole[..whole.len() / 2]).unwrap();
    // Named another way: `./` before it.
    let same: PathBuf = dir.path().join(".").join("cut.mcap");
    let error = recover(&input, &same).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "`{}` is the recording being recovered: write the recovered file to another path",
            input.display()
        )
    );
    assert_eq!(std::fs::read(&input).unwrap(), &whole[..whole.len() / 2]);
}

#[test]
fn messages_outside_chunks_metadata_and_attachments_are_kept() {
    // An MCAP without chunks, as other writers may make: each message a record of its own.
    let mut writer = mcap::WriteOptions::new()
        .profile("demo")
        .use_chunks(false)
        .create(std::io::Cursor::new(Vec::new()))
        .unwrap();
    let schema = writer.add_schema("Text", "", b"").unwrap();
    let channel = writer
        .add_channel(schema, "/notes", "text", &BTreeMap::new())
        .unwrap();
    writer
        .attach(&mcap::Attachment {
            log_time: 1,
            create_time: 2,
            name: "calibration.yaml".into(),
            media_type: "text/yaml".into(),
            data: Cow::Borrowed(b"offset: 0.1"),
        })
        .unwrap();
    writer
        .write_metadata(&mcap::records::Metadata {
            name: "site".into(),
            metadata: BTreeMap::from([("lab".into(), "north".into())]),
        })
        .unwrap();
    for n in 0..100_u32 {
        let header = mcap::records::MessageHeader {
            channel_id: channel,
            sequence: n,
            log_time: u64::from(n) * 10,
            publish_time: u64::from(n) * 10,
        };
        let text = format!("note {n}");
        writer
            .write_to_known_channel(&header, text.as_bytes())
            .unwrap();
    }
    writer.finish().unwrap();
    let whole = writer.into_inner().into_inner();
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("notes.mcap"), dir.path().join("out.mcap"));
    for cut in [whole.len(), whole.len() / 2] {
        std::fs::write(&input, &whole[..cut]).unwrap();
        let recovery = recover(&input, &out).unwrap();
        assert_eq!((recovery.attachments, recovery.metadata), (1, 1));
        assert!(!recovery.rosbag2_rebuilt, "not a ros2 file");
        let bytes = std::fs::read(&out).unwrap();
        let notes: Vec<String> = (mcap::MessageStream::new(&bytes).unwrap())
            .map(|m| String::from_utf8(m.unwrap().data.to_vec()).unwrap())
            .collect();
        let count = recovery.messages["/notes"];
        assert_eq!(notes.len() as u64, count);
        assert!((30..=100).contains(&count), "{recovery:?}");
        assert_eq!(count == 100, cut == whole.len());
        assert!(
            notes
                .iter()
                .enumerate()
                .all(|(n, t)| *t == format!("note {n}"))
        );
        let summary = mcap::Summary::read(&bytes).unwrap().unwrap();
        assert_eq!(summary.attachment_indexes[0].name, "calibration.yaml");
        assert_eq!(summary.metadata_indexes.len(), 1, "no rosbag2 record");
        assert_eq!(summary.metadata_indexes[0].name, "site");
    }
}
