//! The furnishing stage: machines, stockpiles, items and debris in the layout's
//! rooms, halls, caverns and junctions (seed 003, "Furnishing a/the Dungeon").
//!
//! In: a map after layout and encounters, the map type's [`Furnishing`] rules and
//! the catalog. Out: the same map with objects added, each marked with the step
//! that placed it; machines block walkers (their cells become solid).
//!
//! Areas are the layout's rooms, halls and caverns (rooms that received an
//! encounter are prefabs now and are left alone). Halls go first, largest
//! first, then caverns, largest first; rooms follow in a random order. Each
//! area draws a composition by weight, then places, as the composition says: an interactive machine on the edge of its inner
//! rectangle (the area shrunk by the padding), its back to the wall, maybe pushed
//! back against the wall; one or two stockpiles by the same rules; and last a
//! filler, the largest array of one machine of a themed set that fits the inner
//! rectangle, each member dropped where it would overlap another object or its
//! spacing, sometimes one member swapped for a different machine no larger.
//! Terminals then go into the busiest junctions (most ways in), and loose items
//! anywhere, higher-rated ones drawing more candidate cells and keeping the most
//! secluded (the walking distance from the nearest corridor, junction or cave
//! passage). Caverns have no inner rectangle: their interactive machines and stockpiles
//! stand anywhere on their floor with their back to the cave wall, and their
//! non-interactive machines are scattered one by one, each a member of the
//! set drawn anew. Debris is strewn last, on floor beside the walls.
//!
//! Guarantees: nothing covers a door, stairs, a link mark, a protected or
//! spawn-blocked cell or a cell of a placed prefab; machines and stockpiles never
//! stand on the cells just inside an area's ways in (beside a door, an opening, a
//! corridor running through), so every door leads somewhere; terminals stand
//! against a wall, off corridor mouths; no object overlaps another; and a machine
//! is placed only where the passable cells around it stay connected to each other
//! within two cells of it, which keeps the whole map connected without flooding it
//! (any path through the machine can go around it). Per-map limits on interactive
//! machines and stockpiles are kept; once reached those parts are skipped. Every
//! choice and skip is traced.
//!
//! This file holds the stage's driver and the checks every placement passes;
//! `machines` places inside one area, `spread` over the whole map, `seclusion`
//! measures how far a cell is from the corridors.

use crate::content::catalog::{Catalog, Item, Prop};
use crate::content::furnishing::{Count, Furnishing};
use crate::geom::{Moves, Point, Rect, RectSearch};
use crate::map::{Furnished, Map, Object, ObjectKind, RegionId, RegionKind, mask};
use crate::rng::Rng;
use crate::trace::{Note, Outcome};
use crate::vocab::Composition;

mod machines;
mod seclusion;
mod spread;

/// Per-cell flags of the stage's own view of the map.
mod cell {
    /// Floor furnishing may use: walkable floor, not protected, spawn-blocked, solid
    /// or inside a placed prefab, no link mark.
    pub const OPEN: u8 = 1;
    /// An object stands here.
    pub const TAKEN: u8 = 2;
    /// Just inside a way into an area: no machine or stockpile may stand here.
    pub const CLEAR: u8 = 4;
    /// Walkable terrain of any kind (doors and stairs too).
    pub const WALKABLE: u8 = 8;
    /// A door, secret or not.
    pub const DOOR: u8 = 16;
}

/// Why a footprint cannot be used.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Misfit {
    /// A cell is not open floor of the area.
    NotFloor,
    /// It would overlap another object or the spacing around one.
    Overlap,
    /// It would stand just inside a way into the area.
    Doorway,
    /// It would cut a path: the cells around it would no longer meet.
    Path,
}

impl Misfit {
    const ALL: [Misfit; 4] = [Misfit::NotFloor, Misfit::Overlap, Misfit::Doorway, Misfit::Path];

    fn describe(self) -> &'static str {
        match self {
            Misfit::NotFloor => "off the area's open floor",
            Misfit::Overlap => "overlapping another object or its spacing",
            Misfit::Doorway => "in front of a way in",
            Misfit::Path => "cutting a path",
        }
    }
}

