//! The `prefabric` command as users run it: output, exit codes, errors; the
//! helpers every test of the command uses, and the tests of `generate`,
//! `world`, `crop` and `import-des`. `check`, `show` and `convert`, and the
//! output formats have modules of their own below.

mod check;
mod formats;
mod show;

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
    let world = prefabric::WorldState::from_json("world.json", &world).unwrap();
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
    let des = "crates/prefabric-des/tests/fixtures/every_directive.des";
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
