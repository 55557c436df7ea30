//! The layout's pools in the statistics: the hand-made rooms of a chain or
//! pathways pool and the pathways' hallway pieces.
//!
//! In: a map type and its finished statistics. Out: the prefabs each pool may
//! place (so the statistics list them), and a warning at the pool line of each
//! piece the maps never placed — unless chance alone would leave it out one
//! time in a hundred or more, judged from how often the same pool placed its
//! other pieces: with weight `w` of the pool's `W`, each of `n` placements was
//! that piece with a chance of at least `w / W`.

use super::{DEAD_BELOW, MapTypeStats};
use crate::content::MapType;
use crate::content::chain::PoolEntry;
use crate::content::maptype::LayoutGenerator;
use crate::error::{Error, ErrorKind};

/// One pool of a layout generator.
pub(super) struct LayoutPool<'m> {
    /// The pool as a designer finds it in the map type (`[chain.pool]`).
    pub what: &'static str,
    /// Its entries.
    pub entries: &'m [PoolEntry],
    /// The generator's start prefab, which it places in every map.
    pub start: Option<&'m str>,
}

/// Every pool of `map_type`'s chain and pathways generators.
pub(super) fn pools(map_type: &MapType) -> Vec<LayoutPool<'_>> {
    let mut out = Vec::new();
    for g in &map_type.generators {
        match &g.generator {
            LayoutGenerator::Chain(p) => {
                out.push(LayoutPool { what: "[chain.pool]", entries: &p.pool, start: p.start.as_deref() });
            }
            LayoutGenerator::Pathways(p) => {
                out.push(LayoutPool { what: "[pathways.pool]", entries: &p.pool, start: p.start.as_deref() });
                out.push(LayoutPool {
                    what: "[pathways.hallway_prefabs] pool",
                    entries: &p.hallway_prefabs.pool,
                    start: None,
                });
            }
            _ => {}
        }
    }
    out
}

impl MapTypeStats {
    /// Warnings for the pool pieces of `map_type` these maps never placed.
    pub(super) fn dead_pool_pieces(&self, map_type: &MapType, in_maps: &str) -> Vec<Error> {
        let mut warnings = Vec::new();
        let placed = |name: &str| self.prefabs.get(name).map_or(0, |p| p.placed);
        for pool in pools(map_type) {
            let total: u64 = pool.entries.iter().map(|e| u64::from(e.weight)).sum();
            // Placements drawn by weight: not the start's, nor those a `min`
            // forced.
            let drawn: u64 = pool
                .entries
                .iter()
                .filter(|e| e.min == 0 && Some(e.prefab.as_str()) != pool.start)
                .map(|e| placed(&e.prefab))
                .sum();
            for e in pool.entries.iter().filter(|e| e.weight > 0 && Some(e.prefab.as_str()) != pool.start) {
                if placed(&e.prefab) > 0 || !self.prefabs.contains_key(&e.prefab) {
                    continue;
                }
                let share = e.weight as f64 / total.max(1) as f64;
                if e.min == 0 && (1.0 - share).powf(drawn as f64) >= DEAD_BELOW {
                    continue;
                }
                let message = format!(
                    "prefab `{}` of {} was never placed in {in_maps}, while the pool placed its other prefabs {drawn} times",
                    e.prefab, pool.what
                );
                let help = format!(
                    "it may fit nowhere the layout tries it (too large, or its doorways cannot be joined): `prefabric generate --prefab {} --explain` forces it into a map and traces why it fails",
                    e.prefab
                );
                warnings.push(Error::at(ErrorKind::Lint, e.location.clone(), message).with_help(help));
            }
        }
        warnings
    }
}
