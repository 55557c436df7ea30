//! The hallway path search: A* over the pathways' cell states, from one doorway's
//! mouth to another's.
//!
//! In: the cell states (what each cell is to the pathways), the map's width, the
//! per-map random extra costs, the costs of the map type and the two mouths. Out:
//! a cheap path as cells, both mouths included, or nothing when the goal cannot
//! be reached. A search node is a cell and the axis it was entered along, so
//! turns can cost extra. The estimate of the cost left is above the cheapest
//! step (a cell's random extra cost averages a few tenths, and turns add more),
//! so the search goes for the goal and finds a path at most 1.6 times the
//! cheapest's cost, in under half the nodes an exact search takes. Every cost is a whole number
//! (tenths of a step) and
//! ties are broken by node index, so the same states give the same path on every
//! platform. The buffers live in [`Search`] and are reused from search to search:
//! a search allocates nothing once the first one has grown them (a stamp per node
//! says which search last wrote it, so nothing is cleared between searches).
//!
//! A search that cannot succeed is cheap: two plain floods, one from each end,
//! first look for a proof that no path joins them (a mouth closed in by rooms'
//! padding is the usual case), which A* would only give after searching
//! everything it can reach. And A* has an attempt budget, a few expansions per
//! node of the map, which no search that succeeds needs; past it the search
//! fails as it does when the goal cannot be reached.

use super::cell;
use crate::content::pathways::Hallways;
use crate::geom::{Dir, Point, Rect};

/// Cost of a step onto an ordinary cell.
const STEP: u32 = 10;

/// What the estimate charges per cell left to the goal (see the module's notes).
const HEURISTIC: u32 = 16;

/// The axis a heading runs along: 0 east-west, 1 north-south. A search node is
/// a cell and the axis it was entered along (a path never doubles back, so the
/// axis is all a turn's cost needs).
fn axis(d: Dir) -> usize {
    usize::from(!d.is_horizontal())
}

/// What a search may pass besides free ground and hallways.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Allow {
    /// The map's margin (a feature's hallway comes in from the edge).
    pub edge: bool,
}

/// The reusable state of the path search (the pathways keep one per thread, so
/// its buffers are made once per thread, not once per map).
#[derive(Default)]
pub(super) struct Search {
    /// Cost so far per node (cell × 2 axes).
    cost: Vec<u32>,
    /// The node each node was reached from.
    came: Vec<u32>,
    /// Which search last wrote each node.
    stamp: Vec<u32>,
    /// The current search's stamp.
    now: u32,
    /// Nodes to expand, by estimated total cost.
    open: Buckets,
    /// Nodes expanded by the last search, for statistics.
    pub expanded: u32,
    /// The two floods of [`Search::cut_off`]: which flood last reached each
    /// cell (a stamp per side), the stamp of the current pair, and their queues.
    seen: Vec<u32>,
    flood: u32,
    queues: [Vec<u32>; 2],
    /// Searches [`Search::cut_off`] ended before A*, for statistics.
    pub cut_off: u32,
    /// The most nodes one search expands when set, in place of
    /// [`EXPANSIONS_PER_NODE`] times the map's nodes (tests set it small).
    #[cfg(test)]
    budget: Option<u32>,
    /// Whether A* runs without the floods first (tests compare the two).
    #[cfg(test)]
    no_floods: bool,
}

/// What the search reads of the pathways.
pub(super) struct Ground<'a> {
    pub states: &'a [u8],
    pub width: i32,
    /// The random extra cost of each cell.
    pub wander: &'a [u8],
    pub costs: &'a Hallways,
    /// The facing of the gate (closed connector of a hallway prefab) at a cell,
    /// for cells whose state is [`cell::GATE`].
    pub gate_dir: &'a dyn Fn(usize) -> Option<Dir>,
    /// Cells the path may not enter: the hallway prefab being joined, which a
    /// path must not reach itself through.
    pub avoid: Option<Rect>,
}

