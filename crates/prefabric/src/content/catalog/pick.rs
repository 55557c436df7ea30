//! Drawing one catalog entry for a definition line's alternative, without
//! listing every candidate first.
//!
//! In: a catalog, the line's alternative, the depth and the objects stage's
//! random stream. Out: the entry that [`Catalog::candidates`] followed by a
//! uniform pick ([`Rng::pick`]) would give, with the same draws from the
//! stream. Items by category or `any` (the common picks, and the ones whose
//! candidates grow with the catalog: a thousand or more in a catalog of
//! 100,000 items) are found in time logarithmic in the catalog; every other
//! pick lists its candidates, which are few.

use super::{Candidate, Catalog, Kind};
use crate::format::def::{DefLine, Pick};
use crate::rng::Rng;

impl Catalog {
    /// One of the candidates of alternative `pick` of definition `line` at
    /// `depth`, uniformly, as `rng.pick(&self.candidates(kind, pick, line,
    /// depth))` would draw it; `None` when there is none.
    pub(crate) fn pick_candidate<'c>(
        &'c self,
        kind: Kind,
        pick: &'c Pick,
        line: &DefLine,
        depth: u32,
        rng: &mut Rng,
    ) -> Option<Candidate<'c>> {
        match pick {
            Pick::Category(c) if kind != Kind::Trap => self.pick_item_near(Some(c), line, depth, rng),
            Pick::Any if kind != Kind::Trap => self.pick_item_near(None, line, depth, rng),
            _ => rng.pick(&self.candidates(kind, pick, line, depth)).cloned(),
        }
    }

    /// [`items_near`](Catalog::items_near) and a uniform pick among them: the
    /// candidates are a run of one ranked list, listed in file order, so the
    /// one drawn is the `k`-th smallest index of that run.
    fn pick_item_near(
        &self,
        category: Option<&str>,
        line: &DefLine,
        depth: u32,
        rng: &mut Rng,
    ) -> Option<Candidate<'_>> {
        let run = self.items_near_run(category, line, depth)?;
        let k = rng.index(run.len())?;
        Some(self.item_candidate(self.nth_in_file_order(run, k), line))
    }

    /// The `k`-th smallest item index in `run` (`k < run.len()`), a run of a
    /// ranked list: groups of one rating each, each in file order. A search
    /// over the index, counting in each group (at most [`super::MAX_RATING`])
    /// by bisection, so nothing is sorted or listed.
    fn nth_in_file_order(&self, run: &[u32], k: usize) -> u32 {
        let mut groups: Vec<&[u32]> = Vec::new();
        let mut rest = run;
        while let Some(&first) = rest.first() {
            let rating = self.items[first as usize].rating;
            let end = rest.partition_point(|&i| self.items[i as usize].rating == rating);
            groups.push(&rest[..end]);
            rest = &rest[end..];
        }
        let at_most = |v: u32| groups.iter().map(|g| g.partition_point(|&i| i <= v)).sum::<usize>();
        // The smallest index with more than `k` of the run at or below it.
        let (mut low, mut high) = (0u32, run.iter().copied().max().unwrap_or(0));
        while low < high {
            let middle = low + (high - low) / 2;
            if at_most(middle) > k { high = middle } else { low = middle + 1 }
        }
        low
    }
}
