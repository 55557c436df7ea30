//! The chain's pieces: every pool prefab in every orientation it allows, and the
//! auto-rooms, as flat lists of cells ready for fast fit tests.
//!
//! In: the map type's [`ChainParams`], the pack and the map's width. Out: the pool
//! as [`Entry`]s, each with its weight, limits and [`Shape`]s. Hand-made entries
//! are built once per generator and shared by every map; auto-room kinds are drawn
//! from each map's own random stream. A shape's cells skip `?` (don't care) and
//! carry their offset into the map's row-major grids.

use crate::content::Pack;
use crate::content::chain::{AutoRooms, ChainParams};
use crate::geom::{Dir, Point, Rect, Transform, TransformSet};
use crate::grid::Grid;
use crate::map::{FloorKind, LinkKind, Role, Terrain};
use crate::prefab::{LinkMark, Prefab};
use crate::rng::Rng;

/// What a shape puts in a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// Solid ground: wall, earth or blocked.
    Solid(Terrain),
    /// Walkable: floor, door or stairs.
    Open(Terrain),
    /// A connector facing this way: wall until a hallway joins it, then a doorway.
    Connector(Dir),
}

/// One prefab in one orientation.
pub(super) struct Shape {
    /// The prefab as oriented (its machines are placed from it).
    pub prefab: Prefab,
    /// How it was turned.
    pub transform: Transform,
    /// Its cells that are not `?`: offset in the prefab, offset in the map's
    /// row-major grids, and what goes there.
    pub cells: Vec<(Point, isize, Part)>,
    /// The smallest rectangle (in prefab coordinates) holding its walkable cells,
    /// which must keep off the map's outermost ring.
    pub open_bounds: Rect,
    /// Its connectors: cell and facing.
    pub connectors: Vec<(Point, Dir)>,
    /// Its `?` cells, for the map type's `dont_care` terrain.
    pub blanks: Vec<Point>,
}

impl Shape {
    /// The shape of `prefab` turned by `t`, for a map `map_width` cells wide.
    pub fn new(prefab: &Prefab, t: Transform, map_width: i32) -> Shape {
        let oriented = prefab.transformed(t);
        let connectors: Vec<(Point, Dir)> =
            oriented.links().iter().filter(|l| l.kind == LinkKind::Connector).map(|l| (l.at, l.dir)).collect();
        let mut cells = Vec::new();
        let mut blanks = Vec::new();
        let mut open_bounds: Option<Rect> = None;
        for p in oriented.cells().bounds().points() {
            let Some(terrain) = oriented.cells()[p] else {
                blanks.push(p);
                continue;
            };
            let part = if let Some(&(_, dir)) = connectors.iter().find(|&&(c, _)| c == p) {
                Part::Connector(dir)
            } else if terrain.role.is_walkable() {
                let cell = Rect::new(p.x, p.y, 1, 1);
                open_bounds = Some(open_bounds.map_or(cell, |b| b.union(&cell)));
                Part::Open(terrain)
            } else {
                Part::Solid(terrain)
            };
            cells.push((p, p.y as isize * map_width as isize + p.x as isize, part));
        }
        Shape {
            transform: t,
            cells,
            open_bounds: open_bounds.unwrap_or(Rect::new(1, 1, 0, 0)),
            connectors,
            blanks,
            prefab: oriented,
        }
    }

    /// Width and height.
    pub fn size(&self) -> (i32, i32) {
        (self.prefab.width(), self.prefab.height())
    }
}

/// A kind of piece the chain can place: a pool prefab or an auto-room kind.
pub(super) struct Entry {
    /// The prefab's name, or a description of the auto-room.
    pub label: String,
    /// True for auto-rooms, which become rooms rather than placed prefabs.
    pub auto: bool,
    /// Relative frequency.
    pub weight: u32,
    /// Most copies per map.
    pub max: Option<u32>,
    /// Fewest copies per map.
    pub min: u32,
    /// One shape per allowed orientation.
    pub shapes: Vec<Shape>,
}

impl Entry {
    /// Its weight once `placed` copies are down: 0 at its limit.
    pub fn weight_after(&self, placed: u32) -> u32 {
        match self.max {
            Some(max) if placed >= max => 0,
            _ => self.weight,
        }
    }
}

