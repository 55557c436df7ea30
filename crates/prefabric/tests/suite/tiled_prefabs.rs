//! Prefabs drawn in Tiled (`.tmx`, `.tmj` under a pack's `prefabs/`): the tiny
//! pack's `entry` prefab drawn by hand in each format (tests/fixtures/tiled) loads
//! as the same prefab as its text and generates the same maps; every layer
//! encoding Tiled writes reads the same; each way of drawing a prefab wrongly is
//! reported with its file, layer and cell; hostile files give located errors.

use flate2::Compression;
use flate2::write::{GzEncoder, ZlibEncoder};
use prefabric::content::SourceFile;
use prefabric::{Limits, Pack, Prefab, Problems, generate, render};
use std::io::Write;
use std::path::Path;

fn fixture(dir: &str, name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir).join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn tiled(name: &str) -> String {
    String::from_utf8(fixture("tiled", name)).expect("UTF-8")
}

/// The tiny pack without its text prefab `entry`, with `extra` files added.
fn pack_with(extra: Vec<(&str, Vec<u8>)>) -> Result<Pack, Problems> {
    let mut files: Vec<SourceFile> = ["pack.toml", "palette.toml", "maps/tiny.toml", "catalog/things.toml"]
        .iter()
        .map(|p| SourceFile { path: p.to_string(), bytes: fixture("tiny_pack", p) })
        .collect();
    files.extend(extra.into_iter().map(|(path, bytes)| SourceFile { path: path.to_string(), bytes }));
    Pack::from_files("tiny", files, Limits::default())
}

fn text_pack() -> Pack {
    pack_with(vec![("prefabs/entry.txt", fixture("tiny_pack", "prefabs/entry.txt"))]).expect("the tiny pack loads")
}

/// The tiny pack with `entry` drawn as the Tiled map `map` (its header beside it).
fn tmx_pack(map: &str) -> Result<Pack, Problems> {
    pack_with(vec![
        ("prefabs/entry.tmx", map.as_bytes().to_vec()),
        ("prefabs/entry.toml", fixture("tiled", "entry.toml")),
        ("prefabs/prefab.tsx", fixture("tiled", "prefab.tsx")),
    ])
}

fn tmj_pack(map: &str) -> Result<Pack, Problems> {
    pack_with(vec![
        ("prefabs/entry.tmj", map.as_bytes().to_vec()),
        ("prefabs/entry.toml", fixture("tiled", "entry.toml")),
    ])
}

/// Every problem, one per line.
fn problems(result: Result<Pack, Problems>) -> String {
    let Err(problems) = result else { panic!("the pack loaded") };
    problems.errors().iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
}

/// Everything a prefab says, without where it was read from.
fn content(p: &Prefab) -> impl PartialEq + std::fmt::Debug + '_ {
    (p.header(), p.cells(), p.links(), p.machines(), p.refs())
}

fn entry(pack: &Pack) -> &Prefab {
    pack.prefabs().iter().find(|p| p.name() == "entry").expect("the pack has `entry`")
}

#[test]
fn hand_drawn_tmx_and_tmj_prefabs_generate_the_maps_their_text_does() {
    let text = text_pack();
    for (what, pack, file) in
        [("tmx", tmx_pack(&tiled("entry.tmx")), "entry.tmx"), ("tmj", tmj_pack(&tiled("entry.tmj")), "entry.tmj")]
    {
        let pack = pack.unwrap_or_else(|p| panic!("{what}: {p}"));
        assert_eq!(content(entry(&pack)), content(entry(&text)), "{what}");
        assert_eq!(entry(&pack).origin().file, format!("tiny/prefabs/{file}"));
        for seed in 1..=8 {
            let a = generate(&text, "tiny", seed).expect("generates");
            let b = generate(&pack, "tiny", seed).expect("generates");
            assert_eq!(render::ascii(&b, pack.palette()), render::ascii(&a, text.palette()), "{what} seed {seed}");
            assert_eq!(
                json_without_origins(&render::json(&b, &pack)),
                json_without_origins(&render::json(&a, &text)),
                "{what} seed {seed}"
            );
        }
    }
}

