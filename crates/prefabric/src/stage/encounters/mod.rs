//! The encounters stage: hand-made content embedded into the layout's rooms (seed
//! 000, "Embedding Prefabs").
//!
//! Works on regions, not on any generator's internals: every [`RegionKind::Room`]
//! and [`RegionKind::Hall`] is a candidate, and its doorways are read from the
//! terrain around it, so rooms from any layout generator qualify (a hall, with
//! its several ways through, takes the styles placed anywhere inside); so does every cavern (a
//! [`RegionKind::Cave`] region with a centre) for the centered and embedded
//! styles, which [`caverns`](crate::layout::cave_prefabs) places. Selection is
//! encounter-first: an eligible encounter is drawn by weight, then a free room
//! with the right door count (or a cavern of the right size) where one of its
//! alternative prefabs fits in an allowed orientation. Enclosed and cubby
//! prefabs are turned so their bottom edge faces the room's one door, placed
//! against it at a random offset, and the rest of the room is filled with earth and
//! walled (unless resizing is off); a cubby also loses its front wall. Accessible
//! prefabs go anywhere inside a room with any doors. No door opens onto a cell
//! where the prefab may put a machine (drawn, or placed by its definition file,
//! within its SHIFT box). Connectivity holds: a
//! prefab's open cells are one area (checked at load), door changes only open walls
//! onto corridors and junctions, and room floor a prefab cuts off from the door is
//! filled in. Each draw either places the encounter or retires it with the reason
//! traced, so the stage ends after at most `count + pool` draws. A prefab with
//! variation lines fits where its most closed drawing opens onto the door, so
//! every outcome does, and is embedded in the outcome its own stream draws.

mod choose;
mod embed;
mod rooms;

use super::preview::Forced;
use crate::content::Pack;
use crate::content::encounters::{Encounter, EncounterPool};
use crate::error::{Error, ErrorKind};
use crate::geom::Dir;
use crate::layout::cave_prefabs::{self as caverns, Caverns};
use crate::map::{EncounterSkip, EncounterTag, Map, RegionId, SkipReason, Stage};
use crate::prefab::Prefab;
use crate::rng::{Race, Rng};
use crate::trace::Outcome;
use crate::vocab::Style;
use crate::world_state::WorldState;

use choose::choose_fit;
use embed::embed;
use rooms::{FitMemo, Room, UNKNOWN, find_rooms};

