//! Reading Dungeon Crawl Stone Soup `.des` files into located maps.
//!
//! In: the text of one `.des` file and its name. Out: every map definition in
//! it — its name, header lines (continuations joined), its `MAP` grid, the
//! file's `default-depth` in force, and every place it uses Lua — each piece
//! with the line and column it was read from; and every line the reader could
//! not make sense of, as an error at its `file:line:col`. Nothing here knows
//! what a header means: [`super::translate`] decides that.
//!
//! Guarantees: the reader never panics and always ends; a map's grid is
//! checked against [`MAX_SIDE`] row by row as it is read, and a file holds at
//! most [`MAX_MAPS`] maps, so a hostile file costs an error, not memory. A map
//! whose own lines are malformed (a `MAP` without `ENDMAP`, a grid too large)
//! carries the error in [`DesMap::broken`] and the rest of the file is still read.
//!
//! The syntax, in our words (see the project's `reference/des.md`): `#` at the
//! start of a line outside a grid is a comment; `NAME:` starts a map; header
//! lines are `KEY: value`, a trailing `\` continuing the value on the next
//! line; `MAP` … `ENDMAP` holds the grid verbatim; `: code` lines and `{{ … }}`
//! blocks (also `lua {{`, `prelude {{`, `epilogue {{`, `veto {{`,
//! `validate {{`) are Lua; `default-depth:` between maps sets the depth of the
//! maps after it.

use prefabric::error::{Error, ErrorKind, Location};

/// The longest side of a grid the reader accepts (DCSS levels are 80x70).
pub const MAX_SIDE: usize = 200;

/// The most maps one file may hold (the largest DCSS file has a few hundred).
pub const MAX_MAPS: usize = 10_000;

/// The longest header value, continuations joined, in bytes.
const MAX_VALUE_BYTES: usize = 16 * 1024;

/// Every header key DCSS's loader knows (its level-design `syntax.txt`): those
/// the importer translates, drops as cosmetic, counts as a loss or skips a map
/// for alike. A header with another key is a misspelling DCSS would refuse,
/// warned about with the closest of these.
pub const DIRECTIVES: [&str; 33] = [
    "NAME",
    "default-depth",
    "DESC",
    "ORDER",
    "TAGS",
    "DEPTH",
    "PLACE",
    "ORIENT",
    "WEIGHT",
    "CHANCE",
    "MONS",
    "ITEM",
    "SUBST",
    "NSUBST",
    "SHUFFLE",
    "CLEAR",
    "KFEAT",
    "KMONS",
    "KITEM",
    "KMASK",
    "KPROP",
    "MARKER",
    "SUBVAULT",
    "COLOUR",
    "FTILE",
    "RTILE",
    "TILE",
    "LFLOORCOL",
    "LROCKCOL",
    "LFLOORTILE",
    "LROCKTILE",
    "FHEIGHT",
    "WELCOME",
];

/// One header line: its key as written (upper case) and its value, with the
/// place each starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The key, e.g. `SUBST`.
    pub key: String,
    /// The value, trimmed, continuation lines joined.
    pub value: String,
    /// Where the key starts.
    pub at: Location,
    /// The column where the value starts on the key's line.
    pub value_col: u32,
}

/// Where and how a map uses Lua.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LuaUse {
    /// What it is: `: line`, `{{ block }}`, `epilogue block`, `MARKER lua:` …
    pub what: String,
    /// Where it starts.
    pub at: Location,
}

/// One map definition, from its `NAME:` line to the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesMap {
    /// Its name.
    pub name: String,
    /// Where its `NAME:` line is.
    pub at: Location,
    /// Its header lines in the order written.
    pub headers: Vec<Header>,
    /// Its grid rows as written (rows may differ in length).
    pub grid: Vec<String>,
    /// The line of its `MAP` keyword, when it has a grid.
    pub grid_line: Option<u32>,
    /// The file's `default-depth:` in force where the map starts.
    pub default_depth: Option<Header>,
    /// Every place the map uses Lua.
    pub lua: Vec<LuaUse>,
    /// Why the map cannot be used, when its own lines are malformed.
    pub broken: Option<Error>,
}

impl DesMap {
    /// The header lines with this key, in order.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a Header> + 'a {
        self.headers.iter().filter(move |h| h.key == key)
    }

    /// The first header line with this key.
    pub fn first(&self, key: &str) -> Option<&Header> {
        self.headers.iter().find(|h| h.key == key)
    }
}

/// A read file: its maps, the lines that made no sense, and warnings.
#[derive(Clone, Debug, Default)]
pub struct DesFile {
    /// The maps, in file order.
    pub maps: Vec<DesMap>,
    /// Lines outside any map's own lines that could not be read.
    pub errors: Vec<Error>,
    /// Header lines whose key is no directive DCSS knows (a misspelt keyword),
    /// each at its key with the directive probably meant.
    pub warnings: Vec<Error>,
}

