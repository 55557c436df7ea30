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

use crate::content::catalog::{Catalog, Item, Prop};
use crate::content::furnishing::{Composition, Count, Furnishing, StrewnDebris};
use crate::geom::{Dir, Point, Rect, Transform};
use crate::map::{
    FloorKind, FurnishPart, Furnished, Map, NO_REGION, Object, ObjectKind, RegionId, RegionKind, Role, mask,
};
use crate::prefab::art;
use crate::rng::Rng;
use crate::trace::Outcome;

/// Per-cell flags of the stage's own view of the map.
mod cell {
    /// Floor furnishing may use: walkable floor, not protected, spawn-blocked, solid
    /// or inside a placed prefab, no link mark.
    pub const OPEN: u8 = 1;
    /// An object stands here.
    pub const TAKEN: u8 = 2;
    /// Just inside a way into an area: no machine or stockpile may stand here.
    pub const CLEAR: u8 = 4;
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
    places: Vec<(Rect, Transform, Dir)>,
    tally: Tally,
}

/// Runs the stage.
pub(crate) fn run(map: &mut Map, catalog: &Catalog, rules: &Furnishing, seed: u64) {
    let mut f = Furnisher {
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
        tally: Tally::default(),
    };
    let areas = f.areas(map);
    for (weights, kind) in [(&rules.halls, "halls"), (&rules.rooms, "rooms")] {
        if weights.iter().all(|&w| w == 0) {
            let note = format!("{kind} are not furnished: no composition for {kind} has a weight");
            map.trace.push("furnishing", Outcome::Note, note);
        }
    }
    let of_kind = |kind: RegionKind| areas.iter().filter(|&&id| map.regions[id as usize].kind == kind).count();
    let caverns = match of_kind(RegionKind::Cave) {
        0 => String::new(),
        n => format!(", {n} caverns"),
    };
    map.trace.push(
        "furnishing",
        Outcome::Note,
        format!(
            "{} halls{caverns} and {} rooms to furnish; interactive machines: {}; stockpiles: {}",
            of_kind(RegionKind::Hall),
            of_kind(RegionKind::Room),
            limit(rules.max_interactive),
            limit(rules.max_stockpiles),
        ),
    );
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
    map.trace.push("furnishing", Outcome::Note,
        format!(
            "{} of {total} areas drew a composition that places something; placed {} interactive machines, {} filler machines, {} stockpiles of {} items, {} terminals, {} loose items{debris}",
            t.areas, t.interactive, t.fillers, t.stockpiles, t.stockpile_items, t.terminals, t.items
        ),
    );
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
            if matches!(t.role, Role::Floor(_)) && !held { cell::OPEN } else { 0 }
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
        let bounds = map.regions[id as usize].bounds;
        let (w, h) = (map.width(), map.height());
        let (terrain, region_of) = (map.terrain.cells(), map.region_of.cells());
        // Read by index, not by point: every cell of every furnished area asks.
        let way_in = |x: i32, y: i32| {
            let j = (y * w + x) as usize;
            (0..w).contains(&x)
                && (0..h).contains(&y)
                && (matches!(terrain[j].role, Role::Door | Role::SecretDoor)
                    || terrain[j].role.is_walkable() && region_of[j] != id)
        };
        for y in bounds.y..bounds.bottom() {
            for x in bounds.x..bounds.right() {
                let i = (y * w + x) as usize;
                if region_of[i] == id && (way_in(x, y - 1) || way_in(x + 1, y) || way_in(x, y + 1) || way_in(x - 1, y))
                {
                    self.flags[i] |= cell::CLEAR;
                }
            }
        }
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
        let name = format!("{} {id} ({}x{} at {}, {})", kind.name(), bounds.width, bounds.height, bounds.x, bounds.y);
        let Some(c) = rng.weighted(weights) else {
            map.trace.push_at(
                "furnishing",
                Outcome::Skipped,
                bounds,
                format!("{name}: no composition for {}s has a weight", kind.name()),
            );
            return;
        };
        let composition = Composition::ALL[c];
        map.trace.push_at("furnishing", Outcome::Chose, bounds, format!("{name}: composition `{composition}`"));
        let before = map.objects.len();
        self.furnish_with(map, id, composition, &name, &mut rng);
        let placed = (map.objects.len() - before) as u32;
        map.furnishing.areas.push((composition, placed));
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
            let why = format!("{name}: no inner rectangle is left inside a padding of {}", self.rules.padding);
            map.trace.push_at("furnishing", Outcome::Skipped, bounds, why);
            return;
        }
        let area = Area { id, inner, name, open };
        if composition.has_interactive() {
            if let Some(max) = self.rules.max_interactive.filter(|&max| self.tally.interactive >= max) {
                let why = format!("{name}: interactive machine: max_interactive {max} reached");
                map.trace.push_at("furnishing", Outcome::Skipped, area.inner, why);
                limit_hit(map, "max_interactive");
            } else {
                self.interactive(map, &area, rng);
            }
        }
        if composition.has_stockpiles() {
            let n = range(rng, self.rules.stockpiles_per_area);
            for _ in 0..n {
                if let Some(max) = self.rules.max_stockpiles.filter(|&max| self.tally.stockpiles >= max) {
                    let why = format!("{name}: stockpile: max_stockpiles {max} reached");
                    map.trace.push_at("furnishing", Outcome::Skipped, area.inner, why);
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

    /// True when the passable cells beside `rect` (4-adjacent, outside it) still
    /// reach each other through passable cells within two of `rect` once `rect` is
    /// solid. Then any path that crossed `rect` can go around it, so the map stays
    /// connected: a local check, never a flood of the whole map.
    fn keeps_connected(&mut self, map: &Map, rect: Rect) -> bool {
        let window = rect.expand(2);
        let ring = rect.expand(1);
        // A cell 4-adjacent to `rect`: in its ring, not on a corner.
        let beside = |p: Point| ring.contains(p) && !rect.contains(p) && shares_a_side(rect, p);
        let open = |p: Point| !rect.contains(p) && map.is_passable(p);
        let mut first = None;
        let mut count = 0u32;
        for p in rect.ring() {
            if beside(p) && open(p) {
                count += 1;
                first.get_or_insert(p);
            }
        }
        let Some(first) = first else { return true };
        if count == 1 || ring_is_one_run(map, rect) {
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
            for d in Dir::ALL {
                let q = p + d.delta();
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

    /// The interactive machine of an area's composition: a type by weight, then
    /// its machines from the depth's tier down until one has a place.
    fn interactive(&mut self, map: &mut Map, area: &Area<'_>, rng: &mut Rng) {
        let weights: Vec<u32> = self.rules.interactive_types.iter().map(|(_, w)| *w).collect();
        let Some(t) = rng.weighted(&weights) else {
            let why = format!("{}: interactive machine: no type has a weight", area.name);
            map.trace.push_at("furnishing", Outcome::Skipped, area.inner, why);
            return;
        };
        let machine_type = &self.rules.interactive_types[t].0;
        let tier = self.rules.tier_at(self.depth);
        let mut misfits = [0u32; 4];
        let mut tried: Vec<&str> = Vec::new();
        for prop in machines_for(self.catalog, machine_type, tier, rng) {
            match self.against_edge(map, area, turned_size(prop, Transform::IDENTITY), prop.rotate, true, rng) {
                Ok((rect, turn, pushed)) => {
                    let cells = art_cells(prop, rect, turn);
                    self.place(map, machine(prop, cells, FurnishPart::Interactive, area.id));
                    self.tally.interactive += 1;
                    let instead = if tried.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " ({} found no place)",
                            tried.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
                        )
                    };
                    let message = format!(
                        "{}: interactive `{}` ({machine_type}, tier {}){instead} {turn} at ({}, {}){}",
                        area.name,
                        prop.tag,
                        prop.tier,
                        rect.x,
                        rect.y,
                        pushed.describe()
                    );
                    map.trace.push_at("furnishing", Outcome::Chose, area.inner, message);
                    return;
                }
                Err(tally) => {
                    tried.push(&prop.tag);
                    for (sum, n) in misfits.iter_mut().zip(tally) {
                        *sum += n;
                    }
                }
            }
        }
        let why = format!(
            "{}: interactive {machine_type}: no machine of tier {tier} or below has a place on the inner rectangle's edge ({})",
            area.name,
            describe_misfits(&misfits)
        );
        map.trace.push_at("furnishing", Outcome::Skipped, area.inner, why);
    }

    /// A place for a `size` footprint on the edge of the area's inner rectangle,
    /// its back (north side, when `rotate`) to the nearest wall, then maybe pushed
    /// back against that wall. Returns the rectangle, the turn and what happened to
    /// the push, or how many places failed for each reason.
    fn against_edge(
        &mut self,
        map: &Map,
        area: &Area<'_>,
        size: (i32, i32),
        rotate: bool,
        blocks: bool,
        rng: &mut Rng,
    ) -> Result<(Rect, Transform, Push), [u32; 4]> {
        let mut places = std::mem::take(&mut self.places);
        places.clear();
        for side in Dir::ALL {
            let turn = if rotate { facing(side) } else { Transform::IDENTITY };
            let (w, h) = turn.apply_size(size.0, size.1);
            if area.open {
                // Anywhere on the cavern's floor with its back to the rock.
                backed_places(map, area.inner, side, w, h, &mut |r| places.push((r, turn, side)));
            } else {
                edge_places(area.inner, side, w, h, &mut |r| places.push((r, turn, side)));
            }
        }
        let found = self.first_fit(map, area, &mut places, blocks, rng);
        self.places = places;
        found
    }

    /// Tries `places` in a random order (drawing each next one only when the last
    /// failed, so a hall's long edges cost no more draws than the places tried) and
    /// places the first that fits, maybe pushed back against the wall.
    fn first_fit(
        &mut self,
        map: &Map,
        area: &Area<'_>,
        places: &mut [(Rect, Transform, Dir)],
        blocks: bool,
        rng: &mut Rng,
    ) -> Result<(Rect, Transform, Push), [u32; 4]> {
        let mut misfits = [0u32; 4];
        for k in 0..places.len() {
            let j = k + rng.index(places.len() - k).unwrap_or(0);
            places.swap(k, j);
            let (rect, turn, side) = places[k];
            match self.misfit(map, rect, area.id, blocks) {
                Some(m) => misfits[m as usize] += 1,
                None => {
                    // A cavern's places stand against the rock already.
                    let push = if area.open || !rng.percent(self.rules.push_chance) || self.rules.padding == 0 {
                        Push::NotTried
                    } else {
                        let pushed = shifted(rect, side, self.rules.padding);
                        match self.misfit(map, pushed, area.id, blocks) {
                            None => return Ok((pushed, turn, Push::Pushed(side))),
                            Some(m) => Push::Refused(side, m),
                        }
                    };
                    return Ok((rect, turn, push));
                }
            }
        }
        Err(misfits)
    }

    /// One stockpile: 3-9 items of 1-3 kinds (as the rules say) in a compact
    /// block, placed like an interactive machine.
    fn stockpile(&mut self, map: &mut Map, area: &Area<'_>, rng: &mut Rng) {
        let rules = self.rules;
        let n = range(rng, rules.stockpile_items).max(1);
        // The most items whose block fits the inner rectangle, down to the fewest
        // a stockpile may hold.
        let fit = |(w, h): (i32, i32)| w <= area.inner.width && h <= area.inner.height;
        let fits = |n: u32| {
            let (w, h) = pile_size(n);
            fit((w, h)) || fit((h, w))
        };
        let Some(n) = (rules.stockpile_items.lo.max(1)..=n).rev().find(|&k| fits(k)) else {
            let (w, h) = pile_size(rules.stockpile_items.lo.max(1));
            let why = format!(
                "{}: stockpile: even {} items ({w}x{h}) do not fit the {}x{} inner rectangle",
                area.name,
                rules.stockpile_items.lo.max(1),
                area.inner.width,
                area.inner.height
            );
            map.trace.push_at("furnishing", Outcome::Skipped, area.inner, why);
            return;
        };
        let (w, h) = pile_size(n);
        let size = match (fit((w, h)), fit((h, w))) {
            (true, true) if rng.coin() => (h, w),
            (true, _) => (w, h),
            _ => (h, w),
        };
        let pool = &self.stock_pool;
        let kinds =
            range(rng, Count { lo: rules.stockpile_types.lo.min(n), hi: rules.stockpile_types.hi.min(n) }).max(1);
        let mut order: Vec<usize> = (0..pool.len()).collect();
        rng.shuffle(&mut order);
        let chosen: Vec<&Item> = order.iter().take(kinds as usize).map(|&i| pool[i]).collect();
        if chosen.is_empty() {
            let why = format!("{}: stockpile: no item suits depth {}", area.name, self.depth);
            map.trace.push_at("furnishing", Outcome::Skipped, area.inner, why);
            return;
        }
        match self.against_edge(map, area, size, false, false, rng) {
            Ok((rect, _, pushed)) => {
                let mut cells: Vec<Point> = rect.points().collect();
                rng.shuffle(&mut cells);
                // Each kind gets one item, the rest go to kinds at random.
                let mut counts = vec![1u32; chosen.len()];
                for _ in chosen.len() as u32..n {
                    counts[rng.index(chosen.len()).unwrap_or(0)] += 1;
                }
                let pile = self.tally.stockpiles;
                let mut next = cells.into_iter();
                let mut names = Vec::new();
                for (item, &count) in chosen.iter().zip(&counts) {
                    names.push(format!("{count} `{}`", item.tag));
                    for p in next.by_ref().take(count as usize) {
                        let furnished =
                            Furnished { part: FurnishPart::Stockpile, region: Some(area.id), pile: Some(pile) };
                        self.place(map, item_object(item, p, furnished));
                    }
                }
                self.tally.stockpiles += 1;
                self.tally.stockpile_items += n;
                map.trace.push_at(
                    "furnishing",
                    Outcome::Chose,
                    area.inner,
                    format!(
                        "{}: stockpile of {} at ({}, {}){}",
                        area.name,
                        names.join(", "),
                        rect.x,
                        rect.y,
                        pushed.describe()
                    ),
                );
            }
            Err(tally) => {
                let why = format!(
                    "{}: stockpile of {}: no place on the inner rectangle's edge ({})",
                    area.name,
                    count_of(n, "item", "items"),
                    describe_misfits(&tally)
                );
                map.trace.push_at("furnishing", Outcome::Skipped, area.inner, why);
            }
        }
    }

    /// The filler: the largest array of one machine of a themed set that fits the
    /// inner rectangle, at a random offset; members that do not fit are dropped,
    /// and maybe one is swapped for a different machine of the set no larger.
    fn filler(&mut self, map: &mut Map, area: &Area<'_>, rng: &mut Rng) {
        let weights: Vec<u32> = self.rules.sets.iter().map(|(_, w)| *w).collect();
        let Some(s) = rng.weighted(&weights) else {
            map.trace.push_at(
                "furnishing",
                Outcome::Skipped,
                area.inner,
                format!("{}: filler: no set has a weight", area.name),
            );
            return;
        };
        let set = self.rules.sets[s].0.as_str();
        let mut members: Vec<&Prop> = self.catalog.set_members(set).collect();
        rng.shuffle(&mut members);
        let gap = self.rules.spacing;
        // The first machine, in shuffled order, of which an array of one or more fits.
        let mut pick = None;
        for &prop in &members {
            let mut best: Vec<(Transform, i32, i32)> = Vec::new();
            let mut most = 0;
            for turn in turns(prop.rotate) {
                let (w, h) = turned_size(prop, turn);
                let (nx, ny) = ((area.inner.width + gap) / (w + gap), (area.inner.height + gap) / (h + gap));
                if nx * ny > most {
                    most = nx * ny;
                    best.clear();
                }
                if nx * ny == most && most > 0 {
                    best.push((turn, nx, ny));
                }
            }
            if let Some(&choice) = rng.pick(&best) {
                pick = Some((prop, choice));
                break;
            }
        }
        let Some((prop, (turn, nx, ny))) = pick else {
            let why = format!("{}: filler: no machine of set `{set}` fits the inner rectangle", area.name);
            map.trace.push_at("furnishing", Outcome::Skipped, area.inner, why);
            return;
        };
        let (w, h) = turned_size(prop, turn);
        let (span_w, span_h) = (nx * (w + gap) - gap, ny * (h + gap) - gap);
        let origin = Point::new(
            area.inner.x + rng.range(0, area.inner.width - span_w),
            area.inner.y + rng.range(0, area.inner.height - span_h),
        );
        let odd = if nx * ny > 1 && rng.percent(self.rules.odd_one_chance) {
            let smaller: Vec<(&Prop, Transform)> = members
                .iter()
                .filter(|m| m.tag != prop.tag)
                .flat_map(|&m| turns(m.rotate).map(move |t| (m, t)))
                .filter(|(m, t)| {
                    let (mw, mh) = turned_size(m, *t);
                    mw <= w && mh <= h
                })
                .collect();
            rng.pick(&smaller).map(|&(m, t)| (rng.below((nx * ny) as u32) as i32, m, t))
        } else {
            None
        };
        let mut misfits = [0u32; 4];
        let mut placed = 0;
        let mut swapped = None;
        for k in 0..nx * ny {
            let at = origin + Point::new((k % nx) * (w + gap), (k / nx) * (h + gap));
            let (member, member_turn) = match odd {
                Some((j, m, t)) if j == k => (m, t),
                _ => (prop, turn),
            };
            let (mw, mh) = turned_size(member, member_turn);
            let rect = Rect::new(at.x, at.y, mw, mh);
            match self.misfit(map, rect, area.id, true) {
                Some(m) => misfits[m as usize] += 1,
                None => {
                    let cells = art_cells(member, rect, member_turn);
                    self.place(map, machine(member, cells, FurnishPart::Filler, area.id));
                    placed += 1;
                    if member.tag != prop.tag {
                        swapped = Some(member.tag.as_str());
                    }
                }
            }
        }
        self.tally.fillers += placed;
        let dropped: u32 = misfits.iter().sum();
        let mut message = format!(
            "{}: filler of set `{set}`: a {nx}x{ny} array of `{}` {turn} at ({}, {}): {placed} placed",
            area.name, prop.tag, origin.x, origin.y
        );
        if dropped > 0 {
            message.push_str(&format!(", {dropped} dropped ({})", describe_misfits(&misfits)));
        }
        if let Some(tag) = swapped {
            message.push_str(&format!(", one swapped for `{tag}`"));
        }
        let outcome = if placed > 0 { Outcome::Chose } else { Outcome::Skipped };
        map.trace.push_at("furnishing", outcome, area.inner, message);
    }

    /// Machines scattered over a cavern one by one, each a member of the area's
    /// set drawn anew, anywhere on its floor they keep their spacing and leave
    /// every way open.
    fn scatter(&mut self, map: &mut Map, area: &Area<'_>, rng: &mut Rng) {
        let weights: Vec<u32> = self.rules.sets.iter().map(|(_, w)| *w).collect();
        let Some(s) = rng.weighted(&weights) else {
            map.trace.push_at(
                "furnishing",
                Outcome::Skipped,
                area.inner,
                format!("{}: scatter: no set has a weight", area.name),
            );
            return;
        };
        let set = self.rules.sets[s].0.as_str();
        let members: Vec<&Prop> = self.catalog.set_members(set).collect();
        let wanted = range(rng, self.rules.scatter);
        let mut placed: Vec<String> = Vec::new();
        let mut misfits = [0u32; 4];
        let mut places = std::mem::take(&mut self.places);
        for _ in 0..wanted {
            let Some(&prop) = rng.pick(&members) else { break };
            let turn = Transform::new(if prop.rotate { rng.below(4) as u8 } else { 0 }, false);
            let (w, h) = turned_size(prop, turn);
            places.clear();
            let b = area.inner;
            for y in b.y..=b.bottom() - h {
                for x in b.x..=b.right() - w {
                    places.push((Rect::new(x, y, w, h), turn, Dir::North));
                }
            }
            match self.first_fit(map, area, &mut places, true, rng) {
                Ok((rect, turn, _)) => {
                    let cells = art_cells(prop, rect, turn);
                    self.place(map, machine(prop, cells, FurnishPart::Filler, area.id));
                    self.tally.fillers += 1;
                    placed.push(format!("`{}` at ({}, {})", prop.tag, rect.x, rect.y));
                }
                Err(tally) => {
                    for (sum, n) in misfits.iter_mut().zip(tally) {
                        *sum += n;
                    }
                }
            }
        }
        self.places = places;
        let mut message = format!("{}: scatter of set `{set}`: {} of {wanted} placed", area.name, placed.len());
        if !placed.is_empty() {
            message.push_str(&format!(" ({})", placed.join(", ")));
        }
        if placed.len() < wanted as usize {
            message.push_str(&format!("; the rest found no place ({})", describe_misfits(&misfits)));
        }
        let outcome = if placed.is_empty() { Outcome::Skipped } else { Outcome::Chose };
        map.trace.push_at("furnishing", outcome, area.inner, message);
    }

    /// Debris strewn on free floor beside the walls, anywhere on the map: each
    /// piece a tag drawn by weight (every debris of the catalog alike when the
    /// rules name none) on a cell drawn from those left.
    fn strew_debris(&mut self, map: &mut Map, rules: &StrewnDebris) {
        let mut rng = Rng::stream(self.seed, "furnishing", "debris");
        let wanted = range(&mut rng, rules.count);
        let tags: Vec<(&str, u32)> = if rules.tags.is_empty() {
            self.catalog.debris().iter().map(|d| (d.tag.as_str(), 1)).collect()
        } else {
            rules.tags.iter().map(|(t, w)| (t.as_str(), *w)).collect()
        };
        let weights: Vec<u32> = tags.iter().map(|(_, w)| *w).collect();
        let free = |f: &Furnisher<'_>, p: Point| f.flags[f.index(p)] & (cell::OPEN | cell::TAKEN) == cell::OPEN;
        // Cells drawn at random until one is free floor beside a wall; the
        // list of every such cell only when a few dozen draws find none.
        let mut all: Option<Vec<Point>> = None;
        let mut strewn = 0;
        for _ in 0..wanted {
            let Some(k) = rng.weighted(&weights) else { break };
            let drawn = (0..64).find_map(|_| {
                let p = Point::new(rng.range(0, map.width() - 1), rng.range(0, map.height() - 1));
                (free(self, p) && beside_wall(map, p)).then_some(p)
            });
            let p = match drawn {
                Some(p) => p,
                None => {
                    let cells = all.get_or_insert_with(|| {
                        map.bounds().points().filter(|&p| free(self, p) && beside_wall(map, p)).collect()
                    });
                    cells.retain(|&p| free(self, p));
                    let Some(i) = rng.index(cells.len()) else { break };
                    cells.swap_remove(i)
                }
            };
            let region = map.region_of.get(p).copied().filter(|&r| r != NO_REGION);
            let object = Object {
                kind: ObjectKind::Debris,
                tag: Some(tags[k].0.to_string()),
                cells: vec![(p, DEBRIS_GLYPH)],
                prefab: None,
                keywords: Vec::new(),
                furnishing: Some(Furnished { part: FurnishPart::Debris, region, pile: None }),
                definition: None,
            };
            self.place(map, object);
            strewn += 1;
        }
        self.tally.debris += strewn;
        let note = format!("debris: {strewn} of {wanted} pieces strewn beside the walls");
        map.trace.push("furnishing", if strewn < wanted { Outcome::Skipped } else { Outcome::Chose }, note);
    }

    /// Terminals in the junctions with the most ways in, one per junction.
    fn terminals(&mut self, map: &mut Map, count: Count, machine_type: &str) {
        let mut rng = Rng::stream(self.seed, "furnishing", "terminals");
        let wanted = range(&mut rng, count);
        let mut junctions: Vec<(u32, u32, RegionId)> = map
            .regions
            .iter()
            .filter(|r| r.kind == RegionKind::Junction && r.prefab.is_none())
            .map(|r| (ways_in(map, r.id), r.area, r.id))
            .collect();
        junctions.sort_by_key(|&(ways, area, id)| (std::cmp::Reverse(ways), std::cmp::Reverse(area), id));
        let tier = self.rules.tier_at(self.depth);
        let mut placed = 0;
        for &(ways, _, id) in &junctions {
            if placed >= wanted {
                break;
            }
            let machines = machines_for(self.catalog, machine_type, tier, &mut rng);
            let found =
                machines.iter().find_map(|&prop| self.terminal_place(map, id, prop, &mut rng).map(|at| (prop, at)));
            match found {
                Some((prop, (rect, turn))) => {
                    let cells = art_cells(prop, rect, turn);
                    self.place(map, machine(prop, cells, FurnishPart::Terminal, id));
                    placed += 1;
                    let message = format!(
                        "terminal `{}` (tier {}) at ({}, {}) in junction {id}, which has {ways} ways in",
                        prop.tag, prop.tier, rect.x, rect.y
                    );
                    map.trace.push_at("furnishing", Outcome::Chose, rect, message);
                }
                None => {
                    let why = format!(
                        "junction {id} ({ways} ways in): no cell against a wall, off the corridor mouths, where a {machine_type} of tier {tier} or below blocks no path"
                    );
                    map.trace.push("furnishing", Outcome::Skipped, why);
                }
            }
        }
        self.tally.terminals = placed;
        if placed < wanted {
            let note =
                format!("placed {placed} of {wanted} terminals: the {} junctions had no more room", junctions.len());
            map.trace.push("furnishing", Outcome::Note, note);
        }
    }

    /// A place for a terminal in junction `id`: against a wall, off doors, keeping
    /// the junction's paths connected.
    fn terminal_place(&mut self, map: &Map, id: RegionId, prop: &Prop, rng: &mut Rng) -> Option<(Rect, Transform)> {
        let bounds = map.regions[id as usize].bounds;
        let mut places: Vec<(Rect, Transform)> = Vec::new();
        for turn in turns(prop.rotate) {
            let (w, h) = turned_size(prop, turn);
            for p in bounds.points() {
                let rect = Rect::new(p.x, p.y, w, h);
                if !bounds.contains_rect(&rect) || rect.ring().any(|q| is_door(map, q)) {
                    continue;
                }
                // Against a wall (sharing a side with one), and off the mouths
                // where corridors enter the junction.
                let sides = || rect.ring().filter(|&q| shares_a_side(rect, q));
                let against_wall = sides().any(|q| !map.is_walkable(q));
                let at_a_mouth = sides().any(|q| map.is_walkable(q) && map.region_of.get(q) != Some(&id));
                if against_wall && !at_a_mouth {
                    places.push((rect, turn));
                }
            }
        }
        for k in 0..places.len() {
            let j = k + rng.index(places.len() - k).unwrap_or(0);
            places.swap(k, j);
            if self.misfit(map, places[k].0, id, true).is_none() {
                return Some(places[k]);
            }
        }
        None
    }

    /// A uniformly random open floor cell with no object on it: a few random cells
    /// of the map are tried first (floor is a fair share of any map), the list of
    /// every free cell is built only when they all miss.
    fn random_free_cell(&self, map: &Map, rng: &mut Rng) -> Option<Point> {
        let free = |p: Point| self.flags[self.index(p)] & (cell::OPEN | cell::TAKEN) == cell::OPEN;
        for _ in 0..64 {
            let p = Point::new(rng.range(0, map.width() - 1), rng.range(0, map.height() - 1));
            if free(p) {
                return Some(p);
            }
        }
        let all: Vec<Point> = map.bounds().points().filter(|&p| free(p)).collect();
        rng.pick(&all).copied()
    }

    /// Loose items anywhere on open floor; an item `r` ratings above the weakest
    /// of its pool draws `1 + 2r` candidate cells and takes the most secluded.
    fn loose_items(&mut self, map: &mut Map, count: Count, categories: &[String]) {
        let mut rng = Rng::stream(self.seed, "furnishing", "items");
        let wanted = range(&mut rng, count);
        let pool = item_pool(self.catalog, self.depth, categories);
        let Some(weakest) = pool.iter().map(|i| i.rating).min() else {
            if wanted > 0 {
                let why = format!("loose items: no item suits depth {}", self.depth);
                map.trace.push("furnishing", Outcome::Skipped, why);
            }
            return;
        };
        let mut seclusion = Seclusion::new(map);
        for _ in 0..wanted {
            let Some(&item) = rng.pick(&pool) else { break };
            let draws = (1 + 2 * (item.rating - weakest)).min(9);
            let mut best: Option<Point> = None;
            let mut most = 0;
            for _ in 0..draws {
                let Some(p) = self.random_free_cell(map, &mut rng) else { break };
                let secluded = seclusion.of(map, p);
                if best.is_none() || secluded > most {
                    (best, most) = (Some(p), secluded);
                }
            }
            let Some(p) = best else {
                map.trace.push("furnishing", Outcome::Skipped, "loose items: no free floor left".to_string());
                break;
            };
            let region = map.region_of.get(p).copied().filter(|&r| r != NO_REGION);
            let furnished = Furnished { part: FurnishPart::Item, region, pile: None };
            self.place(map, item_object(item, p, furnished));
            self.tally.items += 1;
            let message = format!(
                "item `{}` (rating {}) at ({}, {}): seclusion {}, the most secluded of {draws} cells drawn",
                item.tag,
                item.rating,
                p.x,
                p.y,
                if most == u32::MAX { "unreached".to_string() } else { most.to_string() }
            );
            map.trace.push_at("furnishing", Outcome::Chose, Rect::new(p.x, p.y, 1, 1), message);
        }
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

/// How strewn debris is drawn (its tag says what it is).
const DEBRIS_GLYPH: char = ',';

/// True when one of the 8 cells around `p` is solid ground (not walkable).
fn beside_wall(map: &Map, p: Point) -> bool {
    (-1..=1).any(|dy| (-1..=1).any(|dx| (dx, dy) != (0, 0) && !map.is_walkable(p + Point::new(dx, dy))))
}

/// Every `w × h` rectangle inside `inner` whose side `side` has solid ground all
/// along it, just outside: a place with its back to the wall in an area of any
/// shape (whether it stands on the area's floor is checked when it is tried).
fn backed_places(map: &Map, inner: Rect, side: Dir, w: i32, h: i32, out: &mut dyn FnMut(Rect)) {
    let (width, height) = (map.width(), map.height());
    let terrain = map.terrain.cells();
    // Off the map is solid. Read by index: a cavern offers every cell.
    let solid = |x: i32, y: i32| {
        !((0..width).contains(&x) && (0..height).contains(&y) && terrain[(y * width + x) as usize].role.is_walkable())
    };
    for y in inner.y..=inner.bottom() - h {
        for x in inner.x..=inner.right() - w {
            let backed = match side {
                Dir::North => (x..x + w).all(|bx| solid(bx, y - 1)),
                Dir::South => (x..x + w).all(|bx| solid(bx, y + h)),
                Dir::West => (y..y + h).all(|by| solid(x - 1, by)),
                Dir::East => (y..y + h).all(|by| solid(x + w, by)),
            };
            if backed {
                out(Rect::new(x, y, w, h));
            }
        }
    }
}

/// What happened when a placement tried to push back against the wall.
#[derive(Copy, Clone, Debug)]
enum Push {
    /// The push chance did not come up (or there is no padding to close).
    NotTried,
    /// Pushed against the wall on this side.
    Pushed(Dir),
    /// Not pushed: that would have broken a rule.
    Refused(Dir, Misfit),
}

impl Push {
    fn describe(self) -> String {
        match self {
            Push::NotTried => String::new(),
            Push::Pushed(side) => format!(", pushed against the {} wall", side.name()),
            Push::Refused(side, why) => {
                format!(", not pushed against the {} wall: it would stand {}", side.name(), why.describe())
            }
        }
    }
}

fn describe_misfits(tally: &[u32; 4]) -> String {
    let parts: Vec<String> = Misfit::ALL
        .iter()
        .filter(|m| tally[**m as usize] > 0)
        .map(|m| format!("{} {}", tally[*m as usize], m.describe()))
        .collect();
    if parts.is_empty() { "it is larger than the inner rectangle".to_string() } else { parts.join(", ") }
}

/// True when the passable cells of the ring just outside `rect` form one unbroken
/// run around it: then they all reach each other along the ring itself, and a
/// machine on `rect` cuts no path. Most places in open floor are settled here
/// without a search.
fn ring_is_one_run(map: &Map, rect: Rect) -> bool {
    let mut runs = 0;
    let mut gaps = 0;
    let mut last: Option<bool> = None;
    let mut first: Option<bool> = None;
    for p in rect.ring() {
        let open = map.is_passable(p);
        first.get_or_insert(open);
        if last != Some(open) {
            if open {
                runs += 1;
            } else {
                gaps += 1;
            }
        }
        last = Some(open);
    }
    // A run that wraps from the ring's end back to its start was counted twice.
    if first == Some(true) && last == Some(true) && gaps > 0 {
        runs -= 1;
    }
    runs <= 1
}

/// True on a door or secret door.
fn is_door(map: &Map, p: Point) -> bool {
    map.terrain_at(p).is_some_and(|t| matches!(t.role, Role::Door | Role::SecretDoor))
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

/// The quarter turn that puts a drawing's north edge on `side`.
fn facing(side: Dir) -> Transform {
    (0..4).map(|q| Transform::new(q, false)).find(|t| t.apply_dir(Dir::North) == side).unwrap_or(Transform::IDENTITY)
}

/// The four quarter turns when a machine may turn, else none.
fn turns(rotate: bool) -> impl Iterator<Item = Transform> {
    (0..if rotate { 4 } else { 1 }).map(|q| Transform::new(q, false))
}

/// A prop's width and height once turned by `turn`.
fn turned_size(p: &Prop, turn: Transform) -> (i32, i32) {
    turn.apply_size(i32::from(p.size.0), i32::from(p.size.1))
}

/// Every `w × h` rectangle inside `inner` touching its edge on `side`.
fn edge_places(inner: Rect, side: Dir, w: i32, h: i32, out: &mut dyn FnMut(Rect)) {
    if w > inner.width || h > inner.height {
        return;
    }
    match side {
        Dir::North | Dir::South => {
            let y = if side == Dir::North { inner.y } else { inner.bottom() - h };
            for x in inner.x..=inner.right() - w {
                out(Rect::new(x, y, w, h));
            }
        }
        Dir::West | Dir::East => {
            let x = if side == Dir::West { inner.x } else { inner.right() - w };
            for y in inner.y..=inner.bottom() - h {
                out(Rect::new(x, y, w, h));
            }
        }
    }
}

/// The block a stockpile of `n` items fills: the narrowest near-square that holds
/// them (3 and 4 items 2x2, 5 and 6 items 3x2, up to 9 items 3x3).
fn pile_size(n: u32) -> (i32, i32) {
    let w = (1..=n).find(|w| w * w >= n).unwrap_or(n);
    (w as i32, n.div_ceil(w.max(1)) as i32)
}

/// `rect` moved `n` cells towards `side`.
fn shifted(rect: Rect, side: Dir, n: i32) -> Rect {
    let d = side.delta();
    Rect::new(rect.x + d.x * n, rect.y + d.y * n, rect.width, rect.height)
}

/// The cells of a machine turned by `turn` with its top-left at `rect`'s, and the
/// glyph of each, in reading order.
fn art_cells(prop: &Prop, rect: Rect, turn: Transform) -> Vec<(Point, char)> {
    let back = turn.inverse();
    rect.points()
        .map(|p| {
            let local = p - Point::new(rect.x, rect.y);
            let source = back.apply_point(local, rect.width, rect.height);
            (p, art::turn(prop.glyph(source.x, source.y), turn))
        })
        .collect()
}

fn machine(prop: &Prop, cells: Vec<(Point, char)>, part: FurnishPart, region: RegionId) -> Object {
    Object {
        kind: ObjectKind::Machine,
        tag: Some(prop.tag.clone()),
        cells,
        prefab: None,
        keywords: Vec::new(),
        furnishing: Some(Furnished { part, region: Some(region), pile: None }),
        definition: None,
    }
}

/// An item drawn as its rating's last digit (items are digits, after seed 000).
fn item_object(item: &Item, p: Point, furnished: Furnished) -> Object {
    let glyph = char::from_digit(item.rating % 10, 10).unwrap_or('*');
    Object {
        kind: ObjectKind::Item,
        tag: Some(item.tag.clone()),
        cells: vec![(p, glyph)],
        prefab: None,
        keywords: Vec::new(),
        furnishing: Some(furnished),
        definition: None,
    }
}

/// The interactive machines of `machine_type` to try for `tier`, best first: those
/// of the highest tier at or below it (in a random order), then each lower tier
/// in turn; when the catalog has none that low, its lowest tier.
fn machines_for<'c>(catalog: &'c Catalog, machine_type: &str, tier: u32, rng: &mut Rng) -> Vec<&'c Prop> {
    let mut of_type: Vec<&'c Prop> = catalog.machines_of_type(machine_type).collect();
    let lowest = of_type.iter().map(|p| p.tier).min().unwrap_or(1);
    of_type.retain(|p| p.tier <= tier.max(lowest));
    rng.shuffle(&mut of_type);
    // A stable sort keeps the shuffled order within a tier.
    of_type.sort_by_key(|p| std::cmp::Reverse(p.tier));
    of_type
}

/// Items furnishing may place at `depth`: no prototypes or faulty variants, of
/// `categories` (all when empty), rated within two below the depth; failing that,
/// those of the highest rating at or below it; failing that, the weakest.
fn item_pool<'c>(catalog: &'c Catalog, depth: u32, categories: &[String]) -> Vec<&'c Item> {
    let usable: Vec<&Item> = catalog
        .items()
        .iter()
        .filter(|i| !i.prototype && !catalog.is_faulty_variant(&i.tag))
        .filter(|i| categories.is_empty() || categories.contains(&i.category))
        .collect();
    let near: Vec<&Item> = usable.iter().copied().filter(|i| i.rating <= depth && i.rating + 2 >= depth).collect();
    if !near.is_empty() {
        return near;
    }
    let rating =
        usable.iter().map(|i| i.rating).filter(|&r| r <= depth).max().or_else(|| usable.iter().map(|i| i.rating).min());
    usable.into_iter().filter(|i| Some(i.rating) == rating).collect()
}

/// How many distinct regions and doors open onto junction `id`: its traffic.
fn ways_in(map: &Map, id: RegionId) -> u32 {
    let bounds = map.regions[id as usize].bounds;
    let mut neighbours: Vec<u32> = Vec::new();
    for p in bounds.ring() {
        if !map.is_walkable(p) {
            continue;
        }
        let key = match map.region_of.get(p) {
            Some(&r) if r != NO_REGION && r != id => r,
            // A door or other cell of no region counts on its own.
            _ => u32::MAX - map.terrain.index_of(p).unwrap_or(0) as u32,
        };
        if !neighbours.contains(&key) {
            neighbours.push(key);
        }
    }
    neighbours.len() as u32
}

/// How secluded a cell is: its walking distance, through passable cells, from the
/// nearest corridor, junction or cave passage cell: 0 on those, growing into
/// rooms behind rooms and into caverns; `u32::MAX` when no corridor can be reached. Found by a breadth-first
/// search from the cell that stops at the first corridor, so a map's few loose
/// items cost a few small searches rather than a flood of the whole map. Once the
/// searches together have visited as many cells as the map has, one search from
/// every corridor at once answers the rest, so the work never exceeds about two
/// floods whatever the map and the item count.
struct Seclusion {
    /// The search each cell was last seen by.
    seen: Vec<u16>,
    search: u16,
    frontier: Vec<Point>,
    next: Vec<Point>,
    /// Cells visited by the searches so far.
    work: usize,
    /// Every cell's seclusion, once the searches have cost a flood.
    flooded: Option<Vec<u32>>,
}

impl Seclusion {
    fn new(map: &Map) -> Seclusion {
        let cells = map.terrain.cells().len();
        Seclusion { seen: vec![0; cells], search: 0, frontier: Vec::new(), next: Vec::new(), work: 0, flooded: None }
    }

    fn of(&mut self, map: &Map, p: Point) -> u32 {
        let w = map.width();
        let index = |q: Point| (q.y * w + q.x) as usize;
        if let Some(all) = &self.flooded {
            return all[index(p)];
        }
        if self.work > self.seen.len() {
            let all = flood_seclusion(map);
            let answer = all[index(p)];
            self.flooded = Some(all);
            return answer;
        }
        if is_busy(map, p) {
            return 0;
        }
        if self.search == u16::MAX {
            self.seen.fill(0);
            self.search = 0;
        }
        self.search += 1;
        self.frontier.clear();
        self.frontier.push(p);
        self.seen[index(p)] = self.search;
        let mut distance = 0u32;
        while !self.frontier.is_empty() {
            distance += 1;
            self.next.clear();
            for &c in &self.frontier {
                for d in Dir::ALL {
                    let q = c + d.delta();
                    if !map.is_passable(q) || self.seen[index(q)] == self.search {
                        continue;
                    }
                    if is_busy(map, q) {
                        return distance;
                    }
                    self.seen[index(q)] = self.search;
                    self.next.push(q);
                }
            }
            self.work += self.next.len();
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        u32::MAX
    }
}

/// True on corridor and junction floor and in a cave's passages: the busy ways
/// seclusion is measured from.
fn is_busy(map: &Map, p: Point) -> bool {
    map.terrain_at(p).is_some_and(|t| matches!(t.role, Role::Floor(FloorKind::Corridor | FloorKind::Junction)))
        || map.region_at(p).is_some_and(|r| r.kind == RegionKind::Passage)
}

/// Every cell's seclusion at once: a breadth-first search from every passable
/// corridor, junction and passage cell.
fn flood_seclusion(map: &Map) -> Vec<u32> {
    let bounds = map.bounds();
    let mut distance = vec![u32::MAX; map.terrain.cells().len()];
    let mut queue: std::collections::VecDeque<Point> = std::collections::VecDeque::new();
    for p in bounds.points() {
        if is_busy(map, p) && map.is_passable(p) {
            distance[map.terrain.index_of(p).unwrap_or(0)] = 0;
            queue.push_back(p);
        }
    }
    while let Some(p) = queue.pop_front() {
        let next = distance[map.terrain.index_of(p).unwrap_or(0)] + 1;
        for d in Dir::ALL {
            let q = p + d.delta();
            if let Some(j) = map.terrain.index_of(q)
                && distance[j] == u32::MAX
                && map.is_passable(q)
            {
                distance[j] = next;
                queue.push_back(q);
            }
        }
    }
    distance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Terrain;

    /// A corridor along row 2, a room below it through a door, a second room
    /// behind the first, and a closet no corridor reaches.
    fn rooms_behind_rooms() -> Map {
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
    fn seclusion_searches_agree_with_the_flood() {
        let map = rooms_behind_rooms();
        let all = flood_seclusion(&map);
        let mut searches = Seclusion::new(&map);
        for p in map.bounds().points().filter(|&p| map.is_passable(p)) {
            assert_eq!(searches.of(&map, p), all[map.terrain.index_of(p).unwrap()], "at {p}");
        }
        // The corridor is 0; the first room's far corner is the door, the cell
        // inside it and 2 + 3 steps on; the room behind it further; the closet
        // unreached.
        assert_eq!(all[map.terrain.index_of(Point::new(5, 2)).unwrap()], 0);
        assert_eq!(all[map.terrain.index_of(Point::new(3, 7)).unwrap()], 1 + 1 + 2 + 3);
        assert!(all[map.terrain.index_of(Point::new(14, 7)).unwrap()] > 10);
        assert_eq!(all[map.terrain.index_of(Point::new(21, 6)).unwrap()], u32::MAX);
        // Past the work of one flood, the flood answers: the same numbers.
        searches.work = usize::MAX / 2;
        assert_eq!(searches.of(&map, Point::new(12, 6)), all[map.terrain.index_of(Point::new(12, 6)).unwrap()]);
        assert!(searches.flooded.is_some());
    }

    #[test]
    fn a_machine_that_would_cut_a_path_is_refused_and_one_in_open_floor_is_not() {
        let map = rooms_behind_rooms();
        let rules = Furnishing::plain();
        let catalog = Catalog::default();
        let mut f = Furnisher {
            rules: &rules,
            catalog: &catalog,
            stock_pool: Vec::new(),
            seed: 1,
            depth: 1,
            flags: open_floor(&map),
            width: map.width(),
            seen: Vec::new(),
            stack: Vec::new(),
            places: Vec::new(),
            tally: Tally::default(),
        };
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
