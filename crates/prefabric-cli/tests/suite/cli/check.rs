//! `prefabric check` as users run it: the default pack passes, every problem
//! comes with its file, line and column, and the warnings that need trial maps
//! (a chain or pathways short of their target, cave encounters too large,
//! dead content, links that never dig) name their place, reason and seed.

use super::*;

#[test]
fn check_passes_the_default_pack() {
    let out = prefabric(&["check"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("ok: pack `default`"), "{}", stdout(&out));
    let out = prefabric(&["check", "--pack", "content/default", "--seeds", "5"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn check_reports_every_problem_with_file_line_col_and_exits_1() {
    let pack = "crates/prefabric/tests/fixtures/packs/bad_values";
    let out = prefabric(&["check", "--pack", pack]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let located: Vec<&str> = err.lines().filter(|l| l.starts_with(pack) && l.split(':').count() >= 4).collect();
    assert!(located.len() >= 5, "every problem, not just the first:\n{err}");
    assert!(err.contains("problems in the pack"), "{err}");
    // A broken pack makes generate fail the same way.
    assert_eq!(prefabric(&["generate", "--pack", pack]).status.code(), Some(1));
}

#[test]
fn check_warns_when_a_chain_falls_short_of_its_target() {
    let pack = "crates/prefabric/tests/fixtures/packs/short_chain";
    let out = prefabric(&["check", "--pack", pack, "--seeds", "10"]);
    assert!(out.status.success(), "a warning is not a failure: {}", stderr(&out));
    let err = stderr(&out);
    let warning = format!("{pack}/maps/cramped.toml:8:10: warning: the chain placed a median of ");
    assert!(err.contains(&warning) && err.contains("of its 40 target prefabs over 10 trial maps"), "{err}");
    assert!(stdout(&out).contains("(1 warning)"), "{}", stdout(&out));
    // The built-in pack's chains reach their targets.
    let out = prefabric(&["check", "--seeds", "5"]);
    assert!(!stderr(&out).contains("target prefabs"), "{}", stderr(&out));
}

#[test]
fn check_warns_when_the_pathways_fall_short_of_their_rooms() {
    let pack = "crates/prefabric/tests/fixtures/packs/short_pathways";
    let out = prefabric(&["check", "--pack", pack, "--seeds", "10"]);
    assert!(out.status.success(), "a warning is not a failure: {}", stderr(&out));
    let err = stderr(&out);
    let warning = format!("{pack}/maps/crowded.toml:8:9: warning: the pathways placed a median of ");
    assert!(err.contains(&warning) && err.contains("of its 30 rooms over 10 trial maps"), "{err}");
    // The built-in catacombs place their rooms.
    let out = prefabric(&["check", "--seeds", "5"]);
    assert!(!stderr(&out).contains("rooms over"), "{}", stderr(&out));
}

#[test]
fn check_finds_cave_encounters_too_large_for_any_cavern() {
    let pack = "crates/prefabric/tests/fixtures/packs/cave_misfits";
    let out = prefabric(&["check", "--pack", pack, "--seeds", "12"]);
    assert_eq!(out.status.code(), Some(1), "a prefab no cavern holds is an error: {}", stderr(&out));
    let err = stderr(&out);
    let error = format!("{pack}/maps/tight.toml:13:1: invalid: encounter `great_hall` is too large for any cavern");
    assert!(err.contains(&error) && err.contains("help: a centered prefab needs two thirds"), "{err}");
    let warning =
        format!("{pack}/maps/tight.toml:19:1: warning: encounter `deep_vault` was never placed in 12 trial maps");
    assert!(err.contains(&warning) && err.contains("rock beside it deep and whole enough"), "{err}");
    assert!(!err.contains("`cairn`"), "the small one is placed: {err}");
    // The built-in mines place every encounter of theirs.
    let out = prefabric(&["check"]);
    assert!(out.status.success() && !stderr(&out).contains("never placed"), "{}", stderr(&out));
}

#[test]
fn check_reports_dead_content_with_its_place_reason_and_seed() {
    let pack = "crates/prefabric/tests/fixtures/packs/dead_content";
    let out = prefabric(&["check", "--pack", pack]);
    let err = stderr(&out);
    assert!(out.status.success(), "dead content is a warning: {err}");
    assert!(stdout(&out).contains("(3 warnings)"), "{}", stdout(&out));
    let expected = [
        // A feature variant's prefab that always collides with the one before it.
        "/maps/depot.toml:17:1: warning: prefab `gate_twin` of feature variant `twins` was never placed in 200 trial maps: its feature placement was skipped 200 times: no free spot: tries mostly overlapped prefab `gate` (e.g. seed 0)",
        // An encounter alternative larger than any room.
        "/maps/depot.toml:25:1: warning: alternative `crate_huge` of encounter `crates` was never used in 200 trial maps",
        // An encounter whose only prefab fits no room.
        "/maps/depot.toml:31:1: warning: encounter `throne` was never placed in 200 trial maps: every room or cavern tried was too small for its prefabs in",
    ];
    for line in expected {
        assert!(err.contains(&format!("{pack}{line}")), "missing {line}:\n{err}");
    }
    // The definition line only the unused alternative draws is that
    // alternative's follow-on, not a warning of its own.
    assert!(!err.contains("crates.def:3:18"), "{err}");
    let strict = prefabric(&["check", "--pack", pack, "--strict"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(stderr(&strict).ends_with("3 warnings, and --strict makes warnings errors\n"), "{}", stderr(&strict));
    // The built-in pack has none, so CI of content can use --strict.
    let out = prefabric(&["check", "--strict"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn check_finds_a_link_that_can_never_dig_without_trials() {
    let pack = "crates/prefabric/tests/fixtures/packs/cannot_fit";
    let out = prefabric(&["check", "--pack", pack, "--seeds", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{pack}/maps/edges.toml:14:10: invalid: prefab `south_gate` at south can never be placed on the 40x40 map: in every allowed orientation, at every spot its jitter reaches, a link's clear ground would fall off the map or on its outer ring")),
        "{err}"
    );
}