impl Search {
    /// The cheapest path from `from` (left heading `heading`) to `to`, both
    /// included, written into `path`; false when `to` cannot be reached.
    pub fn find(
        &mut self,
        g: &Ground<'_>,
        from: Point,
        heading: Dir,
        to: Point,
        allow: Allow,
        path: &mut Vec<Point>,
    ) -> bool {
        path.clear();
        self.expanded = 0;
        #[cfg(test)]
        let floods = !self.no_floods;
        #[cfg(not(test))]
        let floods = true;
        if floods && self.cut_off(g, from, to, allow) {
            self.cut_off += 1;
            return false;
        }
        let w = g.width;
        let nodes = g.states.len() * 2;
        let budget = u32::try_from(nodes).unwrap_or(u32::MAX).saturating_mul(EXPANSIONS_PER_NODE);
        #[cfg(test)]
        let budget = self.budget.unwrap_or(budget);
        if self.cost.len() < nodes {
            self.cost.resize(nodes, 0);
            self.came.resize(nodes, 0);
            self.stamp.resize(nodes, 0);
        }
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            // Stamps wrapped: forget them all once.
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.now = 1;
        }
        self.open.clear();
        let index = |p: Point| (p.y * w + p.x) as usize;
        let goal = index(to);
        let estimate = |p: Point| HEURISTIC * ((p.x - to.x).unsigned_abs() + (p.y - to.y).unsigned_abs());
        let start = (index(from) * 2 + axis(heading)) as u32;
        self.stamp[start as usize] = self.now;
        self.cost[start as usize] = 0;
        self.came[start as usize] = start;
        self.open.push(estimate(from), start);
        while let Some((f, node)) = self.open.pop() {
            let i = node as usize / 2;
            let here = self.cost[node as usize];
            let p = Point::new(i as i32 % w, i as i32 / w);
            if f > here + estimate(p) {
                // Reached more cheaply since this entry was queued.
                continue;
            }
            if i == goal {
                self.trace_back(node, w, path);
                return true;
            }
            if self.expanded >= budget {
                return false;
            }
            self.expanded += 1;
            let along = node as usize % 2;
            for next in Dir::ALL {
                let q = p + next.delta();
                if q.x < 0 || q.y < 0 || q.x >= w {
                    continue;
                }
                let j = index(q);
                if j >= g.states.len() || g.avoid.is_some_and(|r| r.contains(q)) {
                    continue;
                }
                let Some(step) = self.step_cost(g, i, j, next, j == goal, allow) else { continue };
                let turn = if axis(next) == along { 0 } else { g.costs.turn_cost };
                let total = here + step + turn;
                let n = (j * 2 + axis(next)) as u32;
                if self.stamp[n as usize] == self.now && self.cost[n as usize] <= total {
                    continue;
                }
                self.stamp[n as usize] = self.now;
                self.cost[n as usize] = total;
                self.came[n as usize] = node;
                self.open.push(total + estimate(q), n);
            }
        }
        false
    }

    /// Whether `to` is cut off from `from`, proved cheaply: two floods, one
    /// from each end, take a cell in turn over every cell a path might use
    /// (what [`Search::step_cost`] lets a search step on, in either direction,
    /// gates whatever their facing, `avoid` ignored: more than a search may
    /// cross, never less). When one runs out of cells before it meets the
    /// other, no path joins them and A*, which would visit every node it can
    /// reach before giving up, need not run. False when the floods meet or
    /// together pass [`FLOOD_BUDGET`] cells: then only A* can tell.
    ///
    /// The cost is at most twice the smaller of the two ends' surroundings, up
    /// to the budget; it answers for a mouth closed in by padding and rooms at
    /// once, where A* would search the rest of the map first.
    fn cut_off(&mut self, g: &Ground<'_>, from: Point, to: Point, allow: Allow) -> bool {
        let (w, cells) = (g.width, g.states.len());
        let index = |p: Point| (p.y * w + p.x) as usize;
        let (start, goal) = (index(from), index(to));
        if start == goal {
            return false;
        }
        if self.seen.len() < cells {
            self.seen.resize(cells, 0);
        }
        self.flood = self.flood.wrapping_add(2);
        if self.flood < 2 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.flood = 2;
        }
        let stamps = [self.flood, self.flood + 1];
        let may_cross = |j: usize| {
            j == start
                || j == goal
                || match g.states[j] {
                    cell::FREE | cell::RESERVED | cell::HALL | cell::STEP | cell::PIECE | cell::GATE => true,
                    cell::EDGE => allow.edge,
                    _ => false,
                }
        };
        let mut queues = std::mem::take(&mut self.queues);
        let mut heads = [0usize; 2];
        for (side, at) in [start, goal].into_iter().enumerate() {
            queues[side].clear();
            queues[side].push(at as u32);
            self.seen[at] = stamps[side];
        }
        let mut visited = 2;
        let answer = 'floods: loop {
            for side in 0..2 {
                let Some(&i) = queues[side].get(heads[side]) else { break 'floods true };
                heads[side] += 1;
                let p = Point::new(i as i32 % w, i as i32 / w);
                for d in Dir::ALL {
                    let q = p + d.delta();
                    if q.x < 0 || q.y < 0 || q.x >= w {
                        continue;
                    }
                    let j = index(q);
                    if j >= cells || self.seen[j] == stamps[side] || !may_cross(j) {
                        continue;
                    }
                    if self.seen[j] == stamps[1 - side] {
                        break 'floods false;
                    }
                    self.seen[j] = stamps[side];
                    queues[side].push(j as u32);
                    visited += 1;
                }
            }
            if visited > FLOOD_BUDGET {
                break false;
            }
        };
        self.queues = queues;
        answer
    }

    /// What stepping from cell `i` onto cell `j` heading `dir` costs, or `None`
    /// when it may not be stepped on.
    fn step_cost(&self, g: &Ground<'_>, i: usize, j: usize, dir: Dir, is_goal: bool, allow: Allow) -> Option<u32> {
        let wander = u32::from(g.wander[j]);
        let state = g.states[j];
        // Out of a gate only along its facing, into the prefab or out of it.
        if g.states[i] == cell::GATE && (g.gate_dir)(i).is_some_and(|d| d != dir && d != dir.opposite()) {
            return None;
        }
        match state {
            _ if is_goal => Some(STEP + wander),
            cell::FREE | cell::RESERVED => Some(STEP + wander + self.beside(g, j)),
            cell::HALL | cell::STEP | cell::PIECE => Some(STEP),
            cell::GATE => (g.gate_dir)(j).filter(|&d| d == dir || d == dir.opposite()).map(|_| STEP),
            cell::EDGE if allow.edge => Some(STEP * 3 + wander),
            _ => None,
        }
    }

    /// The extra cost of free cell `j` for lying beside a hallway.
    fn beside(&self, g: &Ground<'_>, j: usize) -> u32 {
        if g.costs.beside_cost == 0 {
            return 0;
        }
        let w = g.width as usize;
        let near = [j.wrapping_sub(1), j + 1, j.wrapping_sub(w), j + w];
        let hall = near.iter().any(|&k| g.states.get(k).is_some_and(|&s| s == cell::HALL || s == cell::STEP));
        if hall { g.costs.beside_cost } else { 0 }
    }

    fn trace_back(&self, mut node: u32, w: i32, path: &mut Vec<Point>) {
        loop {
            let i = node as i32 / 2;
            path.push(Point::new(i % w, i / w));
            let back = self.came[node as usize];
            if back == node {
                break;
            }
            node = back;
        }
        path.reverse();
    }
}

