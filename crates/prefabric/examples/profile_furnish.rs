//! Runs the furnishing stage many times on finished layouts with encounters, for
//! profilers (`perf record`, callgrind).
//!
//! `cargo run --release -p prefabric --example profile_furnish -- 2000`

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
            g.encounters().expect("encounters embed");
            g
        })
        .collect();
    let mut objects = 0usize;
    let mut spent = std::time::Duration::ZERO;
    for run in 0..runs {
        let mut g = layouts[(run % 64) as usize].clone();
        let before = g.map().objects().len();
        let start = std::time::Instant::now();
        g.furnish();
        spent += start.elapsed();
        objects += g.map().objects().len() - before;
    }
    println!(
        "{runs} furnishing stages, {} objects each on average, {:?} each",
        objects / runs.max(1) as usize,
        spent / runs.max(1) as u32
    );
}
