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

use crate::content::{MapType, Pack};
use crate::error::{Error, ErrorKind};
use crate::format::def::Pick;
use crate::map::Map;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

mod depth;
mod pools;
mod stairs;

pub use depth::{DepthCount, HEAT_MAX_SIDE, Heat, HeatShape};
pub use stairs::StairsStats;

/// The JSON format's version, written as `format`: 2 since the counts per
/// depth.
pub const FORMAT: u32 = 2;

/// Failures kept with their errors (the smallest seeds); the rest are counted.
const FAILURES_KEPT: usize = 20;

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

/// Adds one occurrence under `key`.
fn note(map: &mut BTreeMap<String, Seen>, key: &str, seed: u64, depth: u32) {
    match map.get_mut(key) {
        Some(seen) => seen.add(1, seed, depth),
        None => {
            map.insert(key.to_string(), Seen { count: 1, example_seed: seed, example_depth: depth });
        }
    }
}

/// Adds `other`'s occurrences into `map`.
fn merge_seen(map: &mut BTreeMap<String, Seen>, other: &BTreeMap<String, Seen>) {
    for (key, theirs) in other {
        match map.get_mut(key) {
            Some(seen) => seen.add(theirs.count, theirs.example_seed, theirs.example_depth),
            None => {
                map.insert(key.clone(), theirs.clone());
            }
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

impl MapTypeStats {
    /// Empty statistics of `map_type`, listing everything it may use, for
    /// the seeds `seeds` (half-open) at `depths`.
    pub fn new(pack: &Pack, map_type: &MapType, seeds: [u64; 2], depths: &[u32]) -> MapTypeStats {
        let mut stats = MapTypeStats {
            seeds: vec![seeds],
            depths: depths.to_vec(),
            stairs: stairs::asked(map_type).into_iter().collect(),
            depth_maps: depths.iter().map(|&d| (d, 0)).collect(),
            ..MapTypeStats::default()
        };
        let mut used_by = |prefab: &str, by: String| {
            let entry = stats
                .prefabs
                .entry(prefab.to_string())
                .or_insert_with(|| PrefabStats { by_depth: depth::zero_rows(depths), ..PrefabStats::default() });
            if !entry.used_by.contains(&by) {
                entry.used_by.push(by);
            }
        };
        for v in &map_type.variants {
            for p in &v.prefabs {
                for (name, _) in &p.choices {
                    used_by(name, format!("variant {}", v.name));
                }
            }
        }
        if let Some(pool) = &map_type.encounters {
            for e in &pool.pool {
                for name in &e.prefabs {
                    used_by(name, format!("encounter {}", e.id));
                }
            }
        }
        // The layout's starts, rooms and hallway pieces.
        for pool in pools::pools(map_type) {
            for name in pool.start.into_iter().chain(pool.entries.iter().map(|e| e.prefab.as_str())) {
                used_by(name, "layout".to_string());
            }
        }
        // Only prefabs the pack has: a missing one is the pack's error.
        stats.prefabs.retain(|name, _| pack.prefab(name).is_some());
        for (name, p) in stats.prefabs.iter_mut() {
            let Some(prefab) = pack.prefab(name) else { continue };
            let possible = prefab.possible_refs();
            let Some(defs) = pack.definitions(prefab.defs_name()).filter(|_| !possible.is_empty()) else {
                continue;
            };
            p.definitions = Some(defs.name.clone());
            p.ref_glyphs = possible.iter().map(|(r, _)| r.glyph).collect();
            p.ref_glyphs.sort_unstable();
            p.ref_glyphs.dedup();
            stats.definitions.entry(defs.name.clone()).or_insert_with(|| DefinitionStats {
                file: defs.file.clone(),
                placements: 0,
                lines: defs
                    .lines
                    .iter()
                    .map(|d| DefinitionLineStats {
                        line: d.location.line,
                        glyph: d.line.glyph,
                        group: d.line.group.clone(),
                        chance: d.line.chance,
                        alternatives: d
                            .line
                            .picks
                            .iter()
                            .map(|(pick, _)| AlternativeStats { written: pick.to_string(), objects: 0 })
                            .collect(),
                        ..DefinitionLineStats::default()
                    })
                    .collect(),
            });
        }
        for v in &map_type.variants {
            let mut prefabs: Vec<String> = Vec::new();
            for (name, _) in v.prefabs.iter().flat_map(|p| &p.choices) {
                if !prefabs.contains(name) {
                    prefabs.push(name.clone());
                }
            }
            stats
                .variants
                .insert(v.name.clone(), VariantStats { weight: v.weight, prefabs, ..VariantStats::default() });
        }
        if let Some(pool) = &map_type.encounters {
            for e in &pool.pool {
                let entry = EncounterStats {
                    weight_word: e.weight_word.clone(),
                    weight: e.weight,
                    depths: e.depth.0.iter().map(|r| [r.lo.max(0) as u32, r.hi.max(0) as u32]).collect(),
                    prefabs: e.prefabs.clone(),
                    by_depth: depth::zero_rows(depths),
                    ..EncounterStats::default()
                };
                stats.encounters.insert(e.id.clone(), entry);
            }
        }
        stats
    }

    /// These statistics, recording a heat map of where each encounter and
    /// prefab lands in maps of `map_type`'s size.
    pub fn with_heat_maps(mut self, map_type: &MapType) -> MapTypeStats {
        self.heat_maps = Some(HeatShape::for_map(map_type.width, map_type.height));
        self
    }

    /// Records a map, generated in `elapsed`.
    pub fn record(&mut self, map: &Map, elapsed: Duration) {
        let (seed, depth) = (map.seed(), map.depth());
        self.maps += 1;
        *self.depth_maps.entry(depth).or_default() += 1;
        let heat = self.heat_maps;
        self.time.record(elapsed, seed, depth);
        if let Some(v) = map.feature_variant().and_then(|v| self.variants.get_mut(v)) {
            v.chosen += 1;
        }
        let mut in_map: Vec<&str> = Vec::new();
        let mut encounters_in_map: Vec<&str> = Vec::new();
        for placed in map.prefabs() {
            if let Some(tag) = &placed.encounter
                && let Some(e) = self.encounters.get_mut(&tag.id)
            {
                e.placed += 1;
                let first = !encounters_in_map.contains(&tag.id.as_str());
                if first {
                    encounters_in_map.push(&tag.id);
                    e.maps += 1;
                }
                e.by_depth.entry(depth).or_default().add(first);
                if let Some(shape) = &heat {
                    e.heat.get_or_insert_with(|| shape.empty()).add_rect(shape, &placed.bounds);
                }
            }
            let Some(p) = self.prefabs.get_mut(&placed.name) else { continue };
            if let Some(d) = p.definitions.as_ref().and_then(|d| self.definitions.get_mut(d)) {
                d.placements += 1;
                for line in d.lines.iter_mut().filter(|l| p.ref_glyphs.binary_search(&l.glyph).is_ok()) {
                    line.placements += 1;
                }
            }
            p.placed += 1;
            *p.transforms.entry(placed.transform.to_string()).or_default() += 1;
            let first = !in_map.contains(&placed.name.as_str());
            if first {
                in_map.push(&placed.name);
                p.maps += 1;
            }
            p.by_depth.entry(depth).or_default().add(first);
            if let Some(shape) = &heat {
                p.heat.get_or_insert_with(|| shape.empty()).add_rect(shape, &placed.bounds);
            }
        }
        for placed in map.object_encounters() {
            if let Some(e) = self.encounters.get_mut(&placed.id) {
                e.placed += 1;
                let first = !encounters_in_map.contains(&placed.id.as_str());
                if first {
                    encounters_in_map.push(&placed.id);
                    e.maps += 1;
                }
                e.by_depth.entry(depth).or_default().add(first);
                if let Some(shape) = &heat {
                    let grid = e.heat.get_or_insert_with(|| shape.empty());
                    for object in placed.objects.iter().filter_map(|&i| map.objects().get(i)) {
                        for (at, _) in &object.cells {
                            grid.add_cell(shape, at.x, at.y);
                        }
                    }
                }
            }
        }
        for object in map.objects() {
            let Some(used) = &object.definition else { continue };
            let line = self.definitions.get_mut(&used.defs).and_then(|d| d.lines.get_mut(used.line as usize));
            if let Some(line) = line {
                line.objects += 1;
                if let Some(a) = line.alternatives.get_mut(used.alternative as usize) {
                    a.objects += 1;
                }
            }
        }
        for name in &map.alternatives_fit {
            if let Some(p) = self.prefabs.get_mut(name) {
                p.fit += 1;
            }
        }
        for skip in map.feature_skips() {
            for name in &skip.prefabs {
                if let Some(p) = self.prefabs.get_mut(name) {
                    note(&mut p.skipped, &skip.reason, seed, depth);
                }
            }
        }
        for skip in map.encounter_skips() {
            if let Some(e) = self.encounters.get_mut(&skip.id) {
                note(&mut e.not_placed, skip.reason.name(), seed, depth);
            }
        }
        let summary = map.furnishing_summary();
        for &(_, composition, objects) in &summary.areas {
            let c = self.furnishing.compositions.entry(composition.name().to_string()).or_default();
            c.areas += 1;
            c.objects += u64::from(objects);
        }
        for limit in &summary.limits_hit {
            note(&mut self.furnishing.limits_hit, limit, seed, depth);
        }
        self.record_stairs(map);
    }

    /// Records a generation that failed every attempt.
    pub fn record_failure(&mut self, seed: u64, depth: u32, error: &Error, elapsed: Duration) {
        self.failed += 1;
        self.depth_maps.entry(depth).or_default();
        self.time.record(elapsed, seed, depth);
        self.failures.push(FailedSeed { seed, depth, error: error.to_string() });
        self.failures.sort();
        self.failures.truncate(FAILURES_KEPT);
    }

    /// Merges `other`, of the same map type over other seeds.
    pub fn merge(&mut self, other: &MapTypeStats) -> Result<(), String> {
        let mut seeds: Vec<[u64; 2]> = self.seeds.iter().chain(&other.seeds).copied().collect();
        seeds.sort_unstable();
        let mut joined: Vec<[u64; 2]> = Vec::new();
        for [lo, hi] in seeds {
            match joined.last_mut() {
                Some(last) if lo < last[1] => {
                    return Err(format!("seeds {lo}..{} are in both", hi.min(last[1])));
                }
                Some(last) if lo == last[1] => last[1] = hi,
                _ => joined.push([lo, hi]),
            }
        }
        if self.depths != other.depths {
            return Err(format!("depths {:?} and {:?} differ", self.depths, other.depths));
        }
        self.seeds = joined;
        self.maps += other.maps;
        self.failed += other.failed;
        self.failures.extend(other.failures.iter().cloned());
        self.failures.sort();
        self.failures.truncate(FAILURES_KEPT);
        for (name, theirs) in &other.variants {
            self.variants.entry(name.clone()).or_insert_with(|| VariantStats { chosen: 0, ..theirs.clone() }).chosen +=
                theirs.chosen;
        }
        for (id, theirs) in &other.encounters {
            let ours = self.encounters.entry(id.clone()).or_insert_with(|| EncounterStats {
                maps: 0,
                placed: 0,
                not_placed: BTreeMap::new(),
                by_depth: BTreeMap::new(),
                heat: None,
                ..theirs.clone()
            });
            ours.maps += theirs.maps;
            ours.placed += theirs.placed;
            merge_seen(&mut ours.not_placed, &theirs.not_placed);
            depth::merge_rows(&mut ours.by_depth, &theirs.by_depth);
            merge_heat(&mut ours.heat, &theirs.heat);
        }
        for (name, theirs) in &other.prefabs {
            let ours = self
                .prefabs
                .entry(name.clone())
                .or_insert_with(|| PrefabStats { used_by: theirs.used_by.clone(), ..PrefabStats::default() });
            ours.placed += theirs.placed;
            ours.fit += theirs.fit;
            ours.maps += theirs.maps;
            depth::merge_rows(&mut ours.by_depth, &theirs.by_depth);
            merge_heat(&mut ours.heat, &theirs.heat);
            for (t, n) in &theirs.transforms {
                *ours.transforms.entry(t.clone()).or_default() += n;
            }
            merge_seen(&mut ours.skipped, &theirs.skipped);
        }
        for (name, theirs) in &other.definitions {
            match self.definitions.get_mut(name) {
                Some(ours) => ours.add(theirs),
                None => {
                    self.definitions.insert(name.clone(), theirs.clone());
                }
            }
        }
        for (name, theirs) in &other.furnishing.compositions {
            let ours = self.furnishing.compositions.entry(name.clone()).or_default();
            ours.areas += theirs.areas;
            ours.objects += theirs.objects;
        }
        merge_seen(&mut self.furnishing.limits_hit, &other.furnishing.limits_hit);
        for (way, theirs) in &other.stairs {
            match self.stairs.get_mut(way) {
                Some(ours) => ours.merge(theirs),
                None => {
                    self.stairs.insert(way.clone(), theirs.clone());
                }
            }
        }
        self.time.merge(&other.time);
        for (depth, maps) in &other.depth_maps {
            *self.depth_maps.entry(*depth).or_default() += maps;
        }
        if self.heat_maps != other.heat_maps {
            // Heat maps of only some of the seeds, or of other shapes, would
            // mislead: the merge keeps none.
            self.drop_heat_maps();
        }
        Ok(())
    }

    /// Forgets the heat maps.
    fn drop_heat_maps(&mut self) {
        self.heat_maps = None;
        self.encounters.values_mut().for_each(|e| e.heat = None);
        self.prefabs.values_mut().for_each(|p| p.heat = None);
    }

    /// Works out the derived figures from the counts.
    pub fn finish(&mut self) {
        let maps = self.maps;
        let share = |k: u64| if maps == 0 { 0.0 } else { k as f64 / maps as f64 };
        let variant_weights: u64 = self.variants.values().map(|v| u64::from(v.weight)).sum();
        for v in self.variants.values_mut() {
            v.weight_share = ratio(u64::from(v.weight), variant_weights);
            v.share = share(v.chosen);
        }
        let placements: u64 = self.encounters.values().map(|e| e.placed).sum();
        for e in self.encounters.values_mut() {
            e.map_share = share(e.maps);
            e.map_share_95 = wilson(e.maps, maps);
            e.mean_per_map = share(e.placed);
            e.placement_share = ratio(e.placed, placements);
            depth::finish_rows(&mut e.by_depth, &self.depth_maps);
        }
        // Each depth's placements weigh its expected shares in the whole run's
        // (its maps, where no encounter was placed at all).
        let mut depth_weights: BTreeMap<u32, u64> = BTreeMap::new();
        for &d in self.depth_maps.keys() {
            let placed: u64 = self.encounters.values().filter_map(|e| e.by_depth.get(&d)).map(|c| c.placed).sum();
            let eligible_weights: u64 =
                self.encounters.values().filter(|e| e.eligible_at(d)).map(|e| u64::from(e.weight)).sum();
            for e in self.encounters.values_mut() {
                let share = e.eligible_at(d).then(|| ratio(u64::from(e.weight), eligible_weights));
                if let Some(row) = e.by_depth.get_mut(&d) {
                    row.placement_share = ratio(row.placed, placed);
                    row.weight_share = share;
                }
            }
            depth_weights.insert(d, placed);
        }
        if depth_weights.values().all(|&n| n == 0) {
            depth_weights = self.depth_maps.clone();
        }
        let total: u64 = depth_weights.values().sum();
        for e in self.encounters.values_mut() {
            let weighed: f64 =
                depth_weights.iter().filter_map(|(d, &n)| Some(e.by_depth.get(d)?.weight_share? * n as f64)).sum();
            e.weight_share = if total == 0 { 0.0 } else { weighed / total as f64 };
        }
        for p in self.prefabs.values_mut() {
            depth::finish_rows(&mut p.by_depth, &self.depth_maps);
        }
        for c in self.furnishing.compositions.values_mut() {
            c.objects_per_map = share(c.objects);
        }
        self.time.median_ms = self.time.quantile(0.5);
        self.time.p99_ms = self.time.quantile(0.99);
        let reasons: BTreeMap<String, Option<Unused>> =
            self.prefabs.iter().map(|(name, p)| (name.clone(), (p.placed == 0).then(|| self.why_unused(p)))).collect();
        for (name, unused) in reasons {
            if let Some(p) = self.prefabs.get_mut(&name) {
                p.unused = unused;
            }
        }
        for defs in self.definitions.values_mut() {
            for line in &mut defs.lines {
                // Counted against the placements of prefabs that draw its
                // character, not of every prefab using the file.
                line.unused = (line.objects == 0)
                    .then(|| Unused { reason: line.why_unused(line.placements), example_seed: None });
            }
        }
    }

    /// Why prefab `p`, never placed, was not: through the first of its users
    /// that explains it.
    fn why_unused(&self, p: &PrefabStats) -> Unused {
        if let Some((reason, seen)) = most_seen(&p.skipped) {
            return Unused {
                reason: format!("its feature placement was skipped {} times: {reason}", seen.count),
                example_seed: Some(seen.example_seed),
            };
        }
        for by in &p.used_by {
            if let Some(name) = by.strip_prefix("variant ")
                && let Some(v) = self.variants.get(name)
            {
                if v.chosen == 0 {
                    return Unused {
                        reason: format!("its feature variant `{name}` was never chosen (weight {})", v.weight),
                        example_seed: None,
                    };
                }
                return Unused {
                    reason: format!(
                        "variant `{name}` was chosen {} times, and its placement drew another prefab each time",
                        v.chosen
                    ),
                    example_seed: None,
                };
            }
            if let Some(id) = by.strip_prefix("encounter ")
                && let Some(e) = self.encounters.get(id)
            {
                if e.placed > 0 {
                    return Unused {
                        reason: format!(
                            "encounter `{id}` was placed {} times, always as another of its alternatives",
                            e.placed
                        ),
                        example_seed: None,
                    };
                }
                return match most_seen(&e.not_placed) {
                    Some((why, seen)) => Unused {
                        reason: format!(
                            "encounter `{id}` was never placed: {} in {} maps",
                            e.why(why, seen),
                            seen.count
                        ),
                        example_seed: Some(seen.example_seed),
                    },
                    None => Unused {
                        reason: format!("encounter `{id}` was never drawn: the pool's count was filled by others"),
                        example_seed: None,
                    },
                };
            }
        }
        Unused { reason: "the layout never drew it, or never found it a place".to_string(), example_seed: None }
    }
}

impl DefinitionLineStats {
    /// Why this line, which gave no object, gave none, given the placements
    /// of prefabs that draw its character.
    fn why_unused(&self, placements: u64) -> String {
        if placements == 0 {
            return format!("no prefab that draws `{}` was placed", self.glyph);
        }
        let times =
            if placements == 1 { "the 1 placement".to_string() } else { format!("all {placements} placements") };
        match (&self.group, self.chance) {
            (Some(g), _) => format!(
                "its group `{g}` used another of its lines, or its chance failed, in {times} of prefabs drawing on it"
            ),
            (None, c) if c < 100 => format!("its {c}% chance failed in {times} of prefabs drawing on it"),
            _ => format!(
                "in {times} of prefabs that draw `{}`, its alternatives found nothing in the catalog at the depths tried",
                self.glyph
            ),
        }
    }
}

impl Stats {
    /// Warnings for content these maps never used (the statistics must be
    /// finished): every feature variant prefab, encounter and encounter
    /// alternative of each map type never placed, and every definition line
    /// or alternative that gave no object in any map type, each at its
    /// file:line with the reason seen most and an example seed where one
    /// shows it. Content left out where chance alone would leave it out one
    /// time in a hundred or more (a line with a 50% chance used twice) is
    /// not reported: more maps tell.
    pub fn dead_content(&self, pack: &Pack) -> Vec<Error> {
        let mut warnings = Vec::new();
        for (name, stats) in &self.map_types {
            if let Some(map_type) = pack.map_type(name) {
                warnings.extend(stats.dead_content(map_type));
            }
        }
        // A definition file may serve several map types: a line is dead only
        // when none of them used it.
        let mut definitions: BTreeMap<&str, (DefinitionStats, u64)> = BTreeMap::new();
        for stats in self.map_types.values() {
            let maps = stats.maps + stats.failed;
            for (name, d) in &stats.definitions {
                match definitions.get_mut(name.as_str()) {
                    Some((sum, m)) => {
                        sum.add(d);
                        *m += maps;
                    }
                    None => {
                        definitions.insert(name, (d.clone(), maps));
                    }
                }
            }
        }
        for (name, (d, maps)) in &definitions {
            if let Some(defs) = pack.definitions(name) {
                warnings.extend(d.dead_lines(defs, *maps));
            }
        }
        warnings
    }
}

/// How rarely chance alone must leave content out before a run that never
/// used it calls it dead.
const DEAD_BELOW: f64 = 0.01;

impl DefinitionStats {
    /// Adds the counts of `other`, the same file's statistics over other maps.
    fn add(&mut self, other: &DefinitionStats) {
        self.placements += other.placements;
        for (line, theirs) in self.lines.iter_mut().zip(&other.lines) {
            line.objects += theirs.objects;
            line.placements += theirs.placements;
            for (a, b) in line.alternatives.iter_mut().zip(&theirs.alternatives) {
                a.objects += b.objects;
            }
        }
    }

    /// Warnings for its lines and alternatives that gave no object in `maps`
    /// maps, where chance alone would rarely explain it.
    fn dead_lines(&self, defs: &crate::content::defs::Definitions, maps: u64) -> Vec<Error> {
        let mut warnings = Vec::new();
        if self.placements == 0 {
            return warnings;
        }
        let in_maps = if maps == 1 { "1 trial map".to_string() } else { format!("{maps} trial maps") };
        for (line, def) in self.lines.iter().zip(&defs.lines) {
            // Only placements of prefabs that draw its character could use a
            // line; none at all is the prefabs' own warning, not the line's.
            if line.objects == 0 && line.placements > 0 {
                // The chance that one placement uses the line: its group's
                // pick, then its own chance.
                let group = line
                    .group
                    .as_ref()
                    .map_or(1, |g| self.lines.iter().filter(|l| l.group.as_ref() == Some(g)).count());
                // ... and an alternative that is not `nothing`.
                let weighs = |nothing: bool| -> f64 {
                    let picks = def.line.picks.iter().zip(&def.line.weights);
                    picks.filter(|((p, _), _)| nothing || *p != Pick::Nothing).map(|(_, &w)| f64::from(w)).sum()
                };
                let p_use = f64::from(line.chance) / 100.0 / group as f64 * weighs(false) / weighs(true).max(1.0);
                if (1.0 - p_use).powf(line.placements as f64) >= DEAD_BELOW {
                    continue;
                }
                let reason = line.why_unused(line.placements);
                warnings.push(
                    Error::at(
                        ErrorKind::Lint,
                        def.location.clone(),
                        format!("definition `{}` gave no object in {in_maps}: {reason}", line.glyph),
                    )
                    .with_help(
                        "`prefabric show PREFAB_FILE --resolve --depth N` shows what each reference becomes at a depth",
                    ),
                );
                continue;
            }
            let k = line.alternatives.len() as f64;
            for (a, (pick, col)) in line.alternatives.iter().zip(&def.line.picks) {
                // `nothing` gives no object by design: its draws are not counted.
                if *pick == Pick::Nothing || a.objects > 0 || (1.0 - 1.0 / k).powf(line.objects as f64) >= DEAD_BELOW {
                    continue;
                }
                let location = crate::error::Location::at(def.location.file.clone(), def.location.line, *col);
                warnings.push(
                    Error::at(
                        ErrorKind::Lint,
                        location,
                        format!(
                            "alternative `{}` of definition `{}` was never picked in {in_maps}, though the line gave {} objects",
                            a.written, line.glyph, line.objects
                        ),
                    )
                    .with_help("a line picks one of its alternatives uniformly; a class or category with nothing in the catalog at the depths tried gives no object"),
                );
            }
        }
        warnings
    }
}

impl MapTypeStats {
    /// Warnings for the feature variant prefabs, encounters, encounter
    /// alternatives and layout pool pieces of `map_type` these maps never
    /// placed.
    fn dead_content(&self, map_type: &MapType) -> Vec<Error> {
        let mut warnings = Vec::new();
        let maps = self.maps + self.failed;
        let in_maps = if maps == 1 { "1 trial map".to_string() } else { format!("{maps} trial maps") };
        let example = |seed: Option<u64>| seed.map_or(String::new(), |s| format!(" (e.g. seed {s})"));
        let mut warn = |location: &crate::error::Location, message: String, help: &str| {
            warnings.push(Error::at(ErrorKind::Lint, location.clone(), message).with_help(help));
        };
        for v in map_type.variants.iter().filter(|v| v.weight > 0) {
            for placement in &v.prefabs {
                for (name, _) in placement.choices.iter().filter(|(_, w)| *w > 0) {
                    let Some(p) = self.prefabs.get(name).filter(|p| p.placed == 0) else { continue };
                    let Some(u) = &p.unused else { continue };
                    warn(
                        &placement.location,
                        format!(
                            "prefab `{name}` of feature variant `{}` was never placed in {in_maps}: {}{}",
                            v.name,
                            u.reason,
                            example(u.example_seed)
                        ),
                        "run `prefabric generate --variant NAME --explain` to watch its placement try",
                    );
                }
            }
        }
        if let Some(pool) = map_type.encounters.as_ref().filter(|p| p.count.1 > 0) {
            for e in pool.pool.iter().filter(|e| e.weight > 0) {
                let Some(st) = self.encounters.get(&e.id) else { continue };
                if st.placed == 0 {
                    let why = match most_seen(&st.not_placed) {
                        Some((reason, seen)) => {
                            let words = match (reason, e.style) {
                                ("no-place", crate::prefab::Style::Embedded) => {
                                    "no cavern had rock beside it deep and whole enough to sink one of its prefabs into"
                                }
                                ("no-place", crate::prefab::Style::Centered) => {
                                    "no cavern had room around its centre, or every centre was taken"
                                }
                                _ => &st.why(reason, seen),
                            };
                            format!("{words} in {} maps{}", seen.count, example(Some(seen.example_seed)))
                        }
                        None => "it was never drawn: the pool's count was filled by other encounters".to_string(),
                    };
                    warn(
                        &e.location,
                        format!("encounter `{}` was never placed in {in_maps}: {why}", e.id),
                        "run `prefabric generate --encounter ID --explain` to see why it does not fit; more trial maps (--seeds) find rare encounters",
                    );
                    continue;
                }
                // An alternative that fitted somewhere but was not drawn there
                // was passed over by chance: `stats` shows it, `check` does not
                // call it dead.
                for name in &e.prefabs {
                    if self.prefabs.get(name).is_some_and(|p| p.placed == 0 && p.fit == 0) {
                        warn(
                            &e.location,
                            format!(
                                "alternative `{name}` of encounter `{}` was never used in {in_maps}: the encounter was placed {} times, and `{name}` fit none of the rooms or caverns it went into",
                                e.id, st.placed
                            ),
                            "an alternative is drawn among those that fit the room: make it smaller, or open where the room's doors are; `prefabric generate --encounter ID --prefab NAME` tries it alone",
                        );
                    }
                }
            }
        }
        warnings.extend(self.dead_pool_pieces(map_type, &in_maps));
        warnings
    }
}

/// Adds the heat map `theirs` into `ours`.
fn merge_heat(ours: &mut Option<Heat>, theirs: &Option<Heat>) {
    match (ours.as_mut(), theirs) {
        (Some(a), Some(b)) => a.merge(b),
        (None, Some(b)) => *ours = Some(b.clone()),
        _ => {}
    }
}

/// The key seen most (the first of the most, by name).
fn most_seen(map: &BTreeMap<String, Seen>) -> Option<(&str, &Seen)> {
    map.iter().max_by_key(|(k, s)| (s.count, std::cmp::Reverse(k.as_str()))).map(|(k, s)| (k.as_str(), s))
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

fn ratio(k: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { k as f64 / n as f64 }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, p) = (n as f64, k as f64 / n as f64);
    let z2 = 1.96f64 * 1.96;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = 1.96 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_holds_the_share_and_narrows_with_more_maps() {
        let [lo, hi] = wilson(50, 100);
        assert!(lo < 0.5 && 0.5 < hi && (hi - lo - 0.19).abs() < 0.01, "{lo} {hi}");
        let [lo2, hi2] = wilson(5000, 10000);
        assert!(hi2 - lo2 < 0.02);
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
        let [lo, hi] = wilson(0, 100);
        assert!(lo == 0.0 && hi > 0.03 && hi < 0.04, "{hi}");
    }

    #[test]
    fn an_ineligible_encounter_says_which_cause_kept_it_out() {
        let seen = |depth| Seen { count: 3, example_seed: 0, example_depth: depth };
        let e = EncounterStats {
            weight_word: "rare".into(),
            weight: 2,
            depths: vec![[2, 4], [9, 9]],
            ..EncounterStats::default()
        };
        assert_eq!(e.why("ineligible", &seen(1)), "not eligible: depth 1 is outside its depths 2-4, 9");
        assert_eq!(e.why("ineligible", &seen(3)), "not eligible: used up in the world (max_per_world)");
        assert_eq!(e.why("limit", &seen(3)), describe("limit"));
        let weightless = EncounterStats { weight_word: "never".into(), weight: 0, ..e.clone() };
        assert_eq!(weightless.why("ineligible", &seen(1)), "not eligible: its weight `never` is 0");
        let anywhere = EncounterStats { depths: Vec::new(), ..e };
        assert_eq!(anywhere.why("ineligible", &seen(1)), "not eligible: used up in the world (max_per_world)");
    }

    #[test]
    fn time_quantiles_come_from_the_buckets() {
        let mut t = TimeStats::default();
        for ms in 1..=100u64 {
            t.record(Duration::from_micros(ms * 10), ms, 1);
        }
        // The median map took 0.5 ms, the 99th 0.99 ms: to the bucket's 5%.
        assert!((t.quantile(0.5) / 0.5 - 1.0).abs() < 0.05, "{}", t.quantile(0.5));
        assert!((t.quantile(0.99) / 0.99 - 1.0).abs() < 0.05, "{}", t.quantile(0.99));
        assert_eq!(t.slowest.as_ref().map(|s| s.seed), Some(100));
    }
}
