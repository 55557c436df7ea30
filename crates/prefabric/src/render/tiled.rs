//! Maps for the Tiled map editor: `.tmj` (JSON) and `.tmx` (XML) maps, their
//! tileset and a `.world` file for a run of levels.
//!
//! In: one or more maps, their pack, and where the tileset goes. Out: text and
//! image bytes for the caller to write. A [`TiledTileset`] holds one tile per
//! terrain and per object glyph the maps use — each terrain tile filled with
//! the terrain's palette colour (the colour of its cells in our PNG) with the
//! render glyph drawn darker on it in the PNG legend's 8x8 font, each object
//! tile the object's glyph in its kind's colour on a dark square, transparent
//! around it so the floor shows — and every tile carries the properties
//! `glyph`, and `role` and `variant` (terrain) or `kind` (objects), which is
//! what a prefab drawn in Tiled is read through. A map has two tile layers,
//! `terrain` and `objects`, and object layers `regions`, `prefabs`, `object
//! properties`, `links`, `doors` and `marks` (only `prefabs` shown at first),
//! each object with its class (Tiled 1.8 calls it
//! `type`) and properties; the map's properties name the pack, map type, seed,
//! depth and the command that makes it again. A prefab is written the same
//! way for `prefabric convert` ([`prefab_tmx`], [`prefab_tmj`]): its own tileset
//! ([`TiledTileset::of_prefab`]) and the tile layers `terrain`, `links`,
//! `machines` and `refs` that `Prefab::from_tiled` reads back. The same maps
//! and options give the same bytes.

use super::colour::{BACKGROUND, object_colour, terrain_colour};
use super::png::encode_rgba;
use crate::content::Pack;
use crate::content::catalog::Catalog;
use crate::error::Error;
use crate::format::palette::Palette;
use crate::format::xp::Rgb;
use crate::geom::{Point, Rect};
use crate::grid::Grid;
use crate::map::{LinkKind, Map, Object, ObjectKind, Terrain};
use crate::prefab::{LayerKind, Prefab};
use serde::Serialize;
use std::fmt::Write as _;

/// Pixels per side of a tile: the 8x8 font with a margin of 2 around it.
pub const TILED_TILE_SIZE: u32 = 12;

/// The colour of a prefab mark's glyph (links, machines, refs).
const MARK_COLOUR: Rgb = Rgb::new(0xff, 0xff, 0x60);

/// Tiles per row of the tileset image.
const COLUMNS: u32 = 16;

/// The Tiled version whose file format is written (Debian's Tiled; later
/// versions read it as it is).
const TILED_VERSION: &str = "1.8";

/// What a tile shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Art {
    /// A terrain, in the palette's colour with its render glyph.
    Terrain(Terrain),
    /// An object's glyph in its kind's colour.
    Object(ObjectKind, char),
    /// A prefab's mark (a link, a machine's drawing, a reference): its glyph.
    Mark(char),
    /// A varying prefab's terrain cell that a variation line names: the
    /// terrain's colour showing the glyph drawn there.
    Varying(Terrain, char),
}

/// The tiles of a set of maps: every terrain and object glyph they show.
#[derive(Clone, Debug)]
pub struct TiledTileset {
    /// The tiles in id order: terrains by their byte, then objects by kind and glyph.
    tiles: Vec<Art>,
    /// Each tile's glyph and colours, as drawn.
    looks: Vec<Look>,
}

/// How a tile is drawn.
#[derive(Copy, Clone, Debug)]
struct Look {
    glyph: char,
    colour: Rgb,
}

/// Where a map finds its tileset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TilesetPlacement {
    /// Inside the map file; `image` is the tileset image's path relative to the map.
    Embedded {
        /// The image's path, relative to the map file.
        image: String,
    },
    /// In a tileset file beside the map (`.tsj` for `.tmj` maps, `.tsx` for
    /// `.tmx`); `source` is its path relative to the map.
    External {
        /// The tileset file's path, relative to the map file.
        source: String,
    },
}

/// How [`map_tmj`] and [`map_tmx`] write a map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledOptions {
    /// Where the tileset is.
    pub tileset: TilesetPlacement,
    /// The command that makes the same file again, kept as the map's
    /// `command` property.
    pub command: Option<String>,
}

