//! Importing Dungeon Crawl Stone Soup's `.des` vault files into a prefabric pack.
//!
//! In: the text of `.des` files (the user's own copy; prefabric ships none) and
//! the files of the pack to add them to. Out ([`import`]): the files the import
//! adds to or changes in that pack, and a [`Report`] on every map read — each
//! loss and skip with its reason and place. The importer never writes a file
//! itself (`prefabric import-des` does), and what it returns always loads.
//! It is built on the `prefabric` library's public API alone.
//!
//! Each map is read (module `read`), translated (`vault`) and written (`write`,
//! `pack`):
//!
//! * its grid becomes a prefab's terrain; DCSS's glyphs stay as drawn (digits,
//!   `*` and `?` renamed, as prefabric reserves them) and each glyph an outcome
//!   may hold gets a `legend` line saying what it is in prefabric;
//! * `SUBST`, `NSUBST` and `SHUFFLE` become the prefab's variation rules, one to
//!   one; `CLEAR` takes cells out of the drawing;
//! * monsters, items, features and traps (`MONS`, `ITEM`, `KMONS`, `KITEM`,
//!   `KFEAT` and the default glyphs) become reference characters resolved by a
//!   definition file, naming catalog entries the import adds;
//! * `no_rotate`, `no_hmirror` and `no_vmirror` become the prefab's transforms;
//! * minivaults and floating vaults become encounters — in rooms
//!   (`accessible`, or `enclosed` through their most open side) and in caverns
//!   (`centered`) — with their weight, absolute depths (module `depth`), once a
//!   game unless `allow_dup`, `luniq` once a level, `luniq_X` an exclusion group,
//!   `uniq_X` a world group (one of the group per game);
//!   side, corner and centre vaults become optional features anchored there,
//!   their exits (`@`) link marks; whole-level vaults become map types.
//!
//! The pack's palette says `moves = "diagonal"`, DCSS's own movement rule, so
//! floor DCSS joins across a corner stays joined; for a game whose walkers step
//! to the four sides only ([`Options::moves`] orthogonal) doors entered across a
//! corner are walled, and vaults held together only diagonally are skipped.
//!
//! A header whose key is no directive DCSS knows (a misspelt keyword) is a
//! warning at its `file:line:col` ([`Report::warnings`]), with the directive
//! probably meant. A map with Lua, a `SUBVAULT`, no grid or a directive that
//! cannot be read is skipped; a directive with no prefabric counterpart (`KMASK`, `KPROP`,
//! `CHANCE`, a per-depth weight, …) is dropped and counted as a loss. Finally
//! the pack is loaded as `prefabric check` would load it, and every vault a
//! problem is traced to is taken out (a skip, with the problem as its reason),
//! until the pack loads clean.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// No unwrap, expect or panic! outside tests: what a public function is given
// must never bring the program down.
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod depth;
mod glyphs;
mod objects;
mod pack;
mod picks;
mod read;
mod rules;
mod vault;
mod write;

pub use depth::BRANCHES;
use prefabric::content::{Pack, SourceFile};
use prefabric::error::{Error, ErrorKind, Location, Problems};
use prefabric::geom::Moves;
use prefabric::limits::Limits;
use std::collections::{BTreeMap, BTreeSet};
pub use vault::{Loss, Skip};

/// One `.des` file to import: how messages name it, and its text.
#[derive(Clone, Debug)]
pub struct Source {
    /// Its name in messages (usually the path given).
    pub name: String,
    /// Its text.
    pub text: String,
}

/// How to import.
#[derive(Clone, Debug)]
pub struct Options {
    /// The name of the encounter pool (`encounters/NAME.toml`, and
    /// `NAME_caves.toml`) and the prefix of the map types written.
    pub pool: String,
    /// The pack the import adds to.
    pub base: Vec<SourceFile>,
    /// The limits the finished pack is loaded under.
    pub limits: Limits,
    /// How the game's walkers step, written into the pack's palette: DCSS's
    /// rule, diagonal, by default.
    pub moves: Moves,
}

impl Default for Options {
    /// The pool `dcss`, added to the built-in pack, walkers stepping diagonally.
    fn default() -> Options {
        Options { pool: "dcss".into(), base: Pack::embedded_files(), limits: Limits::default(), moves: Moves::Diagonal }
    }
}

/// What became of one map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Imported: its prefabs and how they are placed, and what could not be
    /// kept (empty when nothing was lost).
    Imported {
        /// The prefabs written for it.
        prefabs: Vec<String>,
        /// How they are placed, in words.
        placed: String,
        /// What could not be kept.
        losses: Vec<Loss>,
    },
    /// Not imported.
    Skipped(Skip),
}

