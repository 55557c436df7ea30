//! Definition files (`*.def`): the legend of a prefab's reference layer, read into
//! located lines.
//!
//! Each line binds a reference character to an object (seed 000, "Inside a
//! Prefab"). Two optional columns come first — a chance that the line places
//! anything, and a group whose lines are alternatives of which exactly one is used —
//! then the character, the object's kind, what to pick, and keywords:
//!
//! ```text
//! # chance  group   char  kind    what                         keywords
//!                   a     entity  sentry_mk1
//!                   b     entity  sentry_mk1*3|sentry_mk2      SHIFT=2,1
//!                   c     entity  class:guard                  STRONG FALLBACK CATEGORY=combat
//!   50%             1     item    category:power               PROTOTYPE NEVERFAULTY RATING=+2
//!           @loot   2     item    carried-by:hauler_mk2
//!           @loot   2     item    any                          30%:PROTOTYPE
//!                   T     trap    arc_mine                     ARMED=yes|no DELAY=2..5
//!                   E     trap    category:explosive|any       RATING=+1
//!                   r     entity  scrap_rat*2|nothing*3
//!                   %     debris  scrap_heap
//!                   P     prop    parts_press                  SHIFT=1,0
//!                   W     machine winch_drum                   LOAD=ore
//! ```
//!
//! The alternative `nothing` places no object when drawn: with weights it says
//! how often a cell stays empty exactly (`scrap_rat*2|nothing*3`: two times in
//! five a rat), where a line's chance is a whole percent.
//!
//! A `prop` line whose prop is a machine (one with a `type` or `set`, or larger
//! than one cell) places its art with the reference cell as the top-left corner of
//! its footprint in the prefab as drawn (the footprint and art turn with the
//! prefab), as one object that blocks walkers; SHIFT moves it whole. A `machine`
//! line instead names a machine drawn on the prefab's machine layer: its character
//! is drawn on the refs layer over one cell of that machine, which keeps its drawn
//! art and becomes the catalog prop the line names, with the line's game keywords.
//! A drawn machine is always there, where it is drawn, so a `machine` line has no
//! chance, no group, exactly one tag and no SHIFT or UNIQUE.
//!
//! Keywords are randomised per placement (seed 000's "keyword randomization
//! modifiers", in our own words). Two prefixes decide whether a keyword applies at
//! all: `30%:NAME` (with that chance) and `?:NAME` (a coin flip, short for
//! `50%:`), rolled once per line and placed prefab. Four value forms pick its
//! value per object: `a|b|c` (one, uniformly), `a*3|b` (one by weight, 1-1000,
//! unweighted values weigh 1), `lo..hi` (an integer in the range) and `v~d` (an
//! integer within `d` of `v`, `5~2` being 3 to 7); numbers stay within ±1000000.
//!
//! Object-only encounters write the same lines without the character and with a
//! count, `[chance%] KIND WHAT [KEYWORD...] [xN | xLO-HI]` ([`parse_object`]).
//!
//! This module checks only the syntax, and knows nothing of catalogs: every piece
//! keeps its line and column so [`crate::content`] can report what the catalog
//! rejects at the right place. Lines are limited in number and length by
//! [`Limits`], checked as the file is read.

use crate::error::{Error, ErrorKind, Location};
use crate::geom::Point;
use crate::limits::Limits;

/// What a line asks for: one alternative of its `what` column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A catalog tag.
    Tag(String),
    /// An entity of this class, chosen for the depth.
    Class(String),
    /// An item (or, on a trap line, a trap) of this category, chosen for the depth.
    Category(String),
    /// An item the entity with this tag would carry.
    CarriedBy(String),
    /// Any item (or, on a trap line, any trap), chosen for the depth.
    Any,
    /// No object: drawn by its weight like any alternative, it leaves the cell
    /// empty (`rat*1|nothing*5` places a rat one time in six).
    Nothing,
}

impl std::fmt::Display for Pick {
    /// The alternative as a definition file writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Pick::Tag(t) => write!(f, "{t}"),
            Pick::Class(c) => write!(f, "class:{c}"),
            Pick::Category(c) => write!(f, "category:{c}"),
            Pick::CarriedBy(c) => write!(f, "carried-by:{c}"),
            Pick::Any => write!(f, "any"),
            Pick::Nothing => write!(f, "nothing"),
        }
    }
}