impl TiledTileset {
    /// The tiles every map of `maps` needs, drawn in `pack`'s palette.
    pub fn of_maps<'m>(maps: impl IntoIterator<Item = &'m Map>, pack: &Pack) -> TiledTileset {
        let mut tiles: Vec<Art> = Vec::new();
        for map in maps {
            let mut terrains: Vec<Terrain> = map.terrain().cells().to_vec();
            terrains.sort_unstable();
            terrains.dedup();
            tiles.extend(terrains.into_iter().map(Art::Terrain));
            tiles.extend(map.objects().iter().flat_map(|o| o.cells.iter().map(|&(_, g)| Art::Object(o.kind, g))));
            tiles.sort_unstable();
            tiles.dedup();
        }
        let palette = pack.palette();
        let looks = tiles
            .iter()
            .map(|&art| match art {
                Art::Terrain(t) => Look { glyph: palette.render_glyph(t), colour: terrain_colour(t, palette) },
                Art::Object(kind, glyph) => Look { glyph, colour: object_colour(kind) },
                Art::Mark(glyph) => Look { glyph, colour: MARK_COLOUR },
                Art::Varying(t, glyph) => Look { glyph, colour: terrain_colour(t, palette) },
            })
            .collect();
        TiledTileset { tiles, looks }
    }

    /// The tiles a prefab drawn in Tiled needs: one per terrain it holds (with
    /// `glyph`, `role` and `variant`, its text glyph shown) and one per glyph of
    /// its other layers (`glyph` only), as [`prefab_tmx`] and [`prefab_tmj`] draw
    /// it; a cell a variation line names gets a tile of its terrain showing the
    /// glyph drawn there. Fails when a glyph of its layers cannot be drawn.
    pub fn of_prefab(prefab: &Prefab, palette: &Palette) -> Result<TiledTileset, Error> {
        let terrain = prefab_terrain(prefab);
        let mut tiles: Vec<Art> = terrain.cells().iter().flatten().copied().collect();
        for (_, layer) in prefab_marks(prefab)? {
            tiles.extend(layer.cells().iter().flatten().map(|&g| Art::Mark(g)));
        }
        tiles.sort_unstable();
        tiles.dedup();
        let looks = tiles
            .iter()
            .map(|&art| match art {
                Art::Terrain(t) => Look {
                    glyph: palette.source_glyph(t).unwrap_or_else(|| palette.render_glyph(t)),
                    colour: terrain_colour(t, palette),
                },
                Art::Object(kind, glyph) => Look { glyph, colour: object_colour(kind) },
                Art::Mark(glyph) => Look { glyph, colour: MARK_COLOUR },
                Art::Varying(t, glyph) => Look { glyph, colour: terrain_colour(t, palette) },
            })
            .collect();
        Ok(TiledTileset { tiles, looks })
    }

    /// How many tiles it has.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// True when it has no tiles (made from no maps).
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The global id of a tile in a map whose tileset starts at id 1.
    fn gid(&self, art: Art) -> u32 {
        self.tiles.binary_search(&art).map_or(0, |i| i as u32 + 1)
    }

    /// The image's size in pixels.
    fn image_size(&self) -> (u32, u32) {
        let rows = (self.tiles.len() as u32).div_ceil(COLUMNS).max(1);
        (COLUMNS * TILED_TILE_SIZE, rows * TILED_TILE_SIZE)
    }

    /// The tileset image as PNG bytes: sixteen tiles a row, in id order.
    pub fn image_png(&self) -> Result<Vec<u8>, Error> {
        let (width, height) = self.image_size();
        let mut pixels = vec![0u8; (width * height * 4) as usize];
        for (i, (art, look)) in self.tiles.iter().zip(&self.looks).enumerate() {
            let (left, top) = ((i as u32 % COLUMNS) * TILED_TILE_SIZE, (i as u32 / COLUMNS) * TILED_TILE_SIZE);
            let mut put = |x: u32, y: u32, c: Rgb| {
                let at = (((top + y) * width + left + x) * 4) as usize;
                pixels[at..at + 4].copy_from_slice(&[c.r, c.g, c.b, 0xff]);
            };
            let (ink, margin) = match art {
                Art::Terrain(_) | Art::Varying(..) => {
                    for (x, y) in square(0, TILED_TILE_SIZE) {
                        put(x, y, look.colour);
                    }
                    (shade(look.colour), 2)
                }
                Art::Object(..) | Art::Mark(_) => {
                    for (x, y) in square(1, TILED_TILE_SIZE - 2) {
                        put(x, y, BACKGROUND);
                    }
                    (look.colour, 2)
                }
            };
            let rows = glyph_rows(look.glyph);
            for (dy, bits) in rows.iter().enumerate() {
                for dx in 0..8 {
                    // The font's least significant bit is a row's leftmost pixel.
                    if bits >> dx & 1 == 1 {
                        put(margin + dx, margin + dy as u32, ink);
                    }
                }
            }
        }
        encode_rgba(width, height, &pixels)
    }

    /// The tile definitions with their properties.
    fn tile_json(&self) -> Vec<TileJson> {
        self.tiles
            .iter()
            .zip(&self.looks)
            .enumerate()
            .map(|(id, (&art, look))| TileJson { id: id as u32, properties: tile_properties(art, look) })
            .collect()
    }

    fn tileset_json(&self, image: &str) -> TilesetJson {
        let (image_width, image_height) = self.image_size();
        TilesetJson {
            columns: COLUMNS,
            image: image.to_string(),
            imageheight: image_height,
            imagewidth: image_width,
            margin: 0,
            name: "prefabric",
            spacing: 0,
            tilecount: self.tiles.len() as u32,
            tiledversion: TILED_VERSION,
            tileheight: TILED_TILE_SIZE,
            tiles: self.tile_json(),
            tilewidth: TILED_TILE_SIZE,
            kind: "tileset",
            version: TILED_VERSION,
        }
    }

    /// The tileset as a `.tsj` file (Tiled's JSON) whose image is `image`
    /// (a path relative to the tileset file).
    pub fn to_tsj(&self, image: &str) -> String {
        to_json_line(&self.tileset_json(image))
    }

    /// The tileset as a `.tsx` file (Tiled's XML) whose image is `image`.
    pub fn to_tsx(&self, image: &str) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        self.write_tsx_element(&mut out, None, image);
        out
    }

    /// The `<tileset>` element; `firstgid` when it is embedded in a map.
    fn write_tsx_element(&self, out: &mut String, firstgid: Option<u32>, image: &str) {
        let (image_width, image_height) = self.image_size();
        let first = firstgid.map_or(String::new(), |g| format!(" firstgid=\"{g}\""));
        let _ = writeln!(
            out,
            "<tileset{first} version=\"{TILED_VERSION}\" tiledversion=\"{TILED_VERSION}\" name=\"prefabric\" tilewidth=\"{TILED_TILE_SIZE}\" tileheight=\"{TILED_TILE_SIZE}\" tilecount=\"{}\" columns=\"{COLUMNS}\">",
            self.tiles.len()
        );
        let _ = writeln!(
            out,
            " <image source=\"{}\" width=\"{image_width}\" height=\"{image_height}\"/>",
            xml_escape(image)
        );
        for tile in self.tile_json() {
            let _ = writeln!(out, " <tile id=\"{}\">", tile.id);
            write_xml_properties(out, "  ", &tile.properties);
            out.push_str(" </tile>\n");
        }
        out.push_str("</tileset>\n");
    }
}

