//! The proof that every outcome of a variation is a valid prefab.
//!
//! In goes a [`Variation`] with the prefab as its first outcome reads (terrain,
//! links, machines, the references drawn on its refs layer); out come the problems
//! some outcome would have, each located at the variation line that makes it
//! possible and naming the cell, and, when there are none, what the rest of the
//! crate needs to place the prefab safely: its most closed and most open drawings,
//! the cells whose terrain varies, and every reference some outcome may hold.
//!
//! Sampling cannot prove anything, and the outcomes are too many to list (a
//! `subst` over twenty cells has a million), so the proof follows sets: for each
//! cell, the glyphs it may hold after each rule, and whether cells are tied to one
//! draw (`subst-once`, `shuffle`: such cells always hold the same glyph, and keep
//! holding the same glyph through every later rule that rewrites a glyph alike
//! in every cell: a shuffle, `subst-once`, a `subst` of one choice). It also
//! counts: an `nsubst`, or the glyphs at one place of a `shuffle`'s blocks, deals
//! its cells so that at least so many take each share (a group's count, or the
//! rest; for a shuffle, the cells of some block, at least those of the smallest),
//! and what a share's glyphs may become under the later rules is known. From the
//! sets and counts it shows, for every outcome at once:
//!
//! * every rule rewrites some glyph a cell may hold, and every glyph a cell may
//!   hold means something;
//! * each link's way out stays floor, door, earth or `?`, and the cell behind a
//!   link stays walkable when it is drawn walkable;
//! * machines stand on floor and drawn references on walkable cells; references
//!   the legend gives never land on a drawn reference, a machine or a way out;
//! * the floor keeps its areas. A cell is *sure* when it is passable in every
//!   outcome, *maybe* when in some; machines (and, from the definition files,
//!   machine footprints) block. A *counted deal* is one where, in every outcome,
//!   more of its cells end passable (counting the shares whose glyphs stay
//!   passable whatever the later rules do) than it has cells that are sure or
//!   never passable: at least one of its maybe cells is open. The areas of the
//!   sure floor that every maybe cell of a counted deal touches are then joined
//!   in every outcome, and so are those such a deal joins once others have joined
//!   theirs: they form one *class*. When every maybe cell of a counted deal lies
//!   on the prefab's rim (its edge, or `?` where `?` is not floor), its class
//!   meets the rim in every outcome. The proof shows that the maybe cells join no
//!   two classes, that each maybe cell reaches the sure floor through cells open
//!   whenever it is (its neighbours in the sure floor, or cells tied to it), and
//!   that an area touching the rim through a maybe cell also touches it through a
//!   sure cell, a link or a counted deal. So in every outcome each area of the
//!   floor holds exactly one class, as in the first: the floor splits or joins
//!   in no outcome, no outcome strands a pocket, and no area loses its way out.
//!
//! A centered prefab's floor may be *parted* ([`Subject::parted`]): its carved
//! ring joins every edge cell to the cave, so what every outcome needs is that
//! each area of its floor meets the prefab's edge or holds a link, not that the
//! areas stay as in the first. There the proof lets maybe cells join classes,
//! asks each class to meet the rim in every outcome (through a sure cell, a
//! link or a counted deal), and each maybe cell to reach such a class, the
//! edge or a link through cells open whenever it is; `?` cells, the cave's
//! ground, are closed and no way out.
//!
//! Stairs vary like any terrain: an outcome's stairs are on the map when the
//! stairs stage counts them, and general stairs become stairs or floor there.
//!
//! Conservative: a prefab the proof accepts is valid in every outcome; one the
//! sets refuse might be valid by how rules interact (two `subst` cells side by
//! side that some later rule always opens again, a deal whose cells touch
//! different areas). So before it refuses a floor, the proof lists the outcomes
//! when they are few (the `exhaust` module: every way the draws can fall, not a
//! sample) and accepts when, outcome by outcome, the floor open in all of them
//! is parted and meets the rim alike and every area holds some of it — the
//! promise above, shown by cases. Else the message says which cell and line
//! to look at.
//! When it refuses a floor, it says so when the prefab as it reads already has
//! its floor apart (outcomes are compared with it, and it fails the placement
//! checks anyway); else it draws a few outcomes and adds the first that strands
//! floor, with where, or says that none of those drawn does: evidence for the
//! designer, never a reason to accept.

