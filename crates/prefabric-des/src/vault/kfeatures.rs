//! The cell directives of a `.des` map (`KFEAT`, `KMONS`, `KITEM`, `KMASK`,
//! `KPROP`) and the glyphs and objects they give a vault.
//!
//! In: a directive's value as written. Out: what [`super::translate`] keeps
//! of it — the cells marked and the properties kept, feature alternatives with
//! their weights, a glyph no other cell uses, the object a thing stands for —
//! with every part that cannot be kept recorded as a loss at its line.

use super::{Loss, Slots};
use crate::glyphs::{self, Thing};
use crate::objects::{self, Alt, Kind};
use crate::read::Header;
use crate::rules::Rule;
use prefabric::error::Location;
use prefabric::geom::Point;
use std::collections::{BTreeMap, BTreeSet};

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
pub(super) fn cell_marks(value: &str) -> Option<(Vec<char>, Vec<String>)> {
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
pub(super) fn wall_corner_doors(
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
pub(super) fn k_value(value: &str) -> (bool, &str) {
    match value.find(['=', ':']) {
        Some(i) => (value[i..].starts_with(':'), value[i + 1..].trim()),
        None => (false, value.trim()),
    }
}

/// The alternatives of a `KFEAT` value with their weights: `/`-separated, each
/// a feature name with an optional `w:N` (or `name:N`) weight and `key:value` or
/// `; …` options (a loss); or blank-separated single glyphs and names (`. w`).
pub(super) fn feature_alternatives(value: &str, at: &Location, losses: &mut Vec<Loss>) -> Vec<(String, u32)> {
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
pub(super) fn fresh_glyph(finals: &BTreeSet<char>, legend: &BTreeMap<char, (String, Option<char>)>) -> char {
    ('α'..='ω')
        .chain('Α'..='Ω')
        .chain('а'..='я')
        .find(|c| !finals.contains(c) && !legend.contains_key(c))
        .unwrap_or('Ж')
}

/// The object a default glyph places: its slot's spec, or a placeholder.
pub(super) fn thing_object(
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
pub(super) struct RefChars {
    used: BTreeSet<char>,
}

impl RefChars {
    pub(super) fn next(&mut self, kind: Kind) -> Option<char> {
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
