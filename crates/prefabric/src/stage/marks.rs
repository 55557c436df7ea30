//! Cell marks: the names a placed prefab's legend gives its cells
//! (`legend: w = liquid mark no_monster_gen`), laid on the map for the game to
//! read.
//!
//! In: a map whose prefabs are all placed (every stage that places one has
//! run), and the pack they came from. Out: [`Map::marks`] filled, each mark's
//! cells in reading order. Marks change no terrain, object or region, and no
//! stage before this one reads them; only prefabs that may carry a mark are
//! looked at again, so a pack without marks pays nothing.

use crate::content::Pack;
use crate::geom::Point;
use crate::map::Map;

/// Lays the marks of every placed prefab that carries some.
pub(crate) fn run(map: &mut Map, pack: &Pack) {
    for placed in &map.prefabs {
        if !pack.prefab(&placed.name).is_some_and(|p| p.may_mark()) {
            continue;
        }
        let Some(oriented) = pack.placed(placed) else { continue };
        let origin = Point::new(placed.bounds.x, placed.bounds.y);
        for mark in oriented.marks() {
            map.marks.entry(mark.name.clone()).or_default().push(origin + mark.at);
        }
    }
    for cells in map.marks.values_mut() {
        cells.sort_by_key(|p| (p.y, p.x));
        cells.dedup();
    }
}
