//! The pathways layout (Ascension, seed 004) on a pack written here and on the
//! default `catacombs`: its invariants over many seeds, hallways that keep out of
//! rooms and their padding, merges, second connections, rollbacks, rooms over
//! hallways, hallway prefabs, secret doors and features joined.

use crate::common;

use prefabric::content::maptype::LayoutGenerator;
use prefabric::{FurnishPart, Generator, Limits, Map, Pack, Point, RegionKind, Role, Stage, render};

const PREFABS: &str = r#"
prefab entry
terrain:
###*###
#.....#
*..<..*
#.....#
###*###

prefab vault
tags: room
transforms: all
terrain:
###*###
#.....#
*.....*
#.....#
###*###

prefab chapel
tags: room
transforms: all
terrain:
??##*##??
?##...##?
##.....##
*.......*
##.....##
?##...##?
??##*##??

prefab ell
tags: room
transforms: all
terrain:
#####????
#...#????
#...*????
#...#####
*.......#
#...+...*
#########

prefab cell
tags: room narrow
transforms: all
terrain:
#####
#...*
#...#
#####

prefab descent
transforms: all
terrain:
#*###
#...#
#.>.*
#####

prefab crossing
tags: hallway
transforms: all
terrain:
?#*#?
##.##
*...*
##.##
?#*#?

prefab causeway
tags: hallway
transforms: all
terrain:
?????????????????????????????????????????????#*#?
#############################################...#
*...............................................*
#################################################

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

const CRYPTS: &str = r#"
width = 90
height = 60
generator = "pathways"

[pathways]
start = "entry"
rooms = 16
attempts = 60

[pathways.pool]
"tag:room" = 2
descent = { weight = 1, min = 1, max = 1 }

[pathways.auto_rooms]
weight = 2

[pathways.secondary]
chance = 50

[pathways.hallway_prefabs]
count = [1, 2]
pool = { crossing = 1 }

[pathways.secret_doors]
chance = 100
min_length = 8
"#;

const OVER: &str = r#"
width = 80
height = 50
generator = "pathways"

[pathways]
rooms = 18
over_hallways = true
padding = 0
spread = 0

[pathways.pool]
"tag:room" = 1

[pathways.hallways]
width = 2
turn_cost = 0
beside_cost = 0
wander = 30
"#;

const OVER_NARROW: &str = r#"
width = 80
height = 50
generator = "pathways"

[pathways]
rooms = 18
over_hallways = true
padding = 1
spread = 6

[pathways.pool]
"tag:room" = 1

[pathways.secondary]
chance = 60

[pathways.secret_doors]
chance = 100
min_length = 4
"#;

const LEAKY: &str = r#"
width = 80
height = 50
generator = "pathways"

[pathways]
rooms = 18
padding = 0
unused = "room"

[pathways.pool]
"tag:room" = 1

[pathways.secret_doors]
chance = 100
min_length = 0
"#;

const WIDE: &str = r#"
width = 90
height = 60
generator = "pathways"

[pathways]
rooms = 14
padding = 2
spread = 0
door_chance = 0
unused = "room"

[pathways.pool]
"tag:room" = 1

[pathways.hallways]
width = 3
turn_cost = 100
wander = 0

[pathways.secondary]
chance = 100
to_nearest = false
"#;

const GATED: &str = r#"
width = 50
height = 24
generator = "pathways"

[pathways]
rooms = 8
start_jitter = [4, 4]

[pathways.pool]
"tag:room" = 1

[[variants]]
name = "gate"

[[variants.prefabs]]
prefab = "gate"
at = "north"
transforms = "all"
"#;

const PIECES: &str = r#"
width = 70
height = 50
generator = "pathways"

[pathways]
rooms = 12

[pathways.pool]
"tag:room" = 1

[pathways.hallway_prefabs]
count = [3, 4]
pool = { crossing = { weight = 1, max = 2 }, causeway = 1 }
"#;

const WALLED: &str = r#"
width = 70
height = 50
generator = "pathways"

