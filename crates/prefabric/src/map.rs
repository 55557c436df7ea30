//! The map: terrain, masks, regions, placed prefabs and their links.
//!
//! A [`Map`] is what a generation produces and what every stage works on. Each cell
//! has a [`Terrain`] (a [`Role`] the generators understand plus a 0–9 variant for
//! the theme), a region id, and mask bits (protected, spawn-blocked, solid under a
//! machine). Regions are the rooms, halls, corridors, junctions and prefab
//! interiors the stages made, each with its bounds and doors; later stages work on
//! regions, never on a generator's internals.

use crate::geom::{Dir, Moves, Point, Rect, Transform};
use crate::grid::Grid;
use crate::trace::Trace;
use std::fmt;
use std::sync::Arc;

pub use exits::{Exit, ExitWay};

mod exits;
mod graph;
#[cfg(feature = "serde")]
mod serde_map;

/// The kinds of floor a generator lays, after Cogmind's cell types.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FloorKind {
    /// Inside a room.
    Room,
    /// Inside a hall (a large open room).
    Hall,
    /// A tunnel.
    Corridor,
    /// Where tunnels turn or branch.
    Junction,
    /// An open cave area.
    Cave,
}

/// What a cell is, as far as generators care.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Solid rock that tunnels may dig through.
    Earth,
    /// Solid rock that nothing digs (Cogmind's BLOCKED).
    Blocked,
    /// A wall beside open space.
    Wall,
    /// Walkable floor of some kind.
    Floor(FloorKind),
    /// A door.
    Door,
    /// A door that looks like wall until found.
    SecretDoor,
    /// Stairs leading up (the way in).
    StairsUp,
    /// Stairs leading down (the way on).
    StairsDown,
    /// Deep liquid: water, lava, sludge (its variants, named by the palette).
    /// Nothing walks or digs through it, but it is open to sight, so no wall is
    /// raised around it: a pool, a moat, a flooded shaft.
    Liquid,
    /// General stairs, drawn in prefabs only: a staircase whose direction is
    /// not fixed, or that may not be needed. After the encounters each becomes
    /// stairs up, stairs down or floor, as the map type's `stairs` count says.
    Stairs,
}

impl Role {
    /// Every role, in a fixed order (see [`Role::index`]).
    pub const ALL: [Role; 14] = [
        Role::Earth,
        Role::Blocked,
        Role::Wall,
        Role::Floor(FloorKind::Room),
        Role::Floor(FloorKind::Hall),
        Role::Floor(FloorKind::Corridor),
        Role::Floor(FloorKind::Junction),
        Role::Floor(FloorKind::Cave),
        Role::Door,
        Role::SecretDoor,
        Role::StairsUp,
        Role::StairsDown,
        Role::Liquid,
        Role::Stairs,
    ];

    /// Position in [`Role::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Role::Earth => 0,
            Role::Blocked => 1,
            Role::Wall => 2,
            Role::Floor(FloorKind::Room) => 3,
            Role::Floor(FloorKind::Hall) => 4,
            Role::Floor(FloorKind::Corridor) => 5,
            Role::Floor(FloorKind::Junction) => 6,
            Role::Floor(FloorKind::Cave) => 7,
            Role::Door => 8,
            Role::SecretDoor => 9,
            Role::StairsUp => 10,
            Role::StairsDown => 11,
            Role::Liquid => 12,
            Role::Stairs => 13,
        }
    }

    /// The name used in palettes and JSON: `earth`, `blocked`, `wall`, `room`,
    /// `hall`, `corridor`, `junction`, `cave`, `door`, `secret_door`, `stairs_up`,
    /// `stairs_down`, `liquid`, `stairs`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Earth => "earth",
            Role::Blocked => "blocked",
            Role::Wall => "wall",
            Role::Floor(FloorKind::Room) => "room",
            Role::Floor(FloorKind::Hall) => "hall",
            Role::Floor(FloorKind::Corridor) => "corridor",
            Role::Floor(FloorKind::Junction) => "junction",
            Role::Floor(FloorKind::Cave) => "cave",
            Role::Door => "door",
            Role::SecretDoor => "secret_door",
            Role::StairsUp => "stairs_up",
            Role::StairsDown => "stairs_down",
            Role::Liquid => "liquid",
            Role::Stairs => "stairs",
        }
    }

    /// Parses a name written by [`Role::name`].
    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name)
    }

    /// True where a walker can stand: floors, doors (secret ones too) and stairs.
    pub const fn is_walkable(self) -> bool {
        !matches!(self, Role::Earth | Role::Blocked | Role::Wall | Role::Liquid)
    }
}

