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

/// The first code point of Unicode's box-drawing block, where every glyph of
/// [`BOXES`] but `-` and `|` lies.
const BOX_BLOCK: u32 = 0x2500;

/// A box glyph's four arms packed two bits each, north lowest.
const fn pack_arms(arms: [u8; 4]) -> u8 {
    arms[0] | arms[1] << 2 | arms[2] << 4 | arms[3] << 6
}

/// The packed arms of each code point of the box-drawing block, and
/// [`NOT_A_BOX`] where [`BOXES`] has no glyph: what [`turn`] reads instead of
/// searching the table (machine art is turned cell by cell, map after map).
const BLOCK_ARMS: [u8; 128] = {
    let mut arms = [NOT_A_BOX; 128];
    let mut i = 0;
    while i < BOXES.len() {
        let (c, a) = BOXES[i];
        if c as u32 >= BOX_BLOCK && (c as u32) < BOX_BLOCK + 128 {
            arms[(c as u32 - BOX_BLOCK) as usize] = pack_arms(a);
        }
        i += 1;
    }
    arms
};

/// No glyph of [`BOXES`] has these arms (each of its arms is 0–3, and none has
/// all four ASCII).
const NOT_A_BOX: u8 = 0xFF;

/// The glyph of [`BOXES`] with each packed set of arms, `'\0'` for none.
const BY_ARMS: [char; 256] = {
    let mut glyphs = ['\0'; 256];
    let mut i = 0;
    while i < BOXES.len() {
        let (c, a) = BOXES[i];
        glyphs[pack_arms(a) as usize] = c;
        i += 1;
    }
    glyphs
};

/// The packed arms of `glyph` when it is one of [`BOXES`].
fn box_arms(glyph: char) -> Option<u8> {
    let arms = match glyph {
        '-' => pack_arms([0, 3, 0, 3]),
        '|' => pack_arms([3, 0, 3, 0]),
        _ => match (glyph as u32).checked_sub(BOX_BLOCK) {
            Some(k) if k < 128 => BLOCK_ARMS[k as usize],
            _ => NOT_A_BOX,
        },
    };
    (arms != NOT_A_BOX).then_some(arms)
}

/// `glyph` as it looks after the drawing it belongs to is turned by `t`.
pub fn turn(glyph: char, t: Transform) -> char {
    if t == Transform::IDENTITY {
        return glyph;
    }
    if let Some(arms) = box_arms(glyph) {
        let mut turned = 0;
        for d in Dir::ALL {
            turned |= (arms >> (2 * d as u8) & 3) << (2 * t.apply_dir(d) as u8);
        }
        return match BY_ARMS[usize::from(turned)] {
            '\0' => glyph,
            c => c,
        };
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
    fn the_lookup_tables_hold_every_box_glyph_and_nothing_else() {
        for (c, arms) in BOXES {
            assert_eq!(box_arms(c), Some(pack_arms(arms)), "{c}");
            assert_eq!(BY_ARMS[usize::from(pack_arms(arms))], c);
        }
        for c in ['A', 'v', '#', '█', '/', '\u{2580}', '\u{24FF}', '\u{257F}'] {
            assert_eq!(box_arms(c), None, "{c}");
        }
        assert_eq!(BY_ARMS.iter().filter(|&&c| c != '\0').count(), BOXES.len());
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
