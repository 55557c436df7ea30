//! `--format ldtk` as users run it: `generate` prints or writes the library's
//! LDtk project of the map (by flag or by the `.ldtk` extension), and `world`
//! writes one `world.ldtk` holding every level beside `world.json`. What the
//! project holds is checked in the library's suite (its `ldtk` module).

use crate::cli::{prefabric, reproduce_line, run_redirected, stderr, stdout};
use serde_json::Value;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("prefabric-ldtk-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn generate_writes_the_ldtk_project_by_flag_or_by_extension() {
    let printed = prefabric(&["generate", "--map-type", "maze", "--seed", "3", "--format", "ldtk"]);
    assert!(printed.status.success(), "{}", stderr(&printed));
    let pack = prefabric::Pack::embedded().unwrap();
    let map = prefabric::generate(&pack, "maze", 3).unwrap();
    assert_eq!(stdout(&printed), prefabric::render::map_ldtk(&map, &pack), "the library's project, unchanged");

    let dir = temp_dir("generate");
    let file = dir.join("maze.ldtk");
    let written = prefabric(&["generate", "--map-type", "maze", "--seed", "3", "--out", file.to_str().unwrap()]);
    assert!(written.status.success(), "{}", stderr(&written));
    assert_eq!(std::fs::read(&file).unwrap(), printed.stdout, "the extension implies the format");
    // The extension names the format, so the reproduce line needs no --format, and makes the same file.
    let reproduce = reproduce_line(&written);
    assert!(!reproduce.contains("--format"), "{reproduce}");
    let again = dir.join("again.ldtk");
    assert!(run_redirected(&reproduce, "maze.ldtk", &again).status.success());
    assert_eq!(std::fs::read(&again).unwrap(), printed.stdout);

    let project: Value = serde_json::from_slice(&printed.stdout).unwrap();
    assert_eq!(project["jsonVersion"], prefabric::render::LDTK_VERSION);
    let levels = project["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 1);
    assert_eq!(levels[0]["pxWid"], map.width() * prefabric::render::LDTK_GRID_SIZE);
    // A .ldtk file with another --format is that format, and the line says so.
    let odd = dir.join("odd.ldtk");
    let out = prefabric(&["generate", "--seed", "3", "--format", "ascii", "--out", odd.to_str().unwrap()]);
    assert!(stderr(&out).contains("--seed 3 --format ascii --out"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn world_format_ldtk_writes_one_project_of_every_level() {
    let dir = temp_dir("world");
    let world = |extra: &[&str]| {
        let args = ["world", "--levels", "3", "--seed", "5", "--map-type", "hotel", "--format", "ldtk", "--out"];
        prefabric(&[&args[..], &[dir.to_str().unwrap()], extra].concat())
    };
    let out = world(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("wrote 3 levels in "), "{}", stdout(&out));
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["world.json", "world.ldtk"], "one project, no level files");

    // The project's levels are the levels the command listed, in order.
    let seeds: Vec<String> = stdout(&out)
        .lines()
        .filter_map(|l| l.split("  seed ").nth(1))
        .map(|rest| rest.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(seeds.len(), 3);
    let project: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("world.ldtk")).unwrap()).unwrap();
    let levels = project["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 3);
    for (n, (level, seed)) in levels.iter().zip(&seeds).enumerate() {
        let fields = level["fieldInstances"].as_array().unwrap();
        let value = |name: &str| fields.iter().find(|f| f["__identifier"] == name).unwrap()["__value"].clone();
        assert_eq!(value("seed"), Value::from(seed.as_str()));
        assert_eq!(value("depth"), Value::from(n + 1));
        assert_eq!(value("map_type"), Value::from("hotel"));
        assert_eq!(level["identifier"], format!("Level_{}", n + 1));
    }
    let saved = std::fs::read_to_string(dir.join("world.json")).unwrap();
    assert_eq!(prefabric::WorldState::from_json("world.json", &saved).unwrap().levels(), 3);

    // The project counts as an earlier run: refused, then replaced with --force.
    let again = world(&[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("holds an earlier run (world.json, world.ldtk)"), "{}", stderr(&again));
    assert!(world(&["--force"]).status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}
