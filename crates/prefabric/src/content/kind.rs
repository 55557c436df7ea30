//! The five kinds of object a pack places (seed 000's types): entities, items,
//! props, traps and debris, with their names in catalog files, definition
//! files and JSON. Below both the catalog and the keyword rules, which sort
//! what they hold by kind.

/// The kinds of object a definition file can place (seed 000's five types).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A robot or creature.
    Entity,
    /// Something to pick up.
    Item,
    /// A prop or machine.
    Prop,
    /// A trap (a hidden prop).
    Trap,
    /// Debris: decoration the game draws as it likes.
    Debris,
}

impl Kind {
    /// All five.
    pub const ALL: [Kind; 5] = [Kind::Entity, Kind::Item, Kind::Prop, Kind::Trap, Kind::Debris];

    /// Its name in catalog files, definition files and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Entity => "entity",
            Kind::Item => "item",
            Kind::Prop => "prop",
            Kind::Trap => "trap",
            Kind::Debris => "debris",
        }
    }

    /// True when an object of this kind may stand on `terrain`: floor for all, and
    /// doors too for traps.
    pub fn may_stand_on(self, terrain: crate::map::Terrain) -> bool {
        use crate::map::Role;
        match terrain.role() {
            Role::Floor(_) => true,
            Role::Door | Role::SecretDoor => self == Kind::Trap,
            _ => false,
        }
    }

    /// Parses a name written by [`Kind::name`].
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}
