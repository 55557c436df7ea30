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

use super::Carver;
use crate::content::caves::CavesParams;
use crate::error::Error;
use crate::geom::{Dir, Point, Rect};
use crate::map::{CaveStats, FloorKind, LayoutStats, Map, RegionId, RegionKind, Role, Stage, Terrain, mask};
use crate::rng::Rng;
use crate::trace::Outcome;
use std::collections::VecDeque;

/// What each cell is to the caves.
const ROCK: u8 = 0;
const FLOOR: u8 = 1;
/// Kept as it is: the margin, features, barriers, the map's outer ring.
const FIXED: u8 = 2;

/// No label yet.
const NONE: u32 = u32::MAX;
/// A passage search's marks: a cell not reached yet, and a cell it starts from.
const UNSEEN: u32 = u32::MAX;
const SOURCE: u32 = u32::MAX - 1;

/// Builds the cave layout of `map`.
pub(super) fn build(map: &mut Map, params: &CavesParams, seed: u64) -> Result<LayoutStats, Error> {
    let mut caves = Caves::new(map, params);
    caves.grow(&mut Rng::stream(seed, "layout/caves", "fill"));
    let mut stats = CaveStats::default();
    let (areas, removed) = caves.fill_pockets();
    stats.caverns_before_joining = areas;
    stats.pockets_removed = removed;
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
    c.map.trace.push(
        "layout",
        Outcome::Note,
        format!(
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
        ),
    );
    Ok(LayoutStats { generator: "caves", fallback_paths, open_cells, caves: Some(stats), ..LayoutStats::default() })
}

/// The caves under construction, as one state byte per cell.
struct Caves<'p> {
    params: &'p CavesParams,
    width: i32,
    height: i32,
    cells: Vec<u8>,
    /// The features' link marks: where each leaves its prefab, its way out and
    /// the prefab's index.
    links: Vec<(Point, Dir, usize)>,
    /// The prefabs at least one of whose links a passage reached.
    joined: Vec<usize>,
    /// Labels and a queue for floods, reused.
    labels: Vec<u32>,
    queue: VecDeque<u32>,
}

