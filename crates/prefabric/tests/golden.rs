//! Golden outputs, reviewed as text: a 200x200 `materials` map of the default pack
//! drawn as ASCII, and a small map's JSON, which pins the schema the README
//! documents. Any change to generation or output shows up here as a diff.
//!
//! Run with `PREFABRIC_BLESS=1` to rewrite the golden files, then review the diff.

use prefabric::{Pack, generate, render};
use std::path::Path;

fn check(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var_os("PREFABRIC_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with PREFABRIC_BLESS=1)", path.display()));
    if expected != actual {
        let line = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).map_or(0, |i| i + 1);
        panic!(
            "{name} changed (first difference on line {line}); if intended, rerun with PREFABRIC_BLESS=1 and review the diff"
        );
    }
}

#[test]
fn materials_seed_1_ascii() {
    let pack = Pack::embedded().unwrap();
    let map = generate(&pack, "materials", 1).unwrap();
    check("materials_seed_1.txt", &render::ascii(&map, pack.palette()));
}

#[test]
fn tiny_seed_7_json() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_pack");
    let pack = Pack::load(&dir).unwrap();
    let map = generate(&pack, "tiny", 7).unwrap();
    let json = render::json(&map, pack.palette());
    // Pretty-printed so that the golden file reads as the schema.
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    check("tiny_seed_7.json", &(serde_json::to_string_pretty(&value).unwrap() + "\n"));
}
