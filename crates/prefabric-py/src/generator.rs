//! `prefabric.Generator`: makes the maps of one map type of a pack at one depth.
//!
//! In: a `Pack`, a map type's name, a depth (1 to 1,000,000), whether maps keep
//! their trace; then seeds, one at a time, many at once, or from several
//! Python threads. Out: `Map`s, the same map for the same pack, map type,
//! depth and seed as the library's `Generator` and the `prefabric` command give,
//! whichever way they are asked for; `GenerationError` when every attempt at a
//! seed fails. It wraps the library's `SharedGenerator` (an `Arc` of the pack,
//! `Send + Sync`), so every generation runs with the GIL released: Python
//! threads generate in parallel, and `generate_many` spreads its seeds over
//! every core.

use crate::args;
use crate::errors::generation_error;
use crate::map::{PyMap, trace_text};
use crate::pack::PyPack;
use prefabric::SharedGenerator;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;
use std::fmt::Write as _;

/// Makes maps of one map type of a pack, at one depth.
///
/// Generator(pack, map_type, depth=1, size=None, *, trace=False)
///
/// The same pack, map type, depth and seed always give the same map, byte for
/// byte, on every platform (the `prefabric` command's `generate --seed`
/// gives the same). Maps record every decision only when trace=True; either
/// way Map.explain() gives them (an untraced map is made again, traced, on
/// demand). A Generator is immutable and safe to share between threads:
/// generate() releases the GIL.
#[pyclass(frozen, module = "prefabric", name = "Generator")]
pub struct PyGenerator {
    /// The library's generator, traced or not as asked.
    generator: SharedGenerator,
    /// The pack object it was made from.
    pack: Py<PyPack>,
    /// Whether its maps keep their trace.
    trace: bool,
    /// The depth its maps are generated for.
    depth: u32,
    /// The size asked instead of the map type's own, if one was.
    size: Option<(u32, u32)>,
}

impl PyGenerator {
    /// A generator for `map_type` of `pack` at `depth` (already checked) and
    /// `size`, which the library checks against the map type.
    fn build(
        pack: &Bound<'_, PyPack>,
        map_type: &str,
        depth: u32,
        size: Option<(u32, u32)>,
        trace: bool,
    ) -> PyResult<PyGenerator> {
        let invalid = |e: prefabric::Error| PyValueError::new_err(e.to_string());
        let mut generator = SharedGenerator::new(std::sync::Arc::clone(&pack.get().pack), map_type).map_err(invalid)?;
        if let Some((width, height)) = size {
            generator = generator.size(width, height).map_err(invalid)?;
        }
        let generator = generator.depth(depth).trace(trace);
        Ok(PyGenerator { generator, pack: pack.clone().unbind(), trace, depth, size })
    }
}

#[pymethods]
impl PyGenerator {
    /// A generator for map type `map_type` of `pack` at `depth` (1 to
    /// 1,000,000; None is 1), making maps of `size`, a (width, height) pair,
    /// instead of the map type's own size (None). Raises ValueError for a map
    /// type the pack lacks (with the closest names), a depth out of range, or
    /// a size the map type cannot take (naming the first thing that does not
    /// fit, at its line of the map type's file); TypeError for arguments of
    /// the wrong type.
    #[new]
    #[pyo3(signature = (pack, map_type, depth = None, size = None, *, trace = false))]
    #[pyo3(text_signature = "(pack, map_type, depth=1, size=None, *, trace=False)")]
    fn new(
        pack: &Bound<'_, PyPack>,
        map_type: &str,
        depth: Option<&Bound<'_, PyAny>>,
        size: Option<&Bound<'_, PyAny>>,
        trace: bool,
    ) -> PyResult<PyGenerator> {
        let depth = match depth.filter(|d| !d.is_none()) {
            Some(d) => args::depth(d)?,
            None => 1,
        };
        let size = size.filter(|s| !s.is_none()).map(args::size).transpose()?;
        PyGenerator::build(pack, map_type, depth, size, trace)
    }

