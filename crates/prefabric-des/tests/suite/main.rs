//! The importer's integration tests, in one binary: the `.des` importer on a
//! file written for them and on DCSS's own vaults (`import_des`), and the fuzz
//! target's kept inputs replayed (`fuzz_regressions`).

// The library's invariant checks and its test-data locator, shared with the
// library's and the command line's suites.
#[path = "../../../prefabric/tests/suite/common/mod.rs"]
mod common;

// The fuzz harness: the library's targets' helpers (`mod.rs`), which bring
// `common` in again (a second copy in this binary is harmless), and the
// importer's target (`des.rs`).
#[path = "../../../../fuzz/harness/des.rs"]
mod des_harness;
#[allow(clippy::duplicate_mod)]
#[path = "../../../../fuzz/harness/mod.rs"]
mod harness;

mod fuzz_regressions;
mod import_des;
