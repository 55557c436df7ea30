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
        let w = g.width;
        let nodes = g.states.len() * 2;
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
        self.expanded = 0;
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
