//! The objects stage: every placed prefab's reference characters become objects
//! (seed 000, "Inside a Prefab").
//!
//! For each placed prefab, features and encounters alike, its definition file is
//! read at the level's depth from the prefab's own random stream: one line of each
//! group is chosen, each line passes its chance or not, and each reference cell
//! takes the object its line picks — a tag, an entity of a class for the depth
//! (STRONG one level up, FALLBACK to the weakest), an item of a category or carried
//! by an entity or any item near the depth (PROTOTYPE, NEVERFAULTY, RATING=+N), a
//! trap of a category or any trap near the depth.
//! Cardinally adjacent cells with the same character share one random choice
//! unless the line says UNIQUE. SHIFT moves an object within its box onto a free
//! cell of the prefab its kind may stand on. Game keywords come out with their
//! values picked. Every object stands on floor (traps may sit on doors), which the
//! pack checked for the cells drawn. Items and debris are drawn with the glyph the
//! catalog gives them; entities, props and traps with their reference character.
//!
//! A prop that is a machine ([`crate::content::catalog::Prop::blocks`]) becomes a
//! blocking [`ObjectKind::Machine`] drawn with its art over its footprint, the
//! reference cell its top-left in the prefab as drawn, footprint and art turned
//! with the prefab; the pack checked every footprint a line may place keeps the
//! prefab's floor whole ([`crate::content`]'s footprint check). A shifted machine
//! moves whole, after everything else of its prefab stands, by an offset of its box
//! whose footprint lies on free floor and keeps the floor around it one area, else
//! stays where drawn. A `machine` line gives the drawn machine under its reference
//! cell its tag and game keywords instead of placing an object.

use crate::bits::Bits;
use crate::content::Pack;
use crate::content::catalog::{Catalog, FAULTY_PERCENT, Kind};
use crate::content::defs::Definitions;
use crate::format::def::{BUILT_IN_KEYWORDS, DefLine, Keyword, MAX_VALUE_NUMBER, Pick, Value};
use crate::geom::{Dir, Point, Rect, Transform};
use crate::grid::Grid;
use crate::map::{DefinitionUse, Map, Object, ObjectKind, mask};
use crate::prefab::RefMark;
use crate::prefab::art;
use crate::rng::Rng;
use crate::trace::Outcome;
use std::borrow::Cow;
use std::sync::Arc;

/// Runs the stage.
pub(crate) fn run(map: &mut Map, pack: &Pack, seed: u64) {
    let depth = map.depth;
    // The cells objects stand on, kept as objects are added: what a prefab's
    // shifted objects may not move to is read off its own rectangle.
    let mut stood_on = Bits::new(map.width() as usize, map.height() as usize, false);
    let stand = |bits: &mut Bits, object: &Object| {
        for &(p, _) in &object.cells {
            if on_grid(bits, p) {
                bits.set(p.x as usize, p.y as usize);
            }
        }
    };
    for object in &map.objects {
        stand(&mut stood_on, object);
    }
    for index in 0..map.prefabs.len() {
        let placed = &map.prefabs[index];
        let Some(prefab) = super::placed::placed_prefab(pack, placed) else { continue };
        let prefab = prefab.as_ref();
        if prefab.refs().is_empty() {
            continue;
        }
        let Some(defs) = pack.definitions(prefab.defs_name()) else { continue };
        // Only its references are needed as placed: those are turned, not the
        // whole prefab.
        let (t, (w, h)) = (placed.transform, (prefab.width(), prefab.height()));
        let mut refs: Vec<RefMark> =
            prefab.refs().iter().map(|r| RefMark { at: t.apply_point(r.at, w, h), glyph: r.glyph }).collect();
        refs.sort_by_key(|r| (r.at.y, r.at.x));
        let place = Placement { prefab, refs: &refs, transform: t, bounds: placed.bounds };
        let bounds = placed.bounds;
        let mut rng = Rng::stream(seed, "objects", &format!("{}#{index}", placed.name));
        let lines = enabled_lines(defs, &mut rng);
        let (objects, names) = resolve(map, &stood_on, pack.catalog(), depth, &place, defs, &lines, index, &mut rng);
        let count = objects.len();
        let machines = if map.trace.is_on() { machine_notes(&objects, &names) } else { String::new() };
        for object in objects {
            stand(&mut stood_on, &object);
            map.add_object(object);
        }
        name_machines(map, index, names);
        if count > 0 || !machines.is_empty() {
            let plural = if count == 1 { "" } else { "s" };
            let name = &map.prefabs[index].name;
            map.trace.push_with("objects", Outcome::Chose, bounds, || {
                format!("{count} object{plural} in prefab `{name}` from {}{machines}", defs.file)
            });
        }
    }
    drop_blocked_doors(map);
}

