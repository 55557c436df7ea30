//! Checks shared by the integration tests, written against the public API only and
//! independently of the library's own validate stage.

#![allow(dead_code)]

pub mod testdata;

use prefabric::{Map, MapType, Pack, Point, Role};
use std::collections::BTreeMap;

/// Every passable cell (walkable, no machine on it) reachable from the first one
/// by the map's moves. Machines are read from the objects, not from the map's masks.
pub fn connected(map: &Map) -> Result<(), String> {
    let t = map.terrain();
    let mut walkable: Vec<bool> = t.cells().iter().map(|c| c.is_walkable()).collect();
    for o in map.objects().iter().filter(|o| o.kind == prefabric::ObjectKind::Machine) {
        for &(p, _) in &o.cells {
            walkable[t.index_of(p).expect("objects lie inside the map")] = false;
        }
    }
    let total = walkable.iter().filter(|w| **w).count();
    let Some(first) = walkable.iter().position(|w| *w) else { return Err("no walkable cell".into()) };
    let mut seen = vec![false; walkable.len()];
    let mut stack = vec![first];
    seen[first] = true;
    let mut reached = 0;
    while let Some(i) = stack.pop() {
        reached += 1;
        let p = t.point_of(i);
        for &step in map.moves().steps() {
            if let Some(j) = t.index_of(p + step)
                && walkable[j]
                && !seen[j]
            {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    if reached == total {
        Ok(())
    } else {
        let lost = (0..walkable.len()).find(|&i| walkable[i] && !seen[i]).map(|i| t.point_of(i));
        Err(format!("{} of {total} passable cells unreachable, e.g. {lost:?}", total - reached))
    }
}

/// Every placed prefab still holds its cells, except earth (diggable by design),
/// don't-care cells and the ways out of its links, and general stairs, which
/// become stairs up, down or floor; its non-earth cells are protected.
pub fn prefabs_intact(map: &Map, pack: &Pack) -> Result<(), String> {
    for placed in map.prefabs() {
        let oriented = pack.placed(placed).ok_or(format!("unknown prefab {}", placed.name))?;
        if (oriented.width(), oriented.height()) != (placed.bounds.width, placed.bounds.height) {
            return Err(format!("{} has the wrong size", placed.name));
        }
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        for local in oriented.cells().bounds().points() {
            let Some(expected) = oriented.cells()[local] else { continue };
            if expected.is(Role::Earth) || oriented.is_link_path(local) {
                continue;
            }
            let p = origin + local;
            let got = map.terrain_at(p);
            let resolved =
                |t: prefabric::Terrain| matches!(t.role(), Role::StairsUp | Role::StairsDown | Role::Floor(_));
            if expected.is(Role::Stairs) && got.is_some_and(resolved) {
                // Still protected, as every other cell of the prefab.
            } else if got != Some(expected) {
                return Err(format!("{} changed at {p}: expected {expected}, found {got:?}", placed.name));
            }
            if !map.is_protected(p) {
                return Err(format!("{} cell {p} is not protected", placed.name));
            }
        }
    }
    Ok(())
}

/// True when a definition file's `prop` line placed `o` (a catalog machine), as
/// opposed to a machine drawn on a prefab's machine layer, named or not.
pub fn placed_by_line(pack: &Pack, o: &prefabric::Object) -> bool {
    o.definition.as_ref().is_some_and(|d| {
        let defs = pack.definitions(&d.defs).expect("the definition file of an object");
        !defs.lines[d.line as usize].line.names_machine()
    })
}

/// Every machine of every placed prefab is an object at its place, with its glyphs
/// turned as the prefab was, standing on a walkable cell; and nothing else is.
pub fn machines_placed(map: &Map, pack: &Pack) -> Result<(), String> {
    let mut expected = Vec::new();
    for (index, placed) in map.prefabs().iter().enumerate() {
        let oriented = pack.placed(placed).ok_or("unknown prefab")?;
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        for m in oriented.machines() {
            let cells: Vec<(Point, char)> = m.cells().iter().map(|&(p, g)| (origin + p, g)).collect();
            expected.push((index, cells));
        }
    }
    let found: Vec<(usize, Vec<(Point, char)>)> = map
        .objects()
        .iter()
        .filter(|o| o.kind == prefabric::ObjectKind::Machine && o.furnishing.is_none() && !placed_by_line(pack, o))
        .map(|o| (o.prefab.unwrap_or(usize::MAX), o.cells.clone()))
        .collect();
    if found != expected {
        return Err(format!("objects {found:?}\nexpected {expected:?}"));
    }
    match map.objects().iter().flat_map(|o| &o.cells).find(|(p, _)| !map.is_walkable(*p)) {
        Some((p, g)) => Err(format!("machine glyph {g} stands on a solid cell at {p}")),
        None => Ok(()),
    }
}

/// Open space is walled: no walkable cell touches earth, even diagonally, except
/// earth a prefab draws on purpose (rubble a designer left diggable).
pub fn walled(map: &Map) -> Result<(), String> {
    let drawn = |q: Point| map.prefabs().iter().any(|p| p.bounds.contains(q));
    for p in map.bounds().points().filter(|&p| map.is_walkable(p)) {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = p + Point::new(dx, dy);
                if map.terrain_at(q).is_some_and(|t| t.is(Role::Earth)) && !drawn(q) {
                    return Err(format!("walkable {p} touches earth at {q}"));
                }
            }
        }
    }
    Ok(())
}

/// The default pack's files as they are on disk, for building variants of it.
pub fn default_pack_files() -> Vec<prefabric::content::SourceFile> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/default");
    let mut files = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("content/default is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let rel = path.strip_prefix(&root).expect("under root").to_string_lossy().replace('\\', "/");
                files
                    .push(prefabric::content::SourceFile { path: rel, bytes: std::fs::read(&path).expect("readable") });
            }
        }
    }
    files
}

