//! Placed prefabs and their links: which prefab lies where, placed by which
//! stage, as which encounter, and the link marks it brought onto the map.
//!
//! In: what the features, layout and encounters stages place. Out:
//! [`PlacedPrefab`], [`EncounterTag`], [`PlacedLink`] and their kinds. Plain
//! data; indices name entries of the map's lists.

use super::region::RegionId;
use crate::geom::{Dir, Point, Rect, Transform};
use crate::vocab::{Category, Style};

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
    /// Index of the prefab in [`Map::prefabs`](super::Map::prefabs).
    pub prefab: usize,
}
