//! The C interface of prefabric: load a pack, make a generator, generate maps
//! by seed and read them, from C, C++, C# or any engine that calls native code.
//!
//! In: calls through the functions of `include/prefabric.h` (made from this
//! file by cbindgen; `tests/header.rs` fails when the two differ), with opaque
//! handles (`PrefabricPack`, `PrefabricGenerator`, `PrefabricMap`) that the
//! caller frees with the matching `_free` function. Out: a status code for
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
//! checked against its count. Handles are immutable once made: a pack, a
//! generator and a map may be read from several threads at once, and each
//! keeps what it needs alive (a generator or map outlives the pack it came
//! from). The last error is per thread.
//!
//! Why `unsafe` here, when the house rule forbids it: a C interface receives
//! raw pointers, and reading them is unsafe by nature. It is confined to the
//! few helpers below (`borrow`, `write`, `text_arg`, `take`), each a small
//! block with a `SAFETY` comment that checks the pointer for NULL first; the
//! library (`crates/prefabric`) stays free of `unsafe`. What cannot be checked
//! is the C caller's side of the contract: a pointer that is not NULL must
//! point at what the header says (a handle this library made and not yet
//! freed, a NUL-terminated string, a writable out-parameter).

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod error;

pub use error::{PrefabricProblem, PrefabricStatus};

use error::{Failure, c_string};
use prefabric::{Role, SharedGenerator, render};
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, OnceLock};

/// The deepest depth a map is generated for, as the command line allows.
const MAX_DEPTH: u32 = 1_000_000;

/// A content pack: prefabs, map types, a catalog and a palette. Opaque; free
/// with `prefabric_pack_free`.
pub struct PrefabricPack {
    pack: Arc<prefabric::Pack>,
    map_type_names: Vec<CString>,
}

/// Makes maps of one map type of a pack at one depth. Opaque; free with
/// `prefabric_generator_free`.
pub struct PrefabricGenerator {
    /// The library's generator, without traces (a game has no use for them;
    /// the maps, and their JSON, are the same either way).
    generator: SharedGenerator,
}

/// A generated map. Opaque; free with `prefabric_map_free`.
pub struct PrefabricMap {
    map: prefabric::Map,
    pack: Arc<prefabric::Pack>,
    stairs: OnceLock<Vec<prefabric::Staircase>>,
    neighbours: OnceLock<Vec<Vec<u32>>>,
    tags: OnceLock<Vec<Option<CString>>>,
    exit_targets: OnceLock<Vec<Option<CString>>>,
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

/// The role of a map cell: what the terrain is, whatever its look.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrefabricRole {
    /// Solid rock that tunnels may dig through.
    Earth = 0,
    /// Solid rock that nothing digs.
    Blocked = 1,
    /// A wall beside open space.
    Wall = 2,
    /// Room floor.
    Room = 3,
    /// Hall floor.
    Hall = 4,
    /// Corridor floor.
    Corridor = 5,
    /// Junction floor.
    Junction = 6,
    /// Cave floor.
    Cave = 7,
    /// A door.
    Door = 8,
    /// A door that looks like wall until found.
    SecretDoor = 9,
    /// Stairs leading up (the way in).
    StairsUp = 10,
    /// Stairs leading down (the way on).
    StairsDown = 11,
    /// Deep liquid: water, lava, sludge.
    Liquid = 12,
    /// Stairs of no fixed direction (prefabs only; never on a finished map).
    Stairs = 13,
}

/// The C roles in the order of the library's `Role::ALL` (its `role_index`).
const ROLES: [PrefabricRole; 14] = [
    PrefabricRole::Earth,
    PrefabricRole::Blocked,
    PrefabricRole::Wall,
    PrefabricRole::Room,
    PrefabricRole::Hall,
    PrefabricRole::Corridor,
    PrefabricRole::Junction,
    PrefabricRole::Cave,
    PrefabricRole::Door,
    PrefabricRole::SecretDoor,
    PrefabricRole::StairsUp,
    PrefabricRole::StairsDown,
    PrefabricRole::Liquid,
    PrefabricRole::Stairs,
];

