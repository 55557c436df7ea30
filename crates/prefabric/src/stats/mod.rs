//! Statistics over many maps: what became of each piece of a map type's content.
//!
//! In: maps generated from a pack (or the errors of those that failed), one at
//! a time, each recorded into the [`MapTypeStats`] of its map type, which
//! starts from everything the map type may use (feature variants and their
//! prefabs, encounters and their alternatives, the layout's pools and hallway pieces), so content
//! never used shows up with zero counts. Out: counts that merge — the
//! statistics of disjoint seed ranges, merged, equal those of the union, as
//! every example seed kept is the smallest seen — serialised as JSON (schema in
//! docs/json-schema.md), and the figures derived from the counts by [`Stats::finish`]:
//! shares, 95% intervals, medians, and for each piece never used the reason
//! seen most, with an example seed. Generation times are the one thing that
//! differs from run to run.

use crate::content::Pack;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

mod dead;
mod depth;
mod finish;
mod merge;
mod pools;
mod record;
mod stairs;

pub use depth::{DepthCount, HEAT_MAX_SIDE, Heat, HeatShape};
pub use stairs::StairsStats;

/// The JSON format's version, written as `format`: 2 since the counts per
/// depth.
pub const FORMAT: u32 = 2;

/// Failures kept with their errors (the smallest seeds); the rest are counted.
const FAILURES_KEPT: usize = 20;

/// How rarely chance alone must leave content out before a run that never
/// used it calls it dead.
const DEAD_BELOW: f64 = 0.01;

/// Statistics of one or more map types of a pack.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// [`FORMAT`].
    pub format: u32,
    /// The pack's name.
    pub pack: String,
    /// By map type name.
    pub map_types: BTreeMap<String, MapTypeStats>,
}

/// Statistics of one map type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapTypeStats {
    /// The seed ranges covered, half-open `[first, end)`, sorted and disjoint.
    pub seeds: Vec<[u64; 2]>,
    /// The depths each seed was generated at.
    pub depths: Vec<u32>,
    /// Maps generated.
    pub maps: u64,
    /// Generations that failed every attempt.
    pub failed: u64,
    /// The failures with the smallest seeds, with their errors.
    pub failures: Vec<FailedSeed>,
    /// By feature variant name.
    pub variants: BTreeMap<String, VariantStats>,
    /// By encounter id.
    pub encounters: BTreeMap<String, EncounterStats>,
    /// By prefab name: every prefab the map type may use.
    pub prefabs: BTreeMap<String, PrefabStats>,
    /// By definition file name: every definition file those prefabs draw on.
    pub definitions: BTreeMap<String, DefinitionStats>,
    /// What the furnishing stage did.
    pub furnishing: FurnishingStats,
    /// By way (`up`, `down`): how often the map type's `stairs` count was
    /// missed; empty without a count.
    #[serde(default)]
    pub stairs: BTreeMap<String, StairsStats>,
    /// Generation time per map.
    pub time: TimeStats,
    /// Maps generated at each depth.
    pub depth_maps: BTreeMap<u32, u64>,
    /// The shape of the heat maps of its encounters and prefabs, when they
    /// are recorded ([`MapTypeStats::with_heat_maps`]).
    #[serde(default)]
    pub heat_maps: Option<HeatShape>,
}

/// A seed whose generation failed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailedSeed {
    /// The seed.
    pub seed: u64,
    /// The depth.
    pub depth: u32,
    /// The error, as printed.
    pub error: String,
}

/// How often something happened, and the smallest seed (and its depth) it
/// happened in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seen {
    /// Times.
    pub count: u64,
    /// The smallest seed it happened in.
    pub example_seed: u64,
    /// That seed's depth.
    pub example_depth: u32,
}

impl Seen {
    /// Adds `count` occurrences, the smallest of them in `seed` at `depth`.
    fn add(&mut self, count: u64, seed: u64, depth: u32) {
        self.count += count;
        if (seed, depth) < (self.example_seed, self.example_depth) {
            (self.example_seed, self.example_depth) = (seed, depth);
        }
    }
}

/// A feature variant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantStats {
    /// Its weight.
    pub weight: u32,
    /// Its share of the variants' weights (derived).
    #[serde(default)]
    pub weight_share: f64,
    /// Maps it was chosen for.
    pub chosen: u64,
    /// Its share of the maps (derived).
    #[serde(default)]
    pub share: f64,
    /// The prefabs its placements choose from.
    pub prefabs: Vec<String>,
}

