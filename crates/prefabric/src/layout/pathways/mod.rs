//! The pathways layout: hand-made rooms with their doorways built in, dropped at
//! random and joined door to door by path-found hallways (Ascension, seed 004).
//!
//! In: the map after the features stage, the map type's [`PathwaysParams`] and the
//! pack's prefabs. The first room goes in the middle; the features' link marks
//! are joined to it. Then each next room (or hallway prefab) is dropped at a
//! random free place — never over another room or its padding, over hallways only
//! when the map type allows it — and one of its doorways is joined to a doorway
//! of a room near it by the cheapest path around the rooms (see [`search`]). A
//! hallway is dug from the new room outwards and stops as soon as it reaches a
//! cell already walkable, so hallways merge. A room that cannot be joined is
//! rolled back (its cells, padding and any hallway it cut restored) and the try
//! counts as failed; a room whose tries all fail ends the placing. Rooms may get a
//! second connection (by chance, or forced after a long hallway), and dead-end
//! rooms at the end of long hallways may hide behind secret doors.
//!
//! Out: regions like every generator's: each hand-made room and hallway prefab a
//! [`RegionKind::Prefab`] region (a placed prefab, protected, its doors the
//! doorways opened), each auto-room a [`RegionKind::Room`], each hallway one or
//! more [`RegionKind::Corridor`] rectangles. Every room placed, joined, rolled
//! back, and every merge, second connection and secret door is traced.

mod commit;
mod search;

use super::cells::Cells;
use super::shapes::{self, Entry, Part, Pool, Shape};
use super::{Carver, Input};
use crate::content::Pack;
use crate::content::pathways::PathwaysParams;
use crate::error::{Error, ErrorKind};
use crate::format::article_before_number;
use crate::geom::{Dir, Point, Rect};
use crate::map::{LayoutStats, Map, PathwaysStats, Role, Stage, mask};
use crate::rng::Rng;
use crate::trace::Outcome;
use search::{Allow, Ground, Search};

/// What each cell is to the pathways.
mod cell {
    /// Earth nothing holds: rooms and hallways may go here.
    pub const FREE: u8 = 0;
    /// A hallway cell.
    pub const HALL: u8 = 1;
    /// A hallway cell on a doorway's doorstep: no room may cover it.
    pub const STEP: u8 = 2;
    /// Padding around a room: no hallway passes (except out of its doorways).
    pub const PAD: u8 = 3;
    /// A solid cell of a room or hallway prefab, or a closed doorway of a room.
    pub const ROOM: u8 = 4;
    /// A walkable cell of a room.
    pub const FLOOR: u8 = 5;
    /// Nothing goes here: the map's outer ring, features, barriers.
    pub const BLOCKED: u8 = 6;
    /// A walkable cell of a hallway prefab: hallways pass through it.
    pub const PIECE: u8 = 7;
    /// A closed doorway of a hallway prefab: hallways pass through it along its facing.
    pub const GATE: u8 = 8;
    /// An opened doorway.
    pub const OPENED: u8 = 9;
    /// Free earth in the map's margin: only a feature's hallway crosses it.
    pub const EDGE: u8 = 10;
    /// Free ground in front of a feature's link, kept from rooms and their
    /// padding until the feature is joined; hallways pass as over free ground.
    pub const RESERVED: u8 = 11;

    /// Whether a walker can stand on a cell in this state.
    pub fn walkable(s: u8) -> bool {
        matches!(s, HALL | STEP | FLOOR | PIECE | OPENED)
    }
}

/// Tries to place the first room before giving up.
const START_TRIES: u32 = 64;
/// Rooms a new room tries to join before it is rolled back.
const TARGETS_TRIED: usize = 3;

/// What a map type's pathways need that does not change from map to map: its
/// hand-made rooms and hallway prefabs in every orientation.
pub(crate) struct Prepared {
    pool: Vec<Entry>,
    start: Option<Entry>,
    pieces: Vec<Entry>,
    width: i32,
}

impl Prepared {
    /// The rooms and hallway prefabs of `params` for maps `map_width` cells wide.
    pub fn new(params: &PathwaysParams, pack: &Pack, map_width: i32) -> Prepared {
        let mut pool = shapes::hand_made(&params.pool, pack, map_width);
        let mut start = shapes::start(params.start.as_deref(), pack, map_width);
        for e in pool.iter_mut().chain(start.as_mut()) {
            e.shapes.iter_mut().for_each(|s| s.pad(params.padding));
        }
        Prepared {
            pool,
            start,
            pieces: shapes::hand_made(&params.hallway_prefabs.pool, pack, map_width),
            width: map_width,
        }
    }
}

