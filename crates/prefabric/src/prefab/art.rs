//! Line-art glyphs that turn with their prefab.
//!
//! Machines drawn on a prefab's machine layer are line art: box-drawing lines and
//! corners, arrows, half blocks, `-` and `|`. When the prefab is rotated or flipped,
//! a `─` must become a `│` and a `┌` a `┐`, or the drawing falls apart. [`turn`]
//! maps a glyph through a [`Transform`] by turning the directions it points in;
//! glyphs without a direction (letters, full blocks) stay as they are. The mapping
//! is a bijection for every transform, so turning back restores the original glyph.

use crate::geom::{Dir, Transform};

/// Box-drawing glyphs and the line leaving each side: `[north, east, south, west]`,
/// 0 none, 1 single, 2 double, 3 ASCII. Every glyph of code page 437's box set is
/// here, so any turn of one of them is one of them.
const BOXES: [(char, [u8; 4]); 42] = [
    ('─', [0, 1, 0, 1]),
    ('│', [1, 0, 1, 0]),
    ('┌', [0, 1, 1, 0]),
    ('┐', [0, 0, 1, 1]),
    ('└', [1, 1, 0, 0]),
    ('┘', [1, 0, 0, 1]),
    ('├', [1, 1, 1, 0]),
    ('┤', [1, 0, 1, 1]),
    ('┬', [0, 1, 1, 1]),
    ('┴', [1, 1, 0, 1]),
    ('┼', [1, 1, 1, 1]),
    ('═', [0, 2, 0, 2]),
    ('║', [2, 0, 2, 0]),
    ('╔', [0, 2, 2, 0]),
    ('╗', [0, 0, 2, 2]),
    ('╚', [2, 2, 0, 0]),
    ('╝', [2, 0, 0, 2]),
    ('╠', [2, 2, 2, 0]),
    ('╣', [2, 0, 2, 2]),
    ('╦', [0, 2, 2, 2]),
    ('╩', [2, 2, 0, 2]),
    ('╬', [2, 2, 2, 2]),
    ('╒', [0, 2, 1, 0]),
    ('╓', [0, 1, 2, 0]),
    ('╕', [0, 0, 1, 2]),
    ('╖', [0, 0, 2, 1]),
    ('╘', [1, 2, 0, 0]),
    ('╙', [2, 1, 0, 0]),
    ('╛', [1, 0, 0, 2]),
    ('╜', [2, 0, 0, 1]),
    ('╞', [1, 2, 1, 0]),
    ('╟', [2, 1, 2, 0]),
    ('╡', [1, 0, 1, 2]),
    ('╢', [2, 0, 2, 1]),
    ('╤', [0, 2, 1, 2]),
    ('╥', [0, 1, 2, 1]),
    ('╧', [1, 2, 0, 2]),
    ('╨', [2, 1, 0, 1]),
    ('╪', [1, 2, 1, 2]),
    ('╫', [2, 1, 2, 1]),
    ('-', [0, 3, 0, 3]),
    ('|', [3, 0, 3, 0]),
];

/// Glyphs that point one way: arrows, triangles and half blocks, as
/// `[north, east, south, west]` sets.
const POINTERS: [[char; 4]; 4] =
    [['↑', '→', '↓', '←'], ['▲', '►', '▼', '◄'], ['^', '>', 'v', '<'], ['▀', '▐', '▄', '▌']];

/// Diagonal strokes: `/` runs north-east to south-west, `\` north-west to south-east.
const DIAGONALS: [char; 2] = ['/', '\\'];

/// `glyph` as it looks after the drawing it belongs to is turned by `t`.
pub fn turn(glyph: char, t: Transform) -> char {
    if t == Transform::IDENTITY {
        return glyph;
    }
    if let Some((_, arms)) = BOXES.iter().find(|(c, _)| *c == glyph) {
        let mut turned = [0u8; 4];
        for d in Dir::ALL {
            turned[t.apply_dir(d) as usize] = arms[d as usize];
        }
        return BOXES.iter().find(|(_, a)| *a == turned).map_or(glyph, |(c, _)| *c);
    }
    for set in &POINTERS {
        if let Some(i) = set.iter().position(|&c| c == glyph) {
            return set[t.apply_dir(Dir::ALL[i]) as usize];
        }
    }
    if DIAGONALS.contains(&glyph) {
        // `/` touches the north and east sides of its cell's corner; see where
        // those two sides go.
        let (a, b) = if glyph == '/' { (Dir::North, Dir::East) } else { (Dir::North, Dir::West) };
        let (ta, tb) = (t.apply_dir(a), t.apply_dir(b));
        let is_slash = matches!((ta, tb), (Dir::North, Dir::East) | (Dir::East, Dir::North))
            || matches!((ta, tb), (Dir::South, Dir::West) | (Dir::West, Dir::South));
        return if is_slash { '/' } else { '\\' };
    }
    glyph
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_index_the_tables() {
        assert_eq!(Dir::ALL, [Dir::North, Dir::East, Dir::South, Dir::West]);
        assert_eq!(Dir::ALL.iter().map(|&d| d as usize).collect::<Vec<_>>(), [0, 1, 2, 3]);
    }

    #[test]
    fn lines_corners_and_pointers_turn() {
        let r90 = Transform::ALL.into_iter().find(|t| t.to_string() == "r90").unwrap();
        let flip = Transform::ALL.into_iter().find(|t| t.to_string() == "flip").unwrap();
        // A quarter turn clockwise: what pointed north points east.
        assert_eq!(r90.apply_dir(Dir::North), Dir::East);
        assert_eq!(turn('─', r90), '│');
        assert_eq!(turn('┌', r90), '┐');
        assert_eq!(turn('╒', r90), '╖');
        assert_eq!(turn('↑', r90), '→');
        assert_eq!(turn('▀', r90), '▐');
        assert_eq!(turn('/', r90), '\\');
        assert_eq!(turn('-', r90), '|');
        // The mirror swaps east and west only.
        assert_eq!(flip.apply_dir(Dir::East), Dir::West);
        assert_eq!(turn('┌', flip), '┐');
        assert_eq!(turn('│', flip), '│');
        assert_eq!(turn('/', flip), '\\');
        assert_eq!(turn('A', r90), 'A');
        assert_eq!(turn('█', flip), '█');
    }

    #[test]
    fn every_turn_is_undone_by_its_inverse() {
        let glyphs: Vec<char> = BOXES
            .iter()
            .map(|(c, _)| *c)
            .chain(POINTERS.iter().flatten().copied())
            .chain(DIAGONALS)
            .chain(['A', '#', '█'])
            .collect();
        for t in Transform::ALL {
            for &g in &glyphs {
                assert_eq!(turn(turn(g, t), t.inverse()), g, "{g} by {t}");
            }
            // Composition agrees with turning twice.
            for u in Transform::ALL {
                for &g in &glyphs {
                    assert_eq!(turn(turn(g, t), u), turn(g, t.then(u)), "{g} by {t} then {u}");
                }
            }
        }
    }
}