/// Counts of what the stage placed, for limits and the summary.
#[derive(Default)]
struct Tally {
    interactive: u32,
    fillers: u32,
    stockpiles: u32,
    stockpile_items: u32,
    terminals: u32,
    items: u32,
    debris: u32,
    areas: u32,
}

/// The stage's state over one map: flags per cell and reused scratch buffers.
struct Furnisher<'a> {
    rules: &'a Furnishing,
    catalog: &'a Catalog,
    /// Items stockpiles draw from at this depth.
    stock_pool: Vec<&'a Item>,
    seed: u64,
    depth: u32,
    flags: Vec<u8>,
    width: i32,
    /// Scratch for the local connectivity check: cells seen, and the stack.
    seen: Vec<bool>,
    stack: Vec<Point>,
    /// Scratch for places along an inner rectangle's edge.
    places: Vec<machines::Place>,
    /// Scratch for the filler's free rectangle: a narrow area's free cells and
    /// the cells near an object as bit rows; a wide one's objects counted over
    /// a window, and the sweep's buffers.
    free_rows: Vec<u64>,
    near_rows: Vec<u64>,
    taken_sums: Vec<u32>,
    free_search: RectSearch,
    /// Scratch for the members of a filler's set.
    set_members: Vec<&'a Prop>,
    /// Scratch for three rows of ways in, while CLEAR cells are marked.
    way_rows: Vec<u8>,
    tally: Tally,
}

/// Runs the stage.
pub(crate) fn run(map: &mut Map, catalog: &Catalog, rules: &Furnishing, seed: u64) {
    let mut f = Furnisher::new(map, catalog, rules, seed);
    let areas = f.areas(map);
    for (weights, kind) in [(&rules.halls, "halls"), (&rules.rooms, "rooms")] {
        if weights.iter().all(|&w| w == 0) {
            map.trace.push_with("furnishing", Outcome::Note, None, || {
                format!("{kind} are not furnished: no composition for {kind} has a weight")
            });
        }
    }
    let of_kind = |kind: RegionKind| areas.iter().filter(|&&id| map.regions[id as usize].kind == kind).count();
    let caverns = match of_kind(RegionKind::Cave) {
        0 => String::new(),
        n => format!(", {n} caverns"),
    };
    map.trace.push_with("furnishing", Outcome::Note, None, || {
        format!(
            "{} halls{caverns} and {} rooms to furnish; interactive machines: {}; stockpiles: {}",
            of_kind(RegionKind::Hall),
            of_kind(RegionKind::Room),
            limit(rules.max_interactive),
            limit(rules.max_stockpiles),
        )
    });
    let total = areas.len();
    for id in areas {
        f.furnish_area(map, id);
    }
    if let Some(t) = &rules.terminals {
        f.terminals(map, t.count, &t.machine_type);
    }
    if let Some(items) = &rules.items {
        f.loose_items(map, items.count, &items.categories);
    }
    if let Some(debris) = &rules.debris {
        f.strew_debris(map, debris);
    }
    let t = &f.tally;
    let debris = if rules.debris.is_some() { format!(", {} pieces of debris", t.debris) } else { String::new() };
    map.trace.push_with("furnishing", Outcome::Note, None, || format!(
            "{} of {total} areas drew a composition that places something; placed {} interactive machines, {} filler machines, {} stockpiles of {} items, {} terminals, {} loose items{debris}",
            t.areas, t.interactive, t.fillers, t.stockpiles, t.stockpile_items, t.terminals, t.items
        ));
}

/// Records that the per-map limit `name` turned a placement away.
fn limit_hit(map: &mut Map, name: &'static str) {
    if !map.furnishing.limits_hit.contains(&name) {
        map.furnishing.limits_hit.push(name);
    }
}

/// A per-map limit as traces say it.
fn limit(n: Option<u32>) -> String {
    n.map_or("no limit".to_string(), |n| format!("at most {n}"))
}

