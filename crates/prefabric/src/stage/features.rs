//! The features stage: seeding the map before the layout (seeds 000 and 001).
//!
//! Picks one of the map type's feature variants by weight, raises its BLOCKED
//! barriers, places its prefabs at their anchors with jitter in an allowed
//! orientation, marks spawn-blocked areas, and resolves tunneler starts. Placed
//! prefab cells become protected (their earth stays diggable, their `?` cells are
//! not written) and their link marks are recorded for the layout. Every placement
//! draws from its own stream, so editing one placement leaves the others where they
//! were. A required prefab that finds no place within its attempt budget is an
//! error naming the placement; an optional one is skipped and traced. A prefab
//! with variation lines is fitted in its most open drawing, so every outcome
//! fits, and placed in the outcome its own stream draws ([`Map::variant_seed`]).
//!
//! Placements that go into a cavern (`cavern = "centered"` or `"embedded"`)
//! wait for the layout: [`after_layout`] puts them into the largest cavern that
//! holds them, through [`caverns`](crate::layout::cave_prefabs), with the same rules for
//! required and optional ones.

use super::links::{LevelLinks, WorldPlaced};
use super::placing::{no_spot, place_one};
use super::preview::Forced;
use crate::content::Anchor;
use crate::content::Pack;
use crate::content::maptype::{FeatureVariant, MapType, PrefabPlacement, START_EDGE_GAP, StartSpec};
use crate::error::{Error, ErrorKind};
use crate::geom::{Dir, Point, Rect};
use crate::layout::Start;
use crate::layout::cave_prefabs::{self as caverns, Caverns};
use crate::map::{FeatureSkip, Map, Role, Stage, Terrain, mask};
use crate::prefab::Prefab;
use crate::rng::Rng;
use crate::trace::Outcome;
use crate::vocab::Style;

/// Tries per start before skipping it.
const START_ATTEMPTS: u32 = 32;

/// Runs the stage; returns the tunneler starts for the layout. In a world,
/// the level's arrivals go down first and its branch entrances after the
/// variant ([`super::links`]).
pub(crate) fn run(
    map: &mut Map,
    pack: &Pack,
    map_type: &MapType,
    forced: &Forced,
    seed: u64,
    world: Option<(&LevelLinks, &mut WorldPlaced)>,
) -> Result<Vec<Start>, Error> {
    let mut world = world;
    if let Some((links, placed)) = world.as_mut() {
        super::links::place_arrivals(map, pack, links, seed, placed);
    }
    let mut specs: Vec<(&str, &StartSpec)> = map_type.starts.iter().map(|s| ("map", s)).collect();
    if !map_type.variants.is_empty() {
        let mut rng = Rng::stream(seed, "features", "variant");
        let weights: Vec<u32> = map_type.variants.iter().map(|v| v.weight).collect();
        let index = forced.variant.unwrap_or_else(|| rng.weighted(&weights).unwrap_or(0));
        let variant = &map_type.variants[index];
        map.feature_variant = Some(variant.name.clone());
        map.trace.push_with("features", Outcome::Chose, None, || {
            format!(
                "feature variant `{}` (weight {} of {}){}",
                variant.name,
                variant.weight,
                weights.iter().map(|&w| u64::from(w)).sum::<u64>(),
                if forced.variant.is_some() { ", forced by the preview" } else { "" }
            )
        });
        place_variant(map, pack, variant, forced, seed)?;
        specs.extend(variant.starts.iter().map(|s| (variant.name.as_str(), s)));
    }
    if let Some((links, placed)) = world {
        super::links::place_entrances(map, pack, links, seed, placed)?;
    }
    let mut keys = StreamKeys::default();
    let mut starts: Vec<Start> = Vec::new();
    for (i, (owner, spec)) in specs.into_iter().enumerate() {
        let mut rng = Rng::stream(seed, "features/start", &keys.next(format!("{owner}/{}", spec.anchor)));
        match resolve_start(map, spec, &starts, &mut rng) {
            Some(start) => starts.push(start),
            None => map.trace.push_with("features", Outcome::Skipped, None, || {
                format!("tunneler start {} at {}: no diggable spot within its jitter", i + 1, spec.anchor)
            }),
        }
    }
    Ok(starts)
}

/// Stream keys named by what a placement or start is rather than by its position
/// in the list, so inserting one leaves the streams of the others unchanged; the
/// n-th repeat of the same description gets `#n`.
#[derive(Default)]
struct StreamKeys {
    seen: Vec<String>,
}

impl StreamKeys {
    fn next(&mut self, description: String) -> String {
        let n = self.seen.iter().filter(|s| **s == description).count();
        let key = format!("{description}#{n}");
        self.seen.push(description);
        key
    }
}

