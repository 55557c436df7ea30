//! Theming: the last stage before validation dresses the layout's own cells in the
//! map type's terrain variants (its `[theme]`, read by [`crate::content::theme`]).
//!
//! In: a furnished map with its objects, and the theme. Out: the same map with
//! floor styles drawn per region and scattered per cell, wall styles drawn per cell
//! in seams, and pools of liquid laid into regions. It works on regions only, so
//! every generator's maps take a theme alike.
//!
//! Guarantees: a cell a prefab placed (protected) is never touched, so prefabs
//! stay intact; floor and wall styles keep each cell's role, so walkability,
//! regions and objects are unchanged by them; a pool keeps a ring of floor
//! between itself and the region's walls and doors, covers no object or machine
//! and nothing within two cells of a placed prefab, and is undone unless the
//! region's walkable cells stay as connected as they were, so every way through
//! stays open.

use crate::bits::pack_bytes;
use crate::content::theme::{FloorStyles, Pools, Theme, WallStyles, floor_of};
use crate::geom::{Point, Rect};
use crate::map::{Map, Region, Role, Terrain, mask};
use crate::rng::Rng;
use crate::trace::Outcome;

/// Attempts at one pool: each a smaller pool than the last.
const POOL_ATTEMPTS: u32 = 3;

/// Cells around a placed prefab's rectangle that no pool covers: its ring of
/// approach and one more, so a prefab is never found standing in water.
const PREFAB_APPROACH: i32 = 2;

/// Applies `theme` to `map`.
pub(crate) fn run(map: &mut Map, theme: &Theme, seed: u64) {
    if !theme.floors.is_empty() {
        style_floors(map, &theme.floors, &mut Rng::stream(seed, "theme", "floors"));
    }
    if let Some(walls) = &theme.walls {
        style_walls(map, walls, &mut Rng::stream(seed, "theme", "walls"));
    }
    if !theme.pools.is_empty() {
        let mut rng = Rng::stream(seed, "theme", "pools");
        let mut laid = PoolLayer::new(map);
        for pools in &theme.pools {
            let count = laid.lay(map, pools, &mut rng);
            let name = pools.terrain;
            map.trace.push_with("theme", Outcome::Note, None, || format!("laid {count} pools of {name}"));
        }
    }
}

/// One style per region, drawn by weight, and the scattered styles cell by cell.
fn style_floors(map: &mut Map, floors: &[FloorStyles], rng: &mut Rng) {
    let draws: Vec<Draw> = floors.iter().map(|f| Draw::new(&f.styles)).collect();
    // Each scattered cell is one of a run of independent chances: the cells
    // passed over between two are drawn at once ([`Gaps`]), not rolled per cell.
    let gaps: Vec<Gaps> = floors.iter().map(|f| Gaps::new(f.scatter.iter().map(|&(_, pct)| pct).sum())).collect();
    let mut passed: Vec<Option<u32>> = vec![None; floors.len()];
    let w = map.width();
    for id in 0..map.regions.len() {
        let region = &map.regions[id];
        let Some(kind) = floor_of(region.kind) else { continue };
        let Some(k) = floors.iter().position(|f| f.regions.contains(&region.kind)) else { continue };
        let (styles, plain) = (&floors[k], Terrain::floor(kind));
        let own = draws[k].pick(rng.next_u32()).map_or(plain, |i| styles.styles[i].0);
        if own == plain && styles.scatter.is_empty() {
            continue;
        }
        // A region's open doorways lie on its wall line, just outside its
        // bounds. Row slices, not points: this visits every open cell.
        let b = region.bounds.expand(1);
        let (x0, x1) = (b.x.max(0), b.right().min(w));
        for y in b.y.max(0)..b.bottom().min(map.height()) {
            let row = (y * w + x0) as usize..(y * w + x1) as usize;
            let (ids, masks) = (&map.region_of.cells()[row.clone()], &map.masks.cells()[row.clone()]);
            let cells = &mut map.terrain.cells_mut()[row];
            let styled =
                |cell: &Terrain, rid: u32, m: u8| rid == id as u32 && *cell == plain && m & mask::PROTECTED == 0;
            if styles.scatter.is_empty() {
                // No draw per cell: a select, which the compiler may widen.
                for ((cell, &rid), &m) in cells.iter_mut().zip(ids).zip(masks) {
                    *cell = if styled(cell, rid, m) { own } else { *cell };
                }
                continue;
            }
            let pass = passed[k].get_or_insert_with(|| gaps[k].next(rng));
            for ((cell, &rid), &m) in cells.iter_mut().zip(ids).zip(masks) {
                if !styled(cell, rid, m) {
                    continue;
                }
                if *pass > 0 {
                    *pass -= 1;
                    *cell = own;
                } else {
                    *cell = scattered(&styles.scatter, rng);
                    *pass = gaps[k].next(rng);
                }
            }
        }
    }
}

