//! What a map's JSON says about where each thing came from, checked against the
//! pack's own files over several seeds of every default map type: each prefab's
//! file and line, each object's definition line, the terrain legend and keys,
//! the cells of each region, and the trace's places.

use prefabric::{Map, Pack, generate, render};
use serde_json::Value;
use std::path::Path;

fn repo_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn maps(pack: &Pack) -> Vec<(Map, Value)> {
    let mut out = Vec::new();
    for map_type in pack.map_types() {
        for seed in 0..4 {
            let map = generate(pack, &map_type.name, seed).unwrap();
            let json: Value = serde_json::from_str(&render::json_with_trace(&map, pack)).unwrap();
            out.push((map, json));
        }
    }
    out
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("{v} is not an integer"))
}

#[test]
fn prefabs_and_objects_name_the_lines_they_were_written_on() {
    let pack = Pack::embedded().unwrap();
    let (mut text_prefabs, mut definitions) = (0, 0);
    for (map, json) in maps(&pack) {
        let what = format!("{} seed {}", map.map_type(), map.seed());
        for p in json["prefabs"].as_array().unwrap() {
            let (name, file) = (p["name"].as_str().unwrap(), p["file"].as_str().unwrap());
            if file.ends_with(".xp") {
                assert!(file.ends_with(&format!("/{name}.xp")), "{what}: {name} in {file}");
                assert_eq!(p["line"], 0, "{what}: a REXPaint prefab is a whole file");
                continue;
            }
            let line = int(&p["line"]) as usize;
            let written = repo_file(file).lines().nth(line - 1).unwrap_or_default().to_string();
            assert!(written.contains(name), "{what}: {file}:{line} is `{written}`, not prefab `{name}`'s header");
            text_prefabs += 1;
        }
        for o in json["objects"].as_array().unwrap() {
            let Some(d) = o["definition"].as_object() else {
                // Without a definition: furnished, an object-only encounter's,
                // or a machine drawn in a prefab.
                let source = o["source"].as_str().unwrap_or_default();
                let scattered = source.starts_with("encounter:");
                assert!(source == "furnishing" || scattered || o["tag"].is_null(), "{what}: {o}");
                continue;
            };
            let (file, line) = (d["file"].as_str().unwrap(), int(&d["line"]) as usize);
            let written = repo_file(file).lines().nth(line - 1).unwrap_or_default().to_string();
            let glyph = d["glyph"].as_str().unwrap();
            assert!(
                written.split_whitespace().any(|w| w == glyph),
                "{what}: {file}:{line} `{written}` defines no `{glyph}`"
            );
            assert!(written.contains(d["pick"].as_str().unwrap()), "{what}: {file}:{line} `{written}` lacks {d:?}");
            assert!(int(&d["alternative"]) < int(&d["alternatives"]), "{what}: {d:?}");
            // Items and debris are drawn with their catalog glyphs, machines
            // with their art over their footprint, the rest with the reference
            // character.
            if o["kind"] == "machine" {
                // A drawn machine a `machine` line names keeps its drawn cells.
                let named = written.split_whitespace().any(|w| w == "machine");
                let prop = pack.catalog().prop(o["tag"].as_str().unwrap()).unwrap();
                let cells = usize::from(prop.size.0) * usize::from(prop.size.1);
                assert!(o["blocks"] == true && (named || o["cells"].as_array().unwrap().len() == cells), "{what}: {o}");
                assert!(o["name"].is_string(), "{what}: a catalog entry has a name: {o}");
                definitions += 1;
                continue;
            }
            let drawn = match o["kind"].as_str().unwrap() {
                kind @ ("item" | "debris") => {
                    let kind = prefabric::content::catalog::Kind::parse(kind).unwrap();
                    pack.catalog().glyph_of(kind, o["tag"].as_str().unwrap()).unwrap().to_string()
                }
                _ => glyph.to_string(),
            };
            assert!(o["cells"].as_array().unwrap().iter().all(|c| c[2] == drawn.as_str()), "{what}: {o}");
            assert!(o["name"].is_string(), "{what}: a catalog entry has a name: {o}");
            definitions += 1;
        }
    }
    assert!(text_prefabs > 50 && definitions > 50, "{text_prefabs} text prefabs, {definitions} definition objects");
}

#[test]
fn terrain_keys_regions_and_trace_places_agree_with_the_map() {
    let pack = Pack::embedded().unwrap();
    for (map, json) in maps(&pack) {
        let what = format!("{} seed {}", map.map_type(), map.seed());
        let legend = json["terrain"].as_array().unwrap();
        let rows: Vec<Vec<char>> =
            json["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap().chars().collect()).collect();
        let with_object: std::collections::BTreeSet<(i32, i32)> =
            map.objects().iter().flat_map(|o| o.cells.iter().map(|(p, _)| (p.x, p.y))).collect();
        for (y, row) in json["terrain_rows"].as_array().unwrap().iter().enumerate() {
            for (x, key) in row.as_str().unwrap().chars().enumerate() {
                let entry = legend.iter().find(|t| t["key"] == key.to_string()).expect("every key is in the legend");
                let terrain = map.terrain_at(prefabric::geom::Point::new(x as i32, y as i32)).unwrap();
                assert_eq!(entry["name"], terrain.to_string(), "{what} ({x}, {y})");
                if !with_object.contains(&(x as i32, y as i32)) {
                    assert_eq!(entry["glyph"], rows[y][x].to_string(), "{what} ({x}, {y})");
                }
            }
        }
        let mut region_cells = vec![0u32; map.regions().len()];
        for (y, runs) in json["region_runs"].as_array().unwrap().iter().enumerate() {
            for run in runs.as_array().unwrap() {
                let (x0, length, id) = (int(&run[0]), int(&run[1]), int(&run[2]));
                for x in x0..x0 + length {
                    let at = prefabric::geom::Point::new(x as i32, y as i32);
                    assert_eq!(map.region_at(at).map(|r| i64::from(r.id)), Some(id), "{what} ({x}, {y})");
                }
                region_cells[id as usize] += length as u32;
            }
        }
        for r in map.regions() {
            let held = (0..map.height())
                .flat_map(|y| (0..map.width()).map(move |x| prefabric::geom::Point::new(x, y)))
                .filter(|&p| map.region_at(p).is_some_and(|q| q.id == r.id))
                .count() as u32;
            assert_eq!(region_cells[r.id as usize], held, "{what}: region {} cells", r.id);
        }
        let trace = json["trace"].as_array().unwrap();
        assert_eq!(trace.len(), map.trace().events().len(), "{what}");
        for p in map.prefabs() {
            let bounds = [p.bounds.x, p.bounds.y, p.bounds.width, p.bounds.height];
            let placed = trace.iter().any(|e| {
                e["outcome"] == "chose"
                    && e["place"].as_array().is_some_and(|a| a.iter().map(int).eq(bounds.map(i64::from)))
            });
            assert!(placed, "{what}: no trace event places `{}` at {bounds:?}", p.name);
        }
    }
}

#[test]
fn the_trace_is_listed_only_when_asked_for() {
    let pack = Pack::embedded().unwrap();
    let map = generate(&pack, "hotel", 3).unwrap();
    let plain: Value = serde_json::from_str(&render::json(&map, &pack)).unwrap();
    assert!(plain.get("trace").is_none());
    let traced: Value = serde_json::from_str(&render::json_with_trace(&map, &pack)).unwrap();
    let skipped = traced["trace"].as_array().unwrap().iter().filter(|e| e["outcome"] == "skipped").count();
    assert!(skipped > 0, "a hotel's chain scraps some tries");
}
