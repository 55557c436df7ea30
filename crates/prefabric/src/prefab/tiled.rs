//! Prefabs drawn in the Tiled editor: a `.tmx` (XML) or `.tmj` (JSON) map read as
//! one [`Prefab`].
//!
//! In goes the map's text, its external tilesets (`.tsx`, `.tsj`) through a
//! resolver the caller gives, a [`Header`] (from the `.toml` file beside the map,
//! read by [`super::xp::read_sidecar`] exactly as for a `.xp` prefab), the palette
//! and the limits; out comes a prefab that went through the checks every text and
//! `.xp` prefab passes, or every problem found, each naming the file and,
//! where there is one, the layer and the cell (x, y) or the XML line and column.
//!
//! The map's tile layers are named like a REXPaint prefab's: `terrain` (required),
//! `links`, `machines` and `refs`. A cell's meaning comes from its tile's custom
//! properties: `glyph` (one character, read as in a text prefab) and, on the
//! terrain layer, `role` and `variant`, which win over `glyph` when present, so
//! the tileset `prefabric generate --format tmj` writes works as it is. A prefab
//! whose header has variation lines reads them as a `.xp` prefab does: a terrain
//! cell whose tile's `glyph` a line names takes part in the variation (its
//! terrain from `role` when the tile has one, else from the glyph), and a fifth
//! tile layer, `mask`, protects every cell painted on it. An empty cell is don't-care (`?`) on the terrain layer and
//! empty on the others. Orthogonal, finite maps only; layer data as Tiled writes it
//! (XML tiles, CSV, base64 uncompressed, zlib or gzip; a JSON array or base64);
//! tilesets embedded or external. Flipped or rotated tiles are refused rather than
//! stripped: a flip would silently turn a link's arrow or a machine's drawing, and a
//! prefab's orientations are its header's `transforms`. Object and image layers are
//! ignored. Nothing here panics on any input, and sizes are checked against
//! [`Limits`] before anything of that size is allocated.

use super::assemble::{Drawn, Place, assemble};
use super::vary::{self, parse::Named};
use super::{Header, LayerKind, Prefab, check_name};
use crate::error::{Error, ErrorKind, Location};
use crate::format::palette::Palette;
use crate::geom::Point;
use crate::grid::Grid;
use crate::limits::Limits;
use crate::map::{Role, Terrain};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Read;

/// Most bad cells reported per layer before the rest are summarised.
const MAX_CELL_ERRORS: usize = 12;

/// The bits of a global tile id that flip or rotate the tile (Tiled's
/// horizontal, vertical and diagonal flips and the hexagonal 120° rotation).
const FLIP_BITS: u32 = 0xf000_0000;

/// The layer names a Tiled prefab may have.
const LAYER_NAMES: &str = "`terrain`, `links`, `machines`, `refs` and, with variation lines, `mask`";

/// Reads an external tileset: given its `source` as the map writes it, the label
/// to name it by in errors and its text, or why it could not be read.
pub type TilesetReader<'a> = dyn Fn(&str) -> Result<(String, String), Error> + 'a;

/// True when `path` names a Tiled map: it ends in `.tmx` or `.tmj`, in any case.
pub fn is_tiled_path(path: &str) -> bool {
    extension(path).is_some_and(|e| e.eq_ignore_ascii_case("tmx") || e.eq_ignore_ascii_case("tmj"))
}

/// True when `path` ends in `.tmj` (Tiled's JSON), in any case.
pub fn is_tmj_path(path: &str) -> bool {
    extension(path).is_some_and(|e| e.eq_ignore_ascii_case("tmj"))
}

fn extension(path: &str) -> Option<&str> {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    base.rsplit_once('.').map(|(_, e)| e)
}

/// The prefab name a Tiled map gives: its file name without folders and extension.
pub fn name_of_file(file: &str) -> &str {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    if is_tiled_path(base) { &base[..base.len() - 4] } else { base }
}

