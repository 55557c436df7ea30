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

mod envelope;
mod floor;
mod outcomes;

use super::{Meaning, Variation};
use crate::error::{Error, ErrorKind, Location};
use crate::geom::{Moves, Point};
use crate::grid::Grid;
use crate::map::Terrain;
use crate::prefab::{LinkMark, Machine, RefMark, link_can_pass};
use envelope::envelope;
pub(crate) use envelope::{Envelope, MAX_GLYPHS};

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
