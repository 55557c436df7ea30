//! Grids of bits: rows of 64-cell words, with the cave automaton's round,
//! erosion and dilation by one cell, a search's level, and the areas of the
//! set cells (joined side by side, or across corners too when walkers step
//! diagonally), found by runs (the cave layout and the validate stage's
//! connectivity check use them).
//!
//! In: a width and height, cells set or clear. Out: new grids, areas as runs
//! of set cells with a label each. Guarantees: the cells past the east edge,
//! and the rows off the north and south edges, read as the grid's `outside`
//! value and are never reported as cells; labels are numbered in the order
//! their areas are first met, row by row from the north-west, as a scan of
//! cells would number them.
//!
//! Written by hand: no crate steps a cellular automaton or labels areas on
//! bit rows, and a bit-sliced neighbour count handles 64 cells in a few dozen
//! word operations.

use crate::geom::Moves;

/// A grid of bits, row by row.
#[derive(Clone)]
pub(crate) struct Bits {
    pub width: usize,
    pub height: usize,
    /// Words a row.
    pub words: usize,
    data: Vec<u64>,
    /// What cells off the grid read as.
    outside: bool,
}

impl Bits {
    /// A grid with every cell clear; off the grid reads as `outside`.
    pub fn new(width: usize, height: usize, outside: bool) -> Bits {
        let words = width.div_ceil(64).max(1);
        let mut bits = Bits { width, height, words, data: vec![0; words * height], outside };
        bits.seal();
        bits
    }

    /// A grid (reading clear off the grid) over two row-major layers of the same
    /// `width` x `height` map, whose cell is set where `holds(a, b)` for that
    /// cell's values. Reads the layers row by row, 64 cells to a word.
    pub fn from_layers<A, B>(width: usize, height: usize, a: &[A], b: &[B], holds: impl Fn(&A, &B) -> bool) -> Bits {
        let mut bits = Bits::new(width, height, false);
        let rows = a.chunks(width.max(1)).zip(b.chunks(width.max(1))).take(height);
        // Each chunk's answers as bytes first (a loop with no carried state,
        // which the compiler may widen), then packed eight bytes at a time.
        let mut answers = [0u8; 64];
        for (y, (row_a, row_b)) in rows.enumerate() {
            let words = bits.row_mut(y).iter_mut();
            for (word, (chunk_a, chunk_b)) in words.zip(row_a.chunks(64).zip(row_b.chunks(64))) {
                answers.fill(0);
                for (answer, (x, y)) in answers.iter_mut().zip(chunk_a.iter().zip(chunk_b)) {
                    *answer = u8::from(holds(x, y));
                }
                *word = pack_bytes(&answers);
            }
        }
        bits
    }

    /// Sets the cell `(x, y)`.
    pub fn set(&mut self, x: usize, y: usize) {
        self.data[y * self.words + x / 64] |= 1 << (x % 64);
    }

