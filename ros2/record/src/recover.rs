//! A recording cut short, made whole: [`recover`] reads what a killed run left and writes what
//! reads into a complete file.
//!
//! A run killed with SIGKILL, or a power loss, leaves its file as far as its last complete
//! record: the data section, without its end, summary and footer. Streaming readers (`robot
//! plot`, PyPI `mcap`'s `StreamReader`) read it up to there; readers that start from the footer
//! and the summary (`rosbags`, `ros2 bag`) refuse it (`File end magic is invalid`). [`recover`]
//! reads the file from its start, record by record (`recover/frames.rs`), and writes what reads
//! as the recorder writes ([`crate::writer`]: zstd chunks, message indexes, then the summary with
//! the schemas, channels, chunk and metadata indexes and statistics, and the footer), into a file
//! beside the new one that is renamed to it only once complete.
//!
//! Kept: the header's profile; every schema and channel, with their ids; every message of each
//! whole chunk that decompresses and whose CRC matches, and every message outside chunks, in the
//! file's order, with their log time, publish time and sequence; metadata records (the run's
//! `robot_run`, which `robot plot` reads) and attachments.
//!
//! Rebuilt: in a `ros2` file, rosbag2's `rosbag2` metadata record, which a killed run never
//! wrote ([`crate::rosbag2`]): every channel with the messages recovered on it, each topic's type,
//! type hash and QoS from its channel, and the span from the first message to the last. One
//! found in the file is replaced, so its counts are those of the new file.
//!
//! Lost, and said in the [`Recovery`]: everything from the first record cut short (the chunk being
//! written when the process died: past a record whose length runs off the end of the file
//! nothing can be framed); each whole chunk that does not read, skipped; records that read but
//! name a channel or schema that was only in a lost chunk (the recorder's first chunk holds every
//! schema and channel: without it, nothing is recovered).

mod frames;

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use mcap::records::{Channel, Record, op};
use mcap::write::NoSeek;
use mcap::{Attachment, McapError, Writer};

use crate::rosbag2::{self, BagSummary, TopicSummary};
use crate::writer::{chain, write_options};
use frames::{Frame, Frames, Raw};

/// Why a recording could not be recovered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecoverError {
    /// The recording cannot be opened or read.
    #[error("cannot read the recording `{path}`: {source}", path = .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The recording is empty.
    #[error(
        "`{path}` is empty: nothing to recover (the run was killed before its first chunk was \
         written?)",
        path = .path.display()
    )]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The file is not an MCAP file.
    #[error("`{path}` is not an MCAP recording: {why}", path = .path.display())]
    NotMcap {
        /// The file.
        path: PathBuf,
        /// What is wrong with its start.
        why: String,
    },
    /// The header record is there but does not read.
    #[error("`{path}`: its header record does not read: {source}", path = .path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// What the reader said.
        source: McapError,
    },
    /// Not one message reads.
    #[error("`{path}`: nothing to recover: {why}", path = .path.display())]
    Nothing {
        /// The file.
        path: PathBuf,
        /// What was read, and where it stopped.
        why: String,
    },
    /// The recovered file would replace the recording.
    #[error(
        "`{path}` is the recording being recovered: write the recovered file to another path",
        path = .path.display()
    )]
    SameFile {
        /// The file.
        path: PathBuf,
    },
    /// The recovered file cannot be created or put in place.
    #[error("cannot create `{path}`: {source}", path = .path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Writing the recovered file failed.
    #[error("cannot write `{path}`: {}", chain(.source), path = .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the writer said.
        source: McapError,
    },
}

/// A whole record that did not read, skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Where it starts, bytes from the start of the file.
    pub offset: u64,
    /// Its length, bytes, opcode and length included.
    pub length: u64,
    /// What it is, as the MCAP specification names it: `chunk`, `metadata`.
    pub kind: &'static str,
    /// Why it did not read.
    pub reason: String,
}

/// How reading the recording ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// At its data section's end, as a complete file's does (its summary is rebuilt all the
    /// same, not copied).
    Complete,
    /// Right after a whole record, with no data end, summary or footer: a run killed between
    /// two chunks.
    Unfinished,
    /// In a record cut short or not framed: the `lost` bytes from `offset` to the end.
    Cut {
        /// Where the record starts, bytes from the start of the file.
        offset: u64,
        /// The bytes from there to the end of the file.
        lost: u64,
        /// What the record is (`chunk`, `message index`), when its opcode is there.
        kind: Option<&'static str>,
        /// What is there.
        reason: String,
    },
}

impl Ending {
    /// Whether reading stopped in a record the new file's summary rebuilds anyway (an index, the
    /// statistics, the footer): no message, schema, channel or metadata was lost there. A
    /// killed recorder often leaves one: the message indexes after its last chunk, partly
    /// written.
    pub fn in_an_index(&self) -> bool {
        match self {
            Ending::Cut {
                kind: Some(kind), ..
            } => {
                kind.ends_with(" index")
                    || ["statistics", "summary offset", "data end", "footer"].contains(kind)
            }
            _ => false,
        }
    }
}

