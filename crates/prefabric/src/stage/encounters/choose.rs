//! Choosing where an encounter goes: a free room (or cavern) drawn among those
//! where one of the encounter's prefabs fits, with the orientation, the place
//! against the door and what the door must become, or why none fits.
//!
//! In: the map, the rooms, an encounter and its own stream. Out: a [`Fit`],
//! or the reason the encounter is retired and a tally of why each room refused
//! it. Guarantees: a fit's most closed drawing opens onto the door (so every
//! outcome does), no door opens onto a cell where the prefab may put a
//! machine, and a cubby's front wall can be removed; the map is not changed
//! here.

use super::rooms::{Doorway, FITS, Fit, NO_FIT, Room, UNKNOWN, side_cells};
use crate::content::Pack;
use crate::content::encounters::{DoorChange, Encounter};
use crate::geom::{Dir, Point, Rect, Transform};
use crate::map::{Map, RegionKind, Role, SkipReason};
use crate::prefab::Prefab;
use crate::rng::Rng;
use crate::vocab::Style;

/// Picks a free room and a way to embed `e` there, or says why there is none.
pub(super) fn choose_fit<'p>(
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
pub(super) struct Candidate<'p> {
    pub(super) prefab: &'p Prefab,
    pub(super) machines: &'p [Point],
}

impl<'p> Candidate<'p> {
    /// The prefabs of `e` the pack has, in the encounter's order.
    pub(super) fn all(pack: &'p Pack, e: &Encounter) -> Vec<Candidate<'p>> {
        e.prefabs
            .iter()
            .filter_map(|n| Some(Candidate { prefab: pack.prefab(n)?, machines: pack.machine_reach(n) }))
            .collect()
    }

    /// True when a machine may stand on cell `p` of the prefab as drawn.
    pub(super) fn may_hold_machine(&self, p: Point) -> bool {
        self.machines.binary_search_by_key(&(p.y, p.x), |q| (q.y, q.x)).is_ok()
    }
}

/// Why no prefab of an encounter fits a room (with the right door count).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Misfit {
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
    pub(super) const ALL: [Misfit; 4] = [Misfit::TooSmall, Misfit::NoFacing, Misfit::DoorBlocked, Misfit::FrontBlocked];

    pub(super) fn describe(self) -> &'static str {
        match self {
            Misfit::TooSmall => "too small for every prefab",
            Misfit::NoFacing => "large enough only in orientations its prefabs do not allow facing the door",
            Misfit::DoorBlocked => "with a way in where the prefabs are closed or hold a machine",
            Misfit::FrontBlocked => "whose front wall cannot be removed",
        }
    }
}

/// The furthest any prefab of `e` got towards fitting `room`.
pub(super) fn why_not(map: &Map, e: &Encounter, room: &Room, prefabs: &[Candidate<'_>]) -> Misfit {
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
    pub(super) fn max_by(self, other: Misfit) -> Misfit {
        if other as usize > self as usize { other } else { self }
    }
}

/// Every orientation and top-left corner at which `prefab` can be embedded in
/// `room` for `e`.
pub(super) fn options(map: &Map, e: &Encounter, room: &Room, c: Candidate<'_>) -> Vec<(Transform, Point)> {
    let mut out = Vec::new();
    visit_options(map, e, room, c, &mut |t, at| {
        out.push((t, at));
        true
    });
    out
}

/// True when `prefab` can be embedded in `room` for `e` at all; stops at the first
/// way found, without allocating.
pub(super) fn fits(map: &Map, e: &Encounter, room: &Room, c: Candidate<'_>) -> bool {
    let mut found = false;
    visit_options(map, e, room, c, &mut |_, _| {
        found = true;
        false
    });
    found
}

/// Calls `visit` with each orientation and top-left corner at which `prefab` can be
/// embedded in `room` for `e`, until it returns false.
pub(super) fn visit_options(
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
pub(super) fn against_door(b: Rect, door: &Doorway, w: i32, h: i32) -> impl Iterator<Item = Point> {
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
pub(super) fn machine_inside_a_doorway(c: Candidate<'_>, t: Transform, at: Point, doorways: &[Doorway]) -> bool {
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
pub(super) fn opens_onto_door(c: Candidate<'_>, t: Transform, at: Point, door: &Doorway) -> bool {
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
pub(super) fn front_removable(map: &Map, door: &Doorway, rect: Rect) -> bool {
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
pub(super) fn outside_may_open(map: &Map, q: Point) -> bool {
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
pub(super) fn front_cells(side: Dir, rect: Rect) -> impl Iterator<Item = Point> {
    side_cells(rect, side)
}