/// True when `p` is walkable, or a pool of liquid a theme laid.
pub fn open(map: &Map, p: Point) -> bool {
    map.is_walkable(p) || map.terrain_at(p).is_some_and(|t| t.is(Role::Liquid))
}

/// True when `p` is a column: a lone wall cell of no region whose 8 neighbours
/// are all open.
pub fn is_column(map: &Map, p: Point) -> bool {
    map.terrain_at(p).is_some_and(|t| t.is(Role::Wall))
        && map.region_at(p).is_none()
        && (-1..=1).all(|dy| (-1..=1).all(|dx| (dx, dy) == (0, 0) || open(map, p + Point::new(dx, dy))))
}

/// Regions describe the map: every walkable cell belongs to one, every door is
/// walkable, and rooms, halls, corridors and junctions are rectangles of walkable
/// cells (or pools of liquid), except a corridor's columns: lone wall cells of no
/// region whose 8 neighbours are all open.
pub fn regions_consistent(map: &Map) -> Result<(), String> {
    use prefabric::RegionKind;
    if let Some(p) = map.bounds().points().find(|&p| map.is_walkable(p) && map.region_at(p).is_none()) {
        return Err(format!("walkable {p} belongs to no region"));
    }
    for r in map.regions() {
        if let Some(d) = r.doors.iter().find(|d| !map.is_walkable(d.at)) {
            return Err(format!("{} {} has a door at {} that is not walkable", r.kind.name(), r.id, d.at));
        }
        let rectangle =
            matches!(r.kind, RegionKind::Room | RegionKind::Hall | RegionKind::Corridor | RegionKind::Junction);
        // A theme's pools lie in rooms and halls: open to sight, not to walking;
        // a corridor may hold columns.
        let column = |p: Point| r.kind == RegionKind::Corridor && is_column(map, p);
        if rectangle && let Some(p) = r.bounds.points().find(|&p| !open(map, p) && !column(p)) {
            return Err(format!("{} {} ({}) is not open at {p}", r.kind.name(), r.id, r.bounds));
        }
    }
    Ok(())
}

/// The files of a section's example in the manual (`docs/*.md`; the section is
/// the heading `section`, up to the next heading of its level or above): each
/// code block whose first line is `# path/with/a/slash`, with a `pack.toml`
/// naming `map_type` and the default palette: a pack exactly as the manual
/// writes it.
pub fn readme_example(section: &str, map_type: &str) -> Vec<prefabric::content::SourceFile> {
    use prefabric::content::SourceFile;
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs");
    let mut chapters: Vec<_> =
        std::fs::read_dir(docs).expect("the docs folder").map(|e| e.expect("an entry").path()).collect();
    chapters.sort();
    let body = chapters
        .iter()
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .find_map(|path| section_of(&std::fs::read_to_string(path).expect("a chapter"), section))
        .unwrap_or_else(|| panic!("a chapter of docs/ has the section `{section}`"));
    let pack = format!("name = \"{map_type}\"\ndefault_map_type = \"{map_type}\"\n");
    let palette = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/palette.toml"));
    let mut files = vec![
        SourceFile { path: "pack.toml".into(), bytes: pack.into_bytes() },
        SourceFile { path: "palette.toml".into(), bytes: palette.expect("palette") },
    ];
    for block in body.split("```").skip(1).step_by(2) {
        let text = block.split_once('\n').map_or("", |(_, b)| b);
        if let Some(path) = text.lines().next().and_then(|l| l.strip_prefix("# ")).filter(|p| p.contains('/')) {
            files.push(SourceFile { path: path.trim().to_string(), bytes: text.as_bytes().to_vec() });
        }
    }
    files
}

