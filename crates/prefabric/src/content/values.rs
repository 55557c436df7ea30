//! The value types that the sections of data files share: percentages, inclusive
//! integer ranges, anchors on the map's edges, and weights written as numbers or
//! as the pack's weight words.
//!
//! Each deserializes from TOML with a message that says what was expected, so a
//! section that uses one reports a bad value the same way as every other section.
//! Nothing here knows about map types, encounters or generators; they all build on
//! these.

use crate::format::suggest;
use crate::geom::Point;
use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::collections::BTreeMap;
use std::fmt;

/// Where a feature or start is put, before offset and jitter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Touching the north edge, centred east-west.
    North,
    /// The north-east corner.
    NorthEast,
    /// Touching the east edge, centred north-south.
    East,
    /// The south-east corner.
    SouthEast,
    /// Touching the south edge, centred east-west.
    South,
    /// The south-west corner.
    SouthWest,
    /// Touching the west edge, centred north-south.
    West,
    /// The north-west corner.
    NorthWest,
    /// The middle of the map.
    Centre,
    /// A fixed position: the top-left corner of a prefab, or a start's cell.
    At(Point),
}

const ANCHOR_NAMES: [(&str, Anchor); 9] = [
    ("north", Anchor::North),
    ("north-east", Anchor::NorthEast),
    ("east", Anchor::East),
    ("south-east", Anchor::SouthEast),
    ("south", Anchor::South),
    ("south-west", Anchor::SouthWest),
    ("west", Anchor::West),
    ("north-west", Anchor::NorthWest),
    ("centre", Anchor::Centre),
];

impl Anchor {
    /// The top-left corner for a `size` rectangle anchored here on a `map` rectangle,
    /// keeping `margin` cells from the edges the anchor touches (placement then
    /// keeps the margin from every edge).
    pub fn place(self, map: (i32, i32), size: (i32, i32), margin: i32) -> Point {
        let (mw, mh) = map;
        let (w, h) = size;
        let mid_x = (mw - w) / 2;
        let mid_y = (mh - h) / 2;
        let (west, east) = (margin, mw - w - margin);
        let (north, south) = (margin, mh - h - margin);
        let (x, y) = match self {
            Anchor::North => (mid_x, north),
            Anchor::NorthEast => (east, north),
            Anchor::East => (east, mid_y),
            Anchor::SouthEast => (east, south),
            Anchor::South => (mid_x, south),
            Anchor::SouthWest => (west, south),
            Anchor::West => (west, mid_y),
            Anchor::NorthWest => (west, north),
            Anchor::Centre => (mid_x, mid_y),
            Anchor::At(p) => (p.x, p.y),
        };
        Point::new(x, y)
    }
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Anchor::At(p) => write!(f, "{{ x = {}, y = {} }}", p.x, p.y),
            other => {
                let name = ANCHOR_NAMES.iter().find(|(_, a)| a == other).map_or("?", |(n, _)| n);
                f.write_str(name)
            }
        }
    }
}

impl<'de> Deserialize<'de> for Anchor {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Anchor, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Name(String),
            At { x: i32, y: i32 },
        }
        let expected = "an anchor: north, north-east, east, south-east, south, south-west, west, north-west, centre, or { x = .., y = .. }";
        match Raw::deserialize(d).map_err(|_| de::Error::custom(format!("expected {expected}")))? {
            Raw::At { x, y } => Ok(Anchor::At(Point::new(x, y))),
            Raw::Name(name) => {
                let name = name.replace('_', "-");
                let name = match name.as_str() {
                    "center" => "centre",
                    "northeast" => "north-east",
                    "northwest" => "north-west",
                    "southeast" => "south-east",
                    "southwest" => "south-west",
                    other => other,
                };
                ANCHOR_NAMES
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, a)| *a)
                    .ok_or_else(|| de::Error::custom(format!("unknown anchor `{name}`; expected {expected}")))
            }
        }
    }
}

/// A percentage, 0–100.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Percent(pub u32);

impl<'de> Deserialize<'de> for Percent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Percent, D::Error> {
        let v = i64::deserialize(d)?;
        if (0..=100).contains(&v) {
            Ok(Percent(v as u32))
        } else {
            Err(de::Error::custom(format!("{v} is not a percentage from 0 to 100")))
        }
    }
}

/// An inclusive range written `[lo, hi]` (or a single number for `[n, n]`), with
/// `lo <= hi` and both in `1..=999`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IntRange {
    /// Smallest value.
    pub lo: i32,
    /// Largest value.
    pub hi: i32,
}

impl IntRange {
    /// A span from its bounds.
    pub const fn new(lo: i32, hi: i32) -> IntRange {
        IntRange { lo, hi }
    }
}

impl<'de> Deserialize<'de> for IntRange {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<IntRange, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(i64),
            Two([i64; 2]),
        }
        let (lo, hi) =
            match Raw::deserialize(d).map_err(|_| de::Error::custom("expected a number or a range `[lo, hi]`"))? {
                Raw::One(n) => (n, n),
                Raw::Two([lo, hi]) => (lo, hi),
            };
        if !(1..=999).contains(&lo) || !(1..=999).contains(&hi) {
            return Err(de::Error::custom(format!("[{lo}, {hi}] must stay within 1..=999")));
        }
        if lo > hi {
            return Err(de::Error::custom(format!("[{lo}, {hi}] is backwards: write the smaller number first")));
        }
        Ok(IntRange::new(lo as i32, hi as i32))
    }
}

/// Inclusive depth ranges, as an encounter's `depth` writes them: one range
/// `[lo, hi]` (or a number), or a list of them `[[1, 3], [9, 12]]`. An empty
/// list stands for every depth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepthRanges(pub Vec<IntRange>);

