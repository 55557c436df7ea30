//! Seed stability: a player's shared seed should survive a designer's edit that
//! has nothing to do with the map. Over 1,000 seeds of `materials`:
//!
//! * editing one prefab's cells (same size) changes only maps that place it;
//! * adding an encounter of weight `never` changes no map;
//! * adding an ordinary encounter changes only maps that place it: each
//!   encounter slot is a race in which every encounter draws its own ticket
//!   (`rng::Race`), so a newcomer moves no other encounter's chances.
//!
//! The shares are printed with
//! `cargo test --release -p prefabric --test stability -- --nocapture`.

use crate::common;

use prefabric::content::SourceFile;
use prefabric::{Generator, Limits, Map, Pack, render};

const SEEDS: u64 = 1_000;

/// The default pack with `edit` applied to the file at `path`.
fn edited(path: &str, edit: impl Fn(&str) -> String) -> Pack {
    let files: Vec<SourceFile> = common::default_pack_files()
        .into_iter()
        .map(|f| match f.path == path {
            true => SourceFile { bytes: edit(std::str::from_utf8(&f.bytes).unwrap()).into_bytes(), path: f.path },
            false => f,
        })
        .collect();
    Pack::from_files("content/default", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

/// The seeds whose map differs between the packs (by its JSON), and those
/// where either pack's map `uses` the edited content.
fn compare(before: &Pack, after: &Pack, uses: impl Fn(&Map) -> bool) -> (Vec<u64>, Vec<u64>) {
    let (a, b) = (Generator::new(before, "materials").unwrap(), Generator::new(after, "materials").unwrap());
    let (mut changed, mut using) = (Vec::new(), Vec::new());
    for seed in 0..SEEDS {
        let (x, y) = (a.generate(seed).unwrap(), b.generate(seed).unwrap());
        if uses(&x) || uses(&y) {
            using.push(seed);
        }
        if render::json(&x, before) != render::json(&y, after) {
            changed.push(seed);
        }
    }
    (changed, using)
}

fn base() -> Pack {
    edited("", |t| t.to_string())
}

#[test]
fn editing_a_prefab_changes_only_the_maps_that_place_it() {
    let after = edited("prefabs/encounters/loot.txt", |text| {
        // Its machine's line art, drawn the other way round: same cells, other glyphs.
        let (head, rest) = text.split_once("prefab scrap_cache_small\n").unwrap();
        let edited =
            format!("{head}prefab scrap_cache_small\n{}", rest.replacen("machines:\n▐▌.", "machines:\n▌▐.", 1));
        assert_ne!(edited, text, "the edit applies");
        edited
    });
    let (changed, placing) =
        compare(&base(), &after, |map| map.prefabs().iter().any(|p| p.name == "scrap_cache_small"));
    let stray: Vec<&u64> = changed.iter().filter(|s| !placing.contains(s)).collect();
    assert!(stray.is_empty(), "maps changed that do not place the prefab: seeds {stray:?}");
    assert!(!changed.is_empty(), "the edit shows where the prefab is placed");
    eprintln!(
        "prefab edit: {} of {SEEDS} maps changed ({:.1}%), {} place the prefab",
        changed.len(),
        changed.len() as f64 * 100.0 / SEEDS as f64,
        placing.len()
    );
}

#[test]
fn adding_an_encounter_that_never_comes_changes_no_map() {
    let never = "\n[[encounters.pool]]\nid = \"stability_probe\"\nweight = \"never\"\ncategory = \"fluff\"\nprefabs = [\"scrap_cache_small\"]\n";
    let after = edited("maps/materials.toml", |text| format!("{text}{never}"));
    let (changed, _) = compare(&base(), &after, |_| false);
    assert!(changed.is_empty(), "seeds changed: {changed:?}");
}

#[test]
fn adding_an_ordinary_encounter_changes_only_the_maps_that_place_it() {
    let probe = "\n[[encounters.pool]]\nid = \"stability_probe\"\nweight = \"rare\"\ncategory = \"fluff\"\nprefabs = [\"scrap_cache_small\"]\n";
    let after = edited("maps/materials.toml", |text| format!("{text}{probe}"));
    let (changed, placing) = compare(&base(), &after, |map| {
        map.prefabs().iter().any(|p| p.encounter.as_ref().is_some_and(|e| e.id == "stability_probe"))
    });
    let stray: Vec<&u64> = changed.iter().filter(|s| !placing.contains(s)).collect();
    assert!(stray.is_empty(), "maps changed that do not place the new encounter: seeds {stray:?}");
    assert!(!placing.is_empty(), "the new encounter is placed somewhere, so the test can see a change");
    eprintln!(
        "ordinary encounter added: {} of {SEEDS} maps changed ({:.1}%); {} place it",
        changed.len(),
        changed.len() as f64 * 100.0 / SEEDS as f64,
        placing.len()
    );
}

/// Switching the trace off makes the same maps: over 100 seeds of every map
/// type, the JSON (every cell, region, prefab and object) is the same, and the
/// map made without a trace has none while the traced one has events.
#[test]
fn switching_the_trace_off_changes_no_map() {
    let pack = Pack::embedded().unwrap();
    for map_type in pack.map_types() {
        let traced = Generator::new(&pack, &map_type.name).unwrap();
        let untraced = traced.clone().trace(false);
        for seed in 0..100 {
            let (a, b) = (traced.generate(seed).unwrap(), untraced.generate(seed).unwrap());
            assert!(!a.trace().events().is_empty(), "{} seed {seed}: the traced map has no events", map_type.name);
            assert!(b.trace().events().is_empty(), "{} seed {seed}: the untraced map has events", map_type.name);
            assert!(render::json(&a, &pack) == render::json(&b, &pack), "{} seed {seed} differs", map_type.name);
        }
    }
}

/// Handing maps back to the generator makes the same maps: over 60 seeds of
/// every map type, taken out of order so each map is built in the memory of
/// another seed's, the JSON with the trace is the same as a fresh generator's.
#[test]
fn recycling_maps_changes_no_map() {
    let pack = Pack::embedded().unwrap();
    for map_type in pack.map_types() {
        let fresh = Generator::new(&pack, &map_type.name).unwrap();
        let recycling = Generator::new(&pack, &map_type.name).unwrap();
        for k in 0..60u64 {
            let seed = (k * 37) % 60;
            let (a, b) = (fresh.generate(seed).unwrap(), recycling.generate(seed).unwrap());
            assert!(
                render::json_with_trace(&a, &pack) == render::json_with_trace(&b, &pack),
                "{} seed {seed} differs when built in a recycled map",
                map_type.name
            );
            recycling.recycle(b);
        }
    }
}

/// `Map::attempt` says how many attempts failed before the map: 0 for every
/// map whose trace records no failed attempt, and the count of failures the
/// trace records otherwise, traced or not. The materials here must open more of
/// the map (44%) than their tunnelers often manage, so many seeds take retries.
#[test]
fn a_map_says_which_attempt_made_it() {
    let pack = edited("maps/materials.toml", |s| {
        s.replace("min_open = 20", "min_open = 44").replace("fill_target = 34", "fill_target = 44")
    });
    let traced = Generator::new(&pack, "materials").unwrap();
    let untraced = traced.clone().trace(false);
    let mut retried = 0;
    for seed in 0..60 {
        let Ok(map) = traced.generate(seed) else { continue };
        let failures = map.trace().events().iter().filter(|e| e.stage == "generate").count() as u32;
        assert_eq!(map.attempt(), failures, "seed {seed}");
        assert_eq!(untraced.generate(seed).unwrap().attempt(), failures, "seed {seed}");
        retried += usize::from(failures > 0);
    }
    assert!(retried >= 10, "only {retried} of 60 seeds needed a retry: the test no longer tests retries");
}