/// Takes out of each region's doors the cells a machine now stands on. A
/// definition may turn a reference on a prefab's open edge into a machine (a
/// centred prefab in a cavern lists every open edge cell as a way in), and a
/// cell a machine fills is no way in: what the map says of its regions stays
/// true for the stages after and for the game.
fn drop_blocked_doors(map: &mut Map) {
    let Map { regions, masks, trace, .. } = map;
    for region in regions.iter_mut() {
        let before = region.doors.len();
        region.doors.retain(|door| masks.get(door.at).is_none_or(|m| m & mask::SOLID == 0));
        let dropped = before - region.doors.len();
        if dropped > 0 {
            let plural = if dropped == 1 { "" } else { "s" };
            trace.push_with("objects", Outcome::Note, Some(region.bounds), || {
                format!("{dropped} way{plural} into region {} taken out: a machine stands there", region.id)
            });
        }
    }
}

/// What the trace says of a prefab's machines: those its lines placed and the
/// drawn ones they named, with where each stands (empty without any).
fn machine_notes(objects: &[Object], names: &[Name]) -> String {
    let mut notes = Vec::new();
    for o in objects.iter().filter(|o| o.kind == ObjectKind::Machine) {
        let at = o.cells[0].0;
        notes.push(format!("machine `{}` at ({}, {})", o.tag.as_deref().unwrap_or("?"), at.x, at.y));
    }
    for n in names {
        notes.push(format!("drawn machine at ({}, {}) named `{}`", n.cell.x, n.cell.y, n.tag));
    }
    if notes.is_empty() { String::new() } else { format!(": {}", notes.join(", ")) }
}

/// A placed prefab as the stage sees it: as drawn, its references as placed
/// (in reading order), and where.
struct Placement<'p> {
    prefab: &'p crate::prefab::Prefab,
    refs: &'p [RefMark],
    transform: Transform,
    bounds: Rect,
}

impl Placement<'_> {
    /// True when `p` (placed prefab coordinates) lies on the way out of one of
    /// its link marks: the cell it was drawn at does.
    fn is_link_path(&self, p: Point) -> bool {
        let (w, h) = (self.prefab.width(), self.prefab.height());
        let (tw, th) = self.transform.apply_size(w, h);
        self.prefab.is_link_path(self.transform.inverse().apply_point(p, tw, th))
    }

    /// The map cells of a `size` footprint whose top-left, in the prefab as drawn,
    /// is the reference cell drawn at `at` (placed prefab coordinates), each with
    /// its cell of the footprint as drawn, in reading order of the map.
    fn footprint(&self, at: Point, size: (u8, u8)) -> Vec<(Point, Point)> {
        let t = self.transform;
        let (w, h) = (self.prefab.width(), self.prefab.height());
        let (tw, th) = t.apply_size(w, h);
        let drawn = t.inverse().apply_point(at, tw, th);
        let origin = Point::new(self.bounds.x, self.bounds.y);
        let mut cells = Vec::with_capacity(usize::from(size.0) * usize::from(size.1));
        for y in 0..i32::from(size.1) {
            for x in 0..i32::from(size.0) {
                let source = Point::new(x, y);
                cells.push((origin + t.apply_point(drawn + source, w, h), source));
            }
        }
        cells.sort_by_key(|(p, _)| (p.y, p.x));
        cells
    }
}

/// A `machine` line's name for the drawn machine under its reference cell.
struct Name {
    cell: Point,
    tag: String,
    keywords: Vec<(String, Option<String>)>,
    definition: DefinitionUse,
}

/// Gives each drawn machine of placed prefab `index` that a `machine` line names
/// its tag, keywords and definition (the pack checked a machine lies under each).
fn name_machines(map: &mut Map, index: usize, names: Vec<Name>) {
    for name in names {
        let machine = map.objects.iter_mut().find(|o| {
            o.prefab == Some(index)
                && o.kind == ObjectKind::Machine
                && o.definition.is_none()
                && o.cells.iter().any(|c| c.0 == name.cell)
        });
        if let Some(m) = machine {
            m.tag = Some(name.tag.into());
            m.keywords = name.keywords;
            m.definition = Some(name.definition);
        }
    }
}

