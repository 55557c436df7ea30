//! Memory at the largest map, in a test program of its own: its one test runs
//! itself again for each map, and each such process reads its own peak
//! resident memory (Linux's `VmHWM`, reset through `/proc/self/clear_refs`
//! once the pack is loaded), which other tests, or memory an earlier map left
//! with the allocator, would disturb.
//!
//! Every generator, through its built-in map type at 2048x2048 (the default
//! `Limits::max_map_side`), is run at the extremes of each of its numeric
//! parameters: the smallest and largest values the pack accepts, found by
//! loading it (so a parameter whose range grows is followed without editing this
//! file). Each map, made or failed, must peak under [`BUDGET_MB`]: memory linear
//! in the map, never a grid per search level or per tunneler. The time each map
//! takes, on the clock and on a core, is printed (`--nocapture`), not
//! asserted; docs/performance.md gives it.

use prefabric::content::SourceFile;
use prefabric::{Generator, Limits, Pack};
use std::time::Instant;

/// The side of every map here.
const SIDE: i64 = 2048;

/// The most a process holding the built-in pack and one 2048x2048 map may peak at.
const BUDGET_MB: u64 = 300;

/// A parameter: its path under the map type's table, and whether it is a
/// `[lo, hi]` range (each end pushed to the extremes) or one number.
#[derive(Clone, Copy)]
enum Param {
    Number(&'static str),
    Range(&'static str),
}
use Param::{Number, Range};

/// The numeric parameters of each generator, as docs/map-types.md lists them,
/// with the built-in map type that runs it.
const GENERATORS: &[(&str, &[Param])] = &[
    (
        "materials",
        &[
            Number("tunnelers.width"),
            Number("tunnelers.min_width"),
            Number("tunnelers.max_width"),
            Range("tunnelers.step"),
            Number("tunnelers.turn_chance"),
            Number("tunnelers.width_change_chance"),
            Number("tunnelers.branch_chance"),
            Number("tunnelers.branch_at_turn_chance"),
            Number("tunnelers.child_width_change_chance"),
            Number("tunnelers.max_generations"),
            Range("tunnelers.max_age"),
            Number("tunnelers.room_chance"),
            Number("tunnelers.turn_drift"),
            Number("tunnelers.room_drift"),
            Number("tunnelers.anteroom_chance"),
            Number("tunnelers.hall_chance"),
            Range("tunnelers.hall_width"),
            Range("tunnelers.hall_depth"),
            Number("tunnelers.min_halls"),
            Number("tunnelers.edge_margin"),
            Number("tunnelers.join_chance"),
            Number("tunnelers.join_distance"),
            Number("tunnelers.columns"),
            Number("tunnelers.column_spacing"),
            Number("tunnelers.secret_door_chance"),
            Number("tunnelers.fill_target"),
            Number("tunnelers.min_open"),
            Number("tunnelers.max_empty"),
            Number("tunnelers.last_chance"),
            Number("tunnelers.max_tunnelers"),
        ],
    ),
    (
        "hotel",
        &[
            Number("chain.margin"),
            Number("chain.target"),
            Number("chain.attempts"),
            Number("chain.door_chance"),
            Range("chain.hallways.length"),
            Number("chain.hallways.width"),
            Number("chain.auto_rooms.weight"),
            Number("chain.auto_rooms.kinds"),
            Range("chain.auto_rooms.width"),
            Range("chain.auto_rooms.height"),
            Range("chain.auto_rooms.connectors"),
            Number("chain.extra.flanked"),
            Number("chain.extra.facing"),
            Number("chain.extra.corner"),
            Number("chain.extra.max_length"),
            Range("chain.overlay.count"),
            Range("chain.overlay.width"),
            Range("chain.overlay.height"),
        ],
    ),
    (
        "catacombs",
        &[
            Number("pathways.margin"),
            Number("pathways.rooms"),
            Number("pathways.attempts"),
            Number("pathways.spread"),
            Number("pathways.padding"),
            Number("pathways.door_chance"),
            Number("pathways.auto_rooms.weight"),
            Number("pathways.auto_rooms.kinds"),
            Range("pathways.auto_rooms.width"),
            Range("pathways.auto_rooms.height"),
            Number("pathways.hallways.width"),
            Number("pathways.hallways.turn_cost"),
            Number("pathways.hallways.beside_cost"),
            Number("pathways.hallways.wander"),
            Number("pathways.secondary.chance"),
            Number("pathways.secondary.force_after"),
            Range("pathways.hallway_prefabs.count"),
            Number("pathways.secret_doors.chance"),
            Number("pathways.secret_doors.min_length"),
        ],
    ),
    (
        "mines",
        &[
            Number("caves.fill"),
            Number("caves.birth"),
            Number("caves.survival"),
            Number("caves.iterations"),
            Number("caves.min_pocket"),
            Number("caves.margin"),
            Number("caves.passage_width"),
            Number("caves.cavern_clearance"),
            Number("caves.min_cavern"),
        ],
    ),
];

/// Values tried first when looking for a parameter's extremes; between the
/// last accepted and the first refused, a bisection finds the edge exactly.
const PROBES: [i64; 17] =
    [-(1 << 31), -1000, -100, -2, -1, 0, 1, 2, 3, 5, 10, 100, 1000, 2048, 100_000, (1 << 31) - 1, (1 << 32) - 1];

/// A map type's file with one change, loaded as a pack holding that map type
/// alone.
struct Trial {
    name: &'static str,
    files: Vec<SourceFile>,
    table: toml::Table,
}

impl Trial {
    fn new(name: &'static str) -> Trial {
        let path = format!("maps/{name}.toml");
        let all = Pack::embedded_files();
        let file = all.iter().find(|f| f.path == path).expect("each built-in map type has its file");
        let mut table: toml::Table =
            std::str::from_utf8(&file.bytes).expect("UTF-8").parse().expect("built-in map types are TOML");
        table.insert("width".into(), toml::Value::Integer(SIDE));
        table.insert("height".into(), toml::Value::Integer(SIDE));
        // One map type alone: the world of the built-in pack names the others.
        let files = all
            .into_iter()
            .filter(|f| !f.path.starts_with("maps/") && f.path != "pack.toml" && f.path != "world.toml")
            .collect();
        Trial { name, files, table }
    }

    /// The pack with `path` set to `value`, or why it was refused.
    fn load(&self, path: &str, value: Option<toml::Value>) -> Result<Pack, String> {
        let mut table = self.table.clone();
        if let Some(value) = value {
            set(&mut table, path, value);
        }
        let mut files = self.files.clone();
        let manifest = format!("name = \"memory\"\ndefault_map_type = \"{}\"\n", self.name);
        files.push(SourceFile { path: "pack.toml".into(), bytes: manifest.into_bytes() });
        files.push(SourceFile { path: format!("maps/{}.toml", self.name), bytes: table.to_string().into_bytes() });
        Pack::from_files("memory", files, Limits::default()).map_err(|problems| problems.to_string())
    }

    fn accepts(&self, param: Param, n: i64) -> bool {
        self.load(path_of(param), Some(value_of(param, n, n))).is_ok()
    }

    /// The smallest and largest accepted values of `param` (each end of a
    /// range set alike), or `None` when the pack refuses every probe.
    fn extremes(&self, param: Param) -> Option<(i64, i64)> {
        let accepted: Vec<usize> = (0..PROBES.len()).filter(|&i| self.accepts(param, PROBES[i])).collect();
        let (&first, &last) = (accepted.first()?, accepted.last()?);
        let low = if first == 0 { PROBES[0] } else { self.edge(param, PROBES[first], PROBES[first - 1]) };
        let high =
            if last + 1 == PROBES.len() { PROBES[last] } else { self.edge(param, PROBES[last], PROBES[last + 1]) };
        Some((low, high))
    }

    /// The accepted value farthest from `accepted` toward `refused`.
    fn edge(&self, param: Param, mut accepted: i64, mut refused: i64) -> i64 {
        while (refused - accepted).abs() > 1 {
            let middle = accepted + (refused - accepted) / 2;
            if self.accepts(param, middle) {
                accepted = middle;
            } else {
                refused = middle;
            }
        }
        accepted
    }
}

fn path_of(param: Param) -> &'static str {
    match param {
        Number(path) | Range(path) => path,
    }
}

fn value_of(param: Param, low: i64, high: i64) -> toml::Value {
    match param {
        Number(_) => toml::Value::Integer(low),
        Range(_) => toml::Value::Array(vec![toml::Value::Integer(low), toml::Value::Integer(high)]),
    }
}

/// Sets `path` (dotted) in `table`, making the tables on the way.
fn set(table: &mut toml::Table, path: &str, value: toml::Value) {
    let mut keys: Vec<&str> = path.split('.').collect();
    let last = keys.pop().expect("a path has a key");
    let mut at = table;
    for key in keys {
        at = at
            .entry(key)
            .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            .as_table_mut()
            .expect("a parameter's path runs through tables");
    }
    at.insert(last.into(), value);
}

/// The environment variable that makes this test program measure one map:
/// `name`, a parameter's path and its value as TOML, split by tabs (an empty
/// path for the map type as written).
const CASE: &str = "PREFABRIC_MEMORY_CASE";

/// What a measuring run prints before its figures.
const RESULT: &str = "memory-case:";

/// One map to measure, in a fresh process of its own so that no memory an
/// earlier map left with the allocator counts against it.
struct Case {
    name: &'static str,
    path: &'static str,
    value: Option<toml::Value>,
}

impl Case {
    fn label(&self) -> String {
        match &self.value {
            Some(value) => format!("{} = {value}", self.path),
            None => "as written".into(),
        }
    }

