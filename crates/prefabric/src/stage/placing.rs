//! Placing one feature prefab before the layout: the spot search the
//! features stage and a world's branch entrances share.
//!
//! In: the map so far, a placement (its prefabs by weight, anchor, offset,
//! jitter, orientations and margin) and its random stream. Out: the prefab
//! written onto the map — its cells protected, its region and link marks
//! recorded — or, after [`PLACEMENT_ATTEMPTS`] tries, how many each rule turned
//! away ([`Reject`]), which [`no_spot`] puts in words. A spot is refused when
//! the prefab would leave the map, overlap a placed prefab or the ground its
//! links need, stand on a barrier or a protected cell, or open onto the map's edge.

use super::preview::Forced;
use crate::content::Pack;
use crate::content::maptype::PrefabPlacement;
use crate::geom::{Point, Rect, Transform};
use crate::map::{Door, Map, PlacedLink, PlacedPrefab, RegionKind, Role, Stage, mask};
use crate::prefab::{Prefab, link_ground};
use crate::rng::Rng;
use crate::trace::Outcome;

/// Tries per placement before giving up.
pub(super) const PLACEMENT_ATTEMPTS: u32 = 64;

/// Tries to place one of a placement's prefabs; when none finds a spot in
/// [`PLACEMENT_ATTEMPTS`] tries, how many each rule turned away, most first.
pub(super) fn place_one(
    map: &mut Map,
    pack: &Pack,
    placement: &PrefabPlacement,
    forced: &Forced,
    rng: &mut Rng,
) -> Result<(), Vec<(Reject, u32)>> {
    let weights = forced.weights(placement.choices.iter().map(|(n, w)| (n.as_str(), *w)));
    let size = (map.width(), map.height());
    let mut rejects: Vec<(Reject, u32)> = Vec::new();
    for _ in 0..PLACEMENT_ATTEMPTS {
        let Some(choice) = rng.weighted(&weights) else { break };
        let Some(prefab) = pack.prefab(&placement.choices[choice].0) else { continue };
        let allowed: Vec<Transform> = prefab.transforms().intersect(placement.transforms).iter().collect();
        let Some(&transform) = rng.pick(&allowed) else { continue };
        // A varying prefab is tried in its most open drawing (floor keeps off the
        // map's edge in every outcome); the outcome is drawn once it fits.
        let oriented = prefab.most_open().transformed(transform);
        let (w, h) = (oriented.width(), oriented.height());
        let base = placement.anchor.place(size, (w, h), placement.margin) + placement.offset;
        let jitter = Point::new(
            rng.range(-placement.jitter.x, placement.jitter.x),
            rng.range(-placement.jitter.y, placement.jitter.y),
        );
        let m = placement.margin;
        let at = base + jitter;
        let at = Point::new(at.x.clamp(m, (size.0 - w - m).max(m)), at.y.clamp(m, (size.1 - h - m).max(m)));
        if let Err(reject) = fits(map, &oriented, at) {
            match rejects.iter_mut().find(|(r, _)| *r == reject) {
                Some((_, n)) => *n += 1,
                None => rejects.push((reject, 1)),
            }
        } else {
            let variant = prefab.varies().then(|| map.variant_seed(prefab.name()));
            let oriented = match variant {
                Some(seed) => prefab.variant(seed).transformed(transform),
                None => oriented,
            };
            place(map, &oriented, at, (transform, variant), placement.spawn_block);
            map.trace.push_with("features", Outcome::Chose, map.prefabs.last().map(|p| p.bounds), || {
                format!("prefab `{}` {} at ({}, {})", prefab.name(), transform, at.x, at.y)
            });
            return Ok(());
        }
    }
    rejects.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    Err(rejects)
}

/// A placement's failed tries in words: every rule that turned tries away, and
/// the one that turned away most (a stable key for statistics).
pub(super) fn no_spot(map: &Map, rejects: &[(Reject, u32)]) -> (String, String) {
    let why: Vec<String> = rejects.iter().map(|&(r, n)| format!("{n} {}", r.describe(map))).collect();
    let full = format!("no free spot in {PLACEMENT_ATTEMPTS} tries: {}", why.join(", "));
    let most = rejects.first().map_or("no prefab to try".to_string(), |&(r, _)| r.describe(map));
    (full, format!("no free spot: tries mostly {most}"))
}

/// Why an oriented prefab cannot go at a spot, for the message of a placement
/// that found none.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Reject {
    /// Part of it falls off the map.
    OffMap,
    /// It overlaps the placed prefab with this index.
    Overlaps(usize),
    /// It covers the clear ground a link of the placed prefab with this index needs.
    CoversWayOut(usize),
    /// A cell lies on a barrier or on an earlier prefab's protected cell.
    Barrier,
    /// An open cell lies on the map's outer ring.
    OpenOnEdge,
    /// The clear ground one of its links needs falls off the map or on its outer ring.
    LinkGroundOffMap,
    /// The clear ground one of its links needs is blocked or protected.
    LinkGroundBlocked,
}

