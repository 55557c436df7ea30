//! REXPaint prefabs: `.xp` and text prefabs that draw the same thing are the same
//! prefab, conversion loses nothing either way, and every way of drawing a prefab
//! wrongly in REXPaint is reported with its layer, cell and colour.

use crate::common;

use common::default_pack_files;
use prefabric::format::xp::{self, Rgb, XpCell, XpImage, XpLayer};
use prefabric::format::{cp437, text};
use prefabric::prefab::xp::{read_sidecar, sidecar_text};
use prefabric::{Dir, Header, Limits, LinkKind, Pack, Palette, Point, Prefab, Role, Terrain, Transform, render};

fn pack() -> Pack {
    Pack::embedded().expect("the default pack loads")
}

/// Everything a prefab says, without where it was read from.
fn content(p: &Prefab) -> impl PartialEq + std::fmt::Debug + '_ {
    (p.header(), p.cells(), p.links(), p.machines(), p.refs())
}

fn text_prefab(src: &str, palette: &Palette) -> Result<Prefab, Vec<String>> {
    let (raws, errors) = text::parse("t.txt", src, &Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    Prefab::from_text("t.txt", &raws[0], palette).map_err(|es| es.iter().map(|e| e.to_string()).collect())
}

fn xp_prefab(image: &XpImage, name: &str, palette: &Palette) -> Result<Prefab, Vec<String>> {
    Prefab::from_xp("p.xp", image, Header::named(name), palette, &Limits::default())
        .map_err(|es| es.iter().map(|e| e.to_string()).collect())
}

#[test]
fn every_default_prefab_round_trips_through_both_formats() {
    let pack = pack();
    let palette = pack.palette();
    let (mut with_all_layers, mut varying) = (0, 0);
    for prefab in pack.prefabs() {
        // Through .xp bytes and back.
        let bytes = xp::write(&prefab.to_xp(palette).expect("writable as .xp"));
        let image = xp::read("p.xp", &bytes, &Limits::default()).expect("reads back");
        assert_eq!(image.layers().len(), 4);
        let back = Prefab::from_xp("p.xp", &image, prefab.header(), palette, &Limits::default()).expect("valid");
        assert_eq!(content(&back), content(prefab), "{} through .xp", prefab.name());
        // A prefab with variation lines keeps them, and draws the same outcomes.
        assert_eq!(&back, prefab, "{} through .xp", prefab.name());
        varying += usize::from(back.varies());
        if back.varies() {
            assert_eq!(back.variant(5).as_ref(), prefab.variant(5).as_ref());
        }
        // Through text and back.
        let written = render::prefab_text(prefab, palette).expect("writable as text");
        let back = text_prefab(&written, palette).expect("valid");
        assert_eq!(content(&back), content(prefab), "{} through text", prefab.name());
        // And the header file.
        let header = read_sidecar("p.toml", &sidecar_text(&prefab.header()), prefab.name()).expect("reads back");
        assert_eq!(header, prefab.header());
        with_all_layers += usize::from(!prefab.machines().is_empty() && !prefab.refs().is_empty());
    }
    assert!(pack.prefabs().len() >= 10);
    assert!(with_all_layers >= 4, "at least four default prefabs use all four layers");
    assert!(varying >= 4, "the default prefabs with variation lines went through .xp too");
}

#[test]
fn variation_lines_in_a_header_file_are_read_and_their_mistakes_located() {
    let pack = pack();
    let palette = pack.palette();
    let src = "prefab p\nstyle: enclosed\nlegend: C = room ref C\nnsubst: c = 1 C / rest .\nterrain:\n#####\n#.c.#\n#...#\n#####\n";
    let drawn = text_prefab(src, palette).expect("valid");
    let image = drawn.to_xp(palette).expect("writable");
    // Layer 1 keeps the glyph the line names.
    assert_eq!(image.layers()[0].get(Point::new(2, 1)).map(|c| c.glyph), Some(u32::from(b'c')));
    let toml = "style = \"enclosed\"\nvary = [\n  'legend: C = room ref C',\n  'nsubst: c = 1 C / rest .',\n]\n";
    let header = read_sidecar("p.toml", toml, "p").expect("reads");
    assert_eq!(header.variation, drawn.header().variation);
    let from_xp = Prefab::from_xp("p.xp", &image, header, palette, &Limits::default()).expect("valid");
    assert_eq!(from_xp, drawn);
    // A mistake in a line is reported in the header file, at its column.
    let bad = toml.replace("c = 1 C", "c = two C");
    let header = read_sidecar("p.toml", &bad, "p").expect("the lines are read later");
    let err = Prefab::from_xp("p.xp", &image, header, palette, &Limits::default()).expect_err("a bad count");
    assert!(err[0].to_string().starts_with("p.toml:4:16: syntax error: `two` is not a count"), "{err:?}");
    // A line without a variation key is refused when the header file is read.
    let err = read_sidecar("p.toml", "vary = ['subst a = b']\n", "p").expect_err("no key");
    assert!(err[0].to_string().starts_with("p.toml:1:10: invalid: `subst a = b` is not a variation line"), "{err:?}");
    // Without lines a fifth layer is refused; with them it is the mask.
    let mut five = image.layers().to_vec();
    five.push(XpLayer::new(5, 4, XpCell::TRANSPARENT));
    let five = XpImage::with_layers(five).expect("five layers");
    let err = xp_prefab(&five, "p", palette).expect_err("five layers");
    assert!(err[0].contains("the image has 5 layers; a prefab has at most 4"), "{err:?}");
}

#[test]
fn the_default_xp_prefabs_are_placed_by_the_materials_map_type() {
    let pack = pack();
    let xp_names: Vec<&str> =
        pack.prefabs().iter().filter(|p| p.origin().file.ends_with(".xp")).map(|p| p.name()).collect();
    assert!(xp_names.len() >= 4, "{xp_names:?}");
    let generator = prefabric::Generator::new(&pack, "materials").unwrap();
    let mut placed = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let map = generator.generate(seed).unwrap();
        for p in map.prefabs() {
            placed.insert(p.name.clone());
        }
    }
    for name in xp_names {
        assert!(placed.contains(name), "{name} is never placed in 60 seeds");
    }
}

