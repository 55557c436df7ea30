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

mod toml_parts;
pub(crate) use toml_parts::parse_toml_parts;

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
/// be a likely typo: within a third of the word's length (at least one edit),
/// the first of the closest in the order given: the "did you mean" of every
/// error message prefabric writes, for tools that want theirs to agree. (Inside
/// the crate, a caller that asks about many words keeps a `Suggester` instead.)
///
/// ```
/// assert_eq!(prefabric::format::suggest("SHUFLE", ["SUBST", "NSUBST", "SHUFFLE"]), Some("SHUFFLE"));
/// assert_eq!(prefabric::format::suggest("LUA", ["SUBST", "NSUBST"]), None);
/// ```
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    Suggester::new(candidates).suggest(word)
}

/// Candidate words made ready for many "did you mean" questions: sorted by
/// length, each with the set of characters it uses, so a question measures the
/// distance only to the few candidates that could be close enough. A pool of
/// 100,000 misspelt names costs microseconds a name, not a pass over every
/// prefab's name with a fresh table each.
///
/// [`Suggester::suggest`] gives what a measure of every candidate in the order
/// given would: the closest within the limit, the first of them on a tie.
pub(crate) struct Suggester<'a> {
    /// The candidates by length in characters, then in the order given.
    entries: Vec<Entry<'a>>,
    /// Every candidate's characters, end to end (`Entry::start` indexes here).
    chars: Vec<char>,
}

/// One candidate of a [`Suggester`].
#[derive(Clone, Copy)]
struct Entry<'a> {
    word: &'a str,
    /// Its length in characters.
    len: usize,
    /// Where its characters start in `Suggester::chars`.
    start: usize,
    /// The characters it uses, one bit per class (see [`char_bit`]).
    uses: u64,
    /// Its place in the order given.
    order: usize,
}

impl<'a> Suggester<'a> {
    /// Indexes `candidates` (kept in the order given for ties).
    pub(crate) fn new(candidates: impl IntoIterator<Item = &'a str>) -> Suggester<'a> {
        let mut chars = Vec::new();
        let mut entries: Vec<Entry<'a>> = candidates
            .into_iter()
            .enumerate()
            .map(|(order, word)| {
                let start = chars.len();
                chars.extend(word.chars());
                let len = chars.len() - start;
                Entry { word, len, start, uses: char_set(&chars[start..]), order }
            })
            .collect();
        // Stable: the order given is kept within a length.
        entries.sort_by_key(|e| e.len);
        Suggester { entries, chars }
    }

    /// The candidate closest to `word` by edit distance, if it is close enough
    /// to be a likely typo (see [`suggest`]).
    pub(crate) fn suggest(&self, word: &str) -> Option<&'a str> {
        let word: Vec<char> = word.chars().collect();
        let n = word.len();
        let limit = (n / 3).max(1);
        let uses = char_set(&word);
        let mut counts = [0u32; 64];
        for &c in &word {
            counts[char_bit(c) as usize] += 1;
        }
        let mut rows = Rows::default();
        // (distance, order, candidate) of the best so far.
        let mut best: Option<(usize, usize, &'a str)> = None;
        // A candidate whose length differs by more than the limit is more
        // edits away than that.
        let first = self.entries.partition_point(|e| e.len < n.saturating_sub(limit));
        for e in self.entries[first..].iter().take_while(|e| e.len <= n + limit) {
            // The most edits that could still win: within the limit, and no
            // more than the best so far (as many wins only from earlier).
            let cap = best.map_or(limit, |(d, ..)| d);
            // Each character one word has and the other lacks takes an edit
            // of its own, and so does each character of length between them.
            let missing = (uses & !e.uses).count_ones().max((e.uses & !uses).count_ones()) as usize;
            let bound = missing.max(e.len.abs_diff(n));
            let loses = |bound: usize| bound > cap || best.is_some_and(|(d, order, _)| bound == d && e.order > order);
            if loses(bound) {
                continue;
            }
            let candidate = &self.chars[e.start..e.start + e.len];
            // Closer: each character of one word left over when the other's
            // are matched against it, count for count, takes an edit.
            let mut left = counts;
            let unmatched = candidate.iter().filter(|&&c| !take(&mut left, c)).count();
            if loses(unmatched.max(n - (e.len - unmatched))) {
                continue;
            }
            let d = distance(&word, candidate, cap, &mut rows);
            if d <= cap && best.is_none_or(|(bd, bo, _)| (d, e.order) < (bd, bo)) {
                best = Some((d, e.order, e.word));
            }
        }
        best.map(|(.., c)| c)
    }
}

/// The bit standing for `c` in a set of characters: letters, digits and `_`
/// each their own, the rest sharing the last bits. Two characters sharing a bit
/// only make the set's bound on the distance lower, never wrong.
fn char_bit(c: char) -> u32 {
    match c {
        'a'..='z' => c as u32 - 'a' as u32,
        'A'..='Z' => 26 + (c as u32 - 'A' as u32),
        '0'..='9' => 52 + (c as u32 - '0' as u32),
        '_' => 62,
        _ => 63,
    }
}

/// Takes one `c` from `counts` (characters counted by [`char_bit`]), if one is left.
fn take(counts: &mut [u32; 64], c: char) -> bool {
    let count = &mut counts[char_bit(c) as usize];
    let some = *count > 0;
    *count -= u32::from(some);
    some
}

/// The set of characters `word` uses, as bits.
fn char_set(word: &[char]) -> u64 {
    word.iter().fold(0, |set, &c| set | 1 << char_bit(c))
}

/// Edit distance over characters, a swap of two neighbouring characters
/// counting as one edit (optimal string alignment): `materail` is two edits
/// from `materials`, as a typist would count it, not three.
#[cfg(test)]
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    distance(&a, &b, usize::MAX, &mut Rows::default())
}

