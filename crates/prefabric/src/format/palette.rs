//! `palette.toml`: which glyph or colour stands for which terrain, and how maps are
//! drawn.
//!
//! A palette maps single characters to [`Terrain`] for reading text prefabs,
//! REXPaint colours to terrain for reading `.xp` prefabs (Cogmind paints each cell
//! type in its own colour on layer 1), and terrain to characters and colours for
//! drawing maps. Two glyphs are built in and may not be redefined: `?` (don't care)
//! and the digits `0`–`9` (floor variants, Golden Krone style, of the floor kind
//! named by `digits`). Every role has a built-in colour that `[colours]` may
//! override; no two terrains may share a colour. Every problem in the file is
//! reported with its line and column. `moves` names the game's movement rule
//! ([`Moves`]), which decides what a prefab's "one area of floor" and a map's
//! "connected" mean.
//!
//! ```toml
//! digits = "room"          # 0-9 in a prefab are room floor, variant 0-9
//! colour_from = "background"   # or "foreground": which colour of an .xp cell counts
//! moves = "orthogonal"     # or "diagonal": walkers also step across corners
//!
//! [glyphs]                 # prefab glyph -> terrain[:variant]
//! "#" = "wall"
//! "." = "room"
//! "%" = "wall:1"
//!
//! [colours]                # terrain[:variant] or "?" -> REXPaint colour
//! "wall:1" = "#b4b4c8"
//! "?" = "#ff00ff"          # don't care (the default: REXPaint's transparent)
//!
//! [render]                 # terrain[:variant] -> glyph in drawn maps
//! earth = " "              # (default: the first glyph above for that terrain,
//! "room:1" = "÷"           # else the role's: maps never draw a digit)
//! ```

use crate::error::{Error, ErrorKind, LineIndex, Location, Problems};
use crate::format::parse_toml;
use crate::format::xp::Rgb;
use crate::geom::Moves;
use crate::map::{FloorKind, Role, Terrain};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The glyph that means "leave what is there".
pub const DONT_CARE: char = '?';

/// The glyph of a connector drawn in a prefab's terrain layer (Golden Krone's `*`):
/// a doorway the layout may join the prefab through.
pub const CONNECTOR: char = '*';

const VARIANTS: usize = 10;

/// Glyph ↔ terrain mappings of a pack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    glyphs: BTreeMap<char, Terrain>,
    /// Glyphs in the order the file lists them, for writing prefabs back.
    order: Vec<(char, Terrain)>,
    digits: FloorKind,
    render: [[char; VARIANTS]; Role::ALL.len()],
    /// Colour -> terrain (`None`: don't care), sorted by colour.
    colours: Vec<(Rgb, Option<Terrain>)>,
    colour_from: ColourChannel,
    moves: Moves,
}

/// Which colour of a REXPaint cell says what terrain it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColourChannel {
    /// The cell's background colour (the default).
    Background,
    /// The glyph's colour.
    Foreground,
}

/// The colour each role has unless `[colours]` says otherwise. Earth is Cogmind's
/// brown; don't-care is REXPaint's transparent magenta.
const DEFAULT_COLOURS: [(Role, Rgb); 14] = [
    (Role::Earth, Rgb::new(0x7f, 0x4f, 0x24)),
    (Role::Blocked, Rgb::new(0x30, 0x30, 0x30)),
    (Role::Wall, Rgb::new(0x8c, 0x8c, 0x8c)),
    (Role::Floor(FloorKind::Room), Rgb::new(0x2e, 0x4a, 0x2e)),
    (Role::Floor(FloorKind::Hall), Rgb::new(0x2e, 0x3e, 0x5c)),
    (Role::Floor(FloorKind::Corridor), Rgb::new(0x4a, 0x3a, 0x5c)),
    (Role::Floor(FloorKind::Junction), Rgb::new(0x5c, 0x3a, 0x4a)),
    (Role::Floor(FloorKind::Cave), Rgb::new(0x4a, 0x42, 0x2e)),
    (Role::Door, Rgb::new(0xb0, 0x6a, 0x10)),
    (Role::SecretDoor, Rgb::new(0x80, 0x40, 0x40)),
    (Role::StairsUp, Rgb::new(0x10, 0x90, 0x90)),
    (Role::StairsDown, Rgb::new(0x10, 0x60, 0x90)),
    (Role::Liquid, Rgb::new(0x1e, 0x50, 0xb4)),
    (Role::Stairs, Rgb::new(0x10, 0x78, 0x78)),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PaletteFile {
    #[serde(default)]
    digits: Option<Spanned<String>>,
    #[serde(default)]
    glyphs: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    render: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    colours: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    colour_from: Option<Spanned<String>>,
    #[serde(default)]
    moves: Option<Spanned<String>>,
}

/// Parses `room`, `wall:1`, … into a terrain.
pub fn parse_terrain(text: &str) -> Result<Terrain, String> {
    let (name, variant) = match text.split_once(':') {
        Some((name, v)) => match v.parse::<u8>() {
            Ok(v) if v <= 9 => (name, v),
            _ => return Err(format!("variant `{v}` is not a digit 0-9")),
        },
        None => (text, 0),
    };
    let role = Role::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
        format!("unknown terrain `{name}`; terrains are {}", names.join(", "))
    })?;
    Ok(Terrain::with_variant(role, variant))
}

