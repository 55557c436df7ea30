//! `prefabric check`: load a pack, then generate trial maps of every map type
//! on every core and report what they showed.
//!
//! In: a pack folder (or the built-in pack) and a number of trial seeds per
//! map type. Out: every load problem and lint at its file:line:col; errors for
//! trial generations that failed, for cave encounters too large for every
//! cavern, and (without trials) for room encounters larger than every room the
//! map type's layout can make; warnings for layouts that fall short of their targets, for stairs
//! counts some trial maps missed, and for dead content — feature variant
//! prefabs, encounters, encounter alternatives, layout pool rooms and hallway
//! pieces, and definition lines or alternatives the trial maps never used, each
//! with the reason seen most and an example seed. `--strict` makes warnings errors;
//! `--verbose` lists the files of the pack's folder the pack does not read.
//! The trial seeds are fixed (`0..N`, cycling through the depths that matter),
//! so two runs report the same.

use crate::{Failure, pack_or_fail};
use prefabric::content::maptype::LayoutGenerator;
use prefabric::content::room_sizes;
use prefabric::stats::{MapTypeStats, Stats};
use prefabric::{ErrorKind, Generator, MapType, Pack, Report};
use rayon::prelude::*;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Trial seeds per unit of parallel work.
const CHUNK: u64 = 16;

#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    /// Content pack folder (default: the built-in pack).
    #[arg(long, value_name = "DIR")]
    pack: Option<PathBuf>,
    /// Trial maps generated per map type to catch content that cannot be placed
    /// or is never used (at depth 1 and at every depth where an encounter's
    /// range starts or ends).
    #[arg(long, value_name = "N", default_value_t = 200)]
    seeds: u32,
    /// Treat warnings (content never used, lints) as errors: exit 1 when there
    /// are any. For the CI of a game's content.
    #[arg(long)]
    strict: bool,
    /// Also list the files in the pack's folder that the pack does not read
    /// (renders, notes, backups), each with why.
    #[arg(long, short)]
    verbose: bool,
}

pub(crate) fn check(args: CheckArgs) -> Result<(), Failure> {
    let label = args.pack.as_ref().map_or("the built-in pack".to_string(), |p| p.display().to_string());
    let pack = pack_or_fail(args.pack.as_deref())?;
    if args.verbose {
        let mut out = io::stdout().lock();
        for f in pack.ignored_files() {
            writeln!(out, "{label}/{}: not read: {}", f.path, f.reason)?;
        }
    }
    let CheckReport { mut warnings, unused, errors, failures, retried, notes } = run_checks(&pack, args.seeds)?;
    warnings.extend(unused);
    let map_types = pack.map_types().count();

    let mut err = io::stderr().lock();
    for warning in &warnings {
        writeln!(err, "{warning}")?;
    }
    for note in &notes {
        writeln!(err, "note: {note}")?;
    }
    drop(err);
    let count = |n: usize, what: &str| if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") };
    if !errors.is_empty() {
        // A few of each shape, then how many more: the count below is of them all.
        let mut text: Vec<String> = Report::of(&errors).lines().iter().map(|l| l.to_string()).collect();
        text.extend(failures.iter().cloned());
        return Err(Failure::Problems(format!("{}\n{} found", text.join("\n"), count(errors.len(), "problem"))));
    }
    if !failures.is_empty() {
        return Err(Failure::Problems(format!(
            "{}\n{} failed",
            failures.join("\n"),
            count(failures.len(), "trial generation")
        )));
    }
    if args.strict && !warnings.is_empty() {
        return Err(Failure::Problems(format!(
            "{}, and --strict makes warnings errors",
            count(warnings.len(), "warning")
        )));
    }
    let mut noted =
        if warnings.is_empty() { String::new() } else { format!(" ({})", count(warnings.len(), "warning")) };
    let unread = pack.ignored_files().len();
    if unread > 0 && !args.verbose {
        noted.push_str(&format!("; {} in the folder not read (--verbose lists them)", count(unread, "file")));
    }
    // A world.toml, read and checked with the rest: its lines and their levels.
    let world = pack.world().map_or(String::new(), |w| {
        let levels: u32 = w.lines.iter().map(|l| l.levels()).sum();
        format!(" and a world of {} ({})", count(w.lines.len(), "line"), count(levels as usize, "level"))
    });
    writeln!(
        io::stdout().lock(),
        "ok: pack `{}` ({label}): {} prefabs, {}{world}, {} trial maps each generated ({}){noted}",
        pack.name(),
        pack.prefabs().len(),
        count(map_types, "map type"),
        args.seeds,
        retries(&retried, args.pack.as_deref()),
    )?;
    Ok(())
}

