//! Reading a pack's files into its parts: `pack.toml`, the palette, prefabs, the
//! catalog, map types, the world and definition files, in that order, each checked against
//! the parts before it.
//!
//! Goes in: the pack's files in memory. Comes out: every part that loaded, and
//! every problem found, each at its `file:line:col`. Reading keeps going after a
//! problem, and a part that depends on one that did not load is checked only as
//! far as it can be without it: a broken file reports its own problems, never a
//! cascade of "no prefab named", "no item tagged" or "does not define" elsewhere
//! that only repeats it (prefab files that did not load still declare their
//! prefabs' names, tags and definition files; see [`super::index`]).

use super::catalog::{self, Catalog};
use super::defs::{self, Definitions};
use super::encounters::{self, PoolContext, SharedPools};
use super::files::{self, IgnoredFile};
use super::footprints;
use super::glyphs::{art_lint, catalog_lint, palette_lint};
use super::index::PrefabIndex;
use super::values::WeightWords;
use super::world::{self, WorldSpec};
use super::{MapType, SourceFile, furnishing, maptype};
use crate::error::{Error, ErrorKind, Location, Problems};
use crate::format::palette::Palette;
use crate::format::{parse_toml, suggest};
use crate::limits::Limits;
use crate::prefab::{self, Declared, Prefab};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PackFile {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub default_map_type: toml::Spanned<String>,
    /// Encounter weight words: word -> weight, added to or replacing the defaults.
    #[serde(default)]
    weights: BTreeMap<toml::Spanned<String>, u32>,
}

/// Every part of a pack that loaded, and every problem found.
pub(super) struct Loaded {
    pub pack_file: Option<PackFile>,
    pub palette: Option<Palette>,
    pub prefabs: Vec<Prefab>,
    pub prefab_index: BTreeMap<String, usize>,
    pub map_types: BTreeMap<String, MapType>,
    /// The pack's `world.toml`, when it has one that loaded.
    pub world: Option<WorldSpec>,
    pub weight_words: WeightWords,
    pub catalog: Catalog,
    pub definitions: BTreeMap<String, Definitions>,
    /// The shared encounter pools, for map types read again at another size.
    pub shared: SharedPools,
    pub warnings: Vec<Error>,
    /// The files given that a pack does not read.
    pub ignored: Vec<IgnoredFile>,
    pub problems: Problems,
}

/// A text file of the pack: its path inside the pack, its label in locations,
/// and its text.
struct TextFile<'f> {
    path: &'f str,
    label: String,
    text: &'f str,
}

