//! The catalog: the game's objects that definition files draw from.
//!
//! `catalog/*.toml` files list entities (robots, creatures: tag, classes,
//! categories, rating), items (category, rating, prototype, faulty variant, which
//! entities carry them), props and machines (size, interactive, tier), traps
//! (category, rating), debris and the game keywords definition lines may write per
//! kind ([`super::keywords`]) — any kind in any file. Reading checks every value and every
//! cross-reference (a faulty variant that is an item, carriers that are entities,
//! tags unique per kind) and reports every problem at its `file:line:col`. The
//! [`Catalog`] answers what the objects stage asks: an entity of a class for a
//! depth, an item of a category for a depth, what an entity carries, and whether
//! a prop is a machine that blocks walkers ([`Prop::blocks`]). Lookups by tag
//! and per item or trap category go through an index made once when the
//! catalog is read, so a catalog of 100,000 items answers as quickly as a
//! small one.

use super::keywords::{Allowed, GameKeywords};
use crate::error::{Error, ErrorKind, LineIndex, Location};
use crate::format::def::{DefLine, Pick};
use crate::format::parse_toml;
use crate::map::ObjectKind;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use toml::Spanned;

/// Highest rating an entity, item or trap may have.
pub const MAX_RATING: u32 = 20;

/// The glyph of an item whose catalog gives neither it nor its category one.
pub const ITEM_GLYPH: char = '*';

/// The glyph of debris whose catalog entry gives none.
pub const DEBRIS_GLYPH: char = ',';

pub use super::kind::Kind;

/// A robot or creature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entity {
    /// Unique among entities.
    pub tag: Arc<str>,
    /// The name players see.
    pub name: String,
    /// Classes it belongs to.
    pub classes: Vec<String>,
    /// Categories it belongs to.
    pub categories: Vec<String>,
    /// The depth it belongs to, 1–20.
    pub rating: u32,
}

/// Something to pick up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Unique among items.
    pub tag: Arc<str>,
    /// The name players see.
    pub name: String,
    /// Its category.
    pub category: String,
    /// The depth it belongs to, 1–20.
    pub rating: u32,
    /// A better, rarer version.
    pub prototype: bool,
    /// The tag of its faulty variant, if it has one.
    pub faulty: Option<String>,
    /// Entities that carry it.
    pub carried_by: Vec<String>,
    /// The glyph that draws it on maps: its own `glyph`, else its category's
    /// in `[item_glyphs]`, else [`ITEM_GLYPH`].
    pub glyph: char,
}

/// A prop or machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prop {
    /// Unique among props.
    pub tag: Arc<str>,
    /// The name players see.
    pub name: String,
    /// Width and height in cells.
    pub size: (u8, u8),
    /// Whether players can use it.
    pub interactive: bool,
    /// 1–5.
    pub tier: u32,
    /// For an interactive machine: its type (`terminal`, `fabricator`...). The
    /// furnishing stage picks a type by weight, then the tier by depth.
    pub machine_type: Option<String>,
    /// For a non-interactive machine: the themed set the furnishing stage fills
    /// areas from.
    pub set: Option<String>,
    /// Its line art, `size.1` rows of `size.0` glyphs, row-major; every cell of the
    /// footprint is drawn. A box outline when the file gives none.
    pub art: Vec<char>,
    /// Whether it may be turned to fit (most machines may).
    pub rotate: bool,
}

impl Prop {
    /// True when it is a machine, which blocks walkers wherever it is placed: one
    /// furnishing places (it has a `type` or a `set`), or one covering more than
    /// one cell. Furnishing, definition files and a prefab's named machine-layer
    /// machines all place it as [`crate::map::ObjectKind::Machine`]; the other
    /// props stand on floor a walker may cross.
    pub fn blocks(&self) -> bool {
        self.size != (1, 1) || self.machine_type.is_some() || self.set.is_some()
    }

    /// The glyph drawn at `(x, y)` of its unturned footprint.
    pub fn glyph(&self, x: i32, y: i32) -> char {
        let w = i32::from(self.size.0);
        self.art.get((y * w + x) as usize).copied().unwrap_or('?')
    }
}

/// The art of a prop whose file draws none: a box outline of its footprint.
fn box_art(w: u8, h: u8) -> Vec<char> {
    let (w, h) = (usize::from(w), usize::from(h));
    let mut art = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let (top, bottom, left, right) = (y == 0, y + 1 == h, x == 0, x + 1 == w);
            art.push(match (w, h) {
                (1, 1) => '■',
                (_, 1) => {
                    if left {
                        '╞'
                    } else if right {
                        '╡'
                    } else {
                        '═'
                    }
                }
                (1, _) => {
                    if top {
                        '╥'
                    } else if bottom {
                        '╨'
                    } else {
                        '║'
                    }
                }
                _ => match (top, bottom, left, right) {
                    (true, _, true, _) => '┌',
                    (true, _, _, true) => '┐',
                    (_, true, true, _) => '└',
                    (_, true, _, true) => '┘',
                    (true, ..) | (_, true, ..) => '─',
                    (.., true, _) | (.., true) => '│',
                    _ => '▒',
                },
            });
        }
    }
    art
}

/// A trap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trap {
    /// Unique among traps.
    pub tag: Arc<str>,
    /// The name players see.
    pub name: String,
    /// The depth it belongs to, 1–20.
    pub rating: u32,
    /// Its category (`explosive`, `alarm`...), which `trap category:NAME` picks
    /// from; `None` when the catalog gives none (then only `trap any` and its tag
    /// pick it).
    pub category: Option<String>,
}

/// Debris.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Debris {
    /// Unique among debris.
    pub tag: Arc<str>,
    /// The name players see.
    pub name: String,
    /// The glyph that draws it on maps: its own `glyph`, else [`DEBRIS_GLYPH`].
    pub glyph: char,
}

/// Where the catalog says which glyph draws an item or debris, for the lint that
/// keeps glyphs apart: a `glyph` written on an entry, a category's line in
/// `[item_glyphs]`, or the first entry of a kind or category drawn with the
/// fallback glyph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GlyphSite {
    /// [`Kind::Item`] or [`Kind::Debris`].
    pub kind: Kind,
    /// What the glyph draws, as a phrase: "items of category `power`", "debris `oil_slick`".
    pub what: String,
    /// The glyph.
    pub glyph: char,
    /// Where it is written (the value), or the first entry drawn with a fallback.
    pub at: Location,
    /// True when nothing names the glyph: the fallback draws these.
    pub fallback: bool,
}

