//! The floor part of the proof, on the glyph sets: the floor keeps its areas
//! in every outcome (the rules in the module docs of [`super`]).
//!
//! In: a prover with its envelope, and the machine footprints that block
//! walkers too. Out: a problem per cell whose opening or closing may split,
//! join or strand the floor, located at the line that makes it possible; none
//! when every outcome keeps the first one's areas (or, for a parted floor,
//! each area meets the rim). Guarantees: conservative; before it refuses, it
//! lets the listed outcomes speak (see [`super::outcomes`]).

use super::envelope::Tie;
use super::{Open, Prover, at};
use crate::geom::{Moves, Point};
use crate::grid::Grid;
use crate::map::Terrain;

impl Prover<'_> {
    /// True when a step from cell `i` lands on the prefab's rim: off its edge,
    /// or on a `?` cell that is neither floor nor closed (see
    /// [`Subject::parted`](super::Subject::parted)).
    pub(super) fn meets_rim(&self, i: usize) -> bool {
        meets_rim(self.s.cells, i, self.s.dont_care_is_floor || self.s.parted, self.s.moves)
    }

    /// The floor keeps its areas in every outcome (see the module docs).
    pub(super) fn floor(&mut self, blockers: &[Point]) {
        let (w, h) = (self.s.cells.width(), self.s.cells.height());
        let open = self.openness(blockers);
        let n = open.len();
        let sure = |i: usize| open[i] == Open::Sure;
        let maybe = |i: usize| open[i] == Open::Maybe;
        if !(0..n).any(maybe) {
            return;
        }
        let cells: &Grid<Option<Terrain>> = self.s.cells;
        let moves = self.s.moves;
        let neighbours = move |i: usize| {
            let p = cells.point_of(i);
            moves.steps().iter().filter_map(move |&step| cells.index_of(p + step))
        };
        let (parted, dont_care_is_inside) = (self.s.parted, self.s.dont_care_is_floor || self.s.parted);
        let on_rim = |i: usize| meets_rim(cells, i, dont_care_is_inside, moves);
        let (sure_area, sure_count) = areas(w, h, moves, sure);
        let (all_area, _) = areas(w, h, moves, |i| sure(i) || maybe(i));
        // The sure areas the deals join in every outcome: each sure cell's class,
        // and the classes a dealt cell sets on the rim in every outcome.
        let (class_of_area, on_rim_by_deal) = self.classes(&open, &sure_area, sure_count, &on_rim);
        let class = |i: usize| class_of_area[sure_area[i] as usize];
        // 1. No maybe cell joins two classes of the sure floor. When one does, name
        // the smallest class so joined and a maybe cell beside it. (Areas apart
        // may join where each leads out on its own.)
        let mut holds: Vec<u32> = vec![0; n + 1];
        let mut joined: Option<u32> = None;
        for i in (0..n).filter(|&i| sure(i) && !self.s.parted) {
            let a = all_area[i] as usize;
            if holds[a] == 0 {
                holds[a] = class(i);
            } else if holds[a] != class(i) {
                joined = Some(all_area[i]);
                break;
            }
        }
        if let Some(a) = joined {
            let mut size = vec![0u32; sure_count as usize + 1];
            for i in (0..n).filter(|&i| sure(i)) {
                size[class(i) as usize] += 1;
            }
            let smallest = (0..n)
                .filter(|&i| sure(i) && all_area[i] == a)
                .min_by_key(|&i| (size[class(i) as usize], i))
                .map_or(0, class);
            let beside = |j: usize| neighbours(j).any(|k| sure(k) && class(k) == smallest);
            let i = (0..n).find(|&j| maybe(j) && all_area[j] == a && beside(j)).unwrap_or(0);
            let cut = (0..n).find(|&k| sure(k) && class(k) == smallest).map_or(Point::default(), |k| cells.point_of(k));
            self.floor_error(
                i,
                blockers,
                &format!(
                    "the floor at {} reaches the rest of the prefab's floor only through cells that may close, this one among them: in an outcome where they close, the floor splits",
                    at(cut)
                ),
            );
            return;
        }
        if sure_count == 0 {
            // Nothing is sure: all that may open must open together, as one area.
            let ties: Vec<Tie> = (0..n).filter(|&i| maybe(i)).map(|i| self.env.tie[i]).collect();
            let one_tie = matches!(ties.first(), Some(Tie::Shared(_)))
                && ties.iter().all(|t| *t == ties[0])
                && !(0..n).any(|i| maybe(i) && self.drawn_apart(i));
            let (_, count) = areas(w, h, moves, maybe);
            if !(one_tie && count == 1) {
                let i = (0..n).find(|&i| maybe(i)).unwrap_or(0);
                self.floor_error(
                    i,
                    blockers,
                    "no floor is open in every outcome, and the cells that may open do not open together as one area",
                );
            }
            return;
        }
        let links: Vec<usize> = self.s.links.iter().filter_map(|l| self.index(l.at)).collect();
        if self.s.parted {
            // Each class leads out in every outcome: through a sure cell on the
            // rim, a link on sure floor, or a deal that opens on the rim.
            let mut leads_out = vec![false; sure_count as usize + 1];
            for i in (0..n).filter(|&i| sure(i)) {
                leads_out[class(i) as usize] |= on_rim(i) || on_rim_by_deal[class(i) as usize] || links.contains(&i);
            }
            let stranded = (0..n).filter(|&j| sure(j) && !leads_out[class(j) as usize]).find_map(|j| {
                // A class no maybe cell touches is the same in every outcome:
                // the cave check names it as the drawing reads.
                (0..n).find(|&i| maybe(i) && all_area[i] == all_area[j]).map(|i| (i, j))
            });
            if let Some((i, j)) = stranded {
                self.floor_error(
                    i,
                    blockers,
                    &format!(
                        "the floor at {} meets the prefab's edge only through cells that may close, this one among them: in an outcome where they close, nothing outside reaches that floor",
                        at(cells.point_of(j))
                    ),
                );
                return;
            }
        }
        // 2. Each maybe cell reaches the sure floor through cells open with it
        // (or, for a floor parted, the rim or a link).
        let touches_sure = |i: usize| neighbours(i).any(sure);
        let leads_out_alone = |i: usize| parted && (on_rim(i) || links.contains(&i));
        let mut reached = vec![false; n];
        let mut stack: Vec<usize> = (0..n).filter(|&i| maybe(i) && (touches_sure(i) || leads_out_alone(i))).collect();
        for &i in &stack {
            reached[i] = true;
        }
        while let Some(j) = stack.pop() {
            let Tie::Shared(t) = self.env.tie[j] else { continue };
            if self.drawn_apart(j) {
                continue;
            }
            for k in neighbours(j) {
                if maybe(k) && !reached[k] && self.env.tie[k] == Tie::Shared(t) && !self.drawn_apart(k) {
                    reached[k] = true;
                    stack.push(k);
                }
            }
        }
        if let Some(i) = (0..n).find(|&i| maybe(i) && !reached[i]) {
            let why = if self.s.parted {
                "it may open while the cells between it and the floor or the prefab's edge stay closed, a pocket cut off from the rest"
            } else {
                "it may open while the cells between it and the floor stay closed, a pocket cut off from the rest"
            };
            self.floor_error(i, blockers, why);
            return;
        }
        if self.s.parted {
            return;
        }
        // 3. An area that reaches the rim through a maybe cell reaches it in every
        // outcome: through a sure cell, a link, or a deal's cell open in every outcome.
        let mut anchored = vec![false; n + 1];
        for i in (0..n).filter(|&i| sure(i) && (on_rim(i) || on_rim_by_deal[class(i) as usize])) {
            anchored[all_area[i] as usize] = true;
        }
        for &i in &links {
            anchored[all_area[i] as usize] = true;
        }
        if let Some(i) = (0..n).find(|&i| maybe(i) && on_rim(i) && !anchored[all_area[i] as usize]) {
            self.floor_error(
                i,
                blockers,
                "it is the only way its floor meets the prefab's rim (no cell open in every outcome and no link does): in an outcome where it closes, nothing outside reaches that floor",
            );
        }
    }

    /// The glyphs that leave a cell passable: walkable, and no machine a
    /// definition file may place with them.
    pub(super) fn passable_glyphs(&self) -> u128 {
        let passable = |g: char| {
            self.meaning(g).is_some_and(|m| m.terrain.is_walkable()) && !self.s.machine_glyphs.iter().any(|m| m.0 == g)
        };
        self.env.alphabet.iter().enumerate().filter(|(_, g)| passable(**g)).fold(0, |acc, (b, _)| acc | 1 << b)
    }

    /// Which sure areas (by label, from 1) the deals join in every outcome: for
    /// each its class (the label of one of them), and for each class whether some
    /// deal sets it on the rim in every outcome.
    ///
    /// A deal counts when, in every outcome, at least one of its maybe cells
    /// ends passable: it leaves at least so many of its cells passable, more than
    /// those of its cells that are sure or never open. Such a cell touches every
    /// class all its maybe cells touch (beside a sure cell of it), so those
    /// classes are one area in every outcome, and when all of its maybe cells lie
    /// on the rim, that area meets the rim. Classes joined so may let another
    /// deal join more: repeated until nothing changes.
    pub(super) fn classes(
        &self,
        open: &[Open],
        sure_area: &[u32],
        sure_count: u32,
        on_rim: &dyn Fn(usize) -> bool,
    ) -> (Vec<u32>, Vec<bool>) {
        let mut class: Vec<u32> = (0..=sure_count).collect();
        let mut on_rim_by_deal = vec![false; sure_count as usize + 1];
        let passable = self.passable_glyphs();
        let counted: Vec<Vec<usize>> = self
            .env
            .deals
            .iter()
            .filter_map(|d| {
                let maybe: Vec<usize> = d.cells.iter().copied().filter(|&i| open[i] == Open::Maybe).collect();
                let others = (d.cells.len() - maybe.len()) as u64;
                (!maybe.is_empty() && d.least_ending_in(passable) > others).then_some(maybe)
            })
            .collect();
        if counted.is_empty() {
            return (class, on_rim_by_deal);
        }
        let cells = self.s.cells;
        // The classes beside every cell of `deal`, and whether every one lies on the rim.
        let shared = |class: &mut Vec<u32>, deal: &[usize]| {
            let mut common: Option<Vec<u32>> = None;
            for &i in deal {
                let p = cells.point_of(i);
                let mut beside: Vec<u32> = self
                    .s
                    .moves
                    .steps()
                    .iter()
                    .filter_map(|&step| cells.index_of(p + step))
                    .filter(|&j| open[j] == Open::Sure)
                    .map(|j| find(class, sure_area[j]))
                    .collect();
                beside.sort_unstable();
                beside.dedup();
                common = Some(match common {
                    None => beside,
                    Some(mut c) => {
                        c.retain(|x| beside.contains(x));
                        c
                    }
                });
            }
            (common.unwrap_or_default(), deal.iter().all(|&i| on_rim(i)))
        };
        loop {
            let mut changed = false;
            for deal in &counted {
                let (beside, _) = shared(&mut class, deal);
                for pair in beside.windows(2) {
                    let (a, b) = (find(&mut class, pair[0]), find(&mut class, pair[1]));
                    if a != b {
                        class[a.max(b) as usize] = a.min(b);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for deal in &counted {
            if let (beside, true) = shared(&mut class, deal)
                && let Some(&c) = beside.first()
            {
                on_rim_by_deal[c as usize] = true;
            }
        }
        for a in 0..class.len() {
            let root = find(&mut class, a as u32);
            class[a] = root;
            on_rim_by_deal[a] = on_rim_by_deal[root as usize];
        }
        (class, on_rim_by_deal)
    }

    pub(super) fn floor_error(&mut self, i: usize, blockers: &[Point], why: &str) {
        let listed = self.every_listed_outcome_keeps_the_floor(blockers);
        if listed == Some(true) {
            return;
        }
        let p = self.s.cells.point_of(i);
        let step = self.env.changed_by[i];
        let witness = self.stranding_witness(blockers, listed == Some(false));
        self.push(
            step,
            format!("may open or close the cell at {}: {why}{} ({witness})", at(p), self.context),
            "mask the cell, or rewrite it together with its neighbours (`subst-once`, `shuffle`), so every outcome keeps the floor's areas",
        );
    }
}

/// True when a step by `moves` from cell `i` of `cells` lands on the prefab's
/// rim: off its edge, or on `?` unless `dont_care_is_inside` (where `?` is
/// floor, or closed as in a floor [`Subject::parted`](super::Subject::parted)).
pub(super) fn meets_rim(cells: &Grid<Option<Terrain>>, i: usize, dont_care_is_inside: bool, moves: Moves) -> bool {
    let p = cells.point_of(i);
    moves.steps().iter().any(|&step| match cells.get(p + step) {
        None => true,
        Some(c) => c.is_none() && !dont_care_is_inside,
    })
}

/// Labels the areas of the cells where `open` holds, joined by `moves`, from 1
/// (0 for closed cells), and says how many there are.
pub(super) fn areas(w: i32, h: i32, moves: Moves, open: impl Fn(usize) -> bool) -> (Vec<u32>, u32) {
    let grid: Grid<()> = Grid::new(w, h, ());
    let n = grid.cells().len();
    let mut label = vec![0u32; n];
    let mut count = 0;
    let mut stack = Vec::new();
    for start in 0..n {
        if !open(start) || label[start] != 0 {
            continue;
        }
        count += 1;
        label[start] = count;
        stack.push(start);
        while let Some(j) = stack.pop() {
            let p = grid.point_of(j);
            for &step in moves.steps() {
                if let Some(k) = grid.index_of(p + step).filter(|&k| open(k) && label[k] == 0) {
                    label[k] = count;
                    stack.push(k);
                }
            }
        }
    }
    (label, count)
}

/// The class `a` belongs to: the root of its chain in `class`, which it shortens.
pub(super) fn find(class: &mut [u32], mut a: u32) -> u32 {
    while class[a as usize] != a {
        let up = class[class[a as usize] as usize];
        class[a as usize] = up;
        a = up;
    }
    a
}