/// A priority queue for whole-number costs: one bucket of nodes per cost, in a
/// ring, and the lowest cost that may be filled. Written by hand because the
/// costs are small integers close to each other, which makes a bucket ring about
/// twice as fast here as a binary heap. Nodes of equal cost come out last in,
/// first out, which is deterministic and favours the deepest. The queued costs
/// normally span far less than the ring (a step's cost and a turn's are at most
/// a couple of thousand tenths); on a huge map with the largest costs, two costs
/// a whole ring apart can share a slot and the dearer comes out early. That
/// still gives a valid path, only maybe not the cheapest, and the same one on
/// every run.
struct Buckets {
    slots: Vec<Vec<u32>>,
    /// Slots written since the last clear.
    touched: Vec<u32>,
    /// No queued node costs less than this.
    low: u32,
    len: usize,
}

/// The most cells the two floods of [`Search::cut_off`] visit together before
/// they leave the question to A*: enough to close a pocket a few rooms wide,
/// little beside a search across a large map.
const FLOOD_BUDGET: usize = 1 << 14;

/// The attempt budget of one A* search, in expansions per node of the map
/// (a cell entered along either axis). A node is expanded again only when it
/// is reached more cheaply than before, which the estimate makes rare; a
/// search needing more than this many has gone wrong, and stops as if the goal
/// could not be reached.
const EXPANSIONS_PER_NODE: u32 = 4;

