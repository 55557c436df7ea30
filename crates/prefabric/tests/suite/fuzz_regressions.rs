//! Replays every input kept under `fuzz/regressions/<target>/` through the same
//! checks its fuzz target makes (`fuzz/harness/mod.rs`), so inputs that once
//! broke prefabric stay fixed without a nightly toolchain or libFuzzer. A file
//! that fails is named with its target. To keep a new finding, copy it from
//! `fuzz/artifacts/<target>/` into `fuzz/regressions/<target>/` with a name
//! saying what it broke.

// The harness brings the suite's `common` checks in again (the fuzz crate
// needs them too); a second copy in this binary is harmless.
#[allow(clippy::duplicate_mod)]
#[path = "../../../../fuzz/harness/mod.rs"]
mod harness;

use std::path::Path;

fn regressions() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions")
}

#[test]
fn every_kept_input_passes_its_targets_checks() {
    assert!(harness::replay(&regressions(), harness::TARGETS) > 0, "fuzz/regressions holds inputs");
}

/// Each folder is a target replayed here or one of the targets of crates built
/// on the library (`harness::ELSEWHERE`), which their own tests replay.
#[test]
fn every_regression_folder_names_a_target() {
    let targets: Vec<&str> = harness::TARGETS.iter().map(|t| t.0).chain(harness::ELSEWHERE.iter().copied()).collect();
    for entry in std::fs::read_dir(regressions()).expect("fuzz/regressions exists") {
        let name = entry.expect("a readable folder").file_name().to_string_lossy().into_owned();
        assert!(targets.contains(&name.as_str()), "fuzz/regressions/{name} is not a target: {targets:?}");
    }
}

/// The fuzz crate's manifest lists a binary for every target the harness has.
#[test]
fn every_target_has_a_fuzz_binary() {
    let manifest = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/Cargo.toml"))
        .expect("fuzz/Cargo.toml");
    for (target, _) in harness::TARGETS {
        assert!(manifest.contains(&format!("name = \"{target}\"")), "fuzz/Cargo.toml has no [[bin]] {target}");
    }
}

/// The structured target reaches generation for every map type of the fuzz
/// pack (one per generator): a target whose inputs are all refused at load
/// would fuzz nothing (it did, once: the 200x200 materials map type broke its
/// lowered size limit).
#[test]
fn the_generation_target_makes_maps_of_every_map_type() {
    use harness::Reached;
    let names: Vec<&str> = harness::fuzz_pack().map_types().map(|m| m.name.as_str()).collect();
    assert_eq!(names.len(), 4, "a map type per generator: {names:?}");
    for (index, name) in names.iter().enumerate() {
        let mut generated = 0;
        for side in [60u8, 200] {
            // Map type, width and height (as written below 96, else smaller),
            // seed, depth, then every parameter left as it is (bytes under 128).
            let mut input = vec![index as u8, side, side, 1, 2, 3, 4, 5, 6, 7, 8, 0];
            input.extend(std::iter::repeat_n(0u8, 64));
            if harness::generation_reaches(&input) == Reached::Generated {
                generated += 1;
            }
        }
        assert!(generated > 0, "{name}: no input made a map");
    }
}
