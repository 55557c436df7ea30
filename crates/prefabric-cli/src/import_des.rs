//! `prefabric import-des`: Dungeon Crawl Stone Soup vault files into a pack.
//!
//! Reads the `.des` files given (folders are searched for them), imports them
//! into a copy of the base pack (the built-in one unless `--base`) with the
//! importer (the `prefabric-des` crate), writes the pack to `--out`, and
//! prints what became of the maps: read, imported whole, imported with losses,
//! skipped by reason.
//! Every loss and skip, with its file and line, goes to `IMPORT-REPORT.txt` in
//! the pack; headers with a key DCSS does not know are warned about on standard
//! error. When no map was imported it says why and exits 1.

use crate::{Failure, read_text};
use prefabric::content::SourceFile;
use prefabric::{Limits, Moves, Pack};
use prefabric_des::{self as des, Outcome, Report};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub(crate) struct ImportDesArgs {
    /// `.des` files, or folders to search for them.
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// The folder to write the pack to (created; must be empty unless --force).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The pack to add the vaults to (default: the built-in pack).
    #[arg(long, value_name = "DIR")]
    base: Option<PathBuf>,
    /// Name of the encounter pool written (encounters/NAME.toml) and prefix of
    /// the map types.
    #[arg(long, value_name = "NAME", default_value = "dcss")]
    pool: String,
    /// Write into a folder that is not empty, replacing files of the same name.
    #[arg(long)]
    force: bool,
    /// How your game's walkers step, written into the pack's palette:
    /// `diagonal` (DCSS's rule: across corners too) or `orthogonal` (to the four
    /// sides only: doors entered across a corner are walled, and vaults held
    /// together only diagonally are skipped).
    #[arg(long, value_name = "RULE", default_value = "diagonal", value_parser = parse_moves)]
    moves: Moves,
}

fn parse_moves(s: &str) -> Result<Moves, String> {
    Moves::parse(s).ok_or_else(|| format!("`{s}` is not a movement rule: write `diagonal` or `orthogonal`"))
}

/// The most `.des` files one import reads.
const MAX_FILES: usize = 10_000;

pub(crate) fn import_des(args: ImportDesArgs) -> Result<(), Failure> {
    let started = Instant::now();
    if args.pool.is_empty() || !args.pool.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(Failure::Usage(format!(
            "error: `{}` is not a pool name: use letters, digits, `_` and `-`",
            args.pool
        )));
    }
    let limits = Limits::default();
    let mut paths = Vec::new();
    for f in &args.files {
        collect(f, &mut paths)?;
    }
    if paths.is_empty() {
        return Err(Failure::Usage("error: no .des file among the files and folders given".into()));
    }
    let mut sources = Vec::new();
    for p in &paths {
        sources.push(des::Source { name: p.display().to_string(), text: read_text(p, &limits)? });
    }
    let base = match &args.base {
        Some(dir) => {
            Pack::read_files(dir, &limits).map_err(|p| Failure::Problems(format!("{p}\nthe base pack has problems")))?
        }
        None => Pack::embedded_files(),
    };
    prepare_out(&args.out, args.force)?;
    let options = des::Options { pool: args.pool.clone(), base: base.clone(), limits, moves: args.moves };
    let imported = des::import(&sources, &options).map_err(|p| Failure::Problems(p.to_string()))?;
    let took = started.elapsed();

    // The base pack's files, then the import's (which replace some of them).
    let mut files: Vec<SourceFile> =
        base.into_iter().filter(|f| !imported.files.iter().any(|g| g.path == f.path)).collect();
    files.extend(imported.files);
    let report_text = full_report(&imported.report, &args);
    files.push(SourceFile { path: "IMPORT-REPORT.txt".into(), bytes: report_text.into_bytes() });
    for f in &files {
        let path = args.out.join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure::Usage(format!("error: cannot create {}: {e}", dir.display())))?;
        }
        crate::write_atomically(&path, &f.bytes)?;
    }
    let mut err = io::stderr().lock();
    for warning in &imported.report.warnings {
        writeln!(err, "{warning}")?;
    }
    drop(err);
    let mut out = io::stdout().lock();
    write!(out, "{}", summary(&imported.report, took.as_secs_f64()))?;
    let report_file = args.out.join("IMPORT-REPORT.txt");
    if imported.report.imported() == 0 {
        return Err(Failure::Problems(nothing_imported(&imported.report, &report_file)));
    }
    writeln!(
        out,
        "wrote {} files to {} (every loss and skip: {})",
        files.len(),
        args.out.display(),
        report_file.display()
    )?;
    writeln!(out, "try: prefabric generate --pack {} --map-type {}_rooms", args.out.display(), args.pool)?;
    Ok(())
}

