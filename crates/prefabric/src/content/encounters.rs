//! Encounter pools: the `[encounters]` section of a map type, and the weight words
//! of `pack.toml`.
//!
//! An encounter is hand-made content embedded into a room after the layout exists
//! (seed 000, "Embedding Prefabs"): one or more alternative prefabs of one placement
//! style, a weight written as a word, and limits — depth range, count per map and
//! per world, an exclusion group, the room's door count — plus what to do to the
//! room (resize it, change its door). Reading a pool checks every name, word and
//! limit and every prefab against its style (enclosed and cubby prefabs open onto
//! their bottom edge, accessible ones keep every edge open, none of these has link
//! marks; centered prefabs lead out through an edge cell or a link mark from each
//! area of their floor, embedded ones through their bottom row or a link mark),
//! and reports every problem at its place in the file.
//!
//! Pools may be shared between map types: `encounters/<name>.toml` holds a
//! `[[pool]]` list read and checked once, and a map type's `include = ["name"]`
//! adds its entries before the map type's own; an own entry with the id of an
//! included one replaces that entry whole.

use super::catalog::{Catalog, Kind, MAX_RATING};
use super::defs;
use super::index::PrefabIndex;
pub use super::values::{DEFAULT_WEIGHT_WORDS, WeightWords};
use super::values::{DepthRanges, WeightFile};
use crate::error::{Error, ErrorKind, Location};
use crate::format::def::{self, DefLine};
use crate::format::suggest;
use crate::geom::Point;
use crate::grid::Grid;
pub use crate::map::Category;
use crate::prefab::{Prefab, Style};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use toml::Spanned;

/// What embedding does to the room's door.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DoorChange {
    /// Leave it.
    Keep,
    /// Remove the door, leaving an open entryway.
    Open,
    /// Remove the door and the whole front wall (what the cubby style does).
    Front,
    /// Turn the doorway into secret doors, which look like wall until found
    /// (a hidden room holding a reward).
    Secret,
}

/// How many doors a room must have for an encounter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DoorLimit {
    /// Fewest doors.
    pub min: u32,
    /// Most doors.
    pub max: u32,
}

impl DoorLimit {
    /// True when a room with `doors` doors qualifies.
    pub fn allows(&self, doors: u32) -> bool {
        (self.min..=self.max).contains(&doors)
    }
}

impl fmt::Display for DoorLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (a, b) if a == b => write!(f, "exactly {a} door{}", if a == 1 { "" } else { "s" }),
            (1, u32::MAX) => f.write_str("any number of doors"),
            (1, b) => write!(f, "at most {b} doors"),
            (a, b) => write!(f, "{a} to {b} doors"),
        }
    }
}

/// One validated encounter of a pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encounter {
    /// Its id: unique in the map type, and what world counts are kept under.
    pub id: String,
    /// The weight word as written.
    pub weight_word: String,
    /// The number the word stands for.
    pub weight: u32,
    /// What it is for the player.
    pub category: Category,
    /// How its prefabs are embedded: enclosed, cubby or accessible in rooms;
    /// centered in or embedded beside caverns.
    pub style: Style,
    /// Alternative prefabs (the first that fits a room is not preferred: one of
    /// those that fit is drawn); empty for an object-only encounter.
    pub prefabs: Vec<String>,
    /// What an object-only encounter (no prefab: seed 000's "random" encounters)
    /// scatters over the free floor of a room, hall or cavern; empty otherwise.
    pub objects: Vec<EncounterObject>,
    /// Depths it may appear at, as inclusive ranges (none: every depth).
    pub depth: DepthRanges,
    /// Most times in one map.
    pub max_per_map: Option<u32>,
    /// Most times in one world.
    pub max_per_world: Option<u32>,
    /// Exclusion group: once one member is placed, the others are out for the map.
    pub group: Option<String>,
    /// World group: its members' placements count together against each
    /// member's `max_per_world` (one of the group per world, with 1).
    pub world_group: Option<String>,
    /// Doors the room must have (rooms only: caverns have no doors).
    pub doors: DoorLimit,
    /// Fewest cells the room or cavern must have (0: any).
    pub min_area: u32,
    /// Enclosed and cubby: shrink the room to the prefab and rebuild its walls.
    pub resize: bool,
    /// What happens to the room's door.
    pub door: DoorChange,
    /// Widen the door to this many cells (1 leaves it as it is).
    pub door_width: u8,
    /// Where it is written.
    pub location: Location,
}

