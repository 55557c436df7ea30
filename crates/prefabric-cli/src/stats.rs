//! `prefabric stats`: many maps generated on every core, and what became of each
//! piece of content — printed as a table, or as JSON that `stats merge` adds up,
//! and with `--html` written as a report with plots as well.
//!
//! In: a pack, map types, a seed range and depths (or JSON files to merge). Out:
//! the library's [`Stats`] over every map, the same whatever the number of
//! threads (but for the times). A progress bar is drawn on a terminal only.

use crate::{Failure, pack_or_fail, stats_html, write_file};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use prefabric::stats::{MapTypeStats, Seen, Stats};
use prefabric::{Generator, Pack};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Seeds a worker takes at a time.
const CHUNK: u64 = 32;

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct StatsArgs {
    #[command(subcommand)]
    merge: Option<MergeCommand>,
    /// Content pack folder (default: the built-in pack).
    #[arg(long, value_name = "DIR")]
    pack: Option<PathBuf>,
    /// Map types to run, by name; repeat for several (default: all of the pack's).
    #[arg(long, value_name = "NAME")]
    map_type: Vec<String>,
    /// The seeds: a count from 0 (`10000`) or a half-open range (`5000..15000`).
    #[arg(long, value_name = "N|A..B", default_value = "1000", value_parser = parse_seeds)]
    seeds: SeedRange,
    /// Depths to generate every seed at: one (`3`), a list (`1,5,9`) or a range (`1-10`).
    #[arg(long, value_name = "LIST", default_value = "1", value_parser = parse_depths)]
    depth: Depths,
    /// Print the statistics as JSON (docs/json-schema.md documents the schema) instead of a table.
    #[arg(long)]
    json: bool,
    /// Also write the statistics as a self-contained HTML report, with plots, to this file.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Make the pack's world (world.toml) for each seed instead: how often each
    /// branch appears and where, and each level's failure rate.
    #[arg(long, conflicts_with_all = ["map_type", "html"])]
    world: bool,
}

#[derive(clap::Subcommand)]
enum MergeCommand {
    /// Add up the JSON statistics of disjoint seed ranges of one pack.
    Merge {
        /// Files written by `prefabric stats --json`.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print the merged statistics as JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Also write the merged statistics as a self-contained HTML report, with plots, to this file.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
}

/// A half-open range of seeds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SeedRange {
    first: u64,
    end: u64,
}

fn parse_seeds(s: &str) -> Result<SeedRange, String> {
    let number = |t: &str| t.trim().parse::<u64>().map_err(|_| format!("`{t}` is not a seed count or range"));
    let range = match s.split_once("..") {
        Some((a, b)) => SeedRange { first: number(a)?, end: number(b)? },
        None => SeedRange { first: 0, end: number(s)? },
    };
    if range.end <= range.first {
        return Err(format!("`{s}` holds no seeds: write a count (`1000`) or a range A..B with A < B"));
    }
    Ok(range)
}

/// The depths, sorted, each once.
#[derive(Clone, Debug)]
pub(crate) struct Depths(Vec<u32>);

fn parse_depths(s: &str) -> Result<Depths, String> {
    let depth = |t: &str| match t.trim().parse::<u32>() {
        Ok(d) if (1..=1_000_000).contains(&d) => Ok(d),
        _ => Err(format!("`{t}` is not a depth from 1 to 1000000")),
    };
    let mut depths = Vec::new();
    for part in s.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (depth(a)?, depth(b)?);
                if b < a || b - a > 1000 {
                    return Err(format!("`{part}` is not a range of at most 1000 depths, low to high"));
                }
                depths.extend(a..=b);
            }
            None => depths.push(depth(part)?),
        }
    }
    depths.sort_unstable();
    depths.dedup();
    Ok(Depths(depths))
}

