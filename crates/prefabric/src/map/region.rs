//! Regions: the areas a generation made (rooms, halls, corridors, junctions,
//! caverns, passages, prefab interiors) and their doors.
//!
//! In: what a generator or stage records. Out: [`Region`] with its
//! [`RegionKind`], bounds, area and [`Door`]s. Guarantees: nothing beyond plain
//! data; the region contract in ARCHITECTURE.md says what generators promise.

use crate::geom::{Dir, Point, Rect};

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
    /// The region on its other side (see [`Map::neighbours`](super::Map::neighbours)), named once the
    /// map is finished (the `link` stage, before validation); `None` for a door
    /// that leads nowhere a walker can step, such as a doorway cell a room an
    /// encounter filled took into itself.
    pub to: Option<RegionId>,
}

/// Index of a region in [`Map::regions`](super::Map::regions).
pub type RegionId = u32;

/// An area a stage made: its kind, bounds, doors and size.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Its index in [`Map::regions`](super::Map::regions).
    pub id: RegionId,
    /// What kind of area.
    pub kind: RegionKind,
    /// The kind the layout gave it. Later stages may change `kind`: a room or
    /// hall an encounter fills becomes a [`RegionKind::Prefab`], and this still
    /// says which it was.
    pub laid_out_as: RegionKind,
    /// The smallest rectangle holding its cells, but for the door cells of its
    /// wall line that belong to it (see [`Map::region_at`](super::Map::region_at)) and lie just
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
    /// How many cells belong to it (see [`Map::region_at`](super::Map::region_at)).
    pub area: u32,
    /// For [`RegionKind::Prefab`], the index of the prefab in [`Map::prefabs`](super::Map::prefabs).
    pub prefab: Option<usize>,
    /// For a cavern, its most central cell: the one farthest from any wall.
    pub centre: Option<Point>,
}
