//! Maps in terminal colours (256-colour ANSI escapes).
//!
//! Terrain is coloured by role; cells of placed prefabs are tinted so seeded
//! features stand out from the generated layout, and link marks are bright yellow
//! like Cogmind's tunneler numbers.

use crate::format::palette::Palette;
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

/// The map drawn with colours, each row ending in a colour reset and a newline.
pub fn ansi(map: &Map, palette: &Palette) -> String {
    let mut out = String::with_capacity(map.width() as usize * map.height() as usize * 3);
    let links: Vec<Point> = map.links().iter().map(|l| l.at).collect();
    for y in 0..map.height() {
        let mut current = None;
        for x in 0..map.width() {
            let p = Point::new(x, y);
            let t = map.terrain()[p];
            let c = if links.contains(&p) { LINK } else { colour(t.role, map.is_protected(p)) };
            if current != Some(c) {
                out.push_str(&format!("\x1b[38;5;{c}m"));
                current = Some(c);
            }
            out.push(palette.render_glyph(t));
        }
        out.push_str("\x1b[0m\n");
    }
    out
}