use super::{Meaning, Rule, Variation};
use crate::error::{Error, ErrorKind, Location};
use crate::geom::{Moves, Point};
use crate::grid::Grid;
use crate::map::Terrain;
use crate::prefab::{LinkMark, Machine, RefMark, link_can_pass};

/// The most glyphs one prefab's variation may involve (a cell's glyph set is a
/// 128-bit word).
pub(crate) const MAX_GLYPHS: usize = 128;

/// Which draw a cell's glyph follows.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Tie {
    /// As drawn, or drawn for this cell alone.
    Own,
    /// The same glyph as every cell of the same tie, in every outcome.
    Shared(u32),
}

/// The glyphs each cell may hold after every rule, and what made them so.
#[derive(Clone, Debug)]
pub(crate) struct Envelope {
    alphabet: Vec<char>,
    /// For each cell, a bit per glyph of `alphabet`; 0 for cells fixed as drawn.
    possible: Vec<u128>,
    tie: Vec<Tie>,
    /// For each cell, the last step that changed what it may hold.
    changed_by: Vec<Option<usize>>,
    /// The steps that found no cell holding a glyph they rewrite.
    idle: Vec<usize>,
    /// What each `nsubst` and `shuffle` guarantees about how many of its cells
    /// end with which glyphs.
    deals: Vec<Deal>,
}

/// At least how many of the cells an `nsubst` or one column of a `shuffle`
/// rewrites end with which glyphs, in every outcome.
#[derive(Clone, Debug)]
struct Deal {
    /// Every cell the rule may rewrite.
    cells: Vec<usize>,
    /// At least how many of them take each share, and the glyphs a cell of the
    /// share may hold after every rule (this one and those after it).
    shares: Vec<(u64, u128)>,
    /// True when the counts go to the shares in a random order (a shuffle deals
    /// each block's cells the glyph of another block); else each share has its count.
    permuted: bool,
}

impl Deal {
    /// The fewest of its cells that end with glyphs of `open` only, in any outcome.
    fn least_ending_in(&self, open: u128) -> u64 {
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
struct Image {
    from: u128,
    to: Vec<(char, u128)>,
}

impl Image {
    /// The glyphs a cell that may hold `set` may hold after the rule.
    fn apply(&self, env: &Envelope, set: u128) -> u128 {
        let taken = set & self.from;
        let image = env.glyphs(taken).fold(0, |acc, c| acc | self.to.iter().find(|x| x.0 == c).map_or(0, |x| x.1));
        (set & !self.from) | image
    }
}

impl Envelope {
    fn bit(&self, glyph: char) -> u128 {
        self.alphabet.binary_search(&glyph).map_or(0, |i| 1u128 << i)
    }

    fn bits<'c>(&self, glyphs: impl IntoIterator<Item = &'c char>) -> u128 {
        glyphs.into_iter().fold(0, |acc, &g| acc | self.bit(g))
    }

    fn glyphs(&self, set: u128) -> impl Iterator<Item = char> + '_ {
        self.alphabet.iter().enumerate().filter(move |(i, _)| set >> i & 1 == 1).map(|(_, &c)| c)
    }
}

/// The prefab as its first outcome reads, which the proof reasons about.
pub(crate) struct Subject<'a> {
    pub cells: &'a Grid<Option<Terrain>>,
    pub links: &'a [LinkMark],
    pub machines: &'a [Machine],
    pub drawn_refs: &'a [RefMark],
    /// A room encounter's `?` cells keep the room's floor: they count as floor.
    pub dont_care_is_floor: bool,
    /// A centered prefab's floor may lie in several areas, as its carved ring
    /// joins every edge cell to the cave: the proof shows that in every outcome
    /// each area meets the prefab's edge or holds a link, not that outcomes keep
    /// the first one's areas; its `?` cells (the cave's ground, maybe rock) are
    /// closed and no way out. Only with `dont_care_is_floor` false.
    pub parted: bool,
    /// How walkers step: which cells of the floor are joined.
    pub moves: Moves,
    /// Glyphs whose legend reference a definition file may make a one-cell
    /// machine, which blocks: always (`true`) or only by some draw (`false`).
    pub machine_glyphs: &'a [(char, bool)],
    /// Where problems no variation line causes are reported.
    pub origin: &'a Location,
}

