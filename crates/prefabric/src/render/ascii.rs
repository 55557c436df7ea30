//! Plain-text maps: one line per row, one glyph per cell.
//!
//! [`ascii`] (and [`ascii_window`], a part of the map) draws objects over the terrain (a machine's line art, an
//! item's or debris's catalog glyph, another object's reference character); [`ascii_rows`], which JSON's `rows`
//! uses, is the terrain alone, drawn with the palette's render glyphs (never a digit).

use crate::format::palette::Palette;
use crate::geom::Rect;
use crate::map::Map;

/// The map's rows drawn with the palette's render glyphs.
pub fn ascii_rows(map: &Map, palette: &Palette) -> Vec<String> {
    map.terrain().rows().map(|row| row.iter().map(|t| palette.render_glyph(*t)).collect()).collect()
}

/// The map drawn as text with its objects over the terrain, each row ending in a
/// newline.
pub fn ascii(map: &Map, palette: &Palette) -> String {
    ascii_window(map, palette, map.bounds())
}

/// The cells of `window` (clipped to the map) drawn as [`ascii`] draws the map.
pub fn ascii_window(map: &Map, palette: &Palette, window: Rect) -> String {
    let mut glyphs: Vec<char> = map.terrain().cells().iter().map(|t| palette.render_glyph(*t)).collect();
    for object in map.objects() {
        for &(p, glyph) in &object.cells {
            if let Some(i) = map.terrain().index_of(p) {
                glyphs[i] = glyph;
            }
        }
    }
    let x0 = window.x.clamp(0, map.width()) as usize;
    let x1 = window.x.saturating_add(window.width).clamp(0, map.width()) as usize;
    let y0 = window.y.clamp(0, map.height()) as usize;
    let y1 = window.y.saturating_add(window.height).clamp(0, map.height()) as usize;
    let mut out = String::with_capacity((x1.saturating_sub(x0) + 1) * y1.saturating_sub(y0));
    for row in glyphs.chunks(map.width().max(1) as usize).take(y1).skip(y0) {
        out.extend(row.get(x0..x1.max(x0)).unwrap_or_default());
        out.push('\n');
    }
    out
}

/// One string per row: `1` where a walker can pass (walkable terrain with no
/// machine on it), `0` elsewhere.
pub fn passable_rows(map: &Map) -> Vec<String> {
    (0..map.height())
        .map(|y| {
            (0..map.width()).map(|x| if map.is_passable(crate::geom::Point::new(x, y)) { '1' } else { '0' }).collect()
        })
        .collect()
}

/// One string per row: `1` where games should not spawn anything (inside features
/// placed with `spawn_block`, and spawn-block rectangles), `0` elsewhere.
pub fn spawn_blocked_rows(map: &Map) -> Vec<String> {
    (0..map.height())
        .map(|y| {
            (0..map.width())
                .map(|x| if map.is_spawn_blocked(crate::geom::Point::new(x, y)) { '1' } else { '0' })
                .collect()
        })
        .collect()
}
