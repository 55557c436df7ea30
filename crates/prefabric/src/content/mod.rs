//! Content packs: a folder of palette, prefabs and map types, loaded and checked.
//!
//! A pack is read from a directory ([`Pack::load`]), from memory
//! ([`Pack::from_files`]), or from the copy of `content/default/` compiled into the
//! library ([`Pack::embedded`]). Loading reads the files a pack reads (module
//! `files`: by folder and extension; the rest are listed by
//! [`Pack::ignored_files`], never opened), keeps going after a
//! problem, and returns either a pack whose every reference resolves or every problem
//! found, each with its `file:line:col` and reported once, in its own file.
//! [`PackParts`] keeps what loaded of a pack with problems (its palette at least), for
//! tools that work on one of its files.
//!
//! ```text
//! pack.toml        name, description, default_map_type, [weights] (encounter words)
//! palette.toml     glyphs and colours -> terrain, render glyphs
//! prefabs/**/*.txt text prefabs, one or more per file
//! prefabs/**/*.xp  REXPaint prefabs, one per file, named by file stem
//! prefabs/**/*.tmx  Tiled prefabs (.tmx, .tmj), one per file, named by file stem
//! prefabs/**/*.toml  the header (tags, transforms, style) of the .xp or Tiled prefab of that name
//! maps/*.toml      map types, named by file stem (with [encounters], [furnishing])
//! encounters/*.toml  shared encounter pools a map type's [encounters] includes by stem
//! prefabs/**/*.def definition files: what reference characters stand for
//! catalog/**/*.toml  entities, items, props, traps and debris
//! **/*.tsx, *.tsj  Tiled tilesets, wherever a Tiled prefab keeps them
//! ```

pub mod catalog;
pub mod caves;
pub mod chain;
pub mod defs;
pub mod encounters;
mod files;
mod footprints;
pub mod furnishing;
mod glyphs;
mod index;
pub mod keywords;
mod kind;
mod load;
pub mod maptype;
pub mod pathways;
pub mod room_sizes;
mod section;
pub mod theme;
pub mod tunnelers;
mod values;
pub mod world;

use crate::error::{Error, ErrorKind, Location, Problems};
use crate::format::palette::Palette;
use crate::geom::Point;
use crate::limits::Limits;
use crate::prefab::{self, Prefab};
pub(crate) use catalog::Catalog;
pub(crate) use defs::Definitions;
pub(crate) use encounters::Encounter;
pub use files::{IgnoredFile, ignored_because};
use load::Loaded;
pub(crate) use maptype::MapType;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
pub use values::{Anchor, DEFAULT_WEIGHT_WORDS, DepthRanges, IntRange, Percent, WeightWords};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_pack.rs"));
}

/// A loaded, validated content pack.
#[derive(Clone, Debug)]
pub struct Pack {
    name: String,
    description: String,
    default_map_type: String,
    palette: Palette,
    prefabs: Vec<Prefab>,
    prefab_index: BTreeMap<String, usize>,
    map_types: BTreeMap<String, MapType>,
    world: Option<world::WorldSpec>,
    weight_words: WeightWords,
    catalog: Catalog,
    definitions: BTreeMap<String, Definitions>,
    /// Prefab name -> the cells where a machine may stand in it
    /// ([`footprints::machine_reach`]), for the prefabs with any.
    machine_reach: BTreeMap<String, Vec<Point>>,
    /// The shared encounter pools, for [`Pack::map_type_sized`].
    shared_pools: encounters::SharedPools,
    warnings: Vec<Error>,
    /// The files in the pack's folder it does not read, by path.
    ignored: Vec<IgnoredFile>,
    limits: Limits,
}

/// A file of a pack: its path inside the pack (with `/` separators) and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Path inside the pack, e.g. `prefabs/entrances.txt`.
    pub path: String,
    /// The file's contents.
    pub bytes: Vec<u8>,
}

impl Pack {
    /// The default pack compiled into the library.
    pub fn embedded() -> Result<Pack, Problems> {
        Pack::from_files("content/default", Pack::embedded_files(), Limits::default())
    }

    /// The files of the default pack compiled into the library, sorted by path:
    /// a start for a pack built in memory with [`Pack::from_files`] (add a map
    /// type, replace a prefab file) without copying `content/default` to disk.
    pub fn embedded_files() -> Vec<SourceFile> {
        embedded::FILES
            .iter()
            .map(|(path, bytes)| SourceFile { path: path.to_string(), bytes: bytes.to_vec() })
            .collect()
    }

