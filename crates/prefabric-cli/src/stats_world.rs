//! `stats --world`: the pack's world made over many world seeds.
//!
//! In: a pack with a `world.toml`, a range of world seeds and a thread count.
//! Out: how often each branch is in a world and which level holds its
//! entrance, how often each level is made and how often it failed (a world
//! stops at its first level that fails every attempt), how many ways down
//! between levels of one size arrived on the same cell (aligned stairs), and the
//! time taken; as a table, or as JSON with `--json`. Counts add up in any
//! order, so the numbers do not depend on the thread count.

use crate::Failure;
use indicatif::ProgressBar;
use prefabric::{ExitWay, Pack, World};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::Instant;

/// What many worlds of one pack did.
#[derive(Default, Serialize)]
struct WorldStats {
    worlds: u64,
    /// Worlds in which some level failed every attempt.
    failed: u64,
    /// Branch -> its numbers.
    branches: BTreeMap<String, BranchStats>,
    /// Level name -> its numbers.
    levels: BTreeMap<String, LevelStats>,
    /// Ways down (and into branches) between two levels of one size, into a
    /// line with an arrival prefab: those aligned stairs apply to.
    same_size_exits: u64,
    /// Of those, the ones whose arrival is the exit's own cell.
    aligned: u64,
    /// An example failure: the world seed and the error.
    #[serde(skip_serializing_if = "Option::is_none")]
    first_failure: Option<(u64, String)>,
}

#[derive(Default, Serialize)]
struct BranchStats {
    /// Worlds holding it.
    worlds: u64,
    /// Level holding its entrance -> worlds.
    entrances: BTreeMap<String, u64>,
}

#[derive(Default, Serialize)]
struct LevelStats {
    /// Worlds in which it was made.
    made: u64,
    /// Worlds in which it failed every attempt.
    failed: u64,
    /// Its depth -> worlds (a branch level's depth follows its entrance).
    depths: BTreeMap<u32, u64>,
}

impl WorldStats {
    fn add(mut self, other: WorldStats) -> WorldStats {
        self.worlds += other.worlds;
        self.failed += other.failed;
        self.same_size_exits += other.same_size_exits;
        self.aligned += other.aligned;
        for (name, b) in other.branches {
            let mine = self.branches.entry(name).or_default();
            mine.worlds += b.worlds;
            for (level, n) in b.entrances {
                *mine.entrances.entry(level).or_default() += n;
            }
        }
        for (name, l) in other.levels {
            let mine = self.levels.entry(name).or_default();
            mine.made += l.made;
            mine.failed += l.failed;
            for (depth, n) in l.depths {
                *mine.depths.entry(depth).or_default() += n;
            }
        }
        self.first_failure = match (self.first_failure, other.first_failure) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        self
    }

    /// Makes world `seed` and counts it.
    fn record(&mut self, pack: &Pack, seed: u64) -> Result<(), Failure> {
        let mut world = World::new(pack, seed).map_err(|e| Failure::Usage(e.to_string()))?.trace(false);
        self.worlds += 1;
        let result = world.make_all();
        let plan = world.plan().clone();
        for b in &plan.branches {
            let name = &world.spec().lines[b.line].name;
            let entry = self.branches.entry(name.clone()).or_default();
            if let Some(e) = b.entrance {
                entry.worlds += 1;
                *entry.entrances.entry(plan.levels[e].name.clone()).or_default() += 1;
            }
        }
        let made = world.maps().len();
        for (i, level) in plan.levels.iter().enumerate().take(made + 1) {
            let entry = self.levels.entry(level.name.clone()).or_default();
            if i < made {
                entry.made += 1;
                *entry.depths.entry(level.depth).or_default() += 1;
            } else {
                entry.failed += 1;
            }
        }
        if let Err(e) = result {
            self.failed += 1;
            if self.first_failure.is_none() {
                self.first_failure = Some((seed, e.to_string()));
            }
        }
        let maps = world.maps();
        for map in maps {
            for exit in map.exits().iter().filter(|e| e.way != ExitWay::Up) {
                let Some(to) = exit.to.as_deref().and_then(|t| plan.index(t)).filter(|&t| t < maps.len()) else {
                    continue;
                };
                let asks =
                    world.spec().aligned_stairs && world.spec().lines[plan.levels[to].line].arrival_prefab.is_some();
                if asks && (maps[to].width(), maps[to].height()) == (map.width(), map.height()) {
                    self.same_size_exits += 1;
                    self.aligned += u64::from(exit.arrival == Some(exit.at));
                }
            }
        }
        Ok(())
    }
}

