//! Reading a recording back, one cycle at a time, with the file streamed (memory bounded by a
//! chunk, whatever the file's size): each cycle's `/joint_states` and `/joint_commands`,
//! decoded. A file cut short (a run killed mid-way) is read up to its last complete record and
//! says so; `robot plot` draws it all the same.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use mcap::McapError;
use mcap::records::Record;
use mcap::sans_io::{LinearReadEvent, LinearReader};
use ros2_msg::cdr::CdrError;
use ros2_msg::msg::JointState;

use crate::topics::DynamicJointState;
use crate::writer::RUN_METADATA;

/// Why a recording could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file cannot be opened or read.
    #[error("cannot read the recording `{path}`: {source}", path = .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is not an MCAP file.
    #[error("`{path}` is not an MCAP recording: {source}", path = .path.display())]
    NotMcap {
        /// The file.
        path: PathBuf,
        /// What the reader said.
        source: McapError,
    },
    /// A message does not decode as its topic's type.
    #[error("`{path}`: a `{topic}` message does not decode: {source}", path = .path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// The topic.
        topic: String,
        /// What the decoder said.
        source: CdrError,
    },
}

/// What the recording says about its run (absent from files not written by this crate).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunInfo {
    /// What ran where: `lite_biped on mock`.
    pub title: Option<String>,
    /// When the loop's clock started, ns since the epoch: a stamp less this is the loop's time.
    pub loop_start_ns: Option<u64>,
    /// The robot's prismatic joints (positions in m, the others' in rad), when the recording
    /// says (recordings of an older version do not).
    pub prismatic_joints: Option<Vec<String>>,
}

/// One cycle of a recording.
#[derive(Debug)]
pub struct Cycle<'a> {
    /// The cycle's stamp, ns since the epoch.
    pub stamp_ns: u64,
    /// Its `/joint_states`.
    pub states: &'a JointState,
    /// Its `/joint_commands`.
    pub commands: &'a DynamicJointState,
}

/// What was read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadSummary {
    /// The run's title and start.
    pub info: RunInfo,
    /// Messages per topic.
    pub messages: BTreeMap<String, u64>,
    /// Cycles handed to the caller (a `/joint_states` with its `/joint_commands`).
    pub cycles: u64,
    /// Why reading stopped before the end of a complete file, if it did (a killed run).
    pub truncated: Option<String>,
}

/// Reads `path`, calling `each` with every cycle in order.
pub fn cycles(
    path: &Path,
    mut each: impl FnMut(&RunInfo, &Cycle<'_>),
) -> Result<ReadSummary, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = File::open(path).map_err(io)?;
    let mut reader = LinearReader::new();
    let mut summary = ReadSummary::default();
    let mut topics: HashMap<u16, String> = HashMap::new();
    let (mut states, mut commands) = (JointState::default(), DynamicJointState::default());
    let mut states_sequence = None;
    let mut records = 0_u64;
    while let Some(event) = reader.next_event() {
        let event = match event {
            Ok(event) => event,
            Err(source) if records == 0 => {
                return Err(ReadError::NotMcap {
                    path: path.to_path_buf(),
                    source,
                });
            }
            Err(error) => {
                summary.truncated = Some(error.to_string());
                break;
            }
        };
        let (opcode, data) = match event {
            LinearReadEvent::ReadRequest(need) => {
                let read = file.read(reader.insert(need)).map_err(io)?;
                reader.notify_read(read);
                continue;
            }
            LinearReadEvent::Record { opcode, data } => (opcode, data),
        };
        records += 1;
        let record = match mcap::parse_record(opcode, data) {
            Ok(record) => record,
            Err(error) => {
                summary.truncated = Some(error.to_string());
                break;
            }
        };
        match record {
            Record::Channel(channel) => {
                topics.insert(channel.id, channel.topic);
            }
            Record::Metadata(metadata) if metadata.name == RUN_METADATA => {
                summary.info.title = metadata.metadata.get("title").cloned();
                summary.info.loop_start_ns = metadata
                    .metadata
                    .get("loop_start_ns")
                    .and_then(|n| n.parse().ok());
                summary.info.prismatic_joints =
                    metadata.metadata.get("prismatic_joints").map(|names| {
                        (names.split(','))
                            .filter(|n| !n.is_empty())
                            .map(str::to_string)
                            .collect()
                    });
            }
            Record::Message { header, data } => {
                let Some(topic) = topics.get(&header.channel_id) else {
                    continue;
                };
                *summary.messages.entry(topic.clone()).or_default() += 1;
                let decode_failed = |source| ReadError::Decode {
                    path: path.to_path_buf(),
                    topic: topic.clone(),
                    source,
                };
                match topic.as_str() {
                    "/joint_states" => {
                        ros2_msg::cdr::decode_into(&data, &mut states).map_err(decode_failed)?;
                        states_sequence = Some(header.sequence);
                    }
                    "/joint_commands" => {
                        ros2_msg::cdr::decode_into(&data, &mut commands).map_err(decode_failed)?;
                        // The two are written together each cycle, with the same sequence.
                        if states_sequence == Some(header.sequence) {
                            summary.cycles += 1;
                            let cycle = Cycle {
                                stamp_ns: header.log_time,
                                states: &states,
                                commands: &commands,
                            };
                            each(&summary.info, &cycle);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if records == 0 {
        summary.truncated = Some("the file is empty".into());
    }
    Ok(summary)
}
