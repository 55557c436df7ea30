//! A flat, row-major, bounds-checked 2D array.
//!
//! [`Grid`] stores `width * height` values in one `Vec`, row after row. Lookups by
//! [`Point`] return `None` outside the grid; indexing with `grid[p]` panics outside
//! it, like slice indexing, and is meant for positions already known to be inside.

use crate::geom::{Moves, Point, Rect};
use std::ops::{Index, IndexMut};

/// A rectangle of values, row-major.
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid<T> {
    width: i32,
    height: i32,
    cells: Vec<T>,
}

/// Read back only when its cells fill its size exactly: a grid is indexed
/// without checks once made.
#[cfg(feature = "serde")]
impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Grid<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Grid<T>, D::Error> {
        #[derive(serde::Deserialize)]
        struct Fields<T> {
            width: i32,
            height: i32,
            cells: Vec<T>,
        }
        let Fields { width, height, cells } = Fields::deserialize(deserializer)?;
        let size = i64::from(width) * i64::from(height);
        if width < 0 || height < 0 || cells.len() as i64 != size {
            return Err(serde::de::Error::custom(format!("a {width}x{height} grid cannot hold {} cells", cells.len())));
        }
        Ok(Grid { width, height, cells })
    }
}

impl<T> Default for Grid<T> {
    /// An empty 0 × 0 grid.
    fn default() -> Grid<T> {
        Grid { width: 0, height: 0, cells: Vec::new() }
    }
}

impl<T: Clone> Grid<T> {
    /// A `width × height` grid filled with `fill`. Negative sizes give an empty grid;
    /// callers check sizes against [`Limits`](crate::Limits) first.
    pub fn new(width: i32, height: i32, fill: T) -> Grid<T> {
        let (width, height) = (width.max(0), height.max(0));
        Grid { width, height, cells: vec![fill; width as usize * height as usize] }
    }

    /// Makes this a `width × height` grid filled with `fill`, keeping the memory it
    /// holds: what [`Grid::new`] gives, without allocating when it is large enough.
    pub fn reset(&mut self, width: i32, height: i32, fill: T) {
        let (width, height) = (width.max(0), height.max(0));
        (self.width, self.height) = (width, height);
        self.cells.clear();
        self.cells.resize(width as usize * height as usize, fill);
    }

    /// A grid of the same size holding `f` of each cell.
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> Grid<U> {
        Grid { width: self.width, height: self.height, cells: self.cells.iter().map(f).collect() }
    }

    /// Sets every cell to `value`.
    pub fn fill(&mut self, value: T) {
        self.cells.fill(value);
    }
}

impl Grid<bool> {
    /// The cells of a `width × height` grid a walker stepping by `moves` reaches
    /// from `start` through cells where `open` holds (`start` counts as open),
    /// marked true.
    pub fn reachable(width: i32, height: i32, start: Point, moves: Moves, open: impl Fn(Point) -> bool) -> Grid<bool> {
        let mut seen = Grid::new(width, height, false);
        if !seen.set(start, true) {
            return seen;
        }
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            for &step in moves.steps() {
                let q = p + step;
                if seen.get(q) == Some(&false) && open(q) {
                    seen[q] = true;
                    stack.push(q);
                }
            }
        }
        seen
    }
}

impl<T> Grid<T> {
    /// A grid from row-major cells; `None` when the count does not match the size.
    pub fn from_cells(width: i32, height: i32, cells: Vec<T>) -> Option<Grid<T>> {
        let expected = usize::try_from(width).ok()?.checked_mul(usize::try_from(height).ok()?)?;
        (cells.len() == expected).then_some(Grid { width, height, cells })
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The whole grid as a rectangle at the origin.
    pub fn bounds(&self) -> Rect {
        Rect::new(0, 0, self.width, self.height)
    }

    /// True when `p` is inside the grid.
    pub fn contains(&self, p: Point) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// The index of `p` in [`Grid::cells`], if inside.
    pub fn index_of(&self, p: Point) -> Option<usize> {
        self.contains(p).then(|| p.y as usize * self.width as usize + p.x as usize)
    }

    /// The point at a cell index (which must be below `width * height`).
    pub fn point_of(&self, index: usize) -> Point {
        let w = self.width.max(1) as usize;
        Point::new((index % w) as i32, (index / w) as i32)
    }

    /// The value at `p`, if inside.
    pub fn get(&self, p: Point) -> Option<&T> {
        self.index_of(p).map(|i| &self.cells[i])
    }

    /// The value at `p`, mutably, if inside.
    pub fn get_mut(&mut self, p: Point) -> Option<&mut T> {
        self.index_of(p).map(move |i| &mut self.cells[i])
    }

    /// Sets the value at `p`; returns false (and does nothing) outside the grid.
    pub fn set(&mut self, p: Point, value: T) -> bool {
        match self.index_of(p) {
            Some(i) => {
                self.cells[i] = value;
                true
            }
            None => false,
        }
    }

    /// All cells, row-major.
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// All cells, row-major, mutably.
    pub fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// The rows, north to south.
    pub fn rows(&self) -> impl Iterator<Item = &[T]> {
        self.cells.chunks(self.width.max(1) as usize).take(self.height as usize)
    }
}

// Indexing panics on a point outside, as a slice does: that is `Index`'s
// contract. The library indexes only points it has checked (or that lie in the
// map by construction); untrusted points go through `get`.
impl<T> Index<Point> for Grid<T> {
    type Output = T;
    #[allow(clippy::panic)]
    fn index(&self, p: Point) -> &T {
        match self.index_of(p) {
            Some(i) => &self.cells[i],
            None => panic!("{p} is outside a {}x{} grid", self.width, self.height),
        }
    }
}

impl<T> IndexMut<Point> for Grid<T> {
    #[allow(clippy::panic)]
    fn index_mut(&mut self, p: Point) -> &mut T {
        match self.index_of(p) {
            Some(i) => &mut self.cells[i],
            None => panic!("{p} is outside a {}x{} grid", self.width, self.height),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_are_bounds_checked() {
        let mut g = Grid::new(3, 2, 0u8);
        assert!(g.set(Point::new(2, 1), 7));
        assert!(!g.set(Point::new(3, 0), 1));
        assert_eq!(g.get(Point::new(2, 1)), Some(&7));
        assert_eq!(g.get(Point::new(-1, 0)), None);
        assert_eq!(g.index_of(Point::new(2, 1)), Some(5));
        assert_eq!(g.point_of(5), Point::new(2, 1));
        assert_eq!(g.rows().count(), 2);
        assert_eq!(Grid::new(-4, 2, 0u8).cells().len(), 0);
        assert!(Grid::from_cells(2, 2, vec![1, 2, 3]).is_none());
    }
}