    /// Loads the pack in directory `dir` with default limits.
    pub fn load(dir: &Path) -> Result<Pack, Problems> {
        Pack::load_with_limits(dir, Limits::default())
    }

    /// The files of the pack in directory `dir`, as [`Pack::from_files`] takes
    /// them, without loading them: a start for a pack built from another (an
    /// import adds files to them). Refuses files or packs beyond `limits`.
    pub fn read_files(dir: &Path, limits: &Limits) -> Result<Vec<SourceFile>, Problems> {
        let tree = read_dir(dir, limits)?;
        tree.problems.into_result(tree.files)
    }

    /// Loads the pack in directory `dir`, refusing files or packs beyond `limits`.
    pub fn load_with_limits(dir: &Path, limits: Limits) -> Result<Pack, Problems> {
        let tree = read_dir(dir, &limits)?;
        if !tree.problems.is_empty() {
            return Err(tree.problems);
        }
        Pack::assemble(&tree.label, tree.files, tree.ignored, limits)
    }

    /// Builds a pack from files in memory; `root` prefixes paths in error locations.
    /// Files the pack does not read ([`ignored_because`]) are left out, as they
    /// are from a folder, and listed by [`Pack::ignored_files`].
    pub fn from_files(root: &str, files: Vec<SourceFile>, limits: Limits) -> Result<Pack, Problems> {
        Pack::assemble(root, files, Vec::new(), limits)
    }

    /// Builds a pack from `files`; `ignored` are the files of its folder left
    /// unread.
    fn assemble(
        root: &str,
        files: Vec<SourceFile>,
        ignored: Vec<IgnoredFile>,
        limits: Limits,
    ) -> Result<Pack, Problems> {
        let mut files = files;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let loaded = Loaded::read(root, &files, &limits);
        let mut ignored = ignored;
        ignored.extend(loaded.ignored);
        ignored.sort();
        match (loaded.pack_file, loaded.palette) {
            (Some(p), Some(palette)) if loaded.problems.is_empty() => Ok(Pack {
                machine_reach: loaded
                    .prefabs
                    .iter()
                    .map(|prefab| {
                        let defs = prefab.defs_name();
                        (prefab.name(), footprints::machine_reach(loaded.definitions.get(defs), prefab))
                    })
                    .filter(|(_, cells)| !cells.is_empty())
                    .map(|(name, cells)| (name.to_string(), cells))
                    .collect(),
                name: p.name,
                description: p.description,
                default_map_type: p.default_map_type.into_inner(),
                palette,
                prefabs: loaded.prefabs,
                prefab_index: loaded.prefab_index,
                map_types: loaded.map_types,
                world: loaded.world,
                weight_words: loaded.weight_words,
                catalog: loaded.catalog,
                definitions: loaded.definitions,
                shared_pools: loaded.shared,
                warnings: loaded.warnings,
                ignored,
                limits,
            }),
            _ => Err(loaded.problems),
        }
    }

    /// The pack's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the pack holds, in a sentence.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The map type generated when none is named.
    pub fn default_map_type(&self) -> &str {
        &self.default_map_type
    }

    /// The catalog of objects definition files draw from.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The definition file named `name` (a prefab uses [`Prefab::defs_name`]).
    pub fn definitions(&self, name: &str) -> Option<&Definitions> {
        self.definitions.get(name)
    }

    /// Lint warnings found while loading: not errors, but worth a look (printed
    /// by `prefabric check`).
    pub fn warnings(&self) -> &[Error] {
        &self.warnings
    }

    /// The files in the pack's folder (or among the files given) that the pack
    /// does not read, sorted by path, each with why: a render beside the prefabs,
    /// notes, a map type in a folder under `maps/` (`prefabric check --verbose`
    /// lists them). Hidden files are left out.
    pub fn ignored_files(&self) -> &[IgnoredFile] {
        &self.ignored
    }

    /// The encounter weight words.
    pub fn weight_words(&self) -> &WeightWords {
        &self.weight_words
    }

    /// The palette.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// Every prefab, in file order.
    pub fn prefabs(&self) -> &[Prefab] {
        &self.prefabs
    }

    /// The prefab with this name.
    pub fn prefab(&self, name: &str) -> Option<&Prefab> {
        self.prefab_index.get(name).map(|&i| &self.prefabs[i])
    }

