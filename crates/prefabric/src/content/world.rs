//! The pack's `world.toml`: a dungeon of levels, a main line and branches off
//! it (seed 002: branches that feel unique; seed 000: entrances placed first;
//! seed 001: stairs matched between levels).
//!
//! In: the file's text, the names of the pack's map types and its prefabs.
//! Out: a [`WorldSpec`] in which every map type and prefab exists, the main
//! line covers depths 1 to its last without a gap, every branch hangs off a line
//! listed above it at levels that line has (so every level can be reached from
//! the first), every entrance set piece draws a staircase and fits the level it
//! goes on, and every arrival prefab draws exactly one stairs up. Every problem
//! is reported at its `file:line:col` with a fix.

use super::MapType;
use super::index::PrefabIndex;
use crate::error::{Error, ErrorKind, Location};
use crate::format::{parse_toml, suggest};
use crate::map::Role;
use crate::prefab::Prefab;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The most levels one line may have.
pub const MAX_LINE_LEVELS: u32 = 100;
/// The most lines (the main line and its branches) a world may have.
pub const MAX_LINES: usize = 64;
/// The most entrances into one branch, or stairs down from one level.
pub const MAX_EXITS: u32 = 8;

/// A world of levels as `world.toml` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldSpec {
    /// The file it was read from, for errors.
    pub file: String,
    /// Brogue's matched stairs: a level's stairs up stand where the level
    /// above put its stairs down, whenever the two levels are the same size.
    pub aligned_stairs: bool,
    /// The main line first, then the branches in the order written; a branch
    /// always comes after the line it leaves from.
    pub lines: Vec<LineSpec>,
}

/// One line of levels: the main line or a branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineSpec {
    /// Its name; its levels are named `name:1`, `name:2`, ….
    pub name: String,
    /// The map type of each of its levels, by stretches of level numbers.
    pub stretches: Vec<Stretch>,
    /// Stairs down kept on each level that has a next one (the rest of the
    /// level's stairs down become floor).
    pub down: u32,
    /// The prefab stamped where an aligned arrival is: it draws one stairs up.
    pub arrival_prefab: Option<String>,
    /// Where it leaves its parent line; `None` for the main line.
    pub branch: Option<BranchSpec>,
    /// Where the line is written.
    pub location: Location,
}

impl LineSpec {
    /// How many levels the line has.
    pub fn levels(&self) -> u32 {
        self.stretches.last().map_or(0, |s| s.last)
    }

    /// The map type of level `n` (from 1).
    pub fn map_type(&self, n: u32) -> Option<&str> {
        self.stretches.iter().find(|s| (s.first..=s.last).contains(&n)).map(|s| s.map_type.as_str())
    }
}

/// Levels `first` to `last` of a line (from 1) and their map type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stretch {
    /// The map type of these levels.
    pub map_type: String,
    /// The first level of the stretch.
    pub first: u32,
    /// The last level of the stretch.
    pub last: u32,
}