fn place_variant(
    map: &mut Map,
    pack: &Pack,
    variant: &FeatureVariant,
    forced: &Forced,
    seed: u64,
) -> Result<(), Error> {
    let mut barrier_rng = Rng::stream(seed, "features", "barriers");
    for (barrier, &chance) in variant.barriers.iter().zip(&variant.barrier_chances) {
        // Every barrier draws, optional or not, so adding one leaves the
        // others' draws alone.
        let raised = barrier_rng.below(100) < chance;
        if chance < 100 {
            let (outcome, verb) = if raised { (Outcome::Chose, "raised") } else { (Outcome::Skipped, "left out") };
            map.trace.push_with("features", outcome, *barrier, || {
                format!("optional barrier {barrier} ({chance}% of maps) {verb}")
            });
        }
        if raised {
            // A world's arrival, stamped before the variant, stays open.
            for p in barrier.points() {
                if !map.is_protected(p) {
                    map.terrain.set(p, Terrain::new(Role::Blocked));
                }
            }
        }
    }
    let mut keys = StreamKeys::default();
    for placement in &variant.prefabs {
        let key = keys.next(placement_key(variant, placement));
        if placement.cavern.is_some() {
            continue;
        }
        let mut rng = Rng::stream(seed, "features", &key);
        if let Err(rejects) = place_one(map, pack, placement, forced, &mut rng) {
            let (reason, key) = no_spot(map, &rejects);
            let names: Vec<&str> = placement.choices.iter().map(|(n, _)| n.as_str()).collect();
            let what = format!(
                "prefab `{}` at {} (placement at {})",
                names.join("` or `"),
                placement.anchor,
                placement.location
            );
            if placement.required || forced.holds(placement) {
                let at = format!("prefab `{}` at {}", names.join("` or `"), placement.anchor);
                return Err(Error::at(ErrorKind::Generation, placement.location.clone(), format!("{at}: {reason}"))
                    .with_help("other features, barriers or the map's edge leave no room: widen its jitter, move its anchor, or mark it `required = false`"));
            }
            map.trace.push_with("features", Outcome::Skipped, None, || format!("{what}: {reason}"));
            map.feature_skips.push(FeatureSkip { prefabs: names.iter().map(|n| n.to_string()).collect(), reason: key });
        }
    }
    for block in &variant.spawn_blocks {
        for p in block.points() {
            if let Some(m) = map.masks.get_mut(p) {
                *m |= mask::SPAWN_BLOCKED;
            }
        }
    }
    Ok(())
}

/// What a placement's random stream is named by: its variant, prefabs and anchor.
fn placement_key(variant: &FeatureVariant, placement: &PrefabPlacement) -> String {
    let choices: Vec<&str> = placement.choices.iter().map(|(n, _)| n.as_str()).collect();
    match placement.cavern {
        Some(style) => format!("{}/{}@cavern-{style}", variant.name, choices.join("|")),
        None => format!("{}/{}@{}", variant.name, choices.join("|"), placement.anchor),
    }
}

/// Places the chosen variant's cavern placements, once the layout has made its
/// caverns: each tries its prefabs (drawn by weight) in the caverns from the
/// largest down, until one has a spot. A required placement that fits nowhere
/// is an error naming it and why; an optional one is skipped and traced.
pub(crate) fn after_layout(
    map: &mut Map,
    pack: &Pack,
    map_type: &MapType,
    forced: &Forced,
    seed: u64,
) -> Result<(), Error> {
    let Some(variant) = map.feature_variant.as_ref().and_then(|n| map_type.variants.iter().find(|v| v.name == *n))
    else {
        return Ok(());
    };
    if variant.prefabs.iter().all(|p| p.cavern.is_none()) {
        return Ok(());
    }
    let mut caverns = Caverns::find(map);
    // Largest first: set pieces go where the cave is grandest.
    let mut order: Vec<usize> = (0..caverns.list.len()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(map.regions[caverns.list[k].region as usize].area), k));
    let mut keys = StreamKeys::default();
    for placement in &variant.prefabs {
        let key = keys.next(placement_key(variant, placement));
        let Some(style) = placement.cavern else { continue };
        let mut rng = Rng::stream(seed, "features", &key);
        let names: Vec<&str> = placement.choices.iter().map(|(n, _)| n.as_str()).collect();
        let what =
            format!("prefab `{}` ({style} in a cavern, placement at {})", names.join("` or `"), placement.location);
        match cavern_spot(map, pack, (placement, style), forced, &mut caverns, &order, &mut rng) {
            Ok((prefab, spot)) => {
                let (transform, at, cavern) = (spot.transform, spot.at, caverns.list[spot.cavern].region);
                let placed = caverns.place(map, prefab, spot, Stage::Feature, None);
                if placement.spawn_block {
                    for p in map.prefabs[placed.index].bounds.points() {
                        map.masks[p] |= mask::SPAWN_BLOCKED;
                    }
                }
                let how = if style == Style::Centered { "centred in" } else { "sunk into the wall of" };
                map.trace.push_with("features", Outcome::Chose, map.prefabs[placed.index].bounds, || {
                    format!("prefab `{}` {transform} {how} cavern {cavern} at ({}, {})", prefab.name(), at.x, at.y)
                });
            }
            Err((why, _)) if placement.required || forced.holds(placement) => {
                return Err(Error::new(ErrorKind::Generation, format!("{what} found no cavern: {why}")).with_help(
                    "the caves are too small or too crowded for it: use a smaller prefab, open the caves up (a lower `fill`, a larger `min_cavern`), or mark it `required = false`",
                ));
            }
            Err((why, key)) => {
                map.trace.push_with("features", Outcome::Skipped, None, || format!("{what}: {why}"));
                let prefabs = names.iter().map(|n| n.to_string()).collect();
                map.feature_skips.push(FeatureSkip { prefabs, reason: format!("found no cavern: {key}") });
            }
        }
    }
    Ok(())
}

