//! Distribution facts of a cave map type over many seeds: floor share, open
//! areas the automaton made before they were joined, caverns and passages, the
//! length of the passages that join the features' links, and the prefabs
//! centred in caverns or sunk into their walls, as encounters and features.
//!
//! `cargo run --release -p prefabric --example caves_stats -- MAP_TYPE 1000 [PACK_DIR]`

use prefabric::{Generator, Pack, Stage, Style};

fn main() {
    let map_type = std::env::args().nth(1).unwrap_or_else(|| "mines".to_string());
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
    let (mut before, mut caverns, mut passages, mut links, mut shares) = (vec![], vec![], vec![], vec![], vec![]);
    let (mut removed, mut joins, mut retried) = (0u64, 0u64, 0u32);
    let (mut centred, mut embedded, mut set_pieces) = (vec![], vec![], vec![]);
    for seed in 0..seeds {
        let map = generator.generate(seed).unwrap_or_else(|e| {
            eprintln!("seed {seed}: {e}");
            std::process::exit(1);
        });
        retried += u32::from(map.trace().events().iter().any(|e| e.stage == "generate"));
        let styled = |style: Style| {
            map.prefabs().iter().filter(|p| p.encounter.as_ref().is_some_and(|e| e.style == style)).count() as u32
        };
        centred.push(styled(Style::Centered));
        embedded.push(styled(Style::Embedded));
        let in_caverns = |name: &str| pack.prefab(name).is_some_and(|p| p.style().joins_caverns());
        set_pieces
            .push(map.prefabs().iter().filter(|p| p.stage == Stage::Feature && in_caverns(&p.name)).count() as u32);
        let Some(c) = &map.layout_stats().caves else { continue };
        before.push(c.caverns_before_joining);
        caverns.push(c.caverns);
        passages.push(c.passages);
        links.extend(c.link_lengths.iter().copied());
        removed += u64::from(c.pockets_removed);
        joins += u64::from(c.joins);
        let open = map.terrain().cells().iter().filter(|t| t.is_walkable()).count();
        shares.push((1000 * open / map.terrain().cells().len()) as u32);
    }
    let n = before.len().max(1) as f64;
    let median = |v: &mut Vec<u32>| {
        v.sort_unstable();
        (v.get(v.len() / 2).copied().unwrap_or(0), v.first().copied().unwrap_or(0), v.last().copied().unwrap_or(0))
    };
    println!("{map_type}: {} cave maps of {seeds} seeds ({retried} needed a retry)", before.len());
    let (m, lo, hi) = median(&mut shares);
    println!(
        "floor: median {:.1}% of the map (min {:.1}%, max {:.1}%)",
        m as f64 / 10.0,
        lo as f64 / 10.0,
        hi as f64 / 10.0
    );
    let (m, lo, hi) = median(&mut before);
    println!(
        "open areas the automaton left: median {m} (min {lo}, max {hi}); per map {:.1} pockets filled, {:.1} passages dug to join",
        removed as f64 / n,
        joins as f64 / n
    );
    let (m, lo, hi) = median(&mut caverns);
    println!("caverns: median {m} (min {lo}, max {hi})");
    let (m, lo, hi) = median(&mut passages);
    println!("passages: median {m} (min {lo}, max {hi})");
    let (m, lo, hi) = median(&mut links);
    println!("feature link passages: {} in all, length median {m} (min {lo}, max {hi})", links.len());
    let (m, lo, hi) = median(&mut centred);
    println!("encounters centred in caverns: median {m} (min {lo}, max {hi})");
    let (m, lo, hi) = median(&mut embedded);
    println!("encounters sunk into cavern walls: median {m} (min {lo}, max {hi})");
    let (m, lo, hi) = median(&mut set_pieces);
    println!("features placed in caverns: median {m} (min {lo}, max {hi})");
}
