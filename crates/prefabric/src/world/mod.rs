//! A world of levels: the pack's `world.toml` made into maps whose stairs
//! lead into each other (seed 000: exits placed first; seed 001: stairs
//! matched between levels; seed 002: branches).
//!
//! In: a pack with a world and a world seed. Out: a [`World`] — its
//! [`Plan`] (every level's name, depth, map type and seed) and, as they are
//! asked for, each level's map with its [`Exit`](crate::map::Exit)s, each naming the level it
//! leads to and the arrival cell there. Levels are made in the plan's order (by
//! depth), each after the one it is entered from and carrying the per-world
//! encounter counts ([`WorldState`]) of all made before it, so asking for one
//! level ([`World::level`]) makes the levels before it first and gives the same
//! map as making the whole world. An exit always arrives on a walkable cell of
//! its destination; with aligned stairs and two levels of one size, at the same
//! coordinates.

mod json;
mod plan;

pub use plan::{Plan, PlannedBranch, PlannedLevel};

use crate::content::Pack;
use crate::content::world::WorldSpec;
use crate::error::{Error, ErrorKind};
use crate::format::suggest;
use crate::geom::Point;
use crate::map::{ExitWay, Map};
use crate::stage::Generator;
use crate::stage::links::{Entrance, LevelLinks};
use crate::world_state::WorldState;
use std::collections::BTreeMap;

/// A world of levels, made level by level as they are asked for.
pub struct World<'p> {
    pack: &'p Pack,
    spec: &'p WorldSpec,
    seed: u64,
    plan: Plan,
    /// The maps made so far: a prefix of the plan's levels.
    maps: Vec<Map>,
    /// The per-world counts after the levels made so far.
    state: WorldState,
    /// One generator per map type, made when first needed.
    generators: BTreeMap<String, Generator<'p>>,
    trace: bool,
}

impl std::fmt::Debug for World<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World").field("seed", &self.seed).field("levels", &self.plan.levels.len()).finish()
    }
}

impl<'p> World<'p> {
    /// The world of `pack`'s `world.toml` for world seed `seed`; no map is made yet.
    pub fn new(pack: &'p Pack, seed: u64) -> Result<World<'p>, Error> {
        let spec = pack.world().ok_or_else(|| {
            Error::new(ErrorKind::Invalid, format!("pack `{}` has no world.toml", pack.name()))
                .with_help("a world of levels is described in the pack's world.toml (see docs/worlds.md)")
        })?;
        Ok(World {
            pack,
            spec,
            seed,
            plan: Plan::new(spec, seed),
            maps: Vec::new(),
            state: WorldState::new(),
            generators: BTreeMap::new(),
            trace: true,
        })
    }

    /// Whether the levels' maps record their trace (default on).
    pub fn trace(mut self, on: bool) -> World<'p> {
        self.trace = on;
        self
    }