/// A map's JSON with the prefabs' `file` and `line` (where each was read) left out.
fn json_without_origins(json: &str) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(json).expect("JSON");
    for p in value["prefabs"].as_array_mut().expect("prefabs").iter_mut() {
        let p = p.as_object_mut().expect("an object");
        assert!(p.remove("file").is_some() && p.remove("line").is_some());
    }
    value
}

#[test]
fn the_header_comes_from_the_toml_beside_the_map() {
    let pack = pack_with(vec![
        ("prefabs/entry.tmx", fixture("tiled", "entry.tmx")),
        ("prefabs/entry.toml", b"tags = [\"gate\"]\ntransforms = \"r0 r90\"\n".to_vec()),
        ("prefabs/prefab.tsx", fixture("tiled", "prefab.tsx")),
    ])
    .expect("loads");
    assert_eq!(entry(&pack).tags(), ["gate"]);
    // Variation lines in the header file vary the drawing.
    let varying = pack_with(vec![
        ("prefabs/entry.tmx", fixture("tiled", "entry.tmx")),
        ("prefabs/entry.toml", b"vary = ['nsubst: . = 1 < / rest .']\n".to_vec()),
        ("prefabs/prefab.tsx", fixture("tiled", "prefab.tsx")),
    ])
    .unwrap_or_else(|p| panic!("{p}"));
    assert!(entry(&varying).varies());
    // The tileset's image may be kept beside it: pictures are not read as text.
    let with_image = pack_with(vec![
        ("prefabs/entry.tmx", fixture("tiled", "entry.tmx")),
        ("prefabs/prefab.tsx", fixture("tiled", "prefab.tsx")),
        ("prefabs/prefab.png", b"\x89PNG\r\n\x1a\n\xff".to_vec()),
    ]);
    assert!(with_image.is_ok(), "{}", with_image.err().map(|p| p.to_string()).unwrap_or_default());
    assert_eq!(entry(&pack).transforms().describe(), "r0 r90");
    // Without a .toml the prefab takes the defaults, and a .toml without a map is reported.
    let pack = pack_with(vec![
        ("prefabs/entry.tmx", fixture("tiled", "entry.tmx")),
        ("prefabs/prefab.tsx", fixture("tiled", "prefab.tsx")),
        ("prefabs/lonely.toml", b"tags = []\n".to_vec()),
    ]);
    assert!(problems(pack).contains("tiny/prefabs/lonely.toml: invalid: no .xp, .tmx or .tmj prefab of this name"));
}

/// The fixture's terrain layer (CSV) replaced by `data`, a whole `<data>` element.
fn with_terrain_data(data: &str) -> String {
    let map = tiled("entry.tmx");
    let start = map.find("<data encoding=\"csv\">").expect("CSV data");
    let end = start + map[start..].find("</data>").expect("closed") + "</data>".len();
    format!("{}{data}{}", &map[..start], &map[end..])
}

const TERRAIN: [u32; 15] = [1, 1, 1, 1, 1, 1, 2, 4, 2, 1, 1, 1, 3, 1, 1];

fn le_bytes(gids: &[u32]) -> Vec<u8> {
    gids.iter().flat_map(|g| g.to_le_bytes()).collect()
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { char::from(ABC[(n >> (18 - 6 * i) & 63) as usize]) } else { '=' });
        }
    }
    out
}

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).expect("in memory");
    e.finish().expect("in memory")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).expect("in memory");
    e.finish().expect("in memory")
}

