//! [`Generation`]: one map under construction, advanced stage by stage:
//! features, layout, encounters, furnishing, objects, theme, link, validate.

use super::links::{self, LevelLinks, WorldPlaced};
use super::preview::Forced;
use super::{encounters, features, furnish, marks, objects, stairs, theme, validate};
use crate::content::{MapType, Pack};
use crate::error::Error;
use crate::layout::{self, Start};
use crate::map::LayoutStats;
use crate::map::Map;
use crate::world_state::WorldState;
use std::sync::Arc;

/// One map under construction, advanced stage by stage.
#[derive(Clone)]
pub struct Generation<'p> {
    pub(super) pack: &'p Pack,
    pub(super) map_type: &'p MapType,
    pub(super) forced: Forced,
    pub(super) prepared: Arc<layout::Prepared>,
    pub(super) map: Map,
    pub(super) starts: Vec<Start>,
    pub(super) stream_seed: u64,
    pub(super) world: WorldState,
    /// What a world asks of this level, when it is one.
    pub(super) links: Option<Arc<LevelLinks>>,
    pub(super) world_placed: WorldPlaced,
}

impl std::fmt::Debug for Generation<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generation").field("map_type", &self.map_type.name).field("map", &self.map).finish()
    }
}

impl Generation<'_> {
    /// Stage 1: places the chosen feature variant's barriers and prefabs and
    /// resolves tunneler starts.
    pub fn features(&mut self) -> Result<(), Error> {
        let world = self.links.as_deref().map(|links| (links, &mut self.world_placed));
        self.starts = features::run(&mut self.map, self.pack, self.map_type, &self.forced, self.stream_seed, world)?;
        Ok(())
    }

    /// Stage 2: digs the layout around the features, then places the features
    /// that go into its caverns.
    pub fn layout(&mut self) -> Result<LayoutStats, Error> {
        let generators = self.forced.layout.as_deref().unwrap_or(&self.map_type.generators);
        let stats = layout::run(&mut self.map, &self.prepared, generators, &self.starts, self.stream_seed)?;
        features::after_layout(&mut self.map, self.pack, self.map_type, &self.forced, self.stream_seed)?;
        Ok(stats)
    }

    /// Stage 3: embeds the map type's encounters into the layout's rooms, then
    /// turns general stairs into stairs up, down or floor to meet the map
    /// type's `stairs` count; in a world, trims the stairs to the level's exits.
    pub fn encounters(&mut self) -> Result<(), Error> {
        if let Some(pool) = &self.map_type.encounters {
            encounters::run(&mut self.map, self.pack, pool, &self.forced, &self.world, self.stream_seed)?;
        }
        stairs::run(&mut self.map, self.map_type.stairs, self.stream_seed);
        if let Some(links) = &self.links {
            links::resolve_exits(&mut self.map, links, &self.world_placed, self.stream_seed)?;
        }
        Ok(())
    }

    /// Stage 4: furnishes rooms, halls and junctions with machines, stockpiles and
    /// items, as the map type's `[furnishing]` says (nothing without one).
    pub fn furnish(&mut self) {
        if let Some(rules) = &self.map_type.furnishing {
            furnish::run(&mut self.map, self.pack.catalog(), rules, self.stream_seed);
        }
    }

    /// Stage 5: turns every placed prefab's reference characters into objects
    /// through its definition file, and lays its cell marks.
    pub fn objects(&mut self) {
        objects::run(&mut self.map, self.pack, self.stream_seed);
        marks::run(&mut self.map, self.pack);
    }

    /// Stage 6: dresses the layout's floors and walls in the map type's terrain
    /// variants and lays its pools (nothing without a `[theme]`).
    pub fn theme(&mut self) {
        theme::run(&mut self.map, &self.map_type.theme, self.stream_seed);
    }

    /// Stage 7: names the regions on both sides of every door, and makes every
    /// opening between two regions a door of both: the region graph
    /// ([`Map::neighbours`], [`Map::region_path`]).
    pub fn link(&mut self) {
        self.map.link_regions();
    }

    /// Stage 8: checks the map's invariants.
    pub fn validate(&self) -> Result<(), Error> {
        validate::run(&self.map, self.pack)
    }

    pub(super) fn run_all(&mut self) -> Result<(), Error> {
        self.features()?;
        self.layout()?;
        self.encounters()?;
        self.furnish();
        self.objects();
        self.theme();
        self.link();
        self.validate()
    }

    /// The map as far as it has been built.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The finished map.
    pub fn into_map(self) -> Map {
        self.map
    }
}
