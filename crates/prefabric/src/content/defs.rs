//! Definition files checked against the catalog and the prefabs that use them.
//!
//! Every `prefabs/**/NAME.def` is read with [`crate::format::def`] and each line
//! checked: its kind, every alternative it may pick (a tag of that kind, an entity
//! class that has a member at every depth the prefabs using it can appear at, an
//! item or trap category with something rated at those depths, the carrier of
//! some item), and its keywords (the built-in ones with their values and the
//! picks they apply to; game keywords against what the catalog's
//! `[keywords.KIND]` declares, when it declares that kind: a value it does not
//! allow is an error, an undeclared keyword a warning). Then the references: a
//! character a prefab draws and its definitions leave out, a definition no prefab draws, a prefab with references and no
//! definitions. A `machine` line names a drawn machine: its tag must be a prop
//! that is a machine, its reference must lie on a machine drawn on the prefab's
//! machine layer (and only such references may), and no machine is named twice;
//! the footprints of machines `prop` lines place are checked in every prefab using
//! the file (`footprints.rs`), and object-only encounters may not scatter
//! machines. Every problem is located at its `file:line:col`; a line that did
//! not load is not reported again where a prefab draws its character. The conventions of
//! seed 000 (upper case props and traps, lower case entities, digits items,
//! punctuation debris) are a lint: lines that break them are reported as
//! warnings, which never stop a pack from loading.

use super::catalog::{Catalog, Kind, MAX_RATING};
use super::index::PrefabIndex;
use super::keywords::KeywordProblem;
use crate::error::{Error, ErrorKind, Location};
use crate::format::def::{self, BUILT_IN_KEYWORDS, DefLine, Keyword, Pick, Value};
use crate::format::{article_before_word, suggest};
use crate::limits::Limits;
use std::collections::{BTreeMap, BTreeSet};

/// A checked definition line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The line as written (alternatives, keywords, chance, group).
    pub line: DefLine,
    /// Its kind.
    pub kind: Kind,
    /// Where it is written.
    pub location: Location,
    /// For each alternative of the line, the footprint (width, height, as drawn)
    /// of the catalog machine it places, which blocks walkers; `None` for an
    /// object that does not block, and on a `machine` line, which places nothing.
    pub footprints: Vec<Option<(u8, u8)>>,
}

/// A definition file: what each reference character stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definitions {
    /// Its name: the file name without `.def`.
    pub name: String,
    /// The file, as errors name it.
    pub file: String,
    /// Its lines, in file order.
    pub lines: Vec<Definition>,
}

impl Definitions {
    /// True when some line defines `glyph`.
    pub fn defines(&self, glyph: char) -> bool {
        self.lines.iter().any(|d| d.line.glyph == glyph)
    }
}

/// Reads and checks every definition file. `files` are `(path in pack, label,
/// text)`; `depths` gives, per prefab name, the depths it can appear at. What
/// lines pick is checked only against a `catalog` that loaded, and at depths only
/// when every map type loaded (`depths` is `None` otherwise): against a broken
/// one every check would repeat its problems.
pub(crate) fn read(
    files: &[(&str, String, &str)],
    catalog: Option<&Catalog>,
    prefabs: &PrefabIndex<'_>,
    depths: Option<&BTreeMap<String, Vec<u32>>>,
    limits: &Limits,
) -> (BTreeMap<String, Definitions>, Vec<Error>) {
    let mut defs: BTreeMap<String, Definitions> = BTreeMap::new();
    let mut errors = Vec::new();
    // Characters whose line did not load, by file (`None`: a line the syntax lost,
    // so any character): prefabs drawing one are not reported again.
    let mut broken: BTreeMap<String, Option<BTreeSet<char>>> = BTreeMap::new();
    for (path, file, text) in files {
        let name = path.rsplit('/').next().unwrap_or(path).trim_end_matches(".def").to_string();
        if let Some(first) = defs.get(&name) {
            errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    Location::file(file.clone()),
                    format!("a second definition file named `{name}`"),
                )
                .with_help(format!(
                    "the first is {}; definition files are found by name, so names must be unique",
                    first.file
                )),
            );
            continue;
        }
        let (lines, syntax) = def::parse(file, text, limits);
        if !syntax.is_empty() {
            broken.insert(name.clone(), None);
        }
        errors.extend(syntax);
        // The depths every prefab using this file can appear at.
        let users = prefabs.prefabs().iter().filter(|p| p.defs_name() == name);
        let mut at_depths: BTreeSet<u32> = BTreeSet::new();
        for p in users.filter(|_| depths.is_some()) {
            match depths.and_then(|d| d.get(p.name())) {
                Some(d) => at_depths.extend(d),
                None => at_depths.extend(1..=MAX_RATING),
            }
        }
        let mut checked = Vec::new();
        for line in lines {
            let location = Location::at(file.clone(), line.line, line.glyph_col);
            let mut c = LineCheck { file, line: &line, catalog, errors: &mut errors, in_prefab: true };
            match c.kind() {
                Some(kind) => {
                    c.picks(kind, &at_depths);
                    c.keywords(kind);
                    let footprints = footprints(&line, kind, catalog);
                    checked.push(Definition { line, kind, location, footprints });
                }
                None => {
                    if let Some(glyphs) = broken.entry(name.clone()).or_insert_with(|| Some(BTreeSet::new())) {
                        glyphs.insert(line.glyph);
                    }
                }
            }
        }
        errors.extend(stack_problems(&checked));
        defs.insert(name.clone(), Definitions { name, file: file.clone(), lines: checked });
    }
    errors.extend(check_references(&defs, prefabs, &broken));
    (defs, errors)
}

