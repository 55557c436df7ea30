//! The C interface of prefabric: load a pack, make a generator, generate maps
//! by seed and read them, from C, C++, C# or any engine that calls native code.
//!
//! In: calls through the functions of `include/prefabric.h` (made from this
//! crate by cbindgen; `tests/header.rs` fails when the two differ), with
//! opaque handles (`PrefabricPack`, `PrefabricGenerator`, `PrefabricMap`,
//! `PrefabricWorld`) that the caller frees with the matching `_free`
//! function. Here: errors, packs and generators; `map.rs` reads a map as a
//! whole and cell by cell, `parts.rs` its regions, staircases, exits and
//! objects, `world.rs` makes a world's levels. Out: a status code for
//! every call that can fail (`PREFABRIC_STATUS_OK` is 0), with the message in
//! `prefabric_last_error_message()` and, for a pack that does not load, every
//! problem with its file, line and column (`prefabric_error_count`,
//! `prefabric_error_at`); strings the caller frees with
//! `prefabric_string_free`. The same pack, map type, depth, size and seed give
//! the same map, byte for byte in its JSON, as the library and the
//! `prefabric` command.
//!
//! Guarantees: no panic crosses into C (every entry point runs inside
//! `catch_unwind`, and a panic becomes `PREFABRIC_STATUS_INTERNAL`); every
//! pointer is checked for NULL before it is read or written; every index is
//! checked against its count, every cell against the map's size. Handles are
//! immutable once made: a pack, a generator, a map and a world may be read
//! from several threads at once, and each keeps what it needs alive (a
//! generator, map or world outlives the pack it came from; a world makes all
//! its levels when it is made and keeps owned copies of their maps). The last
//! error is per thread.
//!
//! Why `unsafe` here, when the house rule forbids it: a C interface receives
//! raw pointers, and reading them is unsafe by nature. It is confined to the
//! few helpers below (`borrow`, `write`, `text_arg`, `take`), each a small
//! block with a `SAFETY` comment that checks the pointer for NULL first (no
//! other `unsafe`: no lifetime is widened, no handle borrows from another);
//! the library (`crates/prefabric`) stays free of `unsafe`. What cannot be checked
//! is the C caller's side of the contract: a pointer that is not NULL must
//! point at what the header says (a handle this library made and not yet
//! freed, a NUL-terminated string, a writable out-parameter).

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod error;
mod map;
mod parts;
mod world;

pub use error::{PrefabricProblem, PrefabricStatus};
pub use map::*;
pub use parts::*;
pub use world::*;

use error::{Failure, c_string};
use prefabric::SharedGenerator;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

/// The deepest depth a map is generated for, as the command line allows.
const MAX_DEPTH: u32 = 1_000_000;

/// A content pack: prefabs, map types, a catalog and a palette. Opaque; free
/// with `prefabric_pack_free`.
pub struct PrefabricPack {
    pack: Arc<prefabric::Pack>,
    map_type_names: Vec<CString>,
}

impl PrefabricPack {
    /// The library's pack.
    pub(crate) fn pack(&self) -> &Arc<prefabric::Pack> {
        &self.pack
    }
}

/// Makes maps of one map type of a pack at one depth. Opaque; free with
/// `prefabric_generator_free`.
pub struct PrefabricGenerator {
    /// The library's generator, without traces (a game has no use for them;
    /// the maps, and their JSON, are the same either way).
    generator: SharedGenerator,
}

/// A size in cells, for `prefabric_generator_new`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricSize {
    /// Width in cells, 1 or more.
    pub width: u32,
    /// Height in cells, 1 or more.
    pub height: u32,
}

// ---------------------------------------------------------------------------
// The boundary: panics caught, pointers checked.

/// Runs `body`, turning a failure or a panic into the thread's last error and `fallback`.
pub(crate) fn guard<T>(fallback: T, body: impl FnOnce() -> Result<T, Failure>) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(value)) => value,
        Ok(Err(failure)) => {
            error::record(failure);
            fallback
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            error::record(Failure::new(
                PrefabricStatus::Internal,
                format!("prefabric failed inside (a bug; please report it): {what}"),
            ));
            fallback
        }
    }
}

/// Runs `body` for a call that returns a status.
pub(crate) fn status(body: impl FnOnce() -> Result<(), Failure>) -> PrefabricStatus {
    let failed = PrefabricStatus::Internal;
    match guard(None, || body().map(|()| Some(PrefabricStatus::Ok))) {
        Some(ok) => ok,
        None => error::last_status().max_with(failed),
    }
}

