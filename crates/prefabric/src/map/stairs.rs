//! Staircases: a finished map's stairs, grouped.
//!
//! In: a map's stairs cells. Out: [`Staircase`] (public, [`super::Map::stairs`])
//! and [`StairsCells`], every stairs cell gathered once, grouped per role into
//! 4-connected staircases in reading order. Guarantees: groups and their cells
//! come in reading order, so the result depends only on the cells.

use super::region::RegionId;
use super::terrain::{Role, Terrain};
use crate::geom::{Dir, Point};

/// A staircase of a finished map ([`Map::stairs`](super::Map::stairs)).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Staircase {
    /// [`Role::StairsUp`] (the way in) or [`Role::StairsDown`] (the way on).
    pub role: Role,
    /// Its cells, in reading order; never empty.
    pub cells: Vec<Point>,
    /// The region its first cell belongs to, if any.
    pub region: Option<RegionId>,
    /// The index in [`Map::prefabs`](super::Map::prefabs) of the placed prefab that drew it.
    pub prefab: Option<usize>,
}

/// Every stairs cell of a map with its role (variant 0), in reading order:
/// what [`Map::stairs_cells`](super::Map::stairs_cells) gathers once for the groups of each role.
pub(crate) struct StairsCells(pub(super) Vec<(Point, Terrain)>);

impl StairsCells {
    /// The 4-connected groups of `role` cells, each in reading order, the
    /// groups in the reading order of their first cell.
    pub(crate) fn groups(&self, role: Role) -> Vec<Vec<Point>> {
        let cells: Vec<Point> = self.0.iter().filter(|(_, t)| t.is(role)).map(|&(p, _)| p).collect();
        let at = |p: Point| cells.binary_search_by_key(&(p.y, p.x), |q| (q.y, q.x)).ok();
        let mut seen = vec![false; cells.len()];
        let mut out = Vec::new();
        for start in 0..cells.len() {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut group = vec![cells[start]];
            let mut k = 0;
            while k < group.len() {
                let q = group[k];
                for d in Dir::ALL {
                    if let Some(j) = at(q + d.delta())
                        && !seen[j]
                    {
                        seen[j] = true;
                        group.push(cells[j]);
                    }
                }
                k += 1;
            }
            group.sort_by_key(|q| (q.y, q.x));
            out.push(group);
        }
        out
    }
}
