//! The encounters stage: hand-made content embedded into the layout's rooms (seed
//! 000, "Embedding Prefabs").
//!
//! Works on regions, not on any generator's internals: every [`RegionKind::Room`]
//! and [`RegionKind::Hall`] is a candidate, and its doorways are read from the
//! terrain around it, so rooms from any layout generator qualify (a hall, with
//! its several ways through, takes the styles placed anywhere inside); so does every cavern (a
//! [`RegionKind::Cave`] region with a centre) for the centered and embedded
//! styles, which [`caverns`](super::caverns) places. Selection is
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

use super::Forced;
use super::caverns::{self, Caverns};
use crate::content::Pack;
use crate::content::encounters::{DoorChange, Encounter, EncounterPool};
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Point, Rect, Transform};
use crate::map::{
    Door, EncounterSkip, EncounterTag, FloorKind, Map, NO_REGION, PlacedPrefab, RegionId, RegionKind, Role, SkipReason,
    Stage, Terrain, mask,
};
use crate::prefab::{Prefab, Style};
use crate::rng::{Race, Rng};
use crate::trace::Outcome;
use crate::world::World;
use std::borrow::Cow;
use std::cell::OnceCell;

/// A run of walkable cells in the wall line around a room: one way in.
#[derive(Copy, Clone, Debug)]
struct Doorway {
    /// The side of the room it is on.
    side: Dir,
    /// Its first cell (west- or northmost).
    first: Point,
    /// How many cells it spans along the side.
    len: i32,
}

impl Doorway {
    /// The step from one of its cells to the next.
    fn along(&self) -> Point {
        if self.side.is_horizontal() { Point::new(0, 1) } else { Point::new(1, 0) }
    }

    /// Its cells, in order along the side.
    fn cells(&self) -> impl Iterator<Item = Point> + use<> {
        let (first, step) = (self.first, self.along());
        (0..self.len).map(move |k| first + step * k)
    }

    /// Its last cell.
    fn last(&self) -> Point {
        self.first + self.along() * (self.len - 1)
    }

    /// True when `p` is one of its cells.
    fn contains(&self, p: Point) -> bool {
        self.cells().any(|q| q == p)
    }
}

/// A room that may receive an encounter.
struct Room {
    region: RegionId,
    /// A hall rather than a room: it takes only encounters placed anywhere
    /// inside (accessible and feature styles), which need no single door.
    hall: bool,
    /// Its open interior.
    interior: Rect,
    /// Its doorways, read from the terrain when first asked for (most rooms
    /// never are) and forgotten when an embedding beside it changes its walls.
    doorways: OnceCell<Vec<Doorway>>,
    used: bool,
}

impl Room {
    /// The walkable runs in its wall line ([`doorways`]).
    fn doorways(&self, map: &Map) -> &[Doorway] {
        self.doorways.get_or_init(|| doorways(map, self.interior))
    }
}

/// Whether each encounter fits each room, worked out when first needed and
/// forgotten for a room when an embedding next to it changes its walls, so a
/// draw does not search every room again.
struct FitMemo {
    rooms: usize,
    /// `encounter * rooms + room`: `UNKNOWN`, `FITS` or `NO_FIT`.
    known: Vec<u8>,
}

const UNKNOWN: u8 = 0;
const FITS: u8 = 1;
const NO_FIT: u8 = 2;

impl FitMemo {
    fn new(encounters: usize, rooms: usize) -> FitMemo {
        FitMemo { rooms, known: vec![UNKNOWN; encounters * rooms] }
    }

    /// Forgets every encounter's answer for `room`.
    fn forget_room(&mut self, room: usize) {
        for row in self.known.chunks_mut(self.rooms.max(1)) {
            row[room] = UNKNOWN;
        }
    }
}

/// One way to embed an encounter: a prefab, an orientation and where it goes.
struct Fit<'p> {
    /// Every prefab of the encounter that fits the room, the chosen one among them.
    fitting: Vec<&'p str>,
    room: usize,
    prefab: &'p Prefab,
    transform: Transform,
    at: Point,
}

