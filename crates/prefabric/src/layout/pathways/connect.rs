//! Connecting: joining features and rooms door to door by path-found hallways.
//!
//! In: the [`Pathways`] state and a room just placed (or the features' link
//! marks). Out: hallways dug into the cell states (undoably) from a doorway to
//! the nearest usable doorway of a room near it, by the cheapest path
//! ([`super::search`]); second connections and loops; rollbacks of what could
//! not be joined; connectivity checks; secret doors on dead-end rooms. Every
//! join, merge and rollback is traced.

use super::search::{Allow, Ground};
use super::{Doorway, Dug, Kind, Pathways, Placed, TARGETS_TRIED, Undo, cell, detour_limit, how_joined, opened};
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Point, Rect};
use crate::map::Stage;
use crate::rng::Rng;
use crate::trace::Outcome;

impl<'c, 'm, 'e> Pathways<'c, 'm, 'e> {
    /// Joins every feature's link marks to the first room by hallways, while the
    /// map is still open. A feature that cannot be joined is an error.
    pub(super) fn join_features(&mut self) -> Result<(), Error> {
        let links: Vec<_> = self
            .c
            .map
            .links
            .iter()
            .filter(|l| self.c.map.prefabs.get(l.prefab).is_some_and(|p| p.stage == Stage::Feature))
            .copied()
            .collect();
        for link in links {
            let placed = &self.c.map.prefabs[link.prefab];
            let reach = placed.bounds.width.max(placed.bounds.height) + 2;
            // Out of the prefab along the link to the first cell a hallway may dig.
            let mut p = link.at;
            let mut mouth = None;
            for _ in 0..reach {
                match self.state(p) {
                    cell::FREE | cell::EDGE | cell::RESERVED | cell::HALL | cell::STEP => {
                        mouth = Some(p);
                        break;
                    }
                    _ if self.c.map.is_walkable(p) => p = p + link.dir.delta(),
                    _ => break,
                }
            }
            let Some(mouth) = mouth else {
                let name = placed.name.clone();
                return Err(Error::new(
                    ErrorKind::Generation,
                    format!("feature `{name}`'s link at {} leads into solid ground", link.at),
                )
                .with_help("a link must face free ground the layout may dig: move the feature, or open the ground in front of its link"));
            };
            if cell::walkable(self.state(mouth)) {
                // Another feature's hallway got here first: joined already, but
                // listed, so a room dropped over that hallway must keep it joined.
                self.placed.push(Placed {
                    kind: Kind::Feature { prefab: link.prefab },
                    entry: None,
                    shape: 0,
                    origin: mouth,
                    label: "feature",
                    doorways: Vec::new(),
                    centre: mouth,
                    inside: mouth,
                    hallway: 0,
                });
                continue;
            }
            let name: &'e str = "feature";
            let doorway = Doorway { at: mouth - link.dir.delta(), dir: link.dir, run: 0, opened: false };
            let id = self.placed.len() as u32;
            self.placed.push(Placed {
                kind: Kind::Feature { prefab: link.prefab },
                entry: None,
                shape: 0,
                origin: mouth,
                label: name,
                doorways: vec![doorway],
                centre: mouth,
                inside: mouth,
                hallway: 0,
            });
            let joined = self
                .nearest(id, &[])
                .into_iter()
                .take(TARGETS_TRIED)
                .find_map(|t| self.connect(id, Some(0), t, Allow { edge: true }));
            match joined {
                Some((target, dug)) => {
                    self.undo.clear();
                    self.stats.hallway_lengths.push(dug.length);
                    self.stats.merges += u32::from(dug.merged_at.is_some());
                    let feature = &self.c.map.prefabs[link.prefab].name;
                    let how = how_joined(&self.placed[target].describe(), &dug);
                    self.c.map.trace.push_with("layout", Outcome::Chose, None, || {
                        format!("feature `{feature}`'s link at {}: {how}", link.at)
                    });
                }
                None => {
                    let feature = self.c.map.prefabs[link.prefab].name.clone();
                    return Err(Error::new(
                        ErrorKind::Generation,
                        format!("feature `{feature}`'s link at {} cannot be joined to the first room", link.at),
                    )
                    .with_help("rooms or the map's margin wall it in: move the feature, lower `margin` or `padding`"));
                }
            }
        }
        // The ground kept for the features' ways out is free again.
        for s in self.states.iter_mut().filter(|s| **s == cell::RESERVED) {
            *s = cell::FREE;
        }
        Ok(())
    }

