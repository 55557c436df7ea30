//! A world of levels from C: the pack's `world.toml` made into maps whose
//! stairs lead into each other, level by level as the game asks for them.
//!
//! In: a pack handle with a world and a world seed; level names (`main:3`)
//! and staircase cells. Out: the plan's levels (name, map type, depth, seed),
//! each level's map as a `PrefabricMap` the caller frees, and where a
//! staircase leads (`prefabric_world_follow`). Guarantees: the maps are the
//! library's `World` maps, byte for byte in their JSON, whatever order they
//! are asked for in; a world is locked while a call makes its levels, so it
//! may be shared between threads; it keeps its pack alive.

use crate::error::{Failure, PrefabricStatus, c_string};
use crate::{PrefabricMap, PrefabricPack, borrow, guard, out_checked, status, take, text_arg, write};
use prefabric::{ErrorKind, Point, World};
use std::ffi::{CString, c_char};
use std::sync::{Arc, Mutex};

/// A world of levels: made by `prefabric_world_new`, freed with
/// `prefabric_world_free`. Opaque.
pub struct PrefabricWorld {
    // Field order matters: `world` borrows the pack `pack` holds, and Rust
    // drops fields in order, so the world goes first.
    /// The library's world, its lifetime widened to 'static (see `prefabric_world_new`).
    world: Mutex<World<'static>>,
    /// The plan's levels' strings, kept for the C caller as long as the world.
    levels: Vec<LevelText>,
    /// The pack the world borrows, alive until the world is dropped.
    pack: Arc<prefabric::Pack>,
}

/// One planned level, its strings kept for the C caller (read without locking the world).
struct LevelText {
    name: CString,
    map_type: CString,
    depth: u32,
    seed: u64,
}

/// One level of a world's plan.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricLevel {
    /// Its name, `LINE:NUMBER` (`materials:3`). Valid as long as the world.
    pub name: *const c_char,
    /// Its map type's name. Valid as long as the world.
    pub map_type: *const c_char,
    /// The depth it is generated for.
    pub depth: u32,
    /// The seed its map is generated for.
    pub seed: u64,
}

/// Where a staircase leads: a level and the cell the walker arrives on.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricArrival {
    /// The level's name. Valid as long as the world.
    pub level: *const c_char,
    /// The column arrived at on that level.
    pub x: i32,
    /// The row arrived at on that level.
    pub y: i32,
}

/// A world's failure as a status: a name or cell the world lacks is an
/// invalid argument; anything else (a level that did not generate) a
/// generation failure.
fn world_failure(f: &str, e: &prefabric::Error) -> Failure {
    let status =
        if e.kind() == ErrorKind::Invalid { PrefabricStatus::InvalidArgument } else { PrefabricStatus::Generation };
    Failure::new(status, format!("{f}: {e}"))
}

impl PrefabricWorld {
    /// The world, locked for one call.
    fn lock(&self, f: &str) -> Result<std::sync::MutexGuard<'_, World<'static>>, Failure> {
        self.world.lock().map_err(|_| {
            Failure::new(
                PrefabricStatus::Internal,
                format!(
                    "{f}: the world failed inside an earlier call (a bug; please report it); free it and make it again"
                ),
            )
        })
    }
}

/// Makes the world of `pack`'s `world.toml` for world seed `seed` into
/// `*out`; no level is made yet (each is made when first asked for). Returns
/// `PREFABRIC_STATUS_INVALID_ARGUMENT` for a pack with no world. Free it with
/// `prefabric_world_free`; it keeps its pack alive.
///
/// # Safety
/// `pack` is NULL or a live pack; `out` is NULL or points at a writable `PrefabricWorld *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_world_new(
    pack: *const PrefabricPack,
    seed: u64,
    out: *mut *mut PrefabricWorld,
) -> PrefabricStatus {
    let f = "prefabric_world_new";
    status(|| {
        // SAFETY (inside borrow): checks for NULL.
        let pack = Arc::clone(unsafe { borrow(pack, f, "pack") }?.pack());
        out_checked(out, f)?;
        // SAFETY: the pack lives in its Arc's allocation, which `PrefabricWorld::pack`
        // keeps alive, unmoved and unchanged (a Pack is never mutated through an Arc),
        // until the handle is dropped; the world that borrows it is the field dropped
        // first, and no reference with the widened lifetime leaves the handle (maps are
        // cloned out, strings copied).
        let borrowed: &'static prefabric::Pack = unsafe { &*Arc::as_ptr(&pack) };
        let world = World::new(borrowed, seed).map_err(|e| world_failure(f, &e))?.trace(false);
        let levels = world
            .plan()
            .levels
            .iter()
            .map(|l| LevelText {
                name: c_string(&l.name),
                map_type: c_string(&l.map_type),
                depth: l.depth,
                seed: l.seed,
            })
            .collect();
        let handle = Box::into_raw(Box::new(PrefabricWorld { world: Mutex::new(world), levels, pack }));
        // SAFETY (inside write): `out` checked above.
        unsafe { write(out, handle, f) }
    })
}

