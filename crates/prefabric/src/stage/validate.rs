//! The validate stage: checks a finished map's invariants.
//!
//! Every passable cell (walkable, no machine on it) must be reachable from every
//! other, stepping as the pack's palette says (`moves`); every link mark must be
//! walkable and free of machines, every placed prefab must still be what its
//! prefab says (its earth cells, which tunnels may dig, and its links' ways out
//! excepted), every object must stand on walkable cells, no two objects may
//! share a cell (but for a stack one definition file places: objects that do
//! not block, one entity at most), no machine may stand on a door or stairs, every
//! door and opening of a region must be on its edge and passable, and the region it leads to
//! must lead back,
//! and furnishing must
//! keep off placed prefabs and spawn-blocked cells. A failure here is a bug or a
//! content error; it is reported with the seed, never shipped.

use crate::bits::{Areas, Bits};
use crate::content::Pack;
use crate::error::{Error, ErrorKind};
use crate::format::article_before_word;
use crate::geom::{Point, Rect};
use crate::map::{Map, ObjectKind, Role, mask};

/// Checks the map; the first broken invariant is the error.
pub(crate) fn run(map: &Map, pack: &Pack) -> Result<(), Error> {
    connected(map)?;
    for link in &map.links {
        if !map.is_walkable(link.at) {
            return Err(fail(
                map,
                format!("the link mark at {} of prefab `{}` is not walkable", link.at, map.prefabs[link.prefab].name),
            ));
        }
    }
    objects(map)?;
    doors(map)?;
    for placed in &map.prefabs {
        let Some(prefab) = super::placed::placed_prefab(pack, placed) else { continue };
        // Each placed cell read back from the prefab as drawn, without turning a
        // copy of it: the inverse transform finds the cell it came from.
        let back = placed.transform.inverse();
        let (w, h) = (placed.bounds.width, placed.bounds.height);
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        for local in Rect::new(0, 0, w, h).points() {
            let source = back.apply_point(local, w, h);
            let Some(expected) = prefab.cells().get(source).copied().flatten() else { continue };
            let p = origin + local;
            if expected.is(Role::Earth) || map.terrain[p] == expected || prefab.is_link_path(source) {
                continue;
            }
            // General stairs become stairs up, down or floor.
            if expected.is(Role::Stairs)
                && matches!(map.terrain[p].role(), Role::StairsUp | Role::StairsDown | Role::Floor(_))
            {
                continue;
            }
            // In a world, stairs beyond the level's exits become floor.
            if !map.exits.is_empty()
                && matches!(expected.role(), Role::StairsUp | Role::StairsDown)
                && map.terrain[p].is_floor()
            {
                continue;
            }
            return Err(fail(
                map,
                format!("prefab `{}` was changed at {}: {} became {}", placed.name, p, expected, map.terrain[p]),
            ));
        }
    }
    Ok(())
}

/// Every door and opening of a region on its edge (the door's cell or a
/// neighbour a walker steps to in the region, and one of them outside it) and on a cell
/// a walker can pass, and the region it leads to (if it names one) a neighbour
/// that leads back.
fn doors(map: &Map) -> Result<(), Error> {
    let leads_back = |to: u32, from: u32| {
        map.regions.get(to as usize).is_some_and(|r| r.doors.iter().chain(&r.openings).any(|d| d.to == Some(from)))
    };
    let in_region = |p: Point, id: u32| map.region_at(p).is_some_and(|r| r.id == id);
    for region in &map.regions {
        for door in region.doors.iter().chain(&region.openings) {
            // Beside as a walker steps: across corners too in a diagonal pack.
            let around = || std::iter::once(door.at).chain(map.moves.steps().iter().map(|&d| door.at + d));
            if !around().any(|p| in_region(p, region.id)) || around().all(|p| in_region(p, region.id)) {
                let whereabouts = if around().any(|p| in_region(p, region.id)) { "inside it" } else { "away from it" };
                return Err(fail(
                    map,
                    format!(
                        "door {} of region {} is not on its edge but {whereabouts} (bounds {})",
                        door.at, region.id, region.bounds
                    ),
                ));
            }
            if !map.is_passable(door.at) {
                return Err(fail(map, format!("door {} of region {} is not passable", door.at, region.id)));
            }
            if let Some(to) = door.to
                && !leads_back(to, region.id)
            {
                return Err(fail(
                    map,
                    format!("door {} of region {} leads to region {to}, which has no door back", door.at, region.id),
                ));
            }
        }
    }
    Ok(())
}

