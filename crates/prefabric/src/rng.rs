//! The one random number generator, its streams, and sampling on fixed-width integers.
//!
//! [`Rng`] wraps PCG32 (`rand_pcg::Pcg32`, whose output the rand project keeps stable
//! across releases and platforms). Every decision in a generation draws from a
//! *stream* derived from `(seed, stage, key)`: the features stage, each tunneler
//! start, each encounter later — so changing one piece of content moves as little
//! of other maps as possible. Ranges, shuffles and weighted choices are our own and
//! work on `u32`/`i32`/`u64`, never `usize`, so 32- and 64-bit builds agree.

use rand_core::Rng as _;
use rand_pcg::Pcg32;

/// A seeded, portable pseudo-random generator.
#[derive(Clone, Debug)]
pub struct Rng {
    pcg: Pcg32,
}

/// FNV-1a, 64-bit: a fixed, documented hash for stream names. Written here because
/// `std`'s hashers promise no stable output between releases.
fn fnv1a(bytes: &[u8], mut hash: u64) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// SplitMix64's finaliser: spreads every input bit over the output.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// The stream named by `stage` and `key` for a map seed. Streams with different
    /// names are independent for every practical purpose.
    pub fn stream(seed: u64, stage: &str, key: &str) -> Rng {
        let mut h = fnv1a(stage.as_bytes(), 0xcbf2_9ce4_8422_2325);
        h = fnv1a(&[0xff], h);
        h = fnv1a(key.as_bytes(), h);
        let state = mix(seed ^ mix(h));
        let increment = mix(state ^ 0x9e37_79b9_7f4a_7c15);
        Rng { pcg: Pcg32::new(state, increment) }
    }

    /// A stream keyed by a number (an index, an attempt) rather than a name.
    pub fn stream_n(seed: u64, stage: &str, key: u64) -> Rng {
        // The key's decimal digits, written on the stack: the same bytes
        // `key.to_string()` would hash, without allocating per stream.
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        let mut rest = key;
        loop {
            start -= 1;
            digits[start] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        let key = std::str::from_utf8(&digits[start..]).unwrap_or_default();
        Rng::stream(seed, stage, key)
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        self.pcg.next_u32()
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.pcg.next_u64()
    }

    /// A uniform value in `0..n`; 0 when `n` is 0. Unbiased (Lemire's method with
    /// rejection).
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        // The threshold is below `n`, so a low part of at least `n` is always
        // kept: the division that finds the threshold (the slow part of a
        // draw) is paid only in the rare case that needs it.
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// A uniform value in `lo..=hi`. Reversed bounds are a caller's bug (checked in
    /// debug builds); release builds swap them rather than panic.
    pub fn range(&mut self, lo: i32, hi: i32) -> i32 {
        debug_assert!(lo <= hi, "Rng::range({lo}, {hi}) with reversed bounds");
        let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
        let span = (i64::from(hi) - i64::from(lo)) as u64;
        if span >= u64::from(u32::MAX) {
            return (i64::from(lo) + (self.next_u64() % (span + 1)) as i64) as i32;
        }
        (i64::from(lo) + i64::from(self.below(span as u32 + 1))) as i32
    }

    /// True with probability `percent`/100 (0 never, 100 or more always).
    pub fn percent(&mut self, percent: u32) -> bool {
        percent >= 100 || self.below(100) < percent
    }

    /// True or false with equal chance.
    pub fn coin(&mut self) -> bool {
        self.next_u32() & 1 == 1
    }

    /// A uniform index into a slice of `len` items; `None` when empty. Slices handed
    /// to the generator are content-sized, far below `u32::MAX`.
    pub fn index(&mut self, len: usize) -> Option<usize> {
        if len == 0 {
            return None;
        }
        let n = u32::try_from(len).unwrap_or(u32::MAX);
        Some(self.below(n) as usize)
    }

    /// A uniform element of a slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        self.index(items.len()).map(|i| &items[i])
    }

    /// An index chosen with probability proportional to its weight; `None` when every
    /// weight is 0 or the slice is empty.
    pub fn weighted(&mut self, weights: &[u32]) -> Option<usize> {
        self.weighted_by(weights, |&w| w)
    }

    /// [`Rng::weighted`] over items whose weight `weight` reads, drawing the
    /// same index as `weighted` would over their weights (no list of weights
    /// is gathered first).
    pub fn weighted_by<T>(&mut self, items: &[T], weight: impl Fn(&T) -> u32) -> Option<usize> {
        let total: u64 = items.iter().map(|item| u64::from(weight(item))).sum();
        if total == 0 {
            return None;
        }
        let mut roll =
            if total <= u64::from(u32::MAX) { u64::from(self.below(total as u32)) } else { self.next_u64() % total };
        for (i, item) in items.iter().enumerate() {
            let w = u64::from(weight(item));
            if roll < w {
                return Some(i);
            }
            roll -= w;
        }
        None
    }

    /// Shuffles a slice in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(u32::try_from(i + 1).unwrap_or(u32::MAX)) as usize;
            items.swap(i, j);
        }
    }
}

