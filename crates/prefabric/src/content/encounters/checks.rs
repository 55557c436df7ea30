//! Checking a prefab against the placement style an encounter gives it:
//! enclosed and cubby prefabs open onto their bottom edge, accessible ones
//! keep every edge open, none of these has link marks; centered prefabs lead
//! out through an edge cell or a link mark from each area of their floor,
//! embedded ones through their bottom row or a link mark.
//!
//! In: a prefab and its style. Out: the problems, each naming the prefab and
//! how to fix it. Guarantees: a prefab that passes can be placed in that style
//! without cutting off any of its floor.

use crate::geom::Point;
use crate::grid::Grid;
use crate::prefab::Prefab;
use crate::vocab::Style;

pub(super) fn style_help(style: Style) -> &'static str {
    match style {
        Style::Enclosed | Style::Cubby => {
            "enclosed and cubby prefabs are a room's interior drawn facing south: the door goes below the bottom row, so some of that row must be open, and all open cells must form one area"
        }
        Style::Centered => {
            "a centered prefab stands free in a cavern with the cave carved around it: each area of its open cells needs a floor, door or stairs cell on its edge (or a link mark) to lead out"
        }
        Style::Embedded => {
            "an embedded prefab is sunk into the rock beside a cavern, drawn facing south: the cave meets its bottom row, so some of that row must be floor, door or stairs (or it needs a link mark), and all its open cells form one area"
        }
        _ => {
            "accessible prefabs sit anywhere in a room with any doors, so every edge cell must be open and all open cells must form one area"
        }
    }
}

/// Checks that a prefab can be embedded in `style`; the error completes "prefab `x` …"
/// and comes with a hint. Enclosed and cubby prefabs follow the same drawing rules,
/// so either may be embedded as the other. `whole`: whether its open cells must
/// form one area here too.
pub(super) fn check_prefab(p: &Prefab, style: Style, whole: bool) -> Result<(), (String, &'static str)> {
    let room_like = |s: Style| matches!(s, Style::Enclosed | Style::Cubby);
    if p.style() == Style::Feature {
        return Err((
            "is a feature prefab (`style: feature`), placed before the layout".into(),
            "give it `style: enclosed`, `cubby` or `accessible` to embed it in rooms, or `centered` or `embedded` for caverns",
        ));
    }
    if p.style() != style && !(room_like(p.style()) && room_like(style)) {
        return Err((
            format!("is drawn for `{}` placement, not `{style}`", p.style()),
            "all alternatives of an encounter share its style",
        ));
    }
    if style.joins_caverns() {
        return Ok(());
    }
    if !p.links().is_empty() {
        return Err((
            "has link marks, but encounters are embedded into rooms after the layout, so nothing would dig from them"
                .into(),
            "remove its links layer (only centered and embedded prefabs, which join caves, dig from their links)",
        ));
    }
    check_openings(p, style, whole).map_err(|m| (m, style_help(style)))
}

/// Checks that a prefab placed in a cave (`centered` or `embedded`, or a feature
/// anchored in a cavern) leads out into the cave in every outcome; the error
/// completes "prefab `x` …" and says which drawing fails (empty for the prefab
/// as it reads).
///
/// Only drawn cells count as open here: a `?` cell keeps the cave's ground,
/// which may be rock. Each link mark is a way out, as a passage is dug from it.
/// An embedded prefab's open cells must form one area with some way out. A
/// centered one may have several areas, each with its own way out: its ring is
/// carved to cave floor, so every open cell on its edge meets the cave, as DCSS
/// joins every exit of a vault to the level.
///
/// A varying prefab must pass in every outcome. The variation proof of a prefab
/// drawn `centered` shows just that: each area of every outcome meets its edge
/// or holds a link ([`Prefab::views`]), so its ways out may vary (one door of
/// four, dealt). For other prefabs the proof shows every outcome keeps the
/// areas of the prefab as it reads, so it must be one area, and its most closed
/// and most open drawings must lead out too.
pub(crate) fn check_cave_prefab(p: &Prefab, style: Style) -> Result<(), (String, &'static str)> {
    let views = p.views(false);
    let areas = cave_areas(p, style).map_err(|m| (m, ""))?;
    if style == Style::Centered && (views.len() == 1 || p.style() == Style::Centered) {
        // Each area its own way out; the proof answers for every outcome.
        return match areas.stranded {
            Some(q) => Err((
                format!(
                    "has open cells that lead nowhere: the area at x={} y={} has no open cell on the prefab's edge and no link mark, and no other floor joins it (each area of the floor needs its own way out into the cave)",
                    q.x, q.y
                ),
                "",
            )),
            None => Ok(()),
        };
    }
    for (view, extreme) in views.iter().enumerate() {
        let a = if view == 0 { areas } else { cave_areas(extreme.prefab, style).map_err(|m| (m, extreme.when))? };
        if extreme.whole && a.count > 1 {
            let (q, first) = (a.apart, a.first);
            return Err((
                format!(
                    "has open cells in more than one area: x={} y={} cannot be reached from x={} y={}",
                    q.x, q.y, first.x, first.y
                ),
                extreme.when,
            ));
        }
    }
    Ok(())
}

