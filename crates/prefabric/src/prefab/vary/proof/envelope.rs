//! The glyph sets the proof follows: for each cell, the glyphs it may hold
//! after every rule, which draw it follows, and what each counted deal
//! (`nsubst`, a column of a `shuffle`) guarantees.
//!
//! In: a [`Variation`] and where its problems are reported. Out: its
//! [`Envelope`], or `None` with the problems that stop the proof before it
//! starts (too many glyphs). Guarantees: every outcome of the variation holds,
//! at each cell, a glyph of that cell's set, and tied cells hold the same
//! glyph; a deal's counts are met in every outcome.

use crate::error::{Error, ErrorKind, Location};
use crate::prefab::vary::{Rule, Variation};

/// The most glyphs one prefab's variation may involve (a cell's glyph set is a
/// 128-bit word).
pub(crate) const MAX_GLYPHS: usize = 128;

/// Which draw a cell's glyph follows.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Tie {
    /// As drawn, or drawn for this cell alone.
    Own,
    /// The same glyph as every cell of the same tie, in every outcome.
    Shared(u32),
}

/// The glyphs each cell may hold after every rule, and what made them so.
#[derive(Clone, Debug)]
pub(crate) struct Envelope {
    pub(super) alphabet: Vec<char>,
    /// For each cell, a bit per glyph of `alphabet`; 0 for cells fixed as drawn.
    pub(super) possible: Vec<u128>,
    pub(super) tie: Vec<Tie>,
    /// For each cell, the last step that changed what it may hold.
    pub(super) changed_by: Vec<Option<usize>>,
    /// The steps that found no cell holding a glyph they rewrite.
    pub(super) idle: Vec<usize>,
    /// What each `nsubst` and `shuffle` guarantees about how many of its cells
    /// end with which glyphs.
    pub(super) deals: Vec<Deal>,
}

/// At least how many of the cells an `nsubst` or one column of a `shuffle`
/// rewrites end with which glyphs, in every outcome.
#[derive(Clone, Debug)]
pub(super) struct Deal {
    /// Every cell the rule may rewrite.
    pub(super) cells: Vec<usize>,
    /// At least how many of them take each share, and the glyphs a cell of the
    /// share may hold after every rule (this one and those after it).
    pub(super) shares: Vec<(u64, u128)>,
    /// True when the counts go to the shares in a random order (a shuffle deals
    /// each block's cells the glyph of another block); else each share has its count.
    pub(super) permuted: bool,
}

impl Deal {
    /// The fewest of its cells that end with glyphs of `open` only, in any outcome.
    pub(super) fn least_ending_in(&self, open: u128) -> u64 {
        let ends_open = |set: u128| set != 0 && set & !open == 0;
        if !self.permuted {
            return self.shares.iter().filter(|s| ends_open(s.1)).map(|s| s.0).sum();
        }
        // Any shares may get the smallest counts: the open ones get the fewest cells
        // when they get the smallest.
        let mut counts: Vec<u64> = self.shares.iter().map(|s| s.0).collect();
        counts.sort_unstable();
        let open_shares = self.shares.iter().filter(|s| ends_open(s.1)).count();
        counts.iter().take(open_shares).sum()
    }
}

/// What one rule does to a set of glyphs a cell may hold: the glyphs it takes,
/// and for each the glyphs it may become.
pub(super) struct Image {
    pub(super) from: u128,
    pub(super) to: Vec<(char, u128)>,
}

impl Image {
    /// The glyphs a cell that may hold `set` may hold after the rule.
    pub(super) fn apply(&self, env: &Envelope, set: u128) -> u128 {
        let taken = set & self.from;
        let image = env.glyphs(taken).fold(0, |acc, c| acc | self.to.iter().find(|x| x.0 == c).map_or(0, |x| x.1));
        (set & !self.from) | image
    }
}

impl Envelope {
    pub(super) fn bit(&self, glyph: char) -> u128 {
        self.alphabet.binary_search(&glyph).map_or(0, |i| 1u128 << i)
    }

