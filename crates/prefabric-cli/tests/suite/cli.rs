//! The `prefabric` command as users run it: output, exit codes, errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub(crate) fn prefabric(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prefabric"))
        .args(args)
        .current_dir(repo())
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8")
}

/// The reproduce line `generate --out FILE` printed on standard error.
pub(crate) fn reproduce_line(o: &Output) -> String {
    let err = stderr(o);
    err.split("reproduce: ").nth(1).and_then(|r| r.strip_suffix(")\n")).expect(&err).to_string()
}

/// Runs a printed `prefabric ...` command line, writing to `out` where it wrote
/// the file whose name ends in `ending`.
pub(crate) fn run_redirected(command: &str, ending: &str, out: &Path) -> Output {
    let out = out.to_str().unwrap();
    let args: Vec<&str> = command.split(' ').skip(1).map(|a| if a.ends_with(ending) { out } else { a }).collect();
    prefabric(&args)
}

#[test]
fn generate_with_no_options_prints_a_200x200_map_and_its_seed() {
    let out = prefabric(&["generate"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("# map type materials, seed "), "{header}");
    assert!(header.contains("reproduce: prefabric generate --map-type materials --seed "), "{header}");
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 200);
    assert!(rows.iter().all(|r| r.chars().count() == 200));
    assert!(!text.contains('\x1b'), "no colour codes when stdout is not a terminal");
}

#[test]
fn the_same_seed_prints_the_same_map() {
    let a = prefabric(&["generate", "--seed", "42"]);
    let b = prefabric(&["generate", "--seed", "42"]);
    let c = prefabric(&["generate", "--seed", "43"]);
    assert_eq!(stdout(&a), stdout(&b));
    assert_eq!(stdout(&a).lines().count(), 201);
    assert_ne!(stdout(&a).lines().skip(1).collect::<Vec<_>>(), stdout(&c).lines().skip(1).collect::<Vec<_>>());
}