/// An area of the map.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricRegion {
    /// Its index among the map's regions.
    pub id: u32,
    /// What kind of area: "room", "hall", "corridor", "junction", "cave",
    /// "passage" or "prefab". A static string; never freed.
    pub kind: *const c_char,
    /// The left column of the smallest rectangle holding its cells.
    pub x: i32,
    /// The top row of that rectangle.
    pub y: i32,
    /// The rectangle's width.
    pub width: i32,
    /// The rectangle's height.
    pub height: i32,
    /// How many cells belong to it.
    pub area: u32,
    /// How many doors it has (`prefabric_map_region_door`).
    pub door_count: usize,
    /// How many regions a walker can step into from it (`prefabric_map_region_neighbour`).
    pub neighbour_count: usize,
}

/// A way out of a region: a door cell or an opening in its wall.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricDoor {
    /// The door cell's column.
    pub x: i32,
    /// The door cell's row.
    pub y: i32,
    /// The side of the region it is on: "north", "east", "south" or "west".
    /// A static string; never freed.
    pub side: *const c_char,
    /// The id of the region on its other side, or -1 when it leads nowhere a walker can step.
    pub to: i64,
}

/// A staircase: a 4-connected group of stairs cells.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricStair {
    /// `PREFABRIC_ROLE_STAIRS_UP` (the way in, where the player starts) or
    /// `PREFABRIC_ROLE_STAIRS_DOWN` (the way on).
    pub role: PrefabricRole,
    /// The column of its first cell in reading order.
    pub x: i32,
    /// The row of its first cell.
    pub y: i32,
    /// How many cells it has (1 or more).
    pub cell_count: usize,
    /// The region its first cell belongs to, or -1.
    pub region: i64,
}

/// A staircase that leads to another level of a world.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricExit {
    /// The column of the staircase's first cell.
    pub x: i32,
    /// The row of the staircase's first cell.
    pub y: i32,
    /// Which way it goes: "up", "down" or "branch". A static string; never freed.
    pub way: *const c_char,
    /// The level it leads to, or NULL for the way out of the world. Valid as
    /// long as the map.
    pub to: *const c_char,
    /// Whether the cell it arrives at is known (`arrival_x`, `arrival_y`).
    pub has_arrival: bool,
    /// The column it arrives at on the other level, when known; else 0.
    pub arrival_x: i32,
    /// The row it arrives at on the other level, when known; else 0.
    pub arrival_y: i32,
}

/// A thing on the map: a machine, entity, item, prop, trap or debris.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricObject {
    /// What it is: "machine", "entity", "item", "prop", "trap" or "debris".
    /// A static string; never freed.
    pub kind: *const c_char,
    /// The column of its first cell in reading order.
    pub x: i32,
    /// The row of its first cell.
    pub y: i32,
    /// Its catalog tag, or NULL for a machine no definition names. Valid as
    /// long as the map.
    pub tag: *const c_char,
    /// Whether walkers cannot pass its cells (machines).
    pub blocks: bool,
    /// How many cells it covers.
    pub cell_count: usize,
}

// ---------------------------------------------------------------------------
// The boundary: panics caught, pointers checked.