/// What [`recover`] wrote, and what it could not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovery {
    /// Messages written, per topic.
    pub messages: BTreeMap<String, u64>,
    /// Channels written.
    pub channels: usize,
    /// Chunks read whole, CRC matched: all their messages are in the new file.
    pub chunks: u64,
    /// The first and last message's log time, ns since the epoch.
    pub span_ns: Option<(u64, u64)>,
    /// Metadata records kept (the rebuilt `rosbag2` one not counted).
    pub metadata: u64,
    /// Attachments kept.
    pub attachments: u64,
    /// Whether the `rosbag2` metadata record was rebuilt (a `ros2` file).
    pub rosbag2_rebuilt: bool,
    /// Whole records that did not read (a chunk whose CRC does not match), skipped.
    pub skipped: Vec<Skipped>,
    /// Records that read but could not be kept: messages on a channel, and channels of a
    /// schema, defined only in a lost chunk; definitions that contradict an earlier one.
    pub unusable: u64,
    /// How reading ended.
    pub ending: Ending,
}

impl Recovery {
    /// Messages written, all topics.
    pub fn message_count(&self) -> u64 {
        self.messages.values().sum()
    }
}

/// Reads the recording `input` up to its first record cut short and writes every record that
/// reads into `out`, a complete file (see the [module](self)); says what was kept and lost.
/// `out` is written only once complete (through `out` with `.partial` added, renamed), and never
/// over `input`.
pub fn recover(input: &Path, out: &Path) -> Result<Recovery, RecoverError> {
    if same_file(input, out) {
        return Err(RecoverError::SameFile {
            path: input.to_path_buf(),
        });
    }
    let mut frames = Frames::open(input)?;
    let mut partial = out.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let file = File::create(&partial).map_err(|source| RecoverError::Create {
        path: partial.clone(),
        source,
    })?;
    let written = salvage(&mut frames, file, input, out).and_then(|(recovery, file)| {
        let placed = file
            .sync_all()
            .and_then(|()| std::fs::rename(&partial, out));
        placed.map_err(|source| RecoverError::Create {
            path: out.to_path_buf(),
            source,
        })?;
        Ok(recovery)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// Whether `a` and `b` name the same file (`b` need not exist).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Writes what `frames` reads into `file` (the new file `out`); returns what was written and the
/// file, flushed.
fn salvage(
    frames: &mut Frames,
    file: File,
    input: &Path,
    out: &Path,
) -> Result<(Recovery, File), RecoverError> {
    let failed = |source| RecoverError::Write {
        path: out.to_path_buf(),
        source,
    };
    let profile = frames.header().profile.clone();
    let writer = write_options()
        .profile(&profile)
        .create(NoSeek::new(BufWriter::new(file)))
        .map_err(failed)?;
    let mut output = Output {
        writer,
        rebuild_rosbag2: profile == "ros2",
        schemas: HashMap::new(),
        channels: BTreeMap::new(),
        counts: BTreeMap::new(),
        recovery: Recovery {
            messages: BTreeMap::new(),
            channels: 0,
            chunks: 0,
            span_ns: None,
            metadata: 0,
            attachments: 0,
            rosbag2_rebuilt: false,
            skipped: Vec::new(),
            unusable: 0,
            ending: Ending::Unfinished,
        },
    };
    let len = frames.len();
    output.recovery.ending = loop {
        match frames.next()? {
            Frame::End => break Ending::Unfinished,
            Frame::Cut {
                offset,
                kind,
                reason,
            } => {
                break Ending::Cut {
                    offset,
                    lost: len - offset,
                    kind,
                    reason,
                };
            }
            // The summary after it is rebuilt.
            Frame::Record(raw) if matches!(raw.opcode, op::DATA_END | op::FOOTER) => {
                break Ending::Complete;
            }
            Frame::Record(raw) => output.record(&raw).map_err(failed)?,
        }
    };
    if output.recovery.message_count() == 0 {
        return Err(RecoverError::Nothing {
            path: input.to_path_buf(),
            why: nothing_read(&output.recovery),
        });
    }
    let file_name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    output.finish(&file_name).map_err(failed)
}

/// Why no message was recovered, for [`RecoverError::Nothing`].
fn nothing_read(recovery: &Recovery) -> String {
    let chunks = match recovery.chunks {
        1 => "1 whole chunk".to_string(),
        n => format!("{n} whole chunks"),
    };
    match &recovery.ending {
        Ending::Cut { offset, reason, .. } => {
            format!("no message in the {chunks} before byte {offset} ({reason})")
        }
        Ending::Unfinished | Ending::Complete => format!("no message in its {chunks}"),
    }
}

/// The new file being written, and what went into it.
struct Output {
    writer: Writer<NoSeek<BufWriter<File>>>,
    rebuild_rosbag2: bool,
    /// Schema names by id.
    schemas: HashMap<u16, String>,
    channels: BTreeMap<u16, Channel>,
    /// Messages per channel id.
    counts: BTreeMap<u16, u64>,
    recovery: Recovery,
}

impl Output {
    /// Keeps `raw`'s records, or says why it was skipped. Fails only on writing.
    fn record(&mut self, raw: &Raw<'_>) -> Result<(), McapError> {
        match raw.opcode {
            op::CHUNK => match frames::chunk_records(raw.whole) {
                Ok(records) => {
                    self.recovery.chunks += 1;
                    for record in records {
                        self.keep(record)?;
                    }
                }
                Err(error) => self.skip(raw, error),
            },
            // Indexes and statistics: rebuilt.
            op::MESSAGE_INDEX
            | op::CHUNK_INDEX
            | op::ATTACHMENT_INDEX
            | op::METADATA_INDEX
            | op::STATISTICS
            | op::SUMMARY_OFFSET
            | op::HEADER => {}
            _ => match mcap::parse_record(raw.opcode, raw.body) {
                Ok(record) => self.keep(record)?,
                Err(error) => self.skip(raw, error),
            },
        }
        Ok(())
    }

    fn skip(&mut self, raw: &Raw<'_>, error: McapError) {
        self.recovery.skipped.push(Skipped {
            offset: raw.offset,
            length: raw.whole.len() as u64,
            kind: frames::kind(raw.opcode),
            reason: error.to_string(),
        });
    }

    /// Writes one record that read.
    fn keep(&mut self, record: Record<'_>) -> Result<(), McapError> {
        match record {
            Record::Schema { header, data } => {
                let added = self.writer.add_schema_with_id(
                    header.id,
                    &header.name,
                    &header.encoding,
                    &data,
                );
                match added {
                    Ok(_) => {
                        self.schemas.insert(header.id, header.name);
                    }
                    Err(McapError::ConflictingSchemas(_) | McapError::InvalidSchemaId) => {
                        self.recovery.unusable += 1;
                    }
                    Err(error) => return Err(error),
                }
            }
            Record::Channel(channel) => {
                if channel.schema_id != 0 && !self.schemas.contains_key(&channel.schema_id) {
                    self.recovery.unusable += 1;
                    return Ok(());
                }
                let added = self.writer.add_channel_with_id(
                    channel.id,
                    channel.schema_id,
                    &channel.topic,
                    &channel.message_encoding,
                    &channel.metadata,
                );
                match added {
                    Ok(_) => {
                        self.channels.insert(channel.id, channel);
                    }
                    Err(McapError::ConflictingChannels(_)) => self.recovery.unusable += 1,
                    Err(error) => return Err(error),
                }
            }
            Record::Message { header, data } => {
                let Some(channel) = self.channels.get(&header.channel_id) else {
                    self.recovery.unusable += 1;
                    return Ok(());
                };
                self.writer.write_to_known_channel(&header, &data)?;
                *self.counts.entry(header.channel_id).or_default() += 1;
                *(self.recovery.messages)
                    .entry(channel.topic.clone())
                    .or_default() += 1;
                let (first, last) = self
                    .recovery
                    .span_ns
                    .get_or_insert((header.log_time, header.log_time));
                *first = (*first).min(header.log_time);
                *last = (*last).max(header.log_time);
            }
            // A `rosbag2` record of a `ros2` file is rebuilt at the end.
            Record::Metadata(metadata)
                if !(self.rebuild_rosbag2 && metadata.name == rosbag2::METADATA_NAME) =>
            {
                self.writer.write_metadata(&metadata)?;
                self.recovery.metadata += 1;
            }
            Record::Attachment { header, data, .. } => {
                self.writer.attach(&Attachment {
                    log_time: header.log_time,
                    create_time: header.create_time,
                    name: header.name,
                    media_type: header.media_type,
                    data,
                })?;
                self.recovery.attachments += 1;
            }
            _ => {}
        }
        Ok(())
    }

    /// Writes the `rosbag2` metadata record of what was written (a `ros2` file), the summary and
    /// the footer; returns what was written and the file, flushed.
    fn finish(mut self, file_name: &str) -> Result<(Recovery, File), McapError> {
        if self.rebuild_rosbag2 {
            let topics: Vec<TopicSummary> = (self.channels.iter())
                .map(|(id, channel)| {
                    let metadata = |key: &str| channel.metadata.get(key).cloned();
                    TopicSummary {
                        name: channel.topic.clone(),
                        type_name: (self.schemas.get(&channel.schema_id).cloned())
                            .unwrap_or_default(),
                        type_hash: metadata("topic_type_hash").unwrap_or_default(),
                        offered_qos_profiles: metadata("offered_qos_profiles").unwrap_or_default(),
                        message_count: self.counts.get(id).copied().unwrap_or(0),
                    }
                })
                .collect();
            let (start_ns, end_ns) = self.recovery.span_ns.unwrap_or((0, 0));
            self.writer
                .write_metadata(&rosbag2::metadata_record(&BagSummary {
                    file_name,
                    start_ns,
                    duration_ns: end_ns - start_ns,
                    topics: &topics,
                }))?;
            self.recovery.rosbag2_rebuilt = true;
        }
        self.recovery.channels = self.channels.len();
        self.writer.finish()?;
        let file = (self.writer.into_inner().into_inner())
            .into_inner()
            .map_err(|e| McapError::Io(e.into_error()))?;
        Ok((self.recovery, file))
    }
}