impl<'p> Caves<'p> {
    fn new(map: &Map, params: &'p CavesParams) -> Caves<'p> {
        let (w, h) = (map.width(), map.height());
        let inside = map.bounds().expand(-params.margin);
        let cells = map
            .terrain
            .cells()
            .iter()
            .zip(map.masks.cells())
            .enumerate()
            .map(|(i, (t, m))| {
                let p = Point::new(i as i32 % w, i as i32 / w);
                if inside.contains(p) && t.role == Role::Earth && m & mask::PROTECTED == 0 { ROCK } else { FIXED }
            })
            .collect();
        let links = map
            .links
            .iter()
            .filter(|l| map.prefabs.get(l.prefab).is_some_and(|p| p.stage == Stage::Feature))
            .map(|l| (l.at, l.dir, l.prefab))
            .collect();
        Caves {
            params,
            width: w,
            height: h,
            cells,
            links,
            joined: Vec::new(),
            labels: vec![NONE; (w * h) as usize],
            queue: VecDeque::new(),
        }
    }

    fn index(&self, p: Point) -> usize {
        (p.y * self.width + p.x) as usize
    }

    fn inside(&self, p: Point) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// The random fill, then the automaton's rounds.
    fn grow(&mut self, rng: &mut Rng) {
        // One random byte a cell, eight from each draw: rock below the fill's
        // share of 256.
        let below = self.params.fill.0 * 256 / 100;
        let mut bits = 0u64;
        for (i, s) in self.cells.iter_mut().enumerate() {
            if i % 8 == 0 {
                bits = rng.next_u64();
            }
            let byte = u32::from((bits >> (8 * (i % 8))) as u8);
            if *s != FIXED {
                *s = if byte < below { ROCK } else { FLOOR };
            }
        }
        // Neighbour counts from row sums over a grid with a solid border (off
        // the map counts as rock): three additions a cell instead of eight
        // bounds-checked reads. Every cell of a round reads the round before.
        let (w, h) = (self.width as usize, self.height as usize);
        let pw = w + 2;
        let mut solid = vec![1u8; pw * (h + 2)];
        let mut across = vec![0u8; pw * (h + 2)];
        for _ in 0..self.params.iterations {
            for y in 0..h {
                let row = &self.cells[y * w..(y + 1) * w];
                for (x, &c) in row.iter().enumerate() {
                    solid[(y + 1) * pw + x + 1] = u8::from(c != FLOOR);
                }
            }
            for y in 0..h + 2 {
                let r = y * pw;
                for x in 1..pw - 1 {
                    across[r + x] = solid[r + x - 1] + solid[r + x] + solid[r + x + 1];
                }
            }
            for y in 0..h {
                for x in 0..w {
                    let i = y * w + x;
                    if self.cells[i] == FIXED {
                        continue;
                    }
                    let c = (y + 1) * pw + x + 1;
                    let rock = u32::from(across[c - pw] + across[c] + across[c + pw] - solid[c]);
                    self.cells[i] = match solid[c] {
                        1 if rock >= self.params.survival => ROCK,
                        0 if rock >= self.params.birth => ROCK,
                        _ => FLOOR,
                    };
                }
            }
        }
    }

    /// Labels the floor's 4-connected areas; returns each area's size by label.
    fn label_areas(&mut self) -> Vec<u32> {
        self.labels.iter_mut().for_each(|l| *l = NONE);
        // A search that stopped early may have left cells queued.
        self.queue.clear();
        let mut sizes = Vec::new();
        for start in 0..self.cells.len() {
            if self.cells[start] != FLOOR || self.labels[start] != NONE {
                continue;
            }
            let size = self.flood_label(start, sizes.len() as u32);
            sizes.push(size);
        }
        sizes
    }

    /// Gives `label` to the floor cell `start` and every unlabelled floor cell
    /// 4-connected to it; returns how many.
    fn flood_label(&mut self, start: usize, label: u32) -> u32 {
        let mut size = 0;
        self.labels[start] = label;
        self.queue.clear();
        self.queue.push_back(start as u32);
        while let Some(i) = self.queue.pop_front() {
            size += 1;
            let p = Point::new(i as i32 % self.width, i as i32 / self.width);
            for d in Dir::ALL {
                let q = p + d.delta();
                if self.inside(q) {
                    let j = self.index(q);
                    if self.cells[j] == FLOOR && self.labels[j] == NONE {
                        self.labels[j] = label;
                        self.queue.push_back(j as u32);
                    }
                }
            }
        }
        size
    }

    /// Fills in the areas smaller than `min_pocket` (all but the largest when
    /// every area is that small). Returns the areas found and those filled.
    fn fill_pockets(&mut self) -> (u32, u32) {
        let sizes = self.label_areas();
        let largest = (0..sizes.len()).max_by_key(|&k| (sizes[k], std::cmp::Reverse(k)));
        let small = |k: usize| sizes[k] < self.params.min_pocket && Some(k) != largest;
        let mut removed = 0;
        for k in 0..sizes.len() {
            removed += u32::from(small(k));
        }
        for i in 0..self.cells.len() {
            if self.cells[i] == FLOOR && small(self.labels[i] as usize) {
                self.cells[i] = ROCK;
            }
        }
        (sizes.len() as u32, removed)
    }

    /// Joins every area into one cave, growing out from the largest: a search
    /// through rock from everything joined so far; where it reaches an area not
    /// yet joined, the passage there is dug and that area (with the passage)
    /// joins the search's sources. One pass over the map, whatever the number
    /// of areas. Returns the passages dug.
    fn join_all(&mut self) -> u32 {
        let sizes = self.label_areas();
        if sizes.len() <= 1 {
            return 0;
        }
        let main = (0..sizes.len()).max_by_key(|&k| (sizes[k], std::cmp::Reverse(k))).unwrap_or(0) as u32;
        let mut joined = vec![false; sizes.len()];
        joined[main as usize] = true;
        // Each area's cells, to add as sources when it joins.
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); sizes.len()];
        for (i, &l) in self.labels.iter().enumerate() {
            if l != NONE && self.cells[i] == FLOOR {
                members[l as usize].push(i as u32);
            }
        }
        let mut came = vec![UNSEEN; self.cells.len()];
        self.queue.clear();
        for &i in &members[main as usize] {
            came[i as usize] = SOURCE;
            self.queue.push_back(i);
        }
        let mut dug = 0;
        while let Some(i) = self.queue.pop_front() {
            let p = Point::new(i as i32 % self.width, i as i32 / self.width);
            for d in Dir::ALL {
                let q = p + d.delta();
                if !self.inside(q) {
                    continue;
                }
                let j = self.index(q);
                if came[j] != UNSEEN {
                    continue;
                }
                let label = self.labels[j];
                if self.cells[j] == FLOOR && label != NONE && !joined[label as usize] {
                    // A new area: dig the way here, then search on from it too.
                    let path = self.walk_back(&came, i);
                    self.dig(&path);
                    dug += 1;
                    joined[label as usize] = true;
                    for &m in &members[label as usize] {
                        if came[m as usize] == UNSEEN || self.cells[m as usize] == FLOOR {
                            came[m as usize] = SOURCE;
                            self.queue.push_back(m);
                        }
                    }
                    for p in path {
                        let k = self.index(p);
                        came[k] = SOURCE;
                        self.queue.push_back(k as u32);
                    }
                } else if self.cells[j] == ROCK {
                    came[j] = i;
                    self.queue.push_back(j as u32);
                }
            }
        }
        dug
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
                if !self.inside(p) || self.cells[self.index(p)] != FIXED || !c.map.is_walkable(p) && p != at {
                    break;
                }
                p = p + dir.delta();
            }
            if !self.inside(p) || self.cells[self.index(p)] == FIXED {
                continue;
            }
            if self.cells[self.index(p)] == FLOOR {
                lengths.push(0);
                self.joined.push(prefab);
                continue;
            }
            let start = self.index(p) as u32;
            match self.shortest_passage(start) {
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
    fn shortest_passage(&mut self, start: u32) -> Option<Vec<Point>> {
        let mut came = vec![UNSEEN; self.cells.len()];
        came[start as usize] = SOURCE;
        self.queue.clear();
        self.queue.push_back(start);
        while let Some(i) = self.queue.pop_front() {
            let p = Point::new(i as i32 % self.width, i as i32 / self.width);
            for d in Dir::ALL {
                let q = p + d.delta();
                if !self.inside(q) {
                    continue;
                }
                let j = self.index(q);
                if came[j] != UNSEEN {
                    continue;
                }
                if self.cells[j] == FLOOR {
                    let mut path = self.walk_back(&came, i);
                    path.reverse();
                    return Some(path);
                }
                if self.cells[j] == ROCK {
                    came[j] = i;
                    self.queue.push_back(j as u32);
                }
            }
        }
        None
    }

    /// The cells a search took from one of its sources to `last`, `last` first
    /// (the source itself not included).
    fn walk_back(&self, came: &[u32], last: u32) -> Vec<Point> {
        let mut path = Vec::new();
        let mut k = last as usize;
        while came[k] != SOURCE {
            path.push(Point::new(k as i32 % self.width, k as i32 / self.width));
            k = came[k] as usize;
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
                    if self.inside(q) && self.cells[self.index(q)] == ROCK {
                        let j = self.index(q);
                        self.cells[j] = FLOOR;
                    }
                }
            }
        }
    }

    /// For each cell, the 8-way steps to the nearest cell that is not floor (0
    /// for those, and off the map counts as not floor): two raster passes, the
    /// chessboard distance transform.
    fn wall_distance(&self) -> Vec<u32> {
        let (w, h) = (self.width as usize, self.height as usize);
        let far = (w + h) as u32;
        let mut d: Vec<u32> = self.cells.iter().map(|&s| if s == FLOOR { far } else { 0 }).collect();
        let at = |d: &[u32], x: usize, y: usize, dx: isize, dy: isize| -> u32 {
            let (qx, qy) = (x as isize + dx, y as isize + dy);
            if qx < 0 || qy < 0 || qx >= w as isize || qy >= h as isize { 0 } else { d[qy as usize * w + qx as usize] }
        };
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                if d[i] == 0 {
                    continue;
                }
                let m = [(-1, 0), (-1, -1), (0, -1), (1, -1)].iter().map(|&(dx, dy)| at(&d, x, y, dx, dy)).min();
                d[i] = d[i].min(m.unwrap_or(0) + 1);
            }
        }
        for y in (0..h).rev() {
            for x in (0..w).rev() {
                let i = y * w + x;
                if d[i] == 0 {
                    continue;
                }
                let m = [(1, 0), (1, 1), (0, 1), (-1, 1)].iter().map(|&(dx, dy)| at(&d, x, y, dx, dy)).min();
                d[i] = d[i].min(m.unwrap_or(0) + 1);
            }
        }
        d
    }

    /// Divides the floor into caverns and passages and digs them as regions.
    /// Returns how many of each.
    fn regions(&mut self, c: &mut Carver<'_>) -> (u32, u32) {
        let n = self.cells.len();
        // Distance (8-way steps) from each floor cell to the nearest non-floor cell.
        let dist = self.wall_distance();
        // Open ground: floor at least `cavern_clearance` from any wall; its
        // areas, large enough, are caverns, grown back over the floor they
        // stand in.
        let clearance = self.params.cavern_clearance;
        self.labels.iter_mut().for_each(|l| *l = NONE);
        let mut caverns: Vec<Vec<u32>> = Vec::new();
        for start in 0..n {
            if self.cells[start] != FLOOR || dist[start] < clearance || self.labels[start] != NONE {
                continue;
            }
            let label = caverns.len() as u32;
            let mut members = vec![start as u32];
            self.labels[start] = label;
            let mut k = 0;
            while k < members.len() {
                let i = members[k] as usize;
                k += 1;
                let p = Point::new(i as i32 % self.width, i as i32 / self.width);
                for d in Dir::ALL {
                    let q = p + d.delta();
                    if self.inside(q) {
                        let j = self.index(q);
                        if self.cells[j] == FLOOR && dist[j] >= clearance && self.labels[j] == NONE {
                            self.labels[j] = label;
                            members.push(j as u32);
                        }
                    }
                }
            }
            caverns.push(members);
        }
        // Too small to be caverns: their cells go back to the passages.
        let mut kept = Vec::new();
        for members in caverns {
            if (members.len() as u32) < self.params.min_cavern {
                for &i in &members {
                    self.labels[i as usize] = NONE;
                }
            } else {
                let label = kept.len() as u32;
                for &i in &members {
                    self.labels[i as usize] = label;
                }
                kept.push(members);
            }
        }
        // Each cavern takes the floor around its open ground, up to the walls:
        // `clearance - 1` cells out, so what is left is the narrow floor.
        self.queue.clear();
        for members in &kept {
            self.queue.extend(members.iter().copied());
        }
        let mut reach = vec![0u32; n];
        while let Some(i) = self.queue.pop_front() {
            if reach[i as usize] + 1 >= clearance {
                continue;
            }
            let p = Point::new(i as i32 % self.width, i as i32 / self.width);
            for q in (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| p + Point::new(dx, dy))) {
                if self.inside(q) {
                    let j = self.index(q);
                    if self.cells[j] == FLOOR && self.labels[j] == NONE {
                        self.labels[j] = self.labels[i as usize];
                        reach[j] = reach[i as usize] + 1;
                        self.queue.push_back(j as u32);
                    }
                }
            }
        }
        let caverns = kept.len() as u32;
        // The rest of the floor: passages, by 4-connected area.
        let mut next = caverns;
        for start in 0..n {
            if self.cells[start] != FLOOR || self.labels[start] != NONE {
                continue;
            }
            self.flood_label(start, next);
            next += 1;
        }
        // Scraps of a few cells beside a cavern (corners of its rim) are the
        // cavern's, not passages of their own.
        let mut sizes = vec![0u32; next as usize];
        for i in 0..n {
            if self.cells[i] == FLOOR && self.labels[i] != NONE {
                sizes[self.labels[i] as usize] += 1;
            }
        }
        let mut into: Vec<u32> = (0..next).collect();
        for i in 0..n {
            let label = self.labels[i];
            if self.cells[i] != FLOOR || label < caverns || label == NONE || sizes[label as usize] >= 4 {
                continue;
            }
            let p = Point::new(i as i32 % self.width, i as i32 / self.width);
            for d in Dir::ALL {
                let q = p + d.delta();
                if self.inside(q) && self.labels[self.index(q)] < caverns {
                    into[label as usize] = self.labels[self.index(q)];
                }
            }
        }
        // Labels renumbered: caverns first, then the passages that stay.
        let mut renumber = vec![NONE; next as usize];
        let mut count = caverns;
        for label in 0..next {
            if label < caverns {
                renumber[label as usize] = label;
            } else if into[label as usize] == label {
                renumber[label as usize] = count;
                count += 1;
            }
        }
        for l in self.labels.iter_mut().filter(|l| **l != NONE) {
            let target = into[*l as usize];
            *l = renumber[target as usize];
        }
        let next = count;
        // Regions: bounds first, then every cell dug into its region.
        let mut bounds: Vec<Option<Rect>> = vec![None; next as usize];
        let mut centre: Vec<(u32, u32)> = vec![(0, u32::MAX); caverns as usize];
        for (i, &d) in dist.iter().enumerate() {
            let label = self.labels[i];
            if self.cells[i] != FLOOR || label == NONE {
                continue;
            }
            let p = Point::new(i as i32 % self.width, i as i32 / self.width);
            let cell = Rect::new(p.x, p.y, 1, 1);
            let b = &mut bounds[label as usize];
            *b = Some(b.map_or(cell, |r| r.union(&cell)));
            if let Some(best) = centre.get_mut(label as usize)
                && d > best.0
            {
                *best = (d, i as u32);
            }
        }
        let mut ids: Vec<RegionId> = Vec::with_capacity(next as usize);
        let mut first: Option<RegionId> = None;
        for (label, b) in bounds.iter().enumerate() {
            let kind = if (label as u32) < caverns { RegionKind::Cave } else { RegionKind::Passage };
            let id = c.region(kind, b.unwrap_or(Rect::new(0, 0, 0, 0)), first);
            first.get_or_insert(id);
            if let Some(&(_, i)) = centre.get(label).filter(|c| c.1 != u32::MAX) {
                c.map.regions[id as usize].centre = Some(Point::new(i as i32 % self.width, i as i32 / self.width));
            }
            ids.push(id);
        }
        let floor = Terrain::floor(FloorKind::Cave);
        for i in 0..n {
            if self.cells[i] == FLOOR && self.labels[i] != NONE {
                let p = Point::new(i as i32 % self.width, i as i32 / self.width);
                c.dig(p, floor, ids[self.labels[i] as usize]);
            }
        }
        // Features whose links the passages reached join the cave's network;
        // any other is left to the carver, which joins it or names it.
        for r in 0..c.map.regions.len() as RegionId {
            let joined = c.map.regions[r as usize].prefab.is_some_and(|p| self.joined.contains(&p));
            if let (true, Some(root)) = (joined, first) {
                c.union(r, root);
            }
        }
        (caverns, next - caverns)
    }
}