impl DepthRanges {
    /// True when `depth` lies in one of the ranges, or there are none.
    pub fn allows(&self, depth: u32) -> bool {
        self.0.is_empty() || self.0.iter().any(|r| (r.lo as u32..=r.hi as u32).contains(&depth))
    }

    /// Every depth of every range, capped at `cap`; `1..=cap` when there are none.
    pub fn depths(&self, cap: u32) -> std::collections::BTreeSet<u32> {
        if self.0.is_empty() {
            return (1..=cap).collect();
        }
        self.0.iter().flat_map(|r| (r.lo as u32).min(cap)..=(r.hi as u32).min(cap)).collect()
    }
}

impl fmt::Display for DepthRanges {
    /// `2-5, 9-12` (`3` for a range of one depth).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if r.lo == r.hi { write!(f, "{}", r.lo)? } else { write!(f, "{}-{}", r.lo, r.hi)? }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for DepthRanges {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DepthRanges, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(i64),
            Two([i64; 2]),
            Many(Vec<[i64; 2]>),
        }
        let spans = match Raw::deserialize(d).map_err(|_| {
            de::Error::custom("expected a depth, a range `[lo, hi]` or a list of ranges `[[1, 3], [9, 12]]`")
        })? {
            Raw::One(n) => vec![(n, n)],
            Raw::Two([lo, hi]) => vec![(lo, hi)],
            Raw::Many(list) => list.into_iter().map(|[lo, hi]| (lo, hi)).collect(),
        };
        if spans.is_empty() {
            return Err(de::Error::custom("an empty list of depths: leave `depth` out for every depth"));
        }
        let mut ranges = Vec::with_capacity(spans.len());
        for (lo, hi) in spans {
            if !(1..=999).contains(&lo) || !(1..=999).contains(&hi) {
                return Err(de::Error::custom(format!("[{lo}, {hi}] must stay within 1..=999")));
            }
            if lo > hi {
                return Err(de::Error::custom(format!("[{lo}, {hi}] is backwards: write the smaller number first")));
            }
            ranges.push(IntRange::new(lo as i32, hi as i32));
        }
        Ok(DepthRanges(ranges))
    }
}

/// The weight words every pack knows unless its `pack.toml` redefines them.
pub const DEFAULT_WEIGHT_WORDS: [(&str, u32); 5] =
    [("never", 0), ("rare", 1), ("uncommon", 3), ("common", 10), ("frequent", 30)];

/// Words that stand for encounter weights, so designers retune a word once for
/// every map (Cogmind writes weights as words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightWords {
    words: BTreeMap<String, u32>,
    /// The pack's own words are not known (its `pack.toml` did not load): an
    /// unknown word is not reported, since it may well be one of them.
    unknown_words_pass: bool,
}

impl Default for WeightWords {
    fn default() -> WeightWords {
        let words = DEFAULT_WEIGHT_WORDS.iter().map(|&(w, n)| (w.to_string(), n)).collect();
        WeightWords { words, unknown_words_pass: false }
    }
}

impl WeightWords {
    /// The default words with `overrides` added or replacing them.
    pub fn with(overrides: impl IntoIterator<Item = (String, u32)>) -> WeightWords {
        let mut words = WeightWords::default();
        words.words.extend(overrides);
        words
    }

    /// The default words, for a pack whose own words could not be read: any
    /// other word resolves to 1 instead of being reported.
    pub(crate) fn unknown() -> WeightWords {
        WeightWords { unknown_words_pass: true, ..WeightWords::default() }
    }

    /// The number a word stands for.
    pub fn get(&self, word: &str) -> Option<u32> {
        self.words.get(word).copied()
    }

    /// Every word and its number, by word.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.words.iter().map(|(w, n)| (w.as_str(), *n))
    }

    /// The number a weight as written stands for (0 to 65535), or the problem and
    /// a hint.
    pub(crate) fn resolve(&self, weight: &WeightFile) -> Result<u32, (String, Option<String>)> {
        match weight {
            WeightFile::Number(n) if (0..=i64::from(u16::MAX)).contains(n) => Ok(*n as u32),
            WeightFile::Number(n) => Err((format!("weight {n} must be 0-{}", u16::MAX), None)),
            WeightFile::Word(word) if self.unknown_words_pass => Ok(self.get(word).unwrap_or(1)),
            WeightFile::Word(word) => self.get(word).ok_or_else(|| {
                let known: Vec<&str> = self.iter().map(|(w, _)| w).collect();
                let help = match suggest(word, known.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`? weights are numbers or the words {}", known.join(", ")),
                    None => format!("weights are numbers or the words {}", known.join(", ")),
                };
                (format!("unknown weight word `{word}`"), Some(help))
            }),
        }
    }
}

/// A weight as written: a number, or a weight word of the pack.
pub(crate) enum WeightFile {
    Number(i64),
    Word(String),
}

impl fmt::Display for WeightFile {
    /// The weight as written: the number, or the word.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightFile::Number(n) => write!(f, "{n}"),
            WeightFile::Word(w) => f.write_str(w),
        }
    }
}

impl<'de> Deserialize<'de> for WeightFile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<WeightFile, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(i64),
            Word(String),
        }
        match Raw::deserialize(d) {
            Ok(Raw::Number(n)) => Ok(WeightFile::Number(n)),
            Ok(Raw::Word(w)) => Ok(WeightFile::Word(w)),
            Err(_) => {
                Err(serde::de::Error::custom("expected a weight: a whole number or a weight word such as \"common\""))
            }
        }
    }
}