/// Adds `path` if it is a `.des` file, or every `.des` file under it (sorted)
/// if it is a folder.
fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), Failure> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| Failure::Usage(format!("error: cannot read {}: {e}", path.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "des") {
                collect(&e, out)?;
            }
        }
    } else if path.exists() {
        out.push(path.to_path_buf());
    } else {
        return Err(Failure::Usage(format!("error: {} does not exist", path.display())));
    }
    if out.len() > MAX_FILES {
        return Err(Failure::Usage(format!("error: more than {MAX_FILES} .des files")));
    }
    Ok(())
}

/// Creates the output folder; one that holds anything is refused without
/// `force`.
fn prepare_out(dir: &Path, force: bool) -> Result<(), Failure> {
    if dir.exists() {
        let empty = std::fs::read_dir(dir)
            .map_err(|e| Failure::Usage(format!("error: cannot read {}: {e}", dir.display())))?
            .next()
            .is_none();
        if !empty && !force {
            return Err(Failure::Usage(format!(
                "error: {} is not empty; give an empty or new folder, or --force to write into it",
                dir.display()
            )));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| Failure::Usage(format!("error: cannot create {}: {e}", dir.display())))
}

/// Why an import placed nothing in the pack: how many maps were read and why
/// they were skipped, and where each map's own reason is.
fn nothing_imported(r: &Report, report_file: &Path) -> String {
    let why = if r.read() == 0 {
        "the files hold no map (no `NAME:` line)".to_string()
    } else {
        let reasons: Vec<String> = r.skips_by_reason().iter().map(|(reason, n)| format!("{n} {reason}")).collect();
        let maps =
            if r.read() == 1 { "the one map read was".to_string() } else { format!("all {} maps read were", r.read()) };
        format!("{maps} skipped ({})", reasons.join(", "))
    };
    format!(
        "error: nothing was imported: {why}\n  help: every map's reason, at its file:line, is in {}",
        report_file.display()
    )
}

/// The counts, as printed.
fn summary(r: &Report, seconds: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "maps read:               {:>6}", r.read());
    let _ = writeln!(s, "imported without loss:   {:>6}", r.whole());
    let _ = writeln!(s, "imported with losses:    {:>6}", r.with_losses());
    let _ = writeln!(s, "skipped:                 {:>6}", r.skipped());
    for (reason, n) in r.skips_by_reason() {
        let _ = writeln!(s, "  {reason:<23}{n:>6}");
    }
    let losses = r.losses_by_kind();
    if !losses.is_empty() {
        let _ = writeln!(s, "losses (maps with each):");
        for (kind, n) in losses.iter().take(12) {
            let _ = writeln!(s, "  {n:>6}  {kind}");
        }
        if losses.len() > 12 {
            let _ = writeln!(s, "  … and {} more kinds (see the report)", losses.len() - 12);
        }
    }
    if !r.errors.is_empty() {
        let _ = writeln!(s, "lines outside any map that could not be read: {}", r.errors.len());
    }
    let _ = writeln!(s, "took {seconds:.2} s");
    s
}

/// Every map and what became of it, for IMPORT-REPORT.txt.
fn full_report(r: &Report, args: &ImportDesArgs) -> String {
    let mut s = String::new();
    let files: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    let _ = writeln!(s, "# prefabric import-des {} --out {}", files.join(" "), args.out.display());
    let _ = writeln!(s, "#");
    for line in summary(r, 0.0).lines().filter(|l| !l.starts_with("took")) {
        let _ = writeln!(s, "# {line}");
    }
    let _ = writeln!(s);
    for e in r.errors.iter().chain(&r.warnings) {
        let _ = writeln!(s, "{e}");
    }
    for m in &r.maps {
        match &m.outcome {
            Outcome::Imported { prefabs, placed, losses } => {
                let state = if losses.is_empty() { "imported" } else { "imported with losses" };
                let _ = writeln!(s, "{}: {state}: `{}` as {}: {placed}", m.at, m.name, prefabs.join(", "));
                for l in losses {
                    let _ = writeln!(s, "  {}: loss: {}", l.at, l.what);
                }
            }
            Outcome::Skipped(skip) => {
                let _ = writeln!(s, "{}: skipped: `{}`: {}: {}", skip.at, m.name, skip.reason, skip.detail);
            }
        }
    }
    s
}
