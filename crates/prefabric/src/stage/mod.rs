//! The pipeline: features, layout, encounters, furnishing, objects, theme, link, validate — one map from a pack, a map
//! type and a seed (and, for a run of levels, the [`WorldState`](crate::world_state::WorldState) so far).
//!
//! [`Generator`] holds a pack and a map type and generates maps for seeds; each
//! [`Generation`] runs the stages in order on one map under construction. Every
//! stage draws from its own random streams derived from the seed, so the same pack,
//! map type, depth and seed always give the same map. A stage that fails (a required
//! feature with no room, tunnelers boxed in below `min_open`) makes the whole
//! attempt fail; the generator then retries with a seed derived from the first, up
//! to [`ATTEMPTS`] times, and records each retry in the trace.

// Cave prefab placement lives with the caves (`layout/caves/prefabs/`).
pub(crate) mod encounters;
pub(crate) mod features;
pub(crate) mod furnish;
mod generation;
mod generator;
pub(crate) mod links;
pub(crate) mod marks;
pub(crate) mod objects;
mod placed;
mod placing;
mod preview;
pub(crate) mod scatter;
mod shared;
pub(crate) mod stairs;
pub(crate) mod theme;
pub(crate) mod validate;

pub use generation::Generation;
pub use generator::{ATTEMPTS, Generator, generate};
pub use preview::Preview;
pub use shared::SharedGenerator;
