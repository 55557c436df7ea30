//! The variation lines of a prefab's header, read into [`Step`]s and legend entries.
//!
//! In go a prefab's [`VariationLine`]s, each a `legend`, `subst`, `subst-once`,
//! `nsubst` or `shuffle` value with the place it starts; out come the legend and
//! the rules in the order written ([`lines`]), or an error at the line and column
//! of each token at fault, with a hint. Tokens are separated by
//! blanks, so any glyph but a blank may appear, `#` and `=` included (which is why
//! these lines take no trailing comment). Nothing here knows the palette: whether a
//! glyph means something is the proof's business ([`super::proof`]).

use super::{Choice, Group, LegendEntry, Rule, Step};
use crate::error::{Error, ErrorKind, Location};
use crate::format::palette::{CONNECTOR, DONT_CARE, parse_terrain};
use crate::map::{Role, Terrain};
use crate::prefab::VariationLine;

/// The header keys that state variation, in the order docs/prefabs.md explains them.
pub const KEYS: [&str; 5] = ["legend", "subst", "subst-once", "nsubst", "shuffle"];

/// The glyphs a prefab's variation lines give a meaning or rewrite: those may
/// stand in the terrain layer though the palette does not know them.
#[derive(Default)]
pub(crate) struct Named {
    /// The legend's glyphs and terrains.
    pub legend: Vec<(char, Terrain)>,
    /// Every glyph a rule rewrites or writes.
    pub ruled: Vec<char>,
    /// How many rules there are.
    pub rules: usize,
}

impl Named {
    /// The glyphs `lines` name, and their mistakes. When a line is at fault,
    /// every glyph the lines mention is taken as named, so a mistake in a line is
    /// reported once, not again at each cell drawn with it.
    pub fn read(lines: &[VariationLine]) -> (Named, Vec<Error>) {
        match self::lines(lines) {
            Ok((legend, steps)) => {
                let ruled = steps
                    .iter()
                    .flat_map(|s| {
                        let mut g = s.rule.writes();
                        g.extend(s.rule.reads());
                        g
                    })
                    .collect();
                (
                    Named { legend: legend.iter().map(|l| (l.glyph, l.terrain)).collect(), ruled, rules: steps.len() },
                    Vec::new(),
                )
            }
            Err(errors) => {
                let ruled = lines.iter().flat_map(|l| l.value.chars()).collect();
                (Named { legend: Vec::new(), ruled, rules: lines.len() }, errors)
            }
        }
    }

    /// The terrain the legend gives `glyph`, if it names it.
    pub fn legend_terrain(&self, glyph: char) -> Option<Terrain> {
        self.legend.iter().find(|l| l.0 == glyph).map(|l| l.1)
    }

    /// True when the lines give `glyph` a meaning or rewrite it.
    pub fn accepts(&self, glyph: char) -> bool {
        self.legend.iter().any(|l| l.0 == glyph) || self.ruled.contains(&glyph)
    }
}

/// The largest weight a choice may have.
const MAX_WEIGHT: u32 = 10_000;

/// The most choices one rule or group may list.
pub(crate) const MAX_CHOICES: usize = 64;

/// The largest count an `nsubst` group may ask for.
const MAX_COUNT: u32 = 100_000;

/// The most variation lines one prefab may have: each rule is a pass over the
/// prefab's cells at every placement and in the proof.
pub(crate) const MAX_LINES: usize = 256;

/// One blank-separated token of a value and its 1-based column.
#[derive(Copy, Clone)]
struct Token<'a> {
    text: &'a str,
    col: u32,
}

/// Where a value starts, to locate its tokens.
pub(crate) struct Value<'a> {
    pub file: &'a str,
    pub text: &'a str,
    pub line: u32,
    pub col: u32,
}

impl Value<'_> {
    fn tokens(&self) -> Vec<Token<'_>> {
        let mut out = Vec::new();
        let mut start: Option<(usize, u32)> = None;
        for (col, (i, c)) in (self.col..).zip(self.text.char_indices()) {
            if c.is_whitespace() {
                if let Some((s, sc)) = start.take() {
                    out.push(Token { text: &self.text[s..i], col: sc });
                }
            } else if start.is_none() {
                start = Some((i, col));
            }
        }
        if let Some((s, sc)) = start {
            out.push(Token { text: &self.text[s..], col: sc });
        }
        out
    }

    fn error(&self, col: u32, message: impl Into<String>, help: &str) -> Error {
        Error::at(ErrorKind::Syntax, Location::at(self.file, self.line, col), message).with_help(help)
    }

    fn location(&self) -> Location {
        Location::at(self.file, self.line, self.col)
    }
}

