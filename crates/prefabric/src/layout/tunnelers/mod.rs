//! The tunneler layout, after DungeonMaker as Cogmind uses it.
//!
//! Tunnelers start from the features' link marks (at the mark's width, heading out
//! of the prefab) and from the map type's starts. All of them take turns, one step
//! each, so networks grow toward each other "backwards from the points of interest
//! until they all meet". A step digs a straight stretch of corridor, then maybe
//! rooms beside it (each behind a door), a hall the tunnel runs through, a turn
//! through a junction, a width change of two cells, or a child tunneler branching
//! off. A tunneler that meets open space of another network digs into it and
//! stops; one that meets its own network joins only by chance. Tunnelers die of age
//! or when boxed in. When all are dead and too little of the map is open, filler
//! tunnelers branch off existing corridors until the fill target or the budget is
//! reached. Rooms, halls and corridors may grow a row to share a wall.
//! Networks still apart are then joined by shortest corridors, and last,
//! corridors at least 5 wide may get columns (see `columns`).
//!
//! Geometry: a tunneler's head is its last dug row, `width` cells wide, listed from
//! `left` (the cell on the left when facing `dir`). Row `k` ahead is the head moved
//! `k` cells forward; cell `j` of a row is `j` cells to the right of its left end,
//! so `j = -1` and `j = width` are the corridor's side margins.
//!
//! Files: this one holds the tunnelers and their corridors; `rooms.rs` the
//! rooms and halls they dig beside and across them; `columns.rs` the
//! columns raised last in wide corridors.

mod columns;
mod rooms;

use super::{Carver, Cell, Input, Start};
use crate::content::IntRange;
use crate::content::tunnelers::{RoomSize, TunnelerParams};
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Point, Rect};
use crate::map::LayoutStats;
use crate::map::{FloorKind, Map, RegionId, RegionKind, Terrain};
use crate::rng::Rng;
use crate::trace::Outcome;
use std::collections::VecDeque;

/// The shortest side of a hall a last-chance tunneler opens.
const HALL_MIN_SIDE: i32 = 5;

#[derive(Clone, Debug)]
struct Tunneler {
    left: Point,
    dir: Dir,
    width: i32,
    age: u32,
    max_age: u32,
    generation: u8,
    /// The region its head row belongs to; new regions hang off it.
    region: RegionId,
    /// The straight corridor it is extending, if the last step continued one.
    corridor: Option<RegionId>,
}

impl Tunneler {
    fn cell(&self, k: i32, j: i32) -> Point {
        self.left + self.dir.delta() * k + self.dir.right().delta() * j
    }

    /// Rows `k1..=k2` ahead, cells `j1..=j2` across.
    fn area(&self, k1: i32, k2: i32, j1: i32, j2: i32) -> Rect {
        Rect::spanning(self.cell(k1, j1), self.cell(k2, j2))
    }
}

/// What lies beyond the clear rows ahead.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ahead {
    /// Nothing within the scanned rows.
    Clear,
    /// Solid ground, the map's edge, or open space brushing a side margin.
    Blocked,
    /// Open space of this region fills part of the next row.
    Open(RegionId),
}

/// The left end of the edge line of `r` facing `d`: where a tunneler leaving `r`
/// heading `d` has its head.
fn head_leaving(r: Rect, d: Dir) -> Point {
    match d {
        Dir::North => Point::new(r.x, r.y),
        Dir::East => Point::new(r.right() - 1, r.y),
        Dir::South => Point::new(r.right() - 1, r.bottom() - 1),
        Dir::West => Point::new(r.x, r.bottom() - 1),
    }
}

fn pick(rng: &mut Rng, span: IntRange) -> i32 {
    rng.range(span.lo, span.hi)
}

struct Digger<'c, 'm> {
    c: &'c mut Carver<'m>,
    p: &'c TunnelerParams,
    rng: Rng,
    queue: VecDeque<Tunneler>,
    stats: LayoutStats,
    room_weights: Vec<u32>,
    /// Rooms dug of each size class, for the classes' quotas.
    rooms_dug: Vec<u32>,
    /// The size class with the largest rooms: the one anterooms lead to.
    largest_class: usize,
    /// Where corridors and halls may go: the interior minus the edge margin.
    allowed: Rect,
    /// Most tunnelers in this map: [`TunnelerParams::tunneler_cap`].
    cap: u32,
}

/// The tunnelers prepare nothing once per map type.
pub(super) type Prepared = ();

