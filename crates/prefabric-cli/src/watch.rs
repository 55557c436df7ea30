//! `prefabric watch`: check a pack and make one map again every time a file of the
//! pack changes.
//!
//! In: a pack folder, a map type, seed and depth (the seed stays the same from run
//! to run, so an edit shows on the same map), and a viewer file. Out, per run: what
//! `check` finds (with a few trial maps per map type), the map on the terminal, and
//! the HTML viewer rewritten with a stamp file beside it that open viewers poll, so
//! they reload themselves and keep their view. A pack that no longer loads keeps
//! the last map in the viewer with the problems shown above it. Runs until
//! interrupted; changes arriving within [`QUIET`] of each other make one run.
//! Only a change to a file the pack reads (or to a folder) makes a run: an
//! editor's temporary or backup file, a render or notes saved beside the pack
//! make none.

use crate::check::{CheckReport, run_checks};
use crate::generate::{Format, Rendering, map_bytes};
use crate::{Failure, fresh_seed, load_pack, write_atomically};
use notify::{EventKind, RecursiveMode, Watcher};
use prefabric::{Generator, Map, Pack, Report, render};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// How long the pack must stay unchanged before a run starts.
const QUIET: Duration = Duration::from_millis(200);

#[derive(clap::Args)]
pub(crate) struct WatchArgs {
    /// Content pack folder to watch.
    #[arg(long, value_name = "DIR")]
    pack: PathBuf,
    /// Map type to generate (default: the pack's default map type).
    #[arg(long, value_name = "NAME")]
    map_type: Option<String>,
    /// Seed of the map, the same on every run (default: a random one, printed).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::parse_seed)]
    seed: Option<u64>,
    /// Depth the map is generated for.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    depth: u32,
    /// The viewer file to keep up to date; open it in a browser.
    #[arg(long, value_name = "FILE", default_value = "prefabric-watch.html")]
    out: PathBuf,
    /// Trial maps per map type that each run's check generates.
    #[arg(long, value_name = "N", default_value_t = 20)]
    check_seeds: u32,
    /// Do not print the map on the terminal (the viewer still shows it).
    #[arg(long)]
    no_map: bool,
}

/// The last map made, kept for the viewer while the pack is broken.
struct Shown {
    pack: Pack,
    map: Map,
    command: String,
}

pub(crate) fn watch(args: WatchArgs) -> Result<(), Failure> {
    if !args.pack.is_dir() {
        return Err(Failure::Usage(format!("error: {} is not a pack folder", args.pack.display())));
    }
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let stamp_file = stamp_path(&args.out);
    let (tx, rx) = mpsc::channel::<notify::Result<notify::Event>>();
    let mut watcher = notify::recommended_watcher(tx)
        .map_err(|e| Failure::Usage(format!("error: cannot watch files on this system: {e}")))?;
    watcher
        .watch(&args.pack, RecursiveMode::Recursive)
        .map_err(|e| Failure::Usage(format!("error: cannot watch {}: {e}", args.pack.display())))?;
    let ours = [absolute(&args.out), absolute(&stamp_file)];
    let mut shown: Option<Shown> = None;
    let mut changed: Vec<String> = Vec::new();
    let mut run = 0;
    loop {
        run += 1;
        one_run(&args, seed, run, &changed, &mut shown)?;
        changed = wait_for_change(&rx, &ours, &args.pack)?;
    }
}

/// Waits for a change to a file of the pack that is not one of `ours`, then for
/// the pack to stay quiet; returns the files changed, relative to the pack.
fn wait_for_change(
    rx: &mpsc::Receiver<notify::Result<notify::Event>>,
    ours: &[PathBuf],
    pack: &Path,
) -> Result<Vec<String>, Failure> {
    let mut changed: Vec<String> = Vec::new();
    let note = |event: notify::Result<notify::Event>, changed: &mut Vec<String>| match event {
        Ok(e) if !matches!(e.kind, EventKind::Access(_)) => {
            // A file that is gone but was not removed was an editor's or a
            // tool's temporary file: not worth naming.
            let removed = matches!(e.kind, EventKind::Remove(_));
            for path in e.paths.iter().filter(|p| !ours.contains(&absolute(p)) && (removed || p.exists())) {
                let inside = absolute(path);
                let Ok(relative) = inside.strip_prefix(absolute(pack)) else { continue };
                let shown: Vec<String> =
                    relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                let shown = shown.join("/");
                // A folder removed is gone: without an extension it may have been one.
                let folder = path.is_dir() || (removed && !shown.rsplit('/').next().unwrap_or("").contains('.'));
                if worth_a_run(&shown, folder) && !changed.contains(&shown) {
                    changed.push(shown);
                }
            }
        }
        Ok(_) => {}
        Err(e) => eprintln!("warning: watching the pack: {e}"),
    };
    while changed.is_empty() {
        let event = rx.recv().map_err(|_| Failure::Usage("error: the file watcher stopped".into()))?;
        note(event, &mut changed);
    }
    while let Ok(event) = rx.recv_timeout(QUIET) {
        note(event, &mut changed);
    }
    Ok(changed)
}

