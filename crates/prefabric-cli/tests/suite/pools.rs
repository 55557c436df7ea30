//! What `check`, `stats` and previews say of a pathways pack's layout pools,
//! room sizes and stairs: a pool room and a hallway piece too large to ever be
//! placed, an encounter larger than any room the layout makes, and a stairs
//! count most maps miss — a small pack written to a temporary folder.

use crate::cli::{prefabric, stderr, stdout};
use std::path::{Path, PathBuf};

/// A room `w` by `h` of `floor` cells walled round, with a doorway in the
/// middle of each side, as a prefab named `name`.
fn room(name: &str, w: usize, h: usize, floor: char, extra: &str) -> String {
    let mut rows = Vec::new();
    for y in 0..h {
        let row: String = (0..w)
            .map(|x| {
                let edge_x = x == 0 || x == w - 1;
                let edge_y = y == 0 || y == h - 1;
                match (edge_x, edge_y) {
                    (true, true) => '#',
                    (true, false) if y == h / 2 => '*',
                    (false, true) if x == w / 2 => '*',
                    (false, false) => floor,
                    _ => '#',
                }
            })
            .collect();
        rows.push(row);
    }
    format!("prefab {name}\n{extra}terrain:\n{}\n", rows.join("\n"))
}

/// The pack: map type `crypt` (pathways), its rooms, hallway pieces and
/// encounters. The entrance goes down in the middle and draws the one
/// staircase down; `colossus` and `long_gallery` cover the middle wherever
/// they go, so they never fit beside it; `throne_hall` is larger than every
/// auto-room.
fn write_pack(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prefabric-pools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["maps", "prefabs"] {
        std::fs::create_dir_all(dir.join(sub)).expect("a temporary folder");
    }
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../prefabric/tests/fixtures/packs/short_pathways");
    std::fs::copy(fixture.join("palette.toml"), dir.join("palette.toml")).expect("the palette copies");
    let write = |path: &str, text: &str| std::fs::write(dir.join(path), text).expect("the pack writes");
    write("pack.toml", "name = \"pools\"\ndefault_map_type = \"crypt\"\n");
    write(
        "maps/crypt.toml",
        "width = 60
height = 40
generator = \"pathways\"
stairs = { down = 2 }

[pathways]
start = \"entrance\"
rooms = 8
attempts = 40

[pathways.pool]
vault = 1
colossus = 1

[pathways.auto_rooms]
weight = 1
width = [4, 6]
height = [3, 5]

[pathways.hallway_prefabs]
count = [1, 2]
pool = { crossing = 1, long_gallery = 1 }

[encounters]
count = [1, 2]

[[encounters.pool]]
id = \"shrine\"
weight = \"common\"
category = \"fluff\"
prefabs = [\"shrine\"]

[[encounters.pool]]
id = \"throne\"
weight = \"common\"
category = \"reward\"
prefabs = [\"throne_hall\"]
",
    );
    let entrance = room("entrance", 7, 5, '.', "").replace("#.....#\n*.....*", "#.....#\n*..>..*");
    let rooms = [
        entrance,
        room("vault", 7, 5, '.', ""),
        room("colossus", 50, 30, '.', ""),
        room("crossing", 5, 5, ',', "tags: hallway\n"),
        room("long_gallery", 50, 30, ',', "tags: hallway\n"),
    ];
    write("prefabs/rooms.txt", &rooms.join("\n"));
    let throne: String = std::iter::repeat_n(".".repeat(12), 10).collect::<Vec<_>>().join("\n");
    write(
        "prefabs/encounters.txt",
        &format!(
            "prefab shrine\nstyle: accessible\nterrain:\n..\n..\n\nprefab throne_hall\nstyle: accessible\nterrain:\n{throne}\n"
        ),
    );
    dir
}

#[test]
fn check_names_dead_pool_pieces_a_room_encounter_no_room_holds_and_short_stairs() {
    let dir = write_pack("check");
    let pack = dir.to_str().expect("a UTF-8 path");
    let out = prefabric(&["check", "--pack", pack, "--seeds", "20"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "the encounter no room holds is an error: {err}");
    let map = format!("{pack}/maps/crypt.toml");
    // Known without a trial map: the largest auto-room is 6x5, turned 5x6.
    let error = format!(
        "{map}:33:1: invalid: encounter `throne` can never be placed in map type `crypt`: its prefabs (`throne_hall` 12x10) are larger, in every orientation they allow, than every room it can make: the largest is 6x5 ([pathways.auto_rooms]) in `crypt`"
    );
    assert!(err.contains(&error), "{err}");
    assert!(!err.contains("encounter `throne` was never placed"), "the error says it: {err}");
    // Pool pieces never placed, each at its pool line.
    let room = format!(
        "{map}:13:1: warning: prefab `colossus` of [pathways.pool] was never placed in 20 trial maps, while the pool placed its other prefabs "
    );
    assert!(err.contains(&room), "{err}");
    let piece = format!(
        "{map}:22:24: warning: prefab `long_gallery` of [pathways.hallway_prefabs] pool was never placed in 20 trial maps"
    );
    assert!(err.contains(&piece) && err.contains("`prefabric generate --prefab long_gallery --explain`"), "{err}");
    assert!(!err.contains("`vault` of") && !err.contains("`crossing` of"), "placed pieces are not dead: {err}");
    // The entrance's one staircase down is short of the two asked in every map.
    let stairs = format!(
        "{map}:4:10: warning: stairs down: 2 asked, fewer placed in 20 of 20 trial maps (fewest 1, e.g. seed 0 at depth 1)"
    );
    assert!(err.contains(&stairs), "{err}");
    std::fs::remove_dir_all(&dir).expect("the folder goes");
}

#[test]
fn stats_list_pool_and_hallway_prefabs_and_how_often_stairs_fall_short() {
    let dir = write_pack("stats");
    let pack = dir.to_str().expect("a UTF-8 path");
    let out = prefabric(&["stats", "--pack", pack, "--seeds", "10", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let crypt = &stats["map_types"]["crypt"];
    assert_eq!(crypt["stairs"]["down"]["asked"], 2);
    assert_eq!(crypt["stairs"]["down"]["short"]["count"], 10);
    assert_eq!(crypt["stairs"]["down"]["fewest"], 1);
    for piece in ["crossing", "long_gallery", "colossus", "vault"] {
        assert_eq!(crypt["prefabs"][piece]["used_by"][0], "layout", "{piece}: {crypt}");
    }
    assert_eq!(crypt["prefabs"]["long_gallery"]["placed"], 0);
    let out = prefabric(&["stats", "--pack", pack, "--seeds", "10"]);
    let table = stdout(&out);
    assert!(
        table.contains("  stairs down: 2 asked, fewer in 10 maps (100.0%), fewest 1 (e.g. seed 0 depth 1)"),
        "{table}"
    );
    assert!(table.lines().any(|l| l.starts_with("  crossing ")), "{table}");
    std::fs::remove_dir_all(&dir).expect("the folder goes");
    // The built-in catacombs' hallway pieces are in the prefab table.
    let out = prefabric(&["stats", "--map-type", "catacombs", "--seeds", "20"]);
    let table = stdout(&out);
    for piece in ["brazier_crossing", "colonnade", "rotunda_junction"] {
        assert!(table.lines().any(|l| l.starts_with(&format!("  {piece} "))), "{piece}: {table}");
    }
}

#[test]
fn a_prefab_preview_places_a_pool_room_or_hallway_piece() {
    for piece in ["rotunda_junction", "great_ossuary"] {
        let args = ["generate", "--map-type", "catacombs", "--prefab", piece, "--seed", "5", "--format", "json"];
        let out = prefabric(&args);
        assert!(out.status.success(), "{piece}: {}", stderr(&out));
        let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        let placed = doc["prefabs"].as_array().expect("prefabs").iter().filter(|p| p["name"] == piece).count();
        assert!(placed >= 1, "{piece} is placed");
    }
    // One that never fits fails, saying the pool's minimum was not met.
    let dir = write_pack("preview");
    let pack = dir.to_str().expect("a UTF-8 path");
    let out = prefabric(&["generate", "--pack", pack, "--prefab", "long_gallery", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("`long_gallery` the hallway prefabs pool asks for"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).expect("the folder goes");
}

#[test]
fn an_encounter_preview_outside_its_depths_fails_at_once_saying_why() {
    let args =
        ["generate", "--map-type", "catacombs", "--encounter", "warded_reliquary", "--depth", "1", "--seed", "3"];
    let out = prefabric(&[&args[..], &["--explain"]].concat());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("encounter `warded_reliquary` cannot be placed at depth 1: depth 1 is outside its range 2-20"),
        "{err}"
    );
    assert!(err.contains("help: give a --depth in its depths 2-20"), "{err}");
    assert!(!err.contains("8 attempts") && !err.contains("== attempt 2 =="), "no retry: {err}");
}

#[test]
fn stats_name_each_encounter_never_placed_once_with_its_alternatives() {
    let out = prefabric(&["stats", "--map-type", "mines", "--seeds", "10"]);
    let table = stdout(&out);
    let lines: Vec<&str> = table.lines().filter(|l| l.contains("hermit_hole") && l.contains("never placed")).collect();
    assert_eq!(lines.len(), 1, "{table}");
    assert!(lines[0].starts_with("  encounter `hermit_hole` (hermit_hole_small, "), "{}", lines[0]);
}

#[test]
fn check_notes_a_stairs_count_some_trial_maps_miss_without_warning() {
    // The built-in mines ask for two ways down; the second is an encounter's,
    // so some maps have one: a note with the numbers, no warning, exit 0.
    let out = prefabric(&["check", "--strict"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let note = err
        .lines()
        .find(|l| l.starts_with("note: mines: stairs down: 2 asked, fewer placed in "))
        .unwrap_or_else(|| panic!("{err}"));
    let missed: u32 = note["note: mines: stairs down: 2 asked, fewer placed in ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{note}"));
    assert!(missed > 0 && missed * 2 < 200, "{note}");
    assert!(!err.contains("warning: stairs"), "{err}");
}

#[test]
fn a_pool_of_many_unknown_names_is_reported_a_few_at_a_time_with_the_total() {
    let dir = write_pack("unknown");
    let pack = dir.to_str().expect("a UTF-8 path");
    let map = dir.join("maps/crypt.toml");
    let text = std::fs::read_to_string(&map).expect("the map type reads");
    // 5,000 names no prefab has, and one close to `vault`, after them.
    let mut names: String = (0..5_000).map(|i| format!("ghost_room_{i:04} = 1\n")).collect();
    names.push_str("vualt_room = 1\n");
    std::fs::write(&map, text.replace("[pathways.pool]\n", &format!("[pathways.pool]\n{names}"))).expect("it writes");
    for command in ["check", "generate"] {
        let out = prefabric(&[command, "--pack", pack]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        let shown = err.matches("invalid: no prefab named `ghost_room_").count();
        assert_eq!(shown, prefabric::SHOWN_PER_SHAPE, "a few of them: {err}");
        let file = format!("{pack}/maps/crypt.toml");
        // The names are sorted by the pool's table, `vualt_room` last, so the
        // summary stands after the tenth ghost and counts the close one too.
        assert!(err.contains(&format!("… and 4,991 more like it in {file}\n")), "{err}");
        assert!(err.ends_with("5001 problems in the pack\n"), "every problem is counted: {err}");
        assert!(err.lines().count() < 40, "a screen, not thousands of lines: {err}");
    }
    std::fs::remove_dir_all(&dir).expect("the folder goes");
}
