//! The cave layout (Cogmind's cave branches, seeds 000 and 001) on a pack written
//! here: caves that are one network, walled, divided into caverns and passages,
//! with the features' links joined by direct passages, over many seeds; and
//! prefabs joined to the caverns afterwards, centred in them or sunk into their
//! walls, as features and as encounters, with the caverns furnished.

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

#[test]
fn cave_encounters_that_fit_nowhere_are_skipped_and_traced() {
    const HUGE: &str = r#"
prefab colossus
style: centered
transforms: none
terrain:
##############################
#............................#
#............................#
#............................#
#............................#
#............................#
#............................#
#............................#
#............................#
#............................#
###############.##############
"#;
    const MAP: &str = r#"
width = 60
height = 40
generator = "caves"

# Dense caves: small caverns.
[caves]
fill = 56
min_cavern = 20

[encounters]
count = 3

[[encounters.pool]]
id = "colossus"
weight = "common"
category = "fluff"
prefabs = ["colossus"]

[[encounters.pool]]
id = "greedy"
weight = "common"
category = "fluff"
prefabs = ["den"]
min_area = 100000
"#;
    let pack = common::test_pack(
        "huge",
        "huge",
        &[("prefabs/caverns.txt", CAVE_PREFABS), ("prefabs/huge.txt", HUGE), ("maps/huge.toml", MAP)],
    );
    for seed in 0..20 {
        let map = generate(&pack, "huge", seed);
        assert!(map.prefabs().is_empty(), "seed {seed}");
        let skipped: Vec<String> = map
            .trace()
            .events()
            .iter()
            .filter(|e| e.stage == "encounters" && e.outcome == prefabric::Outcome::Skipped)
            .map(|e| e.message.clone())
            .collect();
        if !map.regions().iter().any(|r| r.centre.is_some()) {
            // Dense caves may have no cavern at all, which the trace says.
            assert!(skipped.iter().all(|m| m.ends_with("the layout made no caverns for it")), "{skipped:?}");
            continue;
        }
        assert!(
            skipped.iter().any(|m| m.starts_with("encounter `colossus`: no cavern takes it: of ")
                && (m.contains("too small around") || m.contains("the map's edge"))),
            "seed {seed}: {skipped:?}"
        );
        assert!(
            skipped.iter().any(|m| m.contains("`greedy`: ") && m.contains("fewer than 100000 cells")),
            "seed {seed}: {skipped:?}"
        );
        let reasons: Vec<(&str, SkipReason)> =
            map.encounter_skips().iter().map(|s| (s.id.as_str(), s.reason)).collect();
        assert!(reasons.contains(&("colossus", SkipReason::TooLarge)), "seed {seed}: {reasons:?}");
        assert!(reasons.contains(&("greedy", SkipReason::NoPlace)), "seed {seed}: {reasons:?}");
    }
}

#[test]
fn a_required_cavern_feature_that_fits_nowhere_fails_with_its_reason() {
    const MAP: &str = r#"
width = 60
height = 40
generator = "caves"

[caves]
fill = 56
min_cavern = 20

[[variants]]
name = "v"

[[variants.prefabs]]
prefab = "colossus"
cavern = "centered"
"#;
    const HUGE: &str = "prefab colossus\nstyle: centered\ntransforms: none\nterrain:\n#########################\n#.......................#\n#.......................#\n#.......................#\n#.......................#\n############.############\n";
    let pack = common::test_pack("huge", "huge", &[("prefabs/huge.txt", HUGE), ("maps/huge.toml", MAP)]);
    let err = Generator::new(&pack, "huge").unwrap().generate(1).expect_err("it cannot fit").to_string();
    assert!(err.contains("prefab `colossus` (centered in a cavern"), "{err}");
    assert!(err.contains("found no cavern") && err.contains("too small around"), "{err}");
}

