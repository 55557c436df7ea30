//! Encounters embedded into rooms, checked over many seeds on a small pack written
//! here: every limit holds (per map, per world across 25 levels, exclusion groups,
//! depth, door counts), enclosed prefabs face their door, maps stay connected and
//! prefabs intact, and weight words change how often encounters are chosen in the
//! order their numbers say.

mod doors;
mod pools;
mod stairs;

use crate::common;

use prefabric::content::SourceFile;
use prefabric::{Dir, Generator, Limits, Map, Pack, Point, Rect, SkipReason, Style, WorldState};
use std::collections::BTreeMap;

const PALETTE: &str = "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n\":\" = \"earth\"\n";

const PREFABS: &str = "\
prefab acc2
style: accessible
terrain:
..
..
machines:
o.
..

prefab encl3
style: enclosed
terrain:
.#.
...
...

prefab encl5
style: enclosed
transforms: rotations
terrain:
#...#
#.#.#
.....

prefab cub3
style: cubby
terrain:
...
...

prefab fixed
style: enclosed
transforms: none
terrain:
...
...

prefab boxed
style: enclosed
terrain:
#####
#...#
#...#
";

const WEIGHTS: &str = r#"
width = 64
height = 40
[tunnelers]
room_chance = 60
[[starts]]
at = "centre"
[encounters]
count = 1
[[encounters.pool]]
id = "n"
weight = "never"
category = "fluff"
prefabs = ["acc2"]
[[encounters.pool]]
id = "r"
weight = "rare"
category = "fluff"
prefabs = ["acc2"]
[[encounters.pool]]
id = "u"
weight = "uncommon"
category = "fluff"
prefabs = ["acc2"]
[[encounters.pool]]
id = "c"
weight = "common"
category = "fluff"
prefabs = ["acc2"]
[[encounters.pool]]
id = "f"
weight = "frequent"
category = "fluff"
prefabs = ["acc2"]
"#;

const LIMITS: &str = r#"
width = 96
height = 64
[tunnelers]
room_chance = 60
[[starts]]
at = "centre"
[encounters]
count = [20, 30]
[[encounters.pool]]
id = "solo"
weight = "frequent"
category = "reward"
prefabs = ["acc2"]
max_per_map = 1
[[encounters.pool]]
id = "pair"
weight = "common"
category = "danger"
prefabs = ["encl3", "encl5"]
max_per_map = 2
door_width = 2
[[encounters.pool]]
id = "g1"
weight = "common"
category = "fluff"
prefabs = ["acc2"]
group = "g"
[[encounters.pool]]
id = "g2"
weight = "common"
category = "fluff"
prefabs = ["encl3"]
group = "g"
[[encounters.pool]]
id = "unique"
weight = "frequent"
category = "reward"
prefabs = ["encl3"]
max_per_world = 1
[[encounters.pool]]
id = "crown_small"
weight = "frequent"
category = "reward"
prefabs = ["acc2"]
max_per_world = 1
world_group = "crowns"
[[encounters.pool]]
id = "crown_large"
weight = "frequent"
category = "reward"
prefabs = ["encl3"]
max_per_world = 1
world_group = "crowns"
[[encounters.pool]]
id = "deep"
weight = "frequent"
category = "danger"
prefabs = ["acc2"]
depth = [3, 5]
[[encounters.pool]]
id = "split"
weight = 30
category = "danger"
prefabs = ["acc2"]
depth = [[1, 1], [4, 5]]
[[encounters.pool]]
id = "one_door"
weight = "common"
category = "risk-reward"
prefabs = ["acc2"]
doors = 1
max_per_map = 3
[[encounters.pool]]
id = "two_doors"
weight = "common"
category = "risk-reward"
prefabs = ["acc2"]
doors = 2
max_per_map = 3
[[encounters.pool]]
id = "depot"
weight = "common"
category = "reward"
prefabs = ["cub3"]
max_per_map = 3
[[encounters.pool]]
id = "open"
weight = "uncommon"
category = "fluff"
prefabs = ["encl3"]
door = "open"
resize = false
max_per_map = 2
[[encounters.pool]]
id = "boxed"
weight = "uncommon"
category = "danger"
prefabs = ["boxed"]
resize = false
door_width = 3
max_per_map = 2
"#;

