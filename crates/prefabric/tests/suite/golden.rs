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
    // Loaded by a path relative to the package (cargo runs tests there), so the
    // prefabs' `file` fields do not depend on where the repository lies.
    let pack = Pack::load(Path::new("tests/fixtures/tiny_pack")).unwrap();
    let map = generate(&pack, "tiny", 7).unwrap();
    let json = render::json(&map, &pack);
    // Pretty-printed so that the golden file reads as the schema.
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    check("tiny_seed_7.json", &(pretty(&value, 0) + "\n"));
}

/// Indented JSON, one field or item per line, except that arrays of numbers
/// and arrays of short arrays (cells, doors, runs) stay on one line: rows of the
/// map read as rows, a region's runs as one line per map row.
fn pretty(value: &serde_json::Value, depth: usize) -> String {
    use serde_json::Value;
    let scalar = |v: &Value| !matches!(v, Value::Object(_) | Value::Array(_));
    let inline = |v: &Value| match v {
        Value::Array(items) => {
            items.iter().all(|i| i.is_number() || i.as_array().is_some_and(|a| a.iter().all(scalar)))
        }
        _ => false,
    };
    let indent = "  ".repeat(depth + 1);
    let close = "  ".repeat(depth);
    match value {
        Value::Object(fields) if !fields.is_empty() => {
            let lines: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{indent}{}: {}", Value::from(k.as_str()), pretty(v, depth + 1)))
                .collect();
            format!("{{\n{}\n{close}}}", lines.join(",\n"))
        }
        Value::Array(items) if !items.is_empty() && !inline(value) => {
            let lines: Vec<String> = items.iter().map(|v| format!("{indent}{}", pretty(v, depth + 1))).collect();
            format!("[\n{}\n{close}]", lines.join(",\n"))
        }
        _ => value.to_string(),
    }
}
