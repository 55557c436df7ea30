//! The cave layout: caves grown by a cellular automaton, with the features'
//! prefabs joined to them by short, direct passages (Cogmind's cave branches,
//! seeds 000 and 001).
//!
//! In: the map after the features stage and the map type's [`CavesParams`].
//! Every unprotected earth cell inside the margin starts as rock by the `fill`
//! chance; then, for `iterations` rounds, open ground with `birth` or more rock
//! neighbours turns to rock and rock with fewer than `survival` opens. Open areas
//! smaller than `min_pocket` are filled in, and what is left is joined into one
//! cave: a search through rock grows out from the largest area, and each area
//! it reaches is joined by the passage it took, `passage_width` wide. Each
//! feature link is then joined to the nearest cave floor the same way, directly,
//! so the features never take the caves over.
//!
//! Out: regions like every generator's, through the [`Carver`]: the cave floor is
//! divided into **caverns** ([`RegionKind::Cave`]: open ground at least
//! `cavern_clearance` cells from any wall, `min_cavern` cells or more, each with
//! its most central cell as [`Region::centre`](crate::map::Region::centre)) and
//! **passages** ([`RegionKind::Passage`]: the narrow floor between them). Walls
//! rise around all of it. Everything is one network; the trace says how many
//! areas the automaton made, how many were filled in or joined, and how long each
//! link's passage is.
//!
//! Speed: the automaton, the areas, the joining search ([`join`], a level at
//! a time) and the caverns' open ground are worked out on [`bits`](crate::bits) grids, 64
//! cells a word, areas as runs of cells; the links' searches work on byte
//! grids kept with a one-cell border of fixed ground, so a neighbour is an
//! index offset and no step checks the map's bounds. Buffers are reused from
//! map to map.
//!
//! Areas are joined side by side whatever the pack's [`Moves`]: caves joined
//! so are joined under either rule.

mod join;
pub(crate) mod prefabs;

use super::{Carver, Input};
use crate::bits::{Areas, Bits};
use crate::content::caves::CavesParams;
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Moves, Point, Rect};
use crate::map::{CaveStats, FloorKind, LayoutStats, Map, RegionId, RegionKind, Role, Stage, Terrain, mask};
use crate::rng::Rng;
use crate::trace::Outcome;

/// What each cell is to the caves.
const ROCK: u8 = 0;
const FLOOR: u8 = 1;
/// Kept as it is: the margin, features, barriers, the map's outer ring and the
/// border around the grid.
const FIXED: u8 = 2;

/// No label yet.
const NONE: u32 = u32::MAX;
/// A passage search's marks: a cell not reached yet, and a cell it starts
/// from; any other mark is the side (0-3, as [`Caves::sides`]) it was reached
/// from.
const UNSEEN: u8 = u8::MAX;
const SOURCE: u8 = u8::MAX - 1;

/// A bit for each of up to eight cells (`ROCK`, `FLOOR` or `FIXED`), set
/// where the cell is `state`: eight cells a word operation. Cells hold 0-2,
/// so a cell differs from `state` exactly when one of the two low bits of
/// their XOR is set.
fn bytes_equal(cells: &[u8], state: u8) -> u8 {
    const LOW: u64 = 0x0101_0101_0101_0101;
    // Multiplying gathers bit 0 of each byte into the top byte, in order.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut bytes = [state ^ 1; 8];
    bytes[..cells.len()].copy_from_slice(cells);
    let differ = u64::from_le_bytes(bytes) ^ (u64::from(state) * LOW);
    let equal = !(differ | differ >> 1) & LOW;
    (equal.wrapping_mul(GATHER) >> 56) as u8
}

/// A bit for each byte of `draw`, set where the byte is below `below`
/// (0-256): the bytes compared in two sets of four 16-bit lanes, where
/// `byte + 0x1000 - below` keeps bit 12 exactly when `byte >= below`.
fn bytes_below(draw: u64, below: u32) -> u8 {
    const LANES: u64 = 0x00FF_00FF_00FF_00FF;
    const BIT12: u64 = 0x1000_1000_1000_1000;
    let below = u64::from(below.min(256)) * 0x0001_0001_0001_0001;
    let even = (((draw & LANES) + BIT12 - below) & BIT12) >> 12;
    let odd = ((((draw >> 8) & LANES) + BIT12 - below) & BIT12) >> 11;
    // Bytes 2j and 2j + 1 answer at bits 16j and 16j + 1; each pair moves to
    // bits 2j of the top byte (the multiplier's terms never overlap).
    let at_least = ((even | odd).wrapping_mul((1 << 56) | (1 << 42) | (1 << 28) | (1 << 14)) >> 56) as u8;
    !at_least
}