/// The points of a square of `size` pixels whose corner is (`start`, `start`).
fn square(start: u32, size: u32) -> impl Iterator<Item = (u32, u32)> {
    (start..start + size).flat_map(move |y| (start..start + size).map(move |x| (x, y)))
}

/// A glyph's ink on its terrain's colour: darker on light colours, lighter on dark.
fn shade(c: Rgb) -> Rgb {
    let light = u32::from(c.r) * 3 + u32::from(c.g) * 6 + u32::from(c.b) > 10 * 96;
    let mix = |v: u8| if light { v / 2 } else { v / 2 + 0x70 };
    Rgb::new(mix(c.r), mix(c.g), mix(c.b))
}

/// A glyph's rows in the 8x8 font (any of its Unicode blocks), else of
/// [`EXTRA_GLYPHS`]; any other glyph is drawn as a hollow box, so the tile
/// still tells it apart from floor.
fn glyph_rows(glyph: char) -> [u8; 8] {
    use font8x8::UnicodeFonts;
    let fonts = [
        font8x8::BASIC_FONTS.get(glyph),
        font8x8::BOX_FONTS.get(glyph),
        font8x8::BLOCK_FONTS.get(glyph),
        font8x8::LATIN_FONTS.get(glyph),
        font8x8::GREEK_FONTS.get(glyph),
        font8x8::MISC_FONTS.get(glyph),
    ];
    fonts.into_iter().flatten().next().or_else(|| extra_glyph(glyph)).unwrap_or(MISSING_GLYPH)
}

/// Drawn for a glyph no font has: a small hollow box.
const MISSING_GLYPH: [u8; 8] = [0x00, 0x7e, 0x42, 0x42, 0x42, 0x42, 0x7e, 0x00];

/// The code page 437 glyphs roguelikes use that the 8x8 font lacks (arrows,
/// shapes, suits, notes), drawn here in its style, `#` for ink.
const EXTRA_GLYPHS: [(char, [&str; 8]); 22] = [
    ('←', ["........", "..#.....", ".##.....", "#######.", ".##.....", "..#.....", "........", "........"]),
    ('↑', ["...#....", "..###...", ".#####..", "...#....", "...#....", "...#....", "...#....", "........"]),
    ('→', ["........", "....#...", "....##..", "#######.", "....##..", "....#...", "........", "........"]),
    ('↓', ["...#....", "...#....", "...#....", "...#....", ".#####..", "..###...", "...#....", "........"]),
    ('∩', ["........", "..###...", ".#...#..", ".#...#..", ".#...#..", ".#...#..", ".#...#..", "........"]),
    ('≈', ["........", ".##..#..", "#..##...", "........", ".##..#..", "#..##...", "........", "........"]),
    ('≋', ["........", ".##..#..", "#..##...", ".##..#..", "#..##...", ".##..#..", "#..##...", "........"]),
    ('≡', ["........", "#######.", "........", "#######.", "........", "#######.", "........", "........"]),
    ('■', ["........", "........", "..####..", "..####..", "..####..", "..####..", "........", "........"]),
    ('▲', ["........", "...#....", "..###...", ".#####..", "#######.", "........", "........", "........"]),
    ('►', ["#.......", "###.....", "#####...", "#######.", "#####...", "###.....", "#.......", "........"]),
    ('▼', ["........", "#######.", ".#####..", "..###...", "...#....", "........", "........", "........"]),
    ('◄', ["......#.", "....###.", "..#####.", "#######.", "..#####.", "....###.", "......#.", "........"]),
    ('○', ["........", "..###...", ".#...#..", ".#...#..", ".#...#..", "..###...", "........", "........"]),
    ('◘', ["########", "########", "###..###", "##....##", "##....##", "###..###", "########", "########"]),
    ('◙', ["########", "##....##", "#.####.#", "#.####.#", "#.####.#", "#.####.#", "##....##", "########"]),
    ('☻', [".######.", "########", "##.##.##", "########", "##....##", "###..###", ".######.", "........"]),
    ('☼', ["#..#..#.", ".#.#.#..", "..###...", "###.###.", "..###...", ".#.#.#..", "#..#..#.", "........"]),
    ('♣', ["..###...", "..###...", "#######.", "#######.", "#######.", "...#....", "..###...", "........"]),
    ('♦', ["...#....", "..###...", ".#####..", "#######.", ".#####..", "..###...", "...#....", "........"]),
    ('♪', ["...##...", "...###..", "...#.#..", "...#....", ".###....", "####....", ".##.....", "........"]),
    ('♫', [".######.", ".#....#.", ".######.", ".#....#.", ".#...##.", "##..###.", "##...##.", "........"]),
];

