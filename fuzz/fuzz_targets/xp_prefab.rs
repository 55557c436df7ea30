//! Fuzzes REXPaint prefabs: any image must give a prefab or errors naming the file,
//! never a panic, and whatever loads must survive being written as `.xp` and read
//! again, and, when text can hold it, the same through text.
//!
//! Like `xp_read`, inputs that are not gzip are compressed first so mutations reach
//! the layers. Seed the corpus with the default pack's `.xp` prefabs.
#![no_main]

use flate2::Compression;
use flate2::write::GzEncoder;
use libfuzzer_sys::fuzz_target;
use prefabric::format::{text, xp};
use prefabric::{Header, Limits, Pack, Prefab, render};
use std::io::Write;
use std::sync::OnceLock;

fn pack() -> &'static Pack {
    static PACK: OnceLock<Pack> = OnceLock::new();
    PACK.get_or_init(|| Pack::embedded().expect("the embedded pack loads"))
}

fn gzip(raw: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(raw).expect("compressing into memory");
    encoder.finish().expect("compressing into memory")
}

fuzz_target!(|data: &[u8]| {
    let limits = Limits { max_xp_bytes: 1 << 16, max_prefab_side: 64, ..Limits::default() };
    let bytes = if data.starts_with(&[0x1f, 0x8b]) { data.to_vec() } else { gzip(data) };
    let Ok(image) = xp::read("fuzz.xp", &bytes, &limits) else { return };
    let palette = pack().palette();
    let prefab = match Prefab::from_xp("fuzz.xp", &image, Header::named("fuzz"), palette, &limits) {
        Ok(p) => p,
        Err(errors) => {
            assert!(!errors.is_empty());
            assert!(errors.iter().all(|e| e.location().is_some_and(|l| l.file == "fuzz.xp")));
            return;
        }
    };
    let written = xp::write(&prefab.to_xp(palette).expect("a loaded prefab can be written as .xp"));
    let again = xp::read("again.xp", &written, &limits).expect("written images read back");
    let back = Prefab::from_xp("again.xp", &again, prefab.header(), palette, &limits).expect("and load");
    assert_eq!(back, prefab);
    if let Ok(source) = render::prefab_text(&prefab, palette) {
        let (raws, errors) = text::parse("again.txt", &source, &limits);
        assert!(errors.is_empty(), "{errors:?}\n{source}");
        let back = Prefab::from_text("again.txt", &raws[0], palette).expect("written text reads back");
        assert_eq!(back, prefab, "{source}");
    }
});