/// What the reader is in the middle of.
enum Mode {
    /// Header lines, comments, Lua lines.
    Lines,
    /// A grid, since the `MAP` line at this line.
    Grid(u32),
    /// A Lua block, since this place.
    Lua(LuaUse),
}

/// Reads one `.des` file. `file` is how errors name it.
pub fn read(file: &str, text: &str) -> DesFile {
    let mut out = DesFile::default();
    let mut mode = Mode::Lines;
    let mut default_depth: Option<Header> = None;
    // A header whose value ends in `\`: the key and what is read so far.
    let mut open: Option<Header> = None;
    let mut n = 0u32;
    for raw in text.split('\n') {
        n += 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let at = |col: u32| Location::at(file, n, col);
        match &mut mode {
            Mode::Grid(start) => {
                let start = *start;
                if line.trim() == "ENDMAP" {
                    mode = Mode::Lines;
                    continue;
                }
                let Some(map) = out.maps.last_mut() else { continue };
                if map.broken.is_some() {
                    continue;
                }
                let width = line.chars().count();
                if width > MAX_SIDE || map.grid.len() >= MAX_SIDE {
                    let what = if width > MAX_SIDE { "wide" } else { "tall" };
                    map.broken = Some(
                        Error::at(
                            ErrorKind::Limit,
                            at(1),
                            format!("the grid of map `{}` is more than {MAX_SIDE} cells {what}", map.name),
                        )
                        .with_help(format!("DCSS levels are 80x70; the grid started with `MAP` at line {start}")),
                    );
                    continue;
                }
                map.grid.push(line.to_string());
                continue;
            }
            Mode::Lua(since) => {
                if line.contains("}}") {
                    let since = since.clone();
                    mode = Mode::Lines;
                    if let Some(map) = out.maps.last_mut() {
                        map.lua.push(since);
                    }
                }
                continue;
            }
            Mode::Lines => {}
        }
        if let Some(mut header) = open.take() {
            // A continuation: its leading blanks are dropped.
            let more = line.trim_start();
            let (more, goes_on) = match more.strip_suffix('\\') {
                Some(m) => (m, true),
                None => (more.trim_end(), false),
            };
            if header.value.len() + more.len() > MAX_VALUE_BYTES {
                out.errors.push(Error::at(
                    ErrorKind::Limit,
                    header.at.clone(),
                    format!("the `{}` line is longer than {MAX_VALUE_BYTES} bytes", header.key),
                ));
                continue;
            }
            header.value.push_str(more);
            if goes_on {
                open = Some(header);
            } else {
                finish(&mut out, &mut default_depth, header);
            }
            continue;
        }
        let trimmed = line.trim();
        let indent = (line.chars().count() - line.trim_start().chars().count()) as u32;
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if trimmed.starts_with(':') {
            if let Some(map) = out.maps.last_mut() {
                map.lua.push(LuaUse { what: "`:` line".into(), at: at(indent + 1) });
            }
            continue;
        }
        if let Some(block) = lua_block(trimmed) {
            let since = LuaUse { what: format!("`{block}` block"), at: at(indent + 1) };
            let after = &trimmed[trimmed.find("{{").map_or(0, |i| i + 2)..];
            if after.contains("}}") {
                if let Some(map) = out.maps.last_mut() {
                    map.lua.push(since);
                }
            } else {
                mode = Mode::Lua(since);
            }
            continue;
        }
        if trimmed == "MAP" {
            match out.maps.last_mut() {
                Some(map) if map.grid_line.is_none() => {
                    map.grid_line = Some(n);
                    mode = Mode::Grid(n);
                }
                Some(map) => {
                    map.broken.get_or_insert_with(|| {
                        Error::at(
                            ErrorKind::Syntax,
                            at(indent + 1),
                            format!("map `{}` has a second `MAP` block", map.name),
                        )
                        .with_help("a map has one grid; start a new map with `NAME:` before it")
                    });
                    mode = Mode::Grid(n);
                }
                None => {
                    out.errors.push(
                        Error::at(ErrorKind::Syntax, at(indent + 1), "a `MAP` block before any `NAME:` line")
                            .with_help("every map starts with `NAME: its_name`"),
                    );
                    mode = Mode::Grid(n);
                }
            }
            continue;
        }
        let Some((key, rest)) = header_key(trimmed) else {
            let error = Error::at(ErrorKind::Syntax, at(indent + 1), format!("`{}` is not a line of a .des file", clip(trimmed)))
                .with_help("lines are `KEY: value` headers, `MAP` … `ENDMAP` grids, `: lua` lines, `{{ lua }}` blocks or `#` comments");
            match out.maps.last_mut() {
                Some(map) => {
                    map.broken.get_or_insert(error);
                }
                None => out.errors.push(error),
            }
            continue;
        };
        let key_col = indent + 1;
        let value_col = key_col
            + key.chars().count() as u32
            + 1
            + (rest.chars().count() - rest.trim_start().chars().count()) as u32;
        let value = rest.trim();
        let (value, goes_on) = match value.strip_suffix('\\') {
            Some(v) => (v, true),
            None => (value, false),
        };
        let header = Header { key: key.to_string(), value: value.to_string(), at: at(key_col), value_col };
        if goes_on {
            open = Some(header);
        } else {
            finish(&mut out, &mut default_depth, header);
        }
    }
    if let Mode::Grid(start) = mode {
        let error = Error::at(ErrorKind::Syntax, Location::at(file, start, 1), "`MAP` without `ENDMAP`")
            .with_help("end the grid with a line `ENDMAP`");
        match out.maps.last_mut() {
            Some(map) => {
                map.broken.get_or_insert(error);
            }
            None => out.errors.push(error),
        }
    }
    if let Mode::Lua(since) = mode {
        let error = Error::at(ErrorKind::Syntax, since.at.clone(), format!("{} without `}}}}`", since.what))
            .with_help("close the Lua block with `}}`");
        match out.maps.last_mut() {
            Some(map) => {
                map.lua.push(since);
                map.broken.get_or_insert(error);
            }
            None => out.errors.push(error),
        }
    }
    if let Some(header) = open {
        finish(&mut out, &mut default_depth, header);
    }
    out
}

