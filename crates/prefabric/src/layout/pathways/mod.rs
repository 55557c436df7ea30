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
//!
//! Files: this one holds the state and [`build`]; `place.rs` drops rooms,
//! `connect.rs` joins them door to door, `search.rs` is the A* path search,
//! `commit.rs` writes the result onto the map.

mod commit;
mod connect;
mod place;
mod search;

use super::cells::Cells;
use super::shapes::{self, Entry, Pool};
use super::{Carver, Input};
use crate::content::Pack;
use crate::content::pathways::PathwaysParams;
use crate::error::Error;
use crate::format::article_before_number;
use crate::geom::{Dir, Point, Rect};
use crate::map::{LayoutStats, Map, PathwaysStats, Role, Stage, mask};
use crate::rng::Rng;
use crate::trace::Outcome;
use search::Search;

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

impl super::Prepare<PathwaysParams> for Prepared {
    /// The rooms and hallway prefabs of `params` for maps `map_width` cells wide.
    fn prepare(params: &PathwaysParams, pack: &Pack, map_width: i32) -> Prepared {
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
