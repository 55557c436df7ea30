//! `prefabric.stats()` and `prefabric.Stats`: many maps generated on every
//! core, and what became of each piece of content.
//!
//! In: a pack, map types, a half-open seed range and depths. Out: the library's
//! statistics over every map — the same as `prefabric stats --json` gives for
//! the same arguments, whatever the number of threads, but for the times —
//! run with the GIL released in chunks of seeds over every core, as the
//! command runs them. Statistics of disjoint seed ranges merge (`a.merge(b)`)
//! into those of the union, and go to JSON and back, so a run can be split
//! across processes or machines and added up.

use crate::args;
use crate::pack::PyPack;
use prefabric::stats::{MapTypeStats, Stats};
use prefabric::{Generator, Pack};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::time::Instant;

/// Seeds a worker takes at a time (as the command line does).
const CHUNK: u64 = 32;

/// Statistics over many maps of one or more map types of a pack.
///
/// Made by prefabric.stats(...) or Stats.from_json(text). a.merge(b) adds
/// b's maps (of other seeds) to a's. to_json() is what `prefabric stats
/// --json` prints, and what `prefabric stats merge` reads.
#[pyclass(module = "prefabric", name = "Stats")]
pub struct PyStats {
    stats: Stats,
}

/// Generates the maps of the seeds `[first, end)` at every depth, recording each.
fn run_chunk(pack: &Pack, generator: &Generator<'_>, seeds: [u64; 2], depths: &[u32]) -> MapTypeStats {
    let mut stats = MapTypeStats::new(pack, generator.map_type(), seeds, depths);
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
    }
    stats
}

/// The map types `map_type` names: None for all of the pack's, a name, or a
/// list of names.
fn map_type_names(pack: &Pack, map_type: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    match map_type.filter(|m| !m.is_none()) {
        None => Ok(pack.map_types().map(|m| m.name.clone()).collect()),
        Some(name) if name.is_instance_of::<PyString>() => Ok(vec![name.extract()?]),
        Some(names) => {
            let names: Vec<String> = names.extract().map_err(|_| {
                PyTypeError::new_err("map_type must be a map type's name, a list of names, or None for all")
            })?;
            if names.is_empty() {
                return Err(PyValueError::new_err("map_type is an empty list: name at least one map type"));
            }
            Ok(names)
        }
    }
}

/// Statistics over many maps of `pack`: every seed of `seeds` at every depth
/// of `depths`, for the map type `map_type` (a name, a list of names, or None
/// for every map type of the pack).
///
/// seeds: a count N (seeds 0 to N-1), a range(first, end) with step 1, or a
/// pair (first, end); default 1000. depths: a depth or an iterable of depths
/// (each 1 to 1,000,000); default depth 1. The maps are generated on every
/// core with the GIL released, as `prefabric stats` does (`threads` sets how
/// many threads instead: 1 in a process that already runs one task per core,
/// as a dask worker does); the statistics are the same whatever the number of
/// threads, but for the times.
#[pyfunction]
#[pyo3(signature = (pack, map_type = None, seeds = None, depths = None, *, threads = None))]
pub(crate) fn stats(
    py: Python<'_>,
    pack: &Bound<'_, PyPack>,
    map_type: Option<&Bound<'_, PyAny>>,
    seeds: Option<&Bound<'_, PyAny>>,
    depths: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
) -> PyResult<PyStats> {
    let pack: &Pack = &pack.get().pack;
    let names = map_type_names(pack, map_type)?;
    let [first, end] = match seeds.filter(|s| !s.is_none()) {
        Some(seeds) => args::seed_range(seeds)?,
        None => [0, 1000],
    };
    let depths = args::depths(depths)?;
    let generators: Vec<Generator<'_>> = names
        .iter()
        // Statistics read the maps, never their traces: leaving them out is faster.
        .map(|name| Generator::new(pack, name).map(|g| g.trace(false)))
        .collect::<Result<_, _>>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1 (or None for one per core)"));
    }
    // A pool of its own only when asked for; else rayon's, one thread per core.
    let pool = match threads {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| PyValueError::new_err(format!("cannot start {n} worker threads: {e}")))?,
        ),
        None => None,
    };
    let run = || {
        let chunks: Vec<[u64; 2]> =
            (first..end).step_by(CHUNK as usize).map(|lo| [lo, lo.saturating_add(CHUNK).min(end)]).collect();
        let jobs: Vec<(usize, [u64; 2])> =
            (0..generators.len()).flat_map(|g| chunks.iter().map(move |&c| (g, c))).collect();
        let results: Vec<(usize, MapTypeStats)> =
            jobs.par_iter().map(|&(g, seeds)| (g, run_chunk(pack, &generators[g], seeds, &depths))).collect();
        let mut stats = Stats::new(pack);
        for (g, chunk) in results {
            let name = generators[g].map_type().name.clone();
            match stats.map_types.get_mut(&name) {
                // Chunks are disjoint by construction, so merging cannot fail.
                Some(m) => {
                    let _ = m.merge(&chunk);
                }
                None => {
                    stats.map_types.insert(name, chunk);
                }
            }
        }
        stats.finish();
        stats
    };
    let stats = py.detach(|| match &pool {
        Some(pool) => pool.install(run),
        None => run(),
    });
    Ok(PyStats { stats })
}

