//! Layout generators: digging the map around the features.
//!
//! A layout generator takes the map after the features stage (prefabs placed and
//! protected, barriers BLOCKED, link marks recorded) plus the map type's resolved
//! tunneler [`Start`]s, and digs everything else. Whatever the algorithm, the result
//! is described the same way: [`Region`](crate::map::Region)s with bounds and doors,
//! every walkable cell connected, every link mark reached, protected and BLOCKED
//! cells untouched, walls around the open space.
//!
//! [`Carver`] is the machinery generators share: it classifies cells, digs them
//! into regions, tracks which regions are connected (union-find, so no flood fill
//! is needed while digging), joins leftover networks with shortest corridors, and
//! raises walls.

mod tunnelers;

use crate::content::maptype::Generator;
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Point, Rect};
use crate::map::{Door, FloorKind, Map, NO_REGION, RegionId, RegionKind, Role, Terrain, mask};
use crate::trace::Outcome;

/// A tunneler start named by the map type, resolved to a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The centre of the start's junction square.
    pub at: Point,
    /// The first heading; `None` picks one at random.
    pub dir: Option<Dir>,
    /// Tunnel width.
    pub width: u8,
}

/// What the layout stage dug, for traces and statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutStats {
    /// Tunnelers that ran, children and fillers included.
    pub tunnelers: u32,
    /// Steps they took.
    pub steps: u32,
    /// Tunnelers that died of old age.
    pub died_of_age: u32,
    /// Tunnelers that stopped because nothing around them could be dug.
    pub boxed_in: u32,
    /// Tunnelers that stopped by digging into open space.
    pub joins: u32,
    /// Corridors dug to join networks the tunnelers left apart.
    pub fallback_paths: u32,
    /// Walkable cells at the end.
    pub open_cells: u32,
}

/// Digs the layout of `map` with the map type's generator. `seed` feeds the
/// layout's own random streams.
pub fn run(map: &mut Map, generator: &Generator, starts: &[Start], seed: u64) -> Result<LayoutStats, Error> {
    let stats = match generator {
        Generator::Tunnelers(params) => tunnelers::dig(map, params, starts, seed)?,
    };
    map.trace.push(
        "layout",
        Outcome::Note,
        format!(
            "{} tunnelers took {} steps ({} died of age, {} boxed in, {} joined open space); {} fallback corridors; {} of {} cells open",
            stats.tunnelers,
            stats.steps,
            stats.died_of_age,
            stats.boxed_in,
            stats.joins,
            stats.fallback_paths,
            stats.open_cells,
            map.width() as i64 * map.height() as i64
        ),
    );
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

/// Shared digging state over one map.
pub(crate) struct Carver<'m> {
    pub map: &'m mut Map,
    /// Union-find parents, indexed by region id.
    parent: Vec<RegionId>,
    /// Cells a tunnel may occupy: the map minus its outermost ring.
    interior: Rect,
    pub open_cells: u32,
}