    /// The cells of prefab `name` as drawn where a machine may stand once its
    /// objects are placed (drawn machines, and every cell a definition line's
    /// machine may cover), sorted by row, then column; empty for most prefabs.
    pub(crate) fn machine_reach(&self, name: &str) -> &[Point] {
        self.machine_reach.get(name).map_or(&[], Vec::as_slice)
    }

    /// The prefab a placement put down, as it stands on the map: the outcome its
    /// variation drew ([`Prefab::variant`], for a prefab with variation lines),
    /// turned as it was placed. `None` when the pack has no such prefab.
    pub fn placed(&self, placed: &crate::map::PlacedPrefab) -> Option<Prefab> {
        let prefab = self.prefab(&placed.name)?;
        Some(match placed.variant {
            Some(seed) => prefab.variant(seed).transformed(placed.transform),
            None => prefab.transformed(placed.transform),
        })
    }

    /// Every map type, by name.
    pub fn map_types(&self) -> impl Iterator<Item = &MapType> {
        self.map_types.values()
    }

    /// The pack's world of levels (`world.toml`), when it has one.
    pub fn world(&self) -> Option<&world::WorldSpec> {
        self.world.as_ref()
    }

    /// The map type with this name.
    pub fn map_type(&self, name: &str) -> Option<&MapType> {
        self.map_types.get(name)
    }

    /// The map type with this name, or an error that says which there are
    /// (and which was probably meant).
    pub(crate) fn map_type_named(&self, name: &str) -> Result<&MapType, Error> {
        self.map_types.get(name).ok_or_else(|| {
            let names: Vec<&str> = self.map_types.keys().map(String::as_str).collect();
            let help = match crate::format::suggest(name, names.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the pack's map types are: {}", names.join(", ")),
            };
            Error::new(ErrorKind::Invalid, format!("no map type named `{name}` in pack `{}`", self.name))
                .with_help(help)
        })
    }

    /// The map type named `name` at another size: its file read again with
    /// `width` and `height` in place of its own, so every check loading made
    /// holds at the new size (tunneler starts, barriers and features placed by
    /// position, chained rooms, caverns and encounters that must fit). Give it
    /// to [`Generator::with_map_type`](crate::Generator::with_map_type), or use
    /// [`SharedGenerator::size`](crate::SharedGenerator::size).
    ///
    /// The error, when the map type cannot take that size, names the map type,
    /// the size and the first thing that does not fit, at its line of the file.
    ///
    /// ```
    /// let pack = prefabric::Pack::embedded().expect("the embedded pack is valid");
    /// let wide = pack.map_type_sized("mines", 120, 60).expect("the mines can be 120x60");
    /// let map = prefabric::Generator::with_map_type(&pack, &wide).generate(1).expect("generates");
    /// assert_eq!((map.width(), map.height()), (120, 60));
    ///
    /// let err = pack.map_type_sized("materials", 40, 30).expect_err("the materials' features need room");
    /// assert!(err.message().starts_with("map type `materials` cannot be 40x30"), "{err}");
    /// ```
    pub fn map_type_sized(&self, name: &str, width: u32, height: u32) -> Result<MapType, Error> {
        let map_type = self.map_type_named(name)?;
        let size = (i64::from(width), i64::from(height));
        let file = &map_type.file;
        self.read_against(file, name, &map_type.source, Some(size)).map_err(|errors| {
            let more = errors.len().saturating_sub(1);
            let Some(first) = errors.into_iter().next() else {
                return Error::new(ErrorKind::Invalid, format!("map type `{name}` cannot be {width}x{height}"));
            };
            let already = format!("map type `{name}` cannot be {width}x{height}");
            let mut message = if first.message().starts_with(&already) {
                first.message().to_string()
            } else {
                format!("{already}: {}", first.message())
            };
            if more > 0 {
                message.push_str(&format!(" (and {more} more problem{})", if more == 1 { "" } else { "s" }));
            }
            let error = match first.location() {
                Some(at) => Error::at(ErrorKind::Invalid, at.clone(), message),
                None => Error::new(ErrorKind::Invalid, message),
            };
            let written = format!("the file is written for {}x{}", map_type.width, map_type.height);
            error.with_help(match first.help() {
                Some(help) => format!("{help}; {written}"),
                None => written,
            })
        })
    }

