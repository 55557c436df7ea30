//! The `[tunnelers]` section of a map type: the parameters of Cogmind's
//! tunnelers (after DungeonMaker), with their room size classes.
//!
//! In: the section as written (serde reads it; every field has a default).
//! Out: [`TunnelerParams`], and through `problems` the numbers out of range
//! or contradicting each other, which the map type reports at the section's
//! `file:line:col`.

use super::values::{IntRange, Percent};
use serde::Deserialize;

/// A class of room sizes the tunnelers dig, with its weight.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomSize {
    /// Interior cells along the corridor.
    pub width: IntRange,
    /// Interior cells away from the corridor.
    pub depth: IntRange,
    /// Relative frequency.
    #[serde(default = "one")]
    pub weight: u32,
    /// Most rooms of this class in one map (none: no limit). Once it is reached
    /// the class is no longer drawn.
    #[serde(default)]
    pub quota: Option<u32>,
}

fn one() -> u32 {
    1
}

/// Parameters of the tunneler layout (after DungeonMaker, as Cogmind uses it).
/// Chances are percentages; spans are `[lo, hi]` cell counts.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TunnelerParams {
    /// Width of tunnels from the map type's starts.
    pub width: u8,
    /// Narrowest a tunnel may shrink to.
    pub min_width: u8,
    /// Widest a tunnel may grow to.
    pub max_width: u8,
    /// Cells dug per step.
    pub step: IntRange,
    /// Chance per step to turn left or right.
    pub turn_chance: Percent,
    /// Chance per step to grow or shrink by two cells.
    pub width_change_chance: Percent,
    /// Chance per step to branch a child tunneler through a junction.
    pub branch_chance: Percent,
    /// Chance at a turn to also send a child the other way.
    pub branch_at_turn_chance: Percent,
    /// Chance that a child is two cells wider or narrower than its parent.
    pub child_width_change_chance: Percent,
    /// How many generations of children may be born.
    pub max_generations: u8,
    /// Steps a tunneler lives.
    pub max_age: IntRange,
    /// Chance per step and side to dig a room beside the tunnel.
    pub room_chance: Percent,
    /// Percentage points added to `turn_chance` per generation (children of
    /// children turn more, or less when negative).
    pub turn_drift: i8,
    /// Percentage points added to `room_chance` per generation.
    pub room_drift: i8,
    /// Room size classes.
    pub rooms: Vec<RoomSize>,
    /// Chance per step to open a hall (a large room the tunnel runs through).
    pub hall_chance: Percent,
    /// Hall interior across the tunnel.
    pub hall_width: IntRange,
    /// Hall interior along the tunnel.
    pub hall_depth: IntRange,
    /// Fewest halls in a map: last-chance tunnelers open halls until there are
    /// this many (as far as there is room).
    pub min_halls: u32,
    /// Chance that a room of the largest size class is entered through a small
    /// anteroom rather than straight from the tunnel.
    pub anteroom_chance: Percent,
    /// Cells that corridors and halls keep from the map's outer edge, unless they
    /// head straight away from it (rooms may use them); a small map keeps at
    /// most an eighth of its shorter side.
    pub edge_margin: u8,
    /// Rooms grow by a row where that makes them share a wall with the space
    /// beside them rather than stand behind a wall two cells thick.
    pub share_walls: bool,
    /// Chance to dig into open space of the same network when meeting it.
    pub join_chance: Percent,
    /// Most rows of rock a tunneler digs through to join its own network by
    /// chance (DungeonMaker's join distance); 0 for no limit. Other networks
    /// are always joined, however far.
    pub join_distance: u8,
    /// Chance that a straight corridor at least 5 cells wide gets columns
    /// (DungeonMaker's columns in wide tunnels): lone wall cells in a line down
    /// its middle, or one cell in from each side when it is 7 or wider.
    pub columns: Percent,
    /// Cells from one column to the next along a corridor.
    pub column_spacing: u8,
    /// Chance that a room's door is secret.
    pub secret_door_chance: Percent,
    /// Keep starting tunnelers from existing corridors until this share of the map
    /// is open.
    pub fill_target: Percent,
    /// Reject the map (and retry) if less than this share ends up open.
    pub min_open: Percent,
    /// Last-chance tunnelers open a hall in the largest untouched rectangle while
    /// it covers more than this share of the map.
    pub max_empty: Percent,
    /// Most last-chance halls in one map.
    pub last_chance: u32,
    /// Most tunnelers in one map, children and fillers included; `None` (the
    /// default) scales with the map: [`TunnelerParams::tunneler_cap`].
    pub max_tunnelers: Option<u32>,
}