/// One map and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapReport {
    /// Its DCSS name.
    pub name: String,
    /// Where its `NAME:` line is.
    pub at: Location,
    /// What became of it.
    pub outcome: Outcome,
}

/// What an import did with every map it read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Every map, in the order read.
    pub maps: Vec<MapReport>,
    /// Lines of the files that belong to no map and could not be read.
    pub errors: Vec<Error>,
    /// Lines read with a warning: a header whose key is no directive DCSS
    /// knows (a misspelt keyword), at its `file:line:col`.
    pub warnings: Vec<Error>,
}

impl Report {
    /// Maps read.
    pub fn read(&self) -> usize {
        self.maps.len()
    }

    /// Maps imported with nothing lost.
    pub fn whole(&self) -> usize {
        self.maps.iter().filter(|m| matches!(&m.outcome, Outcome::Imported { losses, .. } if losses.is_empty())).count()
    }

    /// Maps imported with something lost.
    pub fn with_losses(&self) -> usize {
        self.maps
            .iter()
            .filter(|m| matches!(&m.outcome, Outcome::Imported { losses, .. } if !losses.is_empty()))
            .count()
    }

    /// Maps imported, whole or with losses.
    pub fn imported(&self) -> usize {
        self.maps.iter().filter(|m| matches!(m.outcome, Outcome::Imported { .. })).count()
    }

    /// Maps skipped.
    pub fn skipped(&self) -> usize {
        self.maps.iter().filter(|m| matches!(m.outcome, Outcome::Skipped(_))).count()
    }

    /// How many maps were skipped for each reason, most first.
    pub fn skips_by_reason(&self) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for m in &self.maps {
            if let Outcome::Skipped(s) = &m.outcome {
                *counts.entry(s.reason.clone()).or_default() += 1;
            }
        }
        let mut out: Vec<(String, usize)> = counts.into_iter().collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }

    /// How many maps lost something of each kind (the loss's words up to the
    /// first backquoted name), most first.
    pub fn losses_by_kind(&self) -> Vec<(String, usize)> {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for m in &self.maps {
            if let Outcome::Imported { losses, .. } = &m.outcome {
                let kinds: BTreeSet<String> = losses.iter().map(|l| loss_kind(&l.what)).collect();
                for k in kinds {
                    *counts.entry(k).or_default() += 1;
                }
            }
        }
        let mut out: Vec<(String, usize)> = counts.into_iter().collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }
}

/// A loss's kind: its words with names in backquotes blanked, so losses of
/// different names count together; directive names (upper case, `KMASK`) stay.
fn loss_kind(what: &str) -> String {
    let mut out = String::new();
    for (i, part) in what.split('`').enumerate() {
        let quoted = i % 2 == 1;
        let directive = !part.is_empty() && part.chars().all(|c| c.is_ascii_uppercase() || c == '_');
        match (quoted, directive) {
            (false, _) => out.push_str(part),
            (true, true) => {
                out.push('`');
                out.push_str(part);
                out.push('`');
            }
            (true, false) => out.push_str("`…`"),
        }
    }
    out
}

/// A message with its names and numbers blanked, so problems of one kind count
/// together: ``prefab `a` has …`` and ``prefab `b` has …`` read alike. Every
/// quoted word goes (a check's message names glyphs and prefabs, not
/// directives).
fn message_kind(message: &str) -> String {
    let unquoted: String =
        message.split('`').enumerate().map(|(i, part)| if i % 2 == 1 { "`…`" } else { part }).collect();
    let mut out = String::new();
    let mut digits = false;
    for c in unquoted.chars() {
        if c.is_ascii_digit() {
            if !digits {
                out.push('N');
            }
            digits = true;
        } else {
            digits = false;
            out.push(c);
        }
    }
    out
}

/// The result of an import.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The files to add to the base pack, or to replace there (`pack.toml`,
    /// `palette.toml`): with the base's other files, a pack that loads.
    pub files: Vec<SourceFile>,
    /// What became of every map.
    pub report: Report,
}

