//! Maps in terminal colours (256-colour ANSI escapes).
//!
//! Terrain is coloured by role; cells of placed prefabs are tinted so seeded
//! features stand out from the generated layout, and link marks are bright yellow
//! like Cogmind's tunneler numbers. A terrain variant the palette gives a colour
//! of its own (a greenhouse's grass, a hedge) is drawn in that colour.

use crate::format::palette::Palette;
use crate::format::xp::Rgb;
use crate::geom::Point;
use crate::map::{FloorKind, Map, Role};

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
    }
}

const LINK: u8 = 226;

/// A foreground colour: one of the 256 indexed colours, or 24-bit.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Colour {
    Indexed(u8),
    Rgb(Rgb),
}

/// The map drawn with colours, each row ending in a colour reset and a newline.
pub fn ansi(map: &Map, palette: &Palette) -> String {
    let mut out = String::with_capacity(map.width() as usize * map.height() as usize * 3);
    let links: Vec<Point> = map.links().iter().map(|l| l.at).collect();
    for y in 0..map.height() {
        let mut current = None;
        for x in 0..map.width() {
            let p = Point::new(x, y);
            let t = map.terrain()[p];
            let c = match palette.colour_of(Some(t)).filter(|_| t.variant > 0) {
                _ if links.contains(&p) => Colour::Indexed(LINK),
                Some(rgb) => Colour::Rgb(rgb),
                None => Colour::Indexed(colour(t.role, map.is_protected(p))),
            };
            if current != Some(c) {
                match c {
                    Colour::Indexed(i) => out.push_str(&format!("\x1b[38;5;{i}m")),
                    Colour::Rgb(rgb) => out.push_str(&format!("\x1b[38;2;{};{};{}m", rgb.r, rgb.g, rgb.b)),
                }
                current = Some(c);
            }
            out.push(palette.render_glyph(t));
        }
        out.push_str("\x1b[0m\n");
    }
    out
}
