//! Map types: `maps/<name>.toml`, read and checked against the pack's prefabs.
//!
//! A map type gives the map's size, its layout generator with the generator's
//! parameters (every one has a default), tunneler starts, and the feature list: the
//! variants the features stage chooses from by weight, each placing prefabs at
//! anchors with jitter, BLOCKED barriers and spawn-blocked areas, and the encounter
//! pool embedded into rooms afterwards ([`super::encounters`]). Reading one yields
//! a [`MapType`] whose every name, size and reference has been checked, or every
//! problem found, located in the file.

mod placement;

use super::catalog::Catalog;
use super::caves::{self, CavesFile, CavesParams};
use super::chain::{self, ChainFile, ChainParams, PieceContext};
use super::encounters::{self, EncounterPool, PoolContext, PoolFile, SharedPools};
use super::furnishing::{self, Furnishing, FurnishingFile};
use super::index::PrefabIndex;
use super::pathways::{self, PathwaysFile, PathwaysParams};
use super::theme::{self, Theme, ThemeFile};
use super::tunnelers::{self, TunnelerParams};
use super::values::{Anchor, WeightWords};
use crate::error::{Error, ErrorKind, LineIndex, Location};
use crate::format::{parse_toml, suggest};
use crate::geom::{Dir, Point, Rect, TransformSet};
use crate::limits::Limits;
use crate::vocab::Style;
use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// A tunneler the map type starts at a fixed place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartSpec {
    /// Where it starts (the cell itself for [`Anchor::At`]).
    pub anchor: Anchor,
    /// Added to the anchored cell.
    pub offset: Point,
    /// Largest random shift either way, per axis.
    pub jitter: Point,
    /// The ways it may dig first, one drawn per map; empty for any of the four.
    pub dirs: Vec<Dir>,
    /// Tunnel width (default: the generator's `width`).
    pub width: u8,
}

/// How far from the map's edge a start's junction square must stay.
pub const START_EDGE_GAP: i32 = 2;

/// A prefab placement of a feature variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrefabPlacement {
    /// The prefabs to choose from, with weights.
    pub choices: Vec<(String, u32)>,
    /// Where it goes (unused when it goes into a cavern).
    pub anchor: Anchor,
    /// Placed after the layout into a cavern instead, centered in it or
    /// embedded in its wall ([`Style::Centered`], [`Style::Embedded`]).
    pub cavern: Option<Style>,
    /// Added to the anchored corner.
    pub offset: Point,
    /// Largest random shift either way, per axis.
    pub jitter: Point,
    /// Allowed orientations (intersected with each prefab's own).
    pub transforms: TransformSet,
    /// Cells kept free between the prefab and every edge of the map.
    pub margin: i32,
    /// Mark the prefab's area spawn-blocked.
    pub spawn_block: bool,
    /// Fail the generation (rather than skip) when it cannot be placed.
    pub required: bool,
    /// Where the placement is written.
    pub location: Location,
}

/// One entry of the feature list: what the features stage places when it picks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureVariant {
    /// A name for traces and output.
    pub name: String,
    /// Relative frequency.
    pub weight: u32,
    /// Prefabs to place, in order.
    pub prefabs: Vec<PrefabPlacement>,
    /// BLOCKED rectangles no tunnel crosses.
    pub barriers: Vec<Rect>,
    /// For each barrier, the chance (percent) it is raised on a map: 100 for a
    /// barrier the variant always has, less for an optional one.
    pub barrier_chances: Vec<u32>,
    /// Rectangles where games should not spawn.
    pub spawn_blocks: Vec<Rect>,
    /// Extra tunneler starts.
    pub starts: Vec<StartSpec>,
}

/// The layout generator of a map type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutGenerator {
    /// Cogmind-style tunnelers digging corridors, rooms, halls and junctions.
    Tunnelers(TunnelerParams),
    /// Golden Krone-style prefabs chained through their connectors by hallways.
    Chain(ChainParams),
    /// Ascension-style hand-made rooms joined door to door by path-found hallways.
    Pathways(PathwaysParams),
    /// Caves grown by a cellular automaton, features joined by direct passages.
    Caves(CavesParams),
}

