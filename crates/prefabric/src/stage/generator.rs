//! [`Generator`]: a pack and a map type, ready to generate maps for seeds,
//! retrying a failed attempt with a derived seed up to [`ATTEMPTS`] times;
//! each attempt is one [`Generation`](super::generation::Generation).

use super::encounters;
use super::generation::Generation;
use super::links::{LevelLinks, WorldPlaced};
use super::preview::{Forced, Preview, layout_forcing, layout_pools};
use crate::content::{MapType, Pack};
use crate::error::{Error, ErrorKind, Location};
use crate::format::suggest;
use crate::layout;
use crate::map::{Map, Spare};
use crate::rng::Rng;
use crate::trace::{Outcome, Trace};
use crate::world_state::WorldState;
use std::sync::{Arc, Mutex};

/// How many attempts a generation gets before it reports failure.
pub const ATTEMPTS: u32 = 8;

/// Generates maps of one map type from one pack.
#[derive(Clone)]
pub struct Generator<'p> {
    pub(super) pack: &'p Pack,
    pub(super) map_type: &'p MapType,
    pub(super) depth: u32,
    pub(super) forced: Forced,
    /// Whether maps record their trace.
    pub(super) trace: bool,
    /// What the layout builds from, made once and shared by every generation.
    pub(super) prepared: Arc<layout::Prepared>,
    /// Memory of maps handed back ([`Generator::recycle`]) and of failed
    /// attempts, for the next maps; shared by the generator's clones.
    pub(super) spares: Arc<Mutex<Vec<Spare>>>,
    /// What a world asks of the level, when it makes one.
    pub(super) links: Option<Arc<LevelLinks>>,
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
        Generator {
            pack,
            map_type,
            depth: 1,
            forced: Forced::default(),
            trace: true,
            prepared,
            spares: Arc::default(),
            links: None,
        }
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

    /// The generator of one level of a world: what the world asks of it.
    pub(crate) fn links(mut self, links: LevelLinks) -> Generator<'p> {
        self.links = Some(Arc::new(links));
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
        self.generate_in(seed, &WorldState::new()).map(|(map, _)| map)
    }

    /// Generates the map for `seed` as the next level of `world`: encounters limited
    /// per world count what earlier levels placed. Returns the map and the world
    /// after it.
    pub fn generate_in(&self, seed: u64, world: &WorldState) -> Result<(Map, WorldState), Error> {
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
        // Where the last failure was, or at least the map type's file: every
        // error names the file it comes from.
        let location = last
            .as_ref()
            .and_then(|e| e.location().cloned())
            .unwrap_or_else(|| Location::file(self.map_type.file.clone()));
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
        .with_help(help)
        .or_at(location))
    }

    /// The trace of every attempt at `seed` up to the first that succeeds,
    /// each with its error when it failed: what `--explain` prints when a
    /// generation fails. Attempts are deterministic, so these are the
    /// attempts [`Generator::generate`] made.
    pub fn attempts(&self, seed: u64) -> Vec<(Trace, Option<Error>)> {
        let mut out = Vec::new();
        // A forced encounter not eligible fails every attempt the same way.
        let attempts = if self.forced_ineligible(&WorldState::new()).is_some() { 1 } else { ATTEMPTS };
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
    fn forced_ineligible(&self, world: &WorldState) -> Option<Error> {
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
        self.start_in(seed, attempt, &WorldState::new())
    }

    /// Like [`Generator::start`], for the next level of `world`.
    pub fn start_in(&self, seed: u64, attempt: u32, world: &WorldState) -> Generation<'p> {
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
            links: self.links.clone(),
            world_placed: WorldPlaced::default(),
        }
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