impl Loaded {
    /// Reads `files`; `root` prefixes paths in error locations.
    pub fn read(root: &str, files: &[SourceFile], limits: &Limits) -> Loaded {
        let label = |path: &str| if root.is_empty() { path.to_string() } else { format!("{root}/{path}") };
        let mut problems = Problems::new();
        let (texts, images, ignored) = split(files, limits, &label, &mut problems);
        let find = |path: &str| texts.iter().find(|t| t.path == path);

        let pack_file = match find("pack.toml") {
            Some(f) => parse_toml::<PackFile>(&f.label, f.text).map_err(|e| problems.push(e)).ok(),
            None => {
                problems.push(
                    Error::at(ErrorKind::Invalid, Location::file(label("pack.toml")), "the pack has no pack.toml")
                        .with_help("a pack folder holds pack.toml, palette.toml, prefabs/ and maps/"),
                );
                None
            }
        };
        let palette = match find("palette.toml") {
            Some(f) => Palette::parse(&f.label, f.text).map_err(|e| problems.extend(e.errors().iter().cloned())).ok(),
            None => {
                let at = Location::file(label("palette.toml"));
                problems.push(Error::at(ErrorKind::Invalid, at, "the pack has no palette.toml"));
                None
            }
        };

        let (prefabs, unread) =
            read_prefabs(&texts, &images, &ignored, palette.as_ref(), limits, &label, &mut problems);
        let (prefabs, prefab_index) = unique_names(prefabs, &mut problems);
        let index = PrefabIndex::new(&prefabs, &prefab_index, &unread);

        let catalog_files: Vec<(&str, &str)> = texts
            .iter()
            .filter(|t| t.path.starts_with("catalog/") && t.path.ends_with(".toml"))
            .map(|t| (t.label.as_str(), t.text))
            .collect();
        let (catalog, catalog_errors) = catalog::read_partial(&catalog_files);
        // Names are checked only against a clean catalog: against a broken one they
        // would report what is already reported.
        let checked_catalog = catalog_errors.is_empty().then_some(&catalog);
        problems.extend(catalog_errors);

        let weight_words = match (&pack_file, find("pack.toml")) {
            (Some(p), Some(f)) => weight_words(p, f, &mut problems),
            // Without pack.toml the pack's own words are not known: every word passes.
            _ => WeightWords::unknown(),
        };

        let shared = read_shared_pools(&texts, limits, &index, &weight_words, checked_catalog, &mut problems);
        let parts = maptype::Parts { prefabs: &index, words: &weight_words, catalog: checked_catalog, shared: &shared };
        let (map_types, map_files, all_maps_read) = read_map_types(&texts, limits, &parts, &mut problems);
        let world = find("world.toml").and_then(|f| {
            let parts = world::WorldParts { map_files: &map_files, map_types: &map_types, prefabs: &index };
            world::read(&f.label, f.text, &parts).map_err(|e| problems.extend(e)).ok()
        });

        // Definition files, checked at every depth their prefabs can appear at — as
        // far as the map types that place them loaded.
        let depths = all_maps_read.then(|| prefab_depths(map_types.values()));
        let def_files: Vec<(&str, String, &str)> = texts
            .iter()
            .filter(|t| t.path.starts_with("prefabs/") && t.path.ends_with(".def"))
            .map(|t| (t.path, t.label.clone(), t.text))
            .collect();
        let (definitions, def_errors) = defs::read(&def_files, checked_catalog, &index, depths.as_ref(), limits);
        problems.extend(def_errors);
        if let Some(catalog) = checked_catalog {
            problems.extend(footprints::check_all(&definitions, &index, catalog));
        }
        let mut warnings = defs::lint(&definitions);
        if let Some(catalog) = checked_catalog {
            warnings.extend(defs::lint_keywords(&definitions, catalog));
        }
        if let Some(palette) = &palette {
            warnings.extend(defs::lint_palette(&definitions, palette));
            warnings.extend(art_lint(&catalog, palette, &catalog_files));
            warnings.extend(catalog_lint(&catalog, palette, &definitions, &prefabs));
            if let Some(f) = find("palette.toml") {
                warnings.extend(palette_lint(palette, &f.label, f.text));
            }
        }
        for m in map_types.values() {
            if let Some(f) = &m.furnishing {
                warnings.extend(furnishing::lint(&m.file, f, &catalog));
            }
        }
        if let (Some(p), Some(f)) = (&pack_file, find("pack.toml")) {
            check_default_map_type(p, f, &map_files, &mut problems);
        }
        problems.sort();
        Loaded {
            pack_file,
            palette,
            prefabs,
            prefab_index,
            map_types,
            world,
            weight_words,
            catalog,
            definitions,
            shared,
            warnings,
            ignored,
            problems,
        }
    }
}

/// The pack's text files, its `.xp` images and the files it does not read
/// ([`files::ignored_because`]; hidden files are dropped unlisted). A file too
/// big, binary where text is read, or not UTF-8 is a problem.
fn split<'f>(
    files: &'f [SourceFile],
    limits: &Limits,
    label: &dyn Fn(&str) -> String,
    problems: &mut Problems,
) -> (Vec<TextFile<'f>>, Vec<&'f SourceFile>, Vec<IgnoredFile>) {
    let mut texts = Vec::new();
    let mut images = Vec::new();
    let mut ignored = Vec::new();
    for f in files {
        if files::is_hidden(&f.path) {
            continue;
        }
        if let Some(reason) = files::ignored_because(&f.path) {
            ignored.push(IgnoredFile { path: f.path.clone(), reason });
            continue;
        }
        if f.bytes.len() as u64 > limits.max_file_bytes {
            problems.push(super::too_big(&label(&f.path), f.bytes.len() as u64, limits));
            continue;
        }
        if prefab::xp::is_xp_path(&f.path) {
            images.push(f);
            continue;
        }
        match text_of(f, label) {
            Ok(text) => texts.push(TextFile { path: &f.path, label: label(&f.path), text }),
            Err(e) => problems.push(e),
        }
    }
    (texts, images, ignored)
}