/// A weighted choice that each entrant draws for itself: in every round, an
/// entrant's ticket comes from `(seed, stage, round, its name)` alone, and the
/// entrant whose ticket divided by its weight is smallest wins. Tickets are
/// exponential (−log2 of a uniform draw), so an entrant wins with probability
/// its weight over the total, as with [`Rng::weighted`].
///
/// What it buys is stability: adding an entrant changes no other entrant's
/// ticket, so a round comes out the same unless the newcomer wins it; removing
/// one that lost changes nothing. Taking the winner out and asking again gives
/// the runner-up of the same tickets.
#[derive(Clone, Debug)]
pub struct Race {
    base: u64,
}

impl Race {
    /// The race of `stage` for a map seed.
    pub fn new(seed: u64, stage: &str) -> Race {
        let h = fnv1a(stage.as_bytes(), 0xcbf2_9ce4_8422_2325);
        Race { base: mix(seed ^ mix(h ^ 0x7261_6365)) }
    }

    /// The key an entrant named `name` draws its tickets with.
    pub fn entrant(name: &str) -> u64 {
        fnv1a(name.as_bytes(), 0xcbf2_9ce4_8422_2325)
    }

    /// A stream of its own for entrant `entrant` in `round` (its tries at
    /// whatever it won), independent of every other entrant's and round's.
    pub fn stream(&self, round: u32, entrant: u64) -> Rng {
        let state = mix(self.base ^ mix(entrant ^ mix(u64::from(round) ^ 0x5354_5245_414d)));
        let increment = mix(state ^ 0x9e37_79b9_7f4a_7c15);
        Rng { pcg: Pcg32::new(state, increment) }
    }

    /// The winner of `round` among `(entrant key, weight)` pairs, by position;
    /// `None` when every weight is 0. Ties (vanishingly rare) go to the earlier.
    pub fn winner(&self, round: u32, entrants: impl Iterator<Item = (u64, u32)>) -> Option<usize> {
        let mut order = Vec::new();
        self.rank(round, entrants, &mut order);
        order.first().copied()
    }

