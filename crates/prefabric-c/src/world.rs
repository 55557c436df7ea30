//! A world of levels from C: the pack's `world.toml` made into maps whose
//! stairs lead into each other, every level made when the world is.
//!
//! In: a pack handle with a world and a world seed; level names (`main:3`)
//! and staircase cells. Out: the plan's levels (name, map type, depth, seed),
//! each level's map as a `PrefabricMap` the caller frees, and where a
//! staircase leads (`prefabric_world_follow`). Guarantees: the maps are the
//! library's `World` maps after `World::make_all`, byte for byte in their
//! JSON, every exit's arrival known; `prefabric_world_new` makes them all and
//! keeps owned copies (the library's `World`, which borrows the pack, lives
//! only inside that call), so a world handle is immutable once made, may be
//! read from several threads at once, and keeps its pack alive. A name or
//! staircase the world lacks gets the message the library's `World::level`
//! and `World::follow` give.

use crate::error::{Failure, PrefabricStatus, c_string};
use crate::{PrefabricMap, PrefabricPack, borrow, guard, out_checked, status, take, text_arg, write};
use prefabric::{Error, ErrorKind, Point, World};
use std::ffi::{CString, c_char};
use std::sync::Arc;

/// A world of levels, every level made: made by `prefabric_world_new`,
/// freed with `prefabric_world_free`. Immutable once made. Opaque.
pub struct PrefabricWorld {
    /// The world seed, for messages.
    seed: u64,
    /// The plan's levels, in its order, each with its map.
    levels: Vec<MadeLevel>,
    /// The pack the maps were made from (a map handle reads its objects' names from it).
    pack: Arc<prefabric::Pack>,
}

/// One level of the plan and its map, owned by the world handle.
struct MadeLevel {
    /// Its name, as the library spells it.
    name: String,
    /// Its name for the C caller, valid as long as the world.
    c_name: CString,
    /// Its map type's name for the C caller, valid as long as the world.
    map_type: CString,
    depth: u32,
    seed: u64,
    /// Its map, every exit's arrival known.
    map: prefabric::Map,
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
fn world_failure(f: &str, e: &Error) -> Failure {
    let status =
        if e.kind() == ErrorKind::Invalid { PrefabricStatus::InvalidArgument } else { PrefabricStatus::Generation };
    Failure::new(status, format!("{f}: {e}"))
}

impl PrefabricWorld {
    /// The world of `pack`'s `world.toml` for world seed `seed`, every level
    /// made. The library's world borrows `pack` only here: its plan and maps
    /// are copied out and it is dropped before this returns.
    fn new(pack: Arc<prefabric::Pack>, seed: u64) -> Result<PrefabricWorld, Error> {
        let mut world = World::new(&pack, seed)?.trace(false);
        world.make_all()?;
        let levels = world
            .plan()
            .levels
            .iter()
            .zip(world.maps())
            .map(|(l, map)| MadeLevel {
                name: l.name.clone(),
                c_name: c_string(&l.name),
                map_type: c_string(&l.map_type),
                depth: l.depth,
                seed: l.seed,
                map: map.clone(),
            })
            .collect();
        drop(world);
        Ok(PrefabricWorld { seed, levels, pack })
    }

    /// The index of the level named `name`, or the error `World::level` gives
    /// for a name the world lacks (with the closest name).
    fn index(&self, name: &str) -> Result<usize, Error> {
        if let Some(i) = self.levels.iter().position(|l| l.name == name) {
            return Ok(i);
        }
        let names: Vec<&str> = self.levels.iter().map(|l| l.name.as_str()).collect();
        let help = match prefabric::format::suggest(name, names.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("this world has: {}", names.join(", ")),
        };
        Err(Error::new(ErrorKind::Invalid, format!("world seed {} has no level `{name}`", self.seed)).with_help(help))
    }

    /// Where the staircase whose first cell is `at` on level `from` leads, for
    /// call `f`: the index of the level and the cell arrived on, or the error
    /// `World::follow` gives (a level the world lacks; no staircase there,
    /// with the list of them; the stairs out of the world).
    fn follow(&self, f: &str, from: &str, at: Point) -> Result<(usize, Point), Failure> {
        let exits = self.levels[self.index(from).map_err(|e| world_failure(f, &e))?].map.exits();
        let Some(exit) = exits.iter().find(|e| e.at == at) else {
            let listed: Vec<String> = exits.iter().map(|e| format!("{} {}", e.way.name(), e.at)).collect();
            let e = Error::new(ErrorKind::Invalid, format!("level `{from}` has no staircase at {at}"))
                .with_help(format!("its staircases (by their first cell): {}", listed.join(", ")));
            return Err(world_failure(f, &e));
        };
        let Some(to) = &exit.to else {
            let e = Error::new(ErrorKind::Invalid, format!("the stairs at {at} on `{from}` lead out of the world"));
            return Err(world_failure(f, &e));
        };
        // Every level is made, and `World::make_all` checked that every exit
        // arrives on a walkable cell of a level of the plan: a miss is a bug.
        let bug = |what: String| {
            Failure::new(
                PrefabricStatus::Internal,
                format!("{f}: level `{from}` (world seed {}) {what} (a bug; please report it)", self.seed),
            )
        };
        let index = self
            .levels
            .iter()
            .position(|l| &l.name == to)
            .ok_or_else(|| bug(format!("has an exit at {at} to `{to}`, which is not in the world's plan")))?;
        let arrival = exit.arrival.ok_or_else(|| bug(format!("has an exit at {at} with no arrival")))?;
        Ok((index, arrival))
    }
}

/// Makes the world of `pack`'s `world.toml` for world seed `seed` into
/// `*out`, with every level of its plan: all the levels are made here, at
/// once (the built-in world's 17 to 19 levels take 30 to 50 ms with a release
/// build of this library, about half a second with an unoptimised one; a
/// game calls this once), and the other world calls only read them. Returns
/// `PREFABRIC_STATUS_INVALID_ARGUMENT` for a pack with no world,
/// `PREFABRIC_STATUS_GENERATION` when a level does not generate (the message
/// names it). Free it with `prefabric_world_free`; it keeps its pack alive.
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
        let world = PrefabricWorld::new(pack, seed).map_err(|e| world_failure(f, &e))?;
        let handle = Box::into_raw(Box::new(world));
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
/// `prefabric_world_level_count - 1`, in the order the levels were made: by
/// depth) to `*out`.
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
            PrefabricLevel { name: l.c_name.as_ptr(), map_type: l.map_type.as_ptr(), depth: l.depth, seed: l.seed };
        unsafe { write(out, level, f) }
    })
}