/// Several lines for one character: the alternatives of one `@group`, or a
/// *stack*, lines (or groups) that each place their object on every cell of the
/// character, as an item lies under a creature. A stack holds at most one entity
/// and nothing that blocks: a machine has its cells alone.
fn stack_problems(checked: &[Definition]) -> Vec<Error> {
    let mut errors = Vec::new();
    let help = "lines for one character are the alternatives of one `@group`, or a stack placing each of its objects on every cell of the character: at most one entity, and no machine or `machine` line";
    for (i, d) in checked.iter().enumerate() {
        let earlier: Vec<&Definition> = checked[..i].iter().filter(|e| e.line.glyph == d.line.glyph).collect();
        // The first line of the character, or another line of a group seen already.
        let Some(first) = earlier.first() else { continue };
        if d.line.group.is_some() && earlier.iter().any(|e| e.line.group == d.line.group) {
            continue;
        }
        let blocks = |e: &Definition| e.line.names_machine() || e.footprints.iter().any(Option::is_some);
        let why = if let Some(e) = std::iter::once(d).chain(earlier.iter().copied()).find(|e| blocks(e)) {
            Some(format!(
                "it stacks objects on the cells of `{}`, and the line at {} may place a machine, which has its cells alone",
                d.line.glyph, e.location
            ))
        } else if d.kind == Kind::Entity
            && let Some(e) = earlier
                .iter()
                .find(|e| e.kind == Kind::Entity && (e.line.group.is_none() || e.line.group != d.line.group))
        {
            Some(format!(
                "a cell of `{}` holds one entity, and the line at {} places one already",
                d.line.glyph, e.location
            ))
        } else {
            None
        };
        if let Some(why) = why {
            errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    d.location.clone(),
                    format!("`{}` is already defined at {}: {why}", d.line.glyph, first.location),
                )
                .with_help(help),
            );
        }
    }
    errors
}

/// The footprint of the catalog machine each alternative of a `prop` line
/// places (`None` for a prop that does not block, and for every other kind).
fn footprints(line: &DefLine, kind: Kind, catalog: Option<&Catalog>) -> Vec<Option<(u8, u8)>> {
    let placed = kind == Kind::Prop && !line.names_machine();
    line.picks
        .iter()
        .map(|(pick, _)| match (pick, catalog) {
            (Pick::Tag(t), Some(c)) if placed => c.prop(t).filter(|p| p.blocks()).map(|p| p.size),
            _ => None,
        })
        .collect()
}

/// Checks one line outside a definition file (an object-only encounter's object)
/// as a definition file's line is checked: its kind, its picks at `depths` when
/// the catalog loaded, and its keywords. Returns its kind when that is known.
pub(crate) fn check_line(
    file: &str,
    line: &DefLine,
    catalog: Option<&Catalog>,
    depths: &BTreeSet<u32>,
    errors: &mut Vec<Error>,
) -> Option<Kind> {
    let mut c = LineCheck { file, line, catalog, errors, in_prefab: false };
    let kind = c.kind()?;
    c.picks(kind, depths);
    c.keywords(kind);
    c.scattered_machines(kind);
    Some(kind)
}