/// A cell's terrain: its role and a 0–9 variant (a theme's floor or wall style).
///
/// Stored as one byte, the role's [`Role::index`] in the high four bits and the
/// variant in the low four, so a map's terrain grid is one byte a cell: the
/// passes over every cell (walls to style, floor to furnish, cells to connect)
/// then compare sixteen cells at a time, where a two-byte cell holding a
/// [`Role`] had to be read a byte at a time. Terrains order by role, then
/// variant, as the role and variant themselves do.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(into = "TerrainParts", try_from = "TerrainParts"))]
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Terrain(u8);

/// A terrain as serde writes it: its role and variant, not the packed byte.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct TerrainParts {
    role: Role,
    variant: u8,
}

#[cfg(feature = "serde")]
impl From<Terrain> for TerrainParts {
    fn from(t: Terrain) -> TerrainParts {
        TerrainParts { role: t.role(), variant: t.variant() }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<TerrainParts> for Terrain {
    type Error = String;

    fn try_from(parts: TerrainParts) -> Result<Terrain, String> {
        if parts.variant > 9 {
            return Err(format!("terrain variant {} is not 0-9", parts.variant));
        }
        Ok(Terrain::with_variant(parts.role, parts.variant))
    }
}

impl Terrain {
    /// Plain diggable earth, what every map starts as.
    pub const EARTH: Terrain = Terrain::new(Role::Earth);

    /// Variant 0 of a role.
    pub const fn new(role: Role) -> Terrain {
        Terrain::with_variant(role, 0)
    }

    /// A role with a variant (clamped to 9).
    pub const fn with_variant(role: Role, variant: u8) -> Terrain {
        Terrain(((role.index() as u8) << 4) | if variant > 9 { 9 } else { variant })
    }

    /// Variant 0 of a floor kind.
    pub const fn floor(kind: FloorKind) -> Terrain {
        Terrain::new(Role::Floor(kind))
    }

    /// What the cell is.
    #[inline]
    pub const fn role(self) -> Role {
        ROLE_OF_CODE[(self.0 >> 4) as usize]
    }

    /// Its role's [`Role::index`], read straight from the byte: what
    /// `t.role().index()` gives, for loops over every cell of a map.
    #[inline]
    pub const fn role_index(self) -> usize {
        (self.0 >> 4) as usize
    }

    /// Which style of it, 0–9; 0 is the plain one.
    #[inline]
    pub const fn variant(self) -> u8 {
        self.0 & 0x0f
    }

    /// True when this is `role`, of any variant: `t.role() == role` without
    /// decoding the role.
    #[inline]
    pub const fn is(self, role: Role) -> bool {
        self.0 & 0xf0 == Terrain::role_bits(role)
    }

    /// True for floor of any kind: `matches!(t.role(), Role::Floor(_))`.
    #[inline]
    pub const fn is_floor(self) -> bool {
        // The five floor kinds are the roles 3 to 7 in [`Role::ALL`].
        self.0.wrapping_sub(Terrain::role_bits(Role::Floor(FloorKind::Room))) < 5 << 4
    }

    /// True on a door, secret or not.
    #[inline]
    pub const fn is_door(self) -> bool {
        // Doors and secret doors are the roles 8 and 9 in [`Role::ALL`].
        self.0.wrapping_sub(Terrain::role_bits(Role::Door)) < 2 << 4
    }

    /// True on stairs of any of the three roles: up, down, or not yet decided.
    #[inline]
    pub(crate) const fn is_stairs(self) -> bool {
        self.is(Role::StairsUp) || self.is(Role::StairsDown) || self.is(Role::Stairs)
    }

    /// True where a walker can stand ([`Role::is_walkable`]), read off the
    /// byte: every role from the first floor on but liquid.
    #[inline]
    pub const fn is_walkable(self) -> bool {
        self.0 >= Terrain::role_bits(Role::Floor(FloorKind::Room)) && !self.is(Role::Liquid)
    }

    /// The high four bits of the byte of every variant of `role`.
    #[inline]
    pub(crate) const fn role_bits(role: Role) -> u8 {
        (role.index() as u8) << 4
    }
}

/// The role of each value of a terrain byte's high four bits: [`Role::ALL`], and
/// earth for the two values no terrain is made with (so a look-up needs no
/// bounds check).
const ROLE_OF_CODE: [Role; 16] = {
    let mut table = [Role::Earth; 16];
    let mut i = 0;
    while i < Role::ALL.len() {
        table[i] = Role::ALL[i];
        i += 1;
    }
    table
};

impl fmt::Debug for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Terrain").field("role", &self.role()).field("variant", &self.variant()).finish()
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.variant() {
            0 => f.write_str(self.role().name()),
            v => write!(f, "{}:{}", self.role().name(), v),
        }
    }
}

