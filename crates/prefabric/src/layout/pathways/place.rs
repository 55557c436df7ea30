//! Placing rooms: the first room at the map type's anchor, then rooms and
//! hallway prefabs dropped at random free places until the count is reached or
//! a room's tries run out.
//!
//! In: the [`Pathways`] state (cell states, rooms placed so far). Out: each
//! room written into the cell states (undoably) and listed, or rolled back when
//! it could not be joined (joining is [`super::connect`]'s). Nothing is dug on
//! the map here; [`super::commit`] writes the result at the end.

use super::search::Allow;
use super::shapes::{Entry, Part, Pool, Shape};
use super::{Doorway, Kind, Pathways, Placed, START_TRIES, cell, how_joined, opened};
use crate::error::{Error, ErrorKind};
use crate::geom::{Point, Rect};
use crate::rng::Rng;
use crate::trace::Outcome;

impl<'c, 'm, 'e> Pathways<'c, 'm, 'e> {
    /// Places the first room at the map type's anchor with jitter.
    pub(super) fn place_start(
        &mut self,
        start: Option<&'e Entry>,
        pool: &mut Pool<'e>,
        mut rng: Rng,
    ) -> Result<(), Error> {
        let size = (self.c.map.width(), self.c.map.height());
        let p = self.params;
        for _ in 0..START_TRIES {
            let (entry, from_pool) = match start {
                Some(e) => (e, None),
                None => match rng.weighted(&pool.weights) {
                    Some(i) => (pool.entries[i], Some(i)),
                    None => {
                        return Err(Error::new(ErrorKind::Generation, "the pathways' pool has no room to start from"));
                    }
                },
            };
            let Some(s) = rng.index(entry.shapes.len()) else { continue };
            let (w, h) = entry.shapes[s].size();
            let m = p.margin.max(1);
            let base = p.start_at.place(size, (w, h), m);
            let jitter = Point::new(
                rng.range(-p.start_jitter.x, p.start_jitter.x),
                rng.range(-p.start_jitter.y, p.start_jitter.y),
            );
            let at = base + jitter;
            let at = Point::new(at.x.clamp(m, (size.0 - w - m).max(m)), at.y.clamp(m, (size.1 - h - m).max(m)));
            // The first room needs a doorway with a way out, or nothing can join it.
            let run = p.padding;
            let way_out = entry.shapes[s]
                .connectors
                .iter()
                .any(|&(q, dir)| self.usable(&Doorway { at: at + q, dir, run, opened: false }, Allow::default()));
            if way_out && self.fits(&entry.shapes[s], at, false).is_some() {
                self.drop_in(entry, s, at, Kind::Room);
                self.undo.clear();
                if let Some(i) = from_pool {
                    pool.add(i);
                }
                self.stats.rooms = 1;
                let message =
                    format!("first room: `{}` {} at ({}, {})", entry.label, entry.shapes[s].transform, at.x, at.y);
                let (w, h) = entry.shapes[s].size();
                self.c.map.trace.push_at("layout", Outcome::Chose, Rect::new(at.x, at.y, w, h), message);
                return Ok(());
            }
        }
        let message = match start {
            Some(e) => format!("start room `{}` found no place at {} in {START_TRIES} tries", e.label, p.start_at),
            None => format!("no pool room found a place to start at {} in {START_TRIES} tries", p.start_at),
        };
        Err(Error::new(ErrorKind::Generation, message)
            .with_help("the features or the map's edge leave it no room: move it, widen `start_jitter`, lower `margin`, or use a bigger map"))
    }

