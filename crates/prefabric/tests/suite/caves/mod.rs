//! The cave layout (Cogmind's cave branches, seeds 000 and 001) on a pack written
//! here: caves that are one network, walled, divided into caverns and passages,
//! with the features' links joined by direct passages, over many seeds; and
//! prefabs joined to the caverns afterwards, centred in them or sunk into their
//! walls, as features and as encounters, with the caverns furnished.

mod caverns;
mod mines;

use crate::common;

use prefabric::{Dir, Generator, Map, Pack, Point, Rect, RegionKind, Role, SkipReason, Stage, Style, render};

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

/// Prefabs for caverns: centred ones (a walled camp, a cross-shaped shrine
/// with `?` corners, a beacon with a link mark on its west edge) and embedded
/// ones (a den whose mouth is a door, a deep vault with its mouth off-centre,
/// a bunker whose only way out is a link mark on its east side).
const CAVE_PREFABS: &str = r#"
prefab camp
style: centered
terrain:
#######
#.....#
#.....+
#.....#
###.###

prefab shrine
style: centered
terrain:
??#.#??
?##.##?
##...##
.......
##...##
?##.##?
??#.#??

prefab beacon
style: centered
terrain:
#####
#...#
.....
#####
links:
.....
.....
1....
.....

prefab den
style: embedded
terrain:
#######
#.....#
#.....#
##...##
###+###

prefab vault
style: embedded
terrain:
#########
#.......#
#.#####.#
#.#...#.#
#.#...+.#
#.#####.#
#.......#
#.#######

prefab bunker
style: embedded
terrain:
#####
#...#
#....
#...#
#####
links:
.....
.....
....1
.....
.....
"#;

const CAMPS: &str = r#"
width = 120
height = 90
generator = "caves"

[[variants]]
name = "set pieces"

[[variants.prefabs]]
prefab = "shaft"
at = "south"
jitter = [20, 0]

[[variants.prefabs]]
prefab = { camp = 1, shrine = 1 }
cavern = "centered"

[[variants.prefabs]]
prefab = "den"
cavern = "embedded"

[encounters]
count = [10, 14]

[[encounters.pool]]
id = "camps"
weight = "common"
category = "fluff"
prefabs = ["camp", "shrine", "beacon"]
min_area = 60

[[encounters.pool]]
id = "dens"
weight = "common"
category = "danger"
prefabs = ["den", "vault", "bunker"]
"#;