/// The problems of the lines of `defs` picking at `depths` (each line's picks
/// checked as [`read`] checks them): for a pack that loaded, checked at its own
/// depths already, and a map type read later ([`Pack::read_map_type`](super::Pack::read_map_type))
/// that places the file's prefabs at other depths.
pub(crate) fn picks_at(defs: &Definitions, catalog: &Catalog, depths: &BTreeSet<u32>) -> Vec<Error> {
    let mut errors = Vec::new();
    for d in &defs.lines {
        let mut c =
            LineCheck { file: &defs.file, line: &d.line, catalog: Some(catalog), errors: &mut errors, in_prefab: true };
        c.picks(d.kind, depths);
    }
    errors
}

/// Warnings for lines whose character breaks seed 000's convention: lower case for
/// entities, digits for items, upper case for props and traps, punctuation for
/// debris.
pub(crate) fn lint(defs: &BTreeMap<String, Definitions>) -> Vec<Error> {
    let mut warnings = Vec::new();
    for d in defs.values() {
        for line in &d.lines {
            let g = line.line.glyph;
            let (fits, convention) = match line.kind {
                Kind::Entity => (g.is_lowercase(), "lower-case letters"),
                Kind::Item => (g.is_ascii_digit(), "digits"),
                Kind::Prop | Kind::Trap => (g.is_uppercase(), "upper-case letters"),
                Kind::Debris => (g.is_ascii_punctuation(), "punctuation"),
            };
            if !fits {
                warnings.push(
                    Error::at(
                        ErrorKind::Lint,
                        line.location.clone(),
                        format!("`{g}` stands for {} {}", article_before_word(line.kind.name()), line.kind.name()),
                    )
                    .with_help(format!(
                        "by convention {} references use {convention}, so prefabs read at a glance",
                        line.kind.name()
                    )),
                );
            }
        }
    }
    warnings
}

/// Warnings for game keywords a line writes that the catalog does not declare
/// for its kind (only kinds with a `[keywords.KIND]` table are checked): a typo,
/// or a declaration to add.
pub(crate) fn lint_keywords(defs: &BTreeMap<String, Definitions>, catalog: &Catalog) -> Vec<Error> {
    let mut warnings = Vec::new();
    for line in defs.values().flat_map(|d| &d.lines) {
        for k in &line.line.keywords {
            let Some(KeywordProblem::Unknown(closest)) = catalog.keywords().check(line.kind, k) else { continue };
            let at = Location::at(line.location.file.clone(), line.location.line, k.col);
            let help = match closest {
                Some(c) => format!("did you mean `{c}`?"),
                None => format!("declare it in the catalog's `[keywords.{}]`, or fix its name", line.kind.name()),
            };
            warnings.push(
                Error::at(
                    ErrorKind::Lint,
                    at,
                    format!("the catalog declares no {} keyword `{}`", line.kind.name(), k.name),
                )
                .with_help(help),
            );
        }
    }
    warnings
}

/// Warnings for reference characters that are also terrain glyphs of the
/// palette's `[glyphs]`: the refs layer is its own grid, so nothing breaks, but a reader
/// (or a REXPaint user) sees a door where an item stands.
pub(crate) fn lint_palette(
    defs: &BTreeMap<String, Definitions>,
    palette: &crate::format::palette::Palette,
) -> Vec<Error> {
    let mut warnings = Vec::new();
    for d in defs.values() {
        for line in &d.lines {
            let g = line.line.glyph;
            // Digits are floor variants of every palette and items' own
            // convention: only glyphs the palette lists clash.
            if let Some(&(_, terrain)) = palette.glyphs().iter().find(|(c, _)| *c == g) {
                warnings.push(
                    Error::at(
                        ErrorKind::Lint,
                        Location::at(line.location.file.clone(), line.location.line, line.line.glyph_col),
                        format!(
                            "`{g}` stands for {} {} here, but the palette draws `{g}` as {}",
                            article_before_word(line.kind.name()),
                            line.kind.name(),
                            terrain.role().name()
                        ),
                    )
                    .with_help("pick a character the palette does not use, so a prefab's layers read apart"),
                );
            }
        }
    }
    warnings
}

