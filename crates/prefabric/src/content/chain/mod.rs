//! The `[chain]` section of a map type: a level built only from prefabs joined at
//! their connectors (Golden Krone Hotel, seed 002).
//!
//! In: the section as written, the pack's prefabs and weight words. Out:
//! [`ChainParams`] in which every prefab name and tag of the pool resolves, every
//! number is in range, and the prefabs can be chained: each one's connectors sit on
//! its outline, its floor is closed (only connectors lead out of it) and one area,
//! and some connector of the pool can meet a connector of another pool prefab or of
//! the start. Every problem is reported at its `file:line:col` with a fix; prefab
//! problems at the prefab's `prefab NAME` line.
//!
//! This file holds the parameters and `read`; `parts.rs` reads the smaller
//! tables (hallways, auto-rooms, extra connections, overlay rooms), `pool.rs`
//! the pool and the start, `checks.rs` whether the prefabs can be chained.

use super::index::PrefabIndex;
use super::section::{SectionReader, Span};
use super::values::{Anchor, IntRange, Percent};
use super::values::{WeightFile, WeightWords};
use crate::error::{Error, Location};
use crate::geom::Point;
use crate::map::Terrain;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

mod checks;
mod parts;
mod pool;

pub(crate) use checks::floor_apart;

/// The parameters of the chain layout. Every field has a default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainParams {
    /// The prefab placed first (the level's set piece); `None` starts from a pool
    /// prefab (or from the features' prefabs when there are any).
    pub start: Option<String>,
    /// Where the start prefab goes, before jitter.
    pub start_at: Anchor,
    /// Largest random shift of the start prefab either way, per axis.
    pub start_jitter: Point,
    /// Cells kept free between every piece and the map's edge (0 lets a
    /// whole-level prefab fill the map).
    pub margin: i32,
    /// The hand-made prefabs to chain, with weights and limits, by prefab name.
    pub pool: Vec<PoolEntry>,
    /// Prefabs to place, the start and auto-rooms included.
    pub target: u32,
    /// Tries before the chain stops short of the target ("timed out").
    pub attempts: u32,
    /// Shortest hallway (0: prefabs may touch door to door, sharing a wall).
    pub min_length: i32,
    /// Longest hallway.
    pub max_length: i32,
    /// Hallway width in cells.
    pub hallway_width: i32,
    /// Chance that a used connector becomes a door rather than an open doorway.
    pub door_chance: Percent,
    /// What unused connectors become.
    pub unused: Terrain,
    /// What the `?` cells of placed prefabs become when nothing else covers them.
    pub dont_care: Terrain,
    /// Generated rectangular rooms that join the pool.
    pub auto_rooms: AutoRooms,
    /// Chances of the extra connections made after chaining.
    pub extra: ExtraConnections,
    /// Rooms placed over the level afterwards to open it up.
    pub overlay: Overlay,
    /// Where `target` is written (or the section), for warnings about it.
    pub target_location: Location,
}

/// A prefab of the pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolEntry {
    /// The prefab's name.
    pub prefab: String,
    /// Relative frequency.
    pub weight: u32,
    /// Most copies per map, if limited.
    pub max: Option<u32>,
    /// Fewest copies per map: the chain draws from the entries below their
    /// minimum every other try, and a map that ends below it is an attempt that
    /// failed (the generator retries).
    pub min: u32,
    /// Where the pool names it (its name or its tag), for warnings about it.
    pub location: Location,
}

/// Generated rectangular rooms (seed 002, step 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoRooms {
    /// Their share of the pool, split evenly over the kinds (0: none).
    pub weight: u32,
    /// Different rooms generated per map.
    pub kinds: u32,
    /// Floor width.
    pub width: IntRange,
    /// Floor height.
    pub height: IntRange,
    /// Connectors per side, lowest and highest.
    pub connectors: (u32, u32),
}

/// Chances of the three kinds of extra connection (seed 002, step 9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtraConnections {
    /// Per unused connector with floor on both sides: opened as a door or floor.
    pub flanked: Percent,
    /// Per pair of unused connectors facing each other: a straight hallway.
    pub facing: Percent,
    /// Per pair of unused perpendicular connectors: an L-shaped hallway.
    pub corner: Percent,
    /// Longest hallway an extra connection digs (each leg of an L).
    pub max_length: i32,
}

