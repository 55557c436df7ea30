//! A level's links in a world of levels: its arrivals reserved first, its
//! branch entrances seeded after the feature variant, and its staircases
//! trimmed to the exits the world asks for (seed 000: entrances and exits
//! placed first; seed 001: stairs matched between levels, the surplus trimmed).
//!
//! In: the map, and the [`LevelLinks`] the world asks of it. Out: before the
//! layout, an arrival prefab stamped with its stairs up on each aligned
//! arrival cell (before the feature variant, so every other feature keeps off
//! it) and each branch's entrance set pieces placed anywhere they fit (after
//! the variant, on streams of their own, so the map type's own features land
//! where they would outside a world); after the stairs stage, [`Map::exits`]:
//! every staircase kept, with the level it leads to. Stairs up and down beyond
//! the counts asked become the floor of their region, in an order drawn from
//! the level's own `world/exits` stream. A level asked for a way down (or up)
//! that draws no staircase for it fails the attempt, with the reason.

use super::placing::{self, PLACEMENT_ATTEMPTS};
use super::preview::Forced;
use super::stairs::floor_kind;
use crate::content::Anchor;
use crate::content::Pack;
use crate::content::maptype::PrefabPlacement;
use crate::error::{Error, ErrorKind, Location};
use crate::geom::{Point, Rect, TransformSet};
use crate::map::{Exit, ExitWay, Map, Role, Terrain};
use crate::rng::Rng;
use crate::trace::Outcome;

/// What a world asks of one level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LevelLinks {
    /// The level above, where its stairs up lead; `None` on the world's first
    /// level, whose stairs up lead out of the world.
    pub up_to: Option<String>,
    /// How many stairs up to keep: one per exit of the levels leading here (at
    /// least one).
    pub up: u32,
    /// Cells where an arrival must be stamped (aligned stairs), each with its
    /// stairs up on the cell.
    pub aligned: Vec<Point>,
    /// The prefab stamped on an aligned arrival.
    pub arrival_prefab: Option<String>,
    /// The next level of the line, where its stairs down lead.
    pub down_to: Option<String>,
    /// How many stairs down to keep (none without a next level).
    pub down: u32,
    /// The branches entered from this level.
    pub entrances: Vec<Entrance>,
}

/// A branch entered from a level: its set piece, how many, and where they lead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entrance {
    /// The entrance set piece.
    pub prefab: String,
    /// How many of them the level gets.
    pub count: u32,
    /// The branch's first level.
    pub to: String,
    /// Where the branch is written, for errors.
    pub location: Location,
}

/// What the world placed on a level, for [`resolve_exits`].
#[derive(Clone, Debug, Default)]
pub(crate) struct WorldPlaced {
    /// Each aligned arrival stamped: the placed prefab and its stairs up cell.
    arrivals: Vec<(usize, Point)>,
    /// Each entrance set piece placed: the placed prefab and the entrance's index.
    entrances: Vec<(usize, usize)>,
}

/// Stamps an arrival on each aligned arrival cell, before anything else is
/// placed. An arrival that cannot be stamped there (a barrier, the map's edge)
/// is traced, and the exit leading to it lands on the level's own stairs up.
pub(crate) fn place_arrivals(map: &mut Map, pack: &Pack, links: &LevelLinks, seed: u64, placed: &mut WorldPlaced) {
    let Some(prefab) = links.arrival_prefab.as_deref().and_then(|n| pack.prefab(n)) else { return };
    for (i, &cell) in links.aligned.iter().enumerate() {
        let mut rng = Rng::stream_n(seed, "world/arrival", i as u64);
        let mut transforms: Vec<_> = prefab.transforms().iter().collect();
        rng.shuffle(&mut transforms);
        let spot = transforms.into_iter().find_map(|t| {
            let oriented = prefab.transformed(t);
            let stairs = oriented
                .cells()
                .bounds()
                .points()
                .find(|&p| oriented.cells()[p].is_some_and(|c| c.is(Role::StairsUp)))?;
            let at = cell - stairs;
            placing::fits(map, &oriented, at).is_ok().then_some((oriented, at, t))
        });
        match spot {
            Some((oriented, at, t)) => {
                placing::place(map, &oriented, at, (t, None), false);
                placed.arrivals.push((map.prefabs.len() - 1, cell));
                map.trace.push_with("features", Outcome::Chose, map.prefabs.last().map(|p| p.bounds), || {
                    format!("arrival `{}` {t} with its stairs up at {cell}, where the level above put its stairs down", prefab.name())
                });
            }
            None => map.trace.push_with("features", Outcome::Skipped, None, || {
                format!("arrival `{}` at {cell}: fits in no orientation there; that way down lands on the level's own stairs up", prefab.name())
            }),
        }
    }
}

