//! What the furnishing stage spreads over the whole map after the areas: terminals
//! in the busiest junctions, loose items in secluded cells, and debris strewn
//! beside walls.
//!
//! In: the map with its areas furnished. Out: more objects, each on open floor no
//! other object holds; every choice traced.

use super::machines::{art_cells, machine, machines_for, turned_size, turns};
use super::seclusion::Seclusion;
use super::{Furnisher, cell, is_door, item_object, item_pool, packed, range, shares_a_side};
use crate::content::catalog::{DEBRIS_GLYPH, Kind, Prop};
use crate::content::furnishing::{Count, StrewnDebris};
use crate::geom::{Point, Rect, Transform};
use crate::map::{FurnishPart, Furnished, Map, NO_REGION, Object, ObjectKind, RegionId, RegionKind};
use crate::rng::Rng;
use crate::trace::Outcome;

/// True when a terminal may stand on `rect` in junction `id`, its ring read
/// cell by cell: no door around it, against a wall (sharing a side with one),
/// and off the mouths where corridors enter the junction.
fn takes_terminal(map: &Map, id: RegionId, rect: Rect) -> bool {
    let sides = || rect.ring().filter(|&q| shares_a_side(rect, q));
    !rect.ring().any(|q| is_door(map, q))
        && sides().any(|q| !map.is_walkable(q))
        && !sides().any(|q| map.is_walkable(q) && map.region_of.get(q) != Some(&id))
}

/// The cells of a junction and the ring around it as bit rows (bit `x` of row
/// `y` for the cell `origin + (x, y)`): doors, cells a walker cannot stand on
/// (off the map too), and mouths, walkable cells of another region.
struct Around {
    origin: Point,
    door: Vec<u64>,
    wall: Vec<u64>,
    mouth: Vec<u64>,
}

impl Around {
    /// The rows for junction `id` with `bounds`; `None` when the ring around
    /// it is wider than a word.
    fn new(map: &Map, id: RegionId, bounds: Rect) -> Option<Around> {
        let outer = bounds.expand(1);
        if outer.width > 64 || outer.is_empty() {
            return None;
        }
        let origin = Point::new(outer.x, outer.y);
        let rows = |holds: &dyn Fn(Point) -> bool| {
            let row = |y: i32| packed(outer.width as usize, |x| holds(Point::new(outer.x + x as i32, y)));
            (outer.y..outer.bottom()).map(row).collect()
        };
        Some(Around {
            origin,
            door: rows(&|p| is_door(map, p)),
            wall: rows(&|p| !map.is_walkable(p)),
            mouth: rows(&|p| map.is_walkable(p) && map.region_of.get(p) != Some(&id)),
        })
    }

    /// [`takes_terminal`] for a rectangle inside the junction.
    fn takes_terminal(&self, r: Rect) -> bool {
        !self.ring_holds(&self.door, r, true)
            && self.ring_holds(&self.wall, r, false)
            && !self.ring_holds(&self.mouth, r, false)
    }

    /// True when a cell of `rows` lies on the ring around `r` (which lies in
    /// the junction): on its sides only, or on its corners too.
    fn ring_holds(&self, rows: &[u64], r: Rect, corners: bool) -> bool {
        let (x0, x1) = ((r.x - 1 - self.origin.x) as u32, (r.right() - self.origin.x) as u32);
        let (top, bottom) = ((r.y - 1 - self.origin.y) as usize, (r.bottom() - self.origin.y) as usize);
        let span = |from: u32, to: u32| (!0u64 >> (63 - (to - from))) << from;
        let across = if corners { span(x0, x1) } else { span(x0 + 1, x1 - 1) };
        let ends = (1u64 << x0) | (1u64 << x1);
        (rows[top] | rows[bottom]) & across != 0 || rows[top + 1..bottom].iter().any(|&row| row & ends != 0)
    }
}