/// The text under the Markdown heading `title` (any level) up to the next
/// heading of that level or above, code blocks' `#` lines aside; `None`
/// without such a heading.
fn section_of(text: &str, title: &str) -> Option<String> {
    let mut level = None;
    let mut body = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        }
        let heading = (!in_code && line.starts_with('#')).then(|| line.chars().take_while(|&c| c == '#').count());
        match (level, heading) {
            (None, Some(n)) if line[n..].trim() == title => level = Some(n),
            (Some(at), Some(n)) if n <= at => break,
            (Some(_), _) => body.push(line),
            _ => {}
        }
    }
    level.map(|_| body.join("\n"))
}

/// A pack of `files` (path, text) with the default palette and a `pack.toml`
/// naming `default_map_type`, as the generator tests build theirs.
pub fn test_pack(name: &str, default_map_type: &str, files: &[(&str, &str)]) -> Pack {
    try_test_pack(name, default_map_type, files).unwrap_or_else(|p| panic!("{p}"))
}

/// [`test_pack`], or the problems loading it found, as `check` prints them.
pub fn try_test_pack(name: &str, default_map_type: &str, files: &[(&str, &str)]) -> Result<Pack, String> {
    use prefabric::content::SourceFile;
    let palette = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/palette.toml"))
        .expect("the default palette is readable");
    let mut all = vec![
        SourceFile {
            path: "pack.toml".into(),
            bytes: format!("name = \"{name}\"\ndefault_map_type = \"{default_map_type}\"\n").into_bytes(),
        },
        SourceFile { path: "palette.toml".into(), bytes: palette },
    ];
    all.extend(files.iter().map(|(path, text)| SourceFile { path: path.to_string(), bytes: text.as_bytes().to_vec() }));
    Pack::from_files("t", all, prefabric::Limits::default()).map_err(|p| p.to_string())
}

/// The invariants of design.md that a map must hold, first broken one first.
pub fn invariants(map: &Map, pack: &Pack, map_type: &MapType) -> Result<(), String> {
    connected(map)?;
    prefabs_intact(map, pack)?;
    machines_placed(map, pack)?;
    regions_consistent(map)?;
    for o in map.objects() {
        for &(at, _) in &o.cells {
            if !map.is_walkable(at) {
                return Err(format!(
                    "{} `{}` stands on unwalkable {at}",
                    o.kind.name(),
                    o.tag.as_deref().unwrap_or("")
                ));
            }
        }
    }
    for region in map.regions() {
        for door in &region.doors {
            if !map.is_passable(door.at) {
                return Err(format!("door {} of region {} is not passable", door.at, region.id));
            }
        }
    }
    if let Some(pool) = &map_type.encounters {
        let mut placed: BTreeMap<&str, u32> = BTreeMap::new();
        for p in map.prefabs() {
            if let Some(e) = &p.encounter {
                *placed.entry(e.id.as_str()).or_default() += 1;
            }
        }
        let total: u32 = placed.values().sum();
        if total > pool.count.1 {
            return Err(format!("{total} encounters placed, more than the count's {}", pool.count.1));
        }
        for e in &pool.pool {
            let n = placed.get(e.id.as_str()).copied().unwrap_or(0);
            if e.max_per_map.is_some_and(|max| n > max) {
                return Err(format!("encounter `{}` placed {n} times, over its max_per_map", e.id));
            }
            if n > 0
                && !e.depth.0.is_empty()
                && !e.depth.0.iter().any(|r| (r.lo as u32..=r.hi as u32).contains(&map.depth()))
            {
                return Err(format!("encounter `{}` placed outside its depths", e.id));
            }
        }
    }
    Ok(())
}
