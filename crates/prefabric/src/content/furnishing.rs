//! Furnishing rules: the `[furnishing]` section of a map type (seed 003).
//!
//! A map type says how its rooms, halls and caverns are furnished after the
//! layout and the encounters: the weight of each of seed 003's six compositions
//! (separately for rooms, halls and caverns), how many machines are scattered
//! over a cavern, which debris is strewn along the walls, the padding that defines an area's inner rectangle and
//! the spacing kept around every object, the per-map limits on interactive machines
//! and stockpiles, which interactive machine types appear and at which depth each
//! tier starts, which themed sets of non-interactive machines fill areas, how big
//! stockpiles are, and how many terminals go into junctions and loose items onto
//! the floor. Reading it checks every name against the catalog (types, sets, item
//! categories), every number against its range, and that every composition with a
//! weight has what it needs; every problem is reported at its place in the file.

use super::catalog::Catalog;
use super::section::{SectionReader, Span};
use super::values::{WeightFile, WeightWords};
use crate::error::{Error, ErrorKind, Location};
use crate::format::suggest;
use crate::vocab::Composition;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// An inclusive count range `lo..=hi`, `0 <= lo <= hi`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// Fewest.
    pub lo: u32,
    /// Most.
    pub hi: u32,
}

/// Terminals placed in the busiest junctions after the rooms and halls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terminals {
    /// How many per map.
    pub count: Count,
    /// The interactive machine type placed (its tier by depth, as for rooms).
    pub machine_type: String,
}

/// Loose items placed anywhere on the floor, higher ratings in more secluded cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LooseItems {
    /// How many per map.
    pub count: Count,
    /// Item categories drawn from; empty for every category.
    pub categories: Vec<String>,
}

/// Debris strewn over the map: rubble, spills and scrap along the walls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrewnDebris {
    /// How many pieces per map.
    pub count: Count,
    /// Debris tags drawn from, by weight; empty for every debris of the catalog.
    pub tags: Vec<(String, u32)>,
}

/// A map type's validated furnishing rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Furnishing {
    /// Machine–wall padding: an area's inner rectangle is its bounds shrunk by this.
    pub padding: i32,
    /// Cells kept free around every placed object (its padding area).
    pub spacing: i32,
    /// Chance (percent) that an interactive machine or stockpile is pushed back
    /// against the wall, where that blocks no door or path.
    pub push_chance: u32,
    /// Most interactive machines per map (terminals in junctions not counted);
    /// `None` for no limit.
    pub max_interactive: Option<u32>,
    /// Most stockpiles per map; `None` for no limit.
    pub max_stockpiles: Option<u32>,
    /// Weights of the compositions for rooms, in [`Composition::ALL`] order.
    pub rooms: [u32; 6],
    /// Weights of the compositions for halls, in [`Composition::ALL`] order.
    pub halls: [u32; 6],
    /// Weights of the compositions for caverns, in [`Composition::ALL`] order.
    pub caves: [u32; 6],
    /// Interactive machine types with weights.
    pub interactive_types: Vec<(String, u32)>,
    /// `tier_depths[k]` is the depth from which tier `k + 1` is placed.
    pub tier_depths: Vec<u32>,
    /// Where the tiers are decided, for warnings about a missing tier: the
    /// `tier_depths` value, else the `[furnishing.interactive]` table, else the
    /// terminals' `type`, else the `[furnishing]` section (`None` only for rules
    /// built in code).
    pub tier_depths_at: Option<Location>,
    /// Themed sets of non-interactive machines with weights; each area draws one.
    pub sets: Vec<(String, u32)>,
    /// Chance (percent) that one member of a filler array is a different machine of
    /// the set, no larger.
    pub odd_one_chance: u32,
    /// How many arrays, each of a different machine of the set, one filler
    /// lays out: each goes into the largest free rectangle left by what the
    /// area already holds.
    pub filler_groups: Count,
    /// The most machines in one filler array (a larger array is cut down, its
    /// longer side first).
    pub max_array: u32,
    /// Machines scattered over a cavern whose composition has machines (caverns
    /// have no inner rectangle to hold an array).
    pub scatter: Count,
    /// Stockpiles per area whose composition has them.
    pub stockpiles_per_area: Count,
    /// Items in one stockpile.
    pub stockpile_items: Count,
    /// Different items in one stockpile.
    pub stockpile_types: Count,
    /// Item categories stockpiles draw from; empty for every category.
    pub stockpile_categories: Vec<String>,
    /// Terminals in junctions, if any.
    pub terminals: Option<Terminals>,
    /// Loose items, if any.
    pub items: Option<LooseItems>,
    /// Debris along the walls, if any.
    pub debris: Option<StrewnDebris>,
}