/// Which scattered style a cell the scatter falls on takes: one by its share
/// of the percentages (which the theme's reader keeps within 100 in all).
fn scattered(scatter: &[(Terrain, u32)], rng: &mut Rng) -> Terrain {
    let total = scatter.iter().map(|&(_, pct)| pct).sum();
    let mut roll = scale(rng.next_u32(), total);
    for &(t, pct) in scatter {
        if roll < pct {
            return t;
        }
        roll -= pct;
    }
    // Only with no percentage at all, when no cell is scattered.
    scatter.last().map_or(Terrain::EARTH, |&(t, _)| t)
}

/// Wall styles cell by cell, in reading order; with `clump`, a wall carries on the
/// style of the wall west of it (else north of it) that the theme styled.
fn style_walls(map: &mut Map, walls: &WallStyles, rng: &mut Rng) {
    let draw = Draw::new(&walls.styles);
    let w = map.width() as usize;
    // The style index each cell of the previous and this row took, `NONE` for
    // cells the theme left alone: two rows are all the seams need.
    const NONE: u8 = u8::MAX;
    let mut above = vec![NONE; w];
    let mut row = vec![NONE; w];
    // This visits every cell of the map, and walls lie scattered among them, so
    // each row's candidates are first gathered into bit words without a branch
    // per cell (a branch there mispredicts on every wall), then visited by their
    // set bits.
    let mut candidates = [0u8; 64];
    const PLAIN_WALL: Terrain = Terrain::new(Role::Wall);
    for (cells, masks) in map.terrain.cells_mut().chunks_mut(w).zip(map.masks.cells().chunks(w)) {
        row.fill(NONE);
        for start in (0..w).step_by(64) {
            let end = (start + 64).min(w);
            candidates.fill(0);
            for (candidate, (cell, &m)) in candidates.iter_mut().zip(cells[start..end].iter().zip(&masks[start..end])) {
                // `&`, not `&&`: each test is a flag, so no branch is taken.
                *candidate = u8::from((*cell == PLAIN_WALL) & (m & mask::PROTECTED == 0));
            }
            let mut word = pack_bytes(&candidates);
            while word != 0 {
                let x = start + word.trailing_zeros() as usize;
                word &= word - 1;
                let west = if x > 0 { row[x - 1] } else { NONE };
                let before = if west != NONE { west } else { above[x] };
                // One draw per wall cell decides both the seam and the style.
                // Drawing only where a seam breaks ([`Gaps`], as the floors'
                // scatter does) takes fewer instructions but more time: whether
                // a seam carries on is then a branch, mispredicted at every
                // break. A coin toss per cell is a select, not a branch.
                let bits = rng.next_u64();
                let carries = (before != NONE) & (scale(bits as u32, 100) < walls.clump);
                let fresh = draw.pick((bits >> 32) as u32).map_or(NONE, |i| i as u8);
                let style = std::hint::select_unpredictable(carries, before, fresh);
                if style != NONE {
                    row[x] = style;
                    cells[x] = walls.styles[style as usize].0;
                }
            }
        }
        std::mem::swap(&mut above, &mut row);
    }
}

