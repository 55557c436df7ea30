//! Drawn maps read apart. Over many seeds of every default map type: no drawn
//! map shows a digit; items are drawn with their catalog glyphs, debris with
//! theirs, and neither family shares a glyph with any terrain, with each other or
//! with anything else on a map; a floor variant drawn apart from its floor never
//! looks like a wall, door or stairs. And the cave-in caches, which once left
//! earth (drawn blank) inside the rooms they fill, leave none: no encounter
//! embedded in a room does.

use prefabric::content::catalog::Kind;
use prefabric::{Generator, Map, ObjectKind, Pack, Preview, Role, Style, Terrain, render};
use std::collections::{BTreeMap, BTreeSet};

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

#[test]
fn items_debris_and_terrain_are_drawn_apart() {
    let pack = pack();
    let palette = pack.palette();
    // Every glyph the palette draws any terrain with.
    let terrain: BTreeMap<char, Terrain> = Role::ALL
        .into_iter()
        .flat_map(|r| (0..=9).map(move |v| Terrain::with_variant(r, v)))
        .map(|t| (palette.render_glyph(t), t))
        .collect();
    // Which kinds of object each glyph drew, over every map.
    let mut kinds: BTreeMap<char, BTreeSet<&str>> = BTreeMap::new();
    let mut items = 0;
    for (map_type, seed, map) in maps(&pack, 60) {
        let what = format!("{map_type} seed {seed}");
        let text = render::ascii(&map, palette);
        assert!(!text.chars().any(|c| c.is_ascii_digit()), "{what} draws a digit:\n{text}");
        for t in map.terrain().cells() {
            let g = palette.render_glyph(*t);
            let floor_variant = t.is_floor() && t.variant() > 0;
            if floor_variant && g != palette.render_glyph(Terrain::new(t.role())) {
                assert!(terrain[&g].is_floor(), "{what}: floor {t} is drawn like {}", terrain[&g]);
            }
        }
        for o in map.objects() {
            let kind = match o.kind {
                ObjectKind::Item => Some(Kind::Item),
                ObjectKind::Debris => Some(Kind::Debris),
                _ => None,
            };
            for &(_, g) in &o.cells {
                kinds.entry(g).or_default().insert(o.kind.name());
                if let Some(kind) = kind {
                    let tag = o.tag.as_deref().expect("items and debris have tags");
                    assert_eq!(Some(g), pack.catalog().glyph_of(kind, tag), "{what}: {o:?}");
                    assert!(
                        !terrain.contains_key(&g),
                        "{what}: {} `{tag}` is drawn `{g}`, as {} is",
                        o.kind.name(),
                        terrain[&g]
                    );
                    items += usize::from(o.kind == ObjectKind::Item);
                }
            }
        }
    }
    assert!(items > 1000, "only {items} items on the maps");
    for (g, used) in &kinds {
        if used.contains("item") || used.contains("debris") {
            assert_eq!(used.len(), 1, "`{g}` draws {used:?}");
        }
    }
    // Every item category has a glyph of its own family; there are several.
    let item_glyphs: BTreeSet<char> = pack.catalog().items().iter().map(|i| i.glyph).collect();
    assert!(item_glyphs.len() >= 8, "{item_glyphs:?}");
    for i in pack.catalog().items() {
        assert_eq!(
            Some(i.glyph),
            pack.catalog().category_glyph(&i.category),
            "{} is drawn apart from its category",
            i.tag
        );
    }
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
            if map.terrain()[q].is(Role::Earth) {
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
                    if t.is(Role::Wall) && t.variant() == 5 {
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
