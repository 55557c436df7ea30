//! How secluded a floor cell is: its walking distance from the nearest corridor,
//! junction or cave passage, for putting loose items out of the way (seed 003).
//!
//! In: a map after layout. Out: a distance per asked cell, `u32::MAX` where no
//! corridor can be reached; the work stays within about two floods of the map
//! however many cells are asked about.

use crate::geom::Point;
use crate::map::{FloorKind, Map, RegionKind, Role};

/// How secluded a cell is: its walking distance, through passable cells, from the
/// nearest corridor, junction or cave passage cell: 0 on those, growing into
/// rooms behind rooms and into caverns; `u32::MAX` when no corridor can be reached. Found by a breadth-first
/// search from the cell that stops at the first corridor, so a map's few loose
/// items cost a few small searches rather than a flood of the whole map. Once the
/// searches together have visited as many cells as the map has, one search from
/// every corridor at once answers the rest, so the work never exceeds about two
/// floods whatever the map and the item count.
pub(super) struct Seclusion {
    /// The search each cell was last seen by.
    seen: Vec<u16>,
    search: u16,
    frontier: Vec<Point>,
    next: Vec<Point>,
    /// Cells visited by the searches so far.
    work: usize,
    /// Every cell's seclusion, once the searches have cost a flood.
    flooded: Option<Vec<u32>>,
}

impl Seclusion {
    pub(super) fn new(map: &Map) -> Seclusion {
        let cells = map.terrain.cells().len();
        Seclusion { seen: vec![0; cells], search: 0, frontier: Vec::new(), next: Vec::new(), work: 0, flooded: None }
    }

    pub(super) fn of(&mut self, map: &Map, p: Point) -> u32 {
        let w = map.width();
        let index = |q: Point| (q.y * w + q.x) as usize;
        if let Some(all) = &self.flooded {
            return all[index(p)];
        }
        if self.work > self.seen.len() {
            let all = flood_seclusion(map);
            let answer = all[index(p)];
            self.flooded = Some(all);
            return answer;
        }
        if is_busy(map, p) {
            return 0;
        }
        if self.search == u16::MAX {
            self.seen.fill(0);
            self.search = 0;
        }
        self.search += 1;
        self.frontier.clear();
        self.frontier.push(p);
        self.seen[index(p)] = self.search;
        let mut distance = 0u32;
        // Each step asked of the map's layers by index: a search looks at a
        // few hundred cells, four or eight ways each.
        let bounds = map.bounds();
        while !self.frontier.is_empty() {
            distance += 1;
            self.next.clear();
            for &c in &self.frontier {
                for &step in map.moves.steps() {
                    let q = c + step;
                    if !bounds.contains(q) {
                        continue;
                    }
                    let i = index(q);
                    if !map.is_passable_at(i) || self.seen[i] == self.search {
                        continue;
                    }
                    if is_busy_at(map, i) {
                        return distance;
                    }
                    self.seen[i] = self.search;
                    self.next.push(q);
                }
            }
            self.work += self.next.len();
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        u32::MAX
    }
}

/// True on corridor and junction floor and in a cave's passages: the busy ways
/// seclusion is measured from.
fn is_busy(map: &Map, p: Point) -> bool {
    map.terrain.index_of(p).is_some_and(|i| is_busy_at(map, i))
}

/// [`is_busy`] of the cell at index `i` (row-major) of the map.
fn is_busy_at(map: &Map, i: usize) -> bool {
    let t = map.terrain.cells()[i];
    t.is(Role::Floor(FloorKind::Corridor))
        || t.is(Role::Floor(FloorKind::Junction))
        || map.regions.get(map.region_of.cells()[i] as usize).is_some_and(|r| r.kind == RegionKind::Passage)
}

/// Every cell's seclusion at once: a breadth-first search from every passable
/// corridor, junction and passage cell.
pub(super) fn flood_seclusion(map: &Map) -> Vec<u32> {
    let bounds = map.bounds();
    let mut distance = vec![u32::MAX; map.terrain.cells().len()];
    let mut queue: std::collections::VecDeque<Point> = std::collections::VecDeque::new();
    for p in bounds.points() {
        if is_busy(map, p) && map.is_passable(p) {
            distance[map.terrain.index_of(p).unwrap_or(0)] = 0;
            queue.push_back(p);
        }
    }
    while let Some(p) = queue.pop_front() {
        let next = distance[map.terrain.index_of(p).unwrap_or(0)] + 1;
        for &step in map.moves.steps() {
            let q = p + step;
            if let Some(j) = map.terrain.index_of(q)
                && distance[j] == u32::MAX
                && map.is_passable(q)
            {
                distance[j] = next;
                queue.push_back(q);
            }
        }
    }
    distance
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stage::furnish::tests::rooms_behind_rooms;

    #[test]
    fn seclusion_searches_agree_with_the_flood() {
        let map = rooms_behind_rooms();
        let all = flood_seclusion(&map);
        let mut searches = Seclusion::new(&map);
        for p in map.bounds().points().filter(|&p| map.is_passable(p)) {
            assert_eq!(searches.of(&map, p), all[map.terrain.index_of(p).unwrap()], "at {p}");
        }
        // The corridor is 0; the first room's far corner is the door, the cell
        // inside it and 2 + 3 steps on; the room behind it further; the closet
        // unreached.
        assert_eq!(all[map.terrain.index_of(Point::new(5, 2)).unwrap()], 0);
        assert_eq!(all[map.terrain.index_of(Point::new(3, 7)).unwrap()], 1 + 1 + 2 + 3);
        assert!(all[map.terrain.index_of(Point::new(14, 7)).unwrap()] > 10);
        assert_eq!(all[map.terrain.index_of(Point::new(21, 6)).unwrap()], u32::MAX);
        // Past the work of one flood, the flood answers: the same numbers.
        searches.work = usize::MAX / 2;
        assert_eq!(searches.of(&map, Point::new(12, 6)), all[map.terrain.index_of(Point::new(12, 6)).unwrap()]);
        assert!(searches.flooded.is_some());
    }
}
