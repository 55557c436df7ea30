//! Fuzzes the DCSS `.des` importer: reading, translating and assembling a pack.
//! What is checked is in `harness/mod.rs`, shared with the regression replay in
//! `cargo test`.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::des_import(data));
