//! Bad input gets located errors — never a panic, a hang or a wrong map.

use crate::common;

use prefabric::content::SourceFile;
use prefabric::format::text;
use prefabric::{ErrorKind, Generator, Limits, Pack, Prefab, render};
use proptest::prelude::*;

fn palette_pack() -> Pack {
    Pack::embedded().expect("the embedded pack loads")
}

/// A pack in memory: the default palette, the given prefab file and map type.
fn pack_with(prefabs: &str, map_type: &str) -> Result<Pack, prefabric::Problems> {
    let files = vec![
        SourceFile { path: "pack.toml".into(), bytes: b"name = \"t\"\ndefault_map_type = \"m\"\n".to_vec() },
        SourceFile {
            path: "palette.toml".into(),
            bytes: std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/palette.toml")).unwrap(),
        },
        SourceFile { path: "prefabs/p.txt".into(), bytes: prefabs.as_bytes().to_vec() },
        SourceFile { path: "maps/m.toml".into(), bytes: map_type.as_bytes().to_vec() },
    ];
    Pack::from_files("t", files, Limits::default())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics_and_errors_have_places(src in "(prefab [a-z]{1,4}\n|terrain:\n|links:\n|tags: [a-z ]{0,6}\n|[#.+:?0-9X<>v^*~ ]{0,7}\n|\n|# c\n|[a-z]+: [a-z0-9 -]*\n){0,14}") {
        let pack = palette_pack();
        let (raws, errors) = text::parse("fuzz.txt", &src, &Limits::default());
        for e in &errors {
            prop_assert!(e.location().is_some_and(|l| l.line > 0), "{e}");
        }
        for raw in &raws {
            match Prefab::from_text("fuzz.txt", raw, pack.palette()) {
                Ok(prefab) => {
                    // Whatever loads can be written back and read again unchanged.
                    let written = render::prefab_text(&prefab, pack.palette()).unwrap();
                    let (again, errs) = text::parse("again.txt", &written, &Limits::default());
                    prop_assert!(errs.is_empty(), "{errs:?}");
                    let back = Prefab::from_text("again.txt", &again[0], pack.palette()).unwrap();
                    prop_assert_eq!(back.cells(), prefab.cells());
                    prop_assert_eq!(back.links(), prefab.links());
                }
                Err(errors) => {
                    prop_assert!(!errors.is_empty());
                    for e in &errors {
                        prop_assert!(e.location().is_some_and(|l| l.line > 0), "{e}");
                    }
                }
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let (raws, _) = text::parse("bytes.txt", &text, &Limits::default());
        let pack = palette_pack();
        for raw in &raws {
            let _ = Prefab::from_text("bytes.txt", raw, pack.palette());
        }
    }

    #[test]
    fn arbitrary_map_types_never_panic(body in "(width = [0-9]{1,4}\n|height = [0-9]{1,4}\n|\\[tunnelers\\]\n|turn_chance = [0-9]{1,3}\n|step = \\[[0-9], [0-9]\\]\n|\\[\\[variants\\]\\]\n|\\[\\[variants.prefabs\\]\\]\n|prefab = \"[a-z_]{1,8}\"\n|at = \"(north|centre|south-west|up)\"\n|jitter = \\[[0-9], [0-9]\\]\n|\\[\\[variants.barriers\\]\\]\n|rect = \\[[0-9]{1,2}, [0-9]{1,2}, [0-9]{1,2}, [0-9]{1,2}\\]\n){0,12}") {
        let map_type = format!("width = 40\nheight = 40\n{body}");
        if let Ok(pack) = pack_with("prefab cell\nterrain:\n###\n#.#\n#+#\nlinks:\n...\n...\n.1.\n", &map_type) {
            // Whatever loads generates a valid map or says why not; it never hangs.
            if let Ok(map) = Generator::new(&pack, "m").unwrap().generate(1) {
                prop_assert!(common::connected(&map).is_ok());
            }
        }
    }
}

#[test]
fn oversized_files_are_refused_before_parsing() {
    let limits = Limits { max_file_bytes: 1000, ..Limits::default() };
    let files = vec![SourceFile { path: "prefabs/huge.txt".into(), bytes: vec![b'#'; 5000] }];
    let problems = Pack::from_files("big", files, limits).unwrap_err();
    let e = problems.errors().iter().find(|e| e.kind() == ErrorKind::Limit).expect("a limit error");
    assert!(e.to_string().starts_with("big/prefabs/huge.txt: limit exceeded: the file is 5000 bytes"), "{e}");
}

#[test]
fn a_pack_of_more_files_than_the_limit_is_refused() {
    let dir = std::env::temp_dir().join(format!("prefabric-many-files-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("prefabs")).unwrap();
    for i in 0..12 {
        std::fs::write(dir.join(format!("prefabs/p{i:02}.txt")), format!("prefab p{i}\nterrain:\n.\n")).unwrap();
    }
    let limits = Limits { max_pack_files: 10, ..Limits::default() };
    let problems = Pack::load_with_limits(&dir, limits).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(problems.errors().len(), 1, "{problems}");
    let e = &problems.errors()[0];
    assert_eq!(e.kind(), ErrorKind::Limit);
    assert!(e.to_string().contains("the pack has more than 10 files"), "{e}");
}

#[test]
fn oversized_prefabs_are_refused_row_by_row() {
    let limits = Limits { max_prefab_side: 16, ..Limits::default() };
    let src = format!("prefab wide\nterrain:\n{}\nprefab tall\nterrain:\n{}", "#".repeat(1_000_000), "#\n".repeat(100));
    let (_, errors) = text::parse("big.txt", &src, &limits);
    let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(text[0].starts_with("big.txt:3:1: syntax error: row is wider than 16 cells"));
    assert!(text[1].starts_with("big.txt:22:1: syntax error: grid is taller than 16 rows"));
}

#[test]
fn too_many_prefabs_in_one_file_is_one_error() {
    let limits = Limits { max_prefabs_per_file: 3, ..Limits::default() };
    let src = "prefab a\nterrain:\n#\n".repeat(10).replace("prefab a", "prefab x");
    let (raws, errors) = text::parse("many.txt", &src, &limits);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].to_string().contains("more than 3 prefabs in one file"));
    assert_eq!(raws.len(), 3, "reading stops at the limit");
}

#[test]
fn non_utf8_files_are_located() {
    let mut bytes = b"prefab a\nterrain:\n#".to_vec();
    bytes.extend([0xff, 0xfe]);
    let files = vec![SourceFile { path: "prefabs/a.txt".into(), bytes }];
    let problems = Pack::from_files("p", files, Limits::default()).unwrap_err();
    assert!(
        problems.to_string().contains("p/prefabs/a.txt:3:2: format error: the file is not valid UTF-8 text"),
        "{problems}"
    );
}

#[test]
fn a_required_feature_without_room_fails_with_its_place() {
    let prefab = "prefab block\ntransforms: r0\nterrain:\n##########\n#........#\n##########\n";
    let map_type = "width = 24\nheight = 24\n[[variants]]\n[[variants.prefabs]]\nprefab = \"block\"\nat = \"centre\"\n[[variants.prefabs]]\nprefab = \"block\"\nat = \"centre\"\n";
    let pack = pack_with(prefab, map_type).expect("each placement fits on its own");
    let e = Generator::new(&pack, "m").unwrap().generate(3).unwrap_err();
    let text = e.to_string();
    assert_eq!(e.kind(), ErrorKind::Generation);
    // The error is at the placement and names the rule that turned every try away.
    assert!(
        text.starts_with("t/maps/m.toml:7:1: ")
            && text.contains("prefab `block` at centre: no free spot in 64 tries: 64 overlapped prefab `block`"),
        "{text}"
    );
}

#[test]
fn an_optional_feature_without_room_is_skipped_and_traced() {
    let prefab = "prefab block\ntransforms: r0\nterrain:\n##########\n#........#\n###+######\nlinks:\n..........\n..........\n...1......\n";
    let map_type = "width = 30\nheight = 30\n[tunnelers]\nmin_open = 1\n[[variants]]\n[[variants.prefabs]]\nprefab = \"block\"\nat = \"centre\"\n[[variants.prefabs]]\nprefab = \"block\"\nat = \"centre\"\nrequired = false\n";
    let pack = pack_with(prefab, map_type).unwrap();
    let map = Generator::new(&pack, "m").unwrap().generate(3).unwrap();
    assert_eq!(map.prefabs().len(), 1);
    assert!(map.trace().events().iter().any(|e| e.message.contains("no free spot")), "{:?}", map.trace());
}

#[test]
fn a_sealed_feature_is_reported_not_shipped() {
    // Walls all round, no link, no earth: nothing can reach the floor inside.
    let prefab = "prefab sealed\nterrain:\n#####\n#...#\n#####\n";
    let map_type = "width = 30\nheight = 30\n[tunnelers]\nmin_open = 1\n[[starts]]\nat = \"south\"\n[[variants]]\n[[variants.prefabs]]\nprefab = \"sealed\"\nat = \"north\"\n";
    let pack = pack_with(prefab, map_type).unwrap();
    let e = Generator::new(&pack, "m").unwrap().generate(1).unwrap_err();
    assert!(e.to_string().contains("prefab `sealed` at ("), "{e}");
    assert!(e.to_string().contains("cannot be connected"), "{e}");
}

#[test]
fn a_map_with_nothing_to_dig_from_says_so() {
    let pack = pack_with("prefab cell\nterrain:\n#\n", "width = 30\nheight = 30\n").unwrap();
    let e = Generator::new(&pack, "m").unwrap().generate(1).unwrap_err();
    assert!(e.to_string().contains("no tunneler could start"), "{e}");
}

#[test]
fn extreme_parameters_still_finish() {
    let prefab = "prefab cell\nterrain:\n###\n#.#\n#+#\nlinks:\n...\n...\n.1.\n";
    let map_type = "width = 120\nheight = 120\n[tunnelers]\nmax_tunnelers = 100000\nturn_chance = 100\nbranch_chance = 100\nbranch_at_turn_chance = 100\nroom_chance = 100\nhall_chance = 100\nmax_age = [999, 999]\nmax_generations = 255\nfill_target = 100\nmin_open = 0\n[[variants]]\n[[variants.prefabs]]\nprefab = \"cell\"\nat = \"centre\"\n";
    let pack = pack_with(prefab, map_type).unwrap();
    let map = Generator::new(&pack, "m").unwrap().generate(1).unwrap();
    common::connected(&map).unwrap();
}

#[test]
fn extreme_numbers_in_map_types_are_errors_not_overflows() {
    let prefab = "prefab cell\nterrain:\n###\n#.#\n#+#\nlinks:\n...\n...\n.1.\n";
    let cases = [
        ("margin", "[[variants]]\n[[variants.prefabs]]\nprefab = \"cell\"\nat = \"centre\"\nmargin = 2000000000\n"),
        ("barrier", "[[variants]]\n[[variants.barriers]]\nrect = [10, 0, 2147483647, 5]\n"),
        (
            "offset",
            "[[variants]]\n[[variants.prefabs]]\nprefab = \"cell\"\nat = \"centre\"\noffset = [2147483647, 0]\n",
        ),
        ("start offset", "[[starts]]\nat = \"centre\"\noffset = [-2147483648, 0]\n"),
    ];
    for (what, body) in cases {
        let problems = pack_with(prefab, &format!("width = 40\nheight = 40\n{body}"))
            .err()
            .unwrap_or_else(|| panic!("{what} accepted"));
        assert!(problems.errors().iter().all(|e| e.location().is_some()), "{what}: {problems}");
    }
    // Huge weights are fine: they are summed in 64 bits.
    let heavy = "[[variants]]\nweight = 4294967295\n[[variants.prefabs]]\nprefab = \"cell\"\nat = \"centre\"\n[[variants]]\nweight = 4294967295\n[[variants.prefabs]]\nprefab = \"cell\"\nat = \"north\"\n";
    let pack = pack_with(prefab, &format!("width = 40\nheight = 40\n[tunnelers]\nmin_open = 1\n{heavy}")).unwrap();
    let map = Generator::new(&pack, "m").unwrap().generate(2).unwrap();
    assert!(map.trace().events()[0].message.contains("of 8589934590"), "{:?}", map.trace().events()[0]);
}

#[test]
fn tunnel_widths_respect_the_map_type() {
    let prefab = "prefab cell\nterrain:\n#####\n#...#\n##+##\n";
    // Sharing walls widens a corridor by a cell where it runs beside other space;
    // without it, every tunnel is as wide as the map type says.
    let map_type = "width = 90\nheight = 90\n[tunnelers]\nwidth = 5\nmin_width = 5\nmax_width = 5\nmin_open = 1\nshare_walls = false\n[[starts]]\nat = \"centre\"\n";
    let pack = pack_with(prefab, map_type).unwrap();
    for seed in 0..20 {
        let map = Generator::new(&pack, "m").unwrap().generate(seed).unwrap();
        for r in map
            .regions()
            .iter()
            .filter(|r| matches!(r.kind, prefabric::RegionKind::Corridor | prefabric::RegionKind::Junction))
        {
            // Everything a tunneler digs is 5 across (a short corridor may be
            // shorter than it is wide); fallback corridors are 1 wide by design.
            let (w, h) = (r.bounds.width, r.bounds.height);
            assert!(w == 5 || h == 5 || w.min(h) == 1, "seed {seed}: {r:?}");
        }
    }
}

#[cfg(unix)]
#[test]
fn symbolic_link_loops_in_a_pack_are_read_once() {
    let dir = std::env::temp_dir().join(format!("prefabric-loop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("prefabs")).unwrap();
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    std::fs::write(dir.join("pack.toml"), "name = \"loop\"\ndefault_map_type = \"m\"\n").unwrap();
    std::fs::write(dir.join("palette.toml"), "[glyphs]\n\"#\" = \"wall\"\n").unwrap();
    std::fs::write(dir.join("prefabs/a.txt"), "prefab a\nterrain:\n#\n").unwrap();
    std::fs::write(dir.join("maps/m.toml"), "width = 20\nheight = 20\n[[starts]]\nat = \"centre\"\n").unwrap();
    std::os::unix::fs::symlink(".", dir.join("prefabs/again")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("prefabs/up")).unwrap();
    let pack = Pack::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pack.prefabs().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reference_drawn_like_a_palette_glyph_is_warned_about() {
    let files = |glyph: char| {
        vec![
            SourceFile { path: "pack.toml".into(), bytes: b"name = \"t\"\ndefault_map_type = \"m\"\n".to_vec() },
            SourceFile {
                path: "palette.toml".into(),
                bytes: b"[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"%\" = \"wall:1\"\n".to_vec(),
            },
            SourceFile {
                path: "prefabs/p.txt".into(),
                bytes: format!("prefab p\nterrain:\n###\n#.#\n###\nrefs:\n...\n.{glyph}.\n...\n").into_bytes(),
            },
            SourceFile { path: "prefabs/p.def".into(), bytes: format!("{glyph} debris rubble\n").into_bytes() },
            SourceFile { path: "catalog/c.toml".into(), bytes: b"[[debris]]\ntag = \"rubble\"\n".to_vec() },
            SourceFile { path: "maps/m.toml".into(), bytes: b"width = 30\nheight = 30\n".to_vec() },
        ]
    };
    let pack = Pack::from_files("t", files('%'), Limits::default()).expect("a clash is a warning, not an error");
    let warnings: Vec<String> = pack.warnings().iter().map(|w| w.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.starts_with(
            "t/prefabs/p.def:1:1: warning: `%` stands for a debris here, but the palette draws `%` as wall"
        )),
        "{warnings:?}"
    );
    let pack = Pack::from_files("t", files('~'), Limits::default()).unwrap();
    assert!(pack.warnings().iter().all(|w| !w.to_string().contains("palette draws")), "{:?}", pack.warnings());
}

#[test]
fn a_prefab_too_wide_is_one_error_and_no_false_empty_layer() {
    let row = "#".repeat(2_000);
    let rows: Vec<&str> = vec![row.as_str(); 300];
    let file = format!("prefab wide\nterrain:\n{}\n", rows.join("\n"));
    let problems = pack_with(&file, "width = 30\nheight = 30\n").expect_err("too wide");
    let errors: Vec<String> = problems.errors().iter().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 2, "{problems}");
    assert!(
        errors[0].starts_with(
            "t/prefabs/p.txt:3:1: syntax error: row is wider than 256 cells (and 255 more rows of this layer)"
        ),
        "{problems}"
    );
    assert!(errors[1].starts_with("t/prefabs/p.txt:259:1: syntax error: grid is taller than 256 rows"), "{problems}");
    assert!(!problems.to_string().contains("has no rows"), "{problems}");
}

#[test]
fn a_defs_line_naming_a_missing_file_is_an_error_even_without_references() {
    let problems =
        pack_with("prefab cell\ndefs: nowhere\nterrain:\n#\n", "width = 30\nheight = 30\n").expect_err("no such file");
    assert_eq!(problems.len(), 1, "{problems}");
    assert!(
        problems
            .to_string()
            .contains("prefab `cell` names the definition file `nowhere` but there is no `nowhere.def`"),
        "{problems}"
    );
}

#[test]
fn world_state_errors_give_their_position_once() {
    let e = prefabric::WorldState::from_json(
        "w.json",
        "{\"format\": \"prefabric-world\", \"version\": 1, \"levels\": \"x\"}",
    )
    .unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("w.json:1:"), "{text}");
    assert!(!text.contains(" at line "), "the position is given once: {text}");
}

/// serde_json places an error before a line's first character (a file that
/// ends there) at column 0; a location's column 0 means "the line only".
#[test]
fn world_state_ending_at_a_line_start_is_located_at_column_1() {
    for (text, line) in [("", 1), ("{\n", 2)] {
        let e = prefabric::WorldState::from_json("w.json", text).unwrap_err();
        assert_eq!(e.location(), Some(&prefabric::Location::at("w.json", line, 1)), "{text:?}: {e}");
    }
}

#[test]
fn a_map_size_out_of_range_is_reported_once_without_follow_on_errors() {
    let map_type = "width = 12\nheight = 5000\n[[variants]]\n[[variants.barriers]]\nrect = [30, 0, 1, 12]\n";
    let problems = pack_with("prefab cell\nterrain:\n#\n", map_type).expect_err("sizes out of range");
    let text = problems.to_string();
    assert_eq!(problems.len(), 2, "{text}");
    assert!(
        text.contains("width 12 must be between 16 and 2048") && text.contains("height 5000 must be between"),
        "{text}"
    );
    assert!(!text.contains("barrier"), "no error about a size never written: {text}");
}

#[test]
fn the_smallest_map_the_validation_allows_generates() {
    let pack =
        pack_with("prefab cell\nterrain:\n#\n", "width = 16\nheight = 16\n[[starts]]\nat = \"centre\"\n").unwrap();
    let generator = Generator::new(&pack, "m").unwrap();
    for seed in 0..50 {
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!((map.width(), map.height()), (16, 16));
    }
}