/// A glyph a variation line may name: printable, not a blank, not the connector
/// (connectors are link marks, which variation never moves) and not don't-care
/// (a variation changes what a cell is, never whether it belongs to the prefab).
fn check_glyph(value: &Value<'_>, c: char, col: u32) -> Result<(), Error> {
    if c == CONNECTOR {
        return Err(value.error(
            col,
            "`*` (a connector) cannot vary",
            "connectors are link marks, fixed where drawn; vary the cells around them instead",
        ));
    }
    if c == DONT_CARE {
        return Err(value.error(
            col,
            "`?` (don't care) cannot vary",
            "a variation changes what a cell is, never whether it is part of the prefab: vary it between terrains, e.g. `:` (earth) and `#`",
        ));
    }
    if c.is_control() || c.is_whitespace() {
        return Err(value.error(col, format!("{c:?} is not a glyph"), "glyphs are printable characters"));
    }
    Ok(())
}

/// The glyphs of a left-hand side such as `~` or `ab`: at least one, none twice.
fn glyph_set(value: &Value<'_>, token: Token<'_>) -> Result<Vec<char>, Error> {
    let mut glyphs = Vec::new();
    for (i, c) in token.text.chars().enumerate() {
        let col = token.col + i as u32;
        check_glyph(value, c, col)?;
        if glyphs.contains(&c) {
            return Err(value.error(col, format!("`{c}` is named twice"), "name each glyph once"));
        }
        glyphs.push(c);
    }
    Ok(glyphs)
}

/// A choice token: a glyph, optionally followed by `:WEIGHT` (`.` or `#:3`).
fn choice(value: &Value<'_>, token: Token<'_>) -> Result<Choice, Error> {
    let mut chars = token.text.chars();
    let Some(glyph) = chars.next() else {
        return Err(value.error(token.col, "expected a glyph", "write a glyph, e.g. `.` or `#:3`"));
    };
    check_glyph(value, glyph, token.col)?;
    let rest = chars.as_str();
    let weight = if rest.is_empty() {
        1
    } else {
        let help = "a choice is one glyph, or a glyph and its weight such as `#:3`; separate choices with blanks";
        let Some(digits) = rest.strip_prefix(':') else {
            return Err(value.error(token.col + 1, format!("`{}` is not one glyph", token.text), help));
        };
        match digits.parse::<u32>() {
            Ok(w) if (1..=MAX_WEIGHT).contains(&w) => w,
            _ => {
                return Err(value.error(
                    token.col + 2,
                    format!("weight `{digits}` is not a whole number from 1 to {MAX_WEIGHT}"),
                    help,
                ));
            }
        }
    };
    Ok(Choice { glyph, weight })
}

/// Choices from tokens; at least one, at most [`MAX_CHOICES`].
fn choices(value: &Value<'_>, tokens: &[Token<'_>], after: u32) -> Result<Vec<Choice>, Error> {
    if tokens.is_empty() {
        return Err(value.error(after, "expected at least one glyph to choose from", "e.g. `. #:2`"));
    }
    if let Some(t) = tokens.get(MAX_CHOICES) {
        return Err(value.error(
            t.col,
            format!("more than {MAX_CHOICES} choices"),
            "give the likelier glyphs weights instead of writing them again",
        ));
    }
    tokens.iter().map(|&t| choice(value, t)).collect()
}

/// Splits `LHS = REST` into the left-hand glyphs and the tokens after `=`.
fn sides<'v>(value: &'v Value<'v>, key: &str, example: &str) -> Result<(Vec<char>, Vec<Token<'v>>, u32), Error> {
    let tokens = value.tokens();
    let help = format!("write `{key}: {example}`, with blanks around `=`");
    let (Some(&lhs), Some(eq)) = (tokens.first(), tokens.get(1)) else {
        return Err(value.error(value.col, format!("`{key}` needs glyphs, `=` and what they become"), &help));
    };
    if eq.text != "=" {
        return Err(value.error(eq.col, format!("expected `=`, found `{}`", eq.text), &help));
    }
    let from = glyph_set(value, lhs)?;
    Ok((from, tokens[2..].to_vec(), eq.col + 1))
}

