//! Reading one large TOML file in parts, on several threads.
//!
//! In: a file's text, and which lines may start a part (a top-level
//! `[[array]]` header, say). Out: each part deserialised on its own, in file
//! order, with the offset it starts at (its spans count from there) — or
//! nothing, when the file is too small to be worth splitting or any part does
//! not parse. Parts are small, so the parser's own copy of the document (some
//! thirty times the text) is only ever held for a few at once.
//!
//! Guarantee: a part list is only ever a faster way to the whole file's
//! reading. A line that looks like a header but is not one (inside a
//! multi-line string or array) leaves the part before it unterminated, so that
//! part fails and the caller reads the whole file as one, which also gives the
//! parser's own error for a file that is wrong. What parts cannot see (two
//! parts defining one table, say) the caller checks when it joins them, and
//! falls back the same way.
//!
//! Why by hand: the `toml` crate reads a document on one thread, about
//! 20-30 MB a second, holding all of it parsed (256 MB for a 7.5 MB file)
//! before it deserialises any; a catalog of 100,000 items is that size, so
//! its parse alone was most of a pack's loading time.

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use std::ops::Range;

/// Below this many bytes a file is read whole: the parts would not pay for
/// the threads. Parts are about this long, so the parser holds a few
/// megabytes of each at once.
const PART_LEN: usize = 256 * 1024;

/// Each part of `source` deserialised, in file order, with the offset it
/// starts at, or `None` when the file is read better whole (too small, no
/// place to split, one thread, a part that does not parse). A part starts at
/// a line for which `starts_part` (given the line without its leading spaces)
/// is true, except the first: whatever comes before the first such line,
/// empty when the file starts with one.
pub(crate) fn parse_toml_parts<T>(source: &str, starts_part: impl Fn(&str) -> bool) -> Option<Vec<(usize, T)>>
where
    T: DeserializeOwned + Send,
{
    // Asking rayon for its threads starts them: a small file never does.
    if source.len() < 2 * PART_LEN {
        return None;
    }
    parse_in_parts(source, rayon::current_num_threads(), PART_LEN, starts_part)
}

/// [`parse_toml_parts`] with the threads and the length of a part given.
fn parse_in_parts<T>(
    source: &str,
    threads: usize,
    part_len: usize,
    starts_part: impl Fn(&str) -> bool,
) -> Option<Vec<(usize, T)>>
where
    T: DeserializeOwned + Send,
{
    if threads < 2 || source.len() < 2 * part_len {
        return None;
    }
    let ranges = part_ranges(source, part_len, starts_part);
    if ranges.iter().filter(|range| !range.is_empty()).count() < 2 {
        return None;
    }
    ranges.into_par_iter().map(|range| Some((range.start, toml::from_str(&source[range]).ok()?))).collect()
}

/// `source` cut into ranges: the first is what comes before the first line
/// `starts_part` accepts (empty when the file starts with one), the others
/// start at such a line and are about `part_len` bytes long.
fn part_ranges(source: &str, part_len: usize, starts_part: impl Fn(&str) -> bool) -> Vec<Range<usize>> {
    let mut cuts = vec![0];
    let mut next_cut = 0;
    let mut line_start = 0;
    for line in source.split_inclusive('\n') {
        if line_start >= next_cut && starts_part(line.trim_start_matches([' ', '\t'])) {
            cuts.push(line_start);
            next_cut = line_start + part_len;
        }
        line_start += line.len();
    }
    cuts.push(source.len());
    cuts.windows(2).map(|w| w[0]..w[1]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;
    use toml::Spanned;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Doc {
        #[serde(default)]
        item: Vec<Spanned<Item>>,
        #[serde(default)]
        other: BTreeMap<String, String>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Item {
        tag: Spanned<String>,
    }

    fn items(n: usize) -> String {
        (0..n).map(|i| format!("[[item]]\ntag = \"item_{i:06}\"\n\n")).collect()
    }

    fn is_item(line: &str) -> bool {
        line.starts_with("[[item]]")
    }

    #[test]
    fn parts_read_as_the_whole_file_spans_included() {
        let source = format!("[other]\na = \"b\"\n\n{}", items(40_000));
        let whole: Doc = toml::from_str(&source).unwrap();
        let parts: Vec<(usize, Doc)> = parse_in_parts(&source, 4, 300_000, is_item).expect("read in parts");
        assert_eq!(parts.len(), 5, "what comes before the first item, then four parts");
        assert!(parts[0].1.item.is_empty() && parts[1..].iter().all(|(_, part)| part.other.is_empty()));
        let mut items = Vec::new();
        for (offset, part) in &parts {
            let from = |span: Range<usize>| offset + span.start..offset + span.end;
            items.extend(
                part.item
                    .iter()
                    .map(|item| (from(item.span()), from(item.get_ref().tag.span()), item.get_ref().tag.get_ref())),
            );
        }
        assert_eq!(items.len(), 40_000);
        for (a, b) in items.iter().zip(&whole.item) {
            assert_eq!((&a.0, &a.1, a.2), (&b.span(), &b.get_ref().tag.span(), b.get_ref().tag.get_ref()));
        }
        assert_eq!(parts[0].1.other, whole.other);
    }

    #[test]
    fn a_header_inside_a_multi_line_string_fails_its_part() {
        // Every line that looks like a header is inside one string, so the
        // part before any cut is unterminated: the caller must read it whole.
        let body: String = (0..60_000).map(|i| format!("[[item]]\ntag = \"{i}\"\n")).collect();
        let source = format!("[other]\nlong = \"\"\"\n{body}\"\"\"\n");
        assert!(toml::from_str::<Doc>(&source).is_ok());
        assert!(parse_in_parts::<Doc>(&source, 4, PART_LEN, is_item).is_none());
    }

    #[test]
    fn small_files_are_read_whole() {
        assert!(parse_in_parts::<Doc>(&items(10), 4, PART_LEN, is_item).is_none());
        assert!(parse_in_parts::<Doc>(&items(40_000), 1, PART_LEN, is_item).is_none());
    }

    #[test]
    fn cuts_fall_on_accepted_lines_only() {
        let source = items(100);
        let ranges = part_ranges(&source, 300, is_item);
        assert!(ranges.len() > 2);
        assert_eq!(ranges[0], 0..0, "the file starts with a header: nothing comes before it");
        assert_eq!(ranges.last().map(|r| r.end), Some(source.len()));
        for pair in ranges.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
            assert!(source[pair[1].clone()].starts_with("[[item]]"));
        }
    }
}