/// One line of an object-only encounter's `objects`: a definition line without
/// a reference character, and how many objects it places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterObject {
    /// The line as written (alternatives, keywords, chance), checked against the
    /// catalog at the encounter's depths.
    pub line: DefLine,
    /// Its kind.
    pub kind: Kind,
    /// How many it places, drawn from this inclusive range.
    pub count: (u32, u32),
    /// Where it is written.
    pub location: Location,
}

/// The encounters of a map type and how many to place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterPool {
    /// How many encounters to place per map, drawn from this range (`[0, 0]` turns
    /// them off).
    pub count: (u32, u32),
    /// The encounters, in file order.
    pub pool: Vec<Encounter>,
}

// ---- the file as written ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PoolFile {
    count: Spanned<CountFile>,
    #[serde(default)]
    include: Vec<Spanned<String>>,
    #[serde(default)]
    pool: Vec<Spanned<EncounterFile>>,
}

/// A shared pool file, `encounters/<name>.toml`, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SharedPoolFile {
    /// What the pool is for, in a sentence (for the designer; not used).
    #[serde(default)]
    #[allow(dead_code)]
    description: String,
    #[serde(default)]
    pool: Vec<Spanned<EncounterFile>>,
}

/// The pack's shared encounter pools, read and checked once.
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedPools {
    /// Pools that loaded, by name (the file's stem), in file order.
    pub loaded: BTreeMap<String, Vec<Encounter>>,
    /// Pools whose file did not load: including one reports nothing more.
    pub broken: BTreeSet<String>,
}

/// What reading a pool checks against: the pack's parts loaded before map types.
pub(crate) struct PoolContext<'a, 'p> {
    /// The pack's weight words.
    pub words: &'a WeightWords,
    /// The pack's prefabs.
    pub prefabs: &'a PrefabIndex<'p>,
    /// The shared pools a map type may include.
    pub shared: &'a SharedPools,
    /// Most encounters one pool may hold.
    pub max_encounters: u32,
    /// The catalog object-only encounters pick from, when it loaded.
    pub catalog: Option<&'a Catalog>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EncounterFile {
    id: Spanned<String>,
    weight: Spanned<WeightFile>,
    category: Spanned<String>,
    #[serde(default)]
    prefabs: Option<Spanned<Vec<String>>>,
    #[serde(default)]
    objects: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    style: Option<Spanned<String>>,
    #[serde(default)]
    depth: DepthRanges,
    #[serde(default)]
    max_per_map: Option<Spanned<u32>>,
    #[serde(default)]
    max_per_world: Option<Spanned<u32>>,
    #[serde(default)]
    group: Option<String>,
    #[serde(default)]
    world_group: Option<Spanned<String>>,
    #[serde(default)]
    doors: Option<Spanned<u32>>,
    #[serde(default)]
    max_doors: Option<Spanned<u32>>,
    #[serde(default)]
    min_area: Option<Spanned<u32>>,
    #[serde(default)]
    resize: Option<Spanned<bool>>,
    #[serde(default)]
    door: Option<Spanned<String>>,
    #[serde(default)]
    door_width: Option<Spanned<u8>>,
}

/// `count = 5` or `count = [lo, hi]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum CountFile {
    One(u32),
    Two([u32; 2]),
}

/// Most encounters a map type may ask for.
const MAX_COUNT: u32 = 1000;

/// Reads and checks a map type's pool: its included shared pools, then its own
/// entries, an own entry replacing an included one of its id. `at` turns a span
/// into a location.
pub(crate) fn read(
    raw: &PoolFile,
    at: &dyn Fn(std::ops::Range<usize>) -> Location,
    cx: &PoolContext<'_, '_>,
    errors: &mut Vec<Error>,
) -> EncounterPool {
    let own = read_entries(&raw.pool, at, cx, errors);
    let pool = merge(raw, own, at, cx, errors);
    let (lo, hi) = match raw.count.get_ref() {
        CountFile::One(n) => (*n, *n),
        CountFile::Two([lo, hi]) => (*lo, *hi),
    };
    let count = if lo > hi || hi > MAX_COUNT {
        let message = format!("count [{lo}, {hi}] must be a range within 0..={MAX_COUNT}, smaller number first");
        errors.push(Error::at(ErrorKind::Invalid, at(raw.count.span()), message));
        (0, 0)
    } else {
        (lo, hi)
    };
    EncounterPool { count, pool }
}

