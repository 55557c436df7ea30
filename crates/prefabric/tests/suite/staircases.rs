//! `Map::stairs`: over seeds of every built-in map type, every stairs cell on
//! the map is in exactly one staircase of its direction, each staircase is one
//! 4-connected group read in order, and its region and prefab are the ones its
//! first cell lies in; every map has a way in.

use prefabric::{Dir, Pack, Point, Role, generate};
use std::collections::BTreeSet;

#[test]
fn every_stairs_cell_is_in_one_staircase_with_its_region_and_prefab() {
    let pack = Pack::embedded().expect("the built-in pack");
    for map_type in pack.map_types() {
        for seed in 0..12 {
            let map = generate(&pack, &map_type.name, seed).expect("generates");
            let stairs = map.stairs();
            let on_map: BTreeSet<(i32, i32, bool)> = map
                .bounds()
                .points()
                .filter_map(|p| match map.terrain()[p].role() {
                    Role::StairsUp => Some((p.y, p.x, true)),
                    Role::StairsDown => Some((p.y, p.x, false)),
                    _ => None,
                })
                .collect();
            let listed: Vec<(i32, i32, bool)> =
                stairs.iter().flat_map(|s| s.cells.iter().map(move |p| (p.y, p.x, s.role == Role::StairsUp))).collect();
            let unique: BTreeSet<_> = listed.iter().copied().collect();
            let at = format!("{} seed {seed}", map_type.name);
            assert_eq!(unique.len(), listed.len(), "{at}: a cell in two staircases");
            assert_eq!(unique, on_map, "{at}: the staircases are the map's stairs cells");
            assert!(stairs.iter().any(|s| s.role == Role::StairsUp), "{at}: no way in");
            for s in &stairs {
                let mut sorted = s.cells.clone();
                sorted.sort_by_key(|p| (p.y, p.x));
                assert_eq!(sorted, s.cells, "{at}: cells in reading order");
                assert!(connected(&s.cells), "{at}: staircase {:?} is one group", s.cells);
                assert_eq!(s.region, map.region_at(s.cells[0]).map(|r| r.id), "{at}");
                let prefab = &map.prefabs()[s.prefab.expect("stairs are drawn by prefabs")];
                assert!(prefab.bounds.contains(s.cells[0]), "{at}: `{}` holds its stairs", prefab.name);
            }
            let ups: Vec<Point> = stairs.iter().filter(|s| s.role == Role::StairsUp).map(|s| s.cells[0]).collect();
            let mut in_order = ups.clone();
            in_order.sort_by_key(|p| (p.y, p.x));
            assert_eq!(ups, in_order, "{at}: staircases up in reading order");
        }
    }
}

/// True when the cells are one 4-connected group.
fn connected(cells: &[Point]) -> bool {
    let mut reached = vec![cells[0]];
    let mut k = 0;
    while k < reached.len() {
        let q = reached[k];
        for d in Dir::ALL {
            let n = q + d.delta();
            if cells.contains(&n) && !reached.contains(&n) {
                reached.push(n);
            }
        }
        k += 1;
    }
    reached.len() == cells.len()
}