    /// True when the cell `(x, y)` is set.
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.data[y * self.words + x / 64] >> (x % 64) & 1 == 1
    }

    /// Sets the cells `x0..x1` of row `y`.
    pub fn set_run(&mut self, y: usize, x0: usize, x1: usize) {
        let row = &mut self.data[y * self.words..(y + 1) * self.words];
        let mut x = x0;
        while x < x1 {
            let bit = x % 64;
            let n = (64 - bit).min(x1 - x);
            row[x / 64] |= if n == 64 { !0 } else { ((1u64 << n) - 1) << bit };
            x += n;
        }
    }

    /// The words of row `y`.
    pub fn row(&self, y: usize) -> &[u64] {
        &self.data[y * self.words..(y + 1) * self.words]
    }

    /// The words of row `y`, to change (the caller keeps the bits past the
    /// east edge as they were).
    pub fn row_mut(&mut self, y: usize) -> &mut [u64] {
        &mut self.data[y * self.words..(y + 1) * self.words]
    }

    /// Clears every cell.
    #[cfg(test)]
    pub fn clear(&mut self) {
        self.data.fill(0);
        self.seal();
    }

    /// Sets the cells set in `other` too.
    #[cfg(test)]
    pub fn or_with(&mut self, other: &Bits) {
        self.data.iter_mut().zip(&other.data).for_each(|(a, &b)| *a |= b);
    }

    /// One level of a search: sets in `next` (which must be clear) the cells
    /// of `through` not in `reached` beside a cell set here (of 4). Returns
    /// false when there are none. Every grid must be this one's size and read
    /// clear off the grid.
    #[cfg(test)]
    pub fn spread_into(&self, through: &Bits, reached: &Bits, next: &mut Bits) -> bool {
        let words = self.words;
        let mut any = 0;
        for y in 0..self.height {
            let row = self.row(y);
            for k in 0..words {
                let i = y * words + k;
                let c = row[k];
                let from_west = (c << 1) | if k > 0 { row[k - 1] >> 63 } else { 0 };
                let from_east = (c >> 1) | if k + 1 < words { row[k + 1] << 63 } else { 0 };
                let from_north = if y > 0 { self.data[i - words] } else { 0 };
                let from_south = if y + 1 < self.height { self.data[i + words] } else { 0 };
                let out = (from_west | from_east | from_north | from_south) & through.data[i] & !reached.data[i];
                next.data[i] = out;
                any |= out;
            }
        }
        any != 0
    }

    /// The cells set here and not in `other`.
    pub fn and_not(&self, other: &Bits) -> Bits {
        self.zip(other, |a, b| a & !b)
    }

    /// The cells set both here and in `other`.
    pub fn and(&self, other: &Bits) -> Bits {
        self.zip(other, |a, b| a & b)
    }

    fn zip(&self, other: &Bits, f: impl Fn(u64, u64) -> u64) -> Bits {
        let data = self.data.iter().zip(&other.data).map(|(&a, &b)| f(a, b)).collect();
        let mut out = Bits { data, ..*self };
        out.seal();
        out
    }

    /// The bits of a row's last word that are cells of the grid.
    fn last_word(&self) -> u64 {
        match self.width % 64 {
            0 if self.width > 0 => !0,
            used => !(!0u64 << used),
        }
    }

    /// Makes the bits past the east edge read as `outside`.
    fn seal(&mut self) {
        let tail = !self.last_word();
        for y in 0..self.height {
            let last = &mut self.data[y * self.words + self.words - 1];
            *last = if self.outside { *last | tail } else { *last & !tail };
        }
    }

    /// How many cells are set.
    #[cfg(test)]
    pub fn count(&self) -> u32 {
        let mut copy = self.clone();
        copy.outside = false;
        copy.seal();
        copy.data.iter().map(|w| w.count_ones()).sum()
    }

    /// A new grid whose word `(y, k)` is `f(y * words + k, around)`, `around`
    /// being the 3x3 neighbourhood of every cell of that word: rows north,
    /// here and south, each as (west, centre, east). Off the grid reads as
    /// `outside`.
    fn by_neighbourhood(&self, f: impl Fn(usize, [[u64; 3]; 3]) -> u64) -> Bits {
        let off = vec![if self.outside { !0 } else { 0 }; self.words];
        let mut next = Bits::new(self.width, self.height, self.outside);
        for y in 0..self.height {
            let up = if y > 0 { self.row(y - 1) } else { &off[..] };
            let down = if y + 1 < self.height { self.row(y + 1) } else { &off[..] };
            for k in 0..self.words {
                let around = [up, self.row(y), down].map(|row| shifted(row, k, self.outside));
                next.data[y * self.words + k] = f(y * self.words + k, around.map(|(w, c, e)| [w, c, e]));
            }
        }
        next.seal();
        next
    }

    /// One round of the automaton on solid cells (set bits; `outside` should
    /// be true, as off the map counts as rock): an open cell with `birth` or
    /// more solid neighbours (of 8) turns solid, a solid one with `survival`
    /// or more stays; cells set in `fixed` keep their state.
    pub fn automaton_step(&self, fixed: &Bits, birth: u32, survival: u32) -> Bits {
        self.by_neighbourhood(|i, [[nw, n, ne], [west, centre, east], [sw, s, se]]| {
            let count = count_eight([nw, n, ne, west, east, sw, s, se]);
            let solid = (centre & at_least(count, survival)) | (!centre & at_least(count, birth));
            let keep = fixed.data[i];
            (solid & !keep) | (centre & keep)
        })
    }

    /// The cells set here whose 8 neighbours are all set too.
    pub fn eroded(&self) -> Bits {
        self.by_neighbourhood(|_, around| around.iter().flatten().fold(!0, |a, &w| a & w))
    }

    /// For every cell, row by row, how many times in a row [`Bits::eroded`]
    /// keeps it, plus one: 0 for a clear cell, else the chessboard distance to
    /// the nearest clear cell (or, when `outside` is clear, to the edge). Two
    /// passes over the grid, where eroding until nothing is left takes as many
    /// passes as the widest area is deep (a thousand on an open 2048x2048 map).
    pub fn depths(&self) -> Vec<u16> {
        let (w, h) = (self.width, self.height);
        // Off the grid: as deep as it gets where it reads as set, else 0.
        let edge = if self.outside { u16::MAX } else { 0 };
        let mut depth = vec![0u16; w * h];
        for (x, y) in self.cells() {
            depth[y * w + x] = u16::MAX;
        }
        // North-west to south-east: from the neighbours before each cell, then
        // back from those after it.
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                if depth[i] != 0 {
                    let west = if x > 0 { depth[i - 1] } else { edge };
                    let north = |dx: isize| match (y.checked_sub(1), x.checked_add_signed(dx)) {
                        (Some(ny), Some(nx)) if nx < w => depth[ny * w + nx],
                        _ => edge,
                    };
                    depth[i] = depth[i].min(west.min(north(-1)).min(north(0)).min(north(1)).saturating_add(1));
                }
            }
        }
        for y in (0..h).rev() {
            for x in (0..w).rev() {
                let i = y * w + x;
                if depth[i] != 0 {
                    let east = if x + 1 < w { depth[i + 1] } else { edge };
                    let south = |dx: isize| match (y + 1 < h, x.checked_add_signed(dx)) {
                        (true, Some(nx)) if nx < w => depth[(y + 1) * w + nx],
                        _ => edge,
                    };
                    depth[i] = depth[i].min(east.min(south(-1)).min(south(0)).min(south(1)).saturating_add(1));
                }
            }
        }
        depth
    }

    /// The cells set here or beside a set cell (of 8).
    pub fn dilated(&self) -> Bits {
        self.by_neighbourhood(|_, around| around.iter().flatten().fold(0, |a, &w| a | w))
    }

    /// Every set cell, row by row from the north-west.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.cells_by_word(|_, word| word)
    }

    /// Every cell set here and not in `other`, row by row from the north-west.
    #[cfg(test)]
    pub fn cells_not_in<'a>(&'a self, other: &'a Bits) -> impl Iterator<Item = (usize, usize)> + 'a {
        self.cells_by_word(|i, word| word & !other.data[i])
    }

    /// The set cells of the words `pick(index, word)` leaves, row by row.
    fn cells_by_word<'a>(
        &'a self,
        pick: impl Fn(usize, u64) -> u64 + Copy + 'a,
    ) -> impl Iterator<Item = (usize, usize)> + 'a {
        (0..self.height).flat_map(move |y| {
            (0..self.words).flat_map(move |k| {
                let mut word = pick(y * self.words + k, self.data[y * self.words + k]);
                if k + 1 == self.words {
                    word &= self.last_word();
                }
                std::iter::from_fn(move || {
                    (word != 0).then(|| {
                        let bit = word.trailing_zeros() as usize;
                        word &= word - 1;
                        (k * 64 + bit, y)
                    })
                })
            })
        })
    }
}

