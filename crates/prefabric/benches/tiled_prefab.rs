//! Benchmarks of the reader of prefabs drawn in Tiled, on the largest default
//! prefab without variation lines written as Tiled would hold it.
//!
//! * `tiled_prefab/read_tmx` — reading it from `.tmx` text (XML, CSV layers),
//!   checks included.
//! * `tiled_prefab/read_tmj` — the same from `.tmj` text (JSON, array layers).
//!
//! On the 25x19 `foundry` (2 shared cores): about 68 µs from `.tmx`, 88 µs from `.tmj`.
//!
//! Run with `cargo bench -p prefabric --bench tiled_prefab`; criterion prints the
//! median as the middle value of `time: [low median high]`.

use criterion::{Criterion, criterion_group, criterion_main};
use prefabric::render::{TiledOptions, TiledTileset, TilesetPlacement, prefab_tmj, prefab_tmx};
use prefabric::{Error, Limits, Pack, Prefab};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let pack = Pack::embedded().unwrap_or_else(|p| panic!("{p}"));
    let palette = pack.palette();
    let prefab = pack
        .prefabs()
        .iter()
        .filter(|p| !p.varies())
        .max_by_key(|p| (p.width() * p.height(), p.name().to_string()))
        .expect("a prefab");
    let tileset = TiledTileset::of_prefab(prefab, palette).unwrap_or_else(|e| panic!("{e}"));
    let options = TiledOptions { tileset: TilesetPlacement::Embedded { image: "p.png".into() }, command: None };
    let tmx = prefab_tmx(prefab, &tileset, &options).unwrap_or_else(|e| panic!("{e}"));
    let tmj = prefab_tmj(prefab, &tileset, &options).unwrap_or_else(|e| panic!("{e}"));
    println!("tiled_prefab benches use {}: {}x{}", prefab.name(), prefab.width(), prefab.height());
    let limits = Limits::default();
    let none = |source: &str| -> Result<(String, String), Error> { panic!("no tileset file expected: {source}") };
    let read = |file: &str, text: &str| Prefab::from_tiled(file, text, &none, prefab.header(), palette, &limits);
    assert!(read("p.tmx", &tmx).is_ok() && read("p.tmj", &tmj).is_ok());
    c.bench_function("tiled_prefab/read_tmx", |b| b.iter(|| black_box(read("p.tmx", black_box(&tmx)))));
    c.bench_function("tiled_prefab/read_tmj", |b| b.iter(|| black_box(read("p.tmj", black_box(&tmj)))));
}

criterion_group!(tiled_prefab_benches, benches);
criterion_main!(tiled_prefab_benches);