/// Runs the stage.
pub(crate) fn run(
    map: &mut Map,
    pack: &Pack,
    pool: &EncounterPool,
    forced: &Forced,
    world: &World,
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
pub(crate) fn forced_ineligible(e: &Encounter, depth: u32, world: &World) -> Option<Error> {
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

fn never_eligible(e: &Encounter, depth: u32, world: &World) -> Option<String> {
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
    world: &World,
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

/// Every room and hall of the layout, its doorways to be read from the terrain.
fn find_rooms(map: &Map) -> Vec<Room> {
    map.regions
        .iter()
        .filter(|r| matches!(r.kind, RegionKind::Room | RegionKind::Hall) && r.prefab.is_none())
        .map(|r| Room {
            region: r.id,
            hall: r.kind == RegionKind::Hall,
            interior: r.bounds,
            doorways: OnceCell::new(),
            used: false,
        })
        .collect()
}

/// The walkable runs in the wall line around `interior`, side by side, corners
/// left out (a diagonal gap is no way in).
fn doorways(map: &Map, interior: Rect) -> Vec<Doorway> {
    let mut out = Vec::new();
    for side in Dir::ALL {
        let mut run: Option<Doorway> = None;
        for p in side_cells(interior, side) {
            if map.is_walkable(p) {
                match &mut run {
                    Some(d) => d.len += 1,
                    None => run = Some(Doorway { side, first: p, len: 1 }),
                }
            } else if let Some(d) = run.take() {
                out.push(d);
            }
        }
        out.extend(run);
    }
    out
}

/// The wall cells along one side of `interior`, in order, without corners.
fn side_cells(interior: Rect, side: Dir) -> impl Iterator<Item = Point> {
    let (x0, y0, x1, y1) = (interior.x, interior.y, interior.right(), interior.bottom());
    let (horizontal, fixed) = match side {
        Dir::North => (true, y0 - 1),
        Dir::South => (true, y1),
        Dir::West => (false, x0 - 1),
        Dir::East => (false, x1),
    };
    let range = if horizontal { x0..x1 } else { y0..y1 };
    range.map(move |v| if horizontal { Point::new(v, fixed) } else { Point::new(fixed, v) })
}

/// Picks a free room and a way to embed `e` there, or says why there is none.
fn choose_fit<'p>(
    map: &Map,
    pack: &'p Pack,
    e: &Encounter,
    rooms: &[Room],
    memo: &mut [u8],
    rng: &mut Rng,
) -> Result<Fit<'p>, (SkipReason, String)> {
    let prefabs = Candidate::all(pack, e);
    // Sized for every room at once: collecting through a filter would grow it
    // step by step, a reallocation per doubling for each encounter.
    let mut unseen: Vec<usize> = Vec::with_capacity(rooms.len());
    unseen.extend((0..rooms.len()).filter(|&ri| !rooms[ri].used));
    let free = unseen.len();
    // A room drawn at random from those not yet tried until one fits: each
    // fitting room as likely as any other, as if all were tried first, but
    // where most rooms fit, a few are tried (and their doorways read) instead
    // of every one. Each draw takes one room out, so this ends within one try
    // per room.
    let mut chosen = None;
    while let Some(k) = rng.index(unseen.len()) {
        let ri = unseen.swap_remove(k);
        if !e.doors.allows(rooms[ri].doorways(map).len() as u32) {
            continue;
        }
        if memo[ri] == UNKNOWN {
            memo[ri] = if prefabs.iter().any(|&c| fits(map, e, &rooms[ri], c)) { FITS } else { NO_FIT };
        }
        if memo[ri] == FITS {
            chosen = Some(ri);
            break;
        }
    }
    let Some(ri) = chosen else {
        let right_doors =
            rooms.iter().filter(|r| !r.used && e.doors.allows(r.doorways(map).len() as u32)).count() as u32;
        return Err(match (free, right_doors) {
            (0, _) => (SkipReason::NoPlace, "no free room left".to_string()),
            (_, 0) => (SkipReason::NoPlace, format!("none of the {free} free rooms has {}", e.doors)),
            _ => {
                let mut tally = [0u32; 4];
                for room in rooms.iter().filter(|r| !r.used && e.doors.allows(r.doorways(map).len() as u32)) {
                    tally[why_not(map, e, room, &prefabs) as usize] += 1;
                }
                let reasons: Vec<String> = Misfit::ALL
                    .iter()
                    .filter(|m| tally[**m as usize] > 0)
                    .map(|m| format!("{} {}", tally[*m as usize], m.describe()))
                    .collect();
                let why = if tally[Misfit::TooSmall as usize] == right_doors {
                    SkipReason::TooLarge
                } else {
                    SkipReason::NoPlace
                };
                (why, format!("none of the {right_doors} free rooms with {} takes it: {}", e.doors, reasons.join(", ")))
            }
        });
    };
    let room = &rooms[ri];
    // The room was chosen because one of these fits, so the picks below succeed.
    let fitting: Vec<Candidate<'p>> = prefabs.iter().copied().filter(|&c| fits(map, e, room, c)).collect();
    let no_place = |what: &str| (SkipReason::NoPlace, what.to_string());
    let &chosen = rng.pick(&fitting).ok_or_else(|| no_place("no prefab fits the chosen room"))?;
    let choices = options(map, e, room, chosen);
    let &(transform, at) = rng.pick(&choices).ok_or_else(|| no_place("no orientation fits the chosen room"))?;
    let fitting = fitting.iter().map(|c| c.prefab.name()).collect();
    Ok(Fit { fitting, room: ri, prefab: chosen.prefab, transform, at })
}

/// A prefab an encounter may embed, with the cells where a machine may stand
/// in it ([`Pack::machine_reach`]), looked up once per encounter.
#[derive(Clone, Copy)]
struct Candidate<'p> {
    prefab: &'p Prefab,
    machines: &'p [Point],
}

