//! Fuzzes the REXPaint `.xp` reader: any bytes must give an image or an error naming
//! the file, never a panic or an allocation beyond the limit, and whatever reads must
//! survive being written and read again.
//!
//! Inputs that start with the gzip magic bytes are read as they are. Others are
//! gzip-compressed first: mutations of a compressed file almost never get past its
//! checksum, so this is what reaches the parser of the decompressed content. Seed the
//! corpus with both the `.xp` files and their decompressed content.
#![no_main]

use flate2::Compression;
use flate2::write::GzEncoder;
use libfuzzer_sys::fuzz_target;
use prefabric::format::xp;
use prefabric::{Limits, Location};
use std::io::Write;

fn gzip(raw: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(raw).expect("compressing into memory");
    encoder.finish().expect("compressing into memory")
}

fuzz_target!(|data: &[u8]| {
    let limits = Limits { max_xp_bytes: 1 << 16, ..Limits::default() };
    let bytes = if data.starts_with(&[0x1f, 0x8b]) { data.to_vec() } else { gzip(data) };
    match xp::read("fuzz.xp", &bytes, &limits) {
        Ok(image) => {
            let written = xp::write(&image);
            let again = xp::read("again.xp", &written, &limits).expect("written images read back");
            assert_eq!(again.layers(), image.layers());
            assert_eq!(xp::write(&again), written);
        }
        Err(e) => assert_eq!(e.location(), Some(&Location::file("fuzz.xp"))),
    }
});
