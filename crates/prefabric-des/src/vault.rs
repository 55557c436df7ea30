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

use super::depth::{self, Depths};
use super::glyphs::{self, Meaning, Thing, tag_of};
use super::objects::{self, Alt, Kind};
use super::picks;
use super::read::{DesMap, Header};
use super::rules::{self, Rule};
use prefabric::error::Location;
use prefabric::geom::{Moves, Point, Transform, TransformSet};
use std::collections::{BTreeMap, BTreeSet};

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

/// The glyphs and the cell marks of a `KMASK` or `KPROP` value (`wl =
/// no_monster_gen`), each property a mark of the same name; `None` when it
/// cannot be kept: a property taken away (`!no_monster_gen`), drawn at random
/// among several (`bloody / nothing`), or with no name prefabric can write.
///
/// Some properties are kept by leaving them out. DCSS's level fixups (turning
/// lone pools and walls into their neighbours) have no counterpart in
/// prefabric, so masking cells from them changes nothing. Nor does `opaque`,
/// which lets DCSS's level-connectivity check pass over cells: a vault is
/// imported only when all its floor is one area the level reaches, and every
/// prefabric map keeps all its floor reachable, masked or not. Nor does
/// `bloody`: prefabric draws no blood.
fn cell_marks(value: &str) -> Option<(Vec<char>, Vec<String>)> {
    let (glyphs, properties) = value.split_once(['=', ':'])?;
    let unkept = |p: &str| matches!(p, "no_pool_fixup" | "no_wall_fixup" | "opaque" | "bloody");
    let items: Vec<&str> = properties.split(['/', '|']).map(str::trim).collect();
    // Alternatives that all leave nothing to keep are kept, whichever is drawn.
    if items.iter().all(|i| {
        unkept(i.trim_start_matches('!'))
            || i.split_whitespace().all(|w| w == "bloody" || w == "nothing" || w.starts_with("w:"))
    }) {
        return Some((Vec::new(), Vec::new()));
    }
    let [item] = items[..] else { return None };
    let names: Vec<String> =
        item.split([',', ' ']).filter(|n| !n.is_empty() && !unkept(n)).map(str::to_string).collect();
    let writable = |n: &String| {
        n.len() <= 40
            && n.starts_with(|c: char| c.is_ascii_lowercase())
            && n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    names.iter().all(writable).then(|| (glyphs.chars().filter(|c| !c.is_whitespace()).collect(), names))
}

/// DCSS steps diagonally and draws doors at a vault's corners, entered across
/// them; a pack whose `moves` is orthogonal joins cells by their sides only. A
/// door no side of which touches a cell that may be walkable would be cut off
/// from the vault's floor: it takes the glyph of a wall beside it (one no rule
/// changes). Returns where.
fn wall_corner_doors(
    grid: &mut [Vec<char>],
    rules: &[Rule],
    legend: &BTreeMap<char, (String, Option<char>)>,
) -> Vec<Point> {
    let finals = |g: char| super::rules::glyph_sets(g, rules);
    let terrain = |g: char| legend.get(&g).map(|(t, _)| t.as_str());
    let may_walk = |g: char| finals(g).iter().any(|&f| terrain(f).is_some_and(glyphs::walkable));
    let fixed = |g: char| rules.iter().all(|r| !r.from().contains(&g));
    let is_door = |g: char| fixed(g) && terrain(g).is_some_and(|t| t.split(':').next() == Some("door"));
    let is_wall = |g: char| fixed(g) && terrain(g).is_some_and(|t| !glyphs::walkable(t) && t.starts_with("wall"));
    let (h, w) = (grid.len() as i32, grid.first().map_or(0, Vec::len) as i32);
    let glyph =
        |grid: &[Vec<char>], x: i32, y: i32| (x >= 0 && y >= 0 && x < w && y < h).then(|| grid[y as usize][x as usize]);
    let mut walled = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if !is_door(grid[y as usize][x as usize]) {
                continue;
            }
            let sides: Vec<char> = [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                .into_iter()
                .filter_map(|(a, b)| glyph(grid, a, b))
                .collect();
            if sides.iter().any(|&g| may_walk(g)) {
                continue;
            }
            if let Some(&wall) = sides.iter().find(|&&g| is_wall(g)) {
                grid[y as usize][x as usize] = wall;
                walled.push(Point::new(x, y));
            }
        }
    }
    walled
}