pub(crate) fn stats(args: StatsArgs) -> Result<(), Failure> {
    if let Some(MergeCommand::Merge { files, json, html }) = args.merge {
        return merge(&files, json, html.as_deref());
    }
    let pack = pack_or_fail(args.pack.as_deref())?;
    if args.world {
        return crate::stats_world::run(&pack, [args.seeds.first, args.seeds.end], args.threads, args.json);
    }
    let names: Vec<String> = if args.map_type.is_empty() {
        pack.map_types().map(|m| m.name.clone()).collect()
    } else {
        args.map_type.clone()
    };
    let generators: Vec<Generator> = names
        .iter()
        // Statistics read the maps, never their traces: leaving them out is faster.
        .map(|name| Generator::new(&pack, name).map(|g| g.trace(false)).map_err(|e| Failure::Usage(e.to_string())))
        .collect::<Result<_, _>>()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::Usage(format!("error: cannot start the worker threads: {e}")))?;
    let SeedRange { first, end } = args.seeds;
    let depths = &args.depth.0;
    let total = (end - first).saturating_mul(depths.len() as u64).saturating_mul(generators.len() as u64);
    let bar = progress_bar(total);
    let started = Instant::now();
    // Every map type's chunks in one pool of work, so no core waits for the
    // last chunk of one map type before the next starts.
    let chunks: Vec<[u64; 2]> =
        (first..end).step_by(CHUNK as usize).map(|lo| [lo, lo.saturating_add(CHUNK).min(end)]).collect();
    let jobs: Vec<(usize, [u64; 2])> =
        (0..generators.len()).flat_map(|g| chunks.iter().map(move |&c| (g, c))).collect();
    let heat_maps = args.html.is_some();
    // Each worker adds its chunks up as it goes (heat maps make a chunk's
    // statistics large); counts add up in any order.
    let stats = pool.install(|| {
        jobs.par_iter()
            .fold(
                || Stats::new(&pack),
                |mut stats, &(g, seeds)| {
                    let chunk = run_chunk(&pack, &generators[g], seeds, depths, heat_maps, &bar);
                    add_chunk(&mut stats, &generators[g].map_type().name, chunk);
                    stats
                },
            )
            .reduce(
                || Stats::new(&pack),
                |mut a, b| {
                    for (name, chunk) in b.map_types {
                        add_chunk(&mut a, &name, chunk);
                    }
                    a
                },
            )
    });
    let mut stats = stats;
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    stats.finish();
    print(&stats, args.json, args.html.as_deref(), &pack_flag(args.pack.as_deref()))?;
    let threads = pool.current_num_threads();
    let mut err = io::stderr().lock();
    writeln!(
        err,
        "{total} maps in {elapsed:.1} s on {threads} thread{}: {:.0} maps/s",
        if threads == 1 { "" } else { "s" },
        total as f64 / elapsed.max(1e-9)
    )?;
    Ok(())
}

/// Adds the statistics of one map type's chunk of seeds.
fn add_chunk(stats: &mut Stats, name: &str, chunk: MapTypeStats) {
    match stats.map_types.get_mut(name) {
        // Chunks are disjoint by construction, so merging cannot fail.
        Some(m) => {
            let _ = m.merge(&chunk);
        }
        None => {
            stats.map_types.insert(name.to_string(), chunk);
        }
    }
}

/// Generates seeds `seeds[0]..seeds[1]` at every depth, recording heat maps
/// when `heat_maps`.
fn run_chunk(
    pack: &Pack,
    generator: &Generator,
    seeds: [u64; 2],
    depths: &[u32],
    heat_maps: bool,
    bar: &ProgressBar,
) -> MapTypeStats {
    let mut stats = MapTypeStats::new(pack, generator.map_type(), seeds, depths);
    if heat_maps {
        stats = stats.with_heat_maps(generator.map_type());
    }
    for &depth in depths {
        let generator = generator.clone().depth(depth);
        for seed in seeds[0]..seeds[1] {
            let started = Instant::now();
            match generator.generate(seed) {
                Ok(map) => {
                    stats.record(&map, started.elapsed());
                    generator.recycle(map);
                }
                Err(e) => stats.record_failure(seed, depth, &e, started.elapsed()),
            }
        }
        bar.inc(seeds[1] - seeds[0]);
    }
    stats
}

/// A bar on standard error when it is a terminal; none otherwise.
fn progress_bar(total: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} maps, {per_sec}, {eta} left") {
        bar.set_style(style);
    }
    bar
}

