//! A file's records, framed one at a time from its start without trusting anything past the
//! last byte: each MCAP record is an opcode (1 byte), a length (u64, little-endian) and that many
//! bytes (the MCAP specification, "Records"). A length that runs past the end of the file, or an
//! opcode 0 (reserved: zeros where a power loss left the file's end unwritten), is where the
//! framing stops; a whole record is handed over even when its content turns out not to read.
//!
//! A chunk's records come out of [`chunk_records`] only once the whole chunk has decompressed
//! and its CRC matched, so a damaged chunk gives none of its records rather than some of them.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use mcap::records::{Header, Record, op};
use mcap::sans_io::{LinearReadEvent, LinearReader, LinearReaderOptions};
use mcap::{MAGIC, McapError};

use super::RecoverError;

/// Opcode and length: what precedes every record's content.
const PREFIX: u64 = 1 + 8;
/// The longest record read, and the longest chunk once decompressed (the recorder writes chunks
/// of 768 KiB): a damaged length claiming more is not allocated.
const MAX_RECORD: usize = 256 * 1024 * 1024;

/// A whole record of the file.
#[derive(Debug)]
pub(super) struct Raw<'a> {
    /// Where it starts, bytes from the start of the file.
    pub offset: u64,
    pub opcode: u8,
    /// Its content, after the opcode and length.
    pub body: &'a [u8],
    /// The record as it is in the file: opcode, length and content.
    pub whole: &'a [u8],
}

/// What comes next in the file.
#[derive(Debug)]
pub(super) enum Frame<'a> {
    /// A whole record.
    Record(Raw<'a>),
    /// The file ends right after the last record.
    End,
    /// The bytes from `offset` on are no whole record (of `kind`, when its opcode says), for
    /// `reason`.
    Cut {
        offset: u64,
        kind: Option<&'static str>,
        reason: String,
    },
}

/// The records of one file, in order.
#[derive(Debug)]
pub(super) struct Frames {
    input: BufReader<File>,
    path: PathBuf,
    len: u64,
    /// Where the next record starts.
    offset: u64,
    record: Vec<u8>,
    header: Header,
}

impl Frames {
    /// Opens `path` and reads its magic and header record; refuses a file that has neither.
    pub(super) fn open(path: &Path) -> Result<Frames, RecoverError> {
        let io = |source| RecoverError::Io {
            path: path.to_path_buf(),
            source,
        };
        let not_mcap = |why: &str| RecoverError::NotMcap {
            path: path.to_path_buf(),
            why: why.to_string(),
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len == 0 {
            return Err(RecoverError::Empty {
                path: path.to_path_buf(),
            });
        }
        let mut input = BufReader::with_capacity(1 << 20, file);
        let mut magic = [0; MAGIC.len()];
        if len < MAGIC.len() as u64 {
            return Err(not_mcap("it is shorter than MCAP's magic bytes"));
        }
        input.read_exact(&mut magic).map_err(io)?;
        if magic != MAGIC {
            return Err(not_mcap("it does not start with MCAP's magic bytes"));
        }
        // Only a header may come first: anything else is not a recording, whatever its length.
        let first = input.fill_buf().map_err(io)?.first().copied();
        if let Some(opcode) = first.filter(|&o| o != op::HEADER) {
            return Err(not_mcap(&format!(
                "its first record (opcode {opcode:#04x}) is not a header"
            )));
        }
        let mut frames = Frames {
            input,
            path: path.to_path_buf(),
            len,
            offset: MAGIC.len() as u64,
            record: Vec::new(),
            header: Header {
                profile: String::new(),
                library: String::new(),
            },
        };
        let header = match frames.next()? {
            // Its opcode is a header's (checked above).
            Frame::Record(raw) => match mcap::parse_record(raw.opcode, raw.body) {
                Ok(Record::Header(header)) => header,
                Ok(_) => return Err(not_mcap("its header record does not read")),
                Err(source) => {
                    return Err(RecoverError::Header {
                        path: path.to_path_buf(),
                        source,
                    });
                }
            },
            Frame::End => return Err(not_mcap("it ends after its magic bytes")),
            Frame::Cut { reason, .. } => {
                return Err(not_mcap(&format!("its header is cut short ({reason})")));
            }
        };
        frames.header = header;
        Ok(frames)
    }

    /// The file's header record.
    pub(super) fn header(&self) -> &Header {
        &self.header
    }

    /// The file's length, bytes.
    pub(super) fn len(&self) -> u64 {
        self.len
    }

    /// The next record, or why there is none.
    pub(super) fn next(&mut self) -> Result<Frame<'_>, RecoverError> {
        let offset = self.offset;
        let left = self.len - offset;
        if left == 0 {
            return Ok(Frame::End);
        }
        if left < PREFIX {
            return Ok(Frame::Cut {
                offset,
                kind: None,
                reason: format!("{left} bytes, too few for a record's opcode and length"),
            });
        }
        let mut prefix = [0; PREFIX as usize];
        self.read(&mut prefix)?;
        let opcode = prefix[0];
        let mut length = [0; 8];
        length.copy_from_slice(&prefix[1..]);
        let length = u64::from_le_bytes(length);
        if opcode == 0 {
            return Ok(Frame::Cut {
                offset,
                kind: None,
                reason: "opcode 0, which no record has (zeros where the file's end was never \
                         written?)"
                    .to_string(),
            });
        }
        if length > left - PREFIX {
            return Ok(Frame::Cut {
                offset,
                kind: Some(kind(opcode)),
                reason: format!(
                    "{} record of {length} bytes, of which the file holds {}",
                    a(kind(opcode)),
                    left - PREFIX
                ),
            });
        }
        if length > MAX_RECORD as u64 {
            return Ok(Frame::Cut {
                offset,
                kind: Some(kind(opcode)),
                reason: format!(
                    "{} record of {length} bytes, more than the {MAX_RECORD} read",
                    a(kind(opcode))
                ),
            });
        }
        self.record.clear();
        self.record.extend_from_slice(&prefix);
        // At most MAX_RECORD, which fits in a usize.
        self.record.resize(prefix.len() + length as usize, 0);
        self.input
            .read_exact(&mut self.record[prefix.len()..])
            .map_err(|source| RecoverError::Io {
                path: self.path.clone(),
                source,
            })?;
        self.offset += PREFIX + length;
        Ok(Frame::Record(Raw {
            offset,
            opcode,
            body: &self.record[prefix.len()..],
            whole: &self.record,
        }))
    }