/// Runs `body`, turning a failure or a panic into the thread's last error and `fallback`.
fn guard<T>(fallback: T, body: impl FnOnce() -> Result<T, Failure>) -> T {
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
fn status(body: impl FnOnce() -> Result<(), Failure>) -> PrefabricStatus {
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
unsafe fn borrow<'a, T>(ptr: *const T, function: &str, what: &str) -> Result<&'a T, Failure> {
    // SAFETY: `as_ref` checks for NULL; a pointer that is not NULL is a live T by the caller's contract.
    unsafe { ptr.as_ref() }.ok_or_else(|| Failure::null(function, what))
}

/// Checks that the out-parameter `out` is not NULL.
fn out_checked<T>(out: *mut T, function: &str) -> Result<(), Failure> {
    if out.is_null() { Err(Failure::null(function, "out")) } else { Ok(()) }
}

/// Writes `value` to the out-parameter `out`, which [`out_checked`] passed.
///
/// # Safety
/// `out` is NULL or points at writable memory for a `T` (the header's contract).
unsafe fn write<T>(out: *mut T, value: T, function: &str) -> Result<(), Failure> {
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
unsafe fn text_arg<'a>(ptr: *const c_char, function: &str, what: &str) -> Result<&'a str, Failure> {
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
unsafe fn take<T>(ptr: *mut T) -> Result<(), Failure> {
    if !ptr.is_null() {
        // SAFETY: made by Box::into_raw in this crate and not yet freed (the caller's contract).
        drop(unsafe { Box::from_raw(ptr) });
    }
    Ok(())
}

/// A NUL-terminated copy of a static name, made once per name for the
/// process (the names are the library's few fixed words: kinds, sides, ways).
fn static_name(name: &'static str) -> *const c_char {
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
fn owned_string(text: &str) -> *mut c_char {
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
        let loaded = prefabric::Pack::embedded().map_err(|p| Failure::pack(&p))?;
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
        let loaded = prefabric::Pack::load(std::path::Path::new(path)).map_err(|p| Failure::pack(&p))?;
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
        let handle = Box::into_raw(Box::new(PrefabricMap {
            map,
            pack: Arc::clone(generator.pack()),
            stairs: OnceLock::new(),
            neighbours: OnceLock::new(),
            tags: OnceLock::new(),
            exit_targets: OnceLock::new(),
        }));
        // SAFETY (inside write): `out` checked above.
        unsafe { write(out, handle, f) }
    })
}

// ---------------------------------------------------------------------------
// Maps.

/// Frees a map. NULL is ignored.
///
/// # Safety
/// `map` is NULL or a map from this library, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_free(map: *mut PrefabricMap) {
    // SAFETY (inside take): the caller's contract.
    guard((), || unsafe { take(map) })
}

/// The map's width in cells (0 when `map` is NULL, with the error recorded).
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_width(map: *const PrefabricMap) -> i32 {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(map, "prefabric_map_width", "map") }?.map.width()))
}

/// The map's height in cells (0 when `map` is NULL, with the error recorded).
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_height(map: *const PrefabricMap) -> i32 {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(map, "prefabric_map_height", "map") }?.map.height()))
}

/// The map's terrain at (`x`, `y`), or an out-of-range failure naming the map's size.
fn terrain_at(map: &PrefabricMap, x: i32, y: i32, f: &str) -> Result<prefabric::Terrain, Failure> {
    map.map.terrain_at(prefabric::Point::new(x, y)).ok_or_else(|| {
        Failure::new(
            PrefabricStatus::OutOfRange,
            format!("{f}: cell ({x}, {y}) is outside the map, which is {}x{}", map.map.width(), map.map.height()),
        )
    })
}

/// Writes the role of the cell at column `x`, row `y` to `*out`. Returns
/// `PREFABRIC_STATUS_OUT_OF_RANGE` for a cell outside the map.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricRole`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_role(
    map: *const PrefabricMap,
    x: i32,
    y: i32,
    out: *mut PrefabricRole,
) -> PrefabricStatus {
    let f = "prefabric_map_role";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let role = ROLES.get(terrain_at(map, x, y, f)?.role_index()).copied().unwrap_or(PrefabricRole::Earth);
        unsafe { write(out, role, f) }
    })
}

/// Writes whether a walker can stand on the cell at column `x`, row `y`
/// (floors, doors, stairs) to `*out`. Returns `PREFABRIC_STATUS_OUT_OF_RANGE`
/// for a cell outside the map.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `bool`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_walkable(
    map: *const PrefabricMap,
    x: i32,
    y: i32,
    out: *mut bool,
) -> PrefabricStatus {
    let f = "prefabric_map_walkable";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let walkable = terrain_at(map, x, y, f)?.is_walkable();
        unsafe { write(out, walkable, f) }
    })
}