/// Word `k` of a bit row with its west and east neighbours' bits moved onto
/// each cell: (west, the word, east). Off the row reads as `outside`.
fn shifted(row: &[u64], k: usize, outside: bool) -> (u64, u64, u64) {
    let edge = u64::from(outside);
    let word = row[k];
    let before = if k > 0 { row[k - 1] >> 63 } else { edge };
    let after = if k + 1 < row.len() { row[k + 1] << 63 } else { edge << 63 };
    ((word << 1) | before, word, (word >> 1) | after)
}

/// The sum and carry of three bit words, bit by bit.
fn full_add(a: u64, b: u64, c: u64) -> (u64, u64) {
    let ab = a ^ b;
    (ab ^ c, (a & b) | (c & ab))
}

/// A bit-sliced count of eight bit words: (ones, twos, fours, eights).
fn count_eight(n: [u64; 8]) -> [u64; 4] {
    let (s1, c1) = full_add(n[0], n[1], n[2]);
    let (s2, c2) = full_add(n[5], n[6], n[7]);
    let (s3, c3) = (n[3] ^ n[4], n[3] & n[4]);
    let (ones, c4) = full_add(s1, s2, s3);
    let (t, c5) = full_add(c1, c2, c3);
    let (twos, c6) = (t ^ c4, t & c4);
    [ones, twos, c5 ^ c6, c5 & c6]
}