/// True when a change to `path` (inside the pack, `/`-separated; `folder` when
/// it is or may have been a folder) can change what the pack loads: a file the
/// pack reads ([`prefabric::content::ignored_because`]), or a folder, as moving
/// one moves the files in it. Editors' temporary and backup files are not worth
/// a run, nor are renders, notes or anything else the pack does not read.
fn worth_a_run(path: &str, folder: bool) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    !path.split('/').any(editor_temporary)
        && (folder || prefabric::content::ignored_because(path).is_none())
        && !(folder && name.is_empty())
}

/// True for the name of a file an editor writes beside the one being edited:
/// vim's `.x.swp` and `x~` and its `4913` write test, emacs's `#x#` and `.#x`,
/// JetBrains' `x___jb_tmp___`, and `.tmp`, `.bak`, `.orig` files and the like.
fn editor_temporary(name: &str) -> bool {
    const ENDINGS: [&str; 10] =
        [".tmp", ".temp", ".swp", ".swo", ".swx", ".bak", ".orig", ".crswap", ".kate-swp", ".partial"];
    let lower = name.to_ascii_lowercase();
    name.starts_with('.')
        || name.ends_with('~')
        || (name.len() > 1 && name.starts_with('#') && name.ends_with('#'))
        || (!name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()))
        || name.contains("___jb_tmp___")
        || name.contains("___jb_old___")
        || ENDINGS.iter().any(|ending| lower.ends_with(ending))
}

/// Checks the pack, makes the map and rewrites the viewer.
fn one_run(
    args: &WatchArgs,
    seed: u64,
    run: u32,
    changed: &[String],
    shown: &mut Option<Shown>,
) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    if io::stdout().is_terminal() {
        write!(out, "\x1b[2J\x1b[H")?;
    }
    let when = if changed.is_empty() { "start".to_string() } else { format!("changed: {}", changed.join(", ")) };
    writeln!(out, "== run {run} ({when}) ==")?;
    let pack = match load_pack(Some(&args.pack)) {
        Ok(pack) => pack,
        Err(problems) => {
            // The viewer first: what the terminal says is then on the page too.
            // A few of each shape, then how many more; the count is of them all.
            let lines: Vec<String> = problems.report().lines().iter().map(|l| l.to_string()).collect();
            write_viewer(args, run, shown.as_ref(), &lines)?;
            writeln!(
                out,
                "{}\n{} in the pack; fix and save",
                lines.join("\n"),
                count(problems.len(), "problem", "problems")
            )?;
            out.flush()?;
            return Ok(());
        }
    };
    // A map type that cannot even be prepared is a problem to show, not a
    // reason to stop watching.
    let report = match run_checks(&pack, args.check_seeds) {
        Ok(report) => report,
        Err(Failure::Problems(text) | Failure::Usage(text)) => CheckReport {
            warnings: Vec::new(),
            unused: Vec::new(),
            errors: Vec::new(),
            failures: vec![text],
            retried: Vec::new(),
            notes: Vec::new(),
        },
        Err(Failure::ClosedPipe) => return Err(Failure::ClosedPipe),
    };
    let CheckReport { warnings, unused, errors, failures, retried: _, notes: _ } = report;
    let found = errors.len() + failures.len();
    let mut problems: Vec<String> = Report::of(&errors).lines().iter().map(|l| l.to_string()).chain(failures).collect();
    for line in warnings.iter().map(|w| w.to_string()).chain(problems.iter().cloned()) {
        writeln!(out, "{line}")?;
    }
    // A few trial maps leave rare content unused: counted, not listed.
    let unused = match unused.len() {
        0 => String::new(),
        n => format!(
            "; {} unused in these maps (`prefabric check --pack {}` tries 200 and lists them)",
            count(n, "piece of content", "pieces of content"),
            args.pack.display()
        ),
    };
    writeln!(
        out,
        "check: {}, {} in {} trial maps per map type{unused}",
        count(found, "problem", "problems"),
        count(warnings.len(), "warning", "warnings"),
        args.check_seeds
    )?;
    let map_type = args.map_type.clone().unwrap_or_else(|| pack.default_map_type().to_string());
    let command = format!(
        "prefabric generate --pack {} --map-type {map_type} --seed {seed}{} --out {}",
        args.pack.display(),
        if args.depth == 1 { String::new() } else { format!(" --depth {}", args.depth) },
        args.out.display()
    );
    match Generator::new(&pack, &map_type).and_then(|g| g.depth(args.depth).generate(seed)) {
        Ok(map) => {
            if !args.no_map {
                let format = if io::stdout().is_terminal() { Format::Ansi } else { Format::Ascii };
                let rendering =
                    Rendering { png: render::PngOptions::default(), trace: false, command: command.clone() };
                out.write_all(&map_bytes(&map, &pack, format, &rendering)?)?;
            }
            *shown = Some(Shown { pack, map, command });
        }
        Err(e) => {
            writeln!(out, "{e}")?;
            problems.push(e.to_string());
        }
    }
    drop(out);
    write_viewer(args, run, shown.as_ref(), &problems)?;
    let mut out = io::stdout().lock();
    writeln!(out, "map type {map_type}, seed {seed}; viewer: {} (it reloads itself)", args.out.display())?;
    out.flush()?;
    Ok(())
}

