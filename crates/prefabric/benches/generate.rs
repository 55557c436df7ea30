//! Benchmarks of map generation on the embedded default pack.
//!
//! * `generate/materials` — the whole pipeline for a 200x200 materials map
//!   (features, layout, validation), seeds cycling so no one map dominates.
//! * `generate/materials_untraced` — the same, with the trace switched off
//!   ([`Generator::trace`]): what a game pays per map when nobody reads `--explain`.
//! * `generate/materials_recycled` — the same again, each map handed back to the
//!   generator when done ([`Generator::recycle`]): what bulk generation pays per
//!   map, the memory of one map serving the next.
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
//!   last as a REXPaint image, gzip included); `render/ldtk` writing it as an LDtk
//!   project (the terrain's IntGrid and an entity for every object, prefab and region).
//! * `pack/load_embedded` — loading and checking the whole default pack: its
//!   palette, text and `.xp` prefabs and map types.
//! * `generate/hotel`, `layout/hotel` — the 120x80 chained hotel (seed 002): the
//!   whole pipeline, and the chain layout alone; `generate/maze` and `layout/maze`
//!   the 81x51 maze grown from one 3x3 prefab.
//! * `generate/hotel_tunnelers`, `layout/hotel_tunnelers` — the same 120x80 area,
//!   encounters and furnishing dug by tunnelers instead, for comparison.
//! * `generate/catacombs`, `layout/catacombs` — the 100x70 catacombs (seed 004):
//!   rooms joined by path-found hallways, the whole pipeline and the layout alone.
//! * `generate/mines`, `layout/mines` — the 120x90 mines: caves grown by the
//!   cellular automaton, the ways in and out joined by direct passages, set
//!   pieces centred in caverns or sunk into their walls (the layout includes
//!   placing them); `encounters/mines` and `furnish/mines` those stages alone.
//! * `generate/mines_200x200`, `layout/mines_200x200` — the same map type on
//!   200x200, beside `layout/materials`, the tunnelers on 200x200, and
//!   `layout/tunnelers_120x90`, the materials' tunnelers on the mines' size.
//! * `compare/mapgen_WxH` beside `compare/tunnelers_bare_WxH` (200x200 and
//!   120x90): mapgen 0.6's `SimpleRooms` + `NearestCorridors` (up to 30 rooms of
//!   6–9 cells a side, each joined to its nearest neighbour by an L-shaped
//!   corridor; no doors, regions or walls), the yardstick issue 18 names, side by
//!   side with the tunneler layout on the same size: the materials' parameters,
//!   no prefabs, one start near the centre (`cargo bench --bench generate --
//!   compare/` runs the group alone); and `compare/tunnelers_sparse_200x200`,
//!   the same tunnelers told to stop at about mapgen's amount of work (6% of
//!   the map dug, no last-chance search, no hall quota: some 3,500 open cells
//!   against mapgen's 2,500).
//!
//! Run with `cargo bench -p prefabric`; criterion prints the median as the middle
//! value of `time: [low median high]`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mapgen::MapBuilder;
use mapgen::filter::{NearestCorridors, SimpleRooms};
use prefabric::{Generation, Generator, Limits, Pack, render};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::hint::black_box;

#[path = "../tests/suite/common/mod.rs"]
mod common;

const SEEDS: u64 = 64;