impl PrefabricStatus {
    /// `self` unless it is `Ok` (a failure must never read as success).
    fn max_with(self, other: PrefabricStatus) -> PrefabricStatus {
        if self == PrefabricStatus::Ok { other } else { self }
    }
}

/// The value behind `ptr`, or a `NullPointer` failure naming `what` of `function`.
///
/// # Safety
/// `ptr` is NULL or points at a live `T` (the header's contract).
pub(crate) unsafe fn borrow<'a, T>(ptr: *const T, function: &str, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: `as_ref` checks for NULL; a pointer that is not NULL is a live T by the caller's contract.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(function, what))
}

/// Checks that the out-parameter `out` is not NULL.
pub(crate) fn out_checked<T>(out: *mut T, function: &str) -> Result<(), Failure> {
    if out.is_null() { Err(Failure::null(function, "out")) } else { Ok(()) }
}

/// Writes `value` to the out-parameter `out`, which [`out_checked`] passed.
///
/// # Safety
/// `out` is NULL or points at writable memory for a `T` (the header's contract).
pub(crate) unsafe fn write<T>(out: *mut T, value: T, function: &str) -> Result<(), Failure> {
    out_checked(out, function)?;
    // SAFETY: not NULL (checked above), and writable by the caller's contract; `T` is Copy
    // or a pointer, so nothing is dropped in place.
    unsafe { out.write(value) };
    Ok(())
}

/// The UTF-8 text of the C string `ptr`.
///
/// # Safety
/// `ptr` is NULL or points at a NUL-terminated string.
pub(crate) unsafe fn text_arg<'a>(ptr: *const c_char, function: &str, what: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::null(function, what));
    }
    // SAFETY: not NULL (checked above), NUL-terminated by the caller's contract.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str()
        .map_err(|_| Failure::new(PrefabricStatus::InvalidArgument, format!("{function}: {what} is not UTF-8 text")))
}

/// Takes back ownership of a handle this library made with `Box::into_raw`.
///
/// # Safety
/// `ptr` is NULL or a handle of this type from this library, not yet freed.
pub(crate) unsafe fn take<T>(ptr: *mut T) -> Result<(), Failure> {
    if !ptr.is_null() {
        // SAFETY: made by Box::into_raw in this crate and not yet freed (the caller's contract).
        drop(unsafe { Box::from_raw(ptr) });
    }
    Ok(())
}

/// A NUL-terminated copy of a static name, made once per name for the
/// process (the names are the library's few fixed words: kinds, sides, ways).
pub(crate) fn static_name(name: &'static str) -> *const c_char {
    static NAMES: Mutex<Vec<(&'static str, &'static CStr)>> = Mutex::new(Vec::new());
    let Ok(mut names) = NAMES.lock() else { return c"".as_ptr() };
    if let Some((_, c)) = names.iter().find(|(n, _)| *n == name) {
        return c.as_ptr();
    }
    let c: &'static CStr = Box::leak(c_string(name).into_boxed_c_str());
    names.push((name, c));
    c.as_ptr()
}

/// A C string the caller frees with `prefabric_string_free`.
pub(crate) fn owned_string(text: &str) -> *mut c_char {
    c_string(text).into_raw()
}

// ---------------------------------------------------------------------------
// Errors and version.

/// The version of prefabric, e.g. "0.1.0". A static string; never freed.
#[unsafe(no_mangle)]
pub extern "C" fn prefabric_version() -> *const c_char {
    const VERSION: &CStr = match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(v) => v,
        Err(_) => c"unknown",
    };
    VERSION.as_ptr()
}

/// The status of the last call that failed on this thread
/// (`PREFABRIC_STATUS_OK` when none has).
#[unsafe(no_mangle)]
pub extern "C" fn prefabric_last_error_code() -> PrefabricStatus {
    guard(PrefabricStatus::Internal, || Ok(error::last_status()))
}

/// The message of the last call that failed on this thread: what went wrong
/// and how to fix it ("" when none has). Valid until the next failing call on
/// this thread; never freed by the caller.
#[unsafe(no_mangle)]
pub extern "C" fn prefabric_last_error_message() -> *const c_char {
    guard(c"".as_ptr(), || Ok(error::last_message()))
}

/// How many problems the last failing call on this thread reported: the
/// problems of a pack that did not load (`PREFABRIC_STATUS_PACK`), else 0.
#[unsafe(no_mangle)]
pub extern "C" fn prefabric_error_count() -> usize {
    guard(0, || Ok(error::problem_count()))
}

