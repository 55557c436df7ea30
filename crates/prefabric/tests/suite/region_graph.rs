//! The region graph (`Door::to`, `Region::openings`, `Map::neighbours`,
//! `Map::region_path`) over seeds of every built-in map type, one per
//! generator and more: checked against neighbours found cell by cell here,
//! independently of the library.

use prefabric::{Door, Map, Pack, RegionId, generate};
use std::collections::BTreeSet;

/// Pairs of regions a walker can step between, found from the cells alone.
fn stepped_between(map: &Map) -> BTreeSet<(RegionId, RegionId)> {
    let mut pairs = BTreeSet::new();
    for p in map.bounds().points().filter(|&p| map.is_passable(p)) {
        let Some(here) = map.region_at(p) else { continue };
        for &step in map.moves().steps() {
            let q = p + step;
            if let Some(there) = map.region_at(q)
                && there.id != here.id
                && map.is_passable(q)
            {
                pairs.insert((here.id, there.id));
            }
        }
    }
    pairs
}

fn check(map: &Map) -> Result<(), String> {
    let pairs = stepped_between(map);
    for region in map.regions() {
        let expected: Vec<RegionId> = pairs.iter().filter(|p| p.0 == region.id).map(|p| p.1).collect();
        let neighbours = map.neighbours(region.id);
        if neighbours != expected {
            return Err(format!("region {}: neighbours {neighbours:?}, cells say {expected:?}", region.id));
        }
        for door in &region.doors {
            match door.to {
                Some(to) => on_the_way(map, region.id, door, to)?,
                // A door that leads nowhere has no other region a step away.
                None => {
                    let beyond = map.moves().steps().iter().map(|&s| door.at + s).chain([door.at]);
                    if let Some(p) = beyond
                        .filter(|&p| map.is_passable(p))
                        .find(|&p| map.region_at(p).is_some_and(|r| r.id != region.id) && map.is_passable(door.at))
                    {
                        return Err(format!("door {} of region {} names no region, but {p} is", door.at, region.id));
                    }
                }
            }
        }
        for opening in &region.openings {
            let to = opening.to.ok_or(format!("opening {} of region {} names no region", opening.at, region.id))?;
            if map.region_at(opening.at).is_none_or(|r| r.id != to) {
                return Err(format!("opening {} of region {} is not a cell of region {to}", opening.at, region.id));
            }
            on_the_way(map, region.id, opening, to)?;
        }
    }
    // Every passable cell belongs to a region and the map is connected, so the
    // graph is too: a path from the first region with a passable cell to each
    // other one, every step of it a pair of neighbours.
    let walkable: Vec<RegionId> = map
        .regions()
        .iter()
        .filter(|r| r.bounds.points().any(|p| map.is_passable(p) && map.region_at(p).is_some_and(|o| o.id == r.id)))
        .map(|r| r.id)
        .collect();
    let Some(&first) = walkable.first() else { return Err("no region has a passable cell".into()) };
    for &to in &walkable {
        let path = map.region_path(first, to).ok_or(format!("no path from region {first} to {to}"))?;
        if path.first() != Some(&first) || path.last() != Some(&to) {
            return Err(format!("the path {path:?} does not run from {first} to {to}"));
        }
        if let Some(pair) = path.windows(2).find(|w| !pairs.contains(&(w[0], w[1]))) {
            return Err(format!("the path from {first} to {to} steps from {} to {}, not neighbours", pair[0], pair[1]));
        }
    }
    Ok(())
}

/// A door or opening of `from` leading to `to` is passable, and a cell of
/// `to` or a cell of `from` a step from one.
fn on_the_way(map: &Map, from: RegionId, door: &Door, to: RegionId) -> Result<(), String> {
    let beyond = |p| map.region_at(p).is_some_and(|r| r.id == to) && map.is_passable(p);
    let own = map.region_at(door.at).is_some_and(|r| r.id == from);
    if to == from || !map.is_passable(door.at) {
        return Err(format!("door {} of region {from} leads to {to}", door.at));
    }
    let a_step_before = own && map.moves().steps().iter().any(|&s| beyond(door.at + s));
    if !(beyond(door.at) || a_step_before) {
        return Err(format!("door {} of region {from} is not on its way to region {to}", door.at));
    }
    Ok(())
}

#[test]
fn every_door_and_opening_names_the_region_beyond_and_neighbours_match_the_cells() {
    let pack = Pack::embedded().expect("the built-in pack");
    for map_type in pack.map_types() {
        for seed in 0..8 {
            let map = generate(&pack, &map_type.name, seed).expect("generates");
            check(&map).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", map_type.name));
        }
    }
}

#[test]
fn a_region_path_is_none_for_ids_off_the_map_and_one_region_to_itself() {
    let pack = Pack::embedded().expect("the built-in pack");
    let map = generate(&pack, "hotel", 2).expect("generates");
    let count = map.regions().len() as RegionId;
    assert_eq!(map.region_path(0, count), None);
    assert_eq!(map.region_path(count, 0), None);
    assert!(map.neighbours(count).is_empty());
    assert_eq!(map.region_path(3, 3), Some(vec![3]));
}
