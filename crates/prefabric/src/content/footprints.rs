//! The footprints of catalog machines a definition file places, checked in every
//! prefab that uses the file.
//!
//! A `prop` line whose prop is a machine ([`crate::content::catalog::Prop::blocks`])
//! covers a rectangle running right and down from its reference cell, and blocks
//! walkers. For each prefab and each reference cell such a line may fill, every
//! footprint its alternatives may place there (one per size; and none, when a
//! chance, a group, or an alternative that does not block may leave the cell free)
//! must lie inside the prefab on floor, off drawn machines, links' ways out and
//! other references, off the footprints other cells may place, and — for a prop that
//! may not turn — in a prefab that is never placed turned. Then the floor: the
//! prefab's walkable cells (`?` too in a prefab embedded in a room, whose floor they
//! are) without its drawn machines, without every cell any footprint may cover
//! and without the cells no rule changes where its legend brings a machine stay
//! one area per area they were (counting no machine); and whatever each footprint leaves free, by its
//! absence or by a smaller alternative, reaches that floor. So whichever
//! alternatives, groups and chances a placement draws, no definition-placed machine
//! cuts the prefab's floor: the check reasons over all of them, it does not sample.
//! Every problem is reported at the definition line, naming the prefab and cell.

use super::catalog::Catalog;
use super::defs::{Definition, Definitions};
use super::index::PrefabIndex;
use crate::error::{Error, ErrorKind, Location};
use crate::format::def::Pick;
use crate::geom::{Moves, Point, Rect, TransformSet};
use crate::grid::Grid;
use crate::prefab::{Prefab, RefMark};
use std::collections::BTreeMap;

/// One footprint a line may place on a reference cell.
struct Footprint<'d> {
    size: (u8, u8),
    line: &'d Definition,
    col: u32,
    tag: &'d str,
}

/// A reference cell that a blocking machine may cover from.
struct Unit<'d> {
    at: Point,
    glyph: char,
    options: Vec<Footprint<'d>>,
    /// True when some draw leaves the cell without a machine.
    may_be_free: bool,
    /// Every cell some option covers.
    cells: Vec<Point>,
}

impl Unit<'_> {
    fn first(&self) -> &Footprint<'_> {
        &self.options[0]
    }

    fn locate(&self, o: &Footprint<'_>) -> Location {
        Location::at(o.line.location.file.clone(), o.line.line.line, o.col)
    }
}

/// Every problem the machines of each definition file make in the prefabs
/// that use it (those with reference marks): [`check`] for each.
pub(crate) fn check_all(
    defs: &BTreeMap<String, Definitions>,
    prefabs: &PrefabIndex<'_>,
    catalog: &Catalog,
) -> Vec<Error> {
    let mut errors = Vec::new();
    for d in defs.values() {
        for p in prefabs.prefabs().iter().filter(|p| p.defs_name() == d.name && !p.possible_refs().is_empty()) {
            errors.extend(check(d, p, catalog));
        }
    }
    errors
}

