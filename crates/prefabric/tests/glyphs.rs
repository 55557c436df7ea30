//! Encounters embedded in rooms leave no earth (drawn blank) inside them: the
//! cave-in caches, which once did, draw their collapse as fallen rock, a
//! terrain of its own; no other encounter does over many seeds of every default
//! map type.

use prefabric::{Generator, Map, Pack, Preview, Role, Style};

fn pack() -> Pack {
    Pack::embedded().expect("the embedded pack loads")
}

/// Every map type of the default pack, `seeds` seeds each.
fn maps(pack: &Pack, seeds: u64) -> impl Iterator<Item = (String, u64, Map)> + '_ {
    pack.map_types().flat_map(move |mt| {
        let generator = Generator::new(pack, &mt.name).expect("the map type exists");
        (0..seeds).map(move |seed| {
            let map = generator.generate(seed).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", mt.name));
            (mt.name.clone(), seed, map)
        })
    })
}

/// The cells of `map` inside each placed encounter prefab that went into a room
/// (not a cavern), which are earth.
fn earth_in_rooms(map: &Map) -> Vec<(String, prefabric::Point)> {
    let mut out = Vec::new();
    for p in map.prefabs() {
        let Some(e) = &p.encounter else { continue };
        if !matches!(e.style, Style::Enclosed | Style::Cubby | Style::Accessible) {
            continue;
        }
        for q in p.bounds.points() {
            if map.terrain()[q].role == Role::Earth {
                out.push((p.name.clone(), q));
            }
        }
    }
    out
}

#[test]
fn cave_in_caches_leave_no_earth_in_their_rooms() {
    let pack = pack();
    for prefab in ["cave_in_cache_small", "cave_in_cache_wide"] {
        let preview = Preview { prefab: Some(prefab.to_string()), ..Preview::default() };
        let generator = Generator::new(&pack, "materials").unwrap().preview(&preview).unwrap();
        let mut fallen = 0;
        for seed in 0..40 {
            let map = generator.generate(seed).unwrap_or_else(|e| panic!("{prefab} seed {seed}: {e}"));
            let placed: Vec<_> = map.prefabs().iter().filter(|p| p.name == prefab).collect();
            assert!(!placed.is_empty(), "{prefab} seed {seed}: not placed");
            assert_eq!(earth_in_rooms(&map), [], "{prefab} seed {seed}");
            // The collapse is its own terrain, solid, drawn apart from walls.
            for p in &placed {
                for q in p.bounds.points() {
                    let t = map.terrain()[q];
                    if t.role == Role::Wall && t.variant == 5 {
                        fallen += 1;
                        assert_eq!(pack.palette().render_glyph(t), '^');
                    }
                }
            }
        }
        assert!(fallen >= 40 * 3, "{prefab}: {fallen} cells of fallen rock in 40 maps");
    }
    // No other encounter leaves earth inside a room either.
    for (map_type, seed, map) in maps(&pack, 40) {
        assert_eq!(earth_in_rooms(&map), [], "{map_type} seed {seed}");
    }
}
