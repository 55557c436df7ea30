//! The HTML viewer in a real browser: headless Chromium, driven over the DevTools
//! protocol, opens a viewer file that `prefabric generate` wrote and must show no
//! console error, draw the map, change the picture when a layer is switched off,
//! and name the right prefab when the pointer rests on one of its cells.
//!
//! Chromium is found through `PREFABRIC_CHROMIUM` or on the `PATH`
//! (`.ci/install-browser` installs Debian's package). Without one the test says
//! so and passes, unless `PREFABRIC_REQUIRE_BROWSER` is set — as `.ci/run` does
//! once the install script succeeded — when a missing browser fails it.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// How long any one answer of the browser may take.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PREFABRIC_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// The browser to test with; `None` (after saying why) when there is none and
/// none is required.
fn chromium_or_skip() -> Option<PathBuf> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("PREFABRIC_REQUIRE_BROWSER").is_none(),
            "PREFABRIC_REQUIRE_BROWSER is set but no Chromium was found (set PREFABRIC_CHROMIUM or run .ci/install-browser)"
        );
        eprintln!("skipped: no Chromium on this machine; run .ci/install-browser (Debian) or set PREFABRIC_CHROMIUM");
    }
    found
}

/// A headless Chromium and one page of it, spoken to over the DevTools protocol.
struct Browser {
    child: Child,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    /// Events the browser sent while we waited for answers.
    events: Vec<Value>,
    profile: PathBuf,
}

impl Browser {
    fn launch(binary: &Path, profile: PathBuf) -> Browser {
        let mut command = Command::new(binary);
        command.args([
            "--headless",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-port=0",
            "--window-size=1400,900",
        ]);
        // Chromium's sandbox refuses to run as root (CI containers).
        command.arg("--no-sandbox");
        command.arg(format!("--user-data-dir={}", profile.display()));
        command.arg("about:blank");
        let mut child = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("chromium starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.split("DevTools listening on ").nth(1) {
                    let _ = tx.send(url.trim().to_string());
                }
            }
        });
        let url = rx.recv_timeout(ANSWER_TIMEOUT).expect("chromium prints its DevTools address");
        let (socket, _) = tungstenite::connect(url.as_str()).expect("the DevTools socket opens");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream.set_read_timeout(Some(ANSWER_TIMEOUT)).expect("a read timeout can be set");
        }
        let mut browser = Browser { child, socket, session: String::new(), next_id: 0, events: Vec::new(), profile };
        let target = browser.call("Target.createTarget", json!({ "url": "about:blank" }));
        let target_id = target["targetId"].as_str().expect("a target id").to_string();
        let attached = browser.call("Target.attachToTarget", json!({ "targetId": target_id, "flatten": true }));
        browser.session = attached["sessionId"].as_str().expect("a session id").to_string();
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] {
            browser.call(domain, json!({}));
        }
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": false }),
        );
        browser
    }

    /// Sends a command (to the page once attached) and waits for its answer.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        self.socket.send(Message::text(message.to_string())).expect("the browser takes the command");
        loop {
            let text = match self.socket.read().expect("the browser answers") {
                Message::Text(text) => text,
                _ => continue,
            };
            let value: Value = serde_json::from_str(text.as_str()).expect("the browser speaks JSON");
            if value["id"] == json!(id) {
                assert!(value.get("error").is_none(), "{method} failed: {}", value["error"]);
                return value["result"].clone();
            }
            self.events.push(value);
        }
    }

    /// Evaluates a JavaScript expression in the page and returns its value.
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }));
        assert!(result.get("exceptionDetails").is_none(), "`{expression}` threw: {}", result["exceptionDetails"]);
        result["result"]["value"].clone()
    }

    fn mouse(&mut self, kind: &str, x: f64, y: f64) {
        let mut params = json!({ "type": kind, "x": x, "y": y });
        if kind != "mouseMoved" {
            params["button"] = json!("left");
            params["clickCount"] = json!(1);
        }
        self.call("Input.dispatchMouseEvent", params);
    }

    /// Clicks the centre of the element with this id, as a user would.
    fn click(&mut self, id: &str) {
        let at = self.eval(&format!(
            "(() => {{ const r = document.getElementById('{id}').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        self.mouse("mouseMoved", x, y);
        self.mouse("mousePressed", x, y);
        self.mouse("mouseReleased", x, y);
    }

    /// Errors the page reported: uncaught exceptions, `console.error`, and
    /// errors in the browser's log (a resource that failed to load, say).
    fn errors(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e["method"].as_str()? {
                "Runtime.exceptionThrown" => Some(e["params"]["exceptionDetails"].to_string()),
                "Runtime.consoleAPICalled" if matches!(e["params"]["type"].as_str(), Some("error" | "assert")) => {
                    Some(e["params"]["args"].to_string())
                }
                "Log.entryAdded" if e["params"]["entry"]["level"] == "error" => Some(e["params"]["entry"].to_string()),
                _ => None,
            })
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A digest of the canvas's pixels and how many differ from the background.
const CANVAS_DIGEST: &str = "(() => {
    const c = document.getElementById('map');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let hash = 2166136261, drawn = 0;
    for (let i = 0; i < d.length; i += 4) {
        if (d[i] !== 11 || d[i + 1] !== 11 || d[i + 2] !== 11) drawn += 1;
        hash = Math.imul(hash ^ (d[i] | d[i + 1] << 8 | d[i + 2] << 16), 16777619) >>> 0;
    }
    return [hash, drawn, c.width * c.height];
})()";