/// What kind of area a region is.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RegionKind {
    /// A room beside a corridor, entered through doors.
    Room,
    /// A large open room.
    Hall,
    /// A straight run of tunnel.
    Corridor,
    /// Where tunnels turn or branch.
    Junction,
    /// An open cave area of any shape: a cavern (with its [`Region::centre`]),
    /// or an overlay room that cut into others.
    Cave,
    /// A narrow cave passage between caverns, of any shape.
    Passage,
    /// The open cells of a placed prefab.
    Prefab,
}

impl RegionKind {
    /// Lower-case name, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            RegionKind::Room => "room",
            RegionKind::Hall => "hall",
            RegionKind::Corridor => "corridor",
            RegionKind::Junction => "junction",
            RegionKind::Cave => "cave",
            RegionKind::Passage => "passage",
            RegionKind::Prefab => "prefab",
        }
    }
}

/// A way into a region: a door cell, an opening in its wall, or (in
/// [`Region::openings`]) a cell where it meets another region with no door.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Door {
    /// The door cell (on the region's wall line); for an opening, the first
    /// cell of the region beyond.
    pub at: Point,
    /// Which side of the region it is on.
    pub side: Dir,
    /// The region on its other side (see [`Map::neighbours`]), named once the
    /// map is finished (the `link` stage, before validation); `None` for a door
    /// that leads nowhere a walker can step, such as a doorway cell a room an
    /// encounter filled took into itself.
    pub to: Option<RegionId>,
}

/// Index of a region in [`Map::regions`].
pub type RegionId = u32;

/// An area a stage made: its kind, bounds, doors and size.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Its index in [`Map::regions`].
    pub id: RegionId,
    /// What kind of area.
    pub kind: RegionKind,
    /// The kind the layout gave it. Later stages may change `kind`: a room or
    /// hall an encounter fills becomes a [`RegionKind::Prefab`], and this still
    /// says which it was.
    pub laid_out_as: RegionKind,
    /// The smallest rectangle holding its cells, but for the door cells of its
    /// wall line that belong to it (see [`Map::region_at`]) and lie just
    /// outside. For rooms, halls, corridors and
    /// junctions every cell of the rectangle is open: floor, or a pool of liquid a
    /// map type's theme laid, or in a corridor a column: a lone wall cell whose 8
    /// neighbours are all open, belonging to no region.
    pub bounds: Rect,
    /// Its doors and openings, as the stage that made it recorded them: door
    /// cells, doorways, connectors and link marks.
    pub doors: Vec<Door>,
    /// Where a walker can step straight into another region with no door of
    /// this one recorded there: a corridor meeting a junction or a room, a
    /// cavern opening into a passage, two rooms that abut. Each is the first
    /// cell of the region beyond, at the middle of the opening; with
    /// [`Region::doors`], every way out of the region.
    pub openings: Vec<Door>,
    /// How many cells belong to it (see [`Map::region_at`]).
    pub area: u32,
    /// For [`RegionKind::Prefab`], the index of the prefab in [`Map::prefabs`].
    pub prefab: Option<usize>,
    /// For a cavern, its most central cell: the one farthest from any wall.
    pub centre: Option<Point>,
}

/// The stage that placed a prefab.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// Placed before the layout (seeding).
    Feature,
    /// Placed by the layout generator as part of the layout (chained prefabs).
    Layout,
    /// Embedded into a room after the layout, as an encounter.
    Encounter,
}

impl Stage {
    /// Lower-case name, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Feature => "feature",
            Stage::Layout => "layout",
            Stage::Encounter => "encounter",
        }
    }
}

/// A layout generator's name. (Spelled through an alias so serde's derive reads
/// it with `serde_map::generator_name` instead of borrowing from the input.)
type GeneratorName = &'static str;

/// A furnishing limit's name, as map types write it (spelled through an alias
/// for the same reason).
type LimitName = &'static str;

