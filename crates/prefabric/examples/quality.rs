//! Layout quality of a map type over many seeds (issue 18's targets): corridors
//! hugging the map's edge, the largest unused rectangle, room sizes, halls,
//! doubled walls and misplaced doors, as measured by `prefabric::quality`.
//!
//! `cargo run --release -p prefabric --example quality -- [MAP_TYPE] [SEEDS] [THREADS]`

use prefabric::quality::LayoutQuality;
use prefabric::{Generator, Pack};

fn main() {
    let map_type = std::env::args().nth(1).unwrap_or_else(|| "materials".to_string());
    let seeds: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let threads: u64 = std::env::args().nth(3).and_then(|a| a.parse().ok()).unwrap_or(2).max(1);
    let pack = Pack::embedded().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let generator = Generator::new(&pack, &map_type).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let (width, height) = {
        let map = generator.generate(0).expect("seed 0");
        (map.width(), map.height())
    };
    let measured: Vec<(u64, LayoutQuality)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let generator = &generator;
                s.spawn(move || {
                    (0..seeds)
                        .filter(|seed| seed % threads == t)
                        .map(|seed| match generator.generate(seed) {
                            Ok(map) => (seed, LayoutQuality::of(&map)),
                            Err(e) => {
                                eprintln!("seed {seed}: {e}");
                                std::process::exit(1);
                            }
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("worker")).collect()
    });
    let n = measured.len();
    let summary = |name: &str, values: &mut Vec<u32>, over: Option<u32>| {
        values.sort_unstable();
        let beyond =
            over.map(|limit| format!(", {} of {n} maps over {limit}", values.iter().filter(|&&v| v > limit).count()));
        println!(
            "{name}: median {}, 10% {}, 90% {}, max {}{}",
            values[values.len() / 2],
            values[values.len() / 10],
            values[values.len() * 9 / 10],
            values[values.len() - 1],
            beyond.unwrap_or_default()
        );
    };
    println!("{map_type} ({width}x{height}), {n} seeds");
    let mut edge: Vec<u32> = measured.iter().map(|(_, q)| q.edge_run).collect();
    summary("corridor run along the edge (cells)", &mut edge, Some(20));
    let empty_limit = (width * height / 12) as u32;
    let mut empty: Vec<u32> = measured.iter().map(|(_, q)| q.largest_empty.area() as u32).collect();
    summary("largest unused rectangle (cells)", &mut empty, Some(empty_limit));
    let mut rooms: Vec<u32> = measured.iter().flat_map(|(_, q)| q.room_areas.iter().copied()).collect();
    let small = rooms.iter().filter(|&&a| a <= 20).count();
    summary("room area, all rooms (cells)", &mut rooms, None);
    println!("  {} rooms, {:.0}% of 20 cells or fewer", rooms.len(), 100.0 * small as f64 / rooms.len().max(1) as f64);
    let mut per_map: Vec<u32> = measured
        .iter()
        .map(|(_, q)| {
            let mut a = q.room_areas.clone();
            a.sort_unstable();
            a.get(a.len() / 2).copied().unwrap_or(0)
        })
        .collect();
    summary("median room area per map", &mut per_map, None);
    let mut halls: Vec<u32> = measured.iter().map(|(_, q)| q.halls).collect();
    summary("halls per map", &mut halls, None);
    println!("  {} of {n} maps with fewer than 3", halls.iter().filter(|&&h| h < 3).count());
    let mut doubled: Vec<u32> = measured.iter().map(|(_, q)| q.doubled_walls).collect();
    summary("doubled wall cells per map", &mut doubled, None);
    let doors: usize = measured.iter().map(|(_, q)| q.misplaced_doors.len()).sum();
    let first = measured.iter().find(|(_, q)| !q.misplaced_doors.is_empty());
    println!(
        "misplaced doors: {doors}{}",
        first.map(|(seed, q)| format!(" (first: seed {seed} at {})", q.misplaced_doors[0])).unwrap_or_default()
    );
    let worst_edge = measured.iter().max_by_key(|(seed, q)| (q.edge_run, u64::MAX - seed));
    let worst_empty = measured.iter().max_by_key(|(seed, q)| (q.largest_empty.area(), u64::MAX - seed));
    if let (Some((a, qa)), Some((b, qb))) = (worst_edge, worst_empty) {
        println!("worst edge run: seed {a} ({}); worst empty: seed {b} ({:?})", qa.edge_run, qb.largest_empty);
    }
}
