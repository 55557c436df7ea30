//! How designed a generated map's layout looks, in numbers.
//!
//! In: one [`Map`] from any layout generator. Out: a [`LayoutQuality`]: the
//! longest stretch of corridor hugging the map's outer edge, the largest
//! rectangle left unused, room sizes, halls, doubled walls, and doors that are
//! not where their region says. Each measure reads only the map's terrain,
//! masks and regions, so it means the same for tunnelers, chains, pathways and
//! caves. Issue 18's targets and the quality test are written against these
//! numbers; `examples/quality.rs` prints them over a seed range.

use crate::geom::{Point, Rect, largest_empty_rect};
use crate::map::{Map, NO_REGION, RegionKind, Role, mask};

/// How far from the map's outer edge a corridor cell counts as hugging it.
pub const EDGE_BAND: i32 = 3;

/// The layout measures of one map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutQuality {
    /// The longest run of consecutive positions along one side of the map with a
    /// corridor or junction cell within [`EDGE_BAND`] cells of that side.
    pub edge_run: u32,
    /// The largest rectangle of unused cells: earth or wall, not BLOCKED and not
    /// part of a placed prefab (barriers and features reserve what they cover).
    pub largest_empty: Rect,
    /// The area of every room region, in region order.
    pub room_areas: Vec<u32>,
    /// How many halls the layout dug, those an encounter filled later included.
    pub halls: u32,
    /// Wall cells that are half of a wall two cells thick between two walkable
    /// cells in a straight line (`open, wall, wall, open`), outside prefabs.
    pub doubled_walls: u32,
    /// Doors listed on rooms and halls that are not walkable or not on the
    /// region's wall line at the side they name.
    pub misplaced_doors: Vec<Point>,
}

impl LayoutQuality {
    /// Measures `map`.
    pub fn of(map: &Map) -> LayoutQuality {
        let regions = map.regions();
        LayoutQuality {
            edge_run: edge_run(map),
            largest_empty: largest_empty(map),
            room_areas: regions.iter().filter(|r| r.kind == RegionKind::Room).map(|r| r.area).collect(),
            halls: regions.iter().filter(|r| r.laid_out_as == RegionKind::Hall).count() as u32,
            doubled_walls: doubled_walls(map),
            misplaced_doors: misplaced_doors(map),
        }
    }
}

/// True when `p` is a corridor or junction cell.
fn is_corridor(map: &Map, p: Point) -> bool {
    match map.region_of.get(p) {
        Some(&r) if r != NO_REGION => {
            matches!(map.regions()[r as usize].kind, RegionKind::Corridor | RegionKind::Junction)
        }
        _ => false,
    }
}

fn edge_run(map: &Map) -> u32 {
    let (w, h) = (map.width(), map.height());
    let band = EDGE_BAND.min(w).min(h);
    // Each side: its length, and the cell `d` deep from it at position `i` along it.
    let north = |i: i32, d: i32| Point::new(i, d);
    let south = |i: i32, d: i32| Point::new(i, h - 1 - d);
    let west = |i: i32, d: i32| Point::new(d, i);
    let east = |i: i32, d: i32| Point::new(w - 1 - d, i);
    let longest_run = |len: i32, cell: &dyn Fn(i32, i32) -> Point| {
        let (mut run, mut longest) = (0, 0);
        for i in 0..len {
            if (1..=band).any(|d| is_corridor(map, cell(i, d))) {
                run += 1;
                longest = longest.max(run);
            } else {
                run = 0;
            }
        }
        longest
    };
    longest_run(w, &north).max(longest_run(w, &south)).max(longest_run(h, &west)).max(longest_run(h, &east))
}

/// The largest all-unused rectangle.
fn largest_empty(map: &Map) -> Rect {
    let terrain = map.terrain.cells();
    let masks = map.masks.cells();
    let w = map.width().max(0) as usize;
    largest_empty_rect(map.width(), map.height(), 1, |y, row| {
        let cells = terrain[y * w..(y + 1) * w].iter().zip(&masks[y * w..(y + 1) * w]);
        for (empty, (t, m)) in row.iter_mut().zip(cells) {
            *empty = (t.is(Role::Earth) || t.is(Role::Wall)) && m & mask::PROTECTED == 0;
        }
    })
}

fn doubled_walls(map: &Map) -> u32 {
    let (w, h) = (map.width(), map.height());
    let mut doubled = vec![false; (w * h) as usize];
    let solid = |p: Point| !map.is_walkable(p) && map.masks.get(p).is_some_and(|m| m & mask::PROTECTED == 0);
    for y in 0..h {
        for x in 0..w {
            let a = Point::new(x, y);
            for step in [Point::new(1, 0), Point::new(0, 1)] {
                let b = a + step;
                if solid(a) && solid(b) && map.is_walkable(a - step) && map.is_walkable(b + step) {
                    doubled[(a.y * w + a.x) as usize] = true;
                    doubled[(b.y * w + b.x) as usize] = true;
                }
            }
        }
    }
    doubled.iter().filter(|&&d| d).count() as u32
}

fn misplaced_doors(map: &Map) -> Vec<Point> {
    let mut misplaced = Vec::new();
    for r in map.regions().iter().filter(|r| matches!(r.kind, RegionKind::Room | RegionKind::Hall)) {
        for door in &r.doors {
            if r.bounds.ring_side(door.at) != Some(door.side) || !map.is_walkable(door.at) {
                misplaced.push(door.at);
            }
        }
    }
    misplaced
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{FloorKind, Terrain};

    fn dig(map: &mut Map, r: Rect, t: Terrain) {
        for p in r.points() {
            map.terrain[p] = t;
        }
    }

    #[test]
    fn an_empty_map_is_one_empty_rectangle_and_digging_splits_it() {
        let mut map = Map::new(1, "t", 1, 30, 20);
        assert_eq!(largest_empty(&map), Rect::new(0, 0, 30, 20));
        // A corridor across column 10 leaves 19 columns on the right.
        dig(&mut map, Rect::new(10, 0, 1, 20), Terrain::floor(FloorKind::Corridor));
        assert_eq!(largest_empty(&map), Rect::new(11, 0, 19, 20));
        // A row across the right part: the left block (10 x 20) now wins.
        dig(&mut map, Rect::new(11, 9, 19, 1), Terrain::floor(FloorKind::Corridor));
        assert_eq!(largest_empty(&map), Rect::new(0, 0, 10, 20));
    }

    #[test]
    fn two_cell_walls_between_open_cells_are_counted_and_one_cell_walls_are_not() {
        let mut map = Map::new(1, "t", 1, 12, 5);
        let floor = Terrain::floor(FloorKind::Room);
        dig(&mut map, Rect::new(1, 1, 2, 3), floor);
        dig(&mut map, Rect::new(5, 1, 2, 3), floor);
        // Columns 3 and 4, rows 1..=3: a doubled wall of 6 cells.
        assert_eq!(doubled_walls(&map), 6);
        dig(&mut map, Rect::new(8, 1, 2, 3), floor);
        // Column 7 is a single wall between 6 and 8: nothing more.
        assert_eq!(doubled_walls(&map), 6);
    }
}