/// What the layout stage made, for traces and statistics. Later stages never read
/// it: they work on regions, whichever generator made them.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutStats {
    /// The generator that made the layout: `tunnelers`, `chain`, `pathways` or `caves`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "serde_map::generator_name"))]
    pub generator: GeneratorName,
    /// Tunnelers that ran, children and fillers included.
    pub tunnelers: u32,
    /// Steps they took.
    pub steps: u32,
    /// Tunnelers that died of old age.
    pub died_of_age: u32,
    /// Tunnelers that stopped because nothing around them could be dug.
    pub boxed_in: u32,
    /// Tunnelers that stopped by digging into open space.
    pub joins: u32,
    /// Tunnelers: the most rows of rock one dug through to join its own network
    /// by chance (kept within `join_distance`).
    pub longest_chance_join: u32,
    /// Corridors dug to join networks the generator left apart.
    pub fallback_paths: u32,
    /// Tunnelers: rooms entered through an anteroom.
    pub anterooms: u32,
    /// Tunnelers: halls opened by last-chance tunnelers in space left untouched.
    pub last_chance_halls: u32,
    /// Tunnelers: rooms grown by a row to share a wall with their neighbour.
    pub rooms_grown: u32,
    /// Tunnelers: columns raised in wide corridors.
    pub columns: u32,
    /// Tunnelers: corridors that hold columns.
    pub colonnades: u32,
    /// Walkable cells at the end.
    pub open_cells: u32,
    /// What the chain generator placed, when it made the layout.
    pub chain: Option<ChainStats>,
    /// What the pathways generator placed, when it made the layout.
    pub pathways: Option<PathwaysStats>,
    /// What the cave generator made, when it made the layout.
    pub caves: Option<CaveStats>,
}

/// What the cave generator did (seeds 000, 001).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaveStats {
    /// Separate open areas the cellular automaton left, before pockets were
    /// removed and the rest joined.
    pub caverns_before_joining: u32,
    /// Pockets smaller than the map type's `min_pocket`, filled in.
    pub pockets_removed: u32,
    /// Passages dug to join what was left apart.
    pub joins: u32,
    /// Cavern regions at the end.
    pub caverns: u32,
    /// Passage regions at the end.
    pub passages: u32,
    /// The length of the direct passage dug from each feature link to the cave.
    pub link_lengths: Vec<u32>,
    /// Cave floor cells at the end (features' floor not counted).
    pub floor: u32,
}

/// What the pathways generator did (seed 004).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathwaysStats {
    /// Rooms placed, the first one included.
    pub rooms: u32,
    /// How many the map type asked for.
    pub target: u32,
    /// Hallway prefabs placed.
    pub hallway_prefabs: u32,
    /// Tries to place a room or hallway prefab.
    pub tries: u32,
    /// Tries whose place overlapped a room, its padding or the map's margin.
    pub misfits: u32,
    /// Tries placed and then rolled back: no path joined them, or they cut a
    /// hallway something depended on.
    pub rollbacks: u32,
    /// True when a room's tries all failed before the room count was reached.
    pub timed_out: bool,
    /// The length of every hallway dug, in the order dug (cells newly dug, up to
    /// where it merged).
    pub hallway_lengths: Vec<u32>,
    /// Hallways that stopped at another hallway rather than at a doorway.
    pub merges: u32,
    /// Second connections made.
    pub secondary: u32,
    /// Second connections forced by a long hallway.
    pub forced: u32,
    /// Loops made: second connections, and the doorways beyond the first that
    /// a room dropped over hallways opened onto them (rooms rolled back not
    /// counted).
    pub loops: u32,
    /// Rooms with two or more doorways opened: by their own second connection,
    /// or by a later room's hallway ending at one of their doorways.
    pub rooms_with_second: u32,
    /// Doorways of dead-end rooms made secret doors.
    pub secret_doors: u32,
    /// Path search nodes expanded, over all searches.
    pub search_nodes: u64,
}

/// What the chain generator did (seed 002).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChainStats {
    /// Prefabs placed, the start and auto-rooms included.
    pub placed: u32,
    /// How many the map type asked for.
    pub target: u32,
    /// Tries taken.
    pub tries: u32,
    /// Tries scrapped because no hallway length fitted the chosen prefab.
    pub scrapped: u32,
    /// True when the attempt budget ran out before the target was reached.
    pub timed_out: bool,
    /// The length of every hallway that joined a prefab, in placement order.
    pub hallway_lengths: Vec<u32>,
    /// Extra connections: connectors flanked by floor that were opened.
    pub flanked: u32,
    /// Extra connections: straight hallways between facing connectors.
    pub facing: u32,
    /// Extra connections: L-shaped hallways between perpendicular connectors.
    pub corner: u32,
    /// Overlay rooms placed.
    pub overlays: u32,
}

/// What an encounter is for the player (seed 000's categories).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Atmosphere: harmless scenery and stories.
    Fluff,
    /// A gamble: something gained at some danger.
    RiskReward,
    /// A threat.
    Danger,
    /// Something to gain.
    Reward,
}

impl Category {
    /// Every category.
    pub const ALL: [Category; 4] = [Category::Fluff, Category::RiskReward, Category::Danger, Category::Reward];

