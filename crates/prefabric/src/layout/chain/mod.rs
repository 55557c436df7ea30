//! The chain layout: a level built only from prefabs joined at their connectors by
//! straight hallways (Golden Krone Hotel, seed 002).
//!
//! In: the map after the features stage, the map type's [`ChainParams`] and the
//! pack's prefabs. The start prefab (the set piece, or a pool prefab) goes down
//! first; then each try picks a pool entry by weight and a placed piece with a free
//! connector, draws a hallway length, and scales the hallway back one cell at a time
//! until the new piece, in one of its orientations and joined by a connector facing
//! back, fits at its end. Pieces may overlap only where one of them has `?` or both
//! draw the same wall; hallways run only through free ground, walled on both sides.
//! The chain stops at the target count or when its tries run out. Then come the
//! extra connections and overlay rooms ([`extra`]), networks the chain did not
//! reach (the features' prefabs) are joined by shortest hallways to free
//! connectors ([`join`]), unused connectors are walled, and walls rise around all
//! open space.
//!
//! Out: regions like every generator's: each hand-made piece is a
//! [`RegionKind::Prefab`] region (a placed prefab, protected, its doors the
//! connectors used), each auto-room a [`RegionKind::Room`] whose interior is its
//! floor, each hallway a [`RegionKind::Corridor`]. Every try, extra connection and
//! overlay room is traced.

mod extra;
mod join;

use super::cells::Cells;
use super::shapes::{self, Entry, Part, Pool, Shape};
use super::{Carver, DIGGABLE, Input, OPEN, SOLID};
use crate::content::Pack;
use crate::content::chain::ChainParams;
use crate::error::{Error, ErrorKind};
use crate::format::article_before_number;
use crate::geom::{Dir, Point, Rect};
use crate::map::{
    ChainStats, Door, FloorKind, LayoutStats, LinkKind, Map, PlacedLink, RegionId, RegionKind, Role, Stage, Terrain,
    mask,
};
use crate::rng::Rng;
use crate::trace::Outcome;

/// What the chain knows of each cell.
mod claim {
    /// Nothing placed here: earth, or a `?` of a placed piece.
    pub const FREE: u8 = 0;
    /// Solid ground an auto-room drew or a hallway raised, which an extra
    /// connection may open where a connector lies buried in it.
    pub const SOLID: u8 = 1;
    /// Walkable.
    pub const OPEN: u8 = 2;
    /// An unused connector of a placed piece.
    pub const CONNECTOR: u8 = 3;
    /// Nothing may be placed here (BLOCKED barriers).
    pub const BLOCKED: u8 = 4;
    /// Solid ground of a hand-made prefab or a feature: it stays as drawn.
    pub const FIXED: u8 = 5;
    /// Free ground kept for a feature's way out: no piece or hallway covers it,
    /// so the feature can still be joined.
    pub const RESERVED: u8 = 6;
}

/// Tries to place the start prefab before giving up.
const START_TRIES: u32 = 64;

/// A connector of a placed piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Connector {
    at: Point,
    dir: Dir,
    piece: u32,
    /// Tries scrapped at it so far.
    failures: u8,
}

/// Scrapped tries after which a connector is given up: nothing seems to fit there.
const GIVE_UP_AFTER: u8 = 12;

/// A placed piece: a hand-made prefab or an auto-room.
struct Piece {
    label: String,
    region: RegionId,
    /// Index into the map's placed prefabs (hand-made pieces only).
    prefab: Option<usize>,
    /// Its connectors not used yet and not known to be dead.
    open: Vec<Connector>,
}

/// Why a shape does not fit somewhere.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Misfit {
    OffMap,
    Overlap,
}

/// The chain under construction.
struct Chain<'c, 'm> {
    c: &'c mut Carver<'m>,
    params: &'c ChainParams,
    /// Where pieces may lie: the map inside its margin.
    area: Rect,
    /// Where walkable cells may lie: one cell further in, so walls stay inside the
    /// margin too.
    floor_area: Rect,
    claims: Cells,
    width: i32,
    pieces: Vec<Piece>,
    /// Pieces that still have open connectors.
    active: Vec<u32>,
    /// Every connector placed, used or not, for the extra connections.
    connectors: Vec<Connector>,
    /// A try's orientations and connectors to test (shape, connector), kept to
    /// reuse its allocation.
    candidates: Vec<(usize, usize)>,
    stats: ChainStats,
    rng: Rng,
}