/// Digs the whole layout and notes in the trace what the tunnelers did.
pub(super) fn build(
    map: &mut Map,
    _prepared: &Prepared,
    params: &TunnelerParams,
    input: &Input<'_>,
) -> Result<LayoutStats, Error> {
    let stats = dig(map, params, input.starts, input.seed)?;
    let cells = map.width() as i64 * map.height() as i64;
    map.trace.push_with("layout", Outcome::Note, None, || {
        format!(
            "{} tunnelers took {} steps ({} died of age, {} boxed in, {} joined open space); {} last-chance halls; {} anterooms; {} rooms and corridors grown to share a wall; {} fallback corridors; {} of {} cells open",
            stats.tunnelers,
            stats.steps,
            stats.died_of_age,
            stats.boxed_in,
            stats.joins,
            stats.last_chance_halls,
            stats.anterooms,
            stats.rooms_grown,
            stats.fallback_paths,
            stats.open_cells,
            cells
        )
    });
    if params.columns.0 > 0 {
        let (columns, colonnades) = (stats.columns, stats.colonnades);
        map.trace.push_with("layout", Outcome::Note, None, || {
            format!("{columns} columns stand in {colonnades} corridors at least 5 wide")
        });
    }
    Ok(stats)
}

/// Digs the whole layout.
fn dig(map: &mut Map, params: &TunnelerParams, starts: &[Start], seed: u64) -> Result<LayoutStats, Error> {
    let mut carver = Carver::new(map);
    let room_weights = params.rooms.iter().map(|r| r.weight).collect();
    // A small map keeps a smaller margin: at most an eighth of its shorter side.
    let interior = carver.interior();
    let margin = i32::from(params.edge_margin).min(interior.width.min(interior.height) / 8);
    let allowed = interior.expand(-margin);
    let mut d = Digger {
        c: &mut carver,
        p: params,
        rng: Rng::stream(seed, "layout", "tunnelers"),
        queue: VecDeque::new(),
        stats: LayoutStats { generator: "tunnelers", ..LayoutStats::default() },
        room_weights,
        rooms_dug: vec![0; params.rooms.len()],
        largest_class: largest_class(&params.rooms),
        allowed,
        cap: params.tunneler_cap(interior.area()),
    };
    d.start_from_links();
    d.start_from_starts(starts);
    if d.queue.is_empty() {
        return Err(Error::new(
            ErrorKind::Generation,
            "no tunneler could start: the map has no link marks and no usable starts",
        )
        .with_help(
            "give a feature prefab a link mark on its `links` layer, or add a [[starts]] table to the map type",
        ));
    }
    d.run_queue();
    d.fill();
    d.last_chance();
    if params.share_walls {
        d.share_walls();
    }
    let mut stats = d.stats;
    stats.fallback_paths = carver.connect_networks()?;
    if params.columns.0 > 0 {
        let mut rng = Rng::stream(seed, "layout", "columns");
        let done = columns::raise(&mut carver, params.columns.0, i32::from(params.column_spacing), &mut rng);
        (stats.columns, stats.colonnades) = (done.columns, done.corridors);
    }
    carver.raise_walls();
    let open_cells = carver.open_cells;
    let area = carver.interior().area().max(1);
    let open_percent = (i64::from(open_cells) * 100 / area) as u32;
    if open_percent < params.min_open.0 {
        return Err(Error::new(
            ErrorKind::Generation,
            format!("only {open_percent}% of the map was dug, below min_open = {}%", params.min_open.0),
        )
        .with_help("barriers or features may be boxing the tunnelers in; lower min_open or raise fill_target"));
    }
    stats.open_cells = open_cells;
    Ok(stats)
}

impl Digger<'_, '_> {
    fn spawn(&mut self, t: Tunneler) {
        if self.stats.tunnelers < self.cap {
            self.stats.tunnelers += 1;
            self.queue.push_back(t);
        }
    }

    fn new_tunneler(&mut self, left: Point, dir: Dir, width: i32, generation: u8, region: RegionId) -> Tunneler {
        let max_age = pick(&mut self.rng, self.p.max_age) as u32;
        Tunneler { left, dir, width, age: 0, max_age, generation, region, corridor: None }
    }

