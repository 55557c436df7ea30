//! The vocabulary content and stages share: what an encounter is for the
//! player ([`Category`]), how a prefab is meant to be placed ([`Style`]), and
//! what a room is furnished with ([`Composition`]).
//!
//! In: names as packs write them. Out: the three enums, with their names and
//! parsers. It sits on the ground floor, below `map`, `prefab`, `content` and
//! `stage`, which all speak these words: a prefab's header names its style, a
//! map type weights categories and compositions, and a map records which
//! encounter and composition went where. It imports nothing of the crate.

use std::fmt;

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