impl Furnisher<'_> {
    /// Debris strewn on free floor beside the walls, anywhere on the map: each
    /// piece a tag drawn by weight (every debris of the catalog alike when the
    /// rules name none) on a cell drawn from those left.
    pub(super) fn strew_debris(&mut self, map: &mut Map, rules: &StrewnDebris) {
        let mut rng = Rng::stream(self.seed, "furnishing", "debris");
        let wanted = range(&mut rng, rules.count);
        let tags: Vec<(&str, u32)> = if rules.tags.is_empty() {
            self.catalog.debris().iter().map(|d| (d.tag.as_ref(), 1)).collect()
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
            let glyph = self.catalog.glyph_of(Kind::Debris, tags[k].0).unwrap_or(DEBRIS_GLYPH);
            let object = Object {
                kind: ObjectKind::Debris,
                tag: Some(tags[k].0.into()),
                cells: map.pools.one_cell(p, glyph),
                prefab: None,
                keywords: Vec::new(),
                furnishing: Some(Furnished { part: FurnishPart::Debris, region, pile: None }),
                definition: None,
            };
            self.place(map, object);
            strewn += 1;
        }
        self.tally.debris += strewn;
        map.trace.push_with(
            "furnishing",
            if strewn < wanted { Outcome::Skipped } else { Outcome::Chose },
            None,
            || format!("debris: {strewn} of {wanted} pieces strewn beside the walls"),
        );
    }

    /// Terminals in the junctions with the most ways in, one per junction.
    pub(super) fn terminals(&mut self, map: &mut Map, count: Count, machine_type: &str) {
        let mut rng = Rng::stream(self.seed, "furnishing", "terminals");
        let wanted = range(&mut rng, count);
        let mut seen = Vec::new();
        let mut junctions: Vec<(u32, u32, RegionId)> = Vec::new();
        for r in map.regions.iter().filter(|r| r.kind == RegionKind::Junction && r.prefab.is_none()) {
            junctions.push((ways_in(map, r.id, &mut seen), r.area, r.id));
        }
        junctions.sort_by_key(|&(ways, area, id)| (std::cmp::Reverse(ways), std::cmp::Reverse(area), id));
        let tier = self.rules.tier_at(self.depth);
        let mut placed = 0;
        for &(ways, _, id) in &junctions {
            if placed >= wanted {
                break;
            }
            let machines = machines_for(self.catalog, machine_type, tier, &mut rng);
            // Junctions are a few cells across: the cells around one as bit
            // rows, made once for every machine tried there.
            let around = Around::new(map, id, map.regions[id as usize].bounds);
            let found = machines
                .iter()
                .find_map(|&prop| self.terminal_place(map, id, around.as_ref(), prop, &mut rng).map(|at| (prop, at)));
            match found {
                Some((prop, (rect, turn))) => {
                    let cells = art_cells(&mut map.pools, prop, rect, turn);
                    self.place(map, machine(prop, cells, FurnishPart::Terminal, id));
                    placed += 1;
                    map.trace.push_with("furnishing", Outcome::Chose, rect, || {
                        format!(
                            "terminal `{}` (tier {}) at ({}, {}) in junction {id}, which has {ways} ways in",
                            prop.tag, prop.tier, rect.x, rect.y
                        )
                    });
                }
                None => {
                    map.trace.push_with("furnishing", Outcome::Skipped, None, || format!(
                        "junction {id} ({ways} ways in): no cell against a wall, off the corridor mouths, where a {machine_type} of tier {tier} or below blocks no path"
                    ));
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
    /// the junction's paths connected. `around` holds the junction's cells as
    /// bit rows when it is narrow enough.
    fn terminal_place(
        &mut self,
        map: &Map,
        id: RegionId,
        around: Option<&Around>,
        prop: &Prop,
        rng: &mut Rng,
    ) -> Option<(Rect, Transform)> {
        let bounds = map.regions[id as usize].bounds;
        let mut places: Vec<(Rect, Transform)> = Vec::new();
        for turn in turns(prop.rotate) {
            let (w, h) = turned_size(prop, turn);
            for p in bounds.points() {
                let rect = Rect::new(p.x, p.y, w, h);
                if !bounds.contains_rect(&rect) {
                    continue;
                }
                // Off doors, against a wall (sharing a side with one), and off
                // the mouths where corridors enter the junction.
                let fits = match around {
                    Some(a) => a.takes_terminal(rect),
                    None => takes_terminal(map, id, rect),
                };
                // Under the unit tests, every place is checked against the cells.
                #[cfg(test)]
                assert_eq!(fits, takes_terminal(map, id, rect), "terminal place {rect:?} in junction {id}");
                if fits {
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

    /// A uniformly random open floor cell with no object on it, off the ways
    /// through (in a room, hall or cavern, not a corridor or junction): a few
    /// random cells of the map are tried first (floor is a fair share of any
    /// map), the list of every such cell is built only when they all miss.
    fn random_free_cell(&self, map: &Map, rng: &mut Rng) -> Option<Point> {
        let off_the_way = |p: Point| {
            let region = map.region_of[p];
            region != NO_REGION
                && matches!(map.regions[region as usize].kind, RegionKind::Room | RegionKind::Hall | RegionKind::Cave)
        };
        let free = |p: Point| self.flags[self.index(p)] & (cell::OPEN | cell::TAKEN) == cell::OPEN && off_the_way(p);
        for _ in 0..64 {
            let p = Point::new(rng.range(0, map.width() - 1), rng.range(0, map.height() - 1));
            if free(p) {
                return Some(p);
            }
        }
        let all: Vec<Point> = map.bounds().points().filter(|&p| free(p)).collect();
        rng.pick(&all).copied()
    }

    /// Loose items on open floor in rooms, halls and caverns (never in a
    /// corridor or junction); an item `r` ratings above the weakest of its pool
    /// draws `3 + 2r` candidate cells (at most 9) and takes the most secluded,
    /// so every item lies out of the way and better ones further from it.
    pub(super) fn loose_items(&mut self, map: &mut Map, count: Count, categories: &[String]) {
        let mut rng = Rng::stream(self.seed, "furnishing", "items");
        let wanted = range(&mut rng, count);
        let pool = item_pool(self.catalog, self.depth, categories);
        let Some(weakest) = pool.iter().map(|i| i.rating).min() else {
            if wanted > 0 {
                map.trace.push_with("furnishing", Outcome::Skipped, None, || {
                    format!("loose items: no item suits depth {}", self.depth)
                });
            }
            return;
        };
        let mut seclusion = Seclusion::new(map);
        for _ in 0..wanted {
            let Some(&item) = rng.pick(&pool) else { break };
            let draws = (3 + 2 * (item.rating - weakest)).min(9);
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
            let object = item_object(map, item, p, furnished);
            self.place(map, object);
            self.tally.items += 1;
            map.trace.push_with("furnishing", Outcome::Chose, Rect::new(p.x, p.y, 1, 1), || {
                format!(
                    "item `{}` (rating {}) at ({}, {}): seclusion {}, the most secluded of {draws} cells drawn",
                    item.tag,
                    item.rating,
                    p.x,
                    p.y,
                    if most == u32::MAX { "unreached".to_string() } else { most.to_string() }
                )
            });
        }
    }
}

/// True when one of the 8 cells around `p` is solid ground (not walkable).
fn beside_wall(map: &Map, p: Point) -> bool {
    (-1..=1).any(|dy| (-1..=1).any(|dx| (dx, dy) != (0, 0) && !map.is_walkable(p + Point::new(dx, dy))))
}

/// How many distinct regions and doors open onto junction `id`: its traffic.
/// `neighbours` is scratch, cleared first.
fn ways_in(map: &Map, id: RegionId, neighbours: &mut Vec<u32>) -> u32 {
    let bounds = map.regions[id as usize].bounds;
    neighbours.clear();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::catalog::Catalog;
    use crate::content::furnishing::Count;
    use crate::content::furnishing::Furnishing;
    use crate::map::{FloorKind, Terrain};

    /// A crossing of four one-cell corridors in a junction of `size`x`size`
    /// cells at the centre of a 21x21 map; the corridors run to the map's edges
    /// but one.
    fn crossing(size: i32) -> Map {
        let mut map = Map::new(1, "t", 1, 21, 21);
        let lo = 10 - size / 2;
        let junction = Rect::new(lo, lo, size, size);
        let corridors = [Rect::new(1, 10, lo - 1, 1), Rect::new(lo + size, 10, 20 - lo - size, 1)];
        let corridors =
            corridors.into_iter().chain([Rect::new(10, 1, 1, lo - 1), Rect::new(10, lo + size, 1, 20 - lo - size)]);
        for (kind, rect) in corridors.map(|r| (RegionKind::Corridor, r)).chain([(RegionKind::Junction, junction)]) {
            let id = map.add_region(kind, rect);
            for p in rect.points() {
                map.terrain[p] = Terrain::floor(FloorKind::Corridor);
                map.region_of[p] = id;
            }
            map.regions[id as usize].area = (rect.width * rect.height) as u32;
        }
        map
    }

    /// The four corridor ends, each reachable from the first over passable cells.
    fn ends_connected(map: &Map) -> bool {
        let ends = [Point::new(1, 10), Point::new(19, 10), Point::new(10, 1), Point::new(10, 19)];
        let mut seen = vec![ends[0]];
        let mut k = 0;
        while k < seen.len() {
            let p = seen[k];
            for d in crate::geom::Dir::ALL {
                let q = p + d.delta();
                if map.is_passable(q) && !seen.contains(&q) {
                    seen.push(q);
                }
            }
            k += 1;
        }
        ends.iter().all(|e| seen.contains(e))
    }

    fn terminal_catalog() -> Catalog {
        let toml = "[[prop]]\ntag = \"post\"\ninteractive = true\ntype = \"terminal\"\nart = [\"≡\"]\n";
        crate::content::catalog::read(&[("c.toml", toml)]).unwrap()
    }

    #[test]
    fn a_four_way_junction_takes_a_terminal_in_a_corner_and_keeps_its_paths() {
        let catalog = terminal_catalog();
        let rules = Furnishing::plain();
        for seed in 0..20 {
            let mut map = crossing(3);
            assert_eq!(ways_in(&map, 4, &mut Vec::new()), 4, "four corridors meet in the junction");
            let mut f = Furnisher::new(&map, &catalog, &rules, seed);
            f.terminals(&mut map, Count { lo: 1, hi: 1 }, "terminal");
            let placed: Vec<Point> = map.objects.iter().map(|o| o.cells[0].0).collect();
            assert_eq!(placed.len(), 1, "seed {seed}");
            // A corner of the junction: against two walls, off all four mouths.
            let p = placed[0];
            assert!([9, 11].contains(&p.x) && [9, 11].contains(&p.y), "seed {seed}: {p}");
            assert!(ends_connected(&map), "seed {seed}: the terminal at {p} cut the crossing");
        }
    }

    #[test]
    fn a_one_cell_crossing_takes_no_terminal() {
        let catalog = terminal_catalog();
        let rules = Furnishing::plain();
        let mut map = crossing(1);
        assert_eq!(ways_in(&map, 4, &mut Vec::new()), 4);
        let mut f = Furnisher::new(&map, &catalog, &rules, 1);
        f.terminals(&mut map, Count { lo: 1, hi: 1 }, "terminal");
        assert!(map.objects.is_empty(), "a terminal there would block every way through");
        assert!(ends_connected(&map));
    }
}
