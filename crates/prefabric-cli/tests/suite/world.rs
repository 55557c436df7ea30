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
