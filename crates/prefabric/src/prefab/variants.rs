//! A prefab's variation, as the rest of the crate asks about it: whether it
//! varies, the outcome a seed draws, its most closed and most open drawings,
//! the views placement checks look through, the references some outcome may
//! hold, its mask, and the floor proofs run again with a definition file's
//! machines.
//!
//! In: a loaded [`Prefab`] (its variation proven at load). Out: outcomes and
//! the facts about every outcome the proof established. Guarantees: an
//! outcome is a valid prefab; the same seed gives the same outcome; a prefab
//! without variation lines is its own only outcome.

use super::{Prefab, RefMark, Varying, View, vary};
use crate::error::{Error, Location};
use crate::geom::Point;
use crate::grid::Grid;
use crate::map::Terrain;
use crate::vocab::Style;
use std::borrow::Cow;

impl Prefab {
    /// True when it has variation lines: each placement draws an outcome
    /// ([`Prefab::variant`]). Its own cells and references are then those of its
    /// first outcome: every rule's first choice, `nsubst` dealing in reading
    /// order, nothing shuffled.
    pub fn varies(&self) -> bool {
        self.variation.is_some()
    }

    /// The outcome of its variation that `seed` draws (itself when it has none):
    /// the terrain and references rewritten, links and machines as drawn, no
    /// variation left. The same seed always gives the same outcome; a placed
    /// prefab records its seed (`PlacedPrefab::variant`).
    pub fn variant(&self, seed: u32) -> Cow<'_, Prefab> {
        match &self.variation {
            None => Cow::Borrowed(self),
            Some(v) => {
                let mut cells = self.cells.clone();
                let mut refs = v.drawn_refs.clone();
                let mut marks = Vec::new();
                v.variation.outcome(seed, &mut cells, &mut refs, &mut marks);
                Cow::Owned(self.with_layers(cells, refs, marks))
            }
        }
    }

    /// The prefab where every cell that varies takes its most closed choice
    /// (solid over walkable): what checks that more floor can only help (a way
    /// in, an open edge) run on. Itself when it does not vary.
    pub(crate) fn most_closed(&self) -> &Prefab {
        self.variation.as_ref().map_or(self, |v| &v.closed)
    }

    /// The prefab where every cell that varies takes its most open choice: what
    /// checks that more floor can only break (a closed outline, floor off the
    /// map's edge) run on. Itself when it does not vary.
    pub(crate) fn most_open(&self) -> &Prefab {
        self.variation.as_ref().map_or(self, |v| &v.open)
    }

    /// The drawings a placement check must pass for every outcome to pass it: the
    /// prefab as it reads, and for a prefab that varies its most closed and most
    /// open drawings. A condition on walkable cells that only grows (or only
    /// shrinks) with more floor holds in every outcome once it holds in both
    /// extremes. Whether the floor is one area is no such condition, and the
    /// extremes need not be outcomes (an `nsubst` that keeps one door of three
    /// never closes all three); but the variation's proof shows the floor has the
    /// same areas in every outcome, so a check that counts `?` as floor exactly
    /// when `dont_care_is_floor` (as the proof did, from the prefab's style) asks
    /// it of the prefab as it reads only ([`View::whole`]). The proof of a prefab
    /// drawn `centered` shows instead that each area of every outcome leads out
    /// (its floor may be parted), so a check asking for one area asks it of its
    /// extremes too.
    pub(crate) fn views(&self, dont_care_is_floor: bool) -> Vec<View<'_>> {
        let first = View { prefab: self, when: "", whole: true };
        match &self.variation {
            None => vec![first],
            Some(v) => {
                // A centered prefab's proof shows each area of every outcome
                // leads out, not that the areas stay as they read.
                let whole = dont_care_is_floor != self.style.dont_care_is_floor() || self.style == Style::Centered;
                vec![
                    first,
                    View { prefab: &v.closed, when: " (when every varied cell takes its most closed choice)", whole },
                    View { prefab: &v.open, when: " (when every varied cell takes its most open choice)", whole },
                ]
            }
        }
    }

    /// True when the terrain at `p` is not the same in every outcome.
    pub(crate) fn varies_at(&self, p: Point) -> bool {
        self.variation.as_ref().is_some_and(|v| v.proven.varies.get(p).copied().unwrap_or(false))
    }

    /// Every reference character some outcome may hold, with its cell and each
    /// terrain it may stand on there: the ones drawn on the refs layer, and those
    /// the legend gives the glyphs a cell may end up with. For a prefab that does
    /// not vary, its references and the cells under them.
    pub fn possible_refs(&self) -> Vec<(RefMark, Option<Terrain>)> {
        match &self.variation {
            None => self.refs.iter().map(|&r| (r, self.cells[r.at])).collect(),
            Some(v) => v.proven.possible_refs.clone(),
        }
    }

    /// The references drawn on its refs layer: [`Prefab::refs`] without those a
    /// varying prefab's legend gives its first outcome.
    pub fn drawn_refs(&self) -> &[RefMark] {
        self.variation.as_ref().map_or(&self.refs, |v| &v.drawn_refs)
    }

    /// The glyph drawn in the terrain layer at `p` when a variation line names it
    /// (the glyph text and `.xp` prefabs write back), and whether the mask
    /// protects the cell.
    pub fn variation_glyph(&self, p: Point) -> Option<(char, bool)> {
        let v = &self.variation.as_ref()?.variation;
        Some((v.glyphs.get(p).copied().flatten()?, v.mask.get(p).copied().unwrap_or(false)))
    }

    /// True when its variation has a mask protecting some cell.
    pub fn has_mask(&self) -> bool {
        self.variation.as_ref().is_some_and(|v| v.variation.mask.cells().iter().any(|&m| m))
    }

    /// The mask layer as glyphs (`x` on protected cells), when it has one.
    pub fn mask_glyphs(&self) -> Option<Grid<Option<char>>> {
        let v = &self.variation.as_ref().filter(|_| self.has_mask())?.variation;
        let cells = v.mask.cells().iter().map(|&m| m.then_some('x')).collect();
        Grid::from_cells(self.width(), self.height(), cells)
    }

    /// The problems a varying prefab's floor would have in some outcome if
    /// `blockers` (the cells machine footprints may cover) blocked walkers too,
    /// and the cells holding `machine_glyphs` (glyphs whose legend reference a
    /// definition file may make a one-cell machine: always, or by some draw);
    /// empty for a prefab that does not vary. `context` goes into each
    /// problem's message after its reason.
    pub(crate) fn floor_problems_with(
        &self,
        blockers: &[Point],
        machine_glyphs: &[(char, bool)],
        context: &str,
    ) -> Vec<Error> {
        let Some(v) = &self.variation else { return Vec::new() };
        vary::proof::prove_floor(&v.variation, &self.subject(v, machine_glyphs), &v.proven.envelope, blockers, context)
    }

    /// For a prefab that varies, the cells walkable in every outcome with no
    /// machine on them, counting those `machine_glyphs` may bring.
    pub(crate) fn sure_floor(&self, machine_glyphs: &[(char, bool)]) -> Option<Grid<bool>> {
        let v = self.variation.as_ref()?;
        Some(vary::proof::sure_floor(&v.variation, &self.subject(v, machine_glyphs), &v.proven.envelope))
    }

    /// The cells drawn with one of `glyphs` that every outcome keeps: masked,
    /// or holding a glyph no rule rewrites.
    pub(crate) fn kept_glyph_cells(&self, glyphs: &[char]) -> Vec<Point> {
        let Some(v) = &self.variation else { return Vec::new() };
        let v = &v.variation;
        v.glyphs
            .bounds()
            .points()
            .filter(|&q| {
                v.glyphs[q]
                    .is_some_and(|g| glyphs.contains(&g) && (v.mask[q] || !v.steps.iter().any(|s| s.rule.takes(g))))
            })
            .collect()
    }

    /// Where its legend first gives reference character `reference`, if it does.
    pub(crate) fn legend_line_of(&self, reference: char) -> Option<Location> {
        let v = self.variation.as_ref()?;
        v.variation.legend.iter().find(|l| l.reference == Some(reference)).map(|l| l.at.clone())
    }

    /// The glyphs its legend gives reference character `reference`.
    pub(crate) fn legend_glyphs(&self, reference: char) -> Vec<char> {
        let Some(v) = &self.variation else { return Vec::new() };
        v.variation.legend.iter().filter(|l| l.reference == Some(reference)).map(|l| l.glyph).collect()
    }

    /// What the proof reasons about: the prefab as its first outcome reads.
    pub(super) fn subject<'a>(
        &'a self,
        v: &'a Varying,
        machine_glyphs: &'a [(char, bool)],
    ) -> vary::proof::Subject<'a> {
        vary::proof::Subject {
            cells: &self.cells,
            links: &self.links,
            machines: &self.machines,
            drawn_refs: &v.drawn_refs,
            dont_care_is_floor: self.style.dont_care_is_floor(),
            parted: self.style == Style::Centered,
            moves: self.moves,
            machine_glyphs,
            origin: &self.about.origin,
        }
    }
}
