//! The pack's movement rule (`moves` in `palette.toml`): under `diagonal`, a
//! prefab whose floor is joined only across a corner is one area, loads, is
//! placed intact and leaves every map connected by diagonal steps; under the
//! default, `orthogonal`, the same prefab is refused with a hint; an unknown
//! rule is an error at its line.

use crate::common;

use prefabric::content::SourceFile;
use prefabric::{Generator, Limits, Moves, Pack, Point, Problems};

const PALETTE: &str = "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n\":\" = \"earth\"\n";

/// Two chambers of floor that touch only at a corner, (2, 2) and (3, 3); the
/// lower one opens on the bottom row, where the room's door leads in.
const PREFABS: &str = "\
prefab corner_step
style: enclosed
terrain:
#######
#..####
#..####
###...#
###.###
";

const MAP: &str = r#"
width = 64
height = 40
[tunnelers]
room_chance = 60
[[starts]]
at = "centre"
[encounters]
count = [4, 8]
[[encounters.pool]]
id = "step"
weight = "common"
category = "fluff"
prefabs = ["corner_step"]
[[encounters.pool]]
id = "step_in_full_room"
weight = "common"
category = "fluff"
prefabs = ["corner_step"]
resize = false
"#;

fn pack_files(palette: &str) -> Vec<SourceFile> {
    [
        ("pack.toml", "name = \"m\"\ndefault_map_type = \"steps\"\n"),
        ("palette.toml", palette),
        ("prefabs/p.txt", PREFABS),
        ("maps/steps.toml", MAP),
    ]
    .iter()
    .map(|(p, t)| SourceFile { path: p.to_string(), bytes: t.as_bytes().to_vec() })
    .collect()
}

fn load(palette: &str) -> Result<Pack, Problems> {
    Pack::from_files("m", pack_files(palette), Limits::default())
}

#[test]
fn floor_joined_across_a_corner_is_one_area_only_when_walkers_step_diagonally() {
    let orthogonal = load(PALETTE).expect_err("orthogonal moves refuse the prefab").to_string();
    assert!(orthogonal.contains("prefab `corner_step` has open cells in more than one area"), "{orthogonal}");
    let pack = load(&format!("moves = \"diagonal\"\n{PALETTE}")).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(pack.palette().moves(), Moves::Diagonal);
    assert_eq!(pack.prefab("corner_step").map(|p| p.moves()), Some(Moves::Diagonal));
    let explicit = load(&format!("moves = \"orthogonal\"\n{PALETTE}")).expect_err("as the default");
    assert!(explicit.to_string().contains("prefab `corner_step` has open cells in more than one area"), "{explicit}");
}

#[test]
fn maps_of_a_diagonal_pack_keep_the_corner_joined_prefab_whole_and_connected() {
    let pack = load(&format!("moves = \"diagonal\"\n{PALETTE}")).unwrap_or_else(|p| panic!("{p}"));
    let (mut placed, mut in_full_rooms) = (0, 0);
    for seed in 0..60 {
        let map = Generator::new(&pack, "steps")
            .unwrap_or_else(|e| panic!("{e}"))
            .generate(seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(map.moves(), Moves::Diagonal);
        common::connected(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::prefabs_intact(&map, &pack).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for p in map.prefabs().iter().filter(|p| p.name == "corner_step") {
            placed += 1;
            in_full_rooms += u32::from(p.encounter.as_ref().is_some_and(|e| e.id == "step_in_full_room"));
            // The upper chamber, reached only across the corner, is still floor:
            // no stage sealed it as cut off from the door.
            let oriented = pack.placed(p).expect("a pack prefab");
            let origin = Point::new(p.bounds.x, p.bounds.y);
            let floor = oriented
                .cells()
                .bounds()
                .points()
                .filter(|&q| oriented.cells()[q].is_some_and(|t| t.is_walkable()))
                .all(|q| map.terrain_at(origin + q).is_some_and(|t| t.is_floor()));
            assert!(floor, "seed {seed}: {} lost floor", p.name);
        }
    }
    assert!(placed >= 20, "the prefab was placed only {placed} times in 60 maps");
    // Rooms kept at full size are where floor cut off from the door is sealed.
    assert!(in_full_rooms >= 10, "placed in a full-size room only {in_full_rooms} times");
}

#[test]
fn an_unknown_movement_rule_is_an_error_at_its_line() {
    let problems =
        load(&PALETTE.replacen("[glyphs]", "moves = \"sideways\"\n[glyphs]", 1)).expect_err("an unknown rule");
    let text = problems.to_string();
    assert!(text.contains("m/palette.toml:1:9: invalid: unknown moves `sideways`"), "{text}");
    assert!(text.contains("\"orthogonal\"") && text.contains("\"diagonal\""), "the help names both rules:\n{text}");
}
