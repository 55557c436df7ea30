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

mod document;
mod objects;
mod schema;
mod tileset;
mod write;

pub use document::TiledOptions;
pub use tileset::{TILED_TILE_SIZE, TiledTileset, TilesetPlacement};

use crate::content::Pack;
use crate::error::Error;
use crate::map::Map;
use crate::prefab::{LayerKind, Prefab};
use document::{Document, Layer, document};
use schema::{Property, to_json_line};
use serde::Serialize;
use tileset::{Art, prefab_marks, prefab_terrain};
use write::{write_tmj, write_tmx};

/// The map as a `.tmj` file (Tiled's JSON map format), one line and a newline.
pub fn map_tmj(map: &Map, pack: &Pack, tileset: &TiledTileset, options: &TiledOptions) -> String {
    write_tmj(&document(map, pack, tileset, options), tileset, options)
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
