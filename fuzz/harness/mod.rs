//! What every fuzz target checks, one function per target taking the fuzzer's
//! bytes. The cargo-fuzz binaries in `fuzz_targets/` call these, and
//! `crates/prefabric/tests/suite/fuzz_regressions.rs` replays every file kept under
//! `fuzz/regressions/<target>/` through the same function in `cargo test`, so an
//! input that once failed keeps being checked without a nightly toolchain. The
//! importer's target is in `des.rs` beside this file, replayed by the tests of
//! the crate it checks (`crates/prefabric-des`).
//!
//! A function panics only when prefabric breaks a promise: a panic inside the
//! library, an error without a location in the file it came from, a written file
//! that does not read back, or a generated map that breaks an invariant of
//! design.md (checked with the integration tests' own checks, below as `checks`).
//! Limits are lowered where that keeps one run fast (maps and prefabs of at
//! most 64 cells a side), never raised.
//!
//! Every error must carry a location in the file it came from; a parser's
//! (TOML, JSON, XML, text prefab, definition, `.des`) at its line and column.
//! `.xp` files are binary: their errors name the file alone.
//!
//! The generation-side targets (`map_type`, `generation`, `des_import`) work on
//! `fuzz/pack/`, a small pack with one small map type of each generator
//! (tunnelers, chain, pathways, caves), built in below. `map_type` and
//! `generation` load it once a process and read each input's map type against
//! it (`Pack::read_map_type`), so an input costs reading one map type and
//! making a map, not loading a pack.

#![allow(dead_code)]

#[path = "../../crates/prefabric/tests/suite/common/mod.rs"]
mod checks;

use flate2::Compression;
use flate2::write::GzEncoder;
use prefabric::content::SourceFile;
use prefabric::format::{def, text, xp};
use prefabric::{Generator, Header, Limits, Location, Map, Pack, Prefab, Problems, render};
use std::io::Write;
use std::sync::OnceLock;

/// What a target runs on one input.
pub type Check = fn(&[u8]);

/// Every target: its name (the folder of its corpus and regressions) and body.
pub const TARGETS: &[(&str, Check)] = &[
    ("text_prefab", text_prefab),
    ("xp_read", xp_read),
    ("xp_prefab", xp_prefab),
    ("tiled_prefab", tiled_prefab),
    ("def_parse", def_parse),
    ("pack_file", pack_file),
    ("palette", palette),
    ("catalog", catalog),
    ("map_type", map_type),
    ("generation", generation),
];

/// Targets whose checks need a crate built on the library, each in a file of
/// its own beside this one and replayed by that crate's tests, not the
/// library's: `des_import` (`des.rs`, replayed by `crates/prefabric-des`).
pub const ELSEWHERE: &[&str] = &["des_import"];

/// Replays every file kept under `regressions/<target>/` through its target's
/// check, in name order, and returns how many it replayed: how `cargo test`
/// keeps checking inputs that once failed. Panics naming every file that fails
/// again. A target without a folder has no inputs kept.
pub fn replay(regressions: &std::path::Path, targets: &[(&str, Check)]) -> usize {
    let mut replayed = 0;
    let mut failed = Vec::new();
    for &(target, check) in targets {
        let Ok(entries) = std::fs::read_dir(regressions.join(target)) else { continue };
        let mut files: Vec<_> = entries.map(|e| e.expect("a readable folder").path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).expect("a readable regression file");
            if std::panic::catch_unwind(|| check(&data)).is_err() {
                failed.push(format!("{target}: {}", file.display()));
            }
            replayed += 1;
        }
    }
    assert!(failed.is_empty(), "inputs that fail their target's checks again:\n{}", failed.join("\n"));
    replayed
}

