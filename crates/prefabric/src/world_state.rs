//! World state: what must persist from one level to the next.
//!
//! A [`WorldState`] counts how often each encounter has been placed in the levels
//! generated so far, so an encounter limited to one per world (a unique NPC, a
//! named vault) appears once in a whole run, and how often each world group
//! (encounters counted together, such as three drawings of one unique vault)
//! has been placed. [`Generator::generate_in`] takes a
//! world and returns the world after the new level; [`WorldState::to_json`] and
//! [`WorldState::from_json`] keep it between runs. Counts are kept in a sorted map, so
//! the same levels give the same bytes.
//!
//! [`Generator::generate_in`]: crate::Generator::generate_in

use crate::error::{Error, ErrorKind, Location};
use crate::map::Map;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the world JSON; bumped when a field changes meaning.
const WORLD_VERSION: u32 = 1;

/// What persists between the levels of one world.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldState {
    format: String,
    version: u32,
    /// Levels generated so far.
    levels: u32,
    /// Encounter id -> times placed in this world.
    encounters: BTreeMap<String, u32>,
    /// World group -> times one of its encounters was placed (absent from a
    /// world where none was, so such worlds read and write as before groups).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    world_groups: BTreeMap<String, u32>,
}

impl Default for WorldState {
    fn default() -> WorldState {
        WorldState::new()
    }
}

impl WorldState {
    /// A world where nothing has happened yet.
    pub fn new() -> WorldState {
        WorldState {
            format: "prefabric-world".into(),
            version: WORLD_VERSION,
            levels: 0,
            encounters: BTreeMap::new(),
            world_groups: BTreeMap::new(),
        }
    }

    /// How many levels have been generated in it.
    pub fn levels(&self) -> u32 {
        self.levels
    }

    /// How many times encounter `id` has been placed in it.
    pub fn placed(&self, id: &str) -> u32 {
        self.encounters.get(id).copied().unwrap_or(0)
    }

    /// How many times an encounter of world group `name` has been placed in it.
    pub fn group_placed(&self, name: &str) -> u32 {
        self.world_groups.get(name).copied().unwrap_or(0)
    }

    /// Every encounter placed so far and how often, by id.
    pub fn encounters(&self) -> impl Iterator<Item = (&str, u32)> {
        self.encounters.iter().map(|(id, n)| (id.as_str(), *n))
    }

    /// The world after `map` has been added to it as its next level.
    pub fn after(&self, map: &Map) -> WorldState {
        let mut next = self.clone();
        // Saturating: a world read from a file may already hold huge counts, and a
        // count that wrapped to 0 would let a unique encounter appear again.
        next.levels = next.levels.saturating_add(1);
        let tagged = map.prefabs().iter().filter_map(|p| p.encounter.as_ref().map(|t| &t.id));
        for id in tagged.chain(map.object_encounters().iter().map(|e| &e.id)) {
            let n = next.encounters.entry(id.clone()).or_insert(0);
            *n = n.saturating_add(1);
        }
        for group in &map.world_groups {
            let n = next.world_groups.entry(group.clone()).or_insert(0);
            *n = n.saturating_add(1);
        }
        next
    }

    /// The world as pretty-printed JSON, ending in a newline.
    pub fn to_json(&self) -> String {
        // A struct of strings and integers always serialises.
        let mut out = serde_json::to_string_pretty(self).unwrap_or_default();
        out.push('\n');
        out
    }

    /// Reads a world written by [`WorldState::to_json`]; `file` names it in errors.
    pub fn from_json(file: &str, text: &str) -> Result<WorldState, Error> {
        let world: WorldState = serde_json::from_str(text).map_err(|e| {
            // serde_json ends its message with the position the location already gives.
            let message = e.to_string();
            let position = format!(" at line {} column {}", e.line(), e.column());
            let message = message.strip_suffix(&position).unwrap_or(&message).to_string();
            // Column 0 is serde_json's before a line's first character: column 1.
            Error::at(ErrorKind::Syntax, Location::at(file, e.line() as u32, (e.column() as u32).max(1)), message)
        })?;
        if world.format != "prefabric-world" || world.version != WORLD_VERSION {
            return Err(Error::at(
                ErrorKind::Invalid,
                Location::file(file),
                format!(
                    "not a prefabric world of version {WORLD_VERSION} (format `{}`, version {})",
                    world.format, world.version
                ),
            ));
        }
        Ok(world)
    }
}
