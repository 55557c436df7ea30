//! The golden seed catalogue: for every map type of the default pack, 25 seeds
//! (at depths 1 to 5 in turn) kept in `tests/golden/catalogue/MAP_TYPE.txt` as
//! their full ASCII map and a digest of their JSON. Any change to any of these
//! maps — terrain, an object moved, a prefab's file — shows up in review as a
//! diff of that file.
//!
//! After a reviewed change: `PREFABRIC_BLESS=1 cargo test -p prefabric --test catalogue`.

use prefabric::{Generator, Pack, render};
use std::fmt::Write as _;
use std::path::Path;

const SEEDS: u64 = 25;

/// FNV-1a, 64 bits: a digest with no dependency that is the same everywhere.
/// Not for security: it only has to change when the JSON does.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn catalogue(pack: &Pack, map_type: &str) -> String {
    let mut text = format!("# golden catalogue of map type `{map_type}`: {SEEDS} seeds of the default pack\n");
    for seed in 0..SEEDS {
        let depth = 1 + (seed % 5) as u32;
        let map = Generator::new(pack, map_type).unwrap().depth(depth).generate(seed).unwrap();
        let digest = fnv1a(render::json(&map, pack).as_bytes());
        writeln!(text, "\n## seed {seed}, depth {depth}, json fnv1a-64 {digest:016x}").unwrap();
        text.push_str(&render::ascii(&map, pack.palette()));
    }
    text
}

#[test]
fn every_default_map_type_draws_its_catalogued_seeds_as_kept() {
    let pack = Pack::embedded().unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/catalogue");
    let bless = std::env::var_os("PREFABRIC_BLESS").is_some();
    let mut changed = Vec::new();
    for map_type in pack.map_types() {
        let actual = catalogue(&pack, &map_type.name);
        let path = dir.join(format!("{}.txt", map_type.name));
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != actual {
            let first = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).map_or(0, |i| i + 1);
            let seed = actual.lines().take(first).filter(|l| l.starts_with("## seed")).last().unwrap_or("the header");
            changed.push(format!("{} (first difference on line {first}, in {seed})", path.display()));
        }
    }
    assert!(
        changed.is_empty(),
        "maps changed:\n  {}\nif intended, rerun with PREFABRIC_BLESS=1 and review the diff",
        changed.join("\n  ")
    );
}

#[test]
fn the_digest_is_fnv1a() {
    // The published test vectors of FNV-1a 64.
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
}