/// A weighted draw among styles, made once per theme and used per cell.
struct Draw {
    /// For each style, the least 32 random bits that choose a later one: the
    /// style's running total of the weights scaled to 2^32, rounded up. A draw
    /// then counts the bounds it reaches, with no multiplication or search:
    /// the same choice as scaling the bits to the total weight ([`scale`]) and
    /// finding the first running total above it.
    bounds: Vec<u64>,
}

impl Draw {
    fn new(styles: &[(Terrain, u32)]) -> Draw {
        let totals: Vec<u32> = styles
            .iter()
            .scan(0u32, |sum, &(_, w)| {
                *sum = sum.saturating_add(w);
                Some(*sum)
            })
            .collect();
        let total = u64::from(totals.last().copied().unwrap_or(0));
        let bounds = if total == 0 {
            Vec::new()
        } else {
            totals.iter().map(|&t| (u64::from(t) << 32).div_ceil(total)).collect()
        };
        Draw { bounds }
    }

    /// The index of a style chosen by weight with 32 random `bits`; `None`
    /// when every weight is 0.
    fn pick(&self, bits: u32) -> Option<usize> {
        if self.bounds.is_empty() {
            return None;
        }
        Some(self.bounds.iter().map(|&b| usize::from(u64::from(bits) >= b)).sum())
    }
}

/// `bits` scaled to `0..n` by multiplying and shifting: one draw, no rejection
/// loop. Its bias, under `n / 2^32`, is nothing on a wall's style; the theme draws
/// for tens of thousands of cells per map, so the draw is kept this cheap.
fn scale(bits: u32, n: u32) -> u32 {
    ((u64::from(bits) * u64::from(n)) >> 32) as u32
}

/// How many of a run of independent chances of `pct` percent each fail before
/// one comes up: the geometric distribution, drawn with one random number for
/// the whole run rather than one per chance (the theme meets tens of thousands
/// of cells per map, and most chances it gives fail).
///
/// `survive[k]` is the chance, scaled to 2^32, that the first `k + 1` chances
/// all fail, worked out in integers so every platform draws alike; a draw
/// counts the entries above its random number. Past the table the count goes
/// on with a new draw: failures so far do not change the odds of the rest.
struct Gaps {
    survive: Vec<u64>,
}

impl Gaps {
    /// Entries of the table: a run longer than this takes another draw.
    const TABLE: usize = 128;

    fn new(pct: u32) -> Gaps {
        let fail = (u64::from(100 - pct.min(100)) << 32) / 100;
        let survive = std::iter::successors(Some(fail), |&s| Some((s * fail) >> 32))
            .take(if pct == 0 { 0 } else { Gaps::TABLE })
            .collect();
        Gaps { survive }
    }

    /// The number of chances that fail before the next that comes up;
    /// `u32::MAX` when none ever does (0 percent).
    fn next(&self, rng: &mut Rng) -> u32 {
        if self.survive.is_empty() {
            return u32::MAX;
        }
        let mut failed = 0u32;
        // Each round ends the run but for a chance of at most 0.99^128 (under
        // 28%), so this budget is never what stops it.
        for _ in 0..1024 {
            let roll = u64::from(rng.next_u32());
            let run = self.survive.partition_point(|&s| s > roll);
            failed = failed.saturating_add(run as u32);
            if run < self.survive.len() {
                break;
            }
        }
        failed
    }
}

/// Lays pools, with buffers kept between regions.
struct PoolLayer {
    /// Cells an object stands on, and cells near a placed prefab (its
    /// approaches stay dry).
    occupied: Vec<bool>,
    /// Per cell of the region's bounds: 0 free, 1 pool, 2 reached by a flood.
    scratch: Vec<u8>,
    pool: Vec<Point>,
    frontier: Vec<Point>,
    stack: Vec<Point>,
}

