//! The line-based text prefab syntax, read into raw blocks.
//!
//! A file holds one or more prefabs. Each starts with `prefab NAME`, then header
//! lines `key: value`, then one or more layers: a layer line (`terrain:`, `links:`,
//! `machines:` or `refs:`) followed by the grid's rows. A grid ends at a blank line, the end of the file, the
//! next layer line or the next `prefab` line. Outside grids, lines starting with `#`
//! are comments, as is anything after ` #` on a header line.
//!
//! ```text
//! # A small storeroom, entered from the south.
//! prefab storeroom
//! tags: store small
//! transforms: all
//! terrain:
//! #####
//! #...#
//! ##+##
//! links:
//! .....
//! .....
//! ..1..
//! refs:
//! .....
//! .a.1.
//! .....
//! ```
//!
//! This module only splits the text into [`RawPrefab`]s with the line and column of
//! every piece; it knows nothing of glyph meanings. Sizes are checked against
//! [`Limits`] as rows are read, so a huge file fails fast.

use crate::error::{Error, ErrorKind, Location};
use crate::limits::Limits;

const LIMIT_HELP: &str = "prefabs are limited by Limits::max_prefab_side";

/// The names a layer line may have.
pub const LAYER_NAMES: [&str; 5] = ["terrain", "links", "machines", "refs", "mask"];

/// A piece of text and where it starts (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<'a> {
    /// The text.
    pub text: &'a str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column of the first character.
    pub col: u32,
}

/// A `key: value` header line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field<'a> {
    /// The key, as written.
    pub key: Located<'a>,
    /// The value, trimmed, without a trailing comment.
    pub value: Located<'a>,
    /// The value, trimmed, with anything that looks like a trailing comment kept
    /// (variation lines, where `#` is a glyph, read this).
    pub whole_value: Located<'a>,
}

/// A grid: a layer line and its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layer<'a> {
    /// The layer's name (one of [`LAYER_NAMES`]) and where the line is.
    pub name: Located<'a>,
    /// The rows in order, trailing whitespace removed; each starts at column 1.
    pub rows: Vec<Located<'a>>,
    /// Rows over the size limit: reported (once per layer) and left out.
    pub dropped_rows: usize,
}

/// One prefab as written: name, header fields and layers, all with locations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawPrefab<'a> {
    /// The name after `prefab`.
    pub name: Located<'a>,
    /// Header fields in order.
    pub fields: Vec<Field<'a>>,
    /// Layers in order.
    pub layers: Vec<Layer<'a>>,
}

/// Splits `source` into raw prefabs. Returns every prefab that could be read and
/// every syntax error found; `file` is used in error locations.
pub fn parse<'a>(file: &str, source: &'a str, limits: &Limits) -> (Vec<RawPrefab<'a>>, Vec<Error>) {
    let mut parser = Parser { file, limits, prefabs: Vec::new(), errors: Vec::new() };
    // Some editors start UTF-8 files with a byte order mark; it is not text.
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    parser.run(source);
    (parser.prefabs, parser.errors)
}

struct Parser<'f, 'a> {
    file: &'f str,
    limits: &'f Limits,
    prefabs: Vec<RawPrefab<'a>>,
    errors: Vec<Error>,
}

/// Lines of the source with their 1-based numbers, `\r` removed.
fn numbered_lines(source: &str) -> impl Iterator<Item = (u32, &str)> {
    source.split('\n').enumerate().map(|(i, line)| {
        let line = line.strip_suffix('\r').unwrap_or(line);
        (u32::try_from(i + 1).unwrap_or(u32::MAX), line)
    })
}

fn col_of(line: &str, sub: &str) -> u32 {
    let offset = sub.as_ptr() as usize - line.as_ptr() as usize;
    u32::try_from(line[..offset].chars().count() + 1).unwrap_or(u32::MAX)
}

/// The layer name if `line` is a layer line such as `terrain:`.
fn layer_line(line: &str) -> Option<&str> {
    let name = line.trim().strip_suffix(':')?;
    LAYER_NAMES.contains(&name).then_some(name)
}

