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

#[test]
fn the_built_in_world_links_every_level() {
    let pack = Pack::embedded().expect("the built-in pack");
    let mut aligned = 0;
    for seed in 0..6 {
        let mut world = World::new(&pack, seed).expect("the built-in pack has a world").trace(false);
        world.make_all().unwrap_or_else(|e| panic!("world seed {seed}: {e}"));
        aligned += check_world(&world);
    }
    assert!(aligned > 0, "no aligned stairs in six worlds");
}

#[test]
fn a_level_made_alone_is_the_level_of_the_whole_world() {
    let pack = Pack::embedded().expect("the built-in pack");
    let mut whole = World::new(&pack, 7).expect("a world").trace(false);
    whole.make_all().expect("world seed 7");
    let last_branch = whole.plan().levels.iter().rev().find(|l| l.line != 0).expect("a branch").name.clone();
    let mut alone = World::new(&pack, 7).expect("a world").trace(false);
    let map = alone.level(&last_branch).expect("made alone");
    let i = whole.plan().index(&last_branch).expect("in the plan");
    assert_eq!(json(map, &pack), json(&whole.maps()[i], &pack), "{last_branch} differs made alone");
}
