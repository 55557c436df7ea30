//! Whether the chain's prefabs can be chained: connectors on the outline, a
//! closed floor of one area, some connector of the pool meeting another, and
//! every pool prefab fitting the map.
//!
//! In: prefabs and the chain's parameters. Out: problems reported at the
//! prefab's `prefab NAME` line or the pool, with a fix. `chain_problems` and
//! `floor_apart` also serve the pathways reader and the placement checks.

use super::{ChainFile, ChainParams, PieceContext, PoolEntry};
use crate::content::section::{SectionReader, Span};
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Point};
use crate::grid::Grid;
use crate::map::LinkKind;
use crate::prefab::Prefab;

impl SectionReader<'_> {
    /// Checks that a prefab can be chained; reports each problem at the prefab.
    /// The start may have no connector (a whole-level prefab).
    pub(in crate::content) fn chainable(&mut self, p: &Prefab, used_at: Span, is_start: bool) -> bool {
        let mut problems: Vec<(String, String)> = Vec::new();
        for view in p.views(false) {
            for (message, help) in chain_problems(view.prefab, is_start, view.whole) {
                let message = format!("{message}{}", view.when);
                if !problems.iter().any(|(m, _)| *m == message) {
                    problems.push((message, help));
                }
            }
            // The extremes only repeat what the prefab as drawn breaks.
            if !problems.is_empty() {
                break;
            }
        }
        // Its most open drawing has every cell that any outcome may walk on.
        let open = p.most_open();
        if problems.is_empty()
            && !open.cells().bounds().points().any(|q| open.cells()[q].is_some_and(|t| t.is_walkable()))
        {
            problems.push((
                "no outcome of it has a walkable cell".into(),
                "draw floor, doors or stairs, or change the variation lines that turn them all into something else"
                    .into(),
            ));
        }
        let ok = problems.is_empty();
        for (message, help) in problems {
            let used = (self.at)(used_at.clone());
            let (cannot, by) = match self.section() {
                "chain" => ("cannot be chained", "it is chained by"),
                other => (
                    if other == "pathways" { "cannot be placed by the pathways" } else { "cannot be joined" },
                    "it is named by",
                ),
            };
            let e =
                Error::at(ErrorKind::Invalid, p.origin().clone(), format!("prefab `{}` {cannot}: {message}", p.name()))
                    .with_help(format!("{help} ({by} {used})"));
            if !self.errors.contains(&e) {
                self.errors.push(e);
            }
        }
        ok
    }

    /// Reports a pool whose prefabs can never join one another, or a start no pool
    /// prefab can join.
    pub(super) fn joinable(&mut self, params: &ChainParams, f: &ChainFile, section: Span, cx: &PieceContext<'_, '_>) {
        let entries: Vec<(&PoolEntry, u8)> = params
            .pool
            .iter()
            .filter(|e| e.weight > 0)
            .filter_map(|e| cx.prefabs.get(&e.prefab).map(|p| (e, facings(p))))
            .collect();
        let auto =
            if params.auto_rooms.weight > 0 && params.auto_rooms.connectors.1 > 0 { Some(ALL_FACINGS) } else { None };
        // What can be joined on: pool prefabs and auto-rooms; and what may be joined
        // to: those, and the start.
        let joiners: Vec<u8> = entries.iter().map(|(_, f)| *f).chain(auto).collect();
        let start_prefab = params.start.as_deref().and_then(|s| cx.prefabs.get(s));
        if let Some(p) = start_prefab
            && facings(p) == 0
            && params.target > 1
        {
            let span = f.start.as_ref().map_or(section.clone(), |s| s.span());
            self.invalid(
                span,
                format!(
                    "start prefab `{}` has no connector, so nothing can join it, but the chain places {} more prefab{} (target = {})",
                    p.name(),
                    params.target - 1,
                    if params.target == 2 { "" } else { "s" },
                    params.target
                ),
                Some(format!(
                    "draw `*` connectors on its wall line (the prefab is at {}), or set `target = 1` for a prefab that is the whole level",
                    p.origin()
                )),
            );
        }
        let start = start_prefab.map(facings).filter(|&f| f != 0);
        let anchors: Vec<u8> = joiners.iter().copied().chain(start).collect();
        let meets = |a: u8, b: u8| Dir::ALL.iter().any(|&d| a & bit(d) != 0 && b & bit(d.opposite()) != 0);
        let pool_span = f.pool.as_ref().map_or(section.clone(), |p| p.span());
        if let (Some(faces), Some(name)) = (start, params.start.as_deref())
            && !joiners.is_empty()
            && !joiners.iter().any(|&b| meets(faces, b))
        {
            let span = f.start.as_ref().map_or(section.clone(), |s| s.span());
            self.invalid(
                span,
                format!("start prefab `{name}` can never be joined: no connector of the pool can face one of its connectors in any allowed orientation"),
                Some("give the pool prefabs connectors on other sides, allow them to rotate, or enable [chain.auto_rooms]".into()),
            );
        }
        let pairs = anchors.iter().any(|&a| joiners.iter().any(|&b| meets(a, b)));
        if !joiners.is_empty() && params.target > 1 && !pairs {
            self.invalid(
                pool_span.clone(),
                "no prefab of the pool can ever join the start or another pool prefab: no connector of one can face a connector of another in any allowed orientation".into(),
                Some("give prefabs connectors on opposite sides, allow them to rotate (`transforms: all`), or enable [chain.auto_rooms]".into()),
            );
        }
        for (e, faces) in entries.iter().filter(|(e, _)| e.min > 0) {
            if !anchors.iter().any(|&a| meets(a, *faces)) {
                let times = if e.min == 1 { "once".to_string() } else { format!("{} times", e.min) };
                let message = format!(
                    "prefab `{}` must appear at least {times}, but no connector of the start or the pool can face its connectors in any allowed orientation",
                    e.prefab
                );
                self.invalid(
                    pool_span.clone(),
                    message,
                    Some("give it connectors the others can meet, allow it to rotate, or drop its `min`".into()),
                );
            }
        }
    }

    /// Reports pool prefabs that fit the map in no allowed orientation, inside the
    /// margin.
    pub(in crate::content) fn fit_the_map(
        &mut self,
        pool: &[PoolEntry],
        margin: i32,
        pool_span: Span,
        cx: &PieceContext<'_, '_>,
    ) {
        let (w, h) = (cx.size.0 - 2 * margin, cx.size.1 - 2 * margin);
        for e in pool {
            let Some(p) = cx.prefabs.get(&e.prefab) else { continue };
            let fits = p.transforms().iter().any(|t| {
                let (pw, ph) = t.apply_size(p.width(), p.height());
                pw <= w && ph <= h
            });
            if !fits {
                let message = format!(
                    "pool prefab `{}` ({}x{}) fits the {}x{} map inside its margin of {} in no allowed orientation",
                    p.name(),
                    p.width(),
                    p.height(),
                    cx.size.0,
                    cx.size.1,
                    margin
                );
                self.invalid(
                    pool_span.clone(),
                    message,
                    Some("use a smaller prefab, a bigger map or a smaller `margin`".into()),
                );
            }
        }
    }
}