/// What a chain map type needs that does not change from map to map: its
/// hand-made prefabs in every orientation, built once per generator.
pub(crate) struct Prepared {
    pool: Vec<Entry>,
    start: Option<Entry>,
    width: i32,
}

impl super::Prepare<ChainParams> for Prepared {
    /// The pool and start of `params` as shapes for maps `map_width` cells wide.
    fn prepare(params: &ChainParams, pack: &Pack, map_width: i32) -> Prepared {
        Prepared {
            pool: shapes::hand_made(&params.pool, pack, map_width),
            start: shapes::start(params.start.as_deref(), pack, map_width),
            width: map_width,
        }
    }
}

/// Builds the chain layout of `map`.
pub(super) fn build(
    map: &mut Map,
    prepared: &Prepared,
    params: &ChainParams,
    input: &Input<'_>,
) -> Result<LayoutStats, Error> {
    let seed = input.seed;
    debug_assert_eq!(prepared.width, map.width(), "shapes are laid out for the map's width");
    let mut pool_rng = Rng::stream(seed, "layout/chain", "auto-rooms");
    let auto = shapes::auto_rooms(&params.auto_rooms, map.width(), &mut pool_rng);
    let mut pool = Pool::new(prepared.pool.iter().chain(&auto).collect());
    let start = prepared.start.as_ref();
    let mut carver = Carver::new(map);
    let mut chain = Chain::new(&mut carver, params, seed);
    chain.place_start(start, &mut pool, Rng::stream(seed, "layout/chain", "start"))?;
    let mut joined = join::join_apart(&mut chain);
    chain.grow(&mut pool)?;
    extra::connect(&mut chain, Rng::stream(seed, "layout/chain", "extra"));
    extra::overlay(&mut chain, Rng::stream(seed, "layout/chain", "overlay"));
    joined += join::join_apart(&mut chain);
    chain.finish(&pool.entries, start);
    let mut stats = chain.stats;
    let fallback_paths = joined + carver.connect_networks()?;
    carver.raise_walls();
    stats.target = params.target;
    let open_cells = carver.open_cells;
    let lengths = &stats.hallway_lengths;
    let mean = if lengths.is_empty() { 0.0 } else { lengths.iter().sum::<u32>() as f64 / lengths.len() as f64 };
    carver.map.trace.push_at(
        "layout",
        Outcome::Note, None, format!(
            "chain placed {} of {} prefabs in {} tries ({} scrapped{}); {} hallways, {:.1} cells long on average; extra connections: {} flanked, {} facing, {} corner; {} overlay rooms; {} of {} cells open",
            stats.placed,
            stats.target,
            stats.tries,
            stats.scrapped,
            if stats.timed_out { ", timed out" } else { "" },
            lengths.len(),
            mean,
            stats.flanked,
            stats.facing,
            stats.corner,
            stats.overlays,
            open_cells,
            carver.map.width() as i64 * carver.map.height() as i64
        ));
    Ok(LayoutStats { generator: "chain", fallback_paths, open_cells, chain: Some(stats), ..LayoutStats::default() })
}

/// Marks the ground just outside each feature's links (the map's links before
/// the chain adds its own) as reserved: the link's way to its prefab's edge and
/// two rows beyond it, three cells wide.
fn reserve_ways_out(map: &Map, claims: &mut [u8]) {
    let width = map.width();
    for link in &map.links {
        let bounds = map.prefabs[link.prefab].bounds;
        let mut edge = link.at;
        let mut cells: Vec<Point> = Vec::new();
        while bounds.contains(edge + link.dir.delta()) {
            edge = edge + link.dir.delta();
            cells.push(edge);
        }
        let across = link.dir.right().delta();
        for k in 1..=2 {
            for j in -1..=1 {
                cells.push(edge + link.dir.delta() * k + across * j);
            }
        }
        for p in cells {
            if map.bounds().contains(p) {
                let i = (p.y * width + p.x) as usize;
                if claims[i] == claim::FREE {
                    claims[i] = claim::RESERVED;
                }
            }
        }
    }
}

