//! Invariants at scale: every map type of the default pack, 10,000 seeds each
//! (`PREFABRIC_SWEEP_SEEDS` to change it), at depths spread over the map type's
//! encounter ranges, on every core. Every map must be connected, keep its
//! prefabs intact and their machines whole, stand every object on walkable
//! ground, keep every listed door passable, respect its encounters' per-map
//! limits and count, and hold regions true to its cells. A failure names the map
//! type, seed, depth and broken invariant. The slowest map against the median is
//! printed (`cargo test --release -p prefabric --test sweep -- --nocapture`).

use crate::common;

use prefabric::{Generator, MapType, Pack};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn seeds() -> u64 {
    std::env::var("PREFABRIC_SWEEP_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000)
}

/// Depths 1 to the deepest end of any encounter range (at least 5), in turn.
fn depth_of(map_type: &MapType, seed: u64) -> u32 {
    let deepest = map_type
        .encounters
        .as_ref()
        .map(|pool| pool.pool.iter().flat_map(|e| &e.depth.0).map(|r| r.hi as u32).max().unwrap_or(1))
        .unwrap_or(1)
        .max(5);
    1 + (seed % u64::from(deepest)) as u32
}

#[test]
fn ten_thousand_seeds_of_every_default_map_type_hold_every_invariant() {
    let pack = Pack::embedded().unwrap();
    let seeds = seeds();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    for map_type in pack.map_types() {
        let generator = Generator::new(&pack, &map_type.name).unwrap();
        let next = AtomicU64::new(0);
        let started = Instant::now();
        let mut times: Vec<(Duration, u64)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut times = Vec::new();
                        loop {
                            let seed = next.fetch_add(1, Ordering::Relaxed);
                            if seed >= seeds {
                                return times;
                            }
                            let depth = depth_of(map_type, seed);
                            let t = Instant::now();
                            let map = generator.clone().depth(depth).generate(seed);
                            times.push((t.elapsed(), seed));
                            let map =
                                map.unwrap_or_else(|e| panic!("{} seed {seed} depth {depth}: {e}", map_type.name));
                            if let Err(broken) = common::invariants(&map, &pack, map_type) {
                                panic!("{} seed {seed} depth {depth}: {broken}", map_type.name);
                            }
                        }
                    })
                })
                .collect();
            workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
        });
        times.sort();
        let median = times[times.len() / 2].0;
        let (slowest, seed) = times[times.len() - 1];
        eprintln!(
            "{}: {seeds} maps in {:.1} s on {threads} threads; median {:.2} ms, slowest {:.2} ms (seed {seed}), {:.1}x the median",
            map_type.name,
            started.elapsed().as_secs_f64(),
            median.as_secs_f64() * 1e3,
            slowest.as_secs_f64() * 1e3,
            slowest.as_secs_f64() / median.as_secs_f64().max(1e-9)
        );
    }
}
