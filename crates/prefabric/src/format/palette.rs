//! `palette.toml`: which glyph stands for which terrain, and how maps are drawn.
//!
//! A palette maps single characters to [`Terrain`] for reading prefabs, and terrain
//! to characters for drawing maps. Two glyphs are built in and may not be redefined:
//! `?` (don't care) and the digits `0`–`9` (floor variants, Golden Krone style, of
//! the floor kind named by `digits`). Every problem in the file is reported with its
//! line and column.
//!
//! ```toml
//! digits = "room"          # 0-9 in a prefab are room floor, variant 0-9
//!
//! [glyphs]                 # prefab glyph -> terrain[:variant]
//! "#" = "wall"
//! "." = "room"
//! "%" = "wall:1"
//!
//! [render]                 # terrain[:variant] -> glyph in drawn maps
//! earth = " "              # (default: the first glyph above for that terrain)
//! ```

use crate::error::{Error, ErrorKind, Location, Problems};
use crate::format::parse_toml;
use crate::map::{FloorKind, Role, Terrain};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The glyph that means "leave what is there".
pub const DONT_CARE: char = '?';

const VARIANTS: usize = 10;

/// Glyph ↔ terrain mappings of a pack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    glyphs: BTreeMap<char, Terrain>,
    /// Glyphs in the order the file lists them, for writing prefabs back.
    order: Vec<(char, Terrain)>,
    digits: FloorKind,
    render: [[char; VARIANTS]; Role::ALL.len()],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PaletteFile {
    #[serde(default)]
    digits: Option<Spanned<String>>,
    #[serde(default)]
    glyphs: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    render: BTreeMap<Spanned<String>, Spanned<String>>,
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
    }
}

impl Palette {
    /// Reads a palette from TOML source; `file` is used in error locations.
    pub fn parse(file: &str, source: &str) -> Result<Palette, Problems> {
        let raw: PaletteFile = parse_toml(file, source)?;
        let at = |span: std::ops::Range<usize>| Location::at_offset(file, source, span.start);
        let mut problems = Problems::new();

        let digits = match &raw.digits {
            None => FloorKind::Room,
            Some(d) => match parse_terrain(d.get_ref()) {
                Ok(Terrain { role: Role::Floor(kind), variant: 0 }) => kind,
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
            if glyph == DONT_CARE || glyph.is_ascii_digit() {
                problems.push(
                    Error::at(
                        ErrorKind::Invalid,
                        at(key.span()),
                        format!("glyph `{glyph}` is built in and cannot be redefined"),
                    )
                    .with_help("`?` means don't care and the digits 0-9 are floor variants; pick another character"),
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
        if !problems.is_empty() {
            return Err(problems);
        }

        let mut palette = Palette { glyphs, order, digits, render: [[' '; VARIANTS]; Role::ALL.len()] };
        for role in Role::ALL {
            for variant in 0..VARIANTS as u8 {
                let t = Terrain::with_variant(role, variant);
                let base = Terrain::new(role);
                palette.render[role.index()][variant as usize] = explicit
                    .get(&t)
                    .copied()
                    .or_else(|| palette.source_glyph(t))
                    .or_else(|| explicit.get(&base).copied())
                    .or_else(|| palette.source_glyph(base))
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
        glyph == DONT_CARE || self.terrain_of(glyph).is_some()
    }

    /// The glyph to write for `terrain` in a prefab: the first palette glyph for it,
    /// or a digit for a digit-floor variant.
    pub fn source_glyph(&self, terrain: Terrain) -> Option<char> {
        if let Some((c, _)) = self.order.iter().find(|(_, t)| *t == terrain) {
            return Some(*c);
        }
        (terrain.role == Role::Floor(self.digits)).then(|| char::from(b'0' + terrain.variant))
    }

    /// The glyph that draws `terrain` in a map.
    pub fn render_glyph(&self, terrain: Terrain) -> char {
        self.render[terrain.role.index()][usize::from(terrain.variant.min(9))]
    }

    /// Every defined glyph and its terrain, in file order.
    pub fn glyphs(&self) -> &[(char, Terrain)] {
        &self.order
    }
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
        assert_eq!(p.render_glyph(Terrain::with_variant(Role::Floor(FloorKind::Hall), 4)), '4');
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
