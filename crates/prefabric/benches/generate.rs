//! Benchmarks of map generation on the embedded default pack.
//!
//! * `generate/materials` — the whole pipeline for a 200x200 materials map
//!   (features, layout, validation), seeds cycling so no one map dominates.
//! * `layout/materials` — the tunneler layout alone, on maps whose features stage
//!   ran outside the timed part.
//! * `encounters/materials` — embedding the materials encounter pool into a
//!   finished layout (features and layout run outside the timed part).
//! * `furnish/materials` — furnishing a finished 200x200 layout with encounters:
//!   compositions for every room and hall, terminals, loose items (the stages
//!   before it run outside the timed part).
//! * `objects/materials` — resolving every placed prefab's references and machines
//!   into objects (the stages before it run outside the timed part).
//! * `render/ascii`, `render/json` and `render/xp` — drawing one finished map (the
//!   last as a REXPaint image, gzip included).
//! * `pack/load_embedded` — loading and checking the whole default pack: its
//!   palette, text and `.xp` prefabs and map types.
//!
//! Run with `cargo bench -p prefabric`; criterion prints the median as the middle
//! value of `time: [low median high]`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use prefabric::{Generator, Pack, render};
use std::hint::black_box;

const SEEDS: u64 = 64;

fn benches(c: &mut Criterion) {
    let pack = Pack::embedded().expect("the embedded pack is valid");
    let generator = Generator::new(&pack, "materials").expect("materials exists");

    let mut seed = 0;
    c.bench_function("generate/materials", |b| {
        b.iter(|| {
            seed = (seed + 1) % SEEDS;
            black_box(generator.generate(seed).expect("materials generates"))
        })
    });

    let mut seed = 0;
    c.bench_function("layout/materials", |b| {
        b.iter_batched(
            || {
                seed = (seed + 1) % SEEDS;
                let mut g = generator.start(seed, 0);
                g.features().expect("features place");
                g
            },
            |mut g| black_box(g.layout()),
            BatchSize::SmallInput,
        )
    });

    let mut seed = 0;
    c.bench_function("encounters/materials", |b| {
        b.iter_batched(
            || {
                seed = (seed + 1) % SEEDS;
                let mut g = generator.start(seed, 0);
                g.features().expect("features place");
                g.layout().expect("the layout digs");
                g
            },
            |mut g| black_box(g.encounters()),
            BatchSize::SmallInput,
        )
    });

    let mut seed = 0;
    c.bench_function("furnish/materials", |b| {
        b.iter_batched(
            || {
                seed = (seed + 1) % SEEDS;
                let mut g = generator.start(seed, 0);
                g.features().expect("features place");
                g.layout().expect("the layout digs");
                g.encounters().expect("encounters embed");
                g
            },
            |mut g| {
                g.furnish();
                black_box(g)
            },
            BatchSize::SmallInput,
        )
    });

    let mut seed = 0;
    c.bench_function("objects/materials", |b| {
        b.iter_batched(
            || {
                seed = (seed + 1) % SEEDS;
                let mut g = generator.start(seed, 0);
                g.features().expect("features place");
                g.layout().expect("the layout digs");
                g.encounters().expect("encounters embed");
                g.furnish();
                g
            },
            |mut g| {
                g.objects();
                black_box(g)
            },
            BatchSize::SmallInput,
        )
    });

    let map = generator.generate(1).expect("materials generates");
    c.bench_function("render/ascii", |b| b.iter(|| black_box(render::ascii(&map, pack.palette()))));
    c.bench_function("render/json", |b| b.iter(|| black_box(render::json(&map, pack.palette()))));
    c.bench_function("render/xp", |b| {
        b.iter(|| black_box(prefabric::format::xp::write(&render::map_xp(&map, pack.palette()))))
    });
    c.bench_function("pack/load_embedded", |b| b.iter(|| black_box(Pack::embedded().expect("valid"))));
}

criterion_group!(generation, benches);
criterion_main!(generation);