impl PoolLayer {
    fn new(map: &Map) -> PoolLayer {
        let mut occupied = vec![false; (map.width() * map.height()) as usize];
        for (p, _) in map.objects.iter().flat_map(|o| &o.cells) {
            if let Some(i) = map.terrain.index_of(*p) {
                occupied[i] = true;
            }
        }
        for placed in &map.prefabs {
            for p in placed.bounds.expand(PREFAB_APPROACH).points() {
                if let Some(i) = map.terrain.index_of(p) {
                    occupied[i] = true;
                }
            }
        }
        PoolLayer { occupied, scratch: Vec::new(), pool: Vec::new(), frontier: Vec::new(), stack: Vec::new() }
    }

    /// Lays the pools of one entry; returns how many.
    fn lay(&mut self, map: &mut Map, pools: &Pools, rng: &mut Rng) -> u32 {
        let mut count = 0;
        for id in 0..map.regions.len() {
            if count >= pools.max_per_map {
                break;
            }
            if !pools.regions.contains(&map.regions[id].kind) || !rng.percent(pools.chance) {
                continue;
            }
            let size = rng.range(pools.size.0 as i32, pools.size.1 as i32) as usize;
            let region = map.regions[id].clone();
            if self.lay_one(map, &region, pools.terrain, size, rng) {
                count += 1;
            }
        }
        count
    }

    /// Tries a pool of about `size` cells in `region`, smaller on each attempt.
    fn lay_one(&mut self, map: &mut Map, region: &Region, liquid: Terrain, size: usize, rng: &mut Rng) -> bool {
        let mut size = size;
        for _ in 0..POOL_ATTEMPTS {
            self.grow(map, region, size, rng);
            if self.pool.is_empty() {
                return false;
            }
            if self.keeps_ways(map, region) {
                for &p in &self.pool {
                    map.terrain[p] = liquid;
                }
                return true;
            }
            size = (size / 2).max(1);
        }
        false
    }

    /// Grows `self.pool` from a random cell by random steps into neighbours.
    fn grow(&mut self, map: &Map, region: &Region, size: usize, rng: &mut Rng) {
        self.pool.clear();
        self.frontier.clear();
        let occupied = &self.occupied;
        self.frontier.extend(region.bounds.points().filter(|&p| may_cover(map, occupied, region, p)));
        let Some(&start) = rng.pick(&self.frontier) else { return };
        self.frontier.clear();
        self.frontier.push(start);
        while self.pool.len() < size {
            let Some(i) = rng.index(self.frontier.len()) else { break };
            let p = self.frontier.swap_remove(i);
            if self.pool.contains(&p) {
                continue;
            }
            self.pool.push(p);
            for q in [Point::new(1, 0), Point::new(-1, 0), Point::new(0, 1), Point::new(0, -1)].map(|d| p + d) {
                if !self.pool.contains(&q) && may_cover(map, &self.occupied, region, q) {
                    self.frontier.push(q);
                }
            }
        }
    }

    /// True when the region's walkable cells, less the pool, fall into no more
    /// connected pieces than they did before it.
    fn keeps_ways(&mut self, map: &Map, region: &Region) -> bool {
        let bounds = region.bounds;
        let before = self.pieces(map, region, bounds, false);
        let after = self.pieces(map, region, bounds, true);
        after <= before
    }

    /// Counts the pieces (cells joined by the map's moves) of the region's
    /// walkable, machine-free cells (without the pool's, when `with_pool`).
    fn pieces(&mut self, map: &Map, region: &Region, bounds: Rect, with_pool: bool) -> u32 {
        let (w, h) = (bounds.width as usize, bounds.height as usize);
        self.scratch.clear();
        self.scratch.resize(w * h, 0);
        let local = |p: Point| ((p.y - bounds.y) as usize) * w + (p.x - bounds.x) as usize;
        if with_pool {
            for &p in &self.pool {
                self.scratch[local(p)] = 1;
            }
        }
        let open = |p: Point| {
            bounds.contains(p) && map.region_of[p] == region.id && map.is_walkable(p) && map.masks[p] & mask::SOLID == 0
        };
        let mut pieces = 0;
        for p in bounds.points() {
            if self.scratch[local(p)] != 0 || !open(p) {
                continue;
            }
            pieces += 1;
            self.scratch[local(p)] = 2;
            self.stack.push(p);
            while let Some(q) = self.stack.pop() {
                for n in map.moves.steps().iter().map(|&step| q + step) {
                    if open(n) && self.scratch[local(n)] == 0 {
                        self.scratch[local(n)] = 2;
                        self.stack.push(n);
                    }
                }
            }
        }
        pieces
    }
}