/// `(once, value)` of a `K…` line: `glyphs = alternatives` (each cell on its
/// own) or `glyphs : alternatives` (one for all).
fn k_value(value: &str) -> (bool, &str) {
    match value.find(['=', ':']) {
        Some(i) => (value[i..].starts_with(':'), value[i + 1..].trim()),
        None => (false, value.trim()),
    }
}

/// The alternatives of a `KFEAT` value with their weights: `/`-separated, each
/// a feature name with an optional `w:N` (or `name:N`) weight and `key:value` or
/// `; …` options (a loss); or blank-separated single glyphs and names (`. w`).
fn feature_alternatives(value: &str, at: &Location, losses: &mut Vec<Loss>) -> Vec<(String, u32)> {
    let parts: Vec<&str> = value.split('/').map(str::trim).filter(|p| !p.is_empty()).collect();
    if let [only] = parts.as_slice() {
        let words: Vec<&str> = only.split_whitespace().collect();
        // `. w`, `floor W`: glyphs and terrain names side by side are alternatives;
        // `net trap`, `any shop` are one name.
        let plain = |w: &&str| {
            w.chars().count() == 1 || (!w.contains(':') && glyphs::feature(w).is_some_and(|m| m.thing.is_none()))
        };
        if words.len() > 1 && words.iter().all(plain) && !only.contains("shop") {
            return words.into_iter().map(|w| (w.to_string(), 10)).collect();
        }
    }
    parts
        .into_iter()
        .map(|part| {
            let (main, options) = match part.split_once(';') {
                Some((m, o)) => (m, !o.trim().is_empty()),
                None => (part, false),
            };
            let mut weight = 10;
            let mut words = Vec::new();
            let mut dropped = options;
            for token in main.split_whitespace() {
                let number = |n: &str| {
                    (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit())).then(|| n.parse::<u32>().ok()).flatten()
                };
                match token.split_once(':') {
                    Some(("w" | "weight", n)) if number(n).is_some() => weight = number(n).unwrap_or(10),
                    Some((name, n)) if !name.is_empty() && number(n).is_some() => {
                        weight = number(n).unwrap_or(10);
                        words.push(name);
                    }
                    Some(_) => dropped = true,
                    None if token == "mimic" || token == "no_mimic" => dropped = true,
                    None => words.push(token),
                }
            }
            let name = words.join(" ");
            if dropped {
                losses.push(Loss { what: format!("options of `{name}` not kept"), at: at.clone() });
            }
            (name, weight)
        })
        .collect()
}

/// A glyph no outcome holds and no legend line gives, for a rule's fresh choice.
fn fresh_glyph(finals: &BTreeSet<char>, legend: &BTreeMap<char, (String, Option<char>)>) -> char {
    ('α'..='ω')
        .chain('Α'..='Ω')
        .chain('а'..='я')
        .find(|c| !finals.contains(c) && !legend.contains_key(c))
        .unwrap_or('Ж')
}

