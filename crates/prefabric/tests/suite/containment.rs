//! One broken file reports its own problems, and no others: a designer fixing a
//! prefab must not also be sent after "no prefab named" errors in map types, or
//! "did you mean" guesses pointing at the wrong prefab, that only repeat it.
//!
//! Each file of the default pack is broken in turn — TOML files get a syntax error,
//! every prefab of a text file an unknown glyph, every line of a definition file an
//! unknown kind, a REXPaint image is cut short — and the pack must fail to load
//! with problems located in that file (or, for a `.xp` prefab, its header beside it).

use crate::common;

use common::default_pack_files;
use prefabric::content::SourceFile;
use prefabric::{Limits, Pack};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default");

/// The file broken so that nothing in it loads, or None for a kind of file the
/// pack does not read.
fn broken(file: &SourceFile) -> Option<Vec<u8>> {
    let text = || String::from_utf8(file.bytes.clone()).unwrap();
    let path = file.path.as_str();
    if path.ends_with(".toml") {
        return Some(format!("{}\n[[unclosed\n", text()).into_bytes());
    }
    if path.ends_with(".txt") {
        // A row of a glyph no palette has, first in every terrain grid.
        return Some(text().replace("\nterrain:\n", "\nterrain:\n\u{a4}\u{a4}\n").into_bytes());
    }
    if path.ends_with(".def") {
        let kinds = [" entity ", " item ", " prop ", " trap ", " debris "];
        let lines: Vec<String> = text()
            .lines()
            .map(|line| match line.trim_start().starts_with('#') {
                true => line.to_string(),
                false => kinds.iter().fold(line.to_string(), |l, k| l.replacen(k, " thing ", 1)),
            })
            .collect();
        return Some(lines.join("\n").into_bytes());
    }
    if path.ends_with(".xp") {
        return Some(file.bytes[..file.bytes.len() / 2].to_vec());
    }
    None
}

/// The files a problem caused by breaking `path` may be located in.
fn owners(path: &str) -> Vec<String> {
    let mut owned = vec![format!("default/{path}")];
    if let Some(stem) = path.strip_suffix(".xp") {
        owned.push(format!("default/{stem}.toml"));
    }
    if let Some(stem) = path.strip_suffix(".toml").filter(|_| path.starts_with("prefabs/")) {
        owned.push(format!("default/{stem}.xp"));
    }
    owned
}

#[test]
fn each_broken_file_reports_only_its_own_problems() {
    let files = default_pack_files();
    assert!(files.len() > 50, "the default pack was found at {ROOT}");
    Pack::from_files("default", files.clone(), Limits::default()).expect("the default pack loads unbroken");
    let mut leaks = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let Some(bytes) = broken(file) else { continue };
        assert_ne!(bytes, file.bytes, "breaking {} changed nothing", file.path);
        let mut pack = files.clone();
        pack[i].bytes = bytes;
        let problems = match Pack::from_files("default", pack, Limits::default()) {
            Ok(_) => panic!("{} broken, the pack still loads", file.path),
            Err(problems) => problems,
        };
        let owned = owners(&file.path);
        let elsewhere: Vec<String> = problems
            .errors()
            .iter()
            .filter(|e| e.location().is_none_or(|l| !owned.contains(&l.file)))
            .map(|e| format!("  {e}"))
            .collect();
        if !elsewhere.is_empty() {
            leaks.push(format!("{} broken, problems elsewhere:\n{}", file.path, elsewhere.join("\n")));
        }
    }
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
}

fn text_file(path: &str, text: &str) -> SourceFile {
    SourceFile { path: path.into(), bytes: text.as_bytes().to_vec() }
}

/// A small pack: the default palette, two vaults, a map type placing one.
fn vault_pack(vault_a: &str, palette: &str, map_type: &str) -> Vec<SourceFile> {
    let vault_b = "prefab vault_b\nterrain:\n###\n#.#\n#+#\nlinks:\n...\n...\n.1.\n";
    vec![
        text_file("pack.toml", "name = \"t\"\ndefault_map_type = \"m\"\n"),
        text_file("palette.toml", palette),
        text_file("prefabs/a.txt", vault_a),
        text_file("prefabs/b.txt", vault_b),
        text_file("maps/m.toml", map_type),
    ]
}

fn problems_of(files: Vec<SourceFile>) -> String {
    match Pack::from_files("t", files, Limits::default()) {
        Ok(_) => panic!("the pack loads"),
        Err(problems) => problems.to_string(),
    }
}

const PLACING_A: &str =
    "width = 40\nheight = 40\n[[variants]]\n[[variants.prefabs]]\nprefab = \"vault_a\"\nat = \"centre\"\n";

#[test]
fn a_broken_prefab_is_not_guessed_at_where_it_is_named() {
    let palette = std::fs::read_to_string(format!("{ROOT}/palette.toml")).unwrap();
    let broken_a = "prefab vault_a\nterrain:\n#\u{a4}#\n#.#\n#+#\nlinks:\n...\n...\n.1.\n";
    let all = problems_of(vault_pack(broken_a, &palette, PLACING_A));
    assert!(all.contains("t/prefabs/a.txt:3:2: invalid: unknown glyph"), "{all}");
    assert!(!all.contains("maps/m.toml"), "the map type naming the broken prefab is blamed:\n{all}");
    assert!(!all.contains("did you mean"), "{all}");
    // A name no file declares is still an error, with its guess.
    let all = problems_of(vault_pack(broken_a, &palette, &PLACING_A.replace("vault_a", "vault_c")));
    assert!(all.contains("no prefab named `vault_c` in this pack\n  help: did you mean `vault_b`?"), "{all}");
}

#[test]
fn a_palette_syntax_error_still_reports_the_other_files_problems() {
    let palette = "[glyphs\n\"#\" = \"wall\"\n";
    let prefab_syntax_error = "vault_a\nprefab vault_a\nterrain:\n#.#\n";
    let map_type = PLACING_A.replace("width = 40", "width = 5");
    let all = problems_of(vault_pack(prefab_syntax_error, palette, &map_type));
    for expected in [
        "t/palette.toml:1:",
        "t/prefabs/a.txt:1:1: syntax error: expected `prefab NAME` before anything else",
        "t/maps/m.toml:1:9: invalid: width 5 must be between 16",
    ] {
        assert!(all.contains(expected), "missing {expected:?} in\n{all}");
    }
    assert!(!all.contains("no prefab named"), "{all}");
}