/// The glyph used for a role when the palette names none.
const fn fallback_glyph(role: Role) -> char {
    match role {
        Role::Earth => ':',
        Role::Blocked => 'X',
        Role::Wall => '#',
        Role::Floor(FloorKind::Corridor) | Role::Floor(FloorKind::Junction) => ',',
        Role::Floor(_) => '.',
        Role::Door => '+',
        Role::SecretDoor => '=',
        Role::StairsUp => '<',
        Role::StairsDown => '>',
        Role::Liquid => '~',
        Role::Stairs => '≷',
    }
}

impl Palette {
    /// Reads a palette from TOML source; `file` is used in error locations.
    pub fn parse(file: &str, source: &str) -> Result<Palette, Problems> {
        let raw: PaletteFile = parse_toml(file, source)?;
        let lines = LineIndex::new(source);
        let at = |span: std::ops::Range<usize>| lines.locate(file, source, span.start);
        let mut problems = Problems::new();

        let digits = match &raw.digits {
            None => FloorKind::Room,
            Some(d) => match parse_terrain(d.get_ref()).map(|t| (t.role(), t.variant())) {
                Ok((Role::Floor(kind), 0)) => kind,
                _ => {
                    problems.push(
                        Error::at(
                            ErrorKind::Invalid,
                            at(d.span()),
                            format!("`digits` must name a floor kind, not `{}`", d.get_ref()),
                        )
                        .with_help("use one of room, hall, corridor, junction, cave"),
                    );
                    FloorKind::Room
                }
            },
        };

        let mut entries: Vec<(&Spanned<String>, &Spanned<String>)> = raw.glyphs.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        let mut glyphs = BTreeMap::new();
        let mut order = Vec::new();
        for (key, value) in entries {
            let glyph = match single_char(key.get_ref()) {
                Ok(c) => c,
                Err(msg) => {
                    problems.push(Error::at(ErrorKind::Invalid, at(key.span()), msg));
                    continue;
                }
            };
            if glyph == ' ' {
                problems.push(
                    Error::at(ErrorKind::Invalid, at(key.span()), "a space cannot be a prefab glyph")
                        .with_help("editors trim trailing spaces; draw empty cells with `?` or an earth glyph"),
                );
                continue;
            }
            if glyph == DONT_CARE || glyph == CONNECTOR || glyph.is_ascii_digit() {
                problems.push(
                    Error::at(
                        ErrorKind::Invalid,
                        at(key.span()),
                        format!("glyph `{glyph}` is built in and cannot be redefined"),
                    )
                    .with_help("`?` means don't care, `*` is a connector and the digits 0-9 are floor variants; pick another character"),
                );
                continue;
            }
            match parse_terrain(value.get_ref()) {
                Ok(t) => {
                    glyphs.insert(glyph, t);
                    order.push((glyph, t));
                }
                Err(msg) => problems.push(Error::at(ErrorKind::Invalid, at(value.span()), msg)),
            }
        }

        let mut explicit: BTreeMap<Terrain, char> = BTreeMap::new();
        for (key, value) in &raw.render {
            let terrain = match parse_terrain(key.get_ref()) {
                Ok(t) => t,
                Err(msg) => {
                    problems.push(Error::at(ErrorKind::Invalid, at(key.span()), msg));
                    continue;
                }
            };
            match single_char(value.get_ref()) {
                Ok(c) if c.is_control() => problems.push(Error::at(
                    ErrorKind::Invalid,
                    at(value.span()),
                    "a render glyph must be a visible character or a space",
                )),
                Ok(c) => {
                    explicit.insert(terrain, c);
                }
                Err(msg) => problems.push(Error::at(ErrorKind::Invalid, at(value.span()), msg)),
            }
        }
        let colour_from = match &raw.colour_from {
            None => ColourChannel::Background,
            Some(c) => match c.get_ref().as_str() {
                "background" => ColourChannel::Background,
                "foreground" => ColourChannel::Foreground,
                other => {
                    problems.push(
                        Error::at(ErrorKind::Invalid, at(c.span()), format!("unknown colour_from `{other}`"))
                            .with_help("write \"background\" or \"foreground\""),
                    );
                    ColourChannel::Background
                }
            },
        };
        let moves = match &raw.moves {
            None => Moves::Orthogonal,
            Some(m) => Moves::parse(m.get_ref()).unwrap_or_else(|| {
                problems.push(
                    Error::at(ErrorKind::Invalid, at(m.span()), format!("unknown moves `{}`", m.get_ref()))
                        .with_help("write \"orthogonal\" (walkers step to the four sides, the default) or \"diagonal\" (also across corners)"),
                );
                Moves::Orthogonal
            }),
        };
        let colours = read_colours(&raw.colours, &at, &mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }

        let render = [[' '; VARIANTS]; Role::ALL.len()];
        let mut palette = Palette { glyphs, order, digits, render, colours, colour_from, moves };
        for role in Role::ALL {
            for variant in 0..VARIANTS as u8 {
                let t = Terrain::with_variant(role, variant);
                let base = Terrain::new(role);
                // A digit is never drawn: a floor variant the palette gives no
                // glyph of its own draws as its floor.
                palette.render[role.index()][variant as usize] = explicit
                    .get(&t)
                    .copied()
                    .or_else(|| palette.listed_glyph(t))
                    .or_else(|| explicit.get(&base).copied())
                    .or_else(|| palette.listed_glyph(base))
                    .unwrap_or(fallback_glyph(role));
            }
        }
        Ok(palette)
    }