/// Reads and checks a shared pool file, `encounters/<name>.toml`.
pub(crate) fn read_shared(file: &str, source: &str, cx: &PoolContext<'_, '_>) -> Result<Vec<Encounter>, Vec<Error>> {
    let raw: SharedPoolFile = crate::format::parse_toml(file, source).map_err(|e| vec![e])?;
    let lines = crate::error::LineIndex::new(source);
    let at = |span: std::ops::Range<usize>| lines.locate(file, source, span.start);
    let mut errors = Vec::new();
    let pool = read_entries(&raw.pool, &at, cx, &mut errors);
    if errors.is_empty() { Ok(pool) } else { Err(errors) }
}

/// The included pools' entries in the order included, then the map type's own;
/// an own entry whose id an included pool has takes that entry's place. A pool
/// included twice or not in the pack, and an id two included pools define (and
/// the map type does not), are errors at the include.
fn merge(
    raw: &PoolFile,
    own: Vec<Encounter>,
    at: &dyn Fn(std::ops::Range<usize>) -> Location,
    cx: &PoolContext<'_, '_>,
    errors: &mut Vec<Error>,
) -> Vec<Encounter> {
    let mut merged: Vec<Encounter> = Vec::new();
    // Which included pool each merged entry came from.
    let mut from: Vec<&str> = Vec::new();
    for (i, inc) in raw.include.iter().enumerate() {
        let name = inc.get_ref().as_str();
        let error =
            |message: String, help: String| Error::at(ErrorKind::Invalid, at(inc.span()), message).with_help(help);
        if raw.include[..i].iter().any(|other| other.get_ref() == name) {
            errors.push(error(format!("pool `{name}` is included twice"), "remove the second mention".into()));
            continue;
        }
        let Some(entries) = cx.shared.loaded.get(name) else {
            if !cx.shared.broken.contains(name) {
                let names = cx.shared.loaded.keys().chain(&cx.shared.broken).map(String::as_str);
                let help = match suggest(name, names) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "shared pools are the files under encounters/, named without .toml: add encounters/{name}.toml, or remove `{name}` from `include`"
                    ),
                };
                errors.push(error(format!("no encounter pool named `{name}` in the pack"), help));
            }
            continue;
        };
        for e in entries {
            match merged.iter().position(|m| m.id == e.id) {
                Some(k) if !own.iter().any(|o| o.id == e.id) => errors.push(error(
                    format!("pools `{}` and `{name}` both define encounter `{}`", from[k], e.id),
                    format!("rename one of them, or give this map type its own `{}` entry, which replaces both", e.id),
                )),
                Some(_) => {}
                None => {
                    merged.push(e.clone());
                    from.push(name);
                }
            }
        }
    }
    for e in own {
        match merged.iter().position(|m| m.id == e.id) {
            Some(k) => merged[k] = e,
            None => merged.push(e),
        }
    }
    if merged.len() > cx.max_encounters as usize
        && let Some(first) = raw.include.first()
    {
        errors.push(
            Error::at(
                ErrorKind::Invalid,
                at(first.span()),
                format!(
                    "with its included pools the encounter pool holds {} encounters; a map type may have at most {}",
                    merged.len(),
                    cx.max_encounters
                ),
            )
            .with_help("include fewer pools, or raise Limits::max_encounters in code loading the pack"),
        );
    }
    merged
}

