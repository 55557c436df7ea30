//! `prefabric init`: the starter pack it writes checks clean and makes good maps
//! of every map type over 200 seeds (the invariants of design.md, checked by the
//! library's own test checks); `--from default` writes the built-in pack byte
//! for byte; a folder holding anything is refused unless `--force`.

use crate::common;
use prefabric::{Generator, Pack};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn prefabric(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prefabric")).args(args).current_dir(dir).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prefabric-init-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

#[test]
fn the_starter_pack_checks_and_every_map_type_holds_its_invariants_over_200_seeds() {
    let dir = scratch("starter");
    let out = prefabric(&dir, &["init", "my_pack"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    for next in
        ["prefabric check --pack my_pack", "prefabric generate --pack my_pack", "prefabric watch --pack my_pack"]
    {
        assert!(said.contains(next), "init names `{next}`:\n{said}");
    }
    let out = prefabric(&dir, &["check", "--pack", "my_pack", "--seeds", "200"]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stderr).is_empty(), "no warnings: {}", text(&out.stderr));

    let pack = Pack::load(&dir.join("my_pack")).unwrap_or_else(|problems| panic!("{problems}"));
    let mut generators = Vec::new();
    for map_type in pack.map_types() {
        generators.extend(map_type.generators.iter().map(|g| g.generator.name()));
        let generator = Generator::new(&pack, &map_type.name).expect("a map type of the pack");
        for seed in 0..200 {
            let map = generator.generate(seed).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", map_type.name));
            common::invariants(&map, &pack, map_type)
                .unwrap_or_else(|broken| panic!("{} seed {seed}: {broken}", map_type.name));
            common::walled(&map).unwrap_or_else(|broken| panic!("{} seed {seed}: {broken}", map_type.name));
        }
    }
    generators.sort();
    assert_eq!(generators, ["caves", "chain", "pathways", "tunnelers"], "one map type for each generator");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn from_default_writes_the_built_in_pack_and_a_full_folder_needs_force() {
    let dir = scratch("default");
    let out = prefabric(&dir, &["init", "copy", "--from", "default"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for file in Pack::embedded_files() {
        let written = std::fs::read(dir.join("copy").join(&file.path)).expect("every file written");
        assert!(written == file.bytes, "{} differs from the built-in pack", file.path);
    }
    // Written again into the same folder: refused, and nothing is touched.
    std::fs::write(dir.join("copy/pack.toml"), "name = \"mine\"\n").expect("an edit");
    let out = prefabric(&dir, &["init", "copy"]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(said.contains("is not empty") && said.contains("--force"), "{said}");
    assert_eq!(std::fs::read_to_string(dir.join("copy/pack.toml")).expect("kept"), "name = \"mine\"\n");
    // With --force the pack's files are replaced and others kept.
    std::fs::write(dir.join("copy/notes.md"), "mine").expect("a file of the user's");
    let out = prefabric(&dir, &["init", "copy", "--from", "default", "--force"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_ne!(std::fs::read_to_string(dir.join("copy/pack.toml")).expect("replaced"), "name = \"mine\"\n");
    assert_eq!(std::fs::read_to_string(dir.join("copy/notes.md")).expect("kept"), "mine");
    // The starter pack forced over the built-in one clashes with it, and says so.
    let out = prefabric(&dir, &["init", "copy", "--force"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("together with the files already in copy"), "{}", text(&out.stderr));
    // A file where the folder should be is a usage error naming it.
    let out = prefabric(&dir, &["init", "copy/notes.md"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("notes.md is a file"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// The starter cave's mushroom ring drawn with mushrooms on its edge, as it
/// first was: a centred prefab's open edge cells are its doors, and a machine a
/// definition puts on one must take it out of the doors (every door passable).
#[test]
fn a_machine_on_a_centred_prefabs_edge_is_no_door() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("starter");
    let mut files = Pack::read_files(&root, &prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    let cave = files.iter_mut().find(|f| f.path == "prefabs/cave.txt").expect("the cave prefabs");
    let text = String::from_utf8(cave.bytes.clone()).expect("UTF-8");
    let ring = "'''''''\n''m'm''\n'm'''m'\n'''''''\n'm'''m'\n''m'm''\n'''''''\n";
    assert!(text.contains(ring), "the mushroom ring as the starter pack draws it");
    cave.bytes = text.replace(ring, "'m'm'\nm'''m\n'''''\nm'''m\n'm'm'\n").into_bytes();
    let pack = Pack::from_files("edge_ring", files, prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    let map_type = pack.map_type("cave").expect("the cave map type");
    let generator = Generator::new(&pack, "cave").expect("generates");
    let mut machines_on_edges = 0;
    for seed in 0..60 {
        let map = generator.generate(seed).expect("a map");
        common::invariants(&map, &pack, map_type).unwrap_or_else(|broken| panic!("seed {seed}: {broken}"));
        machines_on_edges +=
            map.trace().events().iter().filter(|e| e.message.contains("a machine stands there")).count();
    }
    assert!(machines_on_edges > 0, "the ring was placed with a mushroom on its edge at least once");
}
