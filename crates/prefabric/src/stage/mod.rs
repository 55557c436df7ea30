//! The pipeline: features, layout, encounters, furnishing, objects, theme, link, validate — one map from a pack, a map
//! type and a seed (and, for a run of levels, the [`World`] so far).
//!
//! [`Generator`] holds a pack and a map type and generates maps for seeds; each
//! [`Generation`] runs the stages in order on one map under construction. Every
//! stage draws from its own random streams derived from the seed, so the same pack,
//! map type, depth and seed always give the same map. A stage that fails (a required
//! feature with no room, tunnelers boxed in below `min_open`) makes the whole
//! attempt fail; the generator then retries with a seed derived from the first, up
//! to [`ATTEMPTS`] times, and records each retry in the trace.

// Cave prefab placement lives with the caves (`layout/caves/prefabs/`).
pub(crate) use crate::layout::cave_prefabs as caverns;
pub(crate) mod encounters;
pub(crate) mod features;
pub(crate) mod furnish;
pub(crate) mod marks;
pub(crate) mod objects;
pub(crate) mod scatter;
mod shared;
pub(crate) mod stairs;
pub(crate) mod theme;
pub(crate) mod validate;

use crate::content::chain::PoolEntry;
use crate::content::maptype::{LayoutGenerator, WeightedGenerator};
use crate::content::{MapType, Pack};
use crate::error::{Error, ErrorKind};
use crate::format::suggest;
use crate::layout::{self, LayoutStats, Start};
use crate::map::{Map, Spare};
use crate::rng::Rng;
use crate::trace::{Outcome, Trace};
use crate::world::World;
use std::borrow::Cow;
use std::sync::{Arc, Mutex};

pub use shared::SharedGenerator;

/// The prefab a placement put down, in the outcome its variation drew (not
/// turned); the pack's prefab itself when it does not vary.
pub(crate) fn placed_prefab<'p>(pack: &'p Pack, placed: &crate::map::PlacedPrefab) -> Option<Cow<'p, crate::Prefab>> {
    let prefab = pack.prefab(&placed.name)?;
    Some(match placed.variant {
        Some(seed) => prefab.variant(seed),
        None => Cow::Borrowed(prefab),
    })
}

/// How many attempts a generation gets before it reports failure.
pub const ATTEMPTS: u32 = 8;

/// Pieces of content a preview forces into every map, for a designer
/// iterating on one of them (`generate --variant/--encounter/--prefab`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// This feature variant instead of one drawn by weight.
    pub variant: Option<String>,
    /// This encounter placed first, before the pool's draws; the generation
    /// fails, saying why, when it fits nowhere.
    pub encounter: Option<String>,
    /// This prefab wherever its placement or encounter chooses among
    /// alternatives; without `variant` or `encounter`, the first variant
    /// placing it, or else the first encounter, is forced too. A prefab of a
    /// chain or pathways pool (rooms or hallway pieces) is placed at least
    /// once instead, by the generator that has it.
    pub prefab: Option<String>,
}

/// A [`Preview`] resolved against the map type: indices and a prefab name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Forced {
    pub variant: Option<usize>,
    pub encounter: Option<usize>,
    pub prefab: Option<String>,
    /// The layout generators with the forced pool prefab's `min` raised to 1
    /// and every other generator's weight 0, when the prefab is a pool's.
    pub layout: Option<Arc<Vec<WeightedGenerator>>>,
}

impl Forced {
    /// True when the preview forces a prefab this placement chooses among: it
    /// is then required, so a preview that cannot show it fails, saying why.
    pub fn holds(&self, placement: &crate::content::maptype::PrefabPlacement) -> bool {
        self.prefab.as_ref().is_some_and(|p| placement.choices.iter().any(|(n, _)| n == p))
    }

    /// The weights of a choice among `choices` (prefab name, weight): only the
    /// forced prefab's (at least 1), when it is among them; else as written.
    pub fn weights<'a>(&self, choices: impl Iterator<Item = (&'a str, u32)> + Clone) -> Vec<u32> {
        let forced = self.prefab.as_deref().filter(|p| choices.clone().any(|(n, _)| n == *p));
        choices
            .map(|(n, w)| if forced.is_none_or(|p| p == n) { w.max(u32::from(forced.is_some())) } else { 0 })
            .collect()
    }
}