/// What a placed thing is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A room: hand-made or an auto-room.
    Room,
    /// A hallway prefab.
    Piece,
    /// A feature's link, joined like a room's doorway.
    Feature { prefab: usize },
}

/// A doorway: a connector of a room or hallway prefab, or a feature's way out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Doorway {
    /// The connector's cell (for a feature, the last walkable cell of its link).
    at: Point,
    /// The way out.
    dir: Dir,
    /// Cells between the doorway and its mouth that only this doorway may open.
    run: i32,
    opened: bool,
}

impl Doorway {
    /// The first cell past its doorstep, where a hallway begins.
    fn mouth(&self) -> Point {
        self.at + self.dir.delta() * (self.run + 1)
    }
}

/// A room, hallway prefab or feature the pathways placed or join.
struct Placed<'e> {
    kind: Kind,
    entry: Option<&'e Entry>,
    /// Index of its shape in the entry's shapes.
    shape: usize,
    origin: Point,
    label: &'e str,
    doorways: Vec<Doorway>,
    /// Where its middle is, for "nearest".
    centre: Point,
    /// A walkable cell of it, for the connectivity check.
    inside: Point,
    /// The length of the hallway that joined it.
    hallway: u32,
}

/// A change to undo when a room is rolled back.
#[derive(Copy, Clone)]
enum Undo {
    /// A cell's state before the change.
    Cell(u32, u8),
    /// A doorway opened: (placed, doorway).
    Opened(u32, u16),
    /// A doorway closed again: (placed, doorway).
    Closed(u32, u16),
}

/// A hallway dug: how long, and where it merged into another, if it did.
#[derive(Copy, Clone, Debug)]
struct Dug {
    length: u32,
    merged_at: Option<Point>,
    /// The doorways joined: the one it was dug from, the one it was dug to.
    doors: (Point, Point),
}

/// The pathways under construction.
struct Pathways<'c, 'm, 'e> {
    c: &'c mut Carver<'m>,
    params: &'c PathwaysParams,
    states: Cells,
    wander: Vec<u8>,
    width: i32,
    /// Where rooms may lie.
    area: Rect,
    placed: Vec<Placed<'e>>,
    /// Changes since the room being tried was dropped.
    undo: Vec<Undo>,
    search: Search,
    /// Path buffer, reused.
    path: Vec<Point>,
    /// Flood-fill buffers for the connectivity check, reused.
    seen: Stamps,
    stack: Vec<u32>,
    /// Which dig last dug each cell, and the current dig's number.
    dug: Stamps,
    /// Tries taken for the room being placed, this one included.
    slot_tries: u32,
    /// Doorways made secret doors.
    secret: Vec<Point>,
    stats: PathwaysStats,
    rng: Rng,
}

/// Per-cell marks for one round at a time (a flood, a hallway being dug): a
/// cell is marked in this round when its stamp is the round's number, so a new
/// round costs nothing and the buffer is kept from map to map.
#[derive(Default)]
struct Stamps {
    marks: Vec<u32>,
    now: u32,
}

impl Stamps {
    /// Starts a round over `len` cells, none of them marked.
    fn next_round(&mut self, len: usize) {
        if self.marks.len() != len {
            self.marks.clear();
            self.marks.resize(len, 0);
        }
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.marks.fill(0);
            self.now = 1;
        }
    }

    fn mark(&mut self, i: usize) {
        self.marks[i] = self.now;
    }

    fn marked(&self, i: usize) -> bool {
        self.marks[i] == self.now
    }
}

/// The buffers the pathways reuse from map to map, kept per thread.
#[derive(Default)]
struct Scratch {
    search: Search,
    seen: Stamps,
    dug: Stamps,
}

thread_local! {
    static KEPT: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

impl Drop for Pathways<'_, '_, '_> {
    /// Keeps the scratch buffers for the next map on this thread, however the
    /// pathways ended.
    fn drop(&mut self) {
        let scratch = Scratch {
            search: std::mem::take(&mut self.search),
            seen: std::mem::take(&mut self.seen),
            dug: std::mem::take(&mut self.dug),
        };
        KEPT.with(|k| *k.borrow_mut() = scratch);
    }
}

