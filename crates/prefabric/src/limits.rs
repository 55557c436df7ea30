//! Bounds on untrusted input.
//!
//! Content packs come from users and from the internet. Every reader checks sizes
//! against a [`Limits`] value before it allocates, so a hostile or broken file costs
//! an error message, never gigabytes of memory or minutes of time.

/// Bounds applied when reading content and generating maps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest file a pack may contain, in bytes.
    pub max_file_bytes: u64,
    /// Most files a pack may contain.
    pub max_pack_files: u32,
    /// Longest side of a prefab, in cells.
    pub max_prefab_side: u32,
    /// Most prefabs in one file.
    pub max_prefabs_per_file: u32,
    /// Longest side of a map, in cells.
    pub max_map_side: u32,
    /// The most bytes a REXPaint `.xp` file may decompress to. The default, 128 MiB,
    /// holds a 2048x2048 map (the default [`max_map_side`](Limits::max_map_side)) in
    /// three layers: 2048 * 2048 cells * 3 layers * 10 bytes a cell is 120 MiB, plus
    /// 8 bytes of file header and 8 of size for each layer.
    pub max_xp_bytes: u64,
    /// Most definitions in one `.def` file. (Definitions do not chain: a line
    /// names catalog entries, and an item's faulty variant may not have one of
    /// its own, so no chain of references is longer than one link.)
    pub max_def_lines: u32,
    /// Most encounters in one map type's pool. Every encounter is checked at
    /// load and entered in every slot's race, so a pool is kept to a size a
    /// designer writes by hand.
    pub max_encounters: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_bytes: 8 * 1024 * 1024,
            max_pack_files: 10_000,
            max_prefab_side: 256,
            max_prefabs_per_file: 1_000,
            max_map_side: 2_048,
            max_xp_bytes: 128 * 1024 * 1024,
            max_def_lines: 10_000,
            max_encounters: 10_000,
        }
    }
}