/// Imports `sources` into the pack `options.base`. Fails only when the base
/// pack itself does not load, or when a problem of the finished pack cannot be
/// traced to a vault (a fault of the importer, reported as such).
pub fn import(sources: &[Source], options: &Options) -> Result<Imported, Problems> {
    let base = Pack::from_files("base", options.base.clone(), options.limits.clone())?;
    let mut report = Report::default();
    let mut vaults: Vec<(vault::Vault, String, String)> = Vec::new();
    let mut index_of_report: Vec<usize> = Vec::new();
    for source in sources {
        let file = read::read(&source.name, &source.text);
        report.errors.extend(file.errors);
        report.warnings.extend(file.warnings);
        let stem = file_stem(&source.name);
        for map in &file.maps {
            let at = map.at.clone();
            match vault::translate(map, options.moves) {
                Ok(v) => {
                    index_of_report.push(report.maps.len());
                    report.maps.push(MapReport {
                        name: map.name.clone(),
                        at: at.clone(),
                        outcome: Outcome::Imported {
                            prefabs: Vec::new(),
                            placed: String::new(),
                            losses: v.losses.clone(),
                        },
                    });
                    vaults.push((v, stem.clone(), format!("{}:{}", at.file, at.line)));
                }
                Err(skip) => {
                    report.maps.push(MapReport { name: map.name.clone(), at, outcome: Outcome::Skipped(skip) })
                }
            }
        }
    }
    dedupe_names(&mut vaults, &base);
    let taken = base_tags(&base);
    let palette_text = options
        .base
        .iter()
        .find(|f| f.path == "palette.toml")
        .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
        .unwrap_or_default();
    let (palette, terrains) = pack::palette(&palette_text, options.moves);
    let mut alive: Vec<bool> = vec![true; vaults.len()];
    let mut places = vec![pack::Places::BOTH; vaults.len()];
    // Why a floating vault lost its room or cavern placement, for its report.
    let mut dropped: Vec<Option<String>> = vec![None; vaults.len()];
    // Each round takes out at least one vault or one of its two placements (a
    // problem traced to none ends the import), so there are at most three
    // rounds a vault; the checks of later loading phases show only once earlier
    // ones pass, so a few are usual.
    for _ in 0..=3 * vaults.len() {
        let live: Vec<usize> = (0..vaults.len()).filter(|&i| alive[i]).collect();
        let entries: Vec<pack::Entry<'_>> = live
            .iter()
            .map(|&i| pack::Entry {
                vault: &vaults[i].0,
                stem: vaults[i].1.clone(),
                source: vaults[i].2.clone(),
                places: places[i],
            })
            .collect();
        let assembled = pack::assemble(&entries, &options.pool, &taken, base.catalog().keywords(), &terrains);
        // A vault no room or cavern can take (no side of it open in every
        // outcome) wrote no prefab: not imported, whatever else it wrote.
        let nowhere: Vec<usize> = (0..live.len()).filter(|&k| assembled.written[k].prefabs.is_empty()).collect();
        if !nowhere.is_empty() {
            for k in nowhere {
                let i = live[k];
                alive[i] = false;
                let r = &mut report.maps[index_of_report[i]];
                r.outcome = Outcome::Skipped(Skip {
                    reason: "placed nowhere".into(),
                    detail: assembled.written[k].placed.trim_start_matches("nowhere: ").to_string(),
                    at: r.at.clone(),
                });
            }
            continue;
        }
        let mut files = assembled.files;
        files.push(SourceFile { path: "palette.toml".into(), bytes: palette.clone().into_bytes() });
        files
            .push(SourceFile { path: "pack.toml".into(), bytes: pack_toml(&options.base, &options.pool).into_bytes() });
        let mut all: Vec<SourceFile> =
            options.base.iter().filter(|f| !files.iter().any(|g| g.path == f.path)).cloned().collect();
        all.extend(files.iter().cloned());
        let problems = match Pack::from_files("import", all, options.limits.clone()) {
            Ok(_) => {
                for (k, &i) in live.iter().enumerate() {
                    if let Outcome::Imported { prefabs, placed, .. } = &mut report.maps[index_of_report[i]].outcome {
                        *prefabs = assembled.written[k].prefabs.clone();
                        placed.clone_from(&assembled.written[k].placed);
                        if let Some(why) = &dropped[i] {
                            placed.push_str(&format!(" only ({why})"));
                        }
                    }
                }
                return Ok(Imported { files, report });
            }
            Err(p) => p,
        };
        let mut unexplained = Problems::new();
        for e in problems.errors() {
            match owner(e, &assembled.owners) {
                Some((k, part)) => {
                    let i = live[k];
                    let written = &assembled.written[k].parts;
                    // A placement `check` refuses is dropped while the other stands.
                    let other = match part {
                        pack::Part::Rooms if places[i].caves && written.contains(&pack::Part::Caves) => {
                            Some((&mut places[i].rooms, "rooms"))
                        }
                        pack::Part::Caves if places[i].rooms && written.contains(&pack::Part::Rooms) => {
                            Some((&mut places[i].caves, "caverns"))
                        }
                        _ => None,
                    };
                    if let (true, Some((place, name))) = (alive[i], other) {
                        if std::mem::replace(place, false) {
                            dropped[i] = Some(format!("not in {name}: {}", e.message()));
                        }
                        continue;
                    }
                    if alive[i] {
                        alive[i] = false;
                        let r = &mut report.maps[index_of_report[i]];
                        r.outcome = Outcome::Skipped(Skip {
                            reason: format!("check: {}", message_kind(e.message())),
                            detail: e.to_string().lines().next().unwrap_or_default().to_string(),
                            at: r.at.clone(),
                        });
                    }
                }
                None => unexplained.push(e.clone()),
            }
        }
        if !unexplained.is_empty() {
            let mut p = Problems::new();
            p.push(Error::new(ErrorKind::Invalid, "the imported pack has problems the importer cannot trace to a vault (a fault of prefabric's importer; please report it with the .des files)"));
            p.extend(unexplained.errors().iter().cloned());
            return Err(p);
        }
    }
    let mut p = Problems::new();
    p.push(Error::new(
        ErrorKind::Invalid,
        "the imported pack still has problems with every vault taken out (a fault of prefabric's importer; please report it with the .des files)",
    ));
    Err(p)
}

