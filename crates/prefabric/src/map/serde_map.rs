//! Reading a [`Map`] back with serde (feature `serde`), checked.
//!
//! In: the fields a serialized map holds. Out: the map, or an error saying
//! which part does not hold together. Code after generation indexes a map's
//! grids with the positions its regions, prefabs, links, objects and marks
//! name, and its lists with the indices they name; a map read from a file is
//! checked for all of it first, so a hand-edited or truncated file gives an
//! error, never a panic later.

use super::{
    EncounterSkip, Exit, FeatureSkip, FurnishingSummary, LayoutStats, Map, NO_REGION, Object, ObjectEncounter,
    PlacedLink, PlacedPrefab, Pools, Region, Terrain,
};
use crate::geom::{Moves, Point, Rect};
use crate::grid::Grid;
use crate::trace::Trace;
use std::collections::BTreeMap;

/// A map's serialized fields, before they are checked.
#[derive(serde::Deserialize)]
pub(crate) struct MapData {
    seed: u64,
    map_type: String,
    depth: u32,
    terrain: Grid<Terrain>,
    masks: Grid<u8>,
    region_of: Grid<u32>,
    moves: Moves,
    regions: Vec<Region>,
    prefabs: Vec<PlacedPrefab>,
    links: Vec<PlacedLink>,
    objects: Vec<Object>,
    marks: BTreeMap<String, Vec<Point>>,
    feature_variant: Option<String>,
    layout: LayoutStats,
    skipped: Vec<EncounterSkip>,
    object_encounters: Vec<ObjectEncounter>,
    world_groups: Vec<String>,
    alternatives_fit: Vec<String>,
    feature_skips: Vec<FeatureSkip>,
    furnishing: FurnishingSummary,
    #[serde(default)]
    exits: Vec<Exit>,
    attempt: u32,
    stream_seed: u64,
}

impl TryFrom<MapData> for Map {
    type Error = String;

    fn try_from(data: MapData) -> Result<Map, String> {
        check(&data)?;
        let MapData {
            seed,
            map_type,
            depth,
            terrain,
            masks,
            region_of,
            moves,
            regions,
            prefabs,
            links,
            objects,
            marks,
            feature_variant,
            layout,
            skipped,
            object_encounters,
            world_groups,
            alternatives_fit,
            feature_skips,
            furnishing,
            exits,
            attempt,
            stream_seed,
        } = data;
        Ok(Map {
            seed,
            map_type,
            depth,
            terrain,
            masks,
            region_of,
            moves,
            regions,
            prefabs,
            links,
            objects,
            marks,
            feature_variant,
            layout,
            skipped,
            object_encounters,
            world_groups,
            alternatives_fit,
            feature_skips,
            furnishing,
            exits,
            trace: Trace::default(),
            attempt,
            stream_seed,
            pools: Pools::default(),
        })
    }
}