/// `n` and a noun, singular for 1.
fn count_of(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The OPEN flag of every cell: walkable floor no stage holds on to.
fn open_floor(map: &Map) -> Vec<u8> {
    let mut flags: Vec<u8> = map
        .terrain
        .cells()
        .iter()
        .zip(map.masks.cells())
        .map(|(t, &m)| {
            let held = m & (mask::PROTECTED | mask::SPAWN_BLOCKED | mask::SOLID) != 0;
            let open = if t.is_floor() && !held { cell::OPEN } else { 0 };
            let walkable = if t.is_walkable() { cell::WALKABLE } else { 0 };
            let door = if t.is_door() { cell::DOOR } else { 0 };
            open | walkable | door
        })
        .collect();
    for placed in &map.prefabs {
        for p in placed.bounds.points() {
            if let Some(i) = map.terrain.index_of(p) {
                flags[i] &= !cell::OPEN;
            }
        }
    }
    for link in &map.links {
        if let Some(i) = map.terrain.index_of(link.at) {
            flags[i] &= !cell::OPEN;
        }
    }
    for object in &map.objects {
        for &(p, _) in &object.cells {
            if let Some(i) = map.terrain.index_of(p) {
                flags[i] |= cell::TAKEN;
            }
        }
    }
    flags
}

/// For `out.len()` cells of row `y` from column `x0`: 1 where the cell is a
/// way into area `id` (a door, or walkable ground of another region), 0
/// elsewhere and off the map.
fn ways_in_row(map: &Map, flags: &[u8], id: RegionId, x0: i32, y: i32, out: &mut [u8]) {
    out.fill(0);
    if y < 0 || y >= map.height() {
        return;
    }
    let w = map.width();
    // The part of the span on the map, as index ranges into the row and `out`.
    let (lo, hi) = (x0.max(0), (x0 + out.len() as i32).min(w));
    if lo >= hi {
        return;
    }
    let row = (y * w + lo) as usize..(y * w + hi) as usize;
    let (flags, region_of) = (&flags[row.clone()], &map.region_of.cells()[row]);
    let slots = &mut out[(lo - x0) as usize..(hi - x0) as usize];
    for ((slot, &f), &r) in slots.iter_mut().zip(flags).zip(region_of) {
        // Flags combined with `&` and `|`, not branches: the compiler widens it.
        *slot = u8::from(f & cell::DOOR != 0) | (u8::from(f & cell::WALKABLE != 0) & u8::from(r != id));
    }
}

impl<'a> Furnisher<'a> {
    /// A furnisher for `map` with empty scratch buffers: its open floor marked,
    /// the stockpiles' item pool drawn up for the map's depth.
    fn new(map: &Map, catalog: &'a Catalog, rules: &'a Furnishing, seed: u64) -> Furnisher<'a> {
        Furnisher {
            rules,
            catalog,
            stock_pool: item_pool(catalog, map.depth, &rules.stockpile_categories),
            seed,
            depth: map.depth,
            flags: open_floor(map),
            width: map.width(),
            seen: Vec::new(),
            stack: Vec::new(),
            places: Vec::new(),
            free_rows: Vec::new(),
            near_rows: Vec::new(),
            taken_sums: Vec::new(),
            free_search: RectSearch::default(),
            set_members: Vec::new(),
            way_rows: Vec::new(),
            tally: Tally::default(),
        }
    }
}