/// What a proof that found no problem gives the rest of the crate.
#[derive(Clone, Debug)]
pub(crate) struct Proven {
    pub envelope: Envelope,
    /// The terrain where every cell takes its most closed choice, then its most open.
    pub closed: Grid<Option<Terrain>>,
    pub open: Grid<Option<Terrain>>,
    /// The cells whose terrain is not the same in every outcome.
    pub varies: Grid<bool>,
    /// Every reference some outcome may hold, with each terrain it may stand on
    /// there; sorted.
    pub possible_refs: Vec<(RefMark, Option<Terrain>)>,
}

/// Proves every outcome of `v` valid, or returns every problem found.
pub(crate) fn prove(v: &Variation, s: &Subject<'_>) -> Result<Proven, Vec<Error>> {
    let mut errors = Vec::new();
    let Some(envelope) = envelope(v, s.origin, &mut errors) else { return Err(errors) };
    let mut p = Prover { v, env: &envelope, s, errors, context: "" };
    p.rules();
    if p.meanings() {
        p.links();
        p.footing();
        p.references();
        p.floor(&[]);
    }
    if !p.errors.is_empty() {
        return Err(p.errors);
    }
    let (closed, open) = (p.extreme(false), p.extreme(true));
    let varies = p.varies();
    let possible_refs = p.possible_refs();
    Ok(Proven { envelope, closed, open, varies, possible_refs })
}

/// Checks the glyphs alone: every rule rewrites something, every glyph a cell
/// may hold means something. Run before the first outcome is assembled, so that
/// its checks see no glyph without a meaning.
pub(crate) fn check_glyphs(v: &Variation, s: &Subject<'_>) -> Vec<Error> {
    let mut errors = Vec::new();
    let Some(envelope) = envelope(v, s.origin, &mut errors) else { return errors };
    let mut p = Prover { v, env: &envelope, s, errors, context: "" };
    p.rules();
    p.meanings();
    p.errors
}

/// The cells open in every outcome: walkable, no machine on them (drawn, or
/// one a [`Subject::machine_glyphs`] glyph may bring).
pub(crate) fn sure_floor(v: &Variation, s: &Subject<'_>, env: &Envelope) -> Grid<bool> {
    let p = Prover { v, env, s, errors: Vec::new(), context: "" };
    let open = p.openness(&[]);
    let cells = open.iter().map(|o| *o == Open::Sure).collect();
    Grid::from_cells(s.cells.width(), s.cells.height(), cells)
        .unwrap_or_else(|| Grid::new(s.cells.width(), s.cells.height(), false))
}

/// Proves the floor keeps its areas in every outcome when `blockers` (machine
/// footprints a definition file may place) block walkers too; `context` says
/// so in a problem's message (after its reason, before what the draws showed).
pub(crate) fn prove_floor(
    v: &Variation,
    s: &Subject<'_>,
    env: &Envelope,
    blockers: &[Point],
    context: &str,
) -> Vec<Error> {
    let mut p = Prover { v, env, s, errors: Vec::new(), context };
    p.floor(blockers);
    p.errors
}

