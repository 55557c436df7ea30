//! Prefabs with variation lines on real maps: every generator and every stage
//! after layout places them in an outcome their lines allow, drawn from the
//! placement's own stream, with the maps' invariants intact; the same seed gives
//! the same bytes.

use crate::common;

use prefabric::content::SourceFile;
use prefabric::{Generator, Map, Pack, Point, Prefab, Role, Terrain, render};

/// The unturned outcome a placement put down.
fn outcome(pack: &Pack, placed: &prefabric::PlacedPrefab) -> Prefab {
    let prefab = pack.prefab(&placed.name).expect("a placed prefab is in the pack");
    assert_eq!(placed.variant.is_some(), prefab.varies(), "{}: a seed exactly when it varies", placed.name);
    prefab.variant(placed.variant.unwrap_or(0)).into_owned()
}

fn at(p: &Prefab, x: i32, y: i32) -> Terrain {
    p.cells()[Point::new(x, y)].expect("a drawn cell")
}

fn generate(pack: &Pack, map_type: &str, seed: u64, depth: u32) -> Map {
    let generator = Generator::new(pack, map_type).expect("the map type exists").depth(depth);
    let map = generator.generate(seed).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
    common::invariants(&map, pack, pack.map_type(map_type).expect("exists"))
        .unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
    map
}

/// Checks the outcomes of the default pack's varying prefabs placed on `map`
/// against what their lines allow; returns how many it checked, by prefab, and
/// the outcomes seen.
fn check_default_outcomes(pack: &Pack, map: &Map, seen: &mut Vec<(String, String)>) -> Vec<&'static str> {
    let mut checked = Vec::new();
    for (index, placed) in map.prefabs().iter().enumerate() {
        let o = outcome(pack, placed);
        let floor = |k| Terrain::with_variant(Role::Floor(prefabric::FloorKind::Room), k);
        let key = |cells: Vec<Terrain>| cells.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(",");
        match placed.name.as_str() {
            // Stacks (ossuary wall) on one half of the checker, bones on the other.
            "columbarium" => {
                let a = [(2, 2), (3, 2), (4, 2), (6, 4), (7, 4), (8, 4), (2, 6), (3, 6), (4, 6)];
                let b = [(6, 2), (7, 2), (8, 2), (2, 4), (3, 4), (4, 4), (6, 6), (7, 6), (8, 6)];
                let stack = Terrain::with_variant(Role::Wall, 3);
                let (sa, sb): (Vec<_>, Vec<_>) =
                    (a.iter().map(|&(x, y)| at(&o, x, y)).collect(), b.iter().map(|&(x, y)| at(&o, x, y)).collect());
                let drawn = sa.iter().all(|&t| t == stack) && sb.iter().all(|&t| t == floor(2));
                let swapped = sb.iter().all(|&t| t == stack) && sa.iter().all(|&t| t == floor(2));
                assert!(drawn || swapped, "seed {}: columbarium {sa:?} {sb:?}", map.seed());
                seen.push((placed.name.clone(), key(sa)));
                checked.push("columbarium");
            }
            // Two crates on two of the three spots; the third spot floor.
            "storage_alcove_deep" => {
                let spots = [Point::new(0, 2), Point::new(4, 2), Point::new(2, 3)];
                let crates: Vec<Point> = o.refs().iter().filter(|r| r.glyph == 'C').map(|r| r.at).collect();
                assert_eq!(crates.len(), 2, "seed {}: {crates:?}", map.seed());
                assert!(crates.iter().all(|c| spots.contains(c)), "seed {}: {crates:?}", map.seed());
                let on_map = map
                    .objects()
                    .iter()
                    .filter(|ob| ob.prefab == Some(index) && ob.tag.as_deref() == Some("supply_crate"))
                    .count();
                assert_eq!(on_map, 2, "seed {}: two crates stand on the map", map.seed());
                seen.push((placed.name.clone(), format!("{crates:?}")));
                checked.push("storage_alcove_deep");
            }
            // The north way in always, two of the three others.
            "swarmer_mound_large" => {
                assert!(at(&o, 4, 0).is_walkable(), "seed {}", map.seed());
                let gaps = [(0, 3), (8, 3), (4, 6)].map(|(x, y)| at(&o, x, y));
                assert_eq!(gaps.iter().filter(|t| t.is_walkable()).count(), 2, "seed {}: {gaps:?}", map.seed());
                assert_eq!(gaps.iter().filter(|t| t.is(Role::Wall)).count(), 1, "seed {}: {gaps:?}", map.seed());
                seen.push((placed.name.clone(), key(gaps.to_vec())));
                checked.push("swarmer_mound_large");
            }
            // Flowerbeds in flower or turned to lawn; nothing else changes.
            "greenhouse" => {
                let drawn = pack.prefab("greenhouse").expect("in the pack");
                let mut beds = Vec::new();
                for q in o.cells().bounds().points() {
                    let (now, first) = (o.cells()[q], drawn.cells()[q]);
                    if first == Some(floor(7)) {
                        assert!(now == Some(floor(7)) || now == Some(floor(5)), "seed {}: {q} is {now:?}", map.seed());
                        beds.push(now.expect("drawn"));
                    } else {
                        assert_eq!(now, first, "seed {}: {q} is not a bed and changed", map.seed());
                    }
                }
                seen.push((placed.name.clone(), key(beds)));
                checked.push("greenhouse");
            }
            _ => {}
        }
    }
    checked
}

