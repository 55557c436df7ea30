//! Maps as JSON, in the schema the README documents.
//!
//! Field order is fixed by the structs below, so the same map always gives the
//! same bytes.

use super::ascii::{ascii_rows, passable_rows, spawn_blocked_rows};
use crate::format::palette::Palette;
use crate::geom::Point;
use crate::map::{LinkKind, Map};
use crate::prefab::Style;
use serde::Serialize;

/// Version of the JSON schema; bumped when a field changes meaning or goes away.
const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct MapJson<'a> {
    format: &'static str,
    version: u32,
    seed: u64,
    map_type: &'a str,
    depth: u32,
    width: i32,
    height: i32,
    feature_variant: Option<&'a str>,
    /// The layout generator that made the map: `tunnelers` or `chain`.
    generator: &'static str,
    rows: Vec<String>,
    passable: Vec<String>,
    spawn_blocked: Vec<String>,
    regions: Vec<RegionJson>,
    prefabs: Vec<PrefabJson<'a>>,
    links: Vec<LinkJson>,
    objects: Vec<ObjectJson<'a>>,
}

#[derive(Serialize)]
struct ObjectJson<'a> {
    kind: &'static str,
    tag: Option<&'a str>,
    /// The first cell in reading order.
    x: i32,
    y: i32,
    /// Every cell as `[x, y, glyph]`.
    cells: Vec<(i32, i32, char)>,
    prefab: Option<usize>,
    /// The name of the prefab it came from, or `furnishing`.
    source: Option<&'a str>,
    /// Game keywords as `[name, value]`, value `null` for flags.
    keywords: &'a [(String, Option<String>)],
    /// True when walkers cannot pass its cells (machines).
    blocks: bool,
    /// For furnishing: the step that placed it (`interactive`, `filler`,
    /// `stockpile`, `terminal`, `item`).
    part: Option<&'static str>,
    /// For furnishing: the region it stands in.
    region: Option<u32>,
    /// For stockpile items: which stockpile of the map.
    pile: Option<u32>,
}

#[derive(Serialize)]
struct RegionJson {
    id: u32,
    kind: &'static str,
    x: i32,
    y: i32,
    width: i32,
    height: i32,
    doors: Vec<[i32; 2]>,
    /// A cavern's most central cell; absent for other regions.
    #[serde(skip_serializing_if = "Option::is_none")]
    centre: Option<[i32; 2]>,
}

#[derive(Serialize)]
struct PrefabJson<'a> {
    name: &'a str,
    stage: &'static str,
    x: i32,
    y: i32,
    width: i32,
    height: i32,
    transform: &'static str,
    style: &'static str,
    encounter: Option<&'a str>,
    category: Option<&'static str>,
}

#[derive(Serialize)]
struct LinkJson {
    x: i32,
    y: i32,
    dir: &'static str,
    kind: &'static str,
    width: u8,
    prefab: usize,
}

/// The map as one line of JSON followed by a newline.
pub fn json(map: &Map, palette: &Palette) -> String {
    let doc = MapJson {
        format: "prefabric-map",
        version: SCHEMA_VERSION,
        seed: map.seed(),
        map_type: map.map_type(),
        depth: map.depth(),
        width: map.width(),
        height: map.height(),
        feature_variant: map.feature_variant(),
        generator: map.layout_stats().generator,
        rows: ascii_rows(map, palette),
        passable: passable_rows(map),
        spawn_blocked: spawn_blocked_rows(map),
        regions: map
            .regions()
            .iter()
            .map(|r| RegionJson {
                id: r.id,
                kind: r.kind.name(),
                x: r.bounds.x,
                y: r.bounds.y,
                width: r.bounds.width,
                height: r.bounds.height,
                doors: r.doors.iter().map(|d| [d.at.x, d.at.y]).collect(),
                centre: r.centre.map(|c| [c.x, c.y]),
            })
            .collect(),
        prefabs: map
            .prefabs()
            .iter()
            .map(|p| PrefabJson {
                name: &p.name,
                stage: p.stage.name(),
                x: p.bounds.x,
                y: p.bounds.y,
                width: p.bounds.width,
                height: p.bounds.height,
                transform: p.transform.name(),
                style: p.encounter.as_ref().map_or(Style::Feature, |e| e.style).name(),
                encounter: p.encounter.as_ref().map(|e| e.id.as_str()),
                category: p.encounter.as_ref().map(|e| e.category.name()),
            })
            .collect(),
        links: map
            .links()
            .iter()
            .map(|l| {
                let kind = if l.kind == LinkKind::Connector { "connector" } else { "tunnel" };
                LinkJson { x: l.at.x, y: l.at.y, dir: l.dir.name(), kind, width: l.kind.width(), prefab: l.prefab }
            })
            .collect(),
        objects: map
            .objects()
            .iter()
            .map(|o| {
                let first = o.cells.first().map_or(Point::default(), |c| c.0);
                ObjectJson {
                    kind: o.kind.name(),
                    tag: o.tag.as_deref(),
                    x: first.x,
                    y: first.y,
                    cells: o.cells.iter().map(|&(p, g)| (p.x, p.y, g)).collect(),
                    prefab: o.prefab,
                    source: match o.furnishing {
                        Some(_) => Some("furnishing"),
                        None => o.prefab.and_then(|i| map.prefabs().get(i)).map(|p| p.name.as_str()),
                    },
                    keywords: &o.keywords,
                    blocks: o.blocks(),
                    part: o.furnishing.map(|f| f.part.name()),
                    region: o.furnishing.and_then(|f| f.region),
                    pile: o.furnishing.and_then(|f| f.pile),
                }
            })
            .collect(),
    };
    // Serialising plain structs of strings and integers cannot fail.
    let mut out = serde_json::to_string(&doc).unwrap_or_default();
    out.push('\n');
    out
}