impl TunnelerParams {
    /// Tunnelers the default cap allows on a map of 40,000 cells (200x200) or
    /// fewer.
    pub const BASE_TUNNELERS: u32 = 400;

    /// Most tunnelers on a map whose interior holds `area` cells: the map
    /// type's `max_tunnelers`, else one per 100 cells or
    /// [`BASE_TUNNELERS`](Self::BASE_TUNNELERS), whichever is more, so a larger
    /// map is dug as fully as a small one (a 2048x2048 map: about 41,800).
    pub fn tunneler_cap(&self, area: i64) -> u32 {
        let scaled = u32::try_from(area.max(0) / 100).unwrap_or(u32::MAX);
        self.max_tunnelers.unwrap_or(scaled.max(Self::BASE_TUNNELERS))
    }
}

impl Default for TunnelerParams {
    fn default() -> TunnelerParams {
        TunnelerParams {
            width: 3,
            min_width: 1,
            max_width: 5,
            step: IntRange::new(4, 9),
            turn_chance: Percent(22),
            width_change_chance: Percent(8),
            branch_chance: Percent(14),
            branch_at_turn_chance: Percent(40),
            child_width_change_chance: Percent(30),
            max_generations: 6,
            max_age: IntRange::new(18, 40),
            room_chance: Percent(40),
            rooms: vec![
                RoomSize { width: IntRange::new(4, 6), depth: IntRange::new(3, 5), weight: 4, quota: None },
                RoomSize { width: IntRange::new(6, 10), depth: IntRange::new(5, 7), weight: 4, quota: None },
                RoomSize { width: IntRange::new(9, 14), depth: IntRange::new(7, 10), weight: 2, quota: None },
            ],
            turn_drift: 0,
            room_drift: 0,
            min_halls: 0,
            anteroom_chance: Percent(0),
            edge_margin: 4,
            share_walls: true,
            max_empty: Percent(8),
            last_chance: 6,
            hall_chance: Percent(4),
            hall_width: IntRange::new(11, 19),
            hall_depth: IntRange::new(9, 15),
            join_chance: Percent(35),
            join_distance: 0,
            columns: Percent(0),
            column_spacing: 3,
            secret_door_chance: Percent(0),
            fill_target: Percent(32),
            min_open: Percent(15),
            max_tunnelers: None,
        }
    }
}

/// What is wrong with `v`: each message names the parameter and its range.
/// Empty when every parameter is in range.
pub(super) fn problems(v: &TunnelerParams) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut bad = |ok: bool, msg: &'static str| {
        if !ok {
            out.push(msg);
        }
    };
    bad((1..=9).contains(&v.min_width), "min_width must be 1-9");
    bad((1..=9).contains(&v.max_width), "max_width must be 1-9");
    bad(v.min_width <= v.max_width, "min_width is larger than max_width");
    bad((v.min_width..=v.max_width).contains(&v.width), "width must lie between min_width and max_width");
    bad(
        !v.rooms.is_empty() && v.rooms.iter().any(|r| r.weight > 0),
        "rooms needs at least one size with a weight above 0",
    );
    bad(v.max_tunnelers.is_none_or(|n| (1..=100_000).contains(&n)), "max_tunnelers must be 1-100000");
    bad(v.min_open <= v.fill_target, "min_open is larger than fill_target");
    bad(v.edge_margin <= 20, "edge_margin must be 0-20");
    bad(v.join_distance <= 50, "join_distance must be 0-50 (0: no limit)");
    bad((2..=9).contains(&v.column_spacing), "column_spacing must be 2-9");
    bad(v.min_halls <= 100, "min_halls must be 0-100");
    bad(v.last_chance <= 100, "last_chance must be 0-100");
    bad((-50..=50).contains(&v.turn_drift), "turn_drift must be -50 to 50");
    bad((-50..=50).contains(&v.room_drift), "room_drift must be -50 to 50");
    bad(v.rooms.iter().all(|r| r.width.lo >= 1 && r.depth.lo >= 1), "room sizes must be at least 1");
    out
}
