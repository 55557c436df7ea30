//! Memory a finished map hands to the next: [`Spare`] (its grids and longest
//! lists) and [`Pools`] (its objects' and regions' emptied lists).
//!
//! In: a map given back ([`crate::Generator::recycle`]). Out: emptied lists
//! and grids the next map fills before allocating. Guarantees: a map made from
//! a spare is the same as one made without; only memory is reused.

use super::objects::Object;
use super::placed::PlacedPrefab;
use super::region::{Door, Region};
use super::terrain::Terrain;
use crate::geom::Point;
use crate::grid::Grid;

/// What a finished map leaves for the next: its grids and its longest lists,
/// emptied but keeping their memory (see [`crate::Generator::recycle`]). A map
/// made from a spare is the same as one made without.
#[derive(Default)]
pub(crate) struct Spare {
    pub(super) terrain: Grid<Terrain>,
    pub(super) masks: Grid<u8>,
    pub(super) region_of: Grid<u32>,
    pub(super) regions: Vec<Region>,
    pub(super) prefabs: Vec<PlacedPrefab>,
    pub(super) objects: Vec<Object>,
    pub(super) pools: Pools,
}

/// The lists a map's objects and regions held, emptied, for the next map to
/// fill instead of allocating its own: a materials map places hundreds of
/// machines and rooms, each with its own list of cells or doors, and a
/// generator handed its maps back ([`crate::Generator::recycle`]) serves them
/// from here. A map's own objects and regions own their lists as before.
#[derive(Default)]
pub(crate) struct Pools {
    /// Cell lists by capacity: class `c` holds those of `2^c` to `2^(c+1) - 1`
    /// cells (the last, any more), so a machine of nine cells takes a list
    /// with room for them rather than regrowing an item's list of one.
    cells: [Vec<Vec<(Point, char)>>; CELL_CLASSES],
    pub(super) doors: Vec<Vec<Door>>,
}

/// Capacity classes of the cell lists kept.
const CELL_CLASSES: usize = 6;

/// Lists kept per kind at most: more than a map of any size here places.
const MAX_POOLED: usize = 4096;

impl Pools {
    /// An empty list for an object of `n` cells, with room for them when a
    /// kept list has it.
    pub(crate) fn cells(&mut self, n: usize) -> Vec<(Point, char)> {
        // The first class whose every list holds `n`: capacity 2^c >= n.
        let first = (n.max(1).next_power_of_two().trailing_zeros() as usize).min(CELL_CLASSES - 1);
        let mut cells = self.cells[first..].iter_mut().find_map(Vec::pop).unwrap_or_default();
        cells.reserve(n);
        cells
    }

    /// A list for an object's cells holding the one cell `p`, drawn `glyph`.
    pub(crate) fn one_cell(&mut self, p: Point, glyph: char) -> Vec<(Point, char)> {
        let mut cells = self.cells(1);
        cells.push((p, glyph));
        cells
    }

    /// An empty list for a region's doors.
    pub(crate) fn doors(&mut self) -> Vec<Door> {
        self.doors.pop().unwrap_or_default()
    }

    /// Keeps an object's cell list, emptied, in its capacity class.
    pub(super) fn keep_cells(&mut self, cells: Vec<(Point, char)>) {
        let class = (cells.capacity().max(1).ilog2() as usize).min(CELL_CLASSES - 1);
        Pools::keep(&mut self.cells[class], cells);
    }

    pub(super) fn keep<T>(pool: &mut Vec<Vec<T>>, mut list: Vec<T>) {
        if list.capacity() > 0 && pool.len() < MAX_POOLED {
            list.clear();
            pool.push(list);
        }
    }
}

/// A copy of a map starts with no lists to reuse.
impl Clone for Pools {
    fn clone(&self) -> Pools {
        Pools::default()
    }
}

impl std::fmt::Debug for Pools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cells: usize = self.cells.iter().map(Vec::len).sum();
        write!(f, "Pools {{ {cells} cell lists, {} door lists }}", self.doors.len())
    }
}
