//! Every outcome of a variation, listed when there are few: what the proof falls
//! back on when its glyph sets refuse a floor that correlated draws keep whole.
//!
//! In: a [`Variation`]. Out: an [`Outcomes`] holding every distinct outcome
//! some draw of the rules gives (the glyphs of the cells that change, and of
//! those that do not), or `None` when listing them would pass a budget. The listing follows each rule through every way its draws can fall —
//! a `subst` per cell or once, an `nsubst` dealing any cells to its groups, a
//! `shuffle` laying its blocks in any order — exactly as `rewritten` draws them
//! (a choice of weight 0 is never drawn unless all are), so it holds every
//! outcome and no other: a proof by listing, not a sample.
//!
//! Only the *live* cells are listed: those whose glyph some rule may change. A
//! cell no rule can change may still be dealt a share of an `nsubst`, but then
//! every share of that rule writes its own glyph, so which cells the deal gives
//! it changes no other cell's outcome; leaving it out keeps the listing exact and
//! its rows short.

use super::{Choice, Group, Rule, Variation};

/// Most distinct outcomes listed before the listing gives up.
pub(super) const MAX_OUTCOMES: usize = 1024;

/// Most partial outcomes written, duplicates included, before it gives up:
/// each rule's branches are counted before any is written, so a variation
/// with too many outcomes costs almost nothing to give up on.
const MAX_WORK: u128 = 2_000;

/// Every outcome of a variation, listed over its live cells.
pub(super) struct Outcomes {
    /// Each concerned cell (its index in the prefab) and its glyph as drawn.
    start: Vec<(u32, char)>,
    /// The prefab indices of the cells some rule may change.
    live: Vec<u32>,
    /// Each outcome's glyphs in the live cells.
    listed: Vec<Vec<char>>,
}

impl Outcomes {
    /// Every concerned cell (its index in the prefab) with its glyph as drawn:
    /// a cell not [`Outcomes::live`] holds it in every outcome.
    pub fn start(&self) -> &[(u32, char)] {
        &self.start
    }

    /// The prefab indices of the cells whose glyph some outcome changes.
    pub fn live(&self) -> &[u32] {
        &self.live
    }

    /// Every outcome's glyphs in the [`Outcomes::live`] cells.
    pub fn listed(&self) -> &[Vec<char>] {
        &self.listed
    }
}

impl Variation {
    /// Every outcome's glyphs in the concerned cells, or `None` when there are
    /// more than [`MAX_OUTCOMES`] or listing them costs too much.
    pub(super) fn all_outcomes(&self) -> Option<Outcomes> {
        let start: Vec<char> = self.concerned.iter().map(|&i| self.glyphs.cells()[i as usize].unwrap_or(' ')).collect();
        let free: Vec<bool> = self.concerned.iter().map(|&i| !self.mask.cells()[i as usize]).collect();
        let live = self.live_cells(&start, &free)?;
        let width = live.len();
        // Every outcome's live glyphs, a row each, stored flat: listing writes
        // thousands of short rows, and one buffer per step keeps that cheap.
        let mut rows: Vec<char> = live.iter().map(|&k| start[k]).collect();
        let (mut next, mut scratch, mut cells) = (Vec::new(), Vec::new(), Vec::new());
        let mut work = 0u128;
        for step in self.steps.iter().filter(|_| width > 0) {
            let branching = rows.chunks(width).map(|row| branches(&step.rule, row)).fold(0u128, u128::saturating_add);
            work = work.saturating_add(branching);
            if work > MAX_WORK {
                return None;
            }
            next.clear();
            let budget = MAX_WORK as usize * width;
            for row in rows.chunks(width) {
                write_results(&step.rule, row, &mut next, budget, (&mut scratch, &mut cells))?;
            }
            let mut distinct: Vec<&[char]> = next.chunks(width).collect();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() > MAX_OUTCOMES {
                return None;
            }
            rows = distinct.concat();
        }
        let listed = if width == 0 { vec![Vec::new()] } else { rows.chunks(width).map(<[char]>::to_vec).collect() };
        let start_cells = self.concerned.iter().copied().zip(start).collect();
        let live = live.iter().map(|&k| self.concerned[k]).collect();
        Some(Outcomes { start: start_cells, live, listed })
    }