/// The open areas of a cave prefab's drawing.
#[derive(Copy, Clone)]
pub(super) struct CaveAreas {
    pub(super) count: u32,
    /// The first open cell, and the first of another area.
    pub(super) first: Point,
    pub(super) apart: Point,
    /// The first cell of an area with no way out of its own.
    pub(super) stranded: Option<Point>,
}

/// Labels the open cells of `p` (drawn walkable, or a link mark) into areas
/// and finds any without a way out: an open cell where the cave meets it (any
/// edge when centered, the bottom row when embedded) or a link mark. An error
/// when the drawing has no open cell, or no way out at all.
pub(super) fn cave_areas(p: &Prefab, style: Style) -> Result<CaveAreas, String> {
    let cells = p.cells();
    let (w, h) = (p.width(), p.height());
    let is_link = |q: Point| p.links().iter().any(|l| l.at == q);
    let open = |q: Point| cells.get(q).copied().flatten().is_some_and(|t| t.is_walkable()) || is_link(q);
    let on_way_out = |q: Point| match style {
        Style::Embedded => q.y == h - 1,
        _ => q.x == 0 || q.y == 0 || q.x == w - 1 || q.y == h - 1,
    };
    let Some(first) = cells.bounds().points().find(|&q| open(q)) else {
        return Err("has no floor, door or stairs cell: nothing of it could be reached".into());
    };
    if p.links().is_empty() && !cells.bounds().points().any(|q| open(q) && on_way_out(q)) {
        return Err(match style {
            Style::Embedded => {
                "has no open cell on its bottom row and no link mark: nothing would open onto the cave".into()
            }
            _ => "has no open cell on its edge and no link mark: nothing would lead out into the cave".into(),
        });
    }
    let mut label: Grid<u32> = Grid::new(w, h, 0);
    let mut areas = CaveAreas { count: 0, first, apart: first, stranded: None };
    for start in cells.bounds().points().filter(|&q| open(q)) {
        if label[start] != 0 {
            continue;
        }
        areas.count += 1;
        if areas.count == 2 {
            areas.apart = start;
        }
        let reached = Grid::reachable(w, h, start, p.moves(), open);
        let mut leads_out = false;
        for q in cells.bounds().points().filter(|&q| reached[q]) {
            label[q] = areas.count;
            leads_out |= (on_way_out(q) && open(q)) || is_link(q);
        }
        if !leads_out && areas.stranded.is_none() {
            areas.stranded = Some(start);
        }
    }
    Ok(areas)
}

/// Checks that a prefab opens the way its style needs: some of the bottom row
/// (enclosed, cubby) or every edge cell (accessible), and, when `whole`, every
/// open cell reachable.
pub(super) fn check_openings(p: &Prefab, style: Style, whole: bool) -> Result<(), String> {
    // Don't-care cells keep the room's floor, so they count as open.
    let open = |c: &Option<crate::map::Terrain>| c.is_none_or(|t| t.is_walkable());
    let cells = p.cells();
    let (w, h) = (p.width(), p.height());
    let edge = |q: Point| q.x == 0 || q.y == 0 || q.x == w - 1 || q.y == h - 1;
    let sources: Vec<Point> = match style {
        Style::Accessible => {
            if let Some(q) = cells.bounds().points().find(|&q| edge(q) && !open(&cells[q])) {
                return Err(format!("has a closed edge cell at x={} y={}", q.x, q.y));
            }
            cells.bounds().points().filter(|&q| edge(q)).collect()
        }
        _ => {
            let bottom: Vec<Point> = (0..w).map(|x| Point::new(x, h - 1)).filter(|&q| open(&cells[q])).collect();
            if bottom.is_empty() {
                return Err("has no open cell on its bottom row for the door to lead into".into());
            }
            bottom
        }
    };
    if !whole {
        return Ok(());
    }
    // Every open cell reachable from one entry cell: the open cells are one area, so
    // whichever entry the door or the room's floor meets reaches all of them, and a
    // room's floor on both sides of the prefab stays joined through it.
    let mut seen = Grid::new(w, h, false);
    let mut stack = vec![sources[0]];
    seen[sources[0]] = true;
    while let Some(q) = stack.pop() {
        for &step in p.moves().steps() {
            let n = q + step;
            if cells.get(n).is_some_and(open) && !seen[n] {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    match cells.bounds().points().find(|&q| open(&cells[q]) && !seen[q]) {
        Some(q) => Err(format!(
            "has open cells in more than one area: x={} y={} cannot be reached from x={} y={}",
            q.x, q.y, sources[0].x, sources[0].y
        )),
        None => Ok(()),
    }
}