/// Reads a prefab's variation lines: its legend (each glyph once) and its rules
/// in the order written; every mistake otherwise.
pub(crate) fn lines(lines: &[VariationLine]) -> Result<(Vec<LegendEntry>, Vec<Step>), Vec<Error>> {
    let (mut legend, mut steps, mut errors) = (Vec::<LegendEntry>::new(), Vec::new(), Vec::new());
    if let Some(l) = lines.get(MAX_LINES) {
        let e = Error::at(
            ErrorKind::Limit,
            Location::at(&l.at.file, l.at.line, 1),
            format!("more than {MAX_LINES} variation lines in one prefab"),
        )
        .with_help("merge rules over the same glyphs (`subst: ab = …`), or split the prefab");
        return Err(vec![e]);
    }
    for l in lines {
        let value = Value { file: &l.at.file, text: &l.value, line: l.at.line, col: l.at.col };
        let read = match l.key.as_str() {
            "legend" => legend_line(&value).map(|e| match legend.iter().find(|o| o.glyph == e.glyph) {
                Some(o) => errors.push(value.error(
                    value.col,
                    format!("`{}` has a legend line already, at line {}", e.glyph, o.at.line),
                    "give each glyph one meaning",
                )),
                None => legend.push(e),
            }),
            key if KEYS.contains(&key) => step(key, &value).map(|s| steps.push(s)),
            key => Err(value.error(
                value.col,
                format!("`{key}` is not a variation key"),
                &format!("variation lines start with one of {}", KEYS.join(", ")),
            )),
        };
        if let Err(e) = read {
            errors.push(e);
        }
    }
    if errors.is_empty() { Ok((legend, steps)) } else { Err(errors) }
}

/// Reads the value of one variation line. `key` is one of [`KEYS`] but `legend`.
pub(crate) fn step(key: &str, value: &Value<'_>) -> Result<Step, Error> {
    let rule = match key {
        "subst" | "subst-once" => {
            let (from, rest, after) = sides(value, key, "~ = . #:2")?;
            Rule::Subst { from, choices: choices(value, &rest, after)?, once: key == "subst-once" }
        }
        "nsubst" => nsubst(value)?,
        _ => shuffle(value)?,
    };
    Ok(Step { rule, key: key_name(key), text: value.text.to_string(), at: value.location() })
}

fn key_name(key: &str) -> &'static str {
    KEYS.into_iter().find(|k| *k == key).unwrap_or("subst")
}

/// `nsubst: GLYPHS = COUNT [once] CHOICES / … / rest CHOICES`.
fn nsubst(value: &Value<'_>) -> Result<Rule, Error> {
    let example = "~ = 2 T / 1 once . , / rest #";
    let (from, rest, after) = sides(value, "nsubst", example)?;
    let help = "groups are `COUNT [once] GLYPHS`, separated by ` / `; the last may be `rest GLYPHS`";
    let mut groups: Vec<Group> = Vec::new();
    for part in rest.split(|t| t.text == "/") {
        let Some((count, tail)) = part.split_first() else {
            return Err(value.error(after, "an empty group", help));
        };
        if groups.last().is_some_and(|g| g.count.is_none()) {
            return Err(value.error(count.col, "a group after `rest`", "`rest` takes every cell left: it comes last"));
        }
        let count_value = match count.text {
            "rest" => None,
            n => match n.parse::<u32>() {
                Ok(c) if (1..=MAX_COUNT).contains(&c) => Some(c),
                _ => {
                    return Err(value.error(
                        count.col,
                        format!("`{n}` is not a count (a whole number from 1 to {MAX_COUNT}, or `rest`)"),
                        help,
                    ));
                }
            },
        };
        let (once, tail) = match tail.split_first() {
            Some((w, t)) if w.text == "once" => (true, t),
            _ => (false, tail),
        };
        let at = tail.first().map_or(count.col + count.text.chars().count() as u32, |t| t.col);
        groups.push(Group { count: count_value, once, choices: choices(value, tail, at)? });
    }
    Ok(Rule::Count { from, groups })
}