/// Objects on walkable cells, one per cell but for a stack a definition file
/// places (objects that do not block, one entity at most); machines off doors,
/// stairs and link marks; furnishing off placed prefabs and spawn-blocked cells.
fn objects(map: &Map) -> Result<(), Error> {
    // The cells some object seen so far stands on: a second object on one is
    // looked for only then (an error, so rare), with no sort of every cell.
    let mut stood_on = Bits::new(map.width() as usize, map.height() as usize, false);
    // The cells inside any placed prefab's rectangle, one look-up each.
    let mut in_prefab = Bits::new(map.width() as usize, map.height() as usize, false);
    for r in map.prefabs.iter().map(|placed| placed.bounds.intersection(&map.bounds())) {
        for y in r.y..r.bottom() {
            in_prefab.set_run(y as usize, r.x as usize, r.right() as usize);
        }
    }
    for (k, object) in map.objects.iter().enumerate() {
        let what = || match &object.tag {
            Some(tag) => format!("{} `{tag}`", object.kind.name()),
            None => format!("{} {}", article_before_word(object.kind.name()), object.kind.name()),
        };
        for &(p, _) in &object.cells {
            // Off the map is not walkable, so the cells below are on it.
            if !map.is_walkable(p) {
                return Err(fail(map, format!("{} stands on a cell that is not walkable at {p}", what())));
            }
            let (x, y) = (p.x as usize, p.y as usize);
            let clash = |o: &crate::map::Object| {
                o.blocks()
                    || object.blocks()
                    || (o.kind == ObjectKind::Entity && object.kind == ObjectKind::Entity)
                    || o.prefab.is_none()
                    || o.prefab != object.prefab
            };
            if stood_on.get(x, y)
                && let Some(other) = map.objects[..k].iter().find(|o| o.cells.iter().any(|c| c.0 == p) && clash(o))
            {
                let name = |o: &crate::map::Object| o.tag.as_deref().unwrap_or(o.kind.name()).to_string();
                return Err(fail(map, format!("`{}` and `{}` share the cell {p}", name(other), name(object))));
            }
            stood_on.set(x, y);
            let role = map.terrain[p].role();
            if object.blocks() && !matches!(role, Role::Floor(_)) {
                return Err(fail(map, format!("{} blocks the {} at {p}", what(), role.name())));
            }
            if object.blocks() && map.links.iter().any(|l| l.at == p) {
                return Err(fail(map, format!("{} blocks the link mark at {p}", what())));
            }
            let held = || {
                map.masks[p] & (mask::PROTECTED | mask::SPAWN_BLOCKED) != 0 || in_prefab.get(p.x as usize, p.y as usize)
            };
            if object.furnishing.is_some() && held() {
                let message =
                    format!("furnishing put {} at {p}, inside a placed prefab or a spawn-blocked area", what());
                return Err(fail(map, message));
            }
        }
    }
    Ok(())
}