/// The object a default glyph places: its slot's spec, or a placeholder.
fn thing_object(
    thing: &Thing,
    mons: &Slots<'_>,
    items: &Slots<'_>,
    at: &Location,
    losses: &mut Vec<Loss>,
) -> (Kind, Vec<Alt>, bool, Location) {
    let mut from_spec = |kind: Kind, spec: &str, h: &Header| {
        let mut why = Vec::new();
        let alts = objects::alternatives(spec, kind, &mut why);
        why.into_iter().for_each(|w| losses.push(Loss { what: w, at: h.at.clone() }));
        (kind, alts, false, h.at.clone())
    };
    match thing {
        Thing::MonsterSlot(n) => match mons.get(usize::from(n.saturating_sub(1))) {
            Some((spec, h)) => from_spec(Kind::Entity, spec, h),
            None => (Kind::Entity, vec![Alt::placeholder("random_monster", Vec::new())], false, at.clone()),
        },
        Thing::ItemSlot(n) => match items.get(usize::from(*n)) {
            Some((spec, h)) => from_spec(Kind::Item, spec, h),
            None => (Kind::Item, vec![Alt::placeholder("random_item", Vec::new())], false, at.clone()),
        },
        Thing::RandomMonster { strong } => {
            let keywords = if *strong { vec!["OUT_OF_DEPTH".to_string()] } else { Vec::new() };
            (Kind::Entity, vec![Alt::placeholder("random_monster", keywords)], false, at.clone())
        }
        Thing::RandomItem { bonus } => {
            let keywords = if *bonus > 0 { vec![format!("LEVEL_BONUS={bonus}")] } else { Vec::new() };
            (Kind::Item, vec![Alt::placeholder("random_item", keywords)], false, at.clone())
        }
        Thing::Gold => (Kind::Item, vec![Alt::placeholder("gold", Vec::new())], false, at.clone()),
        Thing::RandomTrap => (Kind::Trap, vec![Alt::placeholder("random_trap", Vec::new())], false, at.clone()),
        Thing::Feature { tag, .. } => (Kind::Prop, vec![Alt::placeholder(tag, Vec::new())], false, at.clone()),
        Thing::Trap(tag) => (Kind::Trap, vec![Alt::placeholder(tag, Vec::new())], false, at.clone()),
    }
}

/// Reference characters by kind, after seed 000's convention: lower case for
/// monsters, digits for items, upper case for props and traps.
#[derive(Default)]
struct RefChars {
    used: BTreeSet<char>,
}

impl RefChars {
    fn next(&mut self, kind: Kind) -> Option<char> {
        let preferred: Vec<char> = match kind {
            Kind::Entity => ('a'..='z').collect(),
            Kind::Item => ('0'..='9').chain('!'..='/').collect(),
            Kind::Prop | Kind::Trap => ('A'..='Z').collect(),
        };
        let spare = ('a'..='z').chain('A'..='Z').chain('0'..='9').chain("!$%&()+,-/;<=>[]^_{|}~".chars());
        let c = preferred.into_iter().chain(spare).find(|c| !self.used.contains(c) && !matches!(c, '.' | '#' | '@'))?;
        self.used.insert(c);
        Some(c)
    }
}

/// The orientations DCSS gives a map: any mix of a horizontal mirror, a
/// vertical mirror and a quarter turn either way, each unless its tag forbids it.
fn dcss_transforms(tags: &[String]) -> TransformSet {
    let has = |t: &str| tags.iter().any(|x| x == t);
    let mirrors_h: &[bool] = if has("no_hmirror") { &[false] } else { &[false, true] };
    let mirrors_v: &[bool] = if has("no_vmirror") { &[false] } else { &[false, true] };
    let turns: &[u8] = if has("no_rotate") { &[0] } else { &[0, 1, 3] };
    let (h, v) = (Transform::new(0, true), Transform::new(2, true));
    let mut set = TransformSet::EMPTY;
    for &mh in mirrors_h {
        for &mv in mirrors_v {
            for &q in turns {
                let mut t = Transform::IDENTITY;
                if mh {
                    t = t.then(h);
                }
                if mv {
                    t = t.then(v);
                }
                set = set.with(t.then(Transform::new(q, false)));
            }
        }
    }
    set
}

/// Where the map goes, from its `ORIENT` line.
fn orient(map: &DesMap, losses: &mut Vec<Loss>) -> Orient {
    let Some(h) = map.first("ORIENT") else { return Orient::Mini };
    match h.value.trim() {
        "float" => Orient::Float,
        "encompass" => Orient::Encompass,
        "centre" | "center" => Orient::Anchor("centre"),
        "north" => Orient::Anchor("north"),
        "south" => Orient::Anchor("south"),
        "east" => Orient::Anchor("east"),
        "west" => Orient::Anchor("west"),
        "northeast" => Orient::Anchor("north-east"),
        "northwest" => Orient::Anchor("north-west"),
        "southeast" => Orient::Anchor("south-east"),
        "southwest" => Orient::Anchor("south-west"),
        other => {
            losses.push(Loss {
                what: format!("`ORIENT: {other}` not understood: placed as a minivault"),
                at: h.at.clone(),
            });
            Orient::Mini
        }
    }
}