[pathways]
start = "vault"
rooms = 14
padding = 2

[pathways.pool]
cell = 1

[[variants]]
name = "pillars"

[[variants.barriers]]
rect = [10, 8, 3, 34]

[[variants.barriers]]
rect = [22, 4, 3, 30]

[[variants.barriers]]
rect = [44, 16, 3, 30]

[[variants.barriers]]
rect = [56, 4, 3, 30]

[[variants.prefabs]]
prefab = "gate"
at = "north"
offset = [8, 0]
transforms = "r180"
"#;

fn pack() -> Pack {
    common::test_pack(
        "pathways",
        "crypts",
        &[
            ("prefabs/rooms.txt", PREFABS),
            ("maps/crypts.toml", CRYPTS),
            ("maps/over.toml", OVER),
            ("maps/walled.toml", WALLED),
            ("maps/wide.toml", WIDE),
            ("maps/leaky.toml", LEAKY),
            ("maps/over_narrow.toml", OVER_NARROW),
            ("maps/gated.toml", GATED),
            ("maps/pieces.toml", PIECES),
        ],
    )
}

fn generate(pack: &Pack, map_type: &str, seed: u64) -> Map {
    Generator::new(pack, map_type)
        .expect("the map type exists")
        .generate(seed)
        .unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"))
}

/// The padding, `over_hallways` and whether closed doorways become walkable
/// niches, of the map's pathways.
fn settings(pack: &Pack, map: &Map) -> (i32, bool, bool) {
    pack.map_type(map.map_type())
        .and_then(|m| {
            m.generators.iter().find_map(|g| match &g.generator {
                LayoutGenerator::Pathways(p) => Some((p.padding, p.over_hallways, p.unused.is_walkable())),
                _ => None,
            })
        })
        .expect("a pathways map type")
}

/// Everything a pathways map must hold, checked from the public API.
fn pathways_map_holds(pack: &Pack, map: &Map) -> Result<(), String> {
    common::connected(map)?;
    common::prefabs_intact(map, pack)?;
    common::machines_placed(map, pack)?;
    common::walled(map)?;
    common::regions_consistent(map)?;
    assert_eq!(map.layout_stats().generator, "pathways");
    // The first attempt stands: nothing the pathways made failed validation.
    if let Some(retry) = map.trace().events().iter().find(|e| e.stage == "generate") {
        return Err(format!("the map needed another attempt: {retry}"));
    }
    let (padding, over, niches) = settings(pack, map);
    hallways_keep_clear_of_rooms(pack, map, if over { 0 } else { padding })?;
    // Every doorway opened leads somewhere: the cell in front of it is walkable.
    if !niches {
        for r in map.regions().iter().filter(|r| matches!(r.kind, RegionKind::Room | RegionKind::Prefab)) {
            let layout = r.prefab.is_none_or(|i| map.prefabs()[i].stage == Stage::Layout);
            if let Some(d) = r.doors.iter().filter(|_| layout).find(|d| !map.is_walkable(d.at + d.side.delta())) {
                return Err(format!(
                    "{} {}'s doorway {} leads into {:?}",
                    r.kind.name(),
                    r.id,
                    d.at,
                    map.terrain_at(d.at + d.side.delta())
                ));
            }
        }
    }
    // A secret door is the only way into its room: no other doorway (a niche
    // of `unused` floor included) has a walkable cell in front of it.
    let secret =
        |r: &&prefabric::Region| r.doors.iter().any(|d| map.terrain_at(d.at).is_some_and(|t| t.is(Role::SecretDoor)));
    for r in map.regions().iter().filter(secret) {
        let ways = r.doors.iter().filter(|d| map.is_walkable(d.at + d.side.delta())).count();
        if ways != 1 {
            return Err(format!("{} {} has a secret door and {ways} ways in", r.kind.name(), r.id));
        }
    }
    for (index, placed) in map.prefabs().iter().enumerate().filter(|(_, p)| p.stage == Stage::Layout) {
        let oriented = pack.placed(placed).ok_or("unknown prefab")?;
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        let region = placed.region.map(|r| &map.regions()[r as usize]).ok_or("a room has a region")?;
        if region.kind != RegionKind::Prefab || region.prefab != Some(index) {
            return Err(format!("{} is not its own prefab region", placed.name));
        }
        if region.doors.is_empty() {
            return Err(format!("{} at {origin} has no doorway opened", placed.name));
        }
        // Its doors are exactly its opened doorways, each a link of the map, and
        // walkable; its closed doorways are wall.
        for door in &region.doors {
            if !oriented.links().iter().any(|l| l.at == door.at - origin && l.dir == door.side) {
                return Err(format!("{}: door {} is not one of its doorways", placed.name, door.at));
            }
            if !map.links().iter().any(|l| l.at == door.at && l.prefab == index) {
                return Err(format!("{}: door {} is not listed as a link", placed.name, door.at));
            }
        }
        for link in oriented.links() {
            let at = origin + link.at;
            let t = map.terrain_at(at).ok_or("doorway off the map")?;
            let opened = region.doors.iter().any(|d| d.at == at);
            if opened != t.is_walkable() || (!opened && !t.is(Role::Wall)) {
                return Err(format!("{}: doorway {at} (opened: {opened}) is {t}", placed.name));
            }
        }
    }
    Ok(())
}

