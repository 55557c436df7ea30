//! Fuzzes a whole pack loaded from memory (`Pack::from_files`): the first byte
//! picks which file of a small valid pack the rest of the input replaces — its
//! pack.toml, palette, catalog, map type (with its encounter pool and
//! furnishing tables), prefab file or definition file. Loading must give a pack
//! or located problems, never a panic; a pack that loads must generate a map
//! (or fail with an error) within its limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prefabric::content::SourceFile;
use prefabric::{Generator, Limits, Pack};

/// The pack the input edits: the repository's tiny test pack, built in.
const FILES: [(&str, &str); 6] = [
    ("pack.toml", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/pack.toml")),
    ("palette.toml", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/palette.toml")),
    ("catalog/things.toml", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/catalog/things.toml")),
    ("maps/tiny.toml", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/maps/tiny.toml")),
    ("prefabs/entry.txt", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/prefabs/entry.txt")),
    ("prefabs/entry.def", "# reference characters of the entry prefab\n"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, replacement)) = data.split_first() else { return };
    let which = usize::from(which) % FILES.len();
    let files = FILES
        .iter()
        .enumerate()
        .map(|(i, (path, text))| SourceFile {
            path: path.to_string(),
            bytes: if i == which { replacement.to_vec() } else { text.as_bytes().to_vec() },
        })
        .collect();
    let limits = Limits { max_map_side: 64, ..Limits::default() };
    match Pack::from_files("fuzz", files, limits) {
        Err(problems) => {
            assert!(!problems.is_empty());
            assert!(problems.errors().iter().all(|e| e.location().is_some_and(|l| l.file.starts_with("fuzz/"))));
        }
        Ok(pack) => {
            for map_type in pack.map_types() {
                let seed = replacement.iter().fold(0u64, |h, &b| h.rotate_left(5) ^ u64::from(b));
                if let Ok(generator) = Generator::new(&pack, &map_type.name) {
                    if let Ok(map) = generator.generate(seed) {
                        assert!(map.width() <= 64 && map.height() <= 64);
                    }
                }
            }
        }
    }
});
