//! The map: terrain, masks, regions, placed prefabs and their links.
//!
//! A [`Map`] is what a generation produces and what every stage works on. Each cell
//! has a [`Terrain`] (a [`Role`] the generators understand plus a 0–9 variant for
//! the theme), a region id, and mask bits (protected, spawn-blocked, solid under a
//! machine). Regions are the rooms, halls, corridors, junctions and prefab
//! interiors the stages made, each with its bounds and doors; later stages work on
//! regions, never on a generator's internals.
//!
//! The parts live in files of their own, each re-exported here so every type
//! has one public path, `map::<Type>`: `terrain.rs` (cells), `region.rs`
//! (regions and doors), `placed.rs` (placed prefabs and links), `objects.rs`
//! (objects and furnishing), `skips.rs`, `stairs.rs`, `layout_stats.rs` (each
//! generator's figures), `pools.rs` (memory kept between maps), `graph.rs`
//! (the region graph) and `serde_map.rs` (reading a map back). This file holds
//! [`Map`] itself.

use crate::geom::{Moves, Point, Rect};
use crate::grid::Grid;
use crate::trace::Trace;

mod exits;
mod graph;
mod layout_stats;
mod objects;
mod placed;
mod pools;
mod region;
#[cfg(feature = "serde")]
mod serde_map;
mod skips;
mod stairs;
mod terrain;

pub use exits::{Exit, ExitWay};
pub use layout_stats::{CaveStats, ChainStats, LayoutStats, PathwaysStats};
pub use objects::{DefinitionUse, FurnishPart, Furnished, FurnishingSummary, Object, ObjectEncounter, ObjectKind};
pub use placed::{EncounterTag, LinkKind, PlacedLink, PlacedPrefab, Stage};
pub(crate) use pools::{Pools, Spare};
pub use region::{Door, Region, RegionId, RegionKind};
pub use skips::{EncounterSkip, FeatureSkip, SkipReason};
pub use stairs::Staircase;
pub(crate) use stairs::StairsCells;
pub use terrain::{FloorKind, Role, Terrain};

pub(crate) const NO_REGION: u32 = u32::MAX;

/// Cell mask bits.
pub(crate) mod mask {
    /// No stage may change the cell (placed prefab cells).
    pub const PROTECTED: u8 = 1;
    /// Games should not spawn anything here.
    pub const SPAWN_BLOCKED: u8 = 2;
    /// A blocking object (a machine) stands here.
    pub const SOLID: u8 = 4;
}

/// A generated map.
///
/// With the `serde` feature a map is written whole but for its trace (write it
/// with [`crate::render::json_with_trace`]), and read back only when it holds
/// together: its grids one size, and every region, door, prefab, link, object
/// and mark inside the map and naming things that exist.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "serde_map::MapData"))]
#[derive(Clone, Debug)]
pub struct Map {
    pub(crate) seed: u64,
    pub(crate) map_type: String,
    pub(crate) depth: u32,
    pub(crate) terrain: Grid<Terrain>,
    pub(crate) masks: Grid<u8>,
    pub(crate) region_of: Grid<u32>,
    /// How the game's walkers step (the pack's palette says): what the map's
    /// cells being connected means.
    pub(crate) moves: Moves,
    pub(crate) regions: Vec<Region>,
    pub(crate) prefabs: Vec<PlacedPrefab>,
    pub(crate) links: Vec<PlacedLink>,
    pub(crate) objects: Vec<Object>,
    /// The cell marks placed prefabs carry, by name: each name's cells in
    /// reading order.
    pub(crate) marks: std::collections::BTreeMap<String, Vec<Point>>,
    pub(crate) feature_variant: Option<String>,
    pub(crate) layout: LayoutStats,
    pub(crate) skipped: Vec<EncounterSkip>,
    pub(crate) object_encounters: Vec<ObjectEncounter>,
    /// The world group of each encounter placed that has one, once a placement
    /// (what [`crate::WorldState::after`] counts).
    pub(crate) world_groups: Vec<String>,
    /// For each encounter placed, every one of its prefabs that fitted where it
    /// went (the one drawn among them), so `check` can tell an alternative that
    /// never fits from one chance passed over.
    pub(crate) alternatives_fit: Vec<String>,
    pub(crate) feature_skips: Vec<FeatureSkip>,
    pub(crate) furnishing: FurnishingSummary,
    /// Where its staircases lead, in a world of levels (empty otherwise).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub(crate) exits: Vec<Exit>,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) trace: Trace,
    pub(crate) attempt: u32,
    /// The seed this attempt's streams derive from (the seed itself on attempt 0).
    pub(crate) stream_seed: u64,
    /// Emptied lists of the last map, to fill before allocating new ones.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) pools: Pools,
}