/// Rooms placed over the finished chain to open the level up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Overlay {
    /// How many per map, lowest and highest.
    pub count: (u32, u32),
    /// Floor width.
    pub width: IntRange,
    /// Floor height.
    pub height: IntRange,
}

/// Most prefabs a chain may aim for.
const MAX_TARGET: i64 = 10_000;
/// Most tries a chain may take.
const MAX_ATTEMPTS: i64 = 1_000_000;
/// Longest hallway, widest hallway.
const MAX_LENGTH: i64 = 64;
const MAX_WIDTH: i64 = 5;

// ---- the file as written ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChainFile {
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
    target: Option<Spanned<i64>>,
    #[serde(default)]
    attempts: Option<Spanned<i64>>,
    #[serde(default)]
    door_chance: Option<Percent>,
    #[serde(default)]
    unused: Option<Spanned<String>>,
    #[serde(default)]
    dont_care: Option<Spanned<String>>,
    #[serde(default)]
    hallways: Option<Spanned<HallwaysFile>>,
    #[serde(default)]
    auto_rooms: Option<Spanned<AutoRoomsFile>>,
    #[serde(default)]
    extra: Option<Spanned<ExtraFile>>,
    #[serde(default)]
    overlay: Option<Spanned<OverlayFile>>,
}

/// A pool entry's value: a weight, or `{ weight = .., min = .., max = .. }`.
pub(super) enum PoolValue {
    Weight(WeightFile),
    Limited { weight: WeightFile, min: Option<i64>, max: Option<i64> },
}

