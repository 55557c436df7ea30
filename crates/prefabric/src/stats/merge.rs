//! Merging statistics of the same map type over disjoint seed ranges.
//!
//! In: two [`MapTypeStats`] of one map type. Out: their sum, or why they do not
//! merge (the seed ranges overlap, the map types differ). Guarantees: the
//! statistics of disjoint seed ranges, merged, equal those of the union — every
//! example seed kept is the smallest seen, heat maps add cell by cell.

use super::{EncounterStats, FAILURES_KEPT, Heat, MapTypeStats, PrefabStats, Seen, VariantStats, depth};
use std::collections::BTreeMap;

/// Adds `other`'s occurrences into `map`.
pub(super) fn merge_seen(map: &mut BTreeMap<String, Seen>, other: &BTreeMap<String, Seen>) {
    for (key, theirs) in other {
        match map.get_mut(key) {
            Some(seen) => seen.add(theirs.count, theirs.example_seed, theirs.example_depth),
            None => {
                map.insert(key.clone(), theirs.clone());
            }
        }
    }
}
impl MapTypeStats {
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
    pub(super) fn drop_heat_maps(&mut self) {
        self.heat_maps = None;
        self.encounters.values_mut().for_each(|e| e.heat = None);
        self.prefabs.values_mut().for_each(|p| p.heat = None);
    }
}
/// Adds the heat map `theirs` into `ours`.
pub(super) fn merge_heat(ours: &mut Option<Heat>, theirs: &Option<Heat>) {
    match (ours.as_mut(), theirs) {
        (Some(a), Some(b)) => a.merge(b),
        (None, Some(b)) => *ours = Some(b.clone()),
        _ => {}
    }
}
