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

use super::keywords::GameKeywords;
use crate::error::Location;
use crate::format::def::{DefLine, Pick};
use crate::map::ObjectKind;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

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
    /// Per kind, in [`Kind::ALL`] order: each tag and its first entry. Only
    /// looked up, never listed, so a hash map's lack of order shows nowhere.
    by_tag: [HashMap<Arc<str>, u32>; 5],
    /// Each item category, with what is asked of it.
    item_categories: BTreeMap<String, ItemCategory>,
    /// The lowest rating of an item that may be chosen on its own.
    lowest_item: Option<u32>,
    /// Each trap category, with the lowest rating of its traps.
    trap_categories: BTreeMap<String, u32>,
    /// The lowest rating of a trap.
    lowest_trap: Option<u32>,
    /// Every entity tag some item names as its carrier, with those items in
    /// file order.
    carried: BTreeMap<String, Vec<u32>>,
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
    /// The index of what `catalog` holds (its faulty variants known), given
    /// its tags' index as its reader made it: per kind, in [`Kind::ALL`]
    /// order, each tag and its first entry.
    fn of(catalog: &Catalog, by_tag: [HashMap<Arc<str>, u32>; 5]) -> Index {
        let mut index = Index { by_tag, ..Index::default() };
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
        }
        for (i, item) in (0u32..).zip(&catalog.items) {
            for carrier in &item.carried_by {
                let items = match index.carried.get_mut(carrier) {
                    Some(items) => items,
                    None => index.carried.entry(carrier.clone()).or_default(),
                };
                // An item that names its carrier twice is listed once.
                if items.last() != Some(&i) {
                    items.push(i);
                }
            }
        }
        for (i, (item, &faulty)) in (0u32..).zip(catalog.items.iter().zip(&catalog.is_faulty)) {
            if !faulty {
                let prototype = usize::from(item.prototype);
                index.ranked[prototype].push(i);
                let ranked = match index.ranked_in.get_mut(&item.category) {
                    Some(ranked) => ranked,
                    None => index.ranked_in.entry(item.category.clone()).or_default(),
                };
                ranked[prototype].push(i);
            }
        }
        // Keys are distinct (the index breaks ties), so an unstable sort gives
        // the one order.
        let by_rating = |list: &mut Vec<u32>| list.sort_unstable_by_key(|&i| (catalog.items[i as usize].rating, i));
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
        self.by_tag[kind_index(kind)].get(tag).map(|&i| i as usize)
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
        self.index.carried.contains_key(carrier)
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
                let carried = self.index.carried.get(carrier.as_str()).map_or(&[][..], Vec::as_slice);
                carried.iter().map(|&i| item(&self.items[i as usize])).collect()
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
        let Some(run) = self.items_near_run(category, line, depth) else { return Vec::new() };
        let mut in_file_order = run.to_vec();
        in_file_order.sort_unstable();
        in_file_order.into_iter().map(|i| self.item_candidate(i, line)).collect()
    }

    /// The items near `depth` as a run of one ranked list (by rating, then
    /// in file order): those rated at most the target (depth plus
    /// RATING=+N) and at least [`ITEM_BAND`] below it, or the best rated
    /// below that; prototypes with PROTOTYPE when one is rated that low,
    /// else common ones. `None` when none is rated that low.
    fn items_near_run(&self, category: Option<&str>, line: &DefLine, depth: u32) -> Option<&[u32]> {
        let target = depth.saturating_add(line.rating_bonus());
        let prototype = line.has("PROTOTYPE");
        let mut ranked = self.ranked_items(category, prototype);
        if prototype && self.best_rating_up_to(&[ranked], target).is_none() {
            ranked = self.ranked_items(category, false);
        }
        let best = self.best_rating_up_to(&[ranked], target)?;
        let floor = best.min(target.saturating_sub(ITEM_BAND));
        let rating = |i: &u32| self.items[*i as usize].rating;
        Some(&ranked[ranked.partition_point(|i| rating(i) < floor)..ranked.partition_point(|i| rating(i) <= target)])
    }

    /// Item `i` as a candidate of `line`: its faulty variant only for a
    /// prototype, and never with NEVERFAULTY.
    fn item_candidate(&self, i: u32, line: &DefLine) -> Candidate<'_> {
        let item = &self.items[i as usize];
        let may_be_faulty = !line.has("NEVERFAULTY");
        Candidate {
            tag: &item.tag,
            rating: Some(item.rating),
            faulty: item.faulty.as_deref().filter(|_| item.prototype && may_be_faulty),
        }
    }
}

/// Where `kind` is in [`Kind::ALL`]: its place in the index's per-kind maps.
fn kind_index(kind: Kind) -> usize {
    Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0)
}

mod pick;
mod read;
#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use read::read;
pub(crate) use read::read_partial;