impl<'c, 'm> Chain<'c, 'm> {
    fn new(c: &'c mut Carver<'m>, params: &'c ChainParams, seed: u64) -> Chain<'c, 'm> {
        let width = c.map.width();
        let claims: Vec<u8> = c
            .map
            .terrain
            .cells()
            .iter()
            .map(|t| match t.role() {
                Role::Earth => claim::FREE,
                Role::Blocked => claim::BLOCKED,
                r if r.is_walkable() => claim::OPEN,
                _ => claim::FIXED,
            })
            .collect();
        let margin = params.margin;
        let area = c.map.bounds().expand(-margin);
        let mut claims = Cells::new(claims, width, claim::BLOCKED);
        reserve_ways_out(c.map, &mut claims);
        Chain {
            area,
            floor_area: area.expand(-1),
            c,
            params,
            claims,
            width,
            pieces: Vec::new(),
            active: Vec::new(),
            connectors: Vec::new(),
            candidates: Vec::new(),
            stats: ChainStats::default(),
            rng: Rng::stream(seed, "layout/chain", "chain"),
        }
    }

    fn index(&self, p: Point) -> usize {
        self.claims.index(p)
    }

    fn claim(&self, p: Point) -> u8 {
        self.claims.get(p)
    }

    /// Places the start prefab (or, without one, a pool entry drawn by weight) at
    /// the map type's anchor with jitter.
    fn place_start(&mut self, start: Option<&Entry>, pool: &mut Pool<'_>, mut rng: Rng) -> Result<(), Error> {
        let size = (self.c.map.width(), self.c.map.height());
        let p = self.params;
        for _ in 0..START_TRIES {
            // Without a start prefab, each try draws a pool entry afresh.
            let (entry, from_pool) = match start {
                Some(e) => (e, None),
                None => match rng.weighted(&pool.weights) {
                    Some(i) => (pool.entries[i], Some(i)),
                    None => {
                        return Err(Error::new(ErrorKind::Generation, "the chain's pool has nothing to start from"));
                    }
                },
            };
            let Some(shape) = rng.pick(&entry.shapes) else { continue };
            let (w, h) = shape.size();
            let m = p.margin;
            let base = p.start_at.place(size, (w, h), m);
            let jitter = Point::new(
                rng.range(-p.start_jitter.x, p.start_jitter.x),
                rng.range(-p.start_jitter.y, p.start_jitter.y),
            );
            let at = base + jitter;
            let at = Point::new(at.x.clamp(m, (size.0 - w - m).max(m)), at.y.clamp(m, (size.1 - h - m).max(m)));
            if self.fits(shape, at, None).is_ok() {
                self.place(entry, shape, at, None);
                self.c.map.trace.push_with("layout", Outcome::Chose, Rect::new(at.x, at.y, w, h), || {
                    format!("start: `{}` {} at ({}, {})", entry.label, shape.transform, at.x, at.y)
                });
                if let Some(i) = from_pool {
                    pool.add(i);
                }
                return Ok(());
            }
        }
        let message = match start {
            Some(e) => format!("start prefab `{}` found no place at {} in {START_TRIES} tries", e.label, p.start_at),
            None => format!("no pool prefab found a place to start at {} in {START_TRIES} tries", p.start_at),
        };
        Err(Error::new(ErrorKind::Generation, message)
            .with_help("the features or the map's edge leave it no room: move it, widen `start_jitter`, lower `margin`, or use a bigger map"))
    }

    /// Chains pieces until the target is reached, the tries run out, or nothing
    /// more can be placed. While an entry has fewer copies than its minimum, every
    /// other try draws from those entries only; a chain that ends with one short
    /// is an error (the attempt fails and is retried).
    fn grow(&mut self, pool: &mut Pool<'_>) -> Result<(), Error> {
        let p = self.params;
        self.stats.placed = 1;
        let why = loop {
            if self.stats.placed >= p.target && pool.short().is_none() {
                break "the target was reached".to_string();
            }
            if self.stats.tries >= p.attempts {
                self.stats.timed_out = true;
                break format!("timed out after {} tries", p.attempts);
            }
            let needed = self.stats.tries.is_multiple_of(2) || self.stats.placed >= p.target;
            let from = if needed && pool.short().is_some() { &pool.required } else { &pool.weights };
            let Some(e) = self.rng.weighted(from) else {
                break "every pool prefab reached its limit".to_string();
            };
            let Some((piece, slot)) = self.pick_connector() else {
                break "no placed piece has a free connector left".to_string();
            };
            self.stats.tries += 1;
            if self.try_join(pool.entries[e], piece, slot) {
                pool.add(e);
                self.stats.placed += 1;
            } else {
                self.stats.scrapped += 1;
            }
        };
        self.c.map.trace.push_with("layout", Outcome::Note, None, || {
            format!("chain stopped with {} of {} prefabs placed: {why}", self.stats.placed, p.target)
        });
        match pool.short() {
            Some(i) => Err(Error::new(
                ErrorKind::Generation,
                format!(
                    "the chain placed {} of the at least {} `{}` its pool asks for ({why})",
                    pool.placed[i], pool.entries[i].min, pool.entries[i].label
                ),
            )
            .with_help("give the prefab more connectors, raise `attempts`, or lower its `min`")),
            None => Ok(()),
        }
    }