#[test]
fn every_layer_encoding_tiled_writes_reads_the_same() {
    let text = text_pack();
    let raw = le_bytes(&TERRAIN);
    let tiles: String = TERRAIN.iter().map(|g| format!("<tile gid=\"{g}\"/>")).collect();
    for data in [
        format!("<data encoding=\"base64\">\n   {}\n  </data>", base64(&raw)),
        format!("<data encoding=\"base64\" compression=\"zlib\">{}</data>", base64(&zlib(&raw))),
        format!("<data encoding=\"base64\" compression=\"gzip\">{}</data>", base64(&gzip(&raw))),
        format!("<data>{tiles}</data>"),
    ] {
        let pack = tmx_pack(&with_terrain_data(&data)).unwrap_or_else(|p| panic!("{data}: {p}"));
        assert_eq!(content(entry(&pack)), content(entry(&text)), "{data}");
    }
    let zstd = with_terrain_data("<data encoding=\"base64\" compression=\"zstd\">KLUv/QBYAQ==</data>");
    let e = problems(tmx_pack(&zstd));
    assert!(
        e.contains("tiny/prefabs/entry.tmx:6:2: invalid: layer `terrain`: the layer's data is zstd-compressed"),
        "{e}"
    );
    // TMJ: base64 in each compression, and the fixture's array.
    let tmj = tiled("entry.tmj");
    let plain = base64(&raw);
    assert!(tmj.contains(&plain), "the fixture's terrain is the plain base64");
    for (compression, data) in [("zlib", base64(&zlib(&raw))), ("gzip", base64(&gzip(&raw)))] {
        let map = tmj.replace(
            &format!("\"data\": \"{plain}\""),
            &format!("\"compression\": \"{compression}\", \"data\": \"{data}\""),
        );
        let pack = tmj_pack(&map).unwrap_or_else(|p| panic!("{compression}: {p}"));
        assert_eq!(content(entry(&pack)), content(entry(&text)), "{compression}");
    }
}

#[test]
fn role_and_variant_win_over_the_glyph_on_terrain() {
    // Tile 0 says `#` but is a room floor, variant 3.
    let tsx = tiled("prefab.tsx").replace(
        "<property name=\"role\" value=\"wall\"/>\n   <property name=\"variant\" type=\"int\" value=\"0\"/>",
        "<property name=\"role\" value=\"room\"/>\n   <property name=\"variant\" type=\"int\" value=\"3\"/>",
    );
    assert_ne!(tsx, tiled("prefab.tsx"));
    let pack =
        pack_with(vec![("prefabs/entry.tmx", fixture("tiled", "entry.tmx")), ("prefabs/prefab.tsx", tsx.into_bytes())])
            .unwrap_or_else(|p| panic!("{p}"));
    let cell = |pack: &Pack, x, y| entry(pack).cells()[prefabric::Point::new(x, y)].expect("drawn");
    assert_eq!((cell(&pack, 0, 0).role().name(), cell(&pack, 0, 0).variant()), ("room", 3));
    // Tile 2 has only a glyph: `+`, the palette's door.
    assert_eq!(cell(&pack, 2, 2).role().name(), "door");
    let drawn = tmx_pack(&tiled("entry.tmx")).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(cell(&drawn, 0, 0).role().name(), "wall");
}

/// The tmx fixture with `from` replaced by `to` (which must be in it).
fn tmx_changed(from: &str, to: &str) -> String {
    let map = tiled("entry.tmx");
    assert!(map.contains(from), "{from}");
    map.replace(from, to)
}