/// For each line, whether it is used: one line per group, each passing its chance.
fn enabled_lines(defs: &Definitions, rng: &mut Rng) -> Vec<bool> {
    let mut enabled = vec![true; defs.lines.len()];
    let mut groups: Vec<&str> = Vec::new();
    for d in &defs.lines {
        if let Some(g) = &d.line.group
            && !groups.contains(&g.as_str())
        {
            groups.push(g);
        }
    }
    for g in groups {
        let members: Vec<usize> =
            (0..defs.lines.len()).filter(|&i| defs.lines[i].line.group.as_deref() == Some(g)).collect();
        let chosen = rng.pick(&members).copied();
        for i in members {
            enabled[i] = Some(i) == chosen;
        }
    }
    for (i, d) in defs.lines.iter().enumerate() {
        if enabled[i] && d.line.chance < 100 {
            enabled[i] = rng.percent(u32::from(d.line.chance));
        }
    }
    enabled
}

/// `line` with each keyword that has a chance rolled for, in order: those that
/// fail it left out. Most lines lose none, and those are not copied.
fn keywords_rolled<'d>(line: &'d DefLine, rng: &mut Rng) -> Cow<'d, DefLine> {
    let mut rolled = Cow::Borrowed(line);
    let mut kept = 0;
    for k in &line.keywords {
        if k.chance >= 100 || rng.percent(u32::from(k.chance)) {
            kept += 1;
        } else {
            rolled.to_mut().keywords.remove(kept);
        }
    }
    rolled
}

/// The objects of one placed prefab, and the names `machine` lines give its
/// drawn machines.
#[allow(clippy::too_many_arguments)]
fn resolve(
    map: &Map,
    stood_on: &Bits,
    catalog: &Catalog,
    depth: u32,
    place: &Placement<'_>,
    defs: &Definitions,
    enabled: &[bool],
    index: usize,
    rng: &mut Rng,
) -> (Vec<Object>, Vec<Name>) {
    let bounds = place.bounds;
    let origin = Point::new(bounds.x, bounds.y);
    let refs = place.refs;
    // Which reference cells were given the object of which line (`i * lines + k`),
    // and the tag and alternative each got.
    let line_count = defs.lines.len();
    let mut chosen: Vec<Option<Option<Picked>>> = vec![None; refs.len() * line_count];
    let mut at = Grid::new(bounds.width, bounds.height, None::<usize>);
    for (i, r) in refs.iter().enumerate() {
        at.set(r.at, Some(i));
    }
    // Each enabled line with the keywords that passed their chance, rolled once per
    // line: a keyword's chance decides for the whole line in this prefab.
    let lines: Vec<Option<Cow<'_, DefLine>>> =
        defs.lines.iter().zip(enabled).map(|(d, &on)| on.then(|| keywords_rolled(&d.line, rng))).collect();
    // Cells no shifted object may move to: objects already on the map, and every
    // cell a reference of this prefab is drawn on.
    // SHIFT stays inside the prefab, so only objects there can be in the way.
    let mut taken: Vec<Point> =
        bounds.points().filter(|&p| on_grid(stood_on, p) && stood_on.get(p.x as usize, p.y as usize)).collect();
    taken.extend(refs.iter().map(|r| origin + r.at));
    // The enabled lines of a reference: one, or a stack of objects on its cell.
    let lines_of = |r: RefMark| {
        let lines = &lines;
        (0..line_count).filter(move |&k| lines[k].is_some() && defs.lines[k].line.glyph == r.glyph)
    };
    // Every cell a multi-cell machine may cover is kept from shifted objects.
    for &r in refs {
        for li in lines_of(r) {
            for &size in defs.lines[li].footprints.iter().flatten().filter(|s| **s != (1, 1)) {
                taken.extend(place.footprint(r.at, size).into_iter().map(|(p, _)| p));
            }
        }
    }
    let mut out = Vec::new();
    let mut names = Vec::new();
    // Shifted machines, moved once everything else of the prefab stands.
    let mut shifted: Vec<(Object, Point)> = Vec::new();
    for (i, li) in (0..refs.len()).flat_map(|i| lines_of(refs[i]).map(move |li| (i, li))) {
        let r = refs[i];
        let (def, line) = (&defs.lines[li], lines[li].as_deref().unwrap_or(&defs.lines[li].line));
        if let (true, Some((Pick::Tag(tag), _))) = (line.names_machine(), line.picks.first()) {
            let definition = DefinitionUse { defs: defs.name.clone(), line: li as u32, alternative: 0 };
            let keywords = game_keywords(&line.keywords, rng);
            names.push(Name { cell: origin + r.at, tag: tag.clone(), keywords, definition });
            continue;
        }
        if chosen[i * line_count + li].is_none() {
            let unique = line.has("UNIQUE");
            let tag = pick_tag(catalog, def.kind, line, depth, rng);
            // The cell's chain of same characters shares the choice.
            let chain = if unique { vec![i] } else { chain_of(refs, &at, i) };
            for c in chain {
                chosen[c * line_count + li] = Some(tag.clone());
            }
        }
        let Some(Some((tag, alternative))) = chosen[i * line_count + li].clone() else { continue };
        // Only a line with a footprint places machines: the catalog is asked
        // for the prop only then.
        let size = def.footprints.get(alternative as usize).copied().flatten();
        if let Some((size, prop)) = size.and_then(|size| Some((size, catalog.prop(&tag)?))) {
            let art = |source: Point| {
                let g = prop.glyph(source.x, source.y);
                if prop.rotate { art::turn(g, place.transform) } else { g }
            };
            let cells = place.footprint(r.at, size).into_iter().map(|(p, source)| (p, art(source))).collect();
            let object = Object {
                kind: ObjectKind::Machine,
                tag: Some(tag),
                cells,
                prefab: Some(index),
                keywords: game_keywords(&line.keywords, rng),
                furnishing: None,
                definition: Some(DefinitionUse { defs: defs.name.clone(), line: li as u32, alternative }),
            };
            match line.shift_reach() {
                Some(reach) => shifted.push((object, reach)),
                _ => out.push(object),
            }
            continue;
        }
        let cell = shift(map, def.kind, line, origin + r.at, bounds, &taken, rng);
        taken.push(cell);
        let glyph = catalog.glyph_of(def.kind, &tag).unwrap_or(r.glyph);
        out.push(Object {
            kind: object_kind(def.kind),
            tag: Some(tag),
            cells: vec![(cell, glyph)],
            prefab: Some(index),
            keywords: game_keywords(&line.keywords, rng),
            furnishing: None,
            definition: Some(DefinitionUse { defs: defs.name.clone(), line: li as u32, alternative }),
        });
    }
    if !shifted.is_empty() {
        shift_machines(map, place, &mut out, shifted, &taken, rng);
    }
    (out, names)
}

