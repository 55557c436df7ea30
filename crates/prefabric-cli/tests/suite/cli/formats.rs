//! The output formats of `prefabric generate` as users ask for them: JSON that
//! follows the schema, `.xp` images, PNG and HTML chosen by the `--out`
//! extension, each with a reproduce line that makes the same file again, and
//! the README's image as its command draws it.

use super::*;

#[test]
fn json_output_follows_the_schema() {
    let out = prefabric(&["generate", "--seed", "9", "--depth", "2", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(doc["format"], "prefabric-map");
    assert_eq!(doc["seed"], 9);
    assert_eq!(doc["depth"], 2);
    assert_eq!(doc["map_type"], "materials");
    assert_eq!((doc["width"].as_i64(), doc["height"].as_i64()), (Some(200), Some(200)));
    let rows = doc["rows"].as_array().unwrap();
    let passable = doc["passable"].as_array().unwrap();
    assert_eq!((rows.len(), passable.len()), (200, 200));
    // Cells under objects that block walkers (machines).
    let blocked: std::collections::BTreeSet<(i64, i64)> = doc["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["blocks"] == true)
        .flat_map(|o| o["cells"].as_array().unwrap().iter().map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap())))
        .collect();
    assert!(!blocked.is_empty(), "machines block");
    for (y, (row, pass)) in rows.iter().zip(passable).enumerate() {
        let (row, pass) = (row.as_str().unwrap(), pass.as_str().unwrap());
        assert_eq!(pass.len(), 200);
        for (x, (glyph, p)) in row.chars().zip(pass.chars()).enumerate() {
            // In the default palette walls, earth and barriers draw as `#`, ` ` and
            // `X`, reinforced walls as `%` and fallen rock as `^`.
            let walkable = !matches!(glyph, '#' | ' ' | 'X' | '%' | '^');
            let machine = blocked.contains(&(x as i64, y as i64));
            assert_eq!(p == '1', walkable && !machine, "{glyph} {p} at ({x}, {y})");
        }
    }
    let spawn_blocked = doc["spawn_blocked"].as_array().unwrap();
    assert_eq!(spawn_blocked.len(), 200);
    assert!(spawn_blocked.iter().any(|r| r.as_str().unwrap().contains('1')), "entrances are spawn-blocked");
    let regions = doc["regions"].as_array().unwrap();
    assert!(regions.iter().any(|r| r["kind"] == "room" && !r["doors"].as_array().unwrap().is_empty()));
    for r in regions {
        for key in ["id", "kind", "x", "y", "width", "height", "doors"] {
            assert!(!r[key].is_null(), "region without {key}");
        }
    }
    let prefabs = doc["prefabs"].as_array().unwrap();
    assert!(!prefabs.is_empty());
    for p in prefabs {
        assert!(prefabric::Transform::parse(p["transform"].as_str().unwrap()).is_some());
        match p["stage"].as_str() {
            Some("feature") => {
                assert_eq!(
                    (p["style"].as_str(), p["encounter"].is_null(), p["category"].is_null()),
                    (Some("feature"), true, true)
                )
            }
            Some("encounter") => {
                assert!(["enclosed", "cubby", "accessible"].contains(&p["style"].as_str().unwrap()), "{p}");
                assert!(["fluff", "risk-reward", "danger", "reward"].contains(&p["category"].as_str().unwrap()), "{p}");
                assert!(p["encounter"].is_string(), "{p}");
            }
            other => panic!("unknown stage {other:?}"),
        }
    }
    assert!(prefabs.iter().any(|p| p["stage"] == "encounter"), "the materials map embeds encounters");
    // Machines drawn on the prefabs' machine layers, and the objects their reference
    // characters stand for, stand on walkable cells inside the prefab that brought them.
    let objects = doc["objects"].as_array().unwrap();
    assert!(objects.iter().any(|o| o["kind"] == "machine"), "seed 9 places prefabs with machines");
    assert!(objects.iter().any(|o| o["kind"] == "entity"), "and prefabs with robots");
    let parts = ["interactive", "filler", "stockpile", "terminal", "item"];
    for part in parts {
        assert!(objects.iter().any(|o| o["part"] == part), "seed 9 is furnished with a {part}");
    }
    for o in objects {
        let furnished = o["source"] == "furnishing";
        assert_eq!(o["blocks"], o["kind"] == "machine", "{o}");
        match o["kind"].as_str().unwrap() {
            // Furnished machines and those definition lines place or name have
            // a catalog tag; a drawn machine no line names has none.
            "machine" => assert_eq!(o["tag"].is_string(), furnished || o["definition"].is_object(), "{o}"),
            "entity" | "item" | "prop" | "trap" | "debris" => assert!(o["tag"].is_string(), "{o}"),
            other => panic!("unknown kind {other}"),
        }
        assert!(o["keywords"].as_array().unwrap().iter().all(|k| k[0].is_string()), "{o}");
        let cells = o["cells"].as_array().unwrap();
        assert_eq!((o["x"].clone(), o["y"].clone()), (cells[0][0].clone(), cells[0][1].clone()));
        let solid = if o["blocks"] == true { b'0' } else { b'1' };
        for c in cells {
            let (x, y) = (c[0].as_i64().unwrap(), c[1].as_i64().unwrap());
            assert_eq!(c[2].as_str().unwrap().chars().count(), 1);
            assert_eq!(passable[y as usize].as_str().unwrap().as_bytes()[x as usize], solid, "{o}");
        }
        if furnished {
            // Furnishing: no prefab, a part, the region it stands in; stockpile items
            // say which pile.
            assert!(o["prefab"].is_null() && o["region"].is_u64(), "{o}");
            assert!(parts.contains(&o["part"].as_str().unwrap()), "{o}");
            assert_eq!(o["pile"].is_u64(), o["part"] == "stockpile", "{o}");
            continue;
        }
        assert!(o["part"].is_null() && o["pile"].is_null() && o["region"].is_null(), "{o}");
        let prefab = &prefabs[o["prefab"].as_u64().unwrap() as usize];
        assert_eq!(o["source"], prefab["name"]);
        for c in cells {
            let (x, y) = (c[0].as_i64().unwrap(), c[1].as_i64().unwrap());
            let (px, py) = (prefab["x"].as_i64().unwrap(), prefab["y"].as_i64().unwrap());
            assert!(
                x >= px
                    && y >= py
                    && x < px + prefab["width"].as_i64().unwrap()
                    && y < py + prefab["height"].as_i64().unwrap()
            );
        }
    }
}

#[test]
fn generate_writes_an_xp_image_of_the_map() {
    let dir = std::env::temp_dir().join(format!("prefabric-xp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("map.xp");
    let out = prefabric(&["generate", "--seed", "9", "--format", "xp", "--out", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&path).unwrap();
    let image = prefabric::format::xp::read("map.xp", &bytes, &prefabric::Limits::default()).unwrap();
    assert_eq!((image.width(), image.height(), image.layers().len()), (200, 200, 3));
    // Layer 1 has the ASCII output's terrain glyphs (objects go on layer 3), as JSON's
    // `rows` hold them.
    let json = stdout(&prefabric(&["generate", "--seed", "9", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows: Vec<&str> = doc["rows"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    for (y, row) in rows.iter().enumerate() {
        for (x, glyph) in row.chars().enumerate() {
            let cell = image.layers()[0][prefabric::Point::new(x as i32, y as i32)];
            assert_eq!(prefabric::format::cp437::to_char(cell.glyph), Some(glyph), "({x}, {y})");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn catacombs_come_out_in_every_format_with_their_trace() {
    let json = stdout(&prefabric(&["generate", "--map-type", "catacombs", "--seed", "4", "--format", "json"]));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["generator"], "pathways");
    let regions = doc["regions"].as_array().unwrap();
    assert!(regions.iter().any(|r| r["kind"] == "corridor") && regions.iter().any(|r| r["kind"] == "prefab"));
    let layout = doc["prefabs"].as_array().unwrap().iter().filter(|p| p["stage"] == "layout").count();
    assert!(layout >= 10, "{layout} hand-made rooms and hallway prefabs");
    let ascii = stdout(&prefabric(&["generate", "--map-type", "catacombs", "--seed", "4", "--format", "ascii"]));
    assert_eq!(ascii.lines().count(), 71, "the reproduce line and 70 rows");
    let ansi = stdout(&prefabric(&["generate", "--map-type", "catacombs", "--seed", "4", "--format", "ansi"]));
    assert!(ansi.contains("\u{1b}["), "colours");
    let dir = std::env::temp_dir().join(format!("prefabric-catacombs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("catacombs.xp");
    let out = prefabric(&[
        "generate",
        "--map-type",
        "catacombs",
        "--seed",
        "4",
        "--format",
        "xp",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let image = prefabric::format::xp::read("c.xp", &std::fs::read(&path).unwrap(), &prefabric::Limits::default());
    assert_eq!(image.map(|i| (i.width(), i.height())).ok(), Some((100, 70)));
    std::fs::remove_dir_all(&dir).unwrap();
    let out = prefabric(&["generate", "--map-type", "catacombs", "--seed", "4", "--explain"]);
    let trace = stderr(&out);
    assert!(trace.contains("[layout] chose: first room: `catacomb_stair`"), "{trace}");
    assert!(trace.contains("[layout] note: pathways placed "), "{trace}");
    assert!(trace.contains("[encounters]") && trace.contains("[furnishing]"), "{trace}");
}

#[test]
fn the_format_follows_the_out_extension_and_the_reproduce_line_makes_the_same_file() {
    let dir = std::env::temp_dir().join(format!("prefabric-cli-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("a.json");
    let out = prefabric(&["generate", "--seed", "5", "--format", "json", "--out", first.to_str().unwrap()]);
    // The extension implies json, so the reproduce line needs no --format.
    let reproduce = reproduce_line(&out);
    assert!(!reproduce.contains("--format"), "{reproduce}");
    let again = dir.join("b.json");
    assert!(run_redirected(&reproduce, "a.json", &again).status.success());
    assert_eq!(std::fs::read(&first).unwrap(), std::fs::read(&again).unwrap());
    assert!(std::fs::read_to_string(&again).unwrap().starts_with("{\"format\":\"prefabric-map\""));
    // A format the extension does not imply is named in the line.
    let odd = dir.join("c.json");
    let out = prefabric(&["generate", "--seed", "5", "--format", "ascii", "--out", odd.to_str().unwrap()]);
    assert!(stderr(&out).contains("--seed 5 --format ascii --out"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn png_follows_the_out_extension_and_its_reproduce_line_makes_the_same_image() {
    let dir = std::env::temp_dir().join(format!("prefabric-cli-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("a.png");
    let args =
        ["generate", "--map-type", "hotel", "--seed", "3", "--highlight", "category", "--legend", "--scale", "2"];
    let out = prefabric(&[&args[..], &["--out", first.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let bytes = std::fs::read(&first).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    let reproduce = reproduce_line(&out);
    assert!(reproduce.contains("--scale 2 --highlight category --legend"), "{reproduce}");
    assert!(!reproduce.contains("--format"), "the extension implies png: {reproduce}");
    let again = dir.join("b.png");
    assert!(run_redirected(&reproduce, "a.png", &again).status.success());
    assert_eq!(bytes, std::fs::read(&again).unwrap());
    // Image options mean nothing to the text formats.
    let out = prefabric(&["generate", "--seed", "3", "--format", "ascii", "--legend"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("draw PNG images"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_readme_image_is_what_its_command_draws() {
    // The manual's tour of the command line shows this image under the command
    // that makes it (and the README shows the image).
    let tour = std::fs::read_to_string(repo().join("docs/getting-started.md")).unwrap();
    let command = "prefabric generate --map-type catacombs --seed 5 --highlight category --legend --out docs/images/catacombs.png";
    assert!(tour.contains(&format!("$ {command}\n")), "docs/getting-started.md shows `{command}`");
    let dir = std::env::temp_dir().join(format!("prefabric-readme-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let drawn = dir.join("catacombs.png");
    assert!(run_redirected(command, ".png", &drawn).status.success());
    let committed = repo().join("docs/images/catacombs.png");
    if std::env::var_os("PREFABRIC_BLESS").is_some() {
        std::fs::copy(&drawn, &committed).unwrap();
    }
    assert!(
        std::fs::read(&committed).unwrap() == std::fs::read(&drawn).unwrap(),
        "docs/images/catacombs.png is out of date: run the tests with PREFABRIC_BLESS=1 and look at the new image"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn html_follows_the_out_extension_and_embeds_the_json_with_its_trace() {
    let dir = std::env::temp_dir().join(format!("prefabric-cli-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("mines.html");
    let out = prefabric(&["generate", "--map-type", "mines", "--seed", "4", "--out", page.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!doctype html>"), "{}", &html[..40]);
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains(" src="), "no network");
    // The page's map is the JSON `--explain --format json` writes, trace and all.
    let embedded = html.split("<script type=\"application/json\" id=\"prefabric-map\">").nth(1).unwrap();
    let embedded: serde_json::Value = serde_json::from_str(embedded.split("</script>").next().unwrap()).unwrap();
    let json = prefabric(&["generate", "--map-type", "mines", "--seed", "4", "--format", "json", "--explain"]);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(embedded, json);
    assert!(json["trace"].as_array().is_some_and(|t| !t.is_empty()));
    let plain = prefabric(&["generate", "--map-type", "mines", "--seed", "4", "--format", "json"]);
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(plain.get("trace").is_none(), "the trace only with --explain");
    // The page shows the command that makes it again, and that command does.
    let reproduce = reproduce_line(&out);
    assert!(html.contains(&format!("\"command\":{}", serde_json::Value::from(reproduce.as_str()))), "{reproduce}");
    let again = dir.join("again.html");
    assert!(run_redirected(&reproduce, "mines.html", &again).status.success());
    let again = std::fs::read_to_string(&again).unwrap();
    // The same page but for its file's name (the neighbouring seeds' pages are named after it).
    let stem = |p: &Path| p.with_extension("").to_str().unwrap().to_string();
    assert_eq!(html.replace(&stem(&page), "X"), again.replace(&stem(&dir.join("again.html")), "X"));
    std::fs::remove_dir_all(&dir).unwrap();
}
