//! Files written by other tools (REXPaint `.xp` images, Dungeon Crawl `.des`
//! vaults) live beside the repository in `../shared/testdata`, not in it. A
//! clone of the repository alone skips the tests that read them, each with a
//! one-line note; `PREFABRIC_REQUIRE_TESTDATA=1` (set by `.ci/run`) turns a
//! missing folder into a failure, so CI cannot skip them by accident.
//!
//! Shared by both crates' test suites (the command line's includes this file).

use std::path::{Path, PathBuf};

/// The variable that makes missing test data a failure instead of a skip.
pub const REQUIRE_VARIABLE: &str = "PREFABRIC_REQUIRE_TESTDATA";

/// The folder `shared/testdata/<name>` beside the repository, or `None` when it
/// is absent and not required. Panics when it is absent and required.
pub fn testdata(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata").join(name);
    let required = std::env::var_os(REQUIRE_VARIABLE).is_some_and(|value| value == "1");
    locate(&dir, required).unwrap_or_else(|message| panic!("{message}"))
}

/// The decision behind [`testdata`], apart from the environment so both ways
/// can be tested: `Ok(Some(dir))` when `dir` exists, `Ok(None)` after a note on
/// standard error when it does not, an error when it does not and is required.
pub fn locate(dir: &Path, required: bool) -> Result<Option<PathBuf>, String> {
    if dir.is_dir() {
        return Ok(Some(dir.to_path_buf()));
    }
    if required {
        return Err(format!(
            "{} is missing and {REQUIRE_VARIABLE}=1: put the shared test data beside the repository \
             (../shared/testdata), or unset the variable to skip these tests",
            dir.display()
        ));
    }
    eprintln!("skipped: {} is not beside the repository (needs ../shared/testdata)", dir.display());
    Ok(None)
}

#[test]
fn present_test_data_is_found_whether_required_or_not() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    assert_eq!(locate(&dir, false), Ok(Some(dir.clone())));
    assert_eq!(locate(&dir, true), Ok(Some(dir.clone())));
}

#[test]
fn missing_test_data_skips_unless_required() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("no-such-testdata");
    assert_eq!(locate(&dir, false), Ok(None));
    let error = locate(&dir, true).expect_err("required and missing is an error");
    assert!(error.contains("no-such-testdata") && error.contains(REQUIRE_VARIABLE), "{error}");
}
