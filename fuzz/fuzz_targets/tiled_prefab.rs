//! Fuzzes prefabs drawn in Tiled (`.tmx` and `.tmj` text, the test tileset
//! beside them). What is checked is in `harness/mod.rs`, shared with the
//! regression replay in `cargo test`.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::tiled_prefab(data));
