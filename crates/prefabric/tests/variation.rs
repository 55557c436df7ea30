//! Prefabs with variation lines on real maps: every generator and every stage
//! after layout places them in an outcome their lines allow, drawn from the
//! placement's own stream, with the maps' invariants intact; the same seed gives
//! the same bytes.

mod common;

use prefabric::content::SourceFile;
use prefabric::{Generator, Map, Pack, Prefab, render};

/// The unturned outcome a placement put down.
fn outcome(pack: &Pack, placed: &prefabric::PlacedPrefab) -> Prefab {
    let prefab = pack.prefab(&placed.name).expect("a placed prefab is in the pack");
    assert_eq!(placed.variant.is_some(), prefab.varies(), "{}: a seed exactly when it varies", placed.name);
    prefab.variant(placed.variant.unwrap_or(0)).into_owned()
}

fn generate(pack: &Pack, map_type: &str, seed: u64, depth: u32) -> Map {
    let generator = Generator::new(pack, map_type).expect("the map type exists").depth(depth);
    let map = generator.generate(seed).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
    common::invariants(&map, pack, pack.map_type(map_type).expect("exists"))
        .unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
    map
}

/// The README's chained, pathways and cave examples and the tiny pack, each
/// given variation lines where walkability varies: chain rooms, pathways rooms,
/// a tunnelers feature with a link, a cavern feature and cave encounters all
/// place their outcomes and keep every invariant.
#[test]
fn every_generator_and_stage_places_varying_prefabs() {
    let vary = |files: &mut Vec<SourceFile>, path: &str, from: &str, to: &str| {
        let f = files.iter_mut().find(|f| f.path == path).unwrap_or_else(|| panic!("{path} in the example"));
        let text = String::from_utf8(f.bytes.clone()).expect("utf-8");
        assert!(text.contains(from), "{path}: {from}");
        f.bytes = text.replacen(from, to, 1).into_bytes();
    };
    // Chain: the parlour's floor and a pillar that may stand or have fallen.
    let mut wing = common::readme_example("Writing a chained map type", "wing");
    vary(
        &mut wing,
        "prefabs/wing.txt",
        "tags: parlour\nterrain:\n???##*##???\n??##...##??\n?##.....##?\n*.........*\n",
        "tags: parlour\nsubst: p = . #\nsubst: . = .:3 6\nterrain:\n???##*##???\n??##...##??\n?##.p...##?\n*.........*\n",
    );
    // Pathways: pillars down the gallery, any of which may be rubble-choked.
    let mut crypt = common::readme_example("Writing a pathways map type", "crypt");
    vary(
        &mut crypt,
        "prefabs/crypts.txt",
        "transforms: all\nterrain:\n###########\n#.........*\n",
        "transforms: all\nnsubst: p = 2 # / rest .\nterrain:\n###########\n#.p.p.p.p.*\n",
    );
    // Caves: rubble in the centred shrine (a cavern feature) and the embedded den.
    let mut grotto = common::readme_example("Writing a cave map type", "grotto");
    vary(
        &mut grotto,
        "prefabs/grotto.txt",
        "prefab shrine\nstyle: centered\nterrain:\n?##.##?\n##...##\n",
        "prefab shrine\nstyle: centered\nsubst: r = . #\nterrain:\n?##.##?\n##r..##\n",
    );
    vary(
        &mut grotto,
        "prefabs/grotto.txt",
        "prefab den\nstyle: embedded\nterrain:\n#######\n#.....#\n",
        "prefab den\nstyle: embedded\nsubst-once: r = . #\nterrain:\n#######\n#r...r#\n",
    );
    let mut counts = [0usize; 5];
    for (files, map_type, names) in [
        (wing, "wing", &["parlour"][..]),
        (crypt, "crypt", &["gallery"][..]),
        (grotto, "grotto", &["shrine", "den"][..]),
    ] {
        let pack = Pack::from_files("t", files, prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"));
        for name in names {
            assert!(pack.prefab(name).expect("in the pack").varies(), "{name}");
        }
        for seed in 0..40 {
            let map = generate(&pack, map_type, seed, 1);
            for placed in map.prefabs() {
                let _ = outcome(&pack, placed);
                if let Some(k) = ["parlour", "gallery", "shrine", "den"].iter().position(|n| *n == placed.name) {
                    counts[k] += 1;
                }
            }
        }
    }
    // Tunnelers: a feature whose floor holds rubble, joined by its link.
    let mut tiny = common::default_pack_files();
    tiny.retain(|f| f.path == "palette.toml");
    for (path, text) in [
        ("pack.toml", "name = \"tiny\"\ndefault_map_type = \"tiny\"\n".to_string()),
        ("maps/tiny.toml", std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_pack/maps/tiny.toml")).expect("tiny map").split("[furnishing]").next().expect("text").to_string()),
        ("prefabs/entry.txt", "prefab entry\ntransforms: r0\nsubst: r = . #\nterrain:\n#######\n#.r.r.#\n#..<..#\n###+###\nlinks:\n.......\n.......\n.......\n...1...\n".to_string()),
    ] {
        tiny.push(SourceFile { path: path.into(), bytes: text.into_bytes() });
    }
    let pack = Pack::from_files("tiny", tiny, prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    let mut outcomes = Vec::new();
    for seed in 0..40 {
        let map = generate(&pack, "tiny", seed, 1);
        let entry = map.prefabs().iter().find(|p| p.name == "entry").expect("the feature is placed");
        outcomes.push(render::prefab_text(&outcome(&pack, entry), pack.palette()).expect("text"));
        counts[4] += 1;
    }
    outcomes.sort();
    outcomes.dedup();
    assert_eq!(outcomes.len(), 4, "two rubble cells, four outcomes over 40 maps");
    assert!(counts.iter().all(|&n| n >= 5), "placements of parlour, gallery, shrine, den, entry: {counts:?}");
}
