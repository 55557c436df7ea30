//! Hostile files against the default `Limits`: each must give a clear, located
//! error (or load, where it is within the limits) — never a panic, a hang or an
//! allocation the size the file claims. A gzip bomb, a `.xp` header claiming a
//! vast image, a 5,000x5,000 prefab, 100,000 encounters in one map type (over
//! `Limits::max_encounters`; 10,000 load, in `large_files.rs`) and a cycle of
//! faulty variants.

use flate2::Compression;
use flate2::write::GzEncoder;
use prefabric::content::SourceFile;
use prefabric::format::xp;
use prefabric::{ErrorKind, Limits, Pack, Problems};
use std::io::Write;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// The tiny test pack with `extra` files added (or replacing its own).
fn tiny_pack_with(extra: Vec<(&str, Vec<u8>)>) -> Result<Pack, Problems> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_pack");
    let mut files: Vec<SourceFile> =
        ["pack.toml", "palette.toml", "prefabs/entry.txt", "maps/tiny.toml", "catalog/things.toml"]
            .iter()
            .filter(|p| !extra.iter().any(|(e, _)| e == *p))
            .map(|p| SourceFile { path: p.to_string(), bytes: std::fs::read(dir.join(p)).unwrap() })
            .collect();
    files.extend(extra.into_iter().map(|(path, bytes)| SourceFile { path: path.to_string(), bytes }));
    Pack::from_files("tiny", files, Limits::default())
}

#[test]
fn a_gzip_bomb_stops_at_the_decompression_limit() {
    // 200 MiB of zeros compress to about 200 kB; the limit is 128 MiB.
    let bomb = gzip(&vec![0u8; 200 << 20]);
    assert!(bomb.len() < 1 << 20);
    let e = xp::read("bomb.xp", &bomb, &Limits::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");
    assert!(e.to_string().contains("decompresses to more than"), "{e}");
}

#[test]
fn an_xp_header_claiming_a_vast_image_is_refused_before_allocating() {
    for (layers, width, height) in [(i32::MAX, 10, 10), (1, 1 << 30, 1 << 30), (3, 100_000, 100_000), (1, -5, 10)] {
        let mut raw = Vec::new();
        for v in [-1i32, layers, width, height] {
            raw.extend_from_slice(&v.to_le_bytes());
        }
        let e = xp::read("vast.xp", &gzip(&raw), &Limits::default()).unwrap_err();
        assert!(e.location().is_some_and(|l| l.file == "vast.xp"), "{e}");
    }
}

#[test]
fn a_prefab_of_five_thousand_by_five_thousand_cells_is_refused() {
    let row = ".".repeat(5_000);
    // Within the file limit as far as it goes: 1,600 rows of 5,000 cells.
    let text = format!("prefab vast\nterrain:\n{}\n", vec![row.as_str(); 1_600].join("\n"));
    assert!(text.len() < 8 << 20);
    let problems = tiny_pack_with(vec![("prefabs/vast.txt", text.into_bytes())]).unwrap_err();
    let errors = problems.errors();
    assert!(errors.len() <= 3, "one error per problem, not per row: {problems}");
    assert!(
        problems.to_string().contains("row is wider than 256 cells (and 255 more rows of this layer)"),
        "{problems}"
    );
    // Past the file limit, the file is refused unread.
    let whole = format!("prefab vast\nterrain:\n{}\n", vec![row.as_str(); 5_000].join("\n"));
    let problems = tiny_pack_with(vec![("prefabs/vast.txt", whole.into_bytes())]).unwrap_err();
    assert_eq!(problems.errors()[0].kind(), ErrorKind::Limit, "{problems}");
}

#[test]
fn a_hundred_thousand_encounters_in_one_map_type_are_one_error() {
    let map_type = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_pack/maps/tiny.toml"),
    )
    .unwrap();
    let mut text = format!("{map_type}\n[encounters]\ncount = [1, 3]\n");
    let head_lines = text.lines().count();
    for i in 0..100_000 {
        text.push_str(&format!(
            "[[encounters.pool]]\nid=\"e{i}\"\nweight=\"rare\"\ncategory=\"fluff\"\nprefabs=[\"box\"]\n"
        ));
    }
    assert!(text.len() < 8 << 20, "within the file limit: {} bytes", text.len());
    let box_prefab = b"prefab box\nstyle: accessible\nterrain:\n...\n...\n".to_vec();
    let problems = tiny_pack_with(vec![("maps/tiny.toml", text.into_bytes()), ("prefabs/box.txt", box_prefab)])
        .expect_err("over Limits::max_encounters");
    assert_eq!(problems.errors().len(), 1, "one error, not one per encounter: {}", problems.errors()[0]);
    let e = &problems.errors()[0];
    assert!(e.to_string().contains("holds 100000 encounters; a map type may have at most 10000"), "{e}");
    // It points at encounter 10,001: five lines each after the map type's own.
    assert_eq!(e.location().map(|l| l.line as usize), Some(head_lines + 10_000 * 5 + 1), "{e}");
}

#[test]
fn a_cycle_of_faulty_variants_is_an_error() {
    let catalog = "[[item]]\ntag = \"a\"\nname = \"A\"\ncategory = \"parts\"\nrating = 2\nfaulty = \"b\"\n\n\
                   [[item]]\ntag = \"b\"\nname = \"B\"\ncategory = \"parts\"\nrating = 2\nfaulty = \"a\"\n";
    let problems = tiny_pack_with(vec![("catalog/cycle.toml", catalog.as_bytes().to_vec())]).unwrap_err();
    assert!(problems.to_string().contains("has a faulty variant of its own"), "{problems}");
    assert!(problems.errors().iter().all(|e| e.location().is_some_and(|l| l.line > 0)), "{problems}");
}
