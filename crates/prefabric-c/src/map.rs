//! Reading a generated map from C: its size, seed and depth, every cell's
//! role, walkability, passability, glyph, region and staircase, its regions
//! with their doors, openings and neighbours, its staircases and their cells,
//! its exits to other levels, its objects with their cells and keywords, and
//! its text and JSON.
//!
//! In: a `PrefabricMap` handle (made by `prefabric_generate` or
//! `prefabric_world_level`) and indices or cells. Out: plain values and
//! `#[repr(C)]` records written to out-parameters. Guarantees: every index is
//! checked against its count and every cell against the map's size (an
//! `OUT_OF_RANGE` status naming both); strings inside records are either
//! static (kinds, sides, ways) or live as long as the map (tags, names,
//! keywords, level names), made once per map on first use, so reading never
//! allocates anything the caller must free; only `prefabric_map_ascii` and
//! `prefabric_map_json` hand out strings the caller frees.

use crate::error::{Failure, PrefabricStatus, c_string};
use crate::{borrow, guard, out_checked, owned_string, static_name, status, take, write};
use prefabric::{Point, render};
use std::ffi::{CString, c_char};
use std::sync::{Arc, OnceLock};

/// A generated map. Opaque; free with `prefabric_map_free`.
pub struct PrefabricMap {
    pub(crate) map: prefabric::Map,
    pub(crate) pack: Arc<prefabric::Pack>,
    pub(crate) stairs: OnceLock<Vec<prefabric::Staircase>>,
    /// For each cell in reading order, the index of the staircase on it, or -1.
    pub(crate) stair_cells: OnceLock<Vec<i64>>,
    pub(crate) neighbours: OnceLock<Vec<Vec<u32>>>,
    pub(crate) objects: OnceLock<Vec<ObjectText>>,
    pub(crate) exit_targets: OnceLock<Vec<Option<CString>>>,
    /// Every cell's glyph in reading order, objects over terrain (as `render::ascii` draws them).
    pub(crate) glyphs: OnceLock<Vec<char>>,
    pub(crate) map_type: OnceLock<CString>,
}

/// The strings of one object, kept alive for the C caller as long as the map.
pub(crate) struct ObjectText {
    pub(crate) tag: Option<CString>,
    pub(crate) name: Option<CString>,
    pub(crate) keywords: Vec<(CString, Option<CString>)>,
}

impl PrefabricMap {
    /// A handle's contents for `map`, generated from `pack`.
    pub(crate) fn new(map: prefabric::Map, pack: Arc<prefabric::Pack>) -> PrefabricMap {
        PrefabricMap {
            map,
            pack,
            stairs: OnceLock::new(),
            stair_cells: OnceLock::new(),
            neighbours: OnceLock::new(),
            objects: OnceLock::new(),
            exit_targets: OnceLock::new(),
            glyphs: OnceLock::new(),
            map_type: OnceLock::new(),
        }
    }
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

/// What the entry points share: each part, its index checked.
impl PrefabricMap {
    pub(crate) fn neighbours(&self) -> &[Vec<u32>] {
        self.neighbours.get_or_init(|| self.map.regions().iter().map(|r| self.map.neighbours(r.id)).collect())
    }

    pub(crate) fn stairs(&self) -> &[prefabric::Staircase] {
        self.stairs.get_or_init(|| self.map.stairs())
    }

    pub(crate) fn region(&self, index: usize, f: &str) -> Result<&prefabric::Region, Failure> {
        let regions = self.map.regions();
        regions.get(index).ok_or_else(|| Failure::range(f, "region", index, regions.len()))
    }

    pub(crate) fn staircase(&self, index: usize, f: &str) -> Result<&prefabric::Staircase, Failure> {
        let stairs = self.stairs();
        stairs.get(index).ok_or_else(|| Failure::range(f, "staircase", index, stairs.len()))
    }

    pub(crate) fn object(&self, index: usize, f: &str) -> Result<&prefabric::Object, Failure> {
        let objects = self.map.objects();
        objects.get(index).ok_or_else(|| Failure::range(f, "object", index, objects.len()))
    }

    /// The strings of every object, made on first use.
    pub(crate) fn object_texts(&self) -> &[ObjectText] {
        self.objects.get_or_init(|| {
            let catalog = self.pack.catalog();
            let texts = self.map.objects().iter().map(|o| ObjectText {
                tag: o.tag.as_deref().map(c_string),
                name: o.tag.as_deref().and_then(|tag| catalog.name_of(o.kind, tag)).map(c_string),
                keywords: o.keywords.iter().map(|(k, v)| (c_string(k), v.as_deref().map(c_string))).collect(),
            });
            texts.collect()
        })
    }

    /// The index in reading order of the cell (`x`, `y`), or an out-of-range failure naming the map's size.
    pub(crate) fn cell_index(&self, x: i32, y: i32, f: &str) -> Result<usize, Failure> {
        self.map.terrain().index_of(Point::new(x, y)).ok_or_else(|| {
            Failure::new(
                PrefabricStatus::OutOfRange,
                format!("{f}: cell ({x}, {y}) is outside the map, which is {}x{}", self.map.width(), self.map.height()),
            )
        })
    }
}

// ---------------------------------------------------------------------------
// The map as a whole.

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
        let index = terrain_at(map, x, y, f)?.role_index();
        let role = ROLES.get(index).copied().ok_or_else(|| {
            Failure::new(
                PrefabricStatus::Internal,
                format!("{f}: role {index} has no C name (a bug; please report it)"),
            )
        })?;
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

/// The seed the map was generated for (0 when `map` is NULL, with the error
/// recorded): for a world's level, the level's own seed from the world's plan.
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_seed(map: *const PrefabricMap) -> u64 {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(map, "prefabric_map_seed", "map") }?.map.seed()))
}