/// The first thing that does not hold together, said.
fn check(data: &MapData) -> Result<(), String> {
    let bounds = data.terrain.bounds();
    let size = |g: Rect| (g.width, g.height);
    if size(data.masks.bounds()) != size(bounds) || size(data.region_of.bounds()) != size(bounds) {
        return Err(format!("the map is {}x{} but its masks or region grid are not", bounds.width, bounds.height));
    }
    let inside = |what: &str, p: Point| {
        if bounds.contains(p) {
            Ok(())
        } else {
            Err(format!("{what} at {p} is outside the {}x{} map", bounds.width, bounds.height))
        }
    };
    let (regions, prefabs, objects) = (data.regions.len(), data.prefabs.len(), data.objects.len());
    let index = |what: &str, i: usize, len: usize| {
        if i < len { Ok(()) } else { Err(format!("{what} names number {i} of {len}")) }
    };
    if let Some(id) = data.region_of.cells().iter().find(|&&id| id != NO_REGION && id as usize >= regions) {
        return Err(format!("a cell belongs to region {id} of {regions}"));
    }
    for (i, region) in data.regions.iter().enumerate() {
        if region.id as usize != i {
            return Err(format!("region number {i} says it is region {}", region.id));
        }
        if !bounds.contains_rect(&region.bounds) {
            return Err(format!("region {i}'s bounds {} leave the map", region.bounds));
        }
        for door in region.doors.iter().chain(&region.openings) {
            inside(&format!("a door of region {i}"), door.at)?;
            if let Some(to) = door.to {
                index(&format!("a door of region {i}"), to as usize, regions)?;
            }
        }
        if let Some(prefab) = region.prefab {
            index(&format!("region {i}"), prefab, prefabs)?;
        }
    }
    for prefab in &data.prefabs {
        if !bounds.contains_rect(&prefab.bounds) {
            return Err(format!("prefab `{}`'s bounds {} leave the map", prefab.name, prefab.bounds));
        }
        if let Some(region) = prefab.region {
            index(&format!("prefab `{}`", prefab.name), region as usize, regions)?;
        }
    }
    for exit in &data.exits {
        inside(&format!("an exit {}", exit.way.name()), exit.at)?;
    }
    for link in &data.links {
        inside("a link", link.at)?;
        index("a link", link.prefab, prefabs)?;
    }
    for object in &data.objects {
        for &(p, _) in &object.cells {
            inside(&format!("{} object", object.kind.name()), p)?;
        }
        if let Some(prefab) = object.prefab {
            index("an object", prefab, prefabs)?;
        }
    }
    for encounter in &data.object_encounters {
        index(&format!("encounter `{}`", encounter.id), encounter.region as usize, regions)?;
        for &object in &encounter.objects {
            index(&format!("encounter `{}`", encounter.id), object, objects)?;
        }
    }
    for (name, cells) in &data.marks {
        for &p in cells {
            inside(&format!("mark `{name}`"), p)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Pack, generate, render};

    /// A map of `map_type` as JSON, through serde.
    fn written(pack: &Pack, map_type: &str) -> (Map, serde_json::Value) {
        let map = generate(pack, map_type, 3).expect("the built-in map types generate");
        let value = serde_json::to_value(&map).expect("a map serializes");
        (map, value)
    }

    #[test]
    fn every_built_in_map_type_reads_back_as_it_was_written() {
        let pack = Pack::embedded().expect("the built-in pack");
        for map_type in pack.map_types() {
            let (map, value) = written(&pack, &map_type.name);
            let read: Map = serde_json::from_value(value.clone()).unwrap_or_else(|e| panic!("{}: {e}", map_type.name));
            assert_eq!(serde_json::to_value(&read).expect("serializes again"), value, "{}", map_type.name);
            assert_eq!(render::ascii(&read, pack.palette()), render::ascii(&map, pack.palette()));
            assert_eq!(render::json(&read, &pack), render::json(&map, &pack), "{}", map_type.name);
        }
    }

    #[test]
    fn a_map_that_does_not_hold_together_is_refused_with_the_reason() {
        let pack = Pack::embedded().expect("the built-in pack");
        let (_, value) = written(&pack, "maze");
        let refused = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut v = value.clone();
            edit(&mut v);
            serde_json::from_value::<Map>(v).expect_err("refused").to_string()
        };
        let error = refused(&|v| v["terrain"]["cells"].as_array_mut().expect("cells").truncate(10));
        assert!(error.contains("grid cannot hold 10 cells"), "{error}");
        let error = refused(&|v| v["objects"][0]["cells"][0][0] = serde_json::json!({ "x": 999, "y": 1 }));
        assert!(error.contains("outside the"), "{error}");
        let error = refused(&|v| v["regions"][0]["id"] = serde_json::json!(7));
        assert!(error.contains("region number 0 says it is region 7"), "{error}");
        let error = refused(&|v| v["terrain"]["cells"][0]["variant"] = serde_json::json!(12));
        assert!(error.contains("variant 12 is not 0-9"), "{error}");
        let error = refused(&|v| v["layout"]["generator"] = serde_json::json!("tunneler"));
        assert!(error.contains("`tunneler` is not a layout generator"), "{error}");
    }
}