/// The room and hallway piece pools of a map type's chain and pathways
/// generators, each with its generator's index.
fn layout_pools(mt: &MapType) -> impl Iterator<Item = (usize, &[PoolEntry])> {
    mt.generators.iter().enumerate().flat_map(|(i, g)| {
        let pools: Vec<&[PoolEntry]> = match &g.generator {
            LayoutGenerator::Chain(p) => vec![&p.pool],
            LayoutGenerator::Pathways(p) => vec![&p.pool, &p.hallway_prefabs.pool],
            _ => Vec::new(),
        };
        pools.into_iter().map(move |p| (i, p))
    })
}

/// `mt`'s layout generators forced to place `prefab`, when one of its chain or
/// pathways pools has it: that generator alone (every other one weight 0),
/// the prefab's entry with a `min` of at least 1, so a map that cannot hold
/// it fails with the layout's reason.
fn layout_forcing(mt: &MapType, prefab: &str) -> Option<Vec<WeightedGenerator>> {
    let (chosen, _) = layout_pools(mt).find(|(_, pool)| pool.iter().any(|e| e.prefab == prefab))?;
    let mut generators = mt.generators.clone();
    for (i, g) in generators.iter_mut().enumerate() {
        g.weight = u32::from(i == chosen);
        let pools: Vec<&mut Vec<PoolEntry>> = match &mut g.generator {
            LayoutGenerator::Chain(p) => vec![&mut p.pool],
            LayoutGenerator::Pathways(p) => vec![&mut p.pool, &mut p.hallway_prefabs.pool],
            _ => Vec::new(),
        };
        for e in pools.into_iter().flatten().filter(|e| i == chosen && e.prefab == prefab) {
            e.weight = e.weight.max(1);
            e.min = e.min.max(1);
            e.max = e.max.map(|m| m.max(1));
        }
    }
    Some(generators)
}

/// Generates maps of one map type from one pack.
#[derive(Clone)]
pub struct Generator<'p> {
    pack: &'p Pack,
    map_type: &'p MapType,
    depth: u32,
    forced: Forced,
    /// Whether maps record their trace.
    trace: bool,
    /// What the layout builds from, made once and shared by every generation.
    prepared: Arc<layout::Prepared>,
    /// Memory of maps handed back ([`Generator::recycle`]) and of failed
    /// attempts, for the next maps; shared by the generator's clones.
    spares: Arc<Mutex<Vec<Spare>>>,
}

/// The most maps' memory a generator keeps for reuse: one per thread that
/// generates with it, for a few threads.
const SPARES: usize = 4;

impl std::fmt::Debug for Generator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator").field("map_type", &self.map_type.name).field("depth", &self.depth).finish()
    }
}

impl<'p> Generator<'p> {
    /// A generator for the map type named `map_type`.
    pub fn new(pack: &'p Pack, map_type: &str) -> Result<Generator<'p>, Error> {
        Ok(Generator::with_map_type(pack, pack.map_type_named(map_type)?))
    }

    /// A generator for `map_type`, a map type of `pack` as
    /// [`Pack::map_type_sized`] gives it at another size (or as the pack has it).
    pub fn with_map_type(pack: &'p Pack, map_type: &'p MapType) -> Generator<'p> {
        let prepared = Arc::new(layout::Prepared::new(pack, &map_type.generators, map_type.width));
        Generator { pack, map_type, depth: 1, forced: Forced::default(), trace: true, prepared, spares: Arc::default() }
    }