    /// Joins a new room to the room nearest it, or if no path gets there to the
    /// next nearest, up to [`TARGETS_TRIED`] rooms. Returns the room and the
    /// hallway.
    pub(super) fn primary(&mut self, id: u32) -> Option<Option<(usize, Dug)>> {
        let near = self.nearest(id, &[]);
        for &target in near.iter().take(TARGETS_TRIED) {
            if let Some(found) = self.connect(id, None, target, Allow::default()) {
                return Some(Some(found));
            }
        }
        None
    }

    /// A second connection out of a room just placed: by chance, or forced when
    /// its hallway was long; to the nearest room it is not joined to yet (or any
    /// such room, when the map type says so).
    pub(super) fn second_connection(&mut self, id: u32, joined_to: Option<usize>) {
        let s = &self.params.secondary;
        let long = s.force_after > 0 && self.placed[id as usize].hallway > s.force_after;
        let chance = self.rng.percent(s.chance.0);
        if !long && !chance {
            return;
        }
        let exclude: Vec<usize> = joined_to.into_iter().collect();
        let near = self.nearest(id, &exclude);
        let target = if long || s.to_nearest { near.first().copied() } else { self.rng.pick(&near).copied() };
        let free = self.placed[id as usize].doorways.iter().any(|d| !d.opened && self.usable(d, Allow::default()));
        let (Some(target), true) = (target, free) else {
            self.c.map.trace.push_with("layout", Outcome::Skipped, None, || {
                format!(
                    "{}: no second connection: no free doorway or no other room",
                    self.placed[id as usize].describe()
                )
            });
            return;
        };
        let why = if long {
            format!(
                "forced: its hallway of {} cells is longer than {}",
                self.placed[id as usize].hallway, s.force_after
            )
        } else if s.to_nearest {
            "by chance, to the nearest room".to_string()
        } else {
            "by chance".to_string()
        };
        // The primary hallway's cells: a second connection that only runs back
        // into them makes no loop worth having.
        let own: Vec<u32> = self
            .undo
            .iter()
            .filter_map(|u| match *u {
                Undo::Cell(i, _) if matches!(self.states[i as usize], cell::HALL | cell::STEP) => Some(i),
                _ => None,
            })
            .collect();
        self.undo.clear();
        let from = self.placed[id as usize].describe();
        let to = self.placed[target].describe();
        match self.connect(id, None, target, Allow::default()) {
            Some((_, dug)) if dug.merged_at.is_some_and(|p| own.contains(&(self.index(p) as u32))) => {
                self.rollback(self.placed.len());
                self.c.map.trace.push_with("layout", Outcome::Skipped, None, || {
                    format!(
                        "second connection from {from} to {to} ({why}) dropped: it only ran back into its own hallway"
                    )
                });
            }
            Some((_, dug)) if dug.length > detour_limit(dug.doors) => {
                self.rollback(self.placed.len());
                self.c.map.trace.push_with("layout", Outcome::Skipped, None, || format!(
                    "second connection from {from} to {to} ({why}) dropped: its {}-cell hallway is a detour, more than twice the way between its doorways",
                    dug.length
                ));
            }
            Some((_, dug)) => {
                self.stats.hallway_lengths.push(dug.length);
                self.stats.merges += u32::from(dug.merged_at.is_some());
                self.stats.secondary += 1;
                self.stats.forced += u32::from(long);
                self.stats.loops += 1;
                let how = how_joined(&to, &dug);
                self.c.map.trace.push_with("layout", Outcome::Chose, None, || {
                    format!("second connection from {from} ({why}): {how}")
                });
            }
            None => {
                self.c.map.trace.push_with("layout", Outcome::Skipped, None, || {
                    format!("second connection from {from} to {to} ({why}): no path")
                });
            }
        }
        self.undo.clear();
    }