/// Characters drawn and not defined (unless their line is `broken`), defined and
/// not drawn (unless a prefab that did not load uses the file), and prefabs that
/// draw references with no definition file at all.
fn check_references(
    defs: &BTreeMap<String, Definitions>,
    prefabs: &PrefabIndex<'_>,
    broken: &BTreeMap<String, Option<BTreeSet<char>>>,
) -> Vec<Error> {
    let mut errors = Vec::new();
    let mut drawn: BTreeMap<&str, BTreeSet<char>> = BTreeMap::new();
    // A file that did not load is its own problem, not that of prefabs using it.
    let unloaded = |name: &str| !defs.contains_key(name) && !broken.contains_key(name);
    for p in prefabs.prefabs().iter().filter(|p| p.possible_refs().is_empty()) {
        if let Some(named) = p.header().defs.filter(|n| unloaded(n)) {
            errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    p.origin().clone(),
                    format!("prefab `{}` names the definition file `{named}` but there is no `{named}.def`", p.name()),
                )
                .with_help(
                    "fix the name in its `defs:` line, or remove the line: the prefab draws no reference characters",
                ),
            );
        }
    }
    for p in prefabs.prefabs().iter().filter(|p| !p.possible_refs().is_empty()) {
        let Some(d) = defs.get(p.defs_name()) else {
            if !unloaded(p.defs_name()) {
                continue;
            }
            errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    p.origin().clone(),
                    format!("prefab `{}` draws reference characters but there is no `{}.def`", p.name(), p.defs_name()),
                )
                .with_help("add the definition file under prefabs/, or name a shared one with `defs:` in the header"),
            );
            continue;
        };
        let used = drawn.entry(d.name.as_str()).or_default();
        let mut missing: Vec<char> = Vec::new();
        // Every reference some outcome of a varying prefab may hold, on each
        // terrain it may stand on (one entry per reference otherwise).
        let possible = p.possible_refs();
        for (r, terrain) in &possible {
            used.insert(r.glyph);
            let naming = d.lines.iter().find(|l| l.line.glyph == r.glyph && l.line.names_machine());
            let on_machine = p.machines().iter().any(|m| m.cells().iter().any(|c| c.0 == r.at));
            match (on_machine, naming) {
                (true, None) => errors.push(
                    Error::at(
                        ErrorKind::Invalid,
                        p.origin().clone(),
                        format!(
                            "prefab `{}` draws reference `{}` on a machine at x={} y={}",
                            p.name(),
                            r.glyph,
                            r.at.x,
                            r.at.y
                        ),
                    )
                    .with_help(format!(
                        "objects stand beside machines; to name the machine, define `{}` as `machine TAG`",
                        r.glyph
                    )),
                ),
                (false, Some(l)) => errors.push(
                    Error::at(
                        ErrorKind::Invalid,
                        l.location.clone(),
                        format!(
                            "machine `{}` names a drawn machine, but prefab `{}` draws it at x={} y={} where no machine is drawn",
                            r.glyph,
                            p.name(),
                            r.at.x,
                            r.at.y
                        ),
                    )
                    .with_help("draw the character over a cell of the machine it names, or place the prop with a `prop` line"),
                ),
                _ => {}
            }
            let terrain = *terrain;
            let misplaced = d
                .lines
                .iter()
                .filter(|l| l.line.glyph == r.glyph)
                .find(|l| terrain.is_some_and(|t| !l.kind.may_stand_on(t)));
            if let (Some(l), Some(t)) = (misplaced, terrain) {
                errors.push(
                    Error::at(
                        ErrorKind::Invalid,
                        l.location.clone(),
                        format!(
                            "`{}` is {} {} but prefab `{}` draws it on {t} at x={} y={}",
                            r.glyph,
                            if l.kind.name().starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" },
                            l.kind.name(),
                            p.name(),
                            r.at.x,
                            r.at.y
                        ),
                    )
                    .with_help("objects stand on floor; only traps may also sit on doors"),
                );
            }
            if !d.defines(r.glyph) && !missing.contains(&r.glyph) {
                missing.push(r.glyph);
            }
        }
        errors.extend(named_twice(d, p));
        match broken.get(&d.name) {
            Some(None) => missing.clear(),
            Some(Some(glyphs)) => missing.retain(|g| !glyphs.contains(g)),
            None => {}
        }
        for glyph in missing {
            let at = possible.iter().find(|r| r.0.glyph == glyph).map_or(crate::geom::Point::default(), |r| r.0.at);
            // A reference only the variation's legend gives is reported at its legend line.
            let (location, draws) =
                match p.legend_line_of(glyph).filter(|_| !p.drawn_refs().iter().any(|r| r.glyph == glyph)) {
                    Some(line) => (line, "may place"),
                    None => (p.origin().clone(), "draws"),
                };
            errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    location,
                    format!(
                        "prefab `{}` {draws} `{glyph}` (first at x={} y={}) but {} does not define it",
                        p.name(),
                        at.x,
                        at.y,
                        d.file
                    ),
                )
                .with_help(format!("add a line for `{glyph}` to {}", d.file)),
            );
        }
    }
    for d in defs.values().filter(|d| !prefabs.unread_uses_defs(&d.name)) {
        let used = drawn.get(d.name.as_str());
        let mut reported = BTreeSet::new();
        for line in &d.lines {
            let glyph = line.line.glyph;
            if !used.is_some_and(|u| u.contains(&glyph)) && reported.insert(glyph) {
                errors.push(
                    Error::at(
                        ErrorKind::Invalid,
                        line.location.clone(),
                        format!("`{glyph}` is defined but no prefab using `{}` draws it", d.name),
                    )
                    .with_help("remove the line, or draw the character on a prefab's refs layer"),
                );
            }
        }
    }
    // A reference a varying prefab may hold on several terrains is checked once
    // per terrain: say each problem once.
    errors.dedup();
    errors
}