    /// Forces the pieces `preview` names into every map; an error, with the
    /// names there are, when the map type has no such piece.
    pub fn preview(mut self, preview: &Preview) -> Result<Generator<'p>, Error> {
        let mt = self.map_type;
        let unknown = |what: &str, name: &str, names: Vec<&str>| {
            let help = match suggest(name, names.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None if names.is_empty() => format!("map type `{}` has none", mt.name),
                None => format!("map type `{}` has: {}", mt.name, names.join(", ")),
            };
            Error::new(ErrorKind::Invalid, format!("map type `{}` has no {what} `{name}`", mt.name)).with_help(help)
        };
        let pool = mt.encounters.as_ref().map_or(&[][..], |p| &p.pool[..]);
        let mut forced = Forced { prefab: preview.prefab.clone(), ..Forced::default() };
        if let Some(name) = &preview.variant {
            let i = mt.variants.iter().position(|v| v.name == *name);
            forced.variant = Some(i.ok_or_else(|| {
                unknown("feature variant", name, mt.variants.iter().map(|v| v.name.as_str()).collect())
            })?);
        }
        if let Some(id) = &preview.encounter {
            let i = pool.iter().position(|e| e.id == *id);
            forced.encounter =
                Some(i.ok_or_else(|| unknown("encounter", id, pool.iter().map(|e| e.id.as_str()).collect()))?);
        }
        if let Some(prefab) = &preview.prefab {
            let in_variant = |v: &crate::content::maptype::FeatureVariant| {
                v.prefabs.iter().any(|p| p.choices.iter().any(|(n, _)| n == prefab))
            };
            let in_encounter = |e: &crate::content::Encounter| e.prefabs.contains(prefab);
            let named_piece_has_it = forced.variant.is_some_and(|i| in_variant(&mt.variants[i]))
                || forced.encounter.is_some_and(|i| in_encounter(&pool[i]));
            if !named_piece_has_it {
                if forced.variant.is_none() && forced.encounter.is_none() {
                    forced.variant = mt.variants.iter().position(in_variant);
                    if forced.variant.is_none() {
                        forced.encounter = pool.iter().position(in_encounter);
                    }
                }
                let unforced = forced.variant.is_none() && forced.encounter.is_none();
                forced.layout = unforced.then(|| layout_forcing(mt, prefab)).flatten().map(Arc::new);
                if let Some(generators) = &forced.layout {
                    self.prepared = Arc::new(layout::Prepared::new(self.pack, generators, mt.width));
                } else if forced.variant.is_none_or(|i| !in_variant(&mt.variants[i]))
                    && forced.encounter.is_none_or(|i| !in_encounter(&pool[i]))
                {
                    let mut names: Vec<&str> = mt
                        .variants
                        .iter()
                        .flat_map(|v| v.prefabs.iter().flat_map(|p| p.choices.iter().map(|(n, _)| n.as_str())))
                        .chain(pool.iter().flat_map(|e| e.prefabs.iter().map(String::as_str)))
                        .collect();
                    if unforced {
                        names.extend(layout_pools(mt).flat_map(|(_, p)| p.iter().map(|e| e.prefab.as_str())));
                    }
                    names.sort_unstable();
                    names.dedup();
                    return Err(unknown("feature variant prefab, encounter alternative or layout pool prefab", prefab, names)
                        .with_help("--prefab picks a prefab a feature placement, an encounter or the layout's pool chooses among (with --variant or --encounter, one of theirs)"));
                }
            }
        }
        self.forced = forced;
        Ok(self)
    }

    /// Sets the depth maps are generated for (default 1).
    pub fn depth(mut self, depth: u32) -> Generator<'p> {
        self.depth = depth;
        self
    }

    /// Whether maps record their trace (default on): what `--explain` prints and
    /// the viewer's timeline shows. Off, [`Map::trace`] is empty and generation
    /// is faster; the maps are the same. [`Generator::attempts`] always traces.
    pub fn trace(mut self, on: bool) -> Generator<'p> {
        self.trace = on;
        self
    }

    /// The map type.
    pub fn map_type(&self) -> &'p MapType {
        self.map_type
    }

    /// Generates the map for `seed` as the first level of a new world, retrying
    /// with derived seeds when an attempt fails.
    pub fn generate(&self, seed: u64) -> Result<Map, Error> {
        self.generate_in(seed, &World::new()).map(|(map, _)| map)
    }

    /// Generates the map for `seed` as the next level of `world`: encounters limited
    /// per world count what earlier levels placed. Returns the map and the world
    /// after it.
    pub fn generate_in(&self, seed: u64, world: &World) -> Result<(Map, World), Error> {
        if let Some(error) = self.forced_ineligible(world) {
            return Err(error);
        }
        let mut failures: Vec<Error> = Vec::new();
        for attempt in 0..ATTEMPTS {
            let mut g = self.start_in(seed, attempt, world);
            for (i, f) in failures.iter().enumerate() {
                g.map.trace.push_with("generate", Outcome::Note, None, || {
                    format!("attempt {} failed: {}", i + 1, f.message())
                });
            }
            match g.run_all() {
                Ok(()) => {
                    let next = world.after(&g.map);
                    return Ok((g.into_map(), next));
                }
                Err(e) => {
                    failures.push(e);
                    self.recycle(g.into_map());
                }
            }
        }
        let last = failures.pop();
        // The last failure's own hint says what to change, when it has one.
        let help = last
            .as_ref()
            .and_then(|e| e.help())
            .unwrap_or("run `prefabric check` on the pack; the map type may ask for more than fits")
            .to_string();
        let last = last.map_or(String::new(), |e| e.message().to_string());
        let alike = failures.iter().filter(|e| e.message() == last).count();
        let others = match (failures.len(), alike) {
            (0, _) => String::new(),
            (n, a) if a == n => format!(" (attempts 1-{n} failed the same way)"),
            (n, a) => format!(" ({a} of attempts 1-{n} failed the same way; `--explain` prints each)"),
        };
        Err(Error::new(
            ErrorKind::Generation,
            format!(
                "map type `{}` with seed {seed} failed {ATTEMPTS} attempts; the last, attempt {ATTEMPTS}: {last}{others}",
                self.map_type.name
            ),
        )
        .with_help(help))
    }

    /// The trace of every attempt at `seed` up to the first that succeeds,
    /// each with its error when it failed: what `--explain` prints when a
    /// generation fails. Attempts are deterministic, so these are the
    /// attempts [`Generator::generate`] made.
    pub fn attempts(&self, seed: u64) -> Vec<(Trace, Option<Error>)> {
        let mut out = Vec::new();
        // A forced encounter not eligible fails every attempt the same way.
        let attempts = if self.forced_ineligible(&World::new()).is_some() { 1 } else { ATTEMPTS };
        for attempt in 0..attempts {
            let mut g = self.start(seed, attempt);
            g.map.trace = Trace::default();
            let result = g.run_all();
            let failed = result.is_err();
            out.push((std::mem::take(&mut g.map.trace), result.err()));
            self.recycle(g.into_map());
            if !failed {
                break;
            }
        }
        out
    }

    /// Why the encounter a preview forces cannot be placed at this depth in
    /// `world` (its weight, its depths, its world limit), if it cannot.
    fn forced_ineligible(&self, world: &World) -> Option<Error> {
        let e = self.map_type.encounters.as_ref()?.pool.get(self.forced.encounter?)?;
        encounters::forced_ineligible(e, self.depth, world)
    }

    /// Takes back a map the caller is done with, so that a later map from this
    /// generator (or a clone of it) is built in its memory instead of
    /// allocating its own: its grids, its lists of regions, prefabs and
    /// objects, and each object's list of cells and each region's list of
    /// doors. The maps are the same either way; generating in bulk is faster,
    /// and the memory stays with the process instead of going back and forth to
    /// the system. At most a few maps' memory is kept, for as long as the
    /// generator lives; the rest is dropped. The generator recycles its own
    /// failed attempts so.
    ///
    /// ```
    /// let pack = prefabric::Pack::embedded().expect("the embedded pack is valid");
    /// let generator = prefabric::Generator::new(&pack, "materials").expect("materials exists").trace(false);
    /// for seed in 0..3 {
    ///     let map = generator.generate(seed).expect("materials generates");
    ///     // ... use the map ...
    ///     generator.recycle(map);
    /// }
    /// ```
    pub fn recycle(&self, map: Map) {
        let spare = map.into_spare();
        if let Ok(mut spares) = self.spares.lock()
            && spares.len() < SPARES
        {
            spares.push(spare);
        }
    }

    /// A kept map's memory, if there is one: a map of this generator's map type,
    /// so of the same size.
    fn spare(&self) -> Spare {
        self.spares.lock().ok().and_then(|mut spares| spares.pop()).unwrap_or_default()
    }

    /// A generation for `seed` ready to run stage by stage. Attempt 0 draws from the
    /// seed itself; later attempts from seeds derived from it.
    pub fn start(&self, seed: u64, attempt: u32) -> Generation<'p> {
        self.start_in(seed, attempt, &World::new())
    }

    /// Like [`Generator::start`], for the next level of `world`.
    pub fn start_in(&self, seed: u64, attempt: u32, world: &World) -> Generation<'p> {
        let stream_seed =
            if attempt == 0 { seed } else { Rng::stream_n(seed, "generate/attempt", u64::from(attempt)).next_u64() };
        let (w, h) = (self.map_type.width, self.map_type.height);
        let mut map = Map::from_spare(self.spare(), seed, &self.map_type.name, self.depth, w, h);
        map.attempt = attempt;
        map.stream_seed = stream_seed;
        map.moves = self.pack.palette().moves();
        if !self.trace {
            map.trace = Trace::off();
        }
        Generation {
            pack: self.pack,
            map_type: self.map_type,
            forced: self.forced.clone(),
            prepared: Arc::clone(&self.prepared),
            map,
            starts: Vec::new(),
            stream_seed,
            world: world.clone(),
        }
    }
}