/// The pack path of a tileset `source` written in the map at pack path `map`:
/// relative to the map's folder, `.` and `..` resolved. `None` when it is absolute
/// or leaves the pack.
pub fn tileset_path(map: &str, source: &str) -> Option<String> {
    if source.starts_with('/') || source.starts_with('\\') || source.contains(':') {
        return None;
    }
    let mut parts: Vec<&str> = map.split('/').collect();
    parts.pop();
    for part in source.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// A tile's properties that mean something to a prefab.
#[derive(Default)]
struct Tile {
    glyph: Option<char>,
    role: Option<Role>,
    variant: u8,
}

struct Tileset {
    firstgid: u32,
    name: String,
    /// Tiles in the set, when it says.
    count: Option<u32>,
    tiles: BTreeMap<u32, Tile>,
}

struct TileLayer {
    name: String,
    at: Location,
    gids: Vec<u32>,
}

/// What a map holds for a prefab, before the tiles are given their meaning.
struct TiledMap {
    width: i32,
    height: i32,
    layers: Vec<TileLayer>,
    tilesets: Vec<Tileset>,
}

fn invalid(at: Location, message: impl Into<String>) -> Error {
    Error::at(ErrorKind::Invalid, at, message)
}

impl Prefab {
    /// Reads a prefab from a Tiled map (`.tmx` when `text` starts with `<`, else
    /// `.tmj`) drawn as the module documentation says. External tilesets are read
    /// through `tilesets`; `header` comes from [`super::xp::read_sidecar`] or
    /// [`Header::named`], and its name is checked here. Returns every problem
    /// found, each naming `file` and, where it can, the layer and cell.
    pub fn from_tiled(
        file: &str,
        text: &str,
        tilesets: &TilesetReader<'_>,
        header: Header,
        palette: &Palette,
        limits: &Limits,
    ) -> Result<Prefab, Vec<Error>> {
        if let Err((message, help)) = check_name(&header.name) {
            let mut e = invalid(Location::file(file), message);
            if let Some(help) = help {
                e = e.with_help(help);
            }
            return Err(vec![e]);
        }
        let map = if text.trim_start().starts_with('<') {
            read_tmx(file, text, tilesets, limits)?
        } else {
            read_tmj(file, text, tilesets, limits)?
        };
        map.prefab(file, header, palette)
    }
}

impl TiledMap {
    /// The tile of `gid` on `layer` at `p`, or what is wrong with it.
    fn tile(&self, gid: u32) -> Result<&Tile, String> {
        if gid & FLIP_BITS != 0 {
            return Err("flipped/rotated tiles are not supported in prefabs; draw the tile unflipped (the header's `transforms` say which orientations the prefab takes)".into());
        }
        let Some(set) = self.tilesets.iter().rev().find(|s| s.firstgid <= gid) else {
            return Err(format!("tile id {gid} is in no tileset of the map"));
        };
        let id = gid - set.firstgid;
        if set.count.is_some_and(|n| id >= n) {
            return Err(format!(
                "tile id {gid} is beyond the tileset `{}` ({} tiles from id {})",
                set.name,
                set.count.unwrap_or(0),
                set.firstgid
            ));
        }
        set.tiles.get(&id).filter(|t| t.glyph.is_some() || t.role.is_some()).ok_or_else(|| {
            format!("tile {id} of tileset `{}` has no `glyph` property; give it one (a single character)", set.name)
        })
    }

    fn prefab(self, file: &str, header: Header, palette: &Palette) -> Result<Prefab, Vec<Error>> {
        if !self.tilesets.iter().flat_map(|s| s.tiles.values()).any(|t| t.glyph.is_some() || t.role.is_some()) {
            let names: Vec<String> = self.tilesets.iter().map(|s| format!("`{}`", s.name)).collect();
            let what = if names.is_empty() {
                "the map has no tileset".to_string()
            } else {
                format!("no tile of the tileset {} has a `glyph` property", names.join(", "))
            };
            return Err(vec![invalid(Location::file(file), what).with_help(
                "a prefab's tiles say what they draw in a `glyph` property (one character); make the tileset with `prefabric convert PREFAB.txt PREFAB.tmx` or take the one `prefabric generate --format tmx` writes",
            )]);
        }
        let varies = !header.variation.is_empty();
        let (named, mut errors) = Named::read(&header.variation);
        let mut by_kind: [Option<&TileLayer>; 5] = [None; 5];
        for layer in &self.layers {
            match LayerKind::ALL.iter().find(|k| k.name() == layer.name) {
                // The mask protects cells from rules; without one it means nothing.
                Some(&LayerKind::Mask) if named.rules == 0 => errors.push(
                    invalid(layer.at.clone(), "a `mask` layer, but no variation rule to protect cells from").with_help(
                        "delete the layer, or add `subst`, `subst-once`, `nsubst` or `shuffle` lines to `vary` in the prefab's .toml",
                    ),
                ),
                Some(&k) if by_kind[k as usize].is_some() => errors.push(
                    invalid(layer.at.clone(), format!("a second tile layer named `{}`", layer.name))
                        .with_help("merge the two layers"),
                ),
                Some(&k) => by_kind[k as usize] = Some(layer),
                None => errors.push(
                    invalid(layer.at.clone(), format!("unknown tile layer `{}`", layer.name)).with_help(format!(
                        "a prefab's tile layers are {LAYER_NAMES} (all but terrain optional); rename or delete the layer"
                    )),
                ),
            }
        }
        let Some(terrain_layer) = by_kind[0] else {
            errors.push(invalid(Location::file(file), "the map has no tile layer named `terrain`").with_help(format!(
                "a prefab's tile layers are {LAYER_NAMES}; rename the layer that draws the terrain"
            )));
            return Err(errors);
        };
        let (w, h) = (self.width, self.height);
        let mut bad = 0usize;
        let mut report = |errors: &mut Vec<Error>, layer: &str, i: usize, message: String| {
            bad += 1;
            if bad <= MAX_CELL_ERRORS {
                let (x, y) = (i as i32 % w, i as i32 / w);
                errors.push(invalid(Location::file(file), format!("layer `{layer}`, cell x={x} y={y}: {message}")));
            }
        };
        let mut cells = Vec::with_capacity(terrain_layer.gids.len());
        // Each painted cell's glyph, which variation lines may name.
        let mut glyphs = Vec::with_capacity(if varies { terrain_layer.gids.len() } else { 0 });
        let mut connectors = Vec::new();
        for (i, &gid) in terrain_layer.gids.iter().enumerate() {
            let tile = match (gid, self.tile(gid)) {
                (0, _) => None,
                (_, Ok(t)) => Some(t),
                (_, Err(message)) => {
                    report(&mut errors, "terrain", i, message);
                    None
                }
            };
            if varies {
                glyphs.push(tile.and_then(|t| t.glyph));
            }
            let Some(tile) = tile else {
                cells.push(None);
                continue;
            };
            let cell = match (tile.role, tile.glyph) {
                (Some(role), _) => Some(Terrain::with_variant(role, tile.variant)),
                (None, Some(g)) if named.legend_terrain(g).is_some() => named.legend_terrain(g),
                (None, Some('?')) => None,
                (None, Some('*')) => {
                    connectors.push(Point::new(i as i32 % w, i as i32 / w));
                    Some(Terrain::new(Role::Door))
                }
                (None, Some(g)) => match palette.terrain_of(g) {
                    Some(t) => Some(t),
                    // A glyph only a rule writes or reads: don't-care until the variation resolves it.
                    None if named.accepts(g) => None,
                    None => {
                        let known: String = palette.glyphs().iter().map(|(g, _)| *g).collect();
                        report(
                            &mut errors,
                            "terrain",
                            i,
                            format!(
                                "the tile's glyph `{g}` is not in the palette (it defines `{known}`, the digits 0-9, `?` and `*`); change the tile's `glyph` property or add it to palette.toml"
                            ),
                        );
                        None
                    }
                },
                (None, None) => None,
            };
            cells.push(cell);
        }
        let mut overlays: [Option<Grid<Option<char>>>; 3] = [None, None, None];
        for (slot, kind) in overlays.iter_mut().zip(&LayerKind::ALL[1..]) {
            let Some(layer) = by_kind[*kind as usize] else { continue };
            let mut grid = Grid::new(w, h, None);
            for (i, &gid) in layer.gids.iter().enumerate().filter(|(_, g)| **g != 0) {
                match self.tile(gid) {
                    Ok(tile) => {
                        let glyph = tile.glyph.filter(|&g| *kind == LayerKind::Machines || g != ' ');
                        let glyph = if *kind == LayerKind::Links { glyph.map(super::xp::text_arrow) } else { glyph };
                        grid.set(Point::new(i as i32 % w, i as i32 / w), glyph);
                    }
                    Err(message) => report(&mut errors, &layer.name, i, message),
                }
            }
            *slot = Some(grid);
        }
        if bad > MAX_CELL_ERRORS {
            errors.push(invalid(Location::file(file), format!("... and {} more bad cells", bad - MAX_CELL_ERRORS)));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let [links, machines, refs] = overlays;
        let Some(terrain) = Grid::from_cells(w, h, cells) else {
            return Err(vec![invalid(Location::file(file), "the terrain layer's size is not the map's")]);
        };
        let drawn = Drawn { terrain, connectors, links, machines, refs };
        if !varies {
            return assemble(file, header, Location::file(file), drawn, &Place::Tiled, palette.moves());
        }
        let glyphs = Grid::from_cells(w, h, glyphs).unwrap_or_else(|| Grid::new(w, h, None));
        let mask = match by_kind[LayerKind::Mask as usize] {
            Some(layer) => Grid::from_cells(w, h, layer.gids.iter().map(|&g| g != 0).collect())
                .unwrap_or_else(|| Grid::new(w, h, false)),
            None => Grid::new(w, h, false),
        };
        vary::build(file, header, Location::file(file), drawn, &Place::Tiled, (&glyphs, mask), palette)
    }
}

/// Checks a map's size against the limits before its layers are allocated.
fn check_size(file: &str, width: u64, height: u64, limits: &Limits) -> Result<(i32, i32), Vec<Error>> {
    let max = u64::from(limits.max_prefab_side);
    if width == 0 || height == 0 {
        return Err(vec![
            invalid(Location::file(file), format!("the map is {width}x{height} cells"))
                .with_help("a prefab is at least one cell on a side"),
        ]);
    }
    if width > max || height > max {
        return Err(vec![
            Error::at(
                ErrorKind::Limit,
                Location::file(file),
                format!("the map is {width}x{height} cells; prefabs are at most {max} on a side"),
            )
            .with_help("crop the map (Map > Resize Map), or raise Limits::max_prefab_side"),
        ]);
    }
    Ok((width as i32, height as i32))
}

fn not_orthogonal(file: &str, orientation: &str) -> Vec<Error> {
    vec![
        invalid(Location::file(file), format!("the map is {orientation}; prefabs are orthogonal maps"))
            .with_help("make the map with Orientation: Orthogonal (Map > Map Properties)"),
    ]
}

fn infinite(at: Location) -> Vec<Error> {
    vec![
        invalid(at, "the map is infinite; a prefab has a fixed size")
            .with_help("untick Infinite in Map > Map Properties (Tiled then crops the map to what is drawn)"),
    ]
}

/// Decodes standard base64, whitespace ignored; `None` on any other character.
fn base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    let mut padded = false;
    for c in text.bytes().filter(|c| !c.is_ascii_whitespace()) {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                padded = true;
                continue;
            }
            _ => return None,
        };
        if padded {
            return None;
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// A layer's global tile ids from base64 data, decompressed as `compression` says;
/// `cells` of them, or what is wrong.
fn decode_base64(text: &str, compression: &str, cells: usize) -> Result<Vec<u32>, String> {
    let raw = base64(text).ok_or("the layer's data is not valid base64")?;
    let want = cells * 4;
    let bytes = match compression {
        "" => raw,
        "zlib" | "gzip" => {
            let mut out = Vec::with_capacity(want);
            // One byte more than expected is enough to tell the data is too long.
            let limit = want as u64 + 1;
            let read = if compression == "zlib" {
                flate2::read::ZlibDecoder::new(raw.as_slice()).take(limit).read_to_end(&mut out)
            } else {
                flate2::read::GzDecoder::new(raw.as_slice()).take(limit).read_to_end(&mut out)
            };
            read.map_err(|e| format!("the layer's {compression} data does not decompress: {e}"))?;
            out
        }
        "zstd" => return Err("the layer's data is zstd-compressed, which prefabric does not read; choose Tile Layer Format: Base64 (zlib compressed) or CSV in Map > Map Properties".into()),
        other => return Err(format!("unknown compression `{other}`; Tiled writes zlib, gzip or none")),
    };
    if bytes.len() != want {
        return Err(format!("the layer's data holds {} bytes; {cells} cells take {want}", bytes.len()));
    }
    Ok(bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
}

/// A layer's global tile ids from CSV, `cells` of them.
fn decode_csv(text: &str, cells: usize) -> Result<Vec<u32>, String> {
    let mut gids = Vec::with_capacity(cells);
    for (i, field) in text.split(',').enumerate() {
        if i >= cells {
            return Err(format!("the layer's CSV data holds more than the map's {cells} cells"));
        }
        let field = field.trim();
        gids.push(field.parse::<u32>().map_err(|_| format!("`{field}` in the layer's CSV data is not a tile id"))?);
    }
    if gids.len() != cells {
        return Err(format!("the layer's CSV data holds {} cells; the map has {cells}", gids.len()));
    }
    Ok(gids)
}

/// A tile's properties, from (name, type, value) triples.
fn tile_of<'v>(properties: impl Iterator<Item = (&'v str, String)>, what: &dyn Fn() -> String) -> Result<Tile, String> {
    let mut tile = Tile::default();
    for (name, value) in properties {
        match name {
            "glyph" => {
                let mut chars = value.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => tile.glyph = Some(c),
                    _ => return Err(format!("{}: `glyph` is {value:?}; it must be one character", what())),
                }
            }
            "role" => {
                tile.role = Some(Role::parse(&value).ok_or_else(|| {
                    let names: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                    format!("{}: unknown `role` {value:?}; roles are {}", what(), names.join(", "))
                })?);
            }
            "variant" => {
                tile.variant = value
                    .trim()
                    .parse::<u8>()
                    .ok()
                    .filter(|v| *v <= 9)
                    .ok_or_else(|| format!("{}: `variant` is {value:?}; it must be a digit 0-9", what()))?;
            }
            _ => {}
        }
    }
    Ok(tile)
}