/// Files a complete header line: a new map, the file's default depth, or a
/// header of the current map.
fn finish(out: &mut DesFile, default_depth: &mut Option<Header>, header: Header) {
    match header.key.as_str() {
        "NAME" => {
            if out.maps.len() >= MAX_MAPS {
                if out.maps.len() == MAX_MAPS {
                    out.errors.push(Error::at(
                        ErrorKind::Limit,
                        header.at.clone(),
                        format!("more than {MAX_MAPS} maps in one file"),
                    ));
                }
                return;
            }
            let name = header.value.split_whitespace().next().unwrap_or("").to_string();
            let broken = name.is_empty().then(|| {
                Error::at(ErrorKind::Syntax, header.at.clone(), "`NAME:` without a name")
                    .with_help("write `NAME: a_name`")
            });
            out.maps.push(DesMap {
                name,
                at: header.at,
                headers: Vec::new(),
                grid: Vec::new(),
                grid_line: None,
                default_depth: default_depth.clone(),
                lua: Vec::new(),
                broken,
            });
        }
        "default-depth" => *default_depth = Some(header),
        _ => match out.maps.last_mut() {
            Some(map) => {
                if !DIRECTIVES.contains(&header.key.as_str()) {
                    out.warnings.push(unknown_directive(&header));
                }
                map.headers.push(header)
            }
            None => out.errors.push(
                Error::at(
                    ErrorKind::Syntax,
                    header.at.clone(),
                    format!("a `{}:` line before any `NAME:` line", header.key),
                )
                .with_help("header lines belong to the map whose `NAME:` line is above them"),
            ),
        },
    }
}

/// The warning for a header whose key is no directive DCSS knows.
fn unknown_directive(header: &Header) -> Error {
    let error = Error::at(ErrorKind::Lint, header.at.clone(), format!("unknown directive `{}:`", header.key));
    match prefabric::format::suggest(&header.key, DIRECTIVES) {
        Some(known) => error.with_help(format!("did you mean `{known}:`? (the map is read without this line)")),
        None => error.with_help(format!(
            "DCSS's directives are {}; the map is read without this line",
            DIRECTIVES.map(|d| format!("`{d}`")).join(", ")
        )),
    }
}

/// The keyword before a Lua block's `{{`, when the line opens one.
fn lua_block(trimmed: &str) -> Option<&str> {
    let (before, _) = trimmed.split_once("{{")?;
    let word = before.trim();
    match word {
        "" => Some("{{"),
        "lua" | "prelude" | "epilogue" | "veto" | "validate" => Some(word),
        _ => None,
    }
}

/// `KEY` and the rest after its `:`, when the line is a header: upper-case
/// letters, digits and `_`, or the file-level `default-depth`.
fn header_key(trimmed: &str) -> Option<(&str, &str)> {
    let (key, rest) = trimmed.split_once(':')?;
    let upper = !key.is_empty() && key.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    (upper || key == "default-depth").then_some((key, rest))
}