/// `n` (at most 64) bits of `stream` from bit `offset` on; `stream` holds a
/// word past the last bit asked for.
fn bits_from(stream: &[u64], offset: usize, n: usize) -> u64 {
    let (i, shift) = (offset / 64, offset % 64);
    let mut bits = stream[i] >> shift;
    if shift > 0 {
        bits |= stream[i + 1] << (64 - shift);
    }
    if n < 64 { bits & ((1 << n) - 1) } else { bits }
}

/// Each byte value's bits spread one to a byte: bit `i` becomes byte `i`'s 1.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut i = 0;
        while i < 8 {
            table[v] |= ((v as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        v += 1;
    }
    table
};

/// The caves prepare nothing once per map type.
pub(super) type Prepared = ();

/// Builds the cave layout of `map`.
pub(super) fn build(
    map: &mut Map,
    _prepared: &Prepared,
    params: &CavesParams,
    input: &Input<'_>,
) -> Result<LayoutStats, Error> {
    let seed = input.seed;
    let mut caves = Caves::new(map, params);
    caves.grow(&mut Rng::stream(seed, "layout/caves", "fill"));
    let mut stats = CaveStats::default();
    let (areas, removed) = caves.fill_pockets();
    stats.caverns_before_joining = areas;
    stats.pockets_removed = removed;
    if areas == removed {
        // Not even the largest area was worth keeping.
        return Err(no_floor(params));
    }
    stats.joins = caves.join_all();
    let mut c = Carver::new(map);
    stats.link_lengths = caves.join_links(&c);
    stats.floor = caves.cells.iter().filter(|&&s| s == FLOOR).count() as u32;
    let (caverns, passages) = caves.regions(&mut c);
    stats.caverns = caverns;
    stats.passages = passages;
    let fallback_paths = c.connect_networks()?;
    c.raise_walls();
    let open_cells = c.open_cells;
    let total = c.map.width() as i64 * c.map.height() as i64;
    let links = &stats.link_lengths;
    c.map.trace.push_with(
        "layout",
        Outcome::Note, None, || format!(
            "caves: the automaton left {} open areas; {} pockets filled in, {} passages dug to join the rest; {} feature links joined by passages of {} cells; {} caverns and {} passages; {} of {total} cells open",
            stats.caverns_before_joining,
            stats.pockets_removed,
            stats.joins,
            links.len(),
            if links.is_empty() {
                "no".to_string()
            } else {
                links.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
            },
            stats.caverns,
            stats.passages,
            open_cells
        ));
    Ok(LayoutStats { generator: "caves", fallback_paths, open_cells, caves: Some(stats), ..LayoutStats::default() })
}

/// The error when the automaton left no open ground worth keeping.
fn no_floor(params: &CavesParams) -> Error {
    let message = format!(
        "the caves' automaton left no open area of {} cells or more: the map would be solid rock",
        params.min_pocket
    );
    let help = "open the caves up: a lower `fill` (about 45-52), a higher `survival` or `birth`, fewer `iterations`, or a smaller `min_pocket`";
    match &params.location {
        Some(at) => Error::at(ErrorKind::Generation, at.clone(), message),
        None => Error::new(ErrorKind::Generation, message),
    }
    .with_help(help)
}

/// The buffers the caves reuse from map to map, kept per thread (a fresh
/// grid's pages cost more than filling a warm one).
#[derive(Default)]
struct Scratch {
    cells: Vec<u8>,
    labels: Vec<u32>,
    came: Vec<u8>,
    stack: Vec<u32>,
    queue: Vec<u32>,
    levels: join::Levels,
}

thread_local! {
    static KEPT: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

impl Drop for Caves<'_> {
    /// Keeps the buffers for the next map on this thread.
    fn drop(&mut self) {
        let scratch = Scratch {
            cells: std::mem::take(&mut self.cells),
            labels: std::mem::take(&mut self.labels),
            came: std::mem::take(&mut self.came),
            stack: std::mem::take(&mut self.stack),
            queue: std::mem::take(&mut self.queue),
            levels: std::mem::take(&mut self.levels),
        };
        KEPT.with(|k| *k.borrow_mut() = scratch);
    }
}

/// The caves under construction, as one state byte per cell, with a border.
struct Caves<'p> {
    params: &'p CavesParams,
    /// The map's width and height.
    width: usize,
    height: usize,
    /// The grids' width: the map's and a border cell each side.
    stride: usize,
    /// `ROCK`, `FLOOR` or `FIXED` for each cell of the bordered grid.
    cells: Vec<u8>,
    /// The features' link marks: where each leaves its prefab, its way out and
    /// the prefab's index.
    links: Vec<(Point, Dir, usize)>,
    /// The prefabs at least one of whose links a passage reached.
    joined: Vec<usize>,
    /// Labels for areas, reused.
    labels: Vec<u32>,
    /// The open areas [`Caves::fill_pockets`] found, and which it kept.
    kept: Option<(Areas, Vec<bool>)>,
    /// Search scratch: a stack and a queue of cell indices, and the way back
    /// from each cell a search reached, reused.
    stack: Vec<u32>,
    queue: Vec<u32>,
    came: Vec<u8>,
    /// The joining search's levels, reused.
    levels: join::Levels,
}

