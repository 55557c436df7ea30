//! One `.des` map translated into a prefabric vault: its drawing, variation
//! rules, the meaning of every glyph an outcome may hold, its objects, its
//! orientations, where and how often it appears, and what could not be kept.
//!
//! In: a [`DesMap`] as read. Out: a [`Vault`], or the reason the map is
//! skipped (Lua, a sub-vault, no grid, a directive that cannot be read, …).
//! The vault is still DCSS-shaped here — its grid as drawn, glyphs renamed
//! where prefabric reserves them (digits, `*`, `?`) — and [`Vault::prefab_text`]
//! writes it as a prefab of a given style. Every directive is either translated
//! one to one, dropped because it changes only how DCSS draws or builds levels
//! (colours, tiles, descriptions), or dropped and recorded as a loss with its
//! line.

use super::depth::Depths;
use super::glyphs::{self, Meaning, Thing, tag_of};
use super::objects::{self, Alt, Kind};
use super::picks;
use super::read::{DesMap, Header};
use super::rules::{self, Rule};
use prefabric::error::Location;
use prefabric::geom::{Moves, Point, TransformSet};
use std::collections::{BTreeMap, BTreeSet};

mod kfeatures;
mod placing;
#[cfg(test)]
mod tests;

use kfeatures::{RefChars, cell_marks, feature_alternatives, fresh_glyph, k_value, thing_object, wall_corner_doors};
use placing::{cells, dcss_transforms, orient, placement};

/// Something of a map that could not be kept, and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// What was dropped or approximated.
    pub what: String,
    /// The line that says it.
    pub at: Location,
}

/// Where a vault goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Orient {
    /// No `ORIENT`: a minivault, over open ground.
    Mini,
    /// `ORIENT: float`: anywhere.
    Float,
    /// `ORIENT: encompass`: the whole level.
    Encompass,
    /// `ORIENT: centre`, a side or a corner: a prefabric anchor name.
    Anchor(&'static str),
}

/// An object line of the vault's definition file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its reference character.
    pub reference: char,
    /// The kind of object.
    pub kind: Kind,
    /// The alternatives, `nothing` left out, with their weights.
    pub alts: Vec<Alt>,
    /// Percent chance that the line places anything (DCSS's `nothing`).
    pub chance: u32,
    /// DCSS's weight of `nothing`, written as a `nothing` alternative, when the
    /// chance is no whole percent and each cell draws on its own; else 0.
    pub nothing: u32,
    /// One draw for every cell (`:`), rather than one per cell.
    pub once: bool,
}

impl Line {
    /// Its alternatives, with `nothing` at its weight when it keeps one (see
    /// [`Line::nothing`]).
    pub fn with_nothing(&self) -> Vec<Alt> {
        let mut alts = self.alts.clone();
        if self.nothing > 0 {
            alts.push(Alt {
                tag: "nothing".into(),
                name: "nothing".into(),
                weight: self.nothing,
                keywords: Vec::new(),
            });
        }
        alts
    }
}

/// A translated map.
#[derive(Clone, Debug)]
pub struct Vault {
    /// The prefab's name in prefabric.
    pub name: String,
    /// The name in DCSS.
    pub dcss_name: String,
    /// Where it goes.
    pub orient: Orient,
    /// The drawing, glyphs renamed; `?` where the vault is not drawn.
    pub grid: Vec<Vec<char>>,
    /// The variation rules, glyphs renamed, in order.
    pub rules: Vec<Rule>,
    /// What each glyph an outcome may hold means: terrain and reference.
    pub legend: BTreeMap<char, (String, Option<char>)>,
    /// The cell marks (`KMASK`, `KPROP`) of the cells holding each glyph, sorted.
    pub marks: BTreeMap<char, Vec<String>>,
    /// Its definition lines.
    pub lines: Vec<Line>,
    /// The orientations DCSS may give it (of the drawing as written).
    pub transforms: TransformSet,
    /// Its DCSS tags, kept as prefab tags.
    pub tags: Vec<String>,
    /// Absolute depths it may appear at, sorted and disjoint; empty when DCSS
    /// never picks it by depth.
    pub depth: Vec<Depths>,
    /// Its weight.
    pub weight: u32,
    /// Most times in one world (DCSS uses a map once a game unless `allow_dup`).
    pub max_per_world: Option<u32>,
    /// Most times in one map (`luniq`).
    pub max_per_map: Option<u32>,
    /// An exclusion group (`luniq_FOO`, `buniq_FOO`).
    pub group: Option<String>,
    /// A world group (`uniq_FOO`: one of the group per game).
    pub world_group: Option<String>,
    /// Nothing may spawn in it (`no_monster_gen`, `no_item_gen`, `no_trap_gen`).
    pub spawn_block: bool,
    /// Cells of the drawing that are exits (`@`), where the level joins it.
    pub exits: Vec<Point>,
    /// What could not be kept.
    pub losses: Vec<Loss>,
    /// How the game it is imported for steps: what joins its floor.
    pub moves: Moves,
}