/// Every object of a pack, checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Catalog {
    entities: Vec<Entity>,
    items: Vec<Item>,
    props: Vec<Prop>,
    traps: Vec<Trap>,
    debris: Vec<Debris>,
    /// Tags of the items that are another item's faulty variant.
    faulty_variants: BTreeSet<String>,
    /// For each item (in file order), whether it is another item's faulty
    /// variant: the stages ask this of every item each map, and an index reads
    /// faster than a lookup by tag.
    is_faulty: Vec<bool>,
    /// Class -> the indices of its entities, in file order: definition lines
    /// ask for a class's members dozens of times a map.
    entities_by_class: BTreeMap<String, Vec<u32>>,
    /// Item category -> the glyph that draws its items.
    item_glyphs: BTreeMap<String, char>,
    /// Where each glyph of items and debris comes from, in file order.
    pub(crate) glyph_sites: Vec<GlyphSite>,
    /// The game keywords declared in `[keywords.KIND]` tables.
    keywords: GameKeywords,
    /// Lookups by tag and by category, made once the entries are read.
    index: Index,
}

/// What the loaders and the stages look up in a catalog, made once when it is
/// read: a lookup each instead of a pass over every entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Index {
    /// Per kind, in [`Kind::ALL`] order: each tag and its first entry.
    by_tag: [BTreeMap<Arc<str>, u32>; 5],
    /// Each item category, with what is asked of it.
    item_categories: BTreeMap<String, ItemCategory>,
    /// The lowest rating of an item that may be chosen on its own.
    lowest_item: Option<u32>,
    /// Each trap category, with the lowest rating of its traps.
    trap_categories: BTreeMap<String, u32>,
    /// The lowest rating of a trap.
    lowest_trap: Option<u32>,
    /// Every entity tag some item names as its carrier.
    carriers: BTreeSet<String>,
    /// The items that may be chosen on their own, common ones first then
    /// prototypes, each by rating (lowest first) then in file order: every
    /// category's, and per category.
    ranked: [Vec<u32>; 2],
    /// The same per item category.
    ranked_in: BTreeMap<String, [Vec<u32>; 2]>,
}

/// What is asked of an item category.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct ItemCategory {
    /// The lowest rating of its items that may be chosen on their own.
    lowest: Option<u32>,
    /// True when one of its items is neither a prototype nor a faulty variant:
    /// furnishing may stockpile or strew it.
    stocked: bool,
}

impl Index {
    /// The index of what `catalog` holds (its faulty variants known).
    fn of(catalog: &Catalog) -> Index {
        let mut index = Index::default();
        fn tags<'a>(map: &mut BTreeMap<Arc<str>, u32>, tags: impl Iterator<Item = &'a Arc<str>>) {
            for (i, tag) in (0u32..).zip(tags) {
                // The first of a tag given twice (an error) is the one found.
                map.entry(tag.clone()).or_insert(i);
            }
        }
        let [entities, items, props, traps, debris] = &mut index.by_tag;
        tags(entities, catalog.entities.iter().map(|e| &e.tag));
        tags(items, catalog.items.iter().map(|e| &e.tag));
        tags(props, catalog.props.iter().map(|e| &e.tag));
        tags(traps, catalog.traps.iter().map(|e| &e.tag));
        tags(debris, catalog.debris.iter().map(|e| &e.tag));
        let lower = |lowest: &mut Option<u32>, rating: u32| *lowest = Some(lowest.map_or(rating, |r| r.min(rating)));
        for (item, &faulty) in catalog.items.iter().zip(&catalog.is_faulty) {
            let category = match index.item_categories.get_mut(&item.category) {
                Some(category) => category,
                None => index.item_categories.entry(item.category.clone()).or_default(),
            };
            if !faulty {
                lower(&mut category.lowest, item.rating);
                lower(&mut index.lowest_item, item.rating);
                category.stocked |= !item.prototype;
            }
            for carrier in &item.carried_by {
                if !index.carriers.contains(carrier) {
                    index.carriers.insert(carrier.clone());
                }
            }
        }
        for (i, (item, &faulty)) in (0u32..).zip(catalog.items.iter().zip(&catalog.is_faulty)) {
            if !faulty {
                let prototype = usize::from(item.prototype);
                index.ranked[prototype].push(i);
                index.ranked_in.entry(item.category.clone()).or_default()[prototype].push(i);
            }
        }
        let by_rating = |list: &mut Vec<u32>| list.sort_by_key(|&i| (catalog.items[i as usize].rating, i));
        index.ranked.iter_mut().for_each(by_rating);
        index.ranked_in.values_mut().flatten().for_each(by_rating);
        for trap in &catalog.traps {
            if let Some(category) = &trap.category {
                let lowest = index.trap_categories.entry(category.clone()).or_insert(trap.rating);
                *lowest = (*lowest).min(trap.rating);
            }
            lower(&mut index.lowest_trap, trap.rating);
        }
        index
    }

    /// The first entry of `kind` tagged `tag`, by its place among its kind.
    fn find(&self, kind: Kind, tag: &str) -> Option<usize> {
        let at = Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
        self.by_tag[at].get(tag).map(|&i| i as usize)
    }
}

impl Catalog {
    /// The game keywords the catalog declares (`[keywords.KIND]`).
    pub fn keywords(&self) -> &GameKeywords {
        &self.keywords
    }

    /// The glyph `[item_glyphs]` gives items of `category`, if it gives one.
    pub fn category_glyph(&self, category: &str) -> Option<char> {
        self.item_glyphs.get(category).copied()
    }

    /// The glyph that draws the object of `kind` tagged `tag` on a map, when the
    /// catalog decides it: items and debris (see [`Item::glyph`], [`Debris::glyph`]).
    /// `None` for other kinds, drawn with their reference character, and for tags
    /// the catalog lacks.
    pub fn glyph_of(&self, kind: Kind, tag: &str) -> Option<char> {
        match kind {
            Kind::Item => self.item(tag).map(|i| i.glyph),
            Kind::Debris => self.index.find(Kind::Debris, tag).map(|i| self.debris[i].glyph),
            _ => None,
        }
    }

    /// True when the item tagged `tag` is another item's faulty variant: it is
    /// only ever placed in place of that item, never chosen on its own.
    pub fn is_faulty_variant(&self, tag: &str) -> bool {
        self.faulty_variants.contains(tag)
    }

    /// The items that may be chosen on their own, in file order: every item but
    /// the faulty variants of others.
    pub(crate) fn standalone_items(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().zip(&self.is_faulty).filter(|&(_, &faulty)| !faulty).map(|(item, _)| item)
    }

    /// Every entity, in file order.
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// Every item, in file order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// Every prop, in file order.
    pub fn props(&self) -> &[Prop] {
        &self.props
    }

    /// Every trap, in file order.
    pub fn traps(&self) -> &[Trap] {
        &self.traps
    }

    /// Every debris, in file order.
    pub fn debris(&self) -> &[Debris] {
        &self.debris
    }

    /// True when an object of `kind` with `tag` exists.
    pub fn has(&self, kind: Kind, tag: &str) -> bool {
        self.index.find(kind, tag).is_some()
    }

    /// Every tag of `kind`, for suggestions.
    pub fn tags(&self, kind: Kind) -> Vec<&str> {
        match kind {
            Kind::Entity => self.entities.iter().map(|e| e.tag.as_ref()).collect(),
            Kind::Item => self.items.iter().map(|e| e.tag.as_ref()).collect(),
            Kind::Prop => self.props.iter().map(|e| e.tag.as_ref()).collect(),
            Kind::Trap => self.traps.iter().map(|e| e.tag.as_ref()).collect(),
            Kind::Debris => self.debris.iter().map(|e| e.tag.as_ref()).collect(),
        }
    }

