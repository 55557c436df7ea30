//! Layout generators: digging the map around the features.
//!
//! A layout generator takes the map after the features stage (prefabs placed and
//! protected, barriers BLOCKED, link marks recorded) plus the map type's resolved
//! tunneler [`Start`]s, and digs everything else. Whatever the algorithm, the result
//! is described the same way: [`Region`](crate::map::Region)s with bounds and doors,
//! every walkable cell connected, every link mark reached, protected and BLOCKED
//! cells untouched, walls around the open space.
//!
//! `Carver` is the machinery generators share: it classifies cells, digs them
//! into regions, tracks which regions are connected (union-find, so no flood fill
//! is needed while digging), joins leftover networks with shortest corridors, and
//! raises walls.

mod caves;
mod cells;

pub(crate) use caves::prefabs as cave_prefabs;
mod chain;
mod pathways;
mod shapes;
mod tunnelers;

use crate::bits::pack_bytes;
use crate::content::Pack;
use crate::content::maptype::{LayoutGenerator, WeightedGenerator};
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Point, Rect, largest_empty_rect};
use crate::map::{Door, FloorKind, LayoutStats, Map, NO_REGION, RegionId, RegionKind, Role, Terrain, mask};
use crate::rng::Rng;
use crate::trace::Outcome;

/// A tunneler start named by the map type, resolved to a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The centre of the start's junction square.
    pub at: Point,
    /// The first heading.
    pub dir: Dir,
    /// Tunnel width.
    pub width: u8,
}

/// What a map type's generators need that stays the same from map to map (the
/// chain's and pathways' prefabs in every orientation), built once per
/// [`Generator`](crate::Generator).
pub(crate) struct Prepared {
    /// For each generator of the map type, in order: what it builds from.
    ready: Vec<Ready>,
}

impl Prepared {
    /// Prepares every generator of a map type `width` cells wide.
    pub fn new(pack: &Pack, generators: &[WeightedGenerator], width: i32) -> Prepared {
        Prepared { ready: generators.iter().map(|g| Ready::new(&g.generator, pack, width)).collect() }
    }
}

/// What a generator builds from that stays the same from map to map, made
/// once per map type from its parameters and the pack; `()` for a generator
/// that needs nothing.
trait Prepare<P> {
    /// Prepares for maps `map_width` cells wide.
    fn prepare(params: &P, pack: &Pack, map_width: i32) -> Self;
}

impl<P> Prepare<P> for () {
    fn prepare(_: &P, _: &Pack, _: i32) {}
}

/// Writes, from the table below, the `Ready` enum (what one generator builds
/// from, prepared once) and the two matches that tell generators apart:
/// preparing one and building with it. Each line pairs a `LayoutGenerator`
/// variant with its folder under `layout/`, which holds `Prepared` (a type
/// implementing [`Prepare`] for the generator's parameters) and `build`. The
/// calls are static: one enum, matched once per map, no trait objects.
macro_rules! generators {
    ($($variant:ident => $folder:ident),+ $(,)?) => {
        /// What one generator builds from, prepared once.
        enum Ready {
            $($variant($folder::Prepared),)+
        }

        impl Ready {
            /// Prepares `generator` for maps `width` cells wide.
            fn new(generator: &LayoutGenerator, pack: &Pack, width: i32) -> Ready {
                match generator {
                    $(LayoutGenerator::$variant(params) => {
                        Ready::$variant(<$folder::Prepared as Prepare<_>>::prepare(params, pack, width))
                    })+
                }
            }

            /// Builds with `generator`, if this was prepared for it.
            fn build(
                &self,
                map: &mut Map,
                generator: &LayoutGenerator,
                input: &Input<'_>,
            ) -> Option<Result<LayoutStats, Error>> {
                match (generator, self) {
                    $((LayoutGenerator::$variant(params), Ready::$variant(ready)) => {
                        Some($folder::build(map, ready, params, input))
                    })+
                    _ => None,
                }
            }
        }
    };
}

