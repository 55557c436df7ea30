//! Pieces for the generators that place whole prefabs (the chain, the pathways):
//! every pool prefab in every orientation it allows, and the auto-rooms, as flat
//! lists of cells ready for fast fit tests.
//!
//! In: a map type's pool ([`PoolEntry`]s), start prefab and [`AutoRooms`], the pack
//! and the map's width. Out: the pool as [`Entry`]s, each with its weight, limits
//! and [`Shape`]s, and a [`Pool`] that draws from them under their limits.
//! Hand-made entries are built once per generator and shared by every map;
//! auto-room kinds are drawn from each map's own random stream. A shape's cells
//! skip `?` (don't care) and carry their offset into the map's row-major grids.
//!
//! A prefab with variation lines is fitted as a shape that holds for every
//! outcome: its cells as in its most closed drawing (so a walk through its floor
//! only counts floor open in every outcome), the rectangle around the walkable
//! cells of its most open drawing, and the cells whose terrain varies listed
//! apart, which may only go on free ground (never on another piece's wall). Once
//! it fits, [`Entry::outcome`] draws the outcome that is stamped.

use super::Carver;
use crate::content::Pack;
use crate::content::chain::{AutoRooms, PoolEntry};
use crate::geom::{Dir, Point, Rect, Transform, TransformSet};
use crate::grid::Grid;
use crate::map::{FloorKind, LinkKind, PlacedPrefab, RegionId, RegionKind, Role, Stage, Terrain};
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
    /// The cells around it within a padding (see [`Shape::pad`]); empty until
    /// a generator that pads its pieces asks.
    pub halo: Vec<Point>,
    /// For a prefab with variation lines, the offsets (as in `cells`) of the
    /// cells whose terrain varies; empty otherwise.
    pub varying: Vec<isize>,
}

impl Shape {
    /// The shape of `prefab` turned by `t`, for a map `map_width` cells wide; for
    /// a prefab with variation lines, the shape every outcome fits in.
    pub fn new(prefab: &Prefab, t: Transform, map_width: i32) -> Shape {
        let mut shape = Shape::of(prefab.most_closed(), t, map_width);
        if prefab.varies() {
            let (w, h) = (prefab.width(), prefab.height());
            let offset = |p: Point| p.y as isize * map_width as isize + p.x as isize;
            shape.varying = prefab
                .cells()
                .bounds()
                .points()
                .filter(|&p| prefab.varies_at(p))
                .map(|p| offset(t.apply_point(p, w, h)))
                .collect();
            shape.open_bounds = Shape::of(prefab.most_open(), t, map_width).open_bounds;
        }
        shape
    }

    /// The shape of `prefab` as it is drawn, turned by `t`.
    fn of(prefab: &Prefab, t: Transform, map_width: i32) -> Shape {
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
            } else if terrain.is_walkable() {
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
            halo: Vec::new(),
            varying: Vec::new(),
            prefab: oriented,
        }
    }

    /// Lists in [`Shape::halo`] the cells within `padding` cells (diagonals
    /// included) of its drawn cells that are not drawn cells themselves.
    pub fn pad(&mut self, padding: i32) {
        let (w, h) = self.size();
        let (gw, gh) = (w + 2 * padding, h + 2 * padding);
        // A grid with the shape in the middle: 1 drawn, 2 halo.
        let mut marks = vec![0u8; (gw * gh) as usize];
        let at = |p: Point| ((p.y + padding) * gw + p.x + padding) as usize;
        for &(q, _, _) in &self.cells {
            marks[at(q)] = 1;
        }
        for &(q, _, _) in &self.cells {
            for dy in -padding..=padding {
                for dx in -padding..=padding {
                    let i = at(q + Point::new(dx, dy));
                    if marks[i] == 0 {
                        marks[i] = 2;
                    }
                }
            }
        }
        self.halo = (0..gw * gh)
            .filter(|&i| marks[i as usize] == 2)
            .map(|i| Point::new(i % gw - padding, i / gw - padding))
            .collect();
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
    /// The prefab itself when it has variation lines: each piece placed draws
    /// its own outcome from it.
    pub varying: Option<Prefab>,
}

impl Entry {
    /// For an entry whose prefab has variation lines, the outcome the next piece
    /// of it placed on `c`'s map draws, as a shape turned like `shape`, with its
    /// seed; `None` for an entry that does not vary (place `shape` itself).
    pub fn outcome(&self, c: &Carver<'_>, shape: &Shape) -> Option<(Shape, u32)> {
        let prefab = self.varying.as_ref()?;
        let seed = c.map.variant_seed(&self.label);
        Some((Shape::new(&prefab.variant(seed), shape.transform, c.map.width()), seed))
    }

