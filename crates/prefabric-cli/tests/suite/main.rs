//! The command line's integration tests, in one binary (one link instead of
//! five): each module runs the built `prefabric` program on one subject.

mod cli;
mod readme;
mod stats;
mod viewer;
mod watch;

/// Finds `../shared/testdata`, skipping or failing as `PREFABRIC_REQUIRE_TESTDATA` says.
#[path = "../../../prefabric/tests/suite/common/testdata.rs"]
mod testdata;