/// Three rows of the distance table, kept from one candidate to the next.
#[derive(Default)]
struct Rows {
    before: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

/// The edit distance of `a` and `b` (swaps of neighbours included) when it is
/// at most `cap`; more than `cap` otherwise, found as soon as two rows of the
/// table are past it (no later row can come back below: each cell is at least
/// the least of the row before, or of the one before that plus one).
fn distance(a: &[char], b: &[char], cap: usize, rows: &mut Rows) -> usize {
    let Rows { before, prev, cur } = rows;
    // Three rows of the distance table: two rows back (for swaps), the last, this one.
    before.clear();
    before.resize(b.len() + 1, 0);
    prev.clear();
    prev.extend(0..=b.len());
    cur.clear();
    cur.resize(b.len() + 1, 0);
    let mut prev_least = 0;
    for (i, &ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        let mut least = cur[0];
        for (j, &cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            let mut best = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && ca == b[j - 1] && a[i - 1] == cb {
                best = best.min(before[j - 1] + 1);
            }
            cur[j + 1] = best;
            least = least.min(best);
        }
        std::mem::swap(before, prev);
        std::mem::swap(prev, cur);
        if least > cap && prev_least > cap {
            return cap.saturating_add(1);
        }
        prev_least = least;
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

    /// The search as it was before the index: every candidate measured, in the
    /// order given, the first of the closest kept.
    fn linear_suggest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let limit = (word.chars().count() / 3).max(1);
        candidates
            .iter()
            .map(|c| (linear_edit_distance(word, c), *c))
            .filter(|(d, _)| *d <= limit)
            .min_by_key(|(d, _)| *d)
            .map(|(_, c)| c)
    }

    /// The distance as it was measured before, a whole table each time.
    fn linear_edit_distance(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
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

    /// Names from a few letters (so many are close and ties are common), with
    /// a capital, a digit, `_` and a letter past ASCII among them.
    fn name() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::string::string_regex("[abcAé1_]{0,9}").expect("a valid pattern")
    }

    proptest::proptest! {
        #[test]
        fn the_indexed_search_suggests_what_measuring_every_candidate_does(
            candidates in proptest::collection::vec(name(), 0..60),
            words in proptest::collection::vec(name(), 1..20),
        ) {
            let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
            let index = Suggester::new(candidates.iter().copied());
            for word in &words {
                let expected = linear_suggest(word, &candidates);
                proptest::prop_assert_eq!(index.suggest(word), expected, "word {:?}", word);
                proptest::prop_assert_eq!(suggest(word, candidates.iter().copied()), expected);
            }
            for pair in candidates.windows(2) {
                proptest::prop_assert_eq!(edit_distance(pair[0], pair[1]), linear_edit_distance(pair[0], pair[1]));
            }
        }
    }

    #[test]
    fn the_indexed_search_agrees_on_many_pack_like_names() {
        // Names as packs write them, and misspellings of them: dropped,
        // doubled, swapped and changed letters, and words near none.
        let mut rng = crate::rng::Rng::stream(54, "test", "suggest");
        let syllables = ["gu", "est", "room", "twin", "su", "ite", "lib", "ra", "ry", "kit", "chen", "_", "hall"];
        let mut word =
            |parts: u32| -> String { (0..parts).map(|_| *rng.pick(&syllables).expect("syllables")).collect() };
        let candidates: Vec<String> = (0..400).map(|i| word(1 + i % 5)).collect();
        let words: Vec<String> = (0..400).map(|i| word(1 + i % 6)).collect();
        let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
        let index = Suggester::new(candidates.iter().copied());
        let mut found = 0;
        for word in &words {
            let mut typos = vec![word.clone()];
            let chars: Vec<char> = word.chars().collect();
            for i in 0..chars.len() {
                let mut dropped = chars.clone();
                dropped.remove(i);
                typos.push(dropped.iter().collect());
                if i + 1 < chars.len() {
                    let mut swapped = chars.clone();
                    swapped.swap(i, i + 1);
                    typos.push(swapped.iter().collect());
                }
            }
            for typo in &typos {
                let expected = linear_suggest(typo, &candidates);
                found += usize::from(expected.is_some());
                assert_eq!(index.suggest(typo), expected, "{typo:?}");
            }
        }
        assert!(found > 1000, "most of the misspellings have a suggestion: {found}");
    }
}
