//! What placing a prefab in a cave does to the map's cells (stamping,
//! carving, filling what is left unreached, raising walls) and the tables the
//! search for a place reads: summed-area counts and the embedded candidates.
//!
//! In: the map and the oriented prefab with its rectangle. Out: cells and
//! regions changed as [`super`] describes; never a panic on any map.

use crate::geom::{Dir, Point, Rect, Transform};
use crate::map::{FloorKind, Map, NO_REGION, RegionId, Role, Terrain, mask};
use crate::prefab::Prefab;
use std::collections::HashMap;

/// Counts of the cells where a test holds, summed over every rectangle from
/// the map's north-west corner, so any rectangle's count takes four reads.
#[derive(Default)]
pub(super) struct SummedArea {
    /// `(width + 1) x (height + 1)` sums.
    pub(super) sums: Vec<u32>,
    pub(super) width: usize,
    pub(super) height: usize,
}

impl SummedArea {
    /// Zeroes the table for a `width x height` map.
    pub(super) fn reset(&mut self, width: usize, height: usize) {
        (self.width, self.height) = (width, height);
        self.sums.clear();
        self.sums.resize((width + 1) * (height + 1), 0);
    }

    /// The sums above map row `y` and the sums to fill in for it, each
    /// `width + 1` long (the first entry of each is the zero column).
    pub(super) fn rows(&mut self, y: usize) -> (&[u32], &mut [u32]) {
        let stride = self.width + 1;
        let (above, here) = self.sums[y * stride..(y + 2) * stride].split_at_mut(stride);
        (above, here)
    }

    /// The count over `r`, clipped to the map.
    pub(super) fn sum(&self, r: Rect) -> u32 {
        let stride = self.width + 1;
        let clip = |v: i32, hi: usize| v.clamp(0, hi as i32) as usize;
        let (x0, x1) = (clip(r.x, self.width), clip(r.right(), self.width));
        let (y0, y1) = (clip(r.y, self.height), clip(r.bottom(), self.height));
        if x0 >= x1 || y0 >= y1 {
            return 0;
        }
        self.sums[y1 * stride + x1] + self.sums[y0 * stride + x0]
            - self.sums[y0 * stride + x1]
            - self.sums[y1 * stride + x0]
    }
}

/// The bit of `d` in a mask of sides, in [`Dir::ALL`] order.
pub(super) fn dir_bit(d: Dir) -> u8 {
    Dir::ALL.iter().position(|&x| x == d).unwrap_or(0) as u8
}

/// True when the drawn cell `q` of `prefab` is walkable.
pub(super) fn opens(prefab: &Prefab, q: Point) -> bool {
    prefab.cells().get(q).copied().flatten().is_some_and(|t| t.is_walkable())
}

/// True when the oriented prefab at `rect` draws a walkable cell at map cell `p`.
pub(super) fn drawn_open(oriented: &Prefab, rect: Rect, p: Point) -> bool {
    opens(oriented, p - Point::new(rect.x, rect.y))
}

/// The cells in front of the openings of `prefab`'s bottom row (its walkable
/// cells and south link marks), turned by `t` and placed at `at`.
pub(super) fn front_openings(prefab: &Prefab, t: Transform, at: Point) -> impl Iterator<Item = Point> + '_ {
    let (w, h) = (prefab.width(), prefab.height());
    let facing = t.apply_dir(Dir::South);
    (0..w)
        .map(move |x| Point::new(x, h - 1))
        .filter(move |&q| opens(prefab, q) || prefab.links().iter().any(|l| l.at == q && l.dir == Dir::South))
        .map(move |q| at + t.apply_point(q, w, h) + facing.delta())
}

/// The row of cells just outside `rect` on side `side`, corners left out.
pub(super) fn front_line(rect: Rect, side: Dir) -> Rect {
    match side {
        Dir::North => Rect::new(rect.x, rect.y - 1, rect.width, 1),
        Dir::South => Rect::new(rect.x, rect.bottom(), rect.width, 1),
        Dir::West => Rect::new(rect.x - 1, rect.y, 1, rect.height),
        Dir::East => Rect::new(rect.right(), rect.y, 1, rect.height),
    }
}

