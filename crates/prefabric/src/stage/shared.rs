//! A generator that shares its pack instead of borrowing it, for a game to keep
//! in its state and hand to other threads.
//!
//! In: an `Arc<Pack>` and a map type's name. Out: the same maps
//! [`Generator`] makes for the same depth and seed, byte for byte: each call
//! lends out a borrowed generator built from the shared parts (the pack, the
//! layout prepared once, the memory of recycled maps), so nothing is prepared
//! twice. [`SharedGenerator`] is `Send + Sync + 'static` and cheap to clone;
//! clones share the prepared layout and recycled memory.

use super::generator::Generator;
use crate::content::{MapType, Pack};
use crate::error::Error;
use crate::layout;
use crate::map::{Map, Spare};
use crate::world_state::WorldState;
use std::sync::{Arc, Mutex};

/// A [`Generator`] that owns a share of its pack.
///
/// ```
/// use prefabric::{Pack, SharedGenerator};
/// use std::sync::Arc;
///
/// let pack = Arc::new(Pack::embedded()?);
/// let generator = SharedGenerator::new(pack, "maze")?.depth(2);
/// let maps: Vec<_> = (0..2)
///     .map(|seed| {
///         let generator = generator.clone();
///         std::thread::spawn(move || generator.generate(seed))
///     })
///     .map(|thread| thread.join().expect("no panic"))
///     .collect::<Result<_, _>>()?;
/// assert_eq!(maps.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct SharedGenerator {
    pack: Arc<Pack>,
    /// Its map type, copied once out of the pack: a generator borrows it for
    /// as long as the shared generator lives.
    map_type: Arc<MapType>,
    depth: u32,
    trace: bool,
    prepared: Arc<layout::Prepared>,
    spares: Arc<Mutex<Vec<Spare>>>,
}

impl std::fmt::Debug for SharedGenerator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedGenerator").field("map_type", &self.map_type).field("depth", &self.depth).finish()
    }
}

impl SharedGenerator {
    /// A generator for the map type named `map_type` of `pack`; the same error
    /// as [`Generator::new`] when the pack has no such map type.
    pub fn new(pack: Arc<Pack>, map_type: &str) -> Result<SharedGenerator, Error> {
        let (map_type, prepared, spares) = {
            let borrowed = Generator::new(&pack, map_type)?;
            (Arc::new(borrowed.map_type.clone()), borrowed.prepared, borrowed.spares)
        };
        Ok(SharedGenerator { pack, map_type, depth: 1, trace: true, prepared, spares })
    }

    /// Generates maps `width` by `height` cells instead of the map type's own
    /// size; an error, naming the first thing that does not fit, when the map
    /// type cannot take that size (see [`Pack::map_type_sized`]).
    ///
    /// ```
    /// use std::sync::Arc;
    /// let pack = Arc::new(prefabric::Pack::embedded().expect("the embedded pack is valid"));
    /// let generator = prefabric::SharedGenerator::new(pack, "hotel")?.size(90, 60)?;
    /// let map = generator.generate(5)?;
    /// assert_eq!((map.width(), map.height()), (90, 60));
    /// assert!(generator.clone().size(10, 10).is_err());
    /// # Ok::<(), prefabric::Error>(())
    /// ```
    pub fn size(self, width: u32, height: u32) -> Result<SharedGenerator, Error> {
        let map_type = self.pack.map_type_sized(&self.map_type.name, width, height)?;
        let prepared = Arc::new(layout::Prepared::new(&self.pack, &map_type.generators, map_type.width));
        Ok(SharedGenerator { map_type: Arc::new(map_type), prepared, spares: Arc::default(), ..self })
    }

    /// Sets the depth maps are generated for (default 1).
    pub fn depth(mut self, depth: u32) -> SharedGenerator {
        self.depth = depth;
        self
    }

    /// Whether maps record their trace (default on); see [`Generator::trace`].
    pub fn trace(mut self, on: bool) -> SharedGenerator {
        self.trace = on;
        self
    }

    /// The pack it shares.
    pub fn pack(&self) -> &Arc<Pack> {
        &self.pack
    }

    /// The map type.
    pub fn map_type(&self) -> &MapType {
        &self.map_type
    }

    /// The borrowed generator for one call, built from the shared parts.
    pub fn generator(&self) -> Generator<'_> {
        Generator {
            pack: &self.pack,
            map_type: &self.map_type,
            depth: self.depth,
            forced: Default::default(),
            trace: self.trace,
            prepared: Arc::clone(&self.prepared),
            spares: Arc::clone(&self.spares),
            links: None,
        }
    }

    /// Generates the map for `seed`: the same map as [`Generator::generate`].
    pub fn generate(&self, seed: u64) -> Result<Map, Error> {
        self.generator().generate(seed)
    }

    /// Generates the map for `seed` as the next level of `world`; see
    /// [`Generator::generate_in`].
    pub fn generate_in(&self, seed: u64, world: &WorldState) -> Result<(Map, WorldState), Error> {
        self.generator().generate_in(seed, world)
    }

    /// Hands a map's memory back for the next map; see [`Generator::recycle`].
    pub fn recycle(&self, map: Map) {
        self.generator().recycle(map);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send_sync_static<T: Send + Sync + 'static>() {}

    #[test]
    fn a_shared_generator_can_live_in_a_games_state_and_cross_threads() {
        send_sync_static::<SharedGenerator>();
        send_sync_static::<Arc<Pack>>();
    }

    #[test]
    fn it_makes_the_maps_the_borrowing_generator_makes_from_any_thread() {
        let pack = Arc::new(Pack::embedded().expect("the built-in pack"));
        for name in ["materials", "hotel", "catacombs", "mines"] {
            let borrowed = Generator::new(&pack, name).expect("a map type").depth(3);
            let shared = SharedGenerator::new(Arc::clone(&pack), name).expect("a map type").depth(3);
            let threads: Vec<_> = (0..3u64)
                .map(|seed| {
                    let shared = shared.clone();
                    std::thread::spawn(move || shared.generate(seed).expect("generates"))
                })
                .collect();
            for (seed, thread) in (0..3u64).zip(threads) {
                let from_thread = thread.join().expect("no panic");
                let here = borrowed.generate(seed).expect("generates");
                assert_eq!(
                    crate::render::json(&from_thread, &pack),
                    crate::render::json(&here, &pack),
                    "{name} {seed}"
                );
                shared.recycle(from_thread);
            }
            assert_eq!(shared.map_type().name, name);
        }
        let error = SharedGenerator::new(pack, "materail").expect_err("no such map type");
        assert!(error.to_string().contains("did you mean `materials`?"), "{error}");
    }
}
