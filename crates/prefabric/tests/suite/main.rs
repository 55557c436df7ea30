//! The library's integration tests, in one binary: linking one test program
//! instead of thirty keeps a cold `cargo test` minutes shorter. Each module is
//! one subject; `cargo test -p prefabric --test suite chain::` runs one of them.
//! It needs the default features (Cargo.toml's `required-features`).

mod common;

mod catalogue;
mod caves;
mod chain;
mod columns;
mod containment;
mod definitions;
mod doomed;
mod encounters;
mod fixtures;
mod furnishing;
mod fuzz_regressions;
mod glyphs;
mod golden;
mod hostile;
mod json;
mod large_files;
mod ldtk;
mod moves;
mod objects;
mod pack_files;
mod pathways;
mod png;
mod properties;
mod quality;
mod region_graph;
mod robustness;
mod sizes;
mod stability;
mod staircases;
mod sweep;
mod theme;
mod tiled;
mod tiled_prefabs;
mod transforms;
mod variation;
mod world;
mod xp_files;
mod xp_prefabs;
