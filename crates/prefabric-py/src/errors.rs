//! The exceptions prefabric raises in Python, and the problems a pack's
//! `PackError` carries.
//!
//! In: the library's `Problems` (a pack that does not load) and `Error`s (a
//! generation that failed, a map type the pack lacks, an image it cannot draw).
//! Out: Python exceptions. `prefabric.Error` is the base of the two the
//! library's own failures raise: `PackError`, whose `problems` lists every
//! problem as a [`Problem`] (file, line, column, message, help, kind) and whose
//! text is what `prefabric check` prints, and `GenerationError`, whose text is
//! the command line's. A name the pack does not know is a `ValueError` with the
//! library's "did you mean" hint; a file that cannot be written an `OSError`.

use pyo3::exceptions::{PyException, PyFileNotFoundError, PyOSError, PyPermissionError};
use pyo3::prelude::*;
use pyo3::types::PyList;

pyo3::create_exception!(
    prefabric,
    Error,
    PyException,
    "The base of the exceptions prefabric raises for its own failures: a pack that does not load (PackError) and a map that could not be generated (GenerationError)."
);
pyo3::create_exception!(
    prefabric,
    PackError,
    Error,
    "A pack that does not load. `problems` lists every problem found, each a Problem with its file, line and column; str() lists them as `prefabric check` prints them."
);
pyo3::create_exception!(
    prefabric,
    GenerationError,
    Error,
    "A map that could not be generated: every attempt failed. `seed`, `map_type` and `depth` say which; Generator.explain(seed) prints every decision of every attempt."
);

/// One problem of a pack that does not load: what is wrong, where, and how to
/// fix it. `str(problem)` is the line `prefabric check` prints for it.
#[pyclass(frozen, module = "prefabric", name = "Problem")]
pub struct PyProblem {
    /// The file the problem is in, as the pack names it; None when it concerns no file.
    #[pyo3(get)]
    file: Option<String>,
    /// The 1-based line, or None when the problem concerns the whole file.
    #[pyo3(get)]
    line: Option<u32>,
    /// The 1-based column in characters, or None when only the line is known.
    #[pyo3(get)]
    column: Option<u32>,
    /// What is wrong.
    #[pyo3(get)]
    message: String,
    /// How to fix it, when the library knows; else None.
    #[pyo3(get)]
    help: Option<String>,
    /// The kind of fault: "io", "syntax", "format", "invalid", "limit",
    /// "generation" or "lint".
    #[pyo3(get)]
    kind: &'static str,
    /// The problem as the command line prints it.
    text: String,
}

#[pymethods]
impl PyProblem {
    fn __str__(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        let text = |v: &Option<String>| v.as_ref().map_or("None".to_string(), |s| format!("{s:?}"));
        let number = |v: Option<u32>| v.map_or("None".to_string(), |n| n.to_string());
        format!(
            "Problem(kind={:?}, file={}, line={}, column={}, message={:?}, help={})",
            self.kind,
            text(&self.file),
            number(self.line),
            number(self.column),
            self.message,
            text(&self.help)
        )
    }
}

/// A short name for a kind of fault, as Python code compares it.
fn kind_name(kind: prefabric::ErrorKind) -> &'static str {
    use prefabric::ErrorKind;
    match kind {
        ErrorKind::Io => "io",
        ErrorKind::Syntax => "syntax",
        ErrorKind::Format => "format",
        ErrorKind::Invalid => "invalid",
        ErrorKind::Limit => "limit",
        ErrorKind::Generation => "generation",
        ErrorKind::Lint => "lint",
    }
}

impl PyProblem {
    /// The problem a library error describes.
    fn of(error: &prefabric::Error) -> PyProblem {
        let location = error.location();
        let nonzero = |n: u32| (n > 0).then_some(n);
        PyProblem {
            file: location.map(|l| l.file.clone()),
            line: location.and_then(|l| nonzero(l.line)),
            column: location.and_then(|l| if l.line > 0 { nonzero(l.col) } else { None }),
            message: error.message().to_string(),
            help: error.help().map(str::to_string),
            kind: kind_name(error.kind()),
            text: error.to_string(),
        }
    }
}

/// A `PackError` for a pack that does not load: the CLI's text (every problem,
/// then how many), with every problem in `problems`.
pub(crate) fn pack_error(py: Python<'_>, problems: &prefabric::Problems) -> PyErr {
    let n = problems.len();
    let text = format!("{}\n{n} problem{} in the pack", problems.report(), if n == 1 { "" } else { "s" });
    let error = PackError::new_err(text);
    let attach = || -> PyResult<()> {
        let list: Vec<Py<PyProblem>> =
            problems.errors().iter().map(|e| Py::new(py, PyProblem::of(e))).collect::<PyResult<_>>()?;
        error.value(py).setattr("problems", PyList::new(py, list)?)
    };
    match attach() {
        Ok(()) => error,
        Err(e) => e,
    }
}

/// A `GenerationError` for `seed` of `map_type` at `depth`, with those three as attributes.
pub(crate) fn generation_error(
    py: Python<'_>,
    error: &prefabric::Error,
    map_type: &str,
    seed: u64,
    depth: u32,
) -> PyErr {
    let raised = GenerationError::new_err(error.to_string());
    let value = raised.value(py);
    let attributes = value
        .setattr("seed", seed)
        .and_then(|()| value.setattr("map_type", map_type))
        .and_then(|()| value.setattr("depth", depth));
    match attributes {
        Ok(()) => raised,
        Err(e) => e,
    }
}

/// The `OSError` (or its `FileNotFoundError` and `PermissionError` subclasses)
/// for a file that could not be read or written, naming it.
pub(crate) fn os_error(what: &str, path: &std::path::Path, error: &std::io::Error) -> PyErr {
    let text = format!("cannot {what} {}: {error}", path.display());
    match error.kind() {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(text),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(text),
        _ => PyOSError::new_err(text),
    }
}