#[test]
fn mistakes_are_reported_with_their_file_layer_and_cell() {
    let file = "tiny/prefabs/entry.tmx";
    for (map, expected) in [
        (tmx_changed("name=\"links\"", "name=\"link\""), format!("{file}:13:2: invalid: unknown tile layer `link`")),
        (
            tmx_changed("name=\"terrain\"", "name=\"ground\""),
            format!("{file}: invalid: the map has no tile layer named `terrain`"),
        ),
        (
            tmx_changed("0,0,5,0,0", "0,0,2147483653,0,0"),
            format!("{file}: invalid: layer `links`, cell x=2 y=2: flipped/rotated tiles are not supported in prefabs"),
        ),
        (
            tmx_changed("1,1,3,1,1", "1,1,3,1,9"),
            format!("{file}: invalid: layer `terrain`, cell x=4 y=2: tile id 9 is beyond the tileset `prefab`"),
        ),
        (tmx_changed("infinite=\"0\"", "infinite=\"1\""), format!("{file}:4:1: invalid: the map is infinite")),
        (
            tmx_changed("orientation=\"orthogonal\"", "orientation=\"isometric\""),
            format!("{file}: invalid: the map is isometric; prefabs are orthogonal maps"),
        ),
        (
            tmx_changed("source=\"prefab.tsx\"", "source=\"gone.tsx\""),
            format!("{file}: invalid: the tileset `gone.tsx` is not in the pack (looked for prefabs/gone.tsx)"),
        ),
        (
            tmx_changed("source=\"prefab.tsx\"", "source=\"../../outside.tsx\""),
            format!("{file}: invalid: the tileset `../../outside.tsx` is outside the pack"),
        ),
        (
            tmx_changed("<layer id=\"2\"", "<layer id=\"2\" x=<"),
            format!("{file}:13:18: format error: not well-formed XML: expected a quote"),
        ),
        // The link mark moved onto a wall: the checks every prefab passes, at the cell.
        (tmx_changed("0,0,5,0,0", "0,0,0,0,5"), format!("{file}: invalid: layer `links`, cell x=4 y=2:")),
    ] {
        let e = problems(tmx_pack(&map));
        assert!(e.contains(&expected), "expected `{expected}` in:\n{e}");
    }
}

#[test]
fn tiles_without_meaning_are_reported() {
    let file = "tiny/prefabs/entry.tmx";
    let bare = tiled("prefab.tsx").replace("<property name=\"glyph\" value=\"&lt;\"/>", "");
    let e = problems(pack_with(vec![
        ("prefabs/entry.tmx", fixture("tiled", "entry.tmx")),
        ("prefabs/prefab.tsx", bare.into_bytes()),
    ]));
    assert!(
        e.contains(&format!(
            "{file}: invalid: layer `terrain`, cell x=2 y=1: tile 3 of tileset `prefab` has no `glyph` property"
        )),
        "{e}"
    );
    for (from, to, expected) in [
        (
            "value=\"&lt;\"",
            "value=\"&lt;&lt;\"",
            "tiny/prefabs/prefab.tsx:24:2: invalid: tile 3 of tileset `prefab`: `glyph` is \"<<\"; it must be one character",
        ),
        (
            "value=\"&lt;\"",
            "value=\"Q\"",
            "tiny/prefabs/entry.tmx: invalid: layer `terrain`, cell x=2 y=1: the tile's glyph `Q` is not in the palette",
        ),
        (
            "value=\"wall\"",
            "value=\"stone\"",
            "tiny/prefabs/prefab.tsx:6:2: invalid: tile 0 of tileset `prefab`: unknown `role` \"stone\"",
        ),
        ("type=\"int\" value=\"0\"", "type=\"int\" value=\"12\"", "`variant` is \"12\"; it must be a digit 0-9"),
    ] {
        let tsx = tiled("prefab.tsx");
        assert!(tsx.contains(from), "{from}");
        let e = problems(pack_with(vec![
            ("prefabs/entry.tmx", fixture("tiled", "entry.tmx")),
            ("prefabs/prefab.tsx", tsx.replacen(from, to, 1).into_bytes()),
        ]));
        assert!(e.contains(expected), "expected `{expected}` in:\n{e}");
    }
    // Two tilesets, neither with a glyph anywhere: one error that says what to do.
    let none = "<tileset firstgid=\"1\" name=\"a\" tilecount=\"4\" columns=\"4\"><image source=\"a.png\" width=\"32\" height=\"8\"/></tileset>\n <tileset firstgid=\"5\" name=\"b\" tilecount=\"4\" columns=\"4\"><image source=\"b.png\" width=\"32\" height=\"8\"/></tileset>";
    let e = problems(tmx_pack(&tmx_changed("<tileset firstgid=\"1\" source=\"prefab.tsx\"/>", none)));
    assert!(e.contains(&format!("{file}: invalid: no tile of the tileset `a`, `b` has a `glyph` property")), "{e}");
    assert!(e.contains("prefabric convert"), "{e}");
}

