//! Worlds of levels (`world.toml`): over many world seeds, every level can be
//! reached from the first, every exit arrives on a walkable cell of the level
//! it names (and back), aligned stairs share their cell, and a level asked for
//! alone is the level of the whole world.

use prefabric::render::json;
use prefabric::{ExitWay, Map, Pack, World};
use std::collections::BTreeSet;

/// Checks one made world's links; returns how many exit pairs were aligned.
fn check_world(world: &World<'_>) -> usize {
    let plan = world.plan();
    let maps = world.maps();
    assert_eq!(maps.len(), plan.levels.len(), "every level made");
    let index = |name: &str| plan.index(name).unwrap_or_else(|| panic!("exit to unknown level `{name}`"));
    let mut reached = BTreeSet::from([0usize]);
    let mut queue = vec![0usize];
    let mut aligned = 0;
    while let Some(i) = queue.pop() {
        for exit in maps[i].exits() {
            let Some(to) = &exit.to else {
                assert_eq!((i, exit.way), (0, ExitWay::Up), "only the first level's stairs up lead out of the world");
                continue;
            };
            let j = index(to);
            let at =
                format!("world seed {} level {} exit {:?} at {}", world.seed(), plan.levels[i].name, exit.way, exit.at);
            let arrival = exit.arrival.unwrap_or_else(|| panic!("{at}: no arrival"));
            let there: &Map = &maps[j];
            assert!(there.terrain()[arrival].is_walkable(), "{at}: arrival {arrival} on {to} is not walkable");
            let back = there.exits().iter().find(|e| e.at == arrival);
            let back = back.unwrap_or_else(|| panic!("{at}: arrival {arrival} on {to} is no staircase of it"));
            assert_eq!(back.to.as_deref(), Some(plan.levels[i].name.as_str()), "{at}: the stairs there lead elsewhere");
            if exit.way != ExitWay::Up && arrival == exit.at {
                aligned += 1;
            }
            if reached.insert(j) {
                queue.push(j);
            }
        }
    }
    assert_eq!(reached.len(), maps.len(), "world seed {}: levels no stairs reach", world.seed());
    aligned
}

/// World seeds the property test makes: the 500.
const WORLD_SEEDS: u64 = 500;

/// Every encounter limited per world, in every map type, within its limit
/// (a world group's placements counted together).
fn check_world_limits(pack: &Pack, world: &World<'_>) {
    let state = world.state();
    for map_type in pack.map_types() {
        for e in map_type.encounters.iter().flat_map(|pool| &pool.pool) {
            let Some(limit) = e.max_per_world else { continue };
            let placed = match &e.world_group {
                Some(group) => state.group_placed(group),
                None => state.placed(&e.id),
            };
            assert!(placed <= limit, "world seed {}: `{}` placed {placed} times, limit {limit}", world.seed(), e.id);
        }
    }
}

