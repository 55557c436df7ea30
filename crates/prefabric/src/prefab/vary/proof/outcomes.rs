//! The proof by cases: when the sets refuse a floor, the outcomes are listed
//! one by one when they are few, and otherwise drawn for a witness.
//!
//! In: a prover and the blockers it counts. Out: whether every listed outcome
//! keeps the promise the sets could not show (`None` when listing proves
//! nothing), and a sentence of evidence for the designer: the prefab's floor
//! already apart as it reads, the first drawn outcome that strands floor, or
//! that none of those drawn does. Guarantees: listing is exhaustive (every way
//! the draws can fall, not a sample) and bounded by [`MAX_LISTED_CELLS`];
//! the witness is never a reason to accept.

use super::floor::{areas, meets_rim};
use super::{Prover, at};
use crate::geom::{Moves, Point};
use crate::grid::Grid;
use crate::map::Terrain;

impl Prover<'_> {
    /// Whether the outcomes, listed one by one (see `exhaust`), keep the
    /// promise the sets could not show: true when the floor open in every
    /// outcome (the sure floor) is parted into areas alike in each, each part
    /// meets the rim (or holds a link) alike in each, and every area of each
    /// holds some of it; for a floor [`Subject::parted`](super::Subject::parted), when every area of
    /// each meets the rim or holds a link. `None` when listing proves nothing:
    /// too many outcomes, no sure floor (unless parted), or a glyph whose
    /// machine only some draw places.
    /// Machines, `blockers` and the cells of glyphs that always bring a machine
    /// block.
    pub(super) fn every_listed_outcome_keeps_the_floor(&self, blockers: &[Point]) -> Option<bool> {
        if self.s.machine_glyphs.iter().any(|&(_, always)| !always) {
            return None;
        }
        let outcomes = self.v.all_outcomes()?;
        let cells = self.s.cells;
        let n = cells.cells().len();
        let blocked = self.blocked(blockers);
        let mut open: Vec<bool> = (cells.cells().iter().zip(&blocked))
            .map(|(c, &b)| !b && c.map_or(self.s.dont_care_is_floor, |t| t.is_walkable()))
            .collect();
        let opens = |i: u32, g: char| {
            !blocked[i as usize]
                && !self.s.machine_glyphs.iter().any(|m| m.0 == g)
                && self.v.meaning(g).is_some_and(|m| m.terrain.is_walkable())
        };
        for &(i, g) in outcomes.start() {
            open[i as usize] = opens(i, g);
        }
        // Outcomes that open the same cells have the same areas: each way of
        // opening the live cells is flooded once.
        let live = outcomes.live();
        let opened: Vec<bool> =
            outcomes.listed().iter().flat_map(|glyphs| live.iter().zip(glyphs).map(|(&i, &g)| opens(i, g))).collect();
        let mut ways: Vec<&[bool]> = opened.chunks(live.len().max(1)).collect();
        ways.sort_unstable();
        ways.dedup();
        // Each way costs a flood of the prefab: a big prefab opened many ways
        // is left refused rather than slow to load.
        if ways.len().saturating_mul(n) > MAX_LISTED_CELLS {
            return None;
        }
        let mut sure = open.clone();
        for way in &ways {
            for (&i, &o) in live.iter().zip(*way) {
                sure[i as usize] &= o;
            }
        }
        let sure: Vec<usize> = (0..n).filter(|&i| sure[i]).collect();
        let rim: Vec<bool> = (0..n).map(|i| self.meets_rim(i)).collect();
        let links: Vec<usize> = self.s.links.iter().filter_map(|l| cells.index_of(l.at)).collect();
        if self.s.parted {
            // A floor parted needs only that each area of each outcome leads out.
            return Some(ways.iter().all(|way| {
                for (&i, &o) in live.iter().zip(*way) {
                    open[i as usize] = o;
                }
                let areas = FloorAreas::of_open(cells.width(), cells.height(), &open, &rim, &links, self.s.moves);
                areas.on_rim.iter().skip(1).all(|&r| r)
            }));
        }
        if sure.is_empty() {
            // With no floor open in every outcome there is nothing to part
            // alike: the sets' answer stands.
            return None;
        }
        let mut first: Option<FloorAreas> = None;
        Some(ways.iter().all(|way| {
            for (&i, &o) in live.iter().zip(*way) {
                open[i as usize] = o;
            }
            let areas = FloorAreas::of_open(cells.width(), cells.height(), &open, &rim, &links, self.s.moves);
            let first = first.get_or_insert_with(|| areas.clone());
            first.parts_sure_floor_alike(&areas, &sure)
        }))
    }

    /// Whether the prefab as it reads has its floor apart already, or a drawn
    /// outcome shows the floor error to be real, in words: the first of the
    /// outcomes with variant seeds 1 to [`WITNESS_DRAWS`] (those `show
    /// --variants` draws) that strands floor, machines and `blockers` closed
    /// (see `FloorAreas::stranded_in`), and where; or that none of them does
    /// but the listed outcomes do (`listed_broken`), or that none does (such
    /// outcomes are rare, or the proof is cautious). Run only once the proof
    /// has refused, so a valid prefab pays nothing.
    pub(super) fn stranding_witness(&self, blockers: &[Point], listed_broken: bool) -> String {
        let cells = self.s.cells;
        let blocked = self.blocked(blockers);
        let floor = |grid: &Grid<Option<Terrain>>| {
            FloorAreas::of(
                grid,
                &blocked,
                self.s.dont_care_is_floor,
                !self.s.dont_care_is_floor && !self.s.parted,
                self.s.moves,
            )
        };
        let first = floor(cells);
        if self.s.parted {
            let (mut drawn, mut refs) = (cells.clone(), Vec::new());
            for seed in 1..=WITNESS_DRAWS {
                drawn.clone_from(cells);
                refs.clear();
                self.v.outcome(seed, &mut drawn, &mut refs, &mut Vec::new());
                let areas = floor(&drawn);
                if let Some(i) =
                    (0..areas.label.len()).find(|&i| areas.label[i] != 0 && !areas.on_rim[areas.label[i] as usize])
                {
                    return format!(
                        "the outcome of variant seed {seed} does: its floor at {} meets no edge of the prefab and holds no link",
                        at(cells.point_of(i))
                    );
                }
            }
        } else if let Some((a, b)) = first.apart(cells) {
            // Outcomes are compared with the first; one already apart is the
            // problem to show (often areas diagonal steps would join).
            let joined = match self.s.moves {
                Moves::Orthogonal => "joined side by side (the palette's `moves` is orthogonal)",
                Moves::Diagonal => "joined side by side or across a corner",
            };
            return format!(
                "the prefab as it reads already has its floor apart: the floor at {b} cannot reach the floor at {a}, and a prefab's floor must be one area, {joined}"
            );
        }
        let (mut drawn, mut refs) = (cells.clone(), Vec::new());
        for seed in 1..=WITNESS_DRAWS {
            drawn.clone_from(cells);
            refs.clear();
            self.v.outcome(seed, &mut drawn, &mut refs, &mut Vec::new());
            if let Some(how) = first.stranded_in(&floor(&drawn), cells) {
                return format!("the outcome of variant seed {seed} does: {how}");
            }
        }
        if listed_broken {
            return format!(
                "no outcome of variant seeds 1 to {WITNESS_DRAWS} shows it, but listing every outcome does: not all of them part the floor open in every outcome alike"
            );
        }
        format!(
            "no outcome of variant seeds 1 to {WITNESS_DRAWS} does: such outcomes are rare, or the proof, which follows the glyphs each cell may hold rather than whole outcomes, is too cautious here"
        )
    }
}