/// Why a map is not imported, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    /// The reason, short enough to count by (`uses Lua`).
    pub reason: String,
    /// Details: the line or directive.
    pub detail: String,
    /// Where.
    pub at: Location,
}

/// Directives that change only how DCSS draws its levels: dropped, no loss.
const COSMETIC: [&str; 11] = [
    "COLOUR",
    "FTILE",
    "RTILE",
    "TILE",
    "LFLOORCOL",
    "LROCKCOL",
    "LFLOORTILE",
    "LROCKTILE",
    "DESC",
    "ORDER",
    "WELCOME",
];

/// Glyphs prefabric reserves in a drawing, and what the importer draws instead.
const RENAMED: [(char, char); 12] = [
    ('0', '⓪'),
    ('1', '①'),
    ('2', '②'),
    ('3', '③'),
    ('4', '④'),
    ('5', '⑤'),
    ('6', '⑥'),
    ('7', '⑦'),
    ('8', '⑧'),
    ('9', '⑨'),
    ('*', '✱'),
    ('?', '¿'),
];

/// A DCSS glyph as the importer draws it.
pub fn rename(g: char) -> char {
    RENAMED.iter().find(|(d, _)| *d == g).map_or(g, |&(_, p)| p)
}

/// The DCSS glyph a drawn glyph stands for.
fn original(g: char) -> char {
    RENAMED.iter().find(|(_, p)| *p == g).map_or(g, |&(d, _)| d)
}

/// `MONS` or `ITEM` slots in order, each with the line that gives it.
type Slots<'h> = Vec<(&'h str, &'h Header)>;

/// The `K…` directives of one glyph.
#[derive(Default)]
struct KLines<'h> {
    feature: Option<&'h Header>,
    monster: Option<&'h Header>,
    item: Option<&'h Header>,
}

/// The first control character in what the import would write of `map` (its
/// name, its header lines, its grid), and where: none is in any DCSS file,
/// and written into the pack one would spoil a file (a NUL makes it binary
/// data to the pack, every vault in it lost). A tab is blank in a header
/// line, but no glyph in a grid.
fn control_character(map: &DesMap) -> Option<(Location, char)> {
    let control = |text: &str, tab_too: bool| text.chars().position(|c| c.is_control() && (tab_too || c != '\t'));
    let char_at = |text: &str, k: usize| text.chars().nth(k).unwrap_or_default();
    if let Some(k) = control(&map.name, true) {
        return Some((map.at.clone(), char_at(&map.name, k)));
    }
    for h in map.headers.iter().chain(&map.default_depth) {
        if let Some(k) = control(&h.key, true) {
            return Some((h.at.clone(), char_at(&h.key, k)));
        }
        if let Some(k) = control(&h.value, false) {
            return Some((h.at.clone(), char_at(&h.value, k)));
        }
    }
    map.grid.iter().enumerate().find_map(|(row, line)| {
        let k = control(line, true)?;
        let line_number = map.grid_line.map_or(map.at.line, |l| l + 1 + row as u32);
        Some((Location::at(map.at.file.clone(), line_number, k as u32 + 1), char_at(line, k)))
    })
}

