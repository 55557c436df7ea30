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

mod checks;
mod entries;
mod pool;

use crate::error::{Error, ErrorKind, Location};
use crate::format::suggest;

pub use pool::{DoorChange, DoorLimit, Encounter, EncounterObject, EncounterPool};
pub(crate) use pool::{PoolContext, PoolFile, SharedPoolFile, SharedPools};

pub(crate) use checks::check_cave_prefab;

use entries::read_entries;
use pool::{CountFile, MAX_COUNT};

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