impl<'p> Candidate<'p> {
    /// The prefabs of `e` the pack has, in the encounter's order.
    fn all(pack: &'p Pack, e: &Encounter) -> Vec<Candidate<'p>> {
        e.prefabs
            .iter()
            .filter_map(|n| Some(Candidate { prefab: pack.prefab(n)?, machines: pack.machine_reach(n) }))
            .collect()
    }

    /// True when a machine may stand on cell `p` of the prefab as drawn.
    fn may_hold_machine(&self, p: Point) -> bool {
        self.machines.binary_search_by_key(&(p.y, p.x), |q| (q.y, q.x)).is_ok()
    }
}

/// Why no prefab of an encounter fits a room (with the right door count).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Misfit {
    /// Smaller than every prefab in every allowed orientation.
    TooSmall,
    /// Large enough only in orientations that do not face its door.
    NoFacing,
    /// The prefab would close the cells behind the door at every offset.
    DoorBlocked,
    /// The front wall cannot be removed (it holds a prefab or opens into a room).
    FrontBlocked,
}

impl Misfit {
    const ALL: [Misfit; 4] = [Misfit::TooSmall, Misfit::NoFacing, Misfit::DoorBlocked, Misfit::FrontBlocked];

    fn describe(self) -> &'static str {
        match self {
            Misfit::TooSmall => "too small for every prefab",
            Misfit::NoFacing => "large enough only in orientations its prefabs do not allow facing the door",
            Misfit::DoorBlocked => "with a way in where the prefabs are closed or hold a machine",
            Misfit::FrontBlocked => "whose front wall cannot be removed",
        }
    }
}