fn merge(files: &[PathBuf], json: bool, html: Option<&Path>) -> Result<(), Failure> {
    let mut merged: Option<Stats> = None;
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::Usage(format!("error: cannot read {}: {e}", file.display())))?;
        let stats = Stats::from_json(&text).map_err(|e| {
            Failure::Usage(format!(
                "error: {} is not statistics written by `prefabric stats --json`: {e}",
                file.display()
            ))
        })?;
        match &mut merged {
            None => merged = Some(stats),
            Some(m) => {
                m.merge(&stats).map_err(|e| Failure::Usage(format!("error: cannot merge {}: {e}", file.display())))?
            }
        }
    }
    let Some(stats) = merged else { return Ok(()) };
    // The statistics name their pack, not its folder: the built-in one needs
    // no flag, another one a folder the reader fills in.
    let builtin = Pack::embedded().ok().is_some_and(|p| p.name() == stats.pack);
    print(&stats, json, html, if builtin { "" } else { " --pack PACK_DIR" })
}

/// Writes the HTML report to `html` when asked, then prints the statistics
/// as a table or JSON (the report first, so a reader closing the pipe early
/// does not lose it).
fn print(stats: &Stats, json: bool, html: Option<&Path>, pack_flag: &str) -> Result<(), Failure> {
    if let Some(path) = html {
        write_file(path, stats_html::report(stats, pack_flag).as_bytes())?;
    }
    let mut out = io::stdout().lock();
    if json {
        writeln!(out, "{}", stats.to_json())?;
    } else {
        write!(out, "{}", table(stats))?;
    }
    Ok(())
}