/// A small palette-coloured image: a 5x4 room with a door, a width-2 link in the
/// door, a two-cell machine and a reference.
fn hand_drawn(palette: &Palette) -> XpImage {
    let colour = |t: Option<Terrain>| palette.colour_of(t).unwrap();
    let paint = |t: Option<Terrain>, glyph: char| XpCell {
        glyph: cp437::from_char(glyph).unwrap(),
        fg: Rgb::new(255, 255, 255),
        bg: colour(t),
    };
    let wall = Some(Terrain::new(Role::Wall));
    let room = Some(Terrain::new(Role::Floor(prefabric::FloorKind::Room)));
    let rows = ["#####", "#...#", "#...#", "##+##"];
    let mut terrain = XpLayer::new(5, 4, XpCell::TRANSPARENT);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let t = match c {
                '#' => wall,
                '+' => Some(Terrain::new(Role::Door)),
                _ => room,
            };
            terrain.set(Point::new(x as i32, y as i32), paint(t, c));
        }
    }
    // A digit over room colour is that floor variant (Golden Krone's digits).
    terrain.set(Point::new(3, 2), paint(room, '4'));
    let mark =
        |g: char| XpCell { glyph: cp437::from_char(g).unwrap(), fg: Rgb::new(255, 255, 0), bg: Rgb::new(0, 0, 0) };
    let mut links = XpLayer::new(5, 4, XpCell::TRANSPARENT);
    links.set(Point::new(2, 3), mark('2'));
    let mut machines = XpLayer::new(5, 4, XpCell::TRANSPARENT);
    machines.set(Point::new(1, 1), mark('╞'));
    machines.set(Point::new(2, 1), mark('╡'));
    let mut refs = XpLayer::new(5, 4, XpCell::TRANSPARENT);
    refs.set(Point::new(1, 2), mark('r'));
    XpImage::with_layers(vec![terrain, links, machines, refs]).unwrap()
}