/// Writes the viewer of the last map made, with `problems` above it, then the
/// stamp that tells open viewers to reload.
fn write_viewer(args: &WatchArgs, run: u32, shown: Option<&Shown>, problems: &[String]) -> Result<(), Failure> {
    let Some(shown) = shown else {
        writeln!(io::stdout(), "(the viewer is written once the pack loads and makes a map)")?;
        return Ok(());
    };
    let stamp = format!("{}-{run}", std::process::id());
    let options = render::HtmlOptions {
        command: Some(shown.command.clone()),
        reload_from: stamp_path(&args.out).file_name().map(|n| n.to_string_lossy().into_owned()),
        stamp: stamp.clone(),
        problems: problems.to_vec(),
        ..Default::default()
    };
    write_atomically(&args.out, render::map_html(&shown.map, &shown.pack, &options).as_bytes())?;
    write_atomically(&stamp_path(&args.out), format!("prefabricStamp({stamp:?});\n").as_bytes())
}

/// The script beside the viewer that open viewers poll: `FILE.stamp.js`.
fn stamp_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".stamp.js");
    out.with_file_name(name)
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {many}") }
}

#[cfg(test)]
mod tests {
    use super::worth_a_run;

    #[test]
    fn editor_temporaries_and_files_the_pack_does_not_read_are_no_change() {
        for (path, folder) in [
            ("prefabs/vaults.txt", false),
            ("maps/mines.toml", false),
            ("prefabs/xp/mine_shaft.xp", false),
            ("prefabs/new_folder", true),
            ("catalog/items.toml", false),
        ] {
            assert!(worth_a_run(path, folder), "{path} is a change");
        }
        for (path, folder) in [
            ("prefabs/.vaults.txt.swp", false),
            ("prefabs/.vaults.txt.swx", false),
            ("prefabs/vaults.txt~", false),
            ("prefabs/4913", false),
            ("prefabs/4913", true),
            ("maps/#mines.toml#", false),
            ("maps/.#mines.toml", false),
            ("maps/mines.toml___jb_tmp___", false),
            ("maps/mines.toml___jb_old___", false),
            ("maps/mines.toml.tmp", false),
            ("prefabs/vaults.txt.bak", false),
            ("renders/seed7.png", false),
            ("prefabs/render.png", false),
            ("notes.md", false),
            (".git", true),
        ] {
            assert!(!worth_a_run(path, folder), "{path} is no change");
        }
    }
}