/// Every problem the machines `d` places make in prefab `p`.
///
/// A prefab with variation lines is checked on its most closed drawing, with its
/// sure floor (walkable in every outcome, no machine on it) as the floor the
/// footprints must keep whole; its drawn footprints must stand on cells no rule
/// changes. A reference its legend gives moves from outcome to outcome, so a
/// machine there must be one cell, on floor; where its glyph may land, it blocks
/// (always, or by some draw). Then the variation's proof shows that the floor
/// keeps its areas in every outcome with every footprint and every such machine
/// blocking.
fn check(d: &Definitions, p: &Prefab, catalog: &Catalog) -> Vec<Error> {
    let mut errors = Vec::new();
    let machine_glyphs = if p.varies() { legend_machines(d, p, &mut errors) } else { Vec::new() };
    let view = p.most_closed();
    let refs: Vec<RefMark> = p.possible_refs().into_iter().map(|(r, _)| r).collect();
    let machine = machine_cells(view);
    let mut units: Vec<Unit<'_>> = Vec::new();
    for r in view.refs() {
        let Some(mut unit) = unit_at(d, r.at, r.glyph) else { continue };
        let mut ok = true;
        for o in &unit.options {
            if let Some(e) = varied(&unit, o, p).or_else(|| misfit(&unit, o, view, &refs, &machine, catalog)) {
                errors.push(e);
                ok = false;
            }
        }
        if !ok {
            continue;
        }
        unit.cells = union(&unit);
        if let Some(e) = overlap(&unit, &units, p) {
            errors.push(e);
            continue;
        }
        units.push(unit);
    }
    if errors.is_empty() && !(units.is_empty() && machine_glyphs.is_empty()) {
        // The floor as walkers would have it with no machine placed, and the
        // cells no rule changes that the legend's machines may take from it:
        // those machines must not cut what that floor joins. (Where a rule
        // moves them, the variation's proof below reasons over every outcome.)
        let floor = p.sure_floor(&[]);
        let glyphs: Vec<char> = machine_glyphs.iter().map(|(g, _)| *g).collect();
        let legend_blocked: Vec<Point> =
            p.kept_glyph_cells(&glyphs).into_iter().filter(|&q| floor.as_ref().is_some_and(|f| f[q])).collect();
        let cut = floor_problem(view, &machine, &units, floor.as_ref(), &legend_blocked);
        errors.extend(cut.map(|cut| cut.unwrap_or_else(|(a, b)| legend_cut(d, p, &machine_glyphs, a, b))));
    }
    if errors.is_empty() && p.varies() && !(units.is_empty() && machine_glyphs.is_empty()) {
        let covered: Vec<Point> = units.iter().flat_map(|u| u.cells.iter().copied()).collect();
        let context = format!(", counting the machines `{}.def` may place as blocking", d.name);
        errors.extend(p.floor_problems_with(&covered, &machine_glyphs, &context));
    }
    errors
}

/// The legend glyphs of varying prefab `p` whose reference a line of `d` may
/// make a machine, each with whether it always does; errors for those that
/// cannot be: a machine larger than one cell (its footprint must stand where it
/// is drawn) or one on a cell that is not floor.
fn legend_machines(d: &Definitions, p: &Prefab, errors: &mut Vec<Error>) -> Vec<(char, bool)> {
    let drawn = p.drawn_refs();
    let mut out: Vec<(char, bool)> = Vec::new();
    let mut seen: Vec<char> = Vec::new();
    for (r, terrain) in p.possible_refs() {
        if drawn.contains(&r) || seen.contains(&r.glyph) {
            continue;
        }
        let Some(unit) = unit_at(d, r.at, r.glyph) else { continue };
        seen.push(r.glyph);
        let problem = if let Some(o) = unit.options.iter().find(|o| o.size != (1, 1)) {
            Some((
                o,
                format!(
                    "is {}x{}: a machine larger than one cell must be drawn on the refs layer, where its footprint stands",
                    o.size.0, o.size.1
                ),
            ))
        } else {
            terrain
                .filter(|t| !t.is_floor())
                .map(|t| (unit.first(), format!("would stand on {t}; machines stand on floor")))
        };
        match problem {
            Some((o, why)) => errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    unit.locate(o),
                    format!(
                        "machine `{}` may stand on reference `{}`, which prefab `{}` places through a `legend` glyph of its variation, and {why}",
                        o.tag,
                        r.glyph,
                        p.name()
                    ),
                )
                .with_help("draw the reference on the prefab's refs layer, or let the variation place a one-cell machine on floor"),
            ),
            None => out.extend(p.legend_glyphs(r.glyph).into_iter().map(|g| (g, !unit.may_be_free))),
        }
    }
    out
}

/// Why footprint `o` of `unit` may not stand in prefab `p` because a variation
/// line changes a cell under it, if one does.
fn varied(unit: &Unit<'_>, o: &Footprint<'_>, p: &Prefab) -> Option<Error> {
    let q = cells_of(unit.at, o.size).find(|&q| p.varies_at(q))?;
    Some(
        Error::at(
            ErrorKind::Invalid,
            unit.locate(o),
            format!(
                "{} would stand on x={} y={}, whose terrain a variation line of the prefab changes",
                placed(unit, o, p),
                q.x,
                q.y
            ),
        )
        .with_help("a machine's footprint stands on cells no variation rule changes: mask them, or move the reference"),
    )
}

