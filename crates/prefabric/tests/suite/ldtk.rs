//! The LDtk export, checked from outside: read back by an LDtk reader crate
//! (`ldtk2`) whose levels, IntGrid cells and entities must say what the map
//! holds, after the reader is shown to read LDtk's own sample projects. Every
//! built-in map type, seeds 1-20. The same exports are validated against LDtk's
//! JSON schema by the Python suite (`crates/prefabric-py/tests/test_ldtk_schema.py`,
//! run by `.ci/python`): a schema validator crate was the slowest part of this
//! suite's build.

use crate::common::testdata::testdata;
use prefabric::render::{self, LDTK_GRID_SIZE, LDTK_VERSION};
use prefabric::{Map, Pack, Role, Terrain, generate};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

const SAMPLES: [&str; 2] = ["Entities.ldtk", "Typical_TopDown_example.ldtk"];

fn read(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Every built-in map type at seeds 1-20.
fn maps(pack: &Pack) -> impl Iterator<Item = Map> + '_ {
    pack.map_types().flat_map(move |t| {
        (1..=20)
            .map(move |seed| generate(pack, &t.name, seed).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", t.name)))
    })
}

fn what(map: &Map) -> String {
    format!("{} seed {}", map.map_type(), map.seed())
}

#[test]
fn ldtks_own_samples_pass_the_reader() {
    let Some(dir) = testdata("ldtk") else { return };
    for name in SAMPLES {
        let text = read(&dir, name);
        let read = ldtk2::Ldtk::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(read.json_version, LDTK_VERSION, "{name}");
        assert!(!read.levels.is_empty(), "{name}");
    }
}

/// A field's value read back, by its identifier.
fn field<'a>(fields: &'a [ldtk2::FieldInstance], name: &str) -> &'a Value {
    let f = fields.iter().find(|f| f.identifier == name).unwrap_or_else(|| panic!("no field {name}"));
    f.value.as_ref().unwrap_or(&Value::Null)
}

#[test]
fn the_reader_reads_back_the_terrain_and_every_entity() {
    let pack = Pack::embedded().unwrap();
    for map in maps(&pack) {
        let what = what(&map);
        let project = ldtk2::Ldtk::from_str(render::map_ldtk(&map, &pack)).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(project.levels.len(), 1, "{what}");
        let level = &project.levels[0];
        let grid = i64::from(LDTK_GRID_SIZE);
        assert_eq!(project.default_grid_size, grid);
        assert_eq!((level.px_wid / grid, level.px_hei / grid), (i64::from(map.width()), i64::from(map.height())));
        assert_eq!(field(&level.field_instances, "seed"), &Value::from(map.seed().to_string()), "{what}");
        assert_eq!(field(&level.field_instances, "depth"), &Value::from(map.depth()), "{what}");
        assert_eq!(field(&level.field_instances, "map_type"), &Value::from(map.map_type()), "{what}");

        let layers = level.layer_instances.as_ref().expect("levels hold their layers");
        let terrain = layers.iter().find(|l| l.identifier == "Terrain").expect("a Terrain layer");
        assert_eq!((terrain.c_wid, terrain.c_hei), (i64::from(map.width()), i64::from(map.height())), "{what}");
        let codes: Vec<i64> = map.terrain().cells().iter().map(|t| t.role().index() as i64 + 1).collect();
        assert!(terrain.int_grid_csv == codes, "{what}: the IntGrid differs from the terrain roles");

        let entities = &layers.iter().find(|l| l.identifier == "Entities").expect("an Entities layer").entity_instances;
        let count = |name: &str| entities.iter().filter(|e| e.identifier == name).count();
        assert_eq!(entities.len(), map.objects().len() + map.prefabs().len() + map.regions().len(), "{what}");
        assert_eq!(
            (count("Object"), count("Prefab"), count("Region")),
            (map.objects().len(), map.prefabs().len(), map.regions().len()),
            "{what}"
        );
        let regions = entities.iter().filter(|e| e.identifier == "Region");
        for (e, r) in regions.zip(map.regions()) {
            assert_eq!(field(&e.field_instances, "id"), &Value::from(r.id), "{what}");
            assert_eq!(field(&e.field_instances, "kind"), &Value::from(r.kind.name()), "{what}");
            assert_eq!(e.px, [i64::from(r.bounds.x) * grid, i64::from(r.bounds.y) * grid], "{what}");
            assert_eq!((e.width, e.height), (i64::from(r.bounds.width) * grid, i64::from(r.bounds.height) * grid));
            let doors: Vec<Value> = r.doors.iter().map(|d| serde_json::json!({"cx": d.at.x, "cy": d.at.y})).collect();
            assert_eq!(field(&e.field_instances, "doors"), &Value::from(doors), "{what}");
            assert_eq!(field(&e.field_instances, "neighbours"), &Value::from(map.neighbours(r.id)), "{what}");
        }
        let prefabs = entities.iter().filter(|e| e.identifier == "Prefab");
        for (e, p) in prefabs.zip(map.prefabs()) {
            assert_eq!(field(&e.field_instances, "name"), &Value::from(p.name.as_str()), "{what}");
            assert_eq!(e.grid, [i64::from(p.bounds.x), i64::from(p.bounds.y)], "{what}");
            assert_eq!((e.width / grid, e.height / grid), (i64::from(p.bounds.width), i64::from(p.bounds.height)));
        }
        let objects = entities.iter().filter(|e| e.identifier == "Object");
        for (e, o) in objects.zip(map.objects()) {
            assert_eq!(field(&e.field_instances, "kind"), &Value::from(o.kind.name()), "{what}");
            assert_eq!(field(&e.field_instances, "tag"), &Value::from(o.tag.as_deref()), "{what}");
            assert_eq!(field(&e.field_instances, "keywords").as_array().map(Vec::len), Some(o.keywords.len()));
            // Every cell of the object lies inside its entity.
            for (p, _) in &o.cells {
                let (x, y) = (i64::from(p.x) * grid, i64::from(p.y) * grid);
                assert!(x >= e.px[0] && x < e.px[0] + e.width && y >= e.px[1] && y < e.px[1] + e.height, "{what}");
            }
        }
    }
}

