//! The region graph: which regions a walker can step between, and through where.
//!
//! In: a finished map (its regions, the region of every cell, its terrain and
//! machines, the palette's moves). Out: every region's doors name the region on
//! their other side ([`Door::to`]), and every opening where a walker can step from
//! one region straight into another is a door of both, whether or not the
//! generator that made them recorded one (corridors, junctions and caverns record
//! none; two rooms may abut). [`Map::neighbours`] and [`Map::region_path`] read the
//! graph those doors make. Guarantees: it knows nothing of which generator made
//! the map, only cells; two regions are neighbours exactly when a passable cell of
//! one is a step (by the map's moves) from a passable cell of the other, and the
//! relation is symmetric; the result depends only on the map, never on hashing.

use std::collections::VecDeque;

use super::{Door, Map, NO_REGION, RegionId};
use crate::geom::{Dir, Point};

/// One step from a passable cell of `from` to a passable cell of `to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Contact {
    from: RegionId,
    to: RegionId,
    /// The index (row-major) of the cell of `to` stepped onto.
    cell: u32,
    /// The way the step goes.
    side: Dir,
}

impl Map {
    /// Names the region beyond every door and records every opening with no
    /// door; the last stage before validation, once nothing else moves walls,
    /// pools or machines.
    pub(crate) fn link_regions(&mut self) {
        let width = self.width() as usize;
        let contacts = self.contacts_by_region();
        let mut openings = Openings::default();
        let mut start = 0;
        while start < contacts.len() {
            let (from, to) = (contacts[start].from, contacts[start].to);
            let end = start + contacts[start..].iter().take_while(|c| (c.from, c.to) == (from, to)).count();
            openings.split(&contacts[start..end], width, self.moves.steps());
            for opening in openings.each() {
                self.join(from, to, opening, width);
            }
            start = end;
        }
    }

    /// Every step between passable cells of two different regions, both ways,
    /// once each, grouped by the region stepped from, then the one stepped
    /// into, then the cell: a counting sort by region (a map has hundreds of
    /// regions and a few thousand contacts), each region's few sorted alone.
    fn contacts_by_region(&self) -> Vec<Contact> {
        let found = self.contacts();
        let mut starts = vec![0u32; self.regions.len() + 1];
        for c in &found {
            starts[c.from as usize + 1] += 1;
        }
        for k in 1..starts.len() {
            starts[k] += starts[k - 1];
        }
        let mut next = starts.clone();
        let mut sorted = found.clone();
        for c in found {
            sorted[next[c.from as usize] as usize] = c;
            next[c.from as usize] += 1;
        }
        let mut out = Vec::with_capacity(sorted.len());
        for pair in starts.windows(2) {
            let bucket = &mut sorted[pair[0] as usize..pair[1] as usize];
            bucket.sort_unstable_by_key(|c| (c.to, c.cell, c.side));
            let mut last = None;
            for c in bucket.iter() {
                // A cell stepped onto from two cells of the region is one contact.
                if last != Some((c.to, c.cell)) {
                    out.push(*c);
                    last = Some((c.to, c.cell));
                }
            }
        }
        out
    }