#[test]
fn the_built_in_world_links_every_level_over_many_seeds() {
    let pack = Pack::embedded().expect("the built-in pack");
    let seeds: Vec<u64> = (0..WORLD_SEEDS).collect();
    // Two threads, as CI has two cores: each world is made on one.
    let (aligned, branches) = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .chunks(seeds.len().div_ceil(2))
            .map(|chunk| {
                let pack = &pack;
                scope.spawn(move || {
                    let (mut aligned, mut branches) = (0, 0);
                    for &seed in chunk {
                        let mut world = World::new(pack, seed).expect("the built-in pack has a world").trace(false);
                        world.make_all().unwrap_or_else(|e| panic!("world seed {seed}: {e}"));
                        aligned += check_world(&world);
                        check_world_limits(pack, &world);
                        branches += world.plan().branches.iter().filter(|b| b.entrance.is_some()).count();
                    }
                    (aligned, branches)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a world thread")).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    });
    // Two branches always, the optional hotel in about a quarter of worlds.
    let per_world = branches as f64 / WORLD_SEEDS as f64;
    assert!((2.1..2.4).contains(&per_world), "{per_world} branches per world");
    // Most ways down a materials floor are aligned with the landing below.
    assert!(aligned as u64 > WORLD_SEEDS * 9 / 2, "{aligned} aligned stairs in {WORLD_SEEDS} worlds");
}

#[test]
fn a_level_made_alone_is_the_level_of_the_whole_world() {
    let pack = Pack::embedded().expect("the built-in pack");
    for seed in 0..4u64 {
        let mut whole = World::new(&pack, seed).expect("a world").trace(false);
        whole.make_all().unwrap_or_else(|e| panic!("world seed {seed}: {e}"));
        let levels = &whole.plan().levels;
        // A branch level, and another picked by its place in the plan: different ones per seed.
        let branch = levels.iter().filter(|l| l.line != 0).nth(seed as usize).expect("a branch level");
        let other = &levels[(3 * seed as usize + 1) % levels.len()];
        for name in [branch.name.clone(), other.name.clone()] {
            let mut alone = World::new(&pack, seed).expect("a world").trace(false);
            let map = alone.level(&name).expect("made alone").clone();
            // Its exits' arrivals are known once the levels they lead to are made.
            for exit in map.exits().iter().filter_map(|e| e.to.clone()) {
                alone.level(&exit).expect("the level its stairs lead to");
            }
            let i = whole.plan().index(&name).expect("in the plan");
            let map = alone.level(&name).expect("made");
            assert_eq!(json(map, &pack), json(&whole.maps()[i], &pack), "world seed {seed}: {name} differs made alone");
        }
    }
}

/// The built-in pack with its world.toml replaced by `world`.
fn pack_with_world(world: &str) -> Result<Pack, prefabric::Problems> {
    let mut files = Pack::embedded_files();
    files.retain(|f| f.path != "world.toml");
    files.push(prefabric::content::SourceFile { path: "world.toml".into(), bytes: world.as_bytes().to_vec() });
    Pack::from_files("p", files, prefabric::Limits::default())
}

/// The problems loading `world` gives, one `file:line:col: message` each.
fn world_problems(world: &str) -> Vec<String> {
    match pack_with_world(world) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.errors().iter().map(|e| e.to_string()).collect(),
    }
}

const MAIN: &str =
    "[main]\nlevels = [{ map_type = \"materials\", depths = [1, 4] }]\narrival_prefab = \"lift_landing\"\n";

#[test]
fn a_broken_world_is_reported_at_its_line_with_a_fix() {
    let cases: &[(&str, &str)] = &[
        // An unknown map type, with a suggestion.
        (
            "[main]\nlevels = [{ map_type = \"materals\", depths = [1, 4] }]\n",
            "p/world.toml:2:24: invalid: no map type named `materals` in this pack\n  help: did you mean `materials`?",
        ),
        // A gap in the main line.
        (
            "[main]\nlevels = [{ map_type = \"materials\", depths = [1, 4] }, { map_type = \"mines\", depths = [6, 8] }]\n",
            "p/world.toml:2:87: invalid: depths [6, 8]: the main line's stretches must run on from depth 5",
        ),
        // An entrance no level of the line it leaves from can hold.
        (
            &format!(
                "{MAIN}[[branches]]\nname = \"mines\"\nmap_type = \"mines\"\nlevels = 2\nentrance = [3, 6]\nentrance_prefab = \"mines_headframe\"\n"
            ),
            "p/world.toml:8:12: invalid: entrance [3, 6]: `main` has levels 1-4, so no level could hold the way into `mines`",
        ),
        // A branch leaving from a line not written above it.
        (
            &format!(
                "{MAIN}[[branches]]\nname = \"deep\"\nfrom = \"mines\"\nmap_type = \"mines\"\nlevels = 2\nentrance = [1, 1]\nentrance_prefab = \"mines_headframe\"\n"
            ),
            "p/world.toml:6:8: invalid: no line named `mines` above this branch",
        ),
        // An entrance set piece with no stairs down.
        (
            &format!(
                "{MAIN}[[branches]]\nname = \"mines\"\nmap_type = \"mines\"\nlevels = 2\nentrance = [1, 2]\nentrance_prefab = \"lift_landing\"\n"
            ),
            "p/world.toml:9:19: invalid: entrance prefab `lift_landing` draws no stairs down to lead into `mines`",
        ),
        // An arrival prefab without its one stairs up.
        (
            "[main]\nlevels = [{ map_type = \"materials\", depths = [1, 4] }]\narrival_prefab = \"mines_headframe\"\n",
            "p/world.toml:3:18: invalid: arrival prefab `mines_headframe` draws 0 stairs up cells",
        ),
        // A chance on a branch that is always there.
        (
            &format!(
                "{MAIN}[[branches]]\nname = \"mines\"\nmap_type = \"mines\"\nlevels = 2\nentrance = [1, 2]\nentrance_prefab = \"mines_headframe\"\nchance = 30\n"
            ),
            "p/world.toml:10:10: invalid: chance 30 on a branch that is not optional",
        ),
        // An entrance set piece bigger than the levels it may go on.
        (
            "[main]\nlevels = [{ map_type = \"maze\", depths = [1, 2] }]\n[[branches]]\nname = \"hotel\"\nmap_type = \"hotel\"\nlevels = 1\nentrance = [1, 2]\nentrance_prefab = \"foundry\"\n",
            "p/world.toml:8:19: invalid: entrance prefab `foundry`",
        ),
    ];
    for (world, expected) in cases {
        let problems = world_problems(world);
        assert!(
            problems.iter().any(|p| p.starts_with(expected)),
            "world.toml:\n{world}\nexpected a problem starting\n{expected}\ngot {problems:#?}"
        );
    }
    assert!(world_problems(MAIN).is_empty(), "the main line alone is a world");
}

/// A map's JSON with the arrival cells of its exits into the catacombs left
/// out: where an exit lands on the edited branch is the branch's to change.
fn without_arrivals_in(map: &Map, pack: &Pack) -> serde_json::Value {
    let mut doc: serde_json::Value = serde_json::from_str(&json(map, pack)).expect("the map's JSON");
    for exit in doc["exits"].as_array_mut().into_iter().flatten() {
        if exit["to"].as_str().is_some_and(|to| to.starts_with("catacombs:")) {
            exit["arrival"] = serde_json::Value::Null;
        }
    }
    doc
}

/// Editing one branch (its map type) changes that branch's levels and no
/// other — but for where the exits into it arrive: each level's seed comes from the world seed and its own name, each
/// branch draws from streams of its own, and the catacombs share no encounter
/// limited per world with the other lines.
#[test]
fn editing_one_branch_leaves_every_other_level_as_it_was() {
    let base = Pack::embedded().expect("the built-in pack");
    let world = base.world().expect("a world");
    let text = std::fs::read_to_string(format!("{}/../../content/default/world.toml", env!("CARGO_MANIFEST_DIR")))
        .expect("the built-in world.toml");
    let edited_text =
        text.replace("name = \"catacombs\"\nmap_type = \"catacombs\"", "name = \"catacombs\"\nmap_type = \"maze\"");
    assert_ne!(edited_text, text, "the edit applies");
    assert!(world.lines.iter().any(|l| l.name == "catacombs"));
    let mut files = Pack::embedded_files();
    files.retain(|f| f.path != "world.toml");
    files.push(prefabric::content::SourceFile { path: "world.toml".into(), bytes: edited_text.into_bytes() });
    let edited = Pack::from_files("content/default", files, prefabric::Limits::default()).expect("the edited pack");
    let (mut branch_changed, mut branch_levels) = (0, 0);
    for seed in 0..20 {
        let mut a = World::new(&base, seed).expect("a world").trace(false);
        a.make_all().expect("the built-in world");
        let mut b = World::new(&edited, seed).expect("a world").trace(false);
        b.make_all().expect("the edited world");
        assert_eq!(a.plan().levels.len(), b.plan().levels.len(), "seed {seed}: the same levels");
        for (i, level) in a.plan().levels.iter().enumerate() {
            let j = b.plan().index(&level.name).expect("the same names");
            let (before, after) =
                (without_arrivals_in(&a.maps()[i], &base), without_arrivals_in(&b.maps()[j], &edited));
            if level.name.starts_with("catacombs:") {
                branch_levels += 1;
                branch_changed += usize::from(before != after);
            } else {
                assert!(
                    before == after,
                    "world seed {seed}: {} changed when only the catacombs were edited",
                    level.name
                );
            }
        }
    }
    assert_eq!(branch_changed, branch_levels, "every level of the edited branch changed");
}
