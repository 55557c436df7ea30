//! The command line's integration tests, in one binary (one link instead of
//! five): each module runs the built `prefabric` program on one subject.

mod cli;
mod import_des;
mod init;
mod ldtk;
mod pack_folder;
mod pools;
mod readme;
mod stats;
mod tiled;
mod tiled_prefabs;
mod viewer;
mod watch;
mod world;
mod writes;

/// The library's test checks (the invariants of design.md, written against the
/// public API) and its finder of `../shared/testdata`.
#[path = "../../../prefabric/tests/suite/common/mod.rs"]
mod common;
use common::testdata;
