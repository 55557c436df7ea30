//! Variation transforms: one drawing, many prefabs.
//!
//! A prefab's header may give glyphs a meaning of their own (`legend`) and rewrite
//! the terrain layer's glyphs, in the order written, each time the prefab is
//! placed: `subst` (each cell drawn on its own), `subst-once` (one draw for all the
//! cells), `nsubst` (exactly so many cells each) and `shuffle` (glyphs or blocks of
//! glyphs dealt among each other). A `mask` layer protects cells from all of them.
//!
//! In goes the drawing (the glyph of every cell a rule or the legend concerns, the
//! mask, the rules and the glyphs' meanings); out comes, for a placement's seed, the
//! terrain and reference characters of one outcome ([`Variation::outcome`]). Only
//! the cells whose glyph some rule or the legend names take part: every other cell
//! is fixed as drawn, and a prefab without variation lines has no [`Variation`] at
//! all, so it never draws a number. The same seed always gives the same outcome,
//! on every platform: draws come from the crate's own [`Rng`], weights and counts
//! are `u32`. A variation never changes whether a cell belongs to the prefab (`?`
//! and the connector `*` cannot vary) nor moves links or machines; stairs may
//! vary like any terrain. The [`proof`] module shows at load time that every
//! outcome is a valid prefab, reasoning over the glyphs each cell may end up with
//! and how many cells a rule deals each share, rather than sampling.

mod exhaust;
pub(crate) mod parse;
pub(crate) mod proof;
#[cfg(test)]
mod tests;

use super::assemble::{Drawn, Place, assemble};
use super::{CellMark, Header, Prefab, RefMark, Varying, sorted_refs};
use crate::error::{Error, Location};
use crate::format::palette::Palette;
use crate::grid::Grid;
use crate::map::Terrain;
use crate::rng::Rng;
use crate::vocab::Style;
use std::sync::Arc;

pub use parse::KEYS;

/// One glyph a rule may choose, and how often.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Choice {
    pub glyph: char,
    pub weight: u32,
}

/// An `nsubst` group: so many cells (or the rest) take these choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Group {
    /// `None` for `rest`.
    pub count: Option<u32>,
    /// One draw for the whole group instead of one per cell.
    pub once: bool,
    pub choices: Vec<Choice>,
}

/// What one variation line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Every cell holding a glyph of `from` takes one of `choices`: each on its
    /// own, or all the same when `once`.
    Subst { from: Vec<char>, choices: Vec<Choice>, once: bool },
    /// The cells holding a glyph of `from`, dealt in random order to the groups.
    Count { from: Vec<char>, groups: Vec<Group> },
    /// The blocks laid out in random order: each glyph of a block becomes the
    /// glyph at the same place in the block laid where it is first written (a
    /// block written again weighs the deal, and with one two blocks may become
    /// the same).
    Shuffle { blocks: Vec<Vec<char>> },
}

impl Rule {
    /// True when it rewrites cells holding `glyph`.
    pub fn takes(&self, glyph: char) -> bool {
        match self {
            Rule::Subst { from, .. } | Rule::Count { from, .. } => from.contains(&glyph),
            Rule::Shuffle { blocks } => blocks.iter().any(|b| b.contains(&glyph)),
        }
    }

    /// Every glyph it rewrites.
    pub fn reads(&self) -> Vec<char> {
        match self {
            Rule::Subst { from, .. } | Rule::Count { from, .. } => from.clone(),
            Rule::Shuffle { blocks } => blocks.iter().flatten().copied().collect(),
        }
    }

    /// Every glyph it may write.
    pub fn writes(&self) -> Vec<char> {
        match self {
            Rule::Subst { choices, .. } => choices.iter().map(|c| c.glyph).collect(),
            Rule::Count { groups, .. } => groups.iter().flat_map(|g| g.choices.iter().map(|c| c.glyph)).collect(),
            Rule::Shuffle { blocks } => blocks.iter().flatten().copied().collect(),
        }
    }
}

/// A variation line: its rule, its key and value as written, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub rule: Rule,
    pub key: &'static str,
    pub text: String,
    pub at: Location,
}

impl Step {
    /// How messages name it: "`subst` at line 4".
    pub fn name(&self) -> String {
        format!("`{}` at line {}", self.key, self.at.line)
    }
}

