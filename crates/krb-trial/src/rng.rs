//! A small seeded generator (SplitMix64), so that a seed printed by a run replays its trials
//! exactly on any machine and any release of the tools.

/// SplitMix64 (Steele, Lea and Flood, 2014): 64 bits of state, every seed a good stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The generator of trial `trial` of a run seeded `seed`: each trial its own stream, so a
    /// trial replays alone.
    pub fn for_trial(seed: u64, trial: u64) -> Rng {
        let mut mix = Rng(seed);
        let base = mix.next_u64();
        Rng(base ^ trial.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A number of seconds in `from..to`, to the tenth.
    pub fn seconds(&mut self, from: f64, to: f64) -> f64 {
        let tenths = ((to - from) * 10.0).round() as u64;
        from + self.below(tenths.max(1)) as f64 / 10.0
    }

    /// An item of `items`, drawn with the given weights.
    pub fn weighted<T: Copy>(&mut self, items: &[(T, u64)]) -> T {
        let total: u64 = items.iter().map(|(_, w)| w).sum();
        let mut pick = self.below(total);
        for (item, weight) in items {
            if pick < *weight {
                return *item;
            }
            pick -= weight;
        }
        items[items.len() - 1].0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_outputs_are_splitmix64s() {
        // The reference implementation's first output for seed 0.
        assert_eq!(Rng(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn a_trial_replays_and_trials_differ() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_trial(7, 3).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_trial(7, 3).next_u64(),
            Rng::for_trial(7, 4).next_u64()
        );
        assert_ne!(
            Rng::for_trial(7, 3).next_u64(),
            Rng::for_trial(8, 3).next_u64()
        );
    }

    #[test]
    fn draws_stay_in_range_and_weights_count() {
        let mut r = Rng::for_trial(1, 1);
        let mut seen = [0u32; 3];
        for _ in 0..3000 {
            let s = r.seconds(1.0, 3.0);
            assert!((1.0..3.0).contains(&s), "{s}");
            seen[r.weighted(&[(0usize, 1), (1, 0), (2, 2)])] += 1;
        }
        assert_eq!(seen[1], 0);
        assert!(seen[2] > seen[0], "{seen:?}");
    }
}