/// The map as text, one row a line, each ending in a newline, drawn with the
/// pack's glyphs (objects over terrain): what `prefabric generate --format
/// ascii` prints after its comment line. NULL on failure. Free with
/// `prefabric_string_free`.
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_ascii(map: *const PrefabricMap) -> *mut c_char {
    guard(std::ptr::null_mut(), || {
        // SAFETY (inside borrow): checks for NULL.
        let map = unsafe { borrow(map, "prefabric_map_ascii", "map") }?;
        Ok(owned_string(&render::ascii(&map.map, map.pack.palette())))
    })
}

/// The map as one line of JSON and a newline, in the schema of
/// docs/json-schema.md: the bytes `prefabric generate --format json` writes.
/// NULL on failure. Free with `prefabric_string_free`.
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_json(map: *const PrefabricMap) -> *mut c_char {
    guard(std::ptr::null_mut(), || {
        // SAFETY (inside borrow): checks for NULL.
        let map = unsafe { borrow(map, "prefabric_map_json", "map") }?;
        Ok(owned_string(&render::json(&map.map, &map.pack)))
    })
}

impl PrefabricMap {
    fn neighbours(&self) -> &[Vec<u32>] {
        self.neighbours.get_or_init(|| self.map.regions().iter().map(|r| self.map.neighbours(r.id)).collect())
    }

    fn stairs(&self) -> &[prefabric::Staircase] {
        self.stairs.get_or_init(|| self.map.stairs())
    }

    fn region(&self, index: usize, f: &str) -> Result<&prefabric::Region, Failure> {
        let regions = self.map.regions();
        regions.get(index).ok_or_else(|| Failure::range(f, "region", index, regions.len()))
    }
}

/// How many regions the map has (0 when `map` is NULL, with the error recorded).
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_region_count(map: *const PrefabricMap) -> usize {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(map, "prefabric_map_region_count", "map") }?.map.regions().len()))
}

/// Writes region `index` (0 to `prefabric_map_region_count - 1`) to `*out`.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricRegion`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_region(
    map: *const PrefabricMap,
    index: usize,
    out: *mut PrefabricRegion,
) -> PrefabricStatus {
    let f = "prefabric_map_region";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let r = map.region(index, f)?;
        let region = PrefabricRegion {
            id: r.id,
            kind: static_name(r.kind.name()),
            x: r.bounds.x,
            y: r.bounds.y,
            width: r.bounds.width,
            height: r.bounds.height,
            area: r.area,
            door_count: r.doors.len(),
            neighbour_count: map.neighbours().get(index).map_or(0, Vec::len),
        };
        unsafe { write(out, region, f) }
    })
}

/// Writes door `index` of region `region` to `*out`.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricDoor`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_region_door(
    map: *const PrefabricMap,
    region: usize,
    index: usize,
    out: *mut PrefabricDoor,
) -> PrefabricStatus {
    let f = "prefabric_map_region_door";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let doors = &map.region(region, f)?.doors;
        let d = doors.get(index).ok_or_else(|| Failure::range(f, "door", index, doors.len()))?;
        let door =
            PrefabricDoor { x: d.at.x, y: d.at.y, side: static_name(d.side.name()), to: d.to.map_or(-1, i64::from) };
        unsafe { write(out, door, f) }
    })
}

/// Writes the id of neighbour `index` of region `region` (the regions a
/// walker can step into from it, sorted) to `*out`.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_region_neighbour(
    map: *const PrefabricMap,
    region: usize,
    index: usize,
    out: *mut u32,
) -> PrefabricStatus {
    let f = "prefabric_map_region_neighbour";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        map.region(region, f)?;
        let neighbours = map.neighbours().get(region).map_or(&[][..], Vec::as_slice);
        let id = neighbours.get(index).ok_or_else(|| Failure::range(f, "neighbour", index, neighbours.len()))?;
        unsafe { write(out, *id, f) }
    })
}