// ---------------------------------------------------------------- TMX (XML)

fn xml_at(file: &str, doc: &roxmltree::Document<'_>, node: roxmltree::Node<'_, '_>) -> Location {
    let pos = doc.text_pos_at(node.range().start);
    Location::at(file, pos.row, pos.col)
}

fn xml_error(file: &str, e: &roxmltree::Error) -> Vec<Error> {
    let pos = e.pos();
    vec![
        Error::at(ErrorKind::Format, Location::at(file, pos.row, pos.col), format!("not well-formed XML: {e}"))
            .with_help("save the map again from Tiled"),
    ]
}

fn number(at: Location, node: roxmltree::Node<'_, '_>, name: &str) -> Result<u64, Vec<Error>> {
    let text = node.attribute(name).unwrap_or("");
    text.trim().parse::<u64>().map_err(|_| {
        vec![
            invalid(at, format!("`{name}` is {text:?}; it must be a whole number"))
                .with_help("save the map again from Tiled"),
        ]
    })
}

fn read_tmx(file: &str, text: &str, tilesets: &TilesetReader<'_>, limits: &Limits) -> Result<TiledMap, Vec<Error>> {
    let doc = roxmltree::Document::parse(text).map_err(|e| xml_error(file, &e))?;
    let root = doc.root_element();
    if root.tag_name().name() != "map" {
        return Err(vec![
            invalid(xml_at(file, &doc, root), format!("the root element is <{}>, not <map>", root.tag_name().name()))
                .with_help("a .tmx prefab is a map saved by Tiled"),
        ]);
    }
    let orientation = root.attribute("orientation").unwrap_or("orthogonal");
    if orientation != "orthogonal" {
        return Err(not_orthogonal(file, orientation));
    }
    if root.attribute("infinite") == Some("1") {
        return Err(infinite(xml_at(file, &doc, root)));
    }
    let at = xml_at(file, &doc, root);
    let (w, h) = check_size(file, number(at.clone(), root, "width")?, number(at, root, "height")?, limits)?;
    let cells = (w * h) as usize;
    let mut errors = Vec::new();
    let mut map = TiledMap { width: w, height: h, layers: Vec::new(), tilesets: Vec::new() };
    for node in root.children().filter(roxmltree::Node::is_element) {
        let at = xml_at(file, &doc, node);
        match node.tag_name().name() {
            "tileset" => {
                let firstgid = number(at.clone(), node, "firstgid")?;
                let firstgid =
                    u32::try_from(firstgid).map_err(|_| vec![invalid(at.clone(), "`firstgid` is too large")])?;
                let set = match node.attribute("source") {
                    Some(source) => external_tileset(source, tilesets, firstgid, limits),
                    None => tsx_tileset(file, &doc, node, firstgid),
                };
                match set {
                    Ok(set) => map.tilesets.push(set),
                    Err(es) => errors.extend(es),
                }
            }
            "layer" => {
                let name = node.attribute("name").unwrap_or("").to_string();
                match tmx_layer(node, cells) {
                    Ok(gids) => map.layers.push(TileLayer { name, at, gids }),
                    Err(message) if message.is_empty() => return Err(infinite(at)),
                    Err(message) => errors.push(invalid(at, format!("layer `{name}`: {message}"))),
                }
            }
            "group" => {
                errors.push(invalid(at, "a group layer").with_help("move the prefab's tile layers out of the group"))
            }
            _ => {}
        }
    }
    map.tilesets.sort_by_key(|s| s.firstgid);
    if errors.is_empty() { Ok(map) } else { Err(errors) }
}

