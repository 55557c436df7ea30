//! Maps written for Tiled, read back as Tiled would: every cell's tile names its
//! terrain (through the tileset's `role` and `variant` properties) and every
//! object cell's tile its glyph; the object layers hold every region, prefab,
//! object, link, door and mark; the XML and JSON maps agree; the tileset image
//! shows each terrain in its palette colour. Tiled itself reads these files in
//! the command's suite (`crates/prefabric-cli/tests/suite/tiled.rs`).

use prefabric::render::{self, TILED_TILE_SIZE, TiledOptions, TiledTileset, TilesetPlacement};
use prefabric::{Generator, Map, Pack, Terrain};
use serde_json::Value;

fn map_of(pack: &Pack, map_type: &str, seed: u64) -> Map {
    Generator::new(pack, map_type).and_then(|g| g.generate(seed)).expect("the map generates")
}

fn external() -> TiledOptions {
    TiledOptions { tileset: TilesetPlacement::External { source: "tiles.tsj".into() }, command: None }
}

/// The tileset's tiles' properties, by tile id.
fn tile_properties(tileset: &Value) -> Vec<serde_json::Map<String, Value>> {
    let tiles = tileset["tiles"].as_array().expect("tiles");
    tiles
        .iter()
        .enumerate()
        .map(|(i, tile)| {
            assert_eq!(tile["id"], i as u64, "tiles in id order");
            let mut properties = serde_json::Map::new();
            for p in tile["properties"].as_array().expect("properties") {
                properties.insert(p["name"].as_str().expect("a name").to_string(), p["value"].clone());
            }
            properties
        })
        .collect()
}

fn layer<'v>(map: &'v Value, name: &str) -> &'v Value {
    map["layers"].as_array().expect("layers").iter().find(|l| l["name"] == name).expect("the layer")
}

/// The terrain a tile shows, read from its properties as a Tiled user would.
fn terrain_of(properties: &serde_json::Map<String, Value>) -> Terrain {
    let role = properties["role"].as_str().expect("a terrain tile has a role");
    let variant = properties["variant"].as_u64().expect("and a variant");
    prefabric::format::palette::parse_terrain(&format!("{role}:{variant}")).expect("a terrain")
}

#[test]
fn every_cell_of_every_map_type_reads_back_through_its_tile() {
    let pack = Pack::embedded().unwrap();
    let names: Vec<String> = pack.map_types().map(|t| t.name.clone()).collect();
    for map_type in &names {
        for seed in 1..=5 {
            let map = map_of(&pack, map_type, seed);
            let tileset = TiledTileset::of_maps([&map], &pack);
            let doc: Value = serde_json::from_str(&render::map_tmj(&map, &pack, &tileset, &external())).unwrap();
            let tiles: Value = serde_json::from_str(&tileset.to_tsj("tiles.png")).unwrap();
            let properties = tile_properties(&tiles);
            assert_eq!(properties.len(), tileset.len());
            assert_eq!(
                (doc["width"].as_i64(), doc["height"].as_i64()),
                (Some(map.width().into()), Some(map.height().into()))
            );
            let terrain = layer(&doc, "terrain")["data"].as_array().expect("terrain data");
            assert_eq!(terrain.len(), map.terrain().cells().len());
            for (gid, &cell) in terrain.iter().zip(map.terrain().cells()) {
                let id = gid.as_u64().expect("a gid") as usize - 1;
                assert_eq!(terrain_of(&properties[id]), cell, "{map_type} seed {seed}");
            }
            let objects = layer(&doc, "objects")["data"].as_array().expect("object data");
            for o in map.objects() {
                for &(p, glyph) in &o.cells {
                    let gid = objects[(p.y * map.width() + p.x) as usize].as_u64().expect("a gid") as usize;
                    assert!(gid > 0, "{map_type} seed {seed}: an object at {p:?} has a tile");
                    assert_eq!(properties[gid - 1]["kind"], o.kind.name());
                    // The last object drawn on a cell owns it; objects rarely share one.
                    if map.objects().iter().filter(|other| other.cells.iter().any(|c| c.0 == p)).count() == 1 {
                        assert_eq!(properties[gid - 1]["glyph"], glyph.to_string(), "{map_type} seed {seed} at {p:?}");
                    }
                }
            }
            let count = |name: &str| layer(&doc, name)["objects"].as_array().expect("objects").len();
            assert_eq!(count("regions"), map.regions().len());
            assert_eq!(count("prefabs"), map.prefabs().len());
            assert_eq!(count("object properties"), map.objects().len());
            assert_eq!(count("links"), map.links().len());
            assert_eq!(count("doors"), map.regions().iter().map(|r| r.doors.len()).sum::<usize>());
            assert_eq!(count("marks"), map.marks().map(|(_, cells)| cells.len()).sum::<usize>());
            let ids: Vec<u64> = doc["layers"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|l| l["objects"].as_array().into_iter().flatten())
                .map(|o| o["id"].as_u64().unwrap())
                .collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "object ids are unique and rising");
            assert_eq!(doc["nextobjectid"].as_u64(), Some(ids.len() as u64 + 1));
        }
    }
}