/// Over 240 maps of the four default map types that place varying prefabs
/// (pathways rooms, tunnelers' cubby encounters, cave encounters, chain rooms):
/// every map holds the invariants, every outcome is one its lines allow, and the
/// outcomes differ from placement to placement.
#[test]
fn the_default_packs_varying_prefabs_are_placed_as_their_lines_allow() {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut counts: Vec<&str> = Vec::new();
    for (map_type, depths) in [("catacombs", 1..=1), ("materials", 1..=1), ("mines", 3..=5), ("hotel", 1..=1)] {
        for seed in 0..60u64 {
            let depth = depths.start() + (seed as u32 % (depths.end() - depths.start() + 1));
            let map = generate(&pack, map_type, seed, depth);
            counts.extend(check_default_outcomes(&pack, &map, &mut seen));
        }
    }
    for (name, least) in
        [("columbarium", 15), ("storage_alcove_deep", 8), ("swarmer_mound_large", 3), ("greenhouse", 15)]
    {
        let n = counts.iter().filter(|c| **c == name).count();
        assert!(n >= least, "`{name}` placed {n} times in 240 maps, fewer than {least}");
        let mut outcomes: Vec<&str> = seen.iter().filter(|(p, _)| p == name).map(|(_, o)| o.as_str()).collect();
        outcomes.sort_unstable();
        outcomes.dedup();
        assert!(outcomes.len() >= 2, "`{name}` drew only one outcome in {n} placements");
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes_with_varying_prefabs() {
    let pack = Pack::embedded().expect("the embedded pack loads");
    for map_type in ["catacombs", "materials", "hotel"] {
        // The first seed whose map places one (a change to any stage may move it).
        let generate = |seed| Generator::new(&pack, map_type).expect("exists").generate(seed).expect("generates");
        let (seed, a) = (0..50)
            .map(|seed| (seed, generate(seed)))
            .find(|(_, map)| map.prefabs().iter().any(|p| p.variant.is_some()))
            .unwrap_or_else(|| panic!("{map_type}: no seed of 0..50 places a varying prefab"));
        let b = Generator::new(&pack, map_type).expect("exists").generate(seed).expect("generates");
        assert_eq!(render::json(&a, &pack), render::json(&b, &pack), "{map_type} seed {seed}");
        assert_eq!(render::ascii(&a, pack.palette()), render::ascii(&b, pack.palette()), "{map_type} seed {seed}");
    }
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
    let pack = tiny_pack_with_entry(
        "prefab entry\ntransforms: r0\nsubst: r = . #\nterrain:\n#######\n#.r.r.#\n#..<..#\n###+###\nlinks:\n.......\n.......\n.......\n...1...\n",
    );
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

/// A Dungeon Crawl idiom on real maps: an encounter whose two chambers are
/// joined by one of three doorways (`nsubst: + = 1 + / rest #`, which the proof
/// counts), with a staircase in the far chamber that an outcome may or may not
/// draw (general stairs, which the stairs stage resolves) and stairs down that
/// a `shuffle` moves. Over 40 maps of the materials every map keeps its
/// invariants, and every placement has exactly one doorway and its stairs.
#[test]
fn counted_doorways_and_varying_stairs_keep_every_map_whole() {
    let mut files = common::default_pack_files();
    let add = |files: &mut Vec<SourceFile>, path: &str, text: &str| {
        let f = files.iter_mut().find(|f| f.path == path).unwrap_or_else(|| panic!("{path} in the pack"));
        f.bytes.extend_from_slice(text.as_bytes());
    };
    add(
        &mut files,
        "prefabs/encounters/loot.txt",
        "\n# Two chambers, one of three doorways open; a staircase there or not.\nprefab twin_vault\ntags: cache\ntransforms: all\nstyle: enclosed\nnsubst: + = 1 + / rest #\nsubst: s = \\ .\nshuffle: > d\nlegend: d = room\nterrain:\n...#...\n...+.s.\n.>.#...\n...+.d.\n...#...\n...+...\n...####\n",
    );
    add(
        &mut files,
        "maps/materials.toml",
        "\n[[encounters.pool]]\nid = \"twin_vault\"\nweight = \"frequent\"\ncategory = \"reward\"\nprefabs = [\"twin_vault\"]\nmax_per_map = 2\ndoors = 1\n",
    );
    let pack = Pack::from_files("t", files, prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    assert!(pack.prefab("twin_vault").expect("in the pack").varies());
    let (mut placed, mut with_stairs, mut doorways) = (0, 0, Vec::new());
    for seed in 0..40 {
        let map = generate(&pack, "materials", seed, 1);
        for p in map.prefabs().iter().filter(|p| p.name == "twin_vault") {
            let o = outcome(&pack, p);
            let doors: Vec<i32> = (1..6).step_by(2).filter(|&y| at(&o, 3, y).is(Role::Door)).collect();
            assert_eq!(doors.len(), 1, "seed {seed}: one doorway open");
            assert!((1..6).step_by(2).all(|y| matches!(at(&o, 3, y).role(), Role::Door | Role::Wall)));
            doorways.push(doors[0]);
            let stairs = [(1, 2), (5, 3)].map(|(x, y)| at(&o, x, y).role());
            assert_eq!(stairs.iter().filter(|r| **r == Role::StairsDown).count(), 1, "seed {seed}: {stairs:?}");
            with_stairs += usize::from(at(&o, 5, 1).is(Role::Stairs));
            placed += 1;
        }
    }
    doorways.sort_unstable();
    doorways.dedup();
    assert!(placed >= 10, "twin_vault placed {placed} times in 40 maps");
    assert_eq!(doorways.len(), 3, "every doorway is the open one in some outcome");
    assert!(with_stairs > 0 && with_stairs < placed, "the staircase is drawn in {with_stairs} of {placed}");
}

/// Cell marks on real maps: a feature whose legend marks the glyph a `subst`
/// may draw (`quiet`, on a floor variant of its own) and a fixed glyph (`quiet`
/// and `shrine`). Over 40 maps the marks lie exactly on the cells holding those
/// glyphs in the outcome placed, turned as the prefab was, and the JSON lists
/// them; a map without marked prefabs has none.
#[test]
fn cell_marks_follow_the_glyphs_each_outcome_draws_onto_the_map() {
    let pack = tiny_pack_with_entry(
        "prefab entry\ntransforms: all\nlegend: m = room:1 mark quiet\nlegend: q = room:2 mark shrine quiet\nsubst: r = m .\nterrain:\n#######\n#.r.r.#\n#.q<..#\n###+###\nlinks:\n.......\n.......\n.......\n...1...\n",
    );
    let marked = |map: &Map, variant: u8| -> Vec<Point> {
        let mut cells = Vec::new();
        for y in 0..map.height() {
            for x in 0..map.width() {
                let t = map.terrain()[Point::new(x, y)];
                if t.is_floor() && t.variant() == variant {
                    cells.push(Point::new(x, y));
                }
            }
        }
        cells
    };
    let mut quiet_counts = Vec::new();
    for seed in 0..40 {
        let map = generate(&pack, "tiny", seed, 1);
        let marks: Vec<(&str, &[Point])> = map.marks().collect();
        let (quiet, shrine) = (marked(&map, 1), marked(&map, 2));
        let all_quiet: Vec<Point> = {
            let mut q: Vec<Point> = quiet.iter().chain(&shrine).copied().collect();
            q.sort_by_key(|p| (p.y, p.x));
            q
        };
        assert_eq!(shrine.len(), 1, "seed {seed}: the one shrine cell");
        assert_eq!(marks, [("quiet", &all_quiet[..]), ("shrine", &shrine[..])], "seed {seed}");
        assert_eq!(map.marks_at(shrine[0]).collect::<Vec<_>>(), ["quiet", "shrine"], "seed {seed}");
        quiet_counts.push(quiet.len());
        let json = render::json(&map, &pack);
        let expected = format!("\"marks\":[{{\"name\":\"quiet\",\"cells\":[[{},{}]", all_quiet[0].x, all_quiet[0].y);
        assert!(json.contains(&expected), "seed {seed}: {expected}");
    }
    quiet_counts.sort_unstable();
    quiet_counts.dedup();
    assert_eq!(quiet_counts, [0, 1, 2], "the subst marks none, one or both of its cells");
    // The default pack marks nothing, and its JSON has no `marks`.
    let default = Pack::embedded().expect("the default pack");
    let map = Generator::new(&default, "materials").expect("exists").generate(1).expect("generates");
    assert_eq!(map.marks().count(), 0);
    assert!(!render::json(&map, &default).contains("\"marks\""));
}

/// The tiny fixture pack's map type (no furnishing) with the default palette
/// and `entry` as its one prefab file, `prefabs/entry.txt`.
fn tiny_pack_with_entry(entry: &str) -> Pack {
    let mut tiny = common::default_pack_files();
    tiny.retain(|f| f.path == "palette.toml");
    let map_type =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tiny_pack/maps/tiny.toml"))
            .expect("tiny map");
    let map_type = map_type.split("[furnishing]").next().expect("text").to_string();
    for (path, text) in [
        ("pack.toml", "name = \"tiny\"\ndefault_map_type = \"tiny\"\n".to_string()),
        ("maps/tiny.toml", map_type),
        ("prefabs/entry.txt", entry.to_string()),
    ] {
        tiny.push(SourceFile { path: path.into(), bytes: text.into_bytes() });
    }
    Pack::from_files("tiny", tiny, prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}
