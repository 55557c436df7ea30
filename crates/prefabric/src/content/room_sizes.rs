//! The largest rooms a map type's layout can make, and the encounters that can
//! never fit any of them — found from the map type alone, without a trial map.
//!
//! In: a pack. Out: for each encounter embedded into rooms (enclosed, cubby,
//! accessible; not object-only, not cave encounters) whose prefabs fit no room
//! the layouts of the map types using it can ever make, in any orientation
//! they allow, an error at the encounter with the prefabs' sizes, the largest
//! rooms and a fix. An encounter goes into a room or hall region that is not a placed
//! prefab, and needs the room's floor rectangle to hold its prefab. The
//! generators guarantee these bounds on such regions: a chain or pathways
//! layout makes rooms only of its auto-rooms (floor at most `width` by
//! `height`, turned either way) and, for a chain, of its overlay rooms (at
//! most `width` by `height`, never turned); a caves layout makes none. The
//! tunnelers grow their rooms and dig halls of any size, so a map type with a
//! tunnelers generator is never judged here: its trial maps tell.

use super::maptype::LayoutGenerator;
use super::{Encounter, MapType, Pack};
use crate::error::{Error, ErrorKind, Location};
use crate::vocab::Style;
use std::collections::BTreeMap;

/// The largest room floors (width, height) a map type's layouts can make,
/// each with what makes it; `None` when a generator's rooms have no bound
/// known here (the tunnelers).
pub fn largest_rooms(map_type: &MapType) -> Option<Vec<(i32, i32, &'static str)>> {
    let mut rooms = Vec::new();
    for g in map_type.generators.iter().filter(|g| g.weight > 0) {
        let (auto, what) = match &g.generator {
            LayoutGenerator::Chain(p) => {
                if p.overlay.count.1 > 0 {
                    rooms.push((p.overlay.width.hi, p.overlay.height.hi, "[chain.overlay] room"));
                }
                (&p.auto_rooms, ["[chain.auto_rooms]", "[chain.auto_rooms] (turned)"])
            }
            LayoutGenerator::Pathways(p) => {
                (&p.auto_rooms, ["[pathways.auto_rooms]", "[pathways.auto_rooms] (turned)"])
            }
            LayoutGenerator::Caves(_) => continue,
            LayoutGenerator::Tunnelers(_) => return None,
        };
        if auto.weight > 0 {
            rooms.push((auto.width.hi, auto.height.hi, what[0]));
            rooms.push((auto.height.hi, auto.width.hi, what[1]));
        }
    }
    Some(rooms)
}

/// A map type using an encounter, with its largest room when none holds the
/// encounter.
type Use<'p> = (&'p MapType, &'p Encounter, Option<String>);

/// Errors for the encounters embedded into rooms whose every prefab, in
/// every orientation it allows, is larger than every room
/// [`largest_rooms`] says the layout can make — in every map type that uses
/// the encounter: one from a shared pool that another map type can place is
/// left to that map type's trial maps.
pub fn encounters_too_large(pack: &Pack) -> Vec<Error> {
    // By where each encounter is written: the map types using it, each with
    // its largest room when none holds the encounter, `None` when one may.
    let mut uses: BTreeMap<&Location, Vec<Use<'_>>> = BTreeMap::new();
    for map_type in pack.map_types() {
        let Some(pool) = map_type.encounters.as_ref().filter(|p| p.count.1 > 0) else { continue };
        let rooms = largest_rooms(map_type);
        for e in pool.pool.iter().filter(|e| e.weight > 0) {
            let misfit = rooms.as_ref().and_then(|rooms| misfit(pack, e, rooms));
            uses.entry(&e.location).or_default().push((map_type, e, misfit));
        }
    }
    let mut errors = Vec::new();
    for (location, users) in uses {
        let Some(largest) = users
            .iter()
            .map(|(m, _, misfit)| Some(format!("{} in `{}`", misfit.as_ref()?, m.name)))
            .collect::<Option<Vec<String>>>()
        else {
            continue;
        };
        let e = users[0].1;
        let names: Vec<String> = users.iter().map(|(m, _, _)| format!("`{}`", m.name)).collect();
        let sizes: Vec<String> = e
            .prefabs
            .iter()
            .filter_map(|n| pack.prefab(n))
            .map(|p| format!("`{}` {}x{}", p.name(), p.width(), p.height()))
            .collect();
        let (types, them) = if names.len() == 1 { ("map type", "it") } else { ("map types", "they") };
        let message = format!(
            "encounter `{}` can never be placed in {types} {}: its prefabs ({}) are larger, in every orientation they allow, than every room {them} can make: the largest is {}",
            e.id,
            names.join(", "),
            sizes.join(", "),
            largest.join("; ")
        );
        let files: Vec<&str> = users.iter().map(|(m, _, _)| m.file.as_str()).collect();
        let help = format!(
            "draw a smaller alternative, allow more orientations, or raise the room sizes (`width`, `height` of [chain.auto_rooms], [pathways.auto_rooms] or [chain.overlay]) in {}",
            files.join(", ")
        );
        errors.push(Error::at(ErrorKind::Invalid, location.clone(), message).with_help(help));
    }
    errors
}

/// The largest of `rooms` in words, when encounter `e` goes into rooms and
/// none of them holds any of its prefabs; `None` when one may (or it goes
/// elsewhere: object-only, caves).
fn misfit(pack: &Pack, e: &Encounter, rooms: &[(i32, i32, &'static str)]) -> Option<String> {
    if !e.objects.is_empty() || !matches!(e.style, Style::Enclosed | Style::Cubby | Style::Accessible) {
        return None;
    }
    let prefabs: Vec<&crate::prefab::Prefab> = e.prefabs.iter().filter_map(|n| pack.prefab(n)).collect();
    let fits = |p: &crate::prefab::Prefab| {
        p.transforms().iter().any(|t| {
            let (w, h) = t.apply_size(p.width(), p.height());
            rooms.iter().any(|&(rw, rh, _)| w <= rw && h <= rh)
        })
    };
    if prefabs.is_empty() || prefabs.iter().any(|p| fits(p)) {
        return None;
    }
    Some(match rooms.iter().max_by_key(|&&(w, h, _)| (w * h, w)) {
        Some(&(w, h, what)) => format!("{w}x{h} ({what})"),
        None => "no room: the layout makes none".to_string(),
    })
}
