//! Reading catalog files: the files as written (serde structs), every check
//! of a value or a cross-reference, and the [`Catalog`] they make.
//!
//! In: each catalog file's path and text, in path order. Out: one catalog and
//! every problem found, each at its `file:line:col`; what could be read is
//! kept, so one bad value does not hide the rest.

use super::*;
use crate::content::keywords::Allowed;
use crate::error::{Error, ErrorKind, LineIndex, Location};
use crate::format::{parse_toml, parse_toml_parts};
use serde::Deserialize;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use toml::Spanned;

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

/// True when `parts` of one file (each with where it starts) read as the
/// whole file would: no entries in the first part, which comes before any
/// `[[kind]]` header (so written as an inline array, which a later header may
/// not add to), and no table written in two parts (which TOML refuses).
fn parts_read_as_whole(parts: &[(usize, CatalogFile)]) -> bool {
    let first_has_entries = parts.first().is_some_and(|(_, part)| {
        let entries = [part.entity.len(), part.item.len(), part.prop.len(), part.trap.len(), part.debris.len()];
        entries.iter().any(|&n| n > 0)
    });
    let parts_with = |has: fn(&CatalogFile) -> bool| parts.iter().filter(|(_, part)| has(part)).count();
    let table_twice =
        parts_with(|part| !part.item_glyphs.is_empty()) > 1 || parts_with(|part| !part.keywords.is_empty()) > 1;
    !first_has_entries && !table_twice
}

/// One catalog file read, as parts each with the offset it starts at (its
/// spans are from there): a large file in parts on several threads (each cut
/// before a `[[kind]]` header), anything the parts cannot read as the whole
/// would, whole.
fn read_catalog_file(file: &str, text: &str) -> Result<Vec<(usize, CatalogFile)>, Error> {
    const HEADERS: [&str; 5] = ["[[entity]]", "[[item]]", "[[prop]]", "[[trap]]", "[[debris]]"];
    let starts_part = |line: &str| HEADERS.iter().any(|header| line.starts_with(header));
    match parse_toml_parts(text, starts_part) {
        Some(parts) if parts_read_as_whole(&parts) => Ok(parts),
        _ => Ok(vec![(0, parse_toml(file, text)?)]),
    }
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
    what: impl FnOnce() -> String,
    declared: Option<&Spanned<String>>,
    at: &dyn Fn(std::ops::Range<usize>) -> Location,
    invalid: &mut dyn FnMut(std::ops::Range<usize>, String),
) -> Option<GlyphSite> {
    let declared = declared?;
    let what = what();
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

/// A place in the catalog files: the file's index among them and a byte
/// offset in it, made into a [`Location`] only when a problem is reported
/// there (a catalog of 100,000 items has a few hundred thousand such places).
#[derive(Copy, Clone)]
struct Site {
    file: u32,
    offset: usize,
}

/// The files being read, with the index of each one's lines, to locate a
/// [`Site`].
struct Sources<'a> {
    files: &'a [(&'a str, &'a str)],
    lines: Vec<LineIndex>,
}

impl Sources<'_> {
    fn locate(&self, site: Site) -> Location {
        let (file, text) = self.files[site.file as usize];
        self.lines[site.file as usize].locate(file, text, site.offset)
    }
}