    /// Every entrant of `round` with a weight above 0, by position, best ticket
    /// first, into `order` (cleared first). The first is [`Race::winner`]; the
    /// first of those still in the running after some are taken out is the
    /// winner among them, so a round that must skip entrants ranks once.
    pub fn rank(&self, round: u32, entrants: impl Iterator<Item = (u64, u32)>, order: &mut Vec<usize>) {
        let round = mix(self.base ^ mix(u64::from(round).wrapping_add(0x9e37_79b9_7f4a_7c15)));
        // Sized for every entrant at once, not grown through the filter.
        let mut scored: Vec<(usize, u64, u32)> = Vec::with_capacity(entrants.size_hint().0);
        scored.extend(
            entrants
                .enumerate()
                .filter(|(_, (_, weight))| *weight > 0)
                .map(|(i, (key, weight))| (i, exponential_q32((mix(round ^ key) >> 32) as u32), weight)),
        );
        // ticket / weight, compared without dividing; ties by position.
        scored.sort_by(|a, b| {
            (u128::from(a.1) * u128::from(b.2)).cmp(&(u128::from(b.1) * u128::from(a.2))).then(a.0.cmp(&b.0))
        });
        order.clear();
        order.extend(scored.into_iter().map(|(i, _, _)| i));
    }
}