/// A glyph of [`EXTRA_GLYPHS`] as the font's rows (least significant bit leftmost).
fn extra_glyph(glyph: char) -> Option<[u8; 8]> {
    let (_, rows) = EXTRA_GLYPHS.iter().find(|(c, _)| *c == glyph)?;
    Some(rows.map(|row| row.bytes().enumerate().fold(0u8, |bits, (x, b)| bits | u8::from(b == b'#') << x)))
}

/// A property as Tiled writes it.
#[derive(Clone, Debug, Serialize)]
struct Property {
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
    value: PropertyValue,
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum PropertyValue {
    Text(String),
    Int(i64),
    Bool(bool),
}

impl Property {
    fn text(name: &str, value: impl Into<String>) -> Property {
        Property { name: name.to_string(), kind: "string", value: PropertyValue::Text(value.into()) }
    }

    fn int(name: &str, value: impl Into<i64>) -> Property {
        Property { name: name.to_string(), kind: "int", value: PropertyValue::Int(value.into()) }
    }

    fn flag(name: &str, value: bool) -> Property {
        Property { name: name.to_string(), kind: "bool", value: PropertyValue::Bool(value) }
    }

    /// The value as the XML attribute holds it.
    fn value_text(&self) -> String {
        match &self.value {
            PropertyValue::Text(s) => s.clone(),
            PropertyValue::Int(n) => n.to_string(),
            PropertyValue::Bool(b) => b.to_string(),
        }
    }
}

fn tile_properties(art: Art, look: &Look) -> Vec<Property> {
    let glyph = Property::text("glyph", look.glyph.to_string());
    match art {
        Art::Object(kind, _) => vec![glyph, Property::text("kind", kind.name())],
        Art::Mark(_) => vec![glyph],
        Art::Terrain(t) | Art::Varying(t, _) => {
            vec![glyph, Property::text("role", t.role().name()), Property::int("variant", t.variant())]
        }
    }
}

#[derive(Serialize)]
struct TileJson {
    id: u32,
    properties: Vec<Property>,
}

#[derive(Serialize)]
struct TilesetJson {
    columns: u32,
    image: String,
    imageheight: u32,
    imagewidth: u32,
    margin: u32,
    name: &'static str,
    spacing: u32,
    tilecount: u32,
    tiledversion: &'static str,
    tileheight: u32,
    tiles: Vec<TileJson>,
    tilewidth: u32,
    #[serde(rename = "type")]
    kind: &'static str,
    version: &'static str,
}

/// A map's tileset entry: a reference to a file, or the tileset itself.
#[derive(Serialize)]
#[serde(untagged)]
enum MapTilesetJson<'a> {
    External {
        firstgid: u32,
        source: &'a str,
    },
    Embedded {
        firstgid: u32,
        #[serde(flatten)]
        tileset: TilesetJson,
    },
}

/// One object of an object layer.
#[derive(Serialize)]
struct ObjectJson {
    id: u32,
    name: String,
    #[serde(rename = "type")]
    class: &'static str,
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    rotation: u32,
    visible: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    point: bool,
    properties: Vec<Property>,
}

/// A layer of the map.
enum Layer {
    Tiles { name: &'static str, data: Vec<u32> },
    Objects { name: &'static str, objects: Vec<ObjectJson>, visible: bool },
}

#[derive(Serialize)]
struct LayerJson<'a> {
    id: u32,
    name: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    width: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    height: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    draworder: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    objects: Option<&'a [ObjectJson]>,
    opacity: u32,
    visible: bool,
    x: u32,
    y: u32,
}

#[derive(Serialize)]
struct MapJson<'a> {
    compressionlevel: i32,
    height: i32,
    infinite: bool,
    layers: Vec<LayerJson<'a>>,
    nextlayerid: u32,
    nextobjectid: u32,
    orientation: &'static str,
    properties: Vec<Property>,
    renderorder: &'static str,
    tiledversion: &'static str,
    tileheight: u32,
    tilesets: Vec<MapTilesetJson<'a>>,
    tilewidth: u32,
    #[serde(rename = "type")]
    kind: &'static str,
    version: &'static str,
    width: i32,
}