    /// The terrain a prefab glyph stands for: `None` for `?` (don't care) and for
    /// glyphs the palette does not define — tell them apart with [`Palette::knows`].
    pub fn terrain_of(&self, glyph: char) -> Option<Terrain> {
        match glyph {
            '0'..='9' => Some(Terrain::with_variant(Role::Floor(self.digits), glyph as u8 - b'0')),
            _ => self.glyphs.get(&glyph).copied(),
        }
    }

    /// True when `glyph` may appear in a prefab's terrain layer.
    pub fn knows(&self, glyph: char) -> bool {
        glyph == DONT_CARE || glyph == CONNECTOR || self.terrain_of(glyph).is_some()
    }

    /// The glyph to write for `terrain` in a prefab: the first palette glyph for it,
    /// or a digit for a digit-floor variant.
    pub fn source_glyph(&self, terrain: Terrain) -> Option<char> {
        self.listed_glyph(terrain)
            .or_else(|| (terrain.is(Role::Floor(self.digits))).then(|| char::from(b'0' + terrain.variant())))
    }

    /// The first glyph `[glyphs]` lists for `terrain`.
    fn listed_glyph(&self, terrain: Terrain) -> Option<char> {
        self.order.iter().find(|(_, t)| *t == terrain).map(|(c, _)| *c)
    }

    /// The glyph that draws `terrain` in a map: its `[render]` glyph, else its
    /// first `[glyphs]` glyph, else its role's (a variant draws as its role; a
    /// floor variant written as a digit is never drawn as that digit).
    pub fn render_glyph(&self, terrain: Terrain) -> char {
        self.render[terrain.role_index()][usize::from(terrain.variant().min(9))]
    }

    /// Every defined glyph and its terrain, in file order.
    pub fn glyphs(&self) -> &[(char, Terrain)] {
        &self.order
    }

    /// The terrain a REXPaint colour paints: `Some(None)` for the don't-care colour,
    /// `None` for colours the palette does not know.
    pub fn terrain_of_colour(&self, colour: Rgb) -> Option<Option<Terrain>> {
        self.colours.binary_search_by_key(&colour, |(c, _)| *c).ok().map(|i| self.colours[i].1)
    }

    /// The colour that paints `terrain` (`None`: don't care), if the palette has one.
    pub fn colour_of(&self, terrain: Option<Terrain>) -> Option<Rgb> {
        self.colours.iter().find(|(_, t)| *t == terrain).map(|(c, _)| *c)
    }