impl LayoutGenerator {
    /// The names a map type's `generator` may use.
    pub const NAMES: [&'static str; 4] = ["tunnelers", "chain", "pathways", "caves"];

    /// Its name in map types and traces.
    pub const fn name(&self) -> &'static str {
        match self {
            LayoutGenerator::Tunnelers(_) => "tunnelers",
            LayoutGenerator::Chain(_) => "chain",
            LayoutGenerator::Pathways(_) => "pathways",
            LayoutGenerator::Caves(_) => "caves",
        }
    }
}

/// One of a map type's layout generators and how often it is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightedGenerator {
    /// The generator with its parameters.
    pub generator: LayoutGenerator,
    /// Relative frequency.
    pub weight: u32,
}

/// How many stairs each way a map gets: general stairs (`stairs` cells in
/// prefabs) become stairs up and down until these counts are met, and the rest
/// floor. Stairs drawn with a fixed direction always stay and count.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StairsCount {
    /// Staircases up.
    #[serde(default)]
    pub up: u32,
    /// Staircases down.
    #[serde(default)]
    pub down: u32,
}

/// Most staircases a map type may ask for each way.
const MAX_STAIRS: u32 = 100;

/// A validated map type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapType {
    /// Its name (the file's stem).
    pub name: String,
    /// What it is for, in a sentence.
    pub description: String,
    /// Width in cells.
    pub width: i32,
    /// Height in cells.
    pub height: i32,
    /// How the layout is dug: one generator, or several chosen per map by weight
    /// (seed 002 keeps "some levels generated with the old algorithm").
    pub generators: Vec<WeightedGenerator>,
    /// Tunneler starts used with every variant.
    pub starts: Vec<StartSpec>,
    /// The feature list.
    pub variants: Vec<FeatureVariant>,
    /// Encounters embedded into rooms after the layout, if the map type has any.
    pub encounters: Option<EncounterPool>,
    /// How rooms, halls and junctions are furnished, if they are.
    pub furnishing: Option<Furnishing>,
    /// The terrain variants its dug floors and raised walls take, and its
    /// pools (empty: plain terrain).
    pub theme: Theme,
    /// How many stairs up and down general stairs are trimmed to; without it
    /// every general staircase becomes stairs down.
    pub stairs: Option<StairsCount>,
    /// Where `stairs` is written, when it is.
    pub stairs_location: Option<Location>,
    /// The file it was read from.
    pub file: String,
    /// The file's text, read again with another size by
    /// [`Pack::map_type_sized`](crate::Pack::map_type_sized).
    pub(crate) source: Arc<str>,
}

// ---- the file as written ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapTypeFile {
    #[serde(default)]
    description: String,
    width: Spanned<i64>,
    height: Spanned<i64>,
    #[serde(default)]
    generator: Option<Spanned<GeneratorFile>>,
    #[serde(default)]
    tunnelers: Option<Spanned<TunnelerParams>>,
    #[serde(default)]
    chain: Option<Spanned<ChainFile>>,
    #[serde(default)]
    pathways: Option<Spanned<PathwaysFile>>,
    #[serde(default)]
    caves: Option<Spanned<CavesFile>>,
    #[serde(default)]
    starts: Vec<Spanned<StartFile>>,
    #[serde(default)]
    variants: Vec<Spanned<VariantFile>>,
    #[serde(default)]
    encounters: Option<PoolFile>,
    #[serde(default)]
    furnishing: Option<Spanned<FurnishingFile>>,
    #[serde(default)]
    theme: Option<ThemeFile>,
    stairs: Option<Spanned<StairsCount>>,
}

/// `generator = "name"` or `generator = { name = weight, ... }`.
enum GeneratorFile {
    One(String),
    Weighted(BTreeMap<String, i64>),
}