    /// The name as written in map types and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Category::Fluff => "fluff",
            Category::RiskReward => "risk-reward",
            Category::Danger => "danger",
            Category::Reward => "reward",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.name() == s)
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a prefab is meant to be placed (seed 000).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Style {
    /// Placed by the features stage before the layout (seeding).
    Feature,
    /// Fills a room, its bottom edge facing the room's door; the room shrinks to fit.
    Enclosed,
    /// Sits anywhere inside a room, all edges open.
    Accessible,
    /// Like enclosed, with the door and the whole front wall removed.
    Cubby,
    /// Stands free at the most central point of a cavern, the cave carved
    /// around it (geometric centering, seeds 000 and 001).
    Centered,
    /// Sunk into the rock beside a cavern, only its bottom edge (and link
    /// marks) opening onto the cave (wall embedding, seeds 000 and 001).
    Embedded,
}

impl Style {
    const ALL: [Style; 6] =
        [Style::Feature, Style::Enclosed, Style::Accessible, Style::Cubby, Style::Centered, Style::Embedded];

    /// Lower-case name as written in headers.
    pub const fn name(self) -> &'static str {
        match self {
            Style::Feature => "feature",
            Style::Enclosed => "enclosed",
            Style::Accessible => "accessible",
            Style::Cubby => "cubby",
            Style::Centered => "centered",
            Style::Embedded => "embedded",
        }
    }

    /// Every style's name, comma-separated, for help texts.
    pub fn names() -> String {
        Style::ALL.map(Style::name).join(", ")
    }

    /// True for the styles embedded in a room (enclosed, accessible, cubby),
    /// whose `?` cells keep the room's floor; a feature's or a cave prefab's keep
    /// whatever ground the map had, which may be solid.
    pub const fn dont_care_is_floor(self) -> bool {
        matches!(self, Style::Enclosed | Style::Accessible | Style::Cubby)
    }

    /// True for the styles that join a cave's caverns rather than a room.
    pub const fn joins_caverns(self) -> bool {
        matches!(self, Style::Centered | Style::Embedded)
    }

    /// Parses a name written by [`Style::name`].
    pub fn parse(s: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|st| st.name() == s)
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A prefab as placed on the map.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedPrefab {
    /// The prefab's name in its pack.
    pub name: String,
    /// Which stage placed it.
    pub stage: Stage,
    /// Where it lies (after its transform).
    pub bounds: Rect,
    /// How it was turned and flipped.
    pub transform: Transform,
    /// The region holding its open cells, if it has any.
    pub region: Option<RegionId>,
    /// For an embedded encounter: which one, its category and its style.
    pub encounter: Option<EncounterTag>,
    /// For a prefab with variation lines: the seed of the outcome placed
    /// ([`crate::Prefab::variant`] gives it back); `None` for one without.
    pub variant: Option<u32>,
}

/// What an embedded prefab was placed as.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterTag {
    /// The encounter's id.
    pub id: String,
    /// Its category.
    pub category: Category,
    /// How it was embedded.
    pub style: Style,
}

/// What kind of thing an [`Object`] is.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ObjectKind {
    /// A machine: a prop of one or more cells drawn as line art, which blocks
    /// walkers — drawn on a prefab's machine layer (named by a `machine` line or
    /// not), placed by furnishing, or a catalog machine a definition line places.
    Machine,
    /// A robot or creature from the catalog.
    Entity,
    /// An item from the catalog.
    Item,
    /// A prop from the catalog.
    Prop,
    /// A trap from the catalog.
    Trap,
    /// Debris from the catalog.
    Debris,
}

impl ObjectKind {
    /// Lower-case name, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            ObjectKind::Machine => "machine",
            ObjectKind::Entity => "entity",
            ObjectKind::Item => "item",
            ObjectKind::Prop => "prop",
            ObjectKind::Trap => "trap",
            ObjectKind::Debris => "debris",
        }
    }
}

/// A thing placed on the map: a machine from a prefab's machine layer, an object a
/// prefab's reference character stands for (resolved through its definitions), or
/// a machine or item the furnishing stage placed.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    /// What it is.
    pub kind: ObjectKind,
    /// Its catalog tag; `None` for a machine drawn in a prefab that no `machine`
    /// line of its definition file names. Shared with the catalog's entry where
    /// it came from one (`as_deref()` reads it as a `&str`), so the hundreds of
    /// objects a map places copy no tag text.
    pub tag: Option<Arc<str>>,
    /// Its cells in map coordinates and the glyph drawn on each, in reading order.
    pub cells: Vec<(Point, char)>,
    /// The placed prefab (index into [`Map::prefabs`]) it belongs to, if any.
    pub prefab: Option<usize>,
    /// Game keywords from its definition, values picked: passed through untouched.
    pub keywords: Vec<(String, Option<String>)>,
    /// For an object the furnishing stage placed: which of its steps, and where.
    pub furnishing: Option<Furnished>,
    /// For an object a reference character stands for, or a drawn machine a
    /// `machine` line names: the definition line and alternative that picked it.
    pub definition: Option<DefinitionUse>,
}