    /// The name of the entry `tag` for an object of `kind` (a machine with a
    /// tag is a catalog prop the furnishing stage stood up); `None` when the
    /// catalog has no such entry.
    pub fn name_of(&self, kind: ObjectKind, tag: &str) -> Option<&str> {
        match kind {
            ObjectKind::Entity => self.entity(tag).map(|e| e.name.as_str()),
            ObjectKind::Item => self.item(tag).map(|i| i.name.as_str()),
            ObjectKind::Prop | ObjectKind::Machine => self.prop(tag).map(|p| p.name.as_str()),
            ObjectKind::Trap => self.index.find(Kind::Trap, tag).map(|i| self.traps[i].name.as_str()),
            ObjectKind::Debris => self.index.find(Kind::Debris, tag).map(|i| self.debris[i].name.as_str()),
        }
    }

    /// The entity with this tag.
    pub fn entity(&self, tag: &str) -> Option<&Entity> {
        self.index.find(Kind::Entity, tag).map(|i| &self.entities[i])
    }

    /// The item with this tag.
    pub fn item(&self, tag: &str) -> Option<&Item> {
        self.index.find(Kind::Item, tag).map(|i| &self.items[i])
    }

    /// The prop with this tag.
    pub fn prop(&self, tag: &str) -> Option<&Prop> {
        self.index.find(Kind::Prop, tag).map(|i| &self.props[i])
    }

    /// The interactive machines of `machine_type`, every tier, in file order.
    pub fn machines_of_type<'a, 'n>(&'a self, machine_type: &'n str) -> impl Iterator<Item = &'a Prop> + use<'a, 'n> {
        self.props.iter().filter(move |p| p.machine_type.as_deref() == Some(machine_type))
    }

    /// The non-interactive machines of themed set `set`, in file order.
    pub fn set_members<'a, 'n>(&'a self, set: &'n str) -> impl Iterator<Item = &'a Prop> + use<'a, 'n> {
        self.props.iter().filter(move |p| p.set.as_deref() == Some(set))
    }

    /// True when some entity belongs to `class`.
    pub fn has_class(&self, class: &str) -> bool {
        self.entities_by_class.contains_key(class)
    }

    /// True when some item has `category`.
    pub fn has_item_category(&self, category: &str) -> bool {
        self.index.item_categories.contains_key(category)
    }

    /// True when some trap has `category`.
    pub fn has_trap_category(&self, category: &str) -> bool {
        self.index.trap_categories.contains_key(category)
    }

    /// Every item category, sorted, each once.
    pub(crate) fn item_categories(&self) -> impl Iterator<Item = &str> {
        self.index.item_categories.keys().map(String::as_str)
    }

    /// True when an item of `category` is neither a prototype nor a faulty
    /// variant: one furnishing may stockpile or strew.
    pub(crate) fn is_stocked_category(&self, category: &str) -> bool {
        self.index.item_categories.get(category).is_some_and(|c| c.stocked)
    }

    /// True when some item names `carrier` among the entities that carry it.
    pub(crate) fn is_carrier(&self, carrier: &str) -> bool {
        self.index.carriers.contains(carrier)
    }

    /// The items that may be chosen on their own, of `category` (every
    /// category's with `None`), prototypes or common ones, by rating (lowest
    /// first) then in file order, as places in [`items`](Catalog::items).
    pub(crate) fn ranked_items(&self, category: Option<&str>, prototype: bool) -> &[u32] {
        let lists = match category {
            None => Some(&self.index.ranked),
            Some(c) => self.index.ranked_in.get(c),
        };
        lists.map_or(&[], |l| &l[usize::from(prototype)])
    }

    /// The items of `lists` (from [`ranked_items`](Catalog::ranked_items)) rated
    /// within `ratings`, in file order.
    pub(crate) fn items_rated(&self, lists: &[&[u32]], ratings: std::ops::RangeInclusive<u32>) -> Vec<&Item> {
        let mut chosen: Vec<u32> = Vec::new();
        for list in lists {
            let from = list.partition_point(|&i| self.items[i as usize].rating < *ratings.start());
            let to = list.partition_point(|&i| self.items[i as usize].rating <= *ratings.end());
            chosen.extend_from_slice(&list[from..to.max(from)]);
        }
        chosen.sort_unstable();
        chosen.dedup();
        chosen.into_iter().map(|i| &self.items[i as usize]).collect()
    }

    /// The highest rating at or below `rating` among the items of `lists`.
    pub(crate) fn best_rating_up_to(&self, lists: &[&[u32]], rating: u32) -> Option<u32> {
        let rated = |i: u32| self.items[i as usize].rating;
        lists.iter().filter_map(|l| l[..l.partition_point(|&i| rated(i) <= rating)].last().map(|&i| rated(i))).max()
    }

    /// The lowest rating among the items of `lists`.
    pub(crate) fn lowest_rating(&self, lists: &[&[u32]]) -> Option<u32> {
        lists.iter().filter_map(|l| l.first().map(|&i| self.items[i as usize].rating)).min()
    }

    /// The lowest of [`pickable_ratings`](Catalog::pickable_ratings).
    pub(crate) fn lowest_pickable_rating(&self, kind: Kind, category: Option<&str>) -> Option<u32> {
        match (kind, category) {
            (Kind::Item, None) => self.index.lowest_item,
            (Kind::Item, Some(c)) => self.index.item_categories.get(c).and_then(|c| c.lowest),
            (Kind::Trap, None) => self.index.lowest_trap,
            (Kind::Trap, Some(c)) => self.index.trap_categories.get(c).copied(),
            _ => None,
        }
    }

    /// The ratings of the objects of `kind` that `category:NAME` (or `any`, with
    /// `None`) could pick at some depth: items (not faulty variants) or traps.
    pub fn pickable_ratings(&self, kind: Kind, category: Option<&str>) -> Vec<u32> {
        match kind {
            Kind::Item => {
                self.standalone_items().filter(|i| category.is_none_or(|c| i.category == c)).map(|i| i.rating).collect()
            }
            Kind::Trap => self
                .traps
                .iter()
                .filter(|t| category.is_none_or(|c| t.category.as_deref() == Some(c)))
                .map(|t| t.rating)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The entities of `class` (and `category`, if given) that suit `depth`: those
    /// of the highest rating at or below it. With `fallback`, the weakest of the
    /// class when none is at or below the depth. In file order.
    pub fn class_members(&self, class: &str, category: Option<&str>, depth: u32, fallback: bool) -> Vec<&Entity> {
        let of_class = self.entities_by_class.get(class).map_or(&[][..], Vec::as_slice);
        let members: Vec<&Entity> = of_class
            .iter()
            .map(|&i| &self.entities[i as usize])
            .filter(|e| category.is_none_or(|cat| e.categories.iter().any(|c| c == cat)))
            .collect();
        let best = members.iter().filter(|e| e.rating <= depth).map(|e| e.rating).max();
        let rating = match best {
            Some(r) => r,
            None if fallback => match members.iter().map(|e| e.rating).min() {
                Some(r) => r,
                None => return Vec::new(),
            },
            None => return Vec::new(),
        };
        members.into_iter().filter(|e| e.rating == rating).collect()
    }
}

/// How far below the depth an item "near the depth" may be rated.
const ITEM_BAND: u32 = 2;

/// The percentage chance a prototype item picked without NEVERFAULTY turns out to
/// be its faulty variant.
pub const FAULTY_PERCENT: u32 = 25;

/// A catalog entry a definition line's alternative can give at some depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate<'c> {
    /// Its tag.
    pub tag: &'c str,
    /// Its rating, for entities and items.
    pub rating: Option<u32>,
    /// The faulty variant it turns into [`FAULTY_PERCENT`] of the time, if it can.
    pub faulty: Option<&'c str>,
}

