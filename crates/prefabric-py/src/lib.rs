//! The native half of the Python package `prefabric`: the extension module
//! `prefabric._prefabric`, which `prefabric/__init__.py` re-exports.
//!
//! In: calls from Python — packs (the built-in one or a folder), map types,
//! depths, seeds. Out: Python objects over the library's packs, maps and
//! statistics, and a Python exception for every problem: `PackError` with
//! every problem of a pack that does not load, `GenerationError` when no
//! attempt at a seed succeeds, `ValueError`, `OverflowError` and `TypeError`
//! for arguments out of range or of the wrong type. Guarantees: the same pack,
//! map type, depth and seed give the same map as the library and the
//! `prefabric` command, byte for byte in every output; nothing a Python caller
//! passes can panic or crash the interpreter; every generation runs with the
//! GIL released, so Python threads generate in parallel and the bulk calls
//! (`Generator.generate_many`, `stats`) use every core.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// No unwrap, expect or panic! outside tests: an argument from Python must
// become an exception, never bring the interpreter down.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod args;
mod errors;
mod generator;
mod map;
mod pack;
mod stats;

use pyo3::prelude::*;

/// Roguelike maps from hand-made prefabs (the native module; import `prefabric`).
#[pymodule]
mod _prefabric {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::errors::{Error, GenerationError, PackError, PyProblem};
    #[pymodule_export]
    use crate::generator::PyGenerator;
    #[pymodule_export]
    use crate::map::{PyDoor, PyMap, PyObject_, PyPlacedPrefab, PyRegion, PyStaircase};
    #[pymodule_export]
    use crate::pack::PyPack;
    #[pymodule_export]
    use crate::stats::{PyStats, stats};

    /// Module constants: the role names Map.terrain's codes index, the version,
    /// and whether the extension was built without optimisation.
    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("ROLE_NAMES", crate::map::role_names(m.py())?)?;
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        // bench.py refuses to time an unoptimised build.
        m.add("_debug_build", cfg!(debug_assertions))?;
        Ok(())
    }
}