/// Frees a world. Maps it handed out stay valid. NULL is ignored.
///
/// # Safety
/// `world` is NULL or a world from this library, not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_world_free(world: *mut PrefabricWorld) {
    // SAFETY (inside take): the caller's contract.
    guard((), || unsafe { take(world) })
}

/// How many levels the world's plan has (0 when `world` is NULL, with the error recorded).
///
/// # Safety
/// `world` is NULL or a live world.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_world_level_count(world: *const PrefabricWorld) -> usize {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(world, "prefabric_world_level_count", "world") }?.levels.len()))
}

/// Writes level `index` of the world's plan (0 to
/// `prefabric_world_level_count - 1`, in the order the levels are made: by
/// depth) to `*out`. Makes no map, and does not wait for a call making one.
///
/// # Safety
/// `world` is NULL or a live world; `out` is NULL or points at a writable `PrefabricLevel`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_world_level_info(
    world: *const PrefabricWorld,
    index: usize,
    out: *mut PrefabricLevel,
) -> PrefabricStatus {
    let f = "prefabric_world_level_info";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let world = unsafe { borrow(world, f, "world") }?;
        out_checked(out, f)?;
        let levels = &world.levels;
        let l = levels.get(index).ok_or_else(|| Failure::range(f, "level", index, levels.len()))?;
        let level =
            PrefabricLevel { name: l.name.as_ptr(), map_type: l.map_type.as_ptr(), depth: l.depth, seed: l.seed };
        unsafe { write(out, level, f) }
    })
}

/// Makes the level named `name` (and every level before it in the plan, if
/// not made yet) and writes a copy of its map to `*out`; free it with
/// `prefabric_map_free`. The copy is the level as it stands: an exit's
/// arrival is known once the level it leads to is made
/// (`prefabric_world_follow` makes it). Returns
/// `PREFABRIC_STATUS_INVALID_ARGUMENT` for a name the world lacks (the
/// message names the closest), `PREFABRIC_STATUS_GENERATION` when a level
/// does not generate.
///
/// # Safety
/// `world` is NULL or a live world; `name` is NULL or a NUL-terminated
/// string; `out` is NULL or points at a writable `PrefabricMap *`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_world_level(
    world: *const PrefabricWorld,
    name: *const c_char,
    out: *mut *mut PrefabricMap,
) -> PrefabricStatus {
    let f = "prefabric_world_level";
    status(|| {
        // SAFETY (inside borrow, text_arg, write): each checks for NULL.
        let world = unsafe { borrow(world, f, "world") }?;
        let name = unsafe { text_arg(name, f, "name") }?;
        out_checked(out, f)?;
        let map = world.lock(f)?.level(name).map_err(|e| world_failure(f, &e))?.clone();
        let handle = Box::into_raw(Box::new(PrefabricMap::new(map, Arc::clone(&world.pack))));
        unsafe { write(out, handle, f) }
    })
}

/// Where the staircase whose first cell is column `x`, row `y` on level
/// `from` leads (`PrefabricExit`'s `x` and `y`), written to `*out`: the level
/// and the cell arrived on, making both levels if they are not made yet.
/// What a game calls when the player takes the stairs. Returns
/// `PREFABRIC_STATUS_INVALID_ARGUMENT` for a level the world lacks, a cell
/// with no staircase's first cell (the message lists them) or the stairs out
/// of the world.
///
/// # Safety
/// `world` is NULL or a live world; `from` is NULL or a NUL-terminated
/// string; `out` is NULL or points at a writable `PrefabricArrival`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_world_follow(
    world: *const PrefabricWorld,
    from: *const c_char,
    x: i32,
    y: i32,
    out: *mut PrefabricArrival,
) -> PrefabricStatus {
    let f = "prefabric_world_follow";
    status(|| {
        // SAFETY (inside borrow, text_arg, write): each checks for NULL.
        let world = unsafe { borrow(world, f, "world") }?;
        let from = unsafe { text_arg(from, f, "from") }?;
        out_checked(out, f)?;
        let mut locked = world.lock(f)?;
        let (to, at) = locked.follow(from, Point::new(x, y)).map_err(|e| world_failure(f, &e))?;
        let index = locked.plan().index(&to);
        drop(locked);
        let level = index.and_then(|i| world.levels.get(i)).ok_or_else(|| {
            Failure::new(
                PrefabricStatus::Internal,
                format!("{f}: level `{to}` is not in the world's plan (a bug; please report it)"),
            )
        })?;
        unsafe { write(out, PrefabricArrival { level: level.name.as_ptr(), x: at.x, y: at.y }, f) }
    })
}