/// What a map file holds, before it is written as JSON or XML.
struct Document {
    width: i32,
    height: i32,
    properties: Vec<Property>,
    layers: Vec<Layer>,
    next_object_id: u32,
}

/// The map as a `.tmj` file (Tiled's JSON map format), one line and a newline.
pub fn map_tmj(map: &Map, pack: &Pack, tileset: &TiledTileset, options: &TiledOptions) -> String {
    write_tmj(&document(map, pack, tileset, options), tileset, options)
}

fn write_tmj(doc: &Document, tileset: &TiledTileset, options: &TiledOptions) -> String {
    let layers = doc
        .layers
        .iter()
        .enumerate()
        .map(|(i, layer)| {
            let id = i as u32 + 1;
            match layer {
                Layer::Tiles { name, data } => LayerJson {
                    id,
                    name,
                    kind: "tilelayer",
                    width: Some(doc.width),
                    height: Some(doc.height),
                    data: Some(data),
                    draworder: None,
                    objects: None,
                    opacity: 1,
                    visible: true,
                    x: 0,
                    y: 0,
                },
                Layer::Objects { name, objects, visible } => LayerJson {
                    id,
                    name,
                    kind: "objectgroup",
                    width: None,
                    height: None,
                    data: None,
                    draworder: Some("topdown"),
                    objects: Some(objects),
                    opacity: 1,
                    visible: *visible,
                    x: 0,
                    y: 0,
                },
            }
        })
        .collect();
    let tilesets = vec![match &options.tileset {
        TilesetPlacement::External { source } => MapTilesetJson::External { firstgid: 1, source },
        TilesetPlacement::Embedded { image } => {
            MapTilesetJson::Embedded { firstgid: 1, tileset: tileset.tileset_json(image) }
        }
    }];
    to_json_line(&MapJson {
        compressionlevel: -1,
        height: doc.height,
        infinite: false,
        layers,
        nextlayerid: doc.layers.len() as u32 + 1,
        nextobjectid: doc.next_object_id,
        orientation: "orthogonal",
        properties: doc.properties.clone(),
        renderorder: "right-down",
        tiledversion: TILED_VERSION,
        tileheight: TILED_TILE_SIZE,
        tilesets,
        tilewidth: TILED_TILE_SIZE,
        kind: "map",
        version: TILED_VERSION,
        width: doc.width,
    })
}

/// The map as a `.tmx` file (Tiled's XML map format), its tile layers as CSV.
pub fn map_tmx(map: &Map, pack: &Pack, tileset: &TiledTileset, options: &TiledOptions) -> String {
    write_tmx(&document(map, pack, tileset, options), tileset, options)
}

/// A prefab as a `.tmj` map that `Prefab::from_tiled` reads back to an equal
/// prefab (with its header from `prefab::xp::sidecar_text`): tile layers
/// `terrain`, `links`, `machines` and `refs`, don't-care cells empty. `tileset`
/// comes from [`TiledTileset::of_prefab`].
pub fn prefab_tmj(prefab: &Prefab, tileset: &TiledTileset, options: &TiledOptions) -> Result<String, Error> {
    Ok(write_tmj(&prefab_document(prefab, tileset, options)?, tileset, options))
}

/// A prefab as a `.tmx` map, as [`prefab_tmj`] says.
pub fn prefab_tmx(prefab: &Prefab, tileset: &TiledTileset, options: &TiledOptions) -> Result<String, Error> {
    Ok(write_tmx(&prefab_document(prefab, tileset, options)?, tileset, options))
}