    /// Places the rooms and hallway prefabs of `slots` (true: a room), each with
    /// its tries; stops at the first slot whose tries all fail.
    pub(super) fn fill(&mut self, slots: &[bool], rooms: &mut Pool<'e>, pieces: &mut Pool<'e>) -> Result<(), Error> {
        let mut rooms_full = false;
        for (n, &is_room) in slots.iter().enumerate() {
            if is_room && rooms_full {
                continue;
            }
            let pool = if is_room { &mut *rooms } else { &mut *pieces };
            let before = (self.stats.tries, self.stats.misfits, self.stats.rollbacks);
            let mut done = false;
            for attempt in 0..self.params.attempts {
                // While an entry is short of its minimum, every other try draws
                // from those entries only.
                let needed = attempt % 2 == 0;
                let from = if needed && pool.short().is_some() { &pool.required } else { &pool.weights };
                let Some(e) = self.rng.weighted(from) else { break };
                self.stats.tries += 1;
                self.slot_tries = attempt + 1;
                if self.try_place(pool.entries[e], if is_room { Kind::Room } else { Kind::Piece }) {
                    pool.add(e);
                    done = true;
                    break;
                }
            }
            if done {
                continue;
            }
            let tries = self.stats.tries - before.0;
            let (misfits, rollbacks) = (self.stats.misfits - before.1, self.stats.rollbacks - before.2);
            // A room that finds no place means the map is full of rooms; a
            // hallway prefab that finds none leaves the rooms to go on.
            let message = if is_room {
                rooms_full = true;
                self.stats.timed_out = true;
                format!(
                    "rooms stop at slot {} of {}: none found a place in {tries} tries ({misfits} did not fit, {rollbacks} rolled back)",
                    n + 1,
                    slots.len()
                )
            } else if tries == 0 {
                format!(
                    "hallway prefab slot {} of {} skipped: every hallway prefab is at its `max`",
                    n + 1,
                    slots.len()
                )
            } else {
                format!(
                    "hallway prefab slot {} of {} skipped: none found a place in {tries} tries ({misfits} did not fit, {rollbacks} rolled back)",
                    n + 1,
                    slots.len()
                )
            };
            self.c.map.trace.push("layout", Outcome::Note, message);
        }
        for (pool, what) in [(&*rooms, "rooms"), (&*pieces, "hallway prefabs")] {
            if let Some(i) = pool.short() {
                return Err(Error::new(
                    ErrorKind::Generation,
                    format!(
                        "the pathways placed {} of the at least {} `{}` the {what} pool asks for",
                        pool.placed[i], pool.entries[i].min, pool.entries[i].label
                    ),
                )
                .with_help("raise `attempts`, use a bigger map, or lower its `min`"));
            }
        }
        Ok(())
    }

    /// Whether `shape` may go with its top-left corner at `origin`: inside the
    /// area, its floor off the map's outer ring, each of its cells on free ground
    /// (or a hallway, when allowed). Returns how many hallway cells it covers.
    pub(super) fn fits(&self, shape: &Shape, origin: Point, shape_is_piece: bool) -> Option<u32> {
        let (w, h) = shape.size();
        if !self.area.contains_rect(&Rect::new(origin.x, origin.y, w, h)) {
            return None;
        }
        let open = shape.open_bounds;
        let interior = self.c.map.bounds().expand(-1);
        if open.width > 0
            && !interior.contains_rect(&Rect::new(origin.x + open.x, origin.y + open.y, open.width, open.height))
        {
            return None;
        }
        let base = (origin.y * self.width + origin.x) as isize;
        let mut covered = 0;
        for &(_, offset, _) in &shape.cells {
            match self.states[(base + offset) as usize] {
                cell::FREE => {}
                cell::HALL if self.params.over_hallways => covered += 1,
                _ => return None,
            }
        }
        // A room's padding is kept clear of hallways too (unless rooms may be
        // dropped over them), so no hallway runs beside a room's wall.
        if !self.params.over_hallways && !shape_is_piece {
            for &q in &shape.halo {
                if matches!(
                    self.state(origin + q),
                    cell::HALL | cell::STEP | cell::OPENED | cell::PIECE | cell::GATE | cell::RESERVED
                ) {
                    return None;
                }
            }
        }
        Some(covered)
    }

    /// Writes a room or hallway prefab into the states (undoably) and lists it.
    /// Returns its id.
    pub(super) fn drop_in(&mut self, entry: &'e Entry, s: usize, origin: Point, kind: Kind) -> u32 {
        let shape = &entry.shapes[s];
        let piece = kind == Kind::Piece;
        let run = if piece { 0 } else { self.params.padding };
        let mut doorways = Vec::with_capacity(shape.connectors.len());
        let mut inside = origin;
        for &(q, _, part) in &shape.cells {
            let p = origin + q;
            let state = match part {
                Part::Open(_) => {
                    inside = p;
                    if piece { cell::PIECE } else { cell::FLOOR }
                }
                Part::Solid(_) => cell::ROOM,
                Part::Connector(dir) => {
                    doorways.push(Doorway { at: p, dir, run, opened: false });
                    if piece { cell::GATE } else { cell::ROOM }
                }
            };
            self.set(p, state);
        }
        if !piece {
            for &q in &shape.halo {
                if self.state(origin + q) == cell::FREE {
                    self.set(origin + q, cell::PAD);
                }
            }
        }
        let (w, h) = shape.size();
        let id = self.placed.len() as u32;
        self.placed.push(Placed {
            kind,
            entry: Some(entry),
            shape: s,
            origin,
            label: &entry.label,
            doorways,
            centre: origin + Point::new(w / 2, h / 2),
            inside,
            hallway: 0,
        });
        id
    }