/// Builds the pathways layout of `map`.
pub(super) fn build(
    map: &mut Map,
    prepared: &Prepared,
    params: &PathwaysParams,
    input: &Input<'_>,
) -> Result<LayoutStats, Error> {
    let seed = input.seed;
    debug_assert_eq!(prepared.width, map.width(), "shapes are laid out for the map's width");
    let mut pool_rng = Rng::stream(seed, "layout/pathways", "auto-rooms");
    let mut auto = shapes::auto_rooms(&params.auto_rooms, map.width(), &mut pool_rng);
    for e in &mut auto {
        e.shapes.iter_mut().for_each(|s| s.pad(params.padding));
    }
    let mut rooms = Pool::new(prepared.pool.iter().chain(&auto).collect());
    let mut pieces = Pool::new(prepared.pieces.iter().collect());
    let mut carver = Carver::new(map);
    let mut p = Pathways::new(&mut carver, params, seed);
    p.place_start(prepared.start.as_ref(), &mut rooms, Rng::stream(seed, "layout/pathways", "start"))?;
    p.join_features()?;
    let mut slots_rng = Rng::stream(seed, "layout/pathways", "slots");
    let (lo, hi) = params.hallway_prefabs.count;
    // At least as many hallway prefab slots as their minimums ask for.
    let least: u32 = pieces.entries.iter().map(|e| e.min).sum();
    let drawn = slots_rng.range(lo as i32, hi as i32).max(0) as u32;
    let piece_slots = if pieces.entries.is_empty() { 0 } else { drawn.max(least) };
    let mut slots: Vec<bool> = (0..params.rooms.saturating_sub(1)).map(|_| true).collect();
    slots.extend((0..piece_slots).map(|_| false));
    slots_rng.shuffle(&mut slots);
    p.fill(&slots, &mut rooms, &mut pieces)?;
    p.secret_doors(Rng::stream(seed, "layout/pathways", "secret doors"));
    let mut stats = std::mem::take(&mut p.stats);
    stats.target = params.rooms;
    stats.rooms_with_second = p.placed.iter().filter(|r| r.kind == Kind::Room && opened(r) >= 2).count() as u32;
    let placed = std::mem::take(&mut p.placed);
    let states = std::mem::take(&mut p.states);
    let secret = std::mem::take(&mut p.secret);
    drop(p);
    let mut door_rng = Rng::stream(seed, "layout/pathways", "doors");
    commit::write(&mut carver, params, &placed, &states, &secret, &mut door_rng);
    carver.raise_walls();
    let open_cells = carver.open_cells;
    let lengths = &stats.hallway_lengths;
    let mean = if lengths.is_empty() { 0.0 } else { lengths.iter().sum::<u32>() as f64 / lengths.len() as f64 };
    carver.map.trace.push_at(
        "layout",
        Outcome::Note, None, format!(
            "pathways placed {} of {} rooms and {} hallway prefabs in {} tries ({} did not fit, {} rolled back{}); {} hallways, {:.1} cells long on average, {} merged into another; {} second connections ({} forced), {} loops; {} secret doors; {} of {} cells open",
            stats.rooms,
            stats.target,
            stats.hallway_prefabs,
            stats.tries,
            stats.misfits,
            stats.rollbacks,
            if stats.timed_out { ", stopped short" } else { "" },
            lengths.len(),
            mean,
            stats.merges,
            stats.secondary,
            stats.forced,
            stats.loops,
            stats.secret_doors,
            open_cells,
            carver.map.width() as i64 * carver.map.height() as i64
        ));
    Ok(LayoutStats { generator: "pathways", open_cells, pathways: Some(stats), ..LayoutStats::default() })
}

/// Marks the free ground in front of each feature's links as reserved: from
/// the link out of its prefab to the first free cell, and two rows beyond it,
/// three cells wide, so the first room and its padding cannot wall a link in.
fn reserve_ways_out(map: &Map, states: &mut [u8]) {
    let w = map.width();
    for link in &map.links {
        let Some(placed) = map.prefabs.get(link.prefab).filter(|p| p.stage == Stage::Feature) else { continue };
        let reach = placed.bounds.width.max(placed.bounds.height) + 2;
        let mut p = link.at;
        for _ in 0..reach {
            match map.bounds().contains(p).then(|| states[(p.y * w + p.x) as usize]) {
                Some(cell::FREE | cell::EDGE) => break,
                Some(_) if map.is_walkable(p) || placed.bounds.contains(p) => p = p + link.dir.delta(),
                _ => break,
            }
        }
        let across = link.dir.right().delta();
        for k in 0..3 {
            for j in -1..=1 {
                let q = p + link.dir.delta() * k + across * j;
                if map.bounds().contains(q) && states[(q.y * w + q.x) as usize] == cell::FREE {
                    states[(q.y * w + q.x) as usize] = cell::RESERVED;
                }
            }
        }
    }
}