/// Follows the glyph sets through the rules.
fn envelope(v: &Variation, origin: &Location, errors: &mut Vec<Error>) -> Option<Envelope> {
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
fn deal(env: &Envelope, rule: &Rule, free: &impl Fn(usize) -> bool) -> Vec<Deal> {
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
fn written_twice(blocks: &[Vec<char>]) -> bool {
    let all: Vec<char> = blocks.iter().flatten().copied().collect();
    all.iter().enumerate().any(|(i, c)| all[..i].contains(c))
}

/// Openness, for picking extremes: solid, then walkable.
fn rank(t: Terrain) -> u8 {
    u8::from(t.is_walkable())
}

/// The terrain as messages name it.
fn describe(t: Option<Terrain>) -> String {
    t.map_or_else(|| "`?`".to_string(), |t| t.to_string())
}

/// Where a cell is, as messages say it.
fn at(p: Point) -> String {
    format!("x={} y={}", p.x, p.y)
}

struct Prover<'a> {
    v: &'a Variation,
    env: &'a Envelope,
    s: &'a Subject<'a>,
    errors: Vec<Error>,
    /// Said after the reason of a floor problem: what else the proof counted
    /// (`, counting the machines … as blocking`), or nothing.
    context: &'a str,
}

/// A cell's openness over every outcome.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Open {
    Never,
    Maybe,
    Sure,
}