/// The text of a file the pack reads as text, or why it is not text: binary
/// data (never advised to be saved as UTF-8) or text in another encoding.
fn text_of<'f>(f: &'f SourceFile, label: &dyn Fn(&str) -> String) -> Result<&'f str, Error> {
    if let Some(what) = files::binary_kind(&f.bytes) {
        return Err(Error::at(
            ErrorKind::Format,
            Location::file(label(&f.path)),
            format!("the file is {what}, where the pack reads a text file"),
        )
        .with_help(format!(
            "the pack reads `{}` as text by its folder and extension; move the file out of the pack's folders (a folder of its own, such as renders/, is never read) or give it its own extension (.png, .pdf)",
            f.path
        )));
    }
    std::str::from_utf8(&f.bytes).map_err(|e| {
        if files::is_utf16(&f.bytes) {
            let at = Location::file(label(&f.path));
            return Error::at(ErrorKind::Format, at, "the file is UTF-16 text, not UTF-8")
                .with_help("save it as UTF-8");
        }
        let valid = std::str::from_utf8(&f.bytes[..e.valid_up_to()]).unwrap_or_default();
        let at = Location::at_offset(label(&f.path), valid, valid.len());
        Error::at(ErrorKind::Format, at, "the file is not valid UTF-8 text").with_help("save it as UTF-8")
    })
}

/// Every prefab under `prefabs/` that loaded, in path order, and what each one
/// that did not declared. Without a palette, text prefabs are only checked for
/// syntax and images not read.
fn read_prefabs(
    texts: &[TextFile<'_>],
    images: &[&SourceFile],
    ignored: &[IgnoredFile],
    palette: Option<&Palette>,
    limits: &Limits,
    label: &dyn Fn(&str) -> String,
    problems: &mut Problems,
) -> (Vec<Prefab>, Vec<Declared>) {
    let mut prefabs: Vec<Prefab> = Vec::new();
    let mut unread: Vec<Declared> = Vec::new();
    let find = |path: &str| texts.iter().find(|t| t.path == path);
    let prefab_texts: Vec<&TextFile<'_>> =
        texts.iter().filter(|t| t.path.starts_with("prefabs/") && t.path.ends_with(".txt")).collect();
    for (read, declared, errors) in
        read_in_parallel(&prefab_texts, |t| prefab::read_file_declaring(&t.label, t.text, palette, limits))
    {
        problems.extend(errors);
        prefabs.extend(read);
        unread.extend(declared);
    }
    for image in images.iter().filter(|f| f.path.starts_with("prefabs/")) {
        let stem = &image.path[..image.path.len() - 3];
        let sidecar = find(&format!("{stem}.toml")).map(|t| (t.label.as_str(), t.text));
        let file = label(&image.path);
        let read = match palette {
            Some(palette) => super::read_xp_prefab(&file, &image.bytes, sidecar, palette, limits),
            // Nothing to report about the image itself without a palette.
            None => Err(Vec::new()),
        };
        match read {
            Ok(p) => prefabs.push(p),
            Err(errors) => {
                problems.extend(errors);
                unread.push(declared_image(&file, sidecar));
            }
        }
    }
    let maps: Vec<&TextFile<'_>> =
        texts.iter().filter(|t| t.path.starts_with("prefabs/") && prefab::tiled::is_tiled_path(t.path)).collect();
    for map in &maps {
        let stem = &map.path[..map.path.len() - 4];
        let sidecar = find(&format!("{stem}.toml")).map(|t| (t.label.as_str(), t.text));
        let read = match palette {
            Some(palette) => {
                let tilesets = tileset_in(texts, ignored, map);
                super::read_tiled_prefab(&map.label, map.text, sidecar, &tilesets, palette, limits)
            }
            None => Err(Vec::new()),
        };
        match read {
            Ok(p) => prefabs.push(p),
            Err(errors) => {
                problems.extend(errors);
                unread.push(declared_image(&map.label, sidecar));
            }
        }
    }
    for t in texts.iter().filter(|t| t.path.starts_with("prefabs/") && t.path.ends_with(".toml")) {
        let stem = t.path.trim_end_matches(".toml");
        let is_stem = |path: &str, len: usize| path.len() == stem.len() + len && path.starts_with(stem);
        if !images.iter().any(|f| is_stem(&f.path, 3)) && !maps.iter().any(|m| is_stem(m.path, 4)) {
            problems.push(
                Error::at(ErrorKind::Invalid, Location::file(t.label.clone()), "no .xp, .tmx or .tmj prefab of this name")
                    .with_help(format!(
                        "a .toml under prefabs/ holds the header of the .xp, .tmx or .tmj prefab beside it (text prefabs keep their header inline); add {stem}.xp or remove this file"
                    )),
            );
        }
    }
    // Text and image prefabs in path order, as the files are listed.
    prefabs.sort_by(|a, b| a.origin().cmp(b.origin()));
    (prefabs, unread)
}

/// `read` applied to each of `files`, the results in the files' order. Prefab
/// files read apart from each other (a variation's proof is the costly part, and
/// one prefab's proof never looks at another), so they are shared out over the
/// machine's cores, as many as there are files; joined in order, the result is
/// the same on any number of cores. Where threads are not available, one reads
/// them all.
fn read_in_parallel<F, T>(files: &[F], read: impl Fn(&F) -> T + Sync) -> Vec<T>
where
    F: Sync,
    T: Send,
{
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len());
    if threads <= 1 {
        return files.iter().map(read).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(file) = files.get(k) else { return done };
            done.push((k, read(file)));
        }
    };
    let mut results: Vec<Option<T>> = files.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        for worker in workers {
            // A panic while reading is a bug: it goes on as it would have on one thread.
            for (k, result) in worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)) {
                results[k] = Some(result);
            }
        }
    });
    results.into_iter().flatten().collect()
}

