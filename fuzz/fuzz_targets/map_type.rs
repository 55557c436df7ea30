//! Fuzzes a map type, with its encounter pool and furnishing tables, added to the default pack.
//! What is checked is in `harness/mod.rs`, shared with the regression replay in
//! `cargo test`.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::map_type(data));
