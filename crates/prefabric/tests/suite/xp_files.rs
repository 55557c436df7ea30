//! Real REXPaint files, written by REXPaint itself, read with what they are known to
//! hold (see `shared/testdata/xp/SOURCES.md`), and written back unchanged.

use crate::common::testdata::testdata;
use prefabric::format::cp437;
use prefabric::format::xp::{self, Rgb, XpImage, XpLayer};
use prefabric::{Limits, Point};
use std::collections::BTreeSet;

const FILES: [&str; 6] =
    ["SmallDungeon_80x50.xp", "mltest.xp", "nyan.xp", "wfc-demo1.xp", "wfc-demo2.xp", "wfc-populated.xp"];

/// The file `name` of `shared/testdata/xp`, read; `None` (the test skips, with
/// a note) when the test data is not beside the repository.
fn load(name: &str) -> Option<XpImage> {
    let path = testdata("xp")?.join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    Some(xp::read(name, &bytes, &Limits::default()).unwrap_or_else(|e| panic!("{e}")))
}

fn size(image: &XpImage) -> (i32, i32, usize) {
    (image.width(), image.height(), image.layers().len())
}

/// The distinct characters a layer draws.
fn glyphs(layer: &XpLayer) -> BTreeSet<char> {
    layer.cells().iter().map(|c| cp437::to_char(c.glyph).expect("a CP437 code")).collect()
}

/// One row of a layer as text.
fn row(layer: &XpLayer, y: i32) -> String {
    (0..layer.width()).map(|x| cp437::to_char(layer[Point::new(x, y)].glyph).expect("a CP437 code")).collect()
}

#[test]
fn the_directory_holds_exactly_the_expected_files() {
    let Some(dir) = testdata("xp") else { return };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    let mut names: Vec<String> = entries
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n != "SOURCES.md")
        .collect();
    names.sort();
    assert_eq!(names, FILES, "a file was added or removed: give it a test here");
}

#[test]
fn every_file_has_the_current_version_and_round_trips() {
    for name in FILES {
        let Some(image) = load(name) else { return };
        assert_eq!(image.version(), Some(-1), "{name}");
        let written = xp::write(&image);
        let again = xp::read(name, &written, &Limits::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, image, "{name}");
        assert_eq!(xp::write(&again), written, "{name}: writing is deterministic");
    }
}

#[test]
fn small_dungeon_is_one_layer_of_full_blocks() {
    let Some(image) = load("SmallDungeon_80x50.xp") else { return };
    assert_eq!(size(&image), (80, 50, 1));
    let layer = &image.layers()[0];
    assert!(layer.cells().iter().all(|c| c.glyph == 219 && c.bg == Rgb::new(0, 0, 0)));
    assert_eq!(glyphs(layer), BTreeSet::from(['█']));
    assert_eq!(layer.transparent_count(), 0);
    // The picture is in the foreground colours.
    assert_eq!(layer[Point::new(0, 0)].fg, Rgb::new(36, 27, 21));
    assert_eq!(layer[Point::new(79, 49)].fg, Rgb::new(136, 130, 120));
    assert_eq!(layer[Point::new(40, 25)].fg, Rgb::new(199, 198, 196));
    let colours: BTreeSet<Rgb> = layer.cells().iter().map(|c| c.fg).collect();
    assert_eq!(colours.len(), 2782);
}

#[test]
fn mltest_has_a_block_of_b_over_a_field_of_a() {
    let Some(image) = load("mltest.xp") else { return };
    assert_eq!(size(&image), (8, 4, 2));
    let (bottom, top) = (&image.layers()[0], &image.layers()[1]);
    assert!(bottom.cells().iter().all(|c| c.glyph == 65 && c.fg == Rgb::new(0, 0, 255) && !c.is_transparent()));
    for y in 0..4 {
        for x in 0..8 {
            let cell = top[Point::new(x, y)];
            let in_block = (2..=5).contains(&x) && (1..=2).contains(&y);
            assert_eq!(cell.glyph == 66, in_block, "({x}, {y})");
            assert_eq!(cell.is_transparent(), !in_block, "({x}, {y})");
        }
    }
    assert_eq!(top.transparent_count(), 24);
    assert_eq!(row(top, 1), "  BBBB  ");
    assert_eq!(top[Point::new(2, 1)].fg, Rgb::new(0, 255, 0));
    // REXPaint writes transparent cells as a black space.
    assert_eq!(top[Point::new(0, 0)].glyph, 32);
    assert_eq!(top[Point::new(0, 0)].fg, Rgb::new(0, 0, 0));
}

#[test]
fn nyan_has_a_partly_transparent_top_layer() {
    let Some(image) = load("nyan.xp") else { return };
    assert_eq!(size(&image), (35, 22, 2));
    assert_eq!(image.layers()[0].transparent_count(), 0);
    assert_eq!(image.layers()[1].transparent_count(), 287);
    assert_eq!(glyphs(&image.layers()[0]), BTreeSet::from(['█']));
    assert_eq!(glyphs(&image.layers()[1]), BTreeSet::from([' ', '█']));
    assert!(image.layers()[1].cells().iter().filter(|c| c.is_transparent()).all(|c| c.glyph == 32));
}

#[test]
fn wfc_demo1_is_walls_and_floor() {
    let Some(image) = load("wfc-demo1.xp") else { return };
    assert_eq!(size(&image), (80, 43, 1));
    let layer = &image.layers()[0];
    assert_eq!(glyphs(layer), BTreeSet::from([' ', '#']));
    assert_eq!(layer.cells().iter().filter(|c| c.glyph == u32::from(b'#')).count(), 1873);
    assert_eq!(row(layer, 0), "#".repeat(80));
    assert!(row(layer, 1).starts_with("#          ####"));
    assert_eq!(layer.transparent_count(), 0);
}

#[test]
fn wfc_demo2_is_four_room_chunks() {
    let Some(image) = load("wfc-demo2.xp") else { return };
    assert_eq!(size(&image), (28, 7, 1));
    let layer = &image.layers()[0];
    let rows: Vec<String> = (0..7).map(|y| row(layer, y)).collect();
    assert_eq!(
        rows,
        [
            "################# ###### ###",
            "#     ##     ##     ##     #",
            "#     ##     ##     ##     #",
            "      #                     ",
            "#     ##     ##     ##     #",
            "#     ##     ##     ##     #",
            "######################## ###",
        ]
    );
}

#[test]
fn wfc_populated_is_demo1_with_things_on_the_floor() {
    let Some(image) = load("wfc-populated.xp") else { return };
    assert_eq!(size(&image), (80, 43, 1));
    let layer = &image.layers()[0];
    assert_eq!(glyphs(layer), BTreeSet::from([' ', '!', '#', '%', '>', '@', '^', 'g', 'o']));
    assert_eq!(layer[Point::new(5, 2)].glyph, u32::from(b'@'));
    assert_eq!(layer[Point::new(5, 2)].fg, Rgb::new(0, 255, 0));
    // Everything else is wfc-demo1: the things stand where it has floor.
    let Some(demo) = load("wfc-demo1.xp") else { return };
    let mut things = 0;
    for (cell, plain) in layer.cells().iter().zip(demo.layers()[0].cells()) {
        if cell.glyph == plain.glyph {
            continue;
        }
        things += 1;
        assert_eq!(plain.glyph, u32::from(b' '));
        assert!(!matches!(cp437::to_char(cell.glyph), Some(' ' | '#')));
    }
    assert_eq!(things, 53);
}
