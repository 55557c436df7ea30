//! Replays every input kept under `fuzz/regressions/des_import/` through the
//! checks its fuzz target makes (`fuzz/harness/des.rs`), so inputs that once
//! broke the importer stay fixed without a nightly toolchain or libFuzzer. The
//! library's targets are replayed by the library's suite; this one needs the
//! importer, which the library does not depend on.

use crate::{des_harness, harness};
use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_kept_input_passes_its_targets_checks() {
    let mut replayed = 0;
    let mut failed = Vec::new();
    for &(target, check) in des_harness::TARGETS {
        let dir = repository().join("fuzz/regressions").join(target);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut files: Vec<_> = entries.map(|e| e.expect("a readable folder").path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).expect("a readable regression file");
            if std::panic::catch_unwind(|| check(&data)).is_err() {
                failed.push(format!("{target}: {}", file.display()));
            }
            replayed += 1;
        }
    }
    assert!(failed.is_empty(), "inputs that fail their target's checks again:\n{}", failed.join("\n"));
    assert!(replayed > 0, "fuzz/regressions/des_import holds inputs");
}

/// The library's suite accepts the importer's regression folder because the
/// harness names the target as replayed elsewhere, and the fuzz crate's
/// manifest has a binary for it.
#[test]
fn the_target_is_named_by_the_harness_and_has_a_fuzz_binary() {
    let manifest = std::fs::read_to_string(repository().join("fuzz/Cargo.toml")).expect("fuzz/Cargo.toml");
    for (target, _) in des_harness::TARGETS {
        assert!(harness::ELSEWHERE.contains(target), "fuzz/harness/mod.rs's ELSEWHERE lacks {target}");
        assert!(manifest.contains(&format!("name = \"{target}\"")), "fuzz/Cargo.toml has no [[bin]] {target}");
    }
}