impl<'p> Caves<'p> {
    fn new(map: &Map, params: &'p CavesParams) -> Caves<'p> {
        let (width, height) = (map.width() as usize, map.height() as usize);
        let stride = width + 2;
        let n = stride * (height + 2);
        let Scratch { mut cells, mut labels, mut came, stack, queue, levels } =
            KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()));
        cells.clear();
        cells.resize(n, FIXED);
        // Every use fills these first.
        labels.resize(n, NONE);
        came.resize(n, UNSEEN);
        let (x0, x1) = (params.margin.max(0) as usize, width.saturating_sub(params.margin.max(0) as usize));
        let (y0, y1) = (params.margin.max(0) as usize, height.saturating_sub(params.margin.max(0) as usize));
        let terrain = map.terrain.cells();
        let masks = map.masks.cells();
        for y in y0..y1 {
            let row = (y + 1) * stride + 1;
            for x in x0..x1 {
                let i = y * width + x;
                let free = terrain[i].is(Role::Earth) && masks[i] & mask::PROTECTED == 0;
                cells[row + x] = if free { ROCK } else { FIXED };
            }
        }
        let links = map
            .links
            .iter()
            .filter(|l| map.prefabs.get(l.prefab).is_some_and(|p| p.stage == Stage::Feature))
            .map(|l| (l.at, l.dir, l.prefab))
            .collect();
        Caves {
            params,
            width,
            height,
            stride,
            labels,
            came,
            cells,
            links,
            joined: Vec::new(),
            kept: None,
            stack,
            queue,
            levels,
        }
    }

    /// The index of map cell `p` in the bordered grids.
    fn index(&self, p: Point) -> usize {
        (p.y as usize + 1) * self.stride + p.x as usize + 1
    }

    /// The map cell at index `i` of the bordered grids.
    fn point(&self, i: usize) -> Point {
        Point::new((i % self.stride) as i32 - 1, (i / self.stride) as i32 - 1)
    }

    /// True when `p` lies on the map (the border is not).
    fn on_map(&self, p: Point) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as usize) < self.width && (p.y as usize) < self.height
    }

    /// Index offsets to the four neighbours of a cell.
    fn sides(&self) -> [isize; 4] {
        let s = self.stride as isize;
        [-s, 1, s, -1]
    }

    /// The random fill, then the automaton's rounds.
    fn grow(&mut self, rng: &mut Rng) {
        let (w, h) = (self.width, self.height);
        let fixed = self.bits_where(FIXED, false);
        let mut solid = Bits::new(w, h, true);
        // One random byte a cell, eight from each draw, cells in reading
        // order: rock below the fill's share of 256; fixed cells count as rock.
        let below = self.params.fill.0 * 256 / 100;
        let cells = w * h;
        let mut stream = vec![0u64; cells.div_ceil(64) + 1];
        for d in 0..cells.div_ceil(8) {
            stream[d / 8] |= u64::from(bytes_below(rng.next_u64(), below)) << (8 * (d % 8));
        }
        for y in 0..h {
            for (word, (out, &held)) in solid.row_mut(y).iter_mut().zip(fixed.row(y)).enumerate() {
                *out |= bits_from(&stream, y * w + 64 * word, 64.min(w - 64 * word)) | held;
            }
        }
        for _ in 0..self.params.iterations {
            solid = solid.automaton_step(&fixed, self.params.birth, self.params.survival);
        }
        for y in 0..h {
            let row = (y + 1) * self.stride + 1;
            let (solid_row, fixed_row) = (solid.row(y), fixed.row(y));
            for (x, eight) in (0..w).step_by(8).zip(self.cells[row..row + w].chunks_mut(8)) {
                let (s, f) = ((solid_row[x / 64] >> (x % 64)) as u8, (fixed_row[x / 64] >> (x % 64)) as u8);
                // FIXED where fixed, else ROCK (0) where solid and FLOOR (1) where not.
                let states = (2 * SPREAD[usize::from(f)]) | SPREAD[usize::from(!s & !f)];
                eight.copy_from_slice(&states.to_le_bytes()[..eight.len()]);
            }
        }
    }

    /// The cells in state `state` as a bit grid (off the grid reading `outside`).
    fn bits_where(&self, state: u8, outside: bool) -> Bits {
        let mut out = Bits::new(self.width, self.height, outside);
        for y in 0..self.height {
            let row = (y + 1) * self.stride + 1;
            let cells = &self.cells[row..row + self.width];
            for (word, chunk) in out.row_mut(y).iter_mut().zip(cells.chunks(64)) {
                let mut set = 0u64;
                for (b, eight) in chunk.chunks(8).enumerate() {
                    set |= u64::from(bytes_equal(eight, state)) << (8 * b);
                }
                *word |= set;
            }
        }
        out
    }

    /// The floor cells as a bit grid.
    fn floor_bits(&self) -> Bits {
        self.bits_where(FLOOR, false)
    }

    /// Writes `label(area)` into the labels of every cell of `areas`' runs for
    /// which it is not `NONE`.
    fn paint(&mut self, areas: &Areas, label: impl Fn(u32) -> u32) {
        for (run, &area) in areas.runs.iter().zip(&areas.area) {
            let l = label(area);
            if l != NONE {
                let row = (run.y as usize + 1) * self.stride + 1;
                self.labels[row + run.x0 as usize..row + run.x1 as usize].fill(l);
            }
        }
    }

    /// Fills in the areas smaller than `min_pocket`. Returns the areas found and
    /// those filled: all of them when even the largest is that small. The
    /// areas, and which stay, are kept for [`Caves::join_all`].
    fn fill_pockets(&mut self) -> (u32, u32) {
        let areas = Areas::of(&self.floor_bits(), Moves::Orthogonal);
        let small: Vec<bool> = areas.sizes.iter().map(|&n| n < self.params.min_pocket).collect();
        for (run, &area) in areas.runs.iter().zip(&areas.area) {
            if small[area as usize] {
                let row = (run.y as usize + 1) * self.stride + 1;
                self.cells[row + run.x0 as usize..row + run.x1 as usize].fill(ROCK);
            }
        }
        let found = areas.sizes.len() as u32;
        let filled = small.iter().filter(|&&s| s).count() as u32;
        self.kept = Some((areas, small.iter().map(|&s| !s).collect()));
        (found, filled)
    }

    /// Joins every area [`Caves::fill_pockets`] kept into one cave, growing out
    /// from the largest (the first of the largest): a search through rock from
    /// everything joined so far; where it reaches an area not yet joined, the
    /// passage there is dug and that area joins the search's sources. One pass
    /// over the map, whatever the number of areas. Returns the passages dug.
    fn join_all(&mut self) -> u32 {
        let Some((areas, kept)) = self.kept.take() else { return 0 };
        let sizes = |k: usize| if kept[k] { areas.sizes[k] } else { 0 };
        if kept.iter().filter(|&&k| k).count() <= 1 {
            return 0;
        }
        let main = (0..kept.len()).max_by_key(|&k| (sizes(k), std::cmp::Reverse(k))).unwrap_or(0);
        let rock = self.bits_where(ROCK, false);
        let passages = join::join_areas(&rock, &areas, &kept, main, &mut self.levels);
        for path in &passages {
            let cells: Vec<Point> = path.iter().map(|&(x, y)| Point::new(x as i32, y as i32)).collect();
            self.dig(&cells);
        }
        passages.len() as u32
    }

    /// Joins each feature link to the nearest cave floor: from the first cell
    /// past its prefab, the shortest passage through rock. Returns each passage's
    /// length (0 where the link opens onto floor already).
    fn join_links(&mut self, c: &Carver<'_>) -> Vec<u32> {
        let mut lengths = Vec::new();
        for k in 0..self.links.len() {
            let (at, dir, prefab) = self.links[k];
            // Out of the prefab: past its walkable cells and protected ones.
            let mut p = at;
            for _ in 0..self.width.max(self.height) {
                if !self.on_map(p) || self.cells[self.index(p)] != FIXED || !c.map.is_walkable(p) && p != at {
                    break;
                }
                p = p + dir.delta();
            }
            if !self.on_map(p) || self.cells[self.index(p)] == FIXED {
                continue;
            }
            if self.cells[self.index(p)] == FLOOR {
                lengths.push(0);
                self.joined.push(prefab);
                continue;
            }
            match self.shortest_passage(self.index(p)) {
                Some(mut path) => {
                    path.insert(0, p);
                    lengths.push(path.len() as u32);
                    self.dig(&path);
                    self.joined.push(prefab);
                }
                None => lengths.push(0),
            }
        }
        lengths
    }

    /// The shortest way through rock from `start` to cave floor: the rock cells
    /// to dig, nearest `start` first.
    fn shortest_passage(&mut self, start: usize) -> Option<Vec<Point>> {
        let mut came = std::mem::take(&mut self.came);
        came.fill(UNSEEN);
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        came[start] = SOURCE;
        queue.push(start as u32);
        let sides = self.sides();
        let mut head = 0;
        let mut found = None;
        'search: while head < queue.len() {
            let i = queue[head];
            head += 1;
            for (side, d) in sides.into_iter().enumerate() {
                let j = (i as isize + d) as usize;
                if came[j] != UNSEEN {
                    continue;
                }
                match self.cells[j] {
                    FLOOR => {
                        let mut path = self.walk_back(&came, i);
                        path.reverse();
                        found = Some(path);
                        break 'search;
                    }
                    ROCK => {
                        came[j] = side as u8;
                        queue.push(j as u32);
                    }
                    _ => {}
                }
            }
        }
        self.came = came;
        self.queue = queue;
        found
    }

    /// The cells a search took from one of its sources to `last`, `last` first
    /// (the source itself not included).
    fn walk_back(&self, came: &[u8], last: u32) -> Vec<Point> {
        let sides = self.sides();
        let mut path = Vec::new();
        let mut k = last as usize;
        while came[k] != SOURCE {
            path.push(self.point(k));
            // Reached through side `came[k]`: back the other way.
            k = (k as isize - sides[came[k] as usize]) as usize;
        }
        path
    }

    /// Opens a passage along `path`, `passage_width` wide where the rock allows.
    fn dig(&mut self, path: &[Point]) {
        let w = self.params.passage_width;
        let (lo, hi) = (-(w - 1) / 2, w / 2);
        for &p in path {
            let i = self.index(p);
            self.cells[i] = FLOOR;
            for dy in lo..=hi {
                for dx in lo..=hi {
                    let q = p + Point::new(dx, dy);
                    if self.on_map(q) && self.cells[self.index(q)] == ROCK {
                        let j = self.index(q);
                        self.cells[j] = FLOOR;
                    }
                }
            }
        }
    }

    /// Divides the floor into caverns and passages and digs them as regions.
    /// Returns how many of each.
    ///
    /// A cell's chessboard distance to the nearest cell that is not floor is
    /// one more than the times it survives eroding the floor, so the caverns'
    /// open ground (floor `cavern_clearance` or more from any wall) is the floor
    /// eroded `cavern_clearance - 1` times, and each cavern's centre is where
    /// its open ground lasts longest (the first such cell, row by row).
    fn regions(&mut self, c: &mut Carver<'_>) -> (u32, u32) {
        let floor = self.floor_bits();
        let clearance = self.params.cavern_clearance;
        let mut open = floor.clone();
        for _ in 1..clearance {
            open = open.eroded();
        }
        // Its areas, large enough, are caverns.
        let ground = Areas::of(&open, Moves::Orthogonal);
        let mut cavern_of = vec![NONE; ground.sizes.len()];
        let mut caverns = 0u32;
        for (k, &size) in ground.sizes.iter().enumerate() {
            if size >= self.params.min_cavern {
                cavern_of[k] = caverns;
                caverns += 1;
            }
        }
        self.labels.fill(NONE);
        self.paint(&ground, |a| cavern_of[a as usize]);
        let centres = self.centres(&open, caverns as usize);
        // Each cavern takes the floor around its open ground, up to the walls:
        // `clearance - 1` steps out, each step's cells taking the cavern of
        // the first labelled cell around them.
        let s = self.stride as isize;
        let around: [isize; 8] = [-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1];
        let mut rim: Vec<(u32, u32)> = Vec::new();
        let mut grown: Vec<(usize, u32)> = Vec::new();
        let mut taken = Bits::new(self.width, self.height, false);
        for (run, &area) in ground.runs.iter().zip(&ground.area) {
            if cavern_of[area as usize] != NONE {
                taken.set_run(run.y as usize, run.x0 as usize, run.x1 as usize);
            }
        }
        for _ in 1..clearance {
            grown.clear();
            // Floor beside a cavern's cells, not a cavern's yet.
            let next = taken.dilated().and_not(&taken).and(&floor);
            for (x, y) in next.cells() {
                let i = (y + 1) * self.stride + x + 1;
                if let Some(l) = around.iter().map(|&d| self.labels[(i as isize + d) as usize]).find(|&l| l != NONE) {
                    grown.push((i, l));
                }
            }
            for &(i, l) in &grown {
                self.labels[i] = l;
                rim.push((i as u32, l));
                let p = self.point(i);
                taken.set(p.x as usize, p.y as usize);
            }
        }
        // The rest of the floor: passages, by 4-connected area.
        let passages = Areas::of(&floor.and_not(&taken), Moves::Orthogonal);
        self.paint(&passages, |a| caverns + a);
        let labels = caverns + passages.sizes.len() as u32;
        // Scraps of a few cells beside a cavern (corners of its rim) are the
        // cavern's, not passages of their own.
        let mut into: Vec<u32> = (0..labels).collect();
        let sides = self.sides();
        for (run, &area) in passages.runs.iter().zip(&passages.area) {
            if passages.sizes[area as usize] >= 4 {
                continue;
            }
            let row = (run.y as usize + 1) * self.stride + 1;
            for i in row + run.x0 as usize..row + run.x1 as usize {
                for d in sides {
                    let q = self.labels[(i as isize + d) as usize];
                    if q < caverns {
                        into[(caverns + area) as usize] = q;
                    }
                }
            }
        }
        // Labels renumbered: caverns first, then the passages that stay.
        let mut renumber = vec![NONE; labels as usize];
        let mut count = 0;
        for label in 0..labels {
            if into[label as usize] == label {
                renumber[label as usize] = count;
                count += 1;
            }
        }
        let final_label = |l: u32| renumber[into[l as usize] as usize];
        // The regions, then every cell dug into its own, a run at a time.
        let mut ids: Vec<RegionId> = Vec::with_capacity(count as usize);
        let mut first: Option<RegionId> = None;
        for label in 0..count {
            let kind = if label < caverns { RegionKind::Cave } else { RegionKind::Passage };
            let id = c.region(kind, Rect::new(0, 0, 0, 0), first);
            first.get_or_insert(id);
            if let Some(&centre) = centres.get(label as usize).and_then(Option::as_ref) {
                c.map.regions[id as usize].centre = Some(centre);
            }
            ids.push(id);
        }
        let mut bounds: Vec<Option<Rect>> = vec![None; count as usize];
        let mut extend = |label: u32, r: Rect| {
            let b = &mut bounds[label as usize];
            *b = Some(b.map_or(r, |b| b.union(&r)));
        };
        for (run, &area) in ground.runs.iter().zip(&ground.area) {
            if cavern_of[area as usize] != NONE {
                let label = cavern_of[area as usize];
                extend(label, Rect::new(run.x0 as i32, run.y as i32, run.len() as i32, 1));
                c.dig_rect(
                    Rect::new(run.x0 as i32, run.y as i32, run.len() as i32, 1),
                    FloorKind::Cave,
                    ids[label as usize],
                );
            }
        }
        let cave_floor = Terrain::floor(FloorKind::Cave);
        for &(i, label) in &rim {
            let p = self.point(i as usize);
            extend(label, Rect::new(p.x, p.y, 1, 1));
            c.dig(p, cave_floor, ids[label as usize]);
        }
        // The passages, with the open ground too small for a cavern and the
        // scraps that went to a cavern.
        for (run, &area) in passages.runs.iter().zip(&passages.area) {
            let label = final_label(caverns + area);
            let r = Rect::new(run.x0 as i32, run.y as i32, run.len() as i32, 1);
            extend(label, r);
            c.dig_rect(r, FloorKind::Cave, ids[label as usize]);
        }
        for (id, b) in ids.iter().zip(bounds) {
            c.map.regions[*id as usize].bounds = b.unwrap_or(Rect::new(0, 0, 0, 0));
        }
        // Features whose links the passages reached join the cave's network;
        // any other is left to the carver, which joins it or names it.
        for r in 0..c.map.regions.len() as RegionId {
            let joined = c.map.regions[r as usize].prefab.is_some_and(|p| self.joined.contains(&p));
            if let (true, Some(root)) = (joined, first) {
                c.union(r, root);
            }
        }
        (caverns, count - caverns)
    }

    /// Each cavern's most central cell: where its open ground (`open`, labelled
    /// in `labels`) lasts longest under erosion, the first such cell row by
    /// row. Found from each cell's depth, in two passes over the map whatever
    /// the caverns' size.
    fn centres(&self, open: &Bits, caverns: usize) -> Vec<Option<Point>> {
        let mut deepest: Vec<Option<(u16, Point)>> = vec![None; caverns];
        let depths = open.depths();
        for (x, y) in open.cells() {
            let label = self.labels[(y + 1) * self.stride + x + 1];
            let depth = depths[y * self.width + x];
            if let Some(best) = deepest.get_mut(label as usize)
                && best.is_none_or(|(d, _)| depth > d)
            {
                *best = Some((depth, Point::new(x as i32, y as i32)));
            }
        }
        deepest.into_iter().map(|d| d.map(|(_, p)| p)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_below_compares_each_byte() {
        let mut rng = Rng::stream(4, "test", "bytes");
        for below in [0, 1, 2, 127, 128, 129, 200, 255, 256] {
            for _ in 0..500 {
                let draw = rng.next_u64();
                let expected =
                    (0..8).filter(|&b| u32::from((draw >> (8 * b)) as u8) < below).fold(0u8, |m, b| m | 1 << b);
                assert_eq!(bytes_below(draw, below), expected, "{draw:#x} below {below}");
            }
        }
    }

    #[test]
    fn bits_from_reads_across_words() {
        let stream = [0xF0F0_0000_0000_00FF_u64, 0x8000_0000_0000_0003, 0];
        assert_eq!(bits_from(&stream, 0, 8), 0xFF);
        assert_eq!(bits_from(&stream, 60, 6), 0b11_1111);
        assert_eq!(bits_from(&stream, 56, 64), 0x3F0);
        assert_eq!(bits_from(&stream, 64, 64), stream[1]);
        assert_eq!(SPREAD[0b1000_0101], 0x0100_0000_0001_0001);
    }

    #[test]
    fn bytes_equal_marks_the_cells_in_a_state() {
        let cells = [ROCK, FLOOR, FIXED, FLOOR, FLOOR, ROCK, FIXED, ROCK];
        for state in [ROCK, FLOOR, FIXED] {
            for len in 0..=8 {
                let expected = (0..len).filter(|&b| cells[b] == state).fold(0u8, |m, b| m | 1 << b);
                assert_eq!(bytes_equal(&cells[..len], state), expected, "state {state}, {len} cells");
            }
        }
    }
}
