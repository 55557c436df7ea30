//! `prefabric.Pack`: a content pack, loaded once and shared by every generator
//! made from it.
//!
//! In: the built-in pack, or a pack folder given as a `str` or `os.PathLike`.
//! Out: a `Pack` that owns its library pack behind an `Arc`, so generators,
//! maps and threads share it without copying; or `PackError` listing every
//! problem of a pack that does not load (what `prefabric check` prints), or
//! `FileNotFoundError` for a folder that is not there. Loading runs with the
//! GIL released. A `Pack` pickles as the way to load it again (the built-in
//! pack, or its folder), so it can be sent to other processes.

use crate::errors::pack_error;
use pyo3::exceptions::{PyFileNotFoundError, PyNotADirectoryError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// The built-in pack, loaded on first use and shared from then on.
static BUILTIN: OnceLock<Arc<prefabric::Pack>> = OnceLock::new();

/// A content pack: prefabs, map types, a catalog and a palette.
///
/// Make one with Pack.builtin() (the pack built into prefabric) or
/// Pack.load(folder). A pack is immutable and shared: every Generator made
/// from it, and every Map they make, refer to the same one.
#[pyclass(frozen, module = "prefabric", name = "Pack")]
pub struct PyPack {
    /// The library's pack, shared.
    pub(crate) pack: Arc<prefabric::Pack>,
    /// The folder it was loaded from; None for the built-in pack.
    source: Option<PathBuf>,
}

#[pymethods]
impl PyPack {
    /// The pack built into prefabric (what the `prefabric` command uses
    /// without --pack). Loaded once per process; later calls share it.
    #[staticmethod]
    fn builtin(py: Python<'_>) -> PyResult<PyPack> {
        if let Some(pack) = BUILTIN.get() {
            return Ok(PyPack { pack: Arc::clone(pack), source: None });
        }
        let loaded = py.detach(prefabric::Pack::embedded).map_err(|problems| pack_error(py, &problems))?;
        let pack = Arc::clone(BUILTIN.get_or_init(|| Arc::new(loaded)));
        Ok(PyPack { pack, source: None })
    }

    /// Loads the pack in folder `path` (a str or os.PathLike).
    ///
    /// Raises PackError listing every problem found (each with its file, line
    /// and column) when the pack does not load, and FileNotFoundError when
    /// the folder is not there.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<PyPack> {
        if !path.exists() {
            return Err(PyFileNotFoundError::new_err(format!("no pack folder at {}", path.display())));
        }
        if !path.is_dir() {
            return Err(PyNotADirectoryError::new_err(format!(
                "{} is not a folder: a pack is a folder holding pack.toml",
                path.display()
            )));
        }
        let loaded = py.detach(|| prefabric::Pack::load(&path)).map_err(|problems| pack_error(py, &problems))?;
        Ok(PyPack { pack: Arc::new(loaded), source: Some(path) })
    }

    /// The pack's name (from its pack.toml).
    #[getter]
    fn name(&self) -> &str {
        self.pack.name()
    }

    /// The names of the pack's map types, in the pack's order.
    #[getter]
    fn map_types(&self) -> Vec<String> {
        self.pack.map_types().map(|m| m.name.clone()).collect()
    }

    /// The map type the `prefabric` command generates when none is named.
    #[getter]
    fn default_map_type(&self) -> &str {
        self.pack.default_map_type()
    }

    /// The names of the pack's prefabs, in the pack's order.
    #[getter]
    fn prefabs(&self) -> Vec<String> {
        self.pack.prefabs().iter().map(|p| p.name().to_string()).collect()
    }

    /// The folder the pack was loaded from, or None for the built-in pack.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.source.clone()
    }

    fn __repr__(&self) -> String {
        let from = self.source.as_ref().map_or("built in".to_string(), |p| format!("from {}", p.display()));
        format!(
            "<Pack {:?} ({from}): {} map types, {} prefabs>",
            self.pack.name(),
            self.pack.map_types().count(),
            self.pack.prefabs().len()
        )
    }

    /// Pickles as the call that loads it again: Pack.builtin() or Pack.load(path).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let class = slf.get_type();
        let me = slf.get();
        match &me.source {
            None => Ok((class.getattr("builtin")?, pyo3::types::PyTuple::empty(slf.py()).into_any())),
            Some(path) => Ok((class.getattr("load")?, (path.clone(),).into_pyobject(slf.py())?.into_any())),
        }
    }
}