/// A cell inside exactly one placed prefab of the map's JSON (the middle of the
/// first prefab whose middle no other prefab covers), and that prefab's name.
fn cell_of_one_prefab(map: &Value) -> (i64, i64, String) {
    let prefabs = map["prefabs"].as_array().expect("prefabs");
    let inside = |p: &Value, x: i64, y: i64| {
        let (px, py) = (p["x"].as_i64().unwrap(), p["y"].as_i64().unwrap());
        x >= px && y >= py && x < px + p["width"].as_i64().unwrap() && y < py + p["height"].as_i64().unwrap()
    };
    prefabs
        .iter()
        .find_map(|p| {
            let x = p["x"].as_i64()? + p["width"].as_i64()? / 2;
            let y = p["y"].as_i64()? + p["height"].as_i64()? / 2;
            let covering = prefabs.iter().filter(|q| inside(q, x, y)).count();
            (covering == 1).then(|| (x, y, p["name"].as_str().unwrap().to_string()))
        })
        .expect("some prefab stands alone")
}

#[test]
fn the_viewer_draws_explains_and_toggles_in_headless_chromium() {
    let Some(binary) = chromium_or_skip() else { return };
    let dir = std::env::temp_dir().join(format!("prefabric-viewer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("materials.html");
    let generate = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_prefabric")).args(args).current_dir(repo()).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    generate(&["generate", "--map-type", "materials", "--seed", "1", "--out", page.to_str().unwrap()]);
    let map: Value =
        serde_json::from_slice(&generate(&["generate", "--map-type", "materials", "--seed", "1", "--format", "json"]))
            .unwrap();
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 2_000_000, "the viewer of a 200x200 map is {size} bytes, over 2 MB");

    let mut browser = Browser::launch(&binary, dir.join("profile"));
    let opened = Instant::now();
    browser.call("Page.navigate", json!({ "url": format!("file://{}", page.display()) }));
    let mut ready = false;
    for _ in 0..300 {
        if browser.eval("Boolean(window.prefabricViewer && window.prefabricViewer.ready)") == json!(true) {
            ready = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(ready, "the viewer never became ready; errors: {:?}", browser.errors());
    eprintln!("viewer of {size} bytes opened and drawn in {} ms", opened.elapsed().as_millis());

    // Drawn: most of the canvas under the map is not background.
    let before = browser.eval(CANVAS_DIGEST);
    let (drawn, pixels) = (before[1].as_f64().unwrap(), before[2].as_f64().unwrap());
    assert!(drawn > pixels * 0.3, "only {drawn} of {pixels} pixels drawn");

    // Hovering a prefab's cell names it.
    let (x, y, name) = cell_of_one_prefab(&map);
    let at = browser.eval(&format!("window.prefabricViewer.cellToClient({x}, {y})"));
    browser.mouse("mouseMoved", at["x"].as_f64().unwrap(), at["y"].as_f64().unwrap());
    let info = browser.eval("document.getElementById('info').textContent");
    let info = info.as_str().unwrap();
    assert!(info.contains(&format!("Prefab {name}")), "hovering ({x}, {y}) shows {info:?}, not prefab `{name}`");
    assert!(info.contains(&format!("({x}, {y})")), "{info}");

    // Switching the terrain layer off changes the picture.
    let drawn_before = browser.eval(CANVAS_DIGEST);
    browser.click("layer-terrain");
    assert_eq!(browser.eval("document.getElementById('layer-terrain').checked"), json!(false));
    let after = browser.eval(CANVAS_DIGEST);
    assert_ne!(drawn_before[0], after[0], "switching the terrain off left the canvas as it was");
    assert!(after[1].as_f64().unwrap() < drawn_before[1].as_f64().unwrap(), "less is drawn without terrain");

    // The timeline lists a stage's events, rejected tries included.
    browser.click("stage-encounters");
    let events = browser.eval("document.getElementById('events').textContent");
    assert!(events.as_str().unwrap().contains("encounter `"), "{events}");

    let errors = browser.errors();
    assert!(errors.is_empty(), "the page reported errors: {errors:#?}");
    drop(browser);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_watched_viewer_reloads_itself_when_its_stamp_changes_and_keeps_its_layers() {
    let Some(binary) = chromium_or_skip() else { return };
    let dir = std::env::temp_dir().join(format!("prefabric-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pack = prefabric::Pack::embedded().unwrap();
    let map = prefabric::generate(&pack, "mines", 2).unwrap();
    let page = dir.join("watched.html");
    let write = |stamp: &str| {
        let options = prefabric::render::HtmlOptions {
            reload_from: Some("watched.html.stamp.js".into()),
            stamp: stamp.into(),
            ..Default::default()
        };
        std::fs::write(&page, prefabric::render::map_html(&map, &pack, &options)).unwrap();
        std::fs::write(dir.join("watched.html.stamp.js"), format!("prefabricStamp({stamp:?});\n")).unwrap();
    };
    write("one");
    let mut browser = Browser::launch(&binary, dir.join("profile"));
    browser.call("Page.navigate", json!({ "url": format!("file://{}", page.display()) }));
    wait_for(&mut browser, "Boolean(window.prefabricViewer && window.prefabricViewer.ready)");
    browser.click("layer-regions");
    browser.eval("window.notReloadedYet = true");
    // Polled once a second: an unchanged stamp leaves the page alone.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(browser.eval("window.notReloadedYet === true"), json!(true), "reloaded with no change");
    write("two");
    wait_for(
        &mut browser,
        "window.notReloadedYet === undefined && Boolean(window.prefabricViewer && window.prefabricViewer.ready)",
    );
    assert_eq!(browser.eval("document.getElementById('layer-regions').checked"), json!(true), "layers kept");
    let errors = browser.errors();
    assert!(errors.is_empty(), "the page reported errors: {errors:#?}");
    drop(browser);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits up to 5 s for `expression` to hold in the page.
fn wait_for(browser: &mut Browser, expression: &str) {
    for _ in 0..250 {
        if browser.eval(expression) == json!(true) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("`{expression}` never held; errors: {:?}", browser.errors());
}

/// The tiny fixture pack with its entry prefab's floor beside the stairs
/// marked `altar` and `no_teleport`.
fn pack_with_marks() -> prefabric::Pack {
    let fixture = repo().join("crates/prefabric/tests/fixtures/tiny_pack");
    let mut files = Vec::new();
    for path in ["pack.toml", "palette.toml", "catalog/things.toml", "maps/tiny.toml"] {
        let bytes = std::fs::read(fixture.join(path)).unwrap();
        files.push(prefabric::content::SourceFile { path: path.into(), bytes });
    }
    let entry = "prefab entry\ntransforms: r0\nlegend: m = room mark altar no_teleport\nterrain:\n#####\n#m<.#\n##+##\nlinks:\n.....\n.....\n..1..\n";
    files.push(prefabric::content::SourceFile { path: "prefabs/entry.txt".into(), bytes: entry.into() });
    prefabric::Pack::from_files("tiny", files, prefabric::Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

#[test]
fn the_viewer_names_a_cells_marks_and_draws_them_as_a_layer() {
    let Some(binary) = chromium_or_skip() else { return };
    let dir = std::env::temp_dir().join(format!("prefabric-marks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pack = pack_with_marks();
    let map = prefabric::generate(&pack, "tiny", 7).unwrap();
    let marked: Vec<_> = map.marks().collect();
    assert_eq!(marked.len(), 2, "both names are on the map: {marked:?}");
    let at = marked[0].1[0];
    let page = dir.join("marks.html");
    std::fs::write(&page, prefabric::render::map_html(&map, &pack, &Default::default())).unwrap();

    let mut browser = Browser::launch(&binary, dir.join("profile"));
    browser.call("Page.navigate", json!({ "url": format!("file://{}", page.display()) }));
    wait_for(&mut browser, "Boolean(window.prefabricViewer && window.prefabricViewer.ready)");
    let client = browser.eval(&format!("window.prefabricViewer.cellToClient({}, {})", at.x, at.y));
    browser.mouse("mouseMoved", client["x"].as_f64().unwrap(), client["y"].as_f64().unwrap());
    let info = browser.eval("document.getElementById('info').textContent");
    assert!(info.as_str().unwrap().contains("altar no_teleport"), "hovering {at} shows {info}");

    let before = browser.eval(CANVAS_DIGEST);
    browser.click("layer-marks");
    assert_eq!(browser.eval("document.getElementById('layer-marks').checked"), json!(false));
    let after = browser.eval(CANVAS_DIGEST);
    assert_ne!(before[0], after[0], "switching the marks off left the canvas as it was");
    let errors = browser.errors();
    assert!(errors.is_empty(), "the page reported errors: {errors:#?}");
    drop(browser);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opens `page` and waits for the viewer (or any page) to be ready.
fn open(browser: &mut Browser, page: &Path, ready: &str) {
    browser.call("Page.navigate", json!({ "url": format!("file://{}", page.display()) }));
    wait_for(browser, ready);
}

const VIEWER_READY: &str = "Boolean(window.prefabricViewer && window.prefabricViewer.ready)";

/// A world's index links its levels' pages; a level's page has a colour key
/// for region kinds and prefab categories or stages, a search box that finds
/// prefabs and objects by name, `file:line` links an editor opens, and links
/// back to the index.
#[test]
fn a_world_index_leads_to_levels_with_a_colour_key_search_and_editor_links() {
    let Some(binary) = chromium_or_skip() else { return };
    let dir = std::env::temp_dir().join(format!("prefabric-world-viewer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let world = dir.join("world");
    let out = Command::new(env!("CARGO_BIN_EXE_prefabric"))
        .args(["world", "--levels", "3", "--seed", "5", "--map-type", "catacombs", "--format", "html"])
        .args(["--editor-url", "vscode://file/{path}:{line}", "--out", world.to_str().unwrap()])
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let index = world.join("index.html");
    assert!(index.is_file(), "world --format html writes index.html");

    let mut browser = Browser::launch(&binary, dir.join("profile"));
    open(&mut browser, &index, "document.readyState === 'complete'");
    let links = browser.eval("Array.from(document.querySelectorAll('#levels a')).map((a) => a.getAttribute('href'))");
    assert_eq!(links, json!(["level-01.html", "level-02.html", "level-03.html"]));
    // Following the first link opens a working viewer that links back.
    browser.eval("document.querySelector('#levels a').click()");
    wait_for(&mut browser, &format!("location.href.endsWith('level-01.html') && {VIEWER_READY}"));
    let nav = browser.eval("Array.from(document.querySelectorAll('#links a')).map((a) => a.getAttribute('href'))");
    assert_eq!(nav, json!(["index.html", "level-02.html"]));

    // The colour key: every region kind, the prefab categories (or stages), the object kinds.
    let key = |browser: &mut Browser, id: &str| browser.eval(&format!("document.getElementById('{id}').textContent"));
    let regions = key(&mut browser, "key-regions");
    for kind in ["room", "corridor", "junction", "cave", "prefab"] {
        assert!(regions.as_str().unwrap().contains(kind), "no `{kind}` in the region key: {regions}");
    }
    assert!(key(&mut browser, "key-prefabs").as_str().unwrap().contains("danger encounter"));
    assert!(key(&mut browser, "key-objects").as_str().unwrap().contains("entity"));
    browser.eval("(() => { const s = document.getElementById('prefab-colouring'); s.value = 'stage'; s.dispatchEvent(new Event('change')); })()");
    let stages = key(&mut browser, "key-prefabs");
    assert!(["feature", "layout", "encounter"].iter().all(|s| stages.as_str().unwrap().contains(s)), "{stages}");
    let swatches = browser.eval("document.querySelectorAll('#key .swatch').length").as_u64().unwrap();
    assert!(swatches >= 7 + 3 + 6, "{swatches} swatches");

    // Search: typing a prefab's name finds it, lists it and draws it.
    let map = browser.eval("window.prefabricViewer.map");
    let (x, y, name) = cell_of_one_prefab(&map);
    let before = browser.eval(CANVAS_DIGEST);
    browser.eval("document.getElementById('search').focus()");
    browser.call("Input.insertText", json!({ "text": name }));
    let results = browser.eval("document.getElementById('search-results').textContent");
    let results = results.as_str().unwrap();
    assert!(results.contains(&format!("prefab {name}")) && !results.starts_with("0 prefabs"), "{results}");
    assert_ne!(before[0], browser.eval(CANVAS_DIGEST)[0], "the match is drawn");
    let others = browser.eval("window.prefabricViewer.search('no such thing at all').prefabs.length");
    assert_eq!(others, json!(0));

    // file:line opens in the editor.
    let at = browser.eval(&format!("window.prefabricViewer.cellToClient({x}, {y})"));
    browser.mouse("mouseMoved", at["x"].as_f64().unwrap(), at["y"].as_f64().unwrap());
    let href = browser.eval("(document.querySelector('#info a.file-link') || {}).href || null");
    let href = href.as_str().unwrap_or_else(|| panic!("no editor link for prefab `{name}`"));
    assert!(href.starts_with("vscode://file/") && href.contains("/content/default/prefabs/"), "{href}");
    let errors = browser.errors();
    assert!(errors.is_empty(), "the pages reported errors: {errors:#?}");
    drop(browser);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The maze places hundreds of layout prefabs: by default only encounters and
/// features are outlined, a layer shows the rest; the page prints the
/// commands that make the previous and next seeds' pages.
#[test]
fn the_maze_outlines_its_layout_prefabs_only_when_asked_and_steps_to_its_neighbours() {
    let Some(binary) = chromium_or_skip() else { return };
    let dir = std::env::temp_dir().join(format!("prefabric-maze-viewer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("maze-3.html");
    let out = Command::new(env!("CARGO_BIN_EXE_prefabric"))
        .args(["generate", "--map-type", "maze", "--seed", "3", "--out", page.to_str().unwrap()])
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut browser = Browser::launch(&binary, dir.join("profile"));
    open(&mut browser, &page, VIEWER_READY);
    let total = browser.eval("window.prefabricViewer.map.prefabs.length").as_u64().unwrap();
    let layout = browser.eval("window.prefabricViewer.map.prefabs.filter((p) => p.stage === 'layout').length");
    assert!(layout.as_u64().unwrap() > 100, "the maze is made of layout prefabs: {layout}");
    let shown = browser.eval("window.prefabricViewer.outlinedCount()").as_u64().unwrap();
    assert_eq!(shown, total - layout.as_u64().unwrap(), "only encounters and features by default");
    let before = browser.eval(CANVAS_DIGEST);
    browser.click("layer-layoutPrefabs");
    assert_eq!(browser.eval("window.prefabricViewer.outlinedCount()").as_u64().unwrap(), total);
    assert_ne!(before[0], browser.eval(CANVAS_DIGEST)[0], "the layout prefabs are drawn");

    let steps = browser.eval("Array.from(document.querySelectorAll('#seed-steps code')).map((c) => c.textContent)");
    let prev = format!("prefabric generate --map-type maze --seed 2 --out {}", dir.join("maze-2.html").display());
    let next = format!("prefabric generate --map-type maze --seed 4 --out {}", dir.join("maze-4.html").display());
    assert_eq!(steps, json!([prev, next]));
    let errors = browser.errors();
    assert!(errors.is_empty(), "the page reported errors: {errors:#?}");
    drop(browser);
    let _ = std::fs::remove_dir_all(&dir);
}