/// Depths and weight: `DEPTH` lines (else `PLACE`, else the file's
/// `default-depth`), `WEIGHT`; and what could not be kept.
fn placement(map: &DesMap) -> (Vec<Depths>, u32, Vec<Loss>) {
    let mut losses = Vec::new();
    let depth_lines: Vec<&Header> = map.all("DEPTH").collect();
    let source: Vec<&Header> = if !depth_lines.is_empty() {
        depth_lines
    } else if let Some(p) = map.first("PLACE") {
        vec![p]
    } else {
        map.default_depth.iter().collect()
    };
    let mut ranges: Vec<Depths> = Vec::new();
    for h in source {
        let spec = depth::spec(&h.value);
        losses.extend(spec.losses.into_iter().map(|what| Loss { what, at: h.at.clone() }));
        ranges.extend(spec.ranges);
    }
    let range = depth::union(ranges);
    let mut weight = 10;
    if let Some(h) = map.first("WEIGHT") {
        match depth::weight(&h.value) {
            Ok((w, qualified)) => {
                weight = w;
                if qualified {
                    losses.push(Loss { what: "weights by depth kept as one weight".into(), at: h.at.clone() });
                }
            }
            Err(e) => losses.push(Loss { what: format!("`WEIGHT`: {e}"), at: h.at.clone() }),
        }
    }
    (range, weight, losses)
}

