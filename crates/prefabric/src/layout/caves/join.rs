//! Joining the caves' open areas into one: a breadth-first search through
//! rock, grown out from one area a level at a time, cell by cell from a
//! queue, each cell's level kept in one grid of numbers to find the way back.
//!
//! In: the rock the search may cross, the open areas (as [`Areas`] runs), which
//! of them to join, and the area to start from. Out: the passages to dig, in
//! the order the search met the areas, each a list of rock cells from the cell
//! beside the area it reached back to the nearest cell already joined (not
//! included). Guarantees: every area the rock lets the search reach gets
//! exactly one passage; each passage is a shortest 4-connected way through rock
//! from everything joined before it (an area joins the search's sources the
//! level it is met); the result depends on the grids alone: areas met on one
//! level are taken in scan order, and a way back steps north, east, south, then
//! west, the first that holds.
//!
//! The search visits each cell it reaches once, so a search that runs
//! thousands of levels through a winding map costs what it reaches, not a pass
//! over the map per level; its memory is the grid of levels, the rock it may
//! cross and two queues of cells, whatever the distances.

use crate::bits::{Areas, Bits};

/// The way a search reached a cell, a step at a time.
const BACK: [(isize, isize); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// A cell the search has not reached.
const UNREACHED: u32 = u32::MAX;

/// The memory of a search, kept from map to map: the level each cell was
/// reached at (its distance in steps from what was joined when it was
/// reached), the cells of the last level and of the next (as indices
/// `y * width + x`), and the cells of the next level that are not rock.
#[derive(Default)]
pub(super) struct Levels {
    level_of: Vec<u32>,
    last: Vec<u32>,
    next: Vec<u32>,
    met: Vec<u32>,
}

impl Levels {
    /// Clears everything for a search over `cells` cells.
    fn prepare(&mut self, cells: usize) {
        self.level_of.clear();
        self.level_of.resize(cells, UNREACHED);
        self.last.clear();
        self.next.clear();
        self.met.clear();
    }

    /// Adds the cells of area `area` not reached yet to the next level, as
    /// reached at `level`.
    fn add_area(&mut self, runs_of: &RunsByArea, areas: &Areas, width: usize, area: usize, level: u32) {
        let (from, to) = (runs_of.start[area] as usize, runs_of.start[area + 1] as usize);
        for &r in &runs_of.order[from..to] {
            let run = areas.runs[r as usize];
            let row = run.y as usize * width;
            for i in row + run.x0 as usize..row + run.x1 as usize {
                if self.level_of[i] == UNREACHED {
                    self.level_of[i] = level;
                    self.next.push(i as u32);
                }
            }
        }
    }

    /// Fills the next level, `level`: every cell of `through` not reached yet
    /// beside a cell of the last (of 4); those not in `rock` are also listed
    /// in `met`. Returns false when there are none.
    fn spread(&mut self, through: &Bits, rock: &Bits, level: u32) -> bool {
        let (width, height) = (through.width, through.height);
        self.next.clear();
        self.met.clear();
        for &i in &self.last {
            let (x, y) = (i as usize % width, i as usize / width);
            for (dx, dy) in BACK {
                let (Some(qx), Some(qy)) = (x.checked_add_signed(dx), y.checked_add_signed(dy)) else { continue };
                let q = qy * width + qx;
                if qx >= width || qy >= height || self.level_of[q] != UNREACHED || !through.get(qx, qy) {
                    continue;
                }
                self.level_of[q] = level;
                self.next.push(q as u32);
                if !rock.get(qx, qy) {
                    self.met.push(q as u32);
                }
            }
        }
        !self.next.is_empty()
    }
}

/// Joins the areas of `areas` for which `wanted` holds to area `main` through
/// the cells of `rock`. Returns the passages, as `(x, y)` cells.
pub(super) fn join_areas(
    rock: &Bits,
    areas: &Areas,
    wanted: &[bool],
    main: usize,
    levels: &mut Levels,
) -> Vec<Vec<(usize, usize)>> {
    let width = rock.width;
    let runs_of = runs_by_area(areas);
    let mut joined: Vec<bool> = wanted.iter().map(|&w| !w).collect();
    joined[main] = true;
    let mut apart = joined.iter().filter(|&&j| !j).count();
    // What the search may step on: rock and the areas still apart.
    let mut through = rock.clone();
    for (run, &area) in areas.runs.iter().zip(&areas.area) {
        if !joined[area as usize] {
            through.set_run(run.y as usize, run.x0 as usize, run.x1 as usize);
        }
    }
    levels.prepare(width * rock.height);
    levels.add_area(&runs_of, areas, width, main, 0);
    std::mem::swap(&mut levels.last, &mut levels.next);
    let mut passages = Vec::new();
    let mut level = 0;
    while apart > 0 {
        level += 1;
        if !levels.spread(&through, rock, level) {
            break;
        }
        // Scan order, as a pass over the map would meet them.
        let mut met = std::mem::take(&mut levels.met);
        met.sort_unstable();
        for &i in &met {
            let (x, y) = (i as usize % width, i as usize / width);
            let area = area_at(areas, x, y);
            if joined[area] {
                continue;
            }
            joined[area] = true;
            apart -= 1;
            passages.push(way_back(rock, &levels.level_of, x, y, level));
            levels.add_area(&runs_of, areas, width, area, level);
        }
        levels.met = met;
        std::mem::swap(&mut levels.last, &mut levels.next);
    }
    passages
}

/// Each area's runs, as indices into `areas.runs`: `order[start[a]..start[a + 1]]`.
struct RunsByArea {
    order: Vec<u32>,
    start: Vec<u32>,
}

fn runs_by_area(areas: &Areas) -> RunsByArea {
    let mut start = vec![0u32; areas.sizes.len() + 1];
    for &a in &areas.area {
        start[a as usize + 1] += 1;
    }
    for a in 0..areas.sizes.len() {
        start[a + 1] += start[a];
    }
    let mut fill = start.clone();
    let mut order = vec![0u32; areas.runs.len()];
    for (r, &a) in areas.area.iter().enumerate() {
        order[fill[a as usize] as usize] = r as u32;
        fill[a as usize] += 1;
    }
    RunsByArea { order, start }
}

/// The area of the run holding cell `(x, y)` (which must be in one).
fn area_at(areas: &Areas, x: usize, y: usize) -> usize {
    let (x, y) = (x as u32, y as u32);
    let r = areas.runs.partition_point(|run| (run.y, run.x1) <= (y, x));
    areas.area[r] as usize
}

/// The rock cells from a neighbour of `(x, y)` (reached at `level`) on the
/// level before, and so on down, back to the first cell that is not rock (a
/// cell of an area joined earlier). `level_of` is `rock`'s size.
fn way_back(rock: &Bits, level_of: &[u32], x: usize, y: usize, level: u32) -> Vec<(usize, usize)> {
    let mut path = Vec::new();
    let (mut x, mut y) = (x, y);
    for below in (0..level).rev() {
        let Some(step) = BACK.iter().find_map(|&(dx, dy)| {
            let (qx, qy) = (x.checked_add_signed(dx)?, y.checked_add_signed(dy)?);
            (qx < rock.width && qy < rock.height && level_of[qy * rock.width + qx] == below).then_some((qx, qy))
        }) else {
            break;
        };
        (x, y) = step;
        if !rock.get(x, y) {
            break;
        }
        path.push((x, y));
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Moves;

    /// Reads a grid drawn with `#` rock, `.` open and `x` fixed ground.
    fn grids(rows: &[&str]) -> (Bits, Bits) {
        let (w, h) = (rows[0].len(), rows.len());
        let (mut rock, mut open) = (Bits::new(w, h, false), Bits::new(w, h, false));
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.bytes().enumerate() {
                match c {
                    b'#' => rock.set(x, y),
                    b'.' => open.set(x, y),
                    _ => {}
                }
            }
        }
        (rock, open)
    }

    #[test]
    fn each_area_gets_one_shortest_passage_from_what_is_joined() {
        let (rock, open) = grids(&[
            "..#####..", //
            "..#####..",
            "#########",
            "####x####",
            "...#x####",
        ]);
        let areas = Areas::of(&open, Moves::Orthogonal);
        assert_eq!(areas.sizes, vec![4, 4, 3]);
        let passages = join_areas(&rock, &areas, &[true; 3], 0, &mut Levels::default());
        // The east area is 5 cells of rock away along row 0 or 1; the south
        // one 2 below the west area.
        assert_eq!(passages.len(), 2);
        assert_eq!(passages[0].len(), 2, "{passages:?}");
        assert_eq!(passages[1].len(), 5, "{passages:?}");
        for path in &passages {
            for pair in path.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                assert_eq!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1), 1, "{path:?} steps");
            }
            assert!(path.iter().all(|&(x, y)| rock.get(x, y)));
        }
    }

    #[test]
    fn areas_walled_off_by_fixed_ground_are_left_and_unwanted_ones_ignored() {
        let (rock, open) = grids(&[
            "..#x..", //
            "..#x..", "###x##", "......",
        ]);
        let areas = Areas::of(&open, Moves::Orthogonal);
        assert_eq!(areas.sizes.len(), 3);
        // The bottom row is not wanted: the east area cannot be reached.
        let passages = join_areas(&rock, &areas, &[true, true, false], 0, &mut Levels::default());
        assert!(passages.is_empty(), "{passages:?}");
        // Wanted, it is joined, and through it the east area.
        let passages = join_areas(&rock, &areas, &[true; 3], 0, &mut Levels::default());
        assert_eq!(passages.iter().map(Vec::len).collect::<Vec<_>>(), vec![1, 1]);
    }

    /// The search this module made before it kept a queue: one pass over
    /// the whole map per level on bit grids, `reached`, `last` and `next`.
    /// Kept as the reference the queue must agree with, passage for passage.
    fn level_set_join(rock: &Bits, areas: &Areas, wanted: &[bool], main: usize) -> Vec<Vec<(usize, usize)>> {
        let (width, height) = (rock.width, rock.height);
        let runs_of = runs_by_area(areas);
        let mut joined: Vec<bool> = wanted.iter().map(|&w| !w).collect();
        joined[main] = true;
        let mut apart = joined.iter().filter(|&&j| !j).count();
        let mut through = rock.clone();
        for (run, &area) in areas.runs.iter().zip(&areas.area) {
            if !joined[area as usize] {
                through.set_run(run.y as usize, run.x0 as usize, run.x1 as usize);
            }
        }
        let mut level_of = vec![UNREACHED; width * height];
        let (mut reached, mut last, mut next) =
            (Bits::new(width, height, false), Bits::new(width, height, false), Bits::new(width, height, false));
        let add_area = |next: &mut Bits, level_of: &mut [u32], area: usize, level: u32| {
            for &r in &runs_of.order[runs_of.start[area] as usize..runs_of.start[area + 1] as usize] {
                let run = areas.runs[r as usize];
                let (y, x0, x1) = (run.y as usize, run.x0 as usize, run.x1 as usize);
                next.set_run(y, x0, x1);
                level_of[y * width + x0..y * width + x1].fill(level);
            }
        };
        add_area(&mut next, &mut level_of, main, 0);
        reached.or_with(&next);
        std::mem::swap(&mut last, &mut next);
        let mut passages = Vec::new();
        let mut level = 0;
        while apart > 0 {
            level += 1;
            next.clear();
            if !last.spread_into(&through, &reached, &mut next) {
                break;
            }
            for (x, y) in next.cells() {
                level_of[y * width + x] = level;
            }
            let met: Vec<(usize, usize)> = next.cells_not_in(rock).collect();
            for (x, y) in met {
                let area = area_at(areas, x, y);
                if joined[area] {
                    continue;
                }
                joined[area] = true;
                apart -= 1;
                passages.push(way_back(rock, &level_of, x, y, level));
                add_area(&mut next, &mut level_of, area, level);
            }
            reached.or_with(&next);
            std::mem::swap(&mut last, &mut next);
        }
        passages
    }

    /// Over random grids, with fixed ground, areas left out and any area to
    /// start from: the queue gives the passages the level-set search gave,
    /// in the same order (so the maps built on them stay as they were).
    #[test]
    fn the_queue_finds_the_passages_the_level_set_search_found() {
        let mut rng = crate::rng::Rng::stream(11, "test", "join-reference");
        let mut levels = Levels::default();
        let mut compared = 0;
        for round in 0..400 {
            let (width, height) = (1 + rng.below(90) as usize, 1 + rng.below(60) as usize);
            let (rock_percent, fixed_percent) = (20 + rng.below(60), [0, 3, 15][round % 3]);
            let (mut rock, mut open) = (Bits::new(width, height, false), Bits::new(width, height, false));
            for y in 0..height {
                for x in 0..width {
                    if rng.percent(fixed_percent) {
                        continue;
                    }
                    if rng.percent(rock_percent) { rock.set(x, y) } else { open.set(x, y) }
                }
            }
            let areas = Areas::of(&open, Moves::Orthogonal);
            if areas.sizes.is_empty() {
                continue;
            }
            let wanted: Vec<bool> = areas.sizes.iter().map(|_| !rng.percent(10)).collect();
            let main = rng.below(areas.sizes.len() as u32) as usize;
            let expected = level_set_join(&rock, &areas, &wanted, main);
            let passages = join_areas(&rock, &areas, &wanted, main, &mut levels);
            assert_eq!(passages, expected, "round {round}: {width}x{height}, {rock_percent}% rock");
            compared += passages.len();
        }
        assert!(compared > 1000, "only {compared} passages compared");
    }

    /// Over random grids: once the passages are dug, every area is one.
    #[test]
    fn digging_the_passages_leaves_one_area() {
        let mut rng = crate::rng::Rng::stream(3, "test", "join");
        let mut levels = Levels::default();
        for (width, height) in [(1, 1), (9, 7), (64, 5), (70, 40), (130, 9)] {
            for percent in [30, 50, 65] {
                let (mut rock, mut open) = (Bits::new(width, height, false), Bits::new(width, height, false));
                for y in 0..height {
                    for x in 0..width {
                        if rng.percent(percent) { rock.set(x, y) } else { open.set(x, y) }
                    }
                }
                let areas = Areas::of(&open, Moves::Orthogonal);
                if areas.sizes.is_empty() {
                    continue;
                }
                let wanted = vec![true; areas.sizes.len()];
                let passages = join_areas(&rock, &areas, &wanted, 0, &mut levels);
                assert_eq!(passages.len(), areas.sizes.len() - 1, "{width}x{height} {percent}%");
                for &(x, y) in passages.iter().flatten() {
                    assert!(rock.get(x, y));
                    open.set(x, y);
                }
                assert_eq!(Areas::of(&open, Moves::Orthogonal).sizes.len(), 1, "{width}x{height} {percent}%");
            }
        }
    }
}