    /// The rooms and hallway prefabs other than `id` and `exclude`, nearest first.
    pub(super) fn nearest(&self, id: u32, exclude: &[usize]) -> Vec<usize> {
        let from = self.placed[id as usize].centre;
        let mut near: Vec<(i64, usize)> = self
            .placed
            .iter()
            .enumerate()
            .filter(|&(k, p)| k != id as usize && !exclude.contains(&k) && !matches!(p.kind, Kind::Feature { .. }))
            .map(|(k, p)| {
                let d = p.centre - from;
                (i64::from(d.x) * i64::from(d.x) + i64::from(d.y) * i64::from(d.y), k)
            })
            .collect();
        near.sort_unstable();
        near.into_iter().map(|(_, k)| k).collect()
    }

    /// Whether a doorway can be used: its doorstep and mouth are not walled off
    /// by another room.
    pub(super) fn usable(&self, d: &Doorway, allow: Allow) -> bool {
        for k in 1..=d.run {
            if !matches!(
                self.state(d.at + d.dir.delta() * k),
                cell::PAD | cell::FREE | cell::RESERVED | cell::HALL | cell::STEP
            ) {
                return false;
            }
        }
        match self.state(d.mouth()) {
            cell::FREE | cell::RESERVED | cell::HALL | cell::STEP | cell::PIECE => true,
            cell::EDGE => allow.edge,
            _ => false,
        }
    }

    /// Finds a path from a closed doorway of `from` (doorway `door`, when given)
    /// to a doorway of `target` and digs it; the hallway stops where it first
    /// meets a walkable cell. Returns the room joined and the hallway.
    pub(super) fn connect(
        &mut self,
        from: u32,
        door: Option<usize>,
        target: usize,
        allow: Allow,
    ) -> Option<(usize, Dug)> {
        let (own, goal_door) = self.pick_pair(from as usize, door, target, allow)?;
        let start = self.placed[from as usize].doorways[own];
        let goal = self.placed[target].doorways[goal_door];
        let mut path = std::mem::take(&mut self.path);
        let found = {
            let placed = &self.placed;
            let width = self.width;
            let gate_dir = |i: usize| {
                let p = Point::new(i as i32 % width, i as i32 / width);
                placed
                    .iter()
                    .filter(|r| r.kind == Kind::Piece)
                    .flat_map(|r| &r.doorways)
                    .find(|d| d.at == p)
                    .map(|d| d.dir)
            };
            let joining = &placed[from as usize];
            let avoid = (joining.kind == Kind::Piece).then(|| joining.bounds());
            let ground = Ground {
                states: &self.states,
                width,
                wander: &self.wander,
                costs: &self.params.hallways,
                gate_dir: &gate_dir,
                avoid,
            };
            self.search.find(&ground, start.mouth(), start.dir, goal.mouth(), allow, &mut path)
        };
        self.stats.search_nodes += u64::from(self.search.expanded);
        let dug = found.then(|| self.dig(from as usize, own, target, goal_door, &path));
        self.path = path;
        dug.map(|d| (target, d))
    }

    /// The doorways to join `from` and `target` by: a closed usable doorway of
    /// `from` (`door`, when given) and a usable doorway of `target`, opened or
    /// not, whose mouths lie near each other — drawn at random among the pairs
    /// at most a few cells further apart than the nearest pair.
    pub(super) fn pick_pair(
        &mut self,
        from: usize,
        door: Option<usize>,
        target: usize,
        allow: Allow,
    ) -> Option<(usize, usize)> {
        const SLACK: i32 = 4;
        // Walked once for the nearest pair, once to count those near it, once to
        // take the one drawn: no list is made.
        let best = self.door_pairs(from, door, target, allow).map(|p| p.0).min()?;
        let near = self.door_pairs(from, door, target, allow).filter(|p| p.0 <= best + SLACK).count();
        let k = self.rng.below(near as u32) as usize;
        self.door_pairs(from, door, target, allow).filter(|p| p.0 <= best + SLACK).nth(k).map(|(_, i, j)| (i, j))
    }

