//! Runs the encounters stage many times on finished layouts, for profilers
//! (`perf record`, callgrind).
//!
//! `cargo run --release -p prefabric --example profile_encounters -- 2000`

use prefabric::{Generator, Pack};

fn main() {
    let runs: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let pack = Pack::embedded().expect("the embedded pack is valid");
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    let layouts: Vec<_> = (0..64)
        .map(|seed| {
            let mut g = generator.start(seed, 0);
            g.features().expect("features place");
            g.layout().expect("the layout digs");
            g
        })
        .collect();
    let mut placed = 0usize;
    for run in 0..runs {
        let mut g = layouts[(run % 64) as usize].clone();
        g.encounters().expect("encounters embed");
        placed += g.map().prefabs().iter().filter(|p| p.encounter.is_some()).count();
    }
    println!("{runs} encounter stages, {} encounters each on average", placed / runs.max(1) as usize);
}