/// Reads and checks the entries of one file's pool, each id once.
fn read_entries(
    entries: &[Spanned<EncounterFile>],
    at: &dyn Fn(std::ops::Range<usize>) -> Location,
    cx: &PoolContext<'_, '_>,
    errors: &mut Vec<Error>,
) -> Vec<Encounter> {
    let (words, prefabs, max_encounters) = (cx.words, cx.prefabs, cx.max_encounters);
    let mut pool = Vec::new();
    if let Some(beyond) = entries.get(max_encounters as usize) {
        errors.push(
            Error::at(
                ErrorKind::Invalid,
                at(beyond.span()),
                format!(
                    "the encounter pool holds {} encounters; a map type may have at most {max_encounters}, and this is encounter {}",
                    entries.len(),
                    max_encounters as u64 + 1
                ),
            )
            .with_help("merge encounters that differ only in their prefabs (one encounter lists them all), or split the map type; code loading a pack can raise Limits::max_encounters"),
        );
        return pool;
    }
    let mut invalid = |span: std::ops::Range<usize>, message: String, help: Option<String>| {
        let mut e = Error::at(ErrorKind::Invalid, at(span), message);
        if let Some(h) = help {
            e = e.with_help(h);
        }
        errors.push(e);
    };
    // Problems of object lines, which the catalog check reports whole.
    let mut object_errors: Vec<Error> = Vec::new();
    // Problems of a cave prefab, reported at the prefab.
    let mut prefab_errors: Vec<Error> = Vec::new();
    // A set, so a pool of many thousand encounters loads in linear time.
    let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for entry in entries {
        let e = entry.get_ref();
        let id = e.id.get_ref();
        if !seen.insert(id.as_str()) {
            invalid(
                e.id.span(),
                format!("a second encounter with id `{id}` in this file"),
                Some("ids are unique in a file: rename one, or merge the two entries".into()),
            );
        }
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            invalid(e.id.span(), format!("encounter id `{id}` may only use letters, digits, `_` and `-`"), None);
        }
        let weight = match words.resolve(e.weight.get_ref()) {
            Ok(w) => w,
            Err((message, help)) => {
                invalid(e.weight.span(), message, help);
                0
            }
        };
        let category = Category::parse(e.category.get_ref()).unwrap_or_else(|| {
            let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
            invalid(
                e.category.span(),
                format!("unknown category `{}`", e.category.get_ref()),
                Some(format!("categories are {}", names.join(", "))),
            );
            Category::Fluff
        });

        let mut max_of = |v: &Option<Spanned<u32>>, what: &str| match v {
            Some(n) if *n.get_ref() == 0 => {
                invalid(n.span(), format!("{what} 0 means never; use weight = \"never\" instead"), None);
                None
            }
            Some(n) => Some(*n.get_ref()),
            None => None,
        };
        let max_per_map = max_of(&e.max_per_map, "max_per_map");
        let max_per_world = max_of(&e.max_per_world, "max_per_world");
        if let Some(g) = &e.world_group {
            let name = g.get_ref();
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                invalid(g.span(), format!("world group `{name}` may only use letters, digits, `_` and `-`"), None);
            } else if max_per_world.is_none() {
                invalid(
                    g.span(),
                    format!(
                        "`world_group = \"{name}\"` counts placements against `max_per_world`, which `{id}` does not give"
                    ),
                    Some("add `max_per_world = 1` for one of the group per world, or remove `world_group`".into()),
                );
            }
        }
        let mut encounter = Encounter {
            id: id.clone(),
            weight_word: e.weight.get_ref().to_string(),
            weight,
            category,
            style: Style::Accessible,
            prefabs: Vec::new(),
            objects: Vec::new(),
            depth: e.depth.clone(),
            max_per_map,
            max_per_world,
            group: e.group.clone(),
            world_group: e.world_group.as_ref().map(|g| g.get_ref().clone()),
            doors: DoorLimit { min: 0, max: u32::MAX },
            min_area: e.min_area.as_ref().map_or(0, |a| *a.get_ref()),
            resize: e.resize.as_ref().is_none_or(|r| *r.get_ref()),
            door: DoorChange::Keep,
            door_width: 1,
            location: at(entry.span()),
        };
        let (prefab_names, prefabs_span) = match (&e.prefabs, &e.objects) {
            (Some(p), Some(o)) => {
                invalid(
                    o.span(),
                    "give `prefabs` (hand-made rooms) or `objects` (things scattered over a room), not both".into(),
                    Some("objects of a prefab are drawn on its refs layer and defined in its .def file".into()),
                );
                (p.get_ref().as_slice(), p.span())
            }
            (Some(p), None) => (p.get_ref().as_slice(), p.span()),
            (None, Some(o)) => {
                if let Some(span) = prefab_only_key(e) {
                    invalid(
                        span,
                        "an object-only encounter scatters its objects over a room, hall or cavern as it is: `style`, `doors`, `max_doors`, `resize`, `door` and `door_width` apply to prefab encounters".into(),
                        Some("remove it; `min_area = N` asks for an area of at least N cells".into()),
                    );
                }
                encounter.objects = read_objects(o, at, &encounter, cx.catalog, &mut object_errors);
                pool.push(encounter);
                continue;
            }
            (None, None) => {
                invalid(
                    e.id.span(),
                    format!("encounter `{id}` has neither `prefabs` nor `objects`"),
                    Some("list its alternative prefabs, e.g. prefabs = [\"vault_small\"], or what it scatters, e.g. objects = [\"item category:material x2-4\"]".into()),
                );
                continue;
            }
        };
        let mut alternatives: Vec<&Prefab> = Vec::new();
        if prefab_names.is_empty() {
            invalid(prefabs_span.clone(), "`prefabs` lists no prefab".into(), None);
        }
        for name in prefab_names {
            match prefabs.get(name) {
                Some(p) => alternatives.push(p),
                None => {
                    if let Some((message, help)) = prefabs.unknown_name(name, "check the prefab's name under prefabs/")
                    {
                        invalid(prefabs_span.clone(), message, Some(help));
                    }
                }
            }
        }
        let style = match &e.style {
            Some(s) => match Style::parse(s.get_ref()) {
                Some(Style::Feature) | None => {
                    invalid(
                        s.span(),
                        format!("`{}` is not an encounter style", s.get_ref()),
                        Some("encounter styles are enclosed, cubby and accessible (in rooms) and centered and embedded (in caverns)".into()),
                    );
                    Style::Enclosed
                }
                Some(style) => style,
            },
            None => alternatives.first().map_or(Style::Enclosed, |p| p.style()),
        };
        for p in &alternatives {
            // A varying prefab must fit in every outcome: as it reads and in its extremes.
            let failure = p
                .views(style.dont_care_is_floor())
                .into_iter()
                .find_map(|v| check_prefab(v.prefab, style, v.whole).err().map(|e| (e, v.when)));
            if let Some(((message, help), when)) = failure {
                let message = format!("prefab `{}` {message}{when}", p.name());
                invalid(prefabs_span.clone(), message, Some(help.into()));
            } else if let Some((message, when)) =
                style.joins_caverns().then(|| check_cave_prefab(p, style)).and_then(Result::err)
            {
                // The drawing is what to fix: the error is the prefab's, with
                // the encounter that uses it in the hint.
                let used = at(prefabs_span.clone());
                let message = format!("prefab `{}` {message}{when}", p.name());
                let help = format!("{} (encounter `{id}` at {used} uses it as {style})", style_help(style));
                let error = Error::at(ErrorKind::Invalid, p.origin().clone(), message).with_help(help);
                if !prefab_errors.contains(&error) {
                    prefab_errors.push(error);
                }
            }
        }

        let one_door = matches!(style, Style::Enclosed | Style::Cubby);
        let in_caverns = style.joins_caverns();
        if let (true, Some(span)) = (in_caverns, e.doors.as_ref().or(e.max_doors.as_ref()).map(|s| s.span())) {
            invalid(
                span,
                format!("{style} encounters go into caverns, which have no doors to count"),
                Some("remove `doors`/`max_doors`; `min_area = N` asks for a cavern of at least N cells".into()),
            );
        }
        let doors = match (&e.doors, &e.max_doors) {
            _ if in_caverns => DoorLimit { min: 0, max: u32::MAX },
            (Some(d), Some(_)) => {
                invalid(d.span(), "give `doors` (exactly) or `max_doors` (at most), not both".into(), None);
                DoorLimit { min: 1, max: u32::MAX }
            }
            (Some(d), None) => DoorLimit { min: *d.get_ref(), max: *d.get_ref() },
            (None, Some(m)) => DoorLimit { min: 1, max: *m.get_ref() },
            (None, None) if one_door => DoorLimit { min: 1, max: 1 },
            (None, None) => DoorLimit { min: 1, max: u32::MAX },
        };
        let limit_span = e.doors.as_ref().or(e.max_doors.as_ref()).map(|s| s.span());
        if let Some(span) = limit_span.clone() {
            if doors.max == 0 {
                invalid(span.clone(), "a room needs at least one door to be reached".into(), None);
            } else if one_door && !doors.allows(1) {
                invalid(
                    span,
                    format!(
                        "{style} encounters fill a room up to its one door, so they need rooms with exactly 1 door"
                    ),
                    Some("use `doors = 1`, or make the encounter accessible".into()),
                );
            }
        }
        let doors = if one_door { DoorLimit { min: 1, max: 1 } } else { doors };

        let mut door = match e.door.as_ref().map(|d| (d.get_ref().as_str(), d.span())) {
            None | Some(("keep", _)) => DoorChange::Keep,
            Some(("open", _)) => DoorChange::Open,
            Some(("front", _)) => DoorChange::Front,
            Some(("secret", _)) => DoorChange::Secret,
            Some((other, span)) => {
                invalid(
                    span,
                    format!("unknown door change `{other}`"),
                    Some(
                        "write \"keep\", \"open\" (remove the door), \"secret\" (make it a secret door) or \"front\" (remove the whole front wall)".into(),
                    ),
                );
                DoorChange::Keep
            }
        };
        let door_width = match &e.door_width {
            None => 1,
            Some(w) if (1..=9).contains(w.get_ref()) => *w.get_ref(),
            Some(w) => {
                invalid(w.span(), format!("door_width {} must be 1-9", w.get_ref()), None);
                1
            }
        };
        let changes_door = door != DoorChange::Keep || door_width > 1;
        let door_span = e
            .door
            .as_ref()
            .map(|d| d.span())
            .or_else(|| e.door_width.as_ref().map(|w| w.span()))
            .unwrap_or_else(|| entry.span());
        if matches!(style, Style::Accessible | Style::Centered | Style::Embedded) && changes_door {
            let span = door_span.clone();
            let help = if in_caverns {
                "caverns have no doors: a prefab in a cave opens straight onto its floor"
            } else {
                "accessible prefabs leave the room as it is"
            };
            invalid(
                span,
                format!("door changes apply to enclosed and cubby encounters, not {style} ones"),
                Some(help.into()),
            );
        }
        if matches!(style, Style::Accessible | Style::Centered | Style::Embedded)
            && let Some(r) = &e.resize
        {
            invalid(r.span(), "`resize` applies to enclosed and cubby encounters".into(), None);
        }
        if door == DoorChange::Front && door_width > 1 {
            let message = "`door = \"front\"` removes the whole front wall, so there is no door to widen";
            invalid(door_span.clone(), message.into(), None);
        }
        if style == Style::Cubby {
            if changes_door {
                invalid(door_span, "a cubby already removes its door and front wall".into(), None);
            }
            door = DoorChange::Front;
        }
        pool.push(Encounter { style, prefabs: prefab_names.to_vec(), doors, door, door_width, ..encounter });
    }
    errors.extend(object_errors);
    errors.extend(prefab_errors);
    pool
}

