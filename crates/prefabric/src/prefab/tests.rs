//! Unit tests of reading prefabs: the header, grid, links and layers, turning,
//! and the names, tags and marks the text format accepts or refuses.

use super::*;
use crate::format::text;
use crate::limits::Limits;

const PALETTE: &str = "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n\":\" = \"earth\"\n";

fn build(src: &str) -> Result<Prefab, Vec<String>> {
    let palette = Palette::parse("palette.toml", PALETTE).unwrap();
    let (raws, errors) = text::parse("p.txt", src, &Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    Prefab::from_text("p.txt", &raws[0], &palette).map_err(|es| es.iter().map(|e| e.to_string()).collect())
}

#[test]
fn reads_header_grid_and_links() {
    let p = build("prefab room\ntags: a b\ntransforms: r0 flip\nstyle: enclosed\nterrain:\n#####\n#.?.#\n##+##\nlinks:\n.....\n.....\n..3..\n").unwrap();
    assert_eq!((p.name(), p.width(), p.height()), ("room", 5, 3));
    assert_eq!(p.tags(), ["a", "b"]);
    assert_eq!(p.transforms().len(), 2);
    assert_eq!(p.style(), Style::Enclosed);
    assert_eq!(p.cells()[Point::new(2, 1)], None);
    assert_eq!(p.links(), [LinkMark { at: Point::new(2, 2), dir: Dir::South, kind: LinkKind::Tunnel { width: 3 } }]);
    assert!(p.is_link_path(Point::new(2, 2)));
    assert!(!p.is_link_path(Point::new(2, 1)));
}

#[test]
fn arrows_steer_marks_and_paths_run_to_the_edge() {
    let p = build("prefab a\nterrain:\n#####\n#....\n#####\nlinks:\n.....\n.2>..\n.....\n").unwrap();
    assert_eq!(p.links()[0].dir, Dir::East);
    let err = build("prefab a\nterrain:\n#####\n#....\n#####\nlinks:\n.....\n.<2..\n.....\n").unwrap_err();
    assert!(
        err[0].contains("8:3: invalid: the way west from this mark to the prefab's edge is blocked by wall at 4:1"),
        "{err:?}"
    );
}

#[test]
fn transformed_prefabs_move_links_with_cells() {
    let p = build("prefab a\nterrain:\n###\n#.#\n#.#\n#+#\nlinks:\n...\n...\n...\n.1.\n").unwrap();
    for t in Transform::ALL {
        let q = p.transformed(t);
        assert_eq!((q.width(), q.height()), t.apply_size(3, 4));
        let link = q.links()[0];
        assert_eq!(link.dir, t.apply_dir(Dir::South));
        assert_eq!(q.cells()[link.at], Some(Terrain::new(Role::Door)));
        // The transformed link still leads straight out of the prefab.
        let out = link.at + link.dir.delta();
        assert!(!q.cells().contains(out), "{t}");
        assert_eq!(q.transformed(t.inverse()), p);
    }
}

#[test]
fn grid_problems_are_all_reported_with_places() {
    let err = build("prefab a\nsize: 3\nterrain:\n#Z#\n#.\n###\n").unwrap_err();
    assert_eq!(err.len(), 3, "{err:?}");
    assert!(err[0].starts_with("p.txt:2:1: invalid: unknown header key `size`"), "{err:?}");
    assert!(err[1].starts_with("p.txt:4:2: invalid: unknown glyph `Z`"), "{err:?}");
    assert!(err[2].starts_with("p.txt:5:3: invalid: row is 2 cells wide but the first row"), "{err:?}");
}

#[test]
fn ambiguous_and_orphan_marks_are_errors() {
    let err = build("prefab a\nterrain:\n...\n...\n...\nlinks:\n...\n.1.\n..<\n").unwrap_err();
    assert_eq!(err.len(), 2, "{err:?}");
    assert!(err[0].contains("8:2: invalid: the mark is as close to the north edge as to the east edge"), "{err:?}");
    assert!(err[1].contains("9:3: invalid: arrow `<` is not beside a link mark"), "{err:?}");
}

#[test]
fn machine_objects_turned_in_place_are_those_of_the_turned_prefab() {
    let p = build("prefab m\nterrain:\n########\n#......#\n#......#\n#......#\n#......#\n###+####\nmachines:\n........\n.┌┐.....\n...│....\n.....═╗.\n........\n........\n").unwrap();
    let at = Point::new(7, 4);
    for t in Transform::ALL {
        let turned = p.transformed(t).machine_objects(Transform::IDENTITY, at, 3);
        assert_eq!(p.machine_objects(t, at, 3), turned, "{t}");
        assert_eq!(turned.len(), 3, "{t}");
    }
}

#[test]
fn machines_and_references_are_read_and_checked_in_place() {
    // A room with floor all round the machines: they block walkers, so they
    // may not cut its floor in two.
    let p = build("prefab m\nterrain:\n######\n#....#\n#....#\n#....#\n##+###\nmachines:\n......\n.┌┐...\n...│..\n......\n......\nrefs:\n......\n...a..\n.1....\n......\n......\n").unwrap();
    let cells: Vec<Vec<(Point, char)>> = p.machines().iter().map(|m| m.cells().to_vec()).collect();
    assert_eq!(
        cells,
        [vec![(Point::new(1, 1), '┌'), (Point::new(2, 1), '┐')], vec![(Point::new(3, 2), '│')]],
        "diagonal neighbours are two machines"
    );
    assert_eq!(p.refs(), [RefMark { at: Point::new(3, 1), glyph: 'a' }, RefMark { at: Point::new(1, 2), glyph: '1' }]);
    // Turned, the line art turns with it.
    let q = p.transformed(Transform::parse("r90").unwrap());
    assert_eq!(q.machines()[0].cells(), [(Point::new(3, 1), '┐'), (Point::new(3, 2), '┘')]);
    assert_eq!(q.machines()[1].cells(), [(Point::new(2, 3), '─')]);

    let err = build("prefab m\nterrain:\n#####\n#...#\n##+##\nmachines:\nX....\n.. ..\n.....\nrefs:\n.....\n.....\n..r..\nlinks:\n.....\n.....\n..1..\n").unwrap_err();
    assert_eq!(err.len(), 3, "{err:?}");
    assert!(err[0].starts_with("p.txt:7:1: invalid: a machine stands on wall"), "{err:?}");
    assert!(err[1].starts_with("p.txt:8:3: invalid: ` ` is not a glyph"), "{err:?}");
    assert!(err[2].starts_with("p.txt:13:3: invalid: reference `r` stands on a link's way out"), "{err:?}");
}

#[test]
fn connectors_in_the_terrain_face_out_of_the_outline() {
    // A diamond: its side connectors lie inside the bounding box, `?` before them.
    let p = build("prefab d\nterrain:\n??#*#??\n?#...#?\n*.....*\n?#...#?\n??#*#??\n").unwrap();
    let found: Vec<(Point, Dir)> = p.links().iter().map(|l| (l.at, l.dir)).collect();
    assert_eq!(
        found,
        [
            (Point::new(3, 0), Dir::North),
            (Point::new(0, 2), Dir::West),
            (Point::new(6, 2), Dir::East),
            (Point::new(3, 4), Dir::South)
        ]
    );
    assert!(p.links().iter().all(|l| l.kind == LinkKind::Connector));
    assert!(p.links().iter().all(|l| p.cells()[l.at] == Some(Terrain::new(Role::Door))));
    // Written back, the connectors stay in the terrain and read back equal.
    let palette = Palette::parse("palette.toml", PALETTE).unwrap();
    let text = crate::render::prefab_text(&p, &palette).unwrap();
    assert!(text.contains("??#*#??\n") && !text.contains("links:"), "{text}");
    assert_eq!(build(&text).unwrap(), p);
    for t in Transform::ALL {
        let q = p.transformed(t);
        assert_eq!(q.terrain_connectors(), vec![true; 4], "{t}");
    }
}

#[test]
fn unclear_connectors_are_reported_with_a_fix() {
    // A connector on a cut corner faces both north and west; one in the middle
    // of the floor and one in a square corner face nowhere.
    let err = build("prefab c\nterrain:\n??###\n?*..#\n#.*.#\n*####\n").unwrap_err();
    assert_eq!(err.len(), 3, "{err:?}");
    assert!(
        err[0].contains("p.txt:4:2: invalid: connector `*` faces out of the prefab both north and west"),
        "{err:?}"
    );
    assert!(err[0].contains("help: put an arrow"), "{err:?}");
    assert!(err[1].contains("p.txt:5:3: invalid: connector `*` is not on the prefab's edge"), "{err:?}");
    assert!(err[2].contains("p.txt:6:1: invalid: connector `*` is not on the prefab's edge"), "{err:?}");
    // An arrow in the links layer settles the cut corner.
    let p = build("prefab c\nterrain:\n??###\n?*..#\n#...#\n#####\nlinks:\n.^...\n.....\n.....\n.....\n").unwrap();
    assert_eq!(p.links()[0].dir, Dir::North);
    let palette = Palette::parse("palette.toml", PALETTE).unwrap();
    let text = crate::render::prefab_text(&p, &palette).unwrap();
    assert_eq!(build(&text).unwrap(), p, "{text}");
    let ok = build("prefab c\nterrain:\n?*?\n#.#\n###\nlinks:\n>..\n...\n...\n").unwrap();
    assert_eq!(ok.links()[0].dir, Dir::East);
    let err = build("prefab c\nterrain:\n#*#\n#.#\n###\nlinks:\n.2.\n...\n...\n").unwrap_err();
    assert!(err[0].contains("tunnel mark `2` lies on a connector drawn in the terrain"), "{err:?}");
}

#[test]
fn tags_are_single_words() {
    let p = build("prefab t\ntags: a, b c\nterrain:\n.\n").unwrap();
    assert_eq!(p.tags(), ["a", "b", "c"]);
    let err = build("prefab t\ntags: ok bad\u{1}tag\nterrain:\n.\n").unwrap_err();
    assert!(err[0].starts_with("p.txt:2:10: invalid: tag \"bad\\u{1}tag\" is not a single word"), "{err:?}");
}