/// `shuffle: BLOCK BLOCK …`: blocks of one length, at least two of them
/// different. A glyph written more than once (a block written again, which
/// weighs the deal as Dungeon Crawl's `SHUFFLE: cxxx` does, or a glyph in
/// several blocks) follows the place it is first written.
fn shuffle(value: &Value<'_>) -> Result<Rule, Error> {
    let tokens = value.tokens();
    let help = "write `shuffle: a b c` to deal those glyphs among their cells, or `shuffle: ab cd` to swap blocks";
    if tokens.len() < 2 {
        return Err(value.error(value.col, "`shuffle` needs two blocks or more", help));
    }
    let mut blocks: Vec<Vec<char>> = Vec::new();
    for t in &tokens {
        let block = t.text.chars().enumerate().map(|(i, c)| check_glyph(value, c, t.col + i as u32).map(|()| c));
        let block = block.collect::<Result<Vec<char>, Error>>()?;
        if let Some(first) = blocks.first().filter(|b| b.len() != block.len()) {
            return Err(value.error(
                t.col,
                format!("block `{}` has {} glyphs but the first has {}", t.text, block.len(), first.len()),
                help,
            ));
        }
        blocks.push(block);
    }
    if blocks.iter().all(|b| *b == blocks[0]) {
        return Err(value.error(value.col, "`shuffle` needs two different blocks or more", help));
    }
    Ok(Rule::Shuffle { blocks })
}

/// The most cell marks one `legend` line gives.
pub(crate) const MAX_MARKS: usize = 8;