    /// One tunneler per link mark, heading out of its prefab from the mark's way out.
    fn start_from_links(&mut self) {
        for i in 0..self.c.map.links.len() {
            let link = self.c.map.links[i];
            let width = i32::from(link.kind.width());
            let Some(region) = self.prefab_region(link.prefab) else { continue };
            // Open the way from the mark to the prefab's edge.
            let prefab = self.c.map.prefabs[link.prefab].bounds;
            let mut edge = link.at;
            let mut p = link.at;
            let mut clear = true;
            while prefab.contains(p) {
                match self.c.classify(p) {
                    Cell::Diggable => self.c.dig(p, Terrain::floor(FloorKind::Corridor), region),
                    Cell::Open(_) => {}
                    Cell::Solid => {
                        clear = false;
                        break;
                    }
                }
                edge = p;
                p = p + link.dir.delta();
            }
            if !clear {
                continue;
            }
            let left = edge - link.dir.right().delta() * ((width - 1) / 2);
            let t = self.new_tunneler(left, link.dir, width, 0, region);
            self.spawn(t);
        }
    }

    /// The region of a placed prefab's open cells, made if it has none yet.
    fn prefab_region(&mut self, prefab: usize) -> Option<RegionId> {
        let placed = self.c.map.prefabs.get(prefab)?;
        if let Some(r) = placed.region {
            return Some(r);
        }
        let bounds = placed.bounds;
        let r = self.c.region(RegionKind::Prefab, bounds, None);
        self.c.map.regions[r as usize].prefab = Some(prefab);
        self.c.map.prefabs[prefab].region = Some(r);
        Some(r)
    }

    /// A junction square at each start, with a tunneler leaving it.
    fn start_from_starts(&mut self, starts: &[Start]) {
        for s in starts {
            let w = i32::from(s.width);
            let square = Rect::square_around(s.at, w);
            if !self.c.all_diggable(square) {
                // The features stage checked the square; only another start's
                // square, dug just before, can take it.
                continue;
            }
            let junction = self.c.region(RegionKind::Junction, square, None);
            self.c.dig_rect(square, FloorKind::Junction, junction);
            let t = self.new_tunneler(head_leaving(square, s.dir), s.dir, w, 0, junction);
            self.spawn(t);
        }
    }

    fn run_queue(&mut self) {
        // Every step either digs or moves a tunneler toward death, and tunnelers are
        // capped, so this bound is never the reason a map stops growing.
        let budget = self.cap.saturating_mul(self.p.max_age.hi as u32 + 8);
        while let Some(mut t) = self.queue.pop_front() {
            if self.stats.steps >= budget {
                break;
            }
            self.stats.steps += 1;
            if self.step(&mut t) {
                self.queue.push_back(t);
            }
        }
    }

    /// Filler tunnelers branch off existing corridors while too little is open.
    fn fill(&mut self) {
        let target = self.c.interior().area() * i64::from(self.p.fill_target.0) / 100;
        let mut tries = 0;
        while i64::from(self.c.open_cells) < target && tries < 4 * self.cap && self.stats.tunnelers < self.cap {
            tries += 1;
            let candidates = self.c.map.regions.len() as u32;
            if candidates == 0 {
                return;
            }
            let id = self.rng.below(candidates);
            let region = &self.c.map.regions[id as usize];
            if !matches!(region.kind, RegionKind::Corridor | RegionKind::Junction | RegionKind::Hall) {
                continue;
            }
            let bounds = region.bounds;
            let dir = Dir::ALL[self.rng.below(4) as usize];
            let side_len = if dir.is_horizontal() { bounds.height } else { bounds.width };
            let (lo, hi) = (i32::from(self.p.min_width), i32::from(self.p.max_width).min(side_len));
            if hi < lo {
                continue;
            }
            let width = self.rng.range(lo, hi);
            let offset = self.rng.range(0, (side_len - width).max(0));
            let left = head_leaving(bounds, dir) + dir.right().delta() * offset;
            let t = self.new_tunneler(left, dir, width, 1, id);
            // Only where there is room for at least a stretch of tunnel and a turn.
            if self.scan(&t, 2 * width + 2).0 == 2 * width + 2 {
                self.spawn(t);
                self.run_queue();
            }
        }
    }

    /// Scans up to `rows` rows ahead. Returns how many rows are clear to dig and
    /// what stops the scan.
    fn scan(&self, t: &Tunneler, rows: i32) -> (i32, Ahead) {
        let limit = self.margin_rows(t).max(0);
        if limit < rows {
            let (clear, ahead) = self.scan(t, limit);
            return if clear == limit { (clear, Ahead::Blocked) } else { (clear, ahead) };
        }
        let (clear, stop) = self.c.scan_rows(t.cell(1, 0), t.dir.delta(), t.dir.right().delta(), t.width, rows);
        let ahead = match stop {
            None => Ahead::Clear,
            Some(None) => Ahead::Blocked,
            Some(Some(region)) => Ahead::Open(region),
        };
        (clear, ahead)
    }