impl Furnisher<'_> {
    fn index(&self, p: Point) -> usize {
        (p.y * self.width + p.x) as usize
    }

    fn has(&self, map: &Map, p: Point, flag: u8) -> bool {
        map.bounds().contains(p) && self.flags[self.index(p)] & flag != 0
    }

    /// Halls largest first, then caverns largest first, then rooms in a random
    /// order; marks the cells just inside each area's ways in as CLEAR.
    fn areas(&mut self, map: &Map) -> Vec<RegionId> {
        let mut halls: Vec<RegionId> = Vec::new();
        let mut caves: Vec<RegionId> = Vec::new();
        let mut rooms: Vec<RegionId> = Vec::new();
        let weighted = |w: &[u32; 6]| w.iter().any(|&w| w > 0);
        let (furnish_halls, furnish_caves, furnish_rooms) =
            (weighted(&self.rules.halls), weighted(&self.rules.caves), weighted(&self.rules.rooms));
        for r in map.regions.iter().filter(|r| r.prefab.is_none()) {
            match r.kind {
                RegionKind::Hall if furnish_halls => halls.push(r.id),
                RegionKind::Cave if furnish_caves => caves.push(r.id),
                RegionKind::Room if furnish_rooms => rooms.push(r.id),
                _ => continue,
            }
            self.mark_ways_in(map, r.id);
        }
        let largest_first = |id: &RegionId| (std::cmp::Reverse(map.regions[*id as usize].area), *id);
        halls.sort_by_key(largest_first);
        caves.sort_by_key(largest_first);
        Rng::stream(self.seed, "furnishing", "room order").shuffle(&mut rooms);
        halls.extend(caves);
        halls.extend(rooms);
        halls
    }

    /// Marks CLEAR every cell of area `id` beside a door (a room digs its doors
    /// into its own region) or beside a walkable cell outside the area: an
    /// opening, a corridor running through.
    fn mark_ways_in(&mut self, map: &Map, id: RegionId) {
        let b = map.regions[id as usize].bounds.intersection(&map.bounds());
        if b.is_empty() {
            return;
        }
        let w = map.width();
        let region_of = map.region_of.cells();
        // Every cell of every furnished area asks about its four neighbours, so
        // each row's ways in (one column wider on each side) are worked out once,
        // and three rows are kept: above, this one, below.
        let span = b.width as usize + 2;
        let mut rows = std::mem::take(&mut self.way_rows);
        rows.clear();
        rows.resize(3 * span, 0);
        let (mut above, mut here, mut below) = (0, span, 2 * span);
        ways_in_row(map, &self.flags, id, b.x - 1, b.y - 1, &mut rows[above..above + span]);
        ways_in_row(map, &self.flags, id, b.x - 1, b.y, &mut rows[here..here + span]);
        for y in b.y..b.bottom() {
            ways_in_row(map, &self.flags, id, b.x - 1, y + 1, &mut rows[below..below + span]);
            let start = (y * w + b.x) as usize;
            for k in 1..span - 1 {
                let beside = rows[above + k] | rows[below + k] | rows[here + k - 1] | rows[here + k + 1];
                let i = start + k - 1;
                if beside != 0 && region_of[i] == id {
                    self.flags[i] |= cell::CLEAR;
                }
            }
            (above, here, below) = (here, below, above);
        }
        self.way_rows = rows;
    }

    /// Furnishes one room or hall with the composition it draws.
    fn furnish_area(&mut self, map: &mut Map, id: RegionId) {
        let region = &map.regions[id as usize];
        let (kind, bounds) = (region.kind, region.bounds);
        let mut rng = Rng::stream_n(self.seed, "furnishing/area", u64::from(id));
        let weights = match kind {
            RegionKind::Hall => &self.rules.halls,
            RegionKind::Cave => &self.rules.caves,
            _ => &self.rules.rooms,
        };
        // Every area's notes start with its name: written once, with room for
        // the note, so the notes cost no regrowth.
        let mut name = String::new();
        if map.trace.is_on() {
            name.reserve(80);
            // `{kind} {id} ({w}x{h} at {x}, {y})`, written by pieces: one name per area.
            let mut note = Note(&mut name);
            note.text(kind.name()).text(" ").int(id).text(" (").int(bounds.width).text("x").int(bounds.height);
            note.text(" at ").int(bounds.x).text(", ").int(bounds.y).text(")");
        }
        let Some(c) = rng.weighted(weights) else {
            map.trace.push_with("furnishing", Outcome::Skipped, bounds, || {
                format!("{name}: no composition for {}s has a weight", kind.name())
            });
            return;
        };
        let mut composition = Composition::ALL[c];
        // Stockpiles alone, once the map holds its most, would leave the area
        // bare although its composition furnishes it: a filler stands in.
        if composition == Composition::Stockpiles
            && let Some(max) = self.rules.max_stockpiles.filter(|&max| self.tally.stockpiles >= max)
        {
            map.trace.push_with("furnishing", Outcome::Skipped, bounds, || {
                format!("{name}: stockpiles: max_stockpiles {max} reached; a filler of machines instead")
            });
            limit_hit(map, "max_stockpiles");
            composition = Composition::Machines;
        }
        map.trace.push_with("furnishing", Outcome::Chose, bounds, || {
            let mut chose = String::with_capacity(name.len() + 32);
            chose.push_str(&name);
            chose.push_str(": composition `");
            chose.push_str(composition.name());
            chose.push('`');
            chose
        });
        let before = map.objects.len();
        self.furnish_with(map, id, composition, &name, &mut rng);
        let placed = (map.objects.len() - before) as u32;
        map.furnishing.areas.push((id, composition, placed));
    }

    /// Furnishes area `id` with `composition`.
    fn furnish_with(&mut self, map: &mut Map, id: RegionId, composition: Composition, name: &str, rng: &mut Rng) {
        if composition == Composition::Empty {
            return;
        }
        let (kind, bounds) = (map.regions[id as usize].kind, map.regions[id as usize].bounds);
        self.tally.areas += 1;
        // A cavern's floor is its own shape: its bounds stand for the inner
        // rectangle, and what is placed keeps to its floor.
        let open = kind == RegionKind::Cave;
        let inner = if open { bounds } else { bounds.expand(-self.rules.padding) };
        if inner.width <= 0 || inner.height <= 0 {
            map.trace.push_with("furnishing", Outcome::Skipped, bounds, || {
                format!("{name}: no inner rectangle is left inside a padding of {}", self.rules.padding)
            });
            return;
        }
        let area = Area { id, inner, name, open };
        if composition.has_interactive() {
            if let Some(max) = self.rules.max_interactive.filter(|&max| self.tally.interactive >= max) {
                map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || {
                    format!("{name}: interactive machine: max_interactive {max} reached")
                });
                limit_hit(map, "max_interactive");
            } else {
                self.interactive(map, &area, rng);
            }
        }
        if composition.has_stockpiles() {
            let n = range(rng, self.rules.stockpiles_per_area);
            for _ in 0..n {
                if let Some(max) = self.rules.max_stockpiles.filter(|&max| self.tally.stockpiles >= max) {
                    map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || {
                        format!("{name}: stockpile: max_stockpiles {max} reached")
                    });
                    limit_hit(map, "max_stockpiles");
                    break;
                }
                self.stockpile(map, &area, rng);
            }
        }
        if composition.has_machines() {
            if area.open {
                self.scatter(map, &area, rng);
            } else {
                self.filler(map, &area, rng);
            }
        }
    }

    /// Why `rect` cannot hold an object in region `area`, or `None` when it can.
    /// `blocks` for machines: they must keep the cells around them connected.
    fn misfit(&mut self, map: &Map, rect: Rect, area: RegionId, blocks: bool) -> Option<Misfit> {
        if !map.bounds().contains_rect(&rect) {
            return Some(Misfit::NotFloor);
        }
        for p in rect.points() {
            let flags = self.flags[self.index(p)];
            if flags & cell::OPEN == 0 || map.region_of[p] != area {
                return Some(Misfit::NotFloor);
            }
        }
        let near = rect.expand(self.rules.spacing);
        if near.points().any(|p| self.has(map, p, cell::TAKEN)) {
            return Some(Misfit::Overlap);
        }
        if rect.points().any(|p| self.has(map, p, cell::CLEAR)) {
            return Some(Misfit::Doorway);
        }
        if blocks && !self.keeps_connected(map, rect) {
            return Some(Misfit::Path);
        }
        None
    }

    /// True when the passable cells beside `rect` (a step from it, outside it:
    /// its ring's corners too when walkers step diagonally) still reach each
    /// other through passable cells within two of `rect` once `rect` is solid.
    /// Then any path that crossed `rect` can go around it, so the map stays
    /// connected: a local check, never a flood of the whole map.
    fn keeps_connected(&mut self, map: &Map, rect: Rect) -> bool {
        let window = rect.expand(2);
        let ring = rect.expand(1);
        // A cell a step from `rect`: in its ring, and not on a corner unless
        // walkers step diagonally.
        let moves = map.moves;
        let steps_to = |p: Point| moves == Moves::Diagonal || shares_a_side(rect, p);
        let beside = |p: Point| ring.contains(p) && !rect.contains(p) && steps_to(p);
        let open = |p: Point| !rect.contains(p) && map.is_passable(p);
        // One walk around the ring: the passable cells beside `rect`, and
        // whether the passable ring cells form one run.
        let (mut first, mut count) = (None, 0u32);
        let mut ring_runs = RingRuns::default();
        // Inside the map, as nearly every ring is, its cells are read by index
        // with no bounds test per cell.
        let inside = map.bounds().contains_rect(&ring);
        let w = map.width();
        for p in rect.ring() {
            let passable = if inside { map.is_passable_at((p.y * w + p.x) as usize) } else { map.is_passable(p) };
            ring_runs.step(passable);
            if passable && steps_to(p) {
                count += 1;
                first.get_or_insert(p);
            }
        }
        let Some(first) = first else { return true };
        if count == 1 || ring_runs.is_one_run() {
            return true;
        }
        let local = |p: Point| ((p.y - window.y) * window.width + (p.x - window.x)) as usize;
        self.seen.clear();
        self.seen.resize((window.width * window.height) as usize, false);
        self.stack.clear();
        self.stack.push(first);
        self.seen[local(first)] = true;
        let mut reached = 0u32;
        while let Some(p) = self.stack.pop() {
            if beside(p) {
                reached += 1;
                if reached == count {
                    return true;
                }
            }
            for &step in moves.steps() {
                let q = p + step;
                if window.contains(q) && !self.seen[local(q)] && open(q) {
                    self.seen[local(q)] = true;
                    self.stack.push(q);
                }
            }
        }
        false
    }

    /// Places one object's footprint: marks its cells TAKEN and adds it.
    fn place(&mut self, map: &mut Map, object: Object) {
        for &(p, _) in &object.cells {
            let i = self.index(p);
            self.flags[i] |= cell::TAKEN;
        }
        map.add_object(object);
    }
}