/// A keyword's value as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// One value.
    One(String),
    /// One of these, picked at random.
    OneOf(Vec<String>),
    /// An integer in this inclusive range, picked at random.
    Range(i64, i64),
    /// An integer within the second of the first (`5~2`: 3 to 7), picked at random.
    Around(i64, i64),
    /// One of these, picked at random by weight (`yes*3|no`: `yes` three times
    /// in four).
    Weighted(Vec<(String, u32)>),
}

impl Value {
    /// The inclusive range an [`Value::Around`] or [`Value::Range`] value is
    /// drawn from; `None` for the others.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        match *self {
            Value::Range(lo, hi) => Some((lo, hi)),
            Value::Around(v, d) => Some((v - d, v + d)),
            _ => None,
        }
    }
}

impl std::fmt::Display for Value {
    /// The value as a definition file writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::One(v) => write!(f, "{v}"),
            Value::OneOf(vs) => write!(f, "{}", vs.join("|")),
            Value::Range(lo, hi) => write!(f, "{lo}..{hi}"),
            Value::Around(v, d) => write!(f, "{v}~{d}"),
            Value::Weighted(vs) => {
                let parts: Vec<String> =
                    vs.iter().map(|(v, w)| if *w == 1 { v.clone() } else { format!("{v}*{w}") }).collect();
                write!(f, "{}", parts.join("|"))
            }
        }
    }
}

/// The largest weight a value of a weighted list may carry.
pub const MAX_VALUE_WEIGHT: u32 = 1000;

/// The largest magnitude of a number in a keyword's value (`lo..hi`, `v~d`), so
/// every draw fits in 32 bits.
pub const MAX_VALUE_NUMBER: i64 = 1_000_000;

/// A keyword as written: `NAME`, `NAME=VALUE`, with an optional `P%:` or `?:`
/// (50%) prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keyword {
    /// Its name, upper case.
    pub name: String,
    /// Its value, if it has one.
    pub value: Option<Value>,
    /// The percentage chance it applies at all (100 without a prefix).
    pub chance: u8,
    /// 1-based column of its first character.
    pub col: u32,
}

impl std::fmt::Display for Keyword {
    /// The keyword as a definition file writes it: `[chance%:]NAME[=value]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.chance < 100 {
            write!(f, "{}%:", self.chance)?;
        }
        write!(f, "{}", self.name)?;
        match &self.value {
            None => Ok(()),
            Some(v) => write!(f, "={v}"),
        }
    }
}

/// One definition line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefLine {
    /// 1-based line number.
    pub line: u32,
    /// The percentage chance the line places anything (100 without the column).
    pub chance: u8,
    /// Its group, if any: of the lines in one group, exactly one is used.
    pub group: Option<String>,
    /// The reference character.
    pub glyph: char,
    /// Column of the reference character.
    pub glyph_col: u32,
    /// The kind as written (`entity`, `item`, `prop`, `trap`, `debris`, or
    /// `machine` to name a drawn machine) and its column.
    pub kind: (String, u32),
    /// The alternatives of the `what` column, each with its column.
    pub picks: Vec<(Pick, u32)>,
    /// The weight of each alternative (`tag*3`; 1 when not written), in the
    /// order of `picks`.
    pub weights: Vec<u32>,
    /// Keywords, in order.
    pub keywords: Vec<Keyword>,
}

/// The kind of a line that names a drawn machine.
pub const MACHINE_KIND: &str = "machine";

/// Keywords the objects stage understands; any other upper-case keyword is the
/// game's own and is passed through.
pub const BUILT_IN_KEYWORDS: [&str; 8] =
    ["SHIFT", "UNIQUE", "CATEGORY", "STRONG", "FALLBACK", "PROTOTYPE", "NEVERFAULTY", "RATING"];

impl DefLine {
    /// The keyword named `name`, if the line has it.
    pub fn keyword(&self, name: &str) -> Option<&Keyword> {
        self.keywords.iter().find(|k| k.name == name)
    }

    /// True when the line has the keyword named `name`.
    pub fn has(&self, name: &str) -> bool {
        self.keyword(name).is_some()
    }