/// Reads the external tilesets of the Tiled map at pack path `map` from the
/// pack's text files (so they are held to the same size limit).
fn tileset_in<'t>(
    texts: &'t [TextFile<'t>],
    ignored: &'t [IgnoredFile],
    map: &'t TextFile<'t>,
) -> impl Fn(&str) -> Result<(String, String), Error> + 't {
    move |source: &str| {
        let missing = |what: String| {
            Error::at(ErrorKind::Invalid, Location::file(map.label.clone()), what).with_help(
                "keep the tileset in the pack, beside the map or in a folder under the pack, and save the map again",
            )
        };
        let path = prefab::tiled::tileset_path(map.path, source)
            .ok_or_else(|| missing(format!("the tileset `{source}` is outside the pack")))?;
        texts.iter().find(|t| t.path == path).map(|t| (t.label.clone(), t.text.to_string())).ok_or_else(
            || match ignored.iter().find(|f| f.path == path) {
                Some(_) => Error::at(
                    ErrorKind::Invalid,
                    Location::file(map.label.clone()),
                    format!(
                        "the tileset `{source}` is in the pack, but a pack reads tilesets saved as .tsx or .tsj only"
                    ),
                )
                .with_help("export the tileset from Tiled as .tsx or .tsj beside the map, and save the map again"),
                None => missing(format!("the tileset `{source}` is not in the pack (looked for {path})")),
            },
        )
    }
}

/// What a `.xp` prefab that did not load declared: its name (the file's) and,
/// when its header file reads, that header's tags and definition file.
fn declared_image(file: &str, sidecar: Option<(&str, &str)>) -> Declared {
    let name = prefab::tiled::name_of_file(prefab::xp::name_of_file(file));
    match sidecar.and_then(|(f, text)| prefab::xp::read_sidecar(f, text, name).ok()) {
        Some(header) => {
            let tags = header.tags.join(" ");
            Declared::new(name, Some(&tags), header.defs.as_deref())
        }
        None => Declared::new(name, None, None),
    }
}

/// The prefabs with their names indexed; a second prefab of a name is a problem.
fn unique_names(prefabs: Vec<Prefab>, problems: &mut Problems) -> (Vec<Prefab>, BTreeMap<String, usize>) {
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut unique: Vec<Prefab> = Vec::with_capacity(prefabs.len());
    for p in prefabs {
        if let Some(&first) = index.get(p.name()) {
            let e = Error::at(ErrorKind::Invalid, p.origin().clone(), format!("a second prefab named `{}`", p.name()))
                .with_help(format!(
                    "the first is at {}; prefab names must be unique in a pack",
                    unique[first].origin()
                ));
            problems.push(e);
        } else {
            index.insert(p.name().to_string(), unique.len());
            unique.push(p);
        }
    }
    (unique, index)
}

/// The default weight words with `pack.toml`'s own added.
fn weight_words(p: &PackFile, f: &TextFile<'_>, problems: &mut Problems) -> WeightWords {
    let mut custom: Vec<(String, u32)> = Vec::new();
    for (word, &weight) in &p.weights {
        let w = word.get_ref();
        if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            custom.push((w.clone(), weight));
        } else {
            let at = Location::at_offset(f.label.clone(), f.text, word.span().start);
            problems.push(Error::at(
                ErrorKind::Invalid,
                at,
                format!("weight word `{w}` may only use letters, digits, `_` and `-`"),
            ));
        }
    }
    WeightWords::with(custom)
}