/// Every cell of a grid with its glyph.
fn cells(grid: &[Vec<char>]) -> impl Iterator<Item = (Point, char)> + '_ {
    grid.iter()
        .enumerate()
        .flat_map(|(y, row)| row.iter().enumerate().map(move |(x, &g)| (Point::new(x as i32, y as i32), g)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::read;

    fn one(text: &str) -> Result<Vault, Skip> {
        let f = read("t.des", text);
        translate(&f.maps[0], Moves::Diagonal)
    }

    #[test]
    fn a_plain_vault_keeps_its_drawing_meanings_and_objects() {
        let v =
            one("NAME: small_one\nDEPTH: D:2-4\nTAGS: no_rotate allow_dup\nMAP\nxxxxx\nx.1.x\nx.*.x\nxx+xx\nENDMAP\n")
                .expect("imports");
        assert_eq!(v.name, "small_one");
        assert_eq!(v.grid[1], ['x', '.', '①', '.', 'x']);
        assert_eq!(v.legend[&'x'].0, "wall");
        assert_eq!(v.legend[&'+'].0, "door");
        let (terrain, reference) = &v.legend[&'①'];
        assert_eq!((terrain.as_str(), reference.is_some()), ("room", true));
        assert_eq!(v.lines.len(), 2);
        assert_eq!(v.lines[0].alts[0].tag, "random_monster");
        assert_eq!(v.lines[1].alts[0].keywords, ["LEVEL_BONUS=5"]);
        assert_eq!(v.depth, [(2, 4)]);
        assert_eq!(v.max_per_world, None, "allow_dup");
        assert_eq!(v.transforms.len(), 4, "mirrors only: {}", v.transforms.describe());
        assert!(v.losses.is_empty(), "{:?}", v.losses);
    }

    #[test]
    fn rules_k_lines_and_slots_translate() {
        let text = "NAME: rules\nMONS: orc / goblin w:5, rat\nITEM: potion of curing\nSUBST: a = x.\nNSUBST: b = 1:2 / *:.\nKFEAT: c = altar_zin\nKMONS: e = generate_awake ogre\nKFEAT: f = w / l\nMAP\nab1c\nedf.\nENDMAP\n";
        let v = one(text).expect("imports");
        assert_eq!(v.rules.len(), 3, "{:?}", v.rules);
        assert!(
            matches!(&v.rules[2], Rule::Subst { from, .. } if from == &['f']),
            "KFEAT alternatives become a last rule"
        );
        let orc = v.lines.iter().find(|l| l.alts[0].tag == "orc").expect("slot 1");
        assert_eq!(
            orc.alts.iter().map(|a| (a.tag.as_str(), a.weight)).collect::<Vec<_>>(),
            [("orc", 10), ("goblin", 5)]
        );
        assert!(v.lines.iter().any(|l| l.alts[0].tag == "rat"), "slot 2 through NSUBST");
        assert!(v.lines.iter().any(|l| l.alts[0].tag == "potion_of_curing"), "d is item slot 1");
        assert!(v.lines.iter().any(|l| l.alts[0].tag == "altar_zin" && l.kind == Kind::Prop));
        assert!(v.lines.iter().any(|l| l.alts[0].tag == "ogre" && l.alts[0].keywords == ["GENERATE_AWAKE"]));
        assert!(v.losses.is_empty(), "{:?}", v.losses);
    }

    #[test]
    fn lua_subvaults_and_dummies_are_skipped_with_their_line() {
        let s = one("NAME: l\n: if x then\nMAP\n.\nENDMAP\n").expect_err("lua");
        assert_eq!((s.reason.as_str(), s.at.line), ("uses Lua", 2));
        assert_eq!(one("NAME: s\nSUBVAULT: a : t\nMAP\na\nENDMAP\n").expect_err("sub").reason, "sub-vaults");
        assert_eq!(one("NAME: d\nTAGS: dummy\nMAP\n.\nENDMAP\n").expect_err("dummy").reason, "dummy");
        assert_eq!(one("NAME: n\nTAGS: x\n").expect_err("grid").reason, "no grid");
        // Cell properties become cell marks of the glyph's legend line; one
        // taken away, or drawn at random, is a loss.
        let k =
            one("NAME: k\nKMASK: a = no_monster_gen\nKPROP: ab = no_tele_into\nMAP\nab\nENDMAP\n").expect("imports");
        assert!(k.losses.is_empty(), "{:?}", k.losses);
        assert_eq!(k.marks[&'a'], ["no_monster_gen", "no_tele_into"]);
        assert_eq!(k.marks[&'b'], ["no_tele_into"]);
        let r = one("NAME: r\nKMASK: a = !no_monster_gen\nKPROP: a = no_cloud_gen / nothing\nMAP\na\nENDMAP\n")
            .expect("imports with losses");
        assert_eq!(r.losses.len(), 2, "{:?}", r.losses);
        assert!(r.marks.is_empty());
        // Masks from DCSS's level fixups, which prefabric never runs, lose nothing.
        let f = one("NAME: f\nKMASK: a = no_pool_fixup / !no_wall_fixup\nMAP\na\nENDMAP\n").expect("imports");
        assert!(f.losses.is_empty(), "{:?}", f.losses);
        // Nor does `opaque`: the imported floor is one area the map reaches.
        let o = one("NAME: o\nKMASK: a = opaque\nKMASK: b = !opaque\nMAP\nab\nENDMAP\n").expect("imports");
        assert!(o.losses.is_empty(), "{:?}", o.losses);
        let mixed = one("NAME: m\nKMASK: a = no_pool_fixup / no_item_gen\nMAP\na\nENDMAP\n").expect("imports");
        assert_eq!(mixed.losses.len(), 1);
    }

    #[test]
    fn dcss_orientations_become_transform_sets() {
        let tags = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(dcss_transforms(&tags(&[])), TransformSet::ALL);
        assert_eq!(dcss_transforms(&tags(&["no_rotate", "no_hmirror", "no_vmirror"])), TransformSet::IDENTITY);
        let turns_only = dcss_transforms(&tags(&["no_hmirror", "no_vmirror"]));
        assert_eq!(turns_only.describe(), "r0 r90 r270", "no half turn without both mirrors");
    }
}