impl<'m> Carver<'m> {
    pub fn new(map: &'m mut Map) -> Carver<'m> {
        let interior = map.bounds().expand(-1);
        let parent = (0..map.regions.len() as RegionId).collect();
        let open_cells = map.terrain.cells().iter().filter(|t| t.role.is_walkable()).count() as u32;
        Carver { map, parent, interior, open_cells }
    }

    pub fn interior(&self) -> Rect {
        self.interior
    }

    pub fn classify(&self, p: Point) -> Cell {
        if !self.interior.contains(p) {
            return Cell::Solid;
        }
        let i = p.y as usize * self.map.terrain.width() as usize + p.x as usize;
        let t = self.map.terrain.cells()[i];
        if t.role.is_walkable() {
            Cell::Open(self.map.region_of.cells()[i])
        } else if t.role == Role::Earth && self.map.masks.cells()[i] & mask::PROTECTED == 0 {
            Cell::Diggable
        } else {
            Cell::Solid
        }
    }

    /// True when every cell of `r` is diggable.
    pub fn all_diggable(&self, r: Rect) -> bool {
        r.points().all(|p| self.classify(p) == Cell::Diggable)
    }

    /// True when no cell of `r`'s surrounding ring is open.
    pub fn ring_closed(&self, r: Rect) -> bool {
        r.ring().all(|p| !matches!(self.classify(p), Cell::Open(_)))
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

    /// Turns a diggable cell into `terrain` belonging to `region`.
    pub fn dig(&mut self, p: Point, terrain: Terrain, region: RegionId) {
        if let Some(i) = self.map.terrain.index_of(p) {
            if !self.map.terrain.cells()[i].role.is_walkable() {
                self.open_cells += 1;
            }
            self.map.terrain.cells_mut()[i] = terrain;
            self.map.region_of.cells_mut()[i] = region;
            self.map.regions[region as usize].area += 1;
        }
    }

    /// Digs every diggable cell of `r` as `floor`, for `region`.
    pub fn dig_rect(&mut self, r: Rect, floor: FloorKind, region: RegionId) {
        for p in r.points() {
            if self.classify(p) == Cell::Diggable {
                self.dig(p, Terrain::floor(floor), region);
            }
        }
    }

    /// Records `at` as a way into `region` if it lies on the region's wall line.
    pub fn add_door(&mut self, region: RegionId, at: Point) {
        let r = &mut self.map.regions[region as usize];
        if !matches!(r.kind, RegionKind::Room | RegionKind::Hall) || r.doors.iter().any(|d| d.at == at) {
            return;
        }
        let b = r.bounds;
        let side = if at.y == b.y - 1 && at.x >= b.x && at.x < b.right() {
            Dir::North
        } else if at.y == b.bottom() && at.x >= b.x && at.x < b.right() {
            Dir::South
        } else if at.x == b.x - 1 && at.y >= b.y && at.y < b.bottom() {
            Dir::West
        } else if at.x == b.right() && at.y >= b.y && at.y < b.bottom() {
            Dir::East
        } else {
            return;
        };
        r.doors.push(Door { at, side });
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

    /// Joins every network to the largest one with shortest 1-wide corridors dug
    /// through diggable cells. Returns how many corridors were dug, or an error
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
            // Largest network first; ties go to the older root.
            areas.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let main = areas[0].0;
            match self.shortest_path_from(main) {
                Some(path) => {
                    self.dig_path(&path, main);
                    dug += 1;
                }
                None => {
                    let stranded = areas[1].0;
                    return Err(self.unreachable(stranded));
                }
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
        for (i, slot) in prev.iter_mut().enumerate() {
            let region = self.map.region_of.cells()[i];
            if region != NO_REGION && self.map.terrain.cells()[i].role.is_walkable() && self.find(region) == root {
                *slot = SOURCE;
                queue.push_back(i as u32);
            }
        }
        while let Some(i) = queue.pop_front() {
            let p = Point::new(i as i32 % w, i as i32 / w);
            for d in Dir::ALL {
                let q = p + d.delta();
                let Some(j) = self.map.terrain.index_of(q) else { continue };
                if prev[j] != UNSEEN {
                    continue;
                }
                match self.classify(q) {
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

    /// Raises walls: every unprotected earth cell touching (diagonals included) a
    /// room, hall, corridor or junction becomes wall. Those regions are rectangles
    /// of open cells, so walking their rings finds every such cell.
    pub fn raise_walls(&mut self) {
        for i in 0..self.map.regions.len() {
            let region = &self.map.regions[i];
            if !matches!(region.kind, RegionKind::Room | RegionKind::Hall | RegionKind::Corridor | RegionKind::Junction)
            {
                continue;
            }
            for p in region.bounds.ring() {
                if let Some(j) = self.map.terrain.index_of(p)
                    && self.map.terrain.cells()[j].role == Role::Earth
                    && self.map.masks.cells()[j] & mask::PROTECTED == 0
                {
                    self.map.terrain.cells_mut()[j] = Terrain::new(Role::Wall);
                }
            }
        }
    }
}