impl Furnishing {
    /// Rules that furnish nothing, with the defaults a file would get, for tests
    /// to adjust.
    #[cfg(test)]
    pub(crate) fn plain() -> Furnishing {
        Furnishing {
            padding: 1,
            spacing: 1,
            push_chance: 50,
            max_interactive: Some(1),
            max_stockpiles: Some(1),
            rooms: [0; 6],
            halls: [0; 6],
            caves: [0; 6],
            interactive_types: Vec::new(),
            tier_depths: vec![1],
            tier_depths_at: None,
            sets: Vec::new(),
            odd_one_chance: 0,
            filler_groups: DEFAULT_FILLER_GROUPS,
            max_array: DEFAULT_MAX_ARRAY,
            scatter: Count { lo: 2, hi: 5 },
            stockpiles_per_area: Count { lo: 1, hi: 2 },
            stockpile_items: Count { lo: 3, hi: 9 },
            stockpile_types: Count { lo: 1, hi: 3 },
            stockpile_categories: Vec::new(),
            terminals: None,
            items: None,
            debris: None,
        }
    }

    /// The tier of interactive machines placed at `depth`: the last tier whose
    /// starting depth is reached, and tier 1 above them all.
    pub fn tier_at(&self, depth: u32) -> u32 {
        (self.tier_depths.iter().filter(|&&d| d <= depth).count() as u32).max(1)
    }
}