/// −log2((u + 1) / 2^32) in fixed point with 32 fractional bits, of which the
/// top 16 are computed (plenty to order tickets): an exponential ticket from a
/// uniform draw. Integer-only (bit-by-bit squaring of the mantissa) because
/// `f64::ln` is not bit-for-bit the same on every platform.
fn exponential_q32(u: u32) -> u64 {
    let v = u64::from(u) + 1; // 1 ..= 2^32
    let whole = u64::from(63 - v.leading_zeros()); // floor(log2 v), 0 ..= 32
    // The mantissa v / 2^whole in [1, 2), with 62 fractional bits.
    let mut y = u128::from(v) << (62 - whole);
    let mut fraction = 0u64;
    for bit in (16..32).rev() {
        y = (y * y) >> 62;
        if y >= 2 << 62 {
            y >>= 1;
            fraction |= 1 << bit;
        }
    }
    (32 << 32) - ((whole << 32) | fraction)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_by_weight_read_off_items_is_the_draw_over_their_weights() {
        let items = [("a", 3), ("b", 0), ("c", 5), ("d", 1)];
        let weights: Vec<u32> = items.iter().map(|&(_, w)| w).collect();
        let mut seen = [0u32; 4];
        for seed in 0..500 {
            let (mut a, mut b) = (Rng::stream_n(seed, "test", 1), Rng::stream_n(seed, "test", 1));
            let by = a.weighted_by(&items, |&(_, w)| w);
            assert_eq!(by, b.weighted(&weights), "seed {seed}");
            assert_eq!(a.next_u64(), b.next_u64(), "both draw the same numbers");
            seen[by.expect("a weight is set")] += 1;
        }
        assert_eq!(seen[1], 0, "weight 0 is never drawn");
        assert!(seen.iter().enumerate().all(|(i, &n)| i == 1 || n > 0), "{seen:?}");
        assert_eq!(Rng::stream(1, "t", "k").weighted_by(&[("x", 0)], |&(_, w)| w), None);
    }

    #[test]
    fn a_numbered_stream_is_the_stream_of_the_number_written_out() {
        for key in [0, 7, 10, 12_345, u64::from(u32::MAX), u64::MAX] {
            let (mut a, mut b) = (Rng::stream_n(9, "stage", key), Rng::stream(9, "stage", &key.to_string()));
            assert_eq!((a.next_u64(), a.next_u64()), (b.next_u64(), b.next_u64()), "{key}");
        }
    }

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u32> = (0..4)
            .map({
                let mut r = Rng::stream(7, "layout", "main");
                move |_| r.next_u32()
            })
            .collect();
        let b: Vec<u32> = (0..4)
            .map({
                let mut r = Rng::stream(7, "layout", "main");
                move |_| r.next_u32()
            })
            .collect();
        assert_eq!(a, b);
        let mut other_key = Rng::stream(7, "layout", "other");
        let mut other_seed = Rng::stream(8, "layout", "main");
        assert_ne!(a[0], other_key.next_u32());
        assert_ne!(a[0], other_seed.next_u32());
    }

    /// Pinned outputs: if these change, every map every user ever generated changes.
    /// That is a breaking change and must be announced, not slipped in.
    #[test]
    fn output_is_pinned() {
        let mut r = Rng::stream(1, "features", "variant");
        let got: Vec<u32> = (0..3).map(|_| r.next_u32()).collect();
        assert_eq!(got, PINNED);
    }
    const PINNED: [u32; 3] = [2073919666, 2136298385, 2231632407];

    #[test]
    fn ranges_stay_in_bounds_and_reach_both_ends() {
        let mut r = Rng::stream(3, "t", "range");
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let v = r.range(-2, 2);
            assert!((-2..=2).contains(&v));
            seen[(v + 2) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        assert_eq!(r.range(4, 4), 4);
        assert_eq!(r.below(0), 0);
        assert!((i32::MIN..=i32::MAX).contains(&r.range(i32::MIN, i32::MAX)));
    }

    #[test]
    fn weighted_choice_follows_weights() {
        let mut r = Rng::stream(5, "t", "weights");
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[r.weighted(&[1, 0, 3]).unwrap()] += 1;
        }
        assert_eq!(counts[1], 0);
        // Expected 7500 and 22500; allow 5% relative error.
        assert!((7125..=7875).contains(&counts[0]), "{counts:?}");
        assert!((21375..=23625).contains(&counts[2]), "{counts:?}");
        assert_eq!(r.weighted(&[0, 0]), None);
        assert_eq!(r.weighted(&[]), None);
    }

    #[test]
    fn race_winners_follow_weights() {
        let race = Race::new(5, "t");
        let keys = [Race::entrant("a"), Race::entrant("b"), Race::entrant("c")];
        let mut counts = [0u32; 3];
        for round in 0..30_000 {
            let i = race.winner(round, keys.iter().copied().zip([1, 0, 3])).unwrap();
            counts[i] += 1;
        }
        assert_eq!(counts[1], 0);
        // Expected 7500 and 22500; allow 5% relative error.
        assert!((7125..=7875).contains(&counts[0]), "{counts:?}");
        assert!((21375..=23625).contains(&counts[2]), "{counts:?}");
        assert_eq!(race.winner(0, keys.iter().copied().zip([0, 0, 0])), None);
    }

    #[test]
    fn a_race_only_changes_where_the_newcomer_wins() {
        let race = Race::new(11, "t");
        let old: Vec<(u64, u32)> = ["a", "b", "c", "d"].iter().map(|n| Race::entrant(n)).zip([5, 20, 1, 9]).collect();
        let mut new = old.clone();
        new.insert(2, (Race::entrant("newcomer"), 4));
        let (mut newcomer_won, mut same) = (0, 0);
        for round in 0..10_000 {
            let before = race.winner(round, old.iter().copied()).unwrap();
            let after = race.winner(round, new.iter().copied()).unwrap();
            if after == 2 {
                newcomer_won += 1;
            } else {
                assert_eq!(new[after].0, old[before].0, "round {round}: an old entrant's win moved");
                same += 1;
            }
        }
        // The newcomer has 4 of 39 weight: about 1,026 wins.
        assert!((900..1150).contains(&newcomer_won), "{newcomer_won} wins");
        assert_eq!(same + newcomer_won, 10_000);
    }

    #[test]
    fn exponential_tickets_are_minus_log2_of_the_draw() {
        assert_eq!(exponential_q32(u32::MAX), 0);
        assert_eq!(exponential_q32(0), 32 << 32);
        assert_eq!(exponential_q32((1 << 31) - 1), 1 << 32);
        // -log2(0.75) = 0.415037...
        let t = exponential_q32((3 << 30) - 1) as f64 / (1u64 << 32) as f64;
        assert!((t - 0.415_037_5).abs() < 1e-4, "{t}");
    }

    #[test]
    fn shuffle_permutes() {
        let mut r = Rng::stream(9, "t", "shuffle");
        let mut v: Vec<u32> = (0..50).collect();
        r.shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
    }
}
