//! The tileset of a Tiled map or prefab: one tile per terrain and per object
//! glyph used, drawn into a PNG image, with the properties each tile carries,
//! and a prefab's layers as the tiles they are drawn with.
//!
//! In: the maps (or the prefab) and their pack. Out: a [`TiledTileset`] — its
//! looks, its image bytes, its `.tsj`/`.tsx` text, and where it goes (inside
//! the map or in a file beside it). Guarantees: each terrain tile is its
//! palette colour with the render glyph drawn darker in the PNG legend's 8x8
//! font, each object tile its glyph in its kind's colour; every glyph the
//! built-in maps show is drawn; the same maps give the same tiles in the same
//! order.

use super::schema::{Property, TILED_VERSION, TileJson, TilesetJson, to_json_line, write_xml_properties, xml_escape};
use crate::content::Pack;
use crate::error::Error;
use crate::format::palette::Palette;
use crate::format::xp::Rgb;
use crate::grid::Grid;
use crate::map::{Map, ObjectKind, Terrain};
use crate::prefab::{LayerKind, Prefab};
use crate::render::colour::{BACKGROUND, object_colour, terrain_colour};
use crate::render::png::encode_rgba;
use std::fmt::Write as _;

/// Pixels per side of a tile: the 8x8 font with a margin of 2 around it.
pub const TILED_TILE_SIZE: u32 = 12;

/// The colour of a prefab mark's glyph (links, machines, refs).
pub(super) const MARK_COLOUR: Rgb = Rgb::new(0xff, 0xff, 0x60);

/// Tiles per row of the tileset image.
pub(super) const COLUMNS: u32 = 16;

/// What a tile shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Art {
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
    pub(super) tiles: Vec<Art>,
    /// Each tile's glyph and colours, as drawn.
    pub(super) looks: Vec<Look>,
}

/// How a tile is drawn.
#[derive(Copy, Clone, Debug)]
pub(super) struct Look {
    pub(super) glyph: char,
    pub(super) colour: Rgb,
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
    /// its other layers (`glyph` only), as
    /// [`prefab_tmx`](crate::render::prefab_tmx) and
    /// [`prefab_tmj`](crate::render::prefab_tmj) draw it; a cell a variation
    /// line names gets a tile of its terrain showing the glyph drawn there.
    /// Fails when a glyph of its layers cannot be drawn.
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
    pub(super) fn gid(&self, art: Art) -> u32 {
        self.tiles.binary_search(&art).map_or(0, |i| i as u32 + 1)
    }

    /// The image's size in pixels.
    pub(super) fn image_size(&self) -> (u32, u32) {
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
    pub(super) fn tile_json(&self) -> Vec<TileJson> {
        self.tiles
            .iter()
            .zip(&self.looks)
            .enumerate()
            .map(|(id, (&art, look))| TileJson { id: id as u32, properties: tile_properties(art, look) })
            .collect()
    }

    pub(super) fn tileset_json(&self, image: &str) -> TilesetJson {
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
    pub(super) fn write_tsx_element(&self, out: &mut String, firstgid: Option<u32>, image: &str) {
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
pub(super) fn square(start: u32, size: u32) -> impl Iterator<Item = (u32, u32)> {
    (start..start + size).flat_map(move |y| (start..start + size).map(move |x| (x, y)))
}

/// A glyph's ink on its terrain's colour: darker on light colours, lighter on dark.
pub(super) fn shade(c: Rgb) -> Rgb {
    let light = u32::from(c.r) * 3 + u32::from(c.g) * 6 + u32::from(c.b) > 10 * 96;
    let mix = |v: u8| if light { v / 2 } else { v / 2 + 0x70 };
    Rgb::new(mix(c.r), mix(c.g), mix(c.b))
}

/// A glyph's rows in the 8x8 font (any of its Unicode blocks), else of
/// [`EXTRA_GLYPHS`]; any other glyph is drawn as a hollow box, so the tile
/// still tells it apart from floor.
pub(super) fn glyph_rows(glyph: char) -> [u8; 8] {
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
pub(super) const MISSING_GLYPH: [u8; 8] = [0x00, 0x7e, 0x42, 0x42, 0x42, 0x42, 0x7e, 0x00];

/// The code page 437 glyphs roguelikes use that the 8x8 font lacks (arrows,
/// shapes, suits, notes), drawn here in its style, `#` for ink.
pub(super) const EXTRA_GLYPHS: [(char, [&str; 8]); 22] = [
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
pub(super) fn extra_glyph(glyph: char) -> Option<[u8; 8]> {
    let (_, rows) = EXTRA_GLYPHS.iter().find(|(c, _)| *c == glyph)?;
    Some(rows.map(|row| row.bytes().enumerate().fold(0u8, |bits, (x, b)| bits | u8::from(b == b'#') << x)))
}

pub(super) fn tile_properties(art: Art, look: &Look) -> Vec<Property> {
    let glyph = Property::text("glyph", look.glyph.to_string());
    match art {
        Art::Object(kind, _) => vec![glyph, Property::text("kind", kind.name())],
        Art::Mark(_) => vec![glyph],
        Art::Terrain(t) | Art::Varying(t, _) => {
            vec![glyph, Property::text("role", t.role().name()), Property::int("variant", t.variant())]
        }
    }
}

/// A prefab layer's name and its glyphs, `None` where it is empty.
pub(super) type MarkLayer = (&'static str, Grid<Option<char>>);

/// The tile of each cell of a prefab's terrain layer: its terrain, or where a
/// variation line names the glyph drawn there, that glyph on its terrain (a mark
/// on a don't-care cell); `None` for don't-care.
pub(super) fn prefab_terrain(prefab: &Prefab) -> Grid<Option<Art>> {
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
pub(super) fn prefab_marks(prefab: &Prefab) -> Result<Vec<MarkLayer>, Error> {
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

#[cfg(test)]
mod tests;