// ---- the file as written ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FurnishingFile {
    #[serde(default)]
    padding: Option<Spanned<i64>>,
    #[serde(default)]
    spacing: Option<Spanned<i64>>,
    #[serde(default)]
    push_chance: Option<Spanned<i64>>,
    #[serde(default)]
    max_interactive: Option<Spanned<i64>>,
    #[serde(default)]
    max_stockpiles: Option<Spanned<i64>>,
    #[serde(default)]
    rooms: Option<BTreeMap<Spanned<String>, Spanned<WeightFile>>>,
    #[serde(default)]
    halls: Option<BTreeMap<Spanned<String>, Spanned<WeightFile>>>,
    #[serde(default)]
    caves: Option<BTreeMap<Spanned<String>, Spanned<WeightFile>>>,
    #[serde(default)]
    interactive: Option<Spanned<InteractiveFile>>,
    #[serde(default)]
    machines: Option<Spanned<MachinesFile>>,
    #[serde(default)]
    stockpiles: Option<StockpilesFile>,
    #[serde(default)]
    terminals: Option<Spanned<TerminalsFile>>,
    #[serde(default)]
    items: Option<ItemsFile>,
    #[serde(default)]
    debris: Option<DebrisFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DebrisFile {
    count: Spanned<CountFile>,
    #[serde(default)]
    tags: Option<BTreeMap<Spanned<String>, Spanned<WeightFile>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InteractiveFile {
    types: BTreeMap<Spanned<String>, Spanned<WeightFile>>,
    #[serde(default)]
    tier_depths: Option<Spanned<Vec<i64>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MachinesFile {
    sets: BTreeMap<Spanned<String>, Spanned<WeightFile>>,
    #[serde(default)]
    odd_one_chance: Option<Spanned<i64>>,
    #[serde(default)]
    groups: Option<Spanned<CountFile>>,
    #[serde(default)]
    max_array: Option<Spanned<i64>>,
    #[serde(default)]
    scatter: Option<Spanned<CountFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StockpilesFile {
    #[serde(default)]
    per_area: Option<Spanned<CountFile>>,
    #[serde(default)]
    items: Option<Spanned<CountFile>>,
    #[serde(default)]
    types: Option<Spanned<CountFile>>,
    #[serde(default)]
    categories: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerminalsFile {
    count: Spanned<CountFile>,
    #[serde(rename = "type")]
    machine_type: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemsFile {
    count: Spanned<CountFile>,
    #[serde(default)]
    categories: Vec<Spanned<String>>,
}

/// `n` or `[lo, hi]`.
enum CountFile {
    One(i64),
    Two([i64; 2]),
}

impl<'de> Deserialize<'de> for CountFile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CountFile, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(i64),
            Two([i64; 2]),
        }
        match Raw::deserialize(d) {
            Ok(Raw::One(n)) => Ok(CountFile::One(n)),
            Ok(Raw::Two(v)) => Ok(CountFile::Two(v)),
            Err(_) => Err(serde::de::Error::custom("expected a count: a whole number or a range [lo, hi]")),
        }
    }
}

/// Most terminals or loose items a map type may ask for.
const MAX_COUNT: u32 = 10_000;
/// Most items in one stockpile (a 5x5 footprint).
const MAX_STOCKPILE_ITEMS: u32 = 25;
/// Widest padding or spacing.
const MAX_PADDING: i64 = 8;
/// Arrays per filler when a map type does not say: one, or two of different
/// machines, so that rooms of one set do not all hold the same grid.
const DEFAULT_FILLER_GROUPS: Count = Count { lo: 1, hi: 2 };
/// Machines per filler array when a map type does not say: a hall's worth of
/// one machine, not a warehouse.
const DEFAULT_MAX_ARRAY: u32 = 12;

impl SectionReader<'_> {
    fn count(&mut self, v: Option<&Spanned<CountFile>>, what: &str, max: u32, default: Count) -> Count {
        let Some(v) = v else { return default };
        let (lo, hi) = match v.get_ref() {
            CountFile::One(n) => (*n, *n),
            CountFile::Two([lo, hi]) => (*lo, *hi),
        };
        let max = i64::from(max);
        if !(0..=max).contains(&lo) || !(0..=max).contains(&hi) {
            self.invalid(v.span(), format!("{what} [{lo}, {hi}] must stay within 0-{max}"), None);
            return default;
        }
        if lo > hi {
            self.invalid(v.span(), format!("{what} [{lo}, {hi}] is backwards: write the smaller number first"), None);
            return default;
        }
        Count { lo: lo as u32, hi: hi as u32 }
    }

    /// The weights of the six compositions, and where each is written.
    fn compositions(
        &mut self,
        table: &Option<BTreeMap<Spanned<String>, Spanned<WeightFile>>>,
        words: &WeightWords,
    ) -> ([u32; 6], [Option<Span>; 6]) {
        let mut weights = [0u32; 6];
        let mut spans: [Option<Span>; 6] = Default::default();
        for (name, w) in table.iter().flatten() {
            let weight = self.weight(w, words);
            match Composition::parse(name.get_ref()) {
                Some(c) => {
                    weights[c as usize] = weight;
                    spans[c as usize] = Some(name.span());
                }
                None => {
                    let names: Vec<&str> = Composition::ALL.iter().map(|c| c.name()).collect();
                    let help = match suggest(name.get_ref(), names.iter().copied()) {
                        Some(s) => format!("did you mean `{s}`? the compositions are {}", names.join(", ")),
                        None => format!("the compositions are {}", names.join(", ")),
                    };
                    self.invalid(name.span(), format!("unknown composition `{}`", name.get_ref()), Some(help));
                }
            }
        }
        (weights, spans)
    }

    /// Weighted names, each checked by `known`, which lists the valid names.
    fn names(
        &mut self,
        table: &BTreeMap<Spanned<String>, Spanned<WeightFile>>,
        words: &WeightWords,
        what: &str,
        known: &[&str],
        where_defined: &str,
    ) -> Vec<(String, u32)> {
        let mut out = Vec::new();
        for (name, w) in table {
            let weight = self.weight(w, words);
            if !known.contains(&name.get_ref().as_str()) {
                let help = match suggest(name.get_ref(), known.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None if known.is_empty() => format!("the catalog defines none: {where_defined}"),
                    None => format!("the catalog's are {} ({where_defined})", known.join(", ")),
                };
                self.invalid(name.span(), format!("no {what} `{}` in the catalog", name.get_ref()), Some(help));
                continue;
            }
            out.push((name.get_ref().clone(), weight));
        }
        out
    }

    fn categories(&mut self, list: &[Spanned<String>], catalog: &Catalog) -> Vec<String> {
        let mut out = Vec::new();
        for c in list {
            if catalog.is_stocked_category(c.get_ref()) {
                out.push(c.get_ref().clone());
            } else if catalog.has_item_category(c.get_ref()) {
                let message = format!(
                    "item category `{}` has only prototypes and faulty variants, which are never stockpiled or strewn",
                    c.get_ref()
                );
                self.invalid(c.span(), message, None);
            } else {
                let known: Vec<&str> = catalog.item_categories().collect();
                let help = match suggest(c.get_ref(), known.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("the catalog's item categories are {}", known.join(", ")),
                };
                self.invalid(c.span(), format!("no item category `{}` in the catalog", c.get_ref()), Some(help));
            }
        }
        out
    }
}

/// Reads and checks a `[furnishing]` section. `at` turns a span into a location;
/// without a catalog (it failed to load) names are not checked against it.
pub(crate) fn read(
    raw: &Spanned<FurnishingFile>,
    at: &dyn Fn(Span) -> Location,
    words: &WeightWords,
    catalog: Option<&Catalog>,
    errors: &mut Vec<Error>,
) -> Furnishing {
    let mut r = SectionReader { at, errors, prefix: "" };
    let section = raw.span();
    let f = raw.get_ref();
    let padding = r.number(&f.padding, "padding", 0..=MAX_PADDING, 1) as i32;
    let spacing = r.number(&f.spacing, "spacing", 0..=MAX_PADDING, 1) as i32;
    let push_chance = r.number(&f.push_chance, "push_chance", 0..=100, 50) as u32;
    let most = i64::from(MAX_COUNT);
    let max_interactive =
        f.max_interactive.as_ref().map(|_| r.number(&f.max_interactive, "max_interactive", 0..=most, 0) as u32);
    let max_stockpiles =
        f.max_stockpiles.as_ref().map(|_| r.number(&f.max_stockpiles, "max_stockpiles", 0..=most, 0) as u32);
    let (rooms, room_spans) = r.compositions(&f.rooms, words);
    let (halls, hall_spans) = r.compositions(&f.halls, words);
    let (caves, cave_spans) = r.compositions(&f.caves, words);

    let empty = Catalog::default();
    let checked = catalog.is_some();
    let catalog = catalog.unwrap_or(&empty);
    let mut types: Vec<&str> = catalog.props().iter().filter_map(|p| p.machine_type.as_deref()).collect();
    types.sort_unstable();
    types.dedup();
    let mut sets: Vec<&str> = catalog.props().iter().filter_map(|p| p.set.as_deref()).collect();
    sets.sort_unstable();
    sets.dedup();

    let (interactive_types, tier_depths) = match &f.interactive {
        None => (Vec::new(), vec![1]),
        Some(i) => {
            let list = if checked {
                r.names(&i.get_ref().types, words, "interactive machine type", &types, "a prop's `type`")
            } else {
                Vec::new()
            };
            (list, tier_depths(&mut r, &i.get_ref().tier_depths))
        }
    };
    let default_scatter = Count { lo: 2, hi: 5 };
    let mut filler_groups = DEFAULT_FILLER_GROUPS;
    let mut max_array = DEFAULT_MAX_ARRAY;
    let (machine_sets, odd_one_chance, scatter) = match &f.machines {
        None => (Vec::new(), 0, default_scatter),
        Some(m) => {
            let m = m.get_ref();
            let list =
                if checked { r.names(&m.sets, words, "machine set", &sets, "a prop's `set`") } else { Vec::new() };
            let odd = r.number(&m.odd_one_chance, "odd_one_chance", 0..=100, 25) as u32;
            filler_groups = r.count(m.groups.as_ref(), "groups", 9, DEFAULT_FILLER_GROUPS);
            if let Some(g) = &m.groups
                && filler_groups.lo == 0
            {
                r.invalid(g.span(), "a filler lays out at least 1 array: write groups = [1, N]".into(), None);
            }
            max_array = r.number(&m.max_array, "max_array", 1..=400, i64::from(DEFAULT_MAX_ARRAY)) as u32;
            (list, odd, r.count(m.scatter.as_ref(), "scatter", 100, default_scatter))
        }
    };
    let default_stockpiles = StockpilesFile { per_area: None, items: None, types: None, categories: Vec::new() };
    let s = f.stockpiles.as_ref().unwrap_or(&default_stockpiles);
    let stockpiles_per_area = r.count(s.per_area.as_ref(), "per_area", 9, Count { lo: 1, hi: 2 });
    let stockpile_items = r.count(s.items.as_ref(), "items", MAX_STOCKPILE_ITEMS, Count { lo: 3, hi: 9 });
    let stockpile_types = r.count(s.types.as_ref(), "types", MAX_STOCKPILE_ITEMS, Count { lo: 1, hi: 3 });
    if let Some(t) = &s.types
        && (stockpile_types.lo == 0 || stockpile_types.hi > stockpile_items.lo.max(1))
    {
        let message = format!(
            "types [{}, {}] must be at least 1 and at most the fewest items of a stockpile ({})",
            stockpile_types.lo, stockpile_types.hi, stockpile_items.lo
        );
        r.invalid(t.span(), message, None);
    }
    if let Some(n) = &s.items
        && stockpile_items.lo == 0
    {
        r.invalid(n.span(), "a stockpile holds at least 1 item".into(), None);
    }
    let stockpile_categories = if checked { r.categories(&s.categories, catalog) } else { Vec::new() };

    let terminals = f.terminals.as_ref().map(|t| {
        let raw = t.get_ref();
        let count = r.count(Some(&raw.count), "count", MAX_COUNT, Count { lo: 0, hi: 0 });
        let ty = raw.machine_type.get_ref();
        if checked && !types.contains(&ty.as_str()) {
            let help = match suggest(ty, types.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the catalog's interactive types are {}", types.join(", ")),
            };
            r.invalid(
                raw.machine_type.span(),
                format!("no interactive machine type `{ty}` in the catalog"),
                Some(help),
            );
        }
        Terminals { count, machine_type: ty.clone() }
    });
    let items = f.items.as_ref().map(|i| LooseItems {
        count: r.count(Some(&i.count), "count", MAX_COUNT, Count { lo: 0, hi: 0 }),
        categories: if checked { r.categories(&i.categories, catalog) } else { Vec::new() },
    });

    let debris = f.debris.as_ref().map(|d| {
        let count = r.count(Some(&d.count), "count", MAX_COUNT, Count { lo: 0, hi: 0 });
        let known: Vec<&str> = catalog.debris().iter().map(|d| d.tag.as_ref()).collect();
        let tags = match (&d.tags, checked) {
            (Some(tags), true) => r.names(tags, words, "debris", &known, "a [[debris]] `tag`"),
            _ => Vec::new(),
        };
        if checked && count.hi > 0 && known.is_empty() {
            r.invalid(
                d.count.span(),
                "[furnishing.debris] strews debris, but the catalog has none".into(),
                Some("add [[debris]] entries with a `tag` and a `name` to the catalog".into()),
            );
        }
        StrewnDebris { count, tags }
    });

    let tier_span = match &f.interactive {
        Some(i) => i.get_ref().tier_depths.as_ref().map_or(i.span(), Spanned::span),
        None => f.terminals.as_ref().map_or(section.clone(), |t| t.get_ref().machine_type.span()),
    };
    let tier_depths_at = Some(at(tier_span));
    let furnishing = Furnishing {
        padding,
        spacing,
        push_chance,
        max_interactive,
        max_stockpiles,
        rooms,
        halls,
        caves,
        interactive_types,
        tier_depths,
        tier_depths_at,
        sets: machine_sets,
        odd_one_chance,
        filler_groups,
        max_array,
        scatter,
        stockpiles_per_area,
        stockpile_items,
        stockpile_types,
        stockpile_categories,
        terminals,
        items,
        debris,
    };
    if checked {
        let spans = [(&room_spans, "rooms"), (&hall_spans, "halls"), (&cave_spans, "caves")];
        needs(&mut r, section, spans, &furnishing, f);
    }
    furnishing
}

/// Warnings about rules that work but may not do what the designer meant: an
/// interactive type (or the terminals' type) with no machine of a tier that
/// `tier_depths` reaches, whose depths then get a lower tier (or the lowest).
pub(crate) fn lint(file: &str, f: &Furnishing, catalog: &Catalog) -> Vec<Error> {
    let mut types: Vec<&str> = f.interactive_types.iter().filter(|(_, w)| *w > 0).map(|(t, _)| t.as_str()).collect();
    types.extend(f.terminals.iter().filter(|t| t.count.hi > 0).map(|t| t.machine_type.as_str()));
    types.sort_unstable();
    types.dedup();
    let mut warnings = Vec::new();
    for ty in types {
        let tiers: Vec<u32> = catalog.machines_of_type(ty).map(|p| p.tier).collect();
        for (k, &depth) in f.tier_depths.iter().enumerate() {
            let tier = k as u32 + 1;
            if tiers.contains(&tier) {
                continue;
            }
            let instead = tiers.iter().copied().filter(|&t| t < tier).max().or_else(|| tiers.iter().copied().min());
            let message = format!("interactive type `{ty}` has no tier {tier} machine for depths from {depth}");
            let help = match instead {
                Some(t) => format!(
                    "those depths get its tier {t} machines; add a [[prop]] with type = \"{ty}\" and tier = {tier}, or change tier_depths"
                ),
                None => "add a [[prop]] of this type".to_string(),
            };
            let at = f.tier_depths_at.clone().unwrap_or_else(|| Location::file(file));
            warnings.push(Error::at(ErrorKind::Lint, at, message).with_help(help));
        }
    }
    warnings
}

/// `tier_depths`: 1 to 5 depths, rising, each 1-999.
fn tier_depths(r: &mut SectionReader<'_>, v: &Option<Spanned<Vec<i64>>>) -> Vec<u32> {
    let Some(v) = v else { return vec![1] };
    let list = v.get_ref();
    let ok = (1..=5).contains(&list.len())
        && list.iter().all(|d| (1..=999).contains(d))
        && list.windows(2).all(|w| w[0] < w[1]);
    if !ok {
        let message = format!("tier_depths {list:?} must list 1 to 5 depths from 1-999, each deeper than the last");
        r.invalid(
            v.span(),
            message,
            Some("tier_depths = [1, 4, 7] places tier 1 from depth 1, tier 2 from depth 4, tier 3 from depth 7".into()),
        );
        return vec![1];
    }
    list.iter().map(|&d| d as u32).collect()
}

/// Every composition with a weight must have what it places: interactive types,
/// machine sets. Reported at the composition's line.
fn needs(
    r: &mut SectionReader<'_>,
    section: Span,
    spans: [(&[Option<Span>; 6], &str); 3],
    f: &Furnishing,
    raw: &FurnishingFile,
) {
    let types_given = raw.interactive.as_ref().map_or(0, |i| i.get_ref().types.len());
    let sets_given = raw.machines.as_ref().map_or(0, |m| m.get_ref().sets.len());
    for (spans, areas) in spans {
        let weights = match areas {
            "rooms" => &f.rooms,
            "halls" => &f.halls,
            _ => &f.caves,
        };
        for c in Composition::ALL {
            if weights[c as usize] == 0 {
                continue;
            }
            let at = spans[c as usize].clone().unwrap_or_else(|| section.clone());
            if c.has_interactive() && types_given == 0 {
                let message =
                    format!("composition `{c}` of {areas} places an interactive machine, but no type is given");
                let help = "add [furnishing.interactive] with types = { NAME = WEIGHT }, NAME a prop's `type`";
                r.invalid(at.clone(), message, Some(help.into()));
            }
            if c.has_machines() && sets_given == 0 {
                let message =
                    format!("composition `{c}` of {areas} places non-interactive machines, but no set is given");
                let help = "add [furnishing.machines] with sets = { NAME = WEIGHT }, NAME a prop's `set`";
                r.invalid(at, message, Some(help.into()));
            }
        }
    }
    // Names not in the catalog were reported already; all known names at weight 0
    // leave nothing to draw.
    if let Some(i) = &raw.interactive
        && types_given > 0
        && types_given == f.interactive_types.len()
        && f.interactive_types.iter().all(|(_, w)| *w == 0)
    {
        r.invalid(i.span(), "every interactive machine type has weight 0".into(), None);
    }
    if let Some(m) = &raw.machines
        && sets_given > 0
        && sets_given == f.sets.len()
        && f.sets.iter().all(|(_, w)| *w == 0)
    {
        r.invalid(m.span(), "every machine set has weight 0".into(), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_start_at_their_depths() {
        let mut f = Furnishing { tier_depths: vec![1, 4, 7], ..Furnishing::plain() };
        let tiers: Vec<u32> = (1..=9).map(|d| f.tier_at(d)).collect();
        assert_eq!(tiers, [1, 1, 1, 2, 2, 2, 3, 3, 3]);
        f.tier_depths = vec![3];
        assert_eq!(f.tier_at(1), 1, "above every starting depth, tier 1");
    }

    #[test]
    fn composition_names_round_trip() {
        for c in Composition::ALL {
            assert_eq!(Composition::parse(c.name()), Some(c));
        }
        let parts: Vec<(bool, bool, bool)> =
            Composition::ALL.iter().map(|c| (c.has_interactive(), c.has_machines(), c.has_stockpiles())).collect();
        assert_eq!(
            parts,
            [
                (true, true, true),
                (true, true, false),
                (false, true, true),
                (false, true, false),
                (false, false, true),
                (false, false, false)
            ]
        );
    }
}
