//! A cell-state grid: one byte per cell of the map, row-major, holding what a
//! generator has decided about each cell (its own constants: free, open,
//! reserved, ...).
//!
//! In: the bytes for every cell and the map's width, and the state to report
//! for points outside the map. Out: [`Cells`], read by point through a
//! bounds-checked [`Cells::get`] (outside the map it is the outside state,
//! never a panic) and by index as a byte slice. The chain and pathways
//! generators keep their placement state in one each.

use crate::geom::Point;
use std::ops::{Deref, DerefMut};

/// One byte of state per cell of the map.
#[derive(Clone, Debug, Default)]
pub(super) struct Cells {
    states: Vec<u8>,
    width: i32,
    height: i32,
    /// What [`Cells::get`] reports outside the map.
    outside: u8,
}

impl Cells {
    /// The grid holding `states`, `width` cells to a row; `outside` is the
    /// state of every point beyond it.
    pub fn new(states: Vec<u8>, width: i32, outside: u8) -> Cells {
        let height = if width > 0 { (states.len() / width as usize) as i32 } else { 0 };
        Cells { states, width, height, outside }
    }

    /// The index of `p`, which must be inside the map.
    #[inline]
    pub fn index(&self, p: Point) -> usize {
        (p.y * self.width + p.x) as usize
    }

    /// The state of `p`, or the outside state when `p` is off the map.
    #[inline]
    pub fn get(&self, p: Point) -> u8 {
        if (0..self.width).contains(&p.x) && (0..self.height).contains(&p.y) {
            self.states[self.index(p)]
        } else {
            self.outside
        }
    }
}

impl Deref for Cells {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.states
    }
}

impl DerefMut for Cells {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.states
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_off_the_map_read_as_the_outside_state() {
        let cells = Cells::new(vec![1, 2, 3, 4, 5, 6], 3, 9);
        assert_eq!(cells.get(Point::new(2, 1)), 6);
        assert_eq!(cells.index(Point::new(1, 1)), 4);
        for p in [Point::new(-1, 0), Point::new(3, 0), Point::new(0, 2), Point::new(0, -1)] {
            assert_eq!(cells.get(p), 9, "{p:?}");
        }
    }
}
