//! Readers for the file formats content is written in.
//!
//! Each reader turns bytes or text into plain data plus located errors and knows
//! nothing of packs or generation: [`text`] reads the line-based prefab syntax into
//! raw blocks, [`palette`] reads `palette.toml`, [`xp`] reads and writes REXPaint
//! `.xp` images, whose glyph codes [`cp437`] turns into characters and back. The
//! [`prefab`](crate::prefab) and [`content`](crate::content) modules give the raw data
//! its meaning.

pub mod cp437;
pub mod def;
pub mod palette;
pub mod text;
pub mod xp;

use crate::error::{Error, ErrorKind, Location};
use serde::de::DeserializeOwned;

/// Deserialises TOML, turning the parser's byte span into `file:line:col` (a
/// recursion-limit error without one at the line nested deepest); a misspelt
/// key gets the key it was probably meant to be as help.
pub(crate) fn parse_toml<T: DeserializeOwned>(file: &str, source: &str) -> Result<T, Error> {
    toml::from_str(source).map_err(|e| {
        let location = match e.span() {
            Some(span) => Location::at_offset(file, source, span.start),
            // The parser's recursion limit on a dotted key comes without a
            // place: the line nested deepest is where it was passed.
            None if e.message().contains("recursion") => Location::at_offset(file, source, deepest_line(source)),
            None => Location::file(file),
        };
        let message = e.message().trim_end().to_string();
        let help = unknown_key_help(&message);
        let error = Error::at(ErrorKind::Syntax, location, message);
        match help {
            Some(help) => error.with_help(help),
            None => error,
        }
    })
}

/// The offset of the start of the line with the most nesting: dots, brackets
/// and braces (strings are not told apart: this only points at a line).
fn deepest_line(source: &str) -> usize {
    let mut best = (0, 0);
    let mut start = 0;
    for line in source.split_inclusive('\n') {
        let depth = line.bytes().filter(|b| matches!(b, b'.' | b'[' | b'{')).count();
        if depth > best.0 {
            best = (depth, start);
        }
        start += line.len();
    }
    best.1
}

/// "did you mean `x`?" for serde's "unknown field `y`, expected one of `x`, …"
/// (or "expected `x`"; the same for an unknown variant, a value), when one of
/// the words it lists is close to the one written.
fn unknown_key_help(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `").or_else(|| message.strip_prefix("unknown variant `"))?;
    let (written, expected) = rest.split_once('`')?;
    // The expected keys are the backquoted words after the unknown one.
    let keys = expected.split('`').skip(1).step_by(2);
    suggest(written, keys).map(|key| format!("did you mean `{key}`?"))
}

/// "a" or "an", as said before the number `n` written in digits: "an 8-cell
/// hallway", "an 11-cell hallway", "a 12-cell hallway".
pub(crate) fn article_before_number(n: usize) -> &'static str {
    // A number is said from its leading group of thousands: 8,500 as "eight
    // thousand …", 11,000 as "eleven thousand".
    let mut lead = n;
    while lead >= 1000 {
        lead /= 1000;
    }
    if matches!(lead, 8 | 11 | 18 | 80..=89 | 800..=899) { "an" } else { "a" }
}

/// "a" or "an" before `word`, by its first letter: "an item", "a trap".
pub(crate) fn article_before_word(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// The closest of `candidates` to `word` by edit distance, if it is close enough to
/// be a likely typo.
pub(crate) fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Edit distance over characters, a swap of two neighbouring characters
/// counting as one edit (optimal string alignment): `materail` is two edits
/// from `materials`, as a typist would count it, not three.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the distance table: two rows back (for swaps), the last, this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            let mut best = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && ca == b[j - 1] && a[i - 1] == cb {
                best = best.min(before[j - 1] + 1);
            }
            cur[j + 1] = best;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_said_with_a_vowel_take_an() {
        let an: Vec<usize> = (0..2000).filter(|&n| article_before_number(n) == "an").collect();
        let mut expected = vec![8, 11, 18];
        expected.extend(80..90);
        expected.extend(800..900);
        assert_eq!(an, expected);
        assert_eq!(article_before_number(8_500), "an");
        assert_eq!(article_before_number(11_000), "an");
        assert_eq!(article_before_number(18_200), "an");
        assert_eq!(article_before_number(12_000), "a");
        assert_eq!(article_before_number(1_100), "a");
        assert_eq!(article_before_word("item"), "an");
        assert_eq!(article_before_word("entity"), "an");
        assert_eq!(article_before_word("trap"), "a");
    }

    #[test]
    fn a_misspelt_toml_key_is_told_the_key_it_was_meant_to_be() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct T {
            width: Option<u32>,
            height: Option<u32>,
            generator: Option<String>,
        }
        let e = parse_toml::<T>("t.toml", "widht = 3\n").unwrap_err();
        assert_eq!(e.help(), Some("did you mean `width`?"), "{e}");
        assert_eq!(e.location().map(|l| (l.line, l.col)), Some((1, 1)));
        let e = parse_toml::<T>("t.toml", "colour = 3\n").unwrap_err();
        assert_eq!(e.help(), None, "nothing close: {e}");
        assert_eq!(unknown_key_help("unknown field `nme`, expected `name`"), Some("did you mean `name`?".into()));
        assert_eq!(
            unknown_key_help("unknown variant `tunneler`, expected one of `tunnelers`, `chain`"),
            Some("did you mean `tunnelers`?".into())
        );
    }

    #[test]
    fn nesting_past_the_parsers_limit_is_located_at_its_line() {
        // Arrays and inline tables come with a place; a dotted key 100,000 deep
        // does not, and is put at the line it is on.
        let deep_key = format!("name = 1\n\n[{}]\nx = 1\n", vec!["a"; 100_000].join("."));
        let e = parse_toml::<toml::Table>("t.toml", &deep_key).unwrap_err();
        assert!(e.to_string().contains("recursion"), "{e}");
        assert_eq!(e.location().map(|l| (l.line, l.col)), Some((3, 1)), "{e}");
        for deep in [
            format!("x = {}{}\n", "[".repeat(100_000), "]".repeat(100_000)),
            format!("name = 1\ny = {}1{}\n", "{a=".repeat(100_000), "}".repeat(100_000)),
        ] {
            let e = parse_toml::<toml::Table>("t.toml", &deep).unwrap_err();
            assert!(e.location().is_some_and(|l| l.line > 0), "{e}");
        }
    }

    #[test]
    fn suggestions_catch_typos_only() {
        assert_eq!(suggest("tansforms", ["tags", "transforms", "style"]), Some("transforms"));
        assert_eq!(suggest("colour", ["tags", "transforms", "style"]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(suggest("materail", ["catacombs", "materials", "mines"]), Some("materials"));
        assert_eq!(edit_distance("materail", "material"), 1, "a swap of neighbours is one edit");
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("abc", "ca"), 3, "no substring is edited twice");
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