/// True when `p`, a cell of `rect`, lies on its edge.
pub(super) fn on_edge(rect: Rect, p: Point) -> bool {
    p.x == rect.x || p.y == rect.y || p.x == rect.right() - 1 || p.y == rect.bottom() - 1
}

/// The side of `rect` an edge cell lies on (north and south first at corners).
pub(super) fn side_of(rect: Rect, p: Point) -> Dir {
    if p.y == rect.y {
        Dir::North
    } else if p.y == rect.bottom() - 1 {
        Dir::South
    } else if p.x == rect.x {
        Dir::West
    } else {
        Dir::East
    }
}

/// Writes the oriented prefab's drawn cells (its `?` cells keep the ground),
/// protects all but earth, and moves their walkable cells into `region`.
pub(super) fn stamp(map: &mut Map, oriented: &Prefab, rect: Rect, region: RegionId) {
    let at = Point::new(rect.x, rect.y);
    for local in oriented.cells().bounds().points() {
        let Some(t) = oriented.cells()[local] else { continue };
        let p = at + local;
        leave_region(map, p);
        map.terrain[p] = t;
        if !t.is(Role::Earth) {
            map.masks[p] |= mask::PROTECTED;
        }
        if t.is_walkable() {
            join_region(map, p, region);
        }
    }
}

/// Takes `p` out of the region holding it.
pub(super) fn leave_region(map: &mut Map, p: Point) {
    let old = map.region_of[p];
    if old != NO_REGION {
        let r = &mut map.regions[old as usize];
        r.area = r.area.saturating_sub(1);
        map.region_of[p] = NO_REGION;
    }
}

/// Puts the walkable cell `p` into `region`, growing its bounds.
pub(super) fn join_region(map: &mut Map, p: Point, region: RegionId) {
    map.region_of[p] = region;
    let r = &mut map.regions[region as usize];
    r.area += 1;
    r.bounds = r.bounds.union(&Rect::new(p.x, p.y, 1, 1));
}

/// Turns rock at `p` into cave floor of `region` (the cavern, a passage, or
/// the prefab a link's way out crosses); open ground stays as it is.
pub(super) fn carve(map: &mut Map, p: Point, region: RegionId) {
    if !map.is_walkable(p) {
        map.terrain[p] = Terrain::floor(FloorKind::Cave);
        join_region(map, p, region);
    }
}

/// Fills the walkable cells under a centred prefab's `?` cells that its ring
/// cannot reach, so no pocket of the cave is left shut in.
pub(super) fn fill_unreached(map: &mut Map, oriented: &Prefab, rect: Rect) {
    let window = rect.expand(1);
    let local = |p: Point| ((p.y - window.y) * window.width + (p.x - window.x)) as usize;
    let mut seen = vec![false; (window.width * window.height) as usize];
    let mut stack: Vec<Point> = rect.ring().collect();
    for &p in &stack {
        seen[local(p)] = true;
    }
    while let Some(p) = stack.pop() {
        for &step in map.moves.steps() {
            let q = p + step;
            if rect.contains(q) && !seen[local(q)] && map.is_walkable(q) {
                seen[local(q)] = true;
                stack.push(q);
            }
        }
    }
    let at = Point::new(rect.x, rect.y);
    for p in rect.points() {
        if map.is_walkable(p) && !seen[local(p)] && oriented.cells()[p - at].is_none() {
            leave_region(map, p);
            map.terrain[p] = Terrain::new(Role::Wall);
        }
    }
}

/// Raises walls in `area`: unprotected earth touching open ground becomes
/// wall — also under the `?` cells of the oriented prefab at `rect`, which
/// keep the ground; earth the prefab draws on purpose stays.
pub(super) fn raise_walls(map: &mut Map, area: Rect, oriented: &Prefab, rect: Rect) {
    let at = Point::new(rect.x, rect.y);
    for p in area.points() {
        let drawn = rect.contains(p) && oriented.cells()[p - at].is_some();
        if drawn || !map.bounds().contains(p) {
            continue;
        }
        if map.terrain[p] == Terrain::EARTH && !map.is_protected(p) && touches_open(map, p) {
            map.terrain[p] = Terrain::new(Role::Wall);
        }
    }
}

