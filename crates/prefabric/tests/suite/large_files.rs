//! Files of many entries load in time linear in their size, and still name the
//! line of each problem: a catalog of 10,000 items in one file, a map type of
//! 10,000 encounters (the most `Limits` allows), and a chain of
//! 10,000 faulty variants (each a problem of its own). Before errors and entries
//! were located through a line index, each location scanned its file from the
//! start, and these took 18.7 s and 26.7 s; the suite would notice that.

use prefabric::content::SourceFile;
use prefabric::{Limits, Pack};
use std::path::Path;

/// The tiny test pack's files, plus `extra`.
fn tiny_pack_with(extra: (&str, String)) -> Result<Pack, prefabric::Problems> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_pack");
    let mut files = Vec::new();
    for path in ["pack.toml", "palette.toml", "prefabs/entry.txt", "maps/tiny.toml", "catalog/things.toml"] {
        files.push(SourceFile { path: path.to_string(), bytes: std::fs::read(dir.join(path)).unwrap() });
    }
    files.push(SourceFile { path: extra.0.to_string(), bytes: extra.1.into_bytes() });
    Pack::from_files("tiny", files, Limits::default())
}

fn item(i: usize, faulty: Option<usize>) -> String {
    let faulty = faulty.map(|f| format!("faulty = \"bulk_{f}\"\n")).unwrap_or_default();
    format!("[[item]]\ntag = \"bulk_{i}\"\nname = \"Bulk {i}\"\ncategory = \"material\"\nrating = 3\n{faulty}\n")
}

#[test]
fn ten_thousand_items_in_one_file_load_and_a_late_mistake_is_located() {
    let mut text: String = (0..10_000).map(|i| item(i, None)).collect();
    let line = text.lines().count() + 2;
    text.push_str("[[item]]\ntag = \"bulk_17\"\nname = \"Again\"\ncategory = \"material\"\nrating = 3\n");
    let problems = tiny_pack_with(("catalog/bulk.toml", text)).expect_err("a tag given twice");
    let errors = problems.errors();
    assert_eq!(errors.len(), 1, "{problems}");
    let at = errors[0].location().expect("located");
    assert_eq!((at.file.as_str(), at.line, at.col), ("tiny/catalog/bulk.toml", line as u32, 7), "{problems}");
    // The first is named where it is: item 17's tag, on line 17 * 6 + 2 (6 lines an item).
    assert!(errors[0].to_string().contains("the first is at tiny/catalog/bulk.toml:104:7"), "{problems}");
}

#[test]
fn a_chain_of_ten_thousand_faulty_variants_reports_each_link_at_its_line() {
    let text: String = (0..10_000).map(|i| item(i, (i + 1 < 10_000).then_some(i + 1))).collect();
    let problems = tiny_pack_with(("catalog/bulk.toml", text)).expect_err("chained faulty variants");
    let errors = problems.errors();
    assert_eq!(errors.len(), 9_998, "every link but the last two has a faulty variant with one of its own");
    for (n, e) in errors.iter().enumerate() {
        assert!(e.to_string().contains("has a faulty variant of its own"), "{e}");
        // Item n's tag is on line 7 * n + 2 (7 lines an item with a faulty variant).
        let line = e.location().expect("located").line;
        assert_eq!(line as usize, 7 * n + 2, "{e}");
    }
}

#[test]
fn ten_thousand_encounters_in_one_map_type_load_and_generate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_pack");
    let mut text = std::fs::read_to_string(dir.join("maps/tiny.toml")).unwrap();
    text.push_str("\n[encounters]\ncount = [1, 3]\n");
    for i in 0..10_000 {
        text.push_str(&format!(
            "[[encounters.pool]]\nid = \"e{i}\"\nweight = \"rare\"\ncategory = \"fluff\"\nprefabs = [\"box\"]\n"
        ));
    }
    let mut files = vec![
        SourceFile { path: "maps/tiny.toml".into(), bytes: text.into_bytes() },
        SourceFile {
            path: "prefabs/box.txt".into(),
            bytes: b"prefab box\nstyle: accessible\nterrain:\n..\n..\n".to_vec(),
        },
    ];
    for path in ["pack.toml", "palette.toml", "prefabs/entry.txt", "catalog/things.toml"] {
        files.push(SourceFile { path: path.to_string(), bytes: std::fs::read(dir.join(path)).unwrap() });
    }
    let pack = Pack::from_files("tiny", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(pack.map_type("tiny").unwrap().encounters.as_ref().unwrap().pool.len(), 10_000);
    let map = prefabric::generate(&pack, "tiny", 1).expect("a map with a pool at the limit");
    assert!(map.prefabs().iter().any(|p| p.encounter.is_some()), "some of the 10,000 are placed");
}
