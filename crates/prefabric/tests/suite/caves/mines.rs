//! The built-in mines (a cave map type) over 2,000 seeds: every invariant of
//! the caves holds, prefabs are walled tightly, and the same seed gives the
//! same mines.

use super::*;

/// Open ground is walled even beside prefabs: a walkable cell touches earth
/// only where a placed prefab draws earth on purpose (not under its `?` cells).
fn walled_tightly(map: &Map, pack: &Pack) -> Result<(), String> {
    let drawn_earth = |q: Point| {
        map.prefabs().iter().any(|placed| {
            let oriented = pack.placed(placed).expect("known");
            let origin = Point::new(placed.bounds.x, placed.bounds.y);
            placed.bounds.contains(q) && oriented.cells()[q - origin].is_some_and(|t| t.is(Role::Earth))
        })
    };
    for p in map.bounds().points().filter(|&p| map.is_walkable(p)) {
        for q in Rect::new(p.x - 1, p.y - 1, 3, 3).points() {
            if map.terrain_at(q).is_some_and(|t| t.is(Role::Earth)) && !drawn_earth(q) {
                return Err(format!("walkable {p} touches earth at {q}"));
            }
        }
    }
    Ok(())
}

/// The default pack's `mines` over 2,000 seeds at depths 1 to 8, in quarters so
/// the suite runs them side by side: every invariant, the ways in and out, and
/// encounters of both styles.
fn mines_hold(seeds: std::ops::Range<u64>) {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let base = Generator::new(&pack, "mines").expect("the map type exists");
    let (mut centred, mut embedded, mut set_pieces, mut retried, mut debris) = (0, 0, 0, 0, 0);
    let n = seeds.clone().count();
    for seed in seeds {
        let depth = 1 + (seed % 8) as u32;
        let map = base.clone().depth(depth).generate(seed).unwrap_or_else(|e| panic!("mines seed {seed}: {e}"));
        let at = |e: String| format!("mines seed {seed} depth {depth}: {e}");
        common::connected(&map).unwrap_or_else(|e| panic!("{}", at(e)));
        common::prefabs_intact(&map, &pack).unwrap_or_else(|e| panic!("{}", at(e)));
        common::regions_consistent(&map).unwrap_or_else(|e| panic!("{}", at(e)));
        walled_tightly(&map, &pack).unwrap_or_else(|e| panic!("{}", at(e)));
        for link in map.links() {
            assert!(map.is_walkable(link.at), "{}", at(format!("the link at {} is not joined", link.at)));
        }
        for o in map.objects() {
            for &(p, _) in &o.cells {
                assert!(map.is_walkable(p), "{}", at(format!("{:?} {:?} in rock at {p}", o.kind, o.tag)));
            }
        }
        let count = |role: Role| map.terrain().cells().iter().filter(|t| t.is(role)).count();
        assert!(count(Role::StairsUp) >= 1 && count(Role::StairsDown) >= 1, "{}", at("no way in or out".into()));
        for placed in map.prefabs() {
            match pack.prefab(&placed.name).map(|p| p.style()) {
                Some(Style::Centered) => centred_holds(&map, placed).unwrap_or_else(|e| panic!("{}", at(e))),
                Some(Style::Embedded) => embedded_holds(&map, &pack, placed).unwrap_or_else(|e| panic!("{}", at(e))),
                _ => {}
            }
            match placed.encounter.as_ref().map(|e| e.style) {
                Some(Style::Centered) => centred += 1,
                Some(Style::Embedded) => embedded += 1,
                Some(other) => panic!("{}", at(format!("a {other} encounter in the mines"))),
                None => set_pieces += usize::from(placed.name != "mine_adit" && placed.name != "cage_landing"),
            }
        }
        retried += usize::from(map.trace().events().iter().any(|e| e.stage == "generate"));
        debris += map.objects().iter().filter(|o| o.kind == prefabric::ObjectKind::Debris).count();
    }
    // Means per map: the mines ask for 10-14 encounters of both styles, a set
    // piece or two (besides the way out), and rubble along the walls.
    assert!(centred >= 3 * n && embedded >= 5 * n, "{centred} centred and {embedded} embedded in {n} maps");
    assert!(set_pieces >= 2 * n, "{set_pieces} set pieces and ways out in {n} maps");
    assert!(debris >= 20 * n, "{debris} pieces of debris in {n} maps");
    assert!(retried * 100 <= n, "{retried} of {n} maps needed another attempt");
}

#[test]
fn the_default_mines_hold_every_invariant_seeds_0_to_499() {
    mines_hold(0..500);
}

#[test]
fn the_default_mines_hold_every_invariant_seeds_500_to_999() {
    mines_hold(500..1000);
}

#[test]
fn the_default_mines_hold_every_invariant_seeds_1000_to_1499() {
    mines_hold(1000..1500);
}

#[test]
fn the_default_mines_hold_every_invariant_seeds_1500_to_1999() {
    mines_hold(1500..2000);
}

#[test]
fn the_same_seed_gives_the_same_mines() {
    let pack = Pack::embedded().expect("the embedded pack loads");
    for (seed, depth) in [(3, 1), (77, 5)] {
        let generator = Generator::new(&pack, "mines").expect("exists").depth(depth);
        let a = render::json(&generator.generate(seed).expect("generates"), &pack);
        let b = render::json(&generator.clone().generate(seed).expect("generates"), &pack);
        assert_eq!(a, b, "seed {seed}");
        assert!(a.contains("\"style\":\"centered\"") && a.contains("\"style\":\"embedded\""), "seed {seed}");
    }
}