/// A prefab layer's name and its glyphs, `None` where it is empty.
type MarkLayer = (&'static str, Grid<Option<char>>);

/// The tile of each cell of a prefab's terrain layer: its terrain, or where a
/// variation line names the glyph drawn there, that glyph on its terrain (a mark
/// on a don't-care cell); `None` for don't-care.
fn prefab_terrain(prefab: &Prefab) -> Grid<Option<Art>> {
    let cells = prefab.cells();
    let mut tiles = Grid::new(cells.width(), cells.height(), None);
    for p in cells.bounds().points() {
        let art = match (cells[p], prefab.variation_glyph(p)) {
            (Some(t), Some((glyph, _))) => Some(Art::Varying(t, glyph)),
            (None, Some((glyph, _))) => Some(Art::Mark(glyph)),
            (t, None) => t.map(Art::Terrain),
        };
        tiles.set(p, art);
    }
    tiles
}

/// The glyphs of a prefab's links, machines and refs layers, and of its mask
/// when it has one, by layer name.
fn prefab_marks(prefab: &Prefab) -> Result<Vec<MarkLayer>, Error> {
    let (w, h) = (prefab.width(), prefab.height());
    let mut machines = Grid::new(w, h, None);
    for m in prefab.machines() {
        for &(p, glyph) in m.cells() {
            machines.set(p, Some(glyph));
        }
    }
    let mut refs = Grid::new(w, h, None);
    for r in prefab.drawn_refs() {
        refs.set(r.at, Some(r.glyph));
    }
    let mut layers = vec![
        (LayerKind::Links.name(), prefab.link_glyphs()?),
        (LayerKind::Machines.name(), machines),
        (LayerKind::Refs.name(), refs),
    ];
    layers.extend(prefab.mask_glyphs().map(|mask| (LayerKind::Mask.name(), mask)));
    Ok(layers)
}

fn prefab_document(prefab: &Prefab, tileset: &TiledTileset, options: &TiledOptions) -> Result<Document, Error> {
    let terrain = prefab_terrain(prefab).cells().iter().map(|art| art.map_or(0, |art| tileset.gid(art))).collect();
    let mut layers = vec![Layer::Tiles { name: LayerKind::Terrain.name(), data: terrain }];
    for (name, grid) in prefab_marks(prefab)? {
        layers.push(Layer::Tiles {
            name,
            data: grid.cells().iter().map(|g| g.map_or(0, |g| tileset.gid(Art::Mark(g)))).collect(),
        });
    }
    let properties = options.command.iter().map(|c| Property::text("command", c.as_str())).collect();
    Ok(Document { width: prefab.width(), height: prefab.height(), properties, layers, next_object_id: 1 })
}

fn write_tmx(doc: &Document, tileset: &TiledTileset, options: &TiledOptions) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<map version=\"{TILED_VERSION}\" tiledversion=\"{TILED_VERSION}\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"{}\" height=\"{}\" tilewidth=\"{TILED_TILE_SIZE}\" tileheight=\"{TILED_TILE_SIZE}\" infinite=\"0\" nextlayerid=\"{}\" nextobjectid=\"{}\">",
        doc.width,
        doc.height,
        doc.layers.len() + 1,
        doc.next_object_id
    );
    write_xml_properties(&mut out, " ", &doc.properties);
    match &options.tileset {
        TilesetPlacement::External { source } => {
            let _ = writeln!(out, " <tileset firstgid=\"1\" source=\"{}\"/>", xml_escape(source));
        }
        TilesetPlacement::Embedded { image } => tileset.write_tsx_element(&mut out, Some(1), image),
    }
    for (i, layer) in doc.layers.iter().enumerate() {
        let id = i + 1;
        match layer {
            Layer::Tiles { name, data } => {
                let _ = writeln!(
                    out,
                    " <layer id=\"{id}\" name=\"{name}\" width=\"{}\" height=\"{}\">\n  <data encoding=\"csv\">",
                    doc.width, doc.height
                );
                let mut number = itoa::Buffer::new();
                for (r, row) in data.chunks(doc.width.max(1) as usize).enumerate() {
                    for (c, &gid) in row.iter().enumerate() {
                        if c > 0 {
                            out.push(',');
                        }
                        out.push_str(number.format(gid));
                    }
                    out.push_str(if (r + 1) * (doc.width.max(1) as usize) < data.len() { ",\n" } else { "\n" });
                }
                out.push_str("</data>\n </layer>\n");
            }
            Layer::Objects { name, objects, visible } => {
                let hidden = if *visible { "" } else { " visible=\"0\"" };
                let _ = writeln!(out, " <objectgroup id=\"{id}\" name=\"{name}\"{hidden}>");
                for o in objects {
                    let _ = write!(
                        out,
                        "  <object id=\"{}\" name=\"{}\" type=\"{}\" x=\"{}\" y=\"{}\"",
                        o.id,
                        xml_escape(&o.name),
                        o.class,
                        o.x,
                        o.y
                    );
                    if !o.point {
                        let _ = write!(out, " width=\"{}\" height=\"{}\"", o.width, o.height);
                    }
                    out.push_str(">\n");
                    write_xml_properties(&mut out, "   ", &o.properties);
                    if o.point {
                        out.push_str("   <point/>\n");
                    }
                    out.push_str("  </object>\n");
                }
                out.push_str(" </objectgroup>\n");
            }
        }
    }
    out.push_str("</map>\n");
    out
}

/// A Tiled `.world` file placing `levels` (each a map file's path relative to
/// the world file, and its map) side by side from left to right, a gap of
/// four cells between them.
pub fn tiled_world(levels: &[(&str, &Map)]) -> String {
    #[derive(Serialize)]
    struct WorldMap<'a> {
        #[serde(rename = "fileName")]
        file_name: &'a str,
        height: u32,
        width: u32,
        x: u32,
        y: u32,
    }
    #[derive(Serialize)]
    struct World<'a> {
        maps: Vec<WorldMap<'a>>,
        #[serde(rename = "onlyShowAdjacentMaps")]
        only_show_adjacent_maps: bool,
        #[serde(rename = "type")]
        kind: &'static str,
    }
    let mut x = 0;
    let maps = levels
        .iter()
        .map(|&(file_name, map)| {
            let (width, height) = (map.width() as u32 * TILED_TILE_SIZE, map.height() as u32 * TILED_TILE_SIZE);
            let placed = WorldMap { file_name, height, width, x, y: 0 };
            x += width + 4 * TILED_TILE_SIZE;
            placed
        })
        .collect();
    to_json_line(&World { maps, only_show_adjacent_maps: false, kind: "world" })
}