    /// A free connector of a random piece: its piece and place in the piece's
    /// list. Connectors found dead on the way (covered, or facing something that is
    /// not free ground) are dropped; they stay dead.
    fn pick_connector(&mut self) -> Option<(u32, usize)> {
        let interior = self.floor_area;
        while let Some(a) = self.rng.index(self.active.len()) {
            let piece = self.active[a];
            let open = &self.pieces[piece as usize].open;
            let Some(slot) = self.rng.index(open.len()) else {
                self.active.swap_remove(a);
                continue;
            };
            let c = open[slot];
            let front = c.at + c.dir.delta();
            if self.claim(c.at) == claim::CONNECTOR && interior.contains(front) && self.claim(front) == claim::FREE {
                return Some((piece, slot));
            }
            self.pieces[piece as usize].open.swap_remove(slot);
        }
        None
    }

    /// One try: joins a piece of `entry` to the connector `slot` of `piece`, or
    /// scraps the try. Traces either way.
    fn try_join(&mut self, entry: &Entry, piece: u32, slot: usize) -> bool {
        let anchor = self.pieces[piece as usize].open[slot];
        let p = self.params;
        let wanted = self.rng.range(p.min_length, p.max_length);
        let clear = self.clear_length(anchor.at, anchor.dir, wanted);
        let back = anchor.dir.opposite();
        // The buffer is the chain's, reused from try to try.
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        for (s, shape) in entry.shapes.iter().enumerate() {
            for (k, &(_, dir)) in shape.connectors.iter().enumerate() {
                if dir == back {
                    candidates.push((s, k));
                }
            }
        }
        self.rng.shuffle(&mut candidates);
        let (mut off_map, mut overlaps) = (0u32, 0u32);
        let longest = clear.min(wanted);
        for length in (p.min_length..=longest).rev() {
            let joint = if length == 0 { anchor.at } else { anchor.at + anchor.dir.delta() * (length + 1) };
            if length > 0 && self.claim(joint) != claim::FREE {
                continue;
            }
            let hall = (length > 0).then(|| (self.hallway_rect(anchor.at, anchor.dir, length), anchor.dir));
            for &(s, k) in &candidates {
                let shape = &entry.shapes[s];
                let origin = joint - shape.connectors[k].0;
                match self.fits(shape, origin, hall) {
                    Ok(()) => {
                        self.join(entry, shape, origin, k, anchor, slot, length);
                        let tried = if length < wanted {
                            format!(" ({wanted}..{} did not fit)", length + 1)
                        } else {
                            String::new()
                        };
                        let message = format!(
                            "try {}: `{}` {} at ({}, {}) joined to `{}` at {} {} by {} {length}-cell hallway{tried}",
                            self.stats.tries,
                            entry.label,
                            shape.transform,
                            origin.x,
                            origin.y,
                            self.pieces[piece as usize].label,
                            anchor.at,
                            anchor.dir.name(),
                            article_before_number(length as usize)
                        );
                        let (w, h) = shape.size();
                        let place = Rect::new(origin.x, origin.y, w, h);
                        self.c.map.trace.push_at("layout", Outcome::Chose, place, message);
                        self.candidates = candidates;
                        return true;
                    }
                    Err(Misfit::OffMap) => off_map += 1,
                    Err(Misfit::Overlap) => overlaps += 1,
                }
            }
        }
        let no_candidate = candidates.is_empty();
        self.candidates = candidates;
        let why = if no_candidate {
            "it has no connector that can face this one".to_string()
        } else if clear < p.min_length {
            format!("the way out is blocked after {clear} cells, short of the shortest hallway ({})", p.min_length)
        } else {
            let blocked =
                if clear < wanted { format!(" (hallway blocked after {clear} cells)") } else { String::new() };
            format!(
                "lengths {longest}..{} tried{blocked}: {overlaps} placements overlapped, {off_map} left the map",
                p.min_length
            )
        };
        let open = &mut self.pieces[piece as usize].open;
        open[slot].failures = open[slot].failures.saturating_add(1);
        let given_up = open[slot].failures >= GIVE_UP_AFTER;
        if given_up {
            open.swap_remove(slot);
        }
        let message = format!(
            "try {}: scrapped `{}` at `{}`'s {} connector {}: {why}{}",
            self.stats.tries,
            entry.label,
            self.pieces[piece as usize].label,
            anchor.dir.name(),
            anchor.at,
            if given_up {
                format!("; the connector is given up after {GIVE_UP_AFTER} scrapped tries")
            } else {
                String::new()
            }
        );
        let connector = Rect::new(anchor.at.x, anchor.at.y, 1, 1);
        self.c.map.trace.push_at("layout", Outcome::Skipped, connector, message);
        false
    }

