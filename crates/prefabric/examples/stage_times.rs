//! Where a generation's time goes: the mean time of each stage over many seeds
//! of one map type, run stage by stage through the public API (first attempts
//! only; a seed whose attempt fails is counted and left out), and the median
//! time of a whole map.
//!
//! `cargo run --release -p prefabric --example stage_times -- MAP_TYPE [SEEDS] [PACK_DIR] [--no-trace] [--no-recycle]`
//!
//! `--no-trace` times the stages as maps are made when nobody reads the trace
//! ([`Generator::trace`]). Each map is handed back to the generator when it is
//! timed ([`Generator::recycle`]), as bulk generation does; `--no-recycle`
//! drops it instead, so every map allocates its own memory.

use prefabric::{Generator, Pack};
use std::time::Instant;

const STAGES: [&str; 8] = ["features", "layout", "encounters", "furnish", "objects", "theme", "link", "validate"];

fn main() {
    let traced = !std::env::args().any(|a| a == "--no-trace");
    let recycled = !std::env::args().any(|a| a == "--no-recycle");
    let args: Vec<String> = std::env::args().filter(|a| !a.starts_with("--no-")).collect();
    let map_type = args.get(1).cloned().unwrap_or_else(|| "mines".to_string());
    let seeds: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(500);
    let pack = match args.get(3) {
        Some(dir) => Pack::load(std::path::Path::new(&dir)),
        None => Pack::embedded(),
    };
    let pack = pack.unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let generator = Generator::new(&pack, &map_type)
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2);
        })
        .trace(traced);
    let mut total = [0f64; STAGES.len()];
    let mut per_map = Vec::new();
    let (mut timed, mut failed) = (0u32, 0u32);
    for seed in 0..seeds {
        let mut run = generator.start(seed, 0);
        let mut marks = [Instant::now(); STAGES.len() + 1];
        let ok = run.features().is_ok()
            && {
                marks[1] = Instant::now();
                run.layout().is_ok()
            }
            && {
                marks[2] = Instant::now();
                run.encounters().is_ok()
            }
            && {
                marks[3] = Instant::now();
                run.furnish();
                marks[4] = Instant::now();
                run.objects();
                marks[5] = Instant::now();
                run.theme();
                marks[6] = Instant::now();
                run.link();
                marks[7] = Instant::now();
                run.validate().is_ok()
            };
        marks[8] = Instant::now();
        if recycled {
            generator.recycle(run.into_map());
        }
        if !ok {
            failed += 1;
            continue;
        }
        timed += 1;
        for (k, t) in total.iter_mut().enumerate() {
            *t += (marks[k + 1] - marks[k]).as_secs_f64();
        }
        per_map.push((marks[STAGES.len()] - marks[0]).as_secs_f64());
    }
    println!("{map_type}: {timed} seeds timed, {failed} left out (their first attempt failed)");
    let n = f64::from(timed.max(1));
    for (name, t) in STAGES.iter().zip(total) {
        println!("{name:>10}: {:.3} ms", t * 1000.0 / n);
    }
    println!("{:>10}: {:.3} ms", "total", total.iter().sum::<f64>() * 1000.0 / n);
    // Speed targets are medians per map: a few slow seeds move the mean.
    per_map.sort_by(f64::total_cmp);
    if let Some(median) = per_map.get(per_map.len() / 2) {
        println!("{:>10}: {:.3} ms", "median", median * 1000.0);
    }
}