/// Writes problem `index` (0 to `prefabric_error_count() - 1`) of the last
/// failing call on this thread to `*out`. Its strings are valid until the
/// next failing call on this thread. Returns `PREFABRIC_STATUS_OUT_OF_RANGE`
/// for an index past the end, `PREFABRIC_STATUS_NULL_POINTER` for a NULL
/// `out`; neither replaces the problems being read.
///
/// # Safety
/// `out` is NULL or points at a writable `PrefabricProblem`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_error_at(index: usize, out: *mut PrefabricProblem) -> PrefabricStatus {
    let f = "prefabric_error_at";
    // Reading the problems must not replace them: a failure here is returned, not recorded.
    let read = catch_unwind(AssertUnwindSafe(|| {
        if out.is_null() {
            return PrefabricStatus::NullPointer;
        }
        match error::problem(index) {
            // SAFETY (inside write): `out` is not NULL, writable by the caller's contract.
            Some(problem) => match unsafe { write(out, problem, f) } {
                Ok(()) => PrefabricStatus::Ok,
                Err(e) => e.status,
            },
            None => PrefabricStatus::OutOfRange,
        }
    }));
    read.unwrap_or(PrefabricStatus::Internal)
}

/// Frees a string this library returned (`prefabric_map_ascii`,
/// `prefabric_map_json`). NULL is ignored.
///
/// # Safety
/// `text` is NULL or a string from this library's `_ascii`/`_json` calls, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_string_free(text: *mut c_char) {
    guard((), || {
        if !text.is_null() {
            // SAFETY: made by CString::into_raw in this crate and not yet freed (the caller's contract).
            drop(unsafe { CString::from_raw(text) });
        }
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// Packs.

fn pack_handle(pack: Arc<prefabric::Pack>) -> *mut PrefabricPack {
    let map_type_names = pack.map_types().map(|m| c_string(&m.name)).collect();
    Box::into_raw(Box::new(PrefabricPack { pack, map_type_names }))
}

/// Loads the pack built into prefabric (what the `prefabric` command uses
/// without --pack) into `*out`. Free it with `prefabric_pack_free`. Each call
/// loads it anew (tens of milliseconds): load it once, and make every
/// generator from that handle. Nothing of it is kept after the last handle
/// (pack, generator or map) that needs it is freed.
///
/// # Safety
/// `out` is NULL or points at a writable `PrefabricPack *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_pack_embedded(out: *mut *mut PrefabricPack) -> PrefabricStatus {
    let f = "prefabric_pack_embedded";
    status(|| {
        out_checked(out, f)?;
        let loaded = prefabric::Pack::embedded().map_err(|p| Failure::pack(f, &p))?;
        // SAFETY (inside write): `out` checked above.
        unsafe { write(out, pack_handle(Arc::new(loaded)), f) }
    })
}

/// Loads the pack in the folder `path` (UTF-8) into `*out`. Free it with
/// `prefabric_pack_free`. When the pack does not load, returns
/// `PREFABRIC_STATUS_PACK`, leaves `*out` alone, and lists every problem
/// (file, line, column, message) through `prefabric_error_count` and
/// `prefabric_error_at`.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `out` is NULL or points at a
/// writable `PrefabricPack *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_pack_load(path: *const c_char, out: *mut *mut PrefabricPack) -> PrefabricStatus {
    let f = "prefabric_pack_load";
    status(|| {
        // SAFETY (inside text_arg): checked for NULL there.
        let path = unsafe { text_arg(path, f, "path") }?;
        out_checked(out, f)?;
        let loaded = prefabric::Pack::load(std::path::Path::new(path)).map_err(|p| Failure::pack(f, &p))?;
        // SAFETY (inside write): `out` checked above.
        unsafe { write(out, pack_handle(Arc::new(loaded)), f) }
    })
}

/// Frees a pack. Generators and maps made from it stay valid. NULL is ignored.
///
/// # Safety
/// `pack` is NULL or a pack from this library, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_pack_free(pack: *mut PrefabricPack) {
    // SAFETY (inside take): the caller's contract.
    guard((), || unsafe { take(pack) })
}

/// How many map types the pack has (0 when `pack` is NULL, with the error recorded).
///
/// # Safety
/// `pack` is NULL or a live pack from this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_pack_map_type_count(pack: *const PrefabricPack) -> usize {
    // SAFETY (inside borrow): checked for NULL there.
    guard(0, || Ok(unsafe { borrow(pack, "prefabric_pack_map_type_count", "pack") }?.map_type_names.len()))
}