/// Places each branch entrance's set pieces anywhere on the map they fit.
pub(crate) fn place_entrances(
    map: &mut Map,
    pack: &Pack,
    links: &LevelLinks,
    seed: u64,
    placed: &mut WorldPlaced,
) -> Result<(), Error> {
    let (w, h) = (map.width(), map.height());
    for (k, entrance) in links.entrances.iter().enumerate() {
        let placement = PrefabPlacement {
            choices: vec![(entrance.prefab.clone(), 1)],
            anchor: Anchor::Centre,
            cavern: None,
            offset: Point::new(0, 0),
            jitter: Point::new(w / 2, h / 2),
            transforms: TransformSet::ALL,
            margin: 1,
            spawn_block: true,
            required: true,
            location: entrance.location.clone(),
        };
        for n in 0..entrance.count {
            let mut rng = Rng::stream(seed, "world/entrance", &format!("{}#{n}", entrance.to));
            if let Err(rejects) = placing::place_one(map, pack, &placement, &Forced::default(), &mut rng) {
                let (reason, _) = placing::no_spot(map, &rejects);
                return Err(Error::at(
                    ErrorKind::Generation,
                    entrance.location.clone(),
                    format!("the entrance `{}` into `{}`: {reason}", entrance.prefab, entrance.to),
                )
                .with_help(format!("the level's features leave no room for it in {PLACEMENT_ATTEMPTS} tries: use a smaller set piece, fewer `entrances`, or other entrance levels")));
            }
            placed.entrances.push((map.prefabs.len() - 1, k));
        }
    }
    Ok(())
}

/// Turns the level's staircases into its exits, trimming the surplus.
pub(crate) fn resolve_exits(map: &mut Map, links: &LevelLinks, placed: &WorldPlaced, seed: u64) -> Result<(), Error> {
    let stairs = map.stairs_cells();
    let inside = |group: &[Point], index: usize| -> bool {
        let bounds: Rect = map.prefabs[index].bounds;
        group.iter().any(|&p| bounds.contains(p))
    };
    let mut exits = Vec::new();
    let mut ups = Vec::new();
    let mut downs = Vec::new();
    for role in [Role::StairsUp, Role::StairsDown, Role::Stairs] {
        for group in stairs.groups(role) {
            if let Some(&(_, k)) = placed.entrances.iter().find(|(index, _)| inside(&group, *index)) {
                exits.push(Exit {
                    at: group[0],
                    way: ExitWay::Branch,
                    to: Some(links.entrances[k].to.clone()),
                    arrival: None,
                });
            } else if role == Role::StairsUp && placed.arrivals.iter().any(|&(_, cell)| group.contains(&cell)) {
                exits.push(Exit { at: group[0], way: ExitWay::Up, to: links.up_to.clone(), arrival: None });
            } else if role == Role::StairsUp {
                ups.push(group);
            } else {
                downs.push(group);
            }
        }
    }
    let wanted_up = links.up.saturating_sub(placed.arrivals.len() as u32) as usize;
    let wanted_down = if links.down_to.is_some() { links.down as usize } else { 0 };
    if wanted_up > 0 && ups.is_empty() {
        return Err(no_stairs(map, "up", "the way in from the level above"));
    }
    if wanted_down > 0 && downs.is_empty() {
        return Err(no_stairs(map, "down", "the way on to the next level"));
    }
    for (way, mut groups, wanted, to) in
        [(ExitWay::Up, ups, wanted_up, &links.up_to), (ExitWay::Down, downs, wanted_down, &links.down_to)]
    {
        Rng::stream(seed, "world/exits", way.name()).shuffle(&mut groups);
        for (i, group) in groups.iter().enumerate() {
            if i < wanted {
                exits.push(Exit { at: group[0], way, to: to.clone(), arrival: None });
                continue;
            }
            let floor = Terrain::new(Role::Floor(floor_kind(map, group[0])));
            for &p in group {
                map.terrain[p] = floor;
            }
            map.trace.push_with("encounters", Outcome::Chose, None, || {
                format!("world: stairs {} at {} became floor (the world asks for {wanted})", way.name(), group[0])
            });
        }
    }
    exits.sort_by_key(|e| (e.way, e.at.y, e.at.x));
    map.trace.push_with("encounters", Outcome::Note, None, || {
        let count = |way| exits.iter().filter(|e| e.way == way).count();
        format!(
            "world: exits up {}, down {}, into branches {}",
            count(ExitWay::Up),
            count(ExitWay::Down),
            count(ExitWay::Branch)
        )
    });
    map.exits = exits;
    Ok(())
}

fn no_stairs(map: &Map, way: &str, what: &str) -> Error {
    Error::new(ErrorKind::Generation, format!("map type `{}` drew no stairs {way} for {what}", map.map_type)).with_help(
        "in a world every level needs a staircase each way it is linked: give the map type a feature or start prefab that draws one, or (for stairs up) an `arrival_prefab` with aligned stairs",
    )
}
