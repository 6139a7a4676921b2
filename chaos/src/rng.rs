//! The one source of chance: SplitMix64 (Steele, Lea and Flood, 2014), seeded per schedule. Small,
//! fast, the same on every platform and every run; nothing here needs more.

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Lemire's multiply-shift: no modulo bias worth the name at these sizes.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `0..n`, as a `u32`.
    pub fn below_u32(&mut self, n: u32) -> u32 {
        self.below(u64::from(n)) as u32
    }

    /// An index into a slice of `len`.
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// `true` once in `n`.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

/// The seed of schedule `index` of a run seeded `seed`: every schedule its own stream.
pub fn schedule_seed(seed: u64, index: u64) -> u64 {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    rng.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_numbers_and_another_does_not() {
        let draw = |seed| {
            let mut rng = Rng::new(seed);
            [rng.next_u64(), rng.next_u64(), rng.below(10)]
        };
        assert_eq!(draw(1), draw(1));
        assert_ne!(draw(1), draw(2));
        // SplitMix64's published first output for seed 0.
        assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut rng = Rng::new(7);
        assert!((0..1000).all(|_| rng.below(3) < 3));
        assert_ne!(schedule_seed(1, 0), schedule_seed(1, 1));
    }
}