    /// The single value of keyword `name` (`NAME=value`), if it has one.
    pub fn value_of(&self, name: &str) -> Option<&str> {
        match &self.keyword(name)?.value {
            Some(Value::One(v)) => Some(v),
            _ => None,
        }
    }

    /// True for a `machine` line: it names a machine drawn on the prefab's
    /// machine layer rather than placing an object.
    pub fn names_machine(&self) -> bool {
        self.kind.0 == MACHINE_KIND
    }

    /// How many levels out of depth `RATING=+N` asks for (0 without it).
    pub fn rating_bonus(&self) -> u32 {
        self.value_of("RATING").and_then(|v| v.strip_prefix('+')).and_then(|n| n.parse().ok()).unwrap_or(0)
    }

    /// How far `SHIFT=X,Y` lets the line's objects move, across and down
    /// (`SHIFT=N`: N both ways; `SHIFT` alone: 0, 0); `None` without SHIFT.
    pub fn shift_reach(&self) -> Option<Point> {
        self.keyword("SHIFT")?;
        Some(match self.value_of("SHIFT").map(|v| v.split_once(',').unwrap_or((v, v))) {
            Some((x, y)) => Point::new(x.parse().unwrap_or(0), y.parse().unwrap_or(0)),
            None => Point::new(0, 0),
        })
    }
}

/// Reads the lines of a definition file; returns every line that could be read
/// and every syntax error, located in `file`.
pub fn parse(file: &str, source: &str, limits: &Limits) -> (Vec<DefLine>, Vec<Error>) {
    let mut lines = Vec::new();
    let mut errors = Vec::new();
    // Some editors start UTF-8 files with a byte order mark; it is not text.
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    for (i, raw) in source.split('\n').enumerate() {
        let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let text = raw.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if lines.len() >= limits.max_def_lines as usize {
            errors.push(
                Error::at(
                    ErrorKind::Limit,
                    Location::at(file, n, 1),
                    format!("more than {} definitions in one file", limits.max_def_lines),
                )
                .with_help("split the file, or raise Limits::max_def_lines"),
            );
            break;
        }
        if raw.len() > MAX_LINE_BYTES {
            errors.push(Error::at(
                ErrorKind::Limit,
                Location::at(file, n, 1),
                format!("the line is longer than {MAX_LINE_BYTES} bytes"),
            ));
            continue;
        }
        match parse_line(raw, n) {
            Ok(line) => lines.push(line),
            Err((col, message, help)) => {
                let mut e = Error::at(ErrorKind::Syntax, Location::at(file, n, col), message);
                if let Some(h) = help {
                    e = e.with_help(h);
                }
                errors.push(e);
            }
        }
    }
    (lines, errors)
}

/// Longest line read, in bytes.
const MAX_LINE_BYTES: usize = 4096;

/// A syntax error: column, message, hint.
type Fault = (u32, String, Option<String>);

/// Whitespace-separated tokens of a line with their 1-based columns, up to a ` #`
/// comment.
fn tokens(raw: &str) -> Vec<(&str, u32)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, u32)> = None;
    for (col, (i, c)) in (1u32..).zip(raw.char_indices()) {
        if c.is_whitespace() {
            if let Some((s, sc)) = start.take() {
                out.push((&raw[s..i], sc));
            }
        } else if start.is_none() {
            if c == '#' && !out.is_empty() {
                return out;
            }
            start = Some((i, col));
        }
    }
    if let Some((s, sc)) = start {
        out.push((&raw[s..], sc));
    }
    out
}