/// No hallway cell lies on a room's cells or within `padding` of them, except on
/// a doorstep: the cells straight out of an opened doorway, `padding` long.
/// Hallway prefabs (tag `hallway`) have no padding: hallways only keep off them.
fn hallways_keep_clear_of_rooms(pack: &Pack, map: &Map, padding: i32) -> Result<(), String> {
    let corridor = |p: Point| map.region_at(p).is_some_and(|r| r.kind == RegionKind::Corridor);
    let mut doorsteps: Vec<Point> = Vec::new();
    for r in map.regions().iter().filter(|r| matches!(r.kind, RegionKind::Room | RegionKind::Prefab)) {
        for d in &r.doors {
            doorsteps.extend((1..=padding).map(|k| d.at + d.side.delta() * k));
        }
    }
    let mut rooms: Vec<(String, Vec<Point>, i32)> = Vec::new();
    for placed in map.prefabs().iter().filter(|p| p.stage == Stage::Layout) {
        let oriented = pack.placed(placed).ok_or("unknown prefab")?;
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        let cells = oriented.cells().bounds().points().filter(|&q| oriented.cells()[q].is_some()).map(|q| origin + q);
        let pad = if oriented.tags().iter().any(|t| t == "hallway") { 0 } else { padding };
        rooms.push((placed.name.clone(), cells.collect(), pad));
    }
    for r in map.regions().iter().filter(|r| r.kind == RegionKind::Room) {
        rooms.push((format!("room {}", r.id), r.bounds.expand(1).points().collect(), padding));
    }
    for (name, cells, pad) in &rooms {
        for &c in cells {
            for dy in -pad..=*pad {
                for dx in -pad..=*pad {
                    let p = c + Point::new(dx, dy);
                    let on_room = dx == 0 && dy == 0;
                    if corridor(p) && (on_room || !doorsteps.contains(&p)) {
                        return Err(format!("a hallway at {p} runs through {name} or its padding (cell {c})"));
                    }
                }
            }
        }
    }
    Ok(())
}