#[test]
fn json_output_follows_the_schema() {
    let out = prefabric(&["generate", "--seed", "9", "--depth", "2", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(doc["format"], "prefabric-map");
    assert_eq!(doc["seed"], 9);
    assert_eq!(doc["depth"], 2);
    assert_eq!(doc["map_type"], "materials");
    assert_eq!((doc["width"].as_i64(), doc["height"].as_i64()), (Some(200), Some(200)));
    let rows = doc["rows"].as_array().unwrap();
    let passable = doc["passable"].as_array().unwrap();
    assert_eq!((rows.len(), passable.len()), (200, 200));
    // Cells under objects that block walkers (machines).
    let blocked: std::collections::BTreeSet<(i64, i64)> = doc["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["blocks"] == true)
        .flat_map(|o| o["cells"].as_array().unwrap().iter().map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap())))
        .collect();
    assert!(!blocked.is_empty(), "machines block");
    for (y, (row, pass)) in rows.iter().zip(passable).enumerate() {
        let (row, pass) = (row.as_str().unwrap(), pass.as_str().unwrap());
        assert_eq!(pass.len(), 200);
        for (x, (glyph, p)) in row.chars().zip(pass.chars()).enumerate() {
            // In the default palette walls, earth and barriers draw as `#`, ` ` and
            // `X`, reinforced walls as `%` and fallen rock as `^`.
            let walkable = !matches!(glyph, '#' | ' ' | 'X' | '%' | '^');
            let machine = blocked.contains(&(x as i64, y as i64));
            assert_eq!(p == '1', walkable && !machine, "{glyph} {p} at ({x}, {y})");
        }
    }
    let spawn_blocked = doc["spawn_blocked"].as_array().unwrap();
    assert_eq!(spawn_blocked.len(), 200);
    assert!(spawn_blocked.iter().any(|r| r.as_str().unwrap().contains('1')), "entrances are spawn-blocked");
    let regions = doc["regions"].as_array().unwrap();
    assert!(regions.iter().any(|r| r["kind"] == "room" && !r["doors"].as_array().unwrap().is_empty()));
    for r in regions {
        for key in ["id", "kind", "x", "y", "width", "height", "doors"] {
            assert!(!r[key].is_null(), "region without {key}");
        }
    }
    let prefabs = doc["prefabs"].as_array().unwrap();
    assert!(!prefabs.is_empty());
    for p in prefabs {
        assert!(prefabric::Transform::parse(p["transform"].as_str().unwrap()).is_some());
        match p["stage"].as_str() {
            Some("feature") => {
                assert_eq!(
                    (p["style"].as_str(), p["encounter"].is_null(), p["category"].is_null()),
                    (Some("feature"), true, true)
                )
            }
            Some("encounter") => {
                assert!(["enclosed", "cubby", "accessible"].contains(&p["style"].as_str().unwrap()), "{p}");
                assert!(["fluff", "risk-reward", "danger", "reward"].contains(&p["category"].as_str().unwrap()), "{p}");
                assert!(p["encounter"].is_string(), "{p}");
            }
            other => panic!("unknown stage {other:?}"),
        }
    }
    assert!(prefabs.iter().any(|p| p["stage"] == "encounter"), "the materials map embeds encounters");
    // Machines drawn on the prefabs' machine layers, and the objects their reference
    // characters stand for, stand on walkable cells inside the prefab that brought them.
    let objects = doc["objects"].as_array().unwrap();
    assert!(objects.iter().any(|o| o["kind"] == "machine"), "seed 9 places prefabs with machines");
    assert!(objects.iter().any(|o| o["kind"] == "entity"), "and prefabs with robots");
    let parts = ["interactive", "filler", "stockpile", "terminal", "item"];
    for part in parts {
        assert!(objects.iter().any(|o| o["part"] == part), "seed 9 is furnished with a {part}");
    }
    for o in objects {
        let furnished = o["source"] == "furnishing";
        assert_eq!(o["blocks"], o["kind"] == "machine", "{o}");
        match o["kind"].as_str().unwrap() {
            // Furnished machines and those definition lines place or name have
            // a catalog tag; a drawn machine no line names has none.
            "machine" => assert_eq!(o["tag"].is_string(), furnished || o["definition"].is_object(), "{o}"),
            "entity" | "item" | "prop" | "trap" | "debris" => assert!(o["tag"].is_string(), "{o}"),
            other => panic!("unknown kind {other}"),
        }
        assert!(o["keywords"].as_array().unwrap().iter().all(|k| k[0].is_string()), "{o}");
        let cells = o["cells"].as_array().unwrap();
        assert_eq!((o["x"].clone(), o["y"].clone()), (cells[0][0].clone(), cells[0][1].clone()));
        let solid = if o["blocks"] == true { b'0' } else { b'1' };
        for c in cells {
            let (x, y) = (c[0].as_i64().unwrap(), c[1].as_i64().unwrap());
            assert_eq!(c[2].as_str().unwrap().chars().count(), 1);
            assert_eq!(passable[y as usize].as_str().unwrap().as_bytes()[x as usize], solid, "{o}");
        }
        if furnished {
            // Furnishing: no prefab, a part, the region it stands in; stockpile items
            // say which pile.
            assert!(o["prefab"].is_null() && o["region"].is_u64(), "{o}");
            assert!(parts.contains(&o["part"].as_str().unwrap()), "{o}");
            assert_eq!(o["pile"].is_u64(), o["part"] == "stockpile", "{o}");
            continue;
        }
        assert!(o["part"].is_null() && o["pile"].is_null() && o["region"].is_null(), "{o}");
        let prefab = &prefabs[o["prefab"].as_u64().unwrap() as usize];
        assert_eq!(o["source"], prefab["name"]);
        for c in cells {
            let (x, y) = (c[0].as_i64().unwrap(), c[1].as_i64().unwrap());
            let (px, py) = (prefab["x"].as_i64().unwrap(), prefab["y"].as_i64().unwrap());
            assert!(
                x >= px
                    && y >= py
                    && x < px + prefab["width"].as_i64().unwrap()
                    && y < py + prefab["height"].as_i64().unwrap()
            );
        }
    }
}

#[test]
fn out_writes_a_file_and_tells_the_seed() {
    let dir = std::env::temp_dir().join(format!("prefabric-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("map.txt");
    let out = prefabric(&["generate", "--seed", "5", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("seed 5"), "{}", stderr(&out));
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written, stdout(&prefabric(&["generate", "--seed", "5"])));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn explain_prints_the_decisions_to_stderr() {
    let out = prefabric(&["generate", "--seed", "3", "--explain", "--format", "json"]);
    assert!(out.status.success());
    let err = stderr(&out);
    assert!(err.contains("[features] chose: feature variant"), "{err}");
    assert!(err.contains("[layout] note:"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    let out = prefabric(&["generate", "--map-type", "caverns"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no map type named `caverns`"), "{}", stderr(&out));
    assert!(stderr(&out).contains("materials"), "the help lists the map types");
    assert_eq!(prefabric(&["generate", "--format", "xml"]).status.code(), Some(2));
    assert_eq!(prefabric(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(prefabric(&["check", "--pack", "no/such/folder"]).status.code(), Some(2));
    assert_eq!(prefabric(&["show", "no/such/file.txt"]).status.code(), Some(2));
}

#[test]
fn check_passes_the_default_pack() {
    let out = prefabric(&["check"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("ok: pack `default`"), "{}", stdout(&out));
    let out = prefabric(&["check", "--pack", "content/default", "--seeds", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn check_reports_every_problem_with_file_line_col_and_exits_1() {
    let pack = "crates/prefabric/tests/fixtures/packs/bad_values";
    let out = prefabric(&["check", "--pack", pack]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let located: Vec<&str> = err.lines().filter(|l| l.starts_with(pack) && l.split(':').count() >= 4).collect();
    assert!(located.len() >= 5, "every problem, not just the first:\n{err}");
    assert!(err.contains("problems in the pack"), "{err}");
    // A broken pack makes generate fail the same way.
    assert_eq!(prefabric(&["generate", "--pack", pack]).status.code(), Some(1));
}

#[test]
fn show_renders_prefabs_as_placed() {
    let file = "content/default/prefabs/set_pieces.txt";
    let out = prefabric(&["show", file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("prefab crossroads_plaza") && text.contains("terrain:"), "{text}");

    // An .xp prefab shows the same way once asked to be read as a prefab.
    let xp = "content/default/prefabs/xp/mine_shaft.xp";
    let out = prefabric(&["show", xp, "--name", "mine_shaft", "--transform", "r90"]);
    let text = stdout(&out);
    assert!(text.starts_with("# mine_shaft as r90: 9x11"), "{text}");
    let grid: Vec<&str> =
        text.lines().skip_while(|l| *l != "terrain:").skip(1).take_while(|l| *l != "links:").collect();
    assert_eq!(grid.len(), 11);
    assert!(grid.iter().all(|r| r.chars().count() == 9));

    // The winches turned with the prefab.
    let machines: Vec<&str> = text.lines().skip_while(|l| *l != "machines:").skip(1).take(11).collect();
    assert_eq!(machines.concat().chars().filter(|c| *c != '.').collect::<String>(), "╖╜╖╜", "{text}");

    let out = prefabric(&["show", xp, "--all-transforms"]);
    assert_eq!(stdout(&out).matches("# mine_shaft as ").count(), 8);

    let out = prefabric(&["show", "content/default/prefabs/entrances.txt", "--name", "nothing"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("it has: freight_exit"), "{}", stderr(&out));
}

#[test]
fn show_prints_outcomes_of_a_varying_prefab() {
    let file = "content/default/prefabs/catacombs/ossuaries.txt";
    let out = prefabric(&["show", file, "--name", "columbarium", "--variants", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The prefab as drawn, its lines included, then four outcomes.
    assert!(text.contains("shuffle: $ 2\nterrain:\n###*#######\n#.........#\n#.$$$.222.#"), "{text}");
    assert_eq!(text.matches("# columbarium variant ").count(), 4, "{text}");
    let outcomes: Vec<&str> = text.split("# columbarium variant ").skip(1).collect();
    for o in &outcomes {
        assert!(!o.contains("shuffle:"), "an outcome has no variation lines: {o}");
        let row = o.lines().skip_while(|l| *l != "terrain:").nth(3).expect("a third terrain row");
        assert!(row == "#.$$$.222.#" || row == "#.222.$$$.#", "{row}");
    }
    // Both ways of dealing the shuffle among four seeds, and the same again.
    assert!(text.contains("#.222.$$$.#") && text.matches("#.$$$.222.#").count() >= 2, "{text}");
    assert_eq!(stdout(&prefabric(&["show", file, "--name", "columbarium", "--variants", "4"])), text);
    // A prefab without variation lines says so and prints only itself.
    let out =
        prefabric(&["show", "content/default/prefabs/set_pieces.txt", "--name", "crossroads_plaza", "--variants", "2"]);
    assert!(out.status.success());
    assert!(!stdout(&out).contains(" variant "), "{}", stdout(&out));
    assert!(stderr(&out).contains("has no variation lines"), "{}", stderr(&out));
    // --variants 0 is a usage error.
    assert_eq!(prefabric(&["show", file, "--variants", "0"]).status.code(), Some(2));
}

#[test]
fn show_draws_every_layer_of_any_xp_file() {
    let Some(xp) = crate::testdata::testdata("xp") else { return };
    let mltest = xp.join("mltest.xp").display().to_string();
    let out = prefabric(&["show", &mltest]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let expected = "layer 1 of 2: 8x4, 0 transparent cells\nAAAAAAAA\nAAAAAAAA\nAAAAAAAA\nAAAAAAAA\n\
        layer 2 of 2: 8x4, 24 transparent cells\n        \n  BBBB  \n  BBBB  \n        \n";
    assert_eq!(text, expected);
    // CP437 glyphs come out as Unicode: SmallDungeon is drawn in full blocks.
    let small_dungeon = xp.join("SmallDungeon_80x50.xp").display().to_string();
    let out = prefabric(&["show", &small_dungeon, "--plain"]);
    let text = stdout(&out);
    assert_eq!(text.lines().nth(1).unwrap(), "█".repeat(80));
    // A file that is not an image says so, naming it.
    let out = prefabric(&["show", "README.md.xp"]);
    assert_eq!(out.status.code(), Some(2));
    let out = prefabric(&["show", "Cargo.toml", "--prefab"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn show_falls_back_to_layers_for_prefabs_text_cannot_hold() {
    let dir = std::env::temp_dir().join(format!("prefabric-blank-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let limits = prefabric::Limits::default();
    let bytes = std::fs::read(repo().join("content/default/prefabs/xp/mine_shaft.xp")).unwrap();
    let mut image = prefabric::format::xp::read("mine_shaft.xp", &bytes, &limits).unwrap();
    // A winch cell painted without a glyph: a valid machine cell, but no text glyph.
    let machines = image.layer_mut(2).unwrap();
    let cell = machines[prefabric::Point::new(2, 2)];
    machines.set(prefabric::Point::new(2, 2), prefabric::XpCell { glyph: 0, ..cell });
    let path = dir.join("blank_winch.xp");
    std::fs::write(&path, prefabric::format::xp::write(&image)).unwrap();
    let out = prefabric(&["show", path.to_str().unwrap(), "--prefab"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("showing its REXPaint layers instead"), "{}", stderr(&out));
    assert!(stdout(&out).contains("layer 3 of 4: 11x9"), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_goes_between_text_and_xp_without_loss() {
    let dir = std::env::temp_dir().join(format!("prefabric-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let xp = dir.join("storage_depot.xp");
    let xp = xp.to_str().unwrap();
    let out = prefabric(&["convert", "content/default/prefabs/small.txt", xp, "--name", "storage_depot"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(dir.join("storage_depot.toml")).unwrap().contains("tags = ["));
    let back = stdout(&prefabric(&["convert", xp, "-"]));
    let shown = stdout(&prefabric(&["show", "content/default/prefabs/small.txt", "--name", "storage_depot"]));
    // `show` adds one comment line before the prefab text.
    assert_eq!(back, shown.split_once('\n').unwrap().1);

    // Several prefabs need a name or a folder.
    let out = prefabric(&["convert", "content/default/prefabs/small.txt", xp]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("pick one with --name"), "{}", stderr(&out));
    // Existing files are kept unless --force, and nothing is written when one is in
    // the way.
    let out = prefabric(&["convert", "content/default/prefabs/small.txt", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("storage_depot.xp already exists; give --force"), "{}", stderr(&out));
    assert!(!dir.join("sealed_vault.xp").exists());
    let out = prefabric(&["convert", "content/default/prefabs/small.txt", dir.to_str().unwrap(), "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.join("sealed_vault.xp").is_file() && dir.join("relay_outpost.toml").is_file());
    // Never over the input, even with --force.
    let out = prefabric(&["convert", xp, xp, "--force"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
    // A .xp prefab is named after its file, so the file name must be a prefab name.
    let bad = dir.join("two words.xp");
    let out = prefabric(&["convert", xp, bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("contains a space"), "{}", stderr(&out));
    assert!(!bad.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generate_writes_an_xp_image_of_the_map() {
    let dir = std::env::temp_dir().join(format!("prefabric-xp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("map.xp");
    let out = prefabric(&["generate", "--seed", "9", "--format", "xp", "--out", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&path).unwrap();
    let image = prefabric::format::xp::read("map.xp", &bytes, &prefabric::Limits::default()).unwrap();
    assert_eq!((image.width(), image.height(), image.layers().len()), (200, 200, 3));
    // Layer 1 has the ASCII output's terrain glyphs (objects go on layer 3), as JSON's
    // `rows` hold them.
    let json = stdout(&prefabric(&["generate", "--seed", "9", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows: Vec<&str> = doc["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    for (y, row) in rows.iter().enumerate() {
        for (x, glyph) in row.chars().enumerate() {
            let cell = image.layers()[0][prefabric::Point::new(x as i32, y as i32)];
            assert_eq!(prefabric::format::cp437::to_char(cell.glyph), Some(glyph), "({x}, {y})");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_reports_prefab_problems_with_places_and_exits_1() {
    let out = prefabric(&["show", "crates/prefabric/tests/fixtures/prefabs/bad/ragged.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("ragged.txt:4:5: invalid: row is 4 cells wide"), "{}", stderr(&out));
}

#[test]
fn help_shows_an_example_for_each_command() {
    for command in ["generate", "show", "check", "convert", "world"] {
        let out = prefabric(&[command, "--help"]);
        assert!(out.status.success());
        let text = stdout(&out);
        assert!(text.contains("Examples:") && text.contains(&format!("prefabric {command}")), "{command}:\n{text}");
    }
    assert!(stdout(&prefabric(&["--help"])).contains("Examples:"));
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_prefabric"))
        .args(["generate", "--seed", "1"])
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close our end before the map is written, as `| head -0` would.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn world_writes_levels_and_the_world_state() {
    let dir = std::env::temp_dir().join(format!("prefabric-world-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = prefabric(&["world", "--levels", "3", "--seed", "5", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("level 01  depth 1  seed ") && text.contains("level 03  depth 3"), "{text}");
    let world = std::fs::read_to_string(dir.join("world.json")).unwrap();
    let world = prefabric::World::from_json("world.json", &world).unwrap();
    assert_eq!(world.levels(), 3);
    // Each level file is a map whose encounters the world counted.
    let mut counted = 0;
    for level in 1..=3 {
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("level-0{level}.json"))).unwrap()).unwrap();
        assert_eq!(doc["depth"], level);
        counted += doc["prefabs"].as_array().unwrap().iter().filter(|p| p["stage"] == "encounter").count();
        counted += doc["object_encounters"].as_array().unwrap().len();
    }
    assert_eq!(world.encounters().map(|(_, n)| n as usize).sum::<usize>(), counted);
    // Carrying on from the saved world continues its level count.
    let saved = dir.join("world.json");
    let out = prefabric(&["world", "--levels", "1", "--seed", "5", "--world", saved.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_warns_when_a_chain_falls_short_of_its_target() {
    let pack = "crates/prefabric/tests/fixtures/packs/short_chain";
    let out = prefabric(&["check", "--pack", pack, "--seeds", "10"]);
    assert!(out.status.success(), "a warning is not a failure: {}", stderr(&out));
    let err = stderr(&out);
    let warning = format!("{pack}/maps/cramped.toml:8:10: warning: the chain placed a median of ");
    assert!(err.contains(&warning) && err.contains("of its 40 target prefabs over 10 trial maps"), "{err}");
    assert!(stdout(&out).contains("(1 warning)"), "{}", stdout(&out));
    // The built-in pack's chains reach their targets.
    let out = prefabric(&["check", "--seeds", "5"]);
    assert!(!stderr(&out).contains("target prefabs"), "{}", stderr(&out));
}

#[test]
fn check_warns_when_the_pathways_fall_short_of_their_rooms() {
    let pack = "crates/prefabric/tests/fixtures/packs/short_pathways";
    let out = prefabric(&["check", "--pack", pack, "--seeds", "10"]);
    assert!(out.status.success(), "a warning is not a failure: {}", stderr(&out));
    let err = stderr(&out);
    let warning = format!("{pack}/maps/crowded.toml:8:9: warning: the pathways placed a median of ");
    assert!(err.contains(&warning) && err.contains("of its 30 rooms over 10 trial maps"), "{err}");
    // The built-in catacombs place their rooms.
    let out = prefabric(&["check", "--seeds", "5"]);
    assert!(!stderr(&out).contains("rooms over"), "{}", stderr(&out));
}

#[test]
fn check_finds_cave_encounters_too_large_for_any_cavern() {
    let pack = "crates/prefabric/tests/fixtures/packs/cave_misfits";
    let out = prefabric(&["check", "--pack", pack, "--seeds", "12"]);
    assert_eq!(out.status.code(), Some(1), "a prefab no cavern holds is an error: {}", stderr(&out));
    let err = stderr(&out);
    let error = format!("{pack}/maps/tight.toml:13:1: invalid: encounter `great_hall` is too large for any cavern");
    assert!(err.contains(&error) && err.contains("help: a centered prefab needs two thirds"), "{err}");
    let warning =
        format!("{pack}/maps/tight.toml:19:1: warning: encounter `deep_vault` was never placed in 12 trial maps");
    assert!(err.contains(&warning) && err.contains("rock beside it deep and whole enough"), "{err}");
    assert!(!err.contains("`cairn`"), "the small one is placed: {err}");
    // The built-in mines place every encounter of theirs.
    let out = prefabric(&["check"]);
    assert!(out.status.success() && !stderr(&out).contains("never placed"), "{}", stderr(&out));
}

#[test]
fn catacombs_come_out_in_every_format_with_their_trace() {
    let json = stdout(&prefabric(&["generate", "--map-type", "catacombs", "--seed", "4", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["generator"], "pathways");
    let regions = doc["regions"].as_array().unwrap();
    assert!(regions.iter().any(|r| r["kind"] == "corridor") && regions.iter().any(|r| r["kind"] == "prefab"));
    let layout = doc["prefabs"].as_array().unwrap().iter().filter(|p| p["stage"] == "layout").count();
    assert!(layout >= 10, "{layout} hand-made rooms and hallway prefabs");
    let ascii = stdout(&prefabric(&["generate", "--map-type", "catacombs", "--seed", "4", "--format", "ascii"]));
    assert_eq!(ascii.lines().count(), 71, "the reproduce line and 70 rows");
    let ansi = stdout(&prefabric(&["generate", "--map-type", "catacombs", "--seed", "4", "--format", "ansi"]));
    assert!(ansi.contains("\u{1b}["), "colours");
    let dir = std::env::temp_dir().join(format!("prefabric-catacombs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("catacombs.xp");
    let out = prefabric(&[
        "generate",
        "--map-type",
        "catacombs",
        "--seed",
        "4",
        "--format",
        "xp",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let image = prefabric::format::xp::read("c.xp", &std::fs::read(&path).unwrap(), &prefabric::Limits::default());
    assert_eq!(image.map(|i| (i.width(), i.height())).ok(), Some((100, 70)));
    std::fs::remove_dir_all(&dir).unwrap();
    let out = prefabric(&["generate", "--map-type", "catacombs", "--seed", "4", "--explain"]);
    let trace = stderr(&out);
    assert!(trace.contains("[layout] chose: first room: `catacomb_stair`"), "{trace}");
    assert!(trace.contains("[layout] note: pathways placed "), "{trace}");
    assert!(trace.contains("[encounters]") && trace.contains("[furnishing]"), "{trace}");
}

#[test]
fn check_reports_dead_content_with_its_place_reason_and_seed() {
    let pack = "crates/prefabric/tests/fixtures/packs/dead_content";
    let out = prefabric(&["check", "--pack", pack]);
    let err = stderr(&out);
    assert!(out.status.success(), "dead content is a warning: {err}");
    assert!(stdout(&out).contains("(3 warnings)"), "{}", stdout(&out));
    let expected = [
        // A feature variant's prefab that always collides with the one before it.
        "/maps/depot.toml:17:1: warning: prefab `gate_twin` of feature variant `twins` was never placed in 200 trial maps: its feature placement was skipped 200 times: no free spot: tries mostly overlapped prefab `gate` (e.g. seed 0)",
        // An encounter alternative larger than any room.
        "/maps/depot.toml:25:1: warning: alternative `crate_huge` of encounter `crates` was never used in 200 trial maps",
        // An encounter whose only prefab fits no room.
        "/maps/depot.toml:31:1: warning: encounter `throne` was never placed in 200 trial maps: every room or cavern tried was too small for its prefabs in",
    ];
    for line in expected {
        assert!(err.contains(&format!("{pack}{line}")), "missing {line}:\n{err}");
    }
    // The definition line only the unused alternative draws is that
    // alternative's follow-on, not a warning of its own.
    assert!(!err.contains("crates.def:3:18"), "{err}");
    let strict = prefabric(&["check", "--pack", pack, "--strict"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(stderr(&strict).ends_with("3 warnings, and --strict makes warnings errors\n"), "{}", stderr(&strict));
    // The built-in pack has none, so CI of content can use --strict.
    let out = prefabric(&["check", "--strict"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn check_finds_a_link_that_can_never_dig_without_trials() {
    let pack = "crates/prefabric/tests/fixtures/packs/cannot_fit";
    let out = prefabric(&["check", "--pack", pack, "--seeds", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{pack}/maps/edges.toml:14:10: invalid: prefab `south_gate` at south can never be placed on the 40x40 map: in every allowed orientation, at every spot its jitter reaches, a link's clear ground would fall off the map or on its outer ring")),
        "{err}"
    );
}

#[test]
fn previews_force_a_variant_an_encounter_or_a_prefab() {
    // A variant by name, traced as forced, and reproduced with its flag.
    let out = prefabric(&["generate", "--variant", "plaza", "--seed", "3", "--explain"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("feature variant `plaza` (weight 2 of 7), forced by the preview"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).lines().next().unwrap().ends_with("--seed 3 --variant plaza"), "{}", stdout(&out));
    let out = prefabric(&["generate", "--variant", "plazza"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("has no feature variant `plazza`") && stderr(&out).contains("did you mean `plaza`?"));
    // A prefab: its encounter is placed first, as that alternative, in every seed.
    for seed in ["1", "2", "3"] {
        let args = ["generate", "--map-type", "mines", "--prefab", "hermit_hole_small", "--depth", "2", "--seed", seed];
        let json = stdout(&prefabric(&[&args[..], &["--format", "json"]].concat()));
        assert!(json.contains("\"name\":\"hermit_hole_small\""), "seed {seed}");
    }
    // An encounter that fits nowhere fails with why, on every attempt.
    let pack = "crates/prefabric/tests/fixtures/packs/dead_content";
    let out = prefabric(&["generate", "--pack", pack, "--encounter", "throne", "--seed", "1", "--explain"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("encounter `throne` (as `throne_hall`) cannot be placed in this map: none of the"), "{err}");
    // --explain prints each attempt's trace and failure.
    assert!(err.contains("== attempt 1 ==\n") && err.contains("== attempt 8 ==\n"), "{err}");
    assert!(err.contains("attempt 8 failed: encounter `throne`"), "{err}");
    // A forced optional prefab is required: the preview fails with the rule that stopped it.
    let out = prefabric(&["generate", "--pack", pack, "--prefab", "gate_twin", "--seed", "1"]);
    assert!(stderr(&out).contains("no free spot in 64 tries: 64 overlapped prefab `gate`"), "{}", stderr(&out));
}

#[test]
fn the_format_follows_the_out_extension_and_the_reproduce_line_makes_the_same_file() {
    let dir = std::env::temp_dir().join(format!("prefabric-cli-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("a.json");
    let out = prefabric(&["generate", "--seed", "5", "--format", "json", "--out", first.to_str().unwrap()]);
    // The extension implies json, so the reproduce line needs no --format.
    let reproduce = reproduce_line(&out);
    assert!(!reproduce.contains("--format"), "{reproduce}");
    let again = dir.join("b.json");
    assert!(run_redirected(&reproduce, "a.json", &again).status.success());
    assert_eq!(std::fs::read(&first).unwrap(), std::fs::read(&again).unwrap());
    assert!(std::fs::read_to_string(&again).unwrap().starts_with("{\"format\":\"prefabric-map\""));
    // A format the extension does not imply is named in the line.
    let odd = dir.join("c.json");
    let out = prefabric(&["generate", "--seed", "5", "--format", "ascii", "--out", odd.to_str().unwrap()]);
    assert!(stderr(&out).contains("--seed 5 --format ascii --out"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn show_and_convert_work_on_one_file_of_a_broken_pack() {
    let dir = std::env::temp_dir().join(format!("prefabric-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&repo().join("content/default"), &dir);
    let entrances = dir.join("prefabs/entrances.txt");
    let text = std::fs::read_to_string(&entrances).unwrap();
    std::fs::write(&entrances, text.replacen("\nterrain:\n", "\nterrain:\n@@@\n", 1)).unwrap();
    let items = dir.join("catalog/items.toml");
    std::fs::write(&items, std::fs::read_to_string(&items).unwrap() + "\n[[unclosed\n").unwrap();
    let pack = dir.to_str().unwrap();
    let set_pieces = dir.join("prefabs/set_pieces.txt");
    let set_pieces = set_pieces.to_str().unwrap();

    // A sound file of the broken pack shows, the other files' problems as warnings.
    let out = prefabric(&["show", set_pieces, "--pack", pack, "--name", "crossroads_plaza"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("# crossroads_plaza as r0"), "{}", stdout(&out));
    let warned = stderr(&out);
    assert!(warned.contains("warning: the pack has"), "{warned}");
    assert!(warned.contains("items.toml:") && warned.contains("entrances.txt:"), "{warned}");
    let out = prefabric(&["convert", set_pieces, "-", "--pack", pack, "--name", "crossroads_plaza"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("prefab crossroads_plaza"), "{}", stdout(&out));

    // The broken file itself: its own problems as errors, the others as warnings.
    let out = prefabric(&["show", entrances.to_str().unwrap(), "--pack", pack]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(said.contains("entrances.txt:13:1: invalid: unknown glyph `@`"), "{said}");
    let warned_about_itself = said.lines().any(|l| l.starts_with("warning: ") && l.contains("entrances.txt:"));
    assert!(!warned_about_itself, "{said}");
    assert!(said.contains("warning: ") && said.contains("items.toml:"), "{said}");

    // Without its palette nothing can be read, and it says so.
    let palette = dir.join("palette.toml");
    std::fs::write(&palette, std::fs::read_to_string(&palette).unwrap() + "\n[[\n").unwrap();
    let out = prefabric(&["show", set_pieces, "--pack", pack]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("palette.toml:"), "{}", stderr(&out));
    assert!(stderr(&out).contains("the pack's palette did not load"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_resolve_says_what_each_reference_stands_for_at_a_depth() {
    let pack = "crates/prefabric-cli/tests/fixtures/resolve_pack";
    let file = format!("{pack}/prefabs/armory.txt");
    let legend = |extra: &[&str]| -> String {
        let mut args = vec!["show", file.as_str(), "--pack", pack];
        args.extend_from_slice(extra);
        let out = prefabric(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).is_empty(), "a sound pack gives no warnings: {}", stderr(&out));
        let text = stdout(&out);
        let at = text.find("# references at").unwrap_or_else(|| panic!("no legend in\n{text}"));
        text[at..].to_string()
    };
    // --resolve alone resolves at depth 1: STRONG lifts the guard one level, the
    // gun is the best common one, the lamp keeps its chance, the group its lines.
    let shallow = legend(&["--resolve"]);
    for expected in [
        &format!("# references at depth 1, through {pack}/prefabs/armory.def:\n"),
        "#   g  line 2, entity\n#        class:guard -> recruit (rating 1)\n#        keywords: STRONG\n",
        "#   1  line 3, item\n#        category:gun -> pistol (rating 1)\n#        keywords: 40%:PROTOTYPE\n",
        "#   L  line 4, prop, 60% chance\n#        lamp\n",
        "#   2  line 5, item, group @loot, one of its 2 lines\n#        carbine (rating 2)\n",
        "#   2  line 6, item, group @loot, one of its 2 lines\n#        rifle (rating 4)\n",
    ] {
        assert!(shallow.contains(expected), "missing {expected:?} in\n{shallow}");
    }
    // Deeper, the picks change, and a keyword's own chance shows what it would give.
    let deep = legend(&["--depth", "3"]);
    for expected in [
        "class:guard -> sergeant (rating 3)",
        "category:gun -> pistol (rating 1) | carbine (rating 2)\n#          with 40%:PROTOTYPE: prototype_rifle (rating 3, 25% jammed_rifle)\n",
    ] {
        assert!(deep.contains(expected), "missing {expected:?} in\n{deep}");
    }
    // Turning the prefab does not repeat the legend.
    assert_eq!(legend(&["--resolve", "--all-transforms"]).matches("# references at").count(), 1);
}

#[test]
fn png_follows_the_out_extension_and_its_reproduce_line_makes_the_same_image() {
    let dir = std::env::temp_dir().join(format!("prefabric-cli-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("a.png");
    let args =
        ["generate", "--map-type", "hotel", "--seed", "3", "--highlight", "category", "--legend", "--scale", "2"];
    let out = prefabric(&[&args[..], &["--out", first.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&first).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    let reproduce = reproduce_line(&out);
    assert!(reproduce.contains("--scale 2 --highlight category --legend"), "{reproduce}");
    assert!(!reproduce.contains("--format"), "the extension implies png: {reproduce}");
    let again = dir.join("b.png");
    assert!(run_redirected(&reproduce, "a.png", &again).status.success());
    assert_eq!(bytes, std::fs::read(&again).unwrap());
    // Image options mean nothing to the text formats.
    let out = prefabric(&["generate", "--seed", "3", "--format", "ascii", "--legend"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("draw PNG images"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_readme_image_is_what_its_command_draws() {
    // The manual's tour of the command line shows this image under the command
    // that makes it (and the README shows the image).
    let tour = std::fs::read_to_string(repo().join("docs/getting-started.md")).unwrap();
    let command = "prefabric generate --map-type catacombs --seed 5 --highlight category --legend --out docs/images/catacombs.png";
    assert!(tour.contains(&format!("$ {command}\n")), "docs/getting-started.md shows `{command}`");
    let dir = std::env::temp_dir().join(format!("prefabric-readme-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let drawn = dir.join("catacombs.png");
    assert!(run_redirected(command, ".png", &drawn).status.success());
    let committed = repo().join("docs/images/catacombs.png");
    if std::env::var_os("PREFABRIC_BLESS").is_some() {
        std::fs::copy(&drawn, &committed).unwrap();
    }
    assert!(
        std::fs::read(&committed).unwrap() == std::fs::read(&drawn).unwrap(),
        "docs/images/catacombs.png is out of date: run the tests with PREFABRIC_BLESS=1 and look at the new image"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn html_follows_the_out_extension_and_embeds_the_json_with_its_trace() {
    let dir = std::env::temp_dir().join(format!("prefabric-cli-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("mines.html");
    let out = prefabric(&["generate", "--map-type", "mines", "--seed", "4", "--out", page.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!doctype html>"), "{}", &html[..40]);
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains(" src="), "no network");
    // The page's map is the JSON `--explain --format json` writes, trace and all.
    let embedded = html.split("<script type=\"application/json\" id=\"prefabric-map\">").nth(1).unwrap();
    let embedded: serde_json::Value = serde_json::from_str(embedded.split("</script>").next().unwrap()).unwrap();
    let json = prefabric(&["generate", "--map-type", "mines", "--seed", "4", "--format", "json", "--explain"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(embedded, json);
    assert!(json["trace"].as_array().is_some_and(|t| !t.is_empty()));
    let plain = prefabric(&["generate", "--map-type", "mines", "--seed", "4", "--format", "json"]);
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(plain.get("trace").is_none(), "the trace only with --explain");
    // The page shows the command that makes it again, and that command does.
    let reproduce = reproduce_line(&out);
    assert!(html.contains(&format!("\"command\":{}", serde_json::Value::from(reproduce.as_str()))), "{reproduce}");
    let again = dir.join("again.html");
    assert!(run_redirected(&reproduce, "mines.html", &again).status.success());
    let again = std::fs::read_to_string(&again).unwrap();
    // The same page but for its file's name (the neighbouring seeds' pages are named after it).
    let stem = |p: &Path| p.with_extension("").to_str().unwrap().to_string();
    assert_eq!(html.replace(&stem(&page), "X"), again.replace(&stem(&dir.join("again.html")), "X"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_seeds_level_counts_and_pack_paths_say_what_is_wrong() {
    for seed in ["-1", "18446744073709551616", "seven"] {
        let out = prefabric(&["generate", "--seed", seed]);
        assert_eq!(out.status.code(), Some(2), "{seed}");
        assert!(stderr(&out).contains("seeds are whole numbers from 0 to 18446744073709551615"), "{}", stderr(&out));
    }
    let out = prefabric(&["generate", "--seed", "18446744073709551615", "--map-type", "maze"]);
    assert!(out.status.success(), "the largest seed is a seed: {}", stderr(&out));
    let out = prefabric(&["world", "--levels", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--levels"), "{}", stderr(&out));
    let out = prefabric(&["generate", "--pack", "no/such/pack"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/pack: i/o error: no such folder"), "{}", stderr(&out));
}

#[test]
fn world_refuses_a_folder_holding_an_earlier_run_unless_forced() {
    let dir = std::env::temp_dir().join(format!("prefabric-world-again-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let world = |extra: &[&str]| {
        prefabric(&[&["world", "--levels", "2", "--seed", "1", "--out", dir.to_str().unwrap()], extra].concat())
    };
    assert!(world(&[]).status.success());
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let again = world(&["--format", "ascii"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("holds an earlier run (level-01.json, level-02.json, world.json)"),
        "{}",
        stderr(&again)
    );
    assert!(world(&["--format", "ascii", "--force"]).status.success());
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    // The earlier levels are gone, the user's own file stays, nothing half-written is left.
    assert_eq!(names, ["level-01.txt", "level-02.txt", "notes.txt", "world.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_creates_the_folder_it_is_told_to_write_into() {
    let dir = std::env::temp_dir().join(format!("prefabric-convert-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let folder = dir.join("xp_out");
    let out = prefabric(&["convert", "content/default/prefabs/entrances.txt", &format!("{}/", folder.display())]);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_dir(&folder).unwrap().count();
    let prefabs = std::fs::read_to_string(repo().join("content/default/prefabs/entrances.txt"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("prefab "))
        .count();
    assert_eq!(written, 2 * prefabs, "a .xp and a .toml per prefab");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_prefab_file_that_is_not_utf8_is_named_at_its_first_bad_byte() {
    let dir = std::env::temp_dir().join(format!("prefabric-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.txt");
    std::fs::write(&file, b"prefab bad\nterrain:\n#\xff#\n").unwrap();
    let out = prefabric(&["show", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let expected = format!("{}:3:2: the file is not valid UTF-8 text (byte 21)", file.display());
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn crop_prints_a_window_of_the_same_map() {
    let whole = stdout(&prefabric(&["generate", "--map-type", "hotel", "--seed", "4"]));
    let rows: Vec<Vec<char>> = whole.lines().skip(1).map(|l| l.chars().collect()).collect();
    let out = prefabric(&["generate", "--map-type", "hotel", "--seed", "4", "--crop", "30,10,25,8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(header.contains("cells x 30-54 y 10-17"), "{header}");
    assert!(header.ends_with("--seed 4 --crop 30,10,25,8"), "{header}");
    let window: Vec<String> = rows[10..18].iter().map(|r| r[30..55].iter().collect()).collect();
    assert_eq!(lines.collect::<Vec<_>>(), window);
    // A window running off the map is clipped to it.
    let out = prefabric(&["generate", "--map-type", "hotel", "--seed", "4", "--crop", "110,75,50,50"]);
    let text = stdout(&out);
    assert!(text.lines().next().unwrap().contains("cells x 110-119 y 75-79"), "{text}");
    assert!(text.lines().skip(1).all(|l| l.chars().count() == 10) && text.lines().count() == 6, "{text}");
}

#[test]
fn crop_mistakes_are_usage_errors() {
    for (args, says) in [
        (&["--crop", "1,2,3"][..], "four numbers"),
        (&["--crop", "0,0,0,5"], "W `0` must be a whole number of at least 1"),
        (&["--crop", "-1,0,5,5"], "X `-1`"),
        (&["--crop", "500,0,5,5"], "starts outside the 200x200 map"),
        (&["--crop", "0,0,5,5", "--format", "json"], "--crop prints a window of a text map"),
    ] {
        let mut all = vec!["generate", "--seed", "1"];
        all.extend_from_slice(args);
        let out = prefabric(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

/// DCSS's own vault folder (outside the repository, see its SOURCES.md),
/// imported whole: the pack passes `check` — every static check and 200 trial
/// maps of each of its map types — with no error.
#[test]
fn the_dcss_vault_folder_imports_into_a_pack_that_checks() {
    let Some(corpus) = crate::testdata::testdata("dcss-des") else { return };
    let mut files: Vec<String> = Vec::new();
    let mut stack = vec![corpus];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(std::fs::read_dir(&p).expect("readable").map(|e| e.expect("entry").path()));
        } else if p.extension().is_some_and(|x| x == "des") {
            files.push(p.display().to_string());
        }
    }
    files.sort();
    let dir = std::env::temp_dir().join(format!("prefabric-import-dcss-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut args = vec!["import-des"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--out", dir.to_str().unwrap()]);
    let out = prefabric(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let check = prefabric(&["check", "--pack", dir.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    let text = stderr(&check);
    let errors: Vec<&str> = text.lines().filter(|l| !l.contains("warning:") && !l.starts_with("  ")).collect();
    assert!(check.status.success(), "{}", errors.join("\n"));
}

#[test]
fn import_des_writes_a_pack_that_checks_and_generates_and_reports_every_map() {
    let dir = std::env::temp_dir().join(format!("prefabric-import-des-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let des = "crates/prefabric/tests/fixtures/des/every_directive.des";
    let out = prefabric(&["import-des", des, "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        "maps read:                   13",
        "imported without loss:        8",
        "imported with losses:         1",
        "skipped:                      4",
        "  uses Lua                    1",
    ] {
        assert!(text.contains(line), "`{line}` missing from\n{text}");
    }
    let report = std::fs::read_to_string(dir.join("IMPORT-REPORT.txt")).expect("the report");
    assert!(report.contains(&format!("{des}:136:1: skipped: `test_lua`: uses Lua")), "{report}");
    assert!(report.contains(&format!("  {des}:124:1: loss: `CHANCE` (a roll per level) not kept")), "{report}");
    let check = prefabric(&["check", "--pack", dir.to_str().unwrap()]);
    assert!(check.status.success(), "{}{}", stdout(&check), stderr(&check));
    let map = prefabric(&["generate", "--pack", dir.to_str().unwrap(), "--map-type", "dcss_rooms", "--seed", "3"]);
    assert!(map.status.success(), "{}", stderr(&map));
    // A folder holding a pack is not written over without --force.
    let again = prefabric(&["import-des", des, "--out", dir.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("is not empty"), "{}", stderr(&again));
    let forced = prefabric(&["import-des", des, "--out", dir.to_str().unwrap(), "--force"]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    let missing = prefabric(&["import-des", "no/such.des", "--out", dir.to_str().unwrap(), "--force"]);
    assert_eq!(missing.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn size_generates_at_another_size_and_its_reproduce_line_keeps_it() {
    let out = prefabric(&["generate", "--map-type", "hotel", "--seed", "3", "--size", "90x50"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let header = text.lines().next().unwrap();
    assert!(header.ends_with("reproduce: prefabric generate --map-type hotel --seed 3 --size 90x50"), "{header}");
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 50);
    assert!(rows.iter().all(|r| r.chars().count() == 90));

    let out = prefabric(&["generate", "--map-type", "hotel", "--size", "20x20"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("content/default/maps/hotel.toml:12:9: invalid: map type `hotel` cannot be 20x20"),
        "{err}"
    );
    assert!(err.contains("the file is written for 120x80"), "{err}");

    let out = prefabric(&["generate", "--size", "wide"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`wide` is not WxH"), "{}", stderr(&out));
}