/// How many trial maps needed a retry, naming the first few so a designer can
/// look at them: `--explain` traces the attempt that failed.
fn retries(retried: &[Retried], pack: Option<&std::path::Path>) -> String {
    const NAMED: usize = 3;
    let Some(first) = retried.first() else { return "0 needed a retry".to_string() };
    let named: Vec<String> =
        retried.iter().take(NAMED).map(|r| format!("{} seed {} at depth {}", r.map_type, r.seed, r.depth)).collect();
    let more = match retried.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let pack = pack.map_or(String::new(), |p| format!(" --pack {}", p.display()));
    format!(
        "{} needed a retry: {}{more}; `prefabric generate{pack} --map-type {} --seed {} --depth {} --explain` shows why",
        retried.len(),
        named.join(", "),
        first.map_type,
        first.seed,
        first.depth
    )
}

/// A trial map whose first attempt failed.
pub(crate) struct Retried {
    /// Its map type's name.
    pub(crate) map_type: String,
    pub(crate) seed: u64,
    pub(crate) depth: u32,
}

/// What the trial maps of a pack showed.
pub(crate) struct CheckReport {
    /// Lints and layouts short of their targets.
    pub(crate) warnings: Vec<prefabric::Error>,
    /// Content the trial maps never used.
    pub(crate) unused: Vec<prefabric::Error>,
    /// Content that cannot be placed.
    pub(crate) errors: Vec<prefabric::Error>,
    /// Trial generations that failed, as `file: seed N, depth D: error`.
    pub(crate) failures: Vec<String>,
    /// Trial maps that needed a retry, by map type, then seed.
    pub(crate) retried: Vec<Retried>,
    /// What is worth knowing but no warning: stairs counts some (fewer than
    /// half) of the trial maps missed.
    pub(crate) notes: Vec<String>,
}

/// Generates `seeds_per_map_type` trial maps of every map type of `pack`, on every
/// core, and reports what they showed.
pub(crate) fn run_checks(pack: &Pack, seeds_per_map_type: u32) -> Result<CheckReport, Failure> {
    let map_types: Vec<&MapType> = pack.map_types().collect();
    // Made once: a generator prepares the layout's prefabs in every orientation.
    let generators: Vec<Generator> = map_types
        .iter()
        // Trial maps are counted, never explained: no trace.
        .map(|m| Generator::new(pack, &m.name).map(|g| g.trace(false)).map_err(|e| Failure::Problems(e.to_string())))
        .collect::<Result<_, _>>()?;
    let depths: Vec<Vec<u32>> = map_types.iter().map(|m| trial_depths(m)).collect();
    let seeds = u64::from(seeds_per_map_type);
    let jobs: Vec<(usize, [u64; 2])> = (0..map_types.len())
        .flat_map(|m| (0..seeds).step_by(CHUNK as usize).map(move |lo| (m, [lo, (lo + CHUNK).min(seeds)])))
        .collect();
    let chunks: Vec<(usize, Trials)> =
        jobs.par_iter().map(|&(m, range)| (m, Trials::run(pack, &generators[m], &depths[m], range))).collect();
    let mut trials: Vec<Option<Trials>> = (0..map_types.len()).map(|_| None).collect();
    for (m, chunk) in chunks {
        match &mut trials[m] {
            Some(t) => t.merge(chunk),
            slot @ None => *slot = Some(chunk),
        }
    }

    let mut failures = Vec::new();
    let mut warnings: Vec<prefabric::Error> = pack.warnings().to_vec();
    // Encounters no room the layout can make ever holds: known without trials.
    let mut errors: Vec<prefabric::Error> = room_sizes::encounters_too_large(pack);
    let mut retried = Vec::new();
    let mut notes = Vec::new();
    let mut content = Stats::new(pack);
    for (map_type, mut t) in map_types.iter().zip(trials.into_iter().flatten()) {
        warnings.extend(layout_shortfall(map_type, &mut t.placed));
        warnings.extend(t.content.stairs_shortfall(map_type));
        notes.extend(t.content.stairs_sometimes_short(map_type));
        errors.extend(too_large_for_caverns(map_type, &t.content, seeds_per_map_type));
        failures.extend(
            t.failures
                .into_iter()
                .map(|(seed, depth, e)| format!("{}: seed {seed}, depth {depth}: {e}", map_type.file)),
        );
        retried.extend(t.retried.into_iter().map(|(seed, depth)| Retried {
            map_type: map_type.name.clone(),
            seed,
            depth,
        }));
        content.map_types.insert(map_type.name.clone(), t.content);
    }
    content.finish();
    // Content too large for every cavern or room is an error already; the
    // rest never used, a warning each.
    let unused: Vec<prefabric::Error> = content
        .dead_content(pack)
        .into_iter()
        .filter(|w| !errors.iter().any(|e| e.location() == w.location()))
        .collect();

    Ok(CheckReport { warnings, unused, errors, failures, retried, notes })
}

/// Depth 1 and every depth where an encounter's range starts or ends, so
/// encounters kept from depth 1 are tried too; trial seeds cycle through them.
fn trial_depths(map_type: &MapType) -> Vec<u32> {
    let mut depths: Vec<u32> = vec![1];
    if let Some(pool) = &map_type.encounters {
        for range in pool.pool.iter().flat_map(|e| &e.depth.0) {
            depths.extend([range.lo as u32, range.hi as u32]);
        }
    }
    depths.sort_unstable();
    depths.dedup();
    depths
}

