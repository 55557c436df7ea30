//! Assembling translated vaults into the files of a prefabric pack.
//!
//! In: the vaults to write, each with the `.des` file it came from, the pool's
//! name and the base pack's files. Out: the files to add to (or replace in)
//! the base pack — prefab files (one per `.des` file), definition files, a
//! catalog of every monster, item, feature and trap the vaults name, two shared
//! encounter pools (room styles and cave styles), a map type per layout
//! generator that places them, a map type per whole-level vault, and the base's
//! `pack.toml` and `palette.toml` with what the import adds — plus, for each
//! file, which vault wrote each of its lines, so a problem `check` finds can be
//! traced back to the vault that caused it.

use super::glyphs::NEW_TERRAINS;
use super::objects::{Kind, item_category};
use super::vault::{Orient, Vault};
use super::write::{self, Placed};
use prefabric::content::SourceFile;
use prefabric::content::catalog::Kind as CatalogKind;
use prefabric::content::keywords::GameKeywords;
use prefabric::format::def::BUILT_IN_KEYWORDS;
use prefabric::geom::Moves;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// A vault and its source, as the pack is assembled from it.
pub struct Entry<'v> {
    /// The vault.
    pub vault: &'v Vault,
    /// The `.des` file's stem, for the prefab file's name.
    pub stem: String,
    /// How messages name its source: `file.des:12`.
    pub source: String,
    /// The placements of a floating vault still tried (both at first; the
    /// import drops one that `check` refuses while the other stands).
    pub places: Places,
}

/// Where a floating or mini vault may go: rooms, caverns, or both.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Places {
    /// As an encounter in rooms (`accessible` or `enclosed`).
    pub rooms: bool,
    /// As a `centered` encounter in caverns.
    pub caves: bool,
}

impl Places {
    /// Both placements.
    pub const BOTH: Places = Places { rooms: true, caves: true };
}

/// Which placement of its vault a written line belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Every placement (its definitions, a feature, a whole level).
    All,
    /// Its room prefab and room encounter.
    Rooms,
    /// Its cavern prefab and cavern encounter.
    Caves,
}

/// What was written for one vault: its prefabs and how it is placed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The prefab names written.
    pub prefabs: Vec<String>,
    /// How it is placed, in words (`encounter in rooms (accessible), and in caverns`).
    pub placed: String,
    /// The placements written ([`Part::Rooms`], [`Part::Caves`]), for a
    /// floating or mini vault.
    pub parts: Vec<Part>,
}

/// The files of an assembled import, and which vault each line came from.
pub struct Assembled {
    /// The files, base files the import changes included.
    pub files: Vec<SourceFile>,
    /// For each file path: line ranges (first, last) and the vault index that wrote them.
    pub owners: BTreeMap<String, Vec<LineOwner>>,
    /// What was written for each vault, by index.
    pub written: Vec<Written>,
}

/// The vault (by index) that wrote lines `first..=last` of a file, and for which
/// of its placements.
pub type LineOwner = (u32, u32, usize, Part);

/// Terrain names the vaults use, mapped to the variants the pack gives them.
pub type TerrainNames = BTreeMap<&'static str, String>;

/// Picks, for each terrain the import adds, a variant of its role the base
/// palette does not mention, and returns the base palette with them added and
/// its `moves` set to `moves`.
pub fn palette(base: &str, moves: Moves) -> (String, TerrainNames) {
    let mut names = TerrainNames::new();
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for (key, _, _, _) in NEW_TERRAINS {
        let role = key.split(':').next().unwrap_or(key);
        let variant = (1..=9)
            .map(|v| format!("{role}:{v}"))
            .find(|t| !base.contains(&format!("\"{t}\"")) && !taken.contains(t))
            .unwrap_or_else(|| key.to_string());
        taken.insert(variant.clone());
        names.insert(key, variant);
    }
    let colours: String = NEW_TERRAINS
        .iter()
        .map(|(key, colour, _, what)| format!("\"{}\" = \"{colour}\"  # {what}\n", names[key]))
        .collect();
    let render: String = NEW_TERRAINS
        .iter()
        .map(|(key, _, glyph, what)| format!("\"{}\" = \"{glyph}\"  # {what}\n", names[key]))
        .collect();
    let mut text = with_moves(base, moves);
    for (section, lines) in [("[colours]", colours), ("[render]", render)] {
        match text.find(&format!("\n{section}\n")) {
            Some(i) => {
                let at = i + section.len() + 2;
                text.insert_str(at, &lines);
            }
            None => {
                let _ = write!(text, "\n{section}\n{lines}");
            }
        }
    }
    (text, names)
}

