//! The map type's `stairs` count in the statistics: how often each way was
//! missed.
//!
//! In: each map generated, and the count its map type asks for. Out: per way
//! (`up`, `down`) with a count above 0, the maps that got fewer staircases
//! than asked (with the smallest seed that did) and the fewest any map got;
//! counts that merge like the rest of the statistics; and for `check`, a
//! warning at the map type's `stairs` line for each way at least half the maps
//! missed (the median map is short: as `check` judges a layout's target, a
//! count met in most maps is a ceiling some maps cannot reach, which `stats`
//! still shows).

use super::{MapTypeStats, Seen};
use crate::content::MapType;
use crate::error::{Error, ErrorKind};
use crate::map::{Map, Role};
use serde::{Deserialize, Serialize};

/// How one way of the `stairs` count fared.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StairsStats {
    /// Staircases the map type asks for.
    pub asked: u32,
    /// Maps that got fewer, with the smallest seed (and its depth) that did;
    /// `None` when every map got its count.
    pub short: Option<Seen>,
    /// The fewest staircases any map got.
    pub fewest: u32,
}

impl StairsStats {
    /// Adds a map that got `got` staircases.
    fn record(&mut self, got: u32, seed: u64, depth: u32) {
        if got >= self.asked {
            return;
        }
        self.fewest = self.fewest.min(got);
        match &mut self.short {
            Some(seen) => seen.add(1, seed, depth),
            None => self.short = Some(Seen { count: 1, example_seed: seed, example_depth: depth }),
        }
    }

    /// Adds `other`'s maps.
    pub(super) fn merge(&mut self, other: &StairsStats) {
        self.fewest = self.fewest.min(other.fewest);
        if let Some(theirs) = &other.short {
            match &mut self.short {
                Some(seen) => seen.add(theirs.count, theirs.example_seed, theirs.example_depth),
                None => self.short = Some(theirs.clone()),
            }
        }
    }
}

/// The ways `map_type` asks stairs of, each with no map counted yet.
pub(super) fn asked(map_type: &MapType) -> Vec<(String, StairsStats)> {
    let Some(count) = map_type.stairs else { return Vec::new() };
    [("up", count.up), ("down", count.down)]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .map(|(way, n)| (way.to_string(), StairsStats { asked: n, short: None, fewest: n }))
        .collect()
}

impl MapTypeStats {
    /// Counts the staircases of `map` each way the map type asks for.
    pub(super) fn record_stairs(&mut self, map: &Map) {
        if self.stairs.is_empty() {
            return;
        }
        let cells = map.stairs_cells();
        for (way, st) in &mut self.stairs {
            let role = if way == "up" { Role::StairsUp } else { Role::StairsDown };
            st.record(cells.groups(role).len() as u32, map.seed(), map.depth());
        }
    }

    /// A line for each way fewer than half of these maps got fewer staircases
    /// than asked (but some did), as `check` notes it without warning: a count
    /// most maps meet may be meant as "up to" (a second way down that only an
    /// encounter draws).
    pub fn stairs_sometimes_short(&self, map_type: &MapType) -> Vec<String> {
        let maps = self.maps;
        self.stairs
            .iter()
            .filter_map(|(way, st)| {
                let seen = st.short.as_ref().filter(|seen| seen.count > 0 && seen.count * 2 < maps.max(1))?;
                Some(format!(
                    "{}: stairs {way}: {} asked, fewer placed in {} of {maps} trial maps (fewest {}, e.g. seed {} at depth {})",
                    map_type.name, st.asked, seen.count, st.fewest, seen.example_seed, seen.example_depth
                ))
            })
            .collect()
    }

    /// A warning at `map_type`'s `stairs` line for each way at least half of
    /// these maps got fewer staircases than asked.
    pub fn stairs_shortfall(&self, map_type: &MapType) -> Vec<Error> {
        let Some(location) = &map_type.stairs_location else { return Vec::new() };
        let maps = self.maps;
        self.stairs
            .iter()
            .filter_map(|(way, st)| {
                let seen = st.short.as_ref().filter(|seen| seen.count * 2 >= maps.max(1))?;
                let message = format!(
                    "stairs {way}: {} asked, fewer placed in {} of {maps} trial maps (fewest {}, e.g. seed {} at depth {})",
                    st.asked, seen.count, st.fewest, seen.example_seed, seen.example_depth
                );
                let help = "only prefabs draw stairs: place more prefabs that draw `stairs` cells (a pool `min`, a required feature, a more common encounter), or lower the count; `--explain` traces the stairs of a map";
                Some(Error::at(ErrorKind::Lint, location.clone(), message).with_help(help))
            })
            .collect()
    }
}
