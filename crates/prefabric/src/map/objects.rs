//! Objects: the things placed on a map (machines, entities, items, props,
//! traps, debris), which step of furnishing placed them, object-only
//! encounters, and what the furnishing stage did per area.
//!
//! In: what the objects, encounters and furnishing stages place. Out:
//! [`Object`] with its [`ObjectKind`], [`DefinitionUse`] and [`Furnished`];
//! [`ObjectEncounter`]; [`FurnishingSummary`]. Plain data; indices name entries
//! of the map's lists.

use super::region::RegionId;
use crate::geom::Point;
use crate::vocab::{Category, Composition};
use std::sync::Arc;

/// A furnishing limit's name, as map types write it (spelled through an alias
/// so serde's derive reads it with `limit_names` instead of
/// borrowing from the input).
type LimitName = &'static str;

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
    /// The placed prefab (index into [`Map::prefabs`](super::Map::prefabs)) it belongs to, if any.
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
    /// Its objects: indices into [`Map::objects`](super::Map::objects).
    pub objects: Vec<usize>,
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
    #[cfg_attr(feature = "serde", serde(deserialize_with = "limit_names"))]
    pub limits_hit: Vec<LimitName>,
}

/// The per-map furnishing limits `stage/furnish` records in
/// [`FurnishingSummary::limits_hit`].
#[cfg(feature = "serde")]
const LIMIT_NAMES: [&str; 2] = ["max_interactive", "max_stockpiles"];

/// Reads [`FurnishingSummary::limits_hit`]: names of per-map limits.
#[cfg(feature = "serde")]
fn limit_names<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<&'static str>, D::Error> {
    let names = <Vec<String> as serde::Deserialize>::deserialize(deserializer)?;
    names
        .iter()
        .map(|name| {
            LIMIT_NAMES.into_iter().find(|known| known == name).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "`{name}` is not a furnishing limit: one of {}",
                    LIMIT_NAMES.join(", ")
                ))
            })
        })
        .collect()
}