/// Every shape of `prefab` in the orientations it allows.
pub(super) fn shapes_of(prefab: &Prefab, map_width: i32) -> Vec<Shape> {
    prefab.transforms().iter().map(|t| Shape::new(prefab, t, map_width)).collect()
}

/// The pool's hand-made entries.
pub(super) fn hand_made(params: &ChainParams, pack: &Pack, map_width: i32) -> Vec<Entry> {
    params
        .pool
        .iter()
        .filter_map(|e| {
            let prefab = pack.prefab(&e.prefab)?;
            Some(Entry {
                label: e.prefab.clone(),
                auto: false,
                weight: e.weight,
                max: e.max,
                min: e.min,
                shapes: shapes_of(prefab, map_width),
            })
        })
        .collect()
}

/// The start prefab as an entry, if the map type names one.
pub(super) fn start(params: &ChainParams, pack: &Pack, map_width: i32) -> Option<Entry> {
    let prefab = pack.prefab(params.start.as_deref()?)?;
    Some(Entry {
        label: prefab.name().to_string(),
        auto: false,
        weight: 0,
        max: None,
        min: 0,
        shapes: shapes_of(prefab, map_width),
    })
}

/// This map's auto-room kinds, drawn from `rng`.
pub(super) fn auto_rooms(params: &ChainParams, map_width: i32, rng: &mut Rng) -> Vec<Entry> {
    let a = &params.auto_rooms;
    if a.weight == 0 {
        return Vec::new();
    }
    let kinds = a.kinds.max(1);
    (0..kinds)
        .map(|k| {
            let room = auto_room(a, k, rng);
            // Each kind carries the whole weight; the pool scales hand-made weights
            // up by the number of kinds, so the kinds share it evenly.
            Entry {
                label: format!("auto-room {}x{}", room.width() - 2, room.height() - 2),
                auto: true,
                weight: a.weight,
                max: None,
                min: 0,
                shapes: TransformSet::ROTATIONS.iter().map(|t| Shape::new(&room, t, map_width)).collect(),
            }
        })
        .collect()
}

/// A rectangular room of random size with connectors on its sides, as a prefab.
fn auto_room(a: &AutoRooms, kind: u32, rng: &mut Rng) -> Prefab {
    let w = rng.range(a.width.lo, a.width.hi) + 2;
    let h = rng.range(a.height.lo, a.height.hi) + 2;
    let mut cells = Grid::new(w, h, Some(Terrain::new(Role::Wall)));
    for p in Rect::new(1, 1, w - 2, h - 2).points() {
        cells.set(p, Some(Terrain::floor(FloorKind::Room)));
    }
    let mut links: Vec<LinkMark> = Vec::new();
    for dir in Dir::ALL {
        // The side's cells between its corners, and where each lies.
        let along: Vec<Point> = match dir {
            Dir::North => (1..w - 1).map(|x| Point::new(x, 0)).collect(),
            Dir::South => (1..w - 1).map(|x| Point::new(x, h - 1)).collect(),
            Dir::West => (1..h - 1).map(|y| Point::new(0, y)).collect(),
            Dir::East => (1..h - 1).map(|y| Point::new(w - 1, y)).collect(),
        };
        let wanted = rng.range(a.connectors.0 as i32, a.connectors.1 as i32).max(0) as usize;
        let mut spots = along;
        rng.shuffle(&mut spots);
        // Connectors side by side would make one wide doorway: keep them apart.
        let mut chosen: Vec<Point> = Vec::new();
        for p in spots {
            if chosen.len() >= wanted {
                break;
            }
            if chosen.iter().all(|q| (q.x - p.x).abs() + (q.y - p.y).abs() > 1) {
                chosen.push(p);
            }
        }
        links.extend(chosen.into_iter().map(|at| LinkMark { at, dir, kind: LinkKind::Connector }));
    }
    if links.is_empty() {
        let dir = Dir::ALL[rng.below(4) as usize];
        let at = match dir {
            Dir::North => Point::new(w / 2, 0),
            Dir::South => Point::new(w / 2, h - 1),
            Dir::West => Point::new(0, h / 2),
            Dir::East => Point::new(w - 1, h / 2),
        };
        links.push(LinkMark { at, dir, kind: LinkKind::Connector });
    }
    for l in &links {
        cells.set(l.at, Some(Terrain::new(Role::Door)));
    }
    links.sort_by_key(|l| (l.at.y, l.at.x));
    Prefab::generated(format!("auto-room-{kind}"), cells, links)
}
