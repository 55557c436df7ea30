//! A pack folder as designers keep it: renders, notes and backups beside the
//! pack's own files. `check` loads it and counts them; `check --verbose` lists
//! each with why the pack does not read it.

use crate::cli::{prefabric, stderr, stdout};
use std::path::Path;

fn copy_tiny_pack(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../prefabric/tests/fixtures/tiny_pack");
    for path in ["pack.toml", "palette.toml", "prefabs/entry.txt", "maps/tiny.toml", "catalog/things.toml"] {
        let target = to.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(from.join(path), target).unwrap();
    }
}

#[test]
fn check_verbose_lists_the_files_a_pack_does_not_read() {
    let dir = std::env::temp_dir().join(format!("prefabric-pack-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_tiny_pack(&dir);
    std::fs::create_dir_all(dir.join("renders")).unwrap();
    std::fs::write(dir.join("renders/seed1.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    std::fs::write(dir.join("prefabs/map.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    std::fs::write(dir.join("notes.pdf"), b"%PDF-1.7\n\0\x01").unwrap();
    std::fs::write(dir.join("maps/ideas.txt"), "a map type of bridges\n").unwrap();
    let pack = dir.to_str().unwrap();

    let out = prefabric(&["check", "--pack", pack, "--seeds", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("; 4 files in the folder not read (--verbose lists them)"), "{}", stdout(&out));

    let out = prefabric(&["check", "--pack", pack, "--seeds", "2", "--verbose"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let listed: Vec<&str> = text.lines().filter(|l| l.contains(": not read: ")).collect();
    assert_eq!(listed.len(), 4, "{text}");
    for (path, why) in [
        ("maps/ideas.txt", "not a file a pack reads: maps/ holds map types, .toml files"),
        (
            "notes.pdf",
            "not a file a pack reads: at the top of a pack only pack.toml, palette.toml and world.toml are read",
        ),
        ("prefabs/map.png", "not a file a pack reads: prefabs/ holds .txt, .xp"),
        (
            "renders/seed1.png",
            "not a file a pack reads: a pack reads pack.toml, palette.toml, world.toml and the folders",
        ),
    ] {
        let line = format!("{pack}/{path}: not read: {why}");
        assert!(text.contains(&line), "{line}\nin\n{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