/// Which definition line, and which of its alternatives, gave an object.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionUse {
    /// The definition file's name (its file name without `.def`).
    pub defs: String,
    /// The line: an index into the definition file's lines, as loaded (`Definitions::lines`).
    pub line: u32,
    /// The alternative the line picked: an index into its `picks`.
    pub alternative: u32,
}

impl Object {
    /// True when walkers cannot pass its cells: machines block, everything else
    /// (entities, items, props, traps, debris) stands on floor a walker may cross.
    pub fn blocks(&self) -> bool {
        self.kind == ObjectKind::Machine
    }
}

/// The step of the furnishing stage (seed 003) that placed an object.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FurnishPart {
    /// The interactive machine of a room's or hall's composition.
    Interactive,
    /// A member of a filler array of non-interactive machines.
    Filler,
    /// An item of a stockpile.
    Stockpile,
    /// A terminal in a busy junction.
    Terminal,
    /// A loose item anywhere on the floor.
    Item,
    /// Debris strewn along the walls.
    Debris,
}

impl FurnishPart {
    /// Lower-case name, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            FurnishPart::Interactive => "interactive",
            FurnishPart::Filler => "filler",
            FurnishPart::Stockpile => "stockpile",
            FurnishPart::Terminal => "terminal",
            FurnishPart::Item => "item",
            FurnishPart::Debris => "debris",
        }
    }
}

/// Where the furnishing stage placed an object, and as what.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Furnished {
    /// Which step placed it.
    pub part: FurnishPart,
    /// The region it stands in.
    pub region: Option<RegionId>,
    /// For stockpile items, the stockpile's number in the map (0, 1, ...), so a
    /// game can tell one pile from the next.
    pub pile: Option<u32>,
}

/// What a link mark asks for.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LinkKind {
    /// A tunneler of this width starts here (Cogmind's yellow number).
    Tunnel {
        /// Corridor width in cells, 1–9.
        width: u8,
    },
    /// A place the prefab may be joined to other space (Golden Krone's `*`).
    Connector,
}

impl LinkKind {
    /// The width of the tunnel that starts here: a connector starts a 1-wide one.
    pub const fn width(self) -> u8 {
        match self {
            LinkKind::Tunnel { width } => width,
            LinkKind::Connector => 1,
        }
    }
}

/// A link mark of a placed prefab, in map coordinates.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlacedLink {
    /// The mark's cell.
    pub at: Point,
    /// The way out of the prefab.
    pub dir: Dir,
    /// What starts here.
    pub kind: LinkKind,
    /// Index of the prefab in [`Map::prefabs`].
    pub prefab: usize,
}

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

/// Why an encounter left a map without being placed.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// Never eligible for this map: weight 0, outside its depths, or used up
    /// in the world.
    Ineligible,
    /// Placed as often as its per-map or per-world limit allows.
    Limit,
    /// Another encounter of its exclusion group was placed, or one of its world
    /// group used up the group's `max_per_world`.
    Excluded,
    /// No free room or cavern of the access or size it needs, or none where
    /// one of its prefabs fits (crowded, wrong doors, no rock to sink it into).
    NoPlace,
    /// Every room or cavern it was tried in was too small for each of its
    /// prefabs in every orientation.
    TooLarge,
}

impl SkipReason {
    /// Lower-case name, as in statistics.
    pub const fn name(self) -> &'static str {
        match self {
            SkipReason::Ineligible => "ineligible",
            SkipReason::Limit => "limit",
            SkipReason::Excluded => "excluded",
            SkipReason::NoPlace => "no-place",
            SkipReason::TooLarge => "too-large",
        }
    }
}

/// An encounter the encounters stage took out of the running for a map, and
/// why (the trace says the same in words).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterSkip {
    /// The encounter's id.
    pub id: String,
    /// Why.
    pub reason: SkipReason,
}

/// An object-only encounter placed in a map (seed 000's encounters without a
/// prefab): which, where, and the objects it scattered.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectEncounter {
    /// The encounter's id.
    pub id: String,
    /// What it is for the player.
    pub category: Category,
    /// The room, hall or cavern its objects are in.
    pub region: RegionId,
    /// Its objects: indices into [`Map::objects`].
    pub objects: Vec<usize>,
}