/// True when `p` lies on the grid of `bits`.
fn on_grid(bits: &Bits, p: Point) -> bool {
    p.x >= 0 && p.y >= 0 && (p.x as usize) < bits.width && (p.y as usize) < bits.height
}

pub(crate) fn object_kind(kind: Kind) -> ObjectKind {
    match kind {
        Kind::Entity => ObjectKind::Entity,
        Kind::Item => ObjectKind::Item,
        Kind::Prop => ObjectKind::Prop,
        Kind::Trap => ObjectKind::Trap,
        Kind::Debris => ObjectKind::Debris,
    }
}

/// The reference cells 4-connected to cell `i` through cells of its character.
fn chain_of(refs: &[RefMark], at: &Grid<Option<usize>>, i: usize) -> Vec<usize> {
    let glyph = refs[i].glyph;
    let mut chain = vec![i];
    let mut k = 0;
    while k < chain.len() {
        let p = refs[chain[k]].at;
        for d in Dir::ALL {
            if let Some(&Some(j)) = at.get(p + d.delta())
                && refs[j].glyph == glyph
                && !chain.contains(&j)
            {
                chain.push(j);
            }
        }
        k += 1;
    }
    chain
}

/// A tag a definition line picked, and the alternative that gave it.
pub(crate) type Picked = (Arc<str>, u32);

/// The catalog tag a line picks at `depth` and the index of the alternative
/// that gave it, or `None` when nothing qualifies.
pub(crate) fn pick_tag(catalog: &Catalog, kind: Kind, line: &DefLine, depth: u32, rng: &mut Rng) -> Option<Picked> {
    // By weight; with every weight 1 this draws as a uniform index would.
    let alternative = rng.weighted_by(&line.weights, |&w| w)?;
    let tag = tag_of(catalog, kind, &line.picks[alternative].0, line, depth, rng)?;
    Some((tag, alternative as u32))
}