/// The extra path cost of a cell near the edge of the area rooms may use, so
/// hallways keep off the map's edge unless nothing else gets through.
fn edge_cost(area: Rect, p: Point) -> u32 {
    const NEAR: i32 = 4;
    let d = (p.x - area.x).min(area.right() - 1 - p.x).min(p.y - area.y).min(area.bottom() - 1 - p.y);
    if (0..NEAR).contains(&d) { ((NEAR - d) * 8) as u32 } else { 0 }
}

impl Placed<'_> {
    /// The rectangle it covers.
    fn bounds(&self) -> Rect {
        match self.entry {
            Some(e) => {
                let (w, h) = e.shapes[self.shape].size();
                Rect::new(self.origin.x, self.origin.y, w, h)
            }
            None => Rect::new(self.origin.x, self.origin.y, 1, 1),
        }
    }

    /// Its name and place, for traces.
    fn describe(&self) -> String {
        format!("`{}` at ({}, {})", self.label, self.origin.x, self.origin.y)
    }
}

/// The longest second connection worth digging between doorways at `doors`:
/// twice the steps between them, and a few more. Longer, it is a detour that
/// makes a long way round, not a shortcut.
fn detour_limit(doors: (Point, Point)) -> u32 {
    let d = doors.0 - doors.1;
    2 * (d.x.unsigned_abs() + d.y.unsigned_abs()) + 8
}

/// How many of a placed thing's doorways are open.
fn opened(p: &Placed<'_>) -> usize {
    p.doorways.iter().filter(|d| d.opened).count()
}