    /// Across-offsets of a hallway's cells: `lo..=hi` cells to the right.
    fn across(&self) -> (i32, i32) {
        let w = self.params.hallway_width;
        (-(w - 1) / 2, w / 2)
    }

    /// The cells of a hallway `length` long out of the connector at `from`.
    fn hallway_rect(&self, from: Point, dir: Dir, length: i32) -> Rect {
        let (lo, hi) = self.across();
        let right = dir.right().delta();
        Rect::spanning(from + dir.delta() + right * lo, from + dir.delta() * length + right * hi)
    }

    /// How many rows out of the connector at `from` (up to `wanted`) a hallway
    /// may run: free ground inside the margin, with no open cell beside it.
    fn clear_length(&self, from: Point, dir: Dir, wanted: i32) -> i32 {
        let interior = self.floor_area;
        let (lo, hi) = self.across();
        let right = dir.right().delta();
        for k in 1..=wanted {
            let row = from + dir.delta() * k;
            let body_clear = (lo..=hi).all(|j| {
                let p = row + right * j;
                interior.contains(p) && self.claim(p) == claim::FREE
            });
            let sides_clear = [lo - 1, hi + 1].iter().all(|&j| self.claim(row + right * j) != claim::OPEN);
            if !body_clear || !sides_clear {
                return k - 1;
            }
        }
        wanted
    }

    /// Whether `shape` fits with its top-left corner at `origin`: inside the map's
    /// margin, its walkable cells one further in, each cell compatible with what is
    /// there, and clear of the hallway about to be dug (`hall`, with its heading):
    /// no cell on it, and no floor beside it (diagonally beside its end is fine, as
    /// a cut-corner connector's own floor is).
    fn fits(&self, shape: &Shape, origin: Point, hall: Option<(Rect, Dir)>) -> Result<(), Misfit> {
        let (w, h) = shape.size();
        let rect = Rect::new(origin.x, origin.y, w, h);
        if !self.area.contains_rect(&rect) {
            return Err(Misfit::OffMap);
        }
        let open = shape.open_bounds;
        if open.width > 0
            && !self.floor_area.contains_rect(&Rect::new(origin.x + open.x, origin.y + open.y, open.width, open.height))
        {
            return Err(Misfit::OffMap);
        }
        let base = (origin.y * self.width + origin.x) as isize;
        let terrain = self.c.map.terrain.cells();
        for &(_, offset, part) in &shape.cells {
            let i = (base + offset) as usize;
            let here = self.claims[i];
            let ok = match part {
                Part::Open(_) => here == claim::FREE,
                Part::Solid(t) => {
                    here == claim::FREE
                        || here == claim::CONNECTOR
                        || (matches!(here, claim::SOLID | claim::FIXED) && terrain[i] == t)
                }
                Part::Connector(_) => !matches!(here, claim::OPEN | claim::BLOCKED | claim::RESERVED),
            };
            if !ok {
                return Err(Misfit::Overlap);
            }
        }
        // A cell whose terrain varies shares no other piece's wall.
        if shape.varying.iter().any(|&offset| self.claims[(base + offset) as usize] != claim::FREE) {
            return Err(Misfit::Overlap);
        }
        if let Some((hall, dir)) = hall {
            let sides = if dir.is_horizontal() {
                Rect::new(hall.x, hall.y - 1, hall.width, hall.height + 2)
            } else {
                Rect::new(hall.x - 1, hall.y, hall.width + 2, hall.height)
            };
            if sides.intersects(&rect) {
                for &(q, _, part) in &shape.cells {
                    let p = origin + q;
                    if hall.contains(p) || (matches!(part, Part::Open(_)) && sides.contains(p)) {
                        return Err(Misfit::Overlap);
                    }
                }
            }
        }
        Ok(())
    }

