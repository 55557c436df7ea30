//! prefabric builds roguelike maps from hand-made prefabs woven into procedurally
//! generated layouts, after the systems of Cogmind, Golden Krone Hotel and Ascension.
//!
//! A generation runs a fixed pipeline over one [`Map`]:
//!
//! 1. **features** — one feature variant of the map type is chosen by weight; its
//!    prefabs are placed at anchors with jitter, its BLOCKED barriers raised;
//! 2. **layout** — one of four generators builds the level around them:
//!    *tunnelers* dig corridors, rooms, halls and junctions from the prefabs' link
//!    marks (Cogmind), the *chain* joins prefabs at their connectors by straight
//!    hallways (Golden Krone Hotel), *pathways* places hand-made rooms and joins
//!    them door to door by path-found hallways (Ascension), and *caves* grows
//!    caverns by cellular automaton. Each reports the same regions (rooms,
//!    corridors, caverns) with their doors, and no later stage knows which ran;
//! 3. **encounters** — hand-made content chosen by weight under limits is embedded
//!    into rooms and caverns;
//! 4. **furnishing** — rooms and halls draw compositions of machines and
//!    stockpiles, junctions get terminals, loose items go to secluded spots;
//! 5. **objects** — every placed prefab's reference characters become entities,
//!    items, props, traps and debris through its definition file and the catalog;
//! 6. **theme** — floors and walls take the map type's variants, region by region;
//! 7. **validate** — connectivity (machines block), intact prefabs, reached links
//!    and objects one to a cell are checked.
//!
//! Content comes in a [`Pack`]: a palette, text and REXPaint prefabs, definition
//! files, a catalog and TOML map types, loaded with every problem reported at its
//! `file:line:col`; [`Pack::embedded`] is the built-in pack. The same pack, map
//! type, depth and seed give the same map, byte for byte, on every platform and
//! with any set of features.
//!
//! Cargo features, all on by default but `serde`: `png` (`render::map_png`),
//! `html` (the viewer, `render::map_html`), `xp` (`render::map_xp`), `tiled`
//! (`render::map_tmj`, `render::map_tmx`) and `serde` (Serialize and Deserialize
//! on the map's types). Without them the library still loads every pack,
//! generates every map type and writes text, ANSI and JSON. The Dungeon Crawl
//! importer is a crate of its own, `prefabric-des`.
//!
//! ```
//! use prefabric::{Pack, generate, render};
//!
//! let pack = Pack::embedded()?;
//! let map = generate(&pack, "materials", 42)?;
//! let text = render::ascii(&map, pack.palette());
//! assert_eq!(text.lines().count(), 200);
//! for region in map.regions().iter().take(3) {
//!     println!("{} at {} with {} doors", region.kind.name(), region.bounds, region.doors.len());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// No unwrap, expect or panic! outside tests: what a public function is given
// must never bring the program down (the few kept carry an `allow` and say why).
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod bits;
pub mod content;
pub mod error;
pub mod format;
pub mod geom;
pub mod grid;
pub mod layout;
pub mod limits;
pub mod map;
pub mod prefab;
pub mod quality;
pub mod render;
pub mod rng;
pub mod stage;
pub mod stats;
pub mod trace;
pub mod vocab;
pub mod world;
pub mod world_state;

pub use content::encounters::{Encounter, EncounterPool};
pub use content::furnishing::Furnishing;
pub use content::maptype::MapType;
pub use content::{Pack, PackParts, WeightWords};
pub use error::{Error, ErrorKind, Location, Problems, Report, ReportLine, SHOWN_PER_SHAPE};
pub use format::palette::Palette;
pub use format::xp::{Rgb, XpCell, XpImage, XpLayer};
pub use geom::{Dir, Moves, Point, Rect, Transform, TransformSet};
pub use grid::Grid;
pub use limits::Limits;
pub use map::{
    DefinitionUse, Door, EncounterSkip, EncounterTag, Exit, ExitWay, FeatureSkip, FloorKind, FurnishPart, Furnished,
    FurnishingSummary, LinkKind, Map, Object, ObjectEncounter, ObjectKind, PlacedLink, PlacedPrefab, Region, RegionId,
    RegionKind, Role, SkipReason, Stage, Staircase, Terrain,
};
pub use prefab::{CellMark, Header, LayerKind, LinkMark, Machine, Prefab, RefMark, VariationLine};
pub use rng::Rng;
pub use stage::{Generation, Generator, Preview, SharedGenerator, generate};
pub use trace::{Event, Outcome, Trace};
pub use vocab::{Category, Composition, Style};
pub use world::World;
pub use world_state::WorldState;

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of the manual's `docs/worlds.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/worlds.md")]
pub struct WorldsDoctests;

/// The Rust examples of the manual's `docs/README.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/README.md")]
pub struct ManualIndexDoctests;

/// The Rust examples of the manual's `docs/getting-started.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/getting-started.md")]
pub struct GettingStartedDoctests;

/// The Rust examples of the manual's `docs/prefabs.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/prefabs.md")]
pub struct PrefabsDoctests;

/// The Rust examples of the manual's `docs/map-types.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/map-types.md")]
pub struct MapTypesDoctests;

/// The Rust examples of the manual's `docs/encounters-and-furnishing.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/encounters-and-furnishing.md")]
pub struct EncountersAndFurnishingDoctests;

/// The Rust examples of the manual's `docs/definitions-and-catalog.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/definitions-and-catalog.md")]
pub struct DefinitionsAndCatalogDoctests;

/// The Rust examples of the manual's `docs/checking-and-tuning.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/checking-and-tuning.md")]
pub struct CheckingAndTuningDoctests;

/// The Rust examples of the manual's `docs/viewer.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/viewer.md")]
pub struct ViewerDoctests;

/// The Rust examples of the manual's `docs/importing-vaults.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/importing-vaults.md")]
pub struct ImportingVaultsDoctests;

/// The Rust examples of the manual's `docs/library.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryDoctests;

/// The Rust examples of the manual's `docs/json-schema.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/json-schema.md")]
pub struct JsonSchemaDoctests;

/// The Rust examples of the manual's `docs/performance.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/performance.md")]
pub struct PerformanceDoctests;

/// The Rust examples of the manual's `docs/developing.md`, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/developing.md")]
pub struct DevelopingDoctests;