/// `palette` (TOML text) with its top-level `moves` key, if any, taken out and
/// `moves = "…"` written first.
fn with_moves(palette: &str, moves: Moves) -> String {
    let mut in_table = false;
    let kept: Vec<&str> = palette
        .lines()
        .filter(|line| {
            let t = line.trim_start();
            in_table |= t.starts_with('[');
            in_table || !(t.starts_with("moves") && t["moves".len()..].trim_start().starts_with('='))
        })
        .collect();
    let why = match moves {
        Moves::Diagonal => "DCSS's walkers step across corners too",
        Moves::Orthogonal => "the game's walkers step to the four sides only",
    };
    format!("moves = \"{}\"  # {why}\n{}\n", moves.name(), kept.join("\n"))
}

/// Vaults whose prefabs go in one prefab file (each writes two at most).
const VAULTS_PER_FILE: usize = 400;

/// A file being written, its lines counted as they are added, and which vault
/// wrote which of them.
#[derive(Default)]
struct Text {
    body: String,
    lines: u32,
    owners: Vec<LineOwner>,
}

impl Text {
    /// Appends `text` and counts its lines.
    fn push(&mut self, text: &str) {
        self.body.push_str(text);
        self.lines += text.bytes().filter(|&b| b == b'\n').count() as u32;
    }

    /// Appends `text`, written for vault `owner`.
    fn push_for(&mut self, owner: usize, text: &str) {
        self.push_for_part(owner, Part::All, text);
    }

    /// Appends `text`, written for placement `part` of vault `owner`.
    fn push_for_part(&mut self, owner: usize, part: Part, text: &str) {
        let first = self.lines + 1;
        self.push(text);
        self.owners.push((first, self.lines.max(first), owner, part));
    }
}

/// A catalog entry the vaults need.
struct Need {
    kind: Kind,
    name: String,
    depth: u32,
}

