//! The file: an MCAP with profile `ros2` as rosbag2's MCAP storage writes it (schemas
//! `ros2msg`, messages `cdr`, the channel metadata and the `rosbag2` metadata record of
//! [`crate::rosbag2`]), chunked and zstd-compressed.
//!
//! Chunks are built in memory and written whole (the `mcap` crate's buffered chunk mode, no
//! seeking back): the file only ever grows by complete records, so a process killed mid-run
//! leaves a file readable up to its last complete chunk. A chunk is closed when it holds
//! [`CHUNK_SIZE`] bytes or every [`crate::RecordOptions::flush_period`], whichever comes first,
//! which bounds what a kill loses.
//!
//! Compression is zstd, not lz4: rosbag2's own compressed presets, the `mcap` CLI and every
//! reader we target (Foxglove, PlotJuggler, `ros2 bag`, PyPI `mcap`, `rosbags`) use or read it;
//! it packs a robot's slowly changing floats better than lz4; at level 1 it costs the writer
//! thread little (the crate's bench); and the build needs one C library, not two.
//!
//! Memory: one chunk being built (at most [`CHUNK_SIZE`] before compression, its compressed
//! bytes and its message index), plus what the summary at the end needs, which grows by one
//! chunk index (a few hundred bytes) per chunk: about a megabyte an hour at a chunk a second.
//! That index is what lets Foxglove seek; a run of days would want files split by the hour.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use mcap::records::{MessageHeader, Metadata};
use mcap::write::NoSeek;
use mcap::{Compression, McapError, WriteOptions, Writer};
use robot_runtime::typed::RobotTypes;
use ros2_msg::msg::{DiagnosticArray, KeyValue, StringMessage, Time};
use ros2_msg::{Message, QosProfile, TypeDescription, TypeHash};
use ros2_state::Health;
use ros2_state::snapshot::Snapshot;

use crate::rosbag2::{self, BagSummary, TopicSummary};
use crate::schema;
use crate::topics::{self, Topic};

/// Uncompressed bytes per chunk: what rosbag2's MCAP writer uses (libmcap's default, 768 KiB).
pub const CHUNK_SIZE: u64 = 768 * 1024;
/// zstd level 1: the fastest standard level. A robot's state compresses well at any level (see
/// the crate's benchmark for the ratio), and the writer must stay far ahead of a 1 kHz loop on
/// the robot's own small computer.
pub const ZSTD_LEVEL: u32 = 1;
/// What the header says wrote the file.
pub const LIBRARY: &str = concat!("ros2-record ", env!("CARGO_PKG_VERSION"));

/// How this crate writes every file, a recording or one recovered ([`crate::recover`]): profile
/// `ros2`, zstd chunks of at most [`CHUNK_SIZE`], built in memory and written whole.
pub(crate) fn write_options() -> WriteOptions {
    WriteOptions::new()
        .profile("ros2")
        .library(LIBRARY)
        .compression(Some(Compression::Zstd))
        .compression_level(ZSTD_LEVEL)
        // One thread: the robot's computer has few cores, and the loop needs one.
        .compression_threads(0)
        .chunk_size(Some(CHUNK_SIZE))
        .disable_seeking(true)
}

/// The names of robot `R`'s prismatic joints, comma-separated.
fn prismatic_joints<R: RobotTypes>() -> String {
    (R::DESCRIPTION.joints.iter())
        .filter(|j| j.kind == robot_runtime::model::JointKind::Prismatic)
        .map(|j| j.name.as_ref())
        .collect::<Vec<&str>>()
        .join(",")
}

/// The metadata record with what `robot plot` needs to draw a recording as `--plot` draws a run.
pub const RUN_METADATA: &str = "robot_run";

/// Why a recording failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// The file cannot be created (refused before the run).
    #[error("cannot record to `{path}`: {source}", path = .path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Writing failed (a full disk): the recording ended there; the run did not.
    #[error("cannot write the recording `{path}`: {}", chain(.source), path = .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the writer said.
        source: McapError,
    },
    /// The writing thread could not be started.
    #[error("cannot start the thread recording to `{path}`: {source}", path = .path.display())]
    Thread {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// An error and its causes: the mcap crate's I/O error says only that writing failed, its
/// source why (`No space left on device`).
pub(crate) fn chain(error: &McapError) -> String {
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(inner) = cause {
        text = format!("{text}: {inner}");
        cause = inner.source();
    }
    text
}

/// One channel: its topic and how many messages it got.
struct Channel {
    id: u16,
    summary: TopicSummary,
}

/// A recording being written to `W`, one [`Snapshot`] at a time (the recorder's thread drives
/// it; benchmarks and tests may too).
pub struct McapRecording<R: RobotTypes, W: Write> {
    writer: Writer<NoSeek<W>>,
    path: PathBuf,
    title: String,
    per_cycle: Vec<(Box<dyn Topic<R>>, Channel)>,
    tf_static: Channel,
    robot_description: Channel,
    diagnostics: Channel,
    description_text: String,
    buffer: Vec<u8>,
    first_ns: Option<u64>,
    last_ns: u64,
    cycles: u64,
}

impl<R: RobotTypes, W: Write> std::fmt::Debug for McapRecording<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McapRecording")
            .field("path", &self.path)
            .field("cycles", &self.cycles)
            .finish_non_exhaustive()
    }
}