impl<'de> Deserialize<'de> for GeneratorFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GeneratorFile, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(String),
            Weighted(BTreeMap<String, i64>),
        }
        match Raw::deserialize(d) {
            Ok(Raw::One(name)) => Ok(GeneratorFile::One(name)),
            Ok(Raw::Weighted(table)) => Ok(GeneratorFile::Weighted(table)),
            Err(_) => Err(de::Error::custom(
                "expected a generator's name, e.g. \"chain\", or a table of weights, e.g. { chain = 4, tunnelers = 1 }",
            )),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartFile {
    at: Anchor,
    #[serde(default)]
    offset: [i32; 2],
    #[serde(default)]
    jitter: [u16; 2],
    #[serde(default)]
    dir: Option<Spanned<String>>,
    #[serde(default)]
    width: Option<Spanned<u8>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantFile {
    #[serde(default)]
    name: Option<String>,
    #[serde(default = "one")]
    weight: u32,
    #[serde(default)]
    prefabs: Vec<Spanned<PlacementFile>>,
    #[serde(default)]
    barriers: Vec<RectFile>,
    #[serde(default)]
    spawn_blocks: Vec<RectFile>,
    #[serde(default)]
    starts: Vec<Spanned<StartFile>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum PrefabChoice {
    One(String),
    Weighted(BTreeMap<String, u32>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlacementFile {
    prefab: Spanned<PrefabChoice>,
    #[serde(default)]
    at: Option<Spanned<Anchor>>,
    #[serde(default)]
    cavern: Option<Spanned<String>>,
    #[serde(default)]
    offset: [i32; 2],
    #[serde(default)]
    jitter: [u16; 2],
    #[serde(default)]
    transforms: Option<Spanned<String>>,
    #[serde(default = "one_i32")]
    margin: i32,
    #[serde(default)]
    spawn_block: bool,
    #[serde(default = "yes")]
    required: bool,
}

/// Largest offset a placement or start may shift by, either way.
const MAX_OFFSET: u32 = 4096;

fn one() -> u32 {
    1
}

fn one_i32() -> i32 {
    1
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RectFile {
    rect: Spanned<[i32; 4]>,
    /// Barriers only: the chance (percent) the barrier is raised on a map.
    #[serde(default)]
    chance: Option<Spanned<i64>>,
}

/// What a map type is checked against: the pack's parts read before map types.
pub(crate) struct Parts<'a, 'p> {
    /// Finds the prefabs it names.
    pub prefabs: &'a PrefabIndex<'p>,
    /// The pack's weight words.
    pub words: &'a WeightWords,
    /// The catalog, when it loaded: furnishing names are checked against it.
    pub catalog: Option<&'a Catalog>,
    /// The shared encounter pools it may include.
    pub shared: &'a SharedPools,
}

/// Reads and checks one map type against the pack's `parts`; `size`, when
/// given, replaces the width and height the file gives, and everything placed
/// by position is checked against it.
pub(crate) fn read(
    file: &str,
    name: &str,
    source: &str,
    limits: &Limits,
    parts: &Parts<'_, '_>,
    size: Option<(i64, i64)>,
) -> Result<MapType, Vec<Error>> {
    let (prefabs, words, catalog, shared) = (parts.prefabs, parts.words, parts.catalog, parts.shared);
    let raw: MapTypeFile = parse_toml(file, source).map_err(|e| vec![e])?;
    let mut c = Checker { file, source, lines: LineIndex::new(source), errors: Vec::new() };

    let max = i64::from(limits.max_map_side);
    let mut side = |v: &Spanned<i64>, what: &str| -> i32 {
        if (16..=max).contains(v.get_ref()) {
            *v.get_ref() as i32
        } else {
            c.invalid(v.span(), format!("{what} {} must be between 16 and {max}", v.get_ref()), None);
            // The rest is checked against the largest map, so no follow-on
            // error speaks of a size the user never wrote; the map type fails
            // on this error alone.
            max as i32
        }
    };
    let (width, height) = match size {
        // A size asked from code has no place in the file: its errors name
        // the map type and the size, the rest are located as usual.
        Some((w, h)) => {
            let in_range = |v: i64| (16..=max).contains(&v);
            if !in_range(w) || !in_range(h) {
                c.errors.push(
                    Error::at(
                        ErrorKind::Invalid,
                        Location::file(file),
                        format!("map type `{name}` cannot be {w}x{h}: width and height must be between 16 and {max}"),
                    )
                    .with_help(format!(
                        "the file gives {}x{}",
                        raw.width.get_ref(),
                        raw.height.get_ref()
                    )),
                );
                return Err(c.errors);
            }
            (w as i32, h as i32)
        }
        None => (side(&raw.width, "width"), side(&raw.height, "height")),
    };

    let size = (width, height);
    let piece_cx = PieceContext { prefabs, words, size };
    let (generators, misspelt) = c.generators(&raw, &piece_cx);
    let tunnelers = generators.iter().find_map(|g| match &g.generator {
        LayoutGenerator::Tunnelers(p) => Some(p),
        _ => None,
    });
    let variant_starts = raw.variants.iter().flat_map(|v| v.get_ref().starts.first());
    if tunnelers.is_none()
        && !misspelt
        && let Some(s) = raw.starts.first().or(variant_starts.into_iter().next())
    {
        c.invalid(
            s.span(),
            "tunneler starts are given, but this map type has no tunneler generator".into(),
            Some("remove the [[starts]] (and [[variants.starts]]), or add tunnelers to `generator`".into()),
        );
    }
    let start_width = tunnelers.map_or(TunnelerParams::default().width, |t| t.width);
    let starts = raw.starts.iter().map(|s| c.start(s, size, start_width)).collect();
    let mut variants = Vec::new();
    for (i, v) in raw.variants.iter().enumerate() {
        variants.push(c.variant(v, i, size, start_width, prefabs));
    }
    if !variants.is_empty() && variants.iter().all(|v: &FeatureVariant| v.weight == 0) {
        let span = raw.variants[0].span();
        c.invalid(span, "every feature variant has weight 0, so none can be chosen".to_string(), None);
    }
    let at = |span: std::ops::Range<usize>| c.lines.locate(file, source, span.start);
    let pool_cx = PoolContext { words, prefabs, shared, max_encounters: limits.max_encounters, catalog };
    let encounters = raw.encounters.as_ref().map(|p| encounters::read(p, &at, &pool_cx, &mut c.errors));
    let furnishing = raw.furnishing.as_ref().map(|f| furnishing::read(f, &at, words, catalog, &mut c.errors));
    let theme = raw.theme.as_ref().map_or_else(Theme::default, |t| theme::read(t, &at, words, &mut c.errors));
    let stairs_location = raw.stairs.as_ref().map(|s| at(s.span()));
    let stairs = raw.stairs.as_ref().map(|s| {
        let n = *s.get_ref();
        if n.up > MAX_STAIRS || n.down > MAX_STAIRS {
            c.invalid(
                s.span(),
                format!("stairs up = {}, down = {}: at most {MAX_STAIRS} each way", n.up, n.down),
                None,
            );
        }
        n
    });
    if c.errors.is_empty() {
        Ok(MapType {
            name: name.to_string(),
            description: raw.description,
            width,
            height,
            generators,
            starts,
            variants,
            encounters,
            furnishing,
            theme,
            stairs,
            stairs_location,
            file: file.to_string(),
            source: Arc::from(source),
        })
    } else {
        Err(c.errors)
    }
}

struct Checker<'a> {
    file: &'a str,
    source: &'a str,
    /// Made once per file: errors and entries are located without rescanning it.
    lines: LineIndex,
    errors: Vec<Error>,
}

impl Checker<'_> {
    fn loc(&self, span: std::ops::Range<usize>) -> Location {
        self.lines.locate(self.file, self.source, span.start)
    }

    fn invalid(&mut self, span: std::ops::Range<usize>, message: String, help: Option<String>) {
        let mut e = Error::at(ErrorKind::Invalid, self.loc(span), message);
        if let Some(h) = help {
            e = e.with_help(h);
        }
        self.errors.push(e);
    }

    fn check_offset(&mut self, span: std::ops::Range<usize>, offset: [i32; 2]) {
        if offset.iter().any(|v| v.unsigned_abs() > MAX_OFFSET) {
            self.invalid(
                span,
                format!("offset [{}, {}] is further than {MAX_OFFSET} cells", offset[0], offset[1]),
                None,
            );
        }
    }

    /// The generators `generator` names (default: tunnelers), each with its
    /// parameters, and whether a name was misspelt (then checks that depend on
    /// the generators would only repeat the mistake); a parameter section for a
    /// generator not named is an error.
    fn generators(&mut self, raw: &MapTypeFile, piece_cx: &PieceContext<'_, '_>) -> (Vec<WeightedGenerator>, bool) {
        let named: Vec<(String, i64)> = match raw.generator.as_ref().map(|g| g.get_ref()) {
            None => vec![("tunnelers".to_string(), 1)],
            Some(GeneratorFile::One(name)) => vec![(name.clone(), 1)],
            Some(GeneratorFile::Weighted(table)) => table.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        };
        let span = raw.generator.as_ref().map_or(0..0, |g| g.span());
        let mut out = Vec::new();
        for (name, weight) in &named {
            if !(0..=i64::from(u16::MAX)).contains(weight) {
                self.invalid(span.clone(), format!("generator weight {weight} must be 0-{}", u16::MAX), None);
                continue;
            }
            let generator = match name.as_str() {
                "tunnelers" => {
                    if let Some(p) = &raw.tunnelers {
                        self.check_params(p);
                    }
                    LayoutGenerator::Tunnelers(raw.tunnelers.as_ref().map(|p| p.get_ref().clone()).unwrap_or_default())
                }
                "chain" => {
                    let at = |span: std::ops::Range<usize>| self.lines.locate(self.file, self.source, span.start);
                    LayoutGenerator::Chain(chain::read(
                        raw.chain.as_ref(),
                        span.clone(),
                        &at,
                        piece_cx,
                        &mut self.errors,
                    ))
                }
                "pathways" => {
                    let at = |span: std::ops::Range<usize>| self.lines.locate(self.file, self.source, span.start);
                    LayoutGenerator::Pathways(pathways::read(
                        raw.pathways.as_ref(),
                        span.clone(),
                        &at,
                        piece_cx,
                        &mut self.errors,
                    ))
                }
                "caves" => {
                    let at = |span: std::ops::Range<usize>| self.lines.locate(self.file, self.source, span.start);
                    LayoutGenerator::Caves(caves::read(
                        raw.caves.as_ref(),
                        span.clone(),
                        &at,
                        piece_cx.size,
                        &mut self.errors,
                    ))
                }
                other => {
                    let help = match suggest(other, LayoutGenerator::NAMES) {
                        Some(s) => {
                            format!("did you mean `{s}`? the generators are {}", LayoutGenerator::NAMES.join(", "))
                        }
                        None => format!("the generators are {}", LayoutGenerator::NAMES.join(", ")),
                    };
                    self.invalid(span.clone(), format!("unknown generator `{other}`"), Some(help));
                    continue;
                }
            };
            out.push(WeightedGenerator { generator, weight: *weight as u32 });
        }
        if named.is_empty() {
            let help = format!("name one or more of {}", LayoutGenerator::NAMES.join(", "));
            self.invalid(span.clone(), "`generator` names no generator".into(), Some(help));
        }
        if !out.is_empty() && out.iter().all(|g| g.weight == 0) {
            self.invalid(span.clone(), "every generator has weight 0, so none can be chosen".into(), None);
        }
        // After a misspelt generator name the sections would only repeat it.
        let misspelt = named.iter().any(|(n, _)| !LayoutGenerator::NAMES.contains(&n.as_str()));
        let uses = |name: &str| misspelt || named.iter().any(|(n, _)| n == name);
        if let (Some(t), false) = (&raw.tunnelers, uses("tunnelers")) {
            self.invalid(
                t.span(),
                "[tunnelers] is given but `generator` does not name tunnelers".into(),
                Some("add tunnelers to `generator`, or remove the section".into()),
            );
        }
        if let (Some(ch), false) = (&raw.chain, uses("chain")) {
            self.invalid(
                ch.span(),
                "[chain] is given but `generator` does not name chain".into(),
                Some("write generator = \"chain\" (or a table of weights naming it), or remove the section".into()),
            );
        }
        if let (Some(p), false) = (&raw.pathways, uses("pathways")) {
            self.invalid(
                p.span(),
                "[pathways] is given but `generator` does not name pathways".into(),
                Some("write generator = \"pathways\" (or a table of weights naming it), or remove the section".into()),
            );
        }
        if let (Some(c), false) = (&raw.caves, uses("caves")) {
            self.invalid(
                c.span(),
                "[caves] is given but `generator` does not name caves".into(),
                Some("write generator = \"caves\" (or a table of weights naming it), or remove the section".into()),
            );
        }
        if out.is_empty() {
            out.push(WeightedGenerator { generator: LayoutGenerator::Tunnelers(TunnelerParams::default()), weight: 1 });
        }
        (out, misspelt)
    }

    fn check_params(&mut self, p: &Spanned<TunnelerParams>) {
        for msg in tunnelers::problems(p.get_ref()) {
            self.invalid(p.span(), format!("[tunnelers]: {msg}"), None);
        }
    }

    fn start(&mut self, s: &Spanned<StartFile>, size: (i32, i32), default_width: u8) -> StartSpec {
        let raw = s.get_ref();
        // One direction, several separated by `|` (one drawn per map), or any.
        let mut dirs: Vec<Dir> = Vec::new();
        if let Some(d) = raw.dir.as_ref().filter(|d| d.get_ref() != "any") {
            for word in d.get_ref().split('|').map(str::trim) {
                match Dir::parse(word) {
                    Some(dir) if !dirs.contains(&dir) => dirs.push(dir),
                    Some(_) => {}
                    None => self.invalid(
                        d.span(),
                        format!("unknown direction `{word}`"),
                        Some("use north, east, south or west, several as \"north|east\", or any".into()),
                    ),
                }
            }
        }
        let width = match &raw.width {
            None => default_width,
            Some(w) if (1..=9).contains(w.get_ref()) => *w.get_ref(),
            Some(w) => {
                self.invalid(w.span(), format!("tunnel width {} must be 1-9", w.get_ref()), None);
                default_width
            }
        };
        self.check_offset(s.span(), raw.offset);
        let inner = Rect::new(0, 0, size.0, size.1).expand(-START_EDGE_GAP);
        if let Anchor::At(p) = raw.at
            && !inner.contains_rect(&Rect::square_around(p, i32::from(width)))
        {
            self.invalid(
                s.span(),
                format!("start {p} of width {width} must keep its square {START_EDGE_GAP} cells from the map's edge"),
                Some(format!(
                    "on this {}x{} map a start's square must lie within x {} to {} and y {} to {}",
                    size.0,
                    size.1,
                    inner.x,
                    inner.right() - 1,
                    inner.y,
                    inner.bottom() - 1
                )),
            );
        }
        StartSpec {
            anchor: raw.at,
            offset: Point::new(raw.offset[0], raw.offset[1]),
            jitter: Point::new(i32::from(raw.jitter[0]), i32::from(raw.jitter[1])),
            dirs,
            width,
        }
    }

    fn variant(
        &mut self,
        v: &Spanned<VariantFile>,
        index: usize,
        size: (i32, i32),
        start_width: u8,
        prefabs: &PrefabIndex<'_>,
    ) -> FeatureVariant {
        let raw = v.get_ref();
        let name = raw.name.clone().unwrap_or_else(|| format!("variant {}", index + 1));
        let map_rect = Rect::new(0, 0, size.0, size.1);
        let mut rects = |list: &[RectFile], what: &str| -> Vec<Rect> {
            let mut out = Vec::new();
            for r in list {
                let [x, y, w, h] = *r.rect.get_ref();
                let rect = Rect::new(x, y, w, h);
                // In i64: a width near i32::MAX must not wrap into "inside".
                let inside = w > 0
                    && h > 0
                    && x >= 0
                    && y >= 0
                    && i64::from(x) + i64::from(w) <= i64::from(map_rect.width)
                    && i64::from(y) + i64::from(h) <= i64::from(map_rect.height);
                if !inside {
                    self.invalid(
                        r.rect.span(),
                        format!(
                            "{what} [{x}, {y}, {w}, {h}] is not a non-empty rectangle inside the {}x{} map",
                            size.0, size.1
                        ),
                        Some("rectangles are written [x, y, width, height]".into()),
                    );
                } else {
                    out.push(rect);
                }
            }
            out
        };
        // Each barrier alone, so its chance stays with it when a rectangle is
        // out of the map and left out.
        let checked: Vec<Option<Rect>> =
            raw.barriers.iter().map(|r| rects(std::slice::from_ref(r), "barrier").pop()).collect();
        let spawn_blocks = rects(&raw.spawn_blocks, "spawn block");
        let (barriers, barrier_chances): (Vec<Rect>, Vec<u32>) = checked
            .into_iter()
            .zip(self.barrier_chances(raw))
            .filter_map(|(rect, chance)| rect.map(|r| (r, chance)))
            .unzip();
        // Prefabs are checked against the barriers always raised; an optional
        // one may or may not be in their way.
        let always: Vec<Rect> =
            barriers.iter().zip(&barrier_chances).filter(|&(_, &c)| c == 100).map(|(&b, _)| b).collect();
        let starts = raw.starts.iter().map(|s| self.start(s, size, start_width)).collect();
        let placements = raw.prefabs.iter().filter_map(|p| self.placement(p, size, &always, prefabs)).collect();
        FeatureVariant {
            name,
            weight: raw.weight,
            prefabs: placements,
            barriers,
            barrier_chances,
            spawn_blocks,
            starts,
        }
    }

    /// Each barrier's chance, in order, 100 when not given; a spawn block's
    /// is an error (it is always marked).
    fn barrier_chances(&mut self, raw: &VariantFile) -> Vec<u32> {
        for r in &raw.spawn_blocks {
            if let Some(c) = &r.chance {
                self.invalid(
                    c.span(),
                    "a spawn block is always marked; `chance` is for barriers".into(),
                    Some("remove `chance`, or make it a [[variants.barriers]] entry".into()),
                );
            }
        }
        let mut chances = Vec::new();
        for r in &raw.barriers {
            let chance = match &r.chance {
                None => 100,
                Some(c) if (1..=100).contains(c.get_ref()) => *c.get_ref() as u32,
                Some(c) => {
                    let message =
                        format!("barrier chance {} must be 1-100 (percent of maps that raise it)", c.get_ref());
                    self.invalid(c.span(), message, Some("leave `chance` out for a barrier every map has".into()));
                    100
                }
            };
            chances.push(chance);
        }
        chances
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::values::{IntRange, Percent};

    #[test]
    fn anchors_place_rectangles_against_edges() {
        let map = (100, 50);
        assert_eq!(Anchor::North.place(map, (10, 4), 1), Point::new(45, 1));
        assert_eq!(Anchor::SouthEast.place(map, (10, 4), 1), Point::new(89, 45));
        assert_eq!(Anchor::Centre.place(map, (10, 4), 0), Point::new(45, 23));
        assert_eq!(Anchor::At(Point::new(3, 4)).place(map, (10, 4), 1), Point::new(3, 4));
    }

    #[test]
    fn anchors_parse_names_aliases_and_points() {
        #[derive(Deserialize)]
        struct T {
            a: Anchor,
        }
        let parse = |s: &str| toml::from_str::<T>(s).map(|t| t.a);
        assert_eq!(parse("a = \"north_west\"").unwrap(), Anchor::NorthWest);
        assert_eq!(parse("a = \"center\"").unwrap(), Anchor::Centre);
        assert_eq!(parse("a = { x = 4, y = 9 }").unwrap(), Anchor::At(Point::new(4, 9)));
        let err = parse("a = \"up\"").unwrap_err();
        assert!(err.message().contains("unknown anchor `up`"), "{}", err.message());
    }

    #[test]
    fn spans_and_percents_validate_while_parsing() {
        #[derive(Deserialize)]
        struct T {
            s: IntRange,
            p: Percent,
        }
        let ok: T = toml::from_str("s = [2, 5]\np = 100").unwrap();
        assert_eq!((ok.s, ok.p), (IntRange::new(2, 5), Percent(100)));
        let e = toml::from_str::<T>("s = [5, 2]\np = 1").err().unwrap();
        assert!(e.message().contains("backwards"), "{}", e.message());
        let e = toml::from_str::<T>("s = 3\np = 101").err().unwrap();
        assert!(e.message().contains("not a percentage"), "{}", e.message());
    }
}
