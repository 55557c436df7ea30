//! Reading a pool's entries: each `[[pool]]` table of a map type's
//! `[encounters]` or of a shared pool file becomes an [`Encounter`], every
//! name, word and limit checked, with the objects it places.
//!
//! In: the parsed entries and the pack's prefab index, catalog, definitions
//! and weight words. Out: the encounters, in file order, and every problem at
//! its place in the file. Guarantees: an entry with a problem is reported,
//! never half read; a name close to a known one gets a "did you mean".

use super::checks::{check_cave_prefab, check_prefab, style_help};
use super::pool::{DoorChange, DoorLimit, Encounter, EncounterFile, EncounterObject, PoolContext};
use crate::content::catalog::{Catalog, MAX_RATING};
use crate::content::defs;
use crate::error::{Error, ErrorKind, Location};
use crate::format::def::{self};
use crate::prefab::Prefab;
use crate::vocab::{Category, Style};
use std::collections::BTreeSet;
use toml::Spanned;

/// Reads and checks the entries of one file's pool, each id once.
pub(super) fn read_entries(
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
pub(super) fn prefab_only_key(e: &EncounterFile) -> Option<std::ops::Range<usize>> {
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
pub(super) fn read_objects(
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
