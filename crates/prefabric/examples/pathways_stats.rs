//! Distribution facts of a pathways map type over many seeds: rooms placed,
//! hallway lengths, second connections, rollbacks, loops, secret doors, how much
//! of the map is floor and how much searching the hallways took.
//!
//! `cargo run --release -p prefabric --example pathways_stats -- catacombs 1000 [PACK_DIR]`

use prefabric::{Generator, Pack};

fn main() {
    let map_type = std::env::args().nth(1).unwrap_or_else(|| "catacombs".to_string());
    let seeds: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let pack = match std::env::args().nth(3) {
        Some(dir) => Pack::load(std::path::Path::new(&dir)),
        None => Pack::embedded(),
    };
    let pack = pack.unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let generator = Generator::new(&pack, &map_type).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let (mut rooms, mut lengths) = (Vec::new(), Vec::new());
    let (mut second, mut placed_rooms, mut rollbacks, mut loops, mut secret, mut merges) = (0, 0, 0, 0, 0, 0);
    let (mut forced, mut secondary, mut pieces, mut stopped, mut retried) = (0, 0, 0, 0, 0);
    let (mut floor, mut area, mut nodes) = (0u64, 0u64, 0u64);
    let mut target = 0;
    let mut edge_runs = Vec::new();
    for seed in 0..seeds {
        let map = generator.generate(seed).unwrap_or_else(|e| {
            eprintln!("seed {seed}: {e}");
            std::process::exit(1);
        });
        retried += u32::from(map.trace().events().iter().any(|e| e.stage == "generate"));
        let Some(p) = &map.layout_stats().pathways else { continue };
        target = p.target;
        rooms.push(p.rooms);
        lengths.extend(p.hallway_lengths.iter().copied());
        placed_rooms += p.rooms;
        second += p.rooms_with_second;
        rollbacks += p.rollbacks;
        loops += p.loops;
        secret += p.secret_doors;
        merges += p.merges;
        forced += p.forced;
        secondary += p.secondary;
        pieces += p.hallway_prefabs;
        stopped += u32::from(p.timed_out);
        nodes += p.search_nodes;
        edge_runs.push(longest_edge_run(&map));
        floor += map.terrain().cells().iter().filter(|t| t.is_walkable()).count() as u64;
        area += map.terrain().cells().len() as u64;
    }
    let n = rooms.len().max(1) as f64;
    rooms.sort_unstable();
    lengths.sort_unstable();
    let median = |v: &[u32]| v.get(v.len() / 2).copied().unwrap_or(0);
    println!("{map_type}: {} pathways maps of {seeds} seeds ({retried} needed a retry)", rooms.len());
    println!(
        "rooms placed (asked {target}): median {}, min {}, max {}; {stopped} maps stopped short",
        median(&rooms),
        rooms.first().copied().unwrap_or(0),
        rooms.last().copied().unwrap_or(0)
    );
    println!(
        "hallways: {} in all, length median {}, max {}, p90 {}; {:.1}% merged into another",
        lengths.len(),
        median(&lengths),
        lengths.last().copied().unwrap_or(0),
        lengths.get(lengths.len() * 9 / 10).copied().unwrap_or(0),
        100.0 * f64::from(merges) / lengths.len().max(1) as f64
    );
    println!(
        "rooms with a second connection: {:.1}%; second connections per map {:.2} ({:.2} forced); loops per map {:.2}",
        100.0 * f64::from(second) / f64::from(placed_rooms.max(1)),
        f64::from(secondary) / n,
        f64::from(forced) / n,
        f64::from(loops) / n
    );
    println!(
        "per map: {:.2} rollbacks, {:.2} secret doors, {:.2} hallway prefabs, {:.0} search nodes expanded",
        f64::from(rollbacks) / n,
        f64::from(secret) / n,
        f64::from(pieces) / n,
        nodes as f64 / n
    );
    println!("floor: {:.1}% of the map", 100.0 * floor as f64 / area.max(1) as f64);
    edge_runs.sort_unstable();
    let over = edge_runs.iter().filter(|&&r| r > 20).count();
    println!(
        "longest hallway run along the map's edge (within 4 cells of it): median {}, max {}; {over} maps with one over 20 cells",
        median(&edge_runs),
        edge_runs.last().copied().unwrap_or(0)
    );
}

/// The longest straight run of corridor cells parallel to the map's edge and
/// within four cells of it.
fn longest_edge_run(map: &prefabric::Map) -> u32 {
    let (w, h) = (map.width(), map.height());
    let corridor = |x: i32, y: i32| {
        map.region_at(prefabric::Point::new(x, y)).is_some_and(|r| r.kind == prefabric::RegionKind::Corridor)
    };
    let mut best = 0;
    let mut run = |cells: &mut dyn Iterator<Item = (i32, i32)>| {
        let mut n = 0;
        for (x, y) in cells {
            n = if corridor(x, y) { n + 1 } else { 0 };
            best = best.max(n);
        }
    };
    for d in 0..4 {
        run(&mut (0..w).map(|x| (x, d)));
        run(&mut (0..w).map(|x| (x, h - 1 - d)));
        run(&mut (0..h).map(|y| (d, y)));
        run(&mut (0..h).map(|y| (w - 1 - d, y)));
    }
    best
}