    fn spawn(&self) -> std::process::Child {
        let value = self.value.as_ref().map(toml::Value::to_string).unwrap_or_default();
        std::process::Command::new(std::env::current_exe().expect("this test program"))
            .args([TEST, "--exact", "--nocapture", "--test-threads=1"])
            .env(CASE, format!("{}\t{}\t{value}", self.name, self.path))
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("starting this test program again")
    }
}

/// Measures the one map `spec` (from [`CASE`]) names and prints its figures.
fn measure_case(spec: &str) {
    let mut fields = spec.splitn(3, '\t');
    let (name, path, value) = (fields.next().unwrap(), fields.next().unwrap(), fields.next().unwrap());
    let name = GENERATORS.iter().map(|(n, _)| *n).find(|n| *n == name).expect("a generator's map type");
    let value = (!path.is_empty()).then(|| {
        let table: toml::Table = format!("v = {value}").parse().expect("a TOML value");
        table["v"].clone()
    });
    let pack = Trial::new(name).load(path, value).expect("a case that loaded in the parent loads here");
    let generator = Generator::new(&pack, name).expect("the map type").trace(false);
    std::fs::write("/proc/self/clear_refs", "5").expect("resetting the peak through /proc/self/clear_refs");
    let (start, cpu_start) = (Instant::now(), cpu_seconds());
    let outcome = match generator.generate(1) {
        Ok(map) => format!("{} regions", map.regions().len()),
        Err(e) => format!("failed: {}", e.message()),
    };
    let (seconds, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu_start);
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM in /proc/self/status");
    let kib: u64 = line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("VmHWM in kB");
    // On its own line: the test harness prints the test's name before it.
    println!("\n{RESULT} {} {seconds:.2} {cpu:.2} {outcome}", kib / 1024);
}

/// The time this thread has spent on a core, in seconds (Linux's
/// `/proc/thread-self/schedstat`): what a map costs whatever else the
/// machine is doing.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").expect("/proc/thread-self/schedstat");
    let nanos: u64 = stat.split_whitespace().next().and_then(|n| n.parse().ok()).expect("nanoseconds on a core");
    nanos as f64 / 1e9
}