/// The repository's tiny test pack, built in: small enough to load thousands of
/// times a second.
const TINY_PACK: [(&str, &str); 6] = [
    ("pack.toml", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/pack.toml")),
    ("palette.toml", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/palette.toml")),
    ("catalog/things.toml", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/catalog/things.toml")),
    ("maps/tiny.toml", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/maps/tiny.toml")),
    ("prefabs/entry.txt", include_str!("../../crates/prefabric/tests/fixtures/tiny_pack/prefabs/entry.txt")),
    ("prefabs/entry.def", "# reference characters of the entry prefab\n"),
];

/// The fuzz pack (`fuzz/pack/`), built in: a small map type of each generator
/// and a few small prefabs.
const FUZZ_PACK: [(&str, &str); 9] = [
    ("pack.toml", include_str!("../pack/pack.toml")),
    ("palette.toml", include_str!("../pack/palette.toml")),
    ("catalog/things.toml", include_str!("../pack/catalog/things.toml")),
    ("maps/tunnels.toml", include_str!("../pack/maps/tunnels.toml")),
    ("maps/wing.toml", include_str!("../pack/maps/wing.toml")),
    ("maps/crypt.toml", include_str!("../pack/maps/crypt.toml")),
    ("maps/grotto.toml", include_str!("../pack/maps/grotto.toml")),
    ("prefabs/rooms.txt", include_str!("../pack/prefabs/rooms.txt")),
    ("prefabs/rooms.def", include_str!("../pack/prefabs/rooms.def")),
];

/// The most cells a side of any map the fuzz targets make.
const MAX_SIDE: u32 = 64;

/// The most cells a side of the maps the `generation` target makes: small
/// maps, so that it runs a few hundred inputs a second (a map's cost grows with
/// its area; one of 48x32 took 15-20 ms in the fuzz build, one of 24x16 3-5).
const GENERATION_MAX_SIDE: u32 = 40;

pub fn fuzz_files() -> Vec<SourceFile> {
    FUZZ_PACK
        .iter()
        .map(|(path, text)| SourceFile { path: path.to_string(), bytes: text.as_bytes().to_vec() })
        .collect()
}

/// The fuzz pack, loaded once.
pub fn fuzz_pack() -> &'static Pack {
    static PACK: OnceLock<Pack> = OnceLock::new();
    PACK.get_or_init(|| {
        Pack::from_files("fuzz", fuzz_files(), small_limits()).unwrap_or_else(|p| panic!("the fuzz pack loads: {p}"))
    })
}

/// The limits the pack targets load under: maps of at most [`MAX_SIDE`] a side.
fn small_limits() -> Limits {
    Limits { max_map_side: MAX_SIDE, ..Limits::default() }
}

fn default_pack() -> &'static Pack {
    static PACK: OnceLock<Pack> = OnceLock::new();
    PACK.get_or_init(|| Pack::embedded().expect("the embedded pack loads"))
}

fn gzip(raw: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(raw).expect("compressing into memory");
    encoder.finish().expect("compressing into memory")
}

/// Inputs that are not gzip are compressed first: mutations of a compressed file
/// almost never get past its checksum, so this is what reaches the `.xp` parser.
fn as_xp_file(data: &[u8]) -> Vec<u8> {
    if data.starts_with(&[0x1f, 0x8b]) { data.to_vec() } else { gzip(data) }
}

/// A seed made of every input byte, so mutations move it.
pub fn seed_of(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// Every problem names a file of the pack rooted at `root`, and a parser's
/// error (its kind `Syntax`) its line and column there.
fn assert_located(problems: &Problems, root: &str) {
    assert!(!problems.is_empty(), "a pack that does not load says why");
    for e in problems.errors() {
        let located = e.location().is_some_and(|l| l.file.starts_with(&format!("{root}/")));
        assert!(located, "an error without a location in the pack: {e}");
        assert_parser_error_placed(e);
    }
}

/// A parser's error (`Syntax`: TOML, text prefab, definition, `.des`; the
/// JSON and XML parsers' in a Tiled file) is at a line and column, never at a
/// whole file. (A `Format` error otherwise concerns a whole file: binary data
/// where text was expected, an `.xp` image that does not read.)
pub fn assert_parser_error_placed(e: &prefabric::Error) {
    let parser = matches!(e.kind(), prefabric::ErrorKind::Syntax)
        || matches!(e.kind(), prefabric::ErrorKind::Format)
            && (e.message().starts_with("not valid JSON") || e.message().starts_with("not well-formed XML"));
    if parser {
        let placed = e.location().is_some_and(|l| l.line > 0 && l.col > 0);
        assert!(placed, "a parser error without a line and column: {e}");
    }
}

/// The map is deterministic and holds every invariant the sweep checks.
fn assert_sound(map: &Map, pack: &Pack, generator: &Generator<'_>, seed: u64) {
    if let Err(broken) = checks::invariants(map, pack, generator.map_type()) {
        panic!("{} seed {seed} depth {}: {broken}", generator.map_type().name, map.depth());
    }
    let again = generator.generate(seed).expect("a seed that generated once generates again");
    if let Some(part) = first_difference(&again, map) {
        panic!("{} seed {seed}: the same seed made two different maps ({part} differ)", generator.map_type().name);
    }
}

/// The first part in which two maps differ, `None` when they are the same in
/// everything a map shows: every cell (terrain, masks, region), every list it
/// holds and every figure it reports, so the same as in any writing of them
/// (the renderers read nothing else). Compared as they are rather than as two
/// JSON documents, which made up a fifth of the `generation` target's time.
fn first_difference(a: &Map, b: &Map) -> Option<&'static str> {
    let region = |m: &Map, p| m.region_at(p).map(|r| r.id);
    let cells_same = a.bounds() == b.bounds()
        && a.terrain() == b.terrain()
        && a.bounds().points().all(|p| {
            a.is_protected(p) == b.is_protected(p)
                && a.is_spawn_blocked(p) == b.is_spawn_blocked(p)
                && a.is_passable(p) == b.is_passable(p)
                && region(a, p) == region(b, p)
        });
    let parts = [
        (
            "identities",
            (a.seed(), a.map_type(), a.depth(), a.attempt()) == (b.seed(), b.map_type(), b.depth(), b.attempt())
                && a.moves() == b.moves(),
        ),
        ("cells", cells_same),
        ("marks", a.marks().eq(b.marks())),
        ("regions", a.regions() == b.regions()),
        ("prefabs", a.prefabs() == b.prefabs()),
        ("links", a.links() == b.links()),
        ("objects", a.objects() == b.objects()),
        ("feature variants", a.feature_variant() == b.feature_variant()),
        ("layout figures", a.layout_stats() == b.layout_stats()),
        ("object encounters", a.object_encounters() == b.object_encounters()),
        ("encounter skips", a.encounter_skips() == b.encounter_skips()),
        ("feature skips", a.feature_skips() == b.feature_skips()),
        ("exits", a.exits() == b.exits()),
        ("furnishing summaries", a.furnishing_summary() == b.furnishing_summary()),
    ];
    parts.into_iter().find(|&(_, same)| !same).map(|(part, _)| part)
}

/// Generates map type `name` of `pack` at `seed` and `depth`: a map must be
/// within the pack's limits and sound, a failure must be an error.
fn generate_one(pack: &Pack, name: &str, seed: u64, depth: u32) -> Reached {
    match Generator::new(pack, name) {
        Ok(generator) => generate_with(pack, &generator.depth(depth), seed),
        Err(e) => {
            assert_generation_error_located(&e, name);
            Reached::Failed
        }
    }
}

/// Generates with `generator` (of `pack`) at `seed`: a map must be within the
/// pack's limits and sound, a failure must be an error.
fn generate_with(pack: &Pack, generator: &Generator<'_>, seed: u64) -> Reached {
    let name = generator.map_type().name.as_str();
    match generator.generate(seed) {
        Ok(map) => {
            assert!(map.width() as u32 <= pack.limits().max_map_side);
            assert!(map.height() as u32 <= pack.limits().max_map_side);
            assert_sound(&map, pack, generator, seed);
            Reached::Generated
        }
        Err(e) => {
            assert_generation_error_located(&e, name);
            Reached::Failed
        }
    }
}

/// A generation error names a file of the pack (the map type's, or the
/// prefab's it could not place).
fn assert_generation_error_located(e: &prefabric::Error, name: &str) {
    assert!(e.location().is_some_and(|l| !l.file.is_empty()), "{name}: a generation error without a location: {e}");
    assert_parser_error_placed(e);
}

/// Generates every map type of `pack` at a seed and depth taken from `data`.
fn generate_all(pack: &Pack, data: &[u8]) {
    let seed = seed_of(data);
    for map_type in pack.map_types() {
        generate_one(pack, &map_type.name, seed, 1 + (seed % 12) as u32);
    }
}

/// `base` with the file at `path` replaced by `bytes` (or added).
fn with_file(base: Vec<SourceFile>, path: &str, bytes: &[u8]) -> Vec<SourceFile> {
    let mut files: Vec<SourceFile> = base.into_iter().filter(|f| f.path != path).collect();
    files.push(SourceFile { path: path.to_string(), bytes: bytes.to_vec() });
    files
}

fn tiny_files() -> Vec<SourceFile> {
    TINY_PACK
        .iter()
        .map(|(path, text)| SourceFile { path: path.to_string(), bytes: text.as_bytes().to_vec() })
        .collect()
}

/// Loads `files` as a pack rooted at `fuzz`: problems must be located, a pack
/// that loads must generate sound maps.
fn load_and_generate(files: Vec<SourceFile>, limits: Limits, data: &[u8]) {
    match Pack::from_files("fuzz", files, limits) {
        Err(problems) => assert_located(&problems, "fuzz"),
        Ok(pack) => generate_all(&pack, data),
    }
}

/// The text prefab parser: prefabs or located errors, and whatever loads
/// survives being written and read again.
pub fn text_prefab(data: &[u8]) {
    let source = String::from_utf8_lossy(data);
    let limits = Limits { max_prefab_side: 64, ..Limits::default() };
    let (raws, errors) = text::parse("fuzz.txt", &source, &limits);
    assert!(errors.iter().all(|e| e.location().is_some_and(|l| l.file == "fuzz.txt" && l.line > 0)));
    errors.iter().for_each(assert_parser_error_placed);
    let palette = default_pack().palette();
    for raw in &raws {
        let Ok(prefab) = Prefab::from_text("fuzz.txt", raw, palette) else { continue };
        let written = render::prefab_text(&prefab, palette).expect("a loaded prefab can be written");
        let (again, errors) = text::parse("again.txt", &written, &limits);
        assert!(errors.is_empty(), "{errors:?}\n{written}");
        let back = Prefab::from_text("again.txt", &again[0], palette).expect("written prefabs read back");
        assert_eq!(back, prefab);
    }
}

/// The REXPaint reader: an image or an error naming the file, never an
/// allocation beyond the limit; whatever reads survives a round trip.
pub fn xp_read(data: &[u8]) {
    let limits = Limits { max_xp_bytes: 1 << 16, ..Limits::default() };
    match xp::read("fuzz.xp", &as_xp_file(data), &limits) {
        Ok(image) => {
            let written = xp::write(&image);
            let again = xp::read("again.xp", &written, &limits).expect("written images read back");
            assert_eq!(again.layers(), image.layers());
            assert_eq!(xp::write(&again), written);
        }
        Err(e) => assert_eq!(e.location(), Some(&Location::file("fuzz.xp"))),
    }
}

/// REXPaint prefabs: a prefab or errors naming the file; whatever loads survives
/// being written as `.xp` and read again, and through text when text can hold it.
pub fn xp_prefab(data: &[u8]) {
    let limits = Limits { max_xp_bytes: 1 << 16, max_prefab_side: 64, ..Limits::default() };
    let Ok(image) = xp::read("fuzz.xp", &as_xp_file(data), &limits) else { return };
    let palette = default_pack().palette();
    let prefab = match Prefab::from_xp("fuzz.xp", &image, Header::named("fuzz"), palette, &limits) {
        Ok(p) => p,
        Err(errors) => {
            assert!(!errors.is_empty());
            assert!(errors.iter().all(|e| e.location().is_some_and(|l| l.file == "fuzz.xp")));
            return;
        }
    };
    let written = xp::write(&prefab.to_xp(palette).expect("a loaded prefab can be written as .xp"));
    let again = xp::read("again.xp", &written, &limits).expect("written images read back");
    let back = Prefab::from_xp("again.xp", &again, prefab.header(), palette, &limits).expect("and load");
    assert_eq!(back, prefab);
    if let Ok(source) = render::prefab_text(&prefab, palette) {
        let (raws, errors) = text::parse("again.txt", &source, &limits);
        assert!(errors.is_empty(), "{errors:?}\n{source}");
        let back = Prefab::from_text("again.txt", &raws[0], palette).expect("written text reads back");
        assert_eq!(back, prefab, "{source}");
    }
}

/// The tileset `prefab.tsx` a fuzzed Tiled map may name (the test fixture's).
const TILED_TILESET: &str = include_str!("../../crates/prefabric/tests/fixtures/tiled/prefab.tsx");

/// Prefabs drawn in Tiled (`.tmx` text, or `.tmj` when it does not start with
/// `<`): a prefab or errors naming the map or its tileset; whatever loads
/// survives being written as `.tmx` and `.tmj` and read again.
pub fn tiled_prefab(data: &[u8]) {
    let source = String::from_utf8_lossy(data);
    let limits = Limits { max_prefab_side: 64, ..Limits::default() };
    let tilesets = |name: &str| match name {
        "prefab.tsx" => Ok(("prefab.tsx".to_string(), TILED_TILESET.to_string())),
        _ => Err(prefabric::Error::at(prefabric::ErrorKind::Io, Location::file("fuzz.tmx"), "no such tileset")),
    };
    let palette = default_pack().palette();
    let prefab = match Prefab::from_tiled("fuzz.tmx", &source, &tilesets, Header::named("fuzz"), palette, &limits) {
        Ok(p) => p,
        Err(errors) => {
            assert!(!errors.is_empty());
            let located =
                |e: &prefabric::Error| e.location().is_some_and(|l| l.file == "fuzz.tmx" || l.file == "prefab.tsx");
            assert!(errors.iter().all(located), "{errors:?}");
            errors.iter().for_each(assert_parser_error_placed);
            return;
        }
    };
    let tileset = render::TiledTileset::of_prefab(&prefab, palette).expect("a prefab without variation has a tileset");
    let options = render::TiledOptions {
        tileset: render::TilesetPlacement::Embedded { image: "fuzz.png".into() },
        command: None,
    };
    for written in [render::prefab_tmx(&prefab, &tileset, &options), render::prefab_tmj(&prefab, &tileset, &options)] {
        let written = written.expect("a loaded prefab can be written for Tiled");
        let back = Prefab::from_tiled("again.tmx", &written, &tilesets, prefab.header(), palette, &limits)
            .expect("written maps read back");
        assert_eq!(back, prefab, "{written}");
    }
}

/// The definition file parser: lines or errors located at a line, never more
/// lines than the limit.
pub fn def_parse(data: &[u8]) {
    let source = String::from_utf8_lossy(data);
    let limits = Limits { max_def_lines: 64, ..Limits::default() };
    let (lines, errors) = def::parse("fuzz.def", &source, &limits);
    assert!(lines.len() <= 64);
    assert!(errors.iter().all(|e| e.location().is_some_and(|l| l.file == "fuzz.def" && l.line > 0)));
    errors.iter().for_each(assert_parser_error_placed);
    for line in &lines {
        assert!(!line.picks.is_empty());
        assert!(line.chance <= 100 && line.keywords.iter().all(|k| k.chance <= 100));
    }
}

/// A whole pack from memory: the first byte picks which file of the tiny pack
/// (pack.toml, palette, catalog, map type, prefab, definitions) the rest replaces.
pub fn pack_file(data: &[u8]) {
    let Some((&which, replacement)) = data.split_first() else { return };
    let path = TINY_PACK[usize::from(which) % TINY_PACK.len()].0;
    load_and_generate(with_file(tiny_files(), path, replacement), small_limits(), replacement);
}

/// The palette: the input is the tiny pack's `palette.toml`.
pub fn palette(data: &[u8]) {
    load_and_generate(with_file(tiny_files(), "palette.toml", data), small_limits(), data);
}

/// The catalog: the input is a catalog file added to the tiny pack's, so tags it
/// repeats, categories it names and faulty variants it chains are checked
/// against a catalog that loads.
pub fn catalog(data: &[u8]) {
    load_and_generate(with_file(tiny_files(), "catalog/fuzz.toml", data), small_limits(), data);
}

/// A map type with its encounter pool and furnishing tables: the input is a map
/// type `fuzz` read against the fuzz pack (`Pack::read_map_type`, checked as
/// loading the pack with it would check it), so it can name every prefab (of
/// each generator), encounter style and catalog entry that pack has, on maps of
/// at most 64 a side; then generated. The pack is loaded once, not once an
/// input: its palette, catalog and prefabs are the same for every input.
/// Input that is not UTF-8 is refused before the TOML parser (the pack targets
/// check that refusal).
pub fn map_type(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else { return };
    read_and_generate("fuzz", source, seed_of(data), None);
}

/// Reads `source` as map type `name` of the fuzz pack and generates it at
/// `seed` and `depth` (from the seed when `None`): problems must be located in
/// the map type's file, a map must be sound.
fn read_and_generate(name: &str, source: &str, seed: u64, depth: Option<u32>) -> Reached {
    let pack = fuzz_pack();
    match pack.read_map_type(&format!("fuzz/maps/{name}.toml"), name, source) {
        Err(problems) => {
            assert_located(&problems, "fuzz");
            Reached::Refused
        }
        Ok(map_type) => {
            let depth = depth.unwrap_or(1 + (seed % 12) as u32);
            generate_with(pack, &Generator::with_map_type(pack, &map_type).depth(depth), seed)
        }
    }
}

/// Fuzzer bytes read as numbers; zeros once they run out.
struct Bytes<'a> {
    data: &'a [u8],
}

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        let Some((&b, rest)) = self.data.split_first() else { return 0 };
        self.data = rest;
        b
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    fn u64(&mut self) -> u64 {
        (0..4).fold(0, |v, _| v << 16 | u64::from(self.u16()))
    }
}