/// Where a branch leaves the line it branches from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchSpec {
    /// Index in [`WorldSpec::lines`] of the line it leaves from.
    pub from: usize,
    /// The levels of that line (from 1) its entrance may be on.
    pub entrance: (u32, u32),
    /// How many entrance set pieces that level gets.
    pub entrances: u32,
    /// The set piece placed on the entrance level; its stairs lead into the branch.
    pub entrance_prefab: String,
    /// Percent of worlds that hold the branch (100 for a branch always there).
    pub chance: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorldFile {
    #[serde(default)]
    aligned_stairs: Option<bool>,
    main: Spanned<MainFile>,
    #[serde(default)]
    branches: Vec<Spanned<BranchFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MainFile {
    #[serde(default)]
    name: Option<Spanned<String>>,
    levels: Vec<Spanned<StretchFile>>,
    #[serde(default)]
    down: Option<Spanned<i64>>,
    #[serde(default)]
    arrival_prefab: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StretchFile {
    map_type: Spanned<String>,
    depths: Spanned<(i64, i64)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BranchFile {
    name: Spanned<String>,
    map_type: Spanned<String>,
    levels: Spanned<i64>,
    #[serde(default)]
    from: Option<Spanned<String>>,
    entrance: Spanned<(i64, i64)>,
    #[serde(default)]
    entrances: Option<Spanned<i64>>,
    entrance_prefab: Spanned<String>,
    #[serde(default)]
    optional: Option<Spanned<bool>>,
    #[serde(default)]
    chance: Option<Spanned<i64>>,
    #[serde(default)]
    down: Option<Spanned<i64>>,
    #[serde(default)]
    arrival_prefab: Option<Spanned<String>>,
}

/// What a world is checked against: the pack's map types (every file under
/// `maps/`, and those that loaded) and its prefabs.
pub(crate) struct WorldParts<'a, 'p> {
    pub map_files: &'a [&'a str],
    pub map_types: &'a BTreeMap<String, MapType>,
    pub prefabs: &'a PrefabIndex<'p>,
}

/// Reads `world.toml` (`file` labels it) and checks it against `parts`.
pub(crate) fn read(file: &str, text: &str, parts: &WorldParts<'_, '_>) -> Result<WorldSpec, Vec<Error>> {
    let raw: WorldFile = parse_toml(file, text).map_err(|e| vec![e])?;
    let mut r = Reader { file, text, parts, errors: Vec::new() };
    let main = raw.main.get_ref();
    let name = main.name.as_ref().map_or_else(|| "main".to_string(), |n| r.line_name(n));
    let mut lines = vec![LineSpec {
        name,
        stretches: r.main_stretches(&raw.main),
        down: r.number(main.down.as_ref(), "down", 1..=i64::from(MAX_EXITS), 1) as u32,
        arrival_prefab: main.arrival_prefab.as_ref().map(|p| r.arrival_prefab(p)),
        branch: None,
        location: r.at(raw.main.span().start),
    }];
    for branch in &raw.branches {
        if lines.len() >= MAX_LINES {
            r.invalid(branch.span().start, format!("a world may have at most {MAX_LINES} lines"), "merge branches");
            break;
        }
        if let Some(line) = r.branch(branch, &lines) {
            lines.push(line);
        }
    }
    if r.errors.is_empty() {
        Ok(WorldSpec { file: file.to_string(), aligned_stairs: raw.aligned_stairs.unwrap_or(true), lines })
    } else {
        Err(r.errors)
    }
}

/// Where a world's problems go.
struct Reader<'a, 'p> {
    file: &'a str,
    text: &'a str,
    parts: &'a WorldParts<'a, 'p>,
    errors: Vec<Error>,
}

impl<'p> Reader<'_, 'p> {
    fn at(&self, offset: usize) -> Location {
        Location::at_offset(self.file, self.text, offset)
    }

    fn invalid(&mut self, offset: usize, message: String, help: &str) {
        self.errors.push(Error::at(ErrorKind::Invalid, self.at(offset), message).with_help(help));
    }

    fn number(&mut self, v: Option<&Spanned<i64>>, what: &str, range: std::ops::RangeInclusive<i64>, or: i64) -> i64 {
        match v {
            None => or,
            Some(n) if range.contains(n.get_ref()) => *n.get_ref(),
            Some(n) => {
                let message = format!("{what} {} must be {}-{}", n.get_ref(), range.start(), range.end());
                self.invalid(n.span().start, message, "");
                or
            }
        }
    }

    fn line_name(&mut self, name: &Spanned<String>) -> String {
        let ok = !name.get_ref().is_empty()
            && name.get_ref().chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
        if !ok {
            let message = format!("line name `{}` may only use lowercase letters, digits, `_` and `-`", name.get_ref());
            self.invalid(name.span().start, message, "its levels are named `NAME:1`, `NAME:2`, … in every output");
        }
        name.get_ref().clone()
    }

    /// A map type named at `name`, reported when the pack has none so named.
    fn map_type(&mut self, name: &Spanned<String>) -> String {
        let wanted = name.get_ref();
        if !self.parts.map_files.contains(&wanted.as_str()) {
            let help = match suggest(wanted, self.parts.map_files.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "map types are the files under maps/, named without .toml".to_string(),
            };
            self.invalid(name.span().start, format!("no map type named `{wanted}` in this pack"), &help);
        }
        wanted.clone()
    }

    fn prefab(&mut self, name: &Spanned<String>) -> Option<&'p Prefab> {
        let prefabs: &PrefabIndex<'p> = self.parts.prefabs;
        match prefabs.get(name.get_ref()) {
            Some(p) => Some(p),
            None => {
                if let Some((message, help)) =
                    prefabs.unknown_name(name.get_ref(), "prefabs are named by their `prefab` line or file name")
                {
                    self.invalid(name.span().start, message, &help);
                }
                None
            }
        }
    }

    fn arrival_prefab(&mut self, name: &Spanned<String>) -> String {
        if let Some(prefab) = self.prefab(name) {
            let ups = stairs_cells(prefab, |r| r == Role::StairsUp);
            if ups != 1 || prefab.links().is_empty() {
                let message = format!(
                    "arrival prefab `{}` draws {ups} stairs up cells and {} link marks: it needs one `<` and a link",
                    prefab.name(),
                    prefab.links().len()
                );
                let at = name.span().start;
                self.invalid(at, message, "an arrival is stamped with its stairs up on the cell where the level above put its stairs down, and the layout joins it through its links");
            }
        }
        name.get_ref().clone()
    }

    fn main_stretches(&mut self, main: &Spanned<MainFile>) -> Vec<Stretch> {
        let mut stretches = Vec::new();
        let mut next = 1;
        for s in &main.get_ref().levels {
            let (lo, hi) = *s.get_ref().depths.get_ref();
            let at = s.get_ref().depths.span().start;
            if lo != i64::from(next) || hi < lo || hi > i64::from(MAX_LINE_LEVELS) {
                let message = format!("depths [{lo}, {hi}]: the main line's stretches must run on from depth {next}");
                let help = format!(
                    "write the stretches in order, each starting where the last ended (the first at 1), up to depth {MAX_LINE_LEVELS}"
                );
                self.invalid(at, message, &help);
                return stretches;
            }
            let map_type = self.map_type(&s.get_ref().map_type);
            stretches.push(Stretch { map_type, first: lo as u32, last: hi as u32 });
            next = hi as u32 + 1;
        }
        if stretches.is_empty() && self.errors.is_empty() {
            let message = "the main line has no levels".to_string();
            self.invalid(main.span().start, message, "add `levels = [{ map_type = \"NAME\", depths = [1, 10] }]`");
        }
        stretches
    }

    fn branch(&mut self, b: &Spanned<BranchFile>, lines: &[LineSpec]) -> Option<LineSpec> {
        let f = b.get_ref();
        let name = self.line_name(&f.name);
        if lines.iter().any(|l| l.name == name) {
            self.invalid(
                f.name.span().start,
                format!("a line named `{name}` is already written above"),
                "give each line its own name",
            );
        }
        let map_type = self.map_type(&f.map_type);
        let levels = self.number(Some(&f.levels), "levels", 1..=i64::from(MAX_LINE_LEVELS), 1) as u32;
        let from_name = f.from.as_ref().map_or(lines[0].name.as_str(), |n| n.get_ref().as_str());
        let Some(from) = lines.iter().position(|l| l.name == from_name) else {
            let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
            let help = match suggest(from_name, names.iter().copied()) {
                Some(s) => {
                    format!("did you mean `{s}`? A branch leaves from the main line or a branch written above it")
                }
                None => {
                    format!("a branch leaves from the main line or a branch written above it: {}", names.join(", "))
                }
            };
            let at = f.from.as_ref().map_or(b.span().start, |n| n.span().start);
            self.invalid(at, format!("no line named `{from_name}` above this branch"), &help);
            return None;
        };
        let (lo, hi) = *f.entrance.get_ref();
        let parent_levels = lines[from].levels();
        if lo < 1 || hi < lo || hi > i64::from(parent_levels) {
            let message = format!(
                "entrance [{lo}, {hi}]: `{from_name}` has levels 1-{parent_levels}, so no level could hold the way into `{name}`"
            );
            self.invalid(
                f.entrance.span().start,
                message,
                "give the levels of the line it leaves from where its entrance may be, lowest first",
            );
            return None;
        }
        let entrances = self.number(f.entrances.as_ref(), "entrances", 1..=i64::from(MAX_EXITS), 1) as u32;
        let optional = f.optional.as_ref().is_some_and(|o| *o.get_ref());
        let chance = self.number(f.chance.as_ref(), "chance", 1..=100, if optional { 50 } else { 100 }) as u32;
        if let (false, Some(c)) = (optional, &f.chance)
            && *c.get_ref() != 100
        {
            self.invalid(
                c.span().start,
                format!("chance {} on a branch that is not optional", c.get_ref()),
                "add `optional = true`, or remove `chance` (a branch that is not optional is in every world)",
            );
        }
        let entrance_prefab = f.entrance_prefab.get_ref().clone();
        if let Some(prefab) = self.prefab(&f.entrance_prefab) {
            let (w, h) = (prefab.width().max(prefab.height()), prefab.width().min(prefab.height()));
            let stairs = stairs_cells(prefab, |r| r == Role::StairsDown);
            let too_big: Vec<&str> = (lo as u32..=hi as u32)
                .filter_map(|n| lines[from].map_type(n))
                .filter(|m| {
                    self.parts
                        .map_types
                        .get(*m)
                        .is_some_and(|t| w + 2 > t.width.max(t.height) || h + 2 > t.width.min(t.height))
                })
                .collect();
            if stairs == 0 {
                let message = format!("entrance prefab `{entrance_prefab}` draws no stairs down to lead into `{name}`");
                self.invalid(
                    f.entrance_prefab.span().start,
                    message,
                    "draw stairs down (`stairs_down` in the palette, `>` in the built-in one) in it",
                );
            } else if let Some(m) = too_big.first() {
                let message = format!(
                    "entrance prefab `{entrance_prefab}` ({}x{}) does not fit a `{m}` level, where the entrance may be",
                    prefab.width(),
                    prefab.height()
                );
                self.invalid(
                    f.entrance_prefab.span().start,
                    message,
                    "use a smaller set piece or other entrance levels",
                );
            }
        }
        Some(LineSpec {
            name,
            stretches: vec![Stretch { map_type, first: 1, last: levels }],
            down: self.number(f.down.as_ref(), "down", 1..=i64::from(MAX_EXITS), 1) as u32,
            arrival_prefab: f.arrival_prefab.as_ref().map(|p| self.arrival_prefab(p)),
            branch: Some(BranchSpec { from, entrance: (lo as u32, hi as u32), entrances, entrance_prefab, chance }),
            location: self.at(b.span().start),
        })
    }
}

/// How many cells of `prefab` have a role `is` accepts.
fn stairs_cells(prefab: &Prefab, is: impl Fn(Role) -> bool) -> usize {
    prefab.cells().cells().iter().flatten().filter(|t| is(t.role())).count()
}
