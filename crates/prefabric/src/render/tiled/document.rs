//! A map as Tiled sees it, before it is written: its size, properties, tile
//! layers and object layers, and the options that shape it.
//!
//! In: a generated map, its pack, its tileset and the options. Out: a
//! [`Document`], which [`write`](super::write) turns into `.tmj` or `.tmx`.
//! Guarantees: the map's properties name the pack, map type, seed, depth and
//! the command that makes it again; the same map and options give the same
//! document.

use super::objects::{
    ObjectIds, door_objects, link_objects, mark_objects, object_objects, prefab_objects, region_objects,
};
use super::schema::{ObjectJson, Property};
use super::tileset::{Art, TiledTileset, TilesetPlacement};
use crate::content::Pack;
use crate::map::Map;

/// How [`map_tmj`](crate::render::map_tmj) and [`map_tmx`](crate::render::map_tmx) write a map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledOptions {
    /// Where the tileset is.
    pub tileset: TilesetPlacement,
    /// The command that makes the same file again, kept as the map's
    /// `command` property.
    pub command: Option<String>,
}

/// A layer of the map.
pub(super) enum Layer {
    Tiles { name: &'static str, data: Vec<u32> },
    Objects { name: &'static str, objects: Vec<ObjectJson>, visible: bool },
}

/// What a map file holds, before it is written as JSON or XML.
pub(super) struct Document {
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) properties: Vec<Property>,
    pub(super) layers: Vec<Layer>,
    pub(super) next_object_id: u32,
}

pub(super) fn document(map: &Map, pack: &Pack, tileset: &TiledTileset, options: &TiledOptions) -> Document {
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