/// A room, hall or cavern being furnished.
struct Area<'n> {
    id: RegionId,
    inner: Rect,
    name: &'n str,
    /// A cavern: any shape, its bounds standing for the inner rectangle.
    open: bool,
}

fn describe_misfits(tally: &[u32; 4]) -> String {
    let parts: Vec<String> = Misfit::ALL
        .iter()
        .filter(|m| tally[**m as usize] > 0)
        .map(|m| format!("{} {}", tally[*m as usize], m.describe()))
        .collect();
    if parts.is_empty() { "it is larger than the inner rectangle".to_string() } else { parts.join(", ") }
}

/// The runs of passable cells met walking once around a machine's ring: when
/// they form at most one run around it, they all reach each other along the
/// ring itself, and a machine there cuts no path. Most places in open floor are
/// settled so, without a search.
#[derive(Default)]
struct RingRuns {
    runs: u32,
    gaps: u32,
    first: Option<bool>,
    last: Option<bool>,
}

impl RingRuns {
    /// The next cell of the walk.
    fn step(&mut self, passable: bool) {
        self.first.get_or_insert(passable);
        if self.last != Some(passable) {
            if passable {
                self.runs += 1;
            } else {
                self.gaps += 1;
            }
        }
        self.last = Some(passable);
    }