/// The vault (its index among those assembled) that wrote the line an error
/// points at, and for which placement.
fn owner(e: &Error, owners: &BTreeMap<String, Vec<pack::LineOwner>>) -> Option<(usize, pack::Part)> {
    let at = e.location()?;
    let path = at.file.strip_prefix("import/").unwrap_or(&at.file);
    let lines = owners.get(path)?;
    lines
        .iter()
        .find(|(a, b, ..)| at.line == 0 && lines.len() == 1 || (*a..=*b).contains(&at.line))
        .map(|&(_, _, i, part)| (i, part))
}

/// The file's stem, for prefab file names: `vaults/mini.des` gives `mini`.
fn file_stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base.strip_suffix(".des").unwrap_or(base);
    glyphs::tag_of(stem)
}

/// Makes every vault's prefab name unique among the vaults and apart from the
/// base pack's prefabs (later ones get `_2`, `_3` …).
fn dedupe_names(vaults: &mut [(vault::Vault, String, String)], base: &Pack) {
    let mut used: BTreeSet<String> = base.prefabs().iter().map(|p| p.name().to_string()).collect();
    for (v, _, _) in vaults.iter_mut() {
        let mut name: String = v.name.chars().take(56).collect();
        if used.contains(&name) || used.contains(&format!("{name}_cave")) {
            let stem = name.clone();
            name = (2..)
                .map(|n| format!("{stem}_{n}"))
                .find(|n| !used.contains(n) && !used.contains(&format!("{n}_cave")))
                .unwrap_or(stem);
        }
        used.insert(name.clone());
        used.insert(format!("{name}_cave"));
        v.name = name;
    }
}

/// Every catalog tag of the base pack.
fn base_tags(base: &Pack) -> BTreeSet<String> {
    use prefabric::content::catalog::Kind;
    let c = base.catalog();
    [Kind::Entity, Kind::Item, Kind::Prop, Kind::Trap, Kind::Debris]
        .into_iter()
        .flat_map(|k| c.tags(k).into_iter().map(str::to_string))
        .collect()
}

/// The imported pack's `pack.toml`: the base's, its default map type the
/// import's rooms.
fn pack_toml(base: &[SourceFile], pool: &str) -> String {
    let text = base
        .iter()
        .find(|f| f.path == "pack.toml")
        .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
        .unwrap_or_default();
    let default = format!("default_map_type = \"{pool}_rooms\"");
    let mut out =
        String::from("# Written by `prefabric import-des`: the base pack's settings, the import's rooms by default.\n");
    let mut placed = false;
    for line in text.lines() {
        let key = line.trim_start();
        if key.starts_with("default_map_type") {
            out.push_str(&default);
            placed = true;
        } else if key.starts_with('[') && !placed {
            // Top-level keys go before the first table.
            out.push_str(&default);
            out.push('\n');
            out.push_str(line);
            placed = true;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if !placed {
        out.push_str(&default);
        out.push('\n');
    }
    out
}
