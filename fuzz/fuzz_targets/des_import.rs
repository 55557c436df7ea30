//! Fuzzes the DCSS `.des` importer: reading, translating and assembling a pack.
//! What is checked is in `harness/des.rs`, shared with the regression replay in
//! the importer's `cargo test`.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

#[path = "../harness/des.rs"]
mod des;

libfuzzer_sys::fuzz_target!(|data: &[u8]| des::des_import(data));