    /// Reads `source` as one more map type of this pack, named `name` (the
    /// stem of its file, `maps/NAME.toml`), `file` naming it in errors: checked
    /// as loading the pack with that file among its map types would check it —
    /// its prefabs, encounter pools, catalog names and weight words against the
    /// pack's, its size against the pack's limits, and the definition files of
    /// the prefabs it places at every depth it places them that the pack's own
    /// map types do not. The pack is not changed; give the map type to
    /// [`Generator::with_map_type`](crate::Generator::with_map_type). One pack
    /// loaded once, then many map types read against it, is what a tool that
    /// tries map types (or a fuzzer) needs: loading the whole pack again for
    /// each reads and proves every prefab again.
    ///
    /// ```
    /// let pack = prefabric::Pack::embedded().expect("the embedded pack is valid");
    /// let small = "width = 40\nheight = 30\ngenerator = \"caves\"\n";
    /// let caves = pack.read_map_type("my/maps/small.toml", "small", small).expect("a valid map type");
    /// let map = prefabric::Generator::with_map_type(&pack, &caves).generate(1).expect("generates");
    /// assert_eq!((map.width(), map.height()), (40, 30));
    ///
    /// let wrong = pack.read_map_type("my/maps/wrong.toml", "wrong", "width = 40\n").expect_err("no generator");
    /// assert!(wrong.errors().iter().all(|e| e.location().is_some_and(|l| l.file == "my/maps/wrong.toml")));
    /// ```
    pub fn read_map_type(&self, file: &str, name: &str, source: &str) -> Result<MapType, Problems> {
        let mut problems = Problems::new();
        let map_type = match self.read_against(file, name, source, None) {
            Ok(m) => m,
            Err(errors) => {
                problems.extend(errors);
                return Err(problems);
            }
        };
        // Definition files are checked at the depths their prefabs appear at
        // (load::prefab_depths): those this map type adds are checked here.
        let depths_of = |depths: &BTreeMap<String, Vec<u32>>, defs: &str| -> BTreeSet<u32> {
            let users = self.prefabs.iter().filter(|p| p.defs_name() == defs);
            users
                .flat_map(|p| depths.get(p.name()).cloned().unwrap_or_else(|| (1..=catalog::MAX_RATING).collect()))
                .collect()
        };
        let before = load::prefab_depths(self.map_types.values());
        let after = load::prefab_depths(self.map_types.values().chain([&map_type]));
        if before != after {
            for defs in self.definitions.values() {
                let added: BTreeSet<u32> =
                    depths_of(&after, &defs.name).difference(&depths_of(&before, &defs.name)).copied().collect();
                if !added.is_empty() {
                    problems.extend(defs::picks_at(defs, &self.catalog, &added));
                }
            }
        }
        problems.sort();
        if problems.is_empty() { Ok(map_type) } else { Err(problems) }
    }

    /// Reads map type `name` from `source` (the file `file`) against this
    /// pack's prefabs, weight words, catalog and shared pools, at `size` when
    /// given instead of its own.
    fn read_against(
        &self,
        file: &str,
        name: &str,
        source: &str,
        size: Option<(i64, i64)>,
    ) -> Result<MapType, Vec<Error>> {
        let unread = Vec::new();
        let index = index::PrefabIndex::new(&self.prefabs, &self.prefab_index, &unread);
        let parts = maptype::Parts {
            prefabs: &index,
            words: &self.weight_words,
            catalog: Some(&self.catalog),
            shared: &self.shared_pools,
        };
        maptype::read(file, name, source, &self.limits, &parts, size)
    }

    /// The limits the pack was loaded with.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Reads a `.xp` prefab (outside any pack) with this pack's palette; `sidecar` is
    /// the header file beside it, as `(file, text)`, if there is one.
    pub fn read_xp_prefab(&self, file: &str, bytes: &[u8], sidecar: Option<(&str, &str)>) -> Result<Prefab, Problems> {
        read_xp_prefab(file, bytes, sidecar, &self.palette, &self.limits).map_err(sorted)
    }

    /// Reads prefabs from one text file (outside any pack) with this pack's palette.
    pub fn read_prefab_file(&self, file: &str, text: &str) -> Result<Vec<Prefab>, Problems> {
        read_prefab_file(file, text, &self.palette, &self.limits)
    }
}

