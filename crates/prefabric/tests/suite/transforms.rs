//! Every default prefab in all eight orientations: the cells and links move
//! together, the text form round-trips, and a map generates around it.

use crate::common;

use prefabric::content::SourceFile;
use prefabric::format::text;
use prefabric::{Generator, Limits, Pack, Prefab, Transform, render};

fn pack() -> Pack {
    Pack::embedded().expect("the embedded pack loads")
}

#[test]
fn cells_and_links_follow_every_transform() {
    let pack = pack();
    assert!(pack.prefabs().len() >= 8, "the default pack has at least 8 prefabs");
    for prefab in pack.prefabs() {
        let (w, h) = (prefab.width(), prefab.height());
        for t in Transform::ALL {
            let q = prefab.transformed(t);
            assert_eq!((q.width(), q.height()), t.apply_size(w, h), "{} {t}", prefab.name());
            for p in prefab.cells().bounds().points() {
                assert_eq!(q.cells()[t.apply_point(p, w, h)], prefab.cells()[p], "{} {t} at {p}", prefab.name());
            }
            assert_eq!(q.links().len(), prefab.links().len());
            for a in prefab.links() {
                let b = q.links().iter().find(|l| l.at == t.apply_point(a.at, w, h)).expect("link moved with its cell");
                assert_eq!((b.dir, b.kind), (t.apply_dir(a.dir), a.kind), "{} {t}", prefab.name());
                let last = b.path(q.width(), q.height()).last().unwrap();
                assert!(!q.cells().contains(last + b.dir.delta()), "{} {t}: link does not lead out", prefab.name());
            }
            assert!(q.links().windows(2).all(|p| (p[0].at.y, p[0].at.x) < (p[1].at.y, p[1].at.x)), "reading order");
            // A prefab with variation lines turns as its first outcome: turning back gives that.
            assert_eq!(
                q.transformed(t.inverse()),
                prefab.transformed(Transform::IDENTITY),
                "{} {t} undone",
                prefab.name()
            );
            assert_eq!(prefab.transformed(Transform::IDENTITY) == *prefab, !prefab.varies(), "{}", prefab.name());
        }
    }
}

#[test]
fn every_orientation_round_trips_through_text() {
    let pack = pack();
    for prefab in pack.prefabs() {
        for t in Transform::ALL {
            let q = prefab.transformed(t);
            let written = render::prefab_text(&q, pack.palette()).expect("writable");
            let (raws, errors) = text::parse("written.txt", &written, &Limits::default());
            assert!(errors.is_empty(), "{} {t}: {errors:?}\n{written}", prefab.name());
            let back = Prefab::from_text("written.txt", &raws[0], pack.palette()).expect("reads back");
            assert_eq!(back.cells(), q.cells(), "{} {t}\n{written}", prefab.name());
            assert_eq!(back.links(), q.links(), "{} {t}\n{written}", prefab.name());
            assert_eq!(back.machines(), q.machines(), "{} {t}\n{written}", prefab.name());
            assert_eq!(back.refs(), q.refs(), "{} {t}\n{written}", prefab.name());
            assert_eq!(
                (back.name(), back.tags(), back.style(), back.transforms()),
                (q.name(), q.tags(), q.style(), q.transforms())
            );
        }
    }
}