/// Writes a copy of the map of the level named `name` to `*out`, every
/// exit's arrival known (the world made every level); free it with
/// `prefabric_map_free`. Returns `PREFABRIC_STATUS_INVALID_ARGUMENT` for a
/// name the world lacks (the message names the closest).
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
        let index = world.index(name).map_err(|e| world_failure(f, &e))?;
        let map = world.levels[index].map.clone();
        let handle = Box::into_raw(Box::new(PrefabricMap::new(map, Arc::clone(&world.pack))));
        unsafe { write(out, handle, f) }
    })
}

/// Where the staircase whose first cell is column `x`, row `y` on level
/// `from` leads (`PrefabricExit`'s `x` and `y`), written to `*out`: the level
/// and the cell arrived on. What a game calls when the player takes the
/// stairs. Returns `PREFABRIC_STATUS_INVALID_ARGUMENT` for a level the world
/// lacks, a cell with no staircase's first cell (the message lists them) or
/// the stairs out of the world.
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
        let (index, at) = world.follow(f, from, Point::new(x, y))?;
        let level = world.levels[index].c_name.as_ptr();
        unsafe { write(out, PrefabricArrival { level, x: at.x, y: at.y }, f) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in world for seed 7 as the handle holds it, and as the library makes it.
    fn both() -> (PrefabricWorld, Arc<prefabric::Pack>) {
        let pack = Arc::new(prefabric::Pack::embedded().expect("the built-in pack loads"));
        (PrefabricWorld::new(Arc::clone(&pack), 7).expect("the built-in world is made"), pack)
    }

    /// The handle's levels are the library's, in its order, maps byte for byte.
    #[test]
    fn the_handle_holds_every_level_of_the_library_world() {
        let (handle, pack) = both();
        let mut world = World::new(&pack, 7).expect("a world").trace(false);
        world.make_all().expect("every level is made");
        assert_eq!(handle.levels.len(), world.plan().levels.len());
        for ((ours, planned), map) in handle.levels.iter().zip(&world.plan().levels).zip(world.maps()) {
            assert_eq!(
                (ours.name.as_str(), ours.depth, ours.seed),
                (planned.name.as_str(), planned.depth, planned.seed)
            );
            assert_eq!(ours.c_name.to_str(), Ok(planned.name.as_str()));
            assert_eq!(ours.map_type.to_str(), Ok(planned.map_type.as_str()));
            assert_eq!(prefabric::render::json(&ours.map, &pack), prefabric::render::json(map, &pack));
        }
    }

    /// Following every staircase of every level arrives where the library's
    /// `World::follow` does, and a bad name or cell gets its message.
    #[test]
    fn follow_and_its_errors_are_the_library_worlds() {
        let (handle, pack) = both();
        let mut world = World::new(&pack, 7).expect("a world").trace(false);
        let f = "prefabric_world_follow";
        let message = |e: Error| world_failure(f, &e).message;
        let (mut out_of_world, mut followed) = (0, 0);
        for level in &handle.levels {
            for exit in level.map.exits() {
                let ours = handle.follow(f, &level.name, exit.at).map(|(i, p)| (handle.levels[i].name.clone(), p));
                match world.follow(&level.name, exit.at) {
                    Ok(theirs) => {
                        assert_eq!(ours.map_err(|e| e.message).as_ref(), Ok(&theirs));
                        followed += 1;
                    }
                    Err(e) => {
                        let ours = ours.err().map(|e| (e.status, e.message));
                        assert_eq!(ours, Some((PrefabricStatus::InvalidArgument, message(e))));
                        out_of_world += 1;
                    }
                }
            }
        }
        assert!(followed > handle.levels.len() && out_of_world > 0, "{followed} followed, {out_of_world} out");
        let first = handle.levels[0].name.clone();
        let nowhere = Point::new(-5, -5);
        let ours = handle.follow(f, &first, nowhere).err().map(|e| e.message);
        assert_eq!(ours, world.follow(&first, nowhere).err().map(message));
        for name in ["materials:99", "nowhere", ""] {
            let ours = handle.index(name).err().map(|e| e.to_string());
            assert_eq!(ours, world.level(name).err().map(|e| e.to_string()), "{name}");
            let ours = handle.follow(f, name, nowhere).err().map(|e| e.message);
            assert_eq!(ours, world.follow(name, nowhere).err().map(message), "{name}");
        }
    }
}
