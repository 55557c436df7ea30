//! Times a plain loop of `generate` calls, as a game making maps in bulk would
//! write it: untraced maps of one map type, seeds cycling over 100, each map
//! dropped or, with `--recycle`, handed back to the generator
//! ([`Generator::recycle`]) so the next is built in its memory.
//!
//! `cargo run --release -p prefabric --example bulk -- [MAPS] [MAP_TYPE] [--recycle]`
//!
//! Run it under `/usr/bin/time -v` to see the page faults the two ways cost.

use prefabric::{Generator, Pack};
use std::time::Instant;

fn main() {
    let recycle = std::env::args().any(|a| a == "--recycle");
    let args: Vec<String> = std::env::args().filter(|a| !a.starts_with("--")).collect();
    let maps: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let map_type = args.get(2).map_or("materials", String::as_str);
    let pack = Pack::embedded().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let generator = Generator::new(&pack, map_type)
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2);
        })
        .trace(false);
    let started = Instant::now();
    for n in 0..maps {
        match generator.generate(n % 100) {
            Ok(map) if recycle => generator.recycle(map),
            Ok(_) => {}
            Err(e) => eprintln!("seed {}: {e}", n % 100),
        }
    }
    let per_map = started.elapsed().as_secs_f64() * 1000.0 / maps.max(1) as f64;
    let how = if recycle { "each handed back" } else { "each dropped" };
    println!("{map_type}: {maps} maps, {how}: {per_map:.3} ms per map");
}