const FACING: &str = r#"
width = 64
height = 40
[[starts]]
at = "centre"
[encounters]
count = 200
[[encounters.pool]]
id = "fixed"
weight = "common"
category = "fluff"
prefabs = ["fixed"]
"#;

const SECRET: &str = r#"
width = 64
height = 40
[tunnelers]
room_chance = 60
[[starts]]
at = "centre"
[encounters]
count = [3, 6]
[[encounters.pool]]
id = "stash"
weight = "common"
category = "reward"
prefabs = ["encl3", "encl5"]
door = "secret"
[[encounters.pool]]
id = "wide_stash"
weight = "common"
category = "reward"
prefabs = ["encl3"]
door = "secret"
door_width = 2
"#;

fn pack() -> Pack {
    let files = [
        ("maps/facing.toml", FACING),
        ("maps/secret.toml", SECRET),
        ("pack.toml", "name = \"t\"\ndefault_map_type = \"limits\"\n"),
        ("palette.toml", PALETTE),
        ("prefabs/p.txt", PREFABS),
        ("maps/weights.toml", WEIGHTS),
        ("maps/limits.toml", LIMITS),
    ];
    let files = files.iter().map(|(p, t)| SourceFile { path: p.to_string(), bytes: t.as_bytes().to_vec() }).collect();
    Pack::from_files("t", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

/// Placed encounters of a map: (encounter id, index into `map.prefabs()`).
fn encounters(map: &Map) -> Vec<(&str, usize)> {
    map.prefabs().iter().enumerate().filter_map(|(i, p)| p.encounter.as_ref().map(|e| (e.id.as_str(), i))).collect()
}

/// The walkable runs in the wall line around `r`, per side.
fn openings(map: &Map, r: Rect) -> Vec<(Dir, u32)> {
    let mut out = Vec::new();
    for side in Dir::ALL {
        let cells: Vec<Point> = match side {
            Dir::North => (r.x..r.right()).map(|x| Point::new(x, r.y - 1)).collect(),
            Dir::South => (r.x..r.right()).map(|x| Point::new(x, r.bottom())).collect(),
            Dir::West => (r.y..r.bottom()).map(|y| Point::new(r.x - 1, y)).collect(),
            Dir::East => (r.y..r.bottom()).map(|y| Point::new(r.right(), y)).collect(),
        };
        let mut run = 0;
        for p in cells {
            if map.is_walkable(p) {
                run += 1;
            } else if run > 0 {
                out.push((side, run));
                run = 0;
            }
        }
        if run > 0 {
            out.push((side, run));
        }
    }
    out
}

#[test]
fn every_limit_holds_over_many_seeds_and_depths() {
    let pack = pack();
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    for seed in 0..240u64 {
        let depth = 1 + (seed % 6) as u32;
        let map = Generator::new(&pack, "limits").unwrap().depth(depth).generate(seed).unwrap();
        check_pool_limits(&pack, "limits", &map, depth, &WorldState::new())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::connected(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::prefabs_intact(&map, &pack).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::machines_placed(&map, &pack).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::walled(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let placed = encounters(&map);
        let count = |id: &str| placed.iter().filter(|(e, _)| *e == id).count();
        assert!(count("solo") <= 1 && count("pair") <= 2 && count("unique") <= 1, "seed {seed}");
        assert!(count("g1") == 0 || count("g2") == 0, "seed {seed}: a group admits one member per map");
        assert!(count("crown_small") + count("crown_large") <= 1, "seed {seed}: one of a world group per world");
        if !(3..=5).contains(&depth) {
            assert_eq!(count("deep"), 0, "seed {seed}: depth {depth}");
        }
        if !matches!(depth, 1 | 4 | 5) {
            assert_eq!(count("split"), 0, "seed {seed}: depth {depth} lies between its ranges");
        }
        *seen.entry(format!("split at {depth}")).or_default() += count("split") as u32;
        assert!(placed.len() <= 30, "seed {seed}");
        // Every skip is recorded once, with a reason that matches the limits.
        let mut ids: Vec<&str> = map.encounter_skips().iter().map(|s| s.id.as_str()).collect();
        ids.sort_unstable();
        assert!(ids.windows(2).all(|w| w[0] != w[1]), "seed {seed}: {ids:?}");
        for skip in map.encounter_skips() {
            let id = skip.id.as_str();
            match skip.reason {
                SkipReason::Limit => {
                    let pool = pack.map_type("limits").and_then(|m| m.encounters.as_ref()).expect("a pool");
                    let e = pool.pool.iter().find(|e| e.id == id).expect("in the pool");
                    let limit = e.max_per_map.into_iter().chain(e.max_per_world).min();
                    assert_eq!(Some(count(id) as u32), limit, "seed {seed}: `{id}` retired at its limit");
                }
                SkipReason::Excluded => {
                    let other = match id {
                        "g1" => "g2",
                        "g2" => "g1",
                        "crown_small" => "crown_large",
                        _ => "crown_small",
                    };
                    assert!(count(other) > 0 && count(id) == 0, "seed {seed}: `{id}` excluded by `{other}`");
                }
                SkipReason::Ineligible => assert!(
                    (id == "deep" && !(3..=5).contains(&depth)) || (id == "split" && !matches!(depth, 1 | 4 | 5)),
                    "seed {seed}: {id}"
                ),
                SkipReason::NoPlace | SkipReason::TooLarge => {}
            }
        }
        for &(id, i) in &placed {
            *seen.entry(id.to_string()).or_insert(0) += 1;
            let placed = &map.prefabs()[i];
            let tag = placed.encounter.as_ref().unwrap();
            let region = &map.regions()[placed.region.unwrap() as usize];
            match tag.style {
                Style::Enclosed | Style::Cubby if id != "open" && id != "boxed" => {
                    // Resized: the room is the prefab, and its one opening is on the side
                    // its bottom edge was turned to.
                    let facing = placed.transform.apply_dir(Dir::South);
                    assert_eq!(region.bounds, placed.bounds, "seed {seed} {id}");
                    let open = openings(&map, placed.bounds);
                    assert_eq!(open.len(), 1, "seed {seed} {id}: {open:?}");
                    assert_eq!(open[0].0, facing, "seed {seed} {id}: faces its door");
                    if tag.style == Style::Cubby {
                        let along = if facing.is_horizontal() { placed.bounds.height } else { placed.bounds.width };
                        assert_eq!(open[0].1, along as u32, "seed {seed}: a cubby's whole front is open");
                    }
                }
                Style::Enclosed => {
                    // Not resized, door opened: one entryway, and no door cell left in it.
                    let open = openings(&map, region.bounds);
                    assert_eq!(open.len(), 1, "seed {seed} {id}: {open:?}");
                }
                _ => {
                    let open = openings(&map, region.bounds);
                    assert!(region.bounds.contains_rect(&placed.bounds), "seed {seed} {id}");
                    match id {
                        "one_door" => assert_eq!(open.len(), 1, "seed {seed}"),
                        "two_doors" => assert_eq!(open.len(), 2, "seed {seed}"),
                        _ => assert!(!open.is_empty()),
                    }
                }
            }
        }
    }
    // Everything that may appear did, so the checks above were exercised.
    for id in ["solo", "pair", "g1", "g2", "unique", "deep", "one_door", "two_doors", "depot", "open", "boxed"] {
        assert!(seen.get(id).copied().unwrap_or(0) > 0, "{id} never appeared: {seen:?}");
    }
    for depth in [1, 4, 5] {
        assert!(seen[&format!("split at {depth}")] > 0, "`split` never appeared at depth {depth}: {seen:?}");
    }
}

#[test]
fn per_world_limits_hold_across_25_levels() {
    let pack = pack();
    let mut world = WorldState::new();
    let mut totals: BTreeMap<String, u32> = BTreeMap::new();
    for level in 1..=25u32 {
        let generator = Generator::new(&pack, "limits").unwrap().depth(level);
        let (map, next) = generator.generate_in(u64::from(level) * 7919, &world).unwrap();
        for (id, _) in encounters(&map) {
            *totals.entry(id.to_string()).or_insert(0) += 1;
        }
        assert_eq!(next.levels(), level);
        world = next;
    }
    assert_eq!(totals.get("unique"), Some(&1), "a once-per-world encounter appears once in 25 levels");
    let crowns = ["crown_small", "crown_large"].map(|id| totals.get(id).copied().unwrap_or(0));
    assert_eq!(crowns.iter().sum::<u32>(), 1, "one of a world group appears once in 25 levels: {crowns:?}");
    assert_eq!(world.group_placed("crowns"), 1);
    for (id, n) in &totals {
        assert_eq!(world.placed(id), *n, "{id}");
    }
    // The world survives being saved and read back.
    let again = WorldState::from_json("world.json", &world.to_json()).unwrap();
    assert_eq!(again, world);
    let err = WorldState::from_json("w.json", "{\"format\": \"x\"").unwrap_err().to_string();
    assert!(err.starts_with("w.json:1:"), "{err}");
}

#[test]
fn weight_words_set_how_often_encounters_are_chosen() {
    let pack = pack();
    let generator = Generator::new(&pack, "weights").unwrap();
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    let seeds = 3000u64;
    let mut with_one = 0u32;
    for seed in 0..seeds {
        let map = generator.generate(seed).unwrap();
        let placed = encounters(&map);
        if let [(id, _)] = placed.as_slice() {
            with_one += 1;
            *counts.entry(id.to_string()).or_insert(0) += 1;
        }
    }
    assert!(with_one as f64 >= 0.98 * seeds as f64, "{with_one} of {seeds} maps placed their one encounter");
    let get = |id: &str| counts.get(id).copied().unwrap_or(0);
    assert_eq!(get("n"), 0, "`never` is never chosen");
    assert!(get("r") < get("u") && get("u") < get("c") && get("c") < get("f"), "{counts:?}");
    // Default words: rare 1, uncommon 3, common 10, frequent 30. Each count lies
    // within 4.5 standard deviations of its binomial expectation (a false alarm
    // about once in 150 000 runs; the seeds are fixed, so it is checked once).
    let n = f64::from(with_one);
    for (id, w) in [("r", 1.0), ("u", 3.0), ("c", 10.0), ("f", 30.0)] {
        let p = w / 44.0;
        let (mean, sd) = (n * p, (n * p * (1.0 - p)).sqrt());
        let got = f64::from(get(id));
        assert!((got - mean).abs() <= 4.5 * sd, "{id}: {got} chosen, expected {mean:.0} ± {:.0}", 4.5 * sd);
    }
}

#[test]
fn generation_is_deterministic_with_encounters() {
    let pack = pack();
    let generator = Generator::new(&pack, "limits").unwrap();
    for seed in [1u64, 99, 12345] {
        let a = prefabric::render::json(&generator.generate(seed).unwrap(), &pack);
        let b = prefabric::render::json(&generator.generate(seed).unwrap(), &pack);
        assert_eq!(a, b);
    }
}

/// Every limit of every encounter in `map_type`'s pool holds in `map` (at `depth`,
/// after `world`): per map, per world, depth ranges, exclusion groups, and doors.
fn check_pool_limits(pack: &Pack, map_type: &str, map: &Map, depth: u32, world: &WorldState) -> Result<(), String> {
    openings_lead_to_corridors(pack, map_type, map, depth)?;
    let pool = pack.map_type(map_type).unwrap().encounters.as_ref().unwrap();
    let placed = encounters(map);
    let scattered = |id: &str| map.object_encounters().iter().filter(|e| e.id == id).count();
    let count = |id: &str| (placed.iter().filter(|(e, _)| *e == id).count() + scattered(id)) as u32;
    for e in &pool.pool {
        let n = count(&e.id);
        if n == 0 {
            continue;
        }
        if e.weight == 0 {
            return Err(format!("`{}` has weight 0 but was placed", e.id));
        }
        if let Some(max) = e.max_per_map
            && n > max
        {
            return Err(format!("`{}` placed {n} times, max_per_map {max}", e.id));
        }
        if let Some(max) = e.max_per_world
            && world.placed(&e.id) + n > max
        {
            return Err(format!("`{}` over max_per_world {max}", e.id));
        }
        if !e.depth.0.is_empty() && !e.depth.0.iter().any(|d| (d.lo as u32..=d.hi as u32).contains(&depth)) {
            return Err(format!("`{}` placed at depth {depth}, outside {}", e.id, e.depth));
        }
        if let Some(group) = &e.group
            && let Some(other) =
                pool.pool.iter().find(|o| o.id != e.id && o.group.as_ref() == Some(group) && count(&o.id) > 0)
        {
            return Err(format!("`{}` and `{}` share group `{group}` in one map", e.id, other.id));
        }
    }
    for &(id, i) in &placed {
        let p = &map.prefabs()[i];
        let e = pool.pool.iter().find(|e| e.id == id).unwrap();
        let region = &map.regions()[p.region.unwrap() as usize];
        let around =
            if matches!(e.style, Style::Enclosed | Style::Cubby) && e.resize { p.bounds } else { region.bounds };
        let doors = openings(map, around);
        if matches!(e.style, Style::Enclosed | Style::Cubby) {
            if doors.len() != 1 {
                return Err(format!("`{id}` at {:?} has openings {doors:?}", p.bounds));
            }
            if e.resize && doors[0].0 != p.transform.apply_dir(Dir::South) {
                return Err(format!("`{id}` at {:?} does not face its door", p.bounds));
            }
        } else if !e.doors.allows(doors.len() as u32) {
            return Err(format!("`{id}` is in a room with {} doors, allowed {}", doors.len(), e.doors));
        }
    }
    Ok(())
}

/// Every cell the encounters stage opened in a wall (a widened door, a cubby's
/// front) leads into a corridor or junction, never into another room, hall or
/// prefab. Compares the map with its layout before the stage, rebuilt from the
/// same seed; maps that needed a retry are skipped.
fn openings_lead_to_corridors(pack: &Pack, map_type: &str, map: &Map, depth: u32) -> Result<(), String> {
    if map.trace().events().iter().any(|e| e.stage == "generate") {
        return Ok(());
    }
    let mut before = Generator::new(pack, map_type).unwrap().depth(depth).start(map.seed(), 0);
    before.features().unwrap();
    before.layout().unwrap();
    let before = before.map();
    for (i, p) in map.prefabs().iter().enumerate().filter(|(_, p)| p.encounter.is_some()) {
        for q in p.bounds.ring() {
            let Some(out) = outward(p.bounds, q) else { continue };
            if before.is_walkable(q) || !map.is_walkable(q) || !map.is_walkable(out) {
                continue;
            }
            let other_prefab = map.prefabs().iter().enumerate().any(|(j, o)| j != i && o.bounds.contains(out));
            let kind = before.region_at(out).map(|r| r.kind);
            let corridor = matches!(kind, Some(prefabric::RegionKind::Corridor | prefabric::RegionKind::Junction));
            if other_prefab || !corridor {
                return Err(format!("an encounter at {:?} opened {q} onto {out} ({kind:?})", p.bounds));
            }
        }
    }
    Ok(())
}

/// The cell beyond wall cell `q` of the line around `r`, away from `r`; `None` at
/// corners.
fn outward(r: Rect, q: Point) -> Option<Point> {
    let side = if q.y == r.y - 1 && q.x >= r.x && q.x < r.right() {
        Dir::North
    } else if q.y == r.bottom() && q.x >= r.x && q.x < r.right() {
        Dir::South
    } else if q.x == r.x - 1 && q.y >= r.y && q.y < r.bottom() {
        Dir::West
    } else if q.x == r.right() && q.y >= r.y && q.y < r.bottom() {
        Dir::East
    } else {
        return None;
    };
    Some(q + side.delta())
}

#[test]
fn the_default_pool_keeps_its_limits_at_every_depth() {
    let pack = Pack::embedded().unwrap();
    let mut placed_ids = std::collections::BTreeSet::new();
    for seed in 0..400u64 {
        let depth = 1 + (seed % 10) as u32;
        let map = Generator::new(&pack, "materials").unwrap().depth(depth).generate(seed).unwrap();
        check_pool_limits(&pack, "materials", &map, depth, &WorldState::new())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::walled(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        placed_ids.extend(encounters(&map).into_iter().map(|(id, _)| id.to_string()));
        placed_ids.extend(map.object_encounters().iter().map(|e| e.id.clone()));
    }
    let pool = pack.map_type("materials").unwrap().encounters.as_ref().unwrap();
    assert!(pool.pool.len() >= 12, "at least 12 encounters");
    assert!(pool.pool.iter().map(|e| e.prefabs.len()).sum::<usize>() >= 20, "at least 20 prefabs across them");
    for style in [Style::Enclosed, Style::Cubby, Style::Accessible] {
        assert!(pool.pool.iter().any(|e| e.style == style), "{style}");
    }
    for category in prefabric::Category::ALL {
        assert!(pool.pool.iter().any(|e| e.category == category), "{category}");
    }
    for e in pool.pool.iter().filter(|e| e.weight > 0) {
        assert!(placed_ids.contains(&e.id), "`{}` never appeared in 400 maps", e.id);
    }
}

#[test]
fn a_default_world_of_25_levels_keeps_unique_encounters_unique() {
    let pack = Pack::embedded().unwrap();
    let mut world = WorldState::new();
    for level in 1..=25u32 {
        let depth = 1 + (level - 1) % 10;
        let generator = Generator::new(&pack, "materials").unwrap().depth(depth);
        let (map, next) = generator.generate_in(u64::from(level), &world).unwrap();
        check_pool_limits(&pack, "materials", &map, depth, &world).unwrap_or_else(|e| panic!("level {level}: {e}"));
        world = next;
    }
    let pool = pack.map_type("materials").unwrap().encounters.as_ref().unwrap();
    for e in &pool.pool {
        if let Some(max) = e.max_per_world {
            assert!(world.placed(&e.id) <= max, "{}", e.id);
        }
    }
    let reached = pool.pool.iter().filter(|e| e.max_per_world.is_some_and(|m| world.placed(&e.id) == m)).count();
    assert!(reached >= 2, "the per-world limits were reached, so the check above was tested");
}

#[test]
fn a_skip_says_why_no_room_took_the_encounter() {
    let pack = pack();
    let map = Generator::new(&pack, "facing").unwrap().generate(3).unwrap();
    let skip = map.trace().events().iter().find(|e| e.message.starts_with("encounter `fixed`:")).unwrap();
    // The prefab may not turn, so it only ever fits rooms whose door is south.
    assert!(skip.message.contains("orientations its prefabs do not allow facing the door"), "{}", skip.message);
    for (_, i) in encounters(&map) {
        assert_eq!(map.prefabs()[i].transform, prefabric::Transform::IDENTITY);
    }
}

#[test]
fn halls_take_encounters_placed_anywhere_inside() {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    let mut in_halls = 0;
    for seed in 0..200 {
        let map = generator.generate(seed).expect("materials generates");
        for e in map.trace().events().iter().filter(|e| e.stage == "encounters" && e.message.contains(" in hall ")) {
            // "encounter `ID` (...) as `PREFAB` T at (x, y) in hall N"
            let prefab = e.message.split('`').nth(3).expect("the trace names the prefab");
            let style = pack.prefab(prefab).expect("a prefab of the pack").style();
            assert!(
                matches!(style, Style::Accessible | Style::Feature),
                "seed {seed}: a {style:?} prefab went into a hall: {}",
                e.message
            );
            in_halls += 1;
        }
    }
    // Materials halls have several ways through, so only the styles placed
    // anywhere inside fit them; a few of its encounters are.
    assert!(in_halls >= 5, "only {in_halls} encounters went into halls over 200 seeds");
}

#[test]
fn secret_door_encounters_hide_their_rooms_and_keep_maps_connected() {
    let pack = pack();
    let generator = Generator::new(&pack, "secret").unwrap();
    let mut hidden = 0;
    for seed in 0..200 {
        // Generation validates connectivity: secret doors are walkable.
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for (id, i) in encounters(&map) {
            let region = map.prefabs()[i].region.expect("an encounter fills a region");
            let doors = &map.regions()[region as usize].doors;
            assert!(!doors.is_empty(), "seed {seed}: `{id}` has no door");
            for d in doors {
                let role = map.terrain()[d.at].role();
                assert_eq!(role, prefabric::Role::SecretDoor, "seed {seed}: `{id}`'s door at {} is {role:?}", d.at);
            }
            hidden += 1;
        }
    }
    assert!(hidden >= 200, "only {hidden} secret-door encounters over 200 seeds");
}