/// A copy of the default pack where every prefab allows every orientation and one
/// 64x64 map type per prefab and orientation places it, and only it, in the middle.
fn pack_with_forced_orientations() -> (Pack, Vec<(String, String, Transform)>) {
    let mut files: Vec<SourceFile> = common::default_pack_files()
        .into_iter()
        .filter(|f| !f.path.starts_with("maps/") && f.path != "world.toml")
        .map(|mut f| {
            // Text prefabs say `transforms:` in their header, .xp prefabs in the
            // .toml beside them.
            if f.path.starts_with("prefabs/") && !f.path.ends_with(".xp") {
                let text = String::from_utf8(f.bytes).unwrap();
                let text: Vec<String> = text
                    .lines()
                    .map(|l| match l {
                        l if l.starts_with("transforms:") => "transforms: all".to_string(),
                        l if l.starts_with("transforms =") => "transforms = \"all\"".to_string(),
                        l => l.to_string(),
                    })
                    .collect();
                f.bytes = text.join("\n").into_bytes();
            }
            f
        })
        .collect();
    let default = pack();
    let mut cases = Vec::new();
    // Feature prefabs only: encounter prefabs are embedded into rooms later and have
    // no links for a layout to start from.
    for prefab in default.prefabs().iter().filter(|p| p.style() == prefabric::Style::Feature) {
        for t in Transform::ALL {
            let name = format!("{}-{}", prefab.name().replace('_', "-"), t.name());
            let toml = format!(
                "width = 64\nheight = 64\n[tunnelers]\nfill_target = 25\nmin_open = 5\n[[variants]]\n[[variants.prefabs]]\nprefab = \"{}\"\nat = \"centre\"\ntransforms = \"{}\"\n",
                prefab.name(),
                t.name()
            );
            files.push(SourceFile { path: format!("maps/{name}.toml"), bytes: toml.into_bytes() });
            cases.push((name, prefab.name().to_string(), t));
        }
    }
    files.retain(|f| f.path != "pack.toml");
    files.push(SourceFile {
        path: "pack.toml".into(),
        bytes: format!("name = \"orientations\"\ndefault_map_type = \"{}\"\n", cases[0].0).into_bytes(),
    });
    (Pack::from_files("orientations", files, Limits::default()).unwrap_or_else(|e| panic!("{e}")), cases)
}

#[test]
fn maps_generate_around_every_prefab_in_every_orientation() {
    let (pack, cases) = pack_with_forced_orientations();
    let features = pack.prefabs().iter().filter(|p| p.style() == prefabric::Style::Feature).count();
    assert!(features >= 10);
    assert_eq!(cases.len(), features * 8);
    for (map_type, prefab, t) in &cases {
        let generator = Generator::new(&pack, map_type).unwrap();
        for seed in 0..4 {
            let map = generator.generate(seed).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
            assert_eq!(map.prefabs().len(), 1);
            assert_eq!((map.prefabs()[0].name.as_str(), map.prefabs()[0].transform), (prefab.as_str(), *t));
            common::connected(&map).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
            common::prefabs_intact(&map, &pack).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
            common::machines_placed(&map, &pack).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
            for link in map.links() {
                assert!(map.is_walkable(link.at), "{map_type} seed {seed}: link {} not reached", link.at);
            }
        }
    }
}

/// The manual's "Glyphs that turn" lists every glyph a turn or flip changes, so
/// a designer can tell which props turn (issue 53: a prop drawn `▲` turned
/// without the manual saying so).
#[test]
fn the_manual_lists_every_glyph_that_turns() {
    let manual = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/prefabs.md")).unwrap();
    let start = manual.find("### Glyphs that turn").expect("the manual has the section");
    let section = &manual[start..];
    let section = &section[..section[4..].find("\n#").map_or(section.len(), |end| end + 4)];
    let listed = |c: char| {
        section.contains(&format!("`{c}")) || section.contains(&format!(" {c} ")) || section.contains(&format!("{c}`"))
    };
    let turning: Vec<char> = (0..0x3000u32)
        .filter_map(char::from_u32)
        .filter(|&c| Transform::ALL.iter().any(|&t| prefabric::prefab::art::turn(c, t) != c))
        .collect();
    // The 42 box glyphs but `┼` and `╬`, which every turn leaves alike; 16
    // pointers; 2 diagonals.
    assert_eq!(turning.len(), 40 + 16 + 2, "box glyphs, pointers and diagonals");
    let missing: Vec<char> = turning.iter().copied().filter(|&c| c != '|' && !listed(c)).collect();
    assert!(missing.is_empty(), "docs/prefabs.md does not list {missing:?} among the glyphs that turn");
    assert!(section.contains("`\\|`"), "`|` is listed (escaped in the table)");
}
