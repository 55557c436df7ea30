//! Runs the layout stage many times, for profilers (`perf record`, callgrind).
//!
//! `cargo run --release -p prefabric --example profile_layout -- 2000`

use prefabric::{Generator, Pack};

fn main() {
    let runs: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let pack = Pack::embedded().expect("the embedded pack is valid");
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    let mut open = 0u64;
    for seed in 0..runs {
        let mut g = generator.start(seed % 64, 0);
        g.features().expect("features place");
        open += u64::from(g.layout().map(|s| s.open_cells).unwrap_or(0));
    }
    println!("{runs} layouts, {} open cells on average", open / runs.max(1));
}