/// `legend: GLYPH = TERRAIN [ref R] [mark NAME …]`: what a glyph means in this
/// prefab alone.
fn legend_line(value: &Value<'_>) -> Result<LegendEntry, Error> {
    let tokens = value.tokens();
    let help = "write `legend: ~ = liquid`, `legend: c = room ref c` for floor holding reference `c`, or `legend: w = liquid mark no_monster_gen` for cells the game reads a mark on";
    let (Some(g), Some(eq), Some(terrain)) = (tokens.first(), tokens.get(1), tokens.get(2)) else {
        return Err(value.error(value.col, "`legend` needs a glyph, `=` and a terrain", help));
    };
    if eq.text != "=" {
        return Err(value.error(eq.col, format!("expected `=`, found `{}`", eq.text), help));
    }
    let mut chars = g.text.chars();
    let (Some(glyph), None) = (chars.next(), chars.next()) else {
        return Err(value.error(g.col, format!("`{}` is not one glyph", g.text), help));
    };
    check_glyph(value, glyph, g.col)?;
    let terrain_value = parse_terrain(terrain.text).map_err(|m| value.error(terrain.col, m, help))?;
    let mut rest = &tokens[3..];
    let reference = match rest {
        [word, r, ..] if word.text == "ref" => {
            rest = &rest[2..];
            let mut rc = r.text.chars();
            match (rc.next(), rc.next()) {
                (Some(c), None) if !c.is_control() && c != '.' => Some(c),
                _ => return Err(value.error(r.col, format!("`{}` is not a reference character", r.text), help)),
            }
        }
        _ => None,
    };
    let mut marks: Vec<String> = Vec::new();
    match rest {
        [] => {}
        [word] if word.text == "mark" => {
            return Err(value.error(word.col, "`mark` needs the names of the marks after it", help));
        }
        [word, names @ ..] if word.text == "mark" => {
            for name in names {
                let well_formed = name.text.len() <= 40
                    && name.text.starts_with(|c: char| c.is_ascii_lowercase())
                    && name.text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
                if !well_formed {
                    return Err(value.error(
                        name.col,
                        format!(
                            "`{}` is not a mark name: lower-case letters, digits and `_`, a letter first, at most 40",
                            name.text
                        ),
                        help,
                    ));
                }
                marks.push(name.text.to_string());
            }
            marks.sort();
            marks.dedup();
            if marks.len() > MAX_MARKS {
                return Err(value.error(names[0].col, format!("more than {MAX_MARKS} marks on one glyph"), help));
            }
        }
        [t, ..] => return Err(value.error(t.col, format!("unexpected `{}`", t.text), help)),
    }
    if reference.is_some() && !terrain_value.is_walkable() {
        return Err(value.error(
            terrain.col,
            format!("reference on {terrain_value}: objects stand on floor, doors or stairs"),
            help,
        ));
    }
    if terrain_value.is(Role::Stairs) && reference.is_some() {
        return Err(value.error(terrain.col, "general stairs hold no reference", help));
    }
    Ok(LegendEntry {
        glyph,
        terrain: terrain_value,
        reference,
        marks,
        text: value.text.to_string(),
        at: value.location(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Value<'_> {
        Value { file: "p.txt", text, line: 3, col: 8 }
    }

    #[test]
    fn reads_subst_with_weights_and_odd_glyphs() {
        let s = step("subst", &v("~# = . #:3 =")).unwrap();
        let Rule::Subst { from, choices, once } = s.rule else { panic!() };
        assert_eq!(from, ['~', '#']);
        assert!(!once);
        let got: Vec<(char, u32)> = choices.iter().map(|c| (c.glyph, c.weight)).collect();
        assert_eq!(got, [('.', 1), ('#', 3), ('=', 1)]);
        assert!(matches!(step("subst-once", &v("~ = . #")).unwrap().rule, Rule::Subst { once: true, .. }));
    }

    #[test]
    fn reads_nsubst_groups() {
        let s = step("nsubst", &v("~ = 2 T / 1 once . , / rest #")).unwrap();
        let Rule::Count { from, groups } = s.rule else { panic!() };
        assert_eq!(from, ['~']);
        assert_eq!(groups.len(), 3);
        assert_eq!((groups[0].count, groups[0].once, groups[0].choices.len()), (Some(2), false, 1));
        assert_eq!((groups[1].count, groups[1].once, groups[1].choices.len()), (Some(1), true, 2));
        assert_eq!((groups[2].count, groups[2].choices[0].glyph), (None, '#'));
    }

    #[test]
    fn reads_shuffles_and_legends() {
        let Rule::Shuffle { blocks } = step("shuffle", &v("ab cd")).unwrap().rule else { panic!() };
        assert_eq!(blocks, [vec!['a', 'b'], vec!['c', 'd']]);
        // A block written again whole weighs the deal.
        let Rule::Shuffle { blocks } = step("shuffle", &v("c x x x")).unwrap().rule else { panic!() };
        assert_eq!(blocks, [['c'], ['x'], ['x'], ['x']]);
        let l = legend_line(&v("c = room ref c")).unwrap();
        assert_eq!((l.glyph, l.terrain.to_string(), l.reference), ('c', "room".to_string(), Some('c')));
        assert_eq!(legend_line(&v("~ = liquid")).unwrap().reference, None);
    }

    #[test]
    fn mistakes_point_at_their_token() {
        let cases = [
            ("subst", "~ . #", "p.txt:3:10: syntax error: expected `=`, found `.`"),
            ("subst", "~ = .:0", "p.txt:3:14: syntax error: weight `0` is not a whole number"),
            ("subst", "~ = ab", "p.txt:3:13: syntax error: `ab` is not one glyph"),
            ("subst", "~ = * .", "p.txt:3:12: syntax error: `*` (a connector) cannot vary"),
            ("subst", "? = . #", "p.txt:3:8: syntax error: `?` (don't care) cannot vary"),
            ("shuffle", "a ?", "p.txt:3:10: syntax error: `?` (don't care) cannot vary"),
            ("subst", "~~ = .", "p.txt:3:9: syntax error: `~` is named twice"),
            ("subst", "~ =", "p.txt:3:11: syntax error: expected at least one glyph"),
            ("nsubst", "~ = rest . / 1 #", "p.txt:3:21: syntax error: a group after `rest`"),
            ("nsubst", "~ = two .", "p.txt:3:12: syntax error: `two` is not a count"),
            ("nsubst", "~ = 1 . / / rest #", "p.txt:3:11: syntax error: an empty group"),
            ("shuffle", "ab c", "p.txt:3:11: syntax error: block `c` has 1 glyphs but the first has 2"),
            ("shuffle", "a", "p.txt:3:8: syntax error: `shuffle` needs two blocks"),
            ("shuffle", "ab ab", "p.txt:3:8: syntax error: `shuffle` needs two different blocks"),
        ];
        for (key, text, want) in cases {
            let e = step(key, &v(text)).err().unwrap_or_else(|| panic!("{key}: {text} was accepted"));
            assert!(e.to_string().starts_with(want), "{key}: {text}\n got {e}\nwant {want}");
            assert!(e.help().is_some());
        }
        let e = legend_line(&v("c = wall ref c")).err().unwrap();
        assert!(e.to_string().starts_with("p.txt:3:12: syntax error: reference on wall"), "{e}");
        let e = legend_line(&v("c = lava")).err().unwrap();
        assert!(e.to_string().contains("unknown terrain `lava`"), "{e}");
    }
}
