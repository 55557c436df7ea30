//! A level's exits in a world: its staircases that lead somewhere.
//!
//! In a world of levels (`world.toml`) every staircase kept on a level is an
//! [`Exit`]: up to the level above (or out of the world, from the first level),
//! down to the next level of its line, or into a branch. Each names the level it
//! leads to and, once that level is made, the arrival cell there. A map made
//! outside a world has none.

use crate::geom::Point;

/// Which way an exit goes.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitWay {
    /// Stairs up: back to the level that leads here.
    Up,
    /// Stairs down: to the next level of the line.
    Down,
    /// Stairs into a branch, in its entrance set piece.
    Branch,
}

impl ExitWay {
    /// The way's name in outputs: `up`, `down` or `branch`.
    pub const fn name(self) -> &'static str {
        match self {
            ExitWay::Up => "up",
            ExitWay::Down => "down",
            ExitWay::Branch => "branch",
        }
    }
}

/// One staircase of a level in a world, and where it leads.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    /// The staircase's first cell in reading order.
    pub at: Point,
    /// Which way it goes.
    pub way: ExitWay,
    /// The level it leads to; `None` for the way out of the world.
    pub to: Option<String>,
    /// The cell it arrives at on that level, once that level is made.
    pub arrival: Option<Point>,
}