    /// The region of a piece of this entry placed with `shape` at `origin` (the
    /// outcome drawn by `variant`, for a prefab with variation lines), and its
    /// index among the map's placed prefabs: an auto-room is a
    /// [`RegionKind::Room`] (its floor), a hand-made piece a placed prefab of the
    /// layout stage (its machines placed too) with a [`RegionKind::Prefab`] region.
    pub fn region_for(
        &self,
        c: &mut Carver<'_>,
        shape: &Shape,
        origin: Point,
        variant: Option<u32>,
    ) -> (RegionId, Option<usize>) {
        let (w, h) = shape.size();
        if self.auto {
            return (c.region(RegionKind::Room, Rect::new(origin.x + 1, origin.y + 1, w - 2, h - 2), None), None);
        }
        let index = c.map.prefabs.len();
        let bounds = Rect::new(origin.x, origin.y, w, h);
        let region = c.region(RegionKind::Prefab, bounds, None);
        c.map.regions[region as usize].prefab = Some(index);
        for machine in shape.prefab.machine_objects(Transform::IDENTITY, origin, index) {
            c.map.add_object(machine);
        }
        c.map.prefabs.push(PlacedPrefab {
            name: self.label.clone(),
            stage: Stage::Layout,
            bounds,
            transform: shape.transform,
            region: Some(region),
            encounter: None,
            variant,
        });
        (region, Some(index))
    }

    /// Its weight once `placed` copies are down: 0 at its limit.
    pub fn weight_after(&self, placed: u32) -> u32 {
        match self.max {
            Some(max) if placed >= max => 0,
            _ => self.weight,
        }
    }
}

/// The entries of one map's pool and how many of each are down.
pub(super) struct Pool<'e> {
    pub entries: Vec<&'e Entry>,
    pub placed: Vec<u32>,
    /// Each entry's weight now (0 at its limit).
    pub weights: Vec<u32>,
    /// The weights of the entries still short of their minimum, else 0.
    pub required: Vec<u32>,
    /// What each entry's weight is multiplied by (see [`Pool::new`]).
    scale: Vec<u32>,
}

impl<'e> Pool<'e> {
    /// The pool of `entries`. Each auto-room kind carries the auto-rooms' whole
    /// weight, so hand-made weights are scaled by the number of kinds: the kinds
    /// then share the auto-rooms' weight evenly, exactly.
    pub fn new(entries: Vec<&'e Entry>) -> Pool<'e> {
        let kinds = entries.iter().filter(|e| e.auto).count().max(1) as u32;
        let scale: Vec<u32> = entries.iter().map(|e| if e.auto { 1 } else { kinds }).collect();
        let weights = entries.iter().zip(&scale).map(|(e, s)| e.weight.saturating_mul(*s)).collect();
        let required = entries.iter().map(|e| if e.min > 0 { e.weight.max(1) } else { 0 }).collect();
        Pool { placed: vec![0; entries.len()], entries, weights, required, scale }
    }

    /// Counts one more copy of entry `i`.
    pub fn add(&mut self, i: usize) {
        self.placed[i] += 1;
        let e = self.entries[i];
        self.weights[i] = e.weight_after(self.placed[i]).saturating_mul(self.scale[i]);
        if self.placed[i] >= e.min {
            self.required[i] = 0;
        }
    }

    /// The first entry still short of its minimum.
    pub fn short(&self) -> Option<usize> {
        self.required.iter().position(|&w| w > 0)
    }
}

/// Every shape of `prefab` in the orientations it allows.
pub(super) fn shapes_of(prefab: &Prefab, map_width: i32) -> Vec<Shape> {
    prefab.transforms().iter().map(|t| Shape::new(prefab, t, map_width)).collect()
}

/// The pool's hand-made entries.
pub(super) fn hand_made(pool: &[PoolEntry], pack: &Pack, map_width: i32) -> Vec<Entry> {
    pool.iter()
        .filter_map(|e| {
            let prefab = pack.prefab(&e.prefab)?;
            Some(Entry {
                label: e.prefab.clone(),
                auto: false,
                weight: e.weight,
                max: e.max,
                min: e.min,
                shapes: shapes_of(prefab, map_width),
                varying: prefab.varies().then(|| prefab.clone()),
            })
        })
        .collect()
}

/// The start prefab as an entry, if the map type names one.
pub(super) fn start(name: Option<&str>, pack: &Pack, map_width: i32) -> Option<Entry> {
    let prefab = pack.prefab(name?)?;
    Some(Entry {
        label: prefab.name().to_string(),
        auto: false,
        weight: 0,
        max: None,
        min: 0,
        shapes: shapes_of(prefab, map_width),
        varying: prefab.varies().then(|| prefab.clone()),
    })
}

/// This map's auto-room kinds, drawn from `rng`.
pub(super) fn auto_rooms(a: &AutoRooms, map_width: i32, rng: &mut Rng) -> Vec<Entry> {
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
                varying: None,
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