    /// Every usable pair of a closed doorway of `from` (`door`, when given) and a
    /// doorway of `target`, with the distance between their mouths, in a fixed order.
    pub(super) fn door_pairs(
        &self,
        from: usize,
        door: Option<usize>,
        target: usize,
        allow: Allow,
    ) -> impl Iterator<Item = (i32, usize, usize)> + '_ {
        let (a, b) = (&self.placed[from], &self.placed[target]);
        (0..a.doorways.len())
            .filter(move |&i| door.map_or(!a.doorways[i].opened, |k| k == i) && self.usable(&a.doorways[i], allow))
            .flat_map(move |i| {
                (0..b.doorways.len()).filter(move |&j| self.usable(&b.doorways[j], Allow::default())).map(move |j| {
                    let d = a.doorways[i].mouth() - b.doorways[j].mouth();
                    (d.x.abs() + d.y.abs(), i, j)
                })
            })
    }

    /// Digs a found path: the doorway of `from` and its doorstep, then the path
    /// until it meets a walkable cell; if it gets all the way, the doorstep and
    /// doorway of `to` as well.
    pub(super) fn dig(&mut self, from: usize, door: usize, to: usize, to_door: usize, path: &[Point]) -> Dug {
        // Cells this hallway digs itself (a wide one digs beside and ahead of its
        // path) are not a merge.
        self.dug.next_round(self.states.len());
        let mut length = 0;
        self.open(from, door);
        let d = self.placed[from].doorways[door];
        let doors = (d.at, self.placed[to].doorways[to_door].at);
        for k in 1..=d.run {
            let p = d.at + d.dir.delta() * k;
            if cell::walkable(self.state(p)) {
                return Dug { length, merged_at: Some(p), doors };
            }
            self.dig_cell(p, cell::STEP);
            length += 1;
        }
        for &p in path {
            let own = self.dug.marked(self.index(p));
            match self.state(p) {
                cell::GATE => {
                    // Into a hallway prefab: its doorway opens onto its floor.
                    if let Some((piece, k)) = self.gate_at(p) {
                        self.open(piece, k);
                    }
                    return Dug { length, merged_at: Some(p), doors };
                }
                _ if own => self.widen(p),
                s if cell::walkable(s) => return Dug { length, merged_at: Some(p), doors },
                _ => {
                    self.dig_cell(p, cell::HALL);
                    length += 1;
                    self.widen(p);
                }
            }
        }
        let g = self.placed[to].doorways[to_door];
        for k in (1..=g.run).rev() {
            let p = g.at + g.dir.delta() * k;
            if !cell::walkable(self.state(p)) {
                self.dig_cell(p, cell::STEP);
                length += 1;
            }
        }
        self.open(to, to_door);
        Dug { length, merged_at: None, doors }
    }

    /// Digs one cell of the hallway being dug.
    pub(super) fn dig_cell(&mut self, p: Point, state: u8) {
        let i = self.index(p);
        self.dug.mark(i);
        self.set(p, state);
    }

    /// Digs the free cells around a hallway cell that a wider hallway covers.
    pub(super) fn widen(&mut self, p: Point) {
        let w = self.params.hallways.width;
        if w <= 1 {
            return;
        }
        let (lo, hi) = (-(w - 1) / 2, w / 2);
        // Nearest cells first, each dug only beside a cell of this hallway, so a
        // hallway squeezed between rooms never leaves a cell touching it only
        // by a corner.
        for reach in 1..=2 * hi.max(-lo) {
            for dy in lo..=hi {
                for dx in (lo..=hi).filter(|dx| dx.abs() + dy.abs() == reach) {
                    let q = p + Point::new(dx, dy);
                    let beside_own = Dir::ALL.iter().any(|d| {
                        let r = q + d.delta();
                        self.c.map.bounds().contains(r)
                            && self.dug.marked(self.index(r))
                            && cell::walkable(self.states[self.index(r)])
                    });
                    if self.state(q) == cell::FREE && beside_own {
                        self.dig_cell(q, cell::HALL);
                    }
                }
            }
        }
    }

    /// The hallway prefab and doorway whose gate is at `p` (a gate state is
    /// only ever written for one).
    pub(super) fn gate_at(&self, p: Point) -> Option<(usize, usize)> {
        self.placed
            .iter()
            .enumerate()
            .filter(|(_, r)| r.kind == Kind::Piece)
            .find_map(|(k, r)| r.doorways.iter().position(|d| d.at == p).map(|d| (k, d)))
    }

    /// Opens doorway `k` of placed thing `id`.
    pub(super) fn open(&mut self, id: usize, k: usize) {
        let d = self.placed[id].doorways[k];
        if d.opened {
            return;
        }
        self.placed[id].doorways[k].opened = true;
        self.undo.push(Undo::Opened(id as u32, k as u16));
        if !matches!(self.placed[id].kind, Kind::Feature { .. }) {
            self.set(d.at, cell::OPENED);
        }
    }

    /// A room dropped over hallways: opens each of its doorways whose doorstep
    /// the hallways already cover, and clears the dead ends the room left of
    /// the hallways it cut. Returns how many doorways it opened.
    pub(super) fn open_onto_cut_hallways(&mut self, id: u32) -> u32 {
        let mut opened = 0;
        for k in 0..self.placed[id as usize].doorways.len() {
            let d = self.placed[id as usize].doorways[k];
            let covered =
                (1..=d.run + 1).all(|j| matches!(self.state(d.at + d.dir.delta() * j), cell::HALL | cell::STEP));
            if covered {
                self.open(id as usize, k);
                for j in 1..=d.run {
                    self.set(d.at + d.dir.delta() * j, cell::STEP);
                }
                opened += 1;
            }
        }
        // Dead ends: hallway cells with one walkable neighbour or none, cleared
        // back until the hallway branches. A feature's mouth stays; a doorway
        // whose hallway is cleared away is closed again (the connectivity check
        // after this says whether its room is still joined).
        let shape = self.placed[id as usize].entry.map(|e| &e.shapes[self.placed[id as usize].shape]);
        let origin = self.placed[id as usize].origin;
        let mut work: Vec<Point> = Vec::new();
        if let Some(shape) = shape {
            for &(q, _, _) in &shape.cells {
                for dir in Dir::ALL {
                    let p = origin + q + dir.delta();
                    if matches!(self.state(p), cell::HALL | cell::STEP) {
                        work.push(p);
                    }
                }
            }
        }
        // Older rooms' doorways the new room now stands right in front of close.
        if let Some(shape) = shape {
            for &(q, _, _) in &shape.cells {
                for dir in Dir::ALL {
                    let n = origin + q + dir.delta();
                    if self.state(n) == cell::OPENED && !self.leads_somewhere(n) {
                        self.close_doorway_at(n);
                    }
                }
            }
        }
        let mut budget = self.states.len();
        while let Some(p) = work.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            let is_mouth = self.placed.iter().any(|r| matches!(r.kind, Kind::Feature { .. }) && r.inside == p);
            if !matches!(self.state(p), cell::HALL | cell::STEP) || is_mouth {
                continue;
            }
            let mut ways = Dir::ALL.iter().map(|d| p + d.delta()).filter(|&q| cell::walkable(self.state(q)));
            let (first, second) = (ways.next(), ways.next());
            if second.is_some() {
                continue;
            }
            self.set(p, self.ground(p));
            match first {
                Some(q) if self.state(q) == cell::OPENED => self.close_doorway_at(q),
                Some(q) => work.push(q),
                None => {}
            }
        }
        opened
    }

    /// Whether the opened doorway at `at` still has a walkable cell in front of it.
    pub(super) fn leads_somewhere(&self, at: Point) -> bool {
        self.placed
            .iter()
            .flat_map(|r| &r.doorways)
            .find(|d| d.at == at && d.opened)
            .is_none_or(|d| cell::walkable(self.state(d.at + d.dir.delta())))
    }

    /// Closes the opened doorway at `at`, if there is one (undoably).
    pub(super) fn close_doorway_at(&mut self, at: Point) {
        let found = self
            .placed
            .iter()
            .enumerate()
            .find_map(|(k, r)| r.doorways.iter().position(|d| d.at == at && d.opened).map(|j| (k, j, r.kind)));
        if let Some((k, j, kind)) = found {
            self.placed[k].doorways[j].opened = false;
            self.undo.push(Undo::Closed(k as u32, j as u16));
            self.set(at, if kind == Kind::Piece { cell::GATE } else { cell::ROOM });
        }
    }

    /// What a cell is when nothing is on it: free ground, or the margin's.
    pub(super) fn ground(&self, p: Point) -> u8 {
        if self.area.contains(p) { cell::FREE } else { cell::EDGE }
    }

    /// Whether every room, hallway prefab and feature can be walked to from the
    /// first room.
    pub(super) fn all_connected(&mut self) -> bool {
        let Some(first) = self.placed.first().map(|r| r.inside) else { return true };
        self.seen.next_round(self.states.len());
        let w = self.width;
        self.stack.clear();
        let i = self.index(first);
        self.seen.mark(i);
        self.stack.push(i as u32);
        while let Some(i) = self.stack.pop() {
            let p = Point::new(i as i32 % w, i as i32 / w);
            for d in Dir::ALL {
                let q = p + d.delta();
                if !self.c.map.bounds().contains(q) {
                    continue;
                }
                let j = self.index(q);
                if !self.seen.marked(j) && cell::walkable(self.states[j]) {
                    self.seen.mark(j);
                    self.stack.push(j as u32);
                }
            }
        }
        self.placed.iter().all(|r| self.seen.marked(self.index(r.inside)))
    }

    /// Clears the hallway cells the last connectivity check did not reach: pieces
    /// of hallways a room cut off that lead nowhere any more.
    pub(super) fn drop_unreached_hallways(&mut self) {
        for i in 0..self.states.len() {
            if matches!(self.states[i], cell::HALL | cell::STEP) && !self.seen.marked(i) {
                let p = Point::new(i as i32 % self.width, i as i32 / self.width);
                self.set(p, self.ground(p));
            }
        }
    }

    /// Undoes every change since the room being tried was dropped, and forgets
    /// the things placed from `keep` on.
    pub(super) fn rollback(&mut self, keep: usize) {
        while let Some(u) = self.undo.pop() {
            match u {
                Undo::Cell(i, s) => self.states[i as usize] = s,
                Undo::Opened(id, k) => {
                    if let Some(r) = self.placed.get_mut(id as usize) {
                        r.doorways[k as usize].opened = false;
                    }
                }
                Undo::Closed(id, k) => {
                    if let Some(r) = self.placed.get_mut(id as usize) {
                        r.doorways[k as usize].opened = true;
                    }
                }
            }
        }
        self.placed.truncate(keep);
    }

    /// Turns the doorway of some dead-end rooms at the end of long hallways into
    /// a secret door.
    pub(super) fn secret_doors(&mut self, mut rng: Rng) {
        let s = &self.params.secret_doors;
        if s.chance.0 == 0 {
            return;
        }
        for k in 1..self.placed.len() {
            let r = &self.placed[k];
            if r.kind != Kind::Room || opened(r) != 1 || r.hallway < s.min_length {
                continue;
            }
            // A closed doorway left as a walkable niche that a hallway runs past
            // would be a second way in.
            let niche = |p: Point| self.placed.iter().flat_map(|o| &o.doorways).any(|d| d.at == p);
            let niche_open = self.params.unused.is_walkable()
                && r.doorways.iter().any(|d| {
                    let front = d.at + d.dir.delta();
                    !d.opened && (cell::walkable(self.state(front)) || niche(front))
                });
            if niche_open || !rng.percent(s.chance.0) {
                continue;
            }
            let Some(d) = r.doorways.iter().find(|d| d.opened) else { continue };
            self.secret.push(d.at);
            self.stats.secret_doors += 1;
            self.c.map.trace.push_with("layout", Outcome::Chose, Rect::new(d.at.x, d.at.y, 1, 1), || {
                format!(
                    "`{}`: a dead end {} cells down its hallway; its doorway at {} is a secret door",
                    r.label, r.hallway, d.at
                )
            });
        }
    }
}