/// The span of the first key given that only prefab encounters take, if any.
fn prefab_only_key(e: &EncounterFile) -> Option<std::ops::Range<usize>> {
    let spans = [
        e.style.as_ref().map(|s| s.span()),
        e.doors.as_ref().map(|s| s.span()),
        e.max_doors.as_ref().map(|s| s.span()),
        e.resize.as_ref().map(|s| s.span()),
        e.door.as_ref().map(|s| s.span()),
        e.door_width.as_ref().map(|s| s.span()),
    ];
    spans.into_iter().flatten().min_by_key(|s| s.start)
}

/// Reads an object-only encounter's `objects`, each line checked as a definition
/// file's line is, at every depth the encounter may appear at.
fn read_objects(
    raw: &Spanned<Vec<Spanned<String>>>,
    at: &dyn Fn(std::ops::Range<usize>) -> Location,
    e: &Encounter,
    catalog: Option<&Catalog>,
    errors: &mut Vec<Error>,
) -> Vec<EncounterObject> {
    if raw.get_ref().is_empty() {
        errors.push(Error::at(ErrorKind::Invalid, at(raw.span()), "`objects` lists no object").with_help(
            "write what it scatters, e.g. objects = [\"entity class:swarmer x2-4\", \"item category:material\"]",
        ));
    }
    // Ratings stop at MAX_RATING, so deeper levels choose as it does.
    let depths: BTreeSet<u32> = e.depth.depths(MAX_RATING);
    let mut out = Vec::new();
    for text in raw.get_ref() {
        // The string's text starts one column after its opening quote.
        let quote = at(text.span());
        let parsed = def::parse_object(text.get_ref(), quote.line, quote.col + 1);
        let object = match parsed {
            Ok(o) => o,
            Err((col, message, help)) => {
                let mut error = Error::at(ErrorKind::Syntax, Location::at(&quote.file, quote.line, col), message);
                if let Some(h) = help {
                    error = error.with_help(h);
                }
                errors.push(error);
                continue;
            }
        };
        let Some(kind) = defs::check_line(&quote.file, &object.line, catalog, &depths, errors) else { continue };
        if let Some(k) = object.line.keywords.iter().find(|k| k.name == "SHIFT") {
            let location = Location::at(&quote.file, quote.line, k.col);
            errors.push(
                Error::at(ErrorKind::Invalid, location, "SHIFT moves an object from where a prefab draws it")
                    .with_help("an encounter's objects are already scattered over free floor: remove it"),
            );
        }
        out.push(EncounterObject { line: object.line, kind, count: object.count, location: quote });
    }
    out
}

