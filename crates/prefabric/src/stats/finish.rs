//! The figures derived from the counts: shares, 95% intervals, medians, and
//! for each piece never used the reason seen most, with an example seed.
//!
//! In: counted (and maybe merged) [`MapTypeStats`]. Out: the same statistics
//! with their derived fields filled in. Guarantees: derived fields depend on
//! the counts alone, so finishing twice, or after a merge, gives the same
//! figures.

use super::{DefinitionLineStats, MapTypeStats, PrefabStats, Seen, Unused, depth};
use std::collections::BTreeMap;

impl MapTypeStats {
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
    pub(super) fn why_unused(&self, p: &PrefabStats) -> Unused {
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
    pub(super) fn why_unused(&self, placements: u64) -> String {
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

/// The key seen most (the first of the most, by name).
pub(super) fn most_seen(map: &BTreeMap<String, Seen>) -> Option<(&str, &Seen)> {
    map.iter().max_by_key(|(k, s)| (s.count, std::cmp::Reverse(k.as_str()))).map(|(k, s)| (k.as_str(), s))
}

pub(super) fn ratio(k: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { k as f64 / n as f64 }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub(super) fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, p) = (n as f64, k as f64 / n as f64);
    let z2 = 1.96f64 * 1.96;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = 1.96 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}