/// Runs the stage.
pub(crate) fn run(
    map: &mut Map,
    pack: &Pack,
    pool: &EncounterPool,
    forced: &Forced,
    world: &WorldState,
    seed: u64,
) -> Result<(), Error> {
    let mut rooms = find_rooms(map);
    let mut memo = FitMemo::new(pool.pool.len(), rooms.len());
    // Caverns are only looked for when an encounter goes into one.
    let mut caverns = pool.pool.iter().any(|e| e.style.joins_caverns()).then(|| Caverns::find(map));
    // Counts are at most 1000, so they fit an i32.
    let target = Rng::stream(seed, "encounters", "count").range(pool.count.0 as i32, pool.count.1 as i32) as u32;
    // Each slot is a race every encounter enters with tickets of its own, and each
    // try at placing one draws from a stream named after the slot and encounter:
    // an encounter added to the pool changes no map it does not take a slot in.
    let race = Race::new(seed, "encounters");
    let entrants: Vec<u64> = pool.pool.iter().map(|e| Race::entrant(&e.id)).collect();
    let fit_stream = |slot: u32, i: usize| race.stream(slot, entrants[i]);
    let depth = map.depth;
    let n = pool.pool.len();
    let mut alive = vec![true; n];
    let mut placed = vec![0u32; n];
    for (i, e) in pool.pool.iter().enumerate() {
        if let Some(reason) = never_eligible(e, depth, world) {
            alive[i] = false;
            skip(map, &e.id, SkipReason::Ineligible, &reason);
        }
    }
    let free_rooms = rooms.iter().filter(|r| !r.used && !r.hall).count();
    let halls = match rooms.iter().filter(|r| !r.used && r.hall).count() {
        0 => String::new(),
        n => format!(", {n} halls"),
    };
    let places = match &caverns {
        Some(c) => format!("{free_rooms} rooms{halls} and {} caverns", c.list.len()),
        None => format!("{free_rooms} rooms{halls}"),
    };
    map.trace.push_with("encounters", Outcome::Note, None, || format!("aiming for {target} encounters in {places}"));
    let mut total = 0u32;
    // Regions object-only encounters took, in the order they were.
    let mut scattered: Vec<RegionId> = Vec::new();
    if let Some(i) = forced.encounter {
        // A preview's encounter goes first, as the alternative it names if any,
        // and its failure is the generation's.
        let e = &pool.pool[i];
        if let Some(error) = forced_ineligible(e, depth, world) {
            return Err(error);
        }
        let mut chosen = e.clone();
        if let Some(p) = forced.prefab.as_ref().filter(|p| e.prefabs.contains(p)) {
            chosen.prefabs = vec![p.clone()];
        }
        let mut fit_rng = fit_stream(0, i);
        let outcome = match caverns.as_mut() {
            _ if !e.objects.is_empty() => {
                scatter(map, pack, e, &mut rooms, caverns.as_mut(), &mut scattered, &mut fit_rng)
            }
            Some(caverns) if e.style.joins_caverns() => in_cavern(map, pack, &chosen, caverns, &mut fit_rng),
            _ => {
                let mut row = vec![UNKNOWN; rooms.len()];
                choose_fit(map, pack, &chosen, &rooms, &mut row, &mut fit_rng).map(|fit| {
                    map.alternatives_fit.extend(fit.fitting.iter().map(|n| n.to_string()));
                    for changed in embed(map, &chosen, &mut rooms, &fit, &mut fit_rng) {
                        memo.forget_room(changed);
                    }
                    if let Some(c) = caverns.as_mut() {
                        c.invalidate();
                    }
                })
            }
        };
        if let Err((_, reason)) = outcome {
            let alternatives = chosen.prefabs.join("`, `");
            return Err(Error::new(
                ErrorKind::Generation,
                format!("encounter `{}` (as `{alternatives}`) cannot be placed in this map: {reason}", e.id),
            )
            .with_help("its rooms or caverns are too few or too small here: try other seeds, a smaller alternative, or the encounter's `doors` and `min_area`"));
        }
        map.trace.push_with("encounters", Outcome::Chose, map.prefabs.last().map(|p| p.bounds), || {
            format!("encounter `{}` placed first, forced by the preview", e.id)
        });
        placed[i] += 1;
        total += 1;
        retire_after_placing(map, pool, i, &placed, world, &mut alive);
    }
    // Every draw places one encounter or retires one, so this bound is never the
    // reason the loop ends; it is here so no change can make it spin.
    let budget = target as usize + n + 1;
    let (mut ranking, mut ranked_slot) = (Vec::with_capacity(n), None);
    for _ in 0..budget {
        if total >= target {
            break;
        }
        if ranked_slot != Some(total) {
            let weights = pool.pool.iter().zip(&alive).map(|(e, &a)| if a { e.weight } else { 0 });
            race.rank(total, entrants.iter().copied().zip(weights), &mut ranking);
            ranked_slot = Some(total);
        }
        // The slot's winner among those still in the running: tickets stay the
        // same within a slot, so a failed try falls to the runner-up.
        let Some(i) = ranking.iter().copied().find(|&i| alive[i]) else {
            map.trace.push_with("encounters", Outcome::Note, None, || {
                format!("no eligible encounter left after {total} of {target}")
            });
            break;
        };
        let e = &pool.pool[i];
        let mut fit_rng = fit_stream(total, i);
        let outcome = match caverns.as_mut() {
            _ if !e.objects.is_empty() => {
                scatter(map, pack, e, &mut rooms, caverns.as_mut(), &mut scattered, &mut fit_rng)
            }
            Some(caverns) if e.style.joins_caverns() => in_cavern(map, pack, e, caverns, &mut fit_rng),
            _ => {
                let row = &mut memo.known[i * rooms.len()..(i + 1) * rooms.len()];
                choose_fit(map, pack, e, &rooms, row, &mut fit_rng).map(|fit| {
                    map.alternatives_fit.extend(fit.fitting.iter().map(|n| n.to_string()));
                    for changed in embed(map, e, &mut rooms, &fit, &mut fit_rng) {
                        memo.forget_room(changed);
                    }
                    if let Some(c) = caverns.as_mut() {
                        c.invalidate();
                    }
                })
            }
        };
        match outcome {
            Ok(()) => {
                placed[i] += 1;
                total += 1;
                retire_after_placing(map, pool, i, &placed, world, &mut alive);
            }
            Err((why, reason)) => {
                alive[i] = false;
                skip(map, &e.id, why, &reason);
            }
        }
    }
    Ok(())
}

