//! The digest of a run's trace: 64-bit FNV-1a over every frame, every fault that struck, every
//! lifecycle state and report, and the hardware's state at the end. Two runs of one schedule
//! give the same digest, or the simulation is not deterministic.

/// A running FNV-1a hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digest(u64);

impl Default for Digest {
    fn default() -> Self {
        Digest(0xCBF2_9CE4_8422_2325)
    }
}

impl Digest {
    /// Adds `bytes`.
    pub fn add(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    /// The hash so far.
    pub fn value(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_of_a_known_string() {
        let mut digest = Digest::default();
        digest.add(b"a");
        assert_eq!(digest.value(), 0xAF63_DC4C_8601_EC8C);
    }
}