fn pack() -> Pack {
    common::test_pack(
        "caves",
        "caves",
        &[
            ("prefabs/features.txt", PREFABS),
            ("prefabs/caverns.txt", CAVE_PREFABS),
            ("maps/caves.toml", CAVES),
            ("maps/dense.toml", DENSE),
            ("maps/open.toml", OPEN),
            ("maps/camps.toml", CAMPS),
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
        // Its own floor, unless a prefab was centred on it.
        let centred = map.prefabs().iter().any(|p| p.bounds.contains(centre));
        if map.region_at(centre).map(|c| c.id) != Some(r.id) && !centred {
            return Err(format!("cavern {}'s centre {centre} is not in it", r.id));
        }
    }
    // Cave floor is its own terrain, and every cell of it belongs to a cavern
    // or a passage (or to a prefab whose link path it opened).
    for p in map.bounds().points() {
        if map.terrain_at(p).is_some_and(|t| t.is(Role::Floor(prefabric::FloorKind::Cave))) {
            let kind = map.region_at(p).map(|r| r.kind);
            let opened = kind == Some(RegionKind::Prefab) && map.links().iter().any(|l| l.at == p);
            if !matches!(kind, Some(RegionKind::Cave | RegionKind::Passage)) && !opened {
                return Err(format!("cave floor {p} is in {kind:?}"));
            }
        }
    }
    for (i, placed) in map.prefabs().iter().enumerate() {
        let style = placed.encounter.as_ref().map(|e| e.style);
        let region = placed.region.and_then(|r| map.regions().get(r as usize));
        if region.is_none_or(|r| r.prefab != Some(i) || r.kind != RegionKind::Prefab) {
            return Err(format!("prefab {} has no region of its own", placed.name));
        }
        match (style, pack.prefab(&placed.name).map(|p| p.style())) {
            (Some(Style::Centered), _) | (None, Some(Style::Centered)) => centred_holds(map, placed)?,
            (Some(Style::Embedded), _) | (None, Some(Style::Embedded)) => embedded_holds(map, pack, placed)?,
            _ => {}
        }
    }
    let open = map.terrain().cells().iter().filter(|t| t.is_walkable()).count() as f64;
    let share = open / map.terrain().cells().len() as f64;
    if !floor.contains(&share) {
        return Err(format!("{:.0}% floor: not caves", share * 100.0));
    }
    Ok(())
}

/// A centred prefab stands free: the ring around it is all open ground, and its
/// centre is within two cells of a cavern's centre.
fn centred_holds(map: &Map, placed: &prefabric::PlacedPrefab) -> Result<(), String> {
    let b = placed.bounds;
    if let Some(p) = b.ring().find(|&p| !map.is_walkable(p)) {
        return Err(format!("centred {} at {b}: its ring is closed at {p}", placed.name));
    }
    let centre = Point::new(b.x + b.width / 2, b.y + b.height / 2);
    let near =
        map.regions().iter().filter_map(|r| r.centre).any(|c| (c.x - centre.x).abs().max((c.y - centre.y).abs()) <= 2);
    if !near {
        return Err(format!("centred {} at {b} is not at a cavern's centre", placed.name));
    }
    Ok(())
}

/// An embedded prefab is enclosed in rock but for the row in front of its
/// bottom edge, where its mouth opens onto the cave.
fn embedded_holds(map: &Map, pack: &Pack, placed: &prefabric::PlacedPrefab) -> Result<(), String> {
    let b = placed.bounds;
    let facing = placed.transform.apply_dir(Dir::South);
    let front = |p: Point| match facing {
        Dir::North => p.y == b.y - 1,
        Dir::South => p.y == b.bottom(),
        Dir::West => p.x == b.x - 1,
        Dir::East => p.x == b.right(),
    } && (b.contains(p - facing.delta()));
    let passage = |p: Point| map.region_at(p).is_some_and(|r| r.kind == RegionKind::Passage);
    for p in b.ring() {
        if map.is_walkable(p) && !front(p) && !passage(p) {
            return Err(format!("embedded {} at {b} facing {facing}: open ground at {p} beside it", placed.name));
        }
    }
    let oriented = pack.placed(placed).ok_or("known prefab")?;
    let origin = Point::new(b.x, b.y);
    let mouths: Vec<Point> = b
        .ring()
        .filter(|&p| front(p) && map.is_walkable(p))
        .filter(|&p| oriented.cells()[p - facing.delta() - origin].is_some_and(|t| t.is_walkable()))
        .collect();
    if mouths.is_empty() && oriented.links().is_empty() {
        return Err(format!("embedded {} at {b} facing {facing} has no open mouth", placed.name));
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
            let a = render::json(&generate(&pack, map_type, seed), &pack);
            let b = render::json(&generate(&pack, map_type, seed), &pack);
            assert_eq!(a, b, "{map_type} seed {seed}");
            assert!(a.contains("\"generator\":\"caves\"") && a.contains("\"kind\":\"passage\""));
            assert!(a.contains("\"centre\":["), "caverns carry their centre in JSON");
        }
    }
}