    pub(super) fn bits<'c>(&self, glyphs: impl IntoIterator<Item = &'c char>) -> u128 {
        glyphs.into_iter().fold(0, |acc, &g| acc | self.bit(g))
    }

    pub(super) fn glyphs(&self, set: u128) -> impl Iterator<Item = char> + '_ {
        self.alphabet.iter().enumerate().filter(move |(i, _)| set >> i & 1 == 1).map(|(_, &c)| c)
    }
}

/// Follows the glyph sets through the rules.
pub(super) fn envelope(v: &Variation, origin: &Location, errors: &mut Vec<Error>) -> Option<Envelope> {
    let mut alphabet: Vec<char> = v.glyphs.cells().iter().flatten().copied().collect();
    for s in &v.steps {
        alphabet.extend(s.rule.writes());
    }
    alphabet.sort_unstable();
    alphabet.dedup();
    if alphabet.len() > MAX_GLYPHS {
        let at = v.steps.first().map_or_else(|| origin.clone(), |s| s.at.clone());
        errors.push(
            Error::at(
                ErrorKind::Limit,
                at,
                format!("the variation involves {} glyphs; at most {MAX_GLYPHS} are supported", alphabet.len()),
            )
            .with_help("split the prefab, or give fewer glyphs their own meaning"),
        );
        return None;
    }
    let n = v.glyphs.cells().len();
    let mut env = Envelope {
        possible: vec![0; n],
        tie: vec![Tie::Own; n],
        changed_by: vec![None; n],
        idle: Vec::new(),
        deals: Vec::new(),
        alphabet,
    };
    // Each rule's image, and the deals with the step that made them, whose
    // shares still hold the glyphs dealt (followed through the later rules below).
    let mut images: Vec<Image> = Vec::new();
    let mut deals: Vec<(usize, Deal)> = Vec::new();
    for (i, g) in v.glyphs.cells().iter().enumerate() {
        env.possible[i] = g.map_or(0, |g| env.bit(g));
    }
    // The ties a shuffle makes: (step, glyph before, tie before) -> shared tie.
    let mut shuffle_ties: Vec<(usize, char, Tie)> = Vec::new();
    for (k, step) in v.steps.iter().enumerate() {
        let free = |i: usize| !v.mask.cells()[i];
        let (from, glyph_images): (u128, Vec<(char, u128)>) = match &step.rule {
            Rule::Subst { from, choices, .. } => {
                let image = env.bits(choices.iter().map(|c| &c.glyph));
                (env.bits(from), from.iter().map(|&c| (c, image)).collect())
            }
            Rule::Count { from, groups } => {
                let from_bits = env.bits(from);
                let mut image = env.bits(groups.iter().flat_map(|g| g.choices.iter().map(|c| &c.glyph)));
                // Without `rest`, cells past the counts keep their glyph, unless
                // the counts cover every cell that may hold one of the glyphs.
                let counted: u64 =
                    groups.iter().map(|g| g.count.map_or(u64::MAX, u64::from)).fold(0, u64::saturating_add);
                let holders = (0..n).filter(|&i| free(i) && env.possible[i] & from_bits != 0).count() as u64;
                if counted < holders {
                    image |= from_bits;
                }
                (from_bits, from.iter().map(|&c| (c, image)).collect())
            }
            Rule::Shuffle { blocks } => {
                let images = blocks
                    .iter()
                    .flat_map(|b| b.iter().enumerate())
                    .map(|(at, &c)| (c, env.bits(blocks.iter().map(|b| &b[at]))))
                    .collect();
                (env.bits(blocks.iter().flatten()), images)
            }
        };
        let image = Image { from, to: glyph_images };
        // A rule that rewrites each glyph by one draw for every cell: cells
        // holding the same glyph before hold the same glyph after.
        let one_draw = match &step.rule {
            Rule::Subst { once, choices, .. } => *once || choices.iter().all(|c| c.glyph == choices[0].glyph),
            Rule::Shuffle { .. } => true,
            Rule::Count { .. } => false,
        };
        deals.extend(deal(&env, &step.rule, &free).into_iter().map(|d| (k, d)));
        let mut matched = false;
        for i in 0..n {
            let before = env.possible[i];
            if before & from == 0 || !free(i) {
                continue;
            }
            matched = true;
            let taken = before & from;
            let full = before & !from == 0;
            let after = image.apply(&env, before);
            env.possible[i] = after;
            if after != before {
                env.changed_by[i] = Some(k);
            }
            env.tie[i] = match &step.rule {
                Rule::Subst { .. } if one_draw && full => Tie::Shared(k as u32),
                Rule::Shuffle { .. } if full && taken.count_ones() == 1 => {
                    let glyph = env.glyphs(taken).next().unwrap_or(' ');
                    // A cell drawn for itself holds the same glyph as others only
                    // when it may hold just this one.
                    let key = (k, glyph, if before.count_ones() == 1 { Tie::Own } else { env.tie[i] });
                    let at = shuffle_ties.iter().position(|t| *t == key).unwrap_or_else(|| {
                        shuffle_ties.push(key);
                        shuffle_ties.len() - 1
                    });
                    Tie::Shared(v.steps.len() as u32 + at as u32)
                }
                // Cells tied hold one glyph, which one draw rewrites alike.
                _ if one_draw => env.tie[i],
                _ => Tie::Own,
            };
        }
        if !matched {
            env.idle.push(k);
        }
        images.push(image);
    }
    // A share ends with what the rules after its own make of its glyphs.
    for (k, mut d) in deals {
        for share in &mut d.shares {
            share.1 = images[k + 1..].iter().fold(share.1, |set, image| image.apply(&env, set));
        }
        env.deals.push(d);
    }
    Some(env)
}