/// Serialises a document of plain structs, which cannot fail, as a line.
fn to_json_line(value: &impl Serialize) -> String {
    let mut out = serde_json::to_string(value).unwrap_or_default();
    out.push('\n');
    out
}

fn document(map: &Map, pack: &Pack, tileset: &TiledTileset, options: &TiledOptions) -> Document {
    let mut properties = vec![
        Property::text("pack", pack.name()),
        Property::text("map_type", map.map_type()),
        // A seed is 64 bits; Tiled's int properties are not.
        Property::text("seed", map.seed().to_string()),
        Property::int("depth", map.depth()),
        Property::text("generator", map.layout_stats().generator),
        Property::text("moves", map.moves().name()),
    ];
    if let Some(variant) = map.feature_variant() {
        properties.push(Property::text("feature_variant", variant));
    }
    if let Some(command) = &options.command {
        properties.push(Property::text("command", command.as_str()));
    }
    let terrain = map.terrain().cells().iter().map(|&t| tileset.gid(Art::Terrain(t))).collect();
    let mut objects_layer = vec![0u32; map.terrain().cells().len()];
    for o in map.objects() {
        for &(p, glyph) in &o.cells {
            if let Some(i) = map.terrain().index_of(p) {
                objects_layer[i] = tileset.gid(Art::Object(o.kind, glyph));
            }
        }
    }
    let mut ids = ObjectIds(1);
    let layers = vec![
        Layer::Tiles { name: "terrain", data: terrain },
        Layer::Tiles { name: "objects", data: objects_layer },
        // Only the prefabs' outlines show at first (as `--highlight` draws
        // them); the other object layers are a click away in Tiled.
        Layer::Objects { name: "regions", objects: region_objects(map, &mut ids), visible: false },
        Layer::Objects { name: "prefabs", objects: prefab_objects(map, pack, &mut ids), visible: true },
        Layer::Objects {
            name: "object properties",
            objects: object_objects(map, pack.catalog(), &mut ids),
            visible: false,
        },
        Layer::Objects { name: "links", objects: link_objects(map, &mut ids), visible: false },
        Layer::Objects { name: "doors", objects: door_objects(map, &mut ids), visible: false },
        Layer::Objects { name: "marks", objects: mark_objects(map, &mut ids), visible: false },
    ];
    Document { width: map.width(), height: map.height(), properties, layers, next_object_id: ids.0 }
}

/// Hands out object ids, unique in a map, from 1.
struct ObjectIds(u32);

impl ObjectIds {
    fn next(&mut self) -> u32 {
        self.0 += 1;
        self.0 - 1
    }

    /// A rectangle object over the cells of `r`.
    fn rect(&mut self, name: String, class: &'static str, r: Rect, properties: Vec<Property>) -> ObjectJson {
        let px = |v: i32| v.max(0) as u32 * TILED_TILE_SIZE;
        ObjectJson {
            id: self.next(),
            name,
            class,
            x: px(r.x),
            y: px(r.y),
            width: px(r.width),
            height: px(r.height),
            rotation: 0,
            visible: true,
            point: false,
            properties,
        }
    }

    /// A point object at the centre of cell `p`.
    fn point(&mut self, name: String, class: &'static str, p: Point, properties: Vec<Property>) -> ObjectJson {
        let centre = |v: i32| v.max(0) as u32 * TILED_TILE_SIZE + TILED_TILE_SIZE / 2;
        ObjectJson {
            id: self.next(),
            name,
            class,
            x: centre(p.x),
            y: centre(p.y),
            width: 0,
            height: 0,
            rotation: 0,
            visible: true,
            point: true,
            properties,
        }
    }
}

/// `x,y>to` for each door, `;`-separated; `to` is `-` when it leads nowhere.
fn doors_text(doors: &[crate::map::Door]) -> String {
    let each = doors.iter().map(|d| {
        let to = d.to.map_or("-".to_string(), |t| t.to_string());
        format!("{},{}>{to}", d.at.x, d.at.y)
    });
    each.collect::<Vec<_>>().join(";")
}

fn region_objects(map: &Map, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    map.regions()
        .iter()
        .map(|r| {
            let neighbours = map.neighbours(r.id).iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let mut properties = vec![
                Property::int("id", r.id),
                Property::int("area", r.area),
                Property::text("laid_out_as", r.laid_out_as.name()),
                Property::text("doors", doors_text(&r.doors)),
                Property::text("openings", doors_text(&r.openings)),
                Property::text("neighbours", neighbours),
            ];
            if let Some(c) = r.centre {
                properties.push(Property::text("centre", format!("{},{}", c.x, c.y)));
            }
            ids.rect(format!("{} {}", r.kind.name(), r.id), r.kind.name(), r.bounds, properties)
        })
        .collect()
}

