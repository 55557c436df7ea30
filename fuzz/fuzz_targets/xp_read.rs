//! Fuzzes the REXPaint `.xp` reader (inputs that are not gzip are compressed first).
//! What is checked is in `harness/mod.rs`, shared with the regression replay in
//! `cargo test`.
#![no_main]

#[path = "../harness/mod.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::xp_read(data));