/// One map under construction, advanced stage by stage.
#[derive(Clone)]
pub struct Generation<'p> {
    pack: &'p Pack,
    map_type: &'p MapType,
    forced: Forced,
    prepared: Arc<layout::Prepared>,
    map: Map,
    starts: Vec<Start>,
    stream_seed: u64,
    world: World,
}

impl std::fmt::Debug for Generation<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generation").field("map_type", &self.map_type.name).field("map", &self.map).finish()
    }
}

impl Generation<'_> {
    /// Stage 1: places the chosen feature variant's barriers and prefabs and
    /// resolves tunneler starts.
    pub fn features(&mut self) -> Result<(), Error> {
        self.starts = features::run(&mut self.map, self.pack, self.map_type, &self.forced, self.stream_seed)?;
        Ok(())
    }

    /// Stage 2: digs the layout around the features, then places the features
    /// that go into its caverns.
    pub fn layout(&mut self) -> Result<LayoutStats, Error> {
        let generators = self.forced.layout.as_deref().unwrap_or(&self.map_type.generators);
        let stats = layout::run(&mut self.map, &self.prepared, generators, &self.starts, self.stream_seed)?;
        features::after_layout(&mut self.map, self.pack, self.map_type, &self.forced, self.stream_seed)?;
        Ok(stats)
    }

    /// Stage 3: embeds the map type's encounters into the layout's rooms, then
    /// turns general stairs into stairs up, down or floor to meet the map
    /// type's `stairs` count.
    pub fn encounters(&mut self) -> Result<(), Error> {
        if let Some(pool) = &self.map_type.encounters {
            encounters::run(&mut self.map, self.pack, pool, &self.forced, &self.world, self.stream_seed)?;
        }
        stairs::run(&mut self.map, self.map_type.stairs, self.stream_seed);
        Ok(())
    }

    /// Stage 4: furnishes rooms, halls and junctions with machines, stockpiles and
    /// items, as the map type's `[furnishing]` says (nothing without one).
    pub fn furnish(&mut self) {
        if let Some(rules) = &self.map_type.furnishing {
            furnish::run(&mut self.map, self.pack.catalog(), rules, self.stream_seed);
        }
    }

    /// Stage 5: turns every placed prefab's reference characters into objects
    /// through its definition file, and lays its cell marks.
    pub fn objects(&mut self) {
        objects::run(&mut self.map, self.pack, self.stream_seed);
        marks::run(&mut self.map, self.pack);
    }

    /// Stage 6: dresses the layout's floors and walls in the map type's terrain
    /// variants and lays its pools (nothing without a `[theme]`).
    pub fn theme(&mut self) {
        theme::run(&mut self.map, &self.map_type.theme, self.stream_seed);
    }

    /// Stage 7: names the regions on both sides of every door, and makes every
    /// opening between two regions a door of both: the region graph
    /// ([`Map::neighbours`], [`Map::region_path`]).
    pub fn link(&mut self) {
        self.map.link_regions();
    }

    /// Stage 8: checks the map's invariants.
    pub fn validate(&self) -> Result<(), Error> {
        validate::run(&self.map, self.pack)
    }

    fn run_all(&mut self) -> Result<(), Error> {
        self.features()?;
        self.layout()?;
        self.encounters()?;
        self.furnish();
        self.objects();
        self.theme();
        self.link();
        self.validate()
    }

    /// The map as far as it has been built.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The finished map.
    pub fn into_map(self) -> Map {
        self.map
    }
}

