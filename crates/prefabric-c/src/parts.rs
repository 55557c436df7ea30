//! The parts of a generated map, read from C: its regions with their doors,
//! openings and neighbours, its staircases and their cells, its exits to
//! other levels of a world, and its objects with their cells and keywords.
//!
//! In: a `PrefabricMap` handle and indices. Out: `#[repr(C)]` records
//! written to out-parameters. Guarantees: every index is checked against its
//! count (an `OUT_OF_RANGE` status naming both); the strings in the records
//! are static (kinds, sides, ways) or live as long as the map (tags, names,
//! keywords, level names), so nothing read here is freed by the caller.

use crate::error::{Failure, PrefabricStatus, c_string};
use crate::map::PrefabricRole;
use crate::{PrefabricMap, borrow, guard, out_checked, static_name, status, write};
use prefabric::Role;
use std::ffi::{CString, c_char};

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
    /// How many openings it has (`prefabric_map_region_opening`): cells where
    /// a walker steps straight into another region with no door of this one.
    pub opening_count: usize,
}

/// A way out of a region: a door cell or an opening in its wall
/// (`prefabric_map_region_door`), or a cell where it meets another region
/// with no door (`prefabric_map_region_opening`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricDoor {
    /// The door cell's column (for an opening, the first cell of the region beyond).
    pub x: i32,
    /// The door cell's row.
    pub y: i32,
    /// The side of the region it is on: "north", "east", "south" or "west".
    /// A static string; never freed.
    pub side: *const c_char,
    /// The id of the region on its other side, or -1 when it leads nowhere a walker can step.
    pub to: i64,
}

/// A staircase: a 4-connected group of stairs cells (its cells are read
/// with `prefabric_map_stair_cell`, the staircase on a cell with
/// `prefabric_map_stair_at`).
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
    /// Its catalog entry's name, or NULL where the catalog has none. Valid as
    /// long as the map.
    pub name: *const c_char,
    /// Whether walkers cannot pass its cells (machines).
    pub blocks: bool,
    /// How many cells it covers (`prefabric_map_object_cell`).
    pub cell_count: usize,
    /// How many game keywords its definition gives it (`prefabric_map_object_keyword`).
    pub keyword_count: usize,
}

/// One cell of an object and the glyph drawn there.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricObjectCell {
    /// The cell's column.
    pub x: i32,
    /// The cell's row.
    pub y: i32,
    /// The glyph drawn there, as a Unicode code point.
    pub glyph: u32,
}

/// A game keyword of an object, from its definition, passed through untouched.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricKeyword {
    /// The keyword. Valid as long as the map.
    pub name: *const c_char,
    /// Its value, or NULL for a flag (a keyword with no value). Valid as long as the map.
    pub value: *const c_char,
}

/// A cell of the map, for `prefabric_map_stair_cell`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricPoint {
    /// The column.
    pub x: i32,
    /// The row.
    pub y: i32,
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
            opening_count: r.openings.len(),
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

/// Writes opening `index` of region `region` to `*out`: a cell where a
/// walker steps straight into another region with no door of this one (a
/// corridor meeting a junction, a cavern opening into a passage). With its
/// doors, every way out of the region.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricDoor`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_region_opening(
    map: *const PrefabricMap,
    region: usize,
    index: usize,
    out: *mut PrefabricDoor,
) -> PrefabricStatus {
    let f = "prefabric_map_region_opening";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let openings = &map.region(region, f)?.openings;
        let d = openings.get(index).ok_or_else(|| Failure::range(f, "opening", index, openings.len()))?;
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
        let s = map.staircase(index, f)?;
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

/// Writes cell `index` (0 to the staircase's `cell_count - 1`, in reading
/// order) of staircase `stair` to `*out`.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricPoint`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_stair_cell(
    map: *const PrefabricMap,
    stair: usize,
    index: usize,
    out: *mut PrefabricPoint,
) -> PrefabricStatus {
    let f = "prefabric_map_stair_cell";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let cells = &map.staircase(stair, f)?.cells;
        let p = cells.get(index).ok_or_else(|| Failure::range(f, "cell", index, cells.len()))?;
        unsafe { write(out, PrefabricPoint { x: p.x, y: p.y }, f) }
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
        let o = map.object(index, f)?;
        let text = map.object_texts().get(index);
        let ptr = |s: Option<&CString>| s.map_or(std::ptr::null(), |s| s.as_ptr());
        let first = o.cells.first().map(|c| c.0).unwrap_or_default();
        let object = PrefabricObject {
            kind: static_name(o.kind.name()),
            x: first.x,
            y: first.y,
            tag: ptr(text.and_then(|t| t.tag.as_ref())),
            name: ptr(text.and_then(|t| t.name.as_ref())),
            blocks: o.blocks(),
            cell_count: o.cells.len(),
            keyword_count: o.keywords.len(),
        };
        unsafe { write(out, object, f) }
    })
}

/// Writes cell `index` (0 to the object's `cell_count - 1`, in reading
/// order) of object `object`, with the glyph drawn there, to `*out`.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricObjectCell`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_object_cell(
    map: *const PrefabricMap,
    object: usize,
    index: usize,
    out: *mut PrefabricObjectCell,
) -> PrefabricStatus {
    let f = "prefabric_map_object_cell";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let cells = &map.object(object, f)?.cells;
        let &(p, glyph) = cells.get(index).ok_or_else(|| Failure::range(f, "cell", index, cells.len()))?;
        unsafe { write(out, PrefabricObjectCell { x: p.x, y: p.y, glyph: u32::from(glyph) }, f) }
    })
}

/// Writes game keyword `index` (0 to the object's `keyword_count - 1`, in
/// its definition's order) of object `object` to `*out`. Its strings are
/// valid as long as the map.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `PrefabricKeyword`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_object_keyword(
    map: *const PrefabricMap,
    object: usize,
    index: usize,
    out: *mut PrefabricKeyword,
) -> PrefabricStatus {
    let f = "prefabric_map_object_keyword";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        map.object(object, f)?;
        let keywords = map.object_texts().get(object).map_or(&[][..], |t| t.keywords.as_slice());
        let (name, value) = keywords.get(index).ok_or_else(|| Failure::range(f, "keyword", index, keywords.len()))?;
        let keyword =
            PrefabricKeyword { name: name.as_ptr(), value: value.as_ref().map_or(std::ptr::null(), |v| v.as_ptr()) };
        unsafe { write(out, keyword, f) }
    })
}