/// A `<layer>`'s tile ids; an empty message means the layer is in chunks (infinite).
fn tmx_layer(node: roxmltree::Node<'_, '_>, cells: usize) -> Result<Vec<u32>, String> {
    let Some(data) = node.children().find(|n| n.has_tag_name("data")) else {
        return Err("the layer has no <data>".into());
    };
    if data.children().any(|n| n.has_tag_name("chunk")) {
        return Err(String::new());
    }
    let text = data.text().unwrap_or("");
    match data.attribute("encoding") {
        Some("csv") => decode_csv(text, cells),
        Some("base64") => decode_base64(text, data.attribute("compression").unwrap_or(""), cells),
        Some(other) => Err(format!("unknown data encoding `{other}`; Tiled writes csv or base64")),
        None => {
            let mut gids = Vec::with_capacity(cells);
            for tile in data.children().filter(|n| n.has_tag_name("tile")) {
                if gids.len() >= cells {
                    return Err(format!("the layer holds more than the map's {cells} cells"));
                }
                let gid = tile.attribute("gid").unwrap_or("0");
                gids.push(gid.parse::<u32>().map_err(|_| format!("`{gid}` is not a tile id"))?);
            }
            if gids.len() != cells {
                return Err(format!("the layer holds {} cells; the map has {cells}", gids.len()));
            }
            Ok(gids)
        }
    }
}