const SAME_IN_TEXT: &str = "prefab cell\nterrain:\n#####\n#...#\n#..4#\n##+##\nlinks:\n.....\n.....\n.....\n..2..\nmachines:\n.....\n.╞╡..\n.....\n.....\nrefs:\n.....\n.....\n.r...\n.....\n";

#[test]
fn an_xp_prefab_and_a_text_prefab_that_say_the_same_are_equal() {
    let pack = pack();
    let from_xp = xp_prefab(&hand_drawn(pack.palette()), "cell", pack.palette()).unwrap();
    let from_text = text_prefab(SAME_IN_TEXT, pack.palette()).unwrap();
    // Equal as values: `Prefab`'s equality leaves out where each was read from.
    assert_eq!(from_xp, from_text);
    assert_ne!(from_xp.origin(), from_text.origin());
    assert_eq!(
        from_xp.cells()[Point::new(3, 2)],
        Some(Terrain::with_variant(Role::Floor(prefabric::FloorKind::Room), 4))
    );
    assert_eq!(from_xp.links()[0].kind, LinkKind::Tunnel { width: 2 });
    assert_eq!(from_xp.links()[0].dir, Dir::South);
    assert_eq!(from_xp.machines().len(), 1, "two touching cells are one machine");
    assert_eq!(from_xp.machines()[0].cells(), [(Point::new(1, 1), '╞'), (Point::new(2, 1), '╡')]);
    assert_eq!(from_xp.refs()[0].glyph, 'r');
}

#[test]
fn layers_after_the_first_may_be_missing() {
    let pack = pack();
    let full = hand_drawn(pack.palette());
    let terrain_only = XpImage::with_layers(vec![full.layers()[0].clone()]).unwrap();
    let p = xp_prefab(&terrain_only, "bare", pack.palette()).unwrap();
    assert!(p.links().is_empty() && p.machines().is_empty() && p.refs().is_empty());
    assert_eq!((p.width(), p.height()), (5, 4));
}

#[test]
fn machines_are_four_connected_groups_and_diagonals_do_not_join() {
    let pack = pack();
    // A 5x3 room from the hand-drawn one's cells: machines block walkers, so the
    // room needs floor around them.
    let drawn = hand_drawn(pack.palette());
    let (wall, floor, door) = {
        let t = &drawn.layers()[0];
        (t[Point::new(0, 0)], t[Point::new(1, 1)], t[Point::new(2, 3)])
    };
    let mut terrain = XpLayer::new(7, 5, wall);
    for p in prefabric::Rect::new(1, 1, 5, 3).points() {
        terrain.set(p, floor);
    }
    terrain.set(Point::new(1, 4), door);
    let empty = XpLayer::new(7, 5, XpCell::TRANSPARENT);
    let mut image = XpImage::with_layers(vec![terrain, empty.clone(), empty.clone(), empty]).unwrap();
    let grey = XpCell { glyph: u32::from(b'o'), fg: Rgb::new(180, 180, 180), bg: Rgb::new(36, 36, 36) };
    let machines = image.layer_mut(2).unwrap();
    machines.set(Point::new(2, 2), grey);
    machines.set(Point::new(3, 3), grey); // touches (2, 2) only at a corner
    machines.set(Point::new(4, 3), grey);
    // A painted cell without a glyph is part of a machine too.
    machines.set(Point::new(4, 2), XpCell { glyph: 0, ..grey });
    let p = xp_prefab(&image, "m", pack.palette()).unwrap();
    let groups: Vec<Vec<Point>> = p.machines().iter().map(|m| m.cells().iter().map(|c| c.0).collect()).collect();
    assert_eq!(groups, [vec![Point::new(2, 2)], vec![Point::new(4, 2), Point::new(3, 3), Point::new(4, 3)]]);
    assert_eq!(p.machines()[1].cells()[0].1, ' ');
    // Text cannot hold a blank machine cell, and says so instead of dropping it.
    let err = render::prefab_text(&p, pack.palette()).unwrap_err().to_string();
    assert!(err.contains("machines layer of a text prefab cannot hold"), "{err}");
}