#[test]
fn prefabs_are_centred_in_caverns_and_sunk_into_their_walls() {
    let pack = pack();
    let (mut centred, mut embedded, mut features, mut links) = (0, 0, 0, 0);
    let mut passages = 0;
    for seed in 0..300 {
        let map = generate(&pack, "camps", seed);
        cave_map_holds(&pack, &map, 0.30..=0.60).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::walled(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for placed in map.prefabs() {
            match placed.encounter.as_ref().map(|e| e.style) {
                Some(Style::Centered) => centred += 1,
                Some(Style::Embedded) => embedded += 1,
                _ => features += usize::from(placed.stage == Stage::Feature),
            }
        }
        links += map.links().len();
        passages += map.regions().iter().filter(|r| r.kind == RegionKind::Passage && r.area < 40).count();
        // Both set pieces are required: they are always there.
        assert!(map.prefabs().iter().any(|p| p.name == "den" && p.stage == Stage::Feature), "seed {seed}");
        assert!(
            map.prefabs().iter().any(|p| matches!(p.name.as_str(), "camp" | "shrine") && p.stage == Stage::Feature),
            "seed {seed}"
        );
    }
    assert_eq!(features, 900, "three features a map");
    // Over 300 maps of 10-14 encounters, both styles place most of their share.
    assert!(centred > 900 && embedded > 1200, "centred {centred}, embedded {embedded}");
    assert!(links > 300 + 50, "beacons and bunkers add link marks: {links}");
    assert!(passages > 0, "bunkers' links are joined by passages");
}

/// Centered prefabs may be drawn as DCSS draws many vaults: two cells apart,
/// each with its own door (one beside `?`, the cave's ground, with a second
/// door that may open), and a gatehouse whose one door of four is dealt at
/// random, so no edge cell is open in every outcome.
const APART_PREFABS: &str = r#"
prefab twin_cells
style: centered
terrain:
##.####
#..#..#
#..#..#
####.##

prefab ragged_cells
style: centered
subst: A = . #
terrain:
?#.####
?..#..#
#..#..A
####.##

prefab gatehouse
style: centered
nsubst: ABCD = 1 + / rest #
terrain:
###A###
#.....#
D.....B
#.....#
###C###
"#;

#[test]
fn a_centered_prefab_may_have_areas_apart_and_ways_out_that_vary_when_each_area_leads_out() {
    const MAP: &str = r#"
width = 80
height = 50
generator = "caves"

[caves]
fill = 45
iterations = 6
passage_width = 2

[encounters]
count = [4, 6]

[[encounters.pool]]
id = "apart"
weight = "common"
category = "fluff"
prefabs = ["twin_cells", "ragged_cells", "gatehouse"]
"#;
    let pack = common::test_pack("apart", "apart", &[("prefabs/apart.txt", APART_PREFABS), ("maps/apart.toml", MAP)]);
    let mut placed = std::collections::BTreeMap::new();
    for seed in 0..150 {
        let map = generate(&pack, "apart", seed);
        cave_map_holds(&pack, &map, 0.25..=0.75).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for p in map.prefabs() {
            centred_holds(&map, p).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            *placed.entry(p.name.clone()).or_insert(0) += 1;
        }
    }
    // connected() in cave_map_holds proves both cells of each twin and the
    // gatehouse's one door reach the cave.
    for name in ["twin_cells", "ragged_cells", "gatehouse"] {
        assert!(placed.get(name).is_some_and(|&n| n > 15), "{name}: {placed:?}");
    }

    // An area with no way of its own is refused, and so is one whose only
    // way out a variation may close.
    for (prefab, expected) in [
        (
            "prefab sealed_cell\nstyle: centered\nterrain:\n##.####\n#..#..#\n#..#..#\n#######\n",
            "prefab `sealed_cell` has open cells that lead nowhere: the area at x=4 y=1 has no open cell on the prefab's edge",
        ),
        (
            "prefab shuttered\nstyle: centered\nsubst: A = . #\nterrain:\n##A####\n#..#..#\n#..#..#\n####.##\n",
            "`subst` at line 3 may open or close the cell at x=2 y=0: the floor at x=1 y=1 meets the prefab's edge only through cells that may close, this one among them: in an outcome where they close, nothing outside reaches that floor (the outcome of variant seed",
        ),
    ] {
        let map = MAP.replace(
            r#"prefabs = ["twin_cells", "ragged_cells", "gatehouse"]"#,
            &format!("prefabs = [\"{}\"]", &prefab[7..prefab.find('\n').unwrap_or(7)]),
        );
        let files = [("prefabs/apart.txt", prefab), ("maps/apart.toml", map.as_str())];
        match common::try_test_pack("apart", "apart", &files) {
            Ok(_) => panic!("accepted:\n{prefab}"),
            Err(err) => assert!(err.contains(expected), "{err}"),
        }
    }
}

/// The README's cave map type example, loaded as it is written there.
#[test]
fn the_readme_example_loads_and_places_its_prefabs() {
    let files = common::readme_example("Writing a cave map type", "grotto");
    assert_eq!(files.len(), 4, "two example files in the section");
    let pack = Pack::from_files("README", files, prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    let (mut dens, mut cairns) = (0, 0);
    for seed in 0..40 {
        let map = generate(&pack, "grotto", seed);
        cave_map_holds(&pack, &map, 0.25..=0.75).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(map.prefabs().iter().any(|p| p.name == "shrine" && p.stage == Stage::Feature), "seed {seed}");
        dens += map.prefabs().iter().filter(|p| p.name == "den").count();
        cairns += map.prefabs().iter().filter(|p| p.name == "cairn").count();
    }
    assert!(dens > 40 && cairns > 10, "{dens} dens and {cairns} cairns in 40 maps");
}
