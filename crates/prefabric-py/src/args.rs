//! Reading the numbers Python callers pass: seeds, depths, map sizes, seed
//! ranges and lists of depths.
//!
//! In: any Python object. Out: the library's `u64` seed, `u32` depth, a
//! half-open seed range or a sorted list of depths, or the exception a Python
//! user expects: `TypeError` for what is not a whole number (a `bool` or a
//! float too), `ValueError` for a negative seed or a depth outside 1 to
//! 1,000,000 (the command line's range), `OverflowError` for a seed past
//! 2^64 - 1. Nothing here panics, whatever the object.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyRange, PyString, PyTuple};

/// The deepest depth a map is generated for, as the command line allows.
pub(crate) const MAX_DEPTH: u32 = 1_000_000;

/// The largest seed, as written in messages.
const MAX_SEED_TEXT: &str = "18446744073709551615 (2^64 - 1)";

/// A whole number that fits in a `u64`, or the exception that says why not:
/// `what` names the argument in messages (`seed`, `depth`).
fn whole_number(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{what} must be an int, not bool")));
    }
    match value.extract::<u64>() {
        Ok(n) => Ok(n),
        // Python's own conversion tells an int that does not fit from what is
        // no int at all; only the first is compared with zero.
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
            if value.lt(0)? {
                Err(PyValueError::new_err(format!(
                    "{what} must not be negative, got {value}: {what}s are whole numbers from 0"
                )))
            } else {
                Err(PyOverflowError::new_err(format!("{what} {value} is too large: the largest is {MAX_SEED_TEXT}")))
            }
        }
        Err(_) => Err(PyTypeError::new_err(format!("{what} must be an int, not {}", type_name(value)))),
    }
}

/// A seed: a whole number from 0 to 2^64 - 1.
pub(crate) fn seed(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    whole_number(value, "seed")
}

/// A depth: a whole number from 1 to [`MAX_DEPTH`].
pub(crate) fn depth(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    let out_of_range = || PyValueError::new_err(format!("depth must be from 1 to {MAX_DEPTH}, got {value}"));
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("depth must be an int, not bool"));
    }
    match value.extract::<i64>() {
        Ok(d) => u32::try_from(d).ok().filter(|d| (1..=MAX_DEPTH).contains(d)).ok_or_else(out_of_range),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => Err(out_of_range()),
        Err(_) => Err(PyTypeError::new_err(format!("depth must be an int, not {}", type_name(value)))),
    }
}

/// A map size `(width, height)`: a pair of whole numbers. Whether the map
/// type can take it is the library's to say.
pub(crate) fn size(value: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
    let not_a_pair =
        || PyTypeError::new_err(format!("size must be a (width, height) pair of ints, not {}", type_name(value)));
    if value.is_instance_of::<PyString>() {
        return Err(not_a_pair());
    }
    let items: Vec<Bound<'_, PyAny>> = value.try_iter().map_err(|_| not_a_pair())?.collect::<PyResult<_>>()?;
    let [w, h] = items.as_slice() else {
        return Err(PyValueError::new_err(format!("size must be (width, height), got {} numbers", items.len())));
    };
    let side = |v: &Bound<'_, PyAny>, what: &str| -> PyResult<u32> {
        if v.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!("{what} must be an int, not bool")));
        }
        match v.extract::<i64>() {
            Ok(n) => u32::try_from(n)
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| PyValueError::new_err(format!("{what} must be a positive number of cells, got {n}"))),
            Err(e) if e.is_instance_of::<PyOverflowError>(v.py()) => {
                Err(PyValueError::new_err(format!("{what} {v} is far too large")))
            }
            Err(_) => Err(PyTypeError::new_err(format!("{what} must be an int, not {}", type_name(v)))),
        }
    };
    Ok((side(w, "width")?, side(h, "height")?))
}

/// The name of a value's type, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// Every seed of an iterable of seeds, in order.
pub(crate) fn seeds(values: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    if values.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err("seeds must be an iterable of ints, not str"));
    }
    let iter = values
        .try_iter()
        .map_err(|_| PyTypeError::new_err(format!("seeds must be an iterable of ints, not {}", type_name(values))))?;
    iter.map(|item| seed(&item?)).collect()
}

/// A half-open range of seeds `[first, end)`, from `N` (`0..N`, as
/// `prefabric stats --seeds N`), `range(a, b)` (step 1) or a pair `(a, b)`.
pub(crate) fn seed_range(value: &Bound<'_, PyAny>) -> PyResult<[u64; 2]> {
    let [first, end] = if let Ok(range) = value.cast::<PyRange>() {
        let step = range.getattr("step")?;
        if !step.eq(1)? {
            return Err(PyValueError::new_err(format!(
                "seeds must be a range with step 1 (statistics cover every seed of a range), got step {step}"
            )));
        }
        [seed(&range.getattr("start")?)?, seed(&range.getattr("stop")?)?]
    } else if let Ok(pair) = value.cast::<PyTuple>() {
        if pair.len() != 2 {
            return Err(PyValueError::new_err(format!("seeds as a tuple must be (first, end), got {pair}")));
        }
        [seed(&pair.get_item(0)?)?, seed(&pair.get_item(1)?)?]
    } else if value.is_instance_of::<pyo3::types::PyInt>() {
        [0, seed(value)?]
    } else {
        return Err(PyTypeError::new_err(format!(
            "seeds must be a count (int), a range(first, end) or a pair (first, end), not {}",
            type_name(value)
        )));
    };
    if end <= first {
        return Err(PyValueError::new_err(format!(
            "seeds {first}..{end} hold no seed: the end must be past the first"
        )));
    }
    Ok([first, end])
}

/// Depths to generate every seed at: one depth or an iterable of them, sorted,
/// each once; `None` is depth 1.
pub(crate) fn depths(value: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u32>> {
    let Some(value) = value.filter(|v| !v.is_none()) else { return Ok(vec![1]) };
    let mut depths = if value.is_instance_of::<pyo3::types::PyInt>() || value.is_instance_of::<PyBool>() {
        vec![depth(value)?]
    } else {
        let iter = value.try_iter().map_err(|_| {
            PyTypeError::new_err(format!("depths must be an int or an iterable of ints, not {}", type_name(value)))
        })?;
        iter.map(|item| depth(&item?)).collect::<PyResult<Vec<u32>>>()?
    };
    if depths.is_empty() {
        return Err(PyValueError::new_err("depths is empty: give at least one depth"));
    }
    depths.sort_unstable();
    depths.dedup();
    Ok(depths)
}