    fn read(&mut self, buffer: &mut [u8]) -> Result<(), RecoverError> {
        self.input
            .read_exact(buffer)
            .map_err(|source| RecoverError::Io {
                path: self.path.clone(),
                source,
            })
    }
}

/// `kind` with its indefinite article: `a chunk`, `an attachment`.
fn a(kind: &str) -> String {
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {kind}")
}

/// What a record with `opcode` is, in the words of the MCAP specification.
pub(super) fn kind(opcode: u8) -> &'static str {
    match opcode {
        op::HEADER => "header",
        op::FOOTER => "footer",
        op::SCHEMA => "schema",
        op::CHANNEL => "channel",
        op::MESSAGE => "message",
        op::CHUNK => "chunk",
        op::MESSAGE_INDEX => "message index",
        op::CHUNK_INDEX => "chunk index",
        op::ATTACHMENT => "attachment",
        op::ATTACHMENT_INDEX => "attachment index",
        op::STATISTICS => "statistics",
        op::METADATA => "metadata",
        op::METADATA_INDEX => "metadata index",
        op::SUMMARY_OFFSET => "summary offset",
        op::DATA_END => "data end",
        0x80.. => "private",
        _ => "unknown",
    }
}

/// The records of a whole chunk record (`whole`: opcode, length and content), in order, once
/// all of it has decompressed and its CRC (when it has one) matched.
pub(super) fn chunk_records(whole: &[u8]) -> Result<Vec<Record<'static>>, McapError> {
    let options = LinearReaderOptions::default()
        .with_skip_start_magic(true)
        .with_skip_end_magic(true)
        .with_prevalidate_chunk_crcs(true)
        .with_record_length_limit(MAX_RECORD);
    let mut reader = LinearReader::new_with_options(options);
    let mut rest = whole;
    let mut records = Vec::new();
    while let Some(event) = reader.next_event() {
        match event? {
            LinearReadEvent::ReadRequest(need) => {
                let buffer = reader.insert(need.min(rest.len()));
                let n = buffer.len().min(rest.len());
                buffer[..n].copy_from_slice(&rest[..n]);
                reader.notify_read(n);
                rest = &rest[n..];
            }
            LinearReadEvent::Record { opcode, data } => {
                records.push(mcap::parse_record(opcode, data)?.into_owned());
            }
        }
    }
    Ok(records)
}