/// A feature placement the features stage skipped for a map (an optional
/// one that fit nowhere), and why (the trace says the same in words).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureSkip {
    /// The prefabs the placement chooses from.
    pub prefabs: Vec<String>,
    /// Why it was skipped, in words.
    pub reason: String,
}

/// What one room or hall is furnished with (seed 003's six compositions).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Composition {
    /// An interactive machine, a filler of non-interactive machines, and stockpiles.
    InteractiveMachinesStockpiles,
    /// An interactive machine and a filler of non-interactive machines.
    InteractiveMachines,
    /// A filler of non-interactive machines and stockpiles.
    MachinesStockpiles,
    /// A filler of non-interactive machines only.
    Machines,
    /// Stockpiles only.
    Stockpiles,
    /// Nothing.
    Empty,
}

impl Composition {
    /// All six, in the order weights are stored.
    pub const ALL: [Composition; 6] = [
        Composition::InteractiveMachinesStockpiles,
        Composition::InteractiveMachines,
        Composition::MachinesStockpiles,
        Composition::Machines,
        Composition::Stockpiles,
        Composition::Empty,
    ];

    /// The name written in map types and traces.
    pub const fn name(self) -> &'static str {
        match self {
            Composition::InteractiveMachinesStockpiles => "interactive_machines_stockpiles",
            Composition::InteractiveMachines => "interactive_machines",
            Composition::MachinesStockpiles => "machines_stockpiles",
            Composition::Machines => "machines",
            Composition::Stockpiles => "stockpiles",
            Composition::Empty => "empty",
        }
    }

    /// True when it has an interactive machine.
    pub const fn has_interactive(self) -> bool {
        matches!(self, Composition::InteractiveMachinesStockpiles | Composition::InteractiveMachines)
    }

    /// True when it has a filler of non-interactive machines.
    pub const fn has_machines(self) -> bool {
        matches!(
            self,
            Composition::InteractiveMachinesStockpiles
                | Composition::InteractiveMachines
                | Composition::MachinesStockpiles
                | Composition::Machines
        )
    }

    /// True when it has stockpiles.
    pub const fn has_stockpiles(self) -> bool {
        matches!(
            self,
            Composition::InteractiveMachinesStockpiles | Composition::MachinesStockpiles | Composition::Stockpiles
        )
    }

    pub(crate) fn parse(name: &str) -> Option<Composition> {
        Composition::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for Composition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the furnishing stage did with a map's areas, for statistics.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FurnishingSummary {
    /// Each area given a composition, in the order furnished: its region, the
    /// composition and how many objects it placed there.
    pub areas: Vec<(RegionId, Composition, u32)>,
    /// The per-map limits that turned a placement away (`max_interactive`,
    /// `max_stockpiles`), each once.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "serde_map::limit_names"))]
    pub limits_hit: Vec<LimitName>,
}

/// A staircase of a finished map ([`Map::stairs`]).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Staircase {
    /// [`Role::StairsUp`] (the way in) or [`Role::StairsDown`] (the way on).
    pub role: Role,
    /// Its cells, in reading order; never empty.
    pub cells: Vec<Point>,
    /// The region its first cell belongs to, if any.
    pub region: Option<RegionId>,
    /// The index in [`Map::prefabs`] of the placed prefab that drew it.
    pub prefab: Option<usize>,
}

/// Every stairs cell of a map with its role (variant 0), in reading order:
/// what [`Map::stairs_cells`] gathers once for the groups of each role.
pub(crate) struct StairsCells(Vec<(Point, Terrain)>);