/// The parts of a pack that loaded, with every problem found: for tools that work
/// on one file of a pack that has problems elsewhere (`prefabric show` and
/// `convert` read a prefab with the palette, whatever else is broken). Unlike a
/// [`Pack`], nothing here is promised to resolve: it cannot generate maps.
#[derive(Clone, Debug)]
pub struct PackParts {
    palette: Palette,
    catalog: Catalog,
    definitions: BTreeMap<String, Definitions>,
    limits: Limits,
    problems: Problems,
}

impl PackParts {
    /// Reads the pack in directory `dir` as far as it loads. Fails only when its
    /// palette does not load (nothing can be read without it), with every problem.
    pub fn load(dir: &Path, limits: Limits) -> Result<PackParts, Problems> {
        let Tree { label, mut files, mut problems, .. } = read_dir(dir, &limits)?;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let loaded = Loaded::read(&label, &files, &limits);
        problems.extend(loaded.problems.errors().iter().cloned());
        problems.sort();
        match loaded.palette {
            Some(palette) => {
                Ok(PackParts { palette, catalog: loaded.catalog, definitions: loaded.definitions, limits, problems })
            }
            None => Err(problems),
        }
    }

    /// The palette.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The catalog entries that loaded.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The definition file named `name`, if it loaded.
    pub fn definitions(&self, name: &str) -> Option<&Definitions> {
        self.definitions.get(name)
    }

    /// The limits the pack was read with.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Every problem found in the pack's files (empty for a pack that loads).
    pub fn problems(&self) -> &Problems {
        &self.problems
    }

    /// Reads prefabs from one text file with the pack's palette.
    pub fn read_prefab_file(&self, file: &str, text: &str) -> Result<Vec<Prefab>, Problems> {
        read_prefab_file(file, text, &self.palette, &self.limits)
    }

    /// Reads a `.xp` prefab with the pack's palette; `sidecar` is the header file
    /// beside it, as `(file, text)`, if there is one.
    pub fn read_xp_prefab(&self, file: &str, bytes: &[u8], sidecar: Option<(&str, &str)>) -> Result<Prefab, Problems> {
        read_xp_prefab(file, bytes, sidecar, &self.palette, &self.limits).map_err(sorted)
    }

    /// Reads a prefab drawn in Tiled (a `.tmx` or `.tmj` map's text) with this
    /// pack's palette; its header from `sidecar` (the `.toml` beside it: its file
    /// name and text), its external tilesets through `tilesets`.
    pub fn read_tiled_prefab(
        &self,
        file: &str,
        text: &str,
        sidecar: Option<(&str, &str)>,
        tilesets: &prefab::tiled::TilesetReader<'_>,
    ) -> Result<Prefab, Problems> {
        read_tiled_prefab(file, text, sidecar, tilesets, &self.palette, &self.limits).map_err(sorted)
    }
}

impl From<&Pack> for PackParts {
    /// A loaded pack's parts, without problems.
    fn from(pack: &Pack) -> PackParts {
        PackParts {
            palette: pack.palette.clone(),
            catalog: pack.catalog.clone(),
            definitions: pack.definitions.clone(),
            limits: pack.limits.clone(),
            problems: Problems::new(),
        }
    }
}

fn sorted(errors: Vec<Error>) -> Problems {
    let mut problems = Problems::new();
    problems.extend(errors);
    problems.sort();
    problems
}

/// Reads prefabs from one text file with `palette`.
fn read_prefab_file(file: &str, text: &str, palette: &Palette, limits: &Limits) -> Result<Vec<Prefab>, Problems> {
    let (prefabs, errors) = prefab::read_file(file, text, palette, limits);
    sorted(errors).into_result(prefabs)
}

/// What [`read_dir`] found in a pack's folder.
struct Tree {
    /// The label locations start with: the folder as given.
    label: String,
    /// The files the pack reads, with their bytes.
    files: Vec<SourceFile>,
    /// The files it does not read, left unopened.
    ignored: Vec<IgnoredFile>,
    /// The problems met reading the folder.
    problems: Problems,
}

/// Every file under directory `dir` that the pack reads ([`ignored_because`]),
/// the files it leaves unread, and the problems met reading the tree; an error
/// when `dir` is not a directory.
fn read_dir(dir: &Path, limits: &Limits) -> Result<Tree, Problems> {
    let label = dir.to_string_lossy().trim_end_matches('/').to_string();
    if !dir.is_dir() {
        let what = if dir.exists() { "not a directory" } else { "no such folder" };
        let e = Error::at(ErrorKind::Io, Location::file(&label), what)
            .with_help("--pack takes the folder that holds pack.toml");
        return Err(e.into());
    }
    let mut reader = TreeReader {
        root: dir,
        label: &label,
        limits,
        files: Vec::new(),
        ignored: Vec::new(),
        problems: Problems::new(),
        entered: Default::default(),
    };
    reader.read(dir, 0);
    let TreeReader { files, ignored, problems, .. } = reader;
    Ok(Tree { label, files, ignored, problems })
}