/// Every passable cell must be in one area, cells joined by the map's moves:
/// the passable cells as a bit grid, labelled by runs (a few thousand runs
/// where a flood fill would visit every cell).
fn connected(map: &Map) -> Result<(), Error> {
    let (cells, masks) = (map.terrain.cells(), map.masks.cells());
    let passable = Bits::from_layers(map.width() as usize, map.height() as usize, cells, masks, |t, m| {
        t.is_walkable() & (m & mask::SOLID == 0)
    });
    // Most maps pass: the labels, which name a stranded cell, only for those
    // that do not.
    if Areas::is_one(&passable, map.moves) && passable_anywhere(&passable) {
        return Ok(());
    }
    let areas = Areas::of(&passable, map.moves);
    let total: u32 = areas.sizes.iter().sum();
    let Some(&reached) = areas.sizes.first() else {
        return Err(fail(map, "the map has no passable cell".into()));
    };
    if reached == total {
        return Ok(());
    }
    // The first cell, row by row, outside the first cell's area.
    let stranded = areas.runs.iter().zip(&areas.area).find(|&(_, &a)| a != 0).map(|(r, _)| (r.x0, r.y));
    let (x, y) = stranded.unwrap_or_default();
    Err(fail(
        map,
        format!(
            "{} of {total} passable cells cannot be reached (one at {})",
            total - reached,
            Point::new(x as i32, y as i32)
        ),
    ))
}

/// True when some cell is set.
fn passable_anywhere(passable: &Bits) -> bool {
    (0..passable.height).any(|y| passable.row(y).iter().any(|&w| w != 0))
}

fn fail(map: &Map, what: String) -> Error {
    Error::new(ErrorKind::Generation, format!("map type `{}`, seed {}: {what}", map.map_type, map.seed))
        .with_help("this is a bug in prefabric or its content; please report it with the seed and the pack")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Terrain;
    use crate::{Generator, Pack, Transform};

    #[test]
    fn a_changed_cell_of_a_turned_prefab_is_caught() {
        let pack = Pack::embedded().expect("the embedded pack loads");
        let generator = Generator::new(&pack, "hotel").expect("hotel exists");
        let mut turned = 0;
        for seed in 0..6 {
            let map = generator.generate(seed).expect("the hotel generates");
            assert!(run(&map, &pack).is_ok());
            for (i, placed) in map.prefabs.iter().enumerate().filter(|(_, p)| p.transform != Transform::IDENTITY) {
                // A wall the prefab draws, found on the map through its turned copy.
                let oriented = pack.prefab(&placed.name).expect("known").transformed(placed.transform);
                let origin = Point::new(placed.bounds.x, placed.bounds.y);
                let Some(local) = oriented
                    .cells()
                    .bounds()
                    .points()
                    .find(|&q| oriented.cells()[q].is_some_and(|t| t.is(Role::Wall)) && !oriented.is_link_path(q))
                else {
                    continue;
                };
                let mut broken = map.clone();
                broken.terrain[origin + local] = Terrain::with_variant(Role::Wall, 1);
                let err = run(&broken, &pack).expect_err("the change is caught").to_string();
                // Walls may be shared: the first prefab drawing the cell reports it.
                assert!(err.contains(&format!("was changed at {}: wall became wall:1", origin + local)), "{i}: {err}");
                turned += 1;
            }
        }
        assert!(turned > 50, "only {turned} turned prefabs tried");
    }

    #[test]
    fn a_stranded_floor_cell_or_no_floor_at_all_is_caught() {
        let pack = Pack::embedded().expect("the embedded pack loads");
        let generator = Generator::new(&pack, "mines").expect("mines exists");
        let map = generator.generate(3).expect("the mines generate");
        assert!(connected(&map).is_ok());
        // Rock with rock on every side, opened alone.
        let solid = |p: Point| !map.is_walkable(p);
        let lone = map
            .bounds()
            .expand(-1)
            .points()
            .find(|&p| solid(p) && crate::geom::Dir::ALL.iter().all(|d| solid(p + d.delta())))
            .expect("the mines have solid rock");
        let mut broken = map.clone();
        broken.terrain[lone] = Terrain::floor(crate::map::FloorKind::Cave);
        let err = connected(&broken).expect_err("the lone cell is caught").to_string();
        let open = map.bounds().points().filter(|&p| map.is_walkable(p) && map.masks[p] & mask::SOLID == 0).count();
        let first_area_first =
            err.contains(&format!("1 of {} passable cells cannot be reached (one at {lone})", open + 1));
        // The lone cell may come first row by row: then the cave is the stranded one.
        assert!(first_area_first || err.contains(&format!("{open} of {}", open + 1)), "{err}");
        let mut empty = map.clone();
        empty.terrain.cells_mut().fill(Terrain::EARTH);
        let err = connected(&empty).expect_err("nothing passable").to_string();
        assert!(err.contains("the map has no passable cell"), "{err}");
    }
}