    /// The map for `seed` (an int from 0 to 2^64 - 1). Raises GenerationError
    /// when every attempt fails, ValueError for a negative seed, OverflowError
    /// for one past 2^64 - 1, TypeError for what is not an int.
    fn generate(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<PyMap> {
        let seed = args::seed(seed)?;
        let generated = py.detach(|| self.generator.generate(seed));
        match generated {
            Ok(map) => Ok(PyMap::new(map, self.generator.clone(), self.trace)),
            Err(e) => Err(generation_error(py, &e, &self.generator.map_type().name, seed, self.depth)),
        }
    }

    /// The maps for every seed of `seeds` (an iterable of ints), in order,
    /// generated on every core with the GIL released: the same maps as
    /// generate() gives one at a time. Raises GenerationError for the first
    /// seed (in order) whose every attempt failed.
    fn generate_many(&self, py: Python<'_>, seeds: &Bound<'_, PyAny>) -> PyResult<Vec<PyMap>> {
        let seeds = args::seeds(seeds)?;
        let generated: Vec<Result<prefabric::Map, prefabric::Error>> =
            py.detach(|| seeds.par_iter().map(|&seed| self.generator.generate(seed)).collect());
        seeds
            .iter()
            .zip(generated)
            .map(|(&seed, result)| match result {
                Ok(map) => Ok(PyMap::new(map, self.generator.clone(), self.trace)),
                Err(e) => Err(generation_error(py, &e, &self.generator.map_type().name, seed, self.depth)),
            })
            .collect()
    }

    /// Every decision behind the map for `seed`, one line each: the text
    /// `prefabric generate --explain` prints. When every attempt fails, each
    /// attempt's decisions under `== attempt N ==` and why it failed, as the
    /// command prints them before its error; it never raises GenerationError.
    fn explain(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<String> {
        let seed = args::seed(seed)?;
        let traced = self.generator.clone().trace(true);
        Ok(py.detach(|| match traced.generate(seed) {
            Ok(map) => trace_text(&map),
            Err(_) => attempts_text(&traced, seed),
        }))
    }

    /// The pack it generates from.
    #[getter]
    fn pack(&self, py: Python<'_>) -> Py<PyPack> {
        self.pack.clone_ref(py)
    }

    /// The name of its map type.
    #[getter]
    fn map_type(&self) -> &str {
        &self.generator.map_type().name
    }

    /// The depth its maps are generated for.
    #[getter]
    fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether its maps keep their trace (Map.explain() works either way).
    #[getter]
    fn trace(&self) -> bool {
        self.trace
    }

    /// The (width, height) of its maps: the size asked, or the map type's own.
    #[getter]
    fn size(&self) -> (i32, i32) {
        let map_type = self.generator.map_type();
        (map_type.width, map_type.height)
    }

    fn __repr__(&self) -> String {
        format!(
            "Generator(<Pack {:?}>, {:?}, depth={}{}{})",
            self.generator.pack().name(),
            self.generator.map_type().name,
            self.depth,
            self.size.map(|(w, h)| format!(", size=({w}, {h})")).unwrap_or_default(),
            if self.trace { ", trace=True" } else { "" }
        )
    }

    /// Pickles as the call that makes it again from its (pickled) pack.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let me = slf.get();
        // The keyword `trace` cannot travel in a reduce tuple: a traced
        // generator is made again through a helper class method.
        let class = slf.get_type();
        let arguments = (me.pack.clone_ref(py), me.generator.map_type().name.clone(), me.depth, me.size, me.trace);
        Ok((class.getattr("_restore")?, arguments.into_pyobject(py)?.into_any()))
    }

    /// Makes a generator again from what __reduce__ kept.
    #[staticmethod]
    fn _restore(
        pack: &Bound<'_, PyPack>,
        map_type: &str,
        depth: &Bound<'_, PyAny>,
        size: Option<&Bound<'_, PyAny>>,
        trace: bool,
    ) -> PyResult<PyGenerator> {
        let size = size.filter(|s| !s.is_none()).map(args::size).transpose()?;
        PyGenerator::build(pack, map_type, args::depth(depth)?, size, trace)
    }
}

/// Every attempt's decisions and failure, as `--explain` prints them for a
/// seed that gave no map.
fn attempts_text(generator: &SharedGenerator, seed: u64) -> String {
    let mut text = String::new();
    for (n, (trace, failure)) in generator.generator().attempts(seed).iter().enumerate() {
        let _ = writeln!(text, "== attempt {} ==", n + 1);
        for event in trace.events() {
            let _ = writeln!(text, "{event}");
        }
        if let Some(f) = failure {
            let _ = writeln!(text, "attempt {} failed: {}", n + 1, f.message());
        }
    }
    text
}