/// An encounter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterStats {
    /// Its weight word, and the weight it stands for.
    pub weight_word: String,
    /// Its weight.
    pub weight: u32,
    /// The depths it may appear at, as `[lo, hi]` ranges; empty for every depth.
    #[serde(default)]
    pub depths: Vec<[u32; 2]>,
    /// Its expected share of the encounters placed (derived): at each depth
    /// run its weight over the weights of the encounters that can appear
    /// there (0 where it cannot), averaged over the depths by the encounters
    /// placed at each — its share of the draws when no limit, group or
    /// failed fit takes encounters out.
    #[serde(default)]
    pub weight_share: f64,
    /// Its prefab alternatives.
    pub prefabs: Vec<String>,
    /// Maps it was placed in at least once.
    pub maps: u64,
    /// Times placed.
    pub placed: u64,
    /// Its share of the maps (derived), with a 95% (Wilson) interval.
    #[serde(default)]
    pub map_share: f64,
    /// The interval's ends (derived).
    #[serde(default)]
    pub map_share_95: [f64; 2],
    /// Times placed per map (derived).
    #[serde(default)]
    pub mean_per_map: f64,
    /// Its share of all the encounters placed (derived).
    #[serde(default)]
    pub placement_share: f64,
    /// Maps where it was taken out without being placed, by reason:
    /// `ineligible`, `limit`, `excluded`, `no-place`, `too-large`.
    pub not_placed: BTreeMap<String, Seen>,
    /// Its counts at each depth run.
    pub by_depth: BTreeMap<u32, DepthCount>,
    /// Where its cells lay, over all the maps, when heat maps are recorded.
    #[serde(default)]
    pub heat: Option<Heat>,
}

/// A prefab the map type may use.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrefabStats {
    /// What may place it: `variant NAME`, `encounter ID`, `layout`.
    pub used_by: Vec<String>,
    /// Times placed.
    pub placed: u64,
    /// Times it was an encounter's alternative that fitted where the encounter
    /// went (placed or not: one is drawn among those that fit).
    #[serde(default)]
    pub fit: u64,
    /// Maps it was placed in at least once.
    pub maps: u64,
    /// Times placed in each orientation (`r0`, `flip-r90`, ...).
    pub transforms: BTreeMap<String, u64>,
    /// Times a feature placement choosing among it was skipped, by reason.
    pub skipped: BTreeMap<String, Seen>,
    /// The definition file its reference characters go through, if it draws any.
    pub definitions: Option<String>,
    /// The reference characters it draws (while counting, not written).
    #[serde(skip)]
    pub(crate) ref_glyphs: Vec<char>,
    /// Why it was never placed, when it was not (derived).
    #[serde(default)]
    pub unused: Option<Unused>,
    /// Its counts at each depth run.
    pub by_depth: BTreeMap<u32, DepthCount>,
    /// Where its cells lay, over all the maps, when heat maps are recorded.
    #[serde(default)]
    pub heat: Option<Heat>,
}

/// A definition file the map type's prefabs draw on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefinitionStats {
    /// The file, as errors name it.
    pub file: String,
    /// Placements of prefabs drawing on it.
    pub placements: u64,
    /// Its lines, in file order.
    pub lines: Vec<DefinitionLineStats>,
}

/// One definition line.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefinitionLineStats {
    /// Its line number.
    pub line: u32,
    /// The reference character it defines.
    pub glyph: char,
    /// Its group, if any.
    pub group: Option<String>,
    /// Its chance, in percent.
    pub chance: u8,
    /// Objects it gave.
    pub objects: u64,
    /// Placements of prefabs that draw its character (those that could use it).
    #[serde(default)]
    pub placements: u64,
    /// Its alternatives, as written, with the objects each gave.
    pub alternatives: Vec<AlternativeStats>,
    /// Why it gave no object, when it gave none (derived).
    #[serde(default)]
    pub unused: Option<Unused>,
}

/// One alternative of a definition line.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlternativeStats {
    /// The alternative as written (`sentry_mk1`, `class:guard`, `any`, ...).
    pub written: String,
    /// Objects it gave.
    pub objects: u64,
}

/// Why a prefab was never placed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unused {
    /// The reason seen most, in words.
    pub reason: String,
    /// A seed that shows it, when one does.
    pub example_seed: Option<u64>,
}

/// What the furnishing stage did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FurnishingStats {
    /// By composition: areas given it, and objects it placed.
    pub compositions: BTreeMap<String, CompositionStats>,
    /// Maps where a per-map limit turned a placement away, by limit.
    pub limits_hit: BTreeMap<String, Seen>,
}

/// One composition's areas and objects.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompositionStats {
    /// Areas that drew it.
    pub areas: u64,
    /// Objects placed in them.
    pub objects: u64,
    /// Objects per map (derived).
    #[serde(default)]
    pub objects_per_map: f64,
}

/// Generation times, as a histogram of 5% buckets.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeStats {
    /// Maps by bucket `b`, which holds times from `1.05^b` to `1.05^(b+1)`
    /// nanoseconds.
    pub buckets: BTreeMap<u32, u64>,
    /// The slowest map: its time in milliseconds and its seed.
    pub slowest: Option<Slowest>,
    /// The median, in milliseconds (derived, to the bucket's 5%).
    #[serde(default)]
    pub median_ms: f64,
    /// The 99th percentile, in milliseconds (derived).
    #[serde(default)]
    pub p99_ms: f64,
}

/// The slowest map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slowest {
    /// Its time in milliseconds.
    pub ms: f64,
    /// Its seed.
    pub seed: u64,
    /// Its depth.
    pub depth: u32,
}

