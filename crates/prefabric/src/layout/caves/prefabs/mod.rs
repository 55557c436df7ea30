//! Prefabs placed into a cave after its layout: geometric centering, wall
//! embedding and direct links (Cogmind's caves, seeds 000 and 001).
//!
//! In: a map whose layout reported caverns (regions of kind
//! [`RegionKind::Cave`] with a [`centre`](crate::map::Region::centre)), and a
//! prefab with the transforms it may take. The encounters stage and the
//! features anchored in caverns both place through this module; neither needs
//! to know which generator made the caverns.
//!
//! It lives with the caves and runs after the layout: the features stage
//! (`features::after_layout`) and the encounters stage call it as
//! `layout::cave_prefabs`. `carve.rs` holds what placing does to cells and the
//! tables the search reads.
//!
//! * **Centred**: the prefab's centre cell goes on the cavern's most central
//!   cell (or up to two cells from it when something is in the way), where at
//!   least two thirds of its rectangle and the ring around it are cave floor.
//!   The ring is carved to cave floor, so the prefab stands free and every way
//!   that crossed its rectangle goes around it: the map stays connected
//!   without a flood fill. Cave floor left under its `?` cells that its ring
//!   does not reach is filled with rock.
//! * **Embedded**: the prefab, turned so its bottom edge faces the cavern, is
//!   sunk into solid rock: its rectangle and the ring around it are rock
//!   except the row in front of its bottom edge, where at least one of its
//!   open bottom cells meets that cavern's floor. Front cells still rock are
//!   carved, so every opening leads into the cave. The places tried are drawn
//!   at random from every one that puts a mouth on the cavern's floor, at most
//!   [`EMBED_TRIES`] of them per cavern.
//! * **Direct links**: every link mark of the prefab has its way out opened,
//!   and where it ends in rock, the shortest passage (at most
//!   [`MAX_PASSAGE`] cells) is dug to the nearest open ground — never a
//!   tunneler, so the prefab cannot take the cave over.
//! * **Variation**: a prefab with variation lines is sunk where its most
//!   closed drawing has a mouth on the cavern and every opening its most open
//!   drawing may have finds room, then placed in the outcome its own stream
//!   draws, its front carved as that outcome opens.
//!
//! Out: the prefab stamped and protected, a new [`RegionKind::Prefab`] region
//! for its open cells, carved cells added to the cavern, passages as
//! [`RegionKind::Passage`] regions, walls raised around everything new. A spot
//! is only ever chosen where all of this holds, so placing never fails; each
//! search is bounded by the cells it may look at.

mod carve;

use crate::geom::{Dir, Point, Rect, Transform, TransformSet};
use crate::map::{Door, EncounterTag, Map, PlacedLink, PlacedPrefab, RegionId, RegionKind, Role, Stage, mask};
use crate::prefab::Prefab;
use crate::rng::Rng;
use crate::vocab::Style;
use carve::{
    Candidates, SummedArea, carve, drawn_open, fill_unreached, front_line, front_openings, on_edge, opens, raise_walls,
    side_of, stamp,
};
use std::collections::VecDeque;

/// Longest passage dug from a link mark to open ground.
pub(crate) const MAX_PASSAGE: u32 = 24;

/// Most places beside one cavern an embedded prefab tries (drawn at random
/// among every place that puts its mouth on the cavern's floor).
pub(crate) const EMBED_TRIES: usize = 400;

/// Shifts tried around a cavern's centre, nearest first.
const CENTRE_SHIFTS: [(i32, i32); 13] =
    [(0, 0), (0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1), (0, -2), (2, 0), (0, 2), (-2, 0)];

/// A cavern that may receive prefabs.
#[derive(Clone, Debug)]
pub(crate) struct Cavern {
    pub region: RegionId,
    pub centre: Point,
    /// A prefab is centred in it already.
    pub centred: bool,
}