impl Map {
    /// An all-earth map with nothing placed.
    #[cfg(test)]
    pub(crate) fn new(seed: u64, map_type: &str, depth: u32, width: i32, height: i32) -> Map {
        Map::from_spare(Spare::default(), seed, map_type, depth, width, height)
    }

    /// [`Map::new`] in the memory of `spare`.
    pub(crate) fn from_spare(spare: Spare, seed: u64, map_type: &str, depth: u32, width: i32, height: i32) -> Map {
        // The lists of a spare are empty already (`Map::into_spare`); its grids
        // still hold the last map.
        let Spare { mut terrain, mut masks, mut region_of, regions, prefabs, objects, pools } = spare;
        terrain.reset(width, height, Terrain::EARTH);
        masks.reset(width, height, 0);
        region_of.reset(width, height, NO_REGION);
        Map {
            seed,
            map_type: map_type.to_string(),
            depth,
            terrain,
            masks,
            region_of,
            moves: Moves::Orthogonal,
            regions,
            prefabs,
            links: Vec::new(),
            objects,
            marks: std::collections::BTreeMap::new(),
            feature_variant: None,
            layout: LayoutStats::default(),
            skipped: Vec::new(),
            object_encounters: Vec::new(),
            world_groups: Vec::new(),
            alternatives_fit: Vec::new(),
            feature_skips: Vec::new(),
            furnishing: FurnishingSummary::default(),
            exits: Vec::new(),
            trace: Trace::default(),
            attempt: 0,
            stream_seed: seed,
            pools,
        }
    }

    /// The map's memory, for the next map (see [`Spare`]).
    pub(crate) fn into_spare(self) -> Spare {
        let Map { terrain, masks, region_of, mut regions, mut prefabs, mut objects, mut pools, .. } = self;
        for region in regions.drain(..) {
            Pools::keep(&mut pools.doors, region.doors);
        }
        prefabs.clear();
        for object in objects.drain(..) {
            pools.keep_cells(object.cells);
        }
        Spare { terrain, masks, region_of, regions, prefabs, objects, pools }
    }

    /// Which attempt made it: 0 when the seed itself gave a valid map, N when N
    /// attempts failed before it (each later attempt draws from a seed derived
    /// from this one, so the map is still the seed's).
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// The seed of the variation outcome ([`crate::Prefab::variant`]) for the
    /// next placement of prefab `name`: drawn from the stream named after the
    /// prefab and how many copies of it the map holds already, so a varying
    /// prefab moves no other draw, and placing or removing other prefabs changes
    /// none of its outcomes. Only called for prefabs that vary.
    pub(crate) fn variant_seed(&self, name: &str) -> u32 {
        let copies = self.prefabs.iter().filter(|p| p.name == name).count();
        crate::rng::Rng::stream(self.stream_seed, "variant", &format!("{name}/{copies}")).next_u32()
    }

    /// The seed it was generated from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The map type's name.
    pub fn map_type(&self) -> &str {
        &self.map_type
    }

    /// The depth it was generated for.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// How its walkers step (the pack's palette says): every passable cell is
    /// reachable from every other by these steps.
    pub fn moves(&self) -> Moves {
        self.moves
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.terrain.width()
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.terrain.height()
    }

    /// The whole map as a rectangle.
    pub fn bounds(&self) -> Rect {
        self.terrain.bounds()
    }

    /// Every cell's terrain.
    pub fn terrain(&self) -> &Grid<Terrain> {
        &self.terrain
    }

    /// The terrain at `p`, if inside.
    pub fn terrain_at(&self, p: Point) -> Option<Terrain> {
        self.terrain.get(p).copied()
    }

    /// True when a walker can stand at `p`.
    pub fn is_walkable(&self, p: Point) -> bool {
        self.terrain.get(p).is_some_and(|t| t.is_walkable())
    }