/// True where a pool may cover `p`: the region's own floor, no object or machine
/// on it, and every neighbour (diagonals too) the region's floor, so a ring of
/// floor stays between the pool and the walls and doors.
fn may_cover(map: &Map, occupied: &[bool], region: &Region, p: Point) -> bool {
    let ours = |q: Point| {
        map.region_of.get(q) == Some(&region.id)
            && map.terrain.get(q).is_some_and(|t| t.is_floor())
            && !map.is_protected(q)
    };
    let Some(i) = map.terrain.index_of(p) else { return false };
    if !ours(p) || occupied[i] || map.masks[p] & mask::SOLID != 0 {
        return false;
    }
    (-1..=1).all(|dy| (-1..=1).all(|dx| ours(p + Point::new(dx, dy))))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs drawn by [`Gaps`] are as long as a roll per chance would make them:
    /// a mean of `(100 - p) / p` failures, and a share of `p` percent of
    /// chances coming up over a long run.
    #[test]
    fn gaps_between_chances_are_geometric() {
        let mut rng = Rng::stream(11, "test", "gaps");
        for pct in [1u32, 4, 25, 50, 90] {
            let gaps = Gaps::new(pct);
            let n = 40_000;
            let total: u64 = (0..n).map(|_| u64::from(gaps.next(&mut rng))).sum();
            let mean = total as f64 / f64::from(n);
            let expected = f64::from(100 - pct) / f64::from(pct);
            // Within 3% (and a hundredth of a chance for the short runs).
            assert!((mean - expected).abs() <= 0.03 * expected + 0.01, "{pct}%: mean run {mean}, {expected} expected");
            let share = f64::from(n) / (total as f64 + f64::from(n));
            assert!((share * 100.0 - f64::from(pct)).abs() < 0.03 * f64::from(pct), "{pct}%: {share} came up");
        }
        assert_eq!(Gaps::new(100).next(&mut rng), 0, "every chance comes up");
        assert_eq!(Gaps::new(0).next(&mut rng), u32::MAX, "no chance ever does");
        // Runs past the table go on with new draws: at 1%, a run of 128 or more
        // has a chance of 0.99^128, about 28%.
        let long = (0..10_000).filter(|_| Gaps::new(1).next(&mut rng) >= 128).count();
        assert!((2_500..3_100).contains(&long), "{long} of 10000 runs of 1% reached the table's end");
    }

    proptest::proptest! {
        #[test]
        fn a_draw_by_bounds_chooses_as_scaling_to_the_total_weight(
            weights in proptest::collection::vec(0u32..1000, 1..6), bits: u32
        ) {
            let styles: Vec<(Terrain, u32)> = weights.iter().map(|&w| (Terrain::new(Role::Wall), w)).collect();
            let totals: Vec<u32> = weights.iter().scan(0, |sum, &w| { *sum += w; Some(*sum) }).collect();
            let total = *totals.last().unwrap();
            let expected = |bits: u32| {
                (total > 0).then(|| {
                    let roll = scale(bits, total);
                    totals.partition_point(|&t| t <= roll)
                })
            };
            let draw = Draw::new(&styles);
            proptest::prop_assert_eq!(draw.pick(bits), expected(bits));
            // Either side of every boundary between two choices, where rounding would show.
            for &t in &totals {
                let first = (u64::from(t) << 32).div_ceil(u64::from(total.max(1)));
                for edge in [first.saturating_sub(1), first].map(|b| b.min(u64::from(u32::MAX)) as u32) {
                    proptest::prop_assert_eq!(draw.pick(edge), expected(edge), "bits {}", edge);
                }
            }
        }
    }
}
