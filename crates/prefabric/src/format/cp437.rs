//! Code page 437 glyph codes to Unicode characters and back.
//!
//! REXPaint stores each cell's glyph as a number that, with its standard fonts, is a
//! code page 437 code: 0x01 is `☺`, 0xDB is `█`, 0xC4 is `─`. [`to_char`] gives the
//! Unicode character REXPaint's default font draws for a code, [`from_char`] the code
//! for a character. The two are exact inverses for codes 1 to 255. Code 0 is drawn
//! blank by REXPaint, so [`to_char`] shows it as a space; [`from_char`] maps a space to
//! 32, never to 0. Neither allocates.
//!
//! The table is written out by hand: the mapping is fixed and tiny, and the few crates
//! that provide it add a dependency for little more than these 256 characters.

/// The character drawn for each code, indexed by code. Codes 0x20 to 0x7E are ASCII;
/// code 0 is blank in REXPaint and shown as a space.
const TO_CHAR: [char; 256] = [
    // 0x00 – 0x0F
    ' ', '☺', '☻', '♥', '♦', '♣', '♠', '•', '◘', '○', '◙', '♂', '♀', '♪', '♫', '☼', // 0x10 – 0x1F
    '►', '◄', '↕', '‼', '¶', '§', '▬', '↨', '↑', '↓', '→', '←', '∟', '↔', '▲', '▼', // 0x20 – 0x2F
    ' ', '!', '"', '#', '$', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', '/', // 0x30 – 0x3F
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?', // 0x40 – 0x4F
    '@', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', // 0x50 – 0x5F
    'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', '[', '\\', ']', '^', '_', // 0x60 – 0x6F
    '`', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', // 0x70 – 0x7F
    'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', '{', '|', '}', '~', '⌂', // 0x80 – 0x8F
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', // 0x90 – 0x9F
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', // 0xA0 – 0xAF
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', // 0xB0 – 0xBF
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', // 0xC0 – 0xCF
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', // 0xD0 – 0xDF
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', // 0xE0 – 0xEF
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩',
    // 0xF0 – 0xFF (0xFF is a no-break space)
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{A0}',
];

/// How many codes draw a character outside printable ASCII: 0x01–0x1F and 0x7F–0xFF.
const NON_ASCII: usize = 31 + 129;

/// The non-ASCII characters with their codes, sorted by character for binary search.
/// Derived from [`TO_CHAR`] at compile time so the two cannot disagree.
const BY_CHAR: [(char, u8); NON_ASCII] = sorted_non_ascii();

const fn sorted_non_ascii() -> [(char, u8); NON_ASCII] {
    let mut table = [('\0', 0u8); NON_ASCII];
    let mut len = 0;
    let mut code = 1;
    while code < 256 {
        if code < 0x20 || code >= 0x7F {
            // Insertion sort: shift larger characters right, then place this one.
            let c = TO_CHAR[code];
            let mut i = len;
            while i > 0 && table[i - 1].0 as u32 > c as u32 {
                table[i] = table[i - 1];
                i -= 1;
            }
            table[i] = (c, code as u8);
            len += 1;
        }
        code += 1;
    }
    table
}

/// The character REXPaint's default font draws for glyph `code`, or `None` for codes
/// above 255. Code 0, which REXPaint leaves blank, gives a space.
pub fn to_char(code: u32) -> Option<char> {
    usize::try_from(code).ok().and_then(|i| TO_CHAR.get(i)).copied()
}

/// The glyph code that draws `c`, or `None` when code page 437 has no such character.
/// A space gives 32 (never 0).
pub fn from_char(c: char) -> Option<u32> {
    if (' '..='~').contains(&c) {
        return Some(u32::from(c));
    }
    BY_CHAR.binary_search_by_key(&c, |&(ch, _)| ch).ok().map(|i| u32::from(BY_CHAR[i].1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips() {
        for code in 1..=255 {
            let c = to_char(code).unwrap();
            assert_eq!(from_char(c), Some(code), "code {code:#04x} draws {c:?}");
        }
        assert_eq!(to_char(0), Some(' '));
        assert_eq!(from_char(' '), Some(32));
        assert_eq!(to_char(256), None);
        assert_eq!(to_char(u32::MAX), None);
    }

    #[test]
    fn characters_outside_the_code_page_have_no_code() {
        for c in ['\0', '\n', '\u{7f}', 'Ā', '€', '😀', '┏'] {
            assert_eq!(from_char(c), None, "{c:?}");
        }
    }

    #[test]
    fn the_reverse_table_is_strictly_sorted() {
        assert!(BY_CHAR.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(BY_CHAR.iter().all(|&(c, _)| !(' '..='~').contains(&c)));
    }

    #[test]
    fn well_known_glyphs() {
        let known = [
            (0xDB, '█'),
            (0xC4, '─'),
            (0xB3, '│'),
            (0xDA, '┌'),
            (0x18, '↑'),
            (0x19, '↓'),
            (0x1A, '→'),
            (0x1B, '←'),
            (0x10, '►'),
            (0x11, '◄'),
            (0x1E, '▲'),
            (0x1F, '▼'),
            (0x01, '☺'),
            (0xFA, '·'),
            (0xF9, '∙'),
            (0xFE, '■'),
            (0x7F, '⌂'),
            (0x80, 'Ç'),
            (0xFF, '\u{A0}'),
            (0x23, '#'),
            (0x40, '@'),
        ];
        for (code, c) in known {
            assert_eq!(to_char(code), Some(c), "{code:#04x}");
            assert_eq!(from_char(c), Some(code), "{c:?}");
        }
    }
}