#[test]
fn arrows_in_any_rexpaint_style_steer_links() {
    let pack = pack();
    for arrow in ['←', '◄', '<'] {
        let mut image = hand_drawn(pack.palette());
        let links = image.layer_mut(1).unwrap();
        let cell = links[Point::new(2, 3)];
        links.set(Point::new(3, 1), XpCell { glyph: cp437::from_char('1').unwrap(), ..cell });
        links.set(Point::new(3, 2), XpCell { glyph: 0, ..XpCell::TRANSPARENT });
        links.set(Point::new(2, 1), XpCell { glyph: cp437::from_char(arrow).unwrap(), ..cell });
        // The machine sat where the new link leads; move it out of the way.
        image.layer_mut(2).unwrap().set(Point::new(2, 1), XpCell::TRANSPARENT);
        image.layer_mut(2).unwrap().set(Point::new(1, 1), XpCell::TRANSPARENT);
        let err = xp_prefab(&image, "a", pack.palette()).unwrap_err();
        // Pointing west, the way out from (3, 1) crosses the wall at (0, 1).
        assert!(err[0].contains("layer 2 (links), cell x=3 y=1: the way west"), "{arrow}: {err:?}");
    }
}

#[test]
fn drawing_mistakes_name_the_layer_the_cell_and_the_colour() {
    let pack = pack();
    let palette = pack.palette();
    let errors = |image: &XpImage| xp_prefab(image, "bad", palette).unwrap_err().join("\n");

    let mut image = hand_drawn(palette);
    let odd = XpCell { glyph: u32::from(b'#'), fg: Rgb::new(0, 0, 0), bg: Rgb::new(0x8d, 0x8c, 0x8c) };
    image.layer_mut(0).unwrap().set(Point::new(4, 0), odd);
    let text = errors(&image);
    assert!(
        text.contains("p.xp: invalid: layer 1 (terrain), cell x=4 y=0: colour #8d8c8c is not in the palette"),
        "{text}"
    );
    assert!(text.contains("the nearest palette colour is #8c8c8c (wall)"), "{text}");

    let mut image = hand_drawn(palette);
    image.layer_mut(2).unwrap().set(Point::new(0, 1), XpCell { glyph: u32::from(b'o'), ..XpCell::TRANSPARENT });
    let painted = XpCell { glyph: u32::from(b'o'), fg: Rgb::new(1, 1, 1), bg: Rgb::new(2, 2, 2) };
    image.layer_mut(2).unwrap().set(Point::new(0, 2), painted);
    let text = errors(&image);
    assert!(text.contains("layer 3 (machines), cell x=0 y=2: a machine stands on wall"), "{text}");
    assert!(!text.contains("x=0 y=1"), "a transparent cell is empty whatever its glyph: {text}");

    let mut image = hand_drawn(palette);
    image.layer_mut(3).unwrap().set(Point::new(2, 3), painted);
    let text = errors(&image);
    assert!(text.contains("layer 4 (refs), cell x=2 y=3: reference `o` stands on a link's way out"), "{text}");

    let mut image = hand_drawn(palette);
    image.layer_mut(1).unwrap().set(Point::new(1, 1), XpCell { glyph: 600, ..painted });
    let text = errors(&image);
    assert!(text.contains("layer 2 (links), cell x=1 y=1: glyph 600 is not a code page 437 glyph"), "{text}");

    let mut image = hand_drawn(palette);
    image.layer_mut(1).unwrap().set(Point::new(1, 1), painted);
    let text = errors(&image);
    assert!(text.contains("layer 2 (links), cell x=1 y=1: `o` is not a link mark"), "{text}");

    let mut image = hand_drawn(palette);
    image.push_layer(XpLayer::new(5, 4, XpCell::TRANSPARENT)).unwrap();
    assert!(errors(&image).contains("the image has 5 layers; a prefab has at most 4"));

    let small = Limits { max_prefab_side: 4, ..Limits::default() };
    let err = Prefab::from_xp("p.xp", &hand_drawn(palette), Header::named("x"), palette, &small).unwrap_err();
    assert!(err[0].to_string().contains("the image is 5x4 cells; prefabs are at most 4 on a side"), "{err:?}");

    let err = xp_prefab(&hand_drawn(palette), "two words", palette).unwrap_err();
    assert!(err[0].contains("contains a space"), "{err:?}");
}