#[test]
fn hostile_maps_give_located_errors() {
    let file = "tiny/prefabs/entry.tmx";
    let whole = tiled("entry.tmx");
    // Truncated anywhere: an error, never a panic.
    for cut in (0..whole.trim_end().len()).step_by(7) {
        let Some(part) = whole.get(..cut) else { continue };
        let e = problems(tmx_pack(part));
        assert!(e.contains(file), "cut at {cut}: {e}");
    }
    let tmj = tiled("entry.tmj");
    for cut in (0..tmj.trim_end().len()).step_by(11) {
        let Some(part) = tmj.get(..cut) else { continue };
        let e = problems(tmj_pack(part));
        assert!(e.contains("tiny/prefabs/entry.tmj"), "cut at {cut}: {e}");
    }
    for (map, expected) in [
        (
            tmx_changed("width=\"5\" height=\"3\" tilewidth", "width=\"4000000000\" height=\"4000000000\" tilewidth"),
            "limit exceeded: the map is 4000000000x4000000000 cells; prefabs are at most",
        ),
        (
            tmx_changed("width=\"5\" height=\"3\" tilewidth", "width=\"99999999999999999999\" height=\"3\" tilewidth"),
            "`width` is \"99999999999999999999\"; it must be a whole number",
        ),
        (
            with_terrain_data("<data encoding=\"base64\">AQ*AAA==</data>"),
            "layer `terrain`: the layer's data is not valid base64",
        ),
        (
            with_terrain_data("<data encoding=\"base64\">AQAAAA==</data>"),
            "layer `terrain`: the layer's data holds 4 bytes; 15 cells take 60",
        ),
        (
            with_terrain_data("<data encoding=\"base64\" compression=\"zlib\">AQAAAA==</data>"),
            "layer `terrain`: the layer's zlib data does not decompress",
        ),
        (
            with_terrain_data("<data encoding=\"csv\">1,1,1</data>"),
            "layer `terrain`: the layer's CSV data holds 3 cells; the map has 15",
        ),
        (
            with_terrain_data(&format!("<data encoding=\"csv\">{}</data>", vec!["1"; 5000].join(","))),
            "holds more than the map's 15 cells",
        ),
        (
            with_terrain_data("<data encoding=\"csv\">1,1,1,1,1,1,1,1,1,1,1,1,1,1,x</data>"),
            "`x` in the layer's CSV data is not a tile id",
        ),
        (tmx_changed("1,1,3,1,1", "1,1,3,1,4294967295"), "flipped/rotated tiles are not supported"),
        (tmx_changed("1,1,3,1,1", "1,1,3,1,268435455"), "tile id 268435455 is beyond the tileset"),
    ] {
        let e = problems(tmx_pack(&map));
        assert!(e.contains(file) && e.contains(expected), "expected `{expected}` in:\n{e}");
    }
    // A zlib bomb stops at the size the layer needs.
    let bomb = base64(&zlib(&vec![0u8; 64 << 20]));
    let e = problems(tmx_pack(&with_terrain_data(&format!(
        "<data encoding=\"base64\" compression=\"zlib\">{bomb}</data>"
    ))));
    assert!(e.contains("the layer's data holds 61 bytes; 15 cells take 60"), "{e}");
    // JSON that is not a map, or whose numbers are not tile ids.
    for (map, expected) in [
        (tmj.replace("\"width\": 5", "\"width\": -5"), "the map has no whole-number `width`"),
        (tmj.replace("0, 0, 5, 0, 0]", "0, 0, 5, 0, \"x\"]"), "\"x\" in the layer's data is not a tile id"),
        (tmj.replace("\"type\": \"map\"", "\"type\": \"tileset\""), "not a Tiled map"),
        ("[1, 2".to_string(), "tiny/prefabs/entry.tmj:1:5: format error: not valid JSON"),
    ] {
        let e = problems(tmj_pack(&map));
        assert!(e.contains(expected), "expected `{expected}` in:\n{e}");
    }
}