    /// Joins a piece: digs the hallway, places the piece, opens both doorways and
    /// records the hallway's length.
    #[allow(clippy::too_many_arguments)]
    fn join(
        &mut self,
        entry: &Entry,
        shape: &Shape,
        origin: Point,
        connector: usize,
        anchor: Connector,
        slot: usize,
        length: i32,
    ) {
        let anchor_region = self.pieces[anchor.piece as usize].region;
        self.pieces[anchor.piece as usize].open.swap_remove(slot);
        let hallway = (length > 0).then(|| self.hallway(anchor.at, anchor.dir, length, anchor_region));
        let (at, dir) = shape.connectors[connector];
        let joint = origin + at;
        let new = self.place(entry, shape, origin, Some(joint));
        self.doorway(anchor.piece, anchor.at, anchor.dir, true);
        self.doorway(new, joint, dir, length > 0);
        let region = self.pieces[new as usize].region;
        self.c.union(region, hallway.unwrap_or(anchor_region));
        self.stats.hallway_lengths.push(length as u32);
    }

    /// Digs a hallway out of the connector at `from`, walls its sides, and returns
    /// its region (joined to `parent`).
    fn hallway(&mut self, from: Point, dir: Dir, length: i32, parent: RegionId) -> RegionId {
        let rect = self.hallway_rect(from, dir, length);
        let region = self.c.region(RegionKind::Corridor, rect, Some(parent));
        self.dig_rect(rect, region);
        let (lo, hi) = self.across();
        let right = dir.right().delta();
        for k in 1..=length {
            for j in [lo - 1, hi + 1] {
                self.wall_if_free(from + dir.delta() * k + right * j);
            }
        }
        region
    }

    /// Digs every cell of `rect` as corridor floor of `region`.
    fn dig_rect(&mut self, rect: Rect, region: RegionId) {
        for p in rect.points() {
            self.c.dig(p, Terrain::floor(FloorKind::Corridor), region);
            let i = self.index(p);
            self.claims[i] = claim::OPEN;
        }
    }

    /// Raises plain wall on `p` if nothing is there yet.
    fn wall_if_free(&mut self, p: Point) {
        if self.claim(p) == claim::FREE {
            self.set_solid(p, Terrain::new(Role::Wall), claim::SOLID);
        }
    }

    fn set_solid(&mut self, p: Point, terrain: Terrain, how: u8) {
        let i = self.index(p);
        self.c.map.terrain.cells_mut()[i] = terrain;
        self.c.state[i] = SOLID;
        self.claims[i] = how;
    }

