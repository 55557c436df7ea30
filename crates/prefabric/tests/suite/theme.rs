//! The theme stage on the default pack: over many seeds of every map type with a
//! `[theme]`, the map before the stage and after it differ only as the theme
//! allows — styles of the region's own floor or of wall on unprotected cells,
//! one style per region (scattered styles aside), pools of liquid only on floor
//! of the kinds listed and clear of walls, objects and prefabs — every style
//! listed turns up, and the themed map still holds every invariant.

use prefabric::content::theme::Theme;
use prefabric::{Generator, Map, Pack, Point, Role, Terrain};
use std::collections::{BTreeMap, BTreeSet};

const SEEDS: u64 = 60;

/// The map of `seed` just before the theme and just after it.
fn before_and_after(generator: &Generator<'_>, seed: u64) -> Option<(Map, Map)> {
    let mut g = generator.start(seed, 0);
    g.features().ok()?;
    g.layout().ok()?;
    g.encounters().ok()?;
    g.furnish();
    g.objects();
    let before = g.map().clone();
    g.theme();
    g.link();
    g.validate().unwrap_or_else(|e| panic!("seed {seed}: the themed map breaks an invariant: {e}"));
    Some((before, g.into_map()))
}

/// What one cell's change is allowed to be; `Err` says why not.
fn allowed(theme: &Theme, before: &Map, p: Point, was: Terrain, now: Terrain) -> Result<(), String> {
    if before.is_protected(p) {
        return Err(format!("a prefab's cell {p} changed from {was} to {now}"));
    }
    let kind = before.region_at(p).map(|r| r.kind);
    if now.is(Role::Liquid) {
        let pools = theme.pools.iter().filter(|pl| pl.terrain == now);
        let kind = kind.ok_or(format!("a pool at {p} outside every region"))?;
        if !was.is_floor() || !pools.clone().any(|pl| pl.regions.contains(&kind)) {
            return Err(format!("{now} at {p} on {was} in a {}", kind.name()));
        }
        if before.objects().iter().any(|o| o.cells.iter().any(|&(q, _)| q == p)) {
            return Err(format!("a pool at {p} covers an object"));
        }
        for q in (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| p + Point::new(dx, dy))) {
            let same = before.region_at(q).map(|r| r.id) == before.region_at(p).map(|r| r.id);
            if !same || !before.is_walkable(q) {
                return Err(format!("the pool at {p} touches {q}, outside its region's floor"));
            }
        }
        return Ok(());
    }
    if was.role() != now.role() || was.variant() != 0 {
        return Err(format!("{p} went from {was} to {now}"));
    }
    let listed = match now.role() {
        Role::Wall => theme.walls.iter().any(|w| w.styles.iter().any(|&(t, _)| t == now)),
        _ => kind
            .and_then(|k| theme.floors_for(k))
            .is_some_and(|f| f.styles.iter().chain(&f.scatter).any(|&(t, _)| t == now)),
    };
    if listed { Ok(()) } else { Err(format!("{p} took {now}, which its theme does not list there")) }
}

