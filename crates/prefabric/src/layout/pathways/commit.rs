//! Writing the finished pathways onto the map.
//!
//! In: the rooms, hallway prefabs and features the pathways placed (with their
//! doorways opened or not), the final cell states and the doorways chosen to be
//! secret doors. Out: the map's terrain, regions, placed prefabs, machines and
//! links, through the [`Carver`] so its open-cell count and cell states stay
//! true: hand-made rooms and hallway prefabs become protected placed prefabs with
//! [`RegionKind::Prefab`] regions, auto-rooms [`RegionKind::Room`] regions,
//! opened doorways doors (by the map type's chance) or openings, closed ones the
//! `unused` terrain, uncovered `?` cells the `dont_care` terrain, and the hallway
//! cells [`RegionKind::Corridor`] rectangles that cover them exactly.

use super::super::shapes::Part;
use super::super::{Carver, SOLID};
use super::{Kind, Placed, cell};
use crate::content::pathways::PathwaysParams;
use crate::geom::{Dir, Point, Rect};
use crate::map::{Door, FloorKind, LinkKind, PlacedLink, RegionId, RegionKind, Role, Terrain, mask};
use crate::rng::Rng;

/// Writes everything placed onto the carver's map.
pub(super) fn write(
    c: &mut Carver<'_>,
    params: &PathwaysParams,
    placed: &[Placed<'_>],
    states: &[u8],
    secret: &[Point],
    rng: &mut Rng,
) {
    for room in placed {
        if matches!(room.kind, Kind::Feature { .. }) {
            continue;
        }
        write_room(c, params, room, states, secret, rng);
    }
    write_hallways(c, states);
}

/// One room or hallway prefab: its cells, region, doorways and `?` cells.
fn write_room(
    c: &mut Carver<'_>,
    params: &PathwaysParams,
    room: &Placed<'_>,
    states: &[u8],
    secret: &[Point],
    rng: &mut Rng,
) {
    let Some(entry) = room.entry else { return };
    let shape = &entry.shapes[room.shape];
    let origin = room.origin;
    // A room with variation lines was fitted as every outcome: the one drawn goes down.
    let outcome = entry.outcome(c, shape);
    let (shape, variant) = match &outcome {
        Some((drawn, seed)) => (drawn, Some(*seed)),
        None => (shape, None),
    };
    let (region, prefab) = entry.region_for(c, shape, origin, variant);
    for &(q, _, part) in &shape.cells {
        let p = origin + q;
        match part {
            Part::Open(t) => c.dig(p, t, region),
            Part::Solid(t) => set_solid(c, p, t),
            Part::Connector(dir) => {
                let opened = room.doorways.iter().any(|d| d.at == p && d.opened);
                if opened {
                    let terrain = if secret.contains(&p) {
                        Terrain::new(Role::SecretDoor)
                    } else {
                        doorway_terrain(c, p, dir, params.door_chance.0, rng)
                    };
                    c.dig(p, terrain, region);
                    record_door(c, region, prefab, p, dir);
                } else if params.unused.is_walkable() {
                    // A niche in the wall: the room's, and a way into it.
                    c.dig(p, params.unused, region);
                    record_door(c, region, prefab, p, dir);
                } else {
                    set_solid(c, p, params.unused);
                }
            }
        }
        if let (Some(_), Some(i)) = (prefab, c.map.terrain.index_of(p)) {
            c.map.masks.cells_mut()[i] |= mask::PROTECTED;
        }
    }
    let fill = params.dont_care;
    if fill != Terrain::EARTH {
        for &q in &shape.blanks {
            let p = origin + q;
            if let Some(i) = c.map.terrain.index_of(p)
                && matches!(states[i], cell::FREE | cell::PAD)
            {
                set_solid(c, p, fill);
            }
        }
    }
}

/// A door, or an opening of the floor behind it, by `chance` percent.
fn doorway_terrain(c: &Carver<'_>, at: Point, dir: Dir, chance: u32, rng: &mut Rng) -> Terrain {
    if rng.percent(chance) {
        return Terrain::new(Role::Door);
    }
    let behind = c.map.terrain[at - dir.delta()];
    if behind.is_floor() { behind } else { Terrain::floor(FloorKind::Room) }
}

/// Records an opened doorway as its region's door (and, for a placed prefab, as
/// one of its links, the way later stages know where it opens).
fn record_door(c: &mut Carver<'_>, region: RegionId, prefab: Option<usize>, at: Point, dir: Dir) {
    match prefab {
        Some(index) => {
            c.map.regions[region as usize].doors.push(Door { at, side: dir, to: None });
            c.map.links.push(PlacedLink { at, dir, kind: LinkKind::Connector, prefab: index });
        }
        None => c.add_door(region, at),
    }
}

fn set_solid(c: &mut Carver<'_>, p: Point, terrain: Terrain) {
    if let Some(i) = c.map.terrain.index_of(p) {
        c.map.terrain.cells_mut()[i] = terrain;
        c.state[i] = SOLID;
    }
}

/// Digs the hallway cells as corridor rectangles: row by row, each run of hallway
/// cells not yet covered is grown downwards while the rows below hold the same run.
fn write_hallways(c: &mut Carver<'_>, states: &[u8]) {
    let (w, h) = (c.map.width(), c.map.height());
    let hall = |i: usize| matches!(states[i], cell::HALL | cell::STEP);
    let mut covered = vec![false; states.len()];
    let floor = Terrain::floor(FloorKind::Corridor);
    for y in 0..h {
        let mut x = 0;
        while x < w {
            let i = (y * w + x) as usize;
            if !hall(i) || covered[i] {
                x += 1;
                continue;
            }
            let mut right = x;
            while right < w && hall((y * w + right) as usize) && !covered[(y * w + right) as usize] {
                right += 1;
            }
            let mut bottom = y + 1;
            while bottom < h
                && (x..right).all(|k| hall((bottom * w + k) as usize) && !covered[(bottom * w + k) as usize])
            {
                bottom += 1;
            }
            let rect = Rect::new(x, y, right - x, bottom - y);
            let region = c.region(RegionKind::Corridor, rect, None);
            for p in rect.points() {
                covered[(p.y * w + p.x) as usize] = true;
                c.dig(p, floor, region);
            }
            x = right;
        }
    }
}