    /// Places a piece's cells with its top-left corner at `origin` and returns its
    /// id. Its connectors go on the free list, except the one at `joint` (being
    /// joined) and those landing on solid ground (dead).
    fn place(&mut self, entry: &Entry, shape: &Shape, origin: Point, joint: Option<Point>) -> u32 {
        let id = self.pieces.len() as u32;
        // A prefab with variation lines fitted as every outcome: the one drawn goes down.
        let outcome = entry.outcome(self.c, shape);
        let (shape, variant) = match &outcome {
            Some((drawn, seed)) => (drawn, Some(*seed)),
            None => (shape, None),
        };
        let (region, prefab) = entry.region_for(self.c, shape, origin, variant);
        let mut open = Vec::new();
        let protect = !entry.auto;
        for &(q, _, part) in &shape.cells {
            let p = origin + q;
            let i = self.index(p);
            match part {
                Part::Open(t) => {
                    self.c.dig(p, t, region);
                    self.claims[i] = claim::OPEN;
                }
                Part::Solid(t) => {
                    let how = if protect { claim::FIXED } else { claim::SOLID };
                    match self.claims[i] {
                        claim::FIXED => {}
                        claim::SOLID if !protect => {}
                        _ => self.set_solid(p, t, how),
                    }
                }
                Part::Connector(dir) => {
                    let c = Connector { at: p, dir, piece: id, failures: 0 };
                    match self.claims[i] {
                        // Buried in a wall that stays as drawn: dead.
                        claim::FIXED => {}
                        // Buried in an auto-room's or hallway's wall: an extra
                        // connection may still open it.
                        claim::SOLID => self.connectors.push(c),
                        here => {
                            if here == claim::FREE {
                                self.set_solid(p, Terrain::new(Role::Wall), claim::CONNECTOR);
                            }
                            self.connectors.push(c);
                            if Some(p) != joint {
                                open.push(c);
                            }
                        }
                    }
                }
            }
            if protect {
                self.c.map.masks.cells_mut()[i] |= mask::PROTECTED;
            }
        }
        if !open.is_empty() {
            self.active.push(id);
        }
        self.pieces.push(Piece { label: entry.label.clone(), region, prefab, open });
        id
    }

    /// Opens the connector at `at` of `piece` as a doorway (a door or floor, by the
    /// map type's `door_chance`; dug into the piece's region when `dig`) and records
    /// it as the piece's door.
    fn doorway(&mut self, piece: u32, at: Point, dir: Dir, dig: bool) {
        let region = self.pieces[piece as usize].region;
        if dig {
            let terrain = if self.rng.percent(self.params.door_chance.0) {
                Terrain::new(Role::Door)
            } else {
                let behind = self.c.map.terrain[at - dir.delta()];
                if behind.is_floor() { behind } else { Terrain::floor(FloorKind::Room) }
            };
            self.c.dig(at, terrain, region);
            let i = self.index(at);
            self.claims[i] = claim::OPEN;
        }
        match self.pieces[piece as usize].prefab {
            Some(index) => {
                self.c.map.regions[region as usize].doors.push(Door { at, side: dir, to: None });
                self.c.map.links.push(PlacedLink { at, dir, kind: LinkKind::Connector, prefab: index });
            }
            None => self.c.add_door(region, at),
        }
    }

    /// Fills the `?` cells of placed prefabs that nothing covered with the map
    /// type's `dont_care` terrain, and unused connectors with its `unused` terrain.
    fn finish(&mut self, entries: &[&Entry], start: Option<&Entry>) {
        let unused = self.params.unused;
        for k in 0..self.connectors.len() {
            let at = self.connectors[k].at;
            if self.claim(at) == claim::CONNECTOR {
                let i = self.index(at);
                self.c.map.terrain.cells_mut()[i] = unused;
                self.c.state[i] = if unused.is_walkable() { OPEN } else { SOLID };
                if unused.is_walkable() {
                    // A niche in the wall: the piece's, and for a room a way in
                    // like any other opening of its wall line.
                    let region = self.pieces[self.connectors[k].piece as usize].region;
                    self.c.map.region_of.cells_mut()[i] = region;
                    self.c.map.regions[region as usize].area += 1;
                    self.c.open_cells += 1;
                    self.c.add_door(region, at);
                }
                self.claims[i] = claim::SOLID;
            }
        }
        let fill = self.params.dont_care;
        if fill == Terrain::EARTH {
            return;
        }
        for placed in 0..self.c.map.prefabs.len() {
            let p = &self.c.map.prefabs[placed];
            if p.stage != Stage::Layout {
                continue;
            }
            let Some(shape) = entries
                .iter()
                .copied()
                .chain(start)
                .filter(|e| e.label == p.name)
                .flat_map(|e| &e.shapes)
                .find(|s| s.transform == p.transform)
            else {
                continue;
            };
            let origin = Point::new(p.bounds.x, p.bounds.y);
            for &q in &shape.blanks {
                let at = origin + q;
                if self.claim(at) == claim::FREE && !fill.is_walkable() {
                    let i = self.index(at);
                    self.c.map.terrain.cells_mut()[i] = fill;
                    self.c.state[i] = if fill.is(Role::Earth) { DIGGABLE } else { SOLID };
                    self.claims[i] = claim::SOLID;
                }
            }
        }
    }
}
