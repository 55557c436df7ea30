//! `prefabric stats`: its JSON against the schema table of docs/json-schema.md, merging
//! shards, and results that do not depend on the number of threads.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn prefabric(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prefabric")).args(args).current_dir(repo()).output().expect("the binary runs")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn json_of(args: &[&str]) -> Value {
    let out = prefabric(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stats --json writes JSON")
}

/// The statistics with the generation times taken out: the one part that
/// differs from run to run.
fn without_times(mut stats: Value) -> Value {
    if let Some(types) = stats["map_types"].as_object_mut() {
        for m in types.values_mut() {
            m.as_object_mut().expect("a map type is an object").remove("time");
        }
    }
    stats
}

/// The schema rows of the manual's JSON chapter: path and type.
fn documented() -> Vec<(String, String)> {
    let chapter = std::fs::read_to_string(repo().join("docs/json-schema.md")).expect("the JSON chapter");
    let start = chapter.find("<!-- stats-schema").expect("the schema table's start marker");
    let end = chapter.find("<!-- /stats-schema -->").expect("the schema table's end marker");
    chapter[start..end]
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let path = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((path.to_string(), cells.get(2)?.to_string()))
        })
        .collect()
}

fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Walks `value` at documented path `path`: its type must be the documented
/// one; an object's keys must be documented (a name segment in upper case
/// stands for any key) and every documented fixed key must be there; an
/// array's elements follow `path[]` when that is documented.
fn check(value: &Value, path: &str, schema: &[(String, String)], seen: &mut Vec<String>) {
    let Some((_, ty)) = schema.iter().find(|(p, _)| p == path) else {
        panic!("`{path}` is in the output but not in the schema of docs/json-schema.md");
    };
    assert!(ty.split(" or ").any(|t| t == type_of(value)), "`{path}` is {} but documented as {ty}", type_of(value));
    seen.push(path.to_string());
    let child = |key: &str| if path.is_empty() { key.to_string() } else { format!("{path}.{key}") };
    let children: Vec<&String> = schema
        .iter()
        .map(|(p, _)| p)
        .filter(|p| {
            let rest = if path.is_empty() { Some(p.as_str()) } else { p.strip_prefix(&format!("{path}.")) };
            rest.is_some_and(|r| !r.is_empty() && !r.contains('.') && !r.contains('['))
        })
        .collect();
    match value {
        Value::Object(map) => {
            let wildcard = children.iter().find(|p| {
                let last = p.rsplit('.').next().unwrap_or("");
                last.chars().all(|c| c.is_ascii_uppercase() || c == '_') && !last.is_empty()
            });
            for (key, v) in map {
                let fixed = child(key);
                let at = if children.iter().any(|p| **p == fixed) {
                    fixed
                } else {
                    wildcard.map(|w| w.to_string()).unwrap_or_else(|| panic!("`{fixed}` is not documented"))
                };
                check(v, &at, schema, seen);
            }
            if wildcard.is_none() {
                for p in &children {
                    let key = p.rsplit('.').next().unwrap_or("");
                    assert!(map.contains_key(key), "`{p}` is documented but missing from the output");
                }
            }
        }
        Value::Array(items) => {
            let element = format!("{path}[]");
            if schema.iter().any(|(p, _)| *p == element) {
                for item in items {
                    check(item, &element, schema, seen);
                }
            }
        }
        _ => {}
    }
}

#[test]
fn stats_json_follows_the_schema_the_manual_documents() {
    let schema = documented();
    assert!(schema.len() > 60, "the schema table has {} rows", schema.len());
    // With --html, so the heat maps are in the JSON too.
    let report = temp_dir("schema").join("schema.html");
    let stats = json_of(&["stats", "--seeds", "24", "--depth", "1,3", "--json", "--html", utf8(&report)]);
    let mut seen = Vec::new();
    check(&stats, "", &[vec![(String::new(), "object".to_string())], schema.clone()].concat(), &mut seen);
    // Every map type of the built-in pack, and enough of the schema met to mean something.
    assert_eq!(stats["map_types"].as_object().map(|m| m.len()), Some(5));
    for (path, _) in &schema {
        let optional = path.contains("failures") || path.contains("skipped.REASON");
        assert!(optional || seen.contains(path), "`{path}` never came up in the output");
    }
    assert_eq!(stats["map_types"]["mines"]["maps"], 48);
}