#[test]
fn regions_and_prefabs_carry_what_a_game_reads() {
    let pack = Pack::embedded().unwrap();
    let map = map_of(&pack, "hotel", 2);
    let tileset = TiledTileset::of_maps([&map], &pack);
    let options = TiledOptions { command: Some("prefabric generate --map-type hotel --seed 2".into()), ..external() };
    let doc: Value = serde_json::from_str(&render::map_tmj(&map, &pack, &tileset, &options)).unwrap();
    let property = |object: &Value, name: &str| {
        object["properties"].as_array().unwrap().iter().find(|p| p["name"] == name).map(|p| p["value"].clone())
    };
    assert_eq!(property(&doc, "seed"), Some(Value::from("2")));
    assert_eq!(property(&doc, "map_type"), Some(Value::from("hotel")));
    assert_eq!(property(&doc, "command"), Some(Value::from("prefabric generate --map-type hotel --seed 2")));
    for (region, object) in map.regions().iter().zip(layer(&doc, "regions")["objects"].as_array().unwrap()) {
        assert_eq!(object["type"], region.kind.name());
        let b = region.bounds;
        let px = |v: i32| Value::from(v as u32 * TILED_TILE_SIZE);
        assert_eq!([&object["x"], &object["y"]], [&px(b.x), &px(b.y)]);
        assert_eq!([&object["width"], &object["height"]], [&px(b.width), &px(b.height)]);
        let neighbours: Vec<String> = map.neighbours(region.id).iter().map(u32::to_string).collect();
        assert_eq!(property(object, "neighbours"), Some(Value::from(neighbours.join(","))));
        assert_eq!(property(object, "id"), Some(Value::from(region.id)));
    }
    for (placed, object) in map.prefabs().iter().zip(layer(&doc, "prefabs")["objects"].as_array().unwrap()) {
        assert_eq!(object["name"], placed.name.as_str());
        let origin = pack.prefab(&placed.name).unwrap().origin();
        assert_eq!(property(object, "source"), Some(Value::from(format!("{}:{}", origin.file, origin.line))));
        let encounter = placed.encounter.as_ref().map(|e| Value::from(e.id.as_str()));
        assert_eq!(property(object, "encounter"), encounter);
    }
}

/// The rows of `<data encoding="csv">` of the tile layer `name` in a `.tmx` file.
fn tmx_layer(tmx: &str, name: &str) -> Vec<u64> {
    let start = tmx.find(&format!("name=\"{name}\" width=")).expect("the layer");
    let data = &tmx[start..];
    let from = data.find("<data encoding=\"csv\">").expect("csv data") + "<data encoding=\"csv\">".len();
    let to = data.find("</data>").expect("its end");
    data[from..to].split(',').map(|n| n.trim().parse().expect("a gid")).collect()
}

