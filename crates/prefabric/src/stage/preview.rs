//! What a preview forces into every map (`generate --variant/--encounter/--prefab`):
//! the [`Preview`] a designer asks for, and the [`Forced`] pieces it resolves to
//! against a map type, which the features, encounters and layout stages obey.

use crate::content::MapType;
use crate::content::chain::PoolEntry;
use crate::content::maptype::{LayoutGenerator, PrefabPlacement, WeightedGenerator};
use std::sync::Arc;

/// Pieces of content a preview forces into every map, for a designer
/// iterating on one of them (`generate --variant/--encounter/--prefab`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// This feature variant instead of one drawn by weight.
    pub variant: Option<String>,
    /// This encounter placed first, before the pool's draws; the generation
    /// fails, saying why, when it fits nowhere.
    pub encounter: Option<String>,
    /// This prefab wherever its placement or encounter chooses among
    /// alternatives; without `variant` or `encounter`, the first variant
    /// placing it, or else the first encounter, is forced too. A prefab of a
    /// chain or pathways pool (rooms or hallway pieces) is placed at least
    /// once instead, by the generator that has it.
    pub prefab: Option<String>,
}

/// A [`Preview`] resolved against the map type: indices and a prefab name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Forced {
    pub variant: Option<usize>,
    pub encounter: Option<usize>,
    pub prefab: Option<String>,
    /// The layout generators with the forced pool prefab's `min` raised to 1
    /// and every other generator's weight 0, when the prefab is a pool's.
    pub layout: Option<Arc<Vec<WeightedGenerator>>>,
}

impl Forced {
    /// True when the preview forces a prefab this placement chooses among: it
    /// is then required, so a preview that cannot show it fails, saying why.
    pub fn holds(&self, placement: &PrefabPlacement) -> bool {
        self.prefab.as_ref().is_some_and(|p| placement.choices.iter().any(|(n, _)| n == p))
    }

    /// The weights of a choice among `choices` (prefab name, weight): only the
    /// forced prefab's (at least 1), when it is among them; else as written.
    pub fn weights<'a>(&self, choices: impl Iterator<Item = (&'a str, u32)> + Clone) -> Vec<u32> {
        let forced = self.prefab.as_deref().filter(|p| choices.clone().any(|(n, _)| n == *p));
        choices
            .map(|(n, w)| if forced.is_none_or(|p| p == n) { w.max(u32::from(forced.is_some())) } else { 0 })
            .collect()
    }
}

/// The room and hallway piece pools of a map type's chain and pathways
/// generators, each with its generator's index.
pub(super) fn layout_pools(mt: &MapType) -> impl Iterator<Item = (usize, &[PoolEntry])> {
    mt.generators.iter().enumerate().flat_map(|(i, g)| {
        let pools: Vec<&[PoolEntry]> = match &g.generator {
            LayoutGenerator::Chain(p) => vec![&p.pool],
            LayoutGenerator::Pathways(p) => vec![&p.pool, &p.hallway_prefabs.pool],
            _ => Vec::new(),
        };
        pools.into_iter().map(move |p| (i, p))
    })
}

/// `mt`'s layout generators forced to place `prefab`, when one of its chain or
/// pathways pools has it: that generator alone (every other one weight 0),
/// the prefab's entry with a `min` of at least 1, so a map that cannot hold
/// it fails with the layout's reason.
pub(super) fn layout_forcing(mt: &MapType, prefab: &str) -> Option<Vec<WeightedGenerator>> {
    let (chosen, _) = layout_pools(mt).find(|(_, pool)| pool.iter().any(|e| e.prefab == prefab))?;
    let mut generators = mt.generators.clone();
    for (i, g) in generators.iter_mut().enumerate() {
        g.weight = u32::from(i == chosen);
        let pools: Vec<&mut Vec<PoolEntry>> = match &mut g.generator {
            LayoutGenerator::Chain(p) => vec![&mut p.pool],
            LayoutGenerator::Pathways(p) => vec![&mut p.pool, &mut p.hallway_prefabs.pool],
            _ => Vec::new(),
        };
        for e in pools.into_iter().flatten().filter(|e| i == chosen && e.prefab == prefab) {
            e.weight = e.weight.max(1);
            e.min = e.min.max(1);
            e.max = e.max.map(|m| m.max(1));
        }
    }
    Some(generators)
}