/// How many staircases the map has (0 when `map` is NULL, with the error recorded).
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_stair_count(map: *const PrefabricMap) -> usize {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(map, "prefabric_map_stair_count", "map") }?.stairs().len()))
}

/// Writes staircase `index` to `*out`: up first, each in reading order of its
/// first cell (where a game puts the player, and where the way on is).
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricStair`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_stair(
    map: *const PrefabricMap,
    index: usize,
    out: *mut PrefabricStair,
) -> PrefabricStatus {
    let f = "prefabric_map_stair";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let stairs = map.stairs();
        let s = stairs.get(index).ok_or_else(|| Failure::range(f, "staircase", index, stairs.len()))?;
        let first = s.cells.first().copied().unwrap_or_default();
        let stair = PrefabricStair {
            role: if s.role == Role::StairsUp { PrefabricRole::StairsUp } else { PrefabricRole::StairsDown },
            x: first.x,
            y: first.y,
            cell_count: s.cells.len(),
            region: s.region.map_or(-1, i64::from),
        };
        unsafe { write(out, stair, f) }
    })
}

/// How many exits (staircases to other levels of a world) the map has; 0
/// for a map generated on its own, outside a world.
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_exit_count(map: *const PrefabricMap) -> usize {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(map, "prefabric_map_exit_count", "map") }?.map.exits().len()))
}

/// Writes exit `index` to `*out`.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricExit`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_exit(
    map: *const PrefabricMap,
    index: usize,
    out: *mut PrefabricExit,
) -> PrefabricStatus {
    let f = "prefabric_map_exit";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let exits = map.map.exits();
        let e = exits.get(index).ok_or_else(|| Failure::range(f, "exit", index, exits.len()))?;
        let targets = map.exit_targets.get_or_init(|| exits.iter().map(|e| e.to.as_deref().map(c_string)).collect());
        let exit = PrefabricExit {
            x: e.at.x,
            y: e.at.y,
            way: static_name(e.way.name()),
            to: targets.get(index).and_then(Option::as_ref).map_or(std::ptr::null(), |t| t.as_ptr()),
            has_arrival: e.arrival.is_some(),
            arrival_x: e.arrival.map_or(0, |p| p.x),
            arrival_y: e.arrival.map_or(0, |p| p.y),
        };
        unsafe { write(out, exit, f) }
    })
}

/// How many objects the map has (0 when `map` is NULL, with the error recorded).
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_object_count(map: *const PrefabricMap) -> usize {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(map, "prefabric_map_object_count", "map") }?.map.objects().len()))
}

/// Writes object `index` (in placement order) to `*out`.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricObject`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_object(
    map: *const PrefabricMap,
    index: usize,
    out: *mut PrefabricObject,
) -> PrefabricStatus {
    let f = "prefabric_map_object";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let objects = map.map.objects();
        let o = objects.get(index).ok_or_else(|| Failure::range(f, "object", index, objects.len()))?;
        let tags = map.tags.get_or_init(|| objects.iter().map(|o| o.tag.as_deref().map(c_string)).collect());
        let first = o.cells.first().map(|c| c.0).unwrap_or_default();
        let object = PrefabricObject {
            kind: static_name(o.kind.name()),
            x: first.x,
            y: first.y,
            tag: tags.get(index).and_then(Option::as_ref).map_or(std::ptr::null(), |t| t.as_ptr()),
            blocks: o.blocks(),
            cell_count: o.cells.len(),
        };
        unsafe { write(out, object, f) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C roles follow the library's `Role::ALL`, name for name.
    #[test]
    fn roles_follow_the_library_order() {
        let names: Vec<String> = ROLES.iter().map(|r| format!("{r:?}")).collect();
        let library: Vec<String> = Role::ALL.iter().map(|r| r.name().replace('_', "")).collect();
        let ours: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        assert_eq!(ours, library);
    }
}