#[test]
fn sidecar_problems_are_located() {
    let err = read_sidecar("h.toml", "tags = [\"a\"]\nstyle = \"roomy\"\ntransforms = \"r45\"\n", "x").unwrap_err();
    let text: Vec<String> = err.iter().map(|e| e.to_string()).collect();
    // At the bad word, not at the string's opening quote.
    assert!(text[0].starts_with("h.toml:3:15: invalid: unknown transform `r45`"), "{text:?}");
    assert!(text[1].starts_with("h.toml:2:9: invalid: unknown style `roomy`"), "{text:?}");
    // Tags are single words, as a text header splits them.
    let err = read_sidecar("h.toml", "tags = [\"ok\", \"a b\", \"\", \"c,d\"]\n", "x").unwrap_err();
    let text: Vec<String> = err.iter().map(|e| e.to_string()).collect();
    assert_eq!(text.len(), 3, "{text:?}");
    assert!(text[0].starts_with("h.toml:1:15: invalid: tag \"a b\" is not a single word"), "{text:?}");
    let err = read_sidecar("h.toml", "tag = []\n", "x").unwrap_err();
    assert!(err[0].to_string().starts_with("h.toml:1:1: syntax error: unknown field `tag`"), "{err:?}");
}

#[test]
fn a_pack_reads_xp_prefabs_with_their_headers_and_reports_strays() {
    let mut files = default_pack_files();
    let image = xp::write(&hand_drawn(pack().palette()));
    files.push(prefabric::content::SourceFile { path: "prefabs/extra/cell.xp".into(), bytes: image.clone() });
    files.push(prefabric::content::SourceFile {
        path: "prefabs/extra/cell.toml".into(),
        bytes: b"tags = [\"prison\"]\nstyle = \"enclosed\"\n".to_vec(),
    });
    // The extension is read in any case, as file systems on Windows and macOS do.
    files.push(prefabric::content::SourceFile { path: "prefabs/extra/UPPER.XP".into(), bytes: image.clone() });
    // Both draw the reference `r`, which their definition files must define.
    for name in ["cell", "UPPER"] {
        files.push(prefabric::content::SourceFile {
            path: format!("prefabs/extra/{name}.def"),
            bytes: b"r debris scrap_heap\n".to_vec(),
        });
    }
    let pack = Pack::from_files("p", files.clone(), Limits::default()).unwrap();
    assert!(pack.prefab("UPPER").is_some());
    let cell = pack.prefab("cell").unwrap();
    assert_eq!((cell.tags(), cell.style()), (&["prison".to_string()][..], prefabric::Style::Enclosed));
    assert_eq!(cell.origin().to_string(), "p/prefabs/extra/cell.xp");

    // A header without its image, and an image that is not gzip.
    files.push(prefabric::content::SourceFile { path: "prefabs/lost.toml".into(), bytes: b"tags = []\n".to_vec() });
    files.push(prefabric::content::SourceFile { path: "prefabs/broken.xp".into(), bytes: b"not an image".to_vec() });
    let problems = Pack::from_files("p", files, Limits::default()).unwrap_err().to_string();
    assert!(problems.contains("p/prefabs/lost.toml: invalid: no .xp, .tmx or .tmj prefab of this name"), "{problems}");
    assert!(problems.contains("p/prefabs/broken.xp: format error: not a gzip file"), "{problems}");
}

#[test]
fn transparent_terrain_cells_are_dont_care_in_either_colour_mode() {
    let src = "colour_from = \"foreground\"\n[glyphs]\n\"#\" = \"wall\"\n";
    let foreground = Palette::parse("palette.toml", src).unwrap();
    let background = pack().palette().clone();
    for palette in [foreground, background] {
        let wall = palette.colour_of(Some(Terrain::new(Role::Wall))).unwrap();
        let mut terrain = XpLayer::new(2, 1, XpCell::TRANSPARENT);
        // Cell (0, 0) stays as REXPaint leaves an untouched cell: a space in black over
        // magenta. Cell (1, 0) is painted wall in both colours.
        terrain.set(Point::new(1, 0), XpCell { glyph: u32::from(b'#'), fg: wall, bg: wall });
        let image = XpImage::with_layers(vec![terrain]).unwrap();
        let p = xp_prefab(&image, "t", &palette).unwrap();
        assert_eq!(p.cells().cells(), [None, Some(Terrain::new(Role::Wall))], "{:?}", palette.colour_from());
    }
}