fn parse_line(raw: &str, line: u32) -> Result<DefLine, Fault> {
    let toks = tokens(raw);
    let mut it = toks.iter().copied().peekable();
    let mut chance = 100u8;
    let mut group = None;
    // A lone `%` is the debris character, not a chance.
    if let Some(&(t, col)) = it.peek()
        && t != "%"
        && let Some(p) = t.strip_suffix('%')
    {
        chance =
            percent(p).ok_or((col, format!("`{t}` is not a chance"), Some("write a chance as 0% to 100%".into())))?;
        it.next();
    }
    if let Some(&(t, col)) = it.peek()
        && let Some(g) = t.strip_prefix('@')
    {
        if g.is_empty() || !g.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err((col, format!("`{t}` is not a group name"), Some("groups look like `@loot`".into())));
        }
        group = Some(g.to_string());
        it.next();
    }
    let help_line = "a definition reads `[chance%] [@group] CHAR KIND WHAT [KEYWORD...]`, e.g. `a entity sentry_mk1`";
    let Some((glyph_text, glyph_col)) = it.next() else {
        return Err((1, "the line has no reference character".into(), Some(help_line.into())));
    };
    let mut chars = glyph_text.chars();
    let glyph = match (chars.next(), chars.next()) {
        (Some(c), None) if c != '.' && c != '#' && !c.is_control() => c,
        (Some('.' | '#'), None) => {
            return Err((
                glyph_col,
                format!("`{glyph_text}` cannot be a reference character"),
                Some("`.` is an empty cell in the refs grid and `#` starts a comment; use another character".into()),
            ));
        }
        _ => {
            return Err((
                glyph_col,
                format!("`{glyph_text}` is not a single reference character"),
                Some(help_line.into()),
            ));
        }
    };
    let Some((kind, kind_col)) = it.next() else {
        return Err((
            glyph_col,
            format!("reference `{glyph}` has no kind"),
            Some("kinds are entity, item, prop, trap, debris".into()),
        ));
    };
    let Some((what, what_col)) = it.next() else {
        return Err((
            kind_col,
            format!("reference `{glyph}` says what kind but not which object"),
            Some(help_line.into()),
        ));
    };
    let (picks, weights) = alternatives(what, what_col)?;
    let mut keywords = Vec::new();
    for (t, col) in it {
        keywords.push(keyword(t, col)?);
    }
    let line =
        DefLine { line, chance, group, glyph, glyph_col, kind: (kind.to_string(), kind_col), picks, weights, keywords };
    if line.names_machine() {
        machine_line(&line, &toks)?;
    }
    Ok(line)
}

/// Checks what a `machine` line may not have: a chance, a group, more than one
/// alternative or one that is not a tag, SHIFT or UNIQUE.
fn machine_line(line: &DefLine, toks: &[(&str, u32)]) -> Result<(), Fault> {
    let glyph = line.glyph;
    let always = "a `machine` line names a machine drawn in the prefab, which is always there";
    if line.chance < 100 || line.group.is_some() {
        let what = if line.chance < 100 { "a chance" } else { "a group" };
        return Err((
            toks[0].1,
            format!("machine `{glyph}` has {what}"),
            Some(format!("{always}: remove it, or place a catalog machine with a `prop` line instead")),
        ));
    }
    match line.picks.as_slice() {
        [(Pick::Tag(_), _)] => {}
        [_, (_, col), ..] => {
            return Err((
                *col,
                format!("machine `{glyph}` has more than one name"),
                Some("a drawn machine is one catalog prop: write one tag".into()),
            ));
        }
        [(pick, col)] => {
            return Err((
                *col,
                format!("machine `{glyph}` is named by `{pick}`, not a tag"),
                Some("name a drawn machine after one catalog prop by its tag, e.g. `W machine winch_drum`".into()),
            ));
        }
        [] => {}
    }
    if let Some(k) = line.keywords.iter().find(|k| k.name == "SHIFT" || k.name == "UNIQUE") {
        return Err((
            k.col,
            format!("machine `{glyph}` cannot take {}", k.name),
            Some(format!("{always}, where it is drawn, and is one object")),
        ));
    }
    Ok(())
}

/// Most objects one line of an object-only encounter may place.
pub const MAX_OBJECT_COUNT: u32 = 50;

/// An object line of an object-only encounter, as written in a map type's or
/// shared pool's `objects = [...]`: a definition line without its reference
/// character, and with a count — `[chance%] KIND WHAT [KEYWORD...] [xN | xLO-HI]`,
/// e.g. `entity class:swarmer STRONG x2-4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectLine {
    /// The line, its reference character a space (nothing draws it).
    pub line: DefLine,
    /// How many objects it places, drawn from this inclusive range (1 without a count).
    pub count: (u32, u32),
}

