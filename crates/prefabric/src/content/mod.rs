//! Content packs: a folder of palette, prefabs and map types, loaded and checked.
//!
//! A pack is read from a directory ([`Pack::load`]), from memory
//! ([`Pack::from_files`]), or from the copy of `content/default/` compiled into the
//! library ([`Pack::embedded`]). Loading reads every file, keeps going after a
//! problem, and returns either a pack whose every reference resolves or every problem
//! found, each with its `file:line:col`.
//!
//! ```text
//! pack.toml        name, description, default_map_type, [weights] (encounter words)
//! palette.toml     glyphs and colours -> terrain, render glyphs
//! prefabs/**/*.txt text prefabs, one or more per file
//! prefabs/**/*.xp  REXPaint prefabs, one per file, named by file stem
//! prefabs/**/*.toml  the header (tags, transforms, style) of the .xp of that name
//! maps/*.toml      map types, named by file stem (with [encounters], [furnishing])
//! prefabs/**/*.def definition files: what reference characters stand for
//! catalog/*.toml   entities, items, props, traps and debris
//! ```

pub mod catalog;
pub mod caves;
pub mod chain;
pub mod defs;
pub mod encounters;
pub mod furnishing;
pub mod maptype;
pub mod pathways;
mod section;

use crate::error::{Error, ErrorKind, Location, Problems};
use crate::format::palette::Palette;
use crate::format::{parse_toml, suggest};
use crate::limits::Limits;
use crate::prefab::{self, Prefab};
pub use catalog::Catalog;
pub use defs::{Definition, Definitions};
pub use encounters::{Category, Encounter, EncounterPool, WeightWords};
pub use furnishing::{Composition, Furnishing};
pub use maptype::MapType;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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
    weight_words: WeightWords,
    catalog: Catalog,
    definitions: BTreeMap<String, Definitions>,
    warnings: Vec<Error>,
    limits: Limits,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PackFile {
    name: String,
    #[serde(default)]
    description: String,
    default_map_type: toml::Spanned<String>,
    /// Encounter weight words: word -> weight, added to or replacing the defaults.
    #[serde(default)]
    weights: BTreeMap<toml::Spanned<String>, u32>,
}