    /// The world seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The world as `world.toml` describes it.
    pub fn spec(&self) -> &'p WorldSpec {
        self.spec
    }

    /// Every level of the world, in the order they are made.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The maps made so far, in the plan's order.
    pub fn maps(&self) -> &[Map] {
        &self.maps
    }

    /// The per-world encounter counts after the levels made so far.
    pub fn state(&self) -> &WorldState {
        &self.state
    }

    /// The map of the level named `name` (`main:3`), making it — and every
    /// level before it in the plan — if it is not made yet. Its exits name the
    /// levels they lead to; the arrival cell of a way down or into a branch is
    /// filled in once that level is made ([`World::follow`] makes it).
    pub fn level(&mut self, name: &str) -> Result<&Map, Error> {
        let Some(index) = self.plan.index(name) else {
            let names: Vec<&str> = self.plan.levels.iter().map(|l| l.name.as_str()).collect();
            let help = match suggest(name, names.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("this world has: {}", names.join(", ")),
            };
            return Err(Error::new(ErrorKind::Invalid, format!("world seed {} has no level `{name}`", self.seed))
                .with_help(help));
        };
        while self.maps.len() <= index {
            self.make_next()?;
        }
        Ok(&self.maps[index])
    }

    /// Where the staircase at `at` on level `from` leads: the level and the
    /// arrival cell there, making both levels (and those before them) if they
    /// are not made yet. What a game calls when the player takes the stairs.
    pub fn follow(&mut self, from: &str, at: Point) -> Result<(String, Point), Error> {
        self.level(from)?;
        let i = self.plan.index(from).unwrap_or_default();
        let Some(e) = self.maps[i].exits().iter().position(|e| e.at == at) else {
            let listed: Vec<String> =
                self.maps[i].exits().iter().map(|e| format!("{} {}", e.way.name(), e.at)).collect();
            return Err(Error::new(ErrorKind::Invalid, format!("level `{from}` has no staircase at {at}"))
                .with_help(format!("its staircases (by their first cell): {}", listed.join(", "))));
        };
        let Some(to) = self.maps[i].exits()[e].to.clone() else {
            return Err(Error::new(
                ErrorKind::Invalid,
                format!("the stairs at {at} on `{from}` lead out of the world"),
            ));
        };
        self.level(&to)?;
        let arrival = self.maps[i].exits()[e].arrival;
        arrival.map(|p| (to, p)).ok_or_else(|| self.broken(i, &format!("has an exit at {at} with no arrival")))
    }

    /// Makes every level of the world.
    pub fn make_all(&mut self) -> Result<(), Error> {
        while self.maps.len() < self.plan.levels.len() {
            self.make_next()?;
        }
        Ok(())
    }

    /// Makes the next level of the plan and links it to the level it is entered from.
    fn make_next(&mut self) -> Result<(), Error> {
        let i = self.maps.len();
        let planned = self.plan.levels[i].clone();
        let links = self.links_of(i);
        let generator = match self.generators.get(&planned.map_type) {
            Some(g) => g.clone(),
            None => {
                let g = Generator::new(self.pack, &planned.map_type)?.trace(self.trace);
                self.generators.insert(planned.map_type.clone(), g.clone());
                g
            }
        };
        let generator = generator.depth(planned.depth);
        let aligned = !links.aligned.is_empty();
        let unaligned = LevelLinks { aligned: Vec::new(), arrival_prefab: None, ..links.clone() };
        let made = match generator.clone().links(links).generate_in(planned.seed, &self.state) {
            // Arrivals stamped where the level above put its stairs may leave a
            // required feature no room in any attempt: the level is made again
            // with its ways in arriving on its own stairs up.
            Err(_) if aligned => generator.links(unaligned).generate_in(planned.seed, &self.state),
            made => made,
        };
        let (map, state) =
            made.map_err(|e| e.prefixed(&format!("level `{}` (world seed {}): ", planned.name, self.seed)))?;
        self.state = state;
        self.maps.push(map);
        self.link_arrivals(i)
    }

    /// The exits of level `from` that lead to level `to`, by index in its exits.
    fn exits_into(&self, from: usize, to: usize) -> Vec<usize> {
        let name = &self.plan.levels[to].name;
        let way =
            if self.plan.levels[from].line == self.plan.levels[to].line { ExitWay::Down } else { ExitWay::Branch };
        let exits = self.maps[from].exits();
        (0..exits.len()).filter(|&e| exits[e].way == way && exits[e].to.as_ref() == Some(name)).collect()
    }

    /// What the world asks of level `i`: where it is entered, where it leads.
    fn links_of(&self, i: usize) -> LevelLinks {
        let planned = &self.plan.levels[i];
        let line = &self.spec.lines[planned.line];
        let mut links = LevelLinks { up: 1, down: line.down, ..LevelLinks::default() };
        if let Some(from) = planned.from {
            let ways_in = self.exits_into(from, i);
            links.up_to = Some(self.plan.levels[from].name.clone());
            links.up = (ways_in.len() as u32).max(1);
            let (above, here) = (&self.maps[from], self.pack.map_type(&planned.map_type));
            let same_size = here.is_some_and(|m| (m.width, m.height) == (above.width(), above.height()));
            if self.spec.aligned_stairs && same_size && line.arrival_prefab.is_some() {
                links.aligned = ways_in.iter().map(|&e| above.exits()[e].at).collect();
                links.arrival_prefab = line.arrival_prefab.clone();
            }
        }
        if let Some(next) = self.plan.next_in_line(i) {
            links.down_to = Some(self.plan.levels[next].name.clone());
        }
        for branch in self.plan.branches.iter().filter(|b| b.entrance == Some(i)) {
            let b = &self.spec.lines[branch.line];
            let Some(spec) = &b.branch else { continue };
            links.entrances.push(Entrance {
                prefab: spec.entrance_prefab.clone(),
                count: spec.entrances,
                to: format!("{}:1", b.name),
                location: b.location.clone(),
            });
        }
        links
    }

    /// Pairs the exits leading into level `i` with its stairs up: each arrives
    /// on the stairs up at its own cell (aligned stairs) or on one of the
    /// level's stairs up in turn, and each stairs up leads back to an exit.
    fn link_arrivals(&mut self, i: usize) -> Result<(), Error> {
        let Some(from) = self.plan.levels[i].from else { return Ok(()) };
        let ways_in = self.exits_into(from, i);
        let ups: Vec<usize> =
            (0..self.maps[i].exits().len()).filter(|&e| self.maps[i].exits()[e].way == ExitWay::Up).collect();
        if ups.is_empty() || ways_in.is_empty() {
            return Err(self.broken(i, "has no stairs up for the way in from the level above"));
        }
        let mut turn = 0;
        for &e in &ways_in {
            let at = self.maps[from].exits()[e].at;
            let up = match ups.iter().find(|&&u| self.maps[i].exits()[u].at == at) {
                Some(&u) => u,
                None => {
                    let u = ups[turn % ups.len()];
                    turn += 1;
                    u
                }
            };
            let arrival = self.maps[i].exits()[up].at;
            self.maps[from].exits[e].arrival = Some(arrival);
            self.maps[i].exits[up].arrival.get_or_insert(at);
        }
        // A stairs up no way in chose still leads back up, to the first.
        let first = self.maps[from].exits()[ways_in[0]].at;
        for &u in &ups {
            self.maps[i].exits[u].arrival.get_or_insert(first);
        }
        self.check_arrivals(from, i)
    }

    /// Every exit between `from` and `to` arrives on a walkable cell.
    fn check_arrivals(&self, from: usize, to: usize) -> Result<(), Error> {
        let walkable = |map: &Map, p: Point| map.bounds().contains(p) && map.terrain()[p].is_walkable();
        for (a, b) in [(from, to), (to, from)] {
            for exit in self.maps[a].exits().iter().filter(|e| e.to.as_deref() == Some(&self.plan.levels[b].name)) {
                match exit.arrival {
                    Some(p) if walkable(&self.maps[b], p) => {}
                    _ => return Err(self.broken(a, &format!("has an exit at {} with no walkable arrival", exit.at))),
                }
            }
        }
        Ok(())
    }

    fn broken(&self, i: usize, what: &str) -> Error {
        Error::new(
            ErrorKind::Generation,
            format!("level `{}` (world seed {}) {what}", self.plan.levels[i].name, self.seed),
        )
    }

    /// The world as JSON: its levels, their exits and where each leads, its
    /// branches and its per-world counts (see docs/worlds.md).
    pub fn to_json(&self, files: &dyn Fn(&PlannedLevel) -> Option<String>) -> String {
        json::world_json(self, files)
    }
}
