//! Maps as JSON, in the schema docs/json-schema.md documents.
//!
//! In: a map and the pack that made it. Out: one line of JSON — the map's cells,
//! regions, prefabs (with the file and line each was written at), links, objects
//! (with the catalog entry and the definition line each came from), a legend of
//! the terrain glyphs in the palette's colours, and with [`json_with_trace`] the
//! trace. Field order is fixed by the structs below, so the same map always gives
//! the same bytes. Rendered with another pack than the one that made it, what the
//! pack does not know is `null`.

use super::ascii::{ascii_rows, passable_rows, spawn_blocked_rows};
use super::colour::terrain_colour;
use crate::content::Pack;
use crate::geom::{Point, Rect};
use crate::map::{LinkKind, Map, Object, Terrain};
use crate::trace::Trace;
use crate::vocab::Style;
use serde::Serialize;

/// Version of the JSON schema; bumped when a field changes meaning or goes away.
const SCHEMA_VERSION: u32 = 1;

/// One exit of a level in a world: its way, its first cell, the level it leads
/// to (`null`: out of the world) and the arrival cell there.
#[derive(Serialize)]
struct ExitJson<'a> {
    way: &'static str,
    x: i32,
    y: i32,
    to: Option<&'a str>,
    arrival: Option<[i32; 2]>,
}

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
    /// The layout generator that made the map.
    generator: &'static str,
    /// How walkers step (`orthogonal` or `diagonal`): what `passable` being
    /// one area means.
    moves: &'static str,
    rows: Vec<String>,
    /// Every terrain on the map: its key in `terrain_rows`, glyph, name, colour.
    terrain: Vec<TerrainJson>,
    /// One string per row, each cell the key of its terrain (render glyphs may
    /// be shared: rooms, corridors and junctions all draw `.`).
    terrain_rows: Vec<String>,
    passable: Vec<String>,
    spawn_blocked: Vec<String>,
    /// The cell marks of placed prefabs' legends, by name: absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    marks: Vec<MarkJson<'a>>,
    regions: Vec<RegionJson>,
    /// One list per row of `[x, length, region id]`: the cells each region holds.
    region_runs: Vec<Vec<[u32; 3]>>,
    prefabs: Vec<PrefabJson<'a>>,
    links: Vec<LinkJson>,
    objects: Vec<ObjectJson<'a>>,
    /// Object-only encounters: which, where, and their objects (indices into `objects`).
    object_encounters: Vec<ObjectEncounterJson<'a>>,
    /// A level of a world: where each of its staircases leads; absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    exits: Vec<ExitJson<'a>>,
    /// The trace, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<EventJson<'a>>>,
}

/// One cell mark: its name and its cells, `[x, y]` in reading order.
#[derive(Serialize)]
struct MarkJson<'a> {
    name: &'a str,
    cells: Vec<[i32; 2]>,
}

#[derive(Serialize)]
struct ObjectEncounterJson<'a> {
    id: &'a str,
    category: &'static str,
    region: u32,
    objects: &'a [usize],
}

#[derive(Serialize)]
struct TerrainJson {
    key: char,
    glyph: char,
    name: String,
    colour: String,
}

#[derive(Serialize)]
struct EventJson<'a> {
    stage: &'static str,
    outcome: &'static str,
    message: &'a str,
    /// `[x, y, width, height]` of the part of the map it concerns.
    #[serde(skip_serializing_if = "Option::is_none")]
    place: Option<[i32; 4]>,
}

#[derive(Serialize)]
struct DefinitionJson<'a> {
    /// The definition file, as the pack names it.
    file: &'a str,
    line: u32,
    glyph: char,
    /// The alternative that gave the object, as written, and its index.
    pick: String,
    alternative: u32,
    alternatives: usize,
}

