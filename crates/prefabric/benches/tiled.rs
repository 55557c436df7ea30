//! Benchmarks of the Tiled writers on a 200x200 map of the built-in pack (the
//! default map type's map of seed 1).
//!
//! * `tiled/tileset` — gathering the map's tiles and drawing and encoding the
//!   tileset image;
//! * `tiled/tmj` and `tiled/tmx` — writing the map as Tiled JSON and XML, its
//!   tileset in a file beside it.
//!
//! Run with `cargo bench -p prefabric --bench tiled`; criterion prints the median as
//! the middle value of `time: [low median high]`.

use criterion::{Criterion, criterion_group, criterion_main};
use prefabric::render::{self, TiledOptions, TiledTileset, TilesetPlacement};
use prefabric::{Generator, Pack};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let pack = Pack::embedded().expect("the built-in pack loads");
    let map = Generator::new(&pack, pack.default_map_type()).and_then(|g| g.generate(1)).expect("seed 1 generates");
    let tileset = TiledTileset::of_maps([&map], &pack);
    let options =
        TiledOptions { tileset: TilesetPlacement::External { source: "map-tiles.tsj".into() }, command: None };
    c.bench_function("tiled/tileset", |b| {
        b.iter(|| black_box(TiledTileset::of_maps([black_box(&map)], &pack).image_png()))
    });
    c.bench_function("tiled/tmj", |b| {
        b.iter(|| black_box(render::map_tmj(black_box(&map), &pack, &tileset, &options)))
    });
    c.bench_function("tiled/tmx", |b| {
        b.iter(|| black_box(render::map_tmx(black_box(&map), &pack, &tileset, &options)))
    });
}

criterion_group!(tiled_benches, benches);
criterion_main!(tiled_benches);
