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

use super::index::PrefabIndex;
use super::section::{SectionReader, Span};
use super::values::{Anchor, IntRange, Percent};
use super::values::{WeightFile, WeightWords};
use crate::error::{Error, ErrorKind, Location};
use crate::format::palette::parse_terrain;
use crate::geom::{Dir, Point};
use crate::grid::Grid;
use crate::map::{LinkKind, Role, Terrain};
use crate::prefab::Prefab;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

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

impl SectionReader<'_> {
    /// A `[lo, hi]` pair within `range`, or the default with the problem reported.
    pub(super) fn pair(
        &mut self,
        v: &Option<Spanned<[i64; 2]>>,
        what: &str,
        range: std::ops::RangeInclusive<i64>,
        default: (i64, i64),
    ) -> (i64, i64) {
        let Some(v) = v else { return default };
        let [lo, hi] = *v.get_ref();
        if !range.contains(&lo) || !range.contains(&hi) {
            let message =
                format!("{}{what} [{lo}, {hi}] must stay within {}-{}", self.prefix, range.start(), range.end());
            self.invalid(v.span(), message, None);
            return default;
        }
        if lo > hi {
            let message = format!("{}{what} [{lo}, {hi}] is backwards: write the smaller number first", self.prefix);
            self.invalid(v.span(), message, None);
            return default;
        }
        (lo, hi)
    }

    /// What unused connectors and the `?` cells of placed prefabs become: `unused`
    /// (default wall) must not be earth, `dont_care` (default earth) must be solid.
    pub(super) fn fills(
        &mut self,
        unused_written: &Option<Spanned<String>>,
        dont_care_written: &Option<Spanned<String>>,
    ) -> (Terrain, Terrain) {
        let unused = self.terrain(unused_written, "unused", Terrain::new(Role::Wall));
        if let (Some(v), Role::Earth) = (unused_written, unused.role()) {
            let message = format!(
                "{}unused connectors of earth would leave the rooms' floor open to the void: earth is never walled inside a prefab",
                self.prefix
            );
            self.invalid(
                v.span(),
                message,
                Some("use a wall (\"wall\", \"wall:1\"), \"blocked\", or a floor to leave niches".into()),
            );
        }
        let dont_care = self.terrain(dont_care_written, "dont_care", Terrain::EARTH);
        if let Some(v) = dont_care_written.as_ref().filter(|_| dont_care.is_walkable()) {
            let message = format!(
                "{}dont_care `{}` is walkable, but `?` cells lie outside the prefabs' floor",
                self.prefix,
                v.get_ref()
            );
            self.invalid(
                v.span(),
                message,
                Some("use a solid terrain: \"earth\" (the default), \"wall\" or \"blocked\"".into()),
            );
        }
        (unused, dont_care)
    }

    pub(super) fn terrain(&mut self, v: &Option<Spanned<String>>, what: &str, default: Terrain) -> Terrain {
        let Some(v) = v else { return default };
        match parse_terrain(v.get_ref()) {
            Ok(t) => t,
            Err(message) => {
                self.invalid(
                    v.span(),
                    format!("{}{what}: {message}", self.prefix),
                    Some("write a terrain such as \"wall\", \"wall:1\" or \"blocked\"".into()),
                );
                default
            }
        }
    }

    fn hallways(&mut self, h: Option<&Spanned<HallwaysFile>>) -> (i32, i32, i32) {
        let Some(h) = h.map(|h| h.get_ref()) else { return (1, 6, 1) };
        let (lo, hi) = self.pair(&h.length, "hallway length", 0..=MAX_LENGTH, (1, 6));
        let width = self.number(&h.width, "hallway width", 1..=MAX_WIDTH, 1);
        (lo as i32, hi as i32, width as i32)
    }

    /// The auto-rooms; `default_weight` applies when the section or its weight is
    /// left out.
    /// `inside` is the map's size within its margin.
    pub(super) fn auto_rooms(
        &mut self,
        a: Option<&Spanned<AutoRoomsFile>>,
        cx: &PieceContext<'_, '_>,
        default_weight: u32,
        inside: (i32, i32),
    ) -> AutoRooms {
        let default = AutoRooms {
            weight: default_weight,
            kinds: 6,
            width: IntRange::new(4, 9),
            height: IntRange::new(3, 7),
            connectors: (1, 2),
        };
        let Some(a) = a else { return default };
        let span = a.span();
        let f = a.get_ref();
        // Asking for auto-rooms means wanting them: the weight defaults to 1.
        let weight = f.weight.as_ref().map_or(default_weight.max(1), |w| self.weight(w, cx.words));
        let kinds = self.number(&f.kinds, "auto_rooms kinds", 1..=64, 6) as u32;
        let width = f.width.unwrap_or(default.width);
        let height = f.height.unwrap_or(default.height);
        let (lo, hi) = self.pair(&f.connectors, "auto_rooms connectors", 0..=8, (1, 2));
        if hi == 0 && weight > 0 {
            let at = f.connectors.as_ref().map_or(span.clone(), |c| c.span());
            self.invalid(
                at,
                format!("{}auto-rooms with no connector can never be joined", self.prefix),
                Some("allow at least one connector per side, e.g. connectors = [1, 2]".into()),
            );
        }
        let (w, h) = inside;
        if width.lo + 2 > w || height.lo + 2 > h {
            self.invalid(
                span,
                format!(
                    "{}the smallest auto-room ({}x{} with its walls) does not fit the {w}x{h} inside the map's margin",
                    self.prefix,
                    width.lo + 2,
                    height.lo + 2
                ),
                None,
            );
        }
        AutoRooms { weight, kinds, width, height, connectors: (lo as u32, hi as u32) }
    }

    fn extra(&mut self, e: Option<&Spanned<ExtraFile>>, max_length: i32) -> ExtraConnections {
        let longest = i64::from(max_length.max(1) * 2);
        let Some(e) = e.map(|e| e.get_ref()) else {
            return ExtraConnections {
                flanked: Percent(50),
                facing: Percent(30),
                corner: Percent(20),
                max_length: longest as i32,
            };
        };
        ExtraConnections {
            flanked: e.flanked.unwrap_or(Percent(50)),
            facing: e.facing.unwrap_or(Percent(30)),
            corner: e.corner.unwrap_or(Percent(20)),
            max_length: self.number(&e.max_length, "extra max_length", 1..=MAX_LENGTH, longest) as i32,
        }
    }

    /// Overlay rooms; `size` is where their floor may lie (inside the margin). The
    /// table asks for overlay rooms, so written without `count` it means one or two.
    fn overlay(&mut self, o: Option<&Spanned<OverlayFile>>, size: (i32, i32)) -> Overlay {
        let default = Overlay { count: (0, 0), width: IntRange::new(4, 8), height: IntRange::new(3, 6) };
        let Some(o) = o else { return default };
        let span = o.span();
        let f = o.get_ref();
        let (lo, hi) = self.pair(&f.count, "overlay count", 0..=100, (1, 2));
        let width = f.width.unwrap_or(default.width);
        let height = f.height.unwrap_or(default.height);
        if width.lo > size.0 || height.lo > size.1 {
            self.invalid(
                span,
                format!(
                    "[chain]: the smallest overlay room ({}x{}) does not fit the {}x{} inside the map's margin",
                    width.lo, height.lo, size.0, size.1
                ),
                None,
            );
        }
        Overlay { count: (lo as u32, hi as u32), width, height }
    }

    /// The pool: names and tags resolved to prefabs, each prefab once (a name wins
    /// over its tags; among tags, the largest weight), every prefab checked.
    pub(super) fn pool(
        &mut self,
        raw: &Spanned<BTreeMap<Spanned<String>, Spanned<PoolValue>>>,
        cx: &PieceContext<'_, '_>,
    ) -> Vec<PoolEntry> {
        let mut named: BTreeMap<String, PoolEntry> = BTreeMap::new();
        let mut tagged: BTreeMap<String, PoolEntry> = BTreeMap::new();
        for (key, value) in raw.get_ref() {
            let template = PoolEntry { location: (self.at)(key.span()), ..self.pool_value(value, cx.words) };
            let entry_for = |name: &str| PoolEntry { prefab: name.to_string(), ..template.clone() };
            if let Some(tag) = key.get_ref().strip_prefix(TAG_PREFIX) {
                let members: Vec<&Prefab> = cx.prefabs.tagged(tag).collect();
                if members.is_empty()
                    && let Some((message, help)) = cx.prefabs.unknown_tag(tag, TAG_PREFIX)
                {
                    self.invalid(key.span(), message, Some(help));
                }
                for p in members {
                    if self.chainable(p, key.span(), false) {
                        let entry = tagged.entry(p.name().to_string()).or_insert_with(|| entry_for(p.name()));
                        if template.weight > entry.weight {
                            *entry = entry_for(p.name());
                        }
                    }
                }
                continue;
            }
            let name = key.get_ref();
            match cx.prefabs.get(name) {
                Some(p) => {
                    if self.chainable(p, key.span(), false) {
                        named.insert(name.clone(), entry_for(name));
                    }
                }
                None => {
                    let help = "name a prefab by its `prefab NAME` line, or a tag as \"tag:NAME\"";
                    if let Some((message, help)) = cx.prefabs.unknown_name(name, help) {
                        self.invalid(key.span(), message, Some(help));
                    }
                }
            }
        }
        tagged.extend(named);
        let pool: Vec<PoolEntry> = tagged.into_values().collect();
        if !pool.is_empty() && pool.iter().all(|e| e.weight == 0) {
            let message = format!("every prefab of [{}.pool] has weight 0, so none can be chosen", self.section());
            self.invalid(raw.span(), message, None);
        }
        pool
    }

    /// A pool value as an entry with no prefab name yet.
    fn pool_value(&mut self, value: &Spanned<PoolValue>, words: &WeightWords) -> PoolEntry {
        let (weight, min, max) = match value.get_ref() {
            PoolValue::Weight(w) => (w, None, None),
            PoolValue::Limited { weight, min, max } => (weight, *min, *max),
        };
        let weight = words.resolve(weight).unwrap_or_else(|(message, help)| {
            self.invalid(value.span(), message, help);
            0
        });
        let max = match max {
            None => None,
            Some(m) if (1..=MAX_TARGET).contains(&m) => Some(m as u32),
            Some(m) => {
                self.invalid(value.span(), format!("max {m} must be 1-{MAX_TARGET}; leave it out for no limit"), None);
                None
            }
        };
        let min = match min {
            None => 0,
            Some(m) if (0..=MAX_TARGET).contains(&m) && max.is_none_or(|x| m <= i64::from(x)) => m as u32,
            Some(m) => {
                let message = format!("min {m} must be 0-{MAX_TARGET} and no more than max");
                self.invalid(value.span(), message, None);
                0
            }
        };
        if min > 0 && weight == 0 {
            self.invalid(value.span(), format!("min {min} with weight 0: the prefab can never be drawn"), None);
        }
        PoolEntry { prefab: String::new(), weight, max, min, location: Location::file(String::new()) }
    }

    /// The start prefab named by `s`, checked: it exists, fits inside the margin,
    /// and can be joined. A chain's start may have no connector (a whole-level
    /// prefab, `doorless` true); a pathways start must have doorways.
    pub(super) fn start<'p>(
        &mut self,
        s: &Spanned<String>,
        cx: &PieceContext<'_, 'p>,
        margin: i32,
        doorless: bool,
    ) -> Option<&'p Prefab> {
        let Some(p) = cx.prefabs.get(s.get_ref()) else {
            let help = "check the prefab's `prefab NAME` line under prefabs/";
            if let Some((message, help)) = cx.prefabs.unknown_name(s.get_ref(), help) {
                self.invalid(s.span(), message, Some(help));
            }
            return None;
        };
        let (w, h) = (cx.size.0 - 2 * margin, cx.size.1 - 2 * margin);
        let fits = p.transforms().iter().any(|t| {
            let (pw, ph) = t.apply_size(p.width(), p.height());
            pw <= w && ph <= h
        });
        if !fits {
            let within = if margin > 0 { format!(" inside its margin of {margin}") } else { String::new() };
            let help = if margin > 0 && doorless {
                "use a smaller prefab or a bigger map, or set `margin = 0` to let the prefab fill the map"
            } else {
                "use a smaller prefab or a bigger map"
            };
            let message = format!(
                "start prefab `{}` ({}x{}) is larger than the {}x{} map{within} in every allowed orientation",
                p.name(),
                p.width(),
                p.height(),
                cx.size.0,
                cx.size.1
            );
            self.invalid(s.span(), message, Some(help.into()));
            return None;
        }
        self.chainable(p, s.span(), doorless).then_some(p)
    }

    /// Checks that a prefab can be chained; reports each problem at the prefab.
    /// The start may have no connector (a whole-level prefab).
    pub(super) fn chainable(&mut self, p: &Prefab, used_at: Span, is_start: bool) -> bool {
        let mut problems: Vec<(String, String)> = Vec::new();
        for view in p.views(false) {
            for (message, help) in chain_problems(view.prefab, is_start, view.whole) {
                let message = format!("{message}{}", view.when);
                if !problems.iter().any(|(m, _)| *m == message) {
                    problems.push((message, help));
                }
            }
            // The extremes only repeat what the prefab as drawn breaks.
            if !problems.is_empty() {
                break;
            }
        }
        // Its most open drawing has every cell that any outcome may walk on.
        let open = p.most_open();
        if problems.is_empty()
            && !open.cells().bounds().points().any(|q| open.cells()[q].is_some_and(|t| t.is_walkable()))
        {
            problems.push((
                "no outcome of it has a walkable cell".into(),
                "draw floor, doors or stairs, or change the variation lines that turn them all into something else"
                    .into(),
            ));
        }
        let ok = problems.is_empty();
        for (message, help) in problems {
            let used = (self.at)(used_at.clone());
            let (cannot, by) = match self.section() {
                "chain" => ("cannot be chained", "it is chained by"),
                other => (
                    if other == "pathways" { "cannot be placed by the pathways" } else { "cannot be joined" },
                    "it is named by",
                ),
            };
            let e =
                Error::at(ErrorKind::Invalid, p.origin().clone(), format!("prefab `{}` {cannot}: {message}", p.name()))
                    .with_help(format!("{help} ({by} {used})"));
            if !self.errors.contains(&e) {
                self.errors.push(e);
            }
        }
        ok
    }

    /// Reports a pool whose prefabs can never join one another, or a start no pool
    /// prefab can join.
    fn joinable(&mut self, params: &ChainParams, f: &ChainFile, section: Span, cx: &PieceContext<'_, '_>) {
        let entries: Vec<(&PoolEntry, u8)> = params
            .pool
            .iter()
            .filter(|e| e.weight > 0)
            .filter_map(|e| cx.prefabs.get(&e.prefab).map(|p| (e, facings(p))))
            .collect();
        let auto =
            if params.auto_rooms.weight > 0 && params.auto_rooms.connectors.1 > 0 { Some(ALL_FACINGS) } else { None };
        // What can be joined on: pool prefabs and auto-rooms; and what may be joined
        // to: those, and the start.
        let joiners: Vec<u8> = entries.iter().map(|(_, f)| *f).chain(auto).collect();
        let start_prefab = params.start.as_deref().and_then(|s| cx.prefabs.get(s));
        if let Some(p) = start_prefab
            && facings(p) == 0
            && params.target > 1
        {
            let span = f.start.as_ref().map_or(section.clone(), |s| s.span());
            self.invalid(
                span,
                format!(
                    "start prefab `{}` has no connector, so nothing can join it, but the chain places {} more prefab{} (target = {})",
                    p.name(),
                    params.target - 1,
                    if params.target == 2 { "" } else { "s" },
                    params.target
                ),
                Some(format!(
                    "draw `*` connectors on its wall line (the prefab is at {}), or set `target = 1` for a prefab that is the whole level",
                    p.origin()
                )),
            );
        }
        let start = start_prefab.map(facings).filter(|&f| f != 0);
        let anchors: Vec<u8> = joiners.iter().copied().chain(start).collect();
        let meets = |a: u8, b: u8| Dir::ALL.iter().any(|&d| a & bit(d) != 0 && b & bit(d.opposite()) != 0);
        let pool_span = f.pool.as_ref().map_or(section.clone(), |p| p.span());
        if let (Some(faces), Some(name)) = (start, params.start.as_deref())
            && !joiners.is_empty()
            && !joiners.iter().any(|&b| meets(faces, b))
        {
            let span = f.start.as_ref().map_or(section.clone(), |s| s.span());
            self.invalid(
                span,
                format!("start prefab `{name}` can never be joined: no connector of the pool can face one of its connectors in any allowed orientation"),
                Some("give the pool prefabs connectors on other sides, allow them to rotate, or enable [chain.auto_rooms]".into()),
            );
        }
        let pairs = anchors.iter().any(|&a| joiners.iter().any(|&b| meets(a, b)));
        if !joiners.is_empty() && params.target > 1 && !pairs {
            self.invalid(
                pool_span.clone(),
                "no prefab of the pool can ever join the start or another pool prefab: no connector of one can face a connector of another in any allowed orientation".into(),
                Some("give prefabs connectors on opposite sides, allow them to rotate (`transforms: all`), or enable [chain.auto_rooms]".into()),
            );
        }
        for (e, faces) in entries.iter().filter(|(e, _)| e.min > 0) {
            if !anchors.iter().any(|&a| meets(a, *faces)) {
                let times = if e.min == 1 { "once".to_string() } else { format!("{} times", e.min) };
                let message = format!(
                    "prefab `{}` must appear at least {times}, but no connector of the start or the pool can face its connectors in any allowed orientation",
                    e.prefab
                );
                self.invalid(
                    pool_span.clone(),
                    message,
                    Some("give it connectors the others can meet, allow it to rotate, or drop its `min`".into()),
                );
            }
        }
    }

    /// Reports pool prefabs that fit the map in no allowed orientation, inside the
    /// margin.
    pub(super) fn fit_the_map(&mut self, pool: &[PoolEntry], margin: i32, pool_span: Span, cx: &PieceContext<'_, '_>) {
        let (w, h) = (cx.size.0 - 2 * margin, cx.size.1 - 2 * margin);
        for e in pool {
            let Some(p) = cx.prefabs.get(&e.prefab) else { continue };
            let fits = p.transforms().iter().any(|t| {
                let (pw, ph) = t.apply_size(p.width(), p.height());
                pw <= w && ph <= h
            });
            if !fits {
                let message = format!(
                    "pool prefab `{}` ({}x{}) fits the {}x{} map inside its margin of {} in no allowed orientation",
                    p.name(),
                    p.width(),
                    p.height(),
                    cx.size.0,
                    cx.size.1,
                    margin
                );
                self.invalid(
                    pool_span.clone(),
                    message,
                    Some("use a smaller prefab, a bigger map or a smaller `margin`".into()),
                );
            }
        }
    }
}