/// A spot for one of a cavern placement's prefabs (as `style`): a prefab
/// drawn by weight (as the preview has it) for each cavern in `order`, until
/// one fits; or why none did.
fn cavern_spot<'p>(
    map: &Map,
    pack: &'p Pack,
    (placement, style): (&PrefabPlacement, Style),
    forced: &Forced,
    caverns: &mut Caverns,
    order: &[usize],
    rng: &mut Rng,
) -> Result<(&'p Prefab, caverns::Spot), (String, String)> {
    if order.is_empty() {
        return Err(("the layout made no caverns".into(), "the layout made no caverns".into()));
    }
    let weights = forced.weights(placement.choices.iter().map(|(n, w)| (n.as_str(), *w)));
    let mut tally = [0u32; caverns::Misfit::ALL.len()];
    for &k in order {
        let Some(choice) = rng.weighted(&weights) else { break };
        let Some(prefab) = pack.prefab(&placement.choices[choice].0) else { continue };
        match caverns.spot_in(map, k, prefab, placement.transforms, style, rng) {
            Ok(spot) => return Ok((prefab, spot)),
            Err(m) => tally[m as usize] += 1,
        }
    }
    let most = caverns::Misfit::most(&tally).map_or("no prefab to try", |m| m.reason());
    Err((
        format!("of {}, {}", caverns::caverns(order.len()), caverns::Misfit::summary(&tally)),
        format!("mostly {most}"),
    ))
}

/// Finds a diggable junction square for a start near its anchor, apart from the
/// starts already found.
fn resolve_start(map: &Map, spec: &StartSpec, earlier: &[Start], rng: &mut Rng) -> Option<Start> {
    let w = i32::from(spec.width);
    let size = (map.width(), map.height());
    let centre = match spec.anchor {
        Anchor::At(p) => p,
        anchor => anchor.place(size, (w, w), START_EDGE_GAP) + Point::new((w - 1) / 2, (w - 1) / 2),
    } + spec.offset;
    let inner = map.bounds().expand(-START_EDGE_GAP);
    for _ in 0..START_ATTEMPTS {
        let at =
            centre + Point::new(rng.range(-spec.jitter.x, spec.jitter.x), rng.range(-spec.jitter.y, spec.jitter.y));
        let square = Rect::square_around(at, w);
        let free = inner.contains_rect(&square)
            && square.expand(1).points().all(|p| map.terrain[p] == Terrain::EARTH && !map.is_protected(p))
            && earlier.iter().all(|s| !Rect::square_around(s.at, i32::from(s.width)).expand(1).intersects(&square));
        if free {
            let dir = match spec.dirs.as_slice() {
                [one] => *one,
                [] => Dir::ALL[rng.below(4) as usize],
                allowed => allowed[rng.below(allowed.len() as u32) as usize],
            };
            return Some(Start { at, dir, width: spec.width });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_leaves_in_one_of_its_allowed_directions() {
        let map = Map::new(1, "test", 1, 60, 40);
        let spec = |dirs: Vec<Dir>| StartSpec {
            anchor: Anchor::Centre,
            offset: Point::new(0, 0),
            jitter: Point::new(5, 5),
            dirs,
            width: 3,
        };
        let mut seen = [0u32; 4];
        for seed in 0..200 {
            let mut rng = Rng::stream(seed, "test", "starts");
            let start = resolve_start(&map, &spec(vec![Dir::North, Dir::East]), &[], &mut rng).expect("room to start");
            seen[Dir::ALL.iter().position(|&d| d == start.dir).expect("a direction")] += 1;
        }
        // Dir::ALL is north, east, south, west.
        let (north, east) = (seen[0], seen[1]);
        assert_eq!(north + east, 200, "only north and east are allowed: {seen:?}");
        assert!(north > 60 && east > 60, "both allowed directions are drawn: {seen:?}");
        // One direction is taken as given, any direction draws all four.
        let mut rng = Rng::stream(0, "test", "starts");
        assert_eq!(resolve_start(&map, &spec(vec![Dir::West]), &[], &mut rng).map(|s| s.dir), Some(Dir::West));
        let mut any = [false; 4];
        for seed in 0..100 {
            let mut rng = Rng::stream(seed, "test", "starts");
            let dir = resolve_start(&map, &spec(Vec::new()), &[], &mut rng).expect("room to start").dir;
            any[Dir::ALL.iter().position(|&d| d == dir).unwrap()] = true;
        }
        assert_eq!(any, [true; 4]);
    }
}
