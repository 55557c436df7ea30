//! Maps written for Tiled, opened by Tiled itself: `tiled --export-map csv`
//! of every built-in map type's export (seeds 1-20) gives our terrain cell for
//! cell, `.tmx` and `.tmj` alike; `tmxrasterizer` draws an export in our PNG's
//! colours; Tiled saves an export as `.tmx` and reads it back the same; and the
//! command writes a map's or a world's files, or says what is missing.
//!
//! Tiled is found through `PREFABRIC_TILED` (the `tiled` program; its
//! `tmxrasterizer` beside it) or on the `PATH` (`.ci/install-tiled` installs
//! Debian's package). Without it the tests that run it say so and pass,
//! unless `PREFABRIC_REQUIRE_TILED` is set — as `.ci/run` does once the
//! install script succeeded — when a missing Tiled fails them.

use prefabric::render::{self, TILED_TILE_SIZE, TiledOptions, TiledTileset, TilesetPlacement};
use prefabric::{Generator, Map, Pack, Rgb, Terrain};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub(crate) fn prefabric(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prefabric")).args(args).current_dir(dir).output().expect("the binary runs")
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prefabric-tiled-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Tiled and its rasterizer; `None` (after saying why) when there are none
/// and none are required.
pub(crate) fn tiled_or_skip() -> Option<(PathBuf, PathBuf)> {
    let tiled = std::env::var_os("PREFABRIC_TILED").map(PathBuf::from).or_else(|| {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path).map(|dir| dir.join("tiled")).find(|candidate| candidate.is_file())
    });
    let found = tiled.map(|t| {
        let rasterizer = t.with_file_name("tmxrasterizer");
        (t, rasterizer)
    });
    if found.as_ref().is_none_or(|(_, r)| !r.is_file()) {
        assert!(
            std::env::var_os("PREFABRIC_REQUIRE_TILED").is_none(),
            "PREFABRIC_REQUIRE_TILED is set but no Tiled was found (set PREFABRIC_TILED or run .ci/install-tiled)"
        );
        eprintln!("skipped: no Tiled on this machine; run .ci/install-tiled (Debian) or set PREFABRIC_TILED");
        return None;
    }
    found
}

/// Runs a Tiled program headless, as CI has no display, and fails the test
/// if it has not finished within a minute (the editor, given no export to
/// do, would wait for a user forever).
pub(crate) fn run_tiled(program: &Path, args: &[&Path], dir: &Path) {
    let runtime = dir.join("xdg-runtime");
    let _ = std::fs::create_dir_all(&runtime);
    static RUNS: AtomicU32 = AtomicU32::new(0);
    let log = dir.join(format!("tiled-{}.log", RUNS.fetch_add(1, Ordering::Relaxed)));
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("QT_QPA_PLATFORM", "offscreen")
        .env("XDG_RUNTIME_DIR", &runtime)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("Tiled runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{} {args:?} did not finish within a minute", program.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(status.success(), "{} {args:?}: {said}", program.display());
}

/// `tiled --export-map csv MAP CSV`: one `CSV_LAYER.csv` per tile layer.
fn export_csv(tiled: &Path, map: &Path, csv: &Path, dir: &Path) {
    run_tiled(tiled, &[Path::new("--export-map"), Path::new("csv"), map, csv], dir);
}

fn map_of(pack: &Pack, map_type: &str, seed: u64) -> Map {
    Generator::new(pack, map_type).and_then(|g| g.generate(seed)).expect("the map generates")
}

/// Writes `map` as `NAME.EXT` with its tileset `NAME-tiles.tsj`/`.tsx` and image beside it.
fn write_export(map: &Map, pack: &Pack, dir: &Path, name: &str, xml: bool) -> PathBuf {
    let tileset = TiledTileset::of_maps([map], pack);
    std::fs::write(dir.join(format!("{name}-tiles.png")), tileset.image_png().unwrap()).unwrap();
    let (ext, tileset_ext) = if xml { ("tmx", "tsx") } else { ("tmj", "tsj") };
    let source = format!("{name}-tiles.{tileset_ext}");
    let image = format!("{name}-tiles.png");
    let text = if xml { tileset.to_tsx(&image) } else { tileset.to_tsj(&image) };
    std::fs::write(dir.join(&source), text).unwrap();
    let options = TiledOptions { tileset: TilesetPlacement::External { source }, command: None };
    let map_text = if xml {
        render::map_tmx(map, pack, &tileset, &options)
    } else {
        render::map_tmj(map, pack, &tileset, &options)
    };
    let path = dir.join(format!("{name}.{ext}"));
    std::fs::write(&path, map_text).unwrap();
    path
}

/// The terrain of each tile id (Tiled's CSV ids, from 0) of a `.tsj` tileset.
fn terrain_of_tiles(tsj: &Path) -> Vec<Option<Terrain>> {
    let tileset: Value = serde_json::from_str(&std::fs::read_to_string(tsj).unwrap()).unwrap();
    let tiles = tileset["tiles"].as_array().unwrap();
    tiles
        .iter()
        .map(|tile| {
            let property = |name: &str| {
                tile["properties"].as_array().unwrap().iter().find(|p| p["name"] == name).map(|p| p["value"].clone())
            };
            let role = property("role")?;
            let text = format!("{}:{}", role.as_str()?, property("variant")?.as_u64()?);
            prefabric::format::palette::parse_terrain(&text).ok()
        })
        .collect()
}

/// The tile ids of a CSV file Tiled exported, row by row.
fn csv_ids(path: &Path) -> Vec<i64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.split([',', '\n']).map(str::trim).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect()
}

