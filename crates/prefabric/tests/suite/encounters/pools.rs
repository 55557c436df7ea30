//! Encounter pools beyond one map type's own list: a shared pool a map type
//! includes, its own entries replacing included ones, and object-only
//! encounters, which scatter on free floor in maps of every generator,
//! deterministically and counted per world.

use super::*;

const SHARED_POOL: &str = r#"
description = "Salvage found on any floor."
[[pool]]
id = "crate"
weight = "common"
category = "reward"
prefabs = ["encl3"]

[[pool]]
id = "debris"
weight = "uncommon"
category = "fluff"
prefabs = ["acc2"]
"#;

const INCLUDES: &str = r#"
width = 64
height = 40
[[starts]]
at = "centre"
[encounters]
count = [2, 4]
include = ["salvage"]
[[encounters.pool]]
id = "own"
weight = "rare"
category = "danger"
prefabs = ["acc2"]
[[encounters.pool]]
id = "crate"
weight = "frequent"
category = "risk-reward"
prefabs = ["encl5"]
"#;

#[test]
fn a_map_type_includes_a_shared_pool_and_its_own_entries_replace_included_ones() {
    let files = [
        ("pack.toml", "name = \"t\"\ndefault_map_type = \"inc\"\n"),
        ("palette.toml", PALETTE),
        ("prefabs/p.txt", PREFABS),
        ("encounters/salvage.toml", SHARED_POOL),
        ("maps/inc.toml", INCLUDES),
    ];
    let files = files.iter().map(|(p, t)| SourceFile { path: p.to_string(), bytes: t.as_bytes().to_vec() }).collect();
    let pack = Pack::from_files("t", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    let pool = pack.map_type("inc").unwrap().encounters.as_ref().unwrap();
    let ids: Vec<&str> = pool.pool.iter().map(|e| e.id.as_str()).collect();
    // Included entries first, in their file's order; the override takes its place.
    assert_eq!(ids, ["crate", "debris", "own"]);
    let (crate_, debris) = (&pool.pool[0], &pool.pool[1]);
    // The whole entry is replaced: weight, category and prefabs are the map type's.
    assert_eq!((crate_.weight_word.as_str(), crate_.prefabs.as_slice()), ("frequent", &["encl5".to_string()][..]));
    assert_eq!(crate_.category, prefabric::Category::RiskReward);
    assert!(crate_.location.to_string().starts_with("t/maps/inc.toml:"), "{}", crate_.location);
    assert!(debris.location.to_string().starts_with("t/encounters/salvage.toml:"), "{}", debris.location);
    let map = Generator::new(&pack, "inc").unwrap().generate(1).unwrap();
    assert!(!encounters(&map).is_empty());
}

/// The embedded pack with the salvage pool included by every map type that has
/// encounters, so its object-only encounters meet maps of every generator.
fn salvage_everywhere() -> Pack {
    let mut files = Pack::embedded_files();
    for f in files.iter_mut().filter(|f| f.path == "maps/hotel.toml" || f.path == "maps/catacombs.toml") {
        let text = String::from_utf8(f.bytes.clone()).unwrap();
        assert!(text.contains("\n[encounters]\n"), "{} has an [encounters] section", f.path);
        f.bytes = text.replace("\n[encounters]\n", "\n[encounters]\ninclude = [\"salvage\"]\n").into_bytes();
    }
    Pack::from_files("content/default", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

#[test]
fn object_only_encounters_scatter_on_free_floor_in_maps_of_every_generator() {
    let pack = salvage_everywhere();
    for map_type in ["materials", "mines", "hotel", "catacombs"] {
        let generator = Generator::new(&pack, map_type).unwrap();
        let mut scattered = 0;
        for seed in 0..100u64 {
            let depth = 1 + (seed % 4) as u32;
            // Generation validates: connected, objects on walkable cells, one per cell.
            let map =
                generator.clone().depth(depth).generate(seed).unwrap_or_else(|e| panic!("{map_type} {seed}: {e}"));
            for placed in map.object_encounters() {
                let pool = pack.map_type(map_type).unwrap().encounters.as_ref().unwrap();
                let e = pool.pool.iter().find(|e| e.id == placed.id).expect("an encounter of the pool");
                let (lo, hi) = e.objects.iter().fold((0, 0), |(lo, hi), o| (lo + o.count.0, hi + o.count.1));
                let n = placed.objects.len() as u32;
                assert!((lo..=hi).contains(&n), "{map_type} {seed}: `{}` placed {n} objects, not {lo}-{hi}", e.id);
                for &k in &placed.objects {
                    let object = &map.objects()[k];
                    let at = object.cells[0].0;
                    let why = format!("{map_type} seed {seed}: `{}`'s {:?} at {at}", e.id, object.tag);
                    assert_eq!(map.region_at(at).map(|r| r.id), Some(placed.region), "{why} is outside its region");
                    assert!(map.terrain()[at].is_floor(), "{why} is not on floor");
                    assert!(!map.prefabs().iter().any(|p| p.bounds.contains(at)), "{why} is inside a prefab");
                    for d in Dir::ALL {
                        let role = map.terrain().get(at + d.delta()).map(|t| t.role());
                        let door = matches!(
                            role,
                            Some(
                                prefabric::Role::Door
                                    | prefabric::Role::SecretDoor
                                    | prefabric::Role::StairsUp
                                    | prefabric::Role::StairsDown
                            )
                        );
                        assert!(!door, "{why} stands beside a door or stairs");
                    }
                }
                scattered += 1;
            }
        }
        assert!(scattered >= 30, "{map_type}: only {scattered} object-only encounters over 100 seeds");
    }
}

#[test]
fn object_only_encounters_are_deterministic_and_counted_per_world() {
    let pack = salvage_everywhere();
    let generator = Generator::new(&pack, "mines").unwrap().depth(3);
    let a = generator.generate(11).unwrap();
    let b = generator.generate(11).unwrap();
    assert_eq!(a.object_encounters(), b.object_encounters());
    assert_eq!(a.objects(), b.objects());
    let (_, world) = generator.generate_in(11, &WorldState::new()).unwrap();
    for placed in a.object_encounters() {
        assert!(world.placed(&placed.id) >= 1, "`{}` is not counted in the world", placed.id);
    }
}