/// Assembles the files for `entries` (the vaults still in), pools named after
/// `pool`. `taken` holds catalog tags the base pack uses already, `terrains`
/// the variants new terrains got.
pub fn assemble(
    entries: &[Entry<'_>],
    pool: &str,
    taken: &BTreeSet<String>,
    base_keywords: &GameKeywords,
    terrains: &TerrainNames,
) -> Assembled {
    let mut files: BTreeMap<String, Text> = BTreeMap::new();
    let mut written = vec![Written::default(); entries.len()];
    let mut needs: BTreeMap<String, Need> = BTreeMap::new();
    let mut keywords = Keywords::default();
    let rename = |tag: &str| if taken.contains(tag) { format!("{tag}_dcss") } else { tag.to_string() };
    let header = |what: &str| {
        format!(
            "# {what}, written by `prefabric import-des`.\n# Each entry is one DCSS vault; its depths are absolute (the Dungeon is 1-15).\ndescription = \"DCSS vaults imported by prefabric import-des: {what}.\"\n\n"
        )
    };
    let (mut rooms, mut caves) = (Text::default(), Text::default());
    rooms.push(&header("encounters for rooms"));
    caves.push(&header("encounters for caverns"));
    let mut anchored: Vec<(usize, &'static str)> = Vec::new();
    let mut levels: Vec<usize> = Vec::new();
    let mut per_stem: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        let v = vault_with(e.vault, terrains, &rename);
        // A pack's prefab file holds at most Limits::max_prefabs_per_file
        // prefabs (1,000 by default); a .des file may hold more maps than
        // half that, so its prefabs are split over files of 400 vaults.
        let part = per_stem.entry(e.stem.as_str()).or_insert(0);
        let prefab_file = match *part / VAULTS_PER_FILE {
            0 => format!("prefabs/dcss/{}.txt", e.stem),
            n => format!("prefabs/dcss/{}_{}.txt", e.stem, n + 1),
        };
        *part += 1;
        let depth = v.depth.first().map_or(1, |&(lo, _)| lo.clamp(1, 20));
        for line in &v.lines {
            for alt in &line.alts {
                let need =
                    needs.entry(alt.tag.clone()).or_insert(Need { kind: line.kind, name: alt.name.clone(), depth });
                need.depth = need.depth.min(depth);
                keywords.note(line.kind, &alt.keywords);
            }
        }
        if !v.lines.is_empty() {
            let path = format!("prefabs/dcss/{}/{}.def", e.stem, v.name);
            files.entry(path).or_default().push_for(i, &write::definitions(&v, &e.source));
        }
        let mut add_prefab = |text: String, name: &str, part: Part, written: &mut Written| {
            files.entry(prefab_file.clone()).or_default().push_for_part(i, part, &text);
            written.prefabs.push(name.to_string());
        };
        let w = &mut written[i];
        let south = prefabric::geom::Dir::South;
        match v.orient {
            Orient::Encompass => {
                add_prefab(write::prefab(&v, Placed::Level, south, &v.name, &v.name, &e.source), &v.name, Part::All, w);
                w.placed = format!("whole level: map type `{pool}_{}`", v.name);
                levels.push(i);
            }
            Orient::Anchor(anchor) => {
                add_prefab(
                    write::prefab(&v, Placed::Feature, south, &v.name, &v.name, &e.source),
                    &v.name,
                    Part::All,
                    w,
                );
                w.placed = format!("feature at the {anchor} of the `{pool}_` map types");
                anchored.push((i, anchor));
            }
            Orient::Mini | Orient::Float => {
                let mut places = Vec::new();
                if let Some((style, open)) = write::room_style(&v).filter(|_| e.places.rooms) {
                    let text = write::prefab(&v, style, open, &v.name, &v.name, &e.source);
                    add_prefab(text, &v.name, Part::Rooms, w);
                    if !v.depth.is_empty() {
                        rooms.push_for_part(i, Part::Rooms, &encounter(&v, &v.name, style.style()));
                    }
                    places.push(format!("rooms ({})", style.style()));
                    w.parts.push(Part::Rooms);
                }
                if write::cave_style(&v) && e.places.caves {
                    let name = format!("{}_cave", v.name);
                    let text = write::prefab(&v, Placed::Centered, south, &name, &v.name, &e.source);
                    add_prefab(text, &name, Part::Caves, w);
                    if !v.depth.is_empty() {
                        caves.push_for_part(i, Part::Caves, &encounter(&v, &name, "centered"));
                    }
                    places.push("caverns (centered)".to_string());
                    w.parts.push(Part::Caves);
                }
                w.placed = match (places.is_empty(), !v.depth.is_empty()) {
                    (true, _) => "nowhere: no side of it is open in every outcome, and no edge cell in any".into(),
                    (false, true) => format!("encounter in {}", places.join(" and ")),
                    (false, false) => format!(
                        "prefab for {} (DCSS picks it by tag or place only, so no pool entry)",
                        places.join(" and ")
                    ),
                };
            }
        }
    }
    files.insert(format!("encounters/{pool}.toml"), rooms);
    files.insert(format!("encounters/{pool}_caves.toml"), caves);
    let mut catalog_text = Text::default();
    catalog_text.push(&catalog(&needs));
    catalog_text.push(&keywords.declarations(base_keywords));
    files.insert("catalog/dcss.toml".into(), catalog_text);
    for (kind, generator) in [("rooms", ROOMS), ("caves", CAVES), ("halls", HALLS), ("crypts", CRYPTS)] {
        let included = if kind == "caves" { format!("{pool}_caves") } else { pool.to_string() };
        let mut text = Text::default();
        text.push(&generator.replace("POOL", &included));
        if !anchored.is_empty() {
            text.push(&format!(
                "# One set piece a level at most, as DCSS places them; most levels none.\n[[variants]]\nname = \"no set piece\"\nweight = {}\n\n",
                10 * anchored.len()
            ));
        }
        for &(i, anchor) in &anchored {
            let v = entries[i].vault;
            text.push_for(
                i,
                &format!(
                    "[[variants]]\nname = \"{}\"\nweight = {}\n\n[[variants.prefabs]]\nprefab = \"{}\"\nat = \"{anchor}\"\nrequired = false\nspawn_block = {}\n\n",
                    v.name,
                    v.weight.max(1),
                    v.name,
                    v.spawn_block
                ),
            );
        }
        files.insert(format!("maps/{pool}_{kind}.toml"), text);
    }
    for &i in &levels {
        let v = entries[i].vault;
        // prefabric's maps are 16 cells a side or more: a smaller level is the
        // vault in the middle of rock.
        let (w, h) = (v.grid.first().map_or(0, Vec::len).max(16), v.grid.len().max(16));
        let mut text = Text::default();
        text.push_for(
            i,
            &format!(
                "# DCSS's whole-level vault `{}` ({}), as a map type: the level is the vault.\ndescription = \"DCSS's `{}`, the whole level.\"\nwidth = {w}\nheight = {h}\ngenerator = \"chain\"\n\n[chain]\nstart = \"{}\"\nmargin = 0\ntarget = 1\n",
                v.dcss_name, entries[i].source, v.dcss_name, v.name
            ),
        );
        files.insert(format!("maps/{pool}_{}.toml", v.name), text);
    }
    let mut owners = BTreeMap::new();
    let files = files
        .into_iter()
        .map(|(path, text)| {
            owners.insert(path.clone(), text.owners);
            SourceFile { path, bytes: text.body.into_bytes() }
        })
        .collect();
    Assembled { files, owners, written }
}

/// The vault with its new terrains named as the pack names them and its
/// catalog tags renamed away from the base pack's.
fn vault_with(v: &Vault, terrains: &TerrainNames, rename: &dyn Fn(&str) -> String) -> Vault {
    let mut v = v.clone();
    for (terrain, _) in v.legend.values_mut() {
        if let Some(name) = terrains.get(terrain.as_str()) {
            *terrain = name.clone();
        }
    }
    for line in &mut v.lines {
        for alt in &mut line.alts {
            alt.tag = rename(&alt.tag);
        }
    }
    v
}

/// One `[[pool]]` entry.
fn encounter(v: &Vault, prefab: &str, style: &str) -> String {
    let mut out = String::new();
    let has = |k: Kind| v.lines.iter().any(|l| l.kind == k);
    let category = match (has(Kind::Entity), has(Kind::Item)) {
        (true, true) => "risk-reward",
        (true, false) => "danger",
        (false, true) => "reward",
        (false, false) => "fluff",
    };
    let _ = writeln!(
        out,
        "[[pool]]\nid = \"{}\"\nweight = {}\ncategory = \"{category}\"\nstyle = \"{style}\"\nprefabs = [\"{prefab}\"]",
        v.name, v.weight
    );
    match v.depth.as_slice() {
        [] => {}
        [(lo, hi)] => {
            let _ = writeln!(&mut out, "depth = [{lo}, {hi}]");
        }
        many => {
            let ranges: Vec<String> = many.iter().map(|(lo, hi)| format!("[{lo}, {hi}]")).collect();
            let _ = writeln!(&mut out, "depth = [{}]", ranges.join(", "));
        }
    }
    if let Some(n) = v.max_per_world {
        let _ = writeln!(&mut out, "max_per_world = {n}");
    }
    if let Some(n) = v.max_per_map {
        let _ = writeln!(&mut out, "max_per_map = {n}");
    }
    if let Some(g) = &v.group {
        let _ = writeln!(&mut out, "group = \"{g}\"");
    }
    if let Some(g) = &v.world_group {
        let _ = writeln!(&mut out, "world_group = \"{g}\"");
    }
    out.push('\n');
    out
}

/// The catalog of every tag the vaults name.
fn catalog(needs: &BTreeMap<String, Need>) -> String {
    let mut out = String::from(
        "# Monsters, items, features and traps named by imported DCSS vaults, written by\n# `prefabric import-des`. prefabric knows nothing of them beyond their names:\n# ratings are the shallowest depth a vault naming them appears at, and\n# placeholders (random_monster, random_item, any_weapon, random_trap, any_shop)\n# stand for DCSS's random picks, for a game to fill.\n\n",
    );
    let mut categories = BTreeSet::new();
    for (tag, need) in needs {
        let name = toml_string(&need.name);
        let rating = need.depth.clamp(1, 20);
        match need.kind {
            Kind::Entity => {
                let _ = writeln!(
                    out,
                    "[[entity]]\ntag = \"{tag}\"\nname = {name}\nclasses = [\"dcss\"]\nrating = {rating}\n"
                );
            }
            Kind::Item => {
                let category = item_category(tag);
                let _ = writeln!(
                    out,
                    "[[item]]\ntag = \"{tag}\"\nname = {name}\ncategory = \"{category}\"\nrating = {rating}\n"
                );
                categories.insert(category);
            }
            Kind::Prop => {
                let blocks = tag.contains("statue") || tag.contains("idol") || tag.contains("fountain");
                let _ = write!(out, "[[prop]]\ntag = \"{tag}\"\nname = {name}\n");
                if blocks {
                    let art = if tag.contains("fountain") { "⌂" } else { "§" };
                    let _ = write!(out, "set = \"dcss_obstacles\"\nart = [\"{art}\"]\n");
                }
                out.push('\n');
            }
            Kind::Trap => {
                let _ = writeln!(out, "[[trap]]\ntag = \"{tag}\"\nname = {name}\nrating = {rating}\n");
            }
        }
    }
    if !categories.is_empty() {
        out.push_str("[item_glyphs]\n");
        for c in categories {
            let glyph = match c.trim_start_matches("dcss_") {
                "weapon" => ")",
                "armour" => "[",
                "potion" => "!",
                "scroll" => "?",
                "wand" => "/",
                // Not the palette's `"` and `$`, nor a prop's `♦` or `¶`.
                "jewellery" => "°",
                "book" => "∞",
                "staff" => "⌠",
                "gold" => "£",
                "food" => "%",
                "missile" => "(",
                _ => "}",
            };
            let _ = writeln!(out, "{c} = {}", toml_string(glyph));
        }
    }
    out
}

/// The game keywords the vaults' definition lines write, by kind: DCSS's
/// monster and item modifiers, declared in the imported catalog so `check`
/// knows them.
#[derive(Default)]
struct Keywords {
    /// Kind, keyword: whether some line gives it a value.
    used: BTreeMap<(&'static str, String), bool>,
}

impl Keywords {
    /// Notes the keywords (`HP=30`, `GENERATE_AWAKE`) one alternative writes.
    fn note(&mut self, kind: Kind, written: &[String]) {
        for k in written {
            let (name, valued) = k.split_once('=').map_or((k.as_str(), false), |(n, _)| (n, true));
            if BUILT_IN_KEYWORDS.contains(&name) {
                continue;
            }
            *self.used.entry((kind.name(), name.to_string())).or_insert(false) |= valued;
        }
    }

    /// `[keywords.KIND]` tables for those the base pack's catalog does not
    /// declare: any value for one written with a value, else a flag.
    fn declarations(&self, base: &GameKeywords) -> String {
        let mut out = String::new();
        let mut table = "";
        for ((kind, name), valued) in &self.used {
            let catalog_kind = match *kind {
                "entity" => CatalogKind::Entity,
                "item" => CatalogKind::Item,
                "prop" => CatalogKind::Prop,
                _ => CatalogKind::Trap,
            };
            if base.allowed(catalog_kind, name).is_some() {
                continue;
            }
            if table != *kind {
                let _ = writeln!(out, "\n[keywords.{kind}]");
                table = kind;
            }
            let _ = writeln!(out, "{name} = \"{}\"", if *valued { "*" } else { "" });
        }
        if !out.is_empty() {
            out.insert_str(0, "\n# DCSS's monster and item modifiers, passed through to the game.");
        }
        out
    }
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The tunneler map type that places the room pool: DCSS's 80x70 level, narrow
/// corridors, many rooms.
const ROOMS: &str = "# DCSS vaults in rooms: tunnelers dig a level of DCSS's size, and the imported
# encounters are embedded into its rooms and halls. Written by `prefabric import-des`.
description = \"DCSS vaults imported by prefabric import-des, embedded into rooms dug by tunnelers on an 80x70 level.\"
width = 80
height = 70
generator = \"tunnelers\"

[tunnelers]
width = 1
min_width = 1
max_width = 3
step = [3, 7]
room_chance = 50
hall_chance = 6
min_halls = 1
edge_margin = 2
fill_target = 36
min_open = 20

[[starts]]
at = \"centre\"
jitter = [12, 10]

[encounters]
count = [4, 8]
include = [\"POOL\"]

";

/// The cave map type that places the cavern pool.
const CAVES: &str = "# DCSS vaults in caverns: a cave level of DCSS's size, the imported encounters
# set in the middle of its caverns. Written by `prefabric import-des`.
description = \"DCSS vaults imported by prefabric import-des, set in the caverns of an 80x70 cave level.\"
width = 80
height = 70
generator = \"caves\"

[encounters]
count = [3, 6]
include = [\"POOL\"]

";

/// The chain map type: plain rooms chained by hallways (Golden Krone Hotel), the
/// room pool embedded into them.
const HALLS: &str = "# DCSS vaults in chained rooms: plain rooms joined by straight hallways (the
# chain generator), the imported encounters embedded into them. Written by
# `prefabric import-des`.
description = \"DCSS vaults imported by prefabric import-des, embedded into plain rooms chained by hallways on an 80x70 level.\"
width = 80
height = 70
generator = \"chain\"

[chain]
target = 24

[chain.auto_rooms]
weight = 1
width = [5, 12]
height = [4, 9]

[encounters]
count = [4, 8]
include = [\"POOL\"]

";

/// The pathways map type: rooms joined by path-found hallways (Ascension), the
/// room pool embedded into them.
const CRYPTS: &str = "# DCSS vaults in rooms joined by winding hallways (the pathways generator), the
# imported encounters embedded into them. Written by `prefabric import-des`.
description = \"DCSS vaults imported by prefabric import-des, embedded into rooms joined by path-found hallways on an 80x70 level.\"
width = 80
height = 70
generator = \"pathways\"

[pathways]
rooms = 16

[pathways.auto_rooms]
weight = 1
width = [5, 12]
height = [4, 9]

[encounters]
count = [4, 8]
include = [\"POOL\"]

";