fn style_help(style: Style) -> &'static str {
    match style {
        Style::Enclosed | Style::Cubby => {
            "enclosed and cubby prefabs are a room's interior drawn facing south: the door goes below the bottom row, so some of that row must be open, and all open cells must form one area"
        }
        Style::Centered => {
            "a centered prefab stands free in a cavern with the cave carved around it: each area of its open cells needs a floor, door or stairs cell on its edge (or a link mark) to lead out"
        }
        Style::Embedded => {
            "an embedded prefab is sunk into the rock beside a cavern, drawn facing south: the cave meets its bottom row, so some of that row must be floor, door or stairs (or it needs a link mark), and all its open cells form one area"
        }
        _ => {
            "accessible prefabs sit anywhere in a room with any doors, so every edge cell must be open and all open cells must form one area"
        }
    }
}

/// Checks that a prefab can be embedded in `style`; the error completes "prefab `x` …"
/// and comes with a hint. Enclosed and cubby prefabs follow the same drawing rules,
/// so either may be embedded as the other. `whole`: whether its open cells must
/// form one area here too.
fn check_prefab(p: &Prefab, style: Style, whole: bool) -> Result<(), (String, &'static str)> {
    let room_like = |s: Style| matches!(s, Style::Enclosed | Style::Cubby);
    if p.style() == Style::Feature {
        return Err((
            "is a feature prefab (`style: feature`), placed before the layout".into(),
            "give it `style: enclosed`, `cubby` or `accessible` to embed it in rooms, or `centered` or `embedded` for caverns",
        ));
    }
    if p.style() != style && !(room_like(p.style()) && room_like(style)) {
        return Err((
            format!("is drawn for `{}` placement, not `{style}`", p.style()),
            "all alternatives of an encounter share its style",
        ));
    }
    if style.joins_caverns() {
        return Ok(());
    }
    if !p.links().is_empty() {
        return Err((
            "has link marks, but encounters are embedded into rooms after the layout, so nothing would dig from them"
                .into(),
            "remove its links layer (only centered and embedded prefabs, which join caves, dig from their links)",
        ));
    }
    check_openings(p, style, whole).map_err(|m| (m, style_help(style)))
}