/// Translates one map; `file` names the `.des` file for messages.
pub fn translate(map: &DesMap, moves: Moves) -> Result<Vault, Skip> {
    let skip = |reason: &str, detail: String, at: &Location| Skip { reason: reason.into(), detail, at: at.clone() };
    if let Some(e) = &map.broken {
        return Err(skip("malformed", e.message().to_string(), e.location().unwrap_or(&map.at)));
    }
    if let Some(l) = map.lua.first() {
        return Err(skip("uses Lua", l.what.clone(), &l.at));
    }
    if let Some(h) = map.all("MARKER").find(|h| h.value.contains("lua:")) {
        return Err(skip("uses Lua", "a `MARKER` with `lua:`".into(), &h.at));
    }
    if let Some(h) = map.first("SUBVAULT") {
        return Err(skip("sub-vaults", "`SUBVAULT` fills part of it with another vault".into(), &h.at));
    }
    let tags: Vec<String> = map.all("TAGS").flat_map(|h| h.value.split_whitespace()).map(str::to_string).collect();
    if tags.iter().any(|t| t == "dummy") {
        return Err(skip("dummy", "a stub that places nothing".into(), &map.at));
    }
    if map.grid.is_empty() {
        return Err(skip("no grid", "no `MAP` block".into(), &map.at));
    }
    if let Some((at, c)) = control_character(map) {
        let detail = format!("it holds the control character U+{:04X}, which no `.des` file has", c as u32);
        return Err(skip("malformed", detail, &at));
    }
    let mut losses: Vec<Loss> = Vec::new();
    let loss = |losses: &mut Vec<Loss>, what: String, at: &Location| losses.push(Loss { what, at: at.clone() });

    // The glyph rules, in the order written; the K-lines by glyph.
    let mut rules: Vec<Rule> = Vec::new();
    let mut klines: BTreeMap<char, KLines<'_>> = BTreeMap::new();
    let mut marks: BTreeMap<char, Vec<String>> = BTreeMap::new();
    let (mut mons, mut items): (Slots<'_>, Slots<'_>) = (Vec::new(), Vec::new());
    for h in &map.headers {
        let read = match h.key.as_str() {
            "SUBST" => rules::subst(&h.value),
            "NSUBST" => rules::nsubst(&h.value),
            "SHUFFLE" => rules::shuffle(&h.value),
            "CLEAR" => rules::clear(&h.value),
            "KFEAT" | "KMONS" | "KITEM" => {
                let Some((glyphs_text, _)) = h.value.split_once(['=', ':']) else {
                    return Err(skip("unreadable directive", format!("`{}: {}` has no `=`", h.key, h.value), &h.at));
                };
                for g in glyphs_text.chars().filter(|c| !c.is_whitespace()) {
                    let k = klines.entry(g).or_default();
                    let slot = match h.key.as_str() {
                        "KFEAT" => &mut k.feature,
                        "KMONS" => &mut k.monster,
                        _ => &mut k.item,
                    };
                    if slot.is_some() {
                        loss(&mut losses, format!("a second `{}` for `{g}`", h.key), &h.at);
                    }
                    *slot = Some(h);
                }
                continue;
            }
            "MONS" => {
                mons.extend(objects::slots(&h.value).into_iter().map(|s| (s, h)));
                continue;
            }
            "ITEM" => {
                items.extend(objects::slots(&h.value).into_iter().map(|s| (s, h)));
                continue;
            }
            "KPROP" | "KMASK" => {
                match cell_marks(&h.value) {
                    Some((glyphs, names)) => {
                        for g in glyphs {
                            marks.entry(rename(g)).or_default().extend(names.iter().cloned());
                        }
                    }
                    None => loss(&mut losses, format!("`{}` (cell properties) not kept", h.key), &h.at),
                }
                continue;
            }
            "MARKER" => {
                loss(&mut losses, "`MARKER` not kept".into(), &h.at);
                continue;
            }
            "CHANCE" => {
                loss(&mut losses, "`CHANCE` (a roll per level) not kept".into(), &h.at);
                continue;
            }
            "FHEIGHT" => {
                loss(&mut losses, "`FHEIGHT` (tide heights) not kept".into(), &h.at);
                continue;
            }
            "TAGS" | "DEPTH" | "PLACE" | "ORIENT" | "WEIGHT" => continue,
            key if COSMETIC.contains(&key) => continue,
            key => {
                loss(&mut losses, format!("`{key}` not understood"), &h.at);
                continue;
            }
        };
        match read {
            Ok(r) => rules.extend(r),
            Err(e) => return Err(skip("unreadable directive", format!("`{}`: {e}", h.key), &h.at)),
        }
    }

    // The drawing: rows padded to the widest; glyphs prefabric reserves renamed.
    let width = map.grid.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut grid: Vec<Vec<char>> = map
        .grid
        .iter()
        .map(|r| {
            let mut row: Vec<char> = r.chars().map(rename).collect();
            row.resize(width, ' ');
            row
        })
        .collect();
    let mut renamed: Vec<Rule> = rules.iter().map(|r| r.renamed(rename)).collect();
    let exits: Vec<Point> = cells(&grid).filter(|&(_, g)| g == '@').map(|(p, _)| p).collect();

    // `CLEAR` of glyphs no earlier rule touches: those cells are not drawn. A
    // glyph an earlier rule writes or rewrites cannot be taken out of the
    // drawing (prefabric never varies whether a cell is drawn): its cells are
    // kept as floor, a loss.
    let mut kept = Vec::new();
    let mut cleared_to_floor: BTreeSet<char> = BTreeSet::new();
    for rule in renamed.drain(..) {
        if let Rule::Clear { glyphs } = &rule {
            let touched = kept.iter().any(|r: &Rule| r.from().iter().chain(&r.writes()).any(|g| glyphs.contains(g)));
            if touched {
                let at = map.all("CLEAR").next().map_or(&map.at, |h| &h.at);
                let names: String = glyphs.iter().map(|&g| original(g)).collect();
                losses.push(Loss {
                    what: format!("`CLEAR` of `{names}` after a rule changes them: kept as floor"),
                    at: at.clone(),
                });
                cleared_to_floor.extend(glyphs.iter().copied());
                continue;
            }
            for row in &mut grid {
                row.iter_mut().filter(|g| glyphs.contains(g)).for_each(|g| *g = ' ');
            }
            continue;
        }
        kept.push(rule);
    }
    // Rules that find nothing to rewrite do nothing in DCSS either: dropped.
    let drawn: BTreeSet<char> = grid.iter().flatten().copied().filter(|&g| g != ' ').collect();
    let mut rules = rules::live(&drawn, kept);

    // Every glyph an outcome may hold.
    let mut finals: BTreeSet<char> = BTreeSet::new();
    for &g in &drawn {
        finals.extend(rules::glyph_sets(g, &rules));
    }

    // What each means, references assigned kind by kind.
    let mut refs = RefChars::default();
    let mut legend = BTreeMap::new();
    let mut lines = Vec::new();
    let mut extra_rules = Vec::new();
    // The fresh glyph each alternative of a `KFEAT` became, and the glyph it
    // stands for, whose cell marks it carries.
    let mut stands_for: Vec<(char, char)> = Vec::new();
    for &g in &finals {
        let dcss = original(g);
        let k = klines.get(&dcss);
        let mut meaning = if cleared_to_floor.contains(&g) {
            Meaning { terrain: Some("room"), thing: None }
        } else {
            glyphs::glyph(dcss)
        };
        let mut line_at = map.at.clone();
        // `KFEAT`: terrain (alternatives become a last rule over fresh glyphs),
        // or a feature prop or trap.
        if let Some(h) = k.and_then(|k| k.feature) {
            line_at = h.at.clone();
            let (once, value) = k_value(&h.value);
            let names = feature_alternatives(value, &h.at, &mut losses);
            let meanings: Vec<(Meaning, u32)> =
                names.iter().filter_map(|(n, w)| glyphs::feature(n).map(|m| (m, *w))).collect();
            if meanings.len() != names.len() || meanings.is_empty() {
                return Err(skip("unknown feature", format!("`KFEAT: {}`", h.value), &h.at));
            }
            if meanings.len() == 1 {
                meaning = meanings[0].0.clone();
            } else if meanings.iter().all(|(m, _)| m.thing.is_none()) {
                // Each alternative terrain a fresh glyph, drawn by a last rule.
                let mut choices = Vec::new();
                for (m, w) in &meanings {
                    let fresh = fresh_glyph(&finals, &legend);
                    legend.insert(fresh, (m.terrain.unwrap_or("room").to_string(), None));
                    stands_for.push((fresh, g));
                    choices.push(rules::Choice { glyph: fresh, weight: *w });
                }
                extra_rules.push(Rule::Subst { from: vec![g], choices, once });
                continue;
            } else {
                losses.push(Loss {
                    what: format!("`KFEAT` alternatives of different kinds for `{dcss}`: the first kept"),
                    at: h.at.clone(),
                });
                meaning = meanings[0].0.clone();
            }
        }
        // `KMONS` and `KITEM` put a monster and items on the cell (floor unless
        // a `KFEAT` says otherwise), over a feature that does not block: a stack
        // of definition lines for one reference, the monster's last so it is
        // drawn on top.
        let mut objects: Vec<(Kind, Vec<Alt>, bool, Location)> = Vec::new();
        let feature = k.and_then(|k| k.feature);
        if let Some(h) = k.and_then(|k| k.item) {
            let (once, value) = k_value(&h.value);
            for item in value.split(',') {
                let mut why = Vec::new();
                let alts = objects::alternatives(item, Kind::Item, &mut why);
                why.into_iter().for_each(|w| losses.push(Loss { what: w, at: h.at.clone() }));
                objects.push((Kind::Item, alts, once, h.at.clone()));
            }
        }
        if let Some(h) = k.and_then(|k| k.monster) {
            let (once, value) = k_value(&h.value);
            let mut why = Vec::new();
            let alts = objects::alternatives(value, Kind::Entity, &mut why);
            why.into_iter().for_each(|w| losses.push(Loss { what: w, at: h.at.clone() }));
            objects.push((Kind::Entity, alts, once, h.at.clone()));
        }
        if !objects.is_empty() {
            if feature.is_none() {
                meaning.terrain = Some("room");
            }
            if let Some(thing) = meaning.thing.take().filter(|_| feature.is_some()) {
                if matches!(thing, Thing::Feature { blocks: false, .. }) {
                    objects.insert(0, thing_object(&thing, &mons, &items, &map.at, &mut losses));
                } else {
                    losses.push(Loss {
                        what: format!(
                            "`{dcss}`: a feature and an object on one cell, the object kept ({thing:?} dropped)"
                        ),
                        at: line_at.clone(),
                    });
                }
            }
        }
        if objects.is_empty() {
            objects.extend(meaning.thing.as_ref().map(|t| thing_object(t, &mons, &items, &map.at, &mut losses)));
        }
        let mut terrain = meaning.terrain.unwrap_or("room").to_string();
        let mut stack: Vec<(Kind, Vec<Alt>, u32, u32, bool)> = Vec::new();
        for (kind, alts, once, at) in objects {
            let total: u32 = alts.iter().map(|a| a.weight).sum();
            let nothing: u32 = alts.iter().filter(|a| a.is_nothing()).map(|a| a.weight).sum();
            let alts: Vec<Alt> = alts.into_iter().filter(|a| !a.is_nothing()).collect();
            if alts.is_empty() || total == 0 {
                continue;
            }
            let share = 100 * (total - nothing);
            // A chance no whole percent gives is kept exactly as a weighted
            // `nothing` alternative when each cell draws on its own; a
            // group's lines (one draw for every cell) cannot hold one.
            let whole = share.is_multiple_of(total);
            let nothing = if whole || once { 0 } else { nothing };
            if !whole && once {
                losses.push(Loss {
                    what: format!("`{dcss}`: chance of nothing rounded to a whole percent"),
                    at: at.clone(),
                });
            }
            let chance = if nothing > 0 { 100 } else { (share + total / 2) / total };
            // Objects stand on walkable ground: a monster DCSS puts in deep
            // water stands in shallow water here.
            if !glyphs::walkable(&terrain) {
                let ground = if terrain.starts_with("liquid") { "room:4" } else { "room" };
                losses.push(Loss {
                    what: format!("`{dcss}`: an object on {terrain}, which prefabric keeps walkable ({ground})"),
                    at: at.clone(),
                });
                terrain = ground.to_string();
            }
            stack.push((kind, alts, chance.clamp(1, 100), nothing, once));
        }
        // The reference character follows the kind on top.
        let Some(top) = stack.last().map(|s| s.0) else {
            legend.insert(g, (terrain, None));
            continue;
        };
        let Some(reference) = refs.next(top) else {
            return Err(skip("too many objects", "more kinds of object than reference characters".into(), &line_at));
        };
        legend.insert(g, (terrain, Some(reference)));
        for (kind, alts, chance, nothing, once) in stack {
            lines.push(Line { reference, kind, alts, chance, nothing, once });
        }
    }
    rules.extend(extra_rules);
    for line in &lines {
        let tags: Vec<&str> = line.alts.iter().map(|a| a.tag.as_str()).collect();
        if !picks::weights_kept(&line.with_nothing(), line.once) {
            losses.push(Loss {
                what: format!("weights of `{}` not kept (too many to repeat)", tags.join("|")),
                at: map.at.clone(),
            });
        }
        let common = picks::common_keywords(&line.alts);
        if line.alts.iter().any(|a| a.keywords.len() != common.len()) {
            losses.push(Loss {
                what: format!("modifiers of only some of `{}` not kept", tags.join("|")),
                at: map.at.clone(),
            });
        }
    }

    // DCSS steps diagonally: only for a game that does not are doors entered
    // across a corner walled.
    let corner_doors = match moves {
        Moves::Orthogonal => wall_corner_doors(&mut grid, &rules, &legend),
        Moves::Diagonal => Vec::new(),
    };
    for at in corner_doors {
        losses.push(Loss {
            what: format!(
                "door at x={} y={} entered only across a corner: walled (the pack's walkers step no diagonals)",
                at.x, at.y
            ),
            at: map.at.clone(),
        });
    }

    let transforms = dcss_transforms(&tags);
    let orient = orient(map, &mut losses);
    let (depth, weight, mut depth_losses) = placement(map);
    losses.append(&mut depth_losses);
    let mut max_per_world = (!tags.iter().any(|t| t == "allow_dup")).then_some(1);
    let mut max_per_map = None;
    let (mut group, mut world_group) = (None, None);
    for t in &tags {
        if t == "luniq" {
            max_per_map = Some(1);
        } else if let Some(g) = t.strip_prefix("luniq_") {
            group = Some(format!("luniq_{g}"));
        } else if let Some(g) = t.strip_prefix("uniq_") {
            world_group = Some(format!("uniq_{g}"));
            max_per_world = Some(1);
        } else if let Some(g) = t.strip_prefix("buniq_") {
            group = Some(format!("buniq_{g}"));
            losses.push(Loss {
                what: format!("`{t}`: one of the group per branch kept as one per level"),
                at: map.at.clone(),
            });
        }
    }
    let spawn_block = tags.iter().any(|t| matches!(t.as_str(), "no_monster_gen" | "no_item_gen" | "no_trap_gen"));
    let unrand = tags.iter().any(|t| t == "unrand" || t.contains("entry") || t == "arrival");
    let depth = if unrand { Vec::new() } else { depth };
    Ok(Vault {
        name: tag_of(&map.name),
        dcss_name: map.name.clone(),
        orient,
        grid: grid.into_iter().map(|row| row.into_iter().map(|g| if g == ' ' { '?' } else { g }).collect()).collect(),
        rules,
        marks: stands_for
            .iter()
            .filter_map(|&(fresh, g)| Some((fresh, marks.get(&g)?.clone())))
            .collect::<Vec<_>>()
            .into_iter()
            .chain(marks)
            .filter(|(g, _)| legend.contains_key(g))
            .map(|(g, mut names)| {
                names.sort();
                names.dedup();
                (g, names)
            })
            .filter(|(_, names)| !names.is_empty())
            .collect(),
        legend,
        lines,
        transforms,
        tags,
        depth,
        weight,
        max_per_world,
        max_per_map,
        group,
        world_group,
        spawn_block,
        exits,
        losses,
        moves,
    })
}