/// Places object-only encounter `e` in a region no other encounter has, and
/// keeps later prefab encounters off it: its room or hall is used, and no
/// cavern prefab may cover its objects.
fn scatter(
    map: &mut Map,
    pack: &Pack,
    e: &Encounter,
    rooms: &mut [Room],
    caverns: Option<&mut Caverns>,
    scattered: &mut Vec<RegionId>,
    rng: &mut Rng,
) -> Result<(), (SkipReason, String)> {
    let region = super::scatter::place(map, pack, e, scattered, rng)?;
    scattered.push(region);
    for room in rooms.iter_mut().filter(|r| r.region == region) {
        room.used = true;
    }
    if let (Some(caverns), Some(placed)) = (caverns, map.object_encounters.last()) {
        let cells = placed.objects.iter().flat_map(|&k| map.objects[k].cells.iter().map(|c| c.0));
        caverns.keep_off(cells);
    }
    Ok(())
}

/// Takes encounter `id` out of the running: traced, and recorded with `why`.
fn skip(map: &mut Map, id: &str, why: SkipReason, reason: &str) {
    map.trace.push_with("encounters", Outcome::Skipped, None, || format!("encounter `{id}`: {reason}"));
    map.skipped.push(EncounterSkip { id: id.to_string(), reason: why });
}

/// Why an encounter can never be placed in this map, if it cannot.
/// The error of a preview forcing encounter `e` where it is not eligible at
/// `depth` in `world`: no map can hold it, so no attempt is worth making.
pub(crate) fn forced_ineligible(e: &Encounter, depth: u32, world: &WorldState) -> Option<Error> {
    let reason = never_eligible(e, depth, world)?;
    let help = if e.weight == 0 {
        "give it a weight above 0 in its pool".to_string()
    } else if !e.depth.allows(depth) {
        format!("give a --depth in its depths {}", e.depth)
    } else {
        "earlier levels of this world used it up: preview it in a new world".to_string()
    };
    Some(
        Error::new(ErrorKind::Generation, format!("encounter `{}` cannot be placed at depth {depth}: {reason}", e.id))
            .with_help(help),
    )
}

fn never_eligible(e: &Encounter, depth: u32, world: &WorldState) -> Option<String> {
    if e.weight == 0 {
        return Some(format!("weight `{}` is 0", e.weight_word));
    }
    if !e.depth.allows(depth) {
        let ranges = if e.depth.0.len() == 1 { "range" } else { "ranges" };
        return Some(format!("depth {depth} is outside its {ranges} {}", e.depth));
    }
    match (e.max_per_world, &e.world_group) {
        (Some(max), None) if world.placed(&e.id) >= max => {
            Some(format!("already placed {} times in this world (max_per_world {max})", world.placed(&e.id)))
        }
        (Some(max), Some(g)) if world.group_placed(g) >= max => Some(format!(
            "its world group `{g}` already placed {} times in this world (max_per_world {max})",
            world.group_placed(g)
        )),
        _ => None,
    }
}

/// After encounter `i` is placed: count it for its world group, retire it at
/// its limits, the rest of its world group at theirs, and its group's others.
fn retire_after_placing(
    map: &mut Map,
    pool: &EncounterPool,
    i: usize,
    placed: &[u32],
    world: &WorldState,
    alive: &mut [bool],
) {
    let e = &pool.pool[i];
    if let Some(g) = &e.world_group {
        map.world_groups.push(g.clone());
    }
    let limit = match (e.max_per_map, e.max_per_world) {
        (Some(max), _) if placed[i] >= max => Some(format!("max_per_map {max} reached")),
        (_, Some(max)) if e.world_group.is_none() && world.placed(&e.id) + placed[i] >= max => {
            Some(format!("max_per_world {max} reached"))
        }
        _ => None,
    };
    if let Some(reason) = limit {
        alive[i] = false;
        skip(map, &e.id, SkipReason::Limit, &reason);
    }
    if let Some(g) = &e.world_group {
        // Placements of the group in this world: the levels before, and this map.
        let count = world.group_placed(g) + map.world_groups.iter().filter(|x| *x == g).count() as u32;
        for (j, member) in pool.pool.iter().enumerate() {
            let Some(max) = member.max_per_world.filter(|&max| alive[j] && count >= max) else { continue };
            if member.world_group.as_ref() != Some(g) {
                continue;
            }
            alive[j] = false;
            let reason = format!("max_per_world {max} of world group `{g}` reached");
            if j == i {
                skip(map, &member.id, SkipReason::Limit, &reason);
            } else {
                skip(map, &member.id, SkipReason::Excluded, &format!("{reason} (`{}` was placed)", e.id));
            }
        }
    }
    let Some(group) = &e.group else { return };
    for (j, other) in pool.pool.iter().enumerate() {
        if j != i && alive[j] && other.group.as_ref() == Some(group) {
            alive[j] = false;
            let reason = format!("excluded by group `{group}` (`{}` was chosen)", e.id);
            skip(map, &other.id, SkipReason::Excluded, &reason);
        }
    }
}