/// Every map to measure: each generator's map type as written, then with each
/// parameter at its smallest and its largest (and, for a range, spanning both).
/// The extremes are looked for on `threads` threads.
fn cases(threads: usize) -> Vec<Case> {
    let trials: Vec<Trial> = GENERATORS.iter().map(|&(name, _)| Trial::new(name)).collect();
    let params: Vec<(&Trial, Param)> = GENERATORS
        .iter()
        .zip(&trials)
        .flat_map(|(&(_, params), trial)| params.iter().map(move |&p| (trial, p)))
        .collect();
    let per_param: Vec<Vec<Case>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<(usize, &(&Trial, Param))> = params.iter().enumerate().skip(t).step_by(threads).collect();
                scope.spawn(move || {
                    mine.into_iter().map(|(i, &(trial, param))| (i, settings(trial, param))).collect::<Vec<_>>()
                })
            })
            .collect();
        let mut found: Vec<(usize, Vec<Case>)> =
            workers.into_iter().flat_map(|w| w.join().expect("a search")).collect();
        found.sort_by_key(|(i, _)| *i);
        found.into_iter().map(|(_, cases)| cases).collect()
    });
    let mut cases = Vec::new();
    let mut per_param = per_param.into_iter();
    for (trial, &(_, params)) in trials.iter().zip(GENERATORS) {
        trial.load("", None).unwrap_or_else(|e| panic!("{} at {SIDE}x{SIDE}: {e}", trial.name));
        cases.push(Case { name: trial.name, path: "", value: None });
        cases.extend(per_param.by_ref().take(params.len()).flatten());
    }
    cases
}