    /// True when the passable cells formed at most one run.
    fn is_one_run(&self) -> bool {
        // A run that wraps from the walk's end back to its start was counted twice.
        let wraps = self.first == Some(true) && self.last == Some(true) && self.gaps > 0;
        self.runs - u32::from(wraps) <= 1
    }
}

/// True on a door or secret door.
fn is_door(map: &Map, p: Point) -> bool {
    map.terrain_at(p).is_some_and(|t| t.is_door())
}

/// Bits `0..len` (at most 64) set where `flag(x)`. Rooms and junctions are a
/// dozen cells across: a bit a cell costs less here than packing a word's 64
/// bytes.
#[inline]
pub(super) fn packed(len: usize, flag: impl Fn(usize) -> bool) -> u64 {
    (0..len.min(64)).fold(0, |word, x| word | u64::from(flag(x)) << x)
}

/// True when `q`, a cell of the ring around `rect`, shares a side with it (is not
/// one of the ring's corners).
fn shares_a_side(rect: Rect, q: Point) -> bool {
    (q.x >= rect.x && q.x < rect.right()) || (q.y >= rect.y && q.y < rect.bottom())
}

/// A uniform count in `c`.
fn range(rng: &mut Rng, c: Count) -> u32 {
    rng.range(c.lo as i32, c.hi as i32) as u32
}