/// The default pack with `hotel_tunnelers` (the hotel's size, encounters and
/// furnishing, dug by tunnelers), the mines on 200x200 and tunnelers on the
/// mines' 120x90.
fn pack_with_tunneled_hotel() -> Pack {
    let mut files = common::default_pack_files();
    let hotel = files.iter().find(|f| f.path == "maps/hotel.toml").expect("the hotel map type");
    let text = String::from_utf8(hotel.bytes.clone()).expect("UTF-8");
    let (head, rest) = text.split_once("[chain]").expect("a [chain] section");
    let tail = &rest[rest.find("[encounters]").expect("an [encounters] section")..];
    let head = head.replace("generator = \"chain\"", "generator = \"tunnelers\"");
    let tunnelers = "[tunnelers]\nwidth = 1\nmin_width = 1\nmax_width = 3\n\n[[starts]]\nat = \"centre\"\n\n";
    let bytes = format!("{head}{tunnelers}{tail}").into_bytes();
    files.push(prefabric::content::SourceFile { path: "maps/hotel_tunnelers.toml".into(), bytes });
    // The mines on the materials' size, and the materials' tunnelers on the
    // mines' size.
    let mines = files.iter().find(|f| f.path == "maps/mines.toml").expect("the mines map type");
    let text = String::from_utf8(mines.bytes.clone()).expect("UTF-8").replacen(
        "width = 120\nheight = 90",
        "width = 200\nheight = 200",
        1,
    );
    files.push(prefabric::content::SourceFile { path: "maps/mines_200x200.toml".into(), bytes: text.into_bytes() });
    let tunnelers = "width = 120\nheight = 90\ngenerator = \"tunnelers\"\n\n[tunnelers]\nwidth = 3\nstep = [4, 9]\nturn_chance = 20\nroom_chance = 45\nhall_chance = 4\nfill_target = 34\nmin_open = 20\n\n[[starts]]\nat = \"centre\"\njitter = [20, 10]\n";
    files.push(prefabric::content::SourceFile {
        path: "maps/tunnelers_120x90.toml".into(),
        bytes: tunnelers.as_bytes().to_vec(),
    });
    Pack::from_files("content/default", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

/// `generate/NAME` and `layout/NAME` for one map type.
fn pipeline_and_layout(c: &mut Criterion, pack: &Pack, name: &str) {
    let generator = Generator::new(pack, name).expect("the map type exists");
    pipeline(c, &generator, &format!("generate/{name}"), false);
    layout(c, &generator, &format!("layout/{name}"));
}

/// The whole pipeline, as `bench`, seeds cycling; each map dropped, or handed
/// back to the generator when `recycled`.
fn pipeline(c: &mut Criterion, generator: &Generator, bench: &str, recycled: bool) {
    let mut seed = 0;
    c.bench_function(bench, |b| {
        b.iter(|| {
            seed = (seed + 1) % SEEDS;
            let map = black_box(generator.generate(seed).expect("the map generates"));
            if recycled {
                generator.recycle(map);
            }
        })
    });
}

/// The layout alone, as `bench`: the features stage runs outside the timed part.
fn layout(c: &mut Criterion, generator: &Generator, bench: &str) {
    let mut seed = 0;
    c.bench_function(bench, |b| {
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
}

/// The sizes the tunnelers are compared with mapgen on.
const COMPARED: [(usize, usize); 2] = [(200, 200), (120, 90)];

/// The default pack with `tunnelers_bare_WxH` map types: the materials'
/// tunneler parameters, no features, one start near the centre.
fn pack_with_bare_tunnelers() -> Pack {
    let mut files = common::default_pack_files();
    for (w, h) in COMPARED {
        let text = format!(
            "width = {w}\nheight = {h}\ngenerator = \"tunnelers\"\n\n[tunnelers]\nwidth = 3\nstep = [4, 9]\n\
             turn_chance = 20\nroom_chance = 45\nhall_chance = 4\nmin_halls = 3\nanteroom_chance = 35\n\
             turn_drift = 3\nroom_drift = -2\nfill_target = 34\nmin_open = 20\n\n\
             [[starts]]\nat = \"centre\"\njitter = [{}, {}]\n",
            w / 10,
            h / 10
        );
        let path = format!("maps/tunnelers_bare_{w}x{h}.toml");
        files.push(prefabric::content::SourceFile { path, bytes: text.into_bytes() });
    }
    let bare = files.iter().find(|f| f.path == "maps/tunnelers_bare_200x200.toml").expect("the bare map type");
    let sparse = String::from_utf8(bare.bytes.clone())
        .expect("UTF-8")
        .replace("min_halls = 3\n", "min_halls = 0\nlast_chance = 0\n")
        .replace("fill_target = 34\nmin_open = 20\n", "fill_target = 6\nmin_open = 3\n");
    assert!(sparse.contains("last_chance = 0") && sparse.contains("fill_target = 6"), "{sparse}");
    files.push(prefabric::content::SourceFile {
        path: "maps/tunnelers_sparse_200x200.toml".into(),
        bytes: sparse.into_bytes(),
    });
    Pack::from_files("content/default", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

/// mapgen's rooms and corridors beside the bare tunneler layout, size by size.
fn compare_with_mapgen(c: &mut Criterion) {
    let pack = pack_with_bare_tunnelers();
    for (w, h) in COMPARED {
        let mut seed = 0;
        c.bench_function(&format!("compare/mapgen_{w}x{h}"), |b| {
            b.iter(|| {
                seed = (seed + 1) % SEEDS;
                let mut rng = StdRng::seed_from_u64(seed);
                let mut builder = MapBuilder::new(w, h);
                black_box(builder.with(SimpleRooms::new()).with(NearestCorridors::new()).build_with_rng(&mut rng))
            })
        });
        let name = format!("tunnelers_bare_{w}x{h}");
        let generator = Generator::new(&pack, &name).expect("the bare map type exists");
        layout(c, &generator, &format!("compare/{name}"));
    }
    let generator = Generator::new(&pack, "tunnelers_sparse_200x200").expect("the sparse map type exists");
    layout(c, &generator, "compare/tunnelers_sparse_200x200");
}

fn prefab_layouts(c: &mut Criterion) {
    let pack = pack_with_tunneled_hotel();
    for name in ["hotel", "hotel_tunnelers", "maze", "catacombs", "mines", "mines_200x200", "tunnelers_120x90"] {
        pipeline_and_layout(c, &pack, name);
    }
    stages(c, &pack, "mines");
}

/// The generation of `seed` with its first `done` stages run (features, layout,
/// encounters, furnishing, objects, in pipeline order), ready for the next.
fn after_stages<'p>(generator: &Generator<'p>, seed: u64, done: usize) -> Generation<'p> {
    let mut g = generator.start(seed, 0);
    if done > 0 {
        g.features().expect("features place");
    }
    if done > 1 {
        g.layout().expect("the layout digs");
    }
    if done > 2 {
        g.encounters().expect("encounters embed");
    }
    if done > 3 {
        g.furnish();
    }
    if done > 4 {
        g.objects();
    }
    if done > 5 {
        g.theme();
    }
    g
}

/// `STAGE/NAME`: one stage, `run`, alone on maps whose first `done` stages ran
/// outside the timed part.
fn stage(c: &mut Criterion, generator: &Generator<'_>, bench: &str, done: usize, run: fn(&mut Generation<'_>)) {
    let mut seed = 0;
    c.bench_function(bench, |b| {
        b.iter_batched(
            || {
                seed = (seed + 1) % SEEDS;
                after_stages(generator, seed, done)
            },
            |mut g| {
                run(&mut g);
                black_box(g)
            },
            BatchSize::SmallInput,
        )
    });
}

/// `encounters/NAME` and `furnish/NAME`: each stage alone on maps whose
/// earlier stages ran outside the timed part.
fn stages(c: &mut Criterion, pack: &Pack, name: &str) {
    let generator = Generator::new(pack, name).expect("the map type exists");
    stage(c, &generator, &format!("encounters/{name}"), 2, |g| g.encounters().expect("encounters embed"));
    stage(c, &generator, &format!("furnish/{name}"), 3, |g| g.furnish());
}

fn benches(c: &mut Criterion) {
    let pack = Pack::embedded().expect("the embedded pack is valid");
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    pipeline_and_layout(c, &pack, "materials");
    // The same maps as games make them in bulk, with no one reading the trace.
    let untraced = generator.clone().trace(false);
    pipeline(c, &untraced, "generate/materials_untraced", false);
    // And handing each map back, as bulk generation does.
    pipeline(c, &untraced, "generate/materials_recycled", true);

    stages(c, &pack, "materials");
    stage(c, &generator, "objects/materials", 4, |g| g.objects());
    // The theme on materials (floors and walls) and the mines (pools too).
    stage(c, &generator, "theme/materials", 5, |g| g.theme());
    let mines = Generator::new(&pack, "mines").expect("mines exists");
    stage(c, &mines, "theme/mines", 5, |g| g.theme());
    // The region graph on the largest map and on caverns' long shared edges.
    stage(c, &generator, "link/materials", 6, |g| g.link());
    stage(c, &mines, "link/mines", 6, |g| g.link());

    let map = generator.generate(1).expect("materials generates");
    c.bench_function("render/ascii", |b| b.iter(|| black_box(render::ascii(&map, pack.palette()))));
    c.bench_function("render/json", |b| b.iter(|| black_box(render::json(&map, &pack))));
    let viewer = render::HtmlOptions::default();
    c.bench_function("render/html", |b| b.iter(|| black_box(render::map_html(&map, &pack, &viewer))));
    c.bench_function("render/xp", |b| {
        b.iter(|| black_box(prefabric::format::xp::write(&render::map_xp(&map, pack.palette()))))
    });
    c.bench_function("render/ldtk", |b| b.iter(|| black_box(render::map_ldtk(&map, &pack))));
    c.bench_function("pack/load_embedded", |b| b.iter(|| black_box(Pack::embedded().expect("valid"))));
}

criterion_group!(generation, benches, prefab_layouts, compare_with_mapgen);
criterion_main!(generation);