#[test]
fn caverns_are_furnished_with_scattered_machines_stockpiles_and_debris() {
    let catalog =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/catalog/props.toml"))
            .expect("props");
    let items =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/catalog/items.toml"))
            .expect("items");
    let debris =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/catalog/debris.toml"))
            .expect("debris");
    let entities =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/catalog/entities.toml"))
            .expect("entities");
    const MAP: &str = r#"
width = 120
height = 90
generator = "caves"

[furnishing]
max_stockpiles = 4

[furnishing.caves]
interactive_machines_stockpiles = 2
machines = 3
stockpiles = 2
empty = 1

[furnishing.interactive]
types = { assayer = 1 }

[furnishing.machines]
sets = { salvage = 1, storage = 1 }
scatter = [2, 4]

[furnishing.stockpiles]
items = [3, 5]
categories = ["power"]

[furnishing.debris]
count = [20, 30]
tags = { rubble_pile = 2, ore_spill = 1 }
"#;
    let pack = common::test_pack(
        "furnished",
        "furnished",
        &[
            ("catalog/props.toml", &catalog),
            ("catalog/items.toml", &items),
            ("catalog/debris.toml", &debris),
            ("catalog/entities.toml", &entities),
            ("maps/furnished.toml", MAP),
        ],
    );
    let (mut scattered, mut piles, mut interactive) = (0, 0, 0);
    for seed in 0..60 {
        let map = generate(&pack, "furnished", seed);
        common::connected(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut strewn = 0;
        for o in map.objects() {
            let f = o.furnishing.expect("everything here is furnished");
            let p = o.cells[0].0;
            assert!(map.is_walkable(p), "seed {seed}: {:?} in rock at {p}", o.tag);
            match f.part {
                prefabric::FurnishPart::Debris => {
                    strewn += 1;
                    assert!(matches!(o.tag.as_deref(), Some("rubble_pile" | "ore_spill")), "{:?}", o.tag);
                    let beside = (-1..=1).any(|dy| (-1..=1).any(|dx| !map.is_walkable(p + Point::new(dx, dy))));
                    assert!(beside, "seed {seed}: debris at {p} is away from the walls");
                }
                prefabric::FurnishPart::Filler => scattered += 1,
                prefabric::FurnishPart::Stockpile => piles += 1,
                prefabric::FurnishPart::Interactive => {
                    interactive += 1;
                    // With its back to the rock.
                    let rect =
                        o.cells.iter().fold(Rect::new(p.x, p.y, 1, 1), |r, c| r.union(&Rect::new(c.0.x, c.0.y, 1, 1)));
                    let sides = [
                        Rect::new(rect.x, rect.y - 1, rect.width, 1),
                        Rect::new(rect.x, rect.bottom(), rect.width, 1),
                        Rect::new(rect.x - 1, rect.y, 1, rect.height),
                        Rect::new(rect.right(), rect.y, 1, rect.height),
                    ];
                    assert!(sides.iter().any(|s| s.points().all(|q| !map.is_walkable(q))), "seed {seed}: {rect}");
                }
                other => panic!("seed {seed}: unexpected {other:?}"),
            }
            let region = f.region.map(|r| map.regions()[r as usize].kind);
            assert!(matches!(region, Some(RegionKind::Cave | RegionKind::Passage)), "seed {seed}: {region:?}");
        }
        assert!((20..=30).contains(&strewn), "seed {seed}: {strewn} pieces of debris");
    }
    assert!(
        scattered > 100 && piles > 100 && interactive > 30,
        "{scattered} scattered, {piles} items in piles, {interactive} interactive"
    );
}

/// Open ground is walled even beside prefabs: a walkable cell touches earth
/// only where a placed prefab draws earth on purpose (not under its `?` cells).
fn walled_tightly(map: &Map, pack: &Pack) -> Result<(), String> {
    let drawn_earth = |q: Point| {
        map.prefabs().iter().any(|placed| {
            let oriented = pack.placed(placed).expect("known");
            let origin = Point::new(placed.bounds.x, placed.bounds.y);
            placed.bounds.contains(q) && oriented.cells()[q - origin].is_some_and(|t| t.is(Role::Earth))
        })
    };
    for p in map.bounds().points().filter(|&p| map.is_walkable(p)) {
        for q in Rect::new(p.x - 1, p.y - 1, 3, 3).points() {
            if map.terrain_at(q).is_some_and(|t| t.is(Role::Earth)) && !drawn_earth(q) {
                return Err(format!("walkable {p} touches earth at {q}"));
            }
        }
    }
    Ok(())
}

/// The default pack's `mines` over 2,000 seeds at depths 1 to 8, in quarters so
/// the suite runs them side by side: every invariant, the ways in and out, and
/// encounters of both styles.
fn mines_hold(seeds: std::ops::Range<u64>) {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let base = Generator::new(&pack, "mines").expect("the map type exists");
    let (mut centred, mut embedded, mut set_pieces, mut retried, mut debris) = (0, 0, 0, 0, 0);
    let n = seeds.clone().count();
    for seed in seeds {
        let depth = 1 + (seed % 8) as u32;
        let map = base.clone().depth(depth).generate(seed).unwrap_or_else(|e| panic!("mines seed {seed}: {e}"));
        let at = |e: String| format!("mines seed {seed} depth {depth}: {e}");
        common::connected(&map).unwrap_or_else(|e| panic!("{}", at(e)));
        common::prefabs_intact(&map, &pack).unwrap_or_else(|e| panic!("{}", at(e)));
        common::regions_consistent(&map).unwrap_or_else(|e| panic!("{}", at(e)));
        walled_tightly(&map, &pack).unwrap_or_else(|e| panic!("{}", at(e)));
        for link in map.links() {
            assert!(map.is_walkable(link.at), "{}", at(format!("the link at {} is not joined", link.at)));
        }
        for o in map.objects() {
            for &(p, _) in &o.cells {
                assert!(map.is_walkable(p), "{}", at(format!("{:?} {:?} in rock at {p}", o.kind, o.tag)));
            }
        }
        let count = |role: Role| map.terrain().cells().iter().filter(|t| t.is(role)).count();
        assert!(count(Role::StairsUp) >= 1 && count(Role::StairsDown) >= 1, "{}", at("no way in or out".into()));
        for placed in map.prefabs() {
            match pack.prefab(&placed.name).map(|p| p.style()) {
                Some(Style::Centered) => centred_holds(&map, placed).unwrap_or_else(|e| panic!("{}", at(e))),
                Some(Style::Embedded) => embedded_holds(&map, &pack, placed).unwrap_or_else(|e| panic!("{}", at(e))),
                _ => {}
            }
            match placed.encounter.as_ref().map(|e| e.style) {
                Some(Style::Centered) => centred += 1,
                Some(Style::Embedded) => embedded += 1,
                Some(other) => panic!("{}", at(format!("a {other} encounter in the mines"))),
                None => set_pieces += usize::from(placed.name != "mine_adit" && placed.name != "cage_landing"),
            }
        }
        retried += usize::from(map.trace().events().iter().any(|e| e.stage == "generate"));
        debris += map.objects().iter().filter(|o| o.kind == prefabric::ObjectKind::Debris).count();
    }
    // Means per map: the mines ask for 10-14 encounters of both styles, a set
    // piece or two (besides the way out), and rubble along the walls.
    assert!(centred >= 3 * n && embedded >= 5 * n, "{centred} centred and {embedded} embedded in {n} maps");
    assert!(set_pieces >= 2 * n, "{set_pieces} set pieces and ways out in {n} maps");
    assert!(debris >= 20 * n, "{debris} pieces of debris in {n} maps");
    assert!(retried * 100 <= n, "{retried} of {n} maps needed another attempt");
}

#[test]
fn the_default_mines_hold_every_invariant_seeds_0_to_499() {
    mines_hold(0..500);
}

#[test]
fn the_default_mines_hold_every_invariant_seeds_500_to_999() {
    mines_hold(500..1000);
}

#[test]
fn the_default_mines_hold_every_invariant_seeds_1000_to_1499() {
    mines_hold(1000..1500);
}

#[test]
fn the_default_mines_hold_every_invariant_seeds_1500_to_1999() {
    mines_hold(1500..2000);
}

#[test]
fn the_same_seed_gives_the_same_mines() {
    let pack = Pack::embedded().expect("the embedded pack loads");
    for (seed, depth) in [(3, 1), (77, 5)] {
        let generator = Generator::new(&pack, "mines").expect("exists").depth(depth);
        let a = render::json(&generator.generate(seed).expect("generates"), &pack);
        let b = render::json(&generator.clone().generate(seed).expect("generates"), &pack);
        assert_eq!(a, b, "seed {seed}");
        assert!(a.contains("\"style\":\"centered\"") && a.contains("\"style\":\"embedded\""), "seed {seed}");
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