    /// Which colour of a REXPaint cell counts.
    pub fn colour_from(&self) -> ColourChannel {
        self.colour_from
    }

    /// How the pack's walkers step between walkable cells: what every check of
    /// a connected floor follows.
    pub fn moves(&self) -> Moves {
        self.moves
    }

    /// Every colour and what it paints, sorted by colour.
    pub fn colours(&self) -> &[(Rgb, Option<Terrain>)] {
        &self.colours
    }
}

/// Where a palette says how a terrain is drawn: each `[render]` entry (located at
/// its value) and each `[glyphs]` entry (at its key), in that order, with the
/// terrain and the glyph, for lints that point at the line to change. Entries
/// that do not read are left out: [`Palette::parse`] reports them.
pub(crate) fn drawing_sites(file: &str, source: &str) -> Vec<(Terrain, char, Location)> {
    let Ok(raw) = parse_toml::<PaletteFile>(file, source) else { return Vec::new() };
    let lines = LineIndex::new(source);
    let mut render: Vec<_> = raw.render.iter().map(|(k, v)| (k, v, v.span().start)).collect();
    let mut glyphs: Vec<_> = raw.glyphs.iter().map(|(k, v)| (v, k, k.span().start)).collect();
    render.sort_by_key(|e| e.2);
    glyphs.sort_by_key(|e| e.2);
    render
        .into_iter()
        .chain(glyphs)
        .filter_map(|(terrain, glyph, at)| {
            let t = parse_terrain(terrain.get_ref()).ok()?;
            let c = single_char(glyph.get_ref()).ok()?;
            Some((t, c, lines.locate(file, source, at)))
        })
        .collect()
}

fn terrain_name(terrain: Option<Terrain>) -> String {
    terrain.map_or("`?` (don't care)".to_string(), |t| format!("`{t}`"))
}

/// Reads `[colours]` and fills in the built-in colours it leaves out. Returns the
/// table sorted by colour.
fn read_colours(
    raw: &BTreeMap<Spanned<String>, Spanned<String>>,
    at: &dyn Fn(std::ops::Range<usize>) -> Location,
    problems: &mut Problems,
) -> Vec<(Rgb, Option<Terrain>)> {
    let mut entries: Vec<(&Spanned<String>, &Spanned<String>)> = raw.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    // (colour, terrain, where it was given) for explicit entries.
    let mut table: Vec<(Rgb, Option<Terrain>)> = Vec::new();
    let mut given_at: Vec<std::ops::Range<usize>> = Vec::new();
    for (key, value) in entries {
        let terrain = if key.get_ref() == "?" {
            None
        } else {
            match parse_terrain(key.get_ref()) {
                Ok(t) => Some(t),
                Err(msg) => {
                    problems.push(Error::at(ErrorKind::Invalid, at(key.span()), msg));
                    continue;
                }
            }
        };
        let Some(colour) = Rgb::parse(value.get_ref()) else {
            problems.push(
                Error::at(ErrorKind::Invalid, at(value.span()), format!("`{}` is not a colour", value.get_ref()))
                    .with_help("write colours as \"#rrggbb\", e.g. \"#8c8c8c\""),
            );
            continue;
        };
        if let Some(i) = table.iter().position(|(_, t)| *t == terrain) {
            let first = at(given_at[i].clone());
            problems.push(Error::at(
                ErrorKind::Invalid,
                at(key.span()),
                format!("{} already has a colour, at {first}", terrain_name(terrain)),
            ));
            continue;
        }
        if colour == Rgb::TRANSPARENT && terrain.is_some() {
            problems.push(
                Error::at(ErrorKind::Invalid, at(value.span()), format!("{colour} is REXPaint's transparent colour"))
                    .with_help("transparent cells are always don't-care (`?`); pick another colour"),
            );
            continue;
        }
        if let Some(i) = table.iter().position(|(c, _)| *c == colour) {
            let first = at(given_at[i].clone());
            problems.push(
                Error::at(ErrorKind::Invalid, at(value.span()), format!("colour {colour} is already given at {first}"))
                    .with_help("each terrain needs its own colour so .xp prefabs can be read back"),
            );
            continue;
        }
        let built_in = DEFAULT_COLOURS.iter().find(|(role, c)| *c == colour && Some(Terrain::new(*role)) != terrain);
        if let Some(&(role, _)) = built_in {
            let other = Terrain::new(role);
            if !raw.keys().any(|k| parse_terrain(k.get_ref()) == Ok(other)) {
                problems.push(
                    Error::at(
                        ErrorKind::Invalid,
                        at(value.span()),
                        format!("colour {colour} is the built-in colour of {other}"),
                    )
                    .with_help(format!("pick another colour, or give {other} a colour of its own under [colours]")),
                );
                continue;
            }
        }
        table.push((colour, terrain));
        given_at.push(key.span());
    }
    let defaults = DEFAULT_COLOURS.iter().map(|&(role, c)| (c, Some(Terrain::new(role))));
    for (colour, terrain) in defaults.chain([(Rgb::TRANSPARENT, None)]) {
        let named = table.iter().any(|(_, t)| *t == terrain);
        let taken = table.iter().any(|(c, _)| *c == colour);
        if !named && !taken {
            table.push((colour, terrain));
        }
    }
    table.sort_by_key(|(c, _)| *c);
    table
}

