//! Properties of generated maps, checked over many seeds of the default pack's
//! `materials` map type.

use crate::common;

use prefabric::{Generator, Map, Pack, Point, RegionKind, Role, render};
use std::collections::BTreeSet;

const SEEDS: u64 = 500;

fn pack() -> Pack {
    Pack::embedded().expect("the embedded pack loads")
}

fn maps(pack: &Pack) -> impl Iterator<Item = (u64, Map)> + '_ {
    let generator = Generator::new(pack, "materials").expect("materials exists");
    (0..SEEDS).map(move |seed| (seed, generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"))))
}

#[test]
fn every_walkable_cell_is_connected() {
    let pack = pack();
    for (seed, map) in maps(&pack) {
        if let Err(e) = common::connected(&map) {
            panic!("seed {seed}: {e}");
        }
    }
}

#[test]
fn regions_describe_the_finished_map() {
    let pack = pack();
    for (seed, map) in maps(&pack) {
        if let Err(e) = common::regions_consistent(&map) {
            panic!("seed {seed}: {e}");
        }
    }
}

#[test]
fn feature_prefabs_stay_intact_and_their_links_are_reached() {
    let pack = pack();
    for (seed, map) in maps(&pack) {
        assert!(!map.prefabs().is_empty(), "seed {seed}: every variant places prefabs");
        if let Err(e) = common::prefabs_intact(&map, &pack) {
            panic!("seed {seed}: {e}");
        }
        if let Err(e) = common::machines_placed(&map, &pack) {
            panic!("seed {seed}: {e}");
        }
        if let Err(e) = common::walled(&map) {
            panic!("seed {seed}: {e}");
        }
        for link in map.links() {
            assert!(map.is_walkable(link.at), "seed {seed}: link at {} not dug", link.at);
            // The cell just outside the prefab, where the tunnel begins, is open too.
            let bounds = map.prefabs()[link.prefab].bounds;
            let mut out = link.at;
            while bounds.contains(out) {
                out = out + link.dir.delta();
            }
            assert!(map.is_walkable(out), "seed {seed}: nothing dug beyond the link at {}", link.at);
        }
    }
}

#[test]
fn blocked_barriers_and_the_map_edge_are_never_dug() {
    let pack = pack();
    let map_type = pack.map_type("materials").expect("materials exists");
    for (seed, map) in maps(&pack) {
        let variant = map_type
            .variants
            .iter()
            .find(|v| Some(v.name.as_str()) == map.feature_variant())
            .expect("variant recorded");
        for (barrier, &chance) in variant.barriers.iter().zip(&variant.barrier_chances) {
            // An optional barrier left out says so in the trace.
            let left_out = format!("optional barrier {barrier} ({chance}% of maps) left out");
            if chance < 100 && map.trace().events().iter().any(|e| e.message == left_out) {
                continue;
            }
            for p in barrier.points() {
                assert_eq!(
                    map.terrain_at(p).map(|t| t.role()),
                    Some(Role::Blocked),
                    "seed {seed}: barrier cell {p} changed"
                );
            }
        }
        let (w, h) = (map.width(), map.height());
        for x in 0..w {
            for y in [0, h - 1] {
                assert!(!map.is_walkable(Point::new(x, y)), "seed {seed}: edge cell ({x}, {y}) is open");
            }
        }
        for y in 0..h {
            for x in [0, w - 1] {
                assert!(!map.is_walkable(Point::new(x, y)), "seed {seed}: edge cell ({x}, {y}) is open");
            }
        }
    }
}

#[test]
fn regions_are_open_rectangles_with_doors_on_their_walls() {
    let pack = pack();
    for (seed, map) in maps(&pack) {
        for region in map.regions() {
            assert!(region.area > 0, "seed {seed}: empty {:?}", region.kind);
            if region.kind == RegionKind::Prefab {
                continue;
            }
            // A corridor at least 5 wide may hold columns.
            let column = |p| region.kind == RegionKind::Corridor && common::is_column(&map, p);
            for p in region.bounds.points() {
                assert!(
                    map.is_walkable(p) || column(p),
                    "seed {seed}: {} {} has a solid cell at {p}",
                    region.kind.name(),
                    region.bounds
                );
            }
            for door in &region.doors {
                assert!(map.is_walkable(door.at), "seed {seed}: door {} is solid", door.at);
                let ring = region.bounds.expand(1);
                assert!(
                    ring.contains(door.at) && !region.bounds.contains(door.at),
                    "seed {seed}: door {} off the wall",
                    door.at
                );
                let inside = door.at + door.side.opposite().delta();
                assert!(region.bounds.contains(inside), "seed {seed}: door {} faces {} wrongly", door.at, door.side);
            }
            if region.kind == RegionKind::Room {
                assert!(!region.doors.is_empty(), "seed {seed}: room {} has no door", region.bounds);
            }
        }
    }
}

#[test]
fn optional_barriers_are_raised_on_about_their_share_of_maps() {
    // The materials plaza's middle wall is raised on 70% of its maps: raised,
    // every cell of it is BLOCKED; left out, the tunnelers may dig through.
    let pack = pack();
    let generator = Generator::new(&pack, "materials")
        .expect("materials exists")
        .preview(&prefabric::Preview { variant: Some("plaza".into()), ..Default::default() })
        .expect("materials has the plaza");
    let variant = generator.map_type().variants.iter().find(|v| v.name == "plaza").expect("the plaza");
    let (wall, chance) = (variant.barriers[0], variant.barrier_chances[0]);
    assert_eq!(chance, 70);
    let (mut raised, mut dug_through) = (0, 0);
    const PLAZAS: u64 = 100;
    for seed in 0..PLAZAS {
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let said = |verb: &str| {
            let message = format!("optional barrier {wall} (70% of maps) {verb}");
            map.trace().events().iter().any(|e| e.message == message)
        };
        let blocked = wall.points().all(|p| map.terrain_at(p).map(|t| t.role()) == Some(Role::Blocked));
        assert!(said("raised") != said("left out"), "seed {seed}: the trace says what became of the wall once");
        if said("raised") {
            assert!(blocked, "seed {seed}: the wall was raised but is not BLOCKED throughout");
            raised += 1;
        } else {
            assert!(!blocked, "seed {seed}: the wall was left out but stands");
            dug_through += usize::from(wall.points().any(|p| map.is_walkable(p)));
        }
    }
    assert!((55..=85).contains(&raised), "raised on {raised} of {PLAZAS} maps, not about 70");
    assert!(dug_through > 0, "where the wall is left out, no tunnel ever crossed its line");
}

/// The default pack with `line` added to materials' `[tunnelers]`.
fn materials_with(line: &str) -> Pack {
    let mut files = common::default_pack_files();
    let maps = files.iter_mut().find(|f| f.path == "maps/materials.toml").expect("materials.toml");
    let text = String::from_utf8(maps.bytes.clone()).expect("UTF-8");
    maps.bytes = text.replacen("[tunnelers]\n", &format!("[tunnelers]\n{line}\n"), 1).into_bytes();
    Pack::from_files("default", files, prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

#[test]
fn a_short_join_distance_keeps_tunnelers_from_digging_far_to_their_own_network() {
    // With a join distance of two rows, no tunnel joins its own network by
    // chance through more rock than that; without one, some dig farther; every
    // map still holds (connected).
    let longest = |pack: &Pack| -> u32 {
        let generator = Generator::new(pack, "materials").expect("materials exists");
        (0..40)
            .map(|seed| {
                let map = generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                common::connected(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                map.layout_stats().longest_chance_join
            })
            .max()
            .unwrap_or(0)
    };
    let (near, free) = (longest(&materials_with("join_distance = 2")), longest(&materials_with("join_distance = 0")));
    assert!(near <= 2, "a chance join dug {near} rows with join_distance 2");
    assert!(free > 2, "without a limit the longest chance join was {free} rows: the test shows nothing");
    let err = Pack::from_files(
        "default",
        {
            let mut files = common::default_pack_files();
            let maps = files.iter_mut().find(|f| f.path == "maps/materials.toml").expect("materials.toml");
            let text = String::from_utf8(maps.bytes.clone()).expect("UTF-8");
            maps.bytes = text.replacen("[tunnelers]\n", "[tunnelers]\njoin_distance = 60\n", 1).into_bytes();
            files
        },
        prefabric::Limits::default(),
    )
    .expect_err("a join distance of 60 is refused");
    assert!(err.to_string().contains("join_distance must be 0-50"), "{err}");
}

#[test]
fn maps_have_a_way_in_and_a_way_out() {
    let pack = pack();
    for (seed, map) in maps(&pack) {
        let roles: BTreeSet<Role> = map.terrain().cells().iter().map(|t| t.role()).collect();
        assert!(roles.contains(&Role::StairsUp) && roles.contains(&Role::StairsDown), "seed {seed}");
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let pack = pack();
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    for (seed, map) in maps(&pack) {
        let again = generator.generate(seed).expect("generates");
        assert_eq!(render::json(&map, &pack), render::json(&again, &pack), "seed {seed}");
    }
}

#[test]
fn different_seeds_give_different_maps_and_every_variant_appears() {
    let pack = pack();
    let mut seen = BTreeSet::new();
    let mut variants = BTreeSet::new();
    for (seed, map) in maps(&pack) {
        assert!(seen.insert(render::ascii(&map, pack.palette())), "seed {seed} repeats an earlier map");
        variants.insert(map.feature_variant().map(String::from));
    }
    let map_type = pack.map_type("materials").expect("materials exists");
    assert_eq!(variants.len(), map_type.variants.len(), "{variants:?}");
}

#[test]
fn open_share_stays_within_the_map_type_bounds() {
    let pack = pack();
    let mut shares = Vec::new();
    for (_, map) in maps(&pack) {
        let open = map.terrain().cells().iter().filter(|t| t.is_walkable()).count();
        shares.push(open * 100 / map.terrain().cells().len());
    }
    let (min, max) = (shares.iter().min().copied().unwrap_or(0), shares.iter().max().copied().unwrap_or(0));
    // materials asks for min_open = 20% and fills to 34% of the interior.
    assert!(min >= 20, "a map was only {min}% open");
    assert!(max <= 60, "a map was {max}% open: the tunnelers ran away");
}