fn is_prefab_line(line: &str) -> bool {
    line.trim_start().strip_prefix("prefab").is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

/// What becomes of a grid row.
enum RowCheck {
    Kept,
    TooWide,
    TooTall,
}

impl<'a> Parser<'_, 'a> {
    fn error(&mut self, line: u32, col: u32, message: impl Into<String>, help: Option<&str>) {
        let mut e = Error::at(ErrorKind::Syntax, Location::at(self.file, line, col), message);
        if let Some(help) = help {
            e = e.with_help(help);
        }
        self.errors.push(e);
    }

    fn run(&mut self, source: &'a str) {
        let mut lines = numbered_lines(source).peekable();
        while let Some((n, line)) = lines.next() {
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if is_prefab_line(line) {
                if !self.start_prefab(n, line) {
                    return;
                }
                continue;
            }
            if self.prefabs.is_empty() {
                let help = "every prefab starts with a line like `prefab storeroom`";
                self.error(n, col_of(line, trimmed), "expected `prefab NAME` before anything else", Some(help));
                // Skip to the next prefab line so one mistake gives one error.
                while lines.peek().is_some_and(|(_, l)| !is_prefab_line(l)) {
                    lines.next();
                }
                continue;
            }
            if let Some(name) = layer_line(line) {
                let mut rows = Vec::new();
                let (mut seen, mut dropped_rows) = (0, 0);
                let mut first_wide: Option<u32> = None;
                while let Some((rn, row)) = lines.peek().copied() {
                    let row = row.trim_end();
                    if row.is_empty() || layer_line(row).is_some() || is_prefab_line(row) {
                        break;
                    }
                    lines.next();
                    seen += 1;
                    match self.check_row(rn, row, seen) {
                        RowCheck::Kept => rows.push(Located { text: row, line: rn, col: 1 }),
                        RowCheck::TooWide => {
                            first_wide.get_or_insert(rn);
                            dropped_rows += 1;
                        }
                        RowCheck::TooTall => dropped_rows += 1,
                    }
                }
                if let Some(first) = first_wide {
                    self.report_wide_rows(first, seen.min(self.limits.max_prefab_side as usize), rows.len());
                }
                let located = Located { text: name, line: n, col: col_of(line, trimmed) };
                if let Some(prefab) = self.prefabs.last_mut() {
                    prefab.layers.push(Layer { name: located, rows, dropped_rows });
                }
                continue;
            }
            self.field(n, line);
        }
    }

    /// Starts a prefab; false (after reporting it) when the file holds more than
    /// the limit allows, and reading must stop.
    fn start_prefab(&mut self, n: u32, line: &'a str) -> bool {
        if self.prefabs.len() >= self.limits.max_prefabs_per_file as usize {
            let max = self.limits.max_prefabs_per_file;
            let e = Error::at(
                ErrorKind::Limit,
                Location::at(self.file, n, 1),
                format!("more than {max} prefabs in one file"),
            )
            .with_help("split the file, or raise Limits::max_prefabs_per_file");
            self.errors.push(e);
            return false;
        }
        let rest = line.trim_start().trim_start_matches("prefab");
        let name = rest.trim();
        let name = name.split_once(" #").map_or(name, |(n, _)| n.trim_end());
        // Whether the name is a valid one is the prefab builder's call.
        let col = if name.is_empty() { col_of(line, rest) } else { col_of(line, name) };
        self.prefabs.push(RawPrefab { name: Located { text: name, line: n, col }, fields: vec![], layers: vec![] });
        true
    }

    /// Checks the size of a grid's `number`th row (1-based): kept, or dropped as
    /// too wide (reported once per layer by the caller) or past the tallest grid
    /// (reported here, once).
    fn check_row(&mut self, n: u32, row: &str, number: usize) -> RowCheck {
        let max = self.limits.max_prefab_side as usize;
        if number == max + 1 {
            self.error(n, 1, format!("grid is taller than {max} rows"), Some(LIMIT_HELP));
        }
        if number > max {
            return RowCheck::TooTall;
        }
        // Check bytes first so a megabyte-long line is not walked char by char.
        if row.len() > max * 4 || row.chars().count() > max {
            return RowCheck::TooWide;
        }
        RowCheck::Kept
    }

    /// One error for a layer's rows over the width limit, at the first of them.
    fn report_wide_rows(&mut self, first: u32, rows: usize, kept: usize) {
        let max = self.limits.max_prefab_side;
        let wide = rows - kept;
        let others = match wide {
            1 => String::new(),
            2 => " (and 1 more row of this layer)".to_string(),
            n => format!(" (and {} more rows of this layer)", n - 1),
        };
        self.error(first, 1, format!("row is wider than {max} cells{others}"), Some(LIMIT_HELP));
    }

    fn field(&mut self, n: u32, line: &'a str) {
        let trimmed = line.trim();
        let Some((key, value)) = trimmed.split_once(':') else {
            let col = col_of(line, trimmed);
            let help = if trimmed.chars().all(|c| !c.is_alphanumeric() || c.is_ascii_digit()) {
                "this looks like a grid row: start the grid with a line `terrain:`"
            } else {
                "header lines look like `tags: small store`; grids start with a layer line such as `terrain:`"
            };
            self.error(n, col, format!("expected `key: value` or a layer line, found `{trimmed}`"), Some(help));
            return;
        };
        let key = key.trim_end();
        let value = value.trim();
        let whole_value = Located { text: value, line: n, col: col_of(line, value) };
        let value = match value.find(" #") {
            Some(i) => value[..i].trim_end(),
            None if value.starts_with('#') => &value[..0],
            None => value,
        };
        if key.is_empty() || key.contains(char::is_whitespace) {
            let col = col_of(line, trimmed);
            self.error(n, col, format!("`{key}` is not a header key"), None);
            return;
        }
        let field = Field {
            key: Located { text: key, line: n, col: col_of(line, key) },
            value: Located { text: value, line: n, col: col_of(line, value) },
            whole_value,
        };
        if let Some(prefab) = self.prefabs.last_mut() {
            prefab.fields.push(field);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(src: &str) -> Vec<RawPrefab<'_>> {
        let (prefabs, errors) = parse("t.txt", src, &Limits::default());
        assert!(errors.is_empty(), "{errors:?}");
        prefabs
    }

    #[test]
    fn splits_prefabs_fields_and_layers() {
        let src = "# comment\nprefab a\ntags: x y # trailing\n\nterrain:\n##\n#.  \nlinks:\n..\n.1\n\nprefab b\nterrain:\n.\n";
        let p = parse_ok(src);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].name, Located { text: "a", line: 2, col: 8 });
        assert_eq!(p[0].fields[0].key.text, "tags");
        assert_eq!(p[0].fields[0].value, Located { text: "x y", line: 3, col: 7 });
        assert_eq!(p[0].layers.len(), 2);
        assert_eq!(p[0].layers[0].rows.iter().map(|r| r.text).collect::<Vec<_>>(), ["##", "#."]);
        assert_eq!(p[0].layers[1].name.text, "links");
        assert_eq!(p[0].layers[1].rows[1], Located { text: ".1", line: 10, col: 1 });
        assert_eq!(p[1].layers[0].rows.len(), 1);
    }

    #[test]
    fn crlf_and_grid_ending_at_next_prefab() {
        let p = parse_ok("prefab a\r\nterrain:\r\n#\r\nprefab b\r\nterrain:\r\n.");
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].layers[0].rows[0].text, "#");
        assert_eq!(p[1].layers[0].rows[0].text, ".");
    }

    #[test]
    fn errors_are_located_and_helpful() {
        let (prefabs, errors) = parse("t.txt", "tags: a\nprefab\n###\n", &Limits::default());
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(text.len(), 1, "{text:?}");
        assert!(text[0].starts_with("t.txt:1:1: syntax error: expected `prefab NAME`"), "{text:?}");
        // The nameless prefab is kept for the prefab builder to judge.
        assert_eq!(prefabs[0].name, Located { text: "", line: 2, col: 7 });
    }

    #[test]
    fn a_forgotten_layer_line_is_explained() {
        let (_, errors) = parse("t.txt", "prefab a\n#.#\n", &Limits::default());
        // `#.#` outside a grid is a comment, so nothing is wrong yet at this level;
        // the prefab stage reports the missing terrain layer.
        assert!(errors.is_empty());
        let (_, errors) = parse("t.txt", "prefab a\n.#.\n", &Limits::default());
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].help(), Some("this looks like a grid row: start the grid with a line `terrain:`"));
    }

    #[test]
    fn oversized_grids_stop_early() {
        let limits = Limits { max_prefab_side: 4, ..Limits::default() };
        let src = format!("prefab a\nterrain:\n{}\n", "#".repeat(10));
        let (_, errors) = parse("t.txt", &src, &limits);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].to_string().contains("row is wider than 4 cells"));
        let src = format!("prefab a\nterrain:\n{}", "#\n".repeat(10));
        let (p, errors) = parse("t.txt", &src, &limits);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(p[0].layers[0].rows.len(), 4);
    }
}
