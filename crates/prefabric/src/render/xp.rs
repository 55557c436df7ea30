//! Maps as REXPaint images, and any REXPaint image as text.
//!
//! [`map_xp`] writes a generated map as three layers a designer can open in
//! REXPaint: the terrain (layer 1) with the ASCII output's glyphs on the palette's
//! colours, every placed prefab outlined and named in its stage's colour (layer 2),
//! and the objects (layer 3). [`xp_text`] draws each layer of any image, prefab or
//! not, with code page 437 glyphs as Unicode, plain or in 24-bit terminal colour.

use super::colour::stage_colour;
use crate::format::cp437;
use crate::format::palette::Palette;
use crate::format::xp::{Rgb, XpCell, XpImage, XpLayer};
use crate::geom::{Point, Rect};
use crate::map::{LinkKind, Map, Role, Terrain};
use std::fmt::Write;

const OBJECT_FG: Rgb = Rgb::new(0xb4, 0xb4, 0xb4);
const OBJECT_BG: Rgb = Rgb::new(0x24, 0x24, 0x24);
const LINK_FG: Rgb = Rgb::new(0xff, 0xff, 0x00);

/// The map as a three-layer REXPaint image.
pub fn map_xp(map: &Map, palette: &Palette) -> XpImage {
    let (w, h) = (map.width(), map.height());
    let mut terrain = XpLayer::new(w, h, XpCell::TRANSPARENT);
    for p in map.bounds().points() {
        terrain.set(p, terrain_cell(map.terrain()[p], palette));
    }
    let mut outlines = XpLayer::new(w, h, XpCell::TRANSPARENT);
    for placed in map.prefabs() {
        outline(&mut outlines, placed.bounds, &placed.name, stage_colour(placed.stage));
    }
    for link in map.links() {
        let glyph = match link.kind {
            LinkKind::Connector => u32::from(b'*'),
            LinkKind::Tunnel { width } => u32::from(b'0' + width.min(9)),
        };
        outlines.set(link.at, XpCell { glyph, fg: LINK_FG, bg: Rgb::new(0, 0, 0) });
    }
    let mut objects = XpLayer::new(w, h, XpCell::TRANSPARENT);
    for object in map.objects() {
        for &(p, glyph) in &object.cells {
            let glyph = cp437::from_char(glyph).unwrap_or(u32::from(b'?'));
            objects.set(p, XpCell { glyph, fg: OBJECT_FG, bg: OBJECT_BG });
        }
    }
    // Three layers of the map's size always make a valid image.
    let mut image = XpImage::new(w, h);
    for layer in [terrain, outlines, objects] {
        let pushed = image.push_layer(layer);
        debug_assert!(pushed.is_ok());
    }
    image
}

/// A terrain cell: the render glyph on the terrain's palette colour (its variant's,
/// else its role's).
fn terrain_cell(t: Terrain, palette: &Palette) -> XpCell {
    let bg = palette
        .colour_of(Some(t))
        .or_else(|| palette.colour_of(Some(Terrain::new(t.role()))))
        .unwrap_or(Rgb::new(0, 0, 0));
    let glyph = cp437::from_char(palette.render_glyph(t)).unwrap_or(u32::from(b'?'));
    let fg = match t.role() {
        Role::Earth | Role::Blocked => Rgb::new(0x60, 0x60, 0x60),
        _ => Rgb::new(0xe8, 0xe8, 0xe8),
    };
    XpCell { glyph, fg, bg }
}

/// Draws a box around `r` with `name` along its top edge.
fn outline(layer: &mut XpLayer, r: Rect, name: &str, colour: Rgb) {
    let cell = |c: char| XpCell { glyph: cp437::from_char(c).unwrap_or(0), fg: colour, bg: Rgb::new(0, 0, 0) };
    let (x1, y1) = (r.x + r.width - 1, r.y + r.height - 1);
    for x in r.x..=x1 {
        layer.set(Point::new(x, r.y), cell('─'));
        layer.set(Point::new(x, y1), cell('─'));
    }
    for y in r.y..=y1 {
        layer.set(Point::new(r.x, y), cell('│'));
        layer.set(Point::new(x1, y), cell('│'));
    }
    for (p, c) in [((r.x, r.y), '┌'), ((x1, r.y), '┐'), ((r.x, y1), '└'), ((x1, y1), '┘')] {
        layer.set(Point::new(p.0, p.1), cell(c));
    }
    // The name, inside the top edge where it fits.
    for (i, c) in name.chars().take((r.width - 2).max(0) as usize).enumerate() {
        if cp437::from_char(c).is_some() {
            layer.set(Point::new(r.x + 1 + i as i32, r.y), cell(c));
        }
    }
}

/// How [`xp_text`] draws cells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum XpStyle {
    /// Glyphs only; transparent cells are spaces.
    Plain,
    /// Glyphs in their colours (24-bit ANSI escapes).
    Ansi,
}

/// Every layer of `image`, each under a heading with its number, size and count of
/// transparent cells.
pub fn xp_text(image: &XpImage, style: XpStyle) -> String {
    let mut out = String::new();
    for (i, layer) in image.layers().iter().enumerate() {
        let _ = writeln!(
            out,
            "layer {} of {}: {}x{}, {} transparent cells",
            i + 1,
            image.layers().len(),
            layer.width(),
            layer.height(),
            layer.transparent_count()
        );
        for y in 0..layer.height() {
            let mut current: Option<(Rgb, Rgb)> = None;
            for x in 0..layer.width() {
                let cell = layer[Point::new(x, y)];
                let glyph = if cell.is_transparent() { ' ' } else { cp437::to_char(cell.glyph).unwrap_or('\u{fffd}') };
                if style == XpStyle::Ansi {
                    let colours =
                        if cell.is_transparent() { (Rgb::new(0, 0, 0), Rgb::new(0, 0, 0)) } else { (cell.fg, cell.bg) };
                    if current != Some(colours) {
                        let (f, b) = colours;
                        let _ = write!(out, "\x1b[38;2;{};{};{};48;2;{};{};{}m", f.r, f.g, f.b, b.r, b.g, b.b);
                        current = Some(colours);
                    }
                }
                out.push(glyph);
            }
            if style == XpStyle::Ansi {
                out.push_str("\x1b[0m");
            }
            out.push('\n');
        }
    }
    out
}