/// How many outcomes a refused floor is drawn in, looking for one that shows
/// the problem (see `Prover::stranding_witness`).
pub(super) const WITNESS_DRAWS: u32 = 64;

/// Most cells the proof floods when it lists outcomes instead of following
/// sets: the distinct ways the outcomes open the cells, times the prefab's cells.
pub(super) const MAX_LISTED_CELLS: usize = 100_000;

/// The walkable areas of one outcome, for comparing outcomes.
#[derive(Clone)]
pub(super) struct FloorAreas {
    /// Each cell's area, from 1; 0 for closed cells.
    pub(super) label: Vec<u32>,
    /// Per area (index = label), whether it meets the prefab's rim.
    pub(super) on_rim: Vec<bool>,
}

impl FloorAreas {
    /// The areas of `grid`'s walkable cells not `blocked` (`?` counts as floor
    /// when `dont_care_is_floor`, as the rim when `dont_care_is_rim`, else as
    /// closed), joined by `moves`.
    pub(super) fn of(
        grid: &Grid<Option<Terrain>>,
        blocked: &[bool],
        dont_care_is_floor: bool,
        dont_care_is_rim: bool,
        moves: Moves,
    ) -> FloorAreas {
        let open = |i: usize| {
            !blocked[i]
                && match grid.cells()[i] {
                    None => dont_care_is_floor,
                    Some(t) => t.is_walkable(),
                }
        };
        let (label, count) = areas(grid.width(), grid.height(), moves, open);
        let mut on_rim = vec![false; count as usize + 1];
        for (i, &a) in label.iter().enumerate().filter(|(_, a)| **a != 0) {
            on_rim[a as usize] |= meets_rim(grid, i, !dont_care_is_rim, moves);
        }
        FloorAreas { label, on_rim }
    }