#[test]
fn themes_dress_only_the_layouts_cells_and_every_style_turns_up() {
    let pack = Pack::embedded().expect("the embedded pack is valid");
    for map_type in ["materials", "mines", "catacombs", "hotel"] {
        let generator = Generator::new(&pack, map_type).expect("the map type exists");
        let theme = &generator.map_type().theme;
        assert!(!theme.floors.is_empty() || theme.walls.is_some(), "{map_type} has a theme");
        let mut seen: BTreeSet<Terrain> = BTreeSet::new();
        let mut pools = 0;
        for seed in 0..SEEDS {
            let Some((before, after)) = before_and_after(&generator, seed) else { continue };
            // One style per region, besides the scattered ones.
            let mut own: BTreeMap<u32, BTreeSet<Terrain>> = BTreeMap::new();
            for p in after.bounds().points() {
                let (was, now) = (before.terrain()[p], after.terrain()[p]);
                if now.is(Role::Liquid) && !was.is(Role::Liquid) {
                    pools += 1;
                }
                if was != now {
                    allowed(theme, &before, p, was, now).unwrap_or_else(|e| panic!("{map_type} seed {seed}: {e}"));
                    seen.insert(now);
                }
                // The region's own floor: a hall may hold a room's floor too,
                // where it swallowed one, which its styles leave alone.
                if let Some(r) = after.region_at(p)
                    && let Some(f) = theme.floors_for(r.kind)
                    && f.styles.iter().chain(&f.scatter).any(|&(t, _)| t.role() == now.role())
                    && !f.scatter.iter().any(|&(t, _)| t == now)
                    && !before.is_protected(p)
                {
                    own.entry(r.id).or_default().insert(now);
                }
            }
            if let Some((id, styles)) = own.iter().find(|(_, s)| s.len() > 1) {
                panic!("{map_type} seed {seed}: region {id} took several styles: {styles:?}");
            }
        }
        let listed = theme
            .floors
            .iter()
            .flat_map(|f| f.styles.iter().chain(&f.scatter))
            .chain(theme.walls.iter().flat_map(|w| &w.styles))
            .filter(|&&(t, w)| w > 0 && t.variant() > 0)
            .map(|&(t, _)| t);
        for t in listed {
            assert!(seen.contains(&t), "{map_type}: {t} never turned up in {SEEDS} seeds");
        }
        if !theme.pools.is_empty() {
            assert!(pools > 0, "{map_type}: no pool was laid in {SEEDS} seeds");
        }
    }
}

/// The 4-connected pieces the walkable, machine-free cells of region `id` make.
fn pieces(map: &Map, id: u32) -> usize {
    let solid: BTreeSet<Point> = map
        .objects()
        .iter()
        .filter(|o| o.kind == prefabric::ObjectKind::Machine)
        .flat_map(|o| o.cells.iter().map(|&(p, _)| p))
        .collect();
    let open = |p: Point| map.region_at(p).is_some_and(|r| r.id == id) && map.is_walkable(p) && !solid.contains(&p);
    let mut seen = BTreeSet::new();
    let mut count = 0;
    for start in map.regions()[id as usize].bounds.points().filter(|&p| open(p)) {
        if !seen.insert(start) {
            continue;
        }
        count += 1;
        let mut stack = vec![start];
        while let Some(q) = stack.pop() {
            for n in [Point::new(1, 0), Point::new(-1, 0), Point::new(0, 1), Point::new(0, -1)].map(|d| q + d) {
                if open(n) && seen.insert(n) {
                    stack.push(n);
                }
            }
        }
    }
    count
}

#[test]
fn a_pool_never_cuts_a_region_in_two() {
    // The mines and the catacombs lay pools; a region holding one falls into
    // no more pieces than it made before it.
    let pack = Pack::embedded().expect("the embedded pack is valid");
    for map_type in ["mines", "catacombs"] {
        let generator = Generator::new(&pack, map_type).expect("the map type exists");
        let mut pooled_regions = 0;
        for seed in 0..SEEDS {
            let Some((before, after)) = before_and_after(&generator, seed) else { continue };
            let pooled: BTreeSet<u32> = after
                .bounds()
                .points()
                .filter(|&p| after.terrain()[p].is(Role::Liquid) && !before.terrain()[p].is(Role::Liquid))
                .filter_map(|p| after.region_at(p).map(|r| r.id))
                .collect();
            for &id in &pooled {
                let (was, now) = (pieces(&before, id), pieces(&after, id));
                assert!(now <= was, "{map_type} seed {seed}: a pool cut region {id} from {was} pieces into {now}");
            }
            pooled_regions += pooled.len();
        }
        assert!(pooled_regions > 0, "{map_type}: no pool in {SEEDS} seeds");
    }
}