#[pymethods]
impl PyStats {
    /// Adds `other`'s maps (statistics of the same pack, map types and depths
    /// over other seeds) to these, in place: statistics of a run split into
    /// parts and merged equal those of the whole run, but for the times.
    /// Raises ValueError, changing nothing, when the two share seeds of a map
    /// type or differ in pack or depths.
    fn merge(slf: &Bound<'_, Self>, other: &Bound<'_, PyStats>) -> PyResult<()> {
        if slf.is(other) {
            return Err(PyValueError::new_err("cannot merge statistics with themselves: they cover the same seeds"));
        }
        let theirs = other.borrow();
        let mut merged = slf.borrow().stats.clone();
        merged.merge(&theirs.stats).map_err(|e| PyValueError::new_err(format!("cannot merge: {e}")))?;
        slf.borrow_mut().stats = merged;
        Ok(())
    }

    /// The statistics as pretty-printed JSON: what `prefabric stats --json`
    /// prints (schema in docs/json-schema.md).
    fn to_json(&self) -> String {
        self.stats.to_json()
    }

    /// Statistics read back from to_json()'s (or `prefabric stats --json`'s)
    /// text. Raises ValueError for text that is not such statistics.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyStats> {
        Stats::from_json(text)
            .map(|stats| PyStats { stats })
            .map_err(|e| PyValueError::new_err(format!("not statistics written by to_json(): {e}")))
    }

    /// The pack's name.
    #[getter]
    fn pack(&self) -> &str {
        &self.stats.pack
    }

    /// The names of the map types covered, sorted.
    #[getter]
    fn map_types(&self) -> Vec<String> {
        self.stats.map_types.keys().cloned().collect()
    }

    /// Maps generated, over every map type and depth (failures included).
    #[getter]
    fn maps(&self) -> u64 {
        self.stats.map_types.values().map(|m| m.maps).sum()
    }

    /// Maps whose every attempt failed, over every map type.
    #[getter]
    fn failed(&self) -> u64 {
        self.stats.map_types.values().map(|m| m.failed).sum()
    }

    /// The failures kept (the smallest seeds of each map type) as (map_type,
    /// seed, depth, error) tuples.
    #[getter]
    fn failures(&self) -> Vec<(String, u64, u32, String)> {
        let mut failures = Vec::new();
        for (name, m) in &self.stats.map_types {
            for f in &m.failures {
                failures.push((name.clone(), f.seed, f.depth, f.error.clone()));
            }
        }
        failures
    }

    /// The seed ranges covered, by map type: lists of half-open (first, end) pairs.
    #[getter]
    fn seeds(&self) -> BTreeMap<String, Vec<(u64, u64)>> {
        self.stats
            .map_types
            .iter()
            .map(|(name, m)| (name.clone(), m.seeds.iter().map(|[a, b]| (*a, *b)).collect()))
            .collect()
    }

    /// How many times each prefab was placed, over every map type; prefabs
    /// never placed are listed with 0.
    #[getter]
    fn prefab_placements(&self) -> BTreeMap<String, u64> {
        let mut placed: BTreeMap<String, u64> = BTreeMap::new();
        for m in self.stats.map_types.values() {
            for (name, p) in &m.prefabs {
                *placed.entry(name.clone()).or_default() += p.placed;
            }
        }
        placed
    }

    /// How many times each encounter was placed, over every map type;
    /// encounters never placed are listed with 0.
    #[getter]
    fn encounter_placements(&self) -> BTreeMap<String, u64> {
        let mut placed: BTreeMap<String, u64> = BTreeMap::new();
        for m in self.stats.map_types.values() {
            for (id, e) in &m.encounters {
                *placed.entry(id.clone()).or_default() += e.placed;
            }
        }
        placed
    }

    /// The median time to generate a map, in milliseconds, by map type (to 5%).
    #[getter]
    fn median_ms(&self) -> BTreeMap<String, f64> {
        self.stats.map_types.iter().map(|(name, m)| (name.clone(), m.time.median_ms)).collect()
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.stats.map_types.keys().map(String::as_str).collect();
        format!(
            "<Stats of pack {:?}: {} maps of {}, {} failed>",
            self.stats.pack,
            self.maps(),
            names.join(", "),
            self.failed()
        )
    }

    /// Pickles as its JSON, so statistics travel between processes (dask, multiprocessing).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.borrow().stats.to_json(),)))
    }
}