/// Generates the map of `map_type` for `seed` at depth 1.
///
/// ```
/// let pack = prefabric::Pack::embedded().expect("the embedded pack is valid");
/// let map = prefabric::generate(&pack, "materials", 7).expect("materials generates");
/// assert_eq!((map.width(), map.height()), (200, 200));
/// ```
pub fn generate(pack: &Pack, map_type: &str, seed: u64) -> Result<Map, Error> {
    Generator::new(pack, map_type)?.generate(seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map handed back is kept, and the next map is built in its memory.
    #[test]
    fn a_recycled_map_lends_its_memory_to_the_next() {
        let pack = Pack::embedded().expect("the embedded pack is valid");
        let generator = Generator::new(&pack, "mines").expect("mines exists");
        let map = generator.generate(1).expect("mines generate");
        let cells = map.terrain.cells().as_ptr();
        generator.recycle(map);
        assert_eq!(generator.spares.lock().map(|s| s.len()).ok(), Some(1));
        let next = generator.start(2, 0);
        assert_eq!(next.map().terrain.cells().as_ptr(), cells, "the next map took the recycled grid");
        assert_eq!(generator.spares.lock().map(|s| s.len()).ok(), Some(0));
        let maps: Vec<Map> = (0..SPARES as u64 + 2).map(|s| generator.generate(s).expect("mines generate")).collect();
        for map in maps {
            generator.recycle(map);
        }
        assert_eq!(generator.spares.lock().map(|s| s.len()).ok(), Some(SPARES), "at most SPARES are kept");
    }
}