impl Catalog {
    /// What one alternative (`pick`) of definition `line` of this `kind` can give at
    /// `depth`, each equally likely; empty when nothing qualifies. A tag gives
    /// itself; a class its members for the depth (STRONG one level up, FALLBACK to
    /// the weakest); `carried-by:` the items that entity carries; a category or
    /// `any` the items rated near the depth (within two levels below it plus
    /// RATING=+N, or the best below that), prototypes only with PROTOTYPE — a
    /// common item when no prototype is rated that low; `nothing` nothing.
    pub fn candidates<'c>(&'c self, kind: Kind, pick: &'c Pick, line: &DefLine, depth: u32) -> Vec<Candidate<'c>> {
        let entity = |e: &'c Entity| Candidate { tag: &e.tag, rating: Some(e.rating), faulty: None };
        let item = |i: &'c Item| Candidate { tag: &i.tag, rating: Some(i.rating), faulty: None };
        match pick {
            Pick::Tag(tag) => {
                let rating = match kind {
                    Kind::Entity => self.entity(tag).map(|e| e.rating),
                    Kind::Item => self.item(tag).map(|i| i.rating),
                    Kind::Trap => self.index.find(Kind::Trap, tag).map(|i| self.traps[i].rating),
                    _ => None,
                };
                vec![Candidate { tag, rating, faulty: None }]
            }
            Pick::Class(class) => {
                let depth = depth.saturating_add(u32::from(line.has("STRONG")));
                let members = self.class_members(class, line.value_of("CATEGORY"), depth, line.has("FALLBACK"));
                members.into_iter().map(entity).collect()
            }
            Pick::CarriedBy(carrier) => {
                self.items.iter().filter(|i| i.carried_by.iter().any(|c| c == carrier)).map(item).collect()
            }
            Pick::Category(c) if kind == Kind::Trap => self.traps_near(Some(c), line, depth),
            Pick::Any if kind == Kind::Trap => self.traps_near(None, line, depth),
            Pick::Category(c) => self.items_near(Some(c), line, depth),
            Pick::Any => self.items_near(None, line, depth),
            Pick::Nothing => Vec::new(),
        }
    }

    /// The traps of `category` (any with `None`) near `depth`, as items are: rated
    /// at most the depth plus RATING=+N and at least two levels below it (or the
    /// best rated below that).
    fn traps_near(&self, category: Option<&str>, line: &DefLine, depth: u32) -> Vec<Candidate<'_>> {
        let target = depth.saturating_add(line.rating_bonus());
        let pool: Vec<&Trap> = self
            .traps
            .iter()
            .filter(|t| category.is_none_or(|c| t.category.as_deref() == Some(c)))
            .filter(|t| t.rating <= target)
            .collect();
        let Some(best) = pool.iter().map(|t| t.rating).max() else { return Vec::new() };
        let floor = best.min(target.saturating_sub(ITEM_BAND));
        pool.into_iter()
            .filter(|t| t.rating >= floor)
            .map(|t| Candidate { tag: &t.tag, rating: Some(t.rating), faulty: None })
            .collect()
    }

    /// The items of `category` (any with `None`) near `depth`; see [`Catalog::candidates`].
    fn items_near(&self, category: Option<&str>, line: &DefLine, depth: u32) -> Vec<Candidate<'_>> {
        let target = depth.saturating_add(line.rating_bonus());
        let prototype = line.has("PROTOTYPE");
        // The items rated at most the target, by rating: prototypes with
        // PROTOTYPE when one is rated that low, else common ones.
        let mut ranked = self.ranked_items(category, prototype);
        if prototype && self.best_rating_up_to(&[ranked], target).is_none() {
            ranked = self.ranked_items(category, false);
        }
        let Some(best) = self.best_rating_up_to(&[ranked], target) else { return Vec::new() };
        let floor = best.min(target.saturating_sub(ITEM_BAND));
        let may_be_faulty = !line.has("NEVERFAULTY");
        self.items_rated(&[ranked], floor..=target)
            .into_iter()
            .map(|i| Candidate {
                tag: &i.tag,
                rating: Some(i.rating),
                faulty: i.faulty.as_deref().filter(|_| i.prototype && may_be_faulty),
            })
            .collect()
    }
}