/// `--pack DIR` as a command line writes it (quoted when it has a space), or
/// nothing for the built-in pack.
fn pack_flag(pack: Option<&Path>) -> String {
    let Some(dir) = pack else { return String::new() };
    let shown = dir.display().to_string();
    if shown.contains(char::is_whitespace) { format!(" --pack '{shown}'") } else { format!(" --pack {shown}") }
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn example(seen: &Seen) -> String {
    format!("e.g. seed {} depth {}", seen.example_seed, seen.example_depth)
}

fn seeds_text(seeds: &[[u64; 2]]) -> String {
    seeds.iter().map(|[a, b]| format!("{a}..{b}")).collect::<Vec<_>>().join(", ")
}

/// The prefabs and encounters never placed, each once: an encounter never
/// placed names its alternatives, which are not listed again.
fn never_placed(s: &mut String, m: &MapTypeStats) {
    let unplaced_encounter = |id: &str| m.encounters.get(id).is_some_and(|e| e.placed == 0);
    let mut lines = Vec::new();
    for (p, st) in &m.prefabs {
        let Some(u) = &st.unused else { continue };
        // Its reason is its first user's: an encounter never placed says it below.
        let first_user = st.used_by.iter().find(|b| b.starts_with("variant ") || b.starts_with("encounter "));
        if st.skipped.is_empty()
            && first_user.and_then(|b| b.strip_prefix("encounter ")).is_some_and(unplaced_encounter)
        {
            continue;
        }
        let seed = u.example_seed.map_or(String::new(), |seed| format!(" (e.g. seed {seed})"));
        lines.push(format!("  {p:<32} {}{seed}", u.reason));
    }
    for (id, e) in m.encounters.iter().filter(|(_, e)| e.placed == 0) {
        let why = e.not_placed.iter().max_by_key(|(_, w)| w.count).map_or("never drawn".to_string(), |(r, w)| {
            format!("{} in {} maps ({})", e.why(r, w), w.count, example(w))
        });
        let alternatives = if e.prefabs.is_empty() { String::new() } else { format!(" ({})", e.prefabs.join(", ")) };
        lines.push(format!("  encounter `{id}`{alternatives} was never placed: {why}"));
    }
    if !lines.is_empty() {
        let _ = writeln!(s, "\n  never placed:");
        for line in lines {
            let _ = writeln!(s, "{line}");
        }
    }
}

/// The statistics as a readable report.
pub(crate) fn table(stats: &Stats) -> String {
    let mut s = String::new();
    for (name, m) in &stats.map_types {
        let depths: Vec<String> = m.depths.iter().map(u32::to_string).collect();
        let _ = writeln!(
            s,
            "map type `{name}`: {} maps (seeds {}, depth {}), {} failed",
            m.maps,
            seeds_text(&m.seeds),
            depths.join(","),
            m.failed
        );
        let slowest = m
            .time
            .slowest
            .as_ref()
            .map_or(String::new(), |w| format!(", slowest seed {} depth {} at {:.2} ms", w.seed, w.depth, w.ms));
        let _ = writeln!(s, "  time per map: median {:.2} ms, p99 {:.2} ms{slowest}", m.time.median_ms, m.time.p99_ms);
        for (way, st) in &m.stairs {
            let missed = st.short.as_ref().map_or("met in every map".to_string(), |w| {
                let share = w.count as f64 / m.maps.max(1) as f64;
                format!("fewer in {} maps ({}), fewest {} ({})", w.count, percent(share), st.fewest, example(w))
            });
            let _ = writeln!(s, "  stairs {way}: {} asked, {missed}", st.asked);
        }
        for f in m.failures.iter().take(5) {
            let _ =
                writeln!(s, "  failed: seed {} depth {}: {}", f.seed, f.depth, f.error.lines().next().unwrap_or(""));
        }
        if !m.variants.is_empty() {
            let _ = writeln!(s, "\n  {:<32} {:>8} {:>13}", "feature variant", "chosen", "weight share");
            for (v, st) in &m.variants {
                let _ = writeln!(s, "  {v:<32} {:>8} {:>13}", percent(st.share), percent(st.weight_share));
            }
        }
        if !m.encounters.is_empty() {
            let _ = writeln!(
                s,
                "\n  {:<24} {:>8} {:>15} {:>8} {:>11} {:>8}  taken out without placing",
                "encounter", "in maps", "95%", "per map", "of placed", "weight"
            );
            let _ = writeln!(s, "  {:<80}  (maps where it was taken out, by why, with the first seed)", "");
            for (id, e) in &m.encounters {
                let [lo, hi] = e.map_share_95;
                let mut reasons: Vec<(&String, &Seen)> = e.not_placed.iter().collect();
                reasons.sort_by_key(|(r, w)| (std::cmp::Reverse(w.count), r.as_str()));
                let why: Vec<String> =
                    reasons.iter().map(|(r, w)| format!("{r} {} (seed {})", w.count, w.example_seed)).collect();
                let why = why.join(", ");
                let _ = writeln!(
                    s,
                    "  {id:<24} {:>8} {:>15} {:>8.2} {:>11} {:>8}  {why}",
                    percent(e.map_share),
                    format!("{:.1}-{:.1}%", 100.0 * lo, 100.0 * hi),
                    e.mean_per_map,
                    percent(e.placement_share),
                    percent(e.weight_share)
                );
            }
        }
        let _ = writeln!(s, "\n  {:<32} {:>8} {:>8}  by transform", "prefab", "placed", "in maps");
        for (p, st) in m.prefabs.iter().filter(|(_, st)| st.placed > 0) {
            let turns: Vec<String> = st.transforms.iter().map(|(t, n)| format!("{t} {n}")).collect();
            let _ = writeln!(
                s,
                "  {p:<32} {:>8} {:>8}  {}",
                st.placed,
                percent(st.maps as f64 / m.maps.max(1) as f64),
                turns.join(", ")
            );
        }
        never_placed(&mut s, m);
        let mut definitions_shown = false;
        for d in m.definitions.values().filter(|d| d.placements > 0) {
            for line in &d.lines {
                let unused_alternatives: Vec<&str> = if line.objects > 0 && line.alternatives.len() > 1 {
                    line.alternatives.iter().filter(|a| a.objects == 0).map(|a| a.written.as_str()).collect()
                } else {
                    Vec::new()
                };
                if line.unused.is_none() && unused_alternatives.is_empty() {
                    continue;
                }
                if !definitions_shown {
                    let _ = writeln!(s, "\n  definition lines and alternatives that gave no object:");
                    definitions_shown = true;
                }
                let at = format!("{}:{} `{}`", d.file, line.line, line.glyph);
                match &line.unused {
                    Some(u) => {
                        let _ = writeln!(s, "  {at}: {}", u.reason);
                    }
                    None => {
                        let _ = writeln!(s, "  {at}: never picked {}", unused_alternatives.join(", "));
                    }
                }
            }
        }
        if !m.furnishing.compositions.is_empty() {
            let _ = writeln!(s, "\n  {:<32} {:>8} {:>14}", "furnishing composition", "areas", "objects/map");
            for (c, st) in &m.furnishing.compositions {
                let _ = writeln!(s, "  {c:<32} {:>8} {:>14.1}", st.areas, st.objects_per_map);
            }
            for (limit, seen) in &m.furnishing.limits_hit {
                let share = seen.count as f64 / m.maps.max(1) as f64;
                let _ = writeln!(s, "  limit `{limit}` reached in {} of maps ({})", percent(share), example(seen));
            }
        }
        let _ = writeln!(s);
    }
    s
}
