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

use crate::content::Pack;
use crate::content::catalog::{Catalog, FAULTY_PERCENT, Kind};
use crate::content::defs::Definitions;
use crate::format::def::{BUILT_IN_KEYWORDS, DefLine, Keyword, MAX_VALUE_NUMBER, Pick, Value};
use crate::geom::{Dir, Point, Rect};
use crate::grid::Grid;
use crate::map::{DefinitionUse, Map, Object, ObjectKind};
use crate::prefab::RefMark;
use crate::rng::Rng;
use crate::trace::Outcome;

/// Runs the stage.
pub(crate) fn run(map: &mut Map, pack: &Pack, seed: u64) {
    let depth = map.depth;
    for index in 0..map.prefabs.len() {
        let placed = &map.prefabs[index];
        let Some(prefab) = pack.prefab(&placed.name) else { continue };
        if prefab.refs().is_empty() {
            continue;
        }
        let Some(defs) = pack.definitions(prefab.defs_name()) else { continue };
        let oriented = prefab.transformed(placed.transform);
        let bounds = placed.bounds;
        let mut rng = Rng::stream(seed, "objects", &format!("{}#{index}", placed.name));
        let lines = enabled_lines(defs, &mut rng);
        let objects = resolve(map, pack.catalog(), depth, &oriented, bounds, defs, &lines, index, &mut rng);
        let count = objects.len();
        map.objects.extend(objects);
        if count > 0 {
            let name = map.prefabs[index].name.clone();
            map.trace.push_with("objects", Outcome::Chose, bounds, || {
                format!("{count} object{} in prefab `{name}` from {}", if count == 1 { "" } else { "s" }, defs.file)
            });
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

/// The objects of one placed prefab.
#[allow(clippy::too_many_arguments)]
fn resolve(
    map: &Map,
    catalog: &Catalog,
    depth: u32,
    oriented: &crate::prefab::Prefab,
    bounds: Rect,
    defs: &Definitions,
    enabled: &[bool],
    index: usize,
    rng: &mut Rng,
) -> Vec<Object> {
    let origin = Point::new(bounds.x, bounds.y);
    let refs = oriented.refs();
    // Which reference cells were given their object, and the tag and alternative each got.
    let mut chosen: Vec<Option<Option<(String, u32)>>> = vec![None; refs.len()];
    let mut at = Grid::new(bounds.width, bounds.height, None::<usize>);
    for (i, r) in refs.iter().enumerate() {
        at.set(r.at, Some(i));
    }
    // Each enabled line with the keywords that passed their chance, rolled once per
    // line: a keyword's chance decides for the whole line in this prefab.
    let lines: Vec<Option<DefLine>> = defs
        .lines
        .iter()
        .zip(enabled)
        .map(|(d, &on)| {
            on.then(|| {
                let mut line = d.line.clone();
                line.keywords.retain(|k| k.chance >= 100 || rng.percent(u32::from(k.chance)));
                line
            })
        })
        .collect();
    // Cells no shifted object may move to: objects already on the map, and every
    // cell a reference of this prefab is drawn on.
    // SHIFT stays inside the prefab, so only objects there can be in the way.
    let mut taken: Vec<Point> =
        map.objects.iter().flat_map(|o| o.cells.iter().map(|c| c.0)).filter(|&p| bounds.contains(p)).collect();
    taken.extend(refs.iter().map(|r| origin + r.at));
    let mut out = Vec::new();
    for i in 0..refs.len() {
        let r = refs[i];
        let Some(li) = (0..defs.lines.len()).find(|&k| lines[k].is_some() && defs.lines[k].line.glyph == r.glyph)
        else {
            continue;
        };
        let (def, line) = (&defs.lines[li], lines[li].as_ref().unwrap_or(&defs.lines[li].line));
        if chosen[i].is_none() {
            let unique = line.has("UNIQUE");
            let tag = pick_tag(catalog, def.kind, line, depth, rng);
            // The cell's chain of same characters shares the choice.
            let chain = if unique { vec![i] } else { chain_of(refs, &at, i) };
            for c in chain {
                chosen[c] = Some(tag.clone());
            }
        }
        let Some(Some((tag, alternative))) = chosen[i].clone() else { continue };
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
    out
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

/// The catalog tag a line picks at `depth` and the index of the alternative
/// that gave it, or `None` when nothing qualifies.
pub(crate) fn pick_tag(
    catalog: &Catalog,
    kind: Kind,
    line: &DefLine,
    depth: u32,
    rng: &mut Rng,
) -> Option<(String, u32)> {
    let alternative = rng.index(line.picks.len())?;
    let tag = tag_of(catalog, kind, &line.picks[alternative].0, line, depth, rng)?;
    Some((tag, alternative as u32))
}

/// The catalog tag one alternative of a line picks at `depth`: one of its
/// candidates, uniformly (a tag is itself, with no draw), and a prototype's faulty
/// variant [`FAULTY_PERCENT`] of the time.
fn tag_of(catalog: &Catalog, kind: Kind, pick: &Pick, line: &DefLine, depth: u32, rng: &mut Rng) -> Option<String> {
    if let Pick::Tag(t) = pick {
        return Some(t.clone());
    }
    let candidates = catalog.candidates(kind, pick, line, depth);
    let chosen = rng.pick(&candidates)?;
    match chosen.faulty {
        Some(f) if rng.percent(FAULTY_PERCENT) => Some(f.to_string()),
        _ => Some(chosen.tag.to_string()),
    }
}

/// Where a drawn object ends up: with SHIFT, a random free cell of the prefab within
/// its box that its kind may stand on, else where it was drawn.
fn shift(map: &Map, kind: Kind, line: &DefLine, drawn: Point, bounds: Rect, taken: &[Point], rng: &mut Rng) -> Point {
    if !line.has("SHIFT") {
        return drawn;
    }
    let (sx, sy) = match line.value_of("SHIFT").map(|v| v.split_once(',').unwrap_or((v, v))) {
        Some((x, y)) => (x.parse().unwrap_or(0), y.parse().unwrap_or(0)),
        None => (0, 0),
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
        Value::Weighted(vs) => {
            let weights: Vec<u32> = vs.iter().map(|(_, w)| *w).collect();
            rng.weighted(&weights).map(|i| vs[i].0.clone())
        }
        Value::Range(..) | Value::Around(..) => {
            // The parser keeps numbers within ±MAX_VALUE_NUMBER; clamp anyway so
            // the draw stays in i32.
            let (lo, hi) = value.bounds()?;
            let clamp = |n: i64| n.clamp(-MAX_VALUE_NUMBER, MAX_VALUE_NUMBER) as i32;
            Some(rng.range(clamp(lo), clamp(hi)).to_string())
        }
    }
}