impl Prover<'_> {
    fn push(&mut self, step: Option<usize>, message: String, help: &str) {
        let (location, message) = match step {
            Some(k) => (self.v.steps[k].at.clone(), format!("{} {message}", self.v.steps[k].name())),
            None => (self.s.origin.clone(), format!("the drawing {message}")),
        };
        self.errors.push(Error::at(ErrorKind::Invalid, location, message).with_help(help));
    }

    fn index(&self, p: Point) -> Option<usize> {
        self.s.cells.index_of(p)
    }

    /// True when a step from cell `i` lands on the prefab's rim: off its edge,
    /// or on a `?` cell that is neither floor nor closed (see [`Subject::parted`]).
    fn meets_rim(&self, i: usize) -> bool {
        meets_rim(self.s.cells, i, self.s.dont_care_is_floor || self.s.parted, self.s.moves)
    }

    /// The terrains cell `i` may have, with the glyphs that give them; a fixed
    /// cell gives its own.
    fn outcomes(&self, i: usize) -> Vec<(char, Option<Terrain>)> {
        if self.env.possible[i] == 0 {
            return vec![(' ', self.s.cells.cells()[i])];
        }
        self.env.glyphs(self.env.possible[i]).map(|g| (g, self.meaning(g).map(|m| m.terrain))).collect()
    }

    fn meaning(&self, glyph: char) -> Option<Meaning> {
        self.v.meaning(glyph)
    }

    /// Each rule rewrites a glyph some cell may hold when it runs.
    fn rules(&mut self) {
        for &k in &self.env.idle {
            let step = &self.v.steps[k];
            let glyphs: String = step.rule.reads().into_iter().collect();
            self.push(
                Some(k),
                format!("rewrites `{glyphs}`, which no cell it may change holds when it runs"),
                "draw the glyph where it should vary, or remove the line (masked cells are never changed)",
            );
        }
    }

    /// Every glyph a cell may hold has a meaning. False when one has none (the
    /// later checks would only repeat it).
    fn meanings(&mut self) -> bool {
        let mut reported: Vec<char> = Vec::new();
        for i in 0..self.env.possible.len() {
            for g in self.env.glyphs(self.env.possible[i]).collect::<Vec<_>>() {
                if self.meaning(g).is_some() || reported.contains(&g) {
                    continue;
                }
                reported.push(g);
                let p = self.s.cells.point_of(i);
                let drawn = self.v.glyphs.cells()[i] == Some(g);
                let help = format!("give it a meaning with `legend: {g} = TERRAIN`, or rewrite it in every cell");
                if drawn && self.env.changed_by[i].is_none() {
                    let message = format!(
                        "leaves `{g}` at {} as drawn (masked, or past an `nsubst`'s counts), and `{g}` means nothing: it is not in the palette or the legend",
                        at(p)
                    );
                    let step = self.v.steps.iter().position(|s| s.rule.takes(g));
                    self.push(step, message, &help);
                } else {
                    let message = format!(
                        "may put `{g}` at {}, and `{g}` means nothing: it is not in the palette or the legend",
                        at(p)
                    );
                    self.push(self.env.changed_by[i], message, &help);
                }
            }
        }
        reported.is_empty()
    }

    /// The first glyph cell `i` may hold whose terrain breaks `ok`, with its terrain.
    fn breaking(&self, i: usize, ok: impl Fn(Option<Terrain>) -> bool) -> Option<(char, Option<Terrain>)> {
        self.outcomes(i).into_iter().find(|(_, t)| !ok(*t))
    }

    /// A link's way out stays passable, and the cell behind it stays walkable
    /// when the first outcome has it walkable.
    fn links(&mut self) {
        let (w, h) = (self.s.cells.width(), self.s.cells.height());
        for l in self.s.links {
            for q in l.path(w, h) {
                let Some(i) = self.index(q) else { continue };
                if let Some((g, t)) = self.breaking(i, link_can_pass) {
                    let message = format!(
                        "may put {} (`{g}`) at {}, on the way out of the link at {}",
                        describe(t),
                        at(q),
                        at(l.at)
                    );
                    self.push(
                        self.env.changed_by[i],
                        message,
                        "a link's way out must stay floor, door, earth or `?`: mask those cells or change the rule",
                    );
                    break;
                }
            }
            let behind = l.at - l.dir.delta();
            let Some(i) = self.index(behind) else { continue };
            let walkable = |t: Option<Terrain>| t.is_some_and(|t| t.is_walkable());
            if walkable(self.s.cells.cells()[i])
                && let Some((g, t)) = self.breaking(i, walkable)
            {
                let message =
                    format!("may put {} (`{g}`) at {}, behind the link at {}", describe(t), at(behind), at(l.at));
                self.push(
                    self.env.changed_by[i],
                    message,
                    "the floor behind a link is how the layout reaches the prefab: mask the cell or keep it walkable",
                );
            }
        }
    }

    /// Machines stand on floor and drawn references on walkable cells.
    fn footing(&mut self) {
        for &(q, _) in self.s.machines.iter().flat_map(|m| m.cells()) {
            let Some(i) = self.index(q) else { continue };
            if let Some((g, t)) = self.breaking(i, |t| t.is_some_and(|t| t.is_floor())) {
                let message = format!("may put {} (`{g}`) under the machine at {}", describe(t), at(q));
                self.push(self.env.changed_by[i], message, "machines stand on floor: mask the cells under them");
            }
        }
        for r in self.s.drawn_refs {
            let Some(i) = self.index(r.at) else { continue };
            if let Some((g, t)) = self.breaking(i, |t| t.is_some_and(|t| t.is_walkable())) {
                let message = format!("may put {} (`{g}`) under reference `{}` at {}", describe(t), r.glyph, at(r.at));
                self.push(self.env.changed_by[i], message, "references stand on floor, doors or stairs: mask the cell");
            }
        }
    }

    /// References the legend gives land on no drawn reference, machine or link's way out.
    fn references(&mut self) {
        let (w, h) = (self.s.cells.width(), self.s.cells.height());
        for i in 0..self.env.possible.len() {
            let p = self.s.cells.point_of(i);
            for g in self.env.glyphs(self.env.possible[i]).collect::<Vec<_>>() {
                let Some(r) = self.meaning(g).and_then(|m| m.reference) else { continue };
                let clash = if self.s.drawn_refs.iter().any(|d| d.at == p) {
                    Some("a reference drawn on the refs layer")
                } else if self.s.machines.iter().any(|m| m.cells().iter().any(|c| c.0 == p)) {
                    Some("a machine")
                } else if self.s.links.iter().any(|l| l.path(w, h).any(|q| q == p)) {
                    Some("a link's way out")
                } else {
                    None
                };
                if let Some(what) = clash {
                    let step = self.env.changed_by[i].or_else(|| self.v.steps.iter().position(|s| s.rule.takes(g)));
                    let message = format!("may put reference `{r}` (`{g}`) at {}, on {what}", at(p));
                    let help = "keep glyphs that hold references off those cells, or mask them";
                    match step {
                        Some(k) => self.push(Some(k), message, help),
                        None => {
                            let l = self.v.legend_of(g).map(|l| l.at.clone()).unwrap_or_else(|| self.s.origin.clone());
                            self.errors.push(
                                Error::at(ErrorKind::Invalid, l, format!("the legend of `{g}` {message}"))
                                    .with_help(help),
                            );
                        }
                    }
                }
            }
        }
    }

    /// For each cell of the prefab, whether a drawn machine or one of
    /// `blockers` stands on it.
    fn blocked(&self, blockers: &[Point]) -> Vec<bool> {
        let cells = self.s.cells;
        let mut blocked = vec![false; cells.cells().len()];
        for q in self.s.machines.iter().flat_map(|m| m.cells().iter().map(|c| c.0)).chain(blockers.iter().copied()) {
            if let Some(i) = cells.index_of(q) {
                blocked[i] = true;
            }
        }
        blocked
    }

    /// Each cell's openness, machines and `blockers` closed.
    fn openness(&self, blockers: &[Point]) -> Vec<Open> {
        let blocked = self.blocked(blockers);
        let terrain_open = |t: Option<Terrain>| match t {
            None => self.s.dont_care_is_floor,
            Some(t) => t.is_walkable(),
        };
        (0..blocked.len())
            .map(|i| {
                if blocked[i] {
                    return Open::Never;
                }
                let (mut open, mut closed) = (false, false);
                for (g, t) in self.outcomes(i) {
                    match self.s.machine_glyphs.iter().find(|m| m.0 == g) {
                        Some(&(_, always)) => {
                            closed = true;
                            open |= !always;
                        }
                        None if terrain_open(t) => open = true,
                        None => closed = true,
                    }
                }
                match (open, closed) {
                    (true, false) => Open::Sure,
                    (true, true) => Open::Maybe,
                    _ => Open::Never,
                }
            })
            .collect()
    }

    /// True when cell `i` may hold a glyph whose machine a draw of its own
    /// places: its openness is not its glyph's alone, so no tie speaks for it.
    fn drawn_apart(&self, i: usize) -> bool {
        !self.s.machine_glyphs.is_empty()
            && self.env.glyphs(self.env.possible[i]).any(|g| self.s.machine_glyphs.iter().any(|m| m.0 == g && !m.1))
    }

    /// The floor keeps its areas in every outcome (see the module docs).
    fn floor(&mut self, blockers: &[Point]) {
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
    fn passable_glyphs(&self) -> u128 {
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
    fn classes(
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

    fn floor_error(&mut self, i: usize, blockers: &[Point], why: &str) {
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

    /// Whether the outcomes, listed one by one (see `exhaust`), keep the
    /// promise the sets could not show: true when the floor open in every
    /// outcome (the sure floor) is parted into areas alike in each, each part
    /// meets the rim (or holds a link) alike in each, and every area of each
    /// holds some of it; for a floor [`Subject::parted`], when every area of
    /// each meets the rim or holds a link. `None` when listing proves nothing:
    /// too many outcomes, no sure floor (unless parted), or a glyph whose
    /// machine only some draw places.
    /// Machines, `blockers` and the cells of glyphs that always bring a machine
    /// block.
    fn every_listed_outcome_keeps_the_floor(&self, blockers: &[Point]) -> Option<bool> {
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
    fn stranding_witness(&self, blockers: &[Point], listed_broken: bool) -> String {
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

    /// The terrain where each varied cell takes its most open (`open`) or most
    /// closed choice.
    fn extreme(&self, open: bool) -> Grid<Option<Terrain>> {
        let mut cells = self.s.cells.clone();
        for i in 0..cells.cells().len() {
            let pick = self.env.glyphs(self.env.possible[i]).filter_map(|g| self.meaning(g)).map(|m| m.terrain).reduce(
                |a, b| {
                    let better = if open { rank(b) > rank(a) } else { rank(b) < rank(a) };
                    if better { b } else { a }
                },
            );
            if let Some(t) = pick {
                cells.cells_mut()[i] = Some(t);
            }
        }
        cells
    }

    /// The cells whose terrain is not the same in every outcome.
    fn varies(&self) -> Grid<bool> {
        let mut varies = Grid::new(self.s.cells.width(), self.s.cells.height(), false);
        for i in 0..self.env.possible.len() {
            let mut terrains = self.env.glyphs(self.env.possible[i]).filter_map(|g| self.meaning(g)).map(|m| m.terrain);
            let first = terrains.next();
            varies.cells_mut()[i] = terrains.any(|t| Some(t) != first);
        }
        varies
    }

    /// Every reference some outcome may hold, with the terrains under it.
    fn possible_refs(&self) -> Vec<(RefMark, Option<Terrain>)> {
        let mut refs = Vec::new();
        for &r in self.s.drawn_refs {
            if let Some(i) = self.index(r.at) {
                refs.extend(self.outcomes(i).into_iter().map(|(_, t)| (r, t)));
            }
        }
        for i in 0..self.env.possible.len() {
            let at = self.s.cells.point_of(i);
            for g in self.env.glyphs(self.env.possible[i]) {
                if let Some(m) = self.meaning(g)
                    && let Some(r) = m.reference
                {
                    refs.push((RefMark { at, glyph: r }, Some(m.terrain)));
                }
            }
        }
        refs.sort_by_key(|(r, t)| (r.at.y, r.at.x, r.glyph, t.map(|t| (t.role().index(), t.variant()))));
        refs.dedup();
        refs
    }
}

/// How many outcomes a refused floor is drawn in, looking for one that shows
/// the problem (see `Prover::stranding_witness`).
const WITNESS_DRAWS: u32 = 64;

/// Most cells the proof floods when it lists outcomes instead of following
/// sets: the distinct ways the outcomes open the cells, times the prefab's cells.
const MAX_LISTED_CELLS: usize = 100_000;

/// The walkable areas of one outcome, for comparing outcomes.
#[derive(Clone)]
struct FloorAreas {
    /// Each cell's area, from 1; 0 for closed cells.
    label: Vec<u32>,
    /// Per area (index = label), whether it meets the prefab's rim.
    on_rim: Vec<bool>,
}

impl FloorAreas {
    /// The areas of `grid`'s walkable cells not `blocked` (`?` counts as floor
    /// when `dont_care_is_floor`, as the rim when `dont_care_is_rim`, else as
    /// closed), joined by `moves`.
    fn of(
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
    fn of_open(width: i32, height: i32, open: &[bool], rim: &[bool], links: &[usize], moves: Moves) -> FloorAreas {
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
    fn apart(&self, cells: &Grid<Option<Terrain>>) -> Option<(String, String)> {
        let first = self.label.iter().position(|&a| a == 1)?;
        let other = self.label.iter().position(|&a| a > 1)?;
        Some((at(cells.point_of(first)), at(cells.point_of(other))))
    }

    /// True when `drawn` parts the `sure` cells (open in every outcome) into
    /// areas as these areas do, each part meeting the rim in both or in
    /// neither, and every area of `drawn` holds some of them.
    fn parts_sure_floor_alike(&self, drawn: &FloorAreas, sure: &[usize]) -> bool {
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
    fn stranded_in(&self, drawn: &FloorAreas, cells: &Grid<Option<Terrain>>) -> Option<String> {
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

/// True when a step by `moves` from cell `i` of `cells` lands on the prefab's
/// rim: off its edge, or on `?` unless `dont_care_is_inside` (where `?` is
/// floor, or closed as in a floor [`Subject::parted`]).
fn meets_rim(cells: &Grid<Option<Terrain>>, i: usize, dont_care_is_inside: bool, moves: Moves) -> bool {
    let p = cells.point_of(i);
    moves.steps().iter().any(|&step| match cells.get(p + step) {
        None => true,
        Some(c) => c.is_none() && !dont_care_is_inside,
    })
}

/// Labels the areas of the cells where `open` holds, joined by `moves`, from 1
/// (0 for closed cells), and says how many there are.
fn areas(w: i32, h: i32, moves: Moves, open: impl Fn(usize) -> bool) -> (Vec<u32>, u32) {
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
fn find(class: &mut [u32], mut a: u32) -> u32 {
    while class[a as usize] != a {
        let up = class[class[a as usize] as usize];
        class[a as usize] = up;
        a = up;
    }
    a
}