#[test]
fn every_default_prefab_round_trips_through_tmx_and_tmj() {
    use prefabric::render::{TiledOptions, TiledTileset, TilesetPlacement, prefab_tmj, prefab_tmx};
    let pack = Pack::embedded().expect("the default pack loads");
    let palette = pack.palette();
    let options = TiledOptions { tileset: TilesetPlacement::Embedded { image: "p.png".into() }, command: None };
    let no_files = |source: &str| -> Result<(String, String), prefabric::Error> {
        panic!("an embedded tileset needs no file, but {source} was asked for")
    };
    let (mut written, mut varying) = (0, 0);
    for prefab in pack.prefabs() {
        let tileset = TiledTileset::of_prefab(prefab, palette).expect("a tileset");
        for (file, map) in
            [("p.tmx", prefab_tmx(prefab, &tileset, &options)), ("p.tmj", prefab_tmj(prefab, &tileset, &options))]
        {
            let map = map.expect("writable");
            let back = Prefab::from_tiled(file, &map, &no_files, prefab.header(), palette, &Limits::default())
                .unwrap_or_else(|e| panic!("{}: {e:?}", prefab.name()));
            // Equal includes the variation lines, the glyphs they name and the mask.
            assert_eq!(&back, prefab, "{} through {file}", prefab.name());
            if prefab.varies() {
                for seed in [1, 5, 99] {
                    assert_eq!(back.variant(seed).as_ref(), prefab.variant(seed).as_ref(), "{}", prefab.name());
                }
            }
        }
        written += 1;
        varying += usize::from(prefab.varies());
    }
    assert!(written >= 20, "{written} prefabs");
    assert!(varying >= 4, "{varying} varying prefabs went through Tiled");
}

/// `entry` as text, with variation lines and a mask.
const VARYING_TEXT: &str = "prefab entry\ntransforms: r0\nlegend: a = room\nsubst: a = . X\nterrain:\n#######\n#.aaa.#\n#..<..#\n###+###\nlinks:\n.......\n.......\n.......\n...1...\nmask:\n.......\n...x...\n.......\n.......\n";

/// The same drawn in Tiled: `a` a tile with only a glyph (the legend says what
/// it is), the mask a layer of any tile.
const VARYING_TMJ: &str = r##"{ "type": "map", "orientation": "orthogonal", "infinite": false, "width": 7, "height": 4,
  "tilewidth": 8, "tileheight": 8,
  "layers": [
    { "name": "terrain", "type": "tilelayer", "width": 7, "height": 4,
      "data": [1,1,1,1,1,1,1, 1,2,6,6,6,2,1, 1,2,2,4,2,2,1, 1,1,1,3,1,1,1] },
    { "name": "links", "type": "tilelayer", "width": 7, "height": 4,
      "data": [0,0,0,0,0,0,0, 0,0,0,0,0,0,0, 0,0,0,0,0,0,0, 0,0,0,5,0,0,0] },
    { "name": "mask", "type": "tilelayer", "width": 7, "height": 4,
      "data": [0,0,0,0,0,0,0, 0,0,0,7,0,0,0, 0,0,0,0,0,0,0, 0,0,0,0,0,0,0] }
  ],
  "tilesets": [
    { "firstgid": 1, "name": "prefab", "tilewidth": 8, "tileheight": 8, "tilecount": 7, "columns": 7,
      "image": "prefab.png", "imagewidth": 56, "imageheight": 8,
      "tiles": [
        { "id": 0, "properties": [ { "name": "glyph", "type": "string", "value": "#" } ] },
        { "id": 1, "properties": [ { "name": "glyph", "type": "string", "value": "." } ] },
        { "id": 2, "properties": [ { "name": "glyph", "type": "string", "value": "+" } ] },
        { "id": 3, "properties": [ { "name": "glyph", "type": "string", "value": "<" } ] },
        { "id": 4, "properties": [ { "name": "glyph", "type": "string", "value": "1" } ] },
        { "id": 5, "properties": [ { "name": "glyph", "type": "string", "value": "a" } ] },
        { "id": 6, "properties": [ { "name": "glyph", "type": "string", "value": "x" } ] }
      ] }
  ] }"##;