    /// How many rows ahead `t` may dig before its tunnel enters the edge margin:
    /// none while it runs along the margin, unlimited while it heads straight away
    /// from the edge. A start's first step out is free, so tunnels from features
    /// beside the edge get out.
    fn margin_rows(&self, t: &Tunneler) -> i32 {
        if t.generation == 0 && t.age <= 1 {
            return i32::MAX;
        }
        let a = self.allowed;
        let head = t.area(0, 0, 0, t.width - 1);
        let across_inside = if t.dir.is_horizontal() {
            head.y >= a.y && head.bottom() <= a.bottom()
        } else {
            head.x >= a.x && head.right() <= a.right()
        };
        if !across_inside {
            return 0;
        }
        self.room_toward(head, t.dir)
    }

    /// Cells between `r` and the edge of the allowed area in direction `d`.
    fn room_toward(&self, r: Rect, d: Dir) -> i32 {
        let a = self.allowed;
        match d {
            Dir::North => r.y - a.y,
            Dir::South => a.bottom() - r.bottom(),
            Dir::West => r.x - a.x,
            Dir::East => a.right() - r.right(),
        }
    }

    /// Left and right of `t`, the one with room to go on first; by chance when
    /// both or neither have it.
    fn turn_order(&mut self, t: &Tunneler, square: Rect) -> (Dir, Dir) {
        let (left, right) = (t.dir.left(), t.dir.right());
        let need = 2 * t.width + self.p.step.hi;
        match (self.room_toward(square, left) >= need, self.room_toward(square, right) >= need) {
            (true, false) => (left, right),
            (false, true) => (right, left),
            _ if self.rng.coin() => (left, right),
            _ => (right, left),
        }
    }

    /// A chance after the drift of `t`'s generation, within 0-100.
    fn drifted(chance: u32, drift: i8, generation: u8) -> u32 {
        (chance as i32 + i32::from(drift) * i32::from(generation)).clamp(0, 100) as u32
    }

    /// One step; returns false when the tunneler dies.
    fn step(&mut self, t: &mut Tunneler) -> bool {
        t.age += 1;
        if t.age > t.max_age {
            self.stats.died_of_age += 1;
            return false;
        }
        let len = pick(&mut self.rng, self.p.step);
        let w = t.width;
        // Enough rows for the stretch and the wall after it; a turn looks further.
        let (clear, ahead) = self.scan(t, len + 1);

        if let Ahead::Open(other) = ahead {
            let foreign = self.c.find(other) != self.c.find(t.region);
            // Meeting its own network with nothing to dig in between adds nothing.
            let stuck = clear < w + 1 && clear > 0;
            let near = self.p.join_distance == 0 || clear <= i32::from(self.p.join_distance);
            let by_chance = !foreign && !stuck;
            if foreign || stuck || (clear > 0 && near && self.rng.percent(self.p.join_chance.0)) {
                self.join(t, clear + 1, other);
                self.stats.joins += 1;
                if by_chance {
                    self.stats.longest_chance_join = self.stats.longest_chance_join.max(clear as u32);
                }
                return false;
            }
        }
        if self.rng.percent(self.p.hall_chance.0) && self.hall(t) {
            return true;
        }
        if clear > len {
            self.advance(t, len);
            self.rooms(t, len);
            if self.rng.percent(self.p.width_change_chance.0) {
                self.change_width(t);
            }
            let turn = self.rng.percent(Self::drifted(self.p.turn_chance.0, self.p.turn_drift, t.generation));
            if (turn || self.rng.percent(self.p.branch_chance.0)) && self.scan(t, t.width + 1).0 > t.width {
                self.turn(t, turn);
            }
            true
        } else if clear > w {
            // Something is ahead: dig up to it, leaving room for a junction, and turn.
            let before = clear - w - 1;
            self.advance(t, before);
            self.turn(t, true);
            true
        } else {
            self.pivot(t)
        }
    }

    /// The corridor region that rows `area` ahead extend: the current straight run,
    /// or a new one.
    fn corridor_for(&mut self, t: &mut Tunneler, area: Rect) -> RegionId {
        match t.corridor {
            Some(c) => {
                self.c.extend(c, area);
                c
            }
            None => {
                let c = self.c.region(RegionKind::Corridor, area, Some(t.region));
                t.corridor = Some(c);
                c
            }
        }
    }

    /// Digs rows `1..=rows` ahead as corridor and moves the head there.
    fn advance(&mut self, t: &mut Tunneler, rows: i32) {
        if rows <= 0 {
            return;
        }
        let area = t.area(1, rows, 0, t.width - 1);
        let corridor = self.corridor_for(t, area);
        self.c.dig_rect(area, FloorKind::Corridor, corridor);
        t.left = t.cell(rows, 0);
        t.region = corridor;
    }