/// Bits where the bit-sliced `count` (ones, twos, fours, eights) is at least `k`.
fn at_least(count: [u64; 4], k: u32) -> u64 {
    if k > 15 {
        return 0;
    }
    // count < k, decided from the highest bit down.
    let (mut less, mut equal) = (0u64, !0u64);
    for bit in (0..4).rev() {
        if (k >> bit) & 1 == 1 {
            less |= equal & !count[bit];
            equal &= count[bit];
        } else {
            equal &= !count[bit];
        }
    }
    !less
}

/// Packs 64 bytes, each 0 or 1, into a word: byte `i` becomes bit `i`. Eight
/// bytes at a time, by one multiplication that gathers their low bits into
/// the top byte.
pub(crate) fn pack_bytes(bytes: &[u8; 64]) -> u64 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let mut word = 0;
    for (k, eight) in bytes.chunks_exact(8).enumerate() {
        let lanes =
            u64::from_le_bytes([eight[0], eight[1], eight[2], eight[3], eight[4], eight[5], eight[6], eight[7]]);
        word |= (lanes.wrapping_mul(GATHER) >> 56) << (8 * k);
    }
    word
}

/// A run of set cells in one row: `x0..x1` of row `y`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub y: u32,
    pub x0: u32,
    pub x1: u32,
}

impl Run {
    pub fn len(&self) -> u32 {
        self.x1 - self.x0
    }
}

/// The areas of a grid's set cells, as runs.
pub(crate) struct Areas {
    /// Every run, row by row, west to east.
    pub runs: Vec<Run>,
    /// The area of each run.
    pub area: Vec<u32>,
    /// The cells of each area.
    pub sizes: Vec<u32>,
}

impl Areas {
    /// Labels the set cells of `bits` by area, cells joined by `moves`.
    pub fn of(bits: &Bits, moves: Moves) -> Areas {
        let Joined { runs, mut parent } = Joined::of(bits, moves);
        // Areas numbered in the order they are first met.
        let mut label_of_root = vec![u32::MAX; runs.len()];
        let mut area = Vec::with_capacity(runs.len());
        let mut sizes = Vec::new();
        for (r, run) in runs.iter().enumerate() {
            let root = find(&mut parent, r as u32) as usize;
            if label_of_root[root] == u32::MAX {
                label_of_root[root] = sizes.len() as u32;
                sizes.push(0);
            }
            let label = label_of_root[root];
            area.push(label);
            sizes[label as usize] += run.len();
        }
        Areas { runs, area, sizes }
    }

    /// True when the set cells of `bits` form at most one area, cells joined by
    /// `moves`: the joining pass of [`Areas::of`] without the labels.
    pub fn is_one(bits: &Bits, moves: Moves) -> bool {
        let joined = Joined::of(bits, moves);
        joined.parent.iter().enumerate().filter(|&(r, &p)| p == r as u32).count() <= 1
    }
}

/// The runs of a grid's set cells, each joined to the runs above it that it
/// overlaps (or, moving diagonally, touches at a corner): a union-find forest
/// over runs whose roots are the areas, the earliest run of each area its root.
struct Joined {
    runs: Vec<Run>,
    parent: Vec<u32>,
}

impl Joined {
    fn of(bits: &Bits, moves: Moves) -> Joined {
        // How far past its ends a run reaches the row above.
        let reach = u32::from(moves == Moves::Diagonal);
        // Room for a few runs a row before any regrowth.
        let mut runs: Vec<Run> = Vec::with_capacity(8 * bits.height);
        let mut parent: Vec<u32> = Vec::with_capacity(8 * bits.height);
        let mut above = 0..0;
        for y in 0..bits.height {
            let first = runs.len();
            for (k, &stored) in bits.row(y).iter().enumerate() {
                let mut word = stored;
                if k + 1 == bits.words {
                    word &= bits.last_word();
                }
                while word != 0 {
                    let start = word.trailing_zeros();
                    let len = (!(word >> start)).trailing_zeros();
                    let (x0, x1) = ((k * 64) as u32 + start, (k * 64) as u32 + start + len);
                    // A run that goes on from the word before grows.
                    let goes_on = runs.len() > first && runs.last().is_some_and(|l| l.x1 == x0);
                    match runs.last_mut() {
                        Some(last) if goes_on => last.x1 = x1,
                        _ => {
                            runs.push(Run { y: y as u32, x0, x1 });
                            parent.push((runs.len() - 1) as u32);
                        }
                    }
                    word = if start + len >= 64 { 0 } else { word & (!0u64 << (start + len)) };
                }
            }
            // Join each run to the runs above it that it overlaps. The run is
            // its own root until its first overlap; its root is carried along,
            // so each overlap costs one find.
            let mut j = above.start;
            for r in first..runs.len() {
                while j < above.end && runs[j].x1 + reach <= runs[r].x0 {
                    j += 1;
                }
                let mut root = r as u32;
                let mut k = j;
                while k < above.end && runs[k].x0 < runs[r].x1 + reach {
                    let other = find(&mut parent, k as u32);
                    if other != root {
                        // The earlier root stays the root.
                        let (lo, hi) = if other < root { (other, root) } else { (root, other) };
                        parent[hi as usize] = lo;
                        root = lo;
                    }
                    k += 1;
                }
            }
            above = first..runs.len();
        }
        Joined { runs, parent }
    }
}

