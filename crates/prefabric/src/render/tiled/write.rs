//! The two writers of a [`Document`]: `.tmj` (Tiled's JSON map format) and
//! `.tmx` (its XML one).
//!
//! In: a document, its tileset and the options (the tileset inside the map or
//! in a file beside it). Out: the map file's text. Guarantees: both formats
//! hold the same layers, objects and properties; the same document gives the
//! same bytes.

use super::document::{Document, Layer, TiledOptions};
use super::schema::{
    LayerJson, MapJson, MapTilesetJson, TILED_VERSION, to_json_line, write_xml_properties, xml_escape,
};
use super::tileset::{TILED_TILE_SIZE, TiledTileset, TilesetPlacement};
use std::fmt::Write as _;

pub(super) fn write_tmj(doc: &Document, tileset: &TiledTileset, options: &TiledOptions) -> String {
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

pub(super) fn write_tmx(doc: &Document, tileset: &TiledTileset, options: &TiledOptions) -> String {
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