/// Why a prefab has no spot in a cavern. Of the tries in one cavern, the one
/// ranked highest here is reported: the shape of the cavern (edge, size) only
/// when no try got past it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Misfit {
    /// A prefab stands at its centre already.
    Centred,
    /// It would reach the map's edge.
    Edge,
    /// A protected cell, another prefab or a room is in the way.
    Crowded,
    /// Less than two thirds of the rectangle and its ring would stand on cave
    /// floor.
    Small,
    /// No rock beside the cavern is deep and whole enough to hold it.
    Shallow,
    /// A link mark would end more than [`MAX_PASSAGE`] cells from open ground.
    LinkCut,
}

impl Misfit {
    /// Every misfit, in order.
    pub const ALL: [Misfit; 6] =
        [Misfit::Centred, Misfit::Edge, Misfit::Crowded, Misfit::Small, Misfit::Shallow, Misfit::LinkCut];

    /// What was wrong with a cavern, without a count: a stable key for statistics.
    pub fn reason(self) -> &'static str {
        match self {
            Misfit::Centred => "a prefab at its centre already",
            Misfit::Edge => "too near the map's edge",
            Misfit::Crowded => "a prefab or a room in the way",
            Misfit::Small => "too small around its centre",
            Misfit::Shallow => "no rock beside it deep enough",
            Misfit::LinkCut => "a link mark too far from open ground",
        }
    }

    /// The misfit counted most in `tally` (the first of those, in order).
    pub fn most(tally: &[u32; 6]) -> Option<Misfit> {
        Misfit::ALL
            .iter()
            .copied()
            .filter(|m| tally[*m as usize] > 0)
            .max_by_key(|m| (tally[*m as usize], std::cmp::Reverse(*m as usize)))
    }

    /// `n` caverns and what this means for them: "2 are too small …".
    pub fn describe(self, n: u32) -> String {
        let (are, have, their) = if n == 1 { ("is", "has", "its") } else { ("are", "have", "their") };
        match self {
            Misfit::Centred => format!("{n} {have} a prefab at {their} centre already"),
            Misfit::Edge => format!("{n} {are} too near the map's edge"),
            Misfit::Crowded => format!("{n} {have} a prefab or a room in the way"),
            Misfit::Small => format!("{n} {are} too small around {their} centre"),
            Misfit::Shallow => {
                format!("{n} {have} no rock beside {} deep enough to sink it into", if n == 1 { "it" } else { "them" })
            }
            Misfit::LinkCut => {
                format!("{n} would leave one of its link marks more than {MAX_PASSAGE} cells from open ground")
            }
        }
    }

    /// Every misfit counted in `tally` (indexed as [`Misfit::ALL`]), described.
    pub fn summary(tally: &[u32; 6]) -> String {
        let parts: Vec<String> =
            Misfit::ALL.iter().filter(|m| tally[**m as usize] > 0).map(|m| m.describe(tally[*m as usize])).collect();
        parts.join(", ")
    }
}

/// `n` caverns, in words.
pub(crate) fn caverns(n: usize) -> String {
    if n == 1 { "1 cavern".to_string() } else { format!("{n} caverns") }
}

/// Where a prefab goes: the cavern, its orientation and its top-left cell,
/// with the passage each link mark needs (rock cells, nearest the mark first).
pub(crate) struct Spot {
    pub cavern: usize,
    pub transform: Transform,
    pub at: Point,
    pub style: Style,
    passages: Vec<Vec<Point>>,
}

/// What placing a prefab made.
pub(crate) struct Placed {
    /// Its index in the map's prefabs.
    pub index: usize,
    /// The length of each link's passage (0 where it opened onto ground).
    pub passages: Vec<u32>,
}