const ALL_FACINGS: u8 = 0b1111;

fn bit(d: Dir) -> u8 {
    1 << (d as u8)
}

/// The directions a prefab's connectors can face in its allowed orientations, as
/// bits.
fn facings(p: &Prefab) -> u8 {
    let mut bits = 0;
    for t in p.transforms().iter() {
        for link in p.links() {
            bits |= bit(t.apply_dir(link.dir));
        }
    }
    bits
}

/// Why a prefab cannot be joined by its connectors (chained, or placed as a
/// pathways room), as messages and hints (empty: it can). `whole`: whether its
/// floor must be one area here too.
pub(crate) fn chain_problems(p: &Prefab, is_start: bool, whole: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let cells = p.cells();
    let outside = |q: Point| cells.get(q).is_none_or(|c| c.is_none());
    let walkable = |q: Point| cells.get(q).is_some_and(|c| c.is_some_and(|t| t.is_walkable()));
    for link in p.links() {
        if let LinkKind::Tunnel { width } = link.kind {
            out.push((
                format!("it has a tunnel mark of width {width} at {}", link.at),
                "prefabs are joined only at connectors: draw `*` in the terrain instead".into(),
            ));
        } else if !outside(link.at + link.dir.delta()) || !walkable(link.at - link.dir.delta()) {
            out.push((
                format!("its connector at {} does not face out of its outline ({} of it is not outside, or the cell behind it is not floor)", link.at, link.dir.name()),
                "put connectors in the outline, floor behind them and `?` or the grid's edge in front".into(),
            ));
        }
    }
    if p.links().is_empty() && !is_start {
        out.push((
            "it has no connector, so nothing can join it".into(),
            "draw `*` in its outline where hallways may meet it".into(),
        ));
    }
    let is_link = |q: Point| p.links().iter().any(|l| l.at == q);
    if let Some(open) =
        cells.bounds().points().find(|&q| walkable(q) && !is_link(q) && Dir::ALL.iter().any(|d| outside(q + d.delta())))
    {
        out.push((
            format!("its floor at {open} touches the outside (`?` or the grid's edge)"),
            "a joined prefab's floor is closed by walls, with connectors as its only ways out: wall it in, or make that cell a connector `*`".into(),
        ));
    }
    if let Some(apart) = floor_apart(p).filter(|_| whole) {
        out.push((
            format!("its floor at {apart} cannot be reached from the rest of its floor"),
            "a joined prefab's walkable cells must form one area: open a way through, or make it two prefabs".into(),
        ));
    }
    out
}

/// A walkable cell of `p` its walkers cannot reach from its first walkable
/// cell, if any.
pub(crate) fn floor_apart(p: &Prefab) -> Option<Point> {
    let cells = p.cells();
    let walkable = |q: Point| cells.get(q).is_some_and(|c| c.is_some_and(|t| t.is_walkable()));
    let first = cells.bounds().points().find(|&q| walkable(q))?;
    let seen = Grid::reachable(cells.width(), cells.height(), first, p.moves(), walkable);
    cells.bounds().points().find(|&q| walkable(q) && !seen[q])
}