/// Runs `stats --world`.
pub(crate) fn run(pack: &Pack, seeds: [u64; 2], threads: Option<usize>, json: bool) -> Result<(), Failure> {
    if pack.world().is_none() {
        return Err(Failure::Usage(format!(
            "error: pack `{}` has no world.toml: `stats --world` makes the pack's world (docs/worlds.md)",
            pack.name()
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::Usage(format!("error: cannot start the worker threads: {e}")))?;
    let bar = ProgressBar::new(seeds[1] - seeds[0]);
    let started = Instant::now();
    let stats = pool.install(|| {
        (seeds[0]..seeds[1])
            .into_par_iter()
            .try_fold(WorldStats::default, |mut stats, seed| {
                stats.record(pack, seed)?;
                bar.inc(1);
                Ok::<_, Failure>(stats)
            })
            .try_reduce(WorldStats::default, |a, b| Ok(a.add(b)))
    })?;
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let mut out = io::stdout().lock();
    if json {
        // Plain structs of numbers, strings and maps always serialise.
        writeln!(out, "{}", serde_json::to_string_pretty(&stats).unwrap_or_default())?;
    } else {
        write!(out, "{}", table(&stats))?;
    }
    out.flush()?;
    drop(out);
    let threads = pool.current_num_threads();
    writeln!(
        io::stderr().lock(),
        "{} worlds in {elapsed:.1} s on {threads} thread{}: {:.1} worlds/s",
        stats.worlds,
        if threads == 1 { "" } else { "s" },
        stats.worlds as f64 / elapsed.max(1e-9)
    )?;
    Ok(())
}

fn percent(n: u64, of: u64) -> String {
    format!("{:.1}%", 100.0 * n as f64 / of.max(1) as f64)
}

/// The statistics as a table.
fn table(s: &WorldStats) -> String {
    let mut t = String::new();
    let levels: u64 = s.levels.values().map(|l| l.made).sum();
    t += &format!(
        "worlds: {}, failed {} ({}); {:.1} levels per world\n",
        s.worlds,
        s.failed,
        percent(s.failed, s.worlds),
        levels as f64 / s.worlds.max(1) as f64
    );
    if let Some((seed, error)) = &s.first_failure {
        t += &format!("  first failure: world seed {seed}: {error}\n");
    }
    t += &format!(
        "aligned stairs: {} of {} ways into a level of the same size with an arrival prefab ({})\n\nbranch          in worlds   entrance on (worlds)\n",
        s.aligned,
        s.same_size_exits,
        percent(s.aligned, s.same_size_exits)
    );
    for (name, b) in &s.branches {
        let entrances: Vec<String> = b.entrances.iter().map(|(level, n)| format!("{level} {n}")).collect();
        t += &format!("{name:<15} {:>9}   {}\n", percent(b.worlds, s.worlds), entrances.join(", "));
    }
    t += "\nlevel             made   failed   depths (worlds)\n";
    let mut order: Vec<(&String, &LevelStats)> = s.levels.iter().collect();
    order.sort_by_key(|(name, l)| {
        (l.depths.keys().next().copied().unwrap_or(0), name.split(':').next(), level_number(name))
    });
    for (name, l) in order {
        let depths: Vec<String> = l.depths.iter().map(|(d, n)| format!("{d}: {n}")).collect();
        t += &format!(
            "{name:<15} {:>6}   {:>6}   {}\n",
            l.made,
            percent(l.failed, l.made + l.failed),
            depths.join(", ")
        );
    }
    t
}

fn level_number(name: &str) -> u32 {
    name.rsplit_once(':').and_then(|(_, n)| n.parse().ok()).unwrap_or(0)
}