/// True when one of the 8 cells around `p` is walkable.
pub(super) fn touches_open(map: &Map, p: Point) -> bool {
    (-1..=1).any(|dy| (-1..=1).any(|dx| (dx, dy) != (0, 0) && map.is_walkable(p + Point::new(dx, dy))))
}

/// The places an embedded prefab may be tried at around one cavern, in the
/// order a list of them would hold: for each boundary cell, each turn whose
/// back faces its rock, each opening. Only the running count is kept, a
/// number per boundary cell; a place is made from it when asked for, and the
/// places a partial shuffle has moved are kept beside it, looked up by where
/// they stand now (so each draw costs the same however many came before).
pub(super) struct Candidates<'a> {
    pub(super) cells: &'a [(Point, u8)],
    pub(super) turned: &'a [(Dir, Vec<Point>)],
    pub(super) openings: usize,
    /// For each boundary cell, the places before it and its own.
    pub(super) ends: Vec<usize>,
    /// Where the partial shuffle has put each place: the whole order when
    /// there are few enough to list (up to [`LISTED_PLACES`]), else only the
    /// places moved, index -> what is there now (looked up, never listed, so
    /// a hash map's order shows nowhere). Either gives the same order.
    pub(super) order: Order,
}

/// The most places a [`Candidates`] lists in full (a few hundred kilobytes);
/// more, as around a cavern of a 2048x2048 map, are tracked by their moves.
const LISTED_PLACES: usize = 1 << 16;

/// How a [`Candidates`] keeps its shuffled order.
pub(super) enum Order {
    Listed(Vec<u32>),
    Moved(HashMap<usize, usize>),
}

impl<'a> Candidates<'a> {
    pub(super) fn new(cells: &'a [(Point, u8)], turned: &'a [(Dir, Vec<Point>)], openings: usize) -> Candidates<'a> {
        let mut total = 0;
        let ends = cells
            .iter()
            .map(|&(_, rock)| {
                let turns = turned.iter().filter(|(facing, _)| rock & (1 << dir_bit(facing.opposite())) != 0).count();
                total += turns * openings;
                total
            })
            .collect();
        let order = match total {
            0..=LISTED_PLACES => Order::Listed((0..total as u32).collect()),
            _ => Order::Moved(HashMap::new()),
        };
        Candidates { cells, turned, openings, ends, order }
    }

    pub(super) fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Which place of the unshuffled list stands at `i` now.
    pub(super) fn original(&self, i: usize) -> usize {
        match &self.order {
            Order::Listed(order) => order.get(i).map_or(i, |&o| o as usize),
            Order::Moved(moved) => moved.get(&i).copied().unwrap_or(i),
        }
    }

    pub(super) fn swap(&mut self, i: usize, j: usize) {
        match &mut self.order {
            Order::Listed(order) => order.swap(i, j),
            Order::Moved(moved) => {
                let (a, b) = (moved.get(&i).copied().unwrap_or(i), moved.get(&j).copied().unwrap_or(j));
                moved.insert(i, b);
                moved.insert(j, a);
            }
        }
    }

    /// The place at `i`: a turn's index and the prefab's top-left corner
    /// (`None` only past the end).
    pub(super) fn get(&self, i: usize) -> Option<(u8, Point)> {
        let i = self.original(i);
        let cell = self.ends.partition_point(|&end| end <= i);
        let before = if cell == 0 { 0 } else { self.ends[cell - 1] };
        let &(p, rock) = self.cells.get(cell)?;
        let (nth_turn, opening) = ((i - before) / self.openings, (i - before) % self.openings);
        let (ti, (facing, opened)) = self
            .turned
            .iter()
            .enumerate()
            .filter(|(_, (facing, _))| rock & (1 << dir_bit(facing.opposite())) != 0)
            .nth(nth_turn)?;
        Some((ti as u8, p + facing.opposite().delta() - *opened.get(opening)?))
    }
}