/// A `<tileset>` element's tiles (in a map or a `.tsx` file).
fn tsx_tileset(
    file: &str,
    doc: &roxmltree::Document<'_>,
    node: roxmltree::Node<'_, '_>,
    firstgid: u32,
) -> Result<Tileset, Vec<Error>> {
    let name = node.attribute("name").unwrap_or("").to_string();
    let count = node.attribute("tilecount").and_then(|c| c.parse().ok());
    let mut set = Tileset { firstgid, name, count, tiles: BTreeMap::new() };
    let mut errors = Vec::new();
    for tile in node.children().filter(|n| n.has_tag_name("tile")) {
        let at = xml_at(file, doc, tile);
        let Some(id) = tile.attribute("id").and_then(|i| i.parse::<u32>().ok()) else {
            errors.push(invalid(at, "a <tile> without a numeric `id`"));
            continue;
        };
        let properties = tile
            .children()
            .filter(|n| n.has_tag_name("properties"))
            .flat_map(|p| p.children().filter(|n| n.has_tag_name("property")))
            .map(|p| (p.attribute("name").unwrap_or(""), p.attribute("value").or(p.text()).unwrap_or("").to_string()));
        let what = || format!("tile {id} of tileset `{}`", set.name);
        match tile_of(properties, &what) {
            Ok(t) => {
                set.tiles.insert(id, t);
            }
            Err(message) => errors.push(invalid(at, message)),
        }
    }
    if errors.is_empty() { Ok(set) } else { Err(errors) }
}

