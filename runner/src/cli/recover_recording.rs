//! `recover RECORDING --out FILE`: a recording cut short made whole (`ros2_record::recover`),
//! saying what was recovered and what was lost.

use std::path::Path;

use ros2_record::recover::{Ending, Recovery, recover};
use ros2_record::writer::{CHUNK_SIZE, DEFAULT_FLUSH_PERIOD};

use super::output::plural;

/// Recovers `input` into `out` and says how it went.
pub(super) fn recover_recording(input: &Path, out: &Path) -> Result<(), String> {
    let recovery = recover(input, out).map_err(|e| e.to_string())?;
    out!("{}", report(&recovery, input, out));
    Ok(())
}

/// What [`recover_recording`] prints: what was recovered, per topic, what was rebuilt, and what
/// was lost.
fn report(recovery: &Recovery, input: &Path, out: &Path) -> String {
    let messages = recovery.message_count();
    let seconds = recovery
        .span_ns
        .map_or(0.0, |(first, last)| (last - first) as f64 / 1e9);
    let mut text = format!(
        "recovered {messages} {} on {} {}, {seconds:.3} s of log time, from {} whole {} of {} \
         into {}\n",
        plural(messages as usize, "message", "messages"),
        recovery.channels,
        plural(recovery.channels, "channel", "channels"),
        recovery.chunks,
        plural(recovery.chunks as usize, "chunk", "chunks"),
        input.display(),
        out.display(),
    );
    let width = recovery.messages.keys().map(String::len).max().unwrap_or(0);
    for (topic, count) in &recovery.messages {
        text += &format!("  {topic:<width$}  {count}\n");
    }
    let kept = [
        (recovery.metadata, "metadata record", "metadata records"),
        (recovery.attachments, "attachment", "attachments"),
    ];
    let kept: Vec<String> = (kept.iter())
        .filter(|(n, ..)| *n > 0)
        .map(|&(n, one, many)| format!("{n} {}", plural(n as usize, one, many)))
        .collect();
    if !kept.is_empty() {
        text += &format!("kept: {}\n", kept.join(", "));
    }
    text += if recovery.rosbag2_rebuilt {
        "rebuilt: the summary, indexes and statistics, and rosbag2's metadata (each topic's \
         message count and the time span, of what was recovered)\n"
    } else {
        "rebuilt: the summary, indexes and statistics\n"
    };
    let mut lost = Vec::new();
    match &recovery.ending {
        Ending::Complete => {}
        Ending::Unfinished => lost.push(format!(
            "nothing in the file (it ends after a whole record); {}",
            held_in_memory()
        )),
        ending @ Ending::Cut {
            offset,
            lost: bytes,
            kind,
            reason,
        } => {
            let cut = format!("the last {bytes} bytes, from byte {offset} on: {reason}");
            lost.push(if ending.in_an_index() {
                format!(
                    "no message: {cut} (an index, which the new file has whole); {}",
                    held_in_memory()
                )
            } else if *kind == Some("chunk") {
                format!("{cut} (the chunk being written when the recording stopped)")
            } else {
                format!("{cut} (what was being written when the recording stopped)")
            });
        }
    }
    for skipped in &recovery.skipped {
        lost.push(format!(
            "the {} of {} bytes at byte {}, which does not read: {}",
            skipped.kind, skipped.length, skipped.offset, skipped.reason
        ));
    }
    if recovery.unusable > 0 {
        lost.push(format!(
            "{} {} naming a channel or schema that was in a lost chunk",
            recovery.unusable,
            plural(recovery.unusable as usize, "record", "records")
        ));
    }
    if lost.is_empty() {
        lost.push("nothing (the file was complete)".to_string());
    }
    for line in lost {
        text += &format!("lost: {line}\n");
    }
    text
}

/// What a recorder killed between two chunks loses: the one it was building.
fn held_in_memory() -> String {
    format!(
        "what the recorder still held, at most one chunk ({} KiB or {} s of the run), never \
         reached the file",
        CHUNK_SIZE / 1024,
        DEFAULT_FLUSH_PERIOD.as_secs_f64()
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use ros2_record::recover::Skipped;
    use std::collections::BTreeMap;

    #[test]
    fn the_report_says_what_was_recovered_and_lost() {
        let recovery = Recovery {
            messages: BTreeMap::from([("/joint_states".into(), 400), ("/tf".into(), 400)]),
            channels: 7,
            chunks: 3,
            span_ns: Some((1_000_000_000, 2_995_000_000)),
            metadata: 1,
            attachments: 0,
            rosbag2_rebuilt: true,
            skipped: vec![Skipped {
                offset: 5000,
                length: 700,
                kind: "chunk",
                reason: "Chunk CRC failed (expected 00000001, got 00000002)".into(),
            }],
            unusable: 0,
            ending: Ending::Cut {
                offset: 9000,
                lost: 321,
                kind: Some("chunk"),
                reason: "a chunk record of 4000 bytes, of which the file holds 312".into(),
            },
        };
        let text = report(&recovery, Path::new("cut.mcap"), Path::new("whole.mcap"));
        assert_eq!(
            text,
            "recovered 800 messages on 7 channels, 1.995 s of log time, from 3 whole chunks of \
             cut.mcap into whole.mcap\n  \
             /joint_states  400\n  \
             /tf            400\n\
             kept: 1 metadata record\n\
             rebuilt: the summary, indexes and statistics, and rosbag2's metadata (each topic's \
             message count and the time span, of what was recovered)\n\
             lost: the last 321 bytes, from byte 9000 on: a chunk record of 4000 bytes, of which \
             the file holds 312 (the chunk being written when the recording stopped)\n\
             lost: the chunk of 700 bytes at byte 5000, which does not read: Chunk CRC failed \
             (expected 00000001, got 00000002)\n"
        );
    }

    #[test]
    fn a_file_cut_in_an_index_lost_no_message_of_its_own() {
        let recovery = Recovery {
            messages: BTreeMap::from([("/joint_states".into(), 1)]),
            channels: 1,
            chunks: 1,
            span_ns: Some((0, 0)),
            metadata: 0,
            attachments: 0,
            rosbag2_rebuilt: false,
            skipped: Vec::new(),
            unusable: 2,
            ending: Ending::Cut {
                offset: 170165,
                lost: 9,
                kind: Some("message index"),
                reason: "a message index record of 2678 bytes, of which the file holds 0".into(),
            },
        };
        let text = report(&recovery, Path::new("cut.mcap"), Path::new("whole.mcap"));
        assert_eq!(
            text,
            "recovered 1 message on 1 channel, 0.000 s of log time, from 1 whole chunk of \
             cut.mcap into whole.mcap\n  \
             /joint_states  1\n\
             rebuilt: the summary, indexes and statistics\n\
             lost: no message: the last 9 bytes, from byte 170165 on: a message index record of \
             2678 bytes, of which the file holds 0 (an index, which the new file has whole); \
             what the recorder still held, at most one chunk (768 KiB or 1 s of the run), never \
             reached the file\n\
             lost: 2 records naming a channel or schema that was in a lost chunk\n"
        );
    }
}