    /// Digs rows `1..=rows` ahead, the last of which meets open space of `other`,
    /// and joins the two networks.
    fn join(&mut self, t: &mut Tunneler, rows: i32, other: RegionId) {
        let area = t.area(1, rows, 0, t.width - 1);
        let corridor = self.corridor_for(t, area);
        // The meeting row is partly open already; only its earth is dug.
        self.c.dig_rect(area, FloorKind::Corridor, corridor);
        self.c.union(corridor, other);
        // Where the tunnel broke through a room's or hall's wall, record an opening.
        for p in t.area(rows.max(2) - 1, rows, 0, t.width - 1).points() {
            self.c.add_door(other, p);
        }
    }

    /// `width` two cells wider or narrower, at random, within the bounds.
    fn stepped_width(&mut self, width: i32) -> i32 {
        let (lo, hi) = (i32::from(self.p.min_width), i32::from(self.p.max_width));
        if self.rng.coin() { (width + 2).min(hi) } else { (width - 2).max(lo) }
    }

    /// Two cells wider or narrower, centred on the same line.
    fn change_width(&mut self, t: &mut Tunneler) {
        let new = self.stepped_width(t.width);
        if new == t.width {
            return;
        }
        let shift = (t.width - new) / 2;
        t.left = t.left + t.dir.right().delta() * shift;
        t.width = new;
        t.corridor = None;
    }

    /// Digs a junction square ahead; then either turns (`turn`) or goes straight on
    /// and sends a child sideways.
    fn turn(&mut self, t: &mut Tunneler, turn: bool) {
        let w = t.width;
        let square = t.area(1, w, 0, w - 1);
        let junction = self.c.region(RegionKind::Junction, square, Some(t.region));
        self.c.dig_rect(square, FloorKind::Junction, junction);
        let (first, second) = self.turn_order(t, square);
        let straight = t.dir;
        t.dir = if turn { first } else { straight };
        t.left = head_leaving(square, t.dir);
        t.region = junction;
        t.corridor = None;
        let child_dir = if turn { second } else { first };
        let chance = if turn { self.p.branch_at_turn_chance.0 } else { 100 };
        if t.generation < self.p.max_generations && self.rng.percent(chance) {
            self.branch(t, square, child_dir, junction);
        }
    }

    /// A child leaving `from` heading `dir`, maybe two cells wider or narrower.
    fn branch(&mut self, parent: &Tunneler, from: Rect, dir: Dir, region: RegionId) {
        let mut width = parent.width;
        if self.rng.percent(self.p.child_width_change_chance.0) {
            width = self.stepped_width(width);
        }
        let side = if dir.is_horizontal() { from.height } else { from.width };
        let left = head_leaving(from, dir) + dir.right().delta() * ((side - width) / 2);
        let child = self.new_tunneler(left, dir, width, parent.generation + 1, region);
        self.spawn(child);
    }

    /// Boxed in: turn on the spot if the last `width` rows are open, else die.
    fn pivot(&mut self, t: &mut Tunneler) -> bool {
        let w = t.width;
        let square = t.area(1 - w, 0, 0, w - 1);
        let root = self.c.find(t.region);
        let mut checked = t.region;
        for p in square.points() {
            let same_network = match self.c.classify(p) {
                Cell::Open(r) if r == checked => true,
                Cell::Open(r) if self.c.find(r) == root => {
                    checked = r;
                    true
                }
                _ => false,
            };
            if !same_network {
                self.stats.boxed_in += 1;
                return false;
            }
        }
        t.dir = self.turn_order(t, square).0;
        t.left = head_leaving(square, t.dir);
        t.corridor = None;
        true
    }
}

/// The size class with the largest rooms (the last of equals).
fn largest_class(rooms: &[RoomSize]) -> usize {
    let most = |r: &RoomSize| i64::from(r.width.hi) * i64::from(r.depth.hi);
    rooms.iter().enumerate().max_by_key(|(_, r)| most(r)).map_or(0, |(i, _)| i)
}

/// The line of cells `n` rows outside `b` on `side`, as long as that side.
fn line_beside(b: Rect, side: Dir, n: i32) -> Rect {
    match side {
        Dir::North => Rect::new(b.x, b.y - n, b.width, 1),
        Dir::South => Rect::new(b.x, b.bottom() - 1 + n, b.width, 1),
        Dir::West => Rect::new(b.x - n, b.y, 1, b.height),
        Dir::East => Rect::new(b.right() - 1 + n, b.y, 1, b.height),
    }
}