/// A `legend` line: a glyph's meaning in this prefab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LegendEntry {
    pub glyph: char,
    pub terrain: Terrain,
    /// A reference character the cell holds, resolved by the definition file.
    pub reference: Option<char>,
    /// The cell marks a cell holding the glyph carries, sorted.
    pub marks: Vec<String>,
    pub text: String,
    pub at: Location,
}

/// What a glyph means: a terrain and perhaps a reference character.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Meaning {
    pub terrain: Terrain,
    pub reference: Option<char>,
}

/// A prefab's variation: the glyphs of the cells it concerns, what may change
/// them, and what they mean. Two are equal when they draw and rewrite alike,
/// wherever written.
#[derive(Clone, Debug)]
pub(crate) struct Variation {
    /// The glyph drawn in each cell whose glyph a rule or the legend names;
    /// `None` for cells fixed as drawn.
    pub glyphs: Grid<Option<char>>,
    /// Cells no rule changes.
    pub mask: Grid<bool>,
    pub legend: Vec<LegendEntry>,
    pub steps: Vec<Step>,
    /// The indices of the cells `glyphs` names, in reading order: the only cells
    /// an outcome writes.
    concerned: Vec<u32>,
    /// Every glyph some cell may hold, with its meaning, sorted by glyph; a glyph
    /// without one is left out (the proof reports it).
    meanings: Vec<(char, Meaning)>,
}

impl PartialEq for Variation {
    fn eq(&self, other: &Variation) -> bool {
        fn legend(v: &Variation) -> Vec<(char, Terrain, Option<char>, &[String])> {
            v.legend.iter().map(|l| (l.glyph, l.terrain, l.reference, &l.marks[..])).collect()
        }
        let rules = |v: &Variation| v.steps.iter().map(|s| s.rule.clone()).collect::<Vec<_>>();
        (&self.glyphs, &self.mask, legend(self), rules(self))
            == (&other.glyphs, &other.mask, legend(other), rules(other))
    }
}

impl Eq for Variation {}

/// How an outcome's choices are made: drawn from a stream, or the first of each.
enum Draw<'r> {
    Random(&'r mut Rng),
    First,
}

impl Draw<'_> {
    fn choice(&mut self, choices: &[Choice]) -> char {
        let i = match self {
            Draw::First => 0,
            Draw::Random(rng) => {
                // The reader allows at most MAX_CHOICES: weights gathered on the stack.
                let mut weights = [0u32; parse::MAX_CHOICES];
                let n = choices.len().min(parse::MAX_CHOICES);
                for (w, c) in weights.iter_mut().zip(choices) {
                    *w = c.weight;
                }
                rng.weighted(&weights[..n]).unwrap_or(0)
            }
        };
        choices.get(i).or(choices.first()).map_or(' ', |c| c.glyph)
    }

    /// Puts `take` items drawn at random first (a partial Fisher–Yates shuffle);
    /// the first draw leaves them in reading order.
    fn deal<T>(&mut self, items: &mut [T], take: usize) {
        if let Draw::Random(rng) = self {
            let n = items.len();
            for i in 0..take.min(n.saturating_sub(1)) {
                let j = i + rng.below(u32::try_from(n - i).unwrap_or(u32::MAX)) as usize;
                items.swap(i, j);
            }
        }
    }

    /// A permutation of `0..n` into `order`: random, or the identity.
    fn permutation(&mut self, order: &mut Vec<usize>, n: usize) {
        order.clear();
        order.extend(0..n);
        if let Draw::Random(rng) = self {
            rng.shuffle(order);
        }
    }
}

impl Variation {
    /// A variation over a terrain layer drawn with `drawn` glyphs (`None` for
    /// connectors), its mask, legend and rules. A cell takes part when a rule or
    /// the legend names its glyph. Meanings come from the legend, then the palette.
    pub fn new(
        drawn: &Grid<Option<char>>,
        mask: Grid<bool>,
        legend: Vec<LegendEntry>,
        steps: Vec<Step>,
        palette: &Palette,
    ) -> Variation {
        let named = |g: char| legend.iter().any(|l| l.glyph == g) || steps.iter().any(|s| s.rule.takes(g));
        let cells: Vec<Option<char>> = drawn.cells().iter().map(|g| g.filter(|&g| named(g))).collect();
        let concerned = cells.iter().enumerate().filter(|(_, g)| g.is_some()).map(|(i, _)| i as u32).collect();
        let glyphs = Grid::from_cells(drawn.width(), drawn.height(), cells)
            .unwrap_or_else(|| Grid::new(drawn.width(), drawn.height(), None));
        let mut v = Variation { glyphs, mask, legend, steps, concerned, meanings: Vec::new() };
        let mut all: Vec<char> = v.glyphs.cells().iter().flatten().copied().collect();
        for s in &v.steps {
            all.extend(s.rule.writes());
        }
        all.sort_unstable();
        all.dedup();
        v.meanings = all.into_iter().filter_map(|g| v.meaning_of(g, palette).map(|m| (g, m))).collect();
        v
    }

