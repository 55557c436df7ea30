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
    let replayed = harness::replay(&repository().join("fuzz/regressions"), des_harness::TARGETS);
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