    /// Every step between passable cells of two different regions, both ways.
    fn contacts(&self) -> Vec<Contact> {
        let (w, h) = (self.width() as usize, self.height() as usize);
        let region_of = self.region_of.cells();
        let mut contacts = Vec::new();
        // Each pair of cells once: the steps that go forward in reading order,
        // each compared row against row, a slice at a time.
        for step in self.moves.steps().iter().filter(|s| s.y > 0 || (s.y == 0 && s.x > 0)) {
            let (dx, dy) = (step.x as isize, step.y as usize);
            let (x0, x1) = (dx.min(0).unsigned_abs(), w - dx.max(0) as usize);
            if x0 >= x1 || dy >= h {
                continue;
            }
            let side = side_of(*step);
            for y in 0..h - dy {
                let row = y * w;
                let beyond = ((y + dy) * w) as isize + dx;
                let here_row = &region_of[row + x0..row + x1];
                let there_row = &region_of[(beyond + x0 as isize) as usize..(beyond + x1 as isize) as usize];
                for (k, (&here, &there)) in here_row.iter().zip(there_row).enumerate() {
                    // Most neighbours share the region or have none: the
                    // passability of the two cells is read only at a border.
                    if here == there || here == NO_REGION || there == NO_REGION {
                        continue;
                    }
                    let (i, j) = (row + x0 + k, (beyond + (x0 + k) as isize) as usize);
                    if !self.is_passable_at(i) || !self.is_passable_at(j) {
                        continue;
                    }
                    contacts.push(Contact { from: here, to: there, cell: j as u32, side });
                    contacts.push(Contact { from: there, to: here, cell: i as u32, side: side.opposite() });
                }
            }
        }
        contacts
    }

    /// Records one opening from `from` into `to`: the doors of `from` on it
    /// that lead nowhere yet learn where they lead, and when none leads to
    /// `to`, the opening's middle cell is one of the region's openings.
    fn join(&mut self, from: RegionId, to: RegionId, opening: &[Contact], width: usize) {
        let cell_at = |c: &Contact| Point::new((c.cell as usize % width) as i32, (c.cell as usize / width) as i32);
        let region_of = &self.region_of;
        let moves = self.moves;
        let on_opening = |at: Point| {
            opening.iter().any(|c| {
                let p = cell_at(c);
                // The door is a cell of the opening, or the cell of its own
                // region a step before one.
                p == at || (region_of.get(at) == Some(&from) && moves.steps().iter().any(|&s| at + s == p))
            })
        };
        let region = &mut self.regions[from as usize];
        let mut named = false;
        for door in region.doors.iter_mut().filter(|d| on_opening(d.at)) {
            door.to = door.to.or(Some(to));
            named |= door.to == Some(to);
        }
        if !named {
            let middle = &opening[opening.len() / 2];
            region.openings.push(Door { at: cell_at(middle), side: middle.side, to: Some(to) });
        }
    }