/// The unit of reference cell `at` drawn as `glyph`: the footprints its lines
/// may place, or `None` when none of them places a machine.
fn unit_at(d: &Definitions, at: Point, glyph: char) -> Option<Unit<'_>> {
    let mut options: Vec<Footprint<'_>> = Vec::new();
    let mut may_be_free = false;
    let lines = d.lines.iter().filter(|l| l.line.glyph == glyph && !l.line.names_machine());
    for l in lines {
        let shared_group = l
            .line
            .group
            .as_ref()
            .is_some_and(|g| d.lines.iter().any(|o| o.line.group.as_ref() == Some(g) && o.line.glyph != glyph));
        may_be_free |= l.line.chance < 100 || shared_group;
        for ((pick, col), size) in l.line.picks.iter().zip(&l.footprints) {
            match (size, pick) {
                (Some(size), Pick::Tag(tag)) => {
                    if !options.iter().any(|o| o.size == *size) {
                        options.push(Footprint { size: *size, line: l, col: *col, tag });
                    }
                }
                _ => may_be_free = true,
            }
        }
    }
    (!options.is_empty()).then_some(Unit { at, glyph, options, may_be_free, cells: Vec::new() })
}

/// Every cell of prefab `p`, as drawn, where a machine may stand once its
/// objects are placed: its drawn machines (in its most closed outcome) and every
/// cell a footprint of a line of `d` may cover from a reference some outcome
/// holds, anywhere in its box when the line says SHIFT. Sorted by row, then
/// column, for [`slice::binary_search_by_key`]. A room's door must not open
/// onto one of them: a machine there would wall the room off.
pub(crate) fn machine_reach(d: Option<&Definitions>, p: &Prefab) -> Vec<Point> {
    let mut cells: Vec<Point> = p.most_closed().machines().iter().flat_map(|m| m.cells()).map(|&(q, _)| q).collect();
    if let Some(d) = d {
        for (r, _) in p.possible_refs() {
            let Some(unit) = unit_at(d, r.at, r.glyph) else { continue };
            for o in &unit.options {
                let shift = o.line.line.shift_reach().unwrap_or_default();
                let (w, h) = (i32::from(o.size.0) + 2 * shift.x, i32::from(o.size.1) + 2 * shift.y);
                cells.extend(Rect::new(r.at.x - shift.x, r.at.y - shift.y, w, h).points());
            }
        }
    }
    cells.sort_by_key(|q| (q.y, q.x));
    cells.dedup();
    cells
}

/// The cells of prefab `p` its drawn machines cover.
fn machine_cells(p: &Prefab) -> Grid<bool> {
    let mut grid = Grid::new(p.width(), p.height(), false);
    for &(q, _) in p.machines().iter().flat_map(|m| m.cells()) {
        grid.set(q, true);
    }
    grid
}

/// The cells of a `size` footprint whose top-left is `at`.
fn cells_of(at: Point, size: (u8, u8)) -> impl Iterator<Item = Point> {
    let (w, h) = (i32::from(size.0), i32::from(size.1));
    (0..h).flat_map(move |y| (0..w).map(move |x| at + Point::new(x, y)))
}

fn union(unit: &Unit<'_>) -> Vec<Point> {
    let mut cells: Vec<Point> = unit.options.iter().flat_map(|o| cells_of(unit.at, o.size)).collect();
    cells.sort_by_key(|q| (q.y, q.x));
    cells.dedup();
    cells
}

/// Why footprint `o` cannot stand where `unit` puts it in prefab `p`, if it cannot.
fn misfit(
    unit: &Unit<'_>,
    o: &Footprint<'_>,
    p: &Prefab,
    refs: &[RefMark],
    machine: &Grid<bool>,
    catalog: &Catalog,
) -> Option<Error> {
    let problem = cells_of(unit.at, o.size).find_map(|q| {
        let why = match p.cells().get(q) {
            None => "runs past the prefab's edge".to_string(),
            Some(None) => "would stand on `?` (don't care)".to_string(),
            Some(Some(t)) if !t.is_floor() => format!("would stand on {t}"),
            _ if machine[q] => "covers a machine drawn there".to_string(),
            _ if p.is_link_path(q) => "covers a link's way out".to_string(),
            _ => match refs.iter().find(|r| r.at == q && r.at != unit.at) {
                Some(r) => format!("covers reference `{}`", r.glyph),
                None => return None,
            },
        };
        Some((q, why))
    });
    if let Some((q, why)) = problem {
        let message = format!("{} {why} at x={} y={}", placed(unit, o, p), q.x, q.y);
        let help = "a machine's footprint runs right and down from its reference cell, on floor, clear of drawn machines, links' ways out and other references: move the reference or pick a smaller machine";
        return Some(Error::at(ErrorKind::Invalid, unit.locate(o), message).with_help(help));
    }
    let pinned = catalog.prop(o.tag).is_some_and(|prop| !prop.rotate);
    (pinned && o.size != (1, 1) && p.transforms() != TransformSet::IDENTITY).then(|| {
        Error::at(
            ErrorKind::Invalid,
            unit.locate(o),
            format!(
                "{} may not turn (`rotate = false`) but the prefab may be placed turned or flipped",
                placed(unit, o, p)
            ),
        )
        .with_help("give the prefab `transforms: none`, or place a machine that may turn")
    })
}