#[test]
fn tmx_and_tmj_hold_the_same_map() {
    let pack = Pack::embedded().unwrap();
    for map_type in ["materials", "mines"] {
        let map = map_of(&pack, map_type, 4);
        let tileset = TiledTileset::of_maps([&map], &pack);
        let options = TiledOptions { tileset: TilesetPlacement::Embedded { image: "tiles.png".into() }, command: None };
        let tmx = render::map_tmx(&map, &pack, &tileset, &options);
        let doc: Value = serde_json::from_str(&render::map_tmj(&map, &pack, &tileset, &options)).unwrap();
        for name in ["terrain", "objects"] {
            let json: Vec<u64> =
                layer(&doc, name)["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
            assert_eq!(tmx_layer(&tmx, name), json, "{map_type} {name}");
        }
        assert_eq!(
            tmx.matches("<object id=").count(),
            map.regions().len()
                + map.prefabs().len()
                + map.objects().len()
                + map.links().len()
                + map.regions().iter().map(|r| r.doors.len()).sum::<usize>()
                + map.marks().map(|(_, c)| c.len()).sum::<usize>()
        );
        // Embedded, the tileset is in the map, its image beside it.
        assert!(tmx.contains("<image source=\"tiles.png\""));
        assert_eq!(doc["tilesets"][0]["image"], "tiles.png");
        assert_eq!(doc["tilesets"][0]["firstgid"], 1);
    }
}

#[test]
fn the_same_map_gives_the_same_bytes() {
    let pack = Pack::embedded().unwrap();
    let write = || {
        let map = map_of(&pack, "catacombs", 9);
        let tileset = TiledTileset::of_maps([&map], &pack);
        (
            render::map_tmj(&map, &pack, &tileset, &external()),
            render::map_tmx(&map, &pack, &tileset, &external()),
            tileset.image_png().unwrap(),
        )
    };
    assert_eq!(write(), write());
}

#[test]
fn the_tileset_image_shows_each_terrain_in_its_palette_colour() {
    let pack = Pack::embedded().unwrap();
    let map = map_of(&pack, "mines", 1);
    let tileset = TiledTileset::of_maps([&map], &pack);
    let tiles: Value = serde_json::from_str(&tileset.to_tsj("tiles.png")).unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(tileset.image_png().unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    assert_eq!(
        (u64::from(info.width), u64::from(info.height)),
        (tiles["imagewidth"].as_u64().unwrap(), tiles["imageheight"].as_u64().unwrap())
    );
    let columns = tiles["columns"].as_u64().unwrap() as u32;
    for (id, properties) in tile_properties(&tiles).iter().enumerate() {
        let (left, top) = ((id as u32 % columns) * TILED_TILE_SIZE, (id as u32 / columns) * TILED_TILE_SIZE);
        let at = |x: u32, y: u32| {
            let i = (((top + y) * info.width + left + x) * 4) as usize;
            pixels[i..i + 4].to_vec()
        };
        if properties.contains_key("role") {
            let t = terrain_of(properties);
            let palette = pack.palette();
            let colour =
                palette.colour_of(Some(t)).or_else(|| palette.colour_of(Some(Terrain::new(t.role())))).unwrap();
            // The margin around the glyph is the terrain's colour, opaque.
            for (x, y) in [(0, 0), (TILED_TILE_SIZE - 1, 0), (0, TILED_TILE_SIZE - 1), (1, 6)] {
                assert_eq!(at(x, y), vec![colour.r, colour.g, colour.b, 255], "{t:?} at {x},{y}");
            }
        } else {
            // An object's tile lets the floor show at its corners.
            assert_eq!(at(0, 0)[3], 0, "{properties:?}");
            assert_eq!(at(6, 6)[3], 255, "{properties:?}");
        }
    }
}

#[test]
fn a_world_lays_its_levels_side_by_side() {
    let pack = Pack::embedded().unwrap();
    let maps: Vec<Map> = (1..=3).map(|seed| map_of(&pack, "mines", seed)).collect();
    let names = ["level-1.tmj", "level-2.tmj", "level-3.tmj"];
    let levels: Vec<(&str, &Map)> = names.iter().copied().zip(&maps).collect();
    let world: Value = serde_json::from_str(&render::tiled_world(&levels)).unwrap();
    assert_eq!(world["type"], "world");
    let placed = world["maps"].as_array().unwrap();
    assert_eq!(placed.len(), 3);
    for pair in placed.windows(2) {
        let right = pair[0]["x"].as_u64().unwrap() + pair[0]["width"].as_u64().unwrap();
        assert!(pair[1]["x"].as_u64().unwrap() > right, "levels do not overlap");
    }
    // One tileset serves every level: it has each level's tiles.
    let shared = TiledTileset::of_maps(&maps, &pack);
    assert!(maps.iter().all(|m| TiledTileset::of_maps([m], &pack).len() <= shared.len()));
}
