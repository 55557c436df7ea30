//! The cave layout (Cogmind's cave branches, seeds 000 and 001) on a pack written
//! here: caves that are one network, walled, divided into caverns and passages,
//! with the features' links joined by direct passages, over many seeds.

mod common;

use prefabric::{Generator, Map, Pack, RegionKind, Role, render};

const PREFABS: &str = r#"
prefab gate
terrain:
:::::
:#+#:
:#<#:
:###:
links:
.....
..1..
.....
.....

prefab shaft
terrain:
#######
#.....#
#..>..#
#.....#
###*###
"#;

const CAVES: &str = r#"
width = 120
height = 90
generator = "caves"

[[variants]]
name = "gates"

[[variants.prefabs]]
prefab = "gate"
at = "north"
transforms = "all"

[[variants.prefabs]]
prefab = "shaft"
at = "south"
jitter = [20, 0]
"#;

const DENSE: &str = r#"
width = 80
height = 60
generator = "caves"

[caves]
fill = 53
passage_width = 1
margin = 3
cavern_clearance = 2
min_cavern = 20
min_pocket = 8
"#;

const OPEN: &str = r#"
width = 60
height = 40
generator = "caves"

[caves]
fill = 45
iterations = 6
passage_width = 3
"#;

fn pack() -> Pack {
    common::test_pack(
        "caves",
        "caves",
        &[
            ("prefabs/features.txt", PREFABS),
            ("maps/caves.toml", CAVES),
            ("maps/dense.toml", DENSE),
            ("maps/open.toml", OPEN),
        ],
    )
}

fn generate(pack: &Pack, map_type: &str, seed: u64) -> Map {
    Generator::new(pack, map_type)
        .expect("the map type exists")
        .generate(seed)
        .unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"))
}

/// Everything a cave map must hold, checked from the public API.
/// `floor` is the share of walkable cells the map type's settings should give.
fn cave_map_holds(pack: &Pack, map: &Map, floor: std::ops::RangeInclusive<f64>) -> Result<(), String> {
    common::connected(map)?;
    common::prefabs_intact(map, pack)?;
    common::walled(map)?;
    common::regions_consistent(map)?;
    if let Some(retry) = map.trace().events().iter().find(|e| e.stage == "generate") {
        return Err(format!("the map needed another attempt: {retry}"));
    }
    let stats = map.layout_stats().caves.clone().ok_or("a cave layout has cave stats")?;
    let caverns: Vec<_> = map.regions().iter().filter(|r| r.kind == RegionKind::Cave).collect();
    if caverns.is_empty() || caverns.len() as u32 != stats.caverns {
        return Err(format!("{} caverns, stats say {}", caverns.len(), stats.caverns));
    }
    for r in &caverns {
        let centre = r.centre.ok_or("a cavern has a centre")?;
        if map.region_at(centre).map(|c| c.id) != Some(r.id) {
            return Err(format!("cavern {}'s centre {centre} is not in it", r.id));
        }
    }
    // Cave floor is its own terrain, and every cell of it belongs to a cavern
    // or a passage.
    for p in map.bounds().points() {
        if map.terrain_at(p).is_some_and(|t| t.role == Role::Floor(prefabric::FloorKind::Cave)) {
            let kind = map.region_at(p).map(|r| r.kind);
            if !matches!(kind, Some(RegionKind::Cave | RegionKind::Passage)) {
                return Err(format!("cave floor {p} is in {kind:?}"));
            }
        }
    }
    let open = map.terrain().cells().iter().filter(|t| t.role.is_walkable()).count() as f64;
    let share = open / map.terrain().cells().len() as f64;
    if !floor.contains(&share) {
        return Err(format!("{:.0}% floor: not caves", share * 100.0));
    }
    Ok(())
}

#[test]
fn caves_hold_every_invariant_over_many_seeds() {
    let pack = pack();
    let (mut joined, mut dug) = (0, 0);
    for seed in 0..300 {
        let map = generate(&pack, "caves", seed);
        cave_map_holds(&pack, &map, 0.30..=0.60).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let stats = map.layout_stats().caves.clone().expect("stats");
        // Both features' links are joined by direct passages (connected() above
        // proves they reach the cave; the stats say it was a passage, not the
        // carver's fallback corridor).
        assert_eq!(stats.link_lengths.len(), 2, "seed {seed}: {stats:?}");
        assert_eq!(map.layout_stats().fallback_paths, 0, "seed {seed}");
        joined += stats.link_lengths.len();
        dug += stats.joins;
        assert!(stats.caverns_before_joining >= 1, "seed {seed}");
    }
    assert_eq!(joined, 600);
    assert!(dug > 300, "areas apart are joined by passages: {dug}");
}

#[test]
fn other_settings_make_caves_too() {
    let pack = pack();
    for (map_type, floor) in [("dense", 0.10..=0.50), ("open", 0.35..=0.85)] {
        for seed in 0..200 {
            let map = generate(&pack, map_type, seed);
            cave_map_holds(&pack, &map, floor.clone()).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_caves() {
    let pack = pack();
    for map_type in ["caves", "dense"] {
        for seed in [4, 90] {
            let a = render::json(&generate(&pack, map_type, seed), pack.palette());
            let b = render::json(&generate(&pack, map_type, seed), pack.palette());
            assert_eq!(a, b, "{map_type} seed {seed}");
            assert!(a.contains("\"generator\":\"caves\"") && a.contains("\"kind\":\"passage\""));
            assert!(a.contains("\"centre\":["), "caverns carry their centre in JSON");
        }
    }
}