impl Reject {
    /// The reject in words, naming placed prefabs from `map`.
    fn describe(self, map: &Map) -> String {
        let name = |i: usize| map.prefabs.get(i).map_or("?", |p| p.name.as_str());
        match self {
            Reject::OffMap => "would leave the map".into(),
            Reject::Overlaps(i) => format!("overlapped prefab `{}`", name(i)),
            Reject::CoversWayOut(i) => format!("covered the clear ground of a link of prefab `{}`", name(i)),
            Reject::Barrier => "lay on a barrier or another prefab's cells".into(),
            Reject::OpenOnEdge => "put an open cell on the map's outer ring".into(),
            Reject::LinkGroundOffMap => "left a link's clear ground off the map or on its outer ring".into(),
            Reject::LinkGroundBlocked => "left a link's clear ground on a barrier or another prefab".into(),
        }
    }
}

/// Whether an oriented prefab can go at `at`: inside the map, clear of other
/// prefabs and barriers, open cells off the map's edge, every link of it with room
/// to start digging, and no earlier link's way out covered; the first rule it
/// breaks when not.
pub(super) fn fits(map: &Map, prefab: &Prefab, at: Point) -> Result<(), Reject> {
    let bounds = Rect::new(at.x, at.y, prefab.width(), prefab.height());
    if !map.bounds().contains_rect(&bounds) {
        return Err(Reject::OffMap);
    }
    if let Some(i) = map.prefabs.iter().position(|p| p.bounds.intersects(&bounds)) {
        return Err(Reject::Overlaps(i));
    }
    if let Some(l) =
        map.links.iter().find(|l| link_ground(l.at, l.dir, l.kind, map.prefabs[l.prefab].bounds).0.intersects(&bounds))
    {
        return Err(Reject::CoversWayOut(l.prefab));
    }
    let inner = map.bounds().expand(-1);
    for local in prefab.cells().bounds().points() {
        let p = at + local;
        let here = map.terrain[p];
        match prefab.cells()[local] {
            Some(_) if here.is(Role::Blocked) || map.is_protected(p) => return Err(Reject::Barrier),
            Some(t) if t.is_walkable() && !inner.contains(p) => return Err(Reject::OpenOnEdge),
            None if here.is(Role::Blocked) && prefab.is_link_path(local) => return Err(Reject::Barrier),
            _ => {}
        }
    }
    for link in prefab.links() {
        let (area, body) = link_ground(at + link.at, link.dir, link.kind, bounds);
        if !map.bounds().contains_rect(&area) || !inner.contains_rect(&body) {
            return Err(Reject::LinkGroundOffMap);
        }
        if map.prefabs.iter().any(|p| p.bounds.intersects(&area))
            || body.points().any(|p| map.terrain[p].is(Role::Blocked) || map.is_protected(p))
        {
            return Err(Reject::LinkGroundBlocked);
        }
    }
    Ok(())
}

/// Places `prefab` (oriented by `transform`, the outcome of `variant`) at `at`.
pub(super) fn place(
    map: &mut Map,
    prefab: &Prefab,
    at: Point,
    (transform, variant): (Transform, Option<u32>),
    spawn_block: bool,
) {
    let index = map.prefabs.len();
    let bounds = Rect::new(at.x, at.y, prefab.width(), prefab.height());
    let has_open = prefab.cells().cells().iter().any(|c| c.is_some_and(|t| t.is_walkable()));
    let region = has_open.then(|| {
        let id = map.add_region(RegionKind::Prefab, bounds);
        map.regions[id as usize].prefab = Some(index);
        id
    });
    for local in prefab.cells().bounds().points() {
        let Some(t) = prefab.cells()[local] else { continue };
        let p = at + local;
        map.terrain[p] = t;
        if !t.is(Role::Earth) {
            map.masks[p] |= mask::PROTECTED;
        }
        if let (Some(id), true) = (region, t.is_walkable()) {
            map.region_of[p] = id;
            map.regions[id as usize].area += 1;
        }
        if spawn_block {
            map.masks[p] |= mask::SPAWN_BLOCKED;
        }
    }
    for link in prefab.links() {
        map.links.push(PlacedLink { at: at + link.at, dir: link.dir, kind: link.kind, prefab: index });
        if let Some(id) = region {
            map.regions[id as usize].doors.push(Door { at: at + link.at, side: link.dir, to: None });
        }
    }
    for machine in prefab.machine_objects(Transform::IDENTITY, at, index) {
        map.add_object(machine);
    }
    map.prefabs.push(PlacedPrefab {
        name: prefab.name().to_string(),
        stage: Stage::Feature,
        bounds,
        transform,
        region,
        encounter: None,
        variant,
    });
}