#[test]
fn empty_images_and_floods_of_bad_cells_give_short_answers() {
    let pack = pack();
    let palette = pack.palette();
    let err = xp_prefab(&XpImage::new(3, 3), "none", palette).unwrap_err();
    assert!(err[0].contains("the image has no layers"), "{err:?}");

    // A 64x64 links layer full of a glyph that means nothing: a dozen reports and a
    // count, not four thousand lines.
    let room = palette.colour_of(Some(Terrain::new(Role::Floor(prefabric::FloorKind::Room)))).unwrap();
    let floor = XpCell { glyph: u32::from(b'.'), fg: Rgb::new(0, 0, 0), bg: room };
    let junk = XpCell { glyph: u32::from(b'o'), fg: Rgb::new(255, 255, 0), bg: Rgb::new(0, 0, 0) };
    let bad_glyph = XpCell { glyph: 4000, ..junk };
    for cell in [junk, bad_glyph] {
        let image = XpImage::with_layers(vec![XpLayer::new(64, 64, floor), XpLayer::new(64, 64, cell)]).unwrap();
        let err = xp_prefab(&image, "flood", palette).unwrap_err();
        assert_eq!(err.len(), 13, "{err:?}");
        assert!(err[12].contains("... and 4084 more"), "{}", err[12]);
    }
}

#[test]
fn palette_colours_must_tell_every_terrain_apart() {
    let base = "[glyphs]\n\"#\" = \"wall\"\n[colours]\n";
    let problems = |extra: &str| Palette::parse("p.toml", &format!("{base}{extra}")).unwrap_err().to_string();
    // The built-in colour of room, taken by another terrain, would leave room without one.
    let text = problems("\"wall:2\" = \"#2e4a2e\"\n");
    assert!(text.contains("p.toml:4:12: invalid: colour #2e4a2e is the built-in colour of room"), "{text}");
    let text = problems("wall = \"#010101\"\n\"wall:0\" = \"#020202\"\n");
    assert!(text.contains("p.toml:5:1: invalid: `wall` already has a colour, at p.toml:4:1"), "{text}");
    let text = problems("door = \"#FF00FF\"\n");
    assert!(text.contains("#ff00ff is REXPaint's transparent colour"), "{text}");
    let text = problems("door = \"#123456\"\nwall = \"#123456\"\n");
    assert!(text.contains("p.toml:5:8: invalid: colour #123456 is already given at p.toml:4:1"), "{text}");
    // Moving room's colour along with taking it is fine.
    assert!(Palette::parse("p.toml", &format!("{base}\"wall:2\" = \"#2e4a2e\"\nroom = \"#203020\"\n")).is_ok());
}

#[test]
fn foreground_palettes_read_the_glyph_colour() {
    let src = "colour_from = \"foreground\"\n[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n";
    let palette = Palette::parse("palette.toml", src).unwrap();
    let prefab = text_prefab("prefab f\nterrain:\n###\n#.#\n#+#\n", &palette).unwrap();
    let image = prefab.to_xp(&palette).unwrap();
    let wall = image.layers()[0][Point::new(0, 0)];
    assert_eq!(Some(wall.fg), palette.colour_of(Some(Terrain::new(Role::Wall))));
    let back = Prefab::from_xp("f.xp", &image, prefab.header(), &palette, &Limits::default()).unwrap();
    assert_eq!(content(&back), content(&prefab));
    // Each orientation turns and survives the trip too.
    for t in Transform::ALL {
        let turned = prefab.transformed(t);
        let back =
            Prefab::from_xp("f.xp", &turned.to_xp(&palette).unwrap(), turned.header(), &palette, &Limits::default());
        assert_eq!(content(&back.unwrap()), content(&turned), "{t}");
    }
}