/// The shared encounter pools under `encounters/` (`encounters/<name>.toml`),
/// each read and checked once; the names of those that did not load are kept so
/// a map type including one reports nothing more.
fn read_shared_pools(
    texts: &[TextFile<'_>],
    limits: &Limits,
    prefabs: &PrefabIndex<'_>,
    words: &WeightWords,
    catalog: Option<&Catalog>,
    problems: &mut Problems,
) -> SharedPools {
    let mut shared = SharedPools::default();
    let none = SharedPools::default();
    let cx = PoolContext { words, prefabs, shared: &none, max_encounters: limits.max_encounters, catalog };
    for (stem, t) in named_files(texts, "encounters/", "encounter pool", problems) {
        match encounters::read_shared(&t.label, t.text, &cx) {
            Ok(pool) => {
                shared.loaded.insert(stem.to_string(), pool);
            }
            Err(errors) => {
                problems.extend(errors);
                shared.broken.insert(stem.to_string());
            }
        }
    }
    shared
}

/// The `.toml` files directly in `folder` (deeper folders are the designer's
/// own), each with its name: the file name without `.toml`. A name with other
/// characters than letters, digits, `_` and `-` is reported as a problem and
/// its file left out; `what` says what the files are.
fn named_files<'t, 'f>(
    texts: &'t [TextFile<'f>],
    folder: &str,
    what: &str,
    problems: &mut Problems,
) -> Vec<(&'f str, &'t TextFile<'f>)> {
    let mut named = Vec::new();
    for t in texts {
        let Some(stem) = t.path.strip_prefix(folder).and_then(|p| p.strip_suffix(".toml")) else { continue };
        if stem.contains('/') {
            continue;
        }
        if !stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            problems.push(Error::at(
                ErrorKind::Invalid,
                Location::file(t.label.clone()),
                format!("{what} name `{stem}` may only use letters, digits, `_` and `-`"),
            ));
            continue;
        }
        named.push((stem, t));
    }
    named
}

/// The map types under `maps/` that loaded, the names of every map type file
/// (loaded or not), and whether every one of them loaded.
fn read_map_types<'f>(
    texts: &'f [TextFile<'_>],
    limits: &Limits,
    parts: &maptype::Parts<'_, '_>,
    problems: &mut Problems,
) -> (BTreeMap<String, MapType>, Vec<&'f str>, bool) {
    let mut map_types = BTreeMap::new();
    // Map types that exist as files, valid or not: a broken file is reported on
    // its own and must not also make the default map type look missing.
    let mut map_files: Vec<&str> = Vec::new();
    let mut all_read = true;
    for (stem, t) in named_files(texts, "maps/", "map type", problems) {
        map_files.push(stem);
        match maptype::read(&t.label, stem, t.text, limits, parts, None) {
            Ok(m) => {
                map_types.insert(stem.to_string(), m);
            }
            Err(errors) => {
                problems.extend(errors);
                all_read = false;
            }
        }
    }
    (map_types, map_files, all_read)
}

/// The depths each prefab placed only by encounters can appear at; a prefab
/// also placed as a feature can appear at any depth, and is left out.
pub(super) fn prefab_depths<'m>(map_types: impl IntoIterator<Item = &'m MapType>) -> BTreeMap<String, Vec<u32>> {
    let mut depths: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut featured: BTreeSet<&str> = BTreeSet::new();
    for m in map_types {
        for v in &m.variants {
            featured.extend(v.prefabs.iter().flat_map(|p| p.choices.iter().map(|(n, _)| n.as_str())));
        }
        for e in m.encounters.iter().flat_map(|pool| &pool.pool) {
            // Ratings stop at MAX_RATING, so deeper levels choose as it does.
            let range = e.depth.depths(catalog::MAX_RATING);
            for name in &e.prefabs {
                depths.entry(name.clone()).or_default().extend(range.iter().copied());
            }
        }
    }
    for name in featured {
        depths.remove(name);
    }
    depths
}

/// `pack.toml`'s default map type names a map type file.
fn check_default_map_type(p: &PackFile, f: &TextFile<'_>, map_files: &[&str], problems: &mut Problems) {
    let wanted = p.default_map_type.get_ref();
    if map_files.contains(&wanted.as_str()) {
        return;
    }
    let at = Location::at_offset(f.label.clone(), f.text, p.default_map_type.span().start);
    let help = match suggest(wanted, map_files.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => "map types are the files under maps/, named without .toml".to_string(),
    };
    problems
        .push(Error::at(ErrorKind::Invalid, at, format!("default map type `{wanted}` does not exist")).with_help(help));
}