/// How an error names a footprint: the machine, its size and where it starts.
fn placed(unit: &Unit<'_>, o: &Footprint<'_>, p: &Prefab) -> String {
    format!(
        "machine `{}` ({}x{}) drawn as `{}` at x={} y={} of prefab `{}`",
        o.tag,
        o.size.0,
        o.size.1,
        unit.glyph,
        unit.at.x,
        unit.at.y,
        p.name()
    )
}

/// An error when `unit`'s cells meet those of an earlier unit.
fn overlap(unit: &Unit<'_>, earlier: &[Unit<'_>], p: &Prefab) -> Option<Error> {
    let other = earlier.iter().find(|e| e.cells.iter().any(|q| unit.cells.contains(q)))?;
    let o = unit.first();
    let message = format!(
        "{} may overlap the footprint of `{}` drawn as `{}` at x={} y={}",
        placed(unit, o, p),
        other.first().tag,
        other.glyph,
        other.at.x,
        other.at.y
    );
    Some(
        Error::at(ErrorKind::Invalid, unit.locate(o), message)
            .with_help("two machines cannot share a cell: move one reference further away"),
    )
}

/// The floor check: the walkable cells without every footprint keep each of
/// their areas whole, and every cell a footprint may leave free reaches them.
/// `sure`, for a prefab that varies, is its floor open in every outcome with no
/// machine placed; `legend_blocked`, the cells of it that machines its legend's
/// references may take. A cut no footprint takes part in comes back as the two
/// cells it parts, for the caller to name the legend's machines.
fn floor_problem(
    p: &Prefab,
    machine: &Grid<bool>,
    units: &[Unit<'_>],
    sure: Option<&Grid<bool>>,
    legend_blocked: &[Point],
) -> Option<Result<Error, (Point, Point)>> {
    let embedded = p.style().dont_care_is_floor();
    let mut open = Grid::new(p.width(), p.height(), false);
    for q in p.cells().bounds().points() {
        let walkable = p.cells()[q].map_or(embedded, |t| t.is_walkable());
        open.set(q, sure.map_or(walkable, |s| s[q]) && !machine[q]);
    }
    let areas = label(&open, p.moves());
    let mut rest = open.clone();
    for q in units.iter().flat_map(|u| &u.cells).chain(legend_blocked) {
        rest.set(*q, false);
    }
    if let Some((a, b)) = split(&areas, &rest, p.moves()) {
        if units.is_empty() {
            return Some(Err((a, b)));
        }
        return Some(Ok(cut_error(p, &open, &areas, units, a, b)));
    }
    units.iter().find_map(|u| stranded(p, &areas, &rest, u)).map(Ok)
}

/// The error for floor cut between `a` and `b` by the one-cell machines the
/// legend's references bring (no drawn reference places one).
fn legend_cut(d: &Definitions, p: &Prefab, machine_glyphs: &[(char, bool)], a: Point, b: Point) -> Error {
    let glyphs: String = machine_glyphs.iter().map(|(g, _)| *g).collect();
    let line = d.lines.iter().find(|l| p.legend_glyphs(l.line.glyph).iter().any(|g| glyphs.contains(*g)));
    let location = line.map_or_else(|| p.origin().clone(), |l| l.location.clone());
    let message = format!(
        "the machines `{}.def` places where prefab `{}` draws `{glyphs}` (its legend's references) cut its floor in two: the floor at x={} y={} cannot reach the floor at x={} y={}",
        d.name,
        p.name(),
        b.x,
        b.y,
        a.x,
        a.y
    );
    Error::at(ErrorKind::Invalid, location, message).with_help(
        "machines block walkers: place the reference where a way stays free around it, or make it a prop that does not block",
    )
}

/// Labels the areas of `open` cells joined by `moves` (0 for a closed cell).
fn label(open: &Grid<bool>, moves: Moves) -> Grid<u32> {
    let mut labels = Grid::new(open.width(), open.height(), 0u32);
    let mut next = 0;
    let mut stack = Vec::new();
    for start in open.bounds().points() {
        if !open[start] || labels[start] != 0 {
            continue;
        }
        next += 1;
        labels.set(start, next);
        stack.push(start);
        while let Some(q) = stack.pop() {
            for &step in moves.steps() {
                let n = q + step;
                if open.get(n) == Some(&true) && labels[n] == 0 {
                    labels.set(n, next);
                    stack.push(n);
                }
            }
        }
    }
    labels
}

/// Two cells of `rest` in one area of `areas` that `rest` does not join.
fn split(areas: &Grid<u32>, rest: &Grid<bool>, moves: Moves) -> Option<(Point, Point)> {
    let pieces = label(rest, moves);
    // For each area, the first piece seen in it and one of its cells.
    let mut first: Vec<Option<(u32, Point)>> = Vec::new();
    for q in rest.bounds().points().filter(|&q| rest[q]) {
        let area = areas[q] as usize;
        if first.len() <= area {
            first.resize(area + 1, None);
        }
        match first[area] {
            None => first[area] = Some((pieces[q], q)),
            Some((piece, a)) if piece != pieces[q] => return Some((a, q)),
            Some(_) => {}
        }
    }
    None
}

/// The error for floor cut between `a` and `b`: at the first unit that cuts it
/// alone, else at the last one, the units together.
fn cut_error(p: &Prefab, open: &Grid<bool>, areas: &Grid<u32>, units: &[Unit<'_>], a: Point, b: Point) -> Error {
    let alone = units.iter().find(|u| {
        let mut rest = open.clone();
        for q in &u.cells {
            rest.set(*q, false);
        }
        split(areas, &rest, p.moves()).is_some()
    });
    let (unit, together) = match alone {
        Some(u) => (u, ""),
        None => (units.last().unwrap_or(&units[0]), ", together with the other machines the file places there,"),
    };
    let o = unit.first();
    let message = format!(
        "{}{together} cuts the prefab's floor in two: the floor at x={} y={} cannot reach the floor at x={} y={}",
        placed(unit, o, p),
        b.x,
        b.y,
        a.x,
        a.y
    );
    Error::at(ErrorKind::Invalid, unit.locate(o), message).with_help(
        "machines block walkers: move the reference so a way stays free around the machine, or pick a smaller one",
    )
}

/// An error when a cell `u` may leave free (placing a smaller footprint, or
/// none) cannot reach the rest of its area's floor.
fn stranded(p: &Prefab, areas: &Grid<u32>, rest: &Grid<bool>, u: &Unit<'_>) -> Option<Error> {
    let none = u.may_be_free.then_some(None);
    for placed_now in u.options.iter().map(Some).chain(none) {
        let covered = |q: &Point| placed_now.is_some_and(|o| cells_of(u.at, o.size).any(|c| c == *q));
        let left: Vec<Point> = u.cells.iter().copied().filter(|q| !covered(q)).collect();
        let steps = p.moves().steps();
        let reaches = |q: Point| steps.iter().any(|&step| rest.get(q + step) == Some(&true));
        let mut seen: Vec<Point> = left.iter().copied().filter(|&q| reaches(q)).collect();
        let mut k = 0;
        while k < seen.len() {
            let q = seen[k];
            for &step in steps {
                let n = q + step;
                if left.contains(&n) && !seen.contains(&n) {
                    seen.push(n);
                }
            }
            k += 1;
        }
        let area_has_floor = |q: Point| rest.bounds().points().any(|r| rest[r] && areas[r] == areas[q]);
        if let Some(&q) = left.iter().find(|&&q| !seen.contains(&q) && area_has_floor(q)) {
            let o = placed_now.unwrap_or(u.first());
            let what = match placed_now {
                Some(o) => format!("place `{}` ({}x{})", o.tag, o.size.0, o.size.1),
                None => "stay empty".to_string(),
            };
            let message = format!(
                "reference `{}` at x={} y={} of prefab `{}` may {what}, and then the floor at x={} y={} cannot reach the rest of the prefab's floor",
                u.glyph,
                u.at.x,
                u.at.y,
                p.name(),
                q.x,
                q.y
            );
            return Some(Error::at(ErrorKind::Invalid, u.locate(o), message).with_help(
                "every footprint a line may place is checked, and the cells a smaller one (or none) leaves free must join the floor: move the reference or give the alternatives one size",
            ));
        }
    }
    None
}