/// Generation itself, structured: the input picks a map type of the fuzz pack
/// (one per generator), a map size (as written, or 16 up to 40 a side), a seed,
/// a depth, and new values for any of its numeric
/// parameters (tunneler widths and chances, chain and pathways budgets, cave
/// passes, encounter counts and depths, furnishing counts...), read against the
/// fuzz pack as `map_type` reads its input. A map type that loads must
/// generate a sound map or fail with an error.
pub fn generation(data: &[u8]) {
    generation_reaches(data);
}

/// How far a `generation` input got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reached {
    /// The map type was refused at load (with located problems).
    Refused,
    /// It loaded, and generation failed with an error.
    Failed,
    /// A map was made, and it was sound.
    Generated,
}

/// The `generation` target, saying how far the input got, so a test can check
/// that the target reaches generation at all.
pub fn generation_reaches(data: &[u8]) -> Reached {
    let mut bytes = Bytes { data };
    let names: Vec<&str> = fuzz_pack().map_types().map(|m| m.name.as_str()).collect();
    let name = names[usize::from(bytes.u8()) % names.len()];
    let mut table = map_type_tables()[name].clone();
    // Each side as written (features and barriers are placed for it), or any
    // from 16 up to GENERATION_MAX_SIDE.
    for side in ["width", "height"] {
        let written = table.get(side).and_then(toml::Value::as_integer).unwrap_or(24);
        let b = i64::from(bytes.u8());
        let value = if b < 96 { written } else { 16 + b % (i64::from(GENERATION_MAX_SIDE) - 15) };
        table.insert(side.into(), toml::Value::Integer(value));
    }
    // Seed and depth before the parameters, so short inputs vary them too.
    let seed = bytes.u64();
    let depth = 1 + u32::from(bytes.u8()) % 12;
    for (key, value) in table.iter_mut() {
        if key != "width" && key != "height" {
            mutate_numbers(value, &mut bytes);
        }
    }
    read_and_generate(name, &table.to_string(), seed, Some(depth))
}

