//! The rooms and halls an encounter may go into, with their doorways read
//! from the terrain, and the record of which encounter fits which room.
//!
//! In: the layout's regions and terrain. Out: every room and hall not
//! holding a prefab yet, each with its doorways (the walkable runs in its wall
//! line, corners left out) read when first asked for. Guarantees: rooms from
//! any layout generator qualify, as nothing here reads a generator's
//! internals; a diagonal gap is no way in.

use crate::geom::{Dir, Point, Rect, Transform};
use crate::map::{Map, RegionId, RegionKind};
use crate::prefab::Prefab;
use std::cell::OnceCell;

/// A run of walkable cells in the wall line around a room: one way in.
#[derive(Copy, Clone, Debug)]
pub(super) struct Doorway {
    /// The side of the room it is on.
    pub(super) side: Dir,
    /// Its first cell (west- or northmost).
    pub(super) first: Point,
    /// How many cells it spans along the side.
    pub(super) len: i32,
}

impl Doorway {
    /// The step from one of its cells to the next.
    pub(super) fn along(&self) -> Point {
        if self.side.is_horizontal() { Point::new(0, 1) } else { Point::new(1, 0) }
    }

    /// Its cells, in order along the side.
    pub(super) fn cells(&self) -> impl Iterator<Item = Point> + use<> {
        let (first, step) = (self.first, self.along());
        (0..self.len).map(move |k| first + step * k)
    }

    /// Its last cell.
    pub(super) fn last(&self) -> Point {
        self.first + self.along() * (self.len - 1)
    }

    /// True when `p` is one of its cells.
    pub(super) fn contains(&self, p: Point) -> bool {
        self.cells().any(|q| q == p)
    }
}

/// A room that may receive an encounter.
pub(super) struct Room {
    pub(super) region: RegionId,
    /// A hall rather than a room: it takes only encounters placed anywhere
    /// inside (accessible and feature styles), which need no single door.
    pub(super) hall: bool,
    /// Its open interior.
    pub(super) interior: Rect,
    /// Its doorways, read from the terrain when first asked for (most rooms
    /// never are) and forgotten when an embedding beside it changes its walls.
    pub(super) doorways: OnceCell<Vec<Doorway>>,
    pub(super) used: bool,
}

impl Room {
    /// The walkable runs in its wall line ([`doorways`]).
    pub(super) fn doorways(&self, map: &Map) -> &[Doorway] {
        self.doorways.get_or_init(|| doorways(map, self.interior))
    }
}

/// Whether each encounter fits each room, worked out when first needed and
/// forgotten for a room when an embedding next to it changes its walls, so a
/// draw does not search every room again.
pub(super) struct FitMemo {
    pub(super) rooms: usize,
    /// `encounter * rooms + room`: `UNKNOWN`, `FITS` or `NO_FIT`.
    pub(super) known: Vec<u8>,
}

pub(super) const UNKNOWN: u8 = 0;
pub(super) const FITS: u8 = 1;
pub(super) const NO_FIT: u8 = 2;

impl FitMemo {
    pub(super) fn new(encounters: usize, rooms: usize) -> FitMemo {
        FitMemo { rooms, known: vec![UNKNOWN; encounters * rooms] }
    }

    /// Forgets every encounter's answer for `room`.
    pub(super) fn forget_room(&mut self, room: usize) {
        for row in self.known.chunks_mut(self.rooms.max(1)) {
            row[room] = UNKNOWN;
        }
    }
}

/// One way to embed an encounter: a prefab, an orientation and where it goes.
pub(super) struct Fit<'p> {
    /// Every prefab of the encounter that fits the room, the chosen one among them.
    pub(super) fitting: Vec<&'p str>,
    pub(super) room: usize,
    pub(super) prefab: &'p Prefab,
    pub(super) transform: Transform,
    pub(super) at: Point,
}

/// Every room and hall of the layout, its doorways to be read from the terrain.
pub(super) fn find_rooms(map: &Map) -> Vec<Room> {
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
pub(super) fn doorways(map: &Map, interior: Rect) -> Vec<Doorway> {
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
pub(super) fn side_cells(interior: Rect, side: Dir) -> impl Iterator<Item = Point> {
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
