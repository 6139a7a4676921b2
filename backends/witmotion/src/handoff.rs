//! The handoff from the reader thread to the control thread: the newest complete sample in a
//! sequence lock made of atomics.
//!
//! One writer (the reader thread) and any readers, none of which ever waits on the other: the
//! writer bumps the sequence to odd, stores the words, bumps it to even; a reader takes the
//! words between two equal even sequence numbers. Every word is an atomic, so a torn read is
//! detected and never undefined behaviour; no lock, no allocation, no `unsafe`. A reader that
//! keeps meeting a write in progress gives up after [`ATTEMPTS`] and reports no new sample,
//! which the staleness check then judges: the control thread never spins for long.

use std::sync::atomic::{AtomicU64, Ordering, fence};

use witmotion_protocol::Quaternion;

/// How often a read retries when it met a write in progress. A write stores 7 words, so two
/// writes in a row under one read mean a writer far faster than any device.
const ATTEMPTS: usize = 4;

/// One complete sample, in the sensor's own frame.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sample {
    /// The device's orientation: sensor frame to its reference frame.
    pub orientation: Quaternion,
    /// Angular velocity about the sensor axes, rad/s.
    pub angular_velocity: [f32; 3],
    /// Specific force along the sensor axes, m/s².
    pub acceleration: [f32; 3],
    /// When the oldest frame of the sample arrived, ns since the component's epoch.
    pub arrived_ns: u64,
    /// 1 for the first sample published, then counting up.
    pub number: u64,
}

const WORDS: usize = 7;

fn pack(a: f32, b: f32) -> u64 {
    u64::from(a.to_bits()) | (u64::from(b.to_bits()) << 32)
}

fn unpack(word: u64) -> (f32, f32) {
    (
        f32::from_bits(word as u32),
        f32::from_bits((word >> 32) as u32),
    )
}

impl Sample {
    fn to_words(self) -> [u64; WORDS] {
        let q = self.orientation;
        let [wx, wy, wz] = self.angular_velocity;
        let [ax, ay, az] = self.acceleration;
        [
            pack(q.x, q.y),
            pack(q.z, q.w),
            pack(wx, wy),
            pack(wz, ax),
            pack(ay, az),
            self.arrived_ns,
            self.number,
        ]
    }

    fn from_words(words: [u64; WORDS]) -> Sample {
        let (x, y) = unpack(words[0]);
        let (z, w) = unpack(words[1]);
        let (wx, wy) = unpack(words[2]);
        let (wz, ax) = unpack(words[3]);
        let (ay, az) = unpack(words[4]);
        Sample {
            orientation: Quaternion::new(x, y, z, w),
            angular_velocity: [wx, wy, wz],
            acceleration: [ax, ay, az],
            arrived_ns: words[5],
            number: words[6],
        }
    }
}

/// The newest sample, shared between one writer and its readers.
#[derive(Debug, Default)]
pub(crate) struct Latest {
    sequence: AtomicU64,
    words: [AtomicU64; WORDS],
}

impl Latest {
    /// Publishes `sample`. One writer only (the reader thread).
    pub(crate) fn store(&self, sample: Sample) {
        let sequence = self.sequence.load(Ordering::Relaxed);
        self.sequence
            .store(sequence.wrapping_add(1), Ordering::Relaxed);
        // The odd sequence is visible before any word changes.
        fence(Ordering::Release);
        for (slot, word) in self.words.iter().zip(sample.to_words()) {
            slot.store(word, Ordering::Relaxed);
        }
        self.sequence
            .store(sequence.wrapping_add(2), Ordering::Release);
    }

    /// The newest sample, `None` before the first or when every attempt met a write. Never
    /// blocks, never allocates.
    pub(crate) fn load(&self) -> Option<Sample> {
        for _ in 0..ATTEMPTS {
            let before = self.sequence.load(Ordering::Acquire);
            if before % 2 == 1 {
                std::hint::spin_loop();
                continue;
            }
            let words = std::array::from_fn(|i| self.words[i].load(Ordering::Relaxed));
            // The words are read before the sequence is read again.
            fence(Ordering::Acquire);
            if self.sequence.load(Ordering::Relaxed) == before {
                let sample = Sample::from_words(words);
                return (sample.number > 0).then_some(sample);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn sample(n: u64) -> Sample {
        let v = n as f32;
        Sample {
            orientation: Quaternion::new(v, v, v, v),
            angular_velocity: [v; 3],
            acceleration: [v; 3],
            arrived_ns: n,
            number: n,
        }
    }

    #[test]
    fn a_sample_round_trips_and_none_before_the_first() {
        let latest = Latest::default();
        assert_eq!(latest.load(), None);
        let mut s = sample(3);
        s.orientation = Quaternion::new(0.1, -0.2, 0.3, 0.9);
        s.acceleration = [-9.80665, 0.5, f32::MIN_POSITIVE];
        latest.store(s);
        assert_eq!(latest.load(), Some(s));
    }

    #[test]
    fn a_reader_never_sees_a_torn_sample() {
        let latest = Arc::new(Latest::default());
        let writer = {
            let latest = Arc::clone(&latest);
            std::thread::spawn(move || {
                for n in 1..=200_000 {
                    latest.store(sample(n));
                }
            })
        };
        let mut seen = 0;
        while !writer.is_finished() || seen == 0 {
            if let Some(s) = latest.load() {
                // Every word of one sample carries the same number.
                assert_eq!(s, sample(s.number));
                seen += 1;
            }
        }
        writer.join().unwrap();
        assert_eq!(latest.load(), Some(sample(200_000)));
    }
}