/// A tileset in its own file, `.tsx` or `.tsj` (told apart by its first character).
fn external_tileset(
    source: &str,
    tilesets: &TilesetReader<'_>,
    firstgid: u32,
    limits: &Limits,
) -> Result<Tileset, Vec<Error>> {
    let (label, text) = tilesets(source).map_err(|e| vec![e])?;
    if text.len() as u64 > limits.max_file_bytes {
        return Err(vec![
            Error::at(
                ErrorKind::Limit,
                Location::file(label),
                format!("the file is {} bytes, more than the limit of {}", text.len(), limits.max_file_bytes),
            )
            .with_help("raise Limits::max_file_bytes if the file is meant to be this large"),
        ]);
    }
    if text.trim_start().starts_with('<') {
        let doc = roxmltree::Document::parse(&text).map_err(|e| xml_error(&label, &e))?;
        let root = doc.root_element();
        if !root.has_tag_name("tileset") {
            return Err(vec![invalid(xml_at(&label, &doc, root), "not a tileset (its root element is not <tileset>)")]);
        }
        tsx_tileset(&label, &doc, root, firstgid)
    } else {
        let value: Value = json(&label, &text)?;
        tsj_tileset(&label, &value, firstgid)
    }
}

// ---------------------------------------------------------------- TMJ (JSON)

