//! Recording maps into a map type's statistics: the empty statistics that
//! list everything a map type may use, then each map (or failure) counted in.
//!
//! In: a pack, a map type, the seed range and depths asked for, then maps
//! with their generation times, or the errors of seeds that failed. Out: the
//! counts of [`MapTypeStats`]. Guarantees: content the map type may use starts
//! at zero, so what is never used shows; the example seed kept for anything
//! seen is the smallest, so recording in any order gives the same counts.

use super::{
    AlternativeStats, DefinitionLineStats, DefinitionStats, EncounterStats, FAILURES_KEPT, FailedSeed, HeatShape,
    MapTypeStats, PrefabStats, Seen, VariantStats, depth, pools, stairs,
};
use crate::content::MapType;
use crate::content::Pack;
use crate::error::Error;
use crate::map::Map;
use std::collections::BTreeMap;
use std::time::Duration;

/// Adds one occurrence under `key`.
pub(super) fn note(map: &mut BTreeMap<String, Seen>, key: &str, seed: u64, depth: u32) {
    match map.get_mut(key) {
        Some(seen) => seen.add(1, seed, depth),
        None => {
            map.insert(key.to_string(), Seen { count: 1, example_seed: seed, example_depth: depth });
        }
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
}