#[test]
fn tiled_reads_every_built_in_map_type_cell_for_cell() {
    let Some((tiled, _)) = tiled_or_skip() else { return };
    let pack = Pack::embedded().unwrap();
    let names: Vec<String> = pack.map_types().map(|t| t.name.clone()).collect();
    let dir = scratch("csv");
    std::thread::scope(|scope| {
        // Two threads of seeds: one Tiled process each at a time.
        for half in 0..2u64 {
            let (pack, names, dir, tiled) = (&pack, &names, &dir, &tiled);
            scope.spawn(move || {
                for map_type in names {
                    for seed in (1..=20).filter(|s| s % 2 == half) {
                        let map = map_of(pack, map_type, seed);
                        let name = format!("{map_type}-{seed}");
                        let exported = write_export(&map, pack, dir, &name, false);
                        let csv = dir.join(format!("{name}.csv"));
                        export_csv(tiled, &exported, &csv, dir);
                        let ids = csv_ids(&dir.join(format!("{name}_terrain.csv")));
                        let tiles = terrain_of_tiles(&dir.join(format!("{name}-tiles.tsj")));
                        assert_eq!(ids.len(), map.terrain().cells().len(), "{name}");
                        for (i, (&id, &cell)) in ids.iter().zip(map.terrain().cells()).enumerate() {
                            let read = usize::try_from(id).ok().and_then(|id| tiles.get(id).copied().flatten());
                            assert_eq!(read, Some(cell), "{name}: cell {i}");
                        }
                        // The object layer holds a tile wherever an object stands.
                        let objects = csv_ids(&dir.join(format!("{name}_objects.csv")));
                        for o in map.objects() {
                            for (p, _) in &o.cells {
                                assert!(objects[(p.y * map.width() + p.x) as usize] >= 0, "{name}: object at {p:?}");
                            }
                        }
                        if seed <= 2 {
                            let xml = write_export(&map, pack, dir, &format!("{name}-xml"), true);
                            export_csv(tiled, &xml, &dir.join(format!("{name}-xml.csv")), dir);
                            assert_eq!(csv_ids(&dir.join(format!("{name}-xml_terrain.csv"))), ids, "{name}: tmx");
                        }
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Width, height and RGBA bytes of a PNG image (RGB images get an opaque alpha).
fn decode(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    pixels.truncate(info.buffer_size());
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let rgba = match info.color_type {
        png::ColorType::Rgba => pixels,
        png::ColorType::Rgb => pixels.chunks(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect(),
        other => panic!("{}: {other:?}", path.display()),
    };
    (info.width, info.height, rgba)
}

fn pixel(image: &(u32, u32, Vec<u8>), x: u32, y: u32) -> Rgb {
    let i = ((y * image.0 + x) * 4) as usize;
    Rgb::new(image.2[i], image.2[i + 1], image.2[i + 2])
}

#[test]
fn tmxrasterizer_draws_an_export_in_the_colours_of_our_png() {
    let Some((_, rasterizer)) = tiled_or_skip() else { return };
    let pack = Pack::embedded().unwrap();
    let names: Vec<String> = pack.map_types().map(|t| t.name.clone()).collect();
    let dir = scratch("raster");
    for map_type in &names {
        let out = prefabric(&["generate", "--map-type", map_type, "--seed", "1", "--out", "map.tmj"], &dir);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let out = prefabric(&["generate", "--map-type", map_type, "--seed", "1", "--out", "map.png"], &dir);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        // The prefabs' outlines (the one object layer shown) would cover cells' corners.
        let drawn = dir.join("drawn.png");
        run_tiled(&rasterizer, &[Path::new("--hide-layer"), Path::new("prefabs"), Path::new("map.tmj"), &drawn], &dir);
        let theirs = decode(&drawn);
        let ours = decode(&dir.join("map.png"));
        let map = map_of(&pack, map_type, 1);
        let (w, h) = (map.width() as u32, map.height() as u32);
        assert_eq!((theirs.0, theirs.1), (w * TILED_TILE_SIZE, h * TILED_TILE_SIZE), "{map_type}");
        let mut colours: Vec<&[u8]> = theirs.2.chunks(4).collect();
        colours.sort_unstable();
        colours.dedup();
        assert!(colours.len() >= 6, "{map_type}: a drawing, not a blank ({} colours)", colours.len());
        let mut sampled = 0;
        for i in (0..w * h).step_by(37) {
            let (x, y) = (i % w, i / w);
            // A tile's corner is its terrain's colour, and so is a cell's corner in our PNG
            // (at scale 4 an object is a square inset from its cell).
            assert_eq!(
                pixel(&theirs, x * TILED_TILE_SIZE, y * TILED_TILE_SIZE),
                pixel(&ours, x * 4, y * 4),
                "{map_type} cell {x},{y}"
            );
            sampled += 1;
        }
        assert!(sampled > 100);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tiled_saves_an_export_as_tmx_and_reads_it_back_the_same() {
    let Some((tiled, _)) = tiled_or_skip() else { return };
    let pack = Pack::embedded().unwrap();
    let dir = scratch("resave");
    let map = map_of(&pack, "hotel", 3);
    let exported = write_export(&map, &pack, &dir, "hotel", false);
    run_tiled(&tiled, &[Path::new("--export-map"), Path::new("tmx"), &exported, &dir.join("saved.tmx")], &dir);
    let saved = std::fs::read_to_string(dir.join("saved.tmx")).unwrap();
    assert!(saved.contains("name=\"regions\"") && saved.contains("<property name=\"seed\" value=\"3\"/>"), "{saved}");
    export_csv(&tiled, &exported, &dir.join("a.csv"), &dir);
    export_csv(&tiled, &dir.join("saved.tmx"), &dir.join("b.csv"), &dir);
    for layer in ["terrain", "objects"] {
        assert_eq!(
            csv_ids(&dir.join(format!("a_{layer}.csv"))),
            csv_ids(&dir.join(format!("b_{layer}.csv"))),
            "{layer}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn generate_writes_a_map_with_its_tileset_beside_it() {
    let dir = scratch("files");
    let out = prefabric(&["generate", "--map-type", "mines", "--seed", "5", "--out", "cave.tmj"], &dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("wrote cave-tiles.png, cave-tiles.tsj, cave.tmj"), "{said}");
    let map: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("cave.tmj")).unwrap()).unwrap();
    assert_eq!(map["tilesets"][0]["source"], "cave-tiles.tsj");
    let command = map["properties"].as_array().unwrap().iter().find(|p| p["name"] == "command").unwrap();
    assert_eq!(command["value"], "prefabric generate --map-type mines --seed 5 --out cave.tmj");

    let out = prefabric(
        &["generate", "--map-type", "mines", "--seed", "5", "--out", "inside.tmx", "--tileset", "embedded"],
        &dir,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tmx = std::fs::read_to_string(dir.join("inside.tmx")).unwrap();
    assert!(tmx.contains("<image source=\"inside-tiles.png\""));
    assert!(!dir.join("inside-tiles.tsx").exists(), "an embedded tileset has no file");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tileset embedded"), "the reproduce line keeps it");
    // Tiled reads the same map from both: JSON with its tileset beside it, XML with it inside.
    if let Some((tiled, _)) = tiled_or_skip() {
        export_csv(&tiled, &dir.join("cave.tmj"), &dir.join("cave.csv"), &dir);
        export_csv(&tiled, &dir.join("inside.tmx"), &dir.join("inside.csv"), &dir);
        for layer in ["terrain", "objects"] {
            let (a, b) = (dir.join(format!("cave_{layer}.csv")), dir.join(format!("inside_{layer}.csv")));
            assert_eq!(csv_ids(&a), csv_ids(&b), "{layer}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tiled_map_needs_a_file_and_tileset_needs_a_tiled_map() {
    let dir = scratch("errors");
    let out = prefabric(&["generate", "--seed", "1", "--format", "tmj"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("give --out FILE.tmj"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = prefabric(&["generate", "--seed", "1", "--out", "x.png", "--tileset", "embedded"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("add --format tmj or tmx"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_world_for_tiled_is_its_levels_one_tileset_and_a_world_file() {
    let dir = scratch("world");
    let out = prefabric(
        &["world", "--levels", "3", "--seed", "4", "--map-type", "mines", "--format", "tmj", "--out", "run"],
        &dir,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = dir.join("run");
    for name in ["level-01.tmj", "level-02.tmj", "level-03.tmj", "tiles.png", "tiles.tsj", "world.world", "world.json"]
    {
        assert!(run.join(name).is_file(), "{name}");
    }
    let world: Value = serde_json::from_str(&std::fs::read_to_string(run.join("world.world")).unwrap()).unwrap();
    let files: Vec<&str> = world["maps"].as_array().unwrap().iter().map(|m| m["fileName"].as_str().unwrap()).collect();
    assert_eq!(files, ["level-01.tmj", "level-02.tmj", "level-03.tmj"]);
    // A second run into the same folder is refused without --force, then replaces it.
    let again = ["world", "--levels", "2", "--seed", "5", "--map-type", "mines", "--format", "tmj", "--out", "run"];
    assert_eq!(prefabric(&again, &dir).status.code(), Some(2));
    let forced: Vec<&str> = again.iter().copied().chain(["--force"]).collect();
    assert!(prefabric(&forced, &dir).status.success());
    assert!(!run.join("level-03.tmj").exists(), "the earlier run's third level is gone");
    let _ = std::fs::remove_dir_all(&dir);
}