/// Reads one object line. `line` and `col` are where its text starts in the file:
/// columns in the result and in errors count from there. An error is its column,
/// what is wrong and a hint.
pub fn parse_object(raw: &str, line: u32, col: u32) -> Result<ObjectLine, (u32, String, Option<String>)> {
    let shift = |c: u32| col + c - 1;
    let help_line = "an object reads `[chance%] KIND WHAT [KEYWORD...] [xN or xLO-HI]`, e.g. `entity class:guard x2-4`";
    let toks: Vec<(&str, u32)> = tokens(raw).into_iter().map(|(t, c)| (t, shift(c))).collect();
    let mut it = toks.iter().copied().peekable();
    let mut chance = 100u8;
    if let Some(&(t, c)) = it.peek()
        && let Some(p) = t.strip_suffix('%')
    {
        chance =
            percent(p).ok_or((c, format!("`{t}` is not a chance"), Some("write a chance as 0% to 100%".into())))?;
        it.next();
    }
    let Some((kind, kind_col)) = it.next() else {
        return Err((col, "the object line is empty".into(), Some(help_line.into())));
    };
    if kind.starts_with('@') {
        let help = "groups choose among a definition file's lines; give the encounter's alternatives as separate encounters in one `group`";
        return Err((kind_col, format!("`{kind}`: object lines have no groups"), Some(help.into())));
    }
    let Some((what, what_col)) = it.next() else {
        return Err((kind_col, format!("`{kind}` says what kind but not which object"), Some(help_line.into())));
    };
    let (picks, weights) = alternatives(what, what_col)?;
    let mut keywords = Vec::new();
    let mut count = None;
    for (t, c) in it {
        if let Some(n) = t.strip_prefix('x').filter(|n| n.starts_with(|ch: char| ch.is_ascii_digit())) {
            if count.is_some() {
                return Err((c, format!("`{t}`: the count is given twice"), None));
            }
            count = Some(object_count(n).ok_or((
                c,
                format!("`{t}` is not a count"),
                Some(format!("write xN or xLO-HI, from 1 up to {MAX_OBJECT_COUNT}, smaller number first, e.g. x2-4")),
            ))?);
            continue;
        }
        keywords.push(keyword(t, c)?);
    }
    let line = DefLine {
        line,
        chance,
        group: None,
        glyph: ' ',
        glyph_col: col,
        kind: (kind.to_string(), kind_col),
        picks,
        weights,
        keywords,
    };
    Ok(ObjectLine { line, count: count.unwrap_or((1, 1)) })
}

/// `N` or `LO-HI` (the text after `x`) within 1..=[`MAX_OBJECT_COUNT`].
fn object_count(n: &str) -> Option<(u32, u32)> {
    let (lo, hi) = n.split_once('-').unwrap_or((n, n));
    let (lo, hi) = (lo.parse::<u32>().ok()?, hi.parse::<u32>().ok()?);
    (1 <= lo && lo <= hi && hi <= MAX_OBJECT_COUNT).then_some((lo, hi))
}

fn percent(p: &str) -> Option<u8> {
    p.parse::<u8>().ok().filter(|v| *v <= 100)
}

fn is_tag(t: &str) -> bool {
    !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn pick(alt: &str) -> Option<Pick> {
    let named = |prefix: &str| alt.strip_prefix(prefix).filter(|n| is_tag(n)).map(str::to_string);
    if alt == "any" {
        Some(Pick::Any)
    } else if alt == "nothing" {
        Some(Pick::Nothing)
    } else if alt.starts_with("class:") {
        named("class:").map(Pick::Class)
    } else if alt.starts_with("category:") {
        named("category:").map(Pick::Category)
    } else if alt.starts_with("carried-by:") {
        named("carried-by:").map(Pick::CarriedBy)
    } else if is_tag(alt) {
        Some(Pick::Tag(alt.to_string()))
    } else {
        None
    }
}

fn keyword(t: &str, col: u32) -> Result<Keyword, Fault> {
    let (chance, rest) = match t.split_once("%:") {
        _ if t.starts_with("?:") => (50, &t[2..]),
        Some((p, rest)) => (
            percent(p).ok_or((
                col,
                format!("`{p}%` is not a chance"),
                Some("a keyword's chance is 0% to 100%, as in `30%:PROTOTYPE`".into()),
            ))?,
            rest,
        ),
        None => (100, t),
    };
    let (name, value) = match rest.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (rest, None),
    };
    let upper = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if !upper {
        return Err((
            col,
            format!("`{name}` is not a keyword"),
            Some("keywords are upper case, like SHIFT=2,1 or UNIQUE, with an optional chance `30%:` or coin flip `?:` before them; the object goes in the column before them".into()),
        ));
    }
    let value = match value {
        None => None,
        Some("") => return Err((col, format!("keyword `{name}` has `=` but no value"), None)),
        Some(v) => Some(parse_value(v).ok_or((
            col,
            format!("`{v}` is not a value for `{name}`"),
            Some(
                "a value is a word, `a|b|c` (one of them), `a*3|b` (one of them by weight, 1-1000), `lo..hi` (a number in the range) or `v~d` (a number within d of v), numbers up to ±1000000"
                    .into(),
            ),
        ))?),
    };
    Ok(Keyword { name: name.to_string(), value, chance, col })
}

