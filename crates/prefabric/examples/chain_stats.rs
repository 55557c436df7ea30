//! Distribution facts of a chained map type over many seeds: prefabs placed,
//! hallway lengths, extra connections, overlay rooms and how much of the map is
//! floor.
//!
//! `cargo run --release -p prefabric --example chain_stats -- hotel 1000`

use prefabric::{Generator, Pack};

fn main() {
    let map_type = std::env::args().nth(1).unwrap_or_else(|| "hotel".to_string());
    let seeds: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let pack = Pack::embedded().expect("the embedded pack is valid");
    let generator = match Generator::new(&pack, &map_type) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut placed = Vec::new();
    let mut lengths = [0u64; 65];
    let (mut flanked, mut facing, mut corner, mut overlays, mut timed_out, mut retried) = (0, 0, 0, 0, 0, 0);
    let (mut floor, mut area) = (0u64, 0u64);
    let mut target = 0;
    for seed in 0..seeds {
        let map = match generator.generate(seed) {
            Ok(map) => map,
            Err(e) => {
                eprintln!("seed {seed}: {e}");
                std::process::exit(1);
            }
        };
        retried += u32::from(map.trace().events().iter().any(|e| e.stage == "generate"));
        let Some(chain) = &map.layout_stats().chain else { continue };
        target = chain.target;
        placed.push(chain.placed);
        for &l in &chain.hallway_lengths {
            lengths[l.min(64) as usize] += 1;
        }
        flanked += chain.flanked;
        facing += chain.facing;
        corner += chain.corner;
        overlays += chain.overlays;
        timed_out += u32::from(chain.timed_out);
        floor += map.terrain().cells().iter().filter(|t| t.is_walkable()).count() as u64;
        area += map.terrain().cells().len() as u64;
    }
    let n = placed.len().max(1) as f64;
    placed.sort_unstable();
    let hallways: u64 = lengths.iter().sum();
    println!("{map_type}: {} chained maps of {seeds} seeds ({retried} needed a retry)", placed.len());
    println!(
        "prefabs placed (target {target}): median {}, min {}, max {}; {timed_out} maps timed out",
        placed.get(placed.len() / 2).copied().unwrap_or(0),
        placed.first().copied().unwrap_or(0),
        placed.last().copied().unwrap_or(0)
    );
    let shares: Vec<String> = lengths
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(l, &c)| format!("{l}: {:.1}%", 100.0 * c as f64 / hallways.max(1) as f64))
        .collect();
    println!("hallway lengths over {hallways} hallways: {}", shares.join(", "));
    println!(
        "extra connections per map: {:.2} flanked, {:.2} facing, {:.2} corner; overlay rooms per map: {:.2}",
        f64::from(flanked) / n,
        f64::from(facing) / n,
        f64::from(corner) / n,
        f64::from(overlays) / n
    );
    println!("floor: {:.1}% of the map", 100.0 * floor as f64 / area.max(1) as f64);
}