fn prefab_objects(map: &Map, pack: &Pack, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    map.prefabs()
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let mut properties = vec![
                Property::int("index", index as i64),
                Property::text("stage", p.stage.name()),
                Property::text("transform", p.transform.name()),
            ];
            if let Some(e) = &p.encounter {
                properties.push(Property::text("encounter", e.id.as_str()));
                properties.push(Property::text("category", e.category.name()));
                properties.push(Property::text("style", e.style.name()));
            }
            if let Some(origin) = pack.prefab(&p.name).map(|prefab| prefab.origin()) {
                properties.push(Property::text("source", format!("{}:{}", origin.file, origin.line)));
            }
            if let Some(region) = p.region {
                properties.push(Property::int("region", region));
            }
            if let Some(variant) = p.variant {
                properties.push(Property::int("variant", variant));
            }
            ids.rect(p.name.clone(), "prefab", p.bounds, properties)
        })
        .collect()
}

/// The smallest rectangle holding an object's cells.
fn object_bounds(o: &Object) -> Rect {
    let xs = o.cells.iter().map(|c| c.0.x);
    let ys = o.cells.iter().map(|c| c.0.y);
    let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
    let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
    Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1)
}

fn object_objects(map: &Map, catalog: &Catalog, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    map.objects()
        .iter()
        .map(|o| {
            let name = o.tag.as_deref().and_then(|tag| catalog.name_of(o.kind, tag));
            let mut properties = vec![Property::text("kind", o.kind.name()), Property::flag("blocks", o.blocks())];
            if let Some(tag) = &o.tag {
                properties.push(Property::text("tag", &**tag));
            }
            if let Some(name) = name {
                properties.push(Property::text("name", name));
            }
            if let Some(prefab) = o.prefab {
                properties.push(Property::int("prefab", prefab as i64));
            }
            // Game keywords as properties of their own, so an engine reads them
            // by name; one that would clash with the fields above is prefixed.
            for (key, value) in &o.keywords {
                let key =
                    if properties.iter().any(|p| &p.name == key) { format!("keyword.{key}") } else { key.clone() };
                properties.push(match value {
                    Some(v) => Property::text(&key, v.as_str()),
                    None => Property::flag(&key, true),
                });
            }
            let label = name.or(o.tag.as_deref()).unwrap_or(o.kind.name()).to_string();
            ids.rect(label, o.kind.name(), object_bounds(o), properties)
        })
        .collect()
}

fn link_objects(map: &Map, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    map.links()
        .iter()
        .map(|l| {
            let class = if l.kind == LinkKind::Connector { "connector" } else { "tunnel" };
            let properties = vec![
                Property::text("dir", l.dir.name()),
                Property::int("width", l.kind.width()),
                Property::int("prefab", l.prefab as i64),
            ];
            ids.point(class.to_string(), class, l.at, properties)
        })
        .collect()
}

fn door_objects(map: &Map, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    let mut out = Vec::new();
    for r in map.regions() {
        for d in &r.doors {
            let mut properties = vec![Property::int("region", r.id), Property::text("side", d.side.name())];
            if let Some(to) = d.to {
                properties.push(Property::int("to", to));
            }
            out.push(ids.point("door".to_string(), "door", d.at, properties));
        }
    }
    out
}

fn mark_objects(map: &Map, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    let mut out = Vec::new();
    for (name, cells) in map.marks() {
        for &p in cells {
            out.push(ids.rect(name.to_string(), "mark", Rect::new(p.x, p.y, 1, 1), Vec::new()));
        }
    }
    out
}

/// `<properties>` with one `<property>` each, indented by `indent`; nothing
/// for none.
fn write_xml_properties(out: &mut String, indent: &str, properties: &[Property]) {
    if properties.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}<properties>");
    for p in properties {
        let kind = if p.kind == "string" { String::new() } else { format!(" type=\"{}\"", p.kind) };
        let _ = writeln!(
            out,
            "{indent} <property name=\"{}\"{kind} value=\"{}\"/>",
            xml_escape(&p.name),
            xml_escape(&p.value_text())
        );
    }
    let _ = writeln!(out, "{indent}</properties>");
}

/// `text` with the characters XML gives meaning to, and line breaks, escaped.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            // XML 1.0 has no way to write the other control characters.
            c if c.is_control() && u32::from(c) < 0x20 => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Generator;

    #[test]
    fn every_glyph_the_built_in_maps_show_is_drawn() {
        let pack = Pack::embedded().expect("the built-in pack loads");
        let names: Vec<String> = pack.map_types().map(|t| t.name.clone()).collect();
        for name in &names {
            for seed in 1..=4 {
                let map = Generator::new(&pack, name).and_then(|g| g.generate(seed)).expect("the map generates");
                for look in TiledTileset::of_maps([&map], &pack).looks {
                    assert_ne!(glyph_rows(look.glyph), MISSING_GLYPH, "{name} seed {seed}: {:?}", look.glyph);
                }
            }
        }
        for &(glyph, rows) in &EXTRA_GLYPHS {
            assert!(rows.iter().all(|r| r.len() == 8 && r.bytes().all(|b| b == b'#' || b == b'.')), "{glyph}");
        }
    }
}