    /// One try: a random orientation of `entry` at a random place, joined to the
    /// rooms placed before or rolled back. True when it stays.
    pub(super) fn try_place(&mut self, entry: &'e Entry, kind: Kind) -> bool {
        let Some(s) = self.rng.index(entry.shapes.len()) else { return false };
        let (w, h) = entry.shapes[s].size();
        let a = self.area;
        if w > a.width || h > a.height {
            self.stats.misfits += 1;
            return false;
        }
        let origin = self.random_place(w, h);
        let shape_rect = Rect::new(origin.x, origin.y, w, h);
        let Some(covered) = self.fits(&entry.shapes[s], origin, kind == Kind::Piece) else {
            self.stats.misfits += 1;
            return false;
        };
        self.undo.clear();
        let id = self.drop_in(entry, s, origin, kind);
        let what = if kind == Kind::Piece { "hallway prefab" } else { "room" };
        let placed_before = self.placed.len() - 1;
        let mut cut = String::new();
        let mut opened_onto = 0;
        if covered > 0 {
            let opened = self.open_onto_cut_hallways(id);
            opened_onto = opened;
            cut = format!(" over {covered} hallway cells ({opened} doorways opened onto them)");
        }
        let joined =
            if opened(&self.placed[id as usize]) > 0 && self.all_connected() { Some(None) } else { self.primary(id) };
        let Some(primary) = joined else {
            self.rollback(placed_before);
            self.stats.rollbacks += 1;
            self.c.map.trace.push_with("layout", Outcome::Skipped, shape_rect, || {
                format!(
                    "{what} `{}` {} at ({}, {}){cut} rolled back: no path from its doorways to a room near it",
                    entry.label, entry.shapes[s].transform, origin.x, origin.y
                )
            });
            return false;
        };
        if covered > 0 && self.all_connected() {
            self.drop_unreached_hallways();
        } else if covered > 0 {
            self.rollback(placed_before);
            self.stats.rollbacks += 1;
            self.c.map.trace.push_with("layout", Outcome::Skipped, shape_rect, || {
                format!(
                    "{what} `{}` {} at ({}, {}){cut} rolled back: it cut a hallway something depended on",
                    entry.label, entry.shapes[s].transform, origin.x, origin.y
                )
            });
            return false;
        }
        // The room stays. Doorways opened onto the hallways it covers beyond the
        // first join what was joined already: loops.
        let still_open = self.placed[id as usize].doorways.iter().filter(|d| d.opened).count() as u32;
        self.stats.loops += opened_onto.min(still_open).saturating_sub(1);
        // The undo log now holds the room and its hallway: kept until the second
        // connection has seen which cells are the room's own hallway.
        let how = match primary {
            Some((target, dug)) => {
                self.placed[id as usize].hallway = dug.length;
                self.stats.hallway_lengths.push(dug.length);
                self.stats.merges += u32::from(dug.merged_at.is_some());
                how_joined(&self.placed[target].describe(), &dug)
            }
            None => "joined through the hallways it covers".to_string(),
        };
        if kind == Kind::Room {
            self.stats.rooms += 1;
        } else {
            self.stats.hallway_prefabs += 1;
        }
        let after = if self.slot_tries > 1 { format!(" (try {})", self.slot_tries) } else { String::new() };
        self.c.map.trace.push_with("layout", Outcome::Chose, shape_rect, || {
            format!(
                "{what} `{}` {} at ({}, {}){after}{cut}: {how}",
                entry.label, entry.shapes[s].transform, origin.x, origin.y
            )
        });
        if kind == Kind::Room {
            let first = primary.map(|(t, _)| t);
            self.second_connection(id, first);
        }
        true
    }

    /// Where to try a room `w` by `h`: anywhere in the area, or with `spread`,
    /// beside a room placed before, at most `spread` cells from it.
    pub(super) fn random_place(&mut self, w: i32, h: i32) -> Point {
        let a = self.area;
        let spread = self.params.spread;
        let beside = if spread > 0 {
            let rooms = self.placed.iter().filter(|r| r.entry.is_some()).count();
            let k = self.rng.index(rooms);
            k.and_then(|k| self.placed.iter().filter(|r| r.entry.is_some()).nth(k)).map(|r| r.bounds())
        } else {
            None
        };
        let (x0, x1, y0, y1) = match beside {
            Some(b) => (
                (b.x - w - spread).max(a.x),
                (b.right() + spread).min(a.right() - w),
                (b.y - h - spread).max(a.y),
                (b.bottom() + spread).min(a.bottom() - h),
            ),
            None => (a.x, a.right() - w, a.y, a.bottom() - h),
        };
        Point::new(self.rng.range(x0, x1.max(x0)), self.rng.range(y0, y1.max(y0)))
    }
}