    fn meaning_of(&self, glyph: char, palette: &Palette) -> Option<Meaning> {
        if let Some(l) = self.legend_of(glyph) {
            return Some(Meaning { terrain: l.terrain, reference: l.reference });
        }
        palette.terrain_of(glyph).map(|terrain| Meaning { terrain, reference: None })
    }

    /// The meaning of a glyph some cell may hold, if it has one.
    pub fn meaning(&self, glyph: char) -> Option<Meaning> {
        self.meanings.binary_search_by_key(&glyph, |m| m.0).ok().map(|i| self.meanings[i].1)
    }

    /// The legend's entry for `glyph`.
    pub fn legend_of(&self, glyph: char) -> Option<&LegendEntry> {
        self.legend.iter().find(|l| l.glyph == glyph)
    }

    /// The outcome of the placement seeded `seed`: `fixed` (the prefab's terrain,
    /// whose concerned cells it overwrites), `refs` (the references drawn on the
    /// refs layer, to which it adds those of the legend) and `marks` (to which it
    /// adds the legend's cell marks, in reading order).
    pub fn outcome(
        &self,
        seed: u32,
        fixed: &mut Grid<Option<Terrain>>,
        refs: &mut Vec<RefMark>,
        marks: &mut Vec<CellMark>,
    ) {
        let mut rng = Rng::stream_n(u64::from(seed), "variant", 0);
        let glyphs = self.rewritten(Draw::Random(&mut rng));
        self.resolve(&glyphs, fixed, refs, marks);
    }

    /// The outcome that takes the first choice of every rule, deals `nsubst`
    /// cells in reading order and shuffles nothing: the prefab as it reads.
    pub fn first_outcome(&self, fixed: &mut Grid<Option<Terrain>>, refs: &mut Vec<RefMark>, marks: &mut Vec<CellMark>) {
        let glyphs = self.rewritten(Draw::First);
        self.resolve(&glyphs, fixed, refs, marks);
    }

    /// The glyphs of the concerned cells after every rule, drawn by `draw`.
    fn rewritten(&self, mut draw: Draw<'_>) -> Vec<char> {
        let mut glyphs: Vec<char> =
            self.concerned.iter().map(|&i| self.glyphs.cells()[i as usize].unwrap_or(' ')).collect();
        let free: Vec<bool> = self.concerned.iter().map(|&i| !self.mask.cells()[i as usize]).collect();
        let mut cells: Vec<usize> = Vec::new();
        let mut order: Vec<usize> = Vec::new();
        for step in &self.steps {
            match &step.rule {
                Rule::Subst { from, choices, once } => {
                    let shared = once.then(|| draw.choice(choices));
                    for (g, _) in glyphs.iter_mut().zip(&free).filter(|(g, f)| **f && from.contains(g)) {
                        *g = shared.unwrap_or_else(|| draw.choice(choices));
                    }
                }
                Rule::Count { from, groups } => {
                    cells.clear();
                    cells.extend((0..glyphs.len()).filter(|&k| free[k] && from.contains(&glyphs[k])));
                    let counted: u64 = groups.iter().map(|g| g.count.map_or(0, u64::from)).sum();
                    draw.deal(&mut cells, usize::try_from(counted).unwrap_or(usize::MAX));
                    let mut dealt = cells.iter();
                    for group in groups {
                        let shared = group.once.then(|| draw.choice(&group.choices));
                        let take = group.count.map_or(usize::MAX, |n| n as usize);
                        for &k in dealt.by_ref().take(take) {
                            glyphs[k] = shared.unwrap_or_else(|| draw.choice(&group.choices));
                        }
                    }
                }
                Rule::Shuffle { blocks } => {
                    draw.permutation(&mut order, blocks.len());
                    for (g, _) in glyphs.iter_mut().zip(&free).filter(|(_, f)| **f) {
                        let found = blocks
                            .iter()
                            .enumerate()
                            .find_map(|(b, block)| block.iter().position(|x| x == g).map(|at| (b, at)));
                        if let Some((b, at)) = found {
                            *g = blocks[order[b]][at];
                        }
                    }
                }
            }
        }
        glyphs
    }