/// Warnings for machine art drawn with a glyph the palette draws terrain with: in
/// the ASCII output such a machine reads as floor, wall or stairs. Located at the
/// prop's tag in its catalog file.
fn art_lint(catalog: &Catalog, palette: &Palette, files: &[(&str, &str)]) -> Vec<Error> {
    let mut terrain_glyphs: BTreeMap<char, crate::map::Terrain> = BTreeMap::new();
    for role in crate::map::Role::ALL {
        for variant in 0..=9 {
            let t = crate::map::Terrain::with_variant(role, variant);
            terrain_glyphs.entry(palette.render_glyph(t)).or_insert(t);
        }
    }
    let mut warnings = Vec::new();
    for prop in catalog.props() {
        let Some((&glyph, terrain)) = prop.art.iter().find_map(|g| terrain_glyphs.get_key_value(g)) else { continue };
        let needle = format!("\"{}\"", prop.tag);
        let at = files
            .iter()
            .find_map(|(file, text)| text.find(&needle).map(|i| Location::at_offset(*file, text, i)))
            .unwrap_or_else(|| Location::file("catalog"));
        warnings.push(
            Error::at(
                ErrorKind::Lint,
                at,
                format!("prop `{}` is drawn with `{glyph}`, the palette's glyph for {terrain}", prop.tag),
            )
            .with_help("in the ASCII output the machine would read as that terrain; draw it with line art or letters"),
        );
    }
    warnings
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
        let files = embedded::FILES
            .iter()
            .map(|(path, bytes)| SourceFile { path: path.to_string(), bytes: bytes.to_vec() })
            .collect();
        Pack::from_files("content/default", files, Limits::default())
    }

    /// Loads the pack in directory `dir` with default limits.
    pub fn load(dir: &Path) -> Result<Pack, Problems> {
        Pack::load_with_limits(dir, Limits::default())
    }

    /// Loads the pack in directory `dir`, refusing files or packs beyond `limits`.
    pub fn load_with_limits(dir: &Path, limits: Limits) -> Result<Pack, Problems> {
        let label = dir.to_string_lossy().trim_end_matches('/').to_string();
        if !dir.is_dir() {
            let e = Error::at(ErrorKind::Io, Location::file(&label), "not a directory")
                .with_help("--pack takes the folder that holds pack.toml");
            return Err(e.into());
        }
        let mut reader = TreeReader {
            root: dir,
            label: &label,
            limits: &limits,
            files: Vec::new(),
            problems: Problems::new(),
            entered: Default::default(),
        };
        reader.read(dir, 0);
        let (mut files, problems) = (reader.files, reader.problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Pack::from_files(&label, files, limits)
    }

    /// Builds a pack from files in memory; `root` prefixes paths in error locations.
    pub fn from_files(root: &str, files: Vec<SourceFile>, limits: Limits) -> Result<Pack, Problems> {
        let mut files = files;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let mut problems = Problems::new();
        let label = |path: &str| if root.is_empty() { path.to_string() } else { format!("{root}/{path}") };

        let mut texts: Vec<(&str, String, &str)> = Vec::new();
        let mut images: Vec<&SourceFile> = Vec::new();
        for f in &files {
            if f.bytes.len() as u64 > limits.max_file_bytes {
                problems.push(too_big(&label(&f.path), f.bytes.len() as u64, &limits));
                continue;
            }
            if prefab::xp::is_xp_path(&f.path) {
                images.push(f);
                continue;
            }
            match std::str::from_utf8(&f.bytes) {
                Ok(text) => texts.push((f.path.as_str(), label(&f.path), text)),
                Err(e) => {
                    let valid = std::str::from_utf8(&f.bytes[..e.valid_up_to()]).unwrap_or_default();
                    let at = Location::at_offset(label(&f.path), valid, valid.len());
                    problems.push(
                        Error::at(ErrorKind::Format, at, "the file is not valid UTF-8 text")
                            .with_help("save it as UTF-8"),
                    );
                }
            }
        }
        let find = |path: &str| texts.iter().find(|(p, _, _)| *p == path);

        let pack_file = match find("pack.toml") {
            Some((_, file, text)) => match parse_toml::<PackFile>(file, text) {
                Ok(p) => Some((p, file.clone(), *text)),
                Err(e) => {
                    problems.push(e);
                    None
                }
            },
            None => {
                problems.push(
                    Error::at(ErrorKind::Invalid, Location::file(label("pack.toml")), "the pack has no pack.toml")
                        .with_help("a pack folder holds pack.toml, palette.toml, prefabs/ and maps/"),
                );
                None
            }
        };
        let palette = match find("palette.toml") {
            Some((_, file, text)) => match Palette::parse(file, text) {
                Ok(p) => Some(p),
                Err(e) => {
                    problems.extend(e.errors().iter().cloned());
                    None
                }
            },
            None => {
                problems.push(Error::at(
                    ErrorKind::Invalid,
                    Location::file(label("palette.toml")),
                    "the pack has no palette.toml",
                ));
                None
            }
        };

        let mut prefabs: Vec<Prefab> = Vec::new();
        if let Some(palette) = &palette {
            let is_prefab_text = |p: &str| p.starts_with("prefabs/") && p.ends_with(".txt");
            for (_, file, text) in texts.iter().filter(|(p, _, _)| is_prefab_text(p)) {
                let (read, errors) = prefab::read_file(file, text, palette, &limits);
                problems.extend(errors);
                prefabs.extend(read);
            }
            for image in images.iter().filter(|f| f.path.starts_with("prefabs/")) {
                let stem = &image.path[..image.path.len() - 3];
                let sidecar = find(&format!("{stem}.toml")).map(|(_, file, text)| (file.as_str(), *text));
                match read_xp_prefab(&label(&image.path), &image.bytes, sidecar, palette, &limits) {
                    Ok(p) => prefabs.push(p),
                    Err(errors) => problems.extend(errors),
                }
            }
            for (path, file, _) in texts.iter().filter(|(p, _, _)| p.starts_with("prefabs/") && p.ends_with(".toml")) {
                let stem = path.trim_end_matches(".toml");
                if !images.iter().any(|f| f.path.len() == stem.len() + 3 && f.path.starts_with(stem)) {
                    problems.push(
                        Error::at(ErrorKind::Invalid, Location::file(file.clone()), "no .xp prefab of this name")
                            .with_help(format!(
                                "a .toml under prefabs/ holds the header of the .xp prefab beside it (text prefabs keep their header inline); add {stem}.xp or remove this file"
                            )),
                    );
                }
            }
            // Text and image prefabs in path order, as the files are listed.
            prefabs.sort_by(|a, b| a.origin().cmp(b.origin()));
        }
        let mut prefab_index: BTreeMap<String, usize> = BTreeMap::new();
        let mut unique: Vec<Prefab> = Vec::with_capacity(prefabs.len());
        for p in prefabs {
            if let Some(&first) = prefab_index.get(p.name()) {
                let e =
                    Error::at(ErrorKind::Invalid, p.origin().clone(), format!("a second prefab named `{}`", p.name()))
                        .with_help(format!(
                            "the first is at {}; prefab names must be unique in a pack",
                            unique[first].origin()
                        ));
                problems.push(e);
            } else {
                prefab_index.insert(p.name().to_string(), unique.len());
                unique.push(p);
            }
        }
        let prefabs = unique;

        let catalog_files: Vec<(&str, &str)> = texts
            .iter()
            .filter(|(p, _, _)| p.starts_with("catalog/") && p.ends_with(".toml"))
            .map(|(_, file, text)| (file.as_str(), *text))
            .collect();
        let (catalog, catalog_errors) = catalog::read_partial(&catalog_files);
        // Map types check their furnishing names only against a clean catalog:
        // against a broken one they would report what is already reported.
        let catalog_ok = catalog_errors.is_empty();
        problems.extend(catalog_errors);
        let mut custom_words: Vec<(String, u32)> = Vec::new();
        if let Some((p, file, text)) = &pack_file {
            for (word, &weight) in &p.weights {
                let ok = !word.get_ref().is_empty()
                    && word.get_ref().chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if ok {
                    custom_words.push((word.get_ref().clone(), weight));
                } else {
                    let at = Location::at_offset(file.clone(), text, word.span().start);
                    problems.push(Error::at(
                        ErrorKind::Invalid,
                        at,
                        format!("weight word `{}` may only use letters, digits, `_` and `-`", word.get_ref()),
                    ));
                }
            }
        }
        let words = WeightWords::with(custom_words);
        let names: Vec<&str> = prefab_index.keys().map(String::as_str).collect();
        let lookup = |name: &str| prefab_index.get(name).map(|&i| &prefabs[i]);
        let mut map_types = BTreeMap::new();
        // Map types that exist as files, valid or not: a broken file is reported on
        // its own and must not also make the default map type look missing.
        let mut map_files: Vec<&str> = Vec::new();
        for (path, file, text) in texts.iter().filter(|(p, _, _)| p.starts_with("maps/") && p.ends_with(".toml")) {
            let Some(stem) = path.strip_prefix("maps/").and_then(|p| p.strip_suffix(".toml")) else { continue };
            if stem.contains('/') {
                // Map types live directly under maps/; deeper folders are the
                // designer's own.
                continue;
            }
            if !stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                problems.push(Error::at(
                    ErrorKind::Invalid,
                    Location::file(file.clone()),
                    format!("map type name `{stem}` may only use letters, digits, `_` and `-`"),
                ));
                continue;
            }
            map_files.push(stem);
            match maptype::read(
                file,
                stem,
                text,
                &limits,
                &prefabs,
                &lookup,
                &names,
                &words,
                catalog_ok.then_some(&catalog),
            ) {
                Ok(m) => {
                    map_types.insert(stem.to_string(), m);
                }
                Err(errors) => problems.extend(errors),
            }
        }

        // Definition files, checked at every depth their prefabs can appear at.
        let mut depths: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        let mut featured: BTreeSet<&str> = BTreeSet::new();
        for m in map_types.values() {
            for v in &m.variants {
                featured.extend(v.prefabs.iter().flat_map(|p| p.choices.iter().map(|(n, _)| n.as_str())));
            }
            for e in m.encounters.iter().flat_map(|pool| &pool.pool) {
                // Ratings stop at MAX_RATING, so deeper levels choose as it does.
                let cap = |v: i32| (v as u32).min(catalog::MAX_RATING);
                let range = e.depth.map_or(1..=catalog::MAX_RATING, |d| cap(d.lo)..=cap(d.hi));
                for name in &e.prefabs {
                    depths.entry(name.clone()).or_default().extend(range.clone());
                }
            }
        }
        // A prefab also placed as a feature can appear at any depth.
        for name in featured {
            depths.remove(name);
        }
        let def_files: Vec<(&str, String, &str)> = texts
            .iter()
            .filter(|(p, _, _)| p.starts_with("prefabs/") && p.ends_with(".def"))
            .map(|(p, file, text)| (*p, file.clone(), *text))
            .collect();
        let (definitions, def_errors) = defs::read(&def_files, &catalog, &prefabs, &depths, &limits);
        problems.extend(def_errors);
        let mut warnings = defs::lint(&definitions);
        if let Some(palette) = &palette {
            warnings.extend(defs::lint_palette(&definitions, palette));
            warnings.extend(art_lint(&catalog, palette, &catalog_files));
        }
        for m in map_types.values() {
            if let Some(f) = &m.furnishing {
                warnings.extend(furnishing::lint(&m.file, f, &catalog));
            }
        }

        if let Some((p, file, text)) = &pack_file {
            let wanted = p.default_map_type.get_ref();
            if !map_files.contains(&wanted.as_str()) {
                let at = Location::at_offset(file.clone(), text, p.default_map_type.span().start);
                let help = match suggest(wanted, map_files.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "map types are the files under maps/, named without .toml".to_string(),
                };
                problems.push(
                    Error::at(ErrorKind::Invalid, at, format!("default map type `{wanted}` does not exist"))
                        .with_help(help),
                );
            }
        }

        problems.sort();
        match (pack_file, palette) {
            (Some((p, _, _)), Some(palette)) if problems.is_empty() => Ok(Pack {
                name: p.name,
                description: p.description,
                default_map_type: p.default_map_type.into_inner(),
                palette,
                prefabs,
                prefab_index,
                map_types,
                weight_words: words,
                catalog,
                definitions,
                warnings,
                limits,
            }),
            _ => Err(problems),
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

    /// Every map type, by name.
    pub fn map_types(&self) -> impl Iterator<Item = &MapType> {
        self.map_types.values()
    }

    /// The map type with this name.
    pub fn map_type(&self, name: &str) -> Option<&MapType> {
        self.map_types.get(name)
    }

    /// The limits the pack was loaded with.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Reads a `.xp` prefab (outside any pack) with this pack's palette; `sidecar` is
    /// the header file beside it, as `(file, text)`, if there is one.
    pub fn read_xp_prefab(&self, file: &str, bytes: &[u8], sidecar: Option<(&str, &str)>) -> Result<Prefab, Problems> {
        read_xp_prefab(file, bytes, sidecar, &self.palette, &self.limits).map_err(|errors| {
            let mut problems = Problems::new();
            problems.extend(errors);
            problems.sort();
            problems
        })
    }

    /// Reads prefabs from one text file (outside any pack) with this pack's palette.
    pub fn read_prefab_file(&self, file: &str, text: &str) -> Result<Vec<Prefab>, Problems> {
        let (prefabs, errors) = prefab::read_file(file, text, &self.palette, &self.limits);
        let mut problems = Problems::new();
        problems.extend(errors);
        problems.sort();
        problems.into_result(prefabs)
    }
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
    problems: Problems,
    /// Canonical paths of the folders entered, so a symbolic link back up the tree
    /// is read once instead of forever.
    entered: std::collections::BTreeSet<PathBuf>,
}

impl TreeReader<'_> {
    fn shown(&self, p: &Path) -> String {
        format!("{}/{}", self.label, rel_path(self.root, p))
    }

    /// Reads every file under `dir`, depth first in name order.
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
            if path.is_dir() {
                self.read(&path, depth + 1);
                continue;
            }
            let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            if size > self.limits.max_file_bytes {
                self.problems.push(too_big(&self.shown(&path), size, self.limits));
                continue;
            }
            match std::fs::read(&path) {
                Ok(bytes) => self.files.push(SourceFile { path: rel_path(self.root, &path), bytes }),
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