    /// The areas of a `width` × `height` grid's `open` cells, joined by
    /// `moves`; an area meets the rim when one of its cells is a `rim` cell or
    /// one of `links`.
    pub(super) fn of_open(
        width: i32,
        height: i32,
        open: &[bool],
        rim: &[bool],
        links: &[usize],
        moves: Moves,
    ) -> FloorAreas {
        let (label, count) = areas(width, height, moves, |i| open[i]);
        let mut on_rim = vec![false; count as usize + 1];
        for (i, &a) in label.iter().enumerate().filter(|(_, a)| **a != 0) {
            on_rim[a as usize] |= rim[i];
        }
        for &i in links {
            on_rim[label[i] as usize] |= label[i] != 0;
        }
        FloorAreas { label, on_rim }
    }

    /// Two cells in different areas, first in reading order each, when the
    /// floor is in more than one area.
    pub(super) fn apart(&self, cells: &Grid<Option<Terrain>>) -> Option<(String, String)> {
        let first = self.label.iter().position(|&a| a == 1)?;
        let other = self.label.iter().position(|&a| a > 1)?;
        Some((at(cells.point_of(first)), at(cells.point_of(other))))
    }

    /// True when `drawn` parts the `sure` cells (open in every outcome) into
    /// areas as these areas do, each part meeting the rim in both or in
    /// neither, and every area of `drawn` holds some of them.
    pub(super) fn parts_sure_floor_alike(&self, drawn: &FloorAreas, sure: &[usize]) -> bool {
        let mut here_of = vec![0u32; drawn.on_rim.len()];
        let mut drawn_of = vec![0u32; self.on_rim.len()];
        for &i in sure {
            let (a, d) = (self.label[i], drawn.label[i]);
            let (h, o) = (&mut here_of[d as usize], &mut drawn_of[a as usize]);
            if (*h != 0 && *h != a) || (*o != 0 && *o != d) || self.on_rim[a as usize] != drawn.on_rim[d as usize] {
                return false;
            }
            (*h, *o) = (a, d);
        }
        here_of.iter().skip(1).all(|&a| a != 0)
    }

    /// Where `drawn` strands floor, in words; `None` when it strands none. An
    /// area of `drawn` that meets no rim is stranded when it holds floor of an
    /// area here that met the rim (it lost its way out), floor of an area here
    /// that `drawn` parts (a piece cut off), or no floor open here at all (a
    /// pocket). Areas that only join, or pieces that each meet the rim, are no
    /// witness: the outside may still reach them.
    /// `cells` is the prefab the areas lie in, for naming cells.
    pub(super) fn stranded_in(&self, drawn: &FloorAreas, cells: &Grid<Option<Terrain>>) -> Option<String> {
        let cell = |i: usize| at(cells.point_of(i));
        // For each area here, one drawn area holding its floor, and whether
        // `drawn` parts it.
        let mut first_in: Vec<Option<(usize, u32)>> = vec![None; self.on_rim.len()];
        let mut parted: Vec<Option<usize>> = vec![None; self.on_rim.len()];
        for (i, (&a, &d)) in self.label.iter().zip(&drawn.label).enumerate() {
            if a == 0 || d == 0 {
                continue;
            }
            match first_in[a as usize] {
                None => first_in[a as usize] = Some((i, d)),
                Some((_, e)) if e != d && parted[a as usize].is_none() => parted[a as usize] = Some(i),
                Some(_) => {}
            }
        }
        let mut holds_floor_here = vec![false; drawn.on_rim.len()];
        for (&a, &d) in self.label.iter().zip(&drawn.label) {
            holds_floor_here[d as usize] |= a != 0 && d != 0;
        }
        for (i, (&a, &d)) in self.label.iter().zip(&drawn.label).enumerate() {
            if d == 0 || drawn.on_rim[d as usize] {
                continue;
            }
            if !holds_floor_here[d as usize] {
                return Some(format!("it opens a pocket at {} that no floor reaches", cell(i)));
            }
            if a == 0 {
                continue;
            }
            if self.on_rim[a as usize] {
                return Some(format!("its floor at {} no longer meets the prefab's rim", cell(i)));
            }
            if let (Some((j, e)), Some(k)) = (first_in[a as usize], parted[a as usize]) {
                let other = if e == d { k } else { j };
                return Some(format!("its floor at {} is cut off from the floor at {}", cell(i), cell(other)));
            }
        }
        None
    }
}