fn json(file: &str, text: &str) -> Result<Value, Vec<Error>> {
    serde_json::from_str(text).map_err(|e| {
        vec![
            Error::at(
                ErrorKind::Format,
                // serde_json says column 0 before a line's first character (a
                // file that ends there): that is column 1.
                Location::at(file, e.line() as u32, (e.column() as u32).max(1)),
                format!("not valid JSON: {e}"),
            )
            .with_help("save the file again from Tiled"),
        ]
    })
}

fn read_tmj(file: &str, text: &str, tilesets: &TilesetReader<'_>, limits: &Limits) -> Result<TiledMap, Vec<Error>> {
    let value = json(file, text)?;
    let whole = || Location::file(file);
    if value.get("type").and_then(Value::as_str).is_some_and(|t| t != "map") {
        return Err(vec![invalid(whole(), "not a Tiled map (its `type` is not \"map\")")]);
    }
    let orientation = value.get("orientation").and_then(Value::as_str).unwrap_or("orthogonal");
    if orientation != "orthogonal" {
        return Err(not_orthogonal(file, orientation));
    }
    if value.get("infinite").and_then(Value::as_bool) == Some(true) {
        return Err(infinite(whole()));
    }
    let size = |key: &str| {
        value.get(key).and_then(Value::as_u64).ok_or_else(|| {
            vec![
                invalid(whole(), format!("the map has no whole-number `{key}`"))
                    .with_help("save the map again from Tiled"),
            ]
        })
    };
    let (w, h) = check_size(file, size("width")?, size("height")?, limits)?;
    let cells = (w * h) as usize;
    let mut errors = Vec::new();
    let mut map = TiledMap { width: w, height: h, layers: Vec::new(), tilesets: Vec::new() };
    for (k, set) in value.get("tilesets").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let Some(firstgid) = set.get("firstgid").and_then(Value::as_u64).and_then(|g| u32::try_from(g).ok()) else {
            errors.push(invalid(whole(), format!("tileset {k} has no whole-number `firstgid`")));
            continue;
        };
        let read = match set.get("source").and_then(Value::as_str) {
            Some(source) => external_tileset(source, tilesets, firstgid, limits),
            None => tsj_tileset(file, set, firstgid),
        };
        match read {
            Ok(set) => map.tilesets.push(set),
            Err(es) => errors.extend(es),
        }
    }
    for layer in value.get("layers").and_then(Value::as_array).into_iter().flatten() {
        let name = layer.get("name").and_then(Value::as_str).unwrap_or("").to_string();
        let at = whole();
        match layer.get("type").and_then(Value::as_str) {
            Some("tilelayer") => {}
            Some("group") => {
                errors.push(
                    invalid(at, format!("`{name}` is a group layer"))
                        .with_help("move the prefab's tile layers out of the group"),
                );
                continue;
            }
            _ => continue,
        }
        if layer.get("chunks").is_some() {
            return Err(infinite(at));
        }
        match tmj_layer(layer, cells) {
            Ok(gids) => map.layers.push(TileLayer { name, at, gids }),
            Err(message) => errors.push(invalid(at, format!("layer `{name}`: {message}"))),
        }
    }
    map.tilesets.sort_by_key(|s| s.firstgid);
    if errors.is_empty() { Ok(map) } else { Err(errors) }
}

