//! The chain layout (Golden Krone Hotel, seed 002) on a pack written here: its
//! invariants over many seeds, hallways scaled back to fit, extra connections and
//! overlay rooms, a whole-level prefab, a maze from one tiny prefab, mixed
//! generators and features on a chained map.

use crate::common;

use prefabric::content::SourceFile;
use prefabric::content::maptype::LayoutGenerator;
use prefabric::{Dir, Generator, Limits, Map, Pack, Point, RegionKind, Role, Stage, render};

const PREFABS: &str = r#"
prefab diamond
tags: shape
terrain:
????#*#????
???##.##???
??##...##??
?##.....##?
##.......##
*....>....*
##.......##
?##.....##?
??##...##??
???##.##???
????#*#????

prefab round
tags: shape
terrain:
???##*##???
??##...##??
?##.....##?
?#.......#?
*.........*
?#.......#?
?##.....##?
??##...##??
???##*##???

prefab cross
tags: shape
terrain:
???##*##???
???#...#???
???#...#???
####...####
*.........*
####...####
???#...#???
???#...#???
???##*##???

prefab lobby
terrain:
######*#####*######
#.................#
#..#...#...#...#..#
#.................#
*.......<.........*
#.................#
#..#...#...#...#..#
#.................#
######*#####*######
machines:
...................
...................
...................
...................
.........╔╗........
.........╚╝........
...................
...................
...................

prefab tutorial
transforms: none
terrain:
########################################
#......#...............#...............#
#..<...+...............+.......>.......#
#......#...............#...............#
####+######+########+#########+#########
#..........#........#..........#.......#
#..........+........#..........+.......#
#..........#........+..........#.......#
#####+##############################+###
#.........#..........#.................#
#.........#..........#.................#
#.........+..........+.................#
#.........#..........#.................#
#.........#..........#.................#
#.........#..........#.................#
########################################

prefab cell
transforms: none
terrain:
#*#
*.*
#*#

prefab heart
transforms: none
terrain:
###*#*###
#.......#
#.......#
*...<...*
#.......#
*...>...*
#.......#
#.......#
###*#*###

prefab octo
tags: corner
terrain:
???###???
??*...#??
?#.....#?
#.......#
#.......#
?#.....*?
??#...#??
???###???
links:
..^......
.........
.........
.........
.........
........>
.........
.........

prefab gate
terrain:
:::::
:#+#:
:#.#:
:###:
links:
.....
..1..
.....
.....
"#;

const HOTEL: &str = r#"
width = 100
height = 60
generator = "chain"

[chain]
start = "lobby"
target = 40
attempts = 500

[chain.pool]
"tag:shape" = 3

[chain.hallways]
length = [0, 6]

[chain.auto_rooms]
weight = 6

[chain.extra]
flanked = 60
facing = 50
corner = 40

[chain.overlay]
count = [1, 2]
"#;

const WHOLE: &str = r#"
width = 40
height = 16
generator = "chain"

[chain]
start = "tutorial"
target = 1
margin = 0

[chain.auto_rooms]
weight = 0
"#;

const MAZE: &str = r#"
width = 41
height = 31
generator = "chain"

[chain]
start = "heart"
margin = 0
target = 2000
attempts = 20000

[chain.pool]
cell = 1

[chain.hallways]
length = [0, 0]

[chain.extra]
flanked = 0
facing = 0
corner = 0
"#;

const MIXED: &str = r#"
width = 80
height = 50
generator = { chain = 1, tunnelers = 1 }

[chain]
target = 20

[chain.pool]
"tag:shape" = 1

[tunnelers]
width = 1
fill_target = 30

[[starts]]
at = "centre"
"#;

const FEATURED: &str = r#"
width = 80
height = 50
generator = "chain"

[chain]
start = "lobby"
start_at = "west"
target = 20

[chain.pool]
"tag:shape" = 1

[[variants]]
name = "gate"

[[variants.barriers]]
rect = [60, 0, 2, 30]

[[variants.prefabs]]
prefab = "gate"
at = "east"
offset = [-4, 0]
transforms = "r0"
"#;

const CORNERS: &str = r#"
width = 80
height = 50
generator = "chain"

[chain]
start = "cross"
target = 24

[chain.pool]
octo = 2
cross = 1

[chain.hallways]
length = [1, 4]
"#;

const GREEDY: &str = r#"
width = 60
height = 40
generator = "chain"

[chain]
target = 10000
attempts = 1000000

[chain.pool]
"tag:shape" = 1
"#;

