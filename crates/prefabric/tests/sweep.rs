//! Invariants at scale: every map type of the default pack, 10,000 seeds each
//! (`PREFABRIC_SWEEP_SEEDS` to change it), at depths spread over the map type's
//! encounter ranges, on every core. Every map must be connected, keep its
//! prefabs intact and their machines whole, stand every object on walkable
//! ground, keep every listed door passable, respect its encounters' per-map
//! limits and count, and hold regions true to its cells. A failure names the map
//! type, seed, depth and broken invariant. The slowest map against the median is
//! printed (`cargo test --release -p prefabric --test sweep -- --nocapture`).

mod common;

use prefabric::{Generator, Map, MapType, Pack};
use std::collections::BTreeMap;
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
        .map(|pool| pool.pool.iter().filter_map(|e| e.depth).map(|r| r.hi as u32).max().unwrap_or(1))
        .unwrap_or(1)
        .max(5);
    1 + (seed % u64::from(deepest)) as u32
}

/// The invariants of design.md that a map must hold, first broken one first.
fn check(map: &Map, pack: &Pack, map_type: &MapType) -> Result<(), String> {
    common::connected(map)?;
    common::prefabs_intact(map, pack)?;
    common::machines_placed(map, pack)?;
    common::regions_consistent(map)?;
    for o in map.objects() {
        for &(at, _) in &o.cells {
            if !map.is_walkable(at) {
                return Err(format!(
                    "{} `{}` stands on unwalkable {at}",
                    o.kind.name(),
                    o.tag.as_deref().unwrap_or("")
                ));
            }
        }
    }
    for region in map.regions() {
        for door in &region.doors {
            if !map.is_passable(door.at) {
                return Err(format!("door {} of region {} is not passable", door.at, region.id));
            }
        }
    }
    if let Some(pool) = &map_type.encounters {
        let mut placed: BTreeMap<&str, u32> = BTreeMap::new();
        for p in map.prefabs() {
            if let Some(e) = &p.encounter {
                *placed.entry(e.id.as_str()).or_default() += 1;
            }
        }
        let total: u32 = placed.values().sum();
        if total > pool.count.1 {
            return Err(format!("{total} encounters placed, more than the count's {}", pool.count.1));
        }
        for e in &pool.pool {
            let n = placed.get(e.id.as_str()).copied().unwrap_or(0);
            if e.max_per_map.is_some_and(|max| n > max) {
                return Err(format!("encounter `{}` placed {n} times, over its max_per_map", e.id));
            }
            if n > 0 && e.depth.is_some_and(|r| !(r.lo as u32..=r.hi as u32).contains(&map.depth())) {
                return Err(format!("encounter `{}` placed outside its depths", e.id));
            }
        }
    }
    Ok(())
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
                            if let Err(broken) = check(&map, &pack, map_type) {
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