    /// The regions a walker can step into from region `id`, by id: those its
    /// doors and openings lead to; empty for an id the map does not have.
    ///
    /// ```
    /// let pack = prefabric::Pack::embedded().expect("the embedded pack is valid");
    /// let map = prefabric::generate(&pack, "hotel", 3).expect("the hotel generates");
    /// for region in map.regions() {
    ///     for next in map.neighbours(region.id) {
    ///         // The relation goes both ways, and a door or an opening of each
    ///         // leads to the other.
    ///         assert!(map.neighbours(next).contains(&region.id));
    ///         assert!(region.doors.iter().chain(&region.openings).any(|d| d.to == Some(next)));
    ///     }
    /// }
    /// ```
    pub fn neighbours(&self, id: RegionId) -> Vec<RegionId> {
        let Some(region) = self.regions.get(id as usize) else { return Vec::new() };
        let mut out: Vec<RegionId> = region.doors.iter().chain(&region.openings).filter_map(|d| d.to).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The fewest regions a walker passes through from region `from` to region
    /// `to`, both included (ties go to the lower ids, so the same map gives the
    /// same path); `None` when either id is not on the map or no path joins them.
    ///
    /// ```
    /// let pack = prefabric::Pack::embedded().expect("the embedded pack is valid");
    /// let map = prefabric::generate(&pack, "catacombs", 4).expect("the catacombs generate");
    /// let up = map.stairs().into_iter().find(|s| s.role == prefabric::Role::StairsUp).expect("a way in");
    /// let down = map.stairs().into_iter().find(|s| s.role == prefabric::Role::StairsDown).expect("a way on");
    /// let path = map.region_path(up.region.unwrap(), down.region.unwrap()).expect("the map is connected");
    /// // Each region on the way opens into the next.
    /// for pair in path.windows(2) {
    ///     assert!(map.neighbours(pair[0]).contains(&pair[1]));
    /// }
    /// ```
    pub fn region_path(&self, from: RegionId, to: RegionId) -> Option<Vec<RegionId>> {
        let count = self.regions.len();
        if from as usize >= count || to as usize >= count {
            return None;
        }
        let mut came_from = vec![NO_REGION; count];
        came_from[from as usize] = from;
        let mut queue = VecDeque::from([from]);
        while let Some(here) = queue.pop_front() {
            if here == to {
                let mut path = vec![to];
                let mut at = to;
                while at != from {
                    at = came_from[at as usize];
                    path.push(at);
                }
                path.reverse();
                return Some(path);
            }
            for next in self.neighbours(here) {
                if came_from[next as usize] == NO_REGION {
                    came_from[next as usize] = here;
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

/// The side a step leaves by: its up-or-down part for a corner step.
fn side_of(step: Point) -> Dir {
    match (step.x, step.y) {
        (_, y) if y < 0 => Dir::North,
        (_, y) if y > 0 => Dir::South,
        (x, _) if x > 0 => Dir::East,
        _ => Dir::West,
    }
}

/// The openings between one pair of regions, split from their contacts with
/// buffers kept from pair to pair (a map has a thousand pairs or more).
#[derive(Default)]
struct Openings {
    /// Union-find parents, by position among the pair's contacts.
    parent: Vec<u32>,
    /// The pair's contacts keyed by their opening (its root), sorted so each
    /// opening's cells lie together, in reading order.
    keyed: Vec<(u32, Contact)>,
    /// The contacts of `keyed` without their keys.
    cells: Vec<Contact>,
    /// Where each opening ends in `cells`.
    ends: Vec<usize>,
}

impl Openings {
    /// Splits the contacts of one pair of regions (sorted by cell) into
    /// openings: groups of cells of the far region joined by the map's moves.
    fn split(&mut self, contacts: &[Contact], width: usize, steps: &[Point]) {
        self.parent.clear();
        self.parent.extend(0..contacts.len() as u32);
        // A neighbour is found by binary search, so a long shared edge between
        // two caverns costs n log n, not n².
        for (k, c) in contacts.iter().enumerate() {
            let (x, y) = ((c.cell as usize % width) as i64, (c.cell as usize / width) as i64);
            for s in steps.iter().filter(|s| s.y > 0 || (s.y == 0 && s.x > 0)) {
                let (nx, ny) = (x + i64::from(s.x), y + i64::from(s.y));
                if nx < 0 || nx >= width as i64 {
                    continue;
                }
                let cell = (ny * width as i64 + nx) as u32;
                if let Ok(j) = contacts.binary_search_by_key(&cell, |c| c.cell) {
                    let (a, b) = (self.root(k as u32), self.root(j as u32));
                    self.parent[a.max(b) as usize] = a.min(b);
                }
            }
        }
        self.keyed.clear();
        for (k, c) in contacts.iter().enumerate() {
            let root = self.root(k as u32);
            self.keyed.push((root, *c));
        }
        self.keyed.sort_unstable_by_key(|&(root, c)| (root, c.cell));
        self.cells.clear();
        self.ends.clear();
        for (k, &(root, c)) in self.keyed.iter().enumerate() {
            if k > 0 && self.keyed[k - 1].0 != root {
                self.ends.push(k);
            }
            self.cells.push(c);
        }
        if !self.cells.is_empty() {
            self.ends.push(self.cells.len());
        }
    }

    /// The root of `k`'s group, halving the path on the way.
    fn root(&mut self, mut k: u32) -> u32 {
        while self.parent[k as usize] != k {
            self.parent[k as usize] = self.parent[self.parent[k as usize] as usize];
            k = self.parent[k as usize];
        }
        k
    }

    /// Each opening of the last split: its contacts, in reading order.
    fn each(&self) -> impl Iterator<Item = &[Contact]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter().copied()).map(|(a, b)| &self.cells[a..b])
    }
}