fn tmj_layer(layer: &Value, cells: usize) -> Result<Vec<u32>, String> {
    match layer.get("data") {
        Some(Value::String(text)) => {
            decode_base64(text, layer.get("compression").and_then(Value::as_str).unwrap_or(""), cells)
        }
        Some(Value::Array(items)) => {
            if items.len() != cells {
                return Err(format!("the layer's data holds {} cells; the map has {cells}", items.len()));
            }
            items
                .iter()
                .map(|v| {
                    v.as_u64()
                        .and_then(|g| u32::try_from(g).ok())
                        .ok_or_else(|| format!("{v} in the layer's data is not a tile id"))
                })
                .collect()
        }
        _ => Err("the layer has no `data`".into()),
    }
}

/// A JSON tileset's tiles (in a map or a `.tsj` file).
fn tsj_tileset(file: &str, set: &Value, firstgid: u32) -> Result<Tileset, Vec<Error>> {
    let name = set.get("name").and_then(Value::as_str).unwrap_or("").to_string();
    let count = set.get("tilecount").and_then(Value::as_u64).and_then(|c| u32::try_from(c).ok());
    let mut out = Tileset { firstgid, name, count, tiles: BTreeMap::new() };
    let mut errors = Vec::new();
    for tile in set.get("tiles").and_then(Value::as_array).into_iter().flatten() {
        let Some(id) = tile.get("id").and_then(Value::as_u64).and_then(|i| u32::try_from(i).ok()) else {
            errors.push(invalid(Location::file(file), format!("a tile of tileset `{}` has no numeric `id`", out.name)));
            continue;
        };
        let properties = tile.get("properties").and_then(Value::as_array).into_iter().flatten().map(|p| {
            let value = match p.get("value") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            (p.get("name").and_then(Value::as_str).unwrap_or(""), value)
        });
        let what = || format!("tile {id} of tileset `{}`", out.name);
        match tile_of(properties, &what) {
            Ok(t) => {
                out.tiles.insert(id, t);
            }
            Err(message) => errors.push(invalid(Location::file(file), message)),
        }
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}
