//! Runs a map type's layout — the chain, the pathways or any other — (or, with
//! `full`, the whole pipeline) many times, for profilers (`perf record`,
//! callgrind).
//!
//! `cargo run --release -p prefabric --example profile_chain -- hotel 2000 [full]`
//! (`catacombs` for the pathways)

use prefabric::{Generator, Pack};

fn main() {
    let map_type = std::env::args().nth(1).unwrap_or_else(|| "hotel".to_string());
    let runs: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(500);
    let pack = Pack::embedded().expect("the embedded pack is valid");
    let generator = match Generator::new(&pack, &map_type) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let full = std::env::args().nth(3).is_some_and(|a| a == "full");
    let mut placed = 0u64;
    let started = std::time::Instant::now();
    for seed in 0..runs {
        let stats = if full {
            generator.generate(seed % 64).expect("the map generates").layout_stats().clone()
        } else {
            let mut g = generator.start(seed % 64, 0);
            g.features().expect("features place");
            g.layout().expect("the layout succeeds")
        };
        placed += u64::from(stats.chain.map_or(0, |c| c.placed) + stats.pathways.map_or(0, |p| p.rooms));
    }
    let each = started.elapsed().as_secs_f64() * 1000.0 / runs.max(1) as f64;
    let what = if full { "maps" } else { "layouts" };
    println!(
        "{runs} {map_type} {what}, {} prefabs or rooms placed on average, {each:.3} ms each",
        placed / runs.max(1)
    );
}