#[test]
fn pathways_maps_hold_every_invariant_over_many_seeds() {
    let pack = pack();
    let (mut merges, mut secondary, mut secret, mut pieces, mut through) = (0, 0, 0, 0, 0);
    for seed in 0..300 {
        let map = generate(&pack, "crypts", seed);
        pathways_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let stats = map.layout_stats().pathways.clone().expect("a pathways layout has pathways stats");
        assert!(stats.rooms <= 16 && stats.rooms >= 10, "seed {seed}: {stats:?}");
        assert!(stats.tries <= 16 * 60 + 2 * 60, "seed {seed}: {stats:?}");
        // One hallway per room and hallway prefab joined, one per second connection.
        let joined = stats.rooms - 1 + stats.hallway_prefabs;
        assert!(stats.hallway_lengths.len() as u32 >= joined + stats.secondary, "seed {seed}: {stats:?}");
        // Every room placed is traced, and every second connection.
        let traced = |start: &str| {
            map.trace().events().iter().filter(|e| e.stage == "layout" && e.message.starts_with(start)).count() as u32
        };
        assert_eq!(traced("room `") + traced("hallway prefab `") - stats.rollbacks, joined, "seed {seed}");
        let made = map
            .trace()
            .events()
            .iter()
            .filter(|e| e.outcome == prefabric::Outcome::Chose && e.message.starts_with("second connection from "))
            .count() as u32;
        assert_eq!(made, stats.secondary, "seed {seed}");
        // A merge is traced with the cell it merged at, a hallway cell.
        for e in map.trace().events().iter().filter(|e| e.message.contains("merged into a hallway at (")) {
            let at = e.message.rsplit("at (").next().unwrap().trim_end_matches(')');
            let (x, y) = at.split_once(", ").unwrap();
            let p = Point::new(x.parse().unwrap(), y.parse().unwrap());
            assert!(map.is_walkable(p), "seed {seed}: merge point {p} is not walkable");
        }
        let descents = map.prefabs().iter().filter(|p| p.name == "descent").count();
        assert_eq!(descents, 1, "seed {seed}: `descent` has min 1, max 1");
        merges += stats.merges;
        secondary += stats.secondary;
        secret += stats.secret_doors;
        pieces += stats.hallway_prefabs;
        // A hallway prefab with two doorways or more open has hallways through it.
        through += map
            .prefabs()
            .iter()
            .filter(|p| p.name == "crossing")
            .filter(|p| p.region.is_some_and(|r| map.regions()[r as usize].doors.len() >= 2))
            .count();
        let secret_cells = map.terrain().cells().iter().filter(|t| t.is(Role::SecretDoor)).count() as u32;
        assert_eq!(secret_cells, stats.secret_doors, "seed {seed}");
    }
    assert!(merges > 300, "hallways merge: {merges}");
    assert!(secondary > 300, "second connections: {secondary}");
    assert!(secret > 30, "dead ends behind secret doors: {secret}");
    assert!(pieces > 300 && through > 30, "hallway prefabs placed {pieces}, passed through {through}");
}

#[test]
fn rooms_may_be_dropped_over_hallways() {
    let pack = pack();
    let (mut covered, mut rollbacks) = (0, 0);
    for (map_type, seed) in ["over", "over_narrow"].into_iter().flat_map(|m| (0..300).map(move |s| (m, s))) {
        let map = generate(&pack, map_type, seed);
        pathways_map_holds(&pack, &map).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
        covered += map.trace().events().iter().filter(|e| e.message.contains(" hallway cells (")).count();
        rollbacks += map.layout_stats().pathways.as_ref().map_or(0, |p| p.rollbacks);
    }
    assert!(covered > 100, "rooms over hallways: {covered}");
    assert!(rollbacks > 0, "a room cutting a hallway something needed is rolled back: {rollbacks}");
}

#[test]
fn wide_hallways_and_odd_settings_keep_every_invariant() {
    let pack = pack();
    for seed in 0..200 {
        let map = generate(&pack, "wide", seed);
        pathways_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let leaky = generate(&pack, "leaky", seed);
        pathways_map_holds(&pack, &leaky).unwrap_or_else(|e| panic!("leaky seed {seed}: {e}"));
        // Closed doorways became floor niches (`unused = "room"`), no doorway a door.
        for placed in map.prefabs().iter().filter(|p| p.stage == Stage::Layout) {
            let oriented = pack.placed(placed).expect("known");
            for link in oriented.links() {
                let at = Point::new(placed.bounds.x, placed.bounds.y) + link.at;
                let t = map.terrain_at(at).expect("on the map");
                assert!(t.is_floor(), "seed {seed}: doorway {at} of {} is {t}", placed.name);
            }
        }
    }
}

