//! Embedding a chosen fit into its room: the room shrunk to the prefab and
//! filled with earth and walled, the prefab stamped in the outcome its own
//! stream draws, the door opened, hidden or widened, a cubby's front removed,
//! and floor cut off from the door sealed.
//!
//! In: the map and a [`Fit`] that [`choose`](super::choose) found. Out: the
//! map with the prefab placed and recorded, and the other rooms whose walls
//! changed. Guarantees: connectivity holds — door changes only open walls
//! onto corridors and junctions, and room floor the prefab cuts off from the
//! door is filled in.

use super::choose::{front_cells, outside_may_open};
use super::rooms::{Doorway, Fit, Room};
use crate::content::encounters::{DoorChange, Encounter};
use crate::geom::{Point, Rect, Transform};
use crate::map::{Door, EncounterTag, FloorKind, Map, NO_REGION, PlacedPrefab, RegionKind, Role, Stage, Terrain, mask};
use crate::prefab::Prefab;
use crate::rng::Rng;
use crate::trace::Outcome;
use crate::vocab::Style;
use std::borrow::Cow;
use std::cell::OnceCell;

/// Embeds a chosen fit: reshapes the room, stamps the prefab, changes the door,
/// and records the placement.
/// Returns the other rooms whose walls it changed.
pub(super) fn embed(map: &mut Map, e: &Encounter, rooms: &mut [Room], fit: &Fit<'_>, rng: &mut Rng) -> Vec<usize> {
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
pub(super) fn shrink_room(map: &mut Map, interior: Rect, rect: Rect) {
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
pub(super) fn seal_unreached(map: &mut Map, interior: Rect, door: &Doorway) {
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
pub(super) fn touches_open(map: &Map, p: Point) -> bool {
    (-1..=1).any(|dy| (-1..=1).any(|dx| (dx, dy) != (0, 0) && map.is_walkable(p + Point::new(dx, dy))))
}

/// Writes the prefab's cells turned by `turn` (`?` keeps the room), protects
/// them, and adds its machines as objects: the prefab as placed, read through
/// the turn rather than turned whole.
pub(super) fn stamp(map: &mut Map, prefab: &Prefab, turn: Transform, rect: Rect, index: usize) {
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
pub(super) fn open_doorway(map: &mut Map, door: &Doorway) {
    for p in door.cells() {
        if map.terrain_at(p).is_some_and(|t| t.is_door()) {
            map.terrain[p] = Terrain::new(Role::Floor(FloorKind::Room));
        }
    }
}

/// Turns every cell of the doorway into a secret door: the room behind it looks
/// walled off until found. Secret doors are walkable, so the map stays connected.
pub(super) fn hide_doorway(map: &mut Map, door: &Doorway) {
    for p in door.cells() {
        if !map.is_protected(p) {
            map.terrain[p] = Terrain::new(Role::SecretDoor);
        }
    }
}

/// Opens the whole wall line in front of `rect` and walls whatever earth it exposes.
pub(super) fn remove_front(map: &mut Map, door: &Doorway, rect: Rect) {
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
pub(super) fn widen(map: &mut Map, door: &Doorway, rect: Rect, width: u8, rng: &mut Rng) -> Option<Vec<Point>> {
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