// The generators: adding one is a `mod` line above and a line here.
generators! {
    Tunnelers => tunnelers,
    Chain => chain,
    Pathways => pathways,
    Caves => caves,
}

/// What every generator's `build` digs from besides the map, what was prepared
/// for it and its parameters.
pub(crate) struct Input<'a> {
    /// The map type's tunneler starts, resolved (only the tunnelers use them).
    pub starts: &'a [Start],
    /// Feeds the generator's own random streams.
    pub seed: u64,
}

/// Lays out `map` with one of the map type's generators, chosen by weight. `seed`
/// feeds the layout's own random streams; `prepared` holds what the generators
/// build from (made by [`Prepared::new`] for these generators).
pub(crate) fn run(
    map: &mut Map,
    prepared: &Prepared,
    generators: &[WeightedGenerator],
    starts: &[Start],
    seed: u64,
) -> Result<LayoutStats, Error> {
    let weights: Vec<u32> = generators.iter().map(|g| g.weight).collect();
    let chosen = Rng::stream(seed, "layout", "generator").weighted(&weights).unwrap_or(0);
    let Some(generator) = generators.get(chosen).map(|g| &g.generator) else {
        return Err(Error::new(ErrorKind::Generation, "the map type names no layout generator"));
    };
    if generators.len() > 1 {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        map.trace.push_with("layout", Outcome::Chose, None, || {
            format!("generator `{}` (weight {} of {total})", generator.name(), weights[chosen])
        });
    }
    let input = Input { starts, seed };
    // Every generator answers the same call (see `generators!`).
    let Some(built) = prepared.ready.get(chosen).and_then(|ready| ready.build(map, generator, &input)) else {
        return Err(Error::new(
            ErrorKind::Generation,
            format!("the {} generator was not prepared for this map type", generator.name()),
        ));
    };
    let stats = built?;
    map.layout = stats.clone();
    Ok(stats)
}

/// What digging may do with a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    /// Unprotected earth inside the map's interior.
    Diggable,
    /// Walkable; belongs to this region.
    Open(RegionId),
    /// Anything else: wall, BLOCKED, protected, or the map's outer ring.
    Solid,
}

const DIGGABLE: u8 = 0;
const OPEN: u8 = 1;
const SOLID: u8 = 2;

/// Shared digging state over one map.
pub(crate) struct Carver<'m> {
    pub map: &'m mut Map,
    /// What digging may do with each cell (`DIGGABLE`, `OPEN`, `SOLID`), row-major:
    /// one byte per cell instead of reading terrain, masks and bounds each time.
    state: Vec<u8>,
    /// Union-find parents, indexed by region id.
    parent: Vec<RegionId>,
    pub open_cells: u32,
}

