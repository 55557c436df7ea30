//! The `[pathways]` section of a map type: hand-made rooms dropped at random and
//! joined door to door by path-found hallways (Ascension, seed 004).
//!
//! In: the section as written, the pack's prefabs and weight words. Out:
//! [`PathwaysParams`] in which every prefab name and tag of the room pool and of
//! the hallway prefabs resolves, every number is in range, and every prefab can be
//! joined: its doorways (`*` connectors) sit on its outline, its floor is closed
//! (only doorways lead out) and one area, and it fits the map inside the margin.
//! Every problem is reported at its `file:line:col` with a fix; prefab problems at
//! the prefab's `prefab NAME` line. The room and hallway prefab pools are read by
//! the same code as `[chain.pool]`, so they accept the same names, tags and limits.

use super::chain::{AutoRooms, AutoRoomsFile, PieceContext, PoolEntry, PoolValue};
use super::section::{SectionReader, Span};
use super::values::{Anchor, Percent};
use crate::error::{Error, Location};
use crate::geom::Point;
use crate::map::Terrain;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The parameters of the pathways layout. Every field has a default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathwaysParams {
    /// The room placed first, in the middle; `None` draws it from the pool.
    pub start: Option<String>,
    /// Where the first room goes, before jitter.
    pub start_at: Anchor,
    /// Largest random shift of the first room either way, per axis.
    pub start_jitter: Point,
    /// Cells kept free between rooms or hallways and the map's edge.
    pub margin: i32,
    /// Largest gap between a new room and the room placed before that it is
    /// dropped beside (0: anywhere on the map, as seed 004 does).
    pub spread: i32,
    /// The hand-made rooms, with weights and limits.
    pub pool: Vec<PoolEntry>,
    /// Generated rectangular rooms that join the pool (plain rooms for encounters
    /// and furnishing).
    pub auto_rooms: AutoRooms,
    /// Rooms to place, the first one included.
    pub rooms: u32,
    /// Tries to place each room before the generator stops short.
    pub attempts: u32,
    /// Whether a room may be placed over hallways already dug.
    pub over_hallways: bool,
    /// Cells around each room that no hallway may enter (doorways excepted).
    pub padding: i32,
    /// Chance that an opened doorway gets a door rather than staying open.
    pub door_chance: Percent,
    /// What unused doorways become.
    pub unused: Terrain,
    /// What the `?` cells of placed rooms become when nothing else covers them.
    pub dont_care: Terrain,
    /// Hallway width and path costs.
    pub hallways: Hallways,
    /// Second connections, which make loops.
    pub secondary: Secondary,
    /// Hand-made corridor pieces the hallways may be routed through.
    pub hallway_prefabs: HallwayPrefabs,
    /// Secret doors on dead-end rooms.
    pub secret_doors: SecretDoors,
    /// Where `rooms` is written (or the section), for warnings about it.
    pub rooms_location: Location,
}

/// How hallways are dug and what the path search pays for. Costs are in tenths
/// of a step: a step onto an ordinary cell costs 10.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hallways {
    /// Hallway width in cells (1-3). Wider hallways narrow where they pass
    /// between rooms' padding.
    pub width: i32,
    /// Extra cost of a turn, so hallways run straight rather than in stairs.
    pub turn_cost: u32,
    /// Extra cost of a cell beside another hallway, so hallways do not run side by side.
    pub beside_cost: u32,
    /// Largest random extra cost of a cell (fixed per map), so hallways wind.
    pub wander: u32,
}

/// Second connections out of a newly placed room (seed 004, "Get on with it!").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secondary {
    /// Chance per room of a second connection.
    pub chance: Percent,
    /// Whether the second connection goes to the nearest room (else any room).
    pub to_nearest: bool,
    /// A room whose hallway is longer than this gets a second connection to the
    /// next closest room in any case (0: never).
    pub force_after: u32,
}