/// The depth the map was generated for (0 when `map` is NULL, with the error recorded).
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_depth(map: *const PrefabricMap) -> u32 {
    // SAFETY (inside borrow): checks for NULL.
    guard(0, || Ok(unsafe { borrow(map, "prefabric_map_depth", "map") }?.map.depth()))
}

/// The name of the map's map type; NULL when `map` is NULL (with the error
/// recorded). Valid as long as the map; never freed by the caller.
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_map_type(map: *const PrefabricMap) -> *const c_char {
    guard(std::ptr::null(), || {
        // SAFETY (inside borrow): checks for NULL.
        let map = unsafe { borrow(map, "prefabric_map_map_type", "map") }?;
        Ok(map.map_type.get_or_init(|| c_string(map.map.map_type())).as_ptr())
    })
}

/// How the pack's walkers step, which decides what "a walker can step into"
/// means for `prefabric_map_passable` and the regions' neighbours:
/// "orthogonal" (4 ways) or "diagonal" (8 ways). NULL when `map` is NULL
/// (with the error recorded). A static string; never freed.
///
/// # Safety
/// `map` is NULL or a live map.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_moves(map: *const PrefabricMap) -> *const c_char {
    // SAFETY (inside borrow): checks for NULL.
    guard(std::ptr::null(), || {
        Ok(static_name(unsafe { borrow(map, "prefabric_map_moves", "map") }?.map.moves().name()))
    })
}

// ---------------------------------------------------------------------------
// One cell.

/// Writes whether a walker can pass the cell at column `x`, row `y` to
/// `*out`: walkable, and no machine on it. Every passable cell reaches every
/// other, stepping as `prefabric_map_moves` says. Returns
/// `PREFABRIC_STATUS_OUT_OF_RANGE` for a cell outside the map.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `bool`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_passable(
    map: *const PrefabricMap,
    x: i32,
    y: i32,
    out: *mut bool,
) -> PrefabricStatus {
    let f = "prefabric_map_passable";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        map.cell_index(x, y, f)?;
        let passable = map.map.is_passable(Point::new(x, y));
        unsafe { write(out, passable, f) }
    })
}

/// Writes the glyph drawn at column `x`, row `y` (an object's over the
/// terrain's, as `prefabric_map_ascii` draws it) to `*out`, as a Unicode code
/// point. Returns `PREFABRIC_STATUS_OUT_OF_RANGE` for a cell outside the map.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_glyph(
    map: *const PrefabricMap,
    x: i32,
    y: i32,
    out: *mut u32,
) -> PrefabricStatus {
    let f = "prefabric_map_glyph";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let i = map.cell_index(x, y, f)?;
        let glyphs = map.glyphs.get_or_init(|| {
            let palette = map.pack.palette();
            let terrain = map.map.terrain();
            let mut glyphs: Vec<char> = terrain.cells().iter().map(|t| palette.render_glyph(*t)).collect();
            for object in map.map.objects() {
                for &(p, glyph) in &object.cells {
                    if let Some(g) = terrain.index_of(p).and_then(|i| glyphs.get_mut(i)) {
                        *g = glyph;
                    }
                }
            }
            glyphs
        });
        let glyph = glyphs.get(i).copied().unwrap_or(' ');
        unsafe { write(out, u32::from(glyph), f) }
    })
}

/// Writes the id of the region the cell at column `x`, row `y` belongs to,
/// or -1 for a cell of no region (rock, walls), to `*out`. Returns
/// `PREFABRIC_STATUS_OUT_OF_RANGE` for a cell outside the map.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_region_at(
    map: *const PrefabricMap,
    x: i32,
    y: i32,
    out: *mut i64,
) -> PrefabricStatus {
    let f = "prefabric_map_region_at";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        map.cell_index(x, y, f)?;
        let id = map.map.region_at(Point::new(x, y)).map_or(-1, |r| i64::from(r.id));
        unsafe { write(out, id, f) }
    })
}

/// Writes the index (for `prefabric_map_stair`) of the staircase the cell at
/// column `x`, row `y` is part of, or -1 for a cell with no stairs, to
/// `*out`: what a game asks when the player steps on a cell. Returns
/// `PREFABRIC_STATUS_OUT_OF_RANGE` for a cell outside the map.
///
/// # Safety
/// `map` is NULL or a live map; `out` is NULL or points at a writable `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn prefabric_map_stair_at(
    map: *const PrefabricMap,
    x: i32,
    y: i32,
    out: *mut i64,
) -> PrefabricStatus {
    let f = "prefabric_map_stair_at";
    status(|| {
        // SAFETY (inside borrow, write): each checks for NULL.
        let map = unsafe { borrow(map, f, "map") }?;
        out_checked(out, f)?;
        let i = map.cell_index(x, y, f)?;
        let cells = map.stair_cells.get_or_init(|| {
            let terrain = map.map.terrain();
            let mut cells = vec![-1; terrain.cells().len()];
            for (s, stair) in map.stairs().iter().enumerate() {
                for &p in &stair.cells {
                    if let Some(c) = terrain.index_of(p).and_then(|i| cells.get_mut(i)) {
                        *c = s as i64;
                    }
                }
            }
            cells
        });
        unsafe { write(out, cells.get(i).copied().unwrap_or(-1), f) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use prefabric::Role;

    /// The C roles follow the library's `Role::ALL`, name for name.
    #[test]
    fn roles_follow_the_library_order() {
        let names: Vec<String> = ROLES.iter().map(|r| format!("{r:?}")).collect();
        let library: Vec<String> = Role::ALL.iter().map(|r| r.name().replace('_', "")).collect();
        let ours: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();
        assert_eq!(ours, library);
    }
}