impl<'m> Carver<'m> {
    pub fn new(map: &'m mut Map) -> Carver<'m> {
        let parent = (0..map.regions.len() as RegionId).collect();
        let mut state: Vec<u8> = map
            .terrain
            .cells()
            .iter()
            .zip(map.masks.cells())
            .map(|(t, m)| {
                if t.is_walkable() {
                    OPEN
                } else if t.is(Role::Earth) && m & mask::PROTECTED == 0 {
                    DIGGABLE
                } else {
                    SOLID
                }
            })
            .collect();
        // Nothing digs the outermost ring of the map.
        let (w, h) = (map.width() as usize, map.height() as usize);
        for x in 0..w {
            for y in [0, h.saturating_sub(1)] {
                if state[y * w + x] == DIGGABLE {
                    state[y * w + x] = SOLID;
                }
            }
        }
        for y in 0..h {
            for x in [0, w.saturating_sub(1)] {
                if state[y * w + x] == DIGGABLE {
                    state[y * w + x] = SOLID;
                }
            }
        }
        // Every walkable cell of a map handed to a layout belongs to a region.
        let open_cells = map.regions.iter().map(|r| r.area).sum();
        Carver { map, state, parent, open_cells }
    }

    /// Cells a tunnel may occupy: the map minus its outermost ring.
    pub fn interior(&self) -> Rect {
        self.map.bounds().expand(-1)
    }

    /// The largest rectangle of untouched (diggable) cells inside `within` with
    /// both sides at least `min_side` cells, searched on blocks of 2x2 cells
    /// that count only when all four are diggable: a quarter of the work of a
    /// search by cells, at the price of up to a cell on each side.
    pub fn largest_diggable(&self, within: Rect, min_side: i32) -> Rect {
        let w = self.map.width().max(0) as usize;
        let (bw, bh) = (self.map.width() / 2, self.map.height() / 2);
        // Blocks wholly inside `within`.
        let bx0 = (within.x + 1).div_euclid(2).clamp(0, bw) as usize;
        let bx1 = within.right().div_euclid(2).clamp(0, bw) as usize;
        let by0 = (within.y + 1).div_euclid(2).max(0) as usize;
        let by1 = within.bottom().div_euclid(2).min(bh).max(0) as usize;
        let blocks = largest_empty_rect(bw, bh, (min_side + 1) / 2, |by, row| {
            if by < by0 || by >= by1 || bx0 >= bx1 {
                return;
            }
            let top = &self.state[2 * by * w + 2 * bx0..2 * by * w + 2 * bx1];
            let bottom = &self.state[(2 * by + 1) * w + 2 * bx0..(2 * by + 1) * w + 2 * bx1];
            let pairs = top.chunks_exact(2).zip(bottom.chunks_exact(2));
            for (empty, (t, b)) in row[bx0..bx1].iter_mut().zip(pairs) {
                *empty = (t[0] | t[1] | b[0] | b[1]) == DIGGABLE;
            }
        });
        Rect::new(2 * blocks.x, 2 * blocks.y, 2 * blocks.width, 2 * blocks.height)
    }

    #[inline]
    pub fn classify(&self, p: Point) -> Cell {
        let Some(i) = self.map.terrain.index_of(p) else { return Cell::Solid };
        self.classify_index(i)
    }

    /// [`Carver::classify`] of the cell at index `i` (row-major) of the map.
    #[inline]
    fn classify_index(&self, i: usize) -> Cell {
        match self.state[i] {
            DIGGABLE => Cell::Diggable,
            OPEN => Cell::Open(self.map.region_of.cells()[i]),
            _ => Cell::Solid,
        }
    }

    /// The state bytes of row `y`, columns `x0..x1` (which must be inside the map).
    fn state_row(&self, y: i32, x0: i32, x1: i32) -> &[u8] {
        let w = self.map.width() as usize;
        let start = y as usize * w;
        &self.state[start + x0 as usize..start + x1 as usize]
    }

    /// True when every cell of `r` is diggable.
    pub fn all_diggable(&self, r: Rect) -> bool {
        self.map.bounds().contains_rect(&r)
            && (r.y..r.bottom()).all(|y| self.state_row(y, r.x, r.right()).iter().all(|&s| s == DIGGABLE))
    }

    /// True when no cell of `r`'s surrounding ring is open.
    pub fn ring_closed(&self, r: Rect) -> bool {
        let (x0, x1) = (r.x - 1, r.right() + 1);
        let rows = [Rect::new(x0, r.y - 1, x1 - x0, 1), Rect::new(x0, r.bottom(), x1 - x0, 1)];
        let columns = [Rect::new(x0, r.y, 1, r.height), Rect::new(r.right(), r.y, 1, r.height)];
        rows.into_iter().chain(columns).all(|line| self.open_in(line) == 0)
    }

    /// How many cells of `r` are open (none off the map), counted along the
    /// rows of the state: the checks around rooms ask this of whole wall lines.
    /// A line one cell wide is read straight down the state, a map's width a
    /// step, not as a row slice per cell: the west and east wall lines are
    /// half of what the tunnelers ask.
    pub fn open_in(&self, r: Rect) -> u32 {
        let r = r.intersection(&self.map.bounds());
        if r.is_empty() {
            return 0;
        }
        let w = self.map.width() as usize;
        let cells = &self.state[r.y as usize * w + r.x as usize..];
        let (width, height) = (r.width as usize, r.height as usize);
        let is_open = |&s: &u8| u32::from(s == OPEN);
        if width == 1 {
            return cells.iter().step_by(w).take(height).map(is_open).sum();
        }
        cells.chunks(w).take(height).map(|row| row[..width].iter().map(is_open).sum::<u32>()).sum()
    }

    /// Scans a tunnel's way ahead: `rows` rows of `width` cells, each row from
    /// `first + k*forward` across by `across`, plus one margin cell on each side.
    /// Returns how many rows are clear, and what stops the scan: `None` (nothing),
    /// `Some(None)` (solid in the body or open in a margin), or `Some(Some(region))`
    /// (open space of `region` in the body of the next row).
    pub fn scan_rows(
        &self,
        first: Point,
        forward: Point,
        across: Point,
        width: i32,
        rows: i32,
    ) -> (i32, Option<Option<RegionId>>) {
        let corner_a = first - across;
        let corner_b = first + forward * (rows - 1) + across * width;
        let inside = self.map.bounds().contains(corner_a) && self.map.bounds().contains(corner_b);
        let w = self.map.width() as isize;
        let step_k = forward.y as isize * w + forward.x as isize;
        let step_j = across.y as isize * w + across.x as isize;
        let start = corner_a.y as isize * w + corner_a.x as isize;
        for k in 0..rows {
            let row = start + k as isize * step_k;
            let verdict = if inside {
                // DIGGABLE is 0: a row of untouched earth ORs to 0 and needs no more look.
                if self.row_bits(row, step_j, width) == DIGGABLE {
                    continue;
                }
                self.row_verdict(width, |j| Some((row + (j + 1) as isize * step_j) as usize))
            } else {
                let base = first + forward * k;
                self.row_verdict(width, |j| self.map.terrain.index_of(base + across * j))
            };
            if let Some(stop) = verdict {
                return (k, Some(stop));
            }
        }
        (rows, None)
    }

    /// The OR of the state bytes of a scanned row (margins included).
    fn row_bits(&self, row: isize, step_j: isize, width: i32) -> u8 {
        let n = width as isize + 2;
        match step_j {
            1 => self.state[row as usize..(row + n) as usize].iter().fold(0, |a, &s| a | s),
            -1 => self.state[(row - n + 1) as usize..=row as usize].iter().fold(0, |a, &s| a | s),
            _ => (0..n).fold(0, |a, j| a | self.state[(row + j * step_j) as usize]),
        }
    }

    /// What one scanned row means for a tunnel: `None` when it may be dug, else as
    /// for [`Carver::scan_rows`]. `cell(j)` gives the index of cell `j` (`-1..=width`),
    /// `None` outside the map.
    fn row_verdict(&self, width: i32, cell: impl Fn(i32) -> Option<usize>) -> Option<Option<RegionId>> {
        let mut open = None;
        let mut side_open = false;
        for j in -1..=width {
            let index = cell(j);
            let s = index.map_or(SOLID, |i| self.state[i]);
            if j >= 0 && j < width {
                if s == SOLID {
                    return Some(None);
                }
                if let (OPEN, None, Some(i)) = (s, open, index) {
                    open = Some(self.map.region_of.cells()[i]);
                }
            } else if s == OPEN {
                side_open = true;
            }
        }
        match (open, side_open) {
            (Some(region), _) => Some(Some(region)),
            (None, true) => Some(None),
            (None, false) => None,
        }
    }

    /// A new region, connected to `parent` when given.
    pub fn region(&mut self, kind: RegionKind, bounds: Rect, parent: Option<RegionId>) -> RegionId {
        let id = self.map.add_region(kind, bounds);
        self.parent.push(id);
        if let Some(p) = parent {
            self.union(id, p);
        }
        id
    }

    /// Grows a region's bounds to cover `r`.
    pub fn extend(&mut self, region: RegionId, r: Rect) {
        let b = &mut self.map.regions[region as usize].bounds;
        *b = b.union(&r);
    }

    /// Turns a cell into `terrain` belonging to `region`; callers check first that
    /// the cell may be dug (`classify`).
    pub fn dig(&mut self, p: Point, terrain: Terrain, region: RegionId) {
        if let Some(i) = self.map.terrain.index_of(p) {
            if self.state[i] != OPEN {
                self.open_cells += 1;
                self.state[i] = OPEN;
            }
            self.map.terrain.cells_mut()[i] = terrain;
            self.map.region_of.cells_mut()[i] = region;
            self.map.regions[region as usize].area += 1;
        }
    }

    /// Digs every diggable cell of `r` as `floor`, for `region`.
    pub fn dig_rect(&mut self, r: Rect, floor: FloorKind, region: RegionId) {
        let w = self.map.width();
        let (x0, x1) = (r.x.max(0), r.right().min(w));
        let (y0, y1) = (r.y.max(0), r.bottom().min(self.map.height()));
        let terrain = Terrain::floor(floor);
        let mut dug = 0;
        for y in y0..y1 {
            let cells = (y * w + x0) as usize..(y * w + x1) as usize;
            let states = &mut self.state[cells.clone()];
            let terrains = &mut self.map.terrain.cells_mut()[cells.clone()];
            let regions = &mut self.map.region_of.cells_mut()[cells];
            // Written without a branch per cell (selects, which the compiler
            // may widen): rooms are mostly untouched earth, but not wholly.
            for ((s, t), r) in states.iter_mut().zip(terrains).zip(regions) {
                let diggable = *s == DIGGABLE;
                *s = if diggable { OPEN } else { *s };
                *t = if diggable { terrain } else { *t };
                *r = if diggable { region } else { *r };
                dug += u32::from(diggable);
            }
        }
        self.open_cells += dug;
        self.map.regions[region as usize].area += dug;
    }

    /// Turns open cell `p` back into a lone wall of no region (a column): it no
    /// longer counts in its region's area or among the open cells.
    pub fn raise_column(&mut self, p: Point) {
        let Some(i) = self.map.terrain.index_of(p) else { return };
        if self.state[i] != OPEN {
            return;
        }
        let region = self.map.region_of.cells()[i];
        if let Some(r) = self.map.regions.get_mut(region as usize) {
            r.area -= 1;
        }
        self.state[i] = SOLID;
        self.open_cells -= 1;
        self.map.terrain.cells_mut()[i] = Terrain::new(Role::Wall);
        self.map.region_of.cells_mut()[i] = NO_REGION;
    }

    /// Records `at` as a way into `region` if it lies on the region's wall line.
    pub fn add_door(&mut self, region: RegionId, at: Point) {
        let r = &mut self.map.regions[region as usize];
        if !matches!(r.kind, RegionKind::Room | RegionKind::Hall) || r.doors.iter().any(|d| d.at == at) {
            return;
        }
        let Some(side) = r.bounds.ring_side(at) else { return };
        r.doors.push(Door { at, side, to: None });
    }

    pub fn find(&mut self, mut a: RegionId) -> RegionId {
        while self.parent[a as usize] != a {
            let grand = self.parent[self.parent[a as usize] as usize];
            self.parent[a as usize] = grand;
            a = grand;
        }
        a
    }

    pub fn union(&mut self, a: RegionId, b: RegionId) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // The older region stays the root, which keeps roots stable.
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.parent[hi as usize] = lo;
        }
    }

    /// Joins all networks into one with shortest 1-wide corridors dug through
    /// diggable cells. Returns how many corridors were dug, or an error
    /// naming a network that cannot be reached.
    pub fn connect_networks(&mut self) -> Result<u32, Error> {
        let mut dug = 0;
        let budget = self.map.regions.len() + 1;
        for _ in 0..budget {
            let mut areas: Vec<(RegionId, u64)> = Vec::new();
            for id in 0..self.map.regions.len() as RegionId {
                let root = self.find(id);
                let area = u64::from(self.map.regions[id as usize].area);
                match areas.iter_mut().find(|(r, _)| *r == root) {
                    Some(entry) => entry.1 += area,
                    None => areas.push((root, area)),
                }
            }
            areas.retain(|(_, a)| *a > 0);
            if areas.len() <= 1 {
                return Ok(dug);
            }
            // Search from the smallest network: it is usually a stray pocket near
            // the main one, and a search from it stops as soon as it gets there.
            areas.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
            let stray = areas[0].0;
            match self.shortest_path_from(stray) {
                // An empty path means the networks already touched: joined, not dug.
                Some(path) => {
                    dug += u32::from(!path.is_empty());
                    self.dig_path(&path, stray);
                }
                None => return Err(self.unreachable(stray)),
            }
        }
        Err(Error::new(ErrorKind::Generation, "joining networks did not finish within its attempt budget"))
    }

    /// Breadth-first search from every cell of network `root` through diggable
    /// cells to the nearest open cell of another network. Returns the diggable cells
    /// of the way, from `root`'s side, ending next to the other network.
    fn shortest_path_from(&mut self, root: RegionId) -> Option<Vec<Point>> {
        let w = self.map.width();
        let n = self.map.terrain.cells().len();
        const UNSEEN: u32 = u32::MAX;
        const SOURCE: u32 = u32::MAX - 1;
        let mut prev = vec![UNSEEN; n];
        let mut queue: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
        // Sources: the open cells of every region of the network, found through the
        // regions' bounds rather than by scanning the whole map.
        for id in 0..self.map.regions.len() as RegionId {
            if self.find(id) != root {
                continue;
            }
            for p in self.map.regions[id as usize].bounds.points() {
                if let Some(i) = self.map.terrain.index_of(p)
                    && self.map.region_of.cells()[i] == id
                    && self.state[i] == OPEN
                    && prev[i] == UNSEEN
                {
                    prev[i] = SOURCE;
                    queue.push_back(i as u32);
                }
            }
        }
        let width = w as usize;
        while let Some(i) = queue.pop_front() {
            let (at, x) = (i as usize, i as usize % width);
            for d in Dir::ALL {
                // The neighbour's index, found from this cell's without a point.
                let j = match d {
                    Dir::North => at.checked_sub(width),
                    Dir::South => Some(at + width).filter(|&j| j < n),
                    Dir::West => (x > 0).then(|| at - 1),
                    Dir::East => (x + 1 < width).then_some(at + 1),
                };
                let Some(j) = j else { continue };
                if prev[j] != UNSEEN {
                    continue;
                }
                match self.classify_index(j) {
                    Cell::Diggable => {
                        prev[j] = i;
                        queue.push_back(j as u32);
                    }
                    Cell::Open(r) if r != NO_REGION && self.find(r) != root && prev[i as usize] != SOURCE => {
                        let mut path = Vec::new();
                        let mut k = i as usize;
                        while prev[k] != SOURCE {
                            path.push(self.map.terrain.point_of(k));
                            k = prev[k] as usize;
                        }
                        path.reverse();
                        return Some(path);
                    }
                    Cell::Open(r) if r != NO_REGION && self.find(r) != root => {
                        // Two networks already touch: nothing to dig, just join them.
                        self.union(root, r);
                        return Some(Vec::new());
                    }
                    _ => {}
                }
            }
        }
        None
    }

    /// Digs a path as corridor regions, one per straight run, and joins the networks
    /// at both ends.
    fn dig_path(&mut self, path: &[Point], root: RegionId) {
        let (Some(&first), Some(&last)) = (path.first(), path.last()) else { return };
        // Split the way into straight runs so every corridor region is a rectangle.
        let mut runs: Vec<&[Point]> = Vec::new();
        let mut start = 0;
        for i in 1..path.len() {
            let turns = i - start >= 2 && path[i] - path[i - 1] != path[start + 1] - path[start];
            if turns {
                runs.push(&path[start..i]);
                start = i;
            }
        }
        runs.push(&path[start..]);
        let mut previous = root;
        for run in runs {
            let bounds = Rect::spanning(run[0], run[run.len() - 1]);
            let region = self.region(RegionKind::Corridor, bounds, Some(previous));
            for &p in run {
                self.dig(p, Terrain::floor(FloorKind::Corridor), region);
            }
            previous = region;
        }
        // The last cell touches another network's open cell: join them, and record
        // the opening if that is a room or hall.
        for d in Dir::ALL {
            if let Cell::Open(r) = self.classify(last + d.delta())
                && r != NO_REGION
            {
                self.union(previous, r);
                self.add_door(r, last);
            }
        }
        for d in Dir::ALL {
            if let Cell::Open(r) = self.classify(first + d.delta())
                && r != NO_REGION
            {
                self.add_door(r, first);
            }
        }
    }

    fn unreachable(&self, stranded: RegionId) -> Error {
        let region = &self.map.regions[stranded as usize];
        let what = match region.prefab.and_then(|i| self.map.prefabs.get(i)) {
            Some(p) => format!("prefab `{}` at ({}, {})", p.name, p.bounds.x, p.bounds.y),
            None => format!("a {} at ({}, {})", region.kind.name(), region.bounds.x, region.bounds.y),
        };
        Error::new(ErrorKind::Generation, format!("{what} cannot be connected to the rest of the map")).with_help(
            "no diggable earth leads there: give the prefab a link mark or earth around its opening, or move barriers",
        )
    }

    /// Raises walls: every unprotected earth cell touching an open cell (diagonals
    /// included) becomes wall — around rooms, corridors and prefab floors alike.
    ///
    /// Works on a bitset of open cells, one row of 64-bit words per map row, read
    /// from the carver's own state bytes (every open cell belongs to a region or
    /// is a door). Dilating it with shifts and ORs leaves only the few candidate
    /// cells to look at one by one.
    pub fn raise_walls(&mut self) {
        let (w, h) = (self.map.width() as usize, self.map.height() as usize);
        let words = w.div_ceil(64);
        let mut open = vec![0u64; words * h];
        let mut opens = [0u8; 64];
        for y in 0..h {
            let states = &self.state[y * w..(y + 1) * w];
            for (word, chunk) in open[y * words..(y + 1) * words].iter_mut().zip(states.chunks(64)) {
                opens.fill(0);
                for (o, &s) in opens.iter_mut().zip(chunk) {
                    *o = u8::from(s == OPEN);
                }
                *word = pack_bytes(&opens);
            }
        }
        // Each row's bits widened by one cell to either side.
        let mut wide = vec![0u64; words * h];
        for y in 0..h {
            let row = &open[y * words..(y + 1) * words];
            for k in 0..words {
                let from_left = if k > 0 { row[k - 1] >> 63 } else { 0 };
                let from_right = if k + 1 < words { row[k + 1] << 63 } else { 0 };
                wide[y * words + k] = row[k] | (row[k] << 1) | from_left | (row[k] >> 1) | from_right;
            }
        }
        let last_word_mask = if w % 64 == 0 { u64::MAX } else { (1u64 << (w % 64)) - 1 };
        let terrain = self.map.terrain.cells_mut();
        let masks = self.map.masks.cells();
        for y in 0..h {
            for k in 0..words {
                let above = if y > 0 { wide[(y - 1) * words + k] } else { 0 };
                let below = if y + 1 < h { wide[(y + 1) * words + k] } else { 0 };
                let mut candidates = (above | wide[y * words + k] | below) & !open[y * words + k];
                if k + 1 == words {
                    candidates &= last_word_mask;
                }
                while candidates != 0 {
                    let x = k * 64 + candidates.trailing_zeros() as usize;
                    candidates &= candidates - 1;
                    let i = y * w + x;
                    if terrain[i].is(Role::Earth) && masks[i] & mask::PROTECTED == 0 {
                        terrain[i] = Terrain::new(Role::Wall);
                        self.state[i] = SOLID;
                    }
                }
            }
        }
    }
}
