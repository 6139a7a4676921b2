//! The handoff from the reader thread to the control thread: the newest complete sample in a
//! sequence lock made of atomics.
//!
//! One writer (the reader thread) and any readers, none of which ever waits on the other. Two
//! slots, each a sequence lock: the writer fills the older slot (sequence to odd, the words,
//! sequence to even) and then names it the newest; a reader takes the newest slot's words
//! between two equal even sequence numbers. Every word is an atomic, so a torn read is detected
//! and never undefined behaviour; no lock, no allocation, no `unsafe`. A writer preempted mid-
//! write holds up no reader (it is writing the other slot); a reader that the writer overtakes
//! `ATTEMPTS` times in a row gives up and reports no sample, which the staleness check then
//! judges: the control thread never spins for long.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering, fence};

use witmotion_protocol::Quaternion;

/// How often a read retries when the writer overtook it. A write stores 7 words, so a writer
/// that overtakes a read of 7 words twice is far faster than any device.
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

/// One slot: a sequence lock over a sample's words.
#[derive(Debug, Default)]
struct Slot {
    sequence: AtomicU64,
    words: [AtomicU64; WORDS],
}

impl Slot {
    fn store(&self, words: [u64; WORDS]) {
        let sequence = self.sequence.load(Ordering::Relaxed);
        self.sequence
            .store(sequence.wrapping_add(1), Ordering::Relaxed);
        // The odd sequence is visible before any word changes.
        fence(Ordering::Release);
        for (slot, word) in self.words.iter().zip(words) {
            slot.store(word, Ordering::Relaxed);
        }
        self.sequence
            .store(sequence.wrapping_add(2), Ordering::Release);
    }

    fn load(&self) -> Option<[u64; WORDS]> {
        let before = self.sequence.load(Ordering::Acquire);
        if before % 2 == 1 {
            return None;
        }
        let words = std::array::from_fn(|i| self.words[i].load(Ordering::Relaxed));
        // The words are read before the sequence is read again.
        fence(Ordering::Acquire);
        (self.sequence.load(Ordering::Relaxed) == before).then_some(words)
    }
}

/// The newest sample, shared between one writer and its readers.
///
/// Two slots, written in turn, and the index of the newest complete one: a writer preempted in
/// the middle of a write (a few nanoseconds' window, but a thread can be descheduled for
/// milliseconds in it) is writing the slot that is not the newest, so a reader still gets the
/// newest complete sample at once instead of finding a write in progress.
#[derive(Debug, Default)]
pub(crate) struct Latest {
    newest: AtomicUsize,
    slots: [Slot; 2],
}

impl Latest {
    /// Publishes `sample`. One writer only (the reader thread).
    pub(crate) fn store(&self, sample: Sample) {
        let next = 1 - self.newest.load(Ordering::Relaxed) % 2;
        self.slots[next].store(sample.to_words());
        self.newest.store(next, Ordering::Release);
    }

    /// The newest sample, `None` before the first (or, after [`ATTEMPTS`] tries, when the
    /// writer kept overtaking this read). Never blocks, never allocates.
    pub(crate) fn load(&self) -> Option<Sample> {
        for _ in 0..ATTEMPTS {
            let newest = self.newest.load(Ordering::Acquire) % 2;
            // The newest slot, else the other (the writer overtook this read twice).
            let words = self.slots[newest]
                .load()
                .or_else(|| self.slots[1 - newest].load());
            if let Some(words) = words {
                let sample = Sample::from_words(words);
                return (sample.number > 0).then_some(sample);
            }
            std::hint::spin_loop();
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

    /// Under Miri (scripts/test-miri), which checks the atomics' orderings, far fewer.
    const WRITES: u64 = if cfg!(miri) { 300 } else { 200_000 };

    #[test]
    fn a_reader_never_sees_a_torn_sample() {
        let latest = Arc::new(Latest::default());
        let writer = {
            let latest = Arc::clone(&latest);
            std::thread::spawn(move || {
                for n in 1..=WRITES {
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
        assert_eq!(latest.load(), Some(sample(WRITES)));
    }
}