/// An item, drawn with the glyph the catalog gives it, its cell written into
/// a list of the map's pools.
fn item_object(map: &mut Map, item: &Item, p: Point, furnished: Furnished) -> Object {
    Object {
        kind: ObjectKind::Item,
        tag: Some(item.tag.clone()),
        cells: map.pools.one_cell(p, item.glyph),
        prefab: None,
        keywords: Vec::new(),
        furnishing: Some(furnished),
        definition: None,
    }
}

/// Items furnishing may place at `depth`: no prototypes or faulty variants, of
/// `categories` (all when empty), rated within two below the depth; failing that,
/// those of the highest rating at or below it; failing that, the weakest.
fn item_pool<'c>(catalog: &'c Catalog, depth: u32, categories: &[String]) -> Vec<&'c Item> {
    // The catalog's lists of common items by rating, one per category named
    // (each once), or every category's: a lookup, not a pass over every item.
    let lists: Vec<&[u32]> = if categories.is_empty() {
        vec![catalog.ranked_items(None, false)]
    } else {
        let named: std::collections::BTreeSet<&str> = categories.iter().map(String::as_str).collect();
        named.into_iter().map(|c| catalog.ranked_items(Some(c), false)).collect()
    };
    let near = catalog.items_rated(&lists, depth.saturating_sub(2)..=depth);
    if !near.is_empty() {
        return near;
    }
    let rating = catalog.best_rating_up_to(&lists, depth).or_else(|| catalog.lowest_rating(&lists));
    rating.map_or_else(Vec::new, |r| catalog.items_rated(&lists, r..=r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{FloorKind, Role, Terrain};

    /// A corridor along row 2, a room below it through a door, a second room
    /// behind the first, and a closet no corridor reaches.
    pub(super) fn rooms_behind_rooms() -> Map {
        let mut map = Map::new(1, "t", 1, 24, 10);
        let mut set = |x0: i32, y0: i32, x1: i32, y1: i32, t: Terrain| {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    map.terrain[Point::new(x, y)] = t;
                }
            }
        };
        set(1, 2, 18, 2, Terrain::floor(FloorKind::Corridor));
        set(5, 3, 5, 3, Terrain::new(Role::Door));
        set(3, 4, 8, 7, Terrain::floor(FloorKind::Room));
        set(9, 5, 9, 5, Terrain::new(Role::Door));
        set(10, 4, 14, 7, Terrain::floor(FloorKind::Room));
        set(20, 5, 22, 7, Terrain::floor(FloorKind::Room));
        map
    }

    #[test]
    fn a_machine_that_would_cut_a_path_is_refused_and_one_in_open_floor_is_not() {
        let map = rooms_behind_rooms();
        let rules = Furnishing::plain();
        let catalog = Catalog::default();
        let mut f = Furnisher::new(&map, &catalog, &rules, 1);
        // The corridor is one cell high: a machine on it cuts it.
        assert!(!f.keeps_connected(&map, Rect::new(10, 2, 1, 1)));
        // The door between the rooms, and the cell in front of it, are the only way on.
        assert!(!f.keeps_connected(&map, Rect::new(8, 5, 1, 1)));
        // Inside the first room, away from the doors, the floor goes around it.
        assert!(f.keeps_connected(&map, Rect::new(6, 5, 1, 2)));
        // A 2x2 block at the room's west wall leaves a way around (the ring is one run).
        assert!(f.keeps_connected(&map, Rect::new(3, 5, 2, 2)));
        // Spanning the room's height, it would cut the west end off.
        assert!(!f.keeps_connected(&map, Rect::new(4, 4, 1, 4)));
    }
}
