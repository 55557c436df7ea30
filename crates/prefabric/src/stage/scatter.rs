//! Object-only encounters: seed 000's encounters without a prefab, whose objects
//! are scattered over the free floor of one room, hall or cavern.
//!
//! Goes in: an encounter whose `objects` lines each say what to pick (as a
//! definition file's line does) and how many, and the regions other encounters
//! have not taken. Comes out: the objects on the map, each resolved through the
//! catalog at the map's depth, all of one line sharing one choice unless it says
//! UNIQUE, and the region reserved so no later encounter embeds a prefab over
//! them. Objects only stand on plain floor of the region: never on a door or
//! stairs, a link mark, a protected or spawn-blocked cell, inside a placed prefab,
//! on another object, or on a cell just inside a way in. None of the kinds
//! blocks a walker, so no path is cut. Works on regions only, so maps of every
//! layout generator take them.

use super::objects::{game_keywords, object_kind, pick_tag};
use crate::content::Pack;
use crate::content::catalog::Kind;
use crate::content::encounters::{Encounter, EncounterObject};
use crate::geom::{Dir, Point};
use crate::map::{Map, Object, ObjectEncounter, RegionId, RegionKind, SkipReason, mask};
use crate::rng::Rng;
use crate::trace::Outcome;
use std::sync::Arc;

/// Places object-only encounter `e` in a room, hall or cavern not in `taken`,
/// tried in a random order until one has free floor for every object drawn.
/// Returns the region, or why none would do.
pub(crate) fn place(
    map: &mut Map,
    pack: &Pack,
    e: &Encounter,
    taken: &[RegionId],
    rng: &mut Rng,
) -> Result<RegionId, (SkipReason, String)> {
    let counts: Vec<u32> = e.objects.iter().map(|o| draw_count(o, rng)).collect();
    let needed: u32 = counts.iter().sum();
    if needed == 0 {
        return Err((SkipReason::NoPlace, "the chances of all its object lines failed".into()));
    }
    let mut order: Vec<RegionId> = map
        .regions
        .iter()
        .filter(|r| matches!(r.kind, RegionKind::Room | RegionKind::Hall | RegionKind::Cave) && r.prefab.is_none())
        .filter(|r| r.area >= e.min_area && !taken.contains(&r.id))
        .map(|r| r.id)
        .collect();
    let areas = order.len();
    rng.shuffle(&mut order);
    for id in order {
        let mut cells = free_cells(map, id);
        if cells.len() < needed as usize {
            continue;
        }
        rng.shuffle(&mut cells);
        scatter(map, pack, e, id, &counts, &cells, rng);
        return Ok(id);
    }
    let size = if e.min_area > 0 { format!(" of {} cells or more", e.min_area) } else { String::new() };
    Err((
        SkipReason::NoPlace,
        format!(
            "none of the {areas} free rooms, halls and caverns{size} has {needed} free floor cells for its objects"
        ),
    ))
}

/// How many objects line `o` places this time: none when its chance fails.
fn draw_count(o: &EncounterObject, rng: &mut Rng) -> u32 {
    if o.line.chance < 100 && !rng.percent(u32::from(o.line.chance)) {
        return 0;
    }
    // Counts are at most MAX_OBJECT_COUNT, so they fit an i32.
    rng.range(o.count.0 as i32, o.count.1 as i32) as u32
}

/// Puts the objects of `e` on the first of `cells` (shuffled), `counts[i]` for
/// line `i`, and records the encounter.
fn scatter(map: &mut Map, pack: &Pack, e: &Encounter, id: RegionId, counts: &[u32], cells: &[Point], rng: &mut Rng) {
    let catalog = pack.catalog();
    let mut free = cells.iter().copied();
    let mut placed = Vec::new();
    for (o, &n) in e.objects.iter().zip(counts) {
        let mut line = o.line.clone();
        line.keywords.retain(|k| k.chance >= 100 || rng.percent(u32::from(k.chance)));
        let unique = line.has("UNIQUE");
        let mut shared = None;
        for _ in 0..n {
            let pick = match &shared {
                Some(p) if !unique => Some(p),
                _ => {
                    shared = pick_tag(catalog, o.kind, &line, map.depth, rng);
                    shared.as_ref()
                }
            };
            let (Some((tag, _)), Some(at)) = (pick, free.next()) else { break };
            let glyph = catalog.glyph_of(o.kind, tag).unwrap_or_else(|| default_glyph(o.kind, tag));
            placed.push(map.objects.len());
            map.objects.push(Object {
                kind: object_kind(o.kind),
                tag: Some(Arc::clone(tag)),
                cells: map.pools.one_cell(at, glyph),
                prefab: None,
                keywords: game_keywords(&line.keywords, rng),
                furnishing: None,
                definition: None,
            });
        }
    }
    let region = &map.regions[id as usize];
    let bounds = region.bounds;
    map.trace.push_with("encounters", Outcome::Chose, bounds, || {
        format!(
            "encounter `{}` ({}, {}) scattered {} object{} over {} {id}",
            e.id,
            e.category,
            e.weight_word,
            placed.len(),
            if placed.len() == 1 { "" } else { "s" },
            region.kind.name()
        )
    });
    map.object_encounters.push(ObjectEncounter { id: e.id.clone(), category: e.category, region: id, objects: placed });
}

/// The glyph of an object the catalog draws with none: an entity's tag's first
/// letter in lower case, a prop's or trap's in upper case (seed 000's convention).
fn default_glyph(kind: Kind, tag: &str) -> char {
    let first = tag.chars().next().unwrap_or('?');
    match kind {
        Kind::Entity => first.to_ascii_lowercase(),
        _ => first.to_ascii_uppercase(),
    }
}

/// The cells of region `id` an object may be scattered on, in reading order.
fn free_cells(map: &Map, id: RegionId) -> Vec<Point> {
    let bounds = map.regions[id as usize].bounds;
    let mut occupied: Vec<Point> =
        map.objects.iter().flat_map(|o| o.cells.iter().map(|c| c.0)).filter(|&p| bounds.contains(p)).collect();
    occupied.extend(map.links.iter().map(|l| l.at).filter(|&p| bounds.contains(p)));
    occupied.sort_unstable_by_key(|p| (p.y, p.x));
    let in_prefab = |p: Point| map.prefabs.iter().any(|placed| placed.bounds.contains(p));
    let way_in = |q: Point| {
        map.terrain_at(q).is_some_and(|t| !t.is_floor() && t.is_walkable())
            || (map.is_walkable(q) && map.region_of.get(q).is_some_and(|&r| r != id))
    };
    bounds
        .points()
        .filter(|&p| {
            map.region_of[p] == id
                && map.terrain[p].is_walkable()
                && map.terrain[p].is_floor()
                && map.masks[p] & (mask::PROTECTED | mask::SPAWN_BLOCKED | mask::SOLID) == 0
                && occupied.binary_search_by_key(&(p.y, p.x), |q| (q.y, q.x)).is_err()
                && !Dir::ALL.iter().any(|d| way_in(p + d.delta()))
                && !in_prefab(p)
        })
        .collect()
}