/// Checks that a prefab placed in a cave (`centered` or `embedded`, or a feature
/// anchored in a cavern) leads out into the cave in every outcome; the error
/// completes "prefab `x` …" and says which drawing fails (empty for the prefab
/// as it reads).
///
/// Only drawn cells count as open here: a `?` cell keeps the cave's ground,
/// which may be rock. Each link mark is a way out, as a passage is dug from it.
/// An embedded prefab's open cells must form one area with some way out. A
/// centered one may have several areas, each with its own way out: its ring is
/// carved to cave floor, so every open cell on its edge meets the cave, as DCSS
/// joins every exit of a vault to the level.
///
/// A varying prefab must pass in every outcome. The variation proof of a prefab
/// drawn `centered` shows just that: each area of every outcome meets its edge
/// or holds a link ([`Prefab::views`]), so its ways out may vary (one door of
/// four, dealt). For other prefabs the proof shows every outcome keeps the
/// areas of the prefab as it reads, so it must be one area, and its most closed
/// and most open drawings must lead out too.
pub(crate) fn check_cave_prefab(p: &Prefab, style: Style) -> Result<(), (String, &'static str)> {
    let views = p.views(false);
    let areas = cave_areas(p, style).map_err(|m| (m, ""))?;
    if style == Style::Centered && (views.len() == 1 || p.style() == Style::Centered) {
        // Each area its own way out; the proof answers for every outcome.
        return match areas.stranded {
            Some(q) => Err((
                format!(
                    "has open cells that lead nowhere: the area at x={} y={} has no open cell on the prefab's edge and no link mark, and no other floor joins it (each area of the floor needs its own way out into the cave)",
                    q.x, q.y
                ),
                "",
            )),
            None => Ok(()),
        };
    }
    for (view, extreme) in views.iter().enumerate() {
        let a = if view == 0 { areas } else { cave_areas(extreme.prefab, style).map_err(|m| (m, extreme.when))? };
        if extreme.whole && a.count > 1 {
            let (q, first) = (a.apart, a.first);
            return Err((
                format!(
                    "has open cells in more than one area: x={} y={} cannot be reached from x={} y={}",
                    q.x, q.y, first.x, first.y
                ),
                extreme.when,
            ));
        }
    }
    Ok(())
}