/// Slots in the ring (see [`Buckets`]).
const SLOTS: u32 = 8192;

impl Default for Buckets {
    /// An empty queue; its slots are made by the first push.
    fn default() -> Buckets {
        Buckets { slots: Vec::new(), touched: Vec::new(), low: 0, len: 0 }
    }
}

impl Buckets {
    fn clear(&mut self) {
        for &t in &self.touched {
            self.slots[t as usize].clear();
        }
        self.touched.clear();
        self.low = 0;
        self.len = 0;
    }

    fn push(&mut self, cost: u32, node: u32) {
        if self.slots.is_empty() {
            self.slots = (0..SLOTS).map(|_| Vec::new()).collect();
        }
        if self.len == 0 || cost < self.low {
            self.low = cost;
        }
        let slot = &mut self.slots[(cost % SLOTS) as usize];
        if slot.is_empty() {
            self.touched.push(cost % SLOTS);
        }
        slot.push(node);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(u32, u32)> {
        if self.len == 0 {
            return None;
        }
        loop {
            if let Some(node) = self.slots[(self.low % SLOTS) as usize].pop() {
                self.len -= 1;
                return Some((self.low, node));
            }
            self.low += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    const COSTS: Hallways = Hallways { width: 1, turn_cost: 5, beside_cost: 3, wander: 0 };

    /// A map of cell states with the facing of each gate.
    struct Grid {
        states: Vec<u8>,
        gates: Vec<Option<Dir>>,
        wander: Vec<u8>,
        width: i32,
    }

    impl Grid {
        fn free(width: i32, height: i32) -> Grid {
            let n = (width * height) as usize;
            Grid { states: vec![cell::FREE; n], gates: vec![None; n], wander: vec![0; n], width }
        }

        fn set(&mut self, p: Point, state: u8) {
            self.states[(p.y * self.width + p.x) as usize] = state;
        }

        fn find(&self, search: &mut Search, from: Point, to: Point, allow: Allow) -> Option<Vec<Point>> {
            let gate_dir = |i: usize| self.gates[i];
            let ground = Ground {
                states: &self.states,
                width: self.width,
                wander: &self.wander,
                costs: &COSTS,
                gate_dir: &gate_dir,
                avoid: None,
            };
            let mut path = Vec::new();
            let found = search.find(&ground, from, Dir::East, to, allow, &mut path);
            assert_eq!(found, !path.is_empty(), "a path exactly when the search says so");
            found.then_some(path)
        }
    }

    /// A goal whose mouth padding closes in: the floods prove it before A*
    /// expands a node, where A* alone searches the whole map.
    #[test]
    fn a_mouth_closed_in_fails_before_a_star_searches() {
        let mut grid = Grid::free(60, 40);
        let to = Point::new(45, 20);
        for y in 17..=23 {
            for x in 42..=48 {
                if (x - to.x).abs() == 3 || (y - to.y).abs() == 3 {
                    grid.set(Point::new(x, y), cell::PAD);
                }
            }
        }
        let from = Point::new(5, 5);
        let mut search = Search::default();
        assert_eq!(grid.find(&mut search, from, to, Allow::default()), None);
        assert_eq!((search.expanded, search.cut_off), (0, 1));
        // From inside the pocket, the same.
        assert_eq!(grid.find(&mut search, to, from, Allow::default()), None);
        assert_eq!((search.expanded, search.cut_off), (0, 2));
        let mut plain = Search { no_floods: true, ..Search::default() };
        assert_eq!(grid.find(&mut plain, from, to, Allow::default()), None);
        assert!(plain.expanded > 2000, "A* alone expanded only {}", plain.expanded);
    }

    /// Over random maps of every kind of cell, gates facing every way and the
    /// margin allowed or not: the floods never turn away a path A* finds, and
    /// where they let A* run its answer is the one it gives alone.
    #[test]
    fn the_floods_never_refuse_a_path_a_star_finds() {
        let mut rng = Rng::stream(5, "test", "pathways-floods");
        let blocking = [cell::PAD, cell::ROOM, cell::BLOCKED];
        let other = [cell::HALL, cell::STEP, cell::PIECE, cell::GATE, cell::EDGE, cell::RESERVED];
        let (mut with, mut without) = (Search::default(), Search { no_floods: true, ..Search::default() });
        let (mut found, mut refused) = (0, 0);
        for round in 0..600 {
            let (width, height) = (2 + rng.below(40) as i32, 2 + rng.below(30) as i32);
            let mut grid = Grid::free(width, height);
            let walls = 20 + rng.below(40);
            for i in 0..grid.states.len() {
                grid.states[i] = if rng.percent(walls) {
                    blocking[rng.below(3) as usize]
                } else if rng.percent(30) {
                    other[rng.below(6) as usize]
                } else {
                    cell::FREE
                };
                grid.gates[i] = (grid.states[i] == cell::GATE).then(|| Dir::ALL[rng.below(4) as usize]);
                grid.wander[i] = rng.below(4) as u8;
            }
            let at = |rng: &mut Rng| Point::new(rng.below(width as u32) as i32, rng.below(height as u32) as i32);
            let (from, to) = (at(&mut rng), at(&mut rng));
            let allow = Allow { edge: rng.percent(50) };
            let plain = grid.find(&mut without, from, to, allow);
            let checked = grid.find(&mut with, from, to, allow);
            assert_eq!(checked, plain, "round {round}: {width}x{height} from {from:?} to {to:?}");
            found += usize::from(plain.is_some());
            refused += usize::from(with.expanded == 0 && plain.is_none());
        }
        assert!(found > 100 && refused > 100, "{found} paths found, {refused} refused by the floods");
    }

    /// A search that needs more expansions than its budget fails as one that
    /// cannot reach its goal: no path, nothing half written.
    #[test]
    fn a_search_past_its_budget_fails_cleanly() {
        let grid = Grid::free(30, 20);
        let (from, to) = (Point::new(2, 3), Point::new(25, 16));
        let mut search = Search::default();
        let path = grid.find(&mut search, from, to, Allow::default()).expect("an open map has a path");
        let needed = search.expanded;
        assert!(needed > 20, "{needed}");
        search.budget = Some(needed - 1);
        assert_eq!(grid.find(&mut search, from, to, Allow::default()), None);
        assert_eq!(search.expanded, needed - 1);
        search.budget = Some(needed);
        assert_eq!(grid.find(&mut search, from, to, Allow::default()), Some(path));
    }
}