fn add_channel<W: Write>(
    writer: &mut Writer<NoSeek<W>>,
    topic: &str,
    description: &'static TypeDescription,
    qos: QosProfile,
) -> Result<Channel, McapError> {
    let type_name = description.type_name();
    let schema = writer.add_schema(
        &type_name,
        "ros2msg",
        schema::ros2msg(description).as_bytes(),
    )?;
    let type_hash = TypeHash::of_description(description).to_string();
    let offered_qos_profiles = rosbag2::offered_qos_profiles(&qos);
    let metadata = BTreeMap::from([
        (
            "offered_qos_profiles".to_string(),
            offered_qos_profiles.clone(),
        ),
        ("topic_type_hash".to_string(), type_hash.clone()),
    ]);
    let id = writer.add_channel(schema, topic, "cdr", &metadata)?;
    Ok(Channel {
        id,
        summary: TopicSummary {
            name: topic.to_string(),
            type_name,
            type_hash,
            offered_qos_profiles,
            message_count: 0,
        },
    })
}

impl<R: RobotTypes, W: Write> McapRecording<R, W> {
    /// Starts the file at `sink` (named `path` in messages and the metadata): header, schemas,
    /// channels. `title` says what ran where; `robot_description` is the URDF.
    pub fn new(
        sink: W,
        path: &Path,
        title: &str,
        robot_description: String,
    ) -> Result<Self, RecordError> {
        let failed = |source| RecordError::Write {
            path: path.to_path_buf(),
            source,
        };
        let mut writer = write_options().create(NoSeek::new(sink)).map_err(failed)?;
        let mut per_cycle = Vec::new();
        for topic in topics::per_cycle::<R>() {
            let channel = add_channel(&mut writer, topic.name(), topic.description(), topic.qos())
                .map_err(failed)?;
            per_cycle.push((topic, channel));
        }
        let tf_static = add_channel(
            &mut writer,
            "/tf_static",
            ros2_msg::msg::TFMessage::DESCRIPTION,
            topics::LATCHED_QOS,
        )
        .map_err(failed)?;
        let robot_description_channel = add_channel(
            &mut writer,
            "/robot_description",
            StringMessage::DESCRIPTION,
            topics::LATCHED_QOS,
        )
        .map_err(failed)?;
        let diagnostics = add_channel(
            &mut writer,
            "/diagnostics",
            DiagnosticArray::DESCRIPTION,
            topics::DIAGNOSTICS_QOS,
        )
        .map_err(failed)?;
        Ok(McapRecording {
            writer,
            path: path.to_path_buf(),
            title: title.to_string(),
            per_cycle,
            tf_static,
            robot_description: robot_description_channel,
            diagnostics,
            description_text: robot_description,
            buffer: Vec::with_capacity(64 * 1024),
            first_ns: None,
            last_ns: 0,
            cycles: 0,
        })
    }

    fn failed(&self, source: McapError) -> RecordError {
        RecordError::Write {
            path: self.path.clone(),
            source,
        }
    }

    /// Writes one cycle: every per-cycle topic, stamped with the cycle's time (the latched
    /// topics and the run's metadata before the first).
    pub fn write(&mut self, snapshot: &Snapshot<R>) -> Result<(), RecordError> {
        let stamp = snapshot.stamp();
        let ns = u64::try_from(stamp.as_nanos()).unwrap_or(0);
        if self.first_ns.is_none() {
            self.first_ns = Some(ns);
            self.write_first(snapshot, &stamp, ns)?;
        }
        self.last_ns = self.last_ns.max(ns);
        for (topic, channel) in &mut self.per_cycle {
            if !topic.encode(snapshot, &mut self.buffer) {
                continue;
            }
            let header = MessageHeader {
                channel_id: channel.id,
                sequence: u32::try_from(channel.summary.message_count).unwrap_or(u32::MAX),
                log_time: ns,
                publish_time: ns,
            };
            if let Err(source) = self.writer.write_to_known_channel(&header, &self.buffer) {
                return Err(RecordError::Write {
                    path: self.path.clone(),
                    source,
                });
            }
            channel.summary.message_count += 1;
        }
        self.cycles += 1;
        Ok(())
    }