/// An item's references to check once every file is read: the item (by its
/// place among the items), where its tag is, and where each of its carriers
/// is named (in the order of its `carried_by`).
type ItemRefs = (usize, Site, Vec<Site>);

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
    // Per kind, in `Kind::ALL` order: each tag and its first entry (the
    // catalog's index, made as the entries are read), and where each entry's
    // tag is. Looked up, never listed: a hash map keeps no order and needs
    // none here.
    let mut by_tag: [HashMap<Arc<str>, u32>; 5] = Default::default();
    let mut tag_sites: [Vec<Site>; 5] = Default::default();
    let mut item_refs: Vec<ItemRefs> = Vec::new();
    // Items and debris with no glyph of their own: kind, category, tag, where,
    // and the index of the entry among its kind.
    let mut unglyphed: Vec<(Kind, Site, usize)> = Vec::new();
    // `[item_glyphs]` entries: category, glyph, where the key and the value are.
    let mut category_glyphs: Vec<(String, char, Location, Location)> = Vec::new();
    let mut all_parsed = true;
    // Where each game keyword was first declared, per kind.
    let mut declared_at: BTreeMap<(Kind, String), Location> = BTreeMap::new();
    let mut sources = Sources { files, lines: Vec::with_capacity(files.len()) };
    for (file_index, &(file, text)) in (0u32..).zip(files) {
        sources.lines.push(LineIndex::new(text));
        let parts = match read_catalog_file(file, text) {
            Ok(parts) => parts,
            Err(e) => {
                errors.push(e);
                all_parsed = false;
                continue;
            }
        };
        let sources = &sources;
        for (offset, raw) in parts {
            // A part's spans start where it does.
            let at =
                |span: std::ops::Range<usize>| sources.locate(Site { file: file_index, offset: offset + span.start });
            let site = |span: std::ops::Range<usize>| Site { file: file_index, offset: offset + span.start };
            let mut invalid = |span: std::ops::Range<usize>, message: String| {
                errors.push(Error::at(ErrorKind::Invalid, at(span), message));
            };
            let CatalogFile { entity, item, prop, trap, debris, item_glyphs, keywords } = raw;
            for (k, entries) in [entity.len(), item.len(), prop.len(), trap.len(), debris.len()].into_iter().enumerate()
            {
                by_tag[k].reserve(entries);
                tag_sites[k].reserve(entries);
            }
            // Checks an entry's tag, and indexes it: its entry is the next of its kind.
            let mut tag = |kind: Kind,
                           tag: &Spanned<String>,
                           invalid: &mut dyn FnMut(std::ops::Range<usize>, String)| {
                let t = tag.get_ref();
                if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')) {
                    invalid(tag.span(), format!("tag `{t}` may only use letters, digits, `_`, `-` and `.`"));
                }
                let k = kind_index(kind);
                let shared: Arc<str> = t.as_str().into();
                let entry_index = tag_sites[k].len() as u32;
                tag_sites[k].push(site(tag.span()));
                match by_tag[k].entry(shared.clone()) {
                    Entry::Occupied(entry) => {
                        let loc = sources.locate(tag_sites[k][*entry.get() as usize]);
                        invalid(tag.span(), format!("a second {} tagged `{t}` (the first is at {loc})", kind.name()))
                    }
                    Entry::Vacant(entry) => {
                        entry.insert(entry_index);
                    }
                }
                shared
            };
            let rating = |r: &Spanned<u32>, invalid: &mut dyn FnMut(std::ops::Range<usize>, String)| {
                if !(1..=MAX_RATING).contains(r.get_ref()) {
                    invalid(r.span(), format!("rating {} must be 1-{MAX_RATING}", r.get_ref()));
                }
                *r.get_ref()
            };
            for e in entity {
                let e = e.into_inner();
                let t = tag(Kind::Entity, &e.tag, &mut invalid);
                if e.classes.get_ref().is_empty() {
                    invalid(e.classes.span(), format!("entity `{t}` has no class"));
                }
                let rating = rating(&e.rating, &mut invalid);
                catalog.entities.push(Entity {
                    name: e.name.unwrap_or_else(|| t.to_string()),
                    tag: t,
                    classes: e.classes.into_inner(),
                    categories: e.categories,
                    rating,
                });
            }
            for i in item {
                let i = i.into_inner();
                let t = tag(Kind::Item, &i.tag, &mut invalid);
                let rating = rating(&i.rating, &mut invalid);
                let glyph_site =
                    declared_glyph(Kind::Item, || format!("item `{t}`"), i.glyph.as_ref(), &at, &mut invalid);
                let glyph = glyph_site.as_ref().map(|s| s.glyph);
                match glyph_site {
                    Some(glyph_site) => catalog.glyph_sites.push(glyph_site),
                    None => unglyphed.push((Kind::Item, site(i.tag.span()), catalog.items.len())),
                }
                if i.faulty.is_some() || !i.carried_by.is_empty() {
                    let carriers = i.carried_by.iter().map(|c| site(c.span())).collect();
                    item_refs.push((catalog.items.len(), site(i.tag.span()), carriers));
                }
                catalog.items.push(Item {
                    name: i.name.unwrap_or_else(|| t.to_string()),
                    tag: t,
                    category: i.category,
                    rating,
                    prototype: i.prototype,
                    faulty: i.faulty.map(Spanned::into_inner),
                    carried_by: i.carried_by.into_iter().map(Spanned::into_inner).collect(),
                    glyph: glyph.unwrap_or(ITEM_GLYPH),
                });
            }
            for p in &prop {
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
                    name: p.name.clone().unwrap_or_else(|| t.to_string()),
                    tag: t,
                    size: (w, h),
                    interactive: p.interactive,
                    tier: *p.tier.get_ref(),
                    machine_type: p.machine_type.as_ref().map(|s| s.get_ref().clone()),
                    set: p.set.as_ref().map(|s| s.get_ref().clone()),
                    art,
                    rotate: p.rotate,
                });
            }
            for tr in &trap {
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
                    name: tr.name.clone().unwrap_or_else(|| t.to_string()),
                    tag: t,
                    rating,
                    category,
                });
            }
            for d in &debris {
                let d = d.get_ref();
                let t = tag(Kind::Debris, &d.tag, &mut invalid);
                let glyph_site =
                    declared_glyph(Kind::Debris, || format!("debris `{t}`"), d.glyph.as_ref(), &at, &mut invalid);
                let glyph = glyph_site.as_ref().map(|s| s.glyph);
                match glyph_site {
                    Some(glyph_site) => catalog.glyph_sites.push(glyph_site),
                    None => unglyphed.push((Kind::Debris, site(d.tag.span()), catalog.debris.len())),
                }
                catalog.debris.push(Debris {
                    name: d.name.clone().unwrap_or_else(|| t.to_string()),
                    tag: t,
                    glyph: glyph.unwrap_or(DEBRIS_GLYPH),
                });
            }
            read_keywords(&keywords, &mut catalog.keywords, &at, &mut declared_at, &mut invalid);
            // `[item_glyphs]`, in the order written.
            let mut entries: Vec<(&Spanned<String>, &Spanned<String>)> = item_glyphs.iter().collect();
            entries.sort_by_key(|(k, _)| k.span().start);
            for (category, value) in entries {
                let c = category.get_ref();
                let Some(glyph) = read_glyph(value, &format!("item category `{c}`"), &mut invalid) else { continue };
                if let Some(first) =
                    category_glyphs.iter().find(|(name, ..)| name == c).map(|(_, _, key, _)| key.clone())
                {
                    invalid(
                        category.span(),
                        format!("a second glyph for item category `{c}` (the first is at {first})"),
                    );
                    continue;
                }
                category_glyphs.push((c.clone(), glyph, at(category.span()), at(value.span())));
            }
        }
    }
    catalog.faulty_variants = catalog.items.iter().filter_map(|i| i.faulty.clone()).collect();
    catalog.is_faulty = catalog.items.iter().map(|i| catalog.faulty_variants.contains(i.tag.as_ref())).collect();
    catalog.index = Index::of(&catalog, by_tag);
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
    // The item categories, and whether debris, drawn with the fallback so far.
    let (mut fallback_categories, mut fallback_debris) = (BTreeSet::<String>::new(), false);
    for (kind, site, index) in unglyphed {
        let (category, tag) = match kind {
            Kind::Item => (catalog.items[index].category.as_str(), catalog.items[index].tag.as_ref()),
            _ => ("", catalog.debris[index].tag.as_ref()),
        };
        let glyph = match kind {
            Kind::Item => match catalog.item_glyphs.get(category) {
                Some(&g) => {
                    catalog.items[index].glyph = g;
                    continue;
                }
                None => ITEM_GLYPH,
            },
            _ => DEBRIS_GLYPH,
        };
        // The first entry drawn with the fallback, per category of items.
        let first = match kind {
            Kind::Item => !fallback_categories.contains(category),
            _ => !fallback_debris,
        };
        if first {
            let what = match kind {
                Kind::Item => format!("items of category `{category}` with no glyph of their own (`{tag}` first)"),
                _ => format!("debris without a glyph of its own (`{tag}` first)"),
            };
            match kind {
                Kind::Item => _ = fallback_categories.insert(category.to_string()),
                _ => fallback_debris = true,
            }
            let at = sources.locate(site);
            catalog.glyph_sites.push(GlyphSite { kind, what, glyph, at, fallback: true });
        }
    }
    // Cross-references, once every file is read (and only if every one was: what
    // a file that did not parse held is unknown, not missing).
    for (index, tag_site, carrier_sites) in item_refs.iter().filter(|_| all_parsed) {
        let item = &catalog.items[*index];
        let tag = &item.tag;
        if let Some(f) = &item.faulty {
            match catalog.item(f) {
                None => errors.push(Error::at(
                    ErrorKind::Invalid,
                    sources.locate(*tag_site),
                    format!("item `{tag}` names faulty variant `{f}`, which is not an item"),
                )),
                Some(v) if v.faulty.is_some() => errors.push(Error::at(
                    ErrorKind::Invalid,
                    sources.locate(*tag_site),
                    format!("item `{tag}`'s faulty variant `{f}` has a faulty variant of its own"),
                )),
                Some(_) => {}
            }
        }
        for (site, carrier) in carrier_sites.iter().zip(&item.carried_by) {
            if catalog.entity(carrier).is_none() {
                let help = crate::format::suggest(carrier, catalog.entities.iter().map(|e| e.tag.as_ref()))
                    .map_or("carriers are entity tags".to_string(), |s| format!("did you mean `{s}`?"));
                errors.push(
                    Error::at(
                        ErrorKind::Invalid,
                        sources.locate(*site),
                        format!("no entity tagged `{carrier}` carries `{tag}`"),
                    )
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