/// The furthest any prefab of `e` got towards fitting `room`.
fn why_not(map: &Map, e: &Encounter, room: &Room, prefabs: &[Candidate<'_>]) -> Misfit {
    let b = room.interior;
    let mut best = Misfit::TooSmall;
    for &c in prefabs {
        let prefab = c.prefab;
        for t in prefab.transforms().iter() {
            let (w, h) = t.apply_size(prefab.width(), prefab.height());
            if w > b.width || h > b.height {
                continue;
            }
            // An accessible prefab that is small enough fits unless its machines
            // would stand inside a way in wherever it goes; enclosed ones only
            // see single-door rooms.
            if matches!(e.style, Style::Accessible | Style::Feature) {
                best = best.max_by(Misfit::DoorBlocked);
                continue;
            }
            let (true, [door]) = (matches!(e.style, Style::Enclosed | Style::Cubby), room.doorways(map)) else {
                continue;
            };
            if t.apply_dir(Dir::South) != door.side {
                best = best.max_by(Misfit::NoFacing);
                continue;
            }
            let opens = against_door(b, door, w, h).any(|at| opens_onto_door(c, t, at, door));
            best = best.max_by(if opens { Misfit::FrontBlocked } else { Misfit::DoorBlocked });
        }
    }
    best
}

impl Misfit {
    /// The one of two that got further.
    fn max_by(self, other: Misfit) -> Misfit {
        if other as usize > self as usize { other } else { self }
    }
}

/// Every orientation and top-left corner at which `prefab` can be embedded in
/// `room` for `e`.
fn options(map: &Map, e: &Encounter, room: &Room, c: Candidate<'_>) -> Vec<(Transform, Point)> {
    let mut out = Vec::new();
    visit_options(map, e, room, c, &mut |t, at| {
        out.push((t, at));
        true
    });
    out
}

/// True when `prefab` can be embedded in `room` for `e` at all; stops at the first
/// way found, without allocating.
fn fits(map: &Map, e: &Encounter, room: &Room, c: Candidate<'_>) -> bool {
    let mut found = false;
    visit_options(map, e, room, c, &mut |_, _| {
        found = true;
        false
    });
    found
}

/// Calls `visit` with each orientation and top-left corner at which `prefab` can be
/// embedded in `room` for `e`, until it returns false.
fn visit_options(
    map: &Map,
    e: &Encounter,
    room: &Room,
    c: Candidate<'_>,
    visit: &mut dyn FnMut(Transform, Point) -> bool,
) {
    let prefab = c.prefab;
    let b = room.interior;
    for t in prefab.transforms().iter() {
        let (w, h) = t.apply_size(prefab.width(), prefab.height());
        if w > b.width || h > b.height {
            continue;
        }
        match e.style {
            // Caverns are placed by `in_cavern`, never here.
            Style::Centered | Style::Embedded => return,
            Style::Accessible | Style::Feature => {
                // A machine of the prefab just inside one of the room's
                // doorways would stop that way in from leading anywhere.
                // Doorways lie on the room's wall: only a prefab against it
                // can meet one.
                let doorways = if c.machines.is_empty() { &[][..] } else { room.doorways(map) };
                for y in b.y..=b.bottom() - h {
                    for x in b.x..=b.right() - w {
                        let at = Point::new(x, y);
                        let against_wall = x == b.x || y == b.y || x + w == b.right() || y + h == b.bottom();
                        let blocks = against_wall && machine_inside_a_doorway(c, t, at, doorways);
                        if !blocks && !visit(t, at) {
                            return;
                        }
                    }
                }
            }
            // A hall is a way through, never a dead end to wall off.
            Style::Enclosed | Style::Cubby if room.hall => return,
            Style::Enclosed | Style::Cubby => {
                let [door] = room.doorways(map) else { continue };
                if t.apply_dir(Dir::South) != door.side {
                    continue;
                }
                for at in against_door(b, door, w, h) {
                    let front_ok =
                        e.door != DoorChange::Front || front_removable(map, door, Rect::new(at.x, at.y, w, h));
                    if opens_onto_door(c, t, at, door) && front_ok && !visit(t, at) {
                        return;
                    }
                }
            }
        }
    }
}

/// Top-left corners of a `w × h` rectangle inside `b`, against the side of `door`,
/// whose edge on that side spans every cell of the doorway.
fn against_door(b: Rect, door: &Doorway, w: i32, h: i32) -> impl Iterator<Item = Point> {
    let (first, last) = (door.first, door.last());
    let (vertical_side, lo, hi, fixed) = match door.side {
        Dir::North | Dir::South => {
            let y = if door.side == Dir::North { b.y } else { b.bottom() - h };
            (false, b.x.max(last.x - w + 1), (b.right() - w).min(first.x), y)
        }
        Dir::West | Dir::East => {
            let x = if door.side == Dir::West { b.x } else { b.right() - w };
            (true, b.y.max(last.y - h + 1), (b.bottom() - h).min(first.y), x)
        }
    };
    (lo..=hi).map(move |v| if vertical_side { Point::new(fixed, v) } else { Point::new(v, fixed) })
}

/// True when the oriented prefab placed at `at` may put a machine on a cell
/// just inside one of `doorways`.
fn machine_inside_a_doorway(c: Candidate<'_>, t: Transform, at: Point, doorways: &[Doorway]) -> bool {
    let (w, h) = t.apply_size(c.prefab.width(), c.prefab.height());
    let back = t.inverse();
    let rect = Rect::new(at.x, at.y, w, h);
    let inside = doorways.iter().flat_map(|d| d.cells().map(move |p| p + d.side.opposite().delta()));
    inside.filter(|&q| rect.contains(q)).any(|q| {
        let source = back.apply_point(q - at, w, h);
        c.may_hold_machine(source)
    })
}

/// True when every cell just inside the doorway is open in the oriented prefab
/// placed at `at` (a `?` keeps the room's floor, which is open): for a prefab
/// with variation lines, in every outcome (its most closed drawing); and none
/// is a cell where a machine may stand once the prefab's objects are placed,
/// which would wall the room off behind its one door.
fn opens_onto_door(c: Candidate<'_>, t: Transform, at: Point, door: &Doorway) -> bool {
    let prefab = c.prefab.most_closed();
    let (w, h) = t.apply_size(prefab.width(), prefab.height());
    let back = t.inverse();
    door.cells().all(|d| {
        let local = d + door.side.opposite().delta() - at;
        let source = back.apply_point(local, w, h);
        prefab.cells().get(source).is_some_and(|cell| cell.is_none_or(|t| t.is_walkable()))
            && !c.may_hold_machine(source)
    })
}

/// True when the wall cells along the rectangle's front (the door's side) may be
/// removed: walls or the doorway itself, none protected.
fn front_removable(map: &Map, door: &Doorway, rect: Rect) -> bool {
    front_cells(door.side, rect).all(|p| {
        door.contains(p)
            || (!map.is_protected(p)
                && map.terrain_at(p).is_some_and(|t| t.is(Role::Wall))
                && outside_may_open(map, p + door.side.delta()))
    })
}

/// True when a wall cell with `q` on its far side may be opened: `q` is solid
/// ground (it will be walled) or a corridor or junction no prefab holds — never
/// another room, hall or prefab, which would merge with this one. A corridor a
/// tunnel dug through a placed prefab's earth lies in that prefab's rectangle,
/// so it counts as the prefab's.
fn outside_may_open(map: &Map, q: Point) -> bool {
    if map.is_protected(q) {
        return false;
    }
    if !map.is_walkable(q) {
        return true;
    }
    map.region_at(q).is_some_and(|r| matches!(r.kind, RegionKind::Corridor | RegionKind::Junction))
        && !map.prefabs.iter().any(|placed| placed.bounds.contains(q))
}

/// The wall line just outside `rect` on `side`, without corners.
fn front_cells(side: Dir, rect: Rect) -> impl Iterator<Item = Point> {
    side_cells(rect, side)
}

/// Embeds a chosen fit: reshapes the room, stamps the prefab, changes the door,
/// and records the placement.
/// Returns the other rooms whose walls it changed.
fn embed(map: &mut Map, e: &Encounter, rooms: &mut [Room], fit: &Fit<'_>, rng: &mut Rng) -> Vec<usize> {
    rooms[fit.room].used = true;
    let room = &rooms[fit.room];
    // Read before the prefab is stamped, while they are the room's own.
    let room_doorways = room.doorways(map).to_vec();
    let index = map.prefabs.len();
    let variant = fit.prefab.varies().then(|| map.variant_seed(fit.prefab.name()));
    // The outcome as drawn: stamped through the turn, never turned whole.
    let drawn = match variant {
        Some(seed) => fit.prefab.variant(seed),
        None => Cow::Borrowed(fit.prefab),
    };
    let (w, h) = fit.transform.apply_size(drawn.width(), drawn.height());
    let rect = Rect::new(fit.at.x, fit.at.y, w, h);
    let enclosed = matches!(e.style, Style::Enclosed | Style::Cubby);
    let interior = room.interior;
    if enclosed && e.resize {
        shrink_room(map, interior, rect);
    }
    let region = room.region;
    stamp(map, &drawn, fit.transform, rect, index);
    let mut doors: Vec<Door> =
        room_doorways.iter().flat_map(|d| d.cells().map(|at| Door { at, side: d.side, to: None })).collect();
    if enclosed {
        let door = room_doorways[0];
        match e.door {
            DoorChange::Keep => {}
            DoorChange::Open => open_doorway(map, &door),
            DoorChange::Secret => hide_doorway(map, &door),
            DoorChange::Front => {
                remove_front(map, &door, rect);
                doors = front_cells(door.side, rect).map(|at| Door { at, side: door.side, to: None }).collect();
            }
        }
        if e.door_width > 1 && e.door != DoorChange::Front {
            match widen(map, &door, rect, e.door_width, rng) {
                Some(added) => doors.extend(added.into_iter().map(|at| Door { at, side: door.side, to: None })),
                None => map.trace.push_with("encounters", Outcome::Note, rect, || {
                    format!(
                        "encounter `{}`: no room to widen its door to {} cells; kept it as it was",
                        e.id, e.door_width
                    )
                }),
            }
        }
        if !e.resize {
            seal_unreached(map, interior, &door);
        }
    }
    let bounds = if enclosed && e.resize { rect } else { interior };
    let mut area = bounds.points().filter(|&p| map.is_walkable(p)).count() as u32;
    for p in bounds.points() {
        if map.is_walkable(p) {
            map.region_of[p] = region;
        }
    }
    // Wall cells a door change opened belong to the room they lead into.
    for d in &doors {
        if map.is_walkable(d.at) && map.region_of[d.at] == NO_REGION {
            map.region_of[d.at] = region;
            area += 1;
        }
    }
    let r = &mut map.regions[region as usize];
    r.kind = RegionKind::Prefab;
    r.bounds = bounds;
    r.area = area;
    r.doors = doors;
    r.prefab = Some(index);
    let side = room_doorways.first().map_or("", |d| d.side.name());
    let hall = room.hall;
    map.trace.push_with("encounters", Outcome::Chose, bounds, || {
        format!(
            "encounter `{}` ({}, {}) as `{}` {} at ({}, {}) in {} {region}{}",
            e.id,
            e.category,
            e.weight_word,
            fit.prefab.name(),
            fit.transform,
            rect.x,
            rect.y,
            if hall { "hall" } else { "room" },
            if enclosed { format!(", facing its {side} door") } else { String::new() }
        )
    });
    // Door changes and new walls reach two cells past the room: neighbours may
    // have gained or lost a way in.
    let changed = interior.expand(2);
    let mut touched = Vec::new();
    for (ri, other) in rooms.iter_mut().enumerate() {
        if !other.used && other.interior.expand(1).intersects(&changed) {
            other.doorways = OnceCell::new();
            touched.push(ri);
        }
    }
    map.prefabs.push(PlacedPrefab {
        name: fit.prefab.name().to_string(),
        stage: Stage::Encounter,
        bounds: rect,
        transform: fit.transform,
        region: Some(region),
        encounter: Some(EncounterTag { id: e.id.clone(), category: e.category, style: e.style }),
        variant,
    });
    touched
}

/// Fills the room's interior outside `rect` with earth, walls it around `rect` (and
/// wherever it still touches open ground), and turns old walls that no longer
/// border open ground into earth.
fn shrink_room(map: &mut Map, interior: Rect, rect: Rect) {
    for p in interior.points() {
        if !rect.contains(p) {
            map.terrain[p] = Terrain::EARTH;
            map.region_of[p] = NO_REGION;
        }
    }
    // The new wall line: the ring around the prefab, and any other cell of the
    // old room that still touches open ground (a corridor passing a corner).
    for p in interior.points() {
        if !rect.contains(p) && (rect.expand(1).contains(p) || touches_open(map, p)) {
            map.terrain[p] = Terrain::new(Role::Wall);
        }
    }
    for p in interior.ring() {
        let wall = map.terrain_at(p).is_some_and(|t| t.is(Role::Wall));
        if wall && !map.is_protected(p) && !touches_open(map, p) {
            map.terrain[p] = Terrain::EARTH;
        }
    }
}

/// With the room kept at full size, floor the prefab cut off from the door is
/// filled with earth and walled, so no pocket of the room is left unreachable.
fn seal_unreached(map: &mut Map, interior: Rect, door: &Doorway) {
    let mut reached = crate::grid::Grid::new(interior.width, interior.height, false);
    let local = |p: Point| p - Point::new(interior.x, interior.y);
    let mut stack: Vec<Point> = door.cells().map(|d| d - door.side.delta()).filter(|&p| map.is_walkable(p)).collect();
    for &p in &stack {
        reached[local(p)] = true;
    }
    while let Some(p) = stack.pop() {
        for &step in map.moves.steps() {
            let q = p + step;
            if interior.contains(q) && map.is_walkable(q) && !reached[local(q)] {
                reached[local(q)] = true;
                stack.push(q);
            }
        }
    }
    let cut_off: Vec<Point> = interior.points().filter(|&p| map.is_walkable(p) && !reached[local(p)]).collect();
    for &p in &cut_off {
        map.terrain[p] = Terrain::EARTH;
        map.region_of[p] = NO_REGION;
    }
    for &p in &cut_off {
        if touches_open(map, p) {
            map.terrain[p] = Terrain::new(Role::Wall);
        }
    }
}

/// True when one of the 8 cells around `p` is walkable.
fn touches_open(map: &Map, p: Point) -> bool {
    (-1..=1).any(|dy| (-1..=1).any(|dx| (dx, dy) != (0, 0) && map.is_walkable(p + Point::new(dx, dy))))
}

/// Writes the prefab's cells turned by `turn` (`?` keeps the room), protects
/// them, and adds its machines as objects: the prefab as placed, read through
/// the turn rather than turned whole.
fn stamp(map: &mut Map, prefab: &Prefab, turn: Transform, rect: Rect, index: usize) {
    let at = Point::new(rect.x, rect.y);
    let (w, h) = (prefab.width(), prefab.height());
    for drawn in prefab.cells().bounds().points() {
        let Some(t) = prefab.cells()[drawn] else { continue };
        let p = at + turn.apply_point(drawn, w, h);
        map.terrain[p] = t;
        if !t.is(Role::Earth) {
            map.masks[p] |= mask::PROTECTED;
        }
    }
    for machine in prefab.machine_objects(turn, at, index) {
        map.add_object(machine);
    }
}

/// Turns the doorway's doors into open floor.
fn open_doorway(map: &mut Map, door: &Doorway) {
    for p in door.cells() {
        if map.terrain_at(p).is_some_and(|t| t.is_door()) {
            map.terrain[p] = Terrain::new(Role::Floor(FloorKind::Room));
        }
    }
}

/// Turns every cell of the doorway into a secret door: the room behind it looks
/// walled off until found. Secret doors are walkable, so the map stays connected.
fn hide_doorway(map: &mut Map, door: &Doorway) {
    for p in door.cells() {
        if !map.is_protected(p) {
            map.terrain[p] = Terrain::new(Role::SecretDoor);
        }
    }
}

/// Opens the whole wall line in front of `rect` and walls whatever earth it exposes.
fn remove_front(map: &mut Map, door: &Doorway, rect: Rect) {
    let front: Vec<Point> = front_cells(door.side, rect).collect();
    for &p in &front {
        map.terrain[p] = Terrain::new(Role::Floor(FloorKind::Room));
    }
    for &p in &front {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = p + Point::new(dx, dy);
                if map.terrain_at(q) == Some(Terrain::EARTH) {
                    map.terrain[q] = Terrain::new(Role::Wall);
                }
            }
        }
    }
}