/// The map's caverns and what placing prefabs in them has taken so far.
pub(crate) struct Caverns {
    pub list: Vec<Cavern>,
    /// Rectangles no later prefab may touch: placed prefabs with their ring,
    /// and the passages dug.
    taken: Vec<Rect>,
    width: i32,
    /// Summed counts of the cells an embedded prefab cannot cover (walkable,
    /// protected, BLOCKED), `(width + 1) x (height + 1)`; rebuilt when stale.
    hard: SummedArea,
    /// Summed counts of cave floor (cells of caverns and passages).
    floor: SummedArea,
    stale: bool,
    /// Each cavern's floor cells with rock beside them, and on which sides
    /// (a bit per [`Dir::ALL`] entry), found when first needed.
    boundaries: Vec<Option<Vec<(Point, u8)>>>,
    /// The searches that found no spot, by prefab (its address in the pack),
    /// cavern, style and transforms, with why: placements only take room, so
    /// a search that failed fails again.
    failed: Vec<(usize, usize, Style, TransformSet, Misfit)>,
    /// Search scratch: the generation each cell was seen in, and its way back.
    seen: Vec<u32>,
    came: Vec<u32>,
    generation: u32,
    queue: VecDeque<(u32, u32)>,
}

/// The tables' and searches' buffers, kept per thread from map to map (a
/// fresh table's pages cost more than refilling a warm one). The generation
/// goes with `seen`, whose marks are only trusted for the generation written.
#[derive(Default)]
struct Buffers {
    hard: Vec<u32>,
    floor: Vec<u32>,
    seen: Vec<u32>,
    came: Vec<u32>,
    generation: u32,
}

thread_local! {
    static KEPT: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
}

impl Drop for Caverns {
    /// Keeps the buffers for the next map on this thread.
    fn drop(&mut self) {
        let buffers = Buffers {
            hard: std::mem::take(&mut self.hard.sums),
            floor: std::mem::take(&mut self.floor.sums),
            seen: std::mem::take(&mut self.seen),
            came: std::mem::take(&mut self.came),
            generation: self.generation,
        };
        KEPT.with(|k| *k.borrow_mut() = buffers);
    }
}

