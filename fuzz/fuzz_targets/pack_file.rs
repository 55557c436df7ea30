//! Fuzzes a whole pack from memory: the first byte picks which file of the tiny pack the rest replaces.
//! What is checked is in `harness/mod.rs`, shared with the regression replay in
//! `cargo test`.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::pack_file(data));