/// Reads one `.xp` prefab and the header file beside it, if any.
fn read_xp_prefab(
    file: &str,
    bytes: &[u8],
    sidecar: Option<(&str, &str)>,
    palette: &Palette,
    limits: &Limits,
) -> Result<Prefab, Vec<Error>> {
    let image = crate::format::xp::read(file, bytes, limits).map_err(|e| vec![e])?;
    let name = prefab::xp::name_of_file(file);
    let header = match sidecar {
        Some((sidecar_file, text)) => prefab::xp::read_sidecar(sidecar_file, text, name)?,
        None => prefab::Header::named(name),
    };
    Prefab::from_xp(file, &image, header, palette, limits)
}

fn read_tiled_prefab(
    file: &str,
    text: &str,
    sidecar: Option<(&str, &str)>,
    tilesets: &prefab::tiled::TilesetReader<'_>,
    palette: &Palette,
    limits: &Limits,
) -> Result<Prefab, Vec<Error>> {
    let name = prefab::tiled::name_of_file(file);
    let header = match sidecar {
        Some((sidecar_file, sidecar_text)) => prefab::xp::read_sidecar(sidecar_file, sidecar_text, name)?,
        None => prefab::Header::named(name),
    };
    Prefab::from_tiled(file, text, tilesets, header, palette, limits)
}

fn too_big(file: &str, size: u64, limits: &Limits) -> Error {
    Error::at(
        ErrorKind::Limit,
        Location::file(file),
        format!("the file is {size} bytes, more than the limit of {}", limits.max_file_bytes),
    )
    .with_help("raise Limits::max_file_bytes if the file is meant to be this large")
}

/// Folders deeper than this under a pack are not read.
const MAX_PACK_DEPTH: u32 = 32;

/// Everything `read_tree` carries down the folder tree.
struct TreeReader<'a> {
    root: &'a Path,
    label: &'a str,
    limits: &'a Limits,
    files: Vec<SourceFile>,
    ignored: Vec<IgnoredFile>,
    problems: Problems,
    /// Canonical paths of the folders entered, so a symbolic link back up the tree
    /// is read once instead of forever.
    entered: std::collections::BTreeSet<PathBuf>,
}

impl TreeReader<'_> {
    fn shown(&self, p: &Path) -> String {
        format!("{}/{}", self.label, rel_path(self.root, p))
    }

    /// Reads every file under `dir` that the pack reads, depth first in name
    /// order; the others are noted, never opened.
    fn read(&mut self, dir: &Path, depth: u32) {
        let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        if depth > MAX_PACK_DEPTH || !self.entered.insert(canonical) {
            return;
        }
        let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
            Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).collect(),
            Err(e) => {
                self.problems.push(Error::at(ErrorKind::Io, Location::file(self.shown(dir)), e.to_string()));
                return;
            }
        };
        entries.sort();
        for path in entries {
            if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                continue;
            }
            if path.is_dir() {
                self.read(&path, depth + 1);
                continue;
            }
            let rel = rel_path(self.root, &path);
            if let Some(reason) = ignored_because(&rel) {
                self.ignored.push(IgnoredFile { path: rel, reason });
                continue;
            }
            if self.files.len() >= self.limits.max_pack_files as usize {
                let max = self.limits.max_pack_files;
                self.problems.push(
                    Error::at(
                        ErrorKind::Limit,
                        Location::file(self.label),
                        format!("the pack has more than {max} files"),
                    )
                    .with_help("raise Limits::max_pack_files if the pack is meant to be this large"),
                );
                return;
            }
            let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            if size > self.limits.max_file_bytes {
                self.problems.push(too_big(&self.shown(&path), size, self.limits));
                continue;
            }
            match std::fs::read(&path) {
                Ok(bytes) => self.files.push(SourceFile { path: rel, bytes }),
                Err(e) => {
                    self.problems.push(Error::at(ErrorKind::Io, Location::file(self.shown(&path)), e.to_string()))
                }
            }
        }
    }
}

fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}
