//! Maps in terminal colours (256-colour ANSI escapes).
//!
//! Terrain is coloured by role; cells of placed prefabs are tinted so seeded
//! features stand out from the generated layout, and link marks are bright yellow
//! like Cogmind's tunneler numbers. Objects are drawn over the terrain in their
//! kind's colour. A terrain variant the palette gives a colour
//! of its own (a greenhouse's grass, a hedge) is drawn in that colour.

use crate::format::palette::Palette;
use crate::format::xp::Rgb;
use crate::geom::{Point, Rect};
use crate::map::{FloorKind, Map, ObjectKind, Role};

fn colour(role: Role, in_prefab: bool) -> u8 {
    match (role, in_prefab) {
        (Role::Earth, _) => 236,
        (Role::Blocked, _) => 88,
        (Role::Wall, true) => 67,
        (Role::Wall, false) => 246,
        (Role::Floor(_), true) => 110,
        (Role::Floor(FloorKind::Room), _) => 252,
        (Role::Floor(FloorKind::Hall), _) => 187,
        (Role::Floor(FloorKind::Corridor), _) => 242,
        (Role::Floor(FloorKind::Junction), _) => 179,
        (Role::Floor(FloorKind::Cave), _) => 137,
        (Role::Door, _) => 208,
        (Role::SecretDoor, _) => 166,
        (Role::StairsUp, _) => 51,
        (Role::StairsDown, _) => 201,
        (Role::Liquid, _) => 27,
        (Role::Stairs, _) => 45,
    }
}

const LINK: u8 = 226;

/// A foreground colour: one of the 256 indexed colours, or 24-bit.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Colour {
    Indexed(u8),
    Rgb(Rgb),
}

/// The colour an object of `kind` is drawn in, as in the PNG's insets.
fn object_colour(kind: ObjectKind) -> u8 {
    match kind {
        ObjectKind::Machine => 153,
        ObjectKind::Entity => 196,
        ObjectKind::Item => 220,
        ObjectKind::Prop => 44,
        ObjectKind::Trap => 201,
        ObjectKind::Debris => 137,
    }
}

/// The map drawn with colours, each row ending in a colour reset and a newline:
/// the same glyphs as [`ascii`](super::ascii), objects over the terrain, each
/// object in its kind's colour.
pub fn ansi(map: &Map, palette: &Palette) -> String {
    ansi_window(map, palette, map.bounds())
}

/// The cells of `window` (clipped to the map) drawn as [`ansi`] draws the map.
pub fn ansi_window(map: &Map, palette: &Palette, window: Rect) -> String {
    let x0 = window.x.max(0);
    let x1 = window.x.saturating_add(window.width).min(map.width());
    let y0 = window.y.max(0);
    let y1 = window.y.saturating_add(window.height).min(map.height());
    let mut out = String::with_capacity((x1 - x0).max(0) as usize * (y1 - y0).max(0) as usize * 3);
    let links: Vec<Point> = map.links().iter().map(|l| l.at).collect();
    let mut objects: Vec<Option<(char, ObjectKind)>> = vec![None; map.terrain().cells().len()];
    for object in map.objects() {
        for &(p, glyph) in &object.cells {
            if let Some(i) = map.terrain().index_of(p) {
                objects[i] = Some((glyph, object.kind));
            }
        }
    }
    for y in y0..y1 {
        let mut current = None;
        for x in x0..x1 {
            let p = Point::new(x, y);
            let t = map.terrain()[p];
            let object = map.terrain().index_of(p).and_then(|i| objects[i]);
            let c = match (object, palette.colour_of(Some(t)).filter(|_| t.variant() > 0)) {
                (Some((_, kind)), _) => Colour::Indexed(object_colour(kind)),
                _ if links.contains(&p) => Colour::Indexed(LINK),
                (None, Some(rgb)) => Colour::Rgb(rgb),
                (None, None) => Colour::Indexed(colour(t.role(), map.is_protected(p))),
            };
            if current != Some(c) {
                match c {
                    Colour::Indexed(i) => out.push_str(&format!("\x1b[38;5;{i}m")),
                    Colour::Rgb(rgb) => out.push_str(&format!("\x1b[38;2;{};{};{}m", rgb.r, rgb.g, rgb.b)),
                }
                current = Some(c);
            }
            out.push(object.map_or_else(|| palette.render_glyph(t), |(glyph, _)| glyph));
        }
        out.push_str("\x1b[0m\n");
    }
    out
}

#[cfg(test)]
mod tests;