/// Drawn machines of prefab `p` that two references of `machine` lines name.
fn named_twice(d: &Definitions, p: &crate::prefab::Prefab) -> Vec<Error> {
    let mut errors = Vec::new();
    let naming = |glyph: char| d.lines.iter().find(|l| l.line.glyph == glyph && l.line.names_machine());
    for m in p.machines() {
        let names: Vec<(&crate::prefab::RefMark, &Definition)> = p
            .refs()
            .iter()
            .filter(|r| m.cells().iter().any(|c| c.0 == r.at))
            .filter_map(|r| naming(r.glyph).map(|l| (r, l)))
            .collect();
        if let [(first, _), (second, line), ..] = names.as_slice() {
            errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    line.location.clone(),
                    format!(
                        "prefab `{}` names its machine at x={} y={} twice: `{}` at x={} y={} and `{}` at x={} y={}",
                        p.name(),
                        m.anchor().x,
                        m.anchor().y,
                        first.glyph,
                        first.at.x,
                        first.at.y,
                        second.glyph,
                        second.at.x,
                        second.at.y
                    ),
                )
                .with_help("a drawn machine is one prop: draw one `machine` reference on it"),
            );
        }
    }
    errors
}

struct LineCheck<'a> {
    file: &'a str,
    line: &'a DefLine,
    catalog: Option<&'a Catalog>,
    errors: &'a mut Vec<Error>,
    /// True for a definition file's line; false for an object-only encounter's.
    in_prefab: bool,
}