/// The catalog tag one alternative of a line picks at `depth`: one of its
/// candidates, uniformly (a tag is itself, with no draw; `nothing` has none),
/// and a prototype's faulty variant [`FAULTY_PERCENT`] of the time.
fn tag_of(catalog: &Catalog, kind: Kind, pick: &Pick, line: &DefLine, depth: u32, rng: &mut Rng) -> Option<Arc<str>> {
    if let Pick::Tag(t) = pick {
        return Some(t.as_str().into());
    }
    let chosen = catalog.pick_candidate(kind, pick, line, depth, rng)?;
    match chosen.faulty {
        Some(f) if rng.percent(FAULTY_PERCENT) => Some(f.into()),
        _ => Some(chosen.tag.into()),
    }
}

/// Where a drawn object ends up: with SHIFT, a random free cell of the prefab within
/// its box that its kind may stand on, else where it was drawn.
fn shift(map: &Map, kind: Kind, line: &DefLine, drawn: Point, bounds: Rect, taken: &[Point], rng: &mut Rng) -> Point {
    let Some(Point { x: sx, y: sy }) = line.shift_reach() else {
        return drawn;
    };
    // Every free cell of the box, the drawn one included; one of them, uniformly.
    // The box is at most 19x19, so listing it is cheap and needs no retry budget.
    let free: Vec<Point> = Rect::new(drawn.x - sx, drawn.y - sy, 2 * sx + 1, 2 * sy + 1)
        .points()
        .filter(|&p| {
            p == drawn
                || (bounds.contains(p)
                    && map.terrain_at(p).is_some_and(|t| kind.may_stand_on(t))
                    && !taken.contains(&p))
        })
        .collect();
    rng.pick(&free).copied().unwrap_or(drawn)
}

/// Moves each shifted machine whole by one of the offsets its box allows whose
/// footprint lies on free floor of the prefab, off links' ways out and other
/// objects, and keeps the floor around it one area; one of them uniformly (the
/// drawn place among them), else it stays where drawn. Every machine starts where
/// it was drawn — where the pack checked that all of them together keep the floor
/// whole — and moves in turn, so each move keeps it whole too.
fn shift_machines(
    map: &Map,
    place: &Placement<'_>,
    out: &mut Vec<Object>,
    shifted: Vec<(Object, Point)>,
    taken: &[Point],
    rng: &mut Rng,
) {
    let bounds = place.bounds;
    let origin = Point::new(bounds.x, bounds.y);
    let mut blocked = Grid::new(bounds.width, bounds.height, false);
    for p in bounds.points() {
        blocked.set(p - origin, map.masks.get(p).is_some_and(|m| m & mask::SOLID != 0));
    }
    for p in out.iter().chain(shifted.iter().map(|(o, _)| o)).filter(|o| o.blocks()).flat_map(|o| &o.cells) {
        blocked.set(p.0 - origin, true);
    }
    let mut moves: Vec<Point> = Vec::new();
    for (mut object, reach) in shifted {
        for c in &object.cells {
            blocked.set(c.0 - origin, false);
        }
        moves.clear();
        for dy in -reach.y..=reach.y {
            for dx in -reach.x..=reach.x {
                let by = Point::new(dx, dy);
                if fits(map, place, &object.cells, by, &blocked, taken) {
                    moves.push(by);
                }
            }
        }
        let by = rng.pick(&moves).copied().unwrap_or_default();
        for c in &mut object.cells {
            c.0 = c.0 + by;
            blocked.set(c.0 - origin, true);
        }
        out.push(object);
    }
}