#[test]
fn a_feature_beside_the_first_room_keeps_its_way_out() {
    let pack = pack();
    for seed in 0..300 {
        let map = generate(&pack, "gated", seed);
        pathways_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(map.trace().events().iter().any(|e| e.message.starts_with("feature `gate`'s link")), "seed {seed}");
    }
}

#[test]
fn hallway_prefabs_that_find_no_place_leave_the_rooms_to_go_on() {
    let pack = pack();
    let (mut rooms, mut skipped) = (Vec::new(), 0);
    for seed in 0..200 {
        let map = generate(&pack, "pieces", seed);
        pathways_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        rooms.push(map.layout_stats().pathways.as_ref().map_or(0, |p| p.rooms));
        skipped += map.trace().events().iter().filter(|e| e.message.starts_with("hallway prefab slot")).count();
        let crossings = map.prefabs().iter().filter(|p| p.name == "crossing").count();
        assert!(crossings <= 2, "seed {seed}: {crossings} crossings, max 2");
    }
    rooms.sort_unstable();
    assert!(skipped > 20, "the 49-cell causeway often finds no place: {skipped} skipped");
    assert_eq!(rooms[rooms.len() / 2], 12, "rooms are placed all the same: {rooms:?}");
}

#[test]
fn rooms_that_cannot_be_joined_are_rolled_back_one_by_one() {
    let pack = pack();
    let mut rollbacks = 0;
    for seed in 0..200 {
        let map = generate(&pack, "walled", seed);
        pathways_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let stats = map.layout_stats().pathways.clone().expect("stats");
        let rolled = map.trace().events().iter().filter(|e| e.message.contains(" rolled back: ")).count() as u32;
        assert_eq!(rolled, stats.rollbacks, "seed {seed}: every rollback is traced");
        // Per room: the map itself was never started again.
        assert!(map.trace().events().iter().all(|e| e.stage != "generate"), "seed {seed}");
        rollbacks += stats.rollbacks;
        // The gate's link is joined (connected() above), through its own hallway.
        assert!(map.trace().events().iter().any(|e| e.message.starts_with("feature `gate`'s link")), "seed {seed}");
        for p in prefabric::Rect::new(22, 4, 3, 30).points() {
            assert_eq!(map.terrain_at(p).map(|t| t.role()), Some(Role::Blocked), "seed {seed}: barrier at {p}");
        }
    }
    assert!(rollbacks > 20, "single-doorway cells facing barriers and padding get rolled back: {rollbacks}");
}

#[test]
fn the_same_seed_gives_the_same_map() {
    let test_pack = pack();
    let default_pack = Pack::embedded().expect("the embedded pack loads");
    let cases = [(&test_pack, "crypts"), (&test_pack, "over"), (&test_pack, "walled"), (&default_pack, "catacombs")];
    for (pack, map_type) in cases {
        for seed in [5, 81] {
            let a = render::json(&generate(pack, map_type, seed), pack);
            let b = render::json(&generate(pack, map_type, seed), pack);
            assert_eq!(a, b, "{map_type} seed {seed}");
            let again = Generator::new(pack, map_type).expect("exists").generate(seed).expect("generates");
            assert_eq!(a, render::json(&again, pack), "{map_type} seed {seed}");
        }
    }
}

/// The catacombs' lights and spawners (catalog/catacombs.toml), placed by the
/// rooms' definition files.
const LIGHTS: [&str; 4] = ["brazier", "wall_sconce", "votive_rack", "lantern_post"];
const SPAWNERS: [&str; 3] = ["reanimation_cradle", "restless_tomb", "scarab_hive"];