impl<'c, 'm, 'e> Pathways<'c, 'm, 'e> {
    fn new(c: &'c mut Carver<'m>, params: &'c PathwaysParams, seed: u64) -> Pathways<'c, 'm, 'e> {
        let (w, h) = (c.map.width(), c.map.height());
        let area = c.map.bounds().expand(-params.margin.max(1));
        let interior = c.map.bounds().expand(-1);
        let mut states = Vec::with_capacity((w * h) as usize);
        for (i, (t, m)) in c.map.terrain.cells().iter().zip(c.map.masks.cells()).enumerate() {
            let p = Point::new(i as i32 % w, i as i32 / w);
            let state = if !interior.contains(p) {
                cell::BLOCKED
            } else if t.is(Role::Earth) && m & mask::PROTECTED == 0 {
                if area.contains(p) { cell::FREE } else { cell::EDGE }
            } else {
                cell::BLOCKED
            };
            states.push(state);
        }
        let mut states = Cells::new(states, w, cell::BLOCKED);
        reserve_ways_out(c.map, &mut states);
        let scratch = KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()));
        let mut wander_rng = Rng::stream(seed, "layout/pathways", "wander");
        let most = params.hallways.wander;
        // Eight cells' random costs from each draw: one byte each, scaled to 0..=most.
        let mut bits = 0u64;
        let wander = (0..w * h)
            .map(|i| {
                if i % 8 == 0 {
                    bits = wander_rng.next_u64();
                }
                let byte = (bits >> (8 * (i % 8))) as u8;
                let random = (u32::from(byte) * (most + 1)) >> 8;
                (random + edge_cost(area, Point::new(i % w, i / w))).min(255) as u8
            })
            .collect();
        Pathways {
            c,
            params,
            states,
            wander,
            width: w,
            area,
            placed: Vec::new(),
            undo: Vec::new(),
            search: scratch.search,
            path: Vec::new(),
            seen: scratch.seen,
            stack: Vec::new(),
            dug: scratch.dug,
            slot_tries: 0,
            secret: Vec::new(),
            stats: PathwaysStats::default(),
            rng: Rng::stream(seed, "layout/pathways", "rooms"),
        }
    }

    fn index(&self, p: Point) -> usize {
        self.states.index(p)
    }

    fn state(&self, p: Point) -> u8 {
        self.states.get(p)
    }

    /// Changes a cell's state, remembering the old one for a rollback.
    fn set(&mut self, p: Point, state: u8) {
        let i = self.index(p);
        self.undo.push(Undo::Cell(i as u32, self.states[i]));
        self.states[i] = state;
    }

    /// Places the first room at the map type's anchor with jitter.
    fn place_start(&mut self, start: Option<&'e Entry>, pool: &mut Pool<'e>, mut rng: Rng) -> Result<(), Error> {
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

    /// Joins every feature's link marks to the first room by hallways, while the
    /// map is still open. A feature that cannot be joined is an error.
    fn join_features(&mut self) -> Result<(), Error> {
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

    /// Places the rooms and hallway prefabs of `slots` (true: a room), each with
    /// its tries; stops at the first slot whose tries all fail.
    fn fill(&mut self, slots: &[bool], rooms: &mut Pool<'e>, pieces: &mut Pool<'e>) -> Result<(), Error> {
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
    fn fits(&self, shape: &Shape, origin: Point, shape_is_piece: bool) -> Option<u32> {
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
    fn drop_in(&mut self, entry: &'e Entry, s: usize, origin: Point, kind: Kind) -> u32 {
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
    fn try_place(&mut self, entry: &'e Entry, kind: Kind) -> bool {
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
    fn random_place(&mut self, w: i32, h: i32) -> Point {
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

    /// Joins a new room to the room nearest it, or if no path gets there to the
    /// next nearest, up to [`TARGETS_TRIED`] rooms. Returns the room and the
    /// hallway.
    fn primary(&mut self, id: u32) -> Option<Option<(usize, Dug)>> {
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
    fn second_connection(&mut self, id: u32, joined_to: Option<usize>) {
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
    fn nearest(&self, id: u32, exclude: &[usize]) -> Vec<usize> {
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
    fn usable(&self, d: &Doorway, allow: Allow) -> bool {
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
    fn connect(&mut self, from: u32, door: Option<usize>, target: usize, allow: Allow) -> Option<(usize, Dug)> {
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
    fn pick_pair(&mut self, from: usize, door: Option<usize>, target: usize, allow: Allow) -> Option<(usize, usize)> {
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
    fn door_pairs(
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
    fn dig(&mut self, from: usize, door: usize, to: usize, to_door: usize, path: &[Point]) -> Dug {
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
    fn dig_cell(&mut self, p: Point, state: u8) {
        let i = self.index(p);
        self.dug.mark(i);
        self.set(p, state);
    }

    /// Digs the free cells around a hallway cell that a wider hallway covers.
    fn widen(&mut self, p: Point) {
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
    fn gate_at(&self, p: Point) -> Option<(usize, usize)> {
        self.placed
            .iter()
            .enumerate()
            .filter(|(_, r)| r.kind == Kind::Piece)
            .find_map(|(k, r)| r.doorways.iter().position(|d| d.at == p).map(|d| (k, d)))
    }

    /// Opens doorway `k` of placed thing `id`.
    fn open(&mut self, id: usize, k: usize) {
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
    fn open_onto_cut_hallways(&mut self, id: u32) -> u32 {
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
    fn leads_somewhere(&self, at: Point) -> bool {
        self.placed
            .iter()
            .flat_map(|r| &r.doorways)
            .find(|d| d.at == at && d.opened)
            .is_none_or(|d| cell::walkable(self.state(d.at + d.dir.delta())))
    }

    /// Closes the opened doorway at `at`, if there is one (undoably).
    fn close_doorway_at(&mut self, at: Point) {
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
    fn ground(&self, p: Point) -> u8 {
        if self.area.contains(p) { cell::FREE } else { cell::EDGE }
    }

    /// Whether every room, hallway prefab and feature can be walked to from the
    /// first room.
    fn all_connected(&mut self) -> bool {
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
    fn drop_unreached_hallways(&mut self) {
        for i in 0..self.states.len() {
            if matches!(self.states[i], cell::HALL | cell::STEP) && !self.seen.marked(i) {
                let p = Point::new(i as i32 % self.width, i as i32 / self.width);
                self.set(p, self.ground(p));
            }
        }
    }

    /// Undoes every change since the room being tried was dropped, and forgets
    /// the things placed from `keep` on.
    fn rollback(&mut self, keep: usize) {
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
    fn secret_doors(&mut self, mut rng: Rng) {
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

/// How a hallway joined: "doorway (x, y) joined to `room` at (x, y)'s doorway
/// (x, y) by a 7-cell hallway", or "… toward … merged into a hallway at (x, y)".
fn how_joined(target: &str, dug: &Dug) -> String {
    let ((ax, ay), (bx, by)) = ((dug.doors.0.x, dug.doors.0.y), (dug.doors.1.x, dug.doors.1.y));
    match dug.merged_at {
        None => {
            let (a, n) = (article_before_number(dug.length as usize), dug.length);
            format!("doorway ({ax}, {ay}) joined to {target}'s doorway ({bx}, {by}) by {a} {n}-cell hallway")
        }
        Some(m) => format!(
            "doorway ({ax}, {ay}) joined toward {target}'s doorway ({bx}, {by}) by {} {}-cell hallway, merged into a hallway at ({}, {})",
            article_before_number(dug.length as usize),
            dug.length,
            m.x,
            m.y
        ),
    }
}