    /// True when a walker can pass `p`: walkable terrain with no machine on it.
    pub fn is_passable(&self, p: Point) -> bool {
        self.terrain.index_of(p).is_some_and(|i| self.is_passable_at(i))
    }

    /// [`Map::is_passable`] of the cell at index `i` (row-major, on the map), for
    /// searches that step by index and test the bounds once.
    #[inline]
    pub(crate) fn is_passable_at(&self, i: usize) -> bool {
        self.terrain.cells()[i].is_walkable() && self.masks.cells()[i] & mask::SOLID == 0
    }

    /// True when `p` belongs to a placed prefab that no stage may change.
    pub fn is_protected(&self, p: Point) -> bool {
        self.masks.get(p).is_some_and(|m| m & mask::PROTECTED != 0)
    }

    /// The cell marks the placed prefabs' legends give ([`crate::CellMark`]):
    /// each mark's name, with its cells in reading order, names sorted.
    pub fn marks(&self) -> impl Iterator<Item = (&str, &[Point])> {
        self.marks.iter().map(|(name, cells)| (name.as_str(), &cells[..]))
    }

    /// The names of the cell marks on `p`, sorted.
    pub fn marks_at(&self, p: Point) -> impl Iterator<Item = &str> {
        self.marks
            .iter()
            .filter(move |(_, cells)| cells.binary_search_by_key(&(p.y, p.x), |q| (q.y, q.x)).is_ok())
            .map(|(name, _)| name.as_str())
    }

    /// True when games should not spawn anything at `p`.
    pub fn is_spawn_blocked(&self, p: Point) -> bool {
        self.masks.get(p).is_some_and(|m| m & mask::SPAWN_BLOCKED != 0)
    }

    /// The region `p` belongs to, if any.
    pub fn region_at(&self, p: Point) -> Option<&Region> {
        match self.region_of.get(p) {
            Some(&id) if id != NO_REGION => self.regions.get(id as usize),
            _ => None,
        }
    }