    /// The free cells whose glyph some rule may change: each cell's possible
    /// glyphs followed through the rules (a rule that reads one of them adds
    /// every glyph it writes), live when more than one. `None` past
    /// [`super::proof::MAX_GLYPHS`] glyphs, which the proof refuses anyway.
    fn live_cells(&self, start: &[char], free: &[bool]) -> Option<Vec<usize>> {
        let mut alphabet: Vec<char> = start.to_vec();
        alphabet.extend(self.steps.iter().flat_map(|s| s.rule.writes()));
        alphabet.sort_unstable();
        alphabet.dedup();
        if alphabet.len() > super::proof::MAX_GLYPHS {
            return None;
        }
        let bits = |glyphs: &[char]| -> u128 {
            glyphs.iter().filter_map(|g| alphabet.binary_search(g).ok()).fold(0, |acc, b| acc | 1 << b)
        };
        let mut may: Vec<u128> = start.iter().map(|g| bits(std::slice::from_ref(g))).collect();
        for step in &self.steps {
            let (reads, writes) = (bits(&step.rule.reads()), bits(&step.rule.writes()));
            for (m, _) in may.iter_mut().zip(free).filter(|(m, f)| **f && **m & reads != 0) {
                *m |= writes;
            }
        }
        Some((0..start.len()).filter(|&k| may[k].count_ones() > 1).collect())
    }
}

/// The choices a draw may give: those of weight above 0, or the first when
/// none has any (as `Draw::choice` falls back to it).
fn drawable(choices: &[Choice]) -> Vec<char> {
    let weighted: Vec<char> = choices.iter().filter(|c| c.weight > 0).map(|c| c.glyph).collect();
    if weighted.is_empty() { choices.first().map(|c| c.glyph).into_iter().collect() } else { weighted }
}

/// How many results (duplicates included) `rule` gives on `glyphs`, at most:
/// saturating, so a huge count reads as huge.
fn branches(rule: &Rule, glyphs: &[char]) -> u128 {
    let matching = |from: &[char]| glyphs.iter().filter(|g| from.contains(g)).count() as u32;
    let power = |base: usize, exp: u32| (base as u128).checked_pow(exp).unwrap_or(u128::MAX);
    match rule {
        Rule::Subst { from, choices, once } => {
            let picks = drawable(choices).len();
            if *once { picks as u128 } else { power(picks, matching(from)) }
        }
        Rule::Count { from, groups } => {
            let mut left = matching(from) as u128;
            let mut total: u128 = 1;
            for group in groups {
                let take = group.count.map_or(left, |n| u128::from(n).min(left));
                let picks = drawable(&group.choices).len();
                let ways = if group.once { picks as u128 } else { power(picks, take as u32) };
                total = total.saturating_mul(choose(left, take)).saturating_mul(ways);
                left -= take;
            }
            total
        }
        Rule::Shuffle { blocks } => (1..=blocks.len() as u128).fold(1u128, u128::saturating_mul),
    }
}

/// `n` choose `k`, saturating.
fn choose(n: u128, k: u128) -> u128 {
    let k = k.min(n - k);
    (0..k).try_fold(1u128, |acc, i| acc.checked_mul(n - i).map(|x| x / (i + 1))).unwrap_or(u128::MAX)
}

/// Appends every result of `rule` on `row` to `out` (rows of `row`'s width,
/// duplicates included); `None` once `out` holds more than `budget` glyphs.
/// `scratch` and `cells` are buffers reused between calls.
fn write_results(
    rule: &Rule,
    row: &[char],
    out: &mut Vec<char>,
    budget: usize,
    (scratch, cells): (&mut Vec<char>, &mut Vec<usize>),
) -> Option<()> {
    let from = match rule {
        Rule::Subst { from, .. } | Rule::Count { from, .. } => from.as_slice(),
        Rule::Shuffle { .. } => &[],
    };
    cells.clear();
    cells.extend((0..row.len()).filter(|&k| from.contains(&row[k])));
    scratch.clear();
    scratch.extend_from_slice(row);
    let mut keep = |written: &mut [char]| {
        out.extend_from_slice(written);
        (out.len() <= budget).then_some(())
    };
    match rule {
        Rule::Subst { choices, once, .. } => {
            each_writing(scratch, cells, &drawable(choices), *once, &mut keep)?;
        }
        Rule::Count { groups, .. } => deal(scratch, cells, groups, &mut keep)?,
        Rule::Shuffle { blocks } => {
            // Where each cell's glyph is first written: its block and place.
            let found: Vec<Option<(usize, usize)>> = row
                .iter()
                .map(|g| {
                    blocks.iter().enumerate().find_map(|(b, block)| block.iter().position(|x| x == g).map(|at| (b, at)))
                })
                .collect();
            let mut order: Vec<usize> = (0..blocks.len()).collect();
            permutations(&mut order, 0, &mut |order| {
                for ((cell, &g), f) in scratch.iter_mut().zip(row).zip(&found) {
                    *cell = f.map_or(g, |(b, at)| blocks[order[b]][at]);
                }
                keep(scratch).is_some()
            })?;
        }
    }
    Some(())
}