/// Places `e` in a cavern: free caverns large enough in a random order, each
/// with its alternatives in a random order, until one has a spot. Says why when
/// none has.
fn in_cavern(
    map: &mut Map,
    pack: &Pack,
    e: &Encounter,
    caverns: &mut Caverns,
    rng: &mut Rng,
) -> Result<(), (SkipReason, String)> {
    if caverns.list.is_empty() {
        return Err((SkipReason::NoPlace, "the layout made no caverns for it".into()));
    }
    let mut order: Vec<usize> =
        (0..caverns.list.len()).filter(|&k| map.regions[caverns.list[k].region as usize].area >= e.min_area).collect();
    if order.is_empty() {
        let n = caverns.list.len();
        let has = if n == 1 { "has" } else { "have" };
        let reason = format!("{} of the map {has} fewer than {} cells", caverns::caverns(n), e.min_area);
        return Err((SkipReason::NoPlace, reason));
    }
    rng.shuffle(&mut order);
    let mut prefabs: Vec<&Prefab> = e.prefabs.iter().filter_map(|n| pack.prefab(n)).collect();
    let mut tally = [0u32; caverns::Misfit::ALL.len()];
    for &k in &order {
        rng.shuffle(&mut prefabs);
        let mut best = caverns::Misfit::Centred;
        for &prefab in &prefabs {
            match caverns.spot_in(map, k, prefab, prefab.transforms(), e.style, rng) {
                Ok(spot) => {
                    let cavern = caverns.list[k].region;
                    let (transform, at, style) = (spot.transform, spot.at, spot.style);
                    let tag = EncounterTag { id: e.id.clone(), category: e.category, style: e.style };
                    let placed = caverns.place(map, prefab, spot, Stage::Encounter, Some(tag));
                    // Alternatives are tried in turn here: the one that fitted first.
                    map.alternatives_fit.push(prefab.name().to_string());
                    let how = match style {
                        Style::Centered => format!("centred in cavern {cavern}"),
                        _ => format!(
                            "sunk into the wall of cavern {cavern}, opening {}",
                            transform.apply_dir(Dir::South).name()
                        ),
                    };
                    let passages = match placed.passages.iter().filter(|&&n| n > 0).count() {
                        0 => String::new(),
                        _ => format!(
                            "; link passages of {} cells",
                            placed.passages.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                        ),
                    };
                    map.trace.push_with("encounters", Outcome::Chose, map.prefabs[placed.index].bounds, || {
                        format!(
                            "encounter `{}` ({}, {}) as `{}` {transform} {how} at ({}, {}){passages}",
                            e.id,
                            e.category,
                            e.weight_word,
                            prefab.name(),
                            at.x,
                            at.y
                        )
                    });
                    return Ok(());
                }
                Err(m) => best = best.max(m),
            }
        }
        tally[best as usize] += 1;
    }
    let size = if e.min_area > 0 { format!(" of {} cells or more", e.min_area) } else { String::new() };
    // Too large when every cavern was too small for it or too near the edge.
    let too_large = caverns::Misfit::ALL
        .iter()
        .all(|&m| matches!(m, caverns::Misfit::Small | caverns::Misfit::Edge) || tally[m as usize] == 0);
    let why = if too_large { SkipReason::TooLarge } else { SkipReason::NoPlace };
    let summary = caverns::Misfit::summary(&tally);
    Err((why, format!("no cavern takes it: of {}{size}, {summary}", caverns::caverns(order.len()))))
}

#[cfg(test)]
mod tests;
