//! What an encounter pool is made of: the [`Encounter`]s with their limits,
//! door changes and objects, the pool a map type draws from, and the shapes
//! of the TOML tables they are read from.
//!
//! In: nothing — these are the types the reader fills in and the encounters
//! stage reads. Out: the encounter, its pool and its limits. Guarantees: a
//! door limit shows as it is written (`2`, `1-3`, `2+`).

use crate::content::catalog::{Catalog, Kind};
use crate::content::index::PrefabIndex;
use crate::content::values::{DepthRanges, WeightFile, WeightWords};
use crate::error::Location;
use crate::format::def::DefLine;
use crate::vocab::{Category, Style};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use toml::Spanned;

/// What embedding does to the room's door.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DoorChange {
    /// Leave it.
    Keep,
    /// Remove the door, leaving an open entryway.
    Open,
    /// Remove the door and the whole front wall (what the cubby style does).
    Front,
    /// Turn the doorway into secret doors, which look like wall until found
    /// (a hidden room holding a reward).
    Secret,
}

/// How many doors a room must have for an encounter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DoorLimit {
    /// Fewest doors.
    pub min: u32,
    /// Most doors.
    pub max: u32,
}

impl DoorLimit {
    /// True when a room with `doors` doors qualifies.
    pub fn allows(&self, doors: u32) -> bool {
        (self.min..=self.max).contains(&doors)
    }
}

impl fmt::Display for DoorLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (a, b) if a == b => write!(f, "exactly {a} door{}", if a == 1 { "" } else { "s" }),
            (1, u32::MAX) => f.write_str("any number of doors"),
            (1, b) => write!(f, "at most {b} doors"),
            (a, b) => write!(f, "{a} to {b} doors"),
        }
    }
}

/// One validated encounter of a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encounter {
    /// Its id: unique in the map type, and what world counts are kept under.
    pub id: String,
    /// The weight word as written.
    pub weight_word: String,
    /// The number the word stands for.
    pub weight: u32,
    /// What it is for the player.
    pub category: Category,
    /// How its prefabs are embedded: enclosed, cubby or accessible in rooms;
    /// centered in or embedded beside caverns.
    pub style: Style,
    /// Alternative prefabs (the first that fits a room is not preferred: one of
    /// those that fit is drawn); empty for an object-only encounter.
    pub prefabs: Vec<String>,
    /// What an object-only encounter (no prefab: seed 000's "random" encounters)
    /// scatters over the free floor of a room, hall or cavern; empty otherwise.
    pub objects: Vec<EncounterObject>,
    /// Depths it may appear at, as inclusive ranges (none: every depth).
    pub depth: DepthRanges,
    /// Most times in one map.
    pub max_per_map: Option<u32>,
    /// Most times in one world.
    pub max_per_world: Option<u32>,
    /// Exclusion group: once one member is placed, the others are out for the map.
    pub group: Option<String>,
    /// World group: its members' placements count together against each
    /// member's `max_per_world` (one of the group per world, with 1).
    pub world_group: Option<String>,
    /// Doors the room must have (rooms only: caverns have no doors).
    pub doors: DoorLimit,
    /// Fewest cells the room or cavern must have (0: any).
    pub min_area: u32,
    /// Enclosed and cubby: shrink the room to the prefab and rebuild its walls.
    pub resize: bool,
    /// What happens to the room's door.
    pub door: DoorChange,
    /// Widen the door to this many cells (1 leaves it as it is).
    pub door_width: u8,
    /// Where it is written.
    pub location: Location,
}

/// One line of an object-only encounter's `objects`: a definition line without
/// a reference character, and how many objects it places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterObject {
    /// The line as written (alternatives, keywords, chance), checked against the
    /// catalog at the encounter's depths.
    pub line: DefLine,
    /// Its kind.
    pub kind: Kind,
    /// How many it places, drawn from this inclusive range.
    pub count: (u32, u32),
    /// Where it is written.
    pub location: Location,
}

/// The encounters of a map type and how many to place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterPool {
    /// How many encounters to place per map, drawn from this range (`[0, 0]` turns
    /// them off).
    pub count: (u32, u32),
    /// The encounters, in file order.
    pub pool: Vec<Encounter>,
}

// ---- the file as written ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PoolFile {
    pub(super) count: Spanned<CountFile>,
    #[serde(default)]
    pub(super) include: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) pool: Vec<Spanned<EncounterFile>>,
}

/// A shared pool file, `encounters/<name>.toml`, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SharedPoolFile {
    /// What the pool is for, in a sentence (for the designer; not used).
    #[serde(default)]
    #[allow(dead_code)]
    pub(super) description: String,
    #[serde(default)]
    pub(super) pool: Vec<Spanned<EncounterFile>>,
}

/// The pack's shared encounter pools, read and checked once.
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedPools {
    /// Pools that loaded, by name (the file's stem), in file order.
    pub loaded: BTreeMap<String, Vec<Encounter>>,
    /// Pools whose file did not load: including one reports nothing more.
    pub broken: BTreeSet<String>,
}

/// What reading a pool checks against: the pack's parts loaded before map types.
pub(crate) struct PoolContext<'a, 'p> {
    /// The pack's weight words.
    pub words: &'a WeightWords,
    /// The pack's prefabs.
    pub prefabs: &'a PrefabIndex<'p>,
    /// The shared pools a map type may include.
    pub shared: &'a SharedPools,
    /// Most encounters one pool may hold.
    pub max_encounters: u32,
    /// The catalog object-only encounters pick from, when it loaded.
    pub catalog: Option<&'a Catalog>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EncounterFile {
    pub(super) id: Spanned<String>,
    pub(super) weight: Spanned<WeightFile>,
    pub(super) category: Spanned<String>,
    #[serde(default)]
    pub(super) prefabs: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    pub(super) objects: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub(super) style: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) depth: DepthRanges,
    #[serde(default)]
    pub(super) max_per_map: Option<Spanned<u32>>,
    #[serde(default)]
    pub(super) max_per_world: Option<Spanned<u32>>,
    #[serde(default)]
    pub(super) group: Option<String>,
    #[serde(default)]
    pub(super) world_group: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) doors: Option<Spanned<u32>>,
    #[serde(default)]
    pub(super) max_doors: Option<Spanned<u32>>,
    #[serde(default)]
    pub(super) min_area: Option<Spanned<u32>>,
    #[serde(default)]
    pub(super) resize: Option<Spanned<bool>>,
    #[serde(default)]
    pub(super) door: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) door_width: Option<Spanned<u8>>,
}

/// `count = 5` or `count = [lo, hi]`.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum CountFile {
    One(u32),
    Two([u32; 2]),
}

/// Most encounters a map type may ask for.
pub(super) const MAX_COUNT: u32 = 1000;