/// Picks with their columns, and their weights.
type Alternatives = (Vec<(Pick, u32)>, Vec<u32>);

/// The alternatives of a `what` column starting at column `col`: picks joined by
/// `|`, each with its column, and their weights (`tag*3`, 1-1000; 1 unwritten).
fn alternatives(what: &str, col: u32) -> Result<Alternatives, Fault> {
    let help = "write a tag, `class:NAME`, `category:NAME`, `carried-by:TAG`, `any` or `nothing`, alternatives joined by `|`, each maybe weighted as `tag*3`";
    let (mut picks, mut weights) = (Vec::new(), Vec::new());
    let mut at = col;
    for alt in what.split('|') {
        let (text, weight) = match alt.rsplit_once('*') {
            Some((text, w)) => {
                let weight = w.parse::<u32>().ok().filter(|w| (1..=MAX_VALUE_WEIGHT).contains(w)).ok_or((
                    at + text.chars().count() as u32 + 1,
                    format!("`{w}` is not a weight"),
                    Some(format!("a weight is a whole number from 1 to {MAX_VALUE_WEIGHT}, as in `drone*3|brute`")),
                ))?;
                (text, weight)
            }
            None => (alt, 1),
        };
        let p = pick(text).ok_or((at, format!("`{text}` is not a tag or a pick"), Some(help.into())))?;
        picks.push((p, at));
        weights.push(weight);
        at += alt.chars().count() as u32 + 1;
    }
    if picks.iter().all(|(p, _)| *p == Pick::Nothing) {
        return Err((
            col,
            format!("`{what}` places nothing in every draw"),
            Some("give the line an object to place, as in `scrap_rat*2|nothing*3`, or remove the line".into()),
        ));
    }
    Ok((picks, weights))
}

fn parse_value(v: &str) -> Option<Value> {
    let number = |n: &str| n.parse::<i64>().ok().filter(|n| n.abs() <= MAX_VALUE_NUMBER);
    if let Some((lo, hi)) = v.split_once("..") {
        let (lo, hi) = (number(lo)?, number(hi)?);
        return (lo <= hi).then_some(Value::Range(lo, hi));
    }
    if let Some((mid, spread)) = v.split_once('~') {
        let (mid, spread) = (number(mid)?, number(spread)?);
        let fits = spread >= 0 && (mid - spread).abs() <= MAX_VALUE_NUMBER && (mid + spread).abs() <= MAX_VALUE_NUMBER;
        return fits.then_some(Value::Around(mid, spread));
    }
    if v.contains('|') {
        let parts: Vec<&str> = v.split('|').collect();
        if parts.iter().any(|p| p.is_empty()) {
            return None;
        }
        if !parts.iter().any(|p| p.contains('*')) {
            return Some(Value::OneOf(parts.into_iter().map(str::to_string).collect()));
        }
        let weighted = |p: &str| -> Option<(String, u32)> {
            let (value, weight) = match p.rsplit_once('*') {
                Some((value, w)) => (value, w.parse::<u32>().ok().filter(|w| (1..=MAX_VALUE_WEIGHT).contains(w))?),
                None => (p, 1),
            };
            (!value.is_empty()).then(|| (value.to_string(), weight))
        };
        return parts.into_iter().map(weighted).collect::<Option<Vec<_>>>().map(Value::Weighted);
    }
    Some(Value::One(v.to_string()))
}

#[cfg(test)]
mod tests;