/// The default pack's `catacombs` over 2,000 seeds, in quarters so the suite runs
/// them side by side.
fn catacombs_hold(seeds: std::ops::Range<u64>) {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let generator = Generator::new(&pack, "catacombs").expect("the map type exists");
    let (mut encounters, mut furnished, mut referenced, mut rooms, mut spawners) = (0, 0, 0, 0, 0);
    let n_maps = seeds.clone().count();
    for seed in seeds.clone() {
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("catacombs seed {seed}: {e}"));
        pathways_map_holds(&pack, &map).unwrap_or_else(|e| panic!("catacombs seed {seed}: {e}"));
        let count = |role: Role| map.terrain().cells().iter().filter(|t| t.is(role)).count();
        assert!(count(Role::StairsUp) >= 1, "seed {seed}: the entrance's stairs up");
        assert_eq!(map.prefabs().iter().filter(|p| p.name == "descent").count(), 1, "seed {seed}: one descent");
        encounters += map.prefabs().iter().filter(|p| p.stage == Stage::Encounter).count();
        furnished += map.objects().iter().filter(|o| o.furnishing.is_some()).count();
        referenced += map.objects().iter().filter(|o| o.kind != prefabric::ObjectKind::Machine).count();
        rooms += map.layout_stats().pathways.as_ref().map_or(0, |p| p.rooms as usize);
        // Each room's own content comes from its reference layer: lights in every
        // level, spawners in most.
        let props = |tags: &[&str]| {
            map.objects()
                .iter()
                .filter(|o| {
                    o.kind == prefabric::ObjectKind::Prop && o.tag.as_deref().is_some_and(|t| tags.contains(&t))
                })
                .count()
        };
        assert!(props(&LIGHTS) >= 4, "seed {seed}: {} lights", props(&LIGHTS));
        spawners += usize::from(props(&SPAWNERS) > 0);
        // Loose floor items only from the floor's categories: no relic lies loose.
        for o in map.objects().iter().filter(|o| o.furnishing.as_ref().is_some_and(|f| f.part == FurnishPart::Item)) {
            let item = pack.catalog().item(o.tag.as_deref().unwrap_or("")).expect("a catalog item");
            assert!(!["relics", "weapon"].contains(&item.category.as_str()), "seed {seed}: loose {}", item.tag);
        }
    }
    assert!(spawners * 2 >= n_maps, "{spawners} of {n_maps} catacombs with a spawner");
    let n = seeds.count();
    assert!(rooms >= n * 16, "{rooms} rooms in {n} catacombs");
    assert!(encounters >= n * 2, "{encounters} encounters in {n} catacombs");
    assert!(furnished >= n * 5, "{furnished} furnished objects in {n} catacombs");
    assert!(referenced >= n * 20, "{referenced} objects from the rooms' definition files in {n} catacombs");
}

#[test]
fn the_default_catacombs_hold_every_invariant_seeds_0_to_499() {
    catacombs_hold(0..500);
}

#[test]
fn the_default_catacombs_hold_every_invariant_seeds_500_to_999() {
    catacombs_hold(500..1000);
}

#[test]
fn the_default_catacombs_hold_every_invariant_seeds_1000_to_1499() {
    catacombs_hold(1000..1500);
}

#[test]
fn the_default_catacombs_hold_every_invariant_seeds_1500_to_1999() {
    catacombs_hold(1500..2000);
}

/// The README's pathways map type example, loaded as it is written there.
#[test]
fn the_readme_example_loads_and_joins_its_rooms() {
    let files = common::readme_example("Writing a pathways map type", "crypt");
    assert_eq!(files.len(), 4, "two example files in the section");
    let pack = Pack::from_files("README", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    for seed in 0..40 {
        let map = generate(&pack, "crypt", seed);
        pathways_map_holds(&pack, &map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let rooms = map.layout_stats().pathways.as_ref().map_or(0, |p| p.rooms);
        assert!(rooms >= 8, "seed {seed}: {rooms} of 10 rooms");
        assert_eq!(map.prefabs()[0].name, "gatehouse", "seed {seed}");
    }
}