/// The name of map type `index` of the pack, in the pack's order; NULL when
/// `pack` is NULL or `index` is out of range (with the error recorded). Valid
/// as long as the pack.
///
/// # Safety
/// `pack` is NULL or a live pack from this library.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_pack_map_type_name(pack: *const PrefabricPack, index: usize) -> *const c_char {
    let f = "prefabric_pack_map_type_name";
    guard(std::ptr::null(), || {
        // SAFETY (inside borrow): checked for NULL there.
        let names = &unsafe { borrow(pack, f, "pack") }?.map_type_names;
        names.get(index).map(|n| n.as_ptr()).ok_or_else(|| Failure::range(f, "map type", index, names.len()))
    })
}

// ---------------------------------------------------------------------------
// Generators.

/// Makes a generator for the map type named `map_type` of `pack`, at `depth`
/// (1 to 1000000), into `*out`. `size` is NULL for the map type's own size,
/// or the width and height to make maps instead (each 1 or more, within what
/// the map type can take). Returns `PREFABRIC_STATUS_INVALID_ARGUMENT` for a
/// map type the pack lacks (the message names the closest), a depth out of
/// range or a size the map type cannot take. Free it with
/// `prefabric_generator_free`; it keeps its pack alive.
///
/// # Safety
/// `pack` is NULL or a live pack; `map_type` is NULL or a NUL-terminated
/// string; `size` is NULL or points at a `PrefabricSize`; `out` is NULL or
/// points at a writable `PrefabricGenerator *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_generator_new(
    pack: *const PrefabricPack,
    map_type: *const c_char,
    depth: u32,
    size: *const PrefabricSize,
    out: *mut *mut PrefabricGenerator,
) -> PrefabricStatus {
    let f = "prefabric_generator_new";
    status(|| {
        // SAFETY (inside borrow, text_arg): each checks for NULL.
        let pack = unsafe { borrow(pack, f, "pack") }?;
        let name = unsafe { text_arg(map_type, f, "map_type") }?;
        out_checked(out, f)?;
        let invalid = |e: prefabric::Error| Failure::new(PrefabricStatus::InvalidArgument, format!("{f}: {e}"));
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(Failure::new(
                PrefabricStatus::InvalidArgument,
                format!("{f}: depth must be from 1 to {MAX_DEPTH}, got {depth}"),
            ));
        }
        let mut generator = SharedGenerator::new(Arc::clone(&pack.pack), name).map_err(invalid)?;
        if !size.is_null() {
            // SAFETY (inside borrow): not NULL (checked), a PrefabricSize by the caller's contract.
            let size = unsafe { borrow(size, f, "size") }?;
            if size.width == 0 || size.height == 0 {
                return Err(Failure::new(
                    PrefabricStatus::InvalidArgument,
                    format!(
                        "{f}: size {}x{} has no cells: width and height must be 1 or more (or pass NULL for the map type's own size)",
                        size.width, size.height
                    ),
                ));
            }
            generator = generator.size(size.width, size.height).map_err(invalid)?;
        }
        let handle = Box::into_raw(Box::new(PrefabricGenerator { generator: generator.depth(depth).trace(false) }));
        // SAFETY (inside write): `out` checked above.
        unsafe { write(out, handle, f) }
    })
}

/// Frees a generator. Maps it made stay valid. NULL is ignored.
///
/// # Safety
/// `generator` is NULL or a generator from this library, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_generator_free(generator: *mut PrefabricGenerator) {
    // SAFETY (inside take): the caller's contract.
    guard((), || unsafe { take(generator) })
}

/// Generates the map for `seed` into `*out`: the same map as `prefabric
/// generate --seed SEED` with the same pack, map type, depth and size.
/// Returns `PREFABRIC_STATUS_GENERATION` when every attempt fails. Free the
/// map with `prefabric_map_free`. Safe to call from several threads at once
/// with the same generator.
///
/// # Safety
/// `generator` is NULL or a live generator; `out` is NULL or points at a
/// writable `PrefabricMap *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_generate(
    generator: *const PrefabricGenerator,
    seed: u64,
    out: *mut *mut PrefabricMap,
) -> PrefabricStatus {
    let f = "prefabric_generate";
    status(|| {
        // SAFETY (inside borrow): checks for NULL.
        let generator = &unsafe { borrow(generator, f, "generator") }?.generator;
        out_checked(out, f)?;
        let map = generator.generate(seed).map_err(|e| {
            Failure::new(
                PrefabricStatus::Generation,
                format!("{f}: seed {seed} of map type {}: {e}", generator.map_type().name),
            )
        })?;
        let handle = Box::into_raw(Box::new(PrefabricMap::new(map, Arc::clone(generator.pack()))));
        // SAFETY (inside write): `out` checked above.
        unsafe { write(out, handle, f) }
    })
}