    fn write_first(
        &mut self,
        snapshot: &Snapshot<R>,
        stamp: &Time,
        ns: u64,
    ) -> Result<(), RecordError> {
        let start = u64::try_from(snapshot.epoch_at_start.as_nanos()).unwrap_or(0);
        let metadata = Metadata {
            name: RUN_METADATA.to_string(),
            metadata: BTreeMap::from([
                ("title".to_string(), self.title.clone()),
                ("loop_start_ns".to_string(), start.to_string()),
                // A position's unit is rad but for these, m: what `robot plot` labels each with.
                ("prismatic_joints".to_string(), prismatic_joints::<R>()),
            ]),
        };
        self.writer
            .write_metadata(&metadata)
            .map_err(|e| self.failed(e))?;
        let description = StringMessage {
            data: std::mem::take(&mut self.description_text),
        };
        let once = [
            (self.tf_static.id, encode(&topics::tf_static::<R>(stamp))),
            (self.robot_description.id, encode(&description)),
        ];
        for (channel_id, data) in once {
            let header = MessageHeader {
                channel_id,
                sequence: 0,
                log_time: ns,
                publish_time: ns,
            };
            self.writer
                .write_to_known_channel(&header, &data)
                .map_err(|e| self.failed(e))?;
        }
        self.tf_static.summary.message_count = 1;
        self.robot_description.summary.message_count = 1;
        Ok(())
    }

    /// Writes one `/diagnostics` message: how the hardware stood (`health`, its components
    /// named `names`), stamped with its cycle's time. The cycles are those recorded so far; the
    /// loop's overruns are not known here (the run's statistics have them).
    pub fn write_diagnostics(
        &mut self,
        health: &Health,
        names: &[String],
    ) -> Result<(), RecordError> {
        let stamp = health.stamp();
        let message = ros2_state::diagnostic_array(
            &R::DESCRIPTION.name,
            names,
            health,
            None,
            &[KeyValue {
                key: "cycles".to_string(),
                value: health.cycle.to_string(),
            }],
            &stamp,
        );
        let ns = u64::try_from(stamp.as_nanos()).unwrap_or(0);
        let header = MessageHeader {
            channel_id: self.diagnostics.id,
            sequence: u32::try_from(self.diagnostics.summary.message_count).unwrap_or(u32::MAX),
            log_time: ns,
            publish_time: ns,
        };
        self.writer
            .write_to_known_channel(&header, &encode(&message))
            .map_err(|e| self.failed(e))?;
        self.diagnostics.summary.message_count += 1;
        Ok(())
    }

    /// Closes the current chunk and hands it to the sink, so a kill after this loses nothing
    /// written so far.
    pub fn flush(&mut self) -> Result<(), RecordError> {
        self.writer.flush().map_err(|e| self.failed(e))
    }

    /// Cycles written.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// Writes rosbag2's metadata record and the summary section, and returns the sink.
    pub fn finish(mut self) -> Result<W, RecordError> {
        let start_ns = self.first_ns.unwrap_or(0);
        let topics: Vec<TopicSummary> = self
            .per_cycle
            .iter()
            .map(|(_, c)| &c.summary)
            .chain([
                &self.tf_static.summary,
                &self.robot_description.summary,
                &self.diagnostics.summary,
            ])
            .cloned()
            .collect();
        let file_name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let metadata = rosbag2::metadata_record(&BagSummary {
            file_name: &file_name,
            start_ns,
            duration_ns: self.last_ns.saturating_sub(start_ns),
            topics: &topics,
        });
        self.writer
            .write_metadata(&metadata)
            .map_err(|e| self.failed(e))?;
        self.writer.finish().map_err(|e| self.failed(e))?;
        Ok(self.writer.into_inner().into_inner())
    }
}

fn encode<M: Message>(message: &M) -> Vec<u8> {
    let mut out = Vec::new();
    ros2_msg::cdr::encode(message, &mut out);
    out
}

/// How often a chunk is closed at the latest.
pub const DEFAULT_FLUSH_PERIOD: Duration = Duration::from_secs(1);
