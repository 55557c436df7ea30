//! What the layout stage made, for traces and statistics: [`LayoutStats`] and
//! each generator's own figures ([`ChainStats`], [`PathwaysStats`],
//! [`CaveStats`]; the tunnelers' are fields of [`LayoutStats`]).
//!
//! In: what a generator counts while it digs. Out: plain figures, stored in the
//! map and written with it. They live here, below `layout`, because [`super::Map`]
//! holds them and `map` sits below `layout`: a type the map stores cannot live
//! in a generator's folder without the map importing upward. Later stages never
//! read them.

/// A layout generator's name. (Spelled through an alias so serde's derive reads
/// it with `generator_name` instead of borrowing from the input.)
type GeneratorName = &'static str;

/// What the layout stage made, for traces and statistics. Later stages never read
/// it: they work on regions, whichever generator made them.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutStats {
    /// The generator that made the layout: `tunnelers`, `chain`, `pathways` or `caves`.
    #[cfg_attr(feature = "serde", serde(deserialize_with = "generator_name"))]
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

/// The layout generators' names, as [`LayoutStats::generator`] holds them
/// (`LayoutGenerator::NAMES`, which this floor cannot see; a test keeps them equal).
#[cfg(feature = "serde")]
const GENERATOR_NAMES: [&str; 4] = ["tunnelers", "chain", "pathways", "caves"];

/// Reads [`LayoutStats::generator`]: one of the generators' names, or none.
#[cfg(feature = "serde")]
fn generator_name<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<&'static str, D::Error> {
    let name = <String as serde::Deserialize>::deserialize(deserializer)?;
    if name.is_empty() {
        return Ok("");
    }
    GENERATOR_NAMES.into_iter().find(|known| *known == name).ok_or_else(|| {
        serde::de::Error::custom(format!("`{name}` is not a layout generator: one of {}", GENERATOR_NAMES.join(", ")))
    })
}

#[cfg(test)]
mod tests {
    #[cfg(feature = "serde")]
    #[test]
    fn the_generator_names_are_the_layouts() {
        assert_eq!(super::GENERATOR_NAMES, crate::content::maptype::LayoutGenerator::NAMES);
    }
}
