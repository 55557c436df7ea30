//! The hallway path search: A* over the pathways' cell states, from one doorway's
//! mouth to another's.
//!
//! In: the cell states (what each cell is to the pathways), the map's width, the
//! per-map random extra costs, the costs of the map type and the two mouths. Out:
//! the cheapest path as cells, both mouths included, or nothing when the goal
//! cannot be reached. A search node is a cell and the heading it was entered with,
//! so turns can cost extra; every cost is a whole number (tenths of a step) and
//! ties are broken by node index, so the same states give the same path on every
//! platform. The buffers live in [`Search`] and are reused from search to search:
//! a search allocates nothing once the first one has grown them (a stamp per node
//! says which search last wrote it, so nothing is cleared between searches).

use super::cell;
use crate::content::pathways::Hallways;
use crate::geom::{Dir, Point, Rect};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Cost of a step onto an ordinary cell.
const STEP: u32 = 10;

/// What a search may pass besides free ground and hallways.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Allow {
    /// The map's margin (a feature's hallway comes in from the edge).
    pub edge: bool,
}

/// The reusable state of the path search.
#[derive(Default)]
pub(super) struct Search {
    /// Cost so far per node (cell × 4 headings).
    cost: Vec<u32>,
    /// The node each node was reached from.
    came: Vec<u32>,
    /// Which search last wrote each node.
    stamp: Vec<u32>,
    /// The current search's stamp.
    now: u32,
    /// Nodes to expand: (estimated total, node).
    open: BinaryHeap<Reverse<(u32, u32)>>,
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
        let nodes = g.states.len() * 4;
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
        let estimate = |p: Point| STEP * ((p.x - to.x).unsigned_abs() + (p.y - to.y).unsigned_abs());
        let start = (index(from) * 4 + heading as usize) as u32;
        self.stamp[start as usize] = self.now;
        self.cost[start as usize] = 0;
        self.came[start as usize] = start;
        self.open.push(Reverse((estimate(from), start)));
        while let Some(Reverse((_, node))) = self.open.pop() {
            let i = node as usize / 4;
            let dir = Dir::ALL[node as usize % 4];
            let here = self.cost[node as usize];
            let p = Point::new(i as i32 % w, i as i32 / w);
            if i == goal {
                self.trace_back(node, w, path);
                return true;
            }
            self.expanded += 1;
            for next in Dir::ALL {
                if next == dir.opposite() {
                    continue;
                }
                let q = p + next.delta();
                if q.x < 0 || q.y < 0 || q.x >= w {
                    continue;
                }
                let j = index(q);
                if j >= g.states.len() {
                    continue;
                }
                if g.avoid.is_some_and(|r| r.contains(q)) {
                    continue;
                }
                let Some(step) = self.step_cost(g, i, j, next, j == goal, allow) else { continue };
                let turn = if next == dir { 0 } else { g.costs.turn_cost };
                let total = here + step + turn;
                let n = (j * 4 + next as usize) as u32;
                if self.stamp[n as usize] == self.now && self.cost[n as usize] <= total {
                    continue;
                }
                self.stamp[n as usize] = self.now;
                self.cost[n as usize] = total;
                self.came[n as usize] = node;
                self.open.push(Reverse((total + estimate(q), n)));
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
            cell::FREE => Some(STEP + wander + self.beside(g, j)),
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
            let i = node as i32 / 4;
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
