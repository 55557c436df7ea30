//! The shapes of Tiled's files: custom properties, the JSON structures of
//! `.tmj` maps and `.tsj` tilesets, and the XML escaping of `.tmx` and `.tsx`.
//!
//! In: values the writers above fill in. Out: JSON (one line) and XML text.
//! Guarantees: the fields Tiled 1.8 reads, in a fixed order, so the same
//! values give the same bytes; every name and value in XML is escaped.

use serde::Serialize;
use std::fmt::Write as _;

/// The Tiled version whose file format is written (Debian's Tiled; later
/// versions read it as it is).
pub(super) const TILED_VERSION: &str = "1.8";

/// A property as Tiled writes it.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Property {
    pub(super) name: String,
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) value: PropertyValue,
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub(super) enum PropertyValue {
    Text(String),
    Int(i64),
    Bool(bool),
}

impl Property {
    pub(super) fn text(name: &str, value: impl Into<String>) -> Property {
        Property { name: name.to_string(), kind: "string", value: PropertyValue::Text(value.into()) }
    }

    pub(super) fn int(name: &str, value: impl Into<i64>) -> Property {
        Property { name: name.to_string(), kind: "int", value: PropertyValue::Int(value.into()) }
    }

    pub(super) fn flag(name: &str, value: bool) -> Property {
        Property { name: name.to_string(), kind: "bool", value: PropertyValue::Bool(value) }
    }

    /// The value as the XML attribute holds it.
    pub(super) fn value_text(&self) -> String {
        match &self.value {
            PropertyValue::Text(s) => s.clone(),
            PropertyValue::Int(n) => n.to_string(),
            PropertyValue::Bool(b) => b.to_string(),
        }
    }
}

#[derive(Serialize)]
pub(super) struct TileJson {
    pub(super) id: u32,
    pub(super) properties: Vec<Property>,
}

#[derive(Serialize)]
pub(super) struct TilesetJson {
    pub(super) columns: u32,
    pub(super) image: String,
    pub(super) imageheight: u32,
    pub(super) imagewidth: u32,
    pub(super) margin: u32,
    pub(super) name: &'static str,
    pub(super) spacing: u32,
    pub(super) tilecount: u32,
    pub(super) tiledversion: &'static str,
    pub(super) tileheight: u32,
    pub(super) tiles: Vec<TileJson>,
    pub(super) tilewidth: u32,
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) version: &'static str,
}

/// A map's tileset entry: a reference to a file, or the tileset itself.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum MapTilesetJson<'a> {
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
pub(super) struct ObjectJson {
    pub(super) id: u32,
    pub(super) name: String,
    #[serde(rename = "type")]
    pub(super) class: &'static str,
    pub(super) x: u32,
    pub(super) y: u32,
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) rotation: u32,
    pub(super) visible: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(super) point: bool,
    pub(super) properties: Vec<Property>,
}

#[derive(Serialize)]
pub(super) struct LayerJson<'a> {
    pub(super) id: u32,
    pub(super) name: &'static str,
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) width: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) height: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) data: Option<&'a [u32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) draworder: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) objects: Option<&'a [ObjectJson]>,
    pub(super) opacity: u32,
    pub(super) visible: bool,
    pub(super) x: u32,
    pub(super) y: u32,
}

#[derive(Serialize)]
pub(super) struct MapJson<'a> {
    pub(super) compressionlevel: i32,
    pub(super) height: i32,
    pub(super) infinite: bool,
    pub(super) layers: Vec<LayerJson<'a>>,
    pub(super) nextlayerid: u32,
    pub(super) nextobjectid: u32,
    pub(super) orientation: &'static str,
    pub(super) properties: Vec<Property>,
    pub(super) renderorder: &'static str,
    pub(super) tiledversion: &'static str,
    pub(super) tileheight: u32,
    pub(super) tilesets: Vec<MapTilesetJson<'a>>,
    pub(super) tilewidth: u32,
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) version: &'static str,
    pub(super) width: i32,
}

/// Serialises a document of plain structs, which cannot fail, as a line.
pub(super) fn to_json_line(value: &impl Serialize) -> String {
    let mut out = serde_json::to_string(value).unwrap_or_default();
    out.push('\n');
    out
}

/// `<properties>` with one `<property>` each, indented by `indent`; nothing
/// for none.
pub(super) fn write_xml_properties(out: &mut String, indent: &str, properties: &[Property]) {
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
pub(super) fn xml_escape(text: &str) -> String {
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
