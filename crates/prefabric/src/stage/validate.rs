//! The validate stage: checks a finished map's invariants.
//!
//! Every walkable cell must be reachable from every other, every link mark must be
//! walkable, every placed prefab must still be what its prefab says (its earth
//! cells, which tunnels may dig, and its links' ways out excepted), and every object
//! must stand on walkable cells. A failure here is
//! a bug or a content error; it is reported with the seed, never shipped.

use crate::content::Pack;
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Point};
use crate::map::{Map, Role};

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
    for object in &map.objects {
        if let Some(&(p, _)) = object.cells.iter().find(|(p, _)| !map.is_walkable(*p)) {
            return Err(fail(map, format!("a {} stands on a cell that is not walkable at {p}", object.kind.name())));
        }
    }
    for placed in &map.prefabs {
        let Some(prefab) = pack.prefab(&placed.name) else { continue };
        let oriented = prefab.transformed(placed.transform);
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        for local in oriented.cells().bounds().points() {
            let Some(expected) = oriented.cells()[local] else { continue };
            if expected.role == Role::Earth || oriented.is_link_path(local) {
                continue;
            }
            let p = origin + local;
            if map.terrain[p] != expected {
                return Err(fail(
                    map,
                    format!("prefab `{}` was changed at {}: {} became {}", placed.name, p, expected, map.terrain[p]),
                ));
            }
        }
    }
    Ok(())
}

/// Flood fill from the first walkable cell; every walkable cell must be reached.
fn connected(map: &Map) -> Result<(), Error> {
    let cells = map.terrain.cells();
    let total = cells.iter().filter(|t| t.role.is_walkable()).count();
    let Some(first) = cells.iter().position(|t| t.role.is_walkable()) else {
        return Err(fail(map, "the map has no walkable cell".into()));
    };
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![first];
    seen[first] = true;
    let mut reached = 0;
    while let Some(i) = stack.pop() {
        reached += 1;
        let p = map.terrain.point_of(i);
        for d in Dir::ALL {
            if let Some(j) = map.terrain.index_of(p + d.delta())
                && !seen[j]
                && cells[j].role.is_walkable()
            {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    if reached == total {
        return Ok(());
    }
    let stranded = (0..cells.len()).find(|&i| cells[i].role.is_walkable() && !seen[i]).map(|i| map.terrain.point_of(i));
    Err(fail(
        map,
        format!(
            "{} of {total} walkable cells cannot be reached (one at {})",
            total - reached,
            stranded.unwrap_or_default()
        ),
    ))
}

fn fail(map: &Map, what: String) -> Error {
    Error::new(ErrorKind::Generation, format!("map type `{}`, seed {}: {what}", map.map_type, map.seed))
        .with_help("this is a bug in prefabric or its content; please report it with the seed and the pack")
}
