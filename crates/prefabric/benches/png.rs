//! Benchmark of the PNG writer on a 200x200 map of the built-in pack.
//!
//! * `png/200x200` — drawing and encoding the default map type's map of seed 1 at
//!   the default scale (4 pixels per cell, an 800x800 image), prefabs outlined by
//!   category, with a legend.
//!
//! Run with `cargo bench -p prefabric --bench png`; criterion prints the median as
//! the middle value of `time: [low median high]`.

use criterion::{Criterion, criterion_group, criterion_main};
use prefabric::render::{self, Highlight, PngOptions};
use prefabric::{Generator, Pack};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let pack = Pack::embedded().expect("the built-in pack loads");
    let map = Generator::new(&pack, pack.default_map_type()).and_then(|g| g.generate(1)).expect("seed 1 generates");
    let options = PngOptions { highlight: Some(Highlight::Category), legend: true, ..PngOptions::default() };
    c.bench_function("png/200x200", |b| {
        b.iter(|| black_box(render::map_png(black_box(&map), pack.palette(), &options)))
    });
}

criterion_group!(png_benches, benches);
criterion_main!(png_benches);
