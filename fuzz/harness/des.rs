//! The fuzz target of the Dungeon Crawl importer (`prefabric-des`), kept apart
//! from `mod.rs` because the library's tests, which replay that file's targets,
//! do not depend on the importer. `fuzz_targets/des_import.rs` calls it, and
//! `crates/prefabric-des/tests/suite/fuzz_regressions.rs` replays every file of
//! `fuzz/regressions/des_import/` through it. It uses `mod.rs`'s helpers, so
//! whoever includes this file includes that one as `harness` beside it.

// The fuzz binary calls the check alone; the test suite reads `TARGETS`.
#![allow(dead_code)]

use crate::harness::{assert_parser_error_placed, fuzz_files, seed_of};
use prefabric::content::SourceFile;
use prefabric::{Limits, Location, Moves, Pack};
use prefabric_des as des;

/// The targets of this file: name (the folder of its corpus and regressions) and body.
/// The replay checks every kept input in full: see [`des_import_checked`].
pub const TARGETS: &[(&str, crate::harness::Check)] = &[("des_import", des_import_checked)];

/// A DCSS `.des` file imported into the fuzz pack: no panic or hang, every
/// unreadable line, loss and skip located in the file, and the pack the import
/// writes loads (the importer promises to take out whatever `check` rejects;
/// checked on one input in eight).
pub fn des_import(data: &[u8]) {
    import_and_check(data, seed_of(data).is_multiple_of(8));
}

/// [`des_import`] with the imported pack loaded again for every input: how
/// `cargo test` replays the kept ones.
pub fn des_import_checked(data: &[u8]) {
    import_and_check(data, true);
}

/// Imports `data`, checks the report, and when `reload` loads the pack the
/// import wrote.
fn import_and_check(data: &[u8], reload: bool) {
    let text = String::from_utf8_lossy(data).into_owned();
    let sources = [des::Source { name: "fuzz.des".into(), text }];
    // The import writes map types of DCSS's own sizes (80x70): default limits.
    let options =
        des::Options { pool: "dcss".into(), base: fuzz_files(), limits: Limits::default(), moves: Moves::Diagonal };
    let imported = des::import(&sources, &options).unwrap_or_else(|p| panic!("the import failed: {p}"));
    let report = &imported.report;
    let in_file = |l: &Location| l.file == "fuzz.des" && l.line > 0;
    assert!(report.errors.iter().all(|e| e.location().is_some_and(in_file)), "{:?}", report.errors);
    assert!(report.warnings.iter().all(|e| e.location().is_some_and(in_file)), "{:?}", report.warnings);
    report.errors.iter().chain(&report.warnings).for_each(assert_parser_error_placed);
    for m in &report.maps {
        assert!(in_file(&m.at), "{m:?}");
        match &m.outcome {
            des::Outcome::Imported { losses, .. } => assert!(losses.iter().all(|l| in_file(&l.at)), "{m:?}"),
            des::Outcome::Skipped(s) => assert!(in_file(&s.at), "{m:?}"),
        }
    }
    // The importer returns only what its own last load of the pack accepted,
    // so loading it again checks that promise against a change to the
    // importer more than against a new input: while fuzzing, one input in
    // eight pays for it (a load of the pack with every vault imported, about
    // a third of an input's time).
    if !reload {
        return;
    }
    let mut files: Vec<SourceFile> =
        fuzz_files().into_iter().filter(|f| !imported.files.iter().any(|g| g.path == f.path)).collect();
    files.extend(imported.files);
    if let Err(p) = Pack::from_files("fuzz", files, Limits::default()) {
        panic!("the imported pack does not load: {p}");
    }
}
