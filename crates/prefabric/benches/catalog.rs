//! Benchmarks of reading a large catalog.
//!
//! * `catalog/load_100k` — loading and checking the default pack with one more
//!   catalog file of 100,000 items (about 7.5 MB of TOML, each item a tag, a
//!   category, a rating and, for three in ten, two carriers): what a game with
//!   a catalog that large pays when it loads its pack.
//! * `catalog/load_embedded` — the default pack alone, for comparison.
//! * `catalog/toml_only_100k` — the `toml` crate alone reading that file and
//!   throwing every value away (`serde::de::IgnoredAny`): the floor under any
//!   reading of it through that parser.
//!
//! Run with `cargo bench -p prefabric --bench catalog`; criterion prints the
//! median as the middle value of `time: [low median high]`.

use criterion::{Criterion, criterion_group, criterion_main};
use prefabric::content::SourceFile;
use prefabric::{Limits, Pack};
use std::fmt::Write;
use std::hint::black_box;

/// Items in the large catalog file.
const ITEMS: usize = 100_000;

/// A catalog file of `n` valid items, drawn from the default pack's item
/// categories and entities by a fixed sequence (no randomness crate needed).
fn large_catalog(n: usize) -> String {
    const CATEGORIES: [&str; 8] = ["weapon", "power", "propulsion", "utility", "relics", "armor", "ore", "mining"];
    const CARRIERS: [&str; 5] = ["taper_drone", "twitching_husk", "core_acolyte", "grave_walker", "crypt_warden"];
    let mut text = String::with_capacity(n * 80);
    let mut state: u64 = 54;
    let mut next = |below: u64| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % below
    };
    for i in 0..n {
        let category = CATEGORIES[next(8) as usize];
        let rating = 1 + next(20);
        let _ = write!(text, "[[item]]\ntag = \"item_{i:06}\"\ncategory = \"{category}\"\nrating = {rating}\n");
        if next(10) < 3 {
            let first = next(5) as usize;
            let second = (first + 1 + next(4) as usize) % 5;
            let _ = writeln!(text, "carried_by = [\"{}\", \"{}\"]", CARRIERS[first], CARRIERS[second]);
        }
        text.push('\n');
    }
    text
}

fn benches(c: &mut Criterion) {
    let large = large_catalog(ITEMS);
    let mut files = Pack::embedded_files();
    files.push(SourceFile { path: "catalog/zz_large.toml".into(), bytes: large.clone().into_bytes() });
    let limits = Limits::default();
    Pack::from_files("large", files.clone(), limits.clone()).unwrap_or_else(|e| panic!("the large catalog loads: {e}"));
    let mut group = c.benchmark_group("catalog");
    group.sample_size(10);
    group.bench_function("load_100k", |b| {
        b.iter(|| black_box(Pack::from_files("large", black_box(files.clone()), limits.clone())))
    });
    group.bench_function("load_embedded", |b| {
        b.iter(|| black_box(Pack::from_files("default", Pack::embedded_files(), limits.clone())))
    });
    group.bench_function("toml_only_100k", |b| {
        b.iter(|| black_box(toml::from_str::<serde::de::IgnoredAny>(black_box(&large)).is_ok()))
    });
    group.finish();
}

criterion_group!(catalog_benches, benches);
criterion_main!(catalog_benches);