impl LineCheck<'_> {
    fn invalid(&mut self, col: u32, message: String, help: Option<String>) {
        let mut e = Error::at(ErrorKind::Invalid, Location::at(self.file, self.line.line, col), message);
        if let Some(h) = help {
            e = e.with_help(h);
        }
        self.errors.push(e);
    }

    fn kind(&mut self) -> Option<Kind> {
        let (text, col) = (&self.line.kind.0, self.line.kind.1);
        if self.line.names_machine() {
            if self.in_prefab {
                return Some(Kind::Prop);
            }
            self.invalid(
                col,
                "object lines cannot name a machine".into(),
                Some("`machine` names a machine drawn in a prefab; scatter props with `prop`".into()),
            );
            return None;
        }
        let kind = Kind::parse(text);
        if kind.is_none() {
            let mut names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            if self.in_prefab {
                names.push(def::MACHINE_KIND);
            }
            let help = match suggest(text, names.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("kinds are {}", names.join(", ")),
            };
            self.invalid(col, format!("unknown kind `{text}`"), Some(help));
        }
        kind
    }

    fn picks(&mut self, kind: Kind, depths: &BTreeSet<u32>) {
        let Some(catalog) = self.catalog else { return };
        let fallback = self.line.has("FALLBACK");
        let category = self.line.value_of("CATEGORY");
        for (pick, col) in &self.line.picks {
            let col = *col;
            match (pick, kind) {
                (Pick::Tag(tag), _) => {
                    if !catalog.has(kind, tag) {
                        let help = suggest(tag, catalog.tags(kind))
                            .map_or(format!("the catalog's {} tags are under catalog/", kind.name()), |s| {
                                format!("did you mean `{s}`?")
                            });
                        self.invalid(col, format!("no {} tagged `{tag}` in the catalog", kind.name()), Some(help));
                    } else if self.line.names_machine() && catalog.prop(tag).is_some_and(|p| !p.blocks()) {
                        self.invalid(
                            col,
                            format!("prop `{tag}` is not a machine, so a drawn machine cannot be named after it"),
                            Some(format!("machines have a `type` or a `set`, or cover more than one cell; name the machine after one, or place `{tag}` with a `prop` line")),
                        );
                    }
                }
                (Pick::Class(class), Kind::Entity) => {
                    if !catalog.has_class(class) {
                        self.invalid(col, format!("no entity belongs to class `{class}`"), None);
                        continue;
                    }
                    let empty: Vec<u32> = depths
                        .iter()
                        .copied()
                        .filter(|&d| catalog.class_members(class, category, d, fallback).is_empty())
                        .collect();
                    if let Some(&d) = empty.first() {
                        let of = category.map_or(String::new(), |c| format!(" in category `{c}`"));
                        self.invalid(
                            col,
                            format!("class `{class}` has no member{of} at or below depth {d}, where a prefab using this file can appear"),
                            Some("add a weaker member to the catalog, or the FALLBACK keyword to use the weakest one".into()),
                        );
                    }
                }
                (Pick::Category(cat), Kind::Item) => {
                    if !catalog.has_item_category(cat) {
                        self.invalid(col, format!("no item has category `{cat}`"), None);
                    } else {
                        self.picks_at_depths(col, kind, Some(cat), depths);
                    }
                }
                (Pick::Category(cat), Kind::Trap) => {
                    if !catalog.has_trap_category(cat) {
                        let mut known: Vec<&str> =
                            catalog.traps().iter().filter_map(|t| t.category.as_deref()).collect();
                        known.sort_unstable();
                        known.dedup();
                        let help = suggest(cat, known.iter().copied()).map_or_else(
                            || format!("trap categories are {}", known.join(", ")),
                            |s| format!("did you mean `{s}`?"),
                        );
                        self.invalid(col, format!("no trap has category `{cat}`"), Some(help));
                    } else {
                        self.picks_at_depths(col, kind, Some(cat), depths);
                    }
                }
                (Pick::Any, Kind::Item | Kind::Trap) => self.picks_at_depths(col, kind, None, depths),
                (Pick::CarriedBy(carrier), Kind::Item) => {
                    if !catalog.is_carrier(carrier) {
                        self.invalid(col, format!("no item is carried by `{carrier}`"), None);
                    }
                }
                (Pick::Nothing, _) => {}
                (pick, kind) => {
                    let what = match pick {
                        Pick::Class(_) => "`class:` picks entities",
                        Pick::Category(_) | Pick::Any => "`category:` and `any` pick items and traps",
                        Pick::CarriedBy(_) => "`carried-by:` picks items",
                        Pick::Tag(_) | Pick::Nothing => "",
                    };
                    self.invalid(col, format!("{what}, not {}", kind.name()), None);
                }
            }
        }
    }

    /// Reports a prop an object-only encounter would scatter that is a machine:
    /// scattered objects stand on floor a walker may cross, and a machine blocks.
    fn scattered_machines(&mut self, kind: Kind) {
        let Some(catalog) = self.catalog.filter(|_| kind == Kind::Prop) else { return };
        for (pick, col) in &self.line.picks {
            if let Pick::Tag(tag) = pick
                && catalog.prop(tag).is_some_and(|p| p.blocks())
            {
                self.invalid(
                    *col,
                    format!("prop `{tag}` is a machine, which blocks walkers, and object lines only scatter objects that do not"),
                    Some(format!("place `{tag}` from a prefab's definition file, where its footprint is checked")),
                );
            }
        }
    }

    /// Reports the first depth at which no item or trap (`kind`) of `category`
    /// (any with `None`) is rated at or below it (raised by RATING=+N): the pick
    /// would place nothing.
    fn picks_at_depths(&mut self, col: u32, kind: Kind, category: Option<&str>, depths: &BTreeSet<u32>) {
        let Some(catalog) = self.catalog else { return };
        let bonus = self.line.rating_bonus();
        let Some(lowest) = catalog.lowest_pickable_rating(kind, category) else { return };
        if let Some(&d) = depths.iter().find(|&&d| d.saturating_add(bonus) < lowest) {
            let what = match category {
                Some(c) => format!("no {} of category `{c}`", kind.name()),
                None => format!("no {}", kind.name()),
            };
            self.invalid(
                col,
                format!("{what} is rated at or below depth {d}, where a prefab using this file can appear"),
                Some(format!(
                    "add a lower-rated {} to the catalog, or keep the prefab's encounter deeper",
                    kind.name()
                )),
            );
        }
    }

    fn keywords(&mut self, kind: Kind) {
        let class_pick = self.line.picks.iter().any(|(p, _)| matches!(p, Pick::Class(_)));
        // Item keywords steer the choice of an item, so they need a pick that chooses.
        let chooses = self.line.picks.iter().any(|(p, _)| matches!(p, Pick::Category(_) | Pick::Any));
        let item_pick = kind == Kind::Item && chooses;
        // RATING=+N also steers a trap chosen by category.
        let rated_pick = (kind == Kind::Item || kind == Kind::Trap) && chooses;
        for (i, k) in self.line.keywords.iter().enumerate() {
            if self.line.keywords[..i].iter().any(|e| e.name == k.name) {
                self.invalid(k.col, format!("{} is given twice", k.name), None);
                continue;
            }
            let needs = |ok: bool, what: &str| (!ok).then(|| format!("{} applies to {what}", k.name));
            let problem = match k.name.as_str() {
                "SHIFT" => shift_problem(k),
                "UNIQUE" | "FALLBACK" | "STRONG" | "PROTOTYPE" | "NEVERFAULTY" if k.value.is_some() => {
                    Some(format!("{} takes no value", k.name))
                }
                "UNIQUE" => None,
                "STRONG" | "FALLBACK" => needs(class_pick, "entity classes (`class:NAME`)"),
                "CATEGORY" => match (&k.value, class_pick) {
                    (Some(Value::One(_)), true) => None,
                    (_, true) => Some("CATEGORY needs one category, as in CATEGORY=combat".into()),
                    (_, false) => Some("CATEGORY applies to entity classes (`class:NAME`)".into()),
                },
                "PROTOTYPE" | "NEVERFAULTY" => needs(item_pick, "items chosen by `category:` or `any`"),
                "RATING" => match &k.value {
                    _ if !rated_pick => Some("RATING applies to items and traps chosen by `category:` or `any`".into()),
                    Some(Value::One(v))
                        if v.strip_prefix('+').and_then(|n| n.parse::<u32>().ok()).is_some_and(|n| n <= MAX_RATING) =>
                    {
                        None
                    }
                    _ => Some("RATING is written RATING=+N: N levels out of depth".into()),
                },
                _ => None,
            };
            if let Some(message) = problem {
                let help = BUILT_IN_KEYWORDS
                    .contains(&k.name.as_str())
                    .then(|| "see the definition file table in docs/definitions-and-catalog.md".to_string());
                self.invalid(k.col, message, help);
            }
            if let Some(KeywordProblem::Value(message)) = self.catalog.and_then(|c| c.keywords().check(kind, k)) {
                let help = format!("the catalog's `[keywords.{}]` says what it takes", kind.name());
                self.invalid(k.col, message, Some(help));
            }
        }
    }
}

/// `SHIFT=x,y` or `SHIFT=n` with shifts 0–9.
fn shift_problem(k: &Keyword) -> Option<String> {
    let ok = match &k.value {
        Some(Value::One(v)) => {
            let parts: Vec<&str> = v.split(',').collect();
            parts.len() <= 2 && parts.iter().all(|p| p.parse::<u8>().is_ok_and(|n| n <= 9))
        }
        _ => false,
    };
    (!ok).then(|| "SHIFT is written SHIFT=x,y (or SHIFT=n for both), each 0-9".into())
}
