//! Benchmarks of the REXPaint `.xp` reader and writer on the real files in
//! `shared/testdata/xp`.
//!
//! * `xp/read_largest` — reading the largest file there (by size on disk) from bytes
//!   already in memory: decompression and parsing.
//! * `xp/write` — writing that image back: transposing and compressing.
//!
//! Run with `cargo bench -p prefabric --bench xp`; criterion prints the median as the
//! middle value of `time: [low median high]`.

use criterion::{Criterion, criterion_group, criterion_main};
use prefabric::Limits;
use prefabric::format::xp;
use std::hint::black_box;
use std::path::PathBuf;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/testdata/xp");

/// The name and bytes of the largest `.xp` file in [`DIR`].
fn largest() -> (String, Vec<u8>) {
    let entries = std::fs::read_dir(DIR).unwrap_or_else(|e| panic!("cannot list {DIR} (is shared/ checked out?): {e}"));
    let path: PathBuf = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xp"))
        .max_by_key(|p| (std::fs::metadata(p).map_or(0, |m| m.len()), p.clone()))
        .unwrap_or_else(|| panic!("no .xp file in {DIR}"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    (path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()), bytes)
}

fn benches(c: &mut Criterion) {
    let (name, bytes) = largest();
    let limits = Limits::default();
    let image = xp::read(&name, &bytes, &limits).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "xp benches use {name}: {} bytes, {}x{}, {} layer(s)",
        bytes.len(),
        image.width(),
        image.height(),
        image.layers().len()
    );

    c.bench_function("xp/read_largest", |b| b.iter(|| black_box(xp::read(&name, black_box(&bytes), &limits))));
    c.bench_function("xp/write", |b| b.iter(|| black_box(xp::write(black_box(&image)))));
}

criterion_group!(xp_benches, benches);
criterion_main!(xp_benches);