const BUCKET_BASE: f64 = 1.05;

impl TimeStats {
    fn record(&mut self, elapsed: Duration, seed: u64, depth: u32) {
        let nanos = elapsed.as_nanos().max(1) as f64;
        let bucket = (nanos.ln() / BUCKET_BASE.ln()).floor().max(0.0) as u32;
        *self.buckets.entry(bucket).or_default() += 1;
        let ms = nanos / 1e6;
        if self.slowest.as_ref().is_none_or(|s| ms > s.ms) {
            self.slowest = Some(Slowest { ms, seed, depth });
        }
    }

    fn merge(&mut self, other: &TimeStats) {
        for (&b, &n) in &other.buckets {
            *self.buckets.entry(b).or_default() += n;
        }
        if let Some(o) = &other.slowest
            && self.slowest.as_ref().is_none_or(|s| o.ms > s.ms)
        {
            self.slowest = Some(o.clone());
        }
    }

    /// The time below which `q` of the maps fall, in milliseconds: the
    /// middle of its bucket.
    fn quantile(&self, q: f64) -> f64 {
        let total: u64 = self.buckets.values().sum();
        if total == 0 {
            return 0.0;
        }
        let rank = ((total as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (&b, &n) in &self.buckets {
            seen += n;
            if seen >= rank {
                return BUCKET_BASE.powf(f64::from(b) + 0.5) / 1e6;
            }
        }
        0.0
    }
}

impl Stats {
    /// Empty statistics of `pack`.
    pub fn new(pack: &Pack) -> Stats {
        Stats { format: FORMAT, pack: pack.name().to_string(), map_types: BTreeMap::new() }
    }

    /// Merges `other` (of the same pack, over other seeds) into these. Fails
    /// when the two are of different packs or formats, or cover a seed of a
    /// map type both.
    pub fn merge(&mut self, other: &Stats) -> Result<(), String> {
        if other.format != self.format {
            return Err(format!("format {} cannot merge with format {}", other.format, self.format));
        }
        if other.pack != self.pack {
            return Err(format!("statistics of pack `{}` cannot merge with pack `{}`", other.pack, self.pack));
        }
        for (name, theirs) in &other.map_types {
            match self.map_types.get_mut(name) {
                Some(ours) => ours.merge(theirs).map_err(|e| format!("map type `{name}`: {e}"))?,
                None => {
                    self.map_types.insert(name.clone(), theirs.clone());
                }
            }
        }
        self.finish();
        Ok(())
    }

    /// Works out the derived figures from the counts.
    pub fn finish(&mut self) {
        for stats in self.map_types.values_mut() {
            stats.finish();
        }
    }

    /// The statistics as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Statistics read back from [`Stats::to_json`]'s output.
    pub fn from_json(text: &str) -> Result<Stats, String> {
        let mut stats: Stats = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if stats.format != FORMAT {
            return Err(format!("format {} is not {FORMAT}, the one this version reads", stats.format));
        }
        stats.finish();
        Ok(stats)
    }
}

impl EncounterStats {
    /// Whether it can appear at `depth`: a weight above 0, and `depth`
    /// inside its depths (when it has any).
    pub fn eligible_at(&self, depth: u32) -> bool {
        self.weight > 0 && (self.depths.is_empty() || self.depths.iter().any(|&[lo, hi]| (lo..=hi).contains(&depth)))
    }

    /// Whether it can appear at one of `depths` at least.
    pub fn eligible_at_any(&self, depths: &[u32]) -> bool {
        depths.iter().any(|&d| self.eligible_at(d))
    }

    /// Why this encounter was taken out of the maps `seen` counts, in words:
    /// [`describe`]'s, except that `ineligible` says which of its causes it
    /// was (stats keep the reason's name only), read from the encounter's own
    /// weight and depths and the depth of the example map.
    pub fn why(&self, reason: &str, seen: &Seen) -> String {
        if reason != "ineligible" {
            return describe(reason).to_string();
        }
        let depth = seen.example_depth;
        if self.weight == 0 {
            format!("not eligible: its weight `{}` is 0", self.weight_word)
        } else if !self.depths.is_empty() && !self.depths.iter().any(|&[lo, hi]| (lo..=hi).contains(&depth)) {
            let ranges: Vec<String> = self
                .depths
                .iter()
                .map(|&[lo, hi]| if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") })
                .collect();
            format!("not eligible: depth {depth} is outside its depths {}", ranges.join(", "))
        } else {
            "not eligible: used up in the world (max_per_world)".to_string()
        }
    }
}

/// An encounter skip reason in words.
pub fn describe(reason: &str) -> &'static str {
    match reason {
        "ineligible" => "not eligible (weight 0, outside its depths, or used up in the world)",
        "limit" => "its per-map or per-world limit was reached",
        "excluded" => "another encounter of its group was placed",
        "no-place" => "no free room or cavern of the access or size it needs, or none its prefabs fit",
        "too-large" => "every room or cavern tried was too small for its prefabs",
        _ => "taken out",
    }
}

#[cfg(test)]
mod tests;