impl<'de> Deserialize<'de> for PoolValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PoolValue, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Table {
            weight: WeightFile,
            #[serde(default)]
            min: Option<i64>,
            #[serde(default)]
            max: Option<i64>,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Weight(WeightFile),
            Table(Table),
        }
        match Raw::deserialize(d) {
            Ok(Raw::Weight(w)) => Ok(PoolValue::Weight(w)),
            Ok(Raw::Table(t)) => Ok(PoolValue::Limited { weight: t.weight, min: t.min, max: t.max }),
            Err(_) => Err(serde::de::Error::custom(
                "expected a weight (a number or a word such as \"common\") or { weight = .., min = .., max = .. }",
            )),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HallwaysFile {
    #[serde(default)]
    length: Option<Spanned<[i64; 2]>>,
    #[serde(default)]
    width: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AutoRoomsFile {
    #[serde(default)]
    weight: Option<Spanned<WeightFile>>,
    #[serde(default)]
    kinds: Option<Spanned<i64>>,
    #[serde(default)]
    width: Option<IntRange>,
    #[serde(default)]
    height: Option<IntRange>,
    #[serde(default)]
    connectors: Option<Spanned<[i64; 2]>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtraFile {
    #[serde(default)]
    flanked: Option<Percent>,
    #[serde(default)]
    facing: Option<Percent>,
    #[serde(default)]
    corner: Option<Percent>,
    #[serde(default)]
    max_length: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OverlayFile {
    #[serde(default)]
    count: Option<Spanned<[i64; 2]>>,
    #[serde(default)]
    width: Option<IntRange>,
    #[serde(default)]
    height: Option<IntRange>,
}

/// The prefix of a pool key that names a tag rather than a prefab.
const TAG_PREFIX: &str = "tag:";

/// What the chain reader needs of the pack.
pub(crate) struct PieceContext<'a, 'p> {
    /// The pack's prefabs by name and tag.
    pub prefabs: &'a PrefabIndex<'p>,
    /// The pack's weight words.
    pub words: &'a WeightWords,
    /// The map's size.
    pub size: (i32, i32),
}

/// Reads and checks a `[chain]` section (absent: every default). `at` turns a span
/// into a location; `section` is the section's span, or where the generator is named.
pub(crate) fn read(
    raw: Option<&Spanned<ChainFile>>,
    section: Span,
    at: &dyn Fn(Span) -> Location,
    cx: &PieceContext<'_, '_>,
    errors: &mut Vec<Error>,
) -> ChainParams {
    let mut r = SectionReader { at, errors, prefix: "[chain]: " };
    let section = raw.map_or(section, |c| c.span());
    let empty = ChainFile {
        start: None,
        start_at: None,
        start_jitter: [0, 0],
        margin: None,
        pool: None,
        target: None,
        attempts: None,
        door_chance: None,
        unused: None,
        dont_care: None,
        hallways: None,
        auto_rooms: None,
        extra: None,
        overlay: None,
    };
    let f = raw.map_or(&empty, |c| c.get_ref());
    let target = r.number(&f.target, "target", 1..=MAX_TARGET, 30) as u32;
    let mut margin = r.number(&f.margin, "margin", 0..=64, 1) as i32;
    if let Some(m) = &f.margin
        && 2 * margin + 3 > cx.size.0.min(cx.size.1)
    {
        let message = format!("[chain]: a margin of {margin} leaves no room on the {}x{} map", cx.size.0, cx.size.1);
        r.invalid(m.span(), message, Some("lower `margin` or use a bigger map".into()));
        margin = 0;
    }
    let target_location = (r.at)(f.target.as_ref().map_or(section.clone(), |t| t.span()));
    let attempts = r.number(&f.attempts, "attempts", 1..=MAX_ATTEMPTS, 500) as u32;
    let (min_length, max_length, hallway_width) = r.hallways(f.hallways.as_ref());
    let (unused, dont_care) = r.fills(&f.unused, &f.dont_care);
    // Without a pool, the chain is made of auto-rooms unless told otherwise.
    let pool_written = f.pool.as_ref().is_some_and(|p| !p.get_ref().is_empty());
    // Pieces lie inside the margin, and floor one cell further in.
    let inside = (cx.size.0 - 2 * margin, cx.size.1 - 2 * margin);
    let auto_rooms = r.auto_rooms(f.auto_rooms.as_ref(), cx, u32::from(!pool_written), inside);
    let extra = r.extra(f.extra.as_ref(), max_length);
    let overlay = r.overlay(f.overlay.as_ref(), (inside.0 - 2, inside.1 - 2));
    let pool = f.pool.as_ref().map(|p| r.pool(p, cx)).unwrap_or_default();
    let start = f.start.as_ref().and_then(|s| r.start(s, cx, margin, true));
    let required: u32 = pool.iter().map(|e| e.min).sum();
    // A named start takes one of the target's places; without one, the first
    // prefab comes from the pool and counts towards its minimum.
    let places = if f.start.is_some() { target.saturating_sub(1) } else { target };
    if required > places {
        let span = f.pool.as_ref().map_or(section.clone(), |p| p.span());
        let start = if f.start.is_some() { ", the start among them" } else { "" };
        let message =
            format!("the pool's minimums add up to {required}, but the chain places only {target} prefabs{start}");
        r.invalid(span, message, Some("raise `target` or lower the minimums".into()));
    }
    if !pool_written && auto_rooms.weight == 0 && f.start.is_none() {
        r.invalid(
            f.pool.as_ref().map_or(section.clone(), |p| p.span()),
            "the chain has nothing to place: no pool prefab with a weight, no auto-rooms and no start".into(),
            Some("list prefabs under [chain.pool], give [chain.auto_rooms] a weight, or name a `start`".into()),
        );
    }
    let params = ChainParams {
        start: start.map(|p| p.name().to_string()),
        start_at: f.start_at.unwrap_or(Anchor::Centre),
        start_jitter: Point::new(i32::from(f.start_jitter[0]), i32::from(f.start_jitter[1])),
        margin,
        pool,
        target,
        attempts,
        min_length,
        max_length,
        hallway_width,
        door_chance: f.door_chance.unwrap_or(Percent(70)),
        unused,
        dont_care,
        auto_rooms,
        extra,
        overlay,
        target_location,
    };
    r.joinable(&params, f, section.clone(), cx);
    r.fit_the_map(&params.pool, params.margin, f.pool.as_ref().map_or(section, |p| p.span()), cx);
    params
}