    /// Every staircase up and down, up first, each in reading order of its
    /// first cell: where a game puts the player and where the way on is. A
    /// staircase is a 4-connected group of stairs cells (a wide flight is one),
    /// with the region it stands in and the placed prefab that drew it (an
    /// entrance or descent a feature placed, or an encounter's).
    ///
    /// ```
    /// use prefabric::{Pack, Role, generate};
    ///
    /// let pack = Pack::embedded()?;
    /// let map = generate(&pack, "hotel", 7)?;
    /// let up = map.stairs().into_iter().find(|s| s.role == Role::StairsUp).expect("a way in");
    /// let prefab = &map.prefabs()[up.prefab.expect("stairs are drawn by prefabs")];
    /// println!("start at {} in `{}`", up.cells[0], prefab.name);
    /// assert!(map.is_walkable(up.cells[0]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stairs(&self) -> Vec<Staircase> {
        let mut out = Vec::new();
        let stairs = self.stairs_cells();
        for role in [Role::StairsUp, Role::StairsDown] {
            for cells in stairs.groups(role) {
                let first = cells[0];
                let region = self.region_at(first).map(|r| r.id);
                let prefab = self.prefabs.iter().rposition(|p| p.bounds.contains(first));
                out.push(Staircase { role, cells, region, prefab });
            }
        }
        out
    }

    /// The prefabs the map type placed before the layout, in placement order:
    /// its entrances, exits and set pieces (the `[[variants.prefabs]]` of its
    /// feature variant, and the cave prefabs placed into its caverns). A
    /// staircase a feature drew names it in [`Staircase::prefab`].
    ///
    /// ```
    /// let pack = prefabric::Pack::embedded().expect("the embedded pack is valid");
    /// let map = prefabric::generate(&pack, "materials", 2).expect("materials generates");
    /// // The lift the player arrives by is a feature, and holds the stairs up.
    /// let up = map.stairs().into_iter().find(|s| s.role == prefabric::Role::StairsUp).expect("a way in");
    /// let lift = &map.prefabs()[up.prefab.expect("drawn by a prefab")];
    /// assert!(map.features().any(|f| f.name == lift.name));
    /// ```
    pub fn features(&self) -> impl Iterator<Item = &PlacedPrefab> {
        self.prefabs.iter().filter(|p| p.stage == Stage::Feature)
    }

    /// Every cell of the three stairs roles, gathered in one pass; their
    /// staircases are [`StairsCells::groups`].
    pub(crate) fn stairs_cells(&self) -> StairsCells {
        // Only prefabs draw stairs, so only their rectangles are read — or the
        // whole map once, when they overlap to cover more than it (a maze of
        // prefabs): a handful of cells gathered in reading order (sorted for a
        // binary search), then grouped among themselves, without a grid the
        // map's size.
        let (w, h) = (self.width(), self.height());
        let covered: i64 = self.prefabs.iter().map(|placed| placed.bounds.area()).sum();
        let mut cells = Vec::new();
        if covered > i64::from(w) * i64::from(h) {
            self.gather_stairs(Rect::new(0, 0, w, h), &mut cells);
        } else {
            for placed in &self.prefabs {
                self.gather_stairs(placed.bounds, &mut cells);
            }
        }
        cells.sort_unstable_by_key(|(q, _)| (q.y, q.x));
        cells.dedup();
        StairsCells(cells)
    }

    /// Adds the stairs cells inside `b` (clipped to the map) to `cells`, each
    /// with its role at variant 0.
    fn gather_stairs(&self, b: Rect, cells: &mut Vec<(Point, Terrain)>) {
        let (w, h) = (self.width(), self.height());
        let (x0, x1) = (b.x.max(0), b.right().min(w));
        for y in b.y.max(0)..b.bottom().min(h) {
            let row = &self.terrain.cells()[(y * w + x0) as usize..(y * w + x1.max(x0)) as usize];
            // Most rows have none: a test of the whole row without branches
            // (which the compiler vectorises) skips them.
            if !row.iter().fold(false, |any, t| any | t.is_stairs()) {
                continue;
            }
            let stairs = row.iter().zip(x0..).filter(|(t, _)| t.is_stairs());
            cells.extend(stairs.map(|(&t, x)| (Point::new(x, y), Terrain::new(t.role()))));
        }
    }

    /// Every region, indexed by id.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// Every placed prefab, in placement order.
    pub fn prefabs(&self) -> &[PlacedPrefab] {
        &self.prefabs
    }

    /// Every link mark of every placed prefab.
    pub fn links(&self) -> &[PlacedLink] {
        &self.links
    }

    /// Every object, in placement order.
    pub fn objects(&self) -> &[Object] {
        &self.objects
    }

    /// The name of the feature variant the features stage chose, if the map type
    /// has any.
    pub fn feature_variant(&self) -> Option<&str> {
        self.feature_variant.as_deref()
    }

    /// What the layout stage made: which generator, and its counts.
    pub fn layout_stats(&self) -> &LayoutStats {
        &self.layout
    }

    /// The object-only encounters placed, in the order they were (encounters
    /// with a prefab are in [`Map::prefabs`], tagged with their encounter).
    pub fn object_encounters(&self) -> &[ObjectEncounter] {
        &self.object_encounters
    }

    /// The encounters taken out of the running without being placed, in the
    /// order they were, each once.
    pub fn encounter_skips(&self) -> &[EncounterSkip] {
        &self.skipped
    }

    /// The optional feature placements skipped for this map.
    pub fn feature_skips(&self) -> &[FeatureSkip] {
        &self.feature_skips
    }

    /// Where its staircases lead, for a level of a world ([`crate::World`]);
    /// empty for a map made on its own.
    pub fn exits(&self) -> &[Exit] {
        &self.exits
    }

    /// The compositions the furnishing stage drew and the limits it hit.
    pub fn furnishing_summary(&self) -> &FurnishingSummary {
        &self.furnishing
    }

    /// The decisions that made this map.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Adds an object, marking its cells solid when it blocks walkers.
    pub(crate) fn add_object(&mut self, object: Object) {
        if object.blocks() {
            for &(p, _) in &object.cells {
                if let Some(m) = self.masks.get_mut(p) {
                    *m |= mask::SOLID;
                }
            }
        }
        self.objects.push(object);
    }

    /// Adds a region and returns its id.
    pub(crate) fn add_region(&mut self, kind: RegionKind, bounds: Rect) -> RegionId {
        let id = self.regions.len() as RegionId;
        self.regions.push(Region {
            id,
            kind,
            laid_out_as: kind,
            bounds,
            doors: self.pools.doors(),
            openings: Vec::new(),
            area: 0,
            prefab: None,
            centre: None,
        });
        id
    }
}