impl StairsCells {
    /// The 4-connected groups of `role` cells, each in reading order, the
    /// groups in the reading order of their first cell.
    pub(crate) fn groups(&self, role: Role) -> Vec<Vec<Point>> {
        let cells: Vec<Point> = self.0.iter().filter(|(_, t)| t.is(role)).map(|&(p, _)| p).collect();
        let at = |p: Point| cells.binary_search_by_key(&(p.y, p.x), |q| (q.y, q.x)).ok();
        let mut seen = vec![false; cells.len()];
        let mut out = Vec::new();
        for start in 0..cells.len() {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut group = vec![cells[start]];
            let mut k = 0;
            while k < group.len() {
                let q = group[k];
                for d in Dir::ALL {
                    if let Some(j) = at(q + d.delta())
                        && !seen[j]
                    {
                        seen[j] = true;
                        group.push(cells[j]);
                    }
                }
                k += 1;
            }
            group.sort_by_key(|q| (q.y, q.x));
            out.push(group);
        }
        out
    }
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

/// What a finished map leaves for the next: its grids and its longest lists,
/// emptied but keeping their memory (see [`crate::Generator::recycle`]). A map
/// made from a spare is the same as one made without.
#[derive(Default)]
pub(crate) struct Spare {
    terrain: Grid<Terrain>,
    masks: Grid<u8>,
    region_of: Grid<u32>,
    regions: Vec<Region>,
    prefabs: Vec<PlacedPrefab>,
    objects: Vec<Object>,
    pools: Pools,
}

/// The lists a map's objects and regions held, emptied, for the next map to
/// fill instead of allocating its own: a materials map places hundreds of
/// machines and rooms, each with its own list of cells or doors, and a
/// generator handed its maps back ([`crate::Generator::recycle`]) serves them
/// from here. A map's own objects and regions own their lists as before.
#[derive(Default)]
pub(crate) struct Pools {
    /// Cell lists by capacity: class `c` holds those of `2^c` to `2^(c+1) - 1`
    /// cells (the last, any more), so a machine of nine cells takes a list
    /// with room for them rather than regrowing an item's list of one.
    cells: [Vec<Vec<(Point, char)>>; CELL_CLASSES],
    doors: Vec<Vec<Door>>,
}

/// Capacity classes of the cell lists kept.
const CELL_CLASSES: usize = 6;

/// Lists kept per kind at most: more than a map of any size here places.
const MAX_POOLED: usize = 4096;

impl Pools {
    /// An empty list for an object of `n` cells, with room for them when a
    /// kept list has it.
    pub(crate) fn cells(&mut self, n: usize) -> Vec<(Point, char)> {
        // The first class whose every list holds `n`: capacity 2^c >= n.
        let first = (n.max(1).next_power_of_two().trailing_zeros() as usize).min(CELL_CLASSES - 1);
        let mut cells = self.cells[first..].iter_mut().find_map(Vec::pop).unwrap_or_default();
        cells.reserve(n);
        cells
    }

    /// A list for an object's cells holding the one cell `p`, drawn `glyph`.
    pub(crate) fn one_cell(&mut self, p: Point, glyph: char) -> Vec<(Point, char)> {
        let mut cells = self.cells(1);
        cells.push((p, glyph));
        cells
    }

    /// An empty list for a region's doors.
    pub(crate) fn doors(&mut self) -> Vec<Door> {
        self.doors.pop().unwrap_or_default()
    }

    /// Keeps an object's cell list, emptied, in its capacity class.
    fn keep_cells(&mut self, cells: Vec<(Point, char)>) {
        let class = (cells.capacity().max(1).ilog2() as usize).min(CELL_CLASSES - 1);
        Pools::keep(&mut self.cells[class], cells);
    }

    fn keep<T>(pool: &mut Vec<Vec<T>>, mut list: Vec<T>) {
        if list.capacity() > 0 && pool.len() < MAX_POOLED {
            list.clear();
            pool.push(list);
        }
    }
}

/// A copy of a map starts with no lists to reuse.
impl Clone for Pools {
    fn clone(&self) -> Pools {
        Pools::default()
    }
}

impl std::fmt::Debug for Pools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cells: usize = self.cells.iter().map(Vec::len).sum();
        write!(f, "Pools {{ {cells} cell lists, {} door lists }}", self.doors.len())
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every role with every variant comes back whole from its one byte, and
    /// the predicates that read the byte agree with the role they stand for.
    #[test]
    fn a_terrain_byte_keeps_its_role_and_variant() {
        for role in Role::ALL {
            for variant in 0..=9 {
                let t = Terrain::with_variant(role, variant);
                assert_eq!((t.role(), t.variant()), (role, variant));
                assert_eq!(t.is_walkable(), role.is_walkable(), "{t}");
                assert_eq!(t.is_floor(), matches!(role, Role::Floor(_)), "{t}");
                assert_eq!(t.is_door(), matches!(role, Role::Door | Role::SecretDoor), "{t}");
                for other in Role::ALL {
                    assert_eq!(t.is(other), role == other, "{t} is {other:?}");
                }
            }
        }
        assert_eq!(Terrain::with_variant(Role::Wall, 12).variant(), 9, "variants clamp to 9");
    }

    /// Terrains order as their roles, then variants, do.
    #[test]
    fn terrains_order_by_role_then_variant() {
        let all: Vec<Terrain> =
            Role::ALL.iter().flat_map(|&r| (0..=9).map(move |v| Terrain::with_variant(r, v))).collect();
        for pair in all.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert_eq!(a.cmp(&b), (a.role(), a.variant()).cmp(&(b.role(), b.variant())), "{a} against {b}");
        }
    }
}