fn find(parent: &mut [u32], mut a: u32) -> u32 {
    while parent[a as usize] != a {
        let grand = parent[parent[a as usize] as usize];
        parent[a as usize] = grand;
        a = grand;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random(width: usize, height: usize, percent: u32, outside: bool, rng: &mut Rng) -> (Bits, Vec<bool>) {
        let mut bits = Bits::new(width, height, outside);
        let mut plain = vec![false; width * height];
        for y in 0..height {
            for x in 0..width {
                if rng.percent(percent) {
                    bits.set(x, y);
                    plain[y * width + x] = true;
                }
            }
        }
        (bits, plain)
    }

    /// The plain grid's cell `(dx, dy)` from `(x, y)`, or None off the grid.
    fn cell(plain: &[bool], width: usize, height: usize, (x, y): (usize, usize), (dx, dy): (i32, i32)) -> Option<bool> {
        let (qx, qy) = (x.checked_add_signed(dx as isize)?, y.checked_add_signed(dy as isize)?);
        (qx < width && qy < height).then(|| plain[qy * width + qx])
    }

    const SIZES: [(usize, usize); 5] = [(1, 1), (5, 4), (64, 3), (70, 9), (130, 5)];

    #[test]
    fn depths_count_the_erosions_each_cell_survives() {
        let mut rng = Rng::stream(11, "test", "depths");
        for (width, height) in SIZES.into_iter().chain([(40, 40), (97, 31)]) {
            for percent in [0, 50, 90, 100] {
                for outside in [false, true] {
                    let (bits, _) = random(width, height, percent, outside, &mut rng);
                    let depths = bits.depths();
                    let mut left = bits.clone();
                    let mut rounds = 0u16;
                    // Every cell set after `rounds` erosions is deeper than `rounds`.
                    while rounds <= 100 {
                        for y in 0..height {
                            for x in 0..width {
                                let deeper = depths[y * width + x] > rounds;
                                assert_eq!(
                                    left.get(x, y),
                                    deeper,
                                    "{width}x{height} {percent}% outside {outside}: ({x}, {y}) after {rounds}"
                                );
                            }
                        }
                        if left.cells().next().is_none() {
                            break;
                        }
                        left = left.eroded();
                        rounds += 1;
                    }
                }
            }
        }
    }

    #[test]
    fn a_grid_from_two_layers_sets_exactly_the_cells_that_hold() {
        let mut rng = Rng::stream(7, "test", "layers");
        for (width, height) in SIZES {
            let a: Vec<u32> = (0..width * height).map(|_| rng.below(3)).collect();
            let b: Vec<u32> = (0..width * height).map(|_| rng.below(2)).collect();
            let bits = Bits::from_layers(width, height, &a, &b, |&x, &y| x == 0 && y == 1);
            for (y, x) in (0..height).flat_map(|y| (0..width).map(move |x| (y, x))) {
                assert_eq!(
                    bits.get(x, y),
                    a[y * width + x] == 0 && b[y * width + x] == 1,
                    "{width}x{height} ({x},{y})"
                );
            }
        }
    }

    /// The bit-sliced round against a plain count of the eight neighbours.
    #[test]
    fn the_automaton_steps_as_its_rule_says() {
        let mut rng = Rng::stream(7, "test", "automaton");
        for (width, height) in SIZES {
            let (solid, plain) = random(width, height, 45, true, &mut rng);
            let (fixed, held) = random(width, height, 10, false, &mut rng);
            for (birth, survival) in [(5, 4), (6, 3), (9, 1), (1, 9), (0, 0)] {
                let next = solid.automaton_step(&fixed, birth, survival);
                for y in 0..height {
                    for x in 0..width {
                        let at = |dx, dy| cell(&plain, width, height, (x, y), (dx, dy)).unwrap_or(true);
                        let rock = (-1..=1)
                            .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
                            .filter(|&(dx, dy)| (dx, dy) != (0, 0) && at(dx, dy))
                            .count() as u32;
                        let was = plain[y * width + x];
                        let want = if held[y * width + x] {
                            was
                        } else if was {
                            rock >= survival
                        } else {
                            rock >= birth
                        };
                        assert_eq!(next.get(x, y), want, "{width}x{height} b{birth} s{survival} at ({x}, {y})");
                    }
                }
            }
        }
    }

    #[test]
    fn erosion_and_dilation_look_at_all_eight_neighbours() {
        let mut rng = Rng::stream(8, "test", "erosion");
        for (width, height) in SIZES {
            let (bits, plain) = random(width, height, 80, false, &mut rng);
            let eroded = bits.eroded();
            for y in 0..height {
                for x in 0..width {
                    let all = (-1..=1).all(|dy: i32| {
                        (-1..=1).all(|dx: i32| cell(&plain, width, height, (x, y), (dx, dy)).unwrap_or(false))
                    });
                    assert_eq!(eroded.get(x, y), all, "{width}x{height} at ({x}, {y})");
                }
            }
            let dilated = bits.dilated();
            for y in 0..height {
                for x in 0..width {
                    let any = (-1..=1).any(|dy: i32| {
                        (-1..=1).any(|dx: i32| cell(&plain, width, height, (x, y), (dx, dy)).unwrap_or(false))
                    });
                    assert_eq!(dilated.get(x, y), any, "{width}x{height} at ({x}, {y})");
                }
            }
            let listed: Vec<(usize, usize)> = bits.cells().collect();
            let expected: Vec<(usize, usize)> = (0..height)
                .flat_map(|y| (0..width).map(move |x| (x, y)))
                .filter(|&(x, y)| plain[y * width + x])
                .collect();
            assert_eq!(listed, expected);
            assert_eq!(bits.count() as usize, expected.len());
        }
    }

    /// A search's level against a plain look at the four sides.
    #[test]
    fn a_spread_reaches_the_four_sides_within_through_and_not_reached() {
        let mut rng = Rng::stream(10, "test", "spread");
        for (width, height) in SIZES {
            let (from, plain) = random(width, height, 20, false, &mut rng);
            let (through, open) = random(width, height, 70, false, &mut rng);
            let (reached, old) = random(width, height, 30, false, &mut rng);
            let mut next = Bits::new(width, height, false);
            let any = from.spread_into(&through, &reached, &mut next);
            let mut expected = 0;
            for y in 0..height {
                for x in 0..width {
                    let at = |dx, dy| cell(&plain, width, height, (x, y), (dx, dy)).unwrap_or(false);
                    let beside = at(0, -1) || at(1, 0) || at(0, 1) || at(-1, 0);
                    let want = beside && open[y * width + x] && !old[y * width + x];
                    expected += u32::from(want);
                    assert_eq!(next.get(x, y), want, "{width}x{height} at ({x}, {y})");
                }
            }
            assert_eq!(any, expected > 0);
            assert_eq!(next.count(), expected);
        }
    }

    /// Runs and their areas against a flood fill of the cells.
    #[test]
    fn shapes_joined_only_below_are_one_area() {
        // Combs whose teeth meet only in their last row, in every word position,
        // a lone cell, and an empty grid; then the comb with its spine cut.
        let (width, height) = (130, 6);
        let mut comb = Bits::new(width, height, false);
        for x in (0..width).step_by(2) {
            for y in 0..height - 1 {
                comb.set(x, y);
            }
        }
        comb.set_run(height - 1, 0, width);
        assert!(Areas::is_one(&comb, Moves::Orthogonal));
        let mut lone = Bits::new(width, height, false);
        assert!(Areas::is_one(&lone, Moves::Orthogonal), "no cell at all is not two areas");
        lone.set(64, 3);
        assert!(Areas::is_one(&lone, Moves::Orthogonal));
        let mut cut = Bits::new(width, height, false);
        for x in (0..width).step_by(2) {
            for y in 0..height - 1 {
                cut.set(x, y);
            }
        }
        // The spine cut between the teeth at 70 and 72.
        cut.set_run(height - 1, 0, 71);
        cut.set_run(height - 1, 72, width);
        assert!(!Areas::is_one(&cut, Moves::Orthogonal));
        assert_eq!(Areas::of(&cut, Moves::Orthogonal).sizes.len(), 2);
    }

    #[test]
    fn cells_touching_at_a_corner_join_only_when_walkers_step_diagonally() {
        // A staircase of cells crossing a word boundary, each touching the next
        // at a corner only; and two runs meeting corner to corner.
        let mut stairs = Bits::new(130, 4, false);
        for (y, x) in [(0, 62), (1, 63), (2, 64), (3, 65)] {
            stairs.set(x, y);
        }
        assert_eq!(Areas::of(&stairs, Moves::Orthogonal).sizes.len(), 4);
        assert!(Areas::is_one(&stairs, Moves::Diagonal));
        let mut runs = Bits::new(20, 2, false);
        runs.set_run(0, 2, 6);
        runs.set_run(1, 6, 9);
        assert!(!Areas::is_one(&runs, Moves::Orthogonal));
        assert!(Areas::is_one(&runs, Moves::Diagonal));
        // One cell further apart, they stay apart either way.
        let mut apart = Bits::new(20, 2, false);
        apart.set_run(0, 2, 6);
        apart.set_run(1, 7, 9);
        assert!(!Areas::is_one(&apart, Moves::Diagonal));
    }

    #[test]
    fn bytes_pack_into_their_bits() {
        let mut rng = Rng::stream(11, "test", "pack");
        for _ in 0..200 {
            let mut bytes = [0u8; 64];
            bytes.iter_mut().for_each(|b| *b = u8::from(rng.coin()));
            let plain = bytes.iter().enumerate().fold(0u64, |w, (i, &b)| w | u64::from(b) << i);
            assert_eq!(pack_bytes(&bytes), plain);
        }
        assert_eq!(pack_bytes(&[1; 64]), u64::MAX);
        assert_eq!(pack_bytes(&[0; 64]), 0);
    }

    #[test]
    fn areas_match_a_flood_fill() {
        let mut rng = Rng::stream(9, "test", "areas");
        let sizes = SIZES.into_iter().chain([(200, 40), (128, 20)]);
        for ((width, height), moves) in sizes.flat_map(|s| [(s, Moves::Orthogonal), (s, Moves::Diagonal)]) {
            for percent in [30, 55, 70, 100] {
                let (bits, plain) = random(width, height, percent, false, &mut rng);
                let areas = Areas::of(&bits, moves);
                let mut label = vec![u32::MAX; width * height];
                for (run, &a) in areas.runs.iter().zip(&areas.area) {
                    for x in run.x0..run.x1 {
                        label[run.y as usize * width + x as usize] = a;
                    }
                }
                // Flood labels, numbered in scan order.
                let mut flood = vec![u32::MAX; width * height];
                let mut next = 0;
                for start in 0..plain.len() {
                    if !plain[start] || flood[start] != u32::MAX {
                        continue;
                    }
                    let mut stack = vec![start];
                    flood[start] = next;
                    let mut size = 0;
                    while let Some(i) = stack.pop() {
                        size += 1;
                        let (x, y) = ((i % width) as i32, (i / width) as i32);
                        let near = moves
                            .steps()
                            .iter()
                            .map(|s| (x + s.x, y + s.y))
                            .filter(|&(nx, ny)| nx >= 0 && ny >= 0 && (nx as usize) < width && (ny as usize) < height)
                            .map(|(nx, ny)| ny as usize * width + nx as usize);
                        for j in near {
                            if plain[j] && flood[j] == u32::MAX {
                                flood[j] = next;
                                stack.push(j);
                            }
                        }
                    }
                    assert_eq!(areas.sizes.get(next as usize), Some(&size), "{width}x{height} {percent}% {moves:?}");
                    next += 1;
                }
                assert_eq!(label, flood, "{width}x{height} {percent}% {moves:?}");
                assert_eq!(areas.sizes.len() as u32, next);
                assert_eq!(Areas::is_one(&bits, moves), next <= 1, "{width}x{height} {percent}% {moves:?}");
            }
        }
    }
}