#[test]
fn each_role_has_an_int_grid_value_in_the_palettes_colour() {
    let pack = Pack::embedded().unwrap();
    let map = generate(&pack, "materials", 1).unwrap();
    let project = ldtk2::Ldtk::from_str(render::map_ldtk(&map, &pack)).unwrap();
    let terrain = project.defs.layers.iter().find(|l| l.identifier == "Terrain").expect("a Terrain layer definition");
    assert_eq!(terrain.layer_definition_type, "IntGrid");
    let values: Vec<(i64, Option<&str>)> =
        terrain.int_grid_values.iter().map(|v| (v.value, v.identifier.as_deref())).collect();
    let expected: Vec<(i64, Option<&str>)> = Role::ALL.iter().map(|r| (r.index() as i64 + 1, Some(r.name()))).collect();
    assert_eq!(values, expected);
    let mut coloured = 0;
    for (role, value) in Role::ALL.iter().zip(&terrain.int_grid_values) {
        if let Some(colour) = pack.palette().colour_of(Some(Terrain::new(*role))) {
            assert_eq!(value.color, colour.to_string(), "{}", role.name());
            coloured += 1;
        }
    }
    assert!(coloured >= 5, "the built-in palette colours most roles ({coloured})");
}

#[test]
fn ids_are_unique_and_the_same_seed_gives_the_same_bytes() {
    let pack = Pack::embedded().unwrap();
    let maps: Vec<Map> = (1..=3).map(|seed| generate(&pack, "hotel", seed).unwrap()).collect();
    let text = render::world_ldtk(&maps, &pack);
    let again: Vec<Map> = (1..=3).map(|seed| generate(&pack, "hotel", seed).unwrap()).collect();
    assert_eq!(render::world_ldtk(&again, &pack), text, "same seeds, same bytes");
    assert!(text.ends_with("}\n") && text.lines().count() == 1, "one line and a newline");

    let project: Value = serde_json::from_str(&text).unwrap();
    let (mut iids, mut uids) = (Vec::new(), Vec::new());
    collect_ids(&project, &mut iids, &mut uids);
    let unique_iids: BTreeSet<&str> = iids.iter().copied().collect();
    assert_eq!(unique_iids.len(), iids.len(), "every iid is unique");
    assert!(iids.iter().all(|i| is_uuid(i)), "every iid is a UUID");
    let unique_uids: BTreeSet<i64> = uids.iter().copied().collect();
    assert_eq!(unique_uids.len(), uids.len(), "every uid is unique");
    assert!(project["nextUid"].as_i64().unwrap() > *unique_uids.last().unwrap());

    // Another seed gives the level other iids.
    let other = render::map_ldtk(&generate(&pack, "hotel", 4).unwrap(), &pack);
    let other: Value = serde_json::from_str(&other).unwrap();
    assert_ne!(other["levels"][0]["iid"], project["levels"][0]["iid"]);
}

/// Every `iid` of things and `uid` of definitions and levels (not the `defUid`s
/// and `layerDefUid`s that refer to them).
fn collect_ids<'a>(value: &'a Value, iids: &mut Vec<&'a str>, uids: &mut Vec<i64>) {
    match value {
        Value::Object(fields) => {
            for (key, v) in fields {
                match (key.as_str(), v) {
                    ("iid" | "dummyWorldIid", Value::String(s)) => iids.push(s),
                    ("uid", Value::Number(n)) => uids.push(n.as_i64().expect("uids are integers")),
                    _ => collect_ids(v, iids, uids),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_ids(v, iids, uids)),
        _ => {}
    }
}

fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()))
}

#[test]
fn a_worlds_levels_lie_side_by_side_without_overlapping() {
    let pack = Pack::embedded().unwrap();
    let maps: Vec<Map> = ["maze", "mines", "hotel"].iter().map(|t| generate(&pack, t, 2).unwrap()).collect();
    let text = render::world_ldtk(&maps, &pack);
    let project = ldtk2::Ldtk::from_str(&text).unwrap();
    assert_eq!(project.levels.len(), 3);
    let identifiers: Vec<&str> = project.levels.iter().map(|l| l.identifier.as_str()).collect();
    assert_eq!(identifiers, ["Level_1", "Level_2", "Level_3"]);
    for pair in project.levels.windows(2) {
        assert!(pair[0].world_x + pair[0].px_wid < pair[1].world_x, "levels neither overlap nor touch");
        assert_eq!((pair[0].world_y, pair[1].world_y), (0, 0));
    }
    for (level, map) in project.levels.iter().zip(&maps) {
        assert_eq!(field(&level.field_instances, "map_type"), &Value::from(map.map_type()));
        let layers = level.layer_instances.as_ref().unwrap();
        let entities = &layers.iter().find(|l| l.identifier == "Entities").unwrap().entity_instances;
        // World coordinates are the level's place plus the entity's.
        assert!(entities.iter().all(|e| e.world_x == Some(level.world_x + e.px[0])));
    }
    // No levels at all is still a project LDtk reads.
    let empty = ldtk2::Ldtk::from_str(render::world_ldtk(&[], &pack)).unwrap();
    assert!(empty.levels.is_empty());
}