const VARYING_TOML: &str = "transforms = \"r0\"\nvary = [\"legend: a = room\", \"subst: a = . X\"]\n";

#[test]
fn variation_lines_and_a_mask_layer_vary_a_tiled_prefab_as_they_vary_its_text() {
    let text = pack_with(vec![("prefabs/entry.txt", VARYING_TEXT.into())]).unwrap_or_else(|p| panic!("{p}"));
    let drawn = pack_with(vec![("prefabs/entry.tmj", VARYING_TMJ.into()), ("prefabs/entry.toml", VARYING_TOML.into())])
        .unwrap_or_else(|p| panic!("{p}"));
    let (text, drawn) = (entry(&text), entry(&drawn));
    assert!(drawn.varies() && drawn.has_mask());
    assert_eq!(drawn, text, "the same prefab, variation and mask included");
    // The masked cell never changes; the others do over a few seeds.
    let (masked, free) = (prefabric::Point::new(3, 1), prefabric::Point::new(2, 1));
    let mut free_cells = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let (a, b) = (drawn.variant(seed), text.variant(seed));
        assert_eq!(a.cells(), b.cells(), "seed {seed}");
        assert_eq!(a.cells()[masked].map(|t| t.role().name()), Some("room"), "seed {seed}");
        free_cells.insert(a.cells()[free].map(|t| t.role().name()));
    }
    assert_eq!(free_cells.len(), 2, "an unmasked `a` becomes floor or blocked: {free_cells:?}");
    // Written back as Tiled and read again, it is still the same prefab.
    use prefabric::render::{TiledOptions, TiledTileset, TilesetPlacement, prefab_tmx};
    let palette = text_pack().palette().clone();
    let tileset = TiledTileset::of_prefab(drawn, &palette).expect("a tileset");
    let options = TiledOptions { tileset: TilesetPlacement::Embedded { image: "p.png".into() }, command: None };
    let written = prefab_tmx(drawn, &tileset, &options).expect("writable");
    assert!(written.contains("name=\"mask\""), "{written}");
    let no_files = |_: &str| -> Result<(String, String), prefabric::Error> { unreachable!("embedded") };
    let back = Prefab::from_tiled("p.tmx", &written, &no_files, drawn.header(), &palette, &Limits::default())
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(&back, drawn);
}

#[test]
fn a_mask_without_variation_rules_and_a_glyph_no_line_names_are_located_errors() {
    // The mask layer, but no `vary` lines.
    let e = problems(pack_with(vec![
        ("prefabs/entry.tmj", VARYING_TMJ.replace(r#""value": "a""#, r#""value": ".""#).into()),
        ("prefabs/entry.toml", "transforms = \"r0\"\n".into()),
    ]));
    assert!(e.contains("tiny/prefabs/entry.tmj: invalid: a `mask` layer, but no variation rule"), "{e}");
    // `a` with no line naming it is not in the palette.
    let e = problems(pack_with(vec![
        ("prefabs/entry.tmj", VARYING_TMJ.replace(r#""name": "mask""#, r#""name": "notes""#).into()),
        ("prefabs/entry.toml", "transforms = \"r0\"\n".into()),
    ]));
    assert!(e.contains("layer `terrain`, cell x=2 y=1: the tile's glyph `a` is not in the palette"), "{e}");
    // A mistake in a line is reported at the line in the .toml, once.
    let e = problems(pack_with(vec![
        ("prefabs/entry.tmj", VARYING_TMJ.into()),
        ("prefabs/entry.toml", "transforms = \"r0\"\nvary = [\"legend: a = lava\", \"subst: a = . X\"]\n".into()),
    ]));
    assert_eq!(e.matches("lava").count(), 1, "{e}");
    assert!(e.contains("tiny/prefabs/entry.toml:2:"), "{e}");
}