/// The fuzz pack's map types as TOML tables, by name, parsed once a process.
fn map_type_tables() -> &'static std::collections::BTreeMap<String, toml::Table> {
    static TABLES: OnceLock<std::collections::BTreeMap<String, toml::Table>> = OnceLock::new();
    TABLES.get_or_init(|| {
        FUZZ_PACK
            .iter()
            .filter_map(|(path, text)| {
                let name = path.strip_prefix("maps/")?.strip_suffix(".toml")?;
                Some((name.to_string(), text.parse().expect("the fuzz pack's map types are TOML")))
            })
            .collect()
    })
}

/// Gives some integers under `value` new values near, or far from, their own.
fn mutate_numbers(value: &mut toml::Value, bytes: &mut Bytes<'_>) {
    match value {
        toml::Value::Integer(n) => {
            let choice = bytes.u8();
            *n = match choice % 8 {
                _ if choice < 128 => *n,
                0 => 0,
                1 => 1,
                2 => *n / 2,
                3 => n.saturating_mul(2),
                4 => n.saturating_add(1),
                5 => n.saturating_sub(1),
                _ => i64::from(bytes.u16() as i16),
            }
        }
        toml::Value::Array(items) => items.iter_mut().for_each(|v| mutate_numbers(v, bytes)),
        toml::Value::Table(table) => table.iter_mut().for_each(|(_, v)| mutate_numbers(v, bytes)),
        _ => {}
    }
}
