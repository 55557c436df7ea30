//! Staircase encounters: general stairs trimmed to the mines' count over 200
//! seeds, and a stairs count met, or every general staircase going down when
//! the map type asks for none.

use super::*;

/// The staircases of `role` in `map`: its 4-connected groups of cells.
fn staircases(map: &Map, role: prefabric::Role) -> usize {
    let mut seen = std::collections::BTreeSet::new();
    let mut groups = 0;
    for p in map.bounds().points() {
        if map.terrain()[p].role() != role || !seen.insert((p.x, p.y)) {
            continue;
        }
        groups += 1;
        let mut stack = vec![p];
        while let Some(q) = stack.pop() {
            for d in Dir::ALL {
                let n = q + d.delta();
                if map.terrain().get(n).is_some_and(|t| t.is(role)) && seen.insert((n.x, n.y)) {
                    stack.push(n);
                }
            }
        }
    }
    groups
}

#[test]
fn general_stairs_are_trimmed_to_the_mines_count_over_200_seeds() {
    use prefabric::Role;
    let pack = Pack::embedded().unwrap();
    let generator = Generator::new(&pack, "mines").unwrap();
    let count = pack.map_type("mines").unwrap().stairs.expect("the mines count their stairs");
    let (mut full, mut trimmed) = (0, 0);
    for seed in 0..200 {
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(staircases(&map, Role::Stairs), 0, "seed {seed}: general stairs left");
        let (up, down) = (staircases(&map, Role::StairsUp) as u32, staircases(&map, Role::StairsDown) as u32);
        let short = map.trace().events().iter().any(|e| e.message.contains("too few staircases"));
        assert_eq!(up, count.up, "seed {seed}");
        if short {
            assert!(down < count.down, "seed {seed}: traced as short with {down} down");
        } else {
            assert_eq!(down, count.down, "seed {seed}");
            full += 1;
        }
        trimmed += map.trace().events().iter().filter(|e| e.message.ends_with("became floor (not needed)")).count();
    }
    assert!(full >= 100, "only {full} of 200 maps got their count");
    assert!(trimmed >= 20, "only {trimmed} surplus staircases turned to floor");
}

const STAIRS_PREFABS: &str = "\
prefab landing
style: accessible
terrain:
...
.S.
...
";

const STAIRS_COUNTED: &str = r#"
width = 64
height = 40
stairs = { up = 1, down = 1 }
[tunnelers]
room_chance = 60
[[starts]]
at = "centre"
[encounters]
count = 6
[[encounters.pool]]
id = "landing"
weight = "common"
category = "fluff"
prefabs = ["landing"]
"#;

#[test]
fn general_stairs_meet_the_count_or_all_go_down_without_one() {
    use prefabric::Role;
    let uncounted = STAIRS_COUNTED.replace("stairs = { up = 1, down = 1 }\n", "");
    let files = [
        ("pack.toml", "name = \"t\"\ndefault_map_type = \"counted\"\n".to_string()),
        ("palette.toml", format!("{PALETTE}\"S\" = \"stairs\"\n")),
        ("prefabs/p.txt", STAIRS_PREFABS.to_string()),
        ("maps/counted.toml", STAIRS_COUNTED.to_string()),
        ("maps/uncounted.toml", uncounted),
    ];
    let files = files.iter().map(|(p, t)| SourceFile { path: p.to_string(), bytes: t.as_bytes().to_vec() }).collect();
    let pack = Pack::from_files("t", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    for seed in 0..50 {
        let map = Generator::new(&pack, "counted").unwrap().generate(seed).unwrap();
        let landings = encounters(&map).len();
        assert!(landings >= 2, "seed {seed}: only {landings} landings");
        let counts = [Role::Stairs, Role::StairsUp, Role::StairsDown].map(|r| staircases(&map, r));
        assert_eq!(counts, [0, 1, 1], "seed {seed}: general, up, down");
        let again = Generator::new(&pack, "counted").unwrap().generate(seed).unwrap();
        assert_eq!(map.terrain().cells(), again.terrain().cells(), "seed {seed}: not deterministic");
        let map = Generator::new(&pack, "uncounted").unwrap().generate(seed).unwrap();
        let counts = [Role::Stairs, Role::StairsUp, Role::StairsDown].map(|r| staircases(&map, r));
        assert_eq!(counts, [0, 0, encounters(&map).len()], "seed {seed}: without a count all go down");
    }
}