/// What the trial maps of one map type over a range of seeds showed.
struct Trials {
    /// What became of each piece of content.
    content: MapTypeStats,
    /// Prefabs or rooms each chain or pathways map placed.
    placed: Vec<u32>,
    /// Seeds that failed every attempt: seed, depth, error.
    failures: Vec<(u64, u32, String)>,
    /// Maps that needed more than one attempt: seed, depth.
    retried: Vec<(u64, u32)>,
}

impl Trials {
    /// Generates seeds `range[0]..range[1]`, each at the depth its place in the
    /// cycle gives.
    fn run(pack: &Pack, base: &Generator, depths: &[u32], range: [u64; 2]) -> Trials {
        let mut t = Trials {
            content: MapTypeStats::new(pack, base.map_type(), range, depths),
            placed: Vec::new(),
            failures: Vec::new(),
            retried: Vec::new(),
        };
        for seed in range[0]..range[1] {
            let depth = depths[(seed % depths.len() as u64) as usize];
            let started = Instant::now();
            let generator = base.clone().depth(depth);
            match generator.generate(seed) {
                Ok(map) => {
                    t.content.record(&map, started.elapsed());
                    if map.attempt() > 0 {
                        t.retried.push((seed, depth));
                    }
                    let stats = map.layout_stats();
                    t.placed.extend(stats.chain.as_ref().map(|c| c.placed));
                    t.placed.extend(stats.pathways.as_ref().map(|p| p.rooms));
                    generator.recycle(map);
                }
                Err(e) => {
                    t.content.record_failure(seed, depth, &e, started.elapsed());
                    t.failures.push((seed, depth, e.to_string()));
                }
            }
        }
        t
    }

    /// Adds the trials of the next range of seeds.
    fn merge(&mut self, next: Trials) {
        // Ranges come from disjoint chunks, so merging cannot fail.
        let _ = self.content.merge(&next.content);
        self.placed.extend(next.placed);
        self.failures.extend(next.failures);
        self.retried.extend(next.retried);
    }
}

/// A warning when the median trial map of a chain or pathways layout placed
/// fewer than half the prefabs or rooms its map type asks for (`placed`: each
/// such trial map's count).
fn layout_shortfall(map_type: &MapType, placed: &mut [u32]) -> Option<prefabric::Error> {
    let (target, location, what, help) = map_type.generators.iter().find_map(|g| match &g.generator {
        LayoutGenerator::Chain(p) => Some((
            p.target,
            &p.target_location,
            "the chain placed a median of {median} of its {target} target prefabs",
            "raise `attempts`, shorten hallways, give the pool more connectors or smaller prefabs, use a bigger map, or lower `target`",
        )),
        LayoutGenerator::Pathways(p) => Some((
            p.rooms,
            &p.rooms_location,
            "the pathways placed a median of {median} of its {target} rooms",
            "raise `attempts`, allow `over_hallways`, lower `padding`, use smaller rooms or a bigger map, or lower `rooms`",
        )),
        _ => None,
    })?;
    placed.sort_unstable();
    let median = *placed.get(placed.len() / 2)?;
    (median * 2 < target).then(|| {
        let message = what.replace("{median}", &median.to_string()).replace("{target}", &target.to_string());
        prefabric::Error::at(ErrorKind::Lint, location.clone(), format!("{message} over {} trial maps", placed.len()))
            .with_help(help)
    })
}

/// Errors for cave encounters the trial maps never placed because every
/// cavern they were tried in was too small (the dead-content warnings cover
/// the rest), read from the trials' statistics.
fn too_large_for_caverns(map_type: &MapType, content: &MapTypeStats, trials: u32) -> Vec<prefabric::Error> {
    let Some(pool) = map_type.encounters.as_ref().filter(|p| p.count.1 > 0) else { return Vec::new() };
    let mut errors = Vec::new();
    for e in pool.pool.iter().filter(|e| e.style.joins_caverns() && e.weight > 0) {
        let Some(st) = content.encounters.get(&e.id).filter(|st| st.placed == 0) else { continue };
        let skips: u64 = st.not_placed.values().map(|seen| seen.count).sum();
        let too_large = st.not_placed.get(prefabric::SkipReason::TooLarge.name()).map_or(0, |seen| seen.count);
        if skips > 0 && too_large == skips {
            let message = format!(
                "encounter `{}` is too large for any cavern: in {trials} trial maps every cavern it was tried in was too small around its centre (or too near the edge) for each of its prefabs",
                e.id
            );
            let help = "a centered prefab needs two thirds of its rectangle and the ring around it on the cavern's floor: draw a smaller alternative, or open the caves up in [caves] (a lower `fill`, more `iterations`)";
            errors.push(prefabric::Error::at(ErrorKind::Invalid, e.location.clone(), message).with_help(help));
        }
    }
    errors
}