/// The deals rule `rule` makes when it runs on `env`: an `nsubst`, or each
/// column of a `shuffle` (the glyphs at one place of its blocks). The cells are
/// every cell that may hold one of the glyphs; the counts, the fewest cells each
/// share takes, from the cells sure to hold one. Shares hold the glyphs as dealt.
pub(super) fn deal(env: &Envelope, rule: &Rule, free: &impl Fn(usize) -> bool) -> Vec<Deal> {
    let n = env.possible.len();
    let holders = |glyphs: u128| (0..n).filter(|&i| free(i) && env.possible[i] & glyphs != 0).collect::<Vec<_>>();
    match rule {
        Rule::Subst { .. } => Vec::new(),
        Rule::Count { from, groups } => {
            let from = env.bits(from);
            let cells = holders(from);
            if cells.is_empty() {
                return Vec::new();
            }
            // Each group takes no fewer cells when more hold the glyphs: counting
            // only the cells sure to hold one gives the fewest each may take.
            let mut left = cells.iter().filter(|&&i| env.possible[i] & !from == 0).count() as u64;
            let mut shares = Vec::new();
            for g in groups {
                let take = g.count.map_or(left, |c| u64::from(c).min(left));
                left -= take;
                shares.push((take, env.bits(g.choices.iter().map(|c| &c.glyph))));
            }
            if left > 0 {
                // Without `rest`, the cells past the counts keep their glyphs.
                shares.push((left, cells.iter().fold(0, |acc, &i| acc | env.possible[i])));
            }
            vec![Deal { cells, shares, permuted: false }]
        }
        // A glyph written twice (a block written again, a glyph in two blocks)
        // lets two glyphs end alike and another be dealt nowhere: such a
        // shuffle deals nothing the proof can count on.
        Rule::Shuffle { blocks } if written_twice(blocks) => Vec::new(),
        Rule::Shuffle { blocks } => {
            let width = blocks.first().map_or(0, Vec::len);
            (0..width)
                .filter_map(|at| {
                    let column: Vec<u128> = blocks.iter().map(|b| env.bit(b[at])).collect();
                    let cells = holders(column.iter().fold(0, |acc, b| acc | b));
                    if cells.is_empty() {
                        return None;
                    }
                    // A block has at least the cells sure to hold its glyph.
                    let count = |bit: u128| cells.iter().filter(|&&i| env.possible[i] == bit).count() as u64;
                    Some(Deal { shares: column.iter().map(|&b| (count(b), b)).collect(), cells, permuted: true })
                })
                .collect()
        }
    }
}

/// True when some glyph appears more than once in `blocks`.
pub(super) fn written_twice(blocks: &[Vec<char>]) -> bool {
    let all: Vec<char> = blocks.iter().flatten().copied().collect();
    all.iter().enumerate().any(|(i, c)| all[..i].contains(c))
}