fn single_char(s: &str) -> Result<char, String> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c == ' ' || !c.is_whitespace() => Ok(c),
        (Some(c), None) => Err(format!("{c:?} is whitespace and cannot be a glyph")),
        _ => Err(format!("`{s}` is not a single character")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r##"
digits = "hall"
[glyphs]
"#" = "wall"
"." = "room"
"%" = "wall:2"
"+" = "door"
[render]
earth = " "
"hall:3" = "÷"
"##;

    #[test]
    fn reads_glyphs_digits_and_render() {
        let p = Palette::parse("palette.toml", GOOD).unwrap();
        assert_eq!(p.terrain_of('#'), Some(Terrain::new(Role::Wall)));
        assert_eq!(p.terrain_of('%'), Some(Terrain::with_variant(Role::Wall, 2)));
        assert_eq!(p.terrain_of('7'), Some(Terrain::with_variant(Role::Floor(FloorKind::Hall), 7)));
        assert_eq!(p.terrain_of('?'), None);
        assert!(p.knows('?'));
        assert!(!p.knows('Z'));
        assert_eq!(p.render_glyph(Terrain::EARTH), ' ');
        assert_eq!(p.render_glyph(Terrain::with_variant(Role::Wall, 2)), '%');
        // Unlisted variants draw like variant 0.
        assert_eq!(p.render_glyph(Terrain::with_variant(Role::Wall, 5)), '#');
        // A digit floor variant is written as its digit but never drawn as one:
        // it draws as its floor unless `[render]` gives it a glyph.
        assert_eq!(p.source_glyph(Terrain::with_variant(Role::Floor(FloorKind::Hall), 4)), Some('4'));
        assert_eq!(p.render_glyph(Terrain::with_variant(Role::Floor(FloorKind::Hall), 4)), '.');
        assert_eq!(p.render_glyph(Terrain::with_variant(Role::Floor(FloorKind::Hall), 3)), '÷');
        for t in (0..=9).flat_map(|v| Role::ALL.map(|r| Terrain::with_variant(r, v))) {
            assert!(!p.render_glyph(t).is_ascii_digit(), "{t} draws as a digit");
        }
        assert_eq!(p.source_glyph(Terrain::new(Role::Door)), Some('+'));
        assert_eq!(p.glyphs()[0].0, '#');
    }

    #[test]
    fn reports_every_bad_entry_with_its_place() {
        let src = "[glyphs]\n\"ab\" = \"wall\"\n\"?\" = \"room\"\n\"x\" = \"lava\"\n\"y\" = \"wall:12\"\n";
        let problems = Palette::parse("p.toml", src).unwrap_err();
        let text = problems.to_string();
        assert_eq!(problems.len(), 4, "{text}");
        assert!(text.contains("p.toml:2:1: invalid: `ab` is not a single character"), "{text}");
        assert!(text.contains("p.toml:3:1: invalid: glyph `?` is built in"), "{text}");
        assert!(text.contains("p.toml:4:7: invalid: unknown terrain `lava`"), "{text}");
        assert!(text.contains("p.toml:5:7: invalid: variant `12` is not a digit 0-9"), "{text}");
    }

    #[test]
    fn toml_syntax_errors_are_located() {
        let problems = Palette::parse("p.toml", "[glyphs]\n\"#\" = wall\n").unwrap_err();
        assert!(problems.to_string().starts_with("p.toml:2:7: syntax error:"), "{problems}");
    }
}