#[cfg(test)]
mod object_cell_tests {
    use super::objects;
    use crate::{Generator, Pack};

    /// A finished map of the default pack, with its objects.
    fn finished(seed: u64) -> crate::map::Map {
        let pack = Pack::embedded().expect("the embedded pack is valid");
        let generator = Generator::new(&pack, "materials").expect("materials exists");
        let mut g = generator.start(seed, 0);
        g.run_all().expect("the map generates");
        g.map
    }

    #[test]
    fn two_objects_on_one_cell_are_named_and_one_object_may_list_its_cell_twice() {
        let mut map = finished(5);
        assert!(objects(&map).is_ok(), "a generated map passes");
        let k = map.objects.iter().position(|o| o.cells.len() == 1).expect("some one-cell object");
        let p = map.objects[k].cells[0].0;
        // The same object listing its cell twice is no clash.
        let first = map.objects[k].cells[0];
        map.objects[k].cells.push(first);
        assert!(objects(&map).is_ok(), "one object's own cell twice is not two objects");
        let mut twin = map.objects[k].clone();
        twin.tag = Some("intruder".into());
        map.objects.push(twin);
        let message = objects(&map).expect_err("two objects on one cell").to_string();
        assert!(message.contains(&format!("and `intruder` share the cell {p}")), "{message}");
    }
}

#[cfg(test)]
mod door_tests {
    use super::doors;
    use crate::geom::Point;
    use crate::{Generator, Pack};

    #[test]
    fn a_door_away_from_its_region_or_inside_it_is_caught() {
        let pack = Pack::embedded().expect("the embedded pack is valid");
        for map_type in ["hotel", "catacombs", "mines"] {
            let generator = Generator::new(&pack, map_type).expect("a built-in map type");
            let mut g = generator.start(3, 0);
            g.run_all().expect("the map generates");
            let map = g.map;
            assert!(doors(&map).is_ok(), "{map_type}: a generated map passes");
            let r = map.regions.iter().position(|r| !r.doors.is_empty() && r.area > 9).expect("a room with doors");
            let region = &map.regions[r];
            // Moved to a floor cell deep inside its own region.
            let inside = region
                .bounds
                .points()
                .find(|&p| {
                    [p, p + Point::new(1, 0), p + Point::new(-1, 0), p + Point::new(0, 1), p + Point::new(0, -1)]
                        .iter()
                        .all(|&q| map.region_at(q).is_some_and(|o| o.id == region.id))
                })
                .expect("an inner cell");
            let mut moved = map.clone();
            moved.regions[r].doors[0].at = inside;
            let e = doors(&moved).expect_err("a door inside its room").to_string();
            assert!(e.contains(&format!("door {inside} of region {r} is not on its edge but inside it")), "{e}");
            // Moved to a passable cell of another region, away from this one.
            let far = map
                .bounds()
                .points()
                .find(|&p| {
                    map.is_passable(p)
                        && (p.x - region.bounds.x).abs() > region.bounds.width + 3
                        && (p.y - region.bounds.y).abs() > region.bounds.height + 3
                })
                .expect("a far cell");
            moved.regions[r].doors[0].at = far;
            let e = doors(&moved).expect_err("a door far away").to_string();
            assert!(e.contains(&format!("door {far} of region {r} is not on its edge but away from it")), "{e}");
        }
    }
}