/// Hand-made corridor pieces placed among the rooms, which hallways may pass
/// through (seed 004's first improvement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HallwayPrefabs {
    /// How many per map, lowest and highest.
    pub count: (u32, u32),
    /// The prefabs, with weights and limits.
    pub pool: Vec<PoolEntry>,
}

/// Dead-end rooms hidden behind secret doors (seed 004's last improvement).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretDoors {
    /// Chance per dead-end room at the end of a long hallway.
    pub chance: Percent,
    /// Shortest hallway that makes a dead-end room's door a candidate.
    pub min_length: u32,
}

/// Most rooms a map type may ask for.
const MAX_ROOMS: i64 = 1_000;
/// Most tries per room.
const MAX_ATTEMPTS: i64 = 10_000;
/// Largest extra path cost (tenths of a step).
const MAX_COST: i64 = 1_000;

// ---- the file as written ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PathwaysFile {
    #[serde(default)]
    start: Option<Spanned<String>>,
    #[serde(default)]
    start_at: Option<Anchor>,
    #[serde(default)]
    start_jitter: [u16; 2],
    #[serde(default)]
    margin: Option<Spanned<i64>>,
    #[serde(default)]
    pool: Option<Spanned<BTreeMap<Spanned<String>, Spanned<PoolValue>>>>,
    #[serde(default)]
    spread: Option<Spanned<i64>>,
    #[serde(default)]
    rooms: Option<Spanned<i64>>,
    #[serde(default)]
    attempts: Option<Spanned<i64>>,
    #[serde(default)]
    over_hallways: bool,
    #[serde(default)]
    padding: Option<Spanned<i64>>,
    #[serde(default)]
    door_chance: Option<Percent>,
    #[serde(default)]
    unused: Option<Spanned<String>>,
    #[serde(default)]
    dont_care: Option<Spanned<String>>,
    #[serde(default)]
    auto_rooms: Option<Spanned<AutoRoomsFile>>,
    #[serde(default)]
    hallways: Option<Spanned<HallwaysFile>>,
    #[serde(default)]
    secondary: Option<Spanned<SecondaryFile>>,
    #[serde(default)]
    hallway_prefabs: Option<Spanned<HallwayPrefabsFile>>,
    #[serde(default)]
    secret_doors: Option<Spanned<SecretDoorsFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HallwaysFile {
    #[serde(default)]
    width: Option<Spanned<i64>>,
    #[serde(default)]
    turn_cost: Option<Spanned<i64>>,
    #[serde(default)]
    beside_cost: Option<Spanned<i64>>,
    #[serde(default)]
    wander: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SecondaryFile {
    #[serde(default)]
    chance: Option<Percent>,
    #[serde(default)]
    to_nearest: Option<bool>,
    #[serde(default)]
    force_after: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HallwayPrefabsFile {
    #[serde(default)]
    count: Option<Spanned<[i64; 2]>>,
    #[serde(default)]
    pool: Option<Spanned<BTreeMap<Spanned<String>, Spanned<PoolValue>>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SecretDoorsFile {
    #[serde(default)]
    chance: Option<Percent>,
    #[serde(default)]
    min_length: Option<Spanned<i64>>,
}

/// Reads and checks a `[pathways]` section (absent: every default). `at` turns a
/// span into a location; `section` is where the generator is named, for problems
/// of a section left out.
pub(crate) fn read(
    raw: Option<&Spanned<PathwaysFile>>,
    section: Span,
    at: &dyn Fn(Span) -> Location,
    cx: &PieceContext<'_, '_>,
    errors: &mut Vec<Error>,
) -> PathwaysParams {
    let mut r = SectionReader { at, errors, prefix: "[pathways]: " };
    let section = raw.map_or(section, |c| c.span());
    let f = raw.map(|c| c.get_ref());
    let get = |pick: fn(&PathwaysFile) -> &Option<Spanned<i64>>| f.and_then(|f| pick(f).clone());
    let rooms = r.number(&get(|f| &f.rooms), "rooms", 1..=MAX_ROOMS, 20) as u32;
    let rooms_location = (r.at)(get(|f| &f.rooms).map_or(section.clone(), |t| t.span()));
    let attempts = r.number(&get(|f| &f.attempts), "attempts", 1..=MAX_ATTEMPTS, 50) as u32;
    let padding = r.number(&get(|f| &f.padding), "padding", 0..=3, 1) as i32;
    // Rooms' floors and hallways keep off the map's outermost ring: 1 at least.
    let mut margin = r.number(&get(|f| &f.margin), "margin", 1..=64, 2) as i32;
    if let Some(m) = get(|f| &f.margin)
        && 2 * margin + 3 > cx.size.0.min(cx.size.1)
    {
        let message = format!("[pathways]: a margin of {margin} leaves no room on the {}x{} map", cx.size.0, cx.size.1);
        r.invalid(m.span(), message, Some("lower `margin` or use a bigger map".into()));
        margin = 1;
    }
    let none = None;
    let (unused, dont_care) = match f {
        Some(f) => r.fills(&f.unused, &f.dont_care),
        None => r.fills(&none, &none),
    };
    let pool_raw = f.and_then(|f| f.pool.as_ref());
    let pool_written = pool_raw.is_some_and(|p| !p.get_ref().is_empty());
    let inside = (cx.size.0 - 2 * margin, cx.size.1 - 2 * margin);
    let auto_rooms = r.auto_rooms(f.and_then(|f| f.auto_rooms.as_ref()), cx, u32::from(!pool_written), inside);
    let pool = pool_raw.map(|p| r.pool(p, cx)).unwrap_or_default();
    let start = f.and_then(|f| f.start.as_ref()).and_then(|s| r.start(s, cx, margin, false));
    let hallways = hallways(&mut r, f.and_then(|f| f.hallways.as_ref()));
    let secondary = secondary(&mut r, f.and_then(|f| f.secondary.as_ref()));
    let hallway_prefabs = hallway_prefabs(&mut r, f.and_then(|f| f.hallway_prefabs.as_ref()), cx, margin);
    let secret_doors = secret_doors(&mut r, f.and_then(|f| f.secret_doors.as_ref()));
    let required: u32 = pool.iter().map(|e| e.min).sum();
    let has_start = f.is_some_and(|f| f.start.is_some());
    let places = if has_start { rooms.saturating_sub(1) } else { rooms };
    if required > places {
        let span = pool_raw.map_or(section.clone(), |p| p.span());
        let with_start = if has_start { ", the start among them" } else { "" };
        let message =
            format!("the pool's minimums add up to {required}, but the map type places only {rooms} rooms{with_start}");
        r.invalid(span, message, Some("raise `rooms` or lower the minimums".into()));
    }
    if !pool_written && auto_rooms.weight == 0 && !has_start {
        r.invalid(
            pool_raw.map_or(section.clone(), |p| p.span()),
            "the pathways have no room to place: no pool prefab with a weight, no auto-rooms and no start".into(),
            Some("list rooms under [pathways.pool], give [pathways.auto_rooms] a weight, or name a `start`".into()),
        );
    }
    r.fit_the_map(&pool, margin, pool_raw.map_or(section.clone(), |p| p.span()), cx);
    PathwaysParams {
        start: start.map(|p| p.name().to_string()),
        start_at: f.and_then(|f| f.start_at).unwrap_or(Anchor::Centre),
        start_jitter: f
            .map_or(Point::new(0, 0), |f| Point::new(i32::from(f.start_jitter[0]), i32::from(f.start_jitter[1]))),
        margin,
        spread: r.number(&get(|f| &f.spread), "spread", 0..=1000, 8) as i32,
        pool,
        auto_rooms,
        rooms,
        attempts,
        over_hallways: f.is_some_and(|f| f.over_hallways),
        padding,
        door_chance: f.and_then(|f| f.door_chance).unwrap_or(Percent(60)),
        unused,
        dont_care,
        hallways,
        secondary,
        hallway_prefabs,
        secret_doors,
        rooms_location,
    }
}

fn hallways(r: &mut SectionReader<'_>, h: Option<&Spanned<HallwaysFile>>) -> Hallways {
    let h = h.map(|h| h.get_ref());
    let get = |pick: fn(&HallwaysFile) -> &Option<Spanned<i64>>| h.and_then(|h| pick(h).clone());
    Hallways {
        width: r.number(&get(|h| &h.width), "hallway width", 1..=3, 1) as i32,
        turn_cost: r.number(&get(|h| &h.turn_cost), "turn_cost", 0..=MAX_COST, 20) as u32,
        beside_cost: r.number(&get(|h| &h.beside_cost), "beside_cost", 0..=MAX_COST, 30) as u32,
        wander: r.number(&get(|h| &h.wander), "wander", 0..=100, 8) as u32,
    }
}

fn secondary(r: &mut SectionReader<'_>, s: Option<&Spanned<SecondaryFile>>) -> Secondary {
    let s = s.map(|s| s.get_ref());
    Secondary {
        chance: s.and_then(|s| s.chance).unwrap_or(Percent(25)),
        to_nearest: s.and_then(|s| s.to_nearest).unwrap_or(true),
        force_after: r.number(&s.and_then(|s| s.force_after.clone()), "force_after", 0..=10_000, 30) as u32,
    }
}

fn hallway_prefabs(
    r: &mut SectionReader<'_>,
    h: Option<&Spanned<HallwayPrefabsFile>>,
    cx: &PieceContext<'_, '_>,
    margin: i32,
) -> HallwayPrefabs {
    let Some(h) = h else { return HallwayPrefabs { count: (0, 0), pool: Vec::new() } };
    let span = h.span();
    let f = h.get_ref();
    let pool = f.pool.as_ref().map(|p| r.pool(p, cx)).unwrap_or_default();
    // Asking for hallway prefabs means wanting some: one to three unless told.
    let count = r.pair(&f.count, "hallway_prefabs count", 0..=100, (1, 3));
    // A pool that names prefabs, none of them usable, is reported name by name.
    let pool_written = f.pool.as_ref().is_some_and(|p| !p.get_ref().is_empty());
    if pool.is_empty() && count.1 > 0 && !pool_written {
        r.invalid(
            span.clone(),
            "[pathways.hallway_prefabs] asks for hallway prefabs but names none".into(),
            Some("list them under `pool`, e.g. pool = { \"tag:hallway\" = 1 }".into()),
        );
    }
    let pool_span = f.pool.as_ref().map_or(span.clone(), |p| p.span());
    let least: u32 = pool.iter().map(|e| e.min).sum();
    if i64::from(least) > count.1 {
        let message = format!(
            "[pathways.hallway_prefabs]: the pool's minimums add up to {least}, but `count` asks for at most {}",
            count.1
        );
        r.invalid(pool_span.clone(), message, Some("raise `count` or lower the minimums".into()));
    }
    let most: Option<u32> =
        pool.iter().filter(|e| e.weight > 0).try_fold(0u32, |sum, e| e.max.map(|m| sum.saturating_add(m)));
    if let Some(most) = most.filter(|&m| i64::from(m) < count.0 && !pool.is_empty()) {
        let message = format!(
            "[pathways.hallway_prefabs]: `count` asks for at least {}, but the pool's `max` limits add up to {most}",
            count.0
        );
        r.invalid(pool_span.clone(), message, Some("lower `count` or raise the limits".into()));
    }
    r.fit_the_map(&pool, margin, pool_span, cx);
    HallwayPrefabs { count: (count.0 as u32, count.1 as u32), pool }
}

fn secret_doors(r: &mut SectionReader<'_>, s: Option<&Spanned<SecretDoorsFile>>) -> SecretDoors {
    let s = s.map(|s| s.get_ref());
    SecretDoors {
        chance: s.and_then(|s| s.chance).unwrap_or(Percent(if s.is_some() { 50 } else { 0 })),
        min_length: r.number(&s.and_then(|s| s.min_length.clone()), "secret_doors min_length", 0..=10_000, 12) as u32,
    }
}