const ODD: &str = r#"
width = 90
height = 60
generator = "chain"

[chain]
start = "lobby"
target = 30
unused = "room"
dont_care = "wall"
door_chance = 0

[chain.pool]
"tag:shape" = 2

[chain.hallways]
length = [0, 5]
width = 3

[chain.auto_rooms]
weight = 2

[chain.extra]
flanked = 100
facing = 100
corner = 100

[chain.overlay]
count = [4, 6]
"#;

fn pack() -> Pack {
    let palette = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/palette.toml"))
        .expect("the default palette is readable");
    let file = |path: &str, text: &str| SourceFile { path: path.to_string(), bytes: text.as_bytes().to_vec() };
    let files = vec![
        file("pack.toml", "name = \"chain\"\ndefault_map_type = \"hotel\"\n"),
        SourceFile { path: "palette.toml".into(), bytes: palette },
        file("prefabs/rooms.txt", PREFABS),
        file("maps/hotel.toml", HOTEL),
        file("maps/whole.toml", WHOLE),
        file("maps/maze.toml", MAZE),
        file("maps/mixed.toml", MIXED),
        file("maps/featured.toml", FEATURED),
        file("maps/odd.toml", ODD),
        file("maps/corners.toml", CORNERS),
        file("maps/greedy.toml", GREEDY),
    ];
    Pack::from_files("t", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

fn generate(pack: &Pack, map_type: &str, seed: u64) -> Map {
    Generator::new(pack, map_type)
        .expect("the map type exists")
        .generate(seed)
        .unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"))
}

/// Everything a chained map must hold, checked from the public API.
fn chained_map_holds(pack: &Pack, map: &Map) -> Result<(), String> {
    common::connected(map)?;
    common::prefabs_intact(map, pack)?;
    common::machines_placed(map, pack)?;
    common::walled(map)?;
    common::regions_consistent(map)?;
    hallways_keep_out_of_prefabs(pack, map)?;
    for (index, placed) in map.prefabs().iter().enumerate().filter(|(_, p)| p.stage == Stage::Layout) {
        let oriented = pack.placed(placed).ok_or("unknown prefab")?;
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        let region = placed.region.map(|r| &map.regions()[r as usize]).ok_or("a chained prefab has a region")?;
        if region.kind != RegionKind::Prefab || region.prefab != Some(index) {
            return Err(format!("{} is not its own prefab region", placed.name));
        }
        // Its doors are exactly its used connectors, each a link mark of the map.
        for door in &region.doors {
            let local = door.at - origin;
            if !oriented.links().iter().any(|l| l.at == local && l.dir == door.side) {
                return Err(format!("{}: door {} is not one of its connectors", placed.name, door.at));
            }
            if !map.links().iter().any(|l| l.at == door.at && l.prefab == index) {
                return Err(format!("{}: door {} is not listed as a link", placed.name, door.at));
            }
        }
        // Used connectors are doorways; unused ones became the map type's `unused`
        // terrain, or wall where another prefab's wall covered them.
        let unused = pack
            .map_type(map.map_type())
            .and_then(|m| {
                m.generators.iter().find_map(|g| match &g.generator {
                    LayoutGenerator::Chain(c) => Some(c.unused),
                    _ => None,
                })
            })
            .ok_or("a chained map type")?;
        for link in oriented.links() {
            let at = origin + link.at;
            let t = map.terrain_at(at).ok_or("connector off the map")?;
            let used = region.doors.iter().any(|d| d.at == at) || map.links().iter().any(|l| l.at == at);
            if used && !t.is_walkable() {
                return Err(format!("{}: used connector {at} is {t}", placed.name));
            }
            if !used && t != unused && !t.is(Role::Wall) {
                return Err(format!("{}: unused connector {at} became {t}, not {unused} or wall", placed.name));
            }
        }
    }
    Ok(())
}

/// No corridor cell lies on a drawn (not `?`) cell of a placed prefab.
fn hallways_keep_out_of_prefabs(pack: &Pack, map: &Map) -> Result<(), String> {
    for placed in map.prefabs() {
        let oriented = pack.placed(placed).ok_or("unknown prefab")?;
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        for p in placed.bounds.points() {
            // Earth a prefab draws stays diggable on purpose.
            let drawn = oriented.cells()[p - origin].is_some_and(|t| !t.is(Role::Earth));
            let in_corridor = map.region_at(p).is_some_and(|r| r.kind == RegionKind::Corridor);
            if drawn && in_corridor && !oriented.is_link_path(p - origin) {
                return Err(format!("a hallway runs through `{}` at {p}", placed.name));
            }
        }
    }
    Ok(())
}

#[test]
fn chained_maps_hold_every_invariant_over_many_seeds() {
    let pack = pack();
    let mut lengths = [0u32; 7];
    let (mut flanked, mut facing, mut corner, mut overlays) = (0, 0, 0, 0);
    for seed in 0..400 {
        let map = generate(&pack, "hotel", seed);
        if let Err(e) = chained_map_holds(&pack, &map) {
            panic!("seed {seed}: {e}");
        }
        let stats = map.layout_stats().chain.clone().expect("a chain layout has chain stats");
        assert_eq!(map.layout_stats().generator, "chain");
        assert!(stats.placed <= 40 && stats.tries <= 500, "seed {seed}: {stats:?}");
        assert!(stats.placed >= 30, "seed {seed}: only {} of 40 placed", stats.placed);
        assert_eq!(stats.hallway_lengths.len() as u32 + 1, stats.placed, "one hallway per joined piece");
        for &l in &stats.hallway_lengths {
            lengths[l as usize] += 1;
        }
        // Every try is traced, placed or scrapped, with its number.
        let tries = map.trace().events().iter().filter(|e| e.message.starts_with("try ")).count();
        assert_eq!(tries as u32, stats.tries, "seed {seed}");
        flanked += stats.flanked;
        facing += stats.facing;
        corner += stats.corner;
        overlays += stats.overlays;
    }
    assert!(lengths.iter().all(|&n| n > 0), "every hallway length 0-6 occurs: {lengths:?}");
    assert!(flanked > 0 && facing > 0 && corner > 0 && overlays > 0, "{flanked} {facing} {corner} {overlays}");
}

#[test]
fn the_same_seed_gives_the_same_map() {
    let test_pack = pack();
    let default_pack = Pack::embedded().expect("the embedded pack loads");
    let cases = [
        (&test_pack, "hotel"),
        (&test_pack, "mixed"),
        (&test_pack, "featured"),
        (&default_pack, "hotel"),
        (&default_pack, "maze"),
    ];
    for (pack, map_type) in cases {
        for seed in [3, 77] {
            let a = render::json(&generate(pack, map_type, seed), pack);
            let b = render::json(&generate(pack, map_type, seed), pack);
            assert_eq!(a, b, "{map_type} seed {seed}");
            // A generator made afresh (its prepared prefabs too) gives the same bytes.
            let again = Generator::new(pack, map_type).expect("exists").generate(seed).expect("generates");
            assert_eq!(a, render::json(&again, pack), "{map_type} seed {seed}");
        }
    }
}

#[test]
fn hallways_are_scaled_back_until_the_prefab_fits() {
    let pack = pack();
    let mut shortened = 0;
    for seed in 0..50 {
        let map = generate(&pack, "hotel", seed);
        for e in map.trace().events() {
            // "... by a 2-cell hallway (5..3 did not fit)": the longest length did not
            // fit, shorter ones were tried in turn, and the first that fitted is used.
            if let Some((head, tried)) = e.message.split_once("-cell hallway (")
                && let Some(used) = head.rsplit(' ').next()
            {
                let used: u32 = used.parse().expect("a length");
                let (from, to) = tried.trim_end_matches(" did not fit)").split_once("..").expect("a range");
                let (from, to): (u32, u32) = (from.parse().unwrap(), to.parse().unwrap());
                assert!(from >= to && to == used + 1, "{}", e.message);
                shortened += 1;
            }
        }
    }
    assert!(shortened > 20, "hallways were shortened only {shortened} times");
}

#[test]
fn a_whole_level_prefab_is_the_whole_map() {
    let pack = pack();
    let map = generate(&pack, "whole", 5);
    let drawn = render::ascii(&map, pack.palette());
    let expected: String = PREFABS
        .split("prefab tutorial\ntransforms: none\nterrain:\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .map(|grid| grid.lines().map(|l| format!("{l}\n")).collect())
        .expect("the tutorial prefab");
    assert_eq!(drawn, expected);
    assert_eq!(map.prefabs().len(), 1);
    assert_eq!(map.layout_stats().chain.as_ref().map(|c| c.placed), Some(1));
}

#[test]
fn a_start_without_connectors_that_must_be_joined_is_an_error_at_load() {
    // The whole-level prefab is fine alone (`target = 1`, above); asked to be
    // joined by more, it is refused before any map, at the map type's line.
    let palette = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/palette.toml"))
        .expect("the default palette is readable");
    let file = |path: &str, text: &str| SourceFile { path: path.to_string(), bytes: text.as_bytes().to_vec() };
    let files = vec![
        file("pack.toml", "name = \"chain\"\ndefault_map_type = \"whole\"\n"),
        SourceFile { path: "palette.toml".into(), bytes: palette },
        file("prefabs/rooms.txt", PREFABS),
        file("maps/whole.toml", &WHOLE.replace("target = 1", "target = 5").replace("weight = 0", "weight = 3")),
    ];
    let problems = Pack::from_files("t", files, Limits::default()).expect_err("refused").to_string();
    assert!(
        problems.contains("t/maps/whole.toml:7:9: invalid: start prefab `tutorial` has no connector, so nothing can join it, but the chain places 4 more prefabs (target = 5)"),
        "{problems}"
    );
    assert!(problems.contains("the prefab is at t/prefabs/rooms.txt:"), "{problems}");
}

#[test]
fn one_tiny_prefab_makes_a_maze() {
    let pack = pack();
    for seed in 0..20 {
        let map = generate(&pack, "maze", seed);
        chained_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let heart = map.prefabs()[0].bounds;
        let open = |p: Point| map.is_walkable(p) && !heart.contains(p);
        // Corridors one cell wide: no 2x2 block of floor outside the heart.
        for p in map.bounds().points() {
            let block = [p, p + Point::new(1, 0), p + Point::new(0, 1), p + Point::new(1, 1)];
            assert!(!block.iter().all(|&q| open(q)), "seed {seed}: a 2x2 open block at {p}");
        }
        // A perfect maze: without extra connections the cells form a forest hanging off
        // the heart, one edge fewer than cells per tree.
        let cells: Vec<Point> = map.bounds().points().filter(|&p| open(p)).collect();
        let edges = cells
            .iter()
            .map(|&p| [Dir::East, Dir::South].iter().filter(|d| open(p + d.delta())).count())
            .sum::<usize>();
        let trees = components(&cells, &open);
        assert_eq!(edges + trees, cells.len(), "seed {seed}: the maze has a loop");
        // It fills the map: most of the lattice of cells is taken.
        let lattice = ((map.width() - 1) / 2) * ((map.height() - 1) / 2);
        let placed = map.layout_stats().chain.as_ref().map_or(0, |c| c.placed) as i32;
        assert!(placed * 100 >= lattice * 85, "seed {seed}: {placed} cells of a {lattice}-cell lattice");
    }
}

/// 4-connected components among `cells`.
fn components(cells: &[Point], open: &dyn Fn(Point) -> bool) -> usize {
    let mut seen: std::collections::BTreeSet<(i32, i32)> = std::collections::BTreeSet::new();
    let mut count = 0;
    for &start in cells {
        if !seen.insert((start.x, start.y)) {
            continue;
        }
        count += 1;
        let mut stack = vec![start];
        while let Some(p) = stack.pop() {
            for d in Dir::ALL {
                let q = p + d.delta();
                if open(q) && seen.insert((q.x, q.y)) {
                    stack.push(q);
                }
            }
        }
    }
    count
}

#[test]
fn connectors_on_cut_corners_are_joined_by_hallways() {
    let pack = pack();
    let mut octos = 0;
    for seed in 0..40 {
        let map = generate(&pack, "corners", seed);
        chained_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        octos += map.prefabs().iter().filter(|p| p.name == "octo").count();
    }
    // Hallways are 1-4 long here, so every octagon was joined at the end of one.
    assert!(octos >= 200, "{octos} octagons in 40 maps");
}

#[test]
fn a_target_beyond_the_map_ends_when_no_connector_is_left() {
    // Connectors where nothing fits are given up after a few scrapped tries, so a
    // full map stops long before its million tries.
    let pack = pack();
    for seed in 0..5 {
        let map = generate(&pack, "greedy", seed);
        let stats = map.layout_stats().chain.clone().expect("chain stats");
        assert!(stats.tries < 5000 && !stats.timed_out, "seed {seed}: {stats:?}");
        let stopped =
            map.trace().events().iter().any(|e| e.message.ends_with("no placed piece has a free connector left"));
        assert!(stopped, "seed {seed}");
    }
}

#[test]
fn odd_settings_keep_every_invariant() {
    // Wide hallways, unused connectors left open as niches, `?` walled in, every
    // extra connection made, many overlay rooms.
    let pack = pack();
    let mut overlays = 0;
    for seed in 0..100 {
        let map = generate(&pack, "odd", seed);
        chained_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let retried = map.trace().events().iter().find(|e| e.stage == "generate");
        assert!(retried.is_none(), "seed {seed}: {retried:?}");
        overlays += map.layout_stats().chain.as_ref().map_or(0, |c| c.overlays);
    }
    assert!(overlays >= 200, "{overlays} overlay rooms in 100 maps");
}

#[test]
fn a_map_type_may_mix_generators() {
    let pack = pack();
    let mut seen = std::collections::BTreeMap::new();
    for seed in 0..40 {
        let map = generate(&pack, "mixed", seed);
        common::connected(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::prefabs_intact(&map, &pack).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        *seen.entry(map.layout_stats().generator).or_insert(0) += 1;
        let chose = map.trace().events().iter().any(|e| e.message.starts_with("generator `"));
        assert!(chose, "seed {seed}: the choice of generator is traced");
    }
    assert!(seen.get("chain").is_some_and(|&n| n >= 10), "{seen:?}");
    assert!(seen.get("tunnelers").is_some_and(|&n| n >= 10), "{seen:?}");
}

#[test]
fn features_are_joined_to_the_chain() {
    let pack = pack();
    for seed in 0..60 {
        let map = generate(&pack, "featured", seed);
        chained_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let retried = map.trace().events().iter().find(|e| e.stage == "generate");
        assert!(retried.is_none(), "seed {seed}: {retried:?}");
        assert!(map.trace().events().iter().any(|e| e.message.contains("joins what the chain did not reach")));
        assert_eq!(map.prefabs()[0].name, "gate");
        assert_eq!(map.prefabs()[0].stage, Stage::Feature);
        for p in prefabric::Rect::new(60, 0, 2, 30).points() {
            assert_eq!(map.terrain_at(p).map(|t| t.role()), Some(Role::Blocked), "seed {seed}: barrier at {p}");
        }
    }
}

/// The default pack's `hotel` and `maze` over 2,000 seeds each, in halves so the
/// suite runs them side by side.
fn default_map_type_holds(map_type: &str, seeds: std::ops::Range<u64>) {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let generator = Generator::new(&pack, map_type).expect("the map type exists");
    let (mut encounters, mut furnished, mut referenced) = (0, 0, 0);
    for seed in seeds.clone() {
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
        chained_map_holds(&pack, &map).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
        let stairs =
            |role: Role| map.bounds().points().filter(|&p| map.terrain_at(p).is_some_and(|t| t.is(role))).count();
        assert!(
            stairs(Role::StairsUp) >= 1 && stairs(Role::StairsDown) >= 1,
            "{map_type} seed {seed}: stairs both ways"
        );
        encounters += map.prefabs().iter().filter(|p| p.stage == Stage::Encounter).count();
        furnished += map.objects().iter().filter(|o| o.furnishing.is_some()).count();
        referenced += map.objects().iter().filter(|o| o.kind != prefabric::ObjectKind::Machine).count();
    }
    if map_type == "hotel" {
        let n = seeds.count();
        assert!(encounters >= n, "{encounters} encounters in {n} hotels: they embed into the auto-rooms");
        assert!(furnished >= n * 10, "{furnished} furnished objects in {n} hotels");
        assert!(referenced >= n * 10, "{referenced} objects from the prefabs' definition files in {n} hotels");
    }
}

#[test]
fn the_default_hotel_holds_every_invariant_seeds_0_to_999() {
    default_map_type_holds("hotel", 0..1000);
}

#[test]
fn the_default_hotel_holds_every_invariant_seeds_1000_to_1999() {
    default_map_type_holds("hotel", 1000..2000);
}

#[test]
fn the_default_maze_holds_every_invariant_seeds_0_to_999() {
    default_map_type_holds("maze", 0..1000);
}

#[test]
fn the_default_maze_holds_every_invariant_seeds_1000_to_1999() {
    default_map_type_holds("maze", 1000..2000);
}

/// The README's chained map type example, loaded as it is written there.
#[test]
fn the_readme_example_loads_and_chains() {
    let files = common::readme_example("Writing a chained map type", "wing");
    assert_eq!(files.len(), 4, "two example files in the section");
    let pack = Pack::from_files("README", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    for seed in 0..40 {
        let map = generate(&pack, "wing", seed);
        chained_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(map.layout_stats().chain.as_ref().map(|c| c.placed), Some(14), "seed {seed}");
        assert!(map.prefabs().iter().any(|p| p.name == "parlour"), "seed {seed}");
    }
}
