//! Layout quality targets of the built-in `materials` map type (issue 18), over
//! 500 seeds on every core: no corridor runs along the map's outer edge for more
//! than 20 cells, no rectangle larger than 1/12 of the map is left unused, the
//! median room has at least 30 cells, every map has at least the 3 halls the map
//! type asks for, doubled walls are at most half of what they were before the
//! tunnelers learned to share walls (a median of 646 cells per map), and every
//! listed door is walkable and on its region's wall line. A failure names the
//! seed and the measure. `cargo run --release -p prefabric --example quality`
//! prints the same figures over any seed range.

use prefabric::quality::LayoutQuality;
use prefabric::{Generator, Pack};
use std::sync::atomic::{AtomicU64, Ordering};

const SEEDS: u64 = 500;

/// The median doubled-wall cells per map before (commit e1f5346, 1,000 seeds).
const DOUBLED_WALLS_BEFORE: u32 = 646;

fn measure(map_type: &str) -> Vec<(u64, LayoutQuality)> {
    let pack = Pack::embedded().unwrap();
    let generator = Generator::new(&pack, map_type).unwrap();
    let next = AtomicU64::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut measured: Vec<(u64, LayoutQuality)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let seed = next.fetch_add(1, Ordering::Relaxed);
                        if seed >= SEEDS {
                            return mine;
                        }
                        let map = generator.generate(seed).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
                        mine.push((seed, LayoutQuality::of(&map)));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    measured.sort_by_key(|(seed, _)| *seed);
    measured
}

fn median(mut values: Vec<u32>) -> u32 {
    values.sort_unstable();
    values[values.len() / 2]
}

#[test]
fn materials_maps_meet_the_layout_quality_targets() {
    let measured = measure("materials");
    assert_eq!(measured.len() as u64, SEEDS);
    let map_area = 200 * 200;
    for (seed, q) in &measured {
        assert!(q.edge_run <= 20, "seed {seed}: a corridor runs {} cells along the map's edge", q.edge_run);
        assert!(
            q.largest_empty.area() * 12 <= map_area,
            "seed {seed}: {:?} ({} cells) is left unused, more than 1/12 of the map",
            q.largest_empty,
            q.largest_empty.area()
        );
        assert!(q.halls >= 3, "seed {seed}: {} halls, the map type asks for 3", q.halls);
        assert!(
            q.misplaced_doors.is_empty(),
            "seed {seed}: doors off their wall line or not walkable: {:?}",
            q.misplaced_doors
        );
    }
    let rooms: Vec<u32> = measured.iter().flat_map(|(_, q)| q.room_areas.iter().copied()).collect();
    let room_median = median(rooms);
    assert!(room_median >= 30, "the median room has {room_median} cells, fewer than 30");
    let doubled = median(measured.iter().map(|(_, q)| q.doubled_walls).collect());
    assert!(
        doubled * 2 <= DOUBLED_WALLS_BEFORE,
        "a median of {doubled} doubled wall cells per map, more than half of {DOUBLED_WALLS_BEFORE}"
    );
}