impl Caverns {
    /// The caverns of `map`, in region order.
    pub fn find(map: &Map) -> Caverns {
        let Buffers { hard, floor, seen, came, generation } = KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()));
        let list: Vec<Cavern> = map
            .regions
            .iter()
            .filter(|r| r.kind == RegionKind::Cave)
            .filter_map(|r| r.centre.map(|centre| Cavern { region: r.id, centre, centred: false }))
            .collect();
        let boundaries = vec![None; list.len()];
        Caverns {
            list,
            taken: map.prefabs.iter().map(|p| p.bounds.expand(1)).collect(),
            width: map.width(),
            hard: SummedArea { sums: hard, ..SummedArea::default() },
            floor: SummedArea { sums: floor, ..SummedArea::default() },
            stale: true,
            boundaries,
            failed: Vec::new(),
            seen,
            came,
            generation,
            queue: VecDeque::new(),
        }
    }

    /// Keeps every later prefab off `cells` (objects an encounter scattered).
    pub fn keep_off(&mut self, cells: impl Iterator<Item = Point>) {
        self.taken.extend(cells.map(|p| Rect::new(p.x, p.y, 1, 1)));
    }

    /// Says the map changed outside these placements (a room embedding), so the
    /// tables must be read again.
    pub fn invalidate(&mut self) {
        self.stale = true;
        self.boundaries.iter_mut().for_each(|b| *b = None);
        self.failed.clear();
    }

    /// A spot for `prefab` in cavern `k` in one of `transforms`, joined as
    /// `style` (centered or embedded), or the furthest any try got.
    pub fn spot_in(
        &mut self,
        map: &Map,
        k: usize,
        prefab: &Prefab,
        transforms: TransformSet,
        style: Style,
        rng: &mut Rng,
    ) -> Result<Spot, Misfit> {
        let key = (std::ptr::from_ref(prefab) as usize, k, style, transforms);
        if let Some(&(.., m)) = self.failed.iter().find(|f| (f.0, f.1, f.2, f.3) == key) {
            return Err(m);
        }
        let mut turns: Vec<Transform> = prefab.transforms().intersect(transforms).iter().collect();
        rng.shuffle(&mut turns);
        if self.stale {
            self.read_tables(map);
        }
        let found = if style == Style::Embedded {
            self.embedded_spot(map, k, prefab, &turns, rng)
        } else {
            self.centred_spot(map, k, prefab, &turns)
        };
        if let Err(m) = found {
            self.failed.push((key.0, key.1, key.2, key.3, m));
        }
        found
    }

    /// Tries the rectangles around cavern `k`'s centre. The misfit reported
    /// says why the cavern's shape rules the prefab out (too near the edge, too
    /// small) when it does, and otherwise what stood in the way.
    fn centred_spot(&mut self, map: &Map, k: usize, prefab: &Prefab, turns: &[Transform]) -> Result<Spot, Misfit> {
        let cavern = &self.list[k];
        let (mut shape, mut occupied) = (None::<Misfit>, None::<Misfit>);
        for &t in turns {
            let (w, h) = t.apply_size(prefab.width(), prefab.height());
            let base = cavern.centre - Point::new(w / 2, h / 2);
            for (dx, dy) in CENTRE_SHIFTS {
                let rect = Rect::new(base.x + dx, base.y + dy, w, h);
                if let Some(m) = self.shape_misfit(map, rect) {
                    shape = shape.max(Some(m));
                    continue;
                }
                if cavern.centred {
                    // It would fit, but a prefab stands there already.
                    return Err(Misfit::Centred);
                }
                match self.centred_blocked(map, rect) {
                    None => {
                        let at = Point::new(rect.x, rect.y);
                        return Ok(Spot { cavern: k, transform: t, at, style: Style::Centered, passages: Vec::new() });
                    }
                    Some(m) => occupied = occupied.max(Some(m)),
                }
            }
        }
        Err(occupied.or(shape).unwrap_or(Misfit::Small))
    }

    /// What stands in the way of a centred prefab at `rect`: the prefabs placed
    /// and their rings, protected or BLOCKED cells, floor that is not cave.
    fn centred_blocked(&self, map: &Map, rect: Rect) -> Option<Misfit> {
        let ring = rect.expand(1);
        if self.taken.iter().any(|t| t.intersects(&ring)) {
            return Some(Misfit::Crowded);
        }
        for p in ring.points() {
            let t = map.terrain[p];
            if map.is_protected(p) || t.is(Role::Blocked) {
                return Some(Misfit::Crowded);
            }
            if t.is_walkable() {
                let kind = map.regions.get(map.region_of[p] as usize).map(|r| r.kind);
                if !matches!(kind, Some(RegionKind::Cave | RegionKind::Passage)) {
                    return Some(Misfit::Crowded);
                }
            }
        }
        None
    }

    /// Draws places along cavern `k`'s rock-backed floor where an opening of
    /// the prefab's bottom row meets the floor, and takes the first that holds.
    fn embedded_spot(
        &mut self,
        map: &Map,
        k: usize,
        prefab: &Prefab,
        turns: &[Transform],
        rng: &mut Rng,
    ) -> Result<Spot, Misfit> {
        let (w, h) = (prefab.width(), prefab.height());
        // The bottom row's open cells (and link marks on it), as drawn, in
        // each orientation; for a prefab with variation lines, those open in
        // every outcome.
        let closed = prefab.most_closed();
        let openings: Vec<Point> = (0..w)
            .map(|x| Point::new(x, h - 1))
            .filter(|&q| opens(closed, q) || prefab.links().iter().any(|l| l.at == q && l.dir == Dir::South))
            .collect();
        let turned: Vec<(Dir, Vec<Point>)> = turns
            .iter()
            .map(|t| (t.apply_dir(Dir::South), openings.iter().map(|&o| t.apply_point(o, w, h)).collect()))
            .collect();
        // Every (turn, top-left) that puts an opening in front of a floor cell
        // of the cavern with rock behind it, counted cell by cell and made
        // only when drawn: on a 2048x2048 map one cavern's list would take
        // hundreds of megabytes.
        self.boundary(map, k);
        let cells = self.boundaries[k].take().unwrap_or_default();
        let candidates = Candidates::new(&cells, &turned, openings.len());
        let found = self.embed_any(map, k, prefab, turns, candidates, rng);
        self.boundaries[k] = Some(cells);
        found
    }

    /// Draws `candidates` one at a time, so a cavern with a good wall costs a
    /// few tries, and at most `EMBED_TRIES` of them: the first that fits, or
    /// why none did.
    fn embed_any(
        &mut self,
        map: &Map,
        k: usize,
        prefab: &Prefab,
        turns: &[Transform],
        mut candidates: Candidates<'_>,
        rng: &mut Rng,
    ) -> Result<Spot, Misfit> {
        let region = self.list[k].region;
        let len = candidates.len();
        if len == 0 {
            return Err(Misfit::Shallow);
        }
        let mut best = Misfit::Centred;
        for n in 0..len.min(EMBED_TRIES) {
            let j = n + rng.index(len - n).unwrap_or(0);
            candidates.swap(n, j);
            let Some((ti, at)) = candidates.get(n) else { break };
            let t = turns[ti as usize];
            match self.embedded_misfit(map, region, prefab, t, at) {
                Ok(passages) => {
                    return Ok(Spot { cavern: k, transform: t, at, style: Style::Embedded, passages });
                }
                Err(m) => best = best.max(m),
            }
        }
        Err(best)
    }

    /// The passages its links need if `prefab`, turned by `t`, can be sunk at
    /// `at` beside cavern `region`; else why not.
    fn embedded_misfit(
        &mut self,
        map: &Map,
        region: RegionId,
        prefab: &Prefab,
        t: Transform,
        at: Point,
    ) -> Result<Vec<Vec<Point>>, Misfit> {
        let (w, h) = t.apply_size(prefab.width(), prefab.height());
        let rect = Rect::new(at.x, at.y, w, h);
        let facing = t.apply_dir(Dir::South);
        let inner = map.bounds().expand(-1);
        if !inner.contains_rect(&rect) {
            return Err(Misfit::Edge);
        }
        // All rock under it, and around it but for the row in front.
        let front = front_line(rect, facing);
        if self.hard.sum(rect) > 0 || self.hard.sum(rect.expand(1)) > self.hard.sum(front) {
            return Err(Misfit::Shallow);
        }
        if self.taken.iter().any(|r| r.intersects(&rect.expand(1))) {
            return Err(Misfit::Crowded);
        }
        // Every opening some outcome may have must find room; one open in every
        // outcome must meet the cavern.
        for q in front_openings(prefab.most_open(), t, at) {
            if !map.is_walkable(q) && (!inner.contains(q) || map.is_protected(q) || map.terrain[q].is(Role::Blocked)) {
                return Err(Misfit::Crowded);
            }
        }
        let beside =
            front_openings(prefab.most_closed(), t, at).any(|q| map.is_walkable(q) && map.region_of[q] == region);
        if !beside {
            return Err(Misfit::Shallow);
        }
        let mut passages = Vec::new();
        let (pw, ph) = (prefab.width(), prefab.height());
        for link in prefab.links() {
            let mark = at + t.apply_point(link.at, pw, ph);
            let dir = t.apply_dir(link.dir);
            let mut exit = mark;
            while rect.contains(exit) {
                exit = exit + dir.delta();
            }
            match self.passage(map, exit, rect) {
                Some(path) => passages.push(path),
                None => return Err(Misfit::LinkCut),
            }
        }
        Ok(passages)
    }

    /// The shortest way from `start` through rock (never through `avoid`,
    /// protected or BLOCKED cells or the map's outer ring) to open ground: the
    /// rock cells to dig, `start` first; empty when `start` is open.
    fn passage(&mut self, map: &Map, start: Point, avoid: Rect) -> Option<Vec<Point>> {
        if map.is_walkable(start) {
            return Some(Vec::new());
        }
        let inner = map.bounds().expand(-1);
        let rock = |p: Point| {
            inner.contains(p) && !avoid.contains(p) && !map.is_protected(p) && !map.terrain[p].is(Role::Blocked)
        };
        if !rock(start) {
            return None;
        }
        let n = map.terrain.cells().len();
        if self.seen.len() < n {
            self.seen.resize(n, 0);
            self.came.resize(n, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Marks of 4 billion searches ago could read as this one's.
            self.seen.fill(0);
            self.generation = 1;
        }
        let index = |p: Point| (p.y * self.width + p.x) as usize;
        self.queue.clear();
        self.seen[index(start)] = self.generation;
        self.queue.push_back((index(start) as u32, 1));
        while let Some((i, length)) = self.queue.pop_front() {
            let p = Point::new(i as i32 % self.width, i as i32 / self.width);
            for d in Dir::ALL {
                let q = p + d.delta();
                if map.is_walkable(q) && !avoid.contains(q) {
                    let mut path = vec![p];
                    let mut k = i as usize;
                    while k != index(start) {
                        k = self.came[k] as usize;
                        path.push(Point::new(k as i32 % self.width, k as i32 / self.width));
                    }
                    path.reverse();
                    return Some(path);
                }
                if length < MAX_PASSAGE && rock(q) && self.seen[index(q)] != self.generation {
                    self.seen[index(q)] = self.generation;
                    self.came[index(q)] = i;
                    self.queue.push_back((index(q) as u32, length + 1));
                }
            }
        }
        None
    }

    /// Reads the map into the tables, in one pass: what an embedded prefab
    /// cannot cover, and the cave floor.
    fn read_tables(&mut self, map: &Map) {
        let is_cave: Vec<bool> =
            map.regions.iter().map(|r| matches!(r.kind, RegionKind::Cave | RegionKind::Passage)).collect();
        let (terrain, masks, region_of) = (map.terrain.cells(), map.masks.cells(), map.region_of.cells());
        let w = map.width() as usize;
        self.hard.reset(w, map.height() as usize);
        self.floor.reset(w, map.height() as usize);
        for y in 0..terrain.len() / w.max(1) {
            let cells = y * w..(y + 1) * w;
            let (terrain, masks, region_of) = (&terrain[cells.clone()], &masks[cells.clone()], &region_of[cells]);
            let (hard_above, hard_here) = self.hard.rows(y);
            let (floor_above, floor_here) = self.floor.rows(y);
            let (mut hard, mut floor) = (0, 0);
            for x in 0..w {
                let role = terrain[x].role();
                let walkable = role.is_walkable();
                hard += u32::from(walkable || role == Role::Blocked || masks[x] & mask::PROTECTED != 0);
                floor += u32::from(walkable && is_cave.get(region_of[x] as usize).copied().unwrap_or(false));
                hard_here[x + 1] = hard_above[x + 1] + hard;
                floor_here[x + 1] = floor_above[x + 1] + floor;
            }
        }
        self.stale = false;
    }

    /// Cavern `k`'s floor cells with rock beside them, and on which sides.
    fn boundary(&mut self, map: &Map, k: usize) -> &[(Point, u8)] {
        let region = self.list[k].region;
        self.boundaries[k].get_or_insert_with(|| {
            let bounds = map.regions[region as usize].bounds;
            let (terrain, region_of) = (map.terrain.cells(), map.region_of.cells());
            let (w, h) = (map.width(), map.height());
            // Off the map reads as rock.
            let open = |x: i32, y: i32| {
                (0..w).contains(&x) && (0..h).contains(&y) && terrain[(y * w + x) as usize].is_walkable()
            };
            let mut cells = Vec::new();
            for y in bounds.y..bounds.bottom() {
                for x in bounds.x..bounds.right() {
                    let i = (y * w + x) as usize;
                    if region_of[i] != region || !terrain[i].is_walkable() {
                        continue;
                    }
                    // A bit per side, in `Dir::ALL` order: north, east, south, west.
                    let rock = u8::from(!open(x, y - 1))
                        | u8::from(!open(x + 1, y)) << 1
                        | u8::from(!open(x, y + 1)) << 2
                        | u8::from(!open(x - 1, y)) << 3;
                    if rock != 0 {
                        cells.push((Point::new(x, y), rock));
                    }
                }
            }
            cells
        })
    }

    /// Why cavern shape rules out a centred prefab at `rect`, if it does: its
    /// ring would reach the map's edge, or less than two thirds of its
    /// rectangle and ring would stand on cave floor (most of it inside the
    /// cavern, so carving its ring cuts little rock).
    fn shape_misfit(&self, map: &Map, rect: Rect) -> Option<Misfit> {
        let ring = rect.expand(1);
        if !map.bounds().expand(-1).contains_rect(&ring) {
            return Some(Misfit::Edge);
        }
        (3 * i64::from(self.floor.sum(ring)) < 2 * ring.area()).then_some(Misfit::Small)
    }

    /// Stamps `prefab` at `spot`, carves its ring or front, digs its links'
    /// passages, and records it. `stage` and `encounter` say what placed it.
    pub fn place(
        &mut self,
        map: &mut Map,
        prefab: &Prefab,
        spot: Spot,
        stage: Stage,
        encounter: Option<EncounterTag>,
    ) -> Placed {
        let index = map.prefabs.len();
        let variant = prefab.varies().then(|| map.variant_seed(prefab.name()));
        let drawn = match variant {
            Some(seed) => prefab.variant(seed),
            None => std::borrow::Cow::Borrowed(prefab),
        };
        let oriented = drawn.transformed(spot.transform);
        let rect = Rect::new(spot.at.x, spot.at.y, oriented.width(), oriented.height());
        let cavern = self.list[spot.cavern].region;
        let region = map.add_region(RegionKind::Prefab, rect);
        map.regions[region as usize].prefab = Some(index);
        stamp(map, &oriented, rect, region);
        let facing = spot.transform.apply_dir(Dir::South);
        let mut doors = Vec::new();
        // An open cell a machine of the prefab stands on is no way in.
        let machine_at = |p: Point| oriented.machines().iter().any(|m| m.cells().iter().any(|c| spot.at + c.0 == p));
        if spot.style == Style::Centered {
            for p in rect.ring() {
                carve(map, p, cavern);
            }
            fill_unreached(map, &oriented, rect);
            for p in rect.points().filter(|&p| on_edge(rect, p) && drawn_open(&oriented, rect, p) && !machine_at(p)) {
                doors.push(Door { at: p, side: side_of(rect, p), to: None });
            }
            self.list[spot.cavern].centred = true;
        } else {
            for q in front_openings(&drawn, spot.transform, spot.at) {
                carve(map, q, cavern);
                if !machine_at(q - facing.delta()) {
                    doors.push(Door { at: q - facing.delta(), side: facing, to: None });
                }
            }
        }
        let mut lengths = Vec::new();
        for (k, link) in oriented.links().iter().enumerate() {
            let mark = spot.at + link.at;
            // Its way out of the prefab (earth or `?` in the drawing) opens.
            for q in link.path(rect.width, rect.height) {
                carve(map, spot.at + q, region);
            }
            map.links.push(PlacedLink { at: mark, dir: link.dir, kind: link.kind, prefab: index });
            if !doors.iter().any(|d| d.at == mark) {
                doors.push(Door { at: mark, side: link.dir, to: None });
            }
            // Cells the front's carving opened already are not dug twice.
            let path: Vec<Point> = spot.passages.get(k).map_or(Vec::new(), |p| p.clone());
            let rock: Vec<Point> = path.iter().copied().filter(|&p| !map.is_walkable(p)).collect();
            lengths.push(path.len() as u32);
            if let Some(&first) = rock.first() {
                let id = map.add_region(RegionKind::Passage, Rect::new(first.x, first.y, 1, 1));
                for &p in &rock {
                    carve(map, p, id);
                }
                let bounds = map.regions[id as usize].bounds;
                raise_walls(map, bounds.expand(1), &oriented, rect);
                self.taken.push(bounds.expand(1));
            }
        }
        raise_walls(map, rect.expand(2), &oriented, rect);
        map.regions[region as usize].doors = doors;
        for machine in oriented.machine_objects(Transform::IDENTITY, spot.at, index) {
            map.add_object(machine);
        }
        map.prefabs.push(PlacedPrefab {
            name: prefab.name().to_string(),
            stage,
            bounds: rect,
            transform: spot.transform,
            region: Some(region),
            encounter,
            variant,
        });
        self.taken.push(rect.expand(1));
        Placed { index, passages: lengths }
    }
}