#[derive(Serialize)]
struct ObjectJson<'a> {
    kind: &'static str,
    tag: Option<&'a str>,
    /// The catalog entry's name.
    name: Option<&'a str>,
    /// The first cell in reading order.
    x: i32,
    y: i32,
    /// Every cell as `[x, y, glyph]`.
    cells: Vec<(i32, i32, char)>,
    prefab: Option<usize>,
    /// The name of the prefab it came from, `furnishing`, or `encounter:ID` for
    /// an object-only encounter's.
    source: Option<std::borrow::Cow<'a, str>>,
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
    /// For an object a reference character stands for: its definition line.
    definition: Option<DefinitionJson<'a>>,
}

#[derive(Serialize)]
struct RegionJson {
    id: u32,
    kind: &'static str,
    x: i32,
    y: i32,
    width: i32,
    height: i32,
    /// `[x, y, to]`: the door cell and the region on its other side (`null`
    /// when it leads nowhere).
    doors: Vec<(i32, i32, Option<u32>)>,
    /// `[x, y, to]`: where it meets another region with no door of its own.
    openings: Vec<(i32, i32, Option<u32>)>,
    /// The regions a walker can step into from this one, by id.
    neighbours: Vec<u32>,
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
    /// Where the prefab is written.
    file: Option<&'a str>,
    line: Option<u32>,
    /// For a prefab with variation lines, the seed of the outcome placed.
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<u32>,
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
pub fn json(map: &Map, pack: &Pack) -> String {
    document(map, pack, None)
}

/// The map as one line of JSON with its trace (what `--explain` prints) as
/// `trace`, followed by a newline: what the HTML viewer's timeline reads.
pub fn json_with_trace(map: &Map, pack: &Pack) -> String {
    document(map, pack, Some(map.trace()))
}

fn document(map: &Map, pack: &Pack, trace: Option<&Trace>) -> String {
    let palette = pack.palette();
    let legend = terrains_of(map);
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
        moves: map.moves().name(),
        rows: ascii_rows(map, palette),
        terrain: legend.iter().zip(terrain_keys()).map(|(&t, key)| terrain_json(t, key, pack)).collect(),
        terrain_rows: terrain_rows(map, &legend),
        passable: passable_rows(map),
        spawn_blocked: spawn_blocked_rows(map),
        marks: map
            .marks()
            .map(|(name, cells)| MarkJson { name, cells: cells.iter().map(|p| [p.x, p.y]).collect() })
            .collect(),
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
                doors: r.doors.iter().map(|d| (d.at.x, d.at.y, d.to)).collect(),
                openings: r.openings.iter().map(|d| (d.at.x, d.at.y, d.to)).collect(),
                neighbours: map.neighbours(r.id),
                centre: r.centre.map(|c| [c.x, c.y]),
            })
            .collect(),
        region_runs: region_runs(map),
        prefabs: map
            .prefabs()
            .iter()
            .map(|p| {
                let origin = pack.prefab(&p.name).map(|prefab| prefab.origin());
                PrefabJson {
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
                    file: origin.map(|o| o.file.as_str()),
                    line: origin.map(|o| o.line),
                    variant: p.variant,
                }
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
        objects: map.objects().iter().map(|o| object_json(o, map, pack)).collect(),
        object_encounters: map
            .object_encounters()
            .iter()
            .map(|e| ObjectEncounterJson {
                id: &e.id,
                category: e.category.name(),
                region: e.region,
                objects: &e.objects,
            })
            .collect(),
        exits: map
            .exits()
            .iter()
            .map(|e| ExitJson {
                way: e.way.name(),
                x: e.at.x,
                y: e.at.y,
                to: e.to.as_deref(),
                arrival: e.arrival.map(|p| [p.x, p.y]),
            })
            .collect(),
        trace: trace.map(|t| {
            t.events()
                .iter()
                .map(|e| EventJson {
                    stage: e.stage,
                    outcome: e.outcome.name(),
                    message: &e.message,
                    place: e.place.map(|r: Rect| [r.x, r.y, r.width, r.height]),
                })
                .collect()
        }),
    };
    // Serialising plain structs of strings and integers cannot fail.
    let mut out = serde_json::to_string(&doc).unwrap_or_default();
    out.push('\n');
    out
}