#[test]
fn stats_of_two_halves_merge_into_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("prefabric-stats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let run =
        |seeds: &str| json_of(&["stats", "--map-type", "catacombs", "--map-type", "hotel", "--seeds", seeds, "--json"]);
    let whole = run("0..40");
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    std::fs::write(&a, run("0..17").to_string()).expect("written");
    std::fs::write(&b, run("17..40").to_string()).expect("written");
    let merged = json_of(&["stats", "merge", b.to_str().expect("utf-8"), a.to_str().expect("utf-8"), "--json"]);
    assert_eq!(merged["map_types"]["hotel"]["seeds"], serde_json::json!([[0, 40]]));
    assert_eq!(without_times(merged.clone()), without_times(whole.clone()));
    // The times add up too, though they differ from the whole run's.
    let maps = |s: &Value| {
        s["map_types"]["hotel"]["time"]["buckets"]
            .as_object()
            .map(|b| b.values().filter_map(Value::as_u64).sum::<u64>())
    };
    assert_eq!(maps(&merged), Some(40));
    // A range merged twice is refused.
    let out = prefabric(&["stats", "merge", a.to_str().expect("utf-8"), a.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("seeds 0..17 are in both"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_are_the_same_on_one_thread_and_on_many() {
    let args =
        |threads: &'static str| ["stats", "--map-type", "mines", "--seeds", "100..160", "--threads", threads, "--json"];
    let one = json_of(&args("1"));
    let four = json_of(&args("4"));
    assert_eq!(without_times(one.clone()), without_times(four));
    assert_eq!(one["map_types"]["mines"]["maps"], 60);
}

#[test]
fn stats_say_why_content_was_never_placed() {
    let stats = json_of(&["stats", "--map-type", "mines", "--seeds", "30", "--json"]);
    let mines = &stats["map_types"]["mines"];
    // Depth 1 is outside the hermit's range: both alternatives are unused, and say why.
    let unused = &mines["prefabs"]["hermit_hole_small"]["unused"];
    let reason = unused["reason"].as_str().expect("a reason");
    assert!(
        reason.starts_with("encounter `hermit_hole` was never placed: not eligible: depth 1 is outside its depths 2-"),
        "{reason}"
    );
    assert_eq!(unused["example_seed"], 0);
    assert_eq!(mines["encounters"]["hermit_hole"]["not_placed"]["ineligible"]["count"], 30);
    // A prefab that was placed has no such reason.
    assert!(mines["prefabs"]["seam_face_small"]["unused"].is_null());
    assert!(mines["prefabs"]["seam_face_small"]["placed"].as_u64().is_some_and(|n| n > 0));
    // The table says the same.
    let out = prefabric(&["stats", "--map-type", "mines", "--seeds", "30"]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("map type `mines`: 30 maps (seeds 0..30, depth 1), 0 failed"), "{table}");
    assert!(table.contains("never placed:") && table.contains("hermit_hole_small"), "{table}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("30 maps in ") && err.contains(" maps/s"), "{err}");
    // Bad ranges are usage errors.
    let out = prefabric(&["stats", "--seeds", "9..3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no seeds"));
}

/// A fresh temporary folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prefabric-stats-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn utf8(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// The section of the report on map type `name`.
fn section<'a>(html: &'a str, name: &str) -> &'a str {
    let heading = format!("<h2>map type <code>{name}</code></h2>");
    let start = html.find(&heading).unwrap_or_else(|| panic!("no section for map type `{name}`"));
    let end = html[start..].find("</section>").expect("the section ends") + start;
    &html[start..end]
}

#[test]
fn stats_html_writes_a_self_contained_report_with_plots_of_every_map_type() {
    let dir = temp_dir("html");
    let report = dir.join("report.html");
    let out = prefabric(&["stats", "--seeds", "20", "--json", "--html", utf8(&report)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Standard output is still the JSON alone; the file is noted on standard error.
    let stats: Value = serde_json::from_slice(&out.stdout).expect("stats --json --html still writes JSON");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("wrote {}", report.display())), "{err}");
    let html = std::fs::read_to_string(&report).expect("the report was written");
    assert!(html.starts_with("<!doctype html>"), "{}", &html[..html.len().min(200)]);
    assert!(html.trim_end().ends_with("</html>"));
    let types = stats["map_types"].as_object().expect("map types");
    assert_eq!(types.len(), 5);
    assert_eq!(html.matches("<section ").count(), types.len());
    let mut never_placed = 0;
    for (name, m) in types {
        let section = section(&html, name);
        let encounters = m["encounters"].as_object().expect("encounters");
        // A time histogram for every map type, an encounter chart for those with encounters.
        let plots = section.matches("<svg").count() - section.matches("<svg class=\"heat\"").count();
        assert_eq!(plots, if encounters.is_empty() { 1 } else { 2 }, "{name}");
        assert_eq!(section.matches("aria-label=\"maps by generation time\"").count(), 1, "{name}");
        assert!(section.contains("<th>seeds</th><td>0..20</td>"), "{name}");
        assert!(section.contains("<th>maps generated</th><td>20</td>"), "{name}");
        for (id, e) in encounters {
            // A row of the chart and of the table.
            assert!(section.contains(&format!(">{id}</text>")), "`{id}` has no row in the chart of `{name}`");
            let row = if e["placed"] == 0 {
                never_placed += 1;
                format!("<tr class=\"never\"><td><code>{id}</code>")
            } else {
                format!("<tr><td><code>{id}</code>")
            };
            assert!(section.contains(&row), "`{id}` of `{name}` lacks its table row {row}");
        }
        for prefab in m["prefabs"].as_object().expect("prefabs").keys() {
            assert!(section.contains(&format!("<code>{prefab}</code>")), "prefab `{prefab}` of `{name}`");
        }
    }
    assert!(never_placed > 0, "the built-in pack has encounters outside depth 1, never placed there");
    let plots = html.matches("<svg").count() - html.matches("<svg class=\"heat\"").count();
    assert_eq!(plots, 9, "four map types with encounters, five histograms");
    // Nothing to fetch: no URL (the inline SVG needs no namespace), script, link or image.
    let page = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    for outside in ["http://", "https://", "<script", "<link", "<img", "src=", "@import", "url("] {
        assert!(!page.contains(outside), "the report holds `{outside}`");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_merge_writes_the_report_of_the_merged_statistics_escaping_the_packs_names() {
    let dir = temp_dir("merge-html");
    let run = |seeds: &str| json_of(&["stats", "--map-type", "hotel", "--seeds", seeds, "--json"]);
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    std::fs::write(&a, run("0..10").to_string()).expect("written");
    std::fs::write(&b, run("10..25").to_string()).expect("written");
    let report = dir.join("r.html");
    let out = prefabric(&["stats", "merge", utf8(&a), utf8(&b), "--html", utf8(&report)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.starts_with("map type `hotel`: 25 maps (seeds 0..25, depth 1)"), "{table}");
    let html = std::fs::read_to_string(&report).expect("the merged report was written");
    assert!(html.starts_with("<!doctype html>"));
    let hotel = section(&html, "hotel");
    assert!(hotel.contains("<th>seeds</th><td>0..25</td>") && hotel.contains("<th>maps generated</th><td>25</td>"));
    assert_eq!(hotel.matches("<svg").count(), 2);
    // The same statistics give the same bytes.
    let again = dir.join("again.html");
    let out = prefabric(&["stats", "merge", utf8(&a), utf8(&b), "--html", utf8(&again)]);
    assert!(out.status.success());
    assert_eq!(std::fs::read(&report).expect("read"), std::fs::read(&again).expect("read"));

    // Names come from content packs: markup in them is shown, never run.
    let mut evil: Value = serde_json::from_str(&std::fs::read_to_string(&a).expect("read")).expect("JSON");
    evil["pack"] = Value::from("<script>alert('pack')</script>");
    let types = evil["map_types"].as_object_mut().expect("map types");
    let mut hotel = types.remove("hotel").expect("hotel");
    let encounters = hotel["encounters"].as_object_mut().expect("encounters");
    let first = encounters.keys().next().expect("an encounter").clone();
    let encounter = encounters.remove(&first).expect("it");
    encounters.insert("\"><img src=x onerror=alert(1)>".to_string(), encounter);
    types.insert("<b onmouseover=alert(2)>hotel</b>".to_string(), hotel);
    let evil_json = dir.join("evil.json");
    std::fs::write(&evil_json, evil.to_string()).expect("written");
    let evil_report = dir.join("evil.html");
    let out = prefabric(&["stats", "merge", utf8(&evil_json), "--json", "--html", utf8(&evil_report)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&evil_report).expect("written");
    for markup in ["<script", "<img", "<b "] {
        assert!(!html.contains(markup), "`{markup}` got into the report unescaped");
    }
    assert!(html.contains("&lt;script&gt;alert(&#39;pack&#39;)&lt;/script&gt;"));
    assert!(html.contains("&lt;b onmouseover=alert(2)&gt;hotel&lt;/b&gt;"));
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A definition line unused in a map type is judged by the placements of the
/// prefabs that draw its character, not of every prefab sharing its file: the
/// starter inn places only `card_game` of the shared encounters.def, which
/// draws none of the guard room's letters.
#[test]
fn unused_definition_lines_count_only_prefabs_that_draw_them() {
    let out = prefabric(&["stats", "--pack", "crates/prefabric-cli/starter", "--map-type", "inn", "--seeds", "20"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let line = text.lines().find(|l| l.contains("encounters.def:9 `g`")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.ends_with("no prefab that draws `g` was placed"), "{line}");
}

/// Designers tune per depth: every encounter and prefab has a row per depth
/// run whose counts add up to its totals, and the report shows those rows and
/// a heat map of where the most placed content lands, at the map's size.
#[test]
fn stats_count_each_depth_and_draw_where_content_lands() {
    let dir = temp_dir("depths");
    let report = dir.join("depths.html");
    let out = prefabric(&[
        "stats",
        "--map-type",
        "mines",
        "--seeds",
        "12",
        "--depth",
        "1-3",
        "--json",
        "--html",
        utf8(&report),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(stats["format"], 2);
    let mines = &stats["map_types"]["mines"];
    let depth_maps = mines["depth_maps"].as_object().expect("maps per depth");
    assert_eq!(depth_maps.keys().collect::<Vec<_>>(), ["1", "2", "3"]);
    assert!(depth_maps.values().all(|n| n == 12));
    let entries = mines["encounters"].as_object().unwrap().iter().chain(mines["prefabs"].as_object().unwrap());
    let mut varies = false;
    for (name, e) in entries {
        let rows = e["by_depth"].as_object().unwrap_or_else(|| panic!("`{name}` has no rows per depth"));
        assert_eq!(rows.len(), 3, "{name}");
        let placed: Vec<u64> = rows.values().map(|r| r["placed"].as_u64().unwrap()).collect();
        assert_eq!(placed.iter().sum::<u64>(), e["placed"].as_u64().unwrap(), "`{name}`'s depths add up");
        varies |= placed.iter().any(|&p| p != placed[0]);
        if e["placed"] != 0 {
            let heat = e["heat"].as_array().unwrap_or_else(|| panic!("`{name}` has no heat map"));
            let cells: u64 = heat
                .iter()
                .flat_map(|row| row.as_str().unwrap().split(' ').map(|n| n.parse::<u64>().unwrap()).collect::<Vec<_>>())
                .sum();
            assert!(cells >= e["placed"].as_u64().unwrap(), "`{name}` covers a cell or more per placement");
        }
    }
    assert!(varies, "some content is placed more at one depth than another");
    let html = std::fs::read_to_string(&report).expect("the report");
    let section = section(&html, "mines");
    assert!(section.contains("<h3>Per depth</h3>") && section.contains("<th class=\"n\">depth 3</th>"), "{section}");
    let heat_maps = section.matches("<svg class=\"heat\"").count();
    assert!(heat_maps > 2 && heat_maps <= 24, "{heat_maps} heat maps");
    let shape = &mines["heat_maps"];
    let width = shape["width"].as_u64().unwrap() * shape["cell"].as_u64().unwrap();
    assert!(section.contains(&format!("<svg class=\"heat\" viewBox=\"0 0 {width} ")), "drawn at the map's size");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An encounter that cannot appear at a depth gets no expected share there:
/// `swarmer_mound` (depths 3-20) has no ◆ in the chart of a depth-1 run and
/// reads "not at this depth" in the depth-1 column of a 1-3 run; and every
/// example seed of the report comes with the command that writes its viewer
/// page.
#[test]
fn stats_draw_no_expected_share_where_an_encounter_cannot_appear() {
    let dir = temp_dir("eligible");
    let report = dir.join("one.html");
    let out = prefabric(&["stats", "--map-type", "mines", "--seeds", "10", "--json", "--html", utf8(&report)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mound = &stats["map_types"]["mines"]["encounters"]["swarmer_mound"];
    assert_eq!(mound["weight_share"], 0.0, "no share of the draws at depth 1");
    assert_eq!(mound["by_depth"]["1"]["weight_share"], Value::Null);
    let others: f64 = stats["map_types"]["mines"]["encounters"]
        .as_object()
        .unwrap()
        .values()
        .map(|e| e["weight_share"].as_f64().unwrap())
        .sum();
    assert!((others - 1.0).abs() < 1e-9, "the shares of those that can appear add up to 1: {others}");
    let html = std::fs::read_to_string(&report).expect("the report");
    let chart = section(&html, "mines");
    let row = |id: &str| {
        let at = chart.find(&format!("<g><title>{id} (")).unwrap_or_else(|| panic!("no chart row for {id}"));
        &chart[at..at + chart[at..].find("</g>").unwrap()]
    };
    assert!(!row("swarmer_mound").contains("class=\"expected\""), "{}", row("swarmer_mound"));
    assert!(row("swarmer_mound").contains("not at these depths"));
    assert!(row("seam_face").contains("class=\"expected\""), "an eligible encounter keeps its ◆");
    // Example seeds open the viewer.
    assert!(chart.contains("<h3>Example seeds</h3>"), "no examples listed");
    let command = "prefabric generate --map-type mines --seed ";
    let commands: Vec<&str> =
        chart.split("<code class=\"command\">").skip(1).map(|c| &c[..c.find("</code>").unwrap()]).collect();
    assert!(
        !commands.is_empty()
            && commands.iter().all(|c| c.starts_with(command) && c.contains("--format html --out mines-"))
    );

    let report = dir.join("three.html");
    let out = prefabric(&["stats", "--map-type", "mines", "--seeds", "10", "--depth", "1-3", "--html", utf8(&report)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&report).expect("the report");
    let html = &html[html.find("<table class=\"by-depth\">").expect("the per-depth table")..];
    let at = html.find("<tr><td><code>swarmer_mound</code></td><td class=").expect("a per-depth row");
    let cells: Vec<&str> = html[at..at + html[at..].find("</tr>").unwrap()].split("<td").skip(2).collect();
    assert_eq!(cells.len(), 3, "{cells:?}");
    assert!(cells[0].contains("not at this depth") && cells[1].contains("not at this depth"), "{cells:?}");
    assert!(cells[2].contains("exp. ") && !cells[2].contains("not at this depth"), "{cells:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
