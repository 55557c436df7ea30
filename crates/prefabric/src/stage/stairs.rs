//! General stairs trimmed to the map type's count (seed 001: stairs "of a
//! specific or general type, and the game will pick from the available pool if
//! there are too many").
//!
//! Goes in: a map after its encounters, whose prefabs may have drawn general
//! stairs (`stairs` cells: a staircase whose direction is not fixed, or that may
//! not be needed), and the map type's `stairs = { up = U, down = D }`. Each
//! 4-connected group of general stairs cells is one staircase. Stairs drawn
//! with a fixed direction always stay and count first; the general staircases,
//! in an order drawn from the map's `stairs` stream, become stairs up until
//! there are U, then stairs down until there are D, and the rest floor of the
//! region they stand in. Without a count every general staircase becomes stairs
//! down. Too few staircases for the count is traced, not an error: the map is
//! still whole. Floor and stairs are both walkable, so connectivity holds.

use crate::content::maptype::StairsCount;
use crate::geom::Point;
use crate::map::{FloorKind, Map, RegionKind, Role, Terrain};
use crate::rng::Rng;
use crate::trace::Outcome;

/// Runs the stage.
pub(crate) fn run(map: &mut Map, count: Option<StairsCount>, seed: u64) {
    let stairs = map.stairs_cells();
    let mut general = stairs.groups(Role::Stairs);
    if general.is_empty() && count.is_none() {
        return;
    }
    let fixed_up = stairs.groups(Role::StairsUp).len() as u32;
    let fixed_down = stairs.groups(Role::StairsDown).len() as u32;
    let Some(count) = count else {
        let n = general.len();
        for cells in &general {
            set(map, cells, Terrain::new(Role::StairsDown));
        }
        map.trace.push_with("encounters", Outcome::Note, None, || {
            format!("stairs: {n} general staircases became stairs down (no `stairs` count)")
        });
        return;
    };
    Rng::stream(seed, "stairs", "order").shuffle(&mut general);
    let up = count.up.saturating_sub(fixed_up) as usize;
    let down = count.down.saturating_sub(fixed_down) as usize;
    for (i, cells) in general.iter().enumerate() {
        let at = cells[0];
        let (terrain, what) = if i < up {
            (Terrain::new(Role::StairsUp), "stairs up")
        } else if i < up + down {
            (Terrain::new(Role::StairsDown), "stairs down")
        } else {
            (Terrain::new(Role::Floor(floor_kind(map, at))), "floor (not needed)")
        };
        set(map, cells, terrain);
        map.trace.push_with("encounters", Outcome::Chose, None, || {
            format!("stairs: general staircase at {at} became {what}")
        });
    }
    let (got_up, got_down) =
        (fixed_up + general.len().min(up) as u32, fixed_down + general.len().saturating_sub(up).min(down) as u32);
    let message = format!(
        "stairs: up {got_up} of {}, down {got_down} of {} ({} drawn with a direction, {} general)",
        count.up,
        count.down,
        fixed_up + fixed_down,
        general.len()
    );
    let short = got_up < count.up || got_down < count.down;
    let over = fixed_up > count.up || fixed_down > count.down;
    let note = match (short, over) {
        (true, _) => format!("{message}: too few staircases for the count"),
        (_, true) => format!("{message}: more drawn with a direction than the count, all kept"),
        _ => message,
    };
    map.trace.push("encounters", Outcome::Note, note);
}

fn set(map: &mut Map, cells: &[Point], terrain: Terrain) {
    for &p in cells {
        map.terrain[p] = terrain;
    }
}

/// The floor a general staircase not needed becomes: that of the region it is in.
pub(super) fn floor_kind(map: &Map, p: Point) -> FloorKind {
    match map.region_at(p).map(|r| r.laid_out_as) {
        Some(RegionKind::Cave | RegionKind::Passage) => FloorKind::Cave,
        Some(RegionKind::Corridor) => FloorKind::Corridor,
        Some(RegionKind::Junction) => FloorKind::Junction,
        Some(RegionKind::Hall) => FloorKind::Hall,
        _ => FloorKind::Room,
    }
}
