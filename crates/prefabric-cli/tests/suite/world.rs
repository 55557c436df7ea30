//! `prefabric world`'s summary line per level counts every encounter placed,
//! those that place only objects too (issue 53), as the level files hold them.

use crate::cli::{prefabric, stderr, stdout};

#[test]
fn the_summary_counts_object_only_encounters() {
    let dir = std::env::temp_dir().join(format!("prefabric-world-summary-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = ["world", "--levels", "3", "--seed", "1", "--map-type", "mines", "--out", dir.to_str().unwrap()];
    let out = prefabric(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut object_only = 0;
    for level in 1..=3 {
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(format!("level-0{level}.json"))).unwrap()).unwrap();
        let mut ids: Vec<&str> = doc["prefabs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["stage"] == "encounter")
            .map(|p| p["encounter"].as_str().unwrap())
            .collect();
        let objects: Vec<&str> =
            doc["object_encounters"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap()).collect();
        object_only += objects.len();
        ids.extend(objects);
        let line = text.lines().find(|l| l.starts_with(&format!("level 0{level} "))).expect("a line per level");
        assert!(line.ends_with(&format!("  {} encounters: {}", ids.len(), ids.join(", "))), "{line}\nvs {ids:?}");
    }
    assert!(object_only > 0, "the mines' scavengers place only objects");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The built-in world.toml: `world --format html --out` writes every level's
/// page, world.json (the graph, naming each level's file) and index.html
/// drawing it; `--level` prints one level as the whole world made it.
#[test]
fn the_built_in_world_writes_its_graph_and_every_level() {
    let dir = std::env::temp_dir().join(format!("prefabric-world-graph-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = prefabric(&["world", "--seed", "2", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let graph: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("world.json")).unwrap()).unwrap();
    assert_eq!(graph["format"], "prefabric-world-graph");
    let levels = graph["levels"].as_array().unwrap();
    let names: Vec<&str> = levels.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"materials:10") && names.iter().any(|n| n.starts_with("mines:")), "{names:?}");
    for level in levels {
        let file = level["file"].as_str().unwrap();
        assert!(dir.join(file).is_file(), "{file} written");
        for exit in level["exits"].as_array().unwrap() {
            if let Some(to) = exit["to"].as_str() {
                assert!(names.contains(&to), "{} leads to unknown {to}", level["name"]);
                assert!(exit["arrival"].is_array(), "{} exit to {to} has its arrival", level["name"]);
            }
        }
    }
    // One level alone, as the whole world made it.
    let mines = names.iter().find(|n| n.starts_with("mines:")).unwrap();
    let alone = prefabric(&["world", "--seed", "2", "--level", mines, "--format", "json"]);
    assert!(alone.status.success(), "{}", stderr(&alone));
    let file = levels.iter().find(|l| l["name"] == *mines).unwrap()["file"].as_str().unwrap();
    assert_eq!(stdout(&alone), std::fs::read_to_string(dir.join(file)).unwrap());
    // The HTML run: an index drawing the graph, linking every level's page.
    let html = dir.join("html");
    let out = prefabric(&["world", "--seed", "2", "--format", "html", "--out", html.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let index = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(index.contains("<svg"), "the index draws the graph");
    for level in levels {
        let page = level["file"].as_str().unwrap().replace(".json", ".html");
        assert!(index.contains(&format!("href=\"{page}\"")), "the index links {page}");
        assert!(html.join(&page).is_file(), "{page} written");
    }
    let unknown = prefabric(&["world", "--seed", "2", "--level", "mines:99"]);
    assert_eq!(unknown.status.code(), Some(1), "{}", stderr(&unknown));
    assert!(stderr(&unknown).contains("no level `mines:99`"), "{}", stderr(&unknown));
    std::fs::remove_dir_all(&dir).unwrap();
}