/// Calls `leaf` with `row` as each way `picks` may be written into `cells`:
/// one pick for them all when `once`, else one per cell. `None` as soon as
/// `leaf` gives it; `cells` are left as the last way wrote them.
fn each_writing(
    row: &mut [char],
    cells: &[usize],
    picks: &[char],
    once: bool,
    leaf: &mut dyn FnMut(&mut [char]) -> Option<()>,
) -> Option<()> {
    if cells.is_empty() {
        return leaf(row);
    }
    if once {
        for &pick in picks {
            cells.iter().for_each(|&k| row[k] = pick);
            leaf(row)?;
        }
        return Some(());
    }
    let (&k, rest) = cells.split_first()?;
    for &pick in picks {
        row[k] = pick;
        each_writing(row, rest, picks, false, leaf)?;
    }
    Some(())
}

/// Calls `leaf` with `row` as each way an `nsubst` deals `cells` to `groups`
/// in turn (each taking its count of them, or all that are left) and each
/// group writes its picks. Restores `row`; `None` as soon as `leaf` gives it.
fn deal(
    row: &mut [char],
    cells: &[usize],
    groups: &[Group],
    leaf: &mut dyn FnMut(&mut [char]) -> Option<()>,
) -> Option<()> {
    let Some((group, later)) = groups.split_first() else { return leaf(row) };
    let take = group.count.map_or(cells.len(), |n| (n as usize).min(cells.len()));
    let picks = drawable(&group.choices);
    let saved: Vec<char> = cells.iter().map(|&k| row[k]).collect();
    let (mut chosen, mut rest) = (Vec::with_capacity(take), Vec::with_capacity(cells.len()));
    let mut going = Some(());
    subsets(cells.len(), take, &mut |picked: &[bool]| {
        chosen.clear();
        rest.clear();
        for (&k, &p) in cells.iter().zip(picked) {
            if p { chosen.push(k) } else { rest.push(k) }
        }
        going = each_writing(row, &chosen, &picks, group.once, &mut |row| deal(row, &rest, later, leaf));
        for (&k, &g) in cells.iter().zip(&saved) {
            row[k] = g;
        }
        going.is_some()
    });
    going
}

/// Calls `visit` with every choice of `size` of `n` items (as a flag per
/// item) until it says stop.
fn subsets(n: usize, size: usize, visit: &mut dyn FnMut(&[bool]) -> bool) {
    fn walk(picked: &mut Vec<bool>, left: usize, visit: &mut dyn FnMut(&[bool]) -> bool, n: usize) -> bool {
        if picked.len() == n {
            return left > 0 || visit(picked);
        }
        let room = n - picked.len();
        for take in [true, false] {
            if (take && left == 0) || (!take && room <= left) {
                continue;
            }
            picked.push(take);
            let going = walk(picked, left - usize::from(take), visit, n);
            picked.pop();
            if !going {
                return false;
            }
        }
        true
    }
    walk(&mut Vec::with_capacity(n), size, visit, n);
}

/// Calls `visit` with every permutation of `order[at..]` (the rest fixed);
/// stops, giving `None`, when `visit` says so.
fn permutations(order: &mut Vec<usize>, at: usize, visit: &mut dyn FnMut(&[usize]) -> bool) -> Option<()> {
    if at + 1 >= order.len() {
        return visit(order).then_some(());
    }
    for k in at..order.len() {
        order.swap(at, k);
        let going = permutations(order, at + 1, visit);
        order.swap(at, k);
        going?;
    }
    Some(())
}