/// Widens the doorway to `width` cells along its wall, inside the span of `rect`,
/// where the new door cells have open ground on both sides. Returns the cells
/// added, or `None` when no such span exists.
fn widen(map: &mut Map, door: &Doorway, rect: Rect, width: u8, rng: &mut Rng) -> Option<Vec<Point>> {
    let width = usize::from(width);
    if door.len as usize >= width {
        return Some(Vec::new());
    }
    let line: Vec<Point> = front_cells(door.side, rect).collect();
    let first = line.iter().position(|p| *p == door.first)?;
    let last = first + door.len as usize - 1;
    let out = door.side.delta();
    let usable = |p: Point| {
        door.contains(p)
            || (map.terrain_at(p).is_some_and(|t| t.is(Role::Wall))
                && !map.is_protected(p)
                && map.is_walkable(p + out)
                && outside_may_open(map, p + out)
                && map.is_walkable(p - out))
    };
    let starts: Vec<usize> = (0..line.len().saturating_sub(width - 1))
        .filter(|&s| s <= first && s + width > last && line[s..s + width].iter().all(|&p| usable(p)))
        .collect();
    let &start = rng.pick(&starts)?;
    let terrain = map.terrain_at(door.first).unwrap_or(Terrain::new(Role::Door));
    let added: Vec<Point> = line[start..start + width].iter().copied().filter(|&p| !door.contains(p)).collect();
    for &p in &added {
        map.terrain[p] = terrain;
    }
    Some(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Generator;

    /// The room is drawn among those not yet tried until one fits: over many
    /// streams it is always a fitting room, and each fitting room comes up
    /// about as often as any other, as when every room was tried first.
    #[test]
    fn a_fit_is_drawn_evenly_among_the_fitting_rooms_only() {
        let pack = Pack::embedded().expect("the embedded pack loads");
        let generator = Generator::new(&pack, "materials").expect("materials exists");
        let mut g = generator.start(3, 0);
        g.features().expect("features");
        g.layout().expect("layout");
        let map = g.map();
        let rooms = find_rooms(map);
        let pool = &generator.map_type().encounters.as_ref().expect("materials has encounters").pool;
        // An encounter that some rooms take and some do not.
        let fitting_rooms = |e: &Encounter| -> Vec<usize> {
            let prefabs = Candidate::all(&pack, e);
            (0..rooms.len())
                .filter(|&ri| e.doors.allows(rooms[ri].doorways(map).len() as u32))
                .filter(|&ri| prefabs.iter().any(|&c| fits(map, e, &rooms[ri], c)))
                .collect()
        };
        let (e, fitting) = pool
            .iter()
            .filter(|e| e.objects.is_empty() && !e.prefabs.is_empty())
            .map(|e| (e, fitting_rooms(e)))
            .find(|(_, f)| f.len() >= 10 && f.len() < rooms.len())
            .expect("an encounter fits some rooms but not all");
        let draws = 100 * fitting.len() as u64;
        let mut chosen = vec![0u32; rooms.len()];
        for stream in 0..draws {
            let mut memo = vec![UNKNOWN; rooms.len()];
            let mut rng = Rng::stream_n(7, "test", stream);
            let Ok(fit) = choose_fit(map, &pack, e, &rooms, &mut memo, &mut rng) else { panic!("some room fits") };
            chosen[fit.room] += 1;
        }
        for (ri, &n) in chosen.iter().enumerate() {
            if fitting.contains(&ri) {
                // 100 expected each: a binomial's 6 standard deviations either side.
                assert!((40..=160).contains(&n), "room {ri} chosen {n} times in {draws}, about 100 expected");
            } else {
                assert_eq!(n, 0, "room {ri} does not fit `{}`, yet was chosen", e.id);
            }
        }
    }
}
