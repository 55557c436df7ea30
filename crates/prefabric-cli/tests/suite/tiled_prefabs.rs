//! Prefabs drawn in Tiled through `prefabric convert`: text → `.tmx` → text and
//! text → `.tmj` → text give the same prefab; a `.tmj` that Tiled itself saved
//! as `.tmx` reads back the same; a varying prefab keeps its variation; a
//! folder takes every prefab of a file in the format `--to` names; and one of Tiled's own example maps, whose tiles have no `glyph`, is a
//! clear error. Tiled is found as in `tiled.rs`.

use super::tiled::{prefabric, run_tiled, scratch, tiled_or_skip};
use std::path::{Path, PathBuf};

/// The default pack's prefab file `file`, copied into `dir`.
fn default_prefab(file: &str, dir: &Path) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/default/prefabs").join(file);
    let to = dir.join(source.file_name().expect("a file name"));
    std::fs::copy(&source, &to).unwrap_or_else(|e| panic!("cannot copy {}: {e}", source.display()));
    to
}

/// Runs `prefabric convert ARGS` in `dir`; its standard error when it fails.
fn convert(args: &[&str], dir: &Path) -> Result<(), String> {
    let out = prefabric(&[&["convert"], args].concat(), dir);
    match out.status.success() {
        true => Ok(()),
        false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
    }
}

/// A text prefab file without its `prefab NAME` line (convert names a Tiled
/// prefab after its file).
fn body(dir: &Path, file: &str) -> String {
    let text = std::fs::read_to_string(dir.join(file)).expect("written");
    text.split_once('\n').map(|(_, rest)| rest.to_string()).expect("a prefab line")
}

#[test]
fn text_to_tmx_or_tmj_and_back_is_the_same_prefab() {
    let dir = scratch("prefab-round-trip");
    let guest = default_prefab("hotel/guest.txt", &dir);
    let loot = default_prefab("encounters/loot.txt", &dir);
    // storage_alcove_deep has variation lines: they go to the .toml, their glyphs to the tiles.
    for (file, name) in [
        (&guest, "guest_room"),
        (&loot, "scrap_cache_medium"),
        (&loot, "hidden_stash_large"),
        (&loot, "storage_alcove_deep"),
    ] {
        let file = file.to_string_lossy();
        convert(&[&file, "reference.txt", "--name", name, "--force"], &dir).expect("to text");
        for ext in ["tmx", "tmj"] {
            let map = format!("{name}.{ext}");
            convert(&[&file, &map, "--name", name, "--force"], &dir).expect("to Tiled");
            for written in [format!("{name}.png"), format!("{name}.toml")] {
                assert!(dir.join(&written).is_file(), "{written}");
            }
            convert(&[&map, "back.txt", "--force"], &dir).expect("from Tiled");
            assert_eq!(body(&dir, "back.txt"), body(&dir, "reference.txt"), "{name} through .{ext}");
        }
    }
    // One prefab a file: a file of several needs --name.
    let e = convert(&[&loot.to_string_lossy(), "all.tmx"], &dir).unwrap_err();
    assert!(e.contains("a .tmx file holds one: pick one with --name"), "{e}");
    // A folder takes them all, in the format --to names; --to with a file is refused.
    convert(&[&loot.to_string_lossy(), "tiled/", "--to", "tmj"], &dir).expect("to a folder");
    let mut written: Vec<String> = std::fs::read_dir(dir.join("tiled"))
        .expect("the folder")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let prefabs = std::fs::read_to_string(&loot).expect("read").lines().filter(|l| l.starts_with("prefab ")).count();
    assert_eq!(written.len(), 3 * prefabs, "{written:?}");
    for name in ["storage_alcove_deep.tmj", "storage_alcove_deep.png", "storage_alcove_deep.toml"] {
        assert!(written.iter().any(|w| w == name), "{name} in {written:?}");
    }
    convert(&["tiled/storage_alcove_deep.tmj", "deep.txt", "--force"], &dir).expect("from the folder");
    convert(&[&loot.to_string_lossy(), "deep_ref.txt", "--name", "storage_alcove_deep", "--force"], &dir)
        .expect("to text");
    assert_eq!(body(&dir, "deep.txt"), body(&dir, "deep_ref.txt"));
    let e = convert(&[&loot.to_string_lossy(), "tiled/", "--to", "tmj"], &dir).unwrap_err();
    assert!(e.contains("already exists; give --force"), "{e}");
    let e = convert(&[&loot.to_string_lossy(), "one.tmx", "--to", "tmx", "--name", "storage_alcove_deep"], &dir)
        .unwrap_err();
    assert!(e.contains("--to tmx is for a folder"), "{e}");
}

#[test]
fn a_prefab_tiled_saved_reads_back_the_same() {
    let Some((tiled, _)) = tiled_or_skip() else { return };
    let dir = scratch("prefab-saved-by-tiled");
    let guest = default_prefab("hotel/guest.txt", &dir);
    let guest = guest.to_string_lossy();
    convert(&[&guest, "reference.txt", "--name", "guest_room"], &dir).expect("to text");
    convert(&[&guest, "room.tmj", "--name", "guest_room"], &dir).expect("to .tmj");
    run_tiled(
        &tiled,
        &[Path::new("--export-map"), Path::new("tmx"), Path::new("room.tmj"), Path::new("saved.tmx")],
        &dir,
    );
    let saved = std::fs::read_to_string(dir.join("saved.tmx")).expect("Tiled wrote saved.tmx");
    assert!(saved.contains("tiledversion=\"1."), "written by Tiled: {saved}");
    std::fs::copy(dir.join("room.toml"), dir.join("saved.toml")).expect("the header");
    convert(&["saved.tmx", "back.txt"], &dir).expect("from Tiled's .tmx");
    assert_eq!(body(&dir, "back.txt"), body(&dir, "reference.txt"));
}

#[test]
fn a_tiled_example_map_is_a_clear_error_not_a_crash() {
    let examples = Path::new("/usr/share/doc/tiled/examples");
    if !examples.join("desert.tmx").is_file() {
        let Some(_) = tiled_or_skip() else { return };
        eprintln!("skipped: Tiled's examples are not in {}", examples.display());
        return;
    }
    let dir = scratch("prefab-example");
    std::fs::create_dir_all(dir.join("pack/prefabs")).unwrap();
    for file in ["pack.toml", "palette.toml", "maps/tiny.toml", "catalog/things.toml", "prefabs/entry.txt"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../prefabric/tests/fixtures/tiny_pack").join(file);
        let to = dir.join("pack").join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap();
    }
    for file in ["desert.tmx", "desert.tsx"] {
        std::fs::copy(examples.join(file), dir.join("pack/prefabs").join(file)).unwrap();
    }
    let out = prefabric(&["check", "--pack", "pack"], &dir);
    let err = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("pack/prefabs/desert.tmx: invalid: no tile of the tileset `Desert` has a `glyph` property"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}