// ---- the files as written ----

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct CatalogFile {
    #[serde(default)]
    entity: Vec<Spanned<EntityFile>>,
    #[serde(default)]
    item: Vec<Spanned<ItemFile>>,
    #[serde(default)]
    prop: Vec<Spanned<PropFile>>,
    #[serde(default)]
    trap: Vec<Spanned<TrapFile>>,
    #[serde(default)]
    debris: Vec<Spanned<DebrisFile>>,
    /// Item category -> the glyph its items are drawn with.
    #[serde(default)]
    item_glyphs: BTreeMap<Spanned<String>, Spanned<String>>,
    /// Kind -> game keyword -> what it takes.
    #[serde(default)]
    keywords: BTreeMap<Spanned<String>, BTreeMap<Spanned<String>, Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntityFile {
    tag: Spanned<String>,
    #[serde(default)]
    name: Option<String>,
    classes: Spanned<Vec<String>>,
    #[serde(default)]
    categories: Vec<String>,
    rating: Spanned<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemFile {
    tag: Spanned<String>,
    #[serde(default)]
    name: Option<String>,
    category: String,
    rating: Spanned<u32>,
    #[serde(default)]
    glyph: Option<Spanned<String>>,
    #[serde(default)]
    prototype: bool,
    #[serde(default)]
    faulty: Option<Spanned<String>>,
    #[serde(default)]
    carried_by: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PropFile {
    tag: Spanned<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default = "one_by_one")]
    size: Spanned<[u8; 2]>,
    #[serde(default)]
    interactive: bool,
    #[serde(default = "tier_one")]
    tier: Spanned<u32>,
    #[serde(default, rename = "type")]
    machine_type: Option<Spanned<String>>,
    #[serde(default)]
    set: Option<Spanned<String>>,
    #[serde(default)]
    art: Option<Spanned<Vec<String>>>,
    #[serde(default = "yes")]
    rotate: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrapFile {
    tag: Spanned<String>,
    #[serde(default)]
    name: Option<String>,
    rating: Spanned<u32>,
    #[serde(default)]
    category: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DebrisFile {
    tag: Spanned<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    glyph: Option<Spanned<String>>,
}

fn one_by_one() -> Spanned<[u8; 2]> {
    Spanned::new(0..0, [1, 1])
}

fn tier_one() -> Spanned<u32> {
    Spanned::new(0..0, 1)
}

/// Checks a prop's `type` and `set`: words, `type` only on interactive props and
/// `set` only on the others.
fn check_prop_names(p: &PropFile, tag: &str, invalid: &mut dyn FnMut(std::ops::Range<usize>, String)) {
    let word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if let Some(ty) = &p.machine_type {
        if !word(ty.get_ref()) {
            invalid(ty.span(), format!("type `{}` may only use letters, digits, `_` and `-`", ty.get_ref()));
        }
        if !p.interactive {
            invalid(
                ty.span(),
                format!(
                    "prop `{tag}` has a `type` but is not interactive; types group interactive machines (add `interactive = true`, or use `set` for a themed set of non-interactive ones)"
                ),
            );
        }
    }
    if let Some(set) = &p.set {
        if !word(set.get_ref()) {
            invalid(set.span(), format!("set `{}` may only use letters, digits, `_` and `-`", set.get_ref()));
        }
        if p.interactive {
            invalid(
                set.span(),
                format!(
                    "prop `{tag}` is interactive but names a `set`; sets hold non-interactive machines (use `type` for interactive ones)"
                ),
            );
        }
    }
}

/// Reads a prop's `art`: one string per row, `size` glyphs each, every glyph one
/// that code page 437 has (maps are also written as REXPaint images) and none a
/// blank.
fn prop_art(
    art: &Spanned<Vec<String>>,
    (w, h): (u8, u8),
    tag: &str,
    invalid: &mut dyn FnMut(std::ops::Range<usize>, String),
) -> Vec<char> {
    let rows = art.get_ref();
    let fallback = box_art(w.clamp(1, 9), h.clamp(1, 9));
    if rows.len() != usize::from(h) {
        invalid(art.span(), format!("prop `{tag}` has {} rows of art but is {h} high (size [{w}, {h}])", rows.len()));
        return fallback;
    }
    let mut glyphs = Vec::with_capacity(usize::from(w) * usize::from(h));
    for (y, row) in rows.iter().enumerate() {
        let n = row.chars().count();
        if n != usize::from(w) {
            invalid(
                art.span(),
                format!("row {} of prop `{tag}`'s art is {n} glyphs wide but the prop is {w} wide", y + 1),
            );
            return fallback;
        }
        for c in row.chars() {
            if c.is_whitespace() || c.is_control() {
                invalid(
                    art.span(),
                    format!("row {} of prop `{tag}`'s art has a blank; every cell of a footprint is drawn", y + 1),
                );
                return fallback;
            }
            if crate::format::cp437::from_char(c).is_none() {
                invalid(
                    art.span(),
                    format!(
                        "prop `{tag}`'s art uses `{c}`, which code page 437 lacks, so maps could not be written as .xp"
                    ),
                );
                return fallback;
            }
            glyphs.push(c);
        }
    }
    glyphs
}

/// The glyph an item or debris entry declares for itself, as a site the glyph
/// checks can point at; `None` when it declares none (or an invalid one, which
/// `invalid` has been told about).
fn declared_glyph(
    kind: Kind,
    what: String,
    declared: Option<&Spanned<String>>,
    at: &dyn Fn(std::ops::Range<usize>) -> Location,
    invalid: &mut dyn FnMut(std::ops::Range<usize>, String),
) -> Option<GlyphSite> {
    let declared = declared?;
    let glyph = read_glyph(declared, &what, invalid)?;
    Some(GlyphSite { kind, what, glyph, at: at(declared.span()), fallback: false })
}

/// Reads a glyph the catalog draws something with: one character, not blank, that
/// code page 437 has (maps are also written as REXPaint images). `what` names the
/// owner in the message.
fn read_glyph(
    value: &Spanned<String>,
    what: &str,
    invalid: &mut dyn FnMut(std::ops::Range<usize>, String),
) -> Option<char> {
    let text = value.get_ref();
    let mut chars = text.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        invalid(value.span(), format!("the glyph of {what} must be one character, not `{text}`"));
        return None;
    };
    if c.is_whitespace() || c.is_control() {
        invalid(value.span(), format!("the glyph of {what} is blank; maps would not show it"));
        return None;
    }
    if crate::format::cp437::from_char(c).is_none() {
        invalid(
            value.span(),
            format!("the glyph of {what} is `{c}`, which code page 437 lacks, so maps could not be written as .xp"),
        );
        return None;
    }
    Some(c)
}

/// Reads one file's `[keywords.KIND]` tables into `keywords`: each kind one of
/// the five, each name upper case and not built in, each declaration one of
/// [`Allowed`]'s forms, each name declared once per kind across files.
fn read_keywords(
    tables: &BTreeMap<Spanned<String>, BTreeMap<Spanned<String>, Spanned<String>>>,
    keywords: &mut GameKeywords,
    at: &dyn Fn(std::ops::Range<usize>) -> Location,
    declared_at: &mut BTreeMap<(Kind, String), Location>,
    invalid: &mut dyn FnMut(std::ops::Range<usize>, String),
) {
    for (kind_name, table) in tables {
        let Some(kind) = Kind::parse(kind_name.get_ref()) else {
            let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
            invalid(
                kind_name.span(),
                format!("`[keywords.{}]` is not a kind; kinds are {}", kind_name.get_ref(), names.join(", ")),
            );
            continue;
        };
        let mut entries: Vec<_> = table.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        for (name, spec) in entries {
            let n = name.get_ref();
            let upper = n.starts_with(|c: char| c.is_ascii_uppercase())
                && n.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            if !upper || crate::format::def::BUILT_IN_KEYWORDS.contains(&n.as_str()) {
                invalid(
                    name.span(),
                    format!("`{n}` cannot be declared: game keywords are upper case and not one of the built-in ones"),
                );
                continue;
            }
            let Some(allowed) = Allowed::parse(spec.get_ref()) else {
                invalid(
                    spec.span(),
                    format!(
                        "`{}` is not what a keyword takes: write \"yes|no\" (words), \"1..9\" (integers), \"*\" (any value) or \"\" (no value)",
                        spec.get_ref()
                    ),
                );
                continue;
            };
            if let Some(first) = declared_at.get(&(kind, n.clone())) {
                invalid(
                    name.span(),
                    format!("{} keyword `{n}` is declared twice (the first is at {first})", kind.name()),
                );
                continue;
            }
            declared_at.insert((kind, n.clone()), at(name.span()));
            keywords.declare(kind, n, allowed);
        }
    }
}

/// An item's references to check once every file is read: where its tag is, its
/// faulty variant, its carriers (each located), and its tag.
type ItemRefs = (Location, Option<String>, Vec<(Location, String)>, String);

/// Reads every catalog file (`(file, text)`, in path order) into one catalog, or
/// returns every problem found.
#[cfg(test)]
pub(crate) fn read(files: &[(&str, &str)]) -> Result<Catalog, Vec<Error>> {
    let (catalog, errors) = read_partial(files);
    if errors.is_empty() { Ok(catalog) } else { Err(errors) }
}

/// Reads every catalog file into one catalog and every problem found: what could
/// be read is kept (a prop whose art is wrong keeps a box), so one bad value does
/// not make every definition file that names the catalog fail as well.
pub(crate) fn read_partial(files: &[(&str, &str)]) -> (Catalog, Vec<Error>) {
    let mut errors = Vec::new();
    let mut catalog = Catalog::default();
    // Where each tag was first given, per kind, for duplicates and references.
    let mut first: BTreeMap<(Kind, String), Location> = BTreeMap::new();
    let mut item_refs: Vec<ItemRefs> = Vec::new();
    // Items and debris with no glyph of their own: kind, category, tag, where,
    // and the index of the entry among its kind.
    let mut unglyphed: Vec<(Kind, String, String, Location, usize)> = Vec::new();
    // `[item_glyphs]` entries: category, glyph, where the key and the value are.
    let mut category_glyphs: Vec<(String, char, Location, Location)> = Vec::new();
    let mut all_parsed = true;
    // Where each game keyword was first declared, per kind.
    let mut declared_at: BTreeMap<(Kind, String), Location> = BTreeMap::new();
    for &(file, text) in files {
        let raw: CatalogFile = match parse_toml(file, text) {
            Ok(raw) => raw,
            Err(e) => {
                errors.push(e);
                all_parsed = false;
                continue;
            }
        };
        let lines = LineIndex::new(text);
        let at = |span: std::ops::Range<usize>| lines.locate(file, text, span.start);
        let mut invalid = |span: std::ops::Range<usize>, message: String| {
            errors.push(Error::at(ErrorKind::Invalid, at(span), message));
        };
        let mut tag = |kind: Kind, tag: &Spanned<String>, invalid: &mut dyn FnMut(std::ops::Range<usize>, String)| {
            let t = tag.get_ref();
            if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')) {
                invalid(tag.span(), format!("tag `{t}` may only use letters, digits, `_`, `-` and `.`"));
            }
            match first.get(&(kind, t.clone())) {
                Some(loc) => {
                    invalid(tag.span(), format!("a second {} tagged `{t}` (the first is at {loc})", kind.name()))
                }
                None => {
                    first.insert((kind, t.clone()), at(tag.span()));
                }
            }
            t.clone()
        };
        let rating = |r: &Spanned<u32>, invalid: &mut dyn FnMut(std::ops::Range<usize>, String)| {
            if !(1..=MAX_RATING).contains(r.get_ref()) {
                invalid(r.span(), format!("rating {} must be 1-{MAX_RATING}", r.get_ref()));
            }
            *r.get_ref()
        };
        for e in &raw.entity {
            let e = e.get_ref();
            let t = tag(Kind::Entity, &e.tag, &mut invalid);
            if e.classes.get_ref().is_empty() {
                invalid(e.classes.span(), format!("entity `{t}` has no class"));
            }
            let rating = rating(&e.rating, &mut invalid);
            catalog.entities.push(Entity {
                name: e.name.clone().unwrap_or_else(|| t.clone()),
                tag: t.into(),
                classes: e.classes.get_ref().clone(),
                categories: e.categories.clone(),
                rating,
            });
        }
        for i in &raw.item {
            let i = i.get_ref();
            let t = tag(Kind::Item, &i.tag, &mut invalid);
            let rating = rating(&i.rating, &mut invalid);
            let site = declared_glyph(Kind::Item, format!("item `{t}`"), i.glyph.as_ref(), &at, &mut invalid);
            let glyph = site.as_ref().map(|s| s.glyph);
            match site {
                Some(site) => catalog.glyph_sites.push(site),
                None => {
                    unglyphed.push((Kind::Item, i.category.clone(), t.clone(), at(i.tag.span()), catalog.items.len()))
                }
            }
            item_refs.push((
                at(i.tag.span()),
                i.faulty.as_ref().map(|f| f.get_ref().clone()),
                i.carried_by.iter().map(|c| (at(c.span()), c.get_ref().clone())).collect(),
                t.clone(),
            ));
            catalog.items.push(Item {
                name: i.name.clone().unwrap_or_else(|| t.clone()),
                tag: t.into(),
                category: i.category.clone(),
                rating,
                prototype: i.prototype,
                faulty: i.faulty.as_ref().map(|f| f.get_ref().clone()),
                carried_by: i.carried_by.iter().map(|c| c.get_ref().clone()).collect(),
                glyph: glyph.unwrap_or(ITEM_GLYPH),
            });
        }
        for p in &raw.prop {
            let p = p.get_ref();
            let t = tag(Kind::Prop, &p.tag, &mut invalid);
            let [w, h] = *p.size.get_ref();
            if !(1..=9).contains(&w) || !(1..=9).contains(&h) {
                invalid(p.size.span(), format!("size [{w}, {h}] must be 1-9 on each side"));
            }
            if !(1..=5).contains(p.tier.get_ref()) {
                invalid(p.tier.span(), format!("tier {} must be 1-5", p.tier.get_ref()));
            }
            check_prop_names(p, &t, &mut invalid);
            let art = match &p.art {
                Some(art) => prop_art(art, (w, h), &t, &mut invalid),
                None => box_art(w.clamp(1, 9), h.clamp(1, 9)),
            };
            catalog.props.push(Prop {
                name: p.name.clone().unwrap_or_else(|| t.clone()),
                tag: t.into(),
                size: (w, h),
                interactive: p.interactive,
                tier: *p.tier.get_ref(),
                machine_type: p.machine_type.as_ref().map(|s| s.get_ref().clone()),
                set: p.set.as_ref().map(|s| s.get_ref().clone()),
                art,
                rotate: p.rotate,
            });
        }
        for tr in &raw.trap {
            let tr = tr.get_ref();
            let t = tag(Kind::Trap, &tr.tag, &mut invalid);
            let rating = rating(&tr.rating, &mut invalid);
            let category = tr.category.as_ref().map(|c| {
                let word = c.get_ref();
                if word.is_empty() || !word.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-') {
                    invalid(c.span(), format!("trap category `{word}` may only use letters, digits, `_` and `-`"));
                }
                word.clone()
            });
            catalog.traps.push(Trap {
                name: tr.name.clone().unwrap_or_else(|| t.clone()),
                tag: t.into(),
                rating,
                category,
            });
        }
        for d in &raw.debris {
            let d = d.get_ref();
            let t = tag(Kind::Debris, &d.tag, &mut invalid);
            let site = declared_glyph(Kind::Debris, format!("debris `{t}`"), d.glyph.as_ref(), &at, &mut invalid);
            let glyph = site.as_ref().map(|s| s.glyph);
            match site {
                Some(site) => catalog.glyph_sites.push(site),
                None => {
                    unglyphed.push((Kind::Debris, String::new(), t.clone(), at(d.tag.span()), catalog.debris.len()))
                }
            }
            catalog.debris.push(Debris {
                name: d.name.clone().unwrap_or_else(|| t.clone()),
                tag: t.into(),
                glyph: glyph.unwrap_or(DEBRIS_GLYPH),
            });
        }
        read_keywords(&raw.keywords, &mut catalog.keywords, &at, &mut declared_at, &mut invalid);
        // `[item_glyphs]`, in the order written.
        let mut entries: Vec<(&Spanned<String>, &Spanned<String>)> = raw.item_glyphs.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        for (category, value) in entries {
            let c = category.get_ref();
            let Some(glyph) = read_glyph(value, &format!("item category `{c}`"), &mut invalid) else { continue };
            if let Some(first) = category_glyphs.iter().find(|(name, ..)| name == c).map(|(_, _, key, _)| key.clone()) {
                invalid(category.span(), format!("a second glyph for item category `{c}` (the first is at {first})"));
                continue;
            }
            category_glyphs.push((c.clone(), glyph, at(category.span()), at(value.span())));
        }
    }
    catalog.faulty_variants = catalog.items.iter().filter_map(|i| i.faulty.clone()).collect();
    catalog.is_faulty = catalog.items.iter().map(|i| catalog.faulty_variants.contains(i.tag.as_ref())).collect();
    catalog.index = Index::of(&catalog);
    // Item categories' glyphs, once every file is read: each names a category
    // some item has (unless a file did not parse), and draws that category's
    // items that have no glyph of their own.
    for (category, glyph, key_at, value_at) in category_glyphs {
        if all_parsed && !catalog.has_item_category(&category) {
            let categories: Vec<&str> = catalog.item_categories().collect();
            let help = crate::format::suggest(&category, categories.iter().copied()).map_or_else(
                || format!("item categories are {}", categories.join(", ")),
                |s| format!("did you mean `{s}`?"),
            );
            errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    key_at,
                    format!("`[item_glyphs]` names category `{category}`, which no item has"),
                )
                .with_help(help),
            );
            continue;
        }
        catalog.glyph_sites.push(GlyphSite {
            kind: Kind::Item,
            what: format!("items of category `{category}`"),
            glyph,
            at: value_at,
            fallback: false,
        });
        catalog.item_glyphs.insert(category, glyph);
    }
    let mut fallbacks: BTreeSet<(Kind, String)> = BTreeSet::new();
    for (kind, category, tag, at, index) in unglyphed {
        let glyph = match kind {
            Kind::Item => match catalog.item_glyphs.get(&category) {
                Some(&g) => {
                    catalog.items[index].glyph = g;
                    continue;
                }
                None => ITEM_GLYPH,
            },
            _ => DEBRIS_GLYPH,
        };
        // The first entry drawn with the fallback, per category of items.
        if fallbacks.insert((kind, category.clone())) {
            let what = match kind {
                Kind::Item => format!("items of category `{category}` with no glyph of their own (`{tag}` first)"),
                _ => format!("debris without a glyph of its own (`{tag}` first)"),
            };
            catalog.glyph_sites.push(GlyphSite { kind, what, glyph, at, fallback: true });
        }
    }
    // Cross-references, once every file is read (and only if every one was: what
    // a file that did not parse held is unknown, not missing).
    for (at, faulty, carriers, tag) in item_refs.iter().filter(|_| all_parsed) {
        if let Some(f) = faulty {
            match catalog.item(f) {
                None => errors.push(Error::at(
                    ErrorKind::Invalid,
                    at.clone(),
                    format!("item `{tag}` names faulty variant `{f}`, which is not an item"),
                )),
                Some(v) if v.faulty.is_some() => errors.push(Error::at(
                    ErrorKind::Invalid,
                    at.clone(),
                    format!("item `{tag}`'s faulty variant `{f}` has a faulty variant of its own"),
                )),
                Some(_) => {}
            }
        }
        for (loc, carrier) in carriers {
            if catalog.entity(carrier).is_none() {
                let help = crate::format::suggest(carrier, catalog.entities.iter().map(|e| e.tag.as_ref()))
                    .map_or("carriers are entity tags".to_string(), |s| format!("did you mean `{s}`?"));
                errors.push(
                    Error::at(ErrorKind::Invalid, loc.clone(), format!("no entity tagged `{carrier}` carries `{tag}`"))
                        .with_help(help),
                );
            }
        }
    }
    for (i, entity) in (0u32..).zip(&catalog.entities) {
        for class in &entity.classes {
            let members = catalog.entities_by_class.entry(class.clone()).or_default();
            // An entity that names its class twice is listed once.
            if members.last() != Some(&i) {
                members.push(i);
            }
        }
    }
    (catalog, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
[[entity]]
tag = "w1"
classes = ["worker"]
rating = 1
[[entity]]
tag = "w3"
classes = ["worker"]
categories = ["civilian"]
rating = 3
[[entity]]
tag = "w3b"
classes = ["worker", "hauler"]
rating = 3
[[entity]]
tag = "w6"
classes = ["worker"]
rating = 6
[[item]]
tag = "drill"
category = "utility"
rating = 2
prototype = true
faulty = "drill_faulty"
carried_by = ["w3"]
[[item]]
tag = "drill_faulty"
category = "utility"
rating = 2
[[prop]]
tag = "press"
size = [2, 3]
interactive = true
[[trap]]
tag = "mine"
rating = 4
[[debris]]
tag = "rubble"
"#;

    #[test]
    fn classes_resolve_by_depth_with_fallback() {
        let c = read(&[("c.toml", GOOD)]).unwrap();
        let tags = |v: Vec<&Entity>| v.into_iter().map(|e| e.tag.to_string()).collect::<Vec<String>>();
        assert_eq!(tags(c.class_members("worker", None, 1, false)), ["w1"]);
        assert_eq!(tags(c.class_members("worker", None, 5, false)), ["w3", "w3b"]);
        assert_eq!(tags(c.class_members("worker", Some("civilian"), 5, false)), ["w3"]);
        assert_eq!(tags(c.class_members("worker", None, 20, false)), ["w6"]);
        // Nothing of the class at or below depth 2: only FALLBACK gives the weakest.
        assert!(c.class_members("hauler", None, 2, false).is_empty());
        assert_eq!(tags(c.class_members("hauler", None, 2, true)), ["w3b"]);
        assert!(c.has(Kind::Prop, "press") && c.has(Kind::Debris, "rubble") && !c.has(Kind::Trap, "rubble"));
        assert_eq!(c.item("drill").unwrap().faulty.as_deref(), Some("drill_faulty"));
    }

    #[test]
    fn glyphs_come_from_the_item_then_its_category_then_the_fallback() {
        let glyphs = r#"
[item_glyphs]
utility = "("
[[item]]
tag = "probe"
category = "utility"
rating = 1
glyph = "¢"
[[item]]
tag = "cell"
category = "power"
rating = 1
[[debris]]
tag = "slick"
glyph = "~"
"#;
        // The category's glyph is declared in a file after its items'.
        let c = read(&[("a.toml", GOOD), ("b.toml", glyphs)]).unwrap();
        assert_eq!(c.item("drill").unwrap().glyph, '(');
        assert_eq!(c.item("drill_faulty").unwrap().glyph, '(');
        assert_eq!(c.item("probe").unwrap().glyph, '¢');
        assert_eq!(c.item("cell").unwrap().glyph, ITEM_GLYPH);
        assert_eq!(c.category_glyph("utility"), Some('('));
        assert_eq!(c.category_glyph("power"), None);
        assert_eq!(c.glyph_of(Kind::Debris, "rubble"), Some(DEBRIS_GLYPH));
        assert_eq!(c.glyph_of(Kind::Debris, "slick"), Some('~'));
        assert_eq!(c.glyph_of(Kind::Entity, "w1"), None);
        // Where each glyph comes from, for the lint: written ones at their value,
        // fallbacks at the first entry drawn with them.
        let sites: Vec<String> =
            c.glyph_sites.iter().map(|s| format!("{} `{}` {} {}", s.what, s.glyph, s.at, s.fallback)).collect();
        assert_eq!(
            sites,
            [
                "item `probe` `¢` b.toml:8:9 false",
                "debris `slick` `~` b.toml:15:9 false",
                "items of category `utility` `(` b.toml:3:11 false",
                "debris without a glyph of its own (`rubble` first) `,` a.toml:38:7 true",
                "items of category `power` with no glyph of their own (`cell` first) `*` b.toml:10:7 true",
            ]
        );
    }

    #[test]
    fn bad_glyphs_are_located() {
        let bad = r#"
[item_glyphs]
utilty = "("
power = "ab"
[[item]]
tag = "probe"
category = "utility"
rating = 1
glyph = " "
[[item]]
tag = "cell"
category = "power"
rating = 1
[[debris]]
tag = "slick"
glyph = "€"
"#;
        let all = read(&[("a.toml", bad), ("b.toml", "[item_glyphs]\nutilty = \")\"\n")])
            .unwrap_err()
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n");
        for expected in [
            "a.toml:3:1: invalid: `[item_glyphs]` names category `utilty`, which no item has\n  help: did you mean `utility`?",
            "a.toml:4:9: invalid: the glyph of item category `power` must be one character, not `ab`",
            "a.toml:9:9: invalid: the glyph of item `probe` is blank; maps would not show it",
            "a.toml:16:9: invalid: the glyph of debris `slick` is `€`, which code page 437 lacks, so maps could not be written as .xp",
            "b.toml:2:1: invalid: a second glyph for item category `utilty` (the first is at a.toml:3:1)",
        ] {
            assert!(all.contains(expected), "missing {expected:?} in\n{all}");
        }
    }

    #[test]
    fn keyword_declarations_are_read_and_checked() {
        let good = "[keywords.prop]\nLIT = \"yes|no\"\nLIGHT = \"1..9\"\n";
        let c = read(&[("a.toml", good)]).unwrap();
        assert!(c.keywords().declares(Kind::Prop) && !c.keywords().declares(Kind::Trap));
        assert_eq!(c.keywords().allowed(Kind::Prop, "LIGHT"), Some(&Allowed::Numbers(1, 9)));
        let bad = "[keywords.machine]\nX = \"\"\n[keywords.trap]\nlit = \"yes\"\nSHIFT = \"*\"\nFUSE = \"9..1\"\n";
        let twice = "[keywords.prop]\nLIT = \"*\"\n";
        let all: Vec<String> = read(&[("a.toml", good), ("b.toml", bad), ("c.toml", twice)])
            .unwrap_err()
            .iter()
            .map(|e| e.to_string())
            .collect();
        let expected = [
            "b.toml:1:11: invalid: `[keywords.machine]` is not a kind",
            "b.toml:4:1: invalid: `lit` cannot be declared",
            "b.toml:5:1: invalid: `SHIFT` cannot be declared",
            "b.toml:6:8: invalid: `9..1` is not what a keyword takes",
            "c.toml:2:1: invalid: prop keyword `LIT` is declared twice (the first is at a.toml:2:1)",
        ];
        assert_eq!(all.len(), expected.len(), "{all:?}");
        for e in expected {
            assert!(all.iter().any(|a| a.starts_with(e)), "missing {e:?} in {all:?}");
        }
    }

    #[test]
    fn every_problem_is_located() {
        let bad = r#"
[[entity]]
tag = "a b"
classes = []
rating = 0
[[entity]]
tag = "x"
classes = ["c"]
rating = 2
[[item]]
tag = "gun"
category = "weapon"
rating = 3
faulty = "nothing"
carried_by = ["y"]
[[prop]]
tag = "big"
size = [12, 1]
tier = 9
"#;
        let more = "[[entity]]\ntag = \"x\"\nclasses = [\"c\"]\nrating = 1\n";
        let all_of = |files: &[(&str, &str)]| -> String {
            read(files).unwrap_err().iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
        };
        let all = all_of(&[("a.toml", bad), ("b.toml", more)]);
        let cross_references = [
            "a.toml:11:7: invalid: item `gun` names faulty variant `nothing`, which is not an item",
            "a.toml:15:15: invalid: no entity tagged `y` carries `gun`",
        ];
        let own = [
            "a.toml:3:7: invalid: tag `a b` may only use letters",
            "a.toml:4:11: invalid: entity `a b` has no class",
            "a.toml:5:10: invalid: rating 0 must be 1-20",
            "a.toml:18:8: invalid: size [12, 1] must be 1-9 on each side",
            "a.toml:19:8: invalid: tier 9 must be 1-5",
        ];
        for expected in own.iter().chain(&cross_references) {
            assert!(all.contains(expected), "missing {expected:?} in\n{all}");
        }
        // With a file that does not parse, what it held is unknown: references
        // across files are not checked, each file's own problems still are.
        let all = all_of(&[("a.toml", bad), ("b.toml", &format!("{more}[[thing]]\n"))]);
        assert!(all.contains("b.toml:5:3: syntax error: unknown field `thing`"), "{all}");
        for expected in own {
            assert!(all.contains(expected), "missing {expected:?} in\n{all}");
        }
        for unexpected in cross_references {
            assert!(!all.contains(unexpected), "{unexpected:?} reported against a broken catalog:\n{all}");
        }
        // The duplicate is found across files.
        let errors = read(&[("a.toml", GOOD), ("b.toml", "[[entity]]\ntag = \"w1\"\nclasses = [\"c\"]\nrating = 1\n")])
            .unwrap_err();
        assert!(
            errors[0]
                .to_string()
                .starts_with("b.toml:2:7: invalid: a second entity tagged `w1` (the first is at a.toml:3:7)"),
            "{errors:?}"
        );
    }
}