const ALL_FACINGS: u8 = 0b1111;

fn bit(d: Dir) -> u8 {
    1 << (d as u8)
}

/// The directions a prefab's connectors can face in its allowed orientations, as
/// bits.
fn facings(p: &Prefab) -> u8 {
    let mut bits = 0;
    for t in p.transforms().iter() {
        for link in p.links() {
            bits |= bit(t.apply_dir(link.dir));
        }
    }
    bits
}

/// Why a prefab cannot be joined by its connectors (chained, or placed as a
/// pathways room), as messages and hints (empty: it can). `whole`: whether its
/// floor must be one area here too.
pub(crate) fn chain_problems(p: &Prefab, is_start: bool, whole: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let cells = p.cells();
    let outside = |q: Point| cells.get(q).is_none_or(|c| c.is_none());
    let walkable = |q: Point| cells.get(q).is_some_and(|c| c.is_some_and(|t| t.is_walkable()));
    for link in p.links() {
        if let LinkKind::Tunnel { width } = link.kind {
            out.push((
                format!("it has a tunnel mark of width {width} at {}", link.at),
                "prefabs are joined only at connectors: draw `*` in the terrain instead".into(),
            ));
        } else if !outside(link.at + link.dir.delta()) || !walkable(link.at - link.dir.delta()) {
            out.push((
                format!("its connector at {} does not face out of its outline ({} of it is not outside, or the cell behind it is not floor)", link.at, link.dir.name()),
                "put connectors in the outline, floor behind them and `?` or the grid's edge in front".into(),
            ));
        }
    }
    if p.links().is_empty() && !is_start {
        out.push((
            "it has no connector, so nothing can join it".into(),
            "draw `*` in its outline where hallways may meet it".into(),
        ));
    }
    let is_link = |q: Point| p.links().iter().any(|l| l.at == q);
    if let Some(open) =
        cells.bounds().points().find(|&q| walkable(q) && !is_link(q) && Dir::ALL.iter().any(|d| outside(q + d.delta())))
    {
        out.push((
            format!("its floor at {open} touches the outside (`?` or the grid's edge)"),
            "a joined prefab's floor is closed by walls, with connectors as its only ways out: wall it in, or make that cell a connector `*`".into(),
        ));
    }
    if let Some(apart) = floor_apart(p).filter(|_| whole) {
        out.push((
            format!("its floor at {apart} cannot be reached from the rest of its floor"),
            "a joined prefab's walkable cells must form one area: open a way through, or make it two prefabs".into(),
        ));
    }
    out
}

/// A walkable cell of `p` its walkers cannot reach from its first walkable
/// cell, if any.
pub(crate) fn floor_apart(p: &Prefab) -> Option<Point> {
    let cells = p.cells();
    let walkable = |q: Point| cells.get(q).is_some_and(|c| c.is_some_and(|t| t.is_walkable()));
    let first = cells.bounds().points().find(|&q| walkable(q))?;
    let seen = Grid::reachable(cells.width(), cells.height(), first, p.moves(), walkable);
    cells.bounds().points().find(|&q| walkable(q) && !seen[q])
}