/// True when `cells` moved by `by` stand on free floor of the placed prefab, off
/// its links' ways out and every taken cell but their own, and the walkable free
/// cells around them still reach each other inside the prefab.
fn fits(
    map: &Map,
    place: &Placement<'_>,
    cells: &[(Point, char)],
    by: Point,
    blocked: &Grid<bool>,
    taken: &[Point],
) -> bool {
    let origin = Point::new(place.bounds.x, place.bounds.y);
    let own = |p: Point| cells.iter().any(|c| c.0 == p);
    let moved = |p: Point| own(p - by);
    let on_floor = cells.iter().map(|c| c.0 + by).all(|p| {
        place.bounds.contains(p)
            && map.terrain_at(p).is_some_and(|t| t.is_floor())
            && !blocked[p - origin]
            && (own(p) || !taken.contains(&p))
            && !place.is_link_path(p - origin)
    });
    if !on_floor {
        return false;
    }
    let open = |q: Point| {
        let p = q + origin;
        map.is_walkable(p) && !blocked[q] && !moved(p)
    };
    let beside: Vec<Point> = cells
        .iter()
        .flat_map(|c| map.moves.steps().iter().map(move |&step| c.0 + by + step - origin))
        .filter(|&q| blocked.contains(q) && open(q))
        .collect();
    let Some(&first) = beside.first() else { return true };
    let seen = Grid::reachable(blocked.width(), blocked.height(), first, map.moves, open);
    beside.iter().all(|&q| seen[q])
}

/// The game keywords of a line (built-in ones are the stage's; chances were rolled
/// for the line), with values picked from lists (by weight when given), ranges and
/// spreads.
pub(crate) fn game_keywords(keywords: &[Keyword], rng: &mut Rng) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for k in keywords.iter().filter(|k| !BUILT_IN_KEYWORDS.contains(&k.name.as_str())) {
        let value = k.value.as_ref().and_then(|v| picked_value(v, rng));
        out.push((k.name.clone(), value));
    }
    out
}

/// One draw of a keyword's value: itself, one of a list (uniformly or by weight),
/// or a number of a range or spread.
fn picked_value(value: &Value, rng: &mut Rng) -> Option<String> {
    match value {
        Value::One(v) => Some(v.clone()),
        Value::OneOf(vs) => rng.pick(vs).cloned(),
        Value::Weighted(vs) => rng.weighted_by(vs, |(_, w)| *w).map(|i| vs[i].0.clone()),
        Value::Range(..) | Value::Around(..) => {
            // The parser keeps numbers within ±MAX_VALUE_NUMBER; clamp anyway so
            // the draw stays in i32.
            let (lo, hi) = value.bounds()?;
            let clamp = |n: i64| n.clamp(-MAX_VALUE_NUMBER, MAX_VALUE_NUMBER) as i32;
            Some(rng.range(clamp(lo), clamp(hi)).to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Pack;

    #[test]
    fn weighted_alternatives_are_drawn_by_weight() {
        let pack = Pack::embedded().expect("the embedded pack loads");
        let (lines, errors) = crate::format::def::parse(
            "w.def",
            "a entity drudge*3|tally_drone\nb entity drudge|tally_drone\n",
            &crate::Limits::default(),
        );
        assert!(errors.is_empty(), "{errors:?}");
        let count = |line: &DefLine| {
            let mut drudges = 0;
            for seed in 0..4000 {
                let mut rng = Rng::stream_n(seed, "test", 7);
                let (tag, _) = pick_tag(pack.catalog(), Kind::Entity, line, 1, &mut rng).expect("a pick");
                drudges += u32::from(&*tag == "drudge");
            }
            drudges
        };
        let weighted = count(&lines[0]);
        assert!((2850..=3150).contains(&weighted), "3 in 4 of 4000 draws, got {weighted}");
        let even = count(&lines[1]);
        assert!((1850..=2150).contains(&even), "1 in 2 of 4000 draws, got {even}");
        // `nothing` is drawn by its weight and gives no object.
        let (sometimes, errors) =
            crate::format::def::parse("n.def", "a entity drudge*1|nothing*3\n", &crate::Limits::default());
        assert!(errors.is_empty(), "{errors:?}");
        let mut placed = 0;
        for seed in 0..4000 {
            let mut rng = Rng::stream_n(seed, "test", 9);
            if let Some((tag, alternative)) = pick_tag(pack.catalog(), Kind::Entity, &sometimes[0], 1, &mut rng) {
                assert_eq!((&*tag, alternative), ("drudge", 0));
                placed += 1;
            }
        }
        assert!((850..=1150).contains(&placed), "1 in 4 of 4000 draws, got {placed}");
        // Unweighted lines draw exactly as a uniform index does, so no map changes.
        for seed in 0..200 {
            let (mut a, mut b) = (Rng::stream_n(seed, "test", 8), Rng::stream_n(seed, "test", 8));
            assert_eq!(
                pick_tag(pack.catalog(), Kind::Entity, &lines[1], 1, &mut a).map(|p| p.1),
                b.index(2).map(|i| i as u32)
            );
        }
    }
}