    /// Writes what the concerned cells' `glyphs` stand for into `cells`, `refs`
    /// and `marks`.
    fn resolve(
        &self,
        glyphs: &[char],
        cells: &mut Grid<Option<Terrain>>,
        refs: &mut Vec<RefMark>,
        marks: &mut Vec<CellMark>,
    ) {
        if self.legend.iter().any(|l| !l.marks.is_empty()) {
            // Concerned cells come in reading order, so the marks do too.
            for (&i, &g) in self.concerned.iter().zip(glyphs) {
                let at = cells.point_of(i as usize);
                let names = self.legend_of(g).map_or(&[][..], |l| &l.marks[..]);
                marks.extend(names.iter().map(|name| CellMark { at, name: name.clone() }));
            }
        }
        let mut added = false;
        for (&i, &g) in self.concerned.iter().zip(glyphs) {
            // Every glyph a cell may hold has a meaning: the proof saw to it.
            let Some(meaning) = self.meaning(g) else { continue };
            cells.cells_mut()[i as usize] = Some(meaning.terrain);
            if let Some(r) = meaning.reference {
                refs.push(RefMark { at: cells.point_of(i as usize), glyph: r });
                added = true;
            }
        }
        if added {
            refs.sort_by_key(|r| (r.at.y, r.at.x));
        }
    }
}

/// Builds a prefab whose header has variation lines: reads them, checks the
/// glyphs, assembles the first outcome (so every check a prefab passes runs on a
/// real outcome), then proves every other outcome valid. `glyphs` is the terrain
/// layer's glyph in every cell (`None` for a connector), `mask` the cells the
/// mask layer protects. Returns every problem found.
pub(super) fn build(
    file: &str,
    header: Header,
    origin: Location,
    mut drawn: Drawn,
    place: &Place<'_, '_>,
    (glyphs, mask): (&Grid<Option<char>>, Grid<bool>),
    palette: &Palette,
) -> Result<Prefab, Vec<Error>> {
    let (legend, steps) = parse::lines(&header.variation)?;
    let lines = header.variation.clone();
    let variation = Variation::new(glyphs, mask, legend, steps, palette);
    let dont_care_is_floor = header.style.dont_care_is_floor();
    let parted = header.style == Style::Centered;
    let subject = |cells| proof::Subject {
        cells,
        links: &[],
        machines: &[],
        drawn_refs: &[],
        dont_care_is_floor,
        parted,
        moves: palette.moves(),
        machine_glyphs: &[],
        origin: &origin,
    };
    let errors = proof::check_glyphs(&variation, &subject(&drawn.terrain));
    if !errors.is_empty() {
        return Err(errors);
    }
    let (mut first_refs, mut first_marks) = (Vec::new(), Vec::new());
    variation.first_outcome(&mut drawn.terrain, &mut first_refs, &mut first_marks);
    let mut prefab = assemble(file, header, origin.clone(), drawn, place, palette.moves())?;
    let drawn_refs = prefab.refs.clone();
    let proven = proof::prove(
        &variation,
        &proof::Subject {
            cells: &prefab.cells,
            links: &prefab.links,
            machines: &prefab.machines,
            drawn_refs: &drawn_refs,
            dont_care_is_floor,
            parted,
            moves: palette.moves(),
            machine_glyphs: &[],
            origin: &origin,
        },
    )?;
    prefab.refs = sorted_refs(drawn_refs.iter().copied().chain(first_refs).collect());
    prefab.marks = first_marks;
    let closed = prefab.with_layers(proven.closed.clone(), drawn_refs.clone(), Vec::new());
    let open = prefab.with_layers(proven.open.clone(), drawn_refs.clone(), Vec::new());
    prefab.variation = Some(Arc::new(Varying { variation, lines, proven, drawn_refs, closed, open }));
    Ok(prefab)
}