/// The maps to measure for one parameter: at its smallest, at its largest and,
/// for a range, spanning both.
fn settings(trial: &Trial, param: Param) -> Vec<Case> {
    let name = trial.name;
    let (low, high) = trial.extremes(param).unwrap_or_else(|| panic!("{name}: no value of {} loads", path_of(param)));
    let mut settings = vec![(low, low), (high, high)];
    if matches!(param, Range(_)) {
        settings.push((low, high));
    }
    settings
        .into_iter()
        .map(|(a, b)| value_of(param, a, b))
        // [high, high] may be refused where [low, high] is not, and so on.
        .filter(|value| trial.load(path_of(param), Some(value.clone())).is_ok())
        .map(|value| Case { name, path: path_of(param), value: Some(value) })
        .collect()
}

/// This test's name, for running it again as a measuring process.
const TEST: &str = "every_generator_at_the_extremes_of_its_parameters_peaks_under_the_budget_at_2048";

#[test]
#[cfg(target_os = "linux")]
fn every_generator_at_the_extremes_of_its_parameters_peaks_under_the_budget_at_2048() {
    if let Ok(spec) = std::env::var(CASE) {
        return measure_case(&spec);
    }
    // As many measuring processes at once as there are cores: each reads its own peak.
    let at_once = std::thread::available_parallelism().map_or(1, usize::from);
    let cases = cases(at_once);
    let mut lines = Vec::new();
    for batch in cases.chunks(at_once) {
        let children: Vec<_> = batch.iter().map(|case| (case, case.spawn())).collect();
        for (case, child) in children {
            let output = child.wait_with_output().expect("the measuring process");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let result = stdout.lines().find_map(|l| l.split_once(RESULT).map(|(_, figures)| figures));
            let result =
                result.unwrap_or_else(|| panic!("{} {}: no figures ({})", case.name, case.label(), output.status));
            let mut fields = result.split_whitespace();
            let peak: u64 = fields.next().and_then(|n| n.parse().ok()).expect("peak in MB");
            let seconds = fields.next().expect("seconds");
            let cpu = fields.next().expect("seconds on a core");
            let outcome: Vec<&str> = fields.collect();
            let line = format!(
                "{:<10} {:<46} {peak:>4} MB {seconds:>6} s ({cpu:>5} s on a core)  {}",
                case.name,
                case.label(),
                outcome.join(" ")
            );
            eprintln!("{line}");
            lines.push((peak, case.name, line));
        }
    }
    for &(name, _) in GENERATORS {
        let worst = lines.iter().filter(|(_, n, _)| *n == name).max_by_key(|(peak, _, _)| *peak);
        eprintln!("worst: {}", worst.expect("each generator was measured").2);
    }
    assert!(lines.len() > 100, "only {} maps were measured", lines.len());
    let over: Vec<&str> = lines.iter().filter(|(peak, _, _)| *peak > BUDGET_MB).map(|(_, _, l)| l.as_str()).collect();
    assert!(over.is_empty(), "over {BUDGET_MB} MB at {SIDE}x{SIDE}:\n{}", over.join("\n"));
}