/// A line shortened for a message.
fn clip(text: &str) -> String {
    let mut s: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# a comment\n\
: lua_prelude()\n\
default-depth: D:2-5\n\
\n\
NAME:   first_map\n\
TAGS:   transparent \\\n\
        no_rotate\n\
SUBST:  a = x.\n\
MAP\n\
xxx\n\
x#a\n\
ENDMAP\n\
NAME: second\n\
DEPTH: Lair\n\
: if crawl.coinflip() then\n\
{{\n\
  local x = 1\n\
}}\n\
MAP\n\
.\n\
ENDMAP\n\
KFEAT: a = altar_zin\n";

    #[test]
    fn maps_headers_grids_and_lua_are_read_with_their_places() {
        let f = read("s.des", SAMPLE);
        assert!(f.errors.is_empty(), "{:?}", f.errors);
        assert_eq!(f.maps.len(), 2);
        let a = &f.maps[0];
        assert_eq!(a.name, "first_map");
        assert_eq!(a.at, Location::at("s.des", 5, 1));
        assert_eq!(a.first("TAGS").map(|h| h.value.as_str()), Some("transparent no_rotate"));
        let subst = a.first("SUBST").expect("a SUBST line");
        assert_eq!((subst.value.as_str(), subst.at.line, subst.value_col), ("a = x.", 8, 9));
        assert_eq!(a.grid, ["xxx", "x#a"], "`#` in a grid is a glyph");
        assert_eq!(a.grid_line, Some(9));
        assert_eq!(a.default_depth.as_ref().map(|h| h.value.as_str()), Some("D:2-5"));
        assert!(a.lua.is_empty(), "the file's prelude belongs to no map");
        let b = &f.maps[1];
        assert_eq!(b.lua.iter().map(|l| l.at.line).collect::<Vec<_>>(), [15, 16]);
        assert_eq!(b.first("KFEAT").map(|h| h.value.as_str()), Some("a = altar_zin"), "headers after ENDMAP count");
        assert!(b.broken.is_none());
    }

    #[test]
    fn malformed_maps_are_marked_broken_and_reading_goes_on() {
        let f = read("b.des", "NAME: a\nMAP\nxx\nNAME: never\n");
        assert_eq!(f.maps.len(), 1, "the grid swallowed the rest");
        let e = f.maps[0].broken.as_ref().expect("no ENDMAP");
        assert_eq!(e.to_string().lines().next(), Some("b.des:2:1: syntax error: `MAP` without `ENDMAP`"));

        let f = read("c.des", "NAME: a\nthis is junk\nMAP\n.\nENDMAP\nNAME: b\nMAP\n.\nENDMAP\n");
        assert!(f.maps[0].broken.as_ref().is_some_and(|e| e.location() == Some(&Location::at("c.des", 2, 1))));
        assert!(f.maps[1].broken.is_none(), "the next map is read");

        let wide = format!("NAME: w\nMAP\n{}\nENDMAP\n", "x".repeat(MAX_SIDE + 1));
        let f = read("w.des", &wide);
        assert!(f.maps[0].broken.as_ref().is_some_and(|e| e.kind() == ErrorKind::Limit));
        assert!(f.maps[0].grid.is_empty(), "nothing kept of a grid that is too large");

        let f = read("l.des", "NAME: l\n{{\nlocal x\n");
        assert!(f.maps[0].broken.is_some(), "an unclosed Lua block");
        let f = read("h.des", "TAGS: x\nMAP\n.\nENDMAP\n");
        assert_eq!(f.errors.len(), 2, "a header and a grid before any NAME");
    }

    #[test]
    fn a_misspelt_directive_is_warned_about_at_its_place_with_the_one_meant() {
        let f = read("m.des", "NAME: a\nSUBTS: x = .\n  ORIENTT: float\nMAP\nx\nENDMAP\nFOOBAR: 1\n");
        let warnings: Vec<String> = f.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert_eq!(
            warnings[0],
            "m.des:2:1: warning: unknown directive `SUBTS:`\n  help: did you mean `SUBST:`? (the map is read without this line)"
        );
        assert!(warnings[1].starts_with("m.des:3:3: warning: unknown directive `ORIENTT:`"), "{}", warnings[1]);
        assert!(warnings[1].contains("did you mean `ORIENT:`?"), "{}", warnings[1]);
        assert!(warnings[2].contains("DCSS's directives are `NAME`"), "{}", warnings[2]);
        assert!(read("s.des", SAMPLE).warnings.is_empty(), "known directives are not warned about");
    }

    #[test]
    fn no_input_makes_the_reader_panic_or_hang() {
        for text in [
            "",
            "\n\n",
            "NAME:",
            "NAME: \\",
            "MAP",
            "ENDMAP",
            "{{",
            "}}",
            ":",
            "KEY: \\\n\\\n",
            "\r\n\r",
            "NAME: a\nMAP\r\nENDMAP\r\n",
        ] {
            let _ = read("x.des", text);
        }
    }
}