/// The open areas of a cave prefab's drawing.
#[derive(Copy, Clone)]
struct CaveAreas {
    count: u32,
    /// The first open cell, and the first of another area.
    first: Point,
    apart: Point,
    /// The first cell of an area with no way out of its own.
    stranded: Option<Point>,
}

/// Labels the open cells of `p` (drawn walkable, or a link mark) into areas
/// and finds any without a way out: an open cell where the cave meets it (any
/// edge when centered, the bottom row when embedded) or a link mark. An error
/// when the drawing has no open cell, or no way out at all.
fn cave_areas(p: &Prefab, style: Style) -> Result<CaveAreas, String> {
    let cells = p.cells();
    let (w, h) = (p.width(), p.height());
    let is_link = |q: Point| p.links().iter().any(|l| l.at == q);
    let open = |q: Point| cells.get(q).copied().flatten().is_some_and(|t| t.is_walkable()) || is_link(q);
    let on_way_out = |q: Point| match style {
        Style::Embedded => q.y == h - 1,
        _ => q.x == 0 || q.y == 0 || q.x == w - 1 || q.y == h - 1,
    };
    let Some(first) = cells.bounds().points().find(|&q| open(q)) else {
        return Err("has no floor, door or stairs cell: nothing of it could be reached".into());
    };
    if p.links().is_empty() && !cells.bounds().points().any(|q| open(q) && on_way_out(q)) {
        return Err(match style {
            Style::Embedded => {
                "has no open cell on its bottom row and no link mark: nothing would open onto the cave".into()
            }
            _ => "has no open cell on its edge and no link mark: nothing would lead out into the cave".into(),
        });
    }
    let mut label: Grid<u32> = Grid::new(w, h, 0);
    let mut areas = CaveAreas { count: 0, first, apart: first, stranded: None };
    for start in cells.bounds().points().filter(|&q| open(q)) {
        if label[start] != 0 {
            continue;
        }
        areas.count += 1;
        if areas.count == 2 {
            areas.apart = start;
        }
        let reached = Grid::reachable(w, h, start, p.moves(), open);
        let mut leads_out = false;
        for q in cells.bounds().points().filter(|&q| reached[q]) {
            label[q] = areas.count;
            leads_out |= (on_way_out(q) && open(q)) || is_link(q);
        }
        if !leads_out && areas.stranded.is_none() {
            areas.stranded = Some(start);
        }
    }
    Ok(areas)
}

/// Checks that a prefab opens the way its style needs: some of the bottom row
/// (enclosed, cubby) or every edge cell (accessible), and, when `whole`, every
/// open cell reachable.
fn check_openings(p: &Prefab, style: Style, whole: bool) -> Result<(), String> {
    // Don't-care cells keep the room's floor, so they count as open.
    let open = |c: &Option<crate::map::Terrain>| c.is_none_or(|t| t.is_walkable());
    let cells = p.cells();
    let (w, h) = (p.width(), p.height());
    let edge = |q: Point| q.x == 0 || q.y == 0 || q.x == w - 1 || q.y == h - 1;
    let sources: Vec<Point> = match style {
        Style::Accessible => {
            if let Some(q) = cells.bounds().points().find(|&q| edge(q) && !open(&cells[q])) {
                return Err(format!("has a closed edge cell at x={} y={}", q.x, q.y));
            }
            cells.bounds().points().filter(|&q| edge(q)).collect()
        }
        _ => {
            let bottom: Vec<Point> = (0..w).map(|x| Point::new(x, h - 1)).filter(|&q| open(&cells[q])).collect();
            if bottom.is_empty() {
                return Err("has no open cell on its bottom row for the door to lead into".into());
            }
            bottom
        }
    };
    if !whole {
        return Ok(());
    }
    // Every open cell reachable from one entry cell: the open cells are one area, so
    // whichever entry the door or the room's floor meets reaches all of them, and a
    // room's floor on both sides of the prefab stays joined through it.
    let mut seen = Grid::new(w, h, false);
    let mut stack = vec![sources[0]];
    seen[sources[0]] = true;
    while let Some(q) = stack.pop() {
        for &step in p.moves().steps() {
            let n = q + step;
            if cells.get(n).is_some_and(open) && !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    match cells.bounds().points().find(|&q| open(&cells[q]) && !seen[q]) {
        Some(q) => Err(format!(
            "has open cells in more than one area: x={} y={} cannot be reached from x={} y={}",
            q.x, q.y, sources[0].x, sources[0].y
        )),
        None => Ok(()),
    }
}