fn object_json<'a>(o: &'a Object, map: &'a Map, pack: &'a Pack) -> ObjectJson<'a> {
    let first = o.cells.first().map_or(Point::default(), |c| c.0);
    ObjectJson {
        kind: o.kind.name(),
        tag: o.tag.as_deref(),
        name: o.tag.as_deref().and_then(|tag| pack.catalog().name_of(o.kind, tag)),
        x: first.x,
        y: first.y,
        cells: o.cells.iter().map(|&(p, g)| (p.x, p.y, g)).collect(),
        prefab: o.prefab,
        source: match o.furnishing {
            Some(_) => Some("furnishing".into()),
            None => o.prefab.and_then(|i| map.prefabs().get(i)).map(|p| p.name.as_str().into()).or_else(|| {
                let scattered = |e: &&crate::map::ObjectEncounter| {
                    e.objects.iter().any(|&k| map.objects().get(k).is_some_and(|x| std::ptr::eq(x, o)))
                };
                map.object_encounters().iter().find(scattered).map(|e| format!("encounter:{}", e.id).into())
            }),
        },
        keywords: &o.keywords,
        blocks: o.blocks(),
        part: o.furnishing.map(|f| f.part.name()),
        region: o.furnishing.and_then(|f| f.region),
        pile: o.furnishing.and_then(|f| f.pile),
        definition: o.definition.as_ref().and_then(|used| {
            let defs = pack.definitions(&used.defs)?;
            let line = defs.lines.get(used.line as usize)?;
            let (pick, _) = line.line.picks.get(used.alternative as usize)?;
            Some(DefinitionJson {
                file: &defs.file,
                line: line.line.line,
                glyph: line.line.glyph,
                pick: pick.to_string(),
                alternative: used.alternative,
                alternatives: line.line.picks.len(),
            })
        }),
    }
}

/// Every terrain the map holds, in the order of roles and variants.
fn terrains_of(map: &Map) -> Vec<Terrain> {
    let mut seen: Vec<Terrain> = Vec::new();
    let mut last = None;
    for &t in map.terrain().cells() {
        // Neighbouring cells mostly share a terrain: look it up once per run.
        if last != Some(t) && !seen.contains(&t) {
            seen.push(t);
        }
        last = Some(t);
    }
    seen.sort_by_key(|t| (t.role(), t.variant()));
    seen
}

/// The keys `terrain_rows` writes: digits, lower-case and upper-case letters,
/// then letters from Latin-1 on, one character each, never a JSON escape.
fn terrain_keys() -> impl Iterator<Item = char> {
    ('0'..='9').chain('a'..='z').chain('A'..='Z').chain((0xc0u32..).filter_map(char::from_u32))
}

fn terrain_json(t: Terrain, key: char, pack: &Pack) -> TerrainJson {
    let palette = pack.palette();
    TerrainJson {
        key,
        glyph: palette.render_glyph(t),
        name: t.to_string(),
        colour: terrain_colour(t, palette).to_string(),
    }
}

fn terrain_rows(map: &Map, legend: &[Terrain]) -> Vec<String> {
    let keys: Vec<char> = terrain_keys().take(legend.len()).collect();
    map.terrain()
        .cells()
        .chunks(map.width().max(1) as usize)
        .map(|row| {
            let mut last: Option<(Terrain, char)> = None;
            row.iter()
                .map(|&t| match last {
                    Some((same, key)) if same == t => key,
                    _ => {
                        let key = legend.iter().position(|&l| l == t).map_or(' ', |i| keys[i]);
                        last = Some((t, key));
                        key
                    }
                })
                .collect()
        })
        .collect()
}

/// Each row's runs of cells in one region, as `[x, length, id]`.
fn region_runs(map: &Map) -> Vec<Vec<[u32; 3]>> {
    (0..map.height())
        .map(|y| {
            let mut runs: Vec<[u32; 3]> = Vec::new();
            for x in 0..map.width() {
                let Some(region) = map.region_at(Point::new(x, y)) else { continue };
                match runs.last_mut() {
                    Some(run) if run[0] + run[1] == x as u32 && run[2] == region.id => run[1] += 1,
                    _ => runs.push([x as u32, 1, region.id]),
                }
            }
            runs
        })
        .collect()
}
