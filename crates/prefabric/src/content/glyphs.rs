//! Glyphs kept apart: the lints that warn when one glyph on a drawn map could be
//! read as two different things.
//!
//! A drawn map (ASCII, ANSI, `.xp`, the viewer) shows terrain with the palette's
//! render glyphs, machines with their line art, items and debris with the glyphs
//! the catalog gives them, and entities, props and traps with their reference
//! characters. Goes in: a loaded palette (and its file, for places), catalog,
//! definition files and prefabs. Comes out: warnings, never errors, each at the
//! `file:line:col` of the glyph to change — prop art drawn with a terrain's glyph;
//! an item or debris glyph that terrain, line art, the other kind or a
//! reference-drawn object also uses, or that is a digit; item categories left
//! without a glyph when others have one; a floor variant drawn like a wall, door
//! or stairs; any terrain drawn as a digit. Maps draw no digits, so a digit on
//! one can only be misread as a prefab's notation.

use super::catalog::{Catalog, GlyphSite, Kind};
use super::defs::Definitions;
use crate::error::{Error, ErrorKind, Location};
use crate::format::palette::{self, Palette};
use crate::map::{Role, Terrain};
use crate::prefab::Prefab;
use std::collections::BTreeMap;

/// Every glyph the palette draws terrain with, and the first terrain (by role,
/// then variant) drawn with it.
fn terrain_glyphs(palette: &Palette) -> BTreeMap<char, Terrain> {
    let mut glyphs = BTreeMap::new();
    for role in Role::ALL {
        for variant in 0..=9 {
            let t = Terrain::with_variant(role, variant);
            glyphs.entry(palette.render_glyph(t)).or_insert(t);
        }
    }
    glyphs
}

/// Warnings for machine art drawn with a glyph the palette draws terrain with: in
/// the ASCII output such a machine reads as floor, wall or stairs. Located at the
/// prop's tag in its catalog file.
pub(super) fn art_lint(catalog: &Catalog, palette: &Palette, files: &[(&str, &str)]) -> Vec<Error> {
    let terrain_glyphs = terrain_glyphs(palette);
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

/// The verb for a site's phrase: "items of …" are drawn, "item `x`" is.
fn verb(what: &str) -> &'static str {
    if what.starts_with("items ") { "are" } else { "is" }
}

/// What a digit on a map would be read as.
const DIGITS: &str = "maps draw no digits, which in a prefab are item references, floor variants and link widths";

/// Warnings for the glyphs of items and debris: each glyph the catalog gives
/// (an entry's own, a category's, or the fallback its first user gets) that is a
/// digit, the palette's glyph for a terrain, a glyph of prop or machine art, or a
/// glyph of the other kind; item categories with no glyph when the catalog gives
/// others one; and entity, prop and trap reference characters — drawn as
/// themselves — that are an item or debris glyph. Located at the glyph (or the
/// first entry drawn with a fallback) in its catalog file, and at the definition
/// line.
pub(super) fn catalog_lint(
    catalog: &Catalog,
    palette: &Palette,
    defs: &BTreeMap<String, Definitions>,
    prefabs: &[Prefab],
) -> Vec<Error> {
    let terrain = terrain_glyphs(palette);
    // Line art: the catalog's props, then the machines prefabs draw.
    let mut art: BTreeMap<char, String> = BTreeMap::new();
    for prop in catalog.props() {
        for &g in &prop.art {
            art.entry(g).or_insert_with(|| format!("prop `{}`", prop.tag));
        }
    }
    for p in prefabs {
        for &(_, g) in p.machines().iter().flat_map(|m| m.cells()) {
            art.entry(g).or_insert_with(|| format!("a machine of prefab `{}`", p.name()));
        }
    }
    let sites = &catalog.glyph_sites;
    let items: Vec<&GlyphSite> = sites.iter().filter(|s| s.kind == Kind::Item).collect();
    let categories_named = items.iter().any(|s| !s.fallback && s.what.starts_with("items of category"));
    let mut warnings = Vec::new();
    let mut warn = |site: &GlyphSite, message: String, help: &str| {
        warnings.push(Error::at(ErrorKind::Lint, site.at.clone(), message).with_help(help.to_string()));
    };
    for site in sites {
        let (g, what) = (site.glyph, &site.what);
        let are = verb(what);
        let help = match (site.kind, site.fallback) {
            (Kind::Item, true) => {
                "give the category a glyph under `[item_glyphs]`, one no terrain, art, debris or entity uses"
            }
            (Kind::Item, false) => "pick a glyph no terrain, art, debris or entity uses, so items read apart on maps",
            (_, true) => "give the debris a `glyph` of its own, one no terrain, art, item or entity uses",
            _ => "pick a glyph no terrain, art, item or entity uses, so debris reads apart on maps",
        };
        if site.kind == Kind::Item && site.fallback && categories_named {
            warn(
                site,
                format!("{what} {are} drawn `{g}`: `[item_glyphs]` gives other categories a glyph, but not this one"),
                "add the category under `[item_glyphs]`, so its items read apart from the others",
            );
        }
        if g.is_ascii_digit() {
            warn(site, format!("{what} {are} drawn `{g}`, a digit: {DIGITS}"), help);
        } else if let Some(t) = terrain.get(&g) {
            warn(site, format!("{what} {are} drawn `{g}`, the palette's glyph for {t}"), help);
        } else if let Some(owner) = art.get(&g) {
            warn(site, format!("{what} {are} drawn `{g}`, as {owner} is"), help);
        } else if site.kind == Kind::Debris
            && let Some(item) = items.iter().find(|s| s.glyph == g)
        {
            warn(site, format!("{what} {are} drawn `{g}`, as {} {}", item.what, verb(&item.what)), help);
        }
    }
    for d in defs.values() {
        for line in d.lines.iter().filter(|l| matches!(l.kind, Kind::Entity | Kind::Prop | Kind::Trap)) {
            let g = line.line.glyph;
            if let Some(site) = sites.iter().find(|s| s.glyph == g) {
                let are = verb(&site.what);
                warnings.push(
                    Error::at(
                        ErrorKind::Lint,
                        Location::at(line.location.file.clone(), line.location.line, line.line.glyph_col),
                        format!(
                            "`{g}` stands for {} {} here, which maps draw as `{g}`, but {} {are} drawn `{g}` too",
                            if line.kind == Kind::Entity { "an" } else { "a" },
                            line.kind.name(),
                            site.what
                        ),
                    )
                    .with_help("pick another reference character, so the map tells the two apart"),
                );
            }
        }
    }
    warnings
}

/// Warnings for how the palette draws terrain: a terrain drawn as a digit, and a
/// floor variant drawn apart from its floor with the glyph of a terrain that is
/// not floor (walkers would read it as a wall, door or stairs). Located at the
/// `[render]` entry, or the `[glyphs]` entry the glyph comes from.
pub(super) fn palette_lint(palette: &Palette, file: &str, source: &str) -> Vec<Error> {
    let sites = palette::drawing_sites(file, source);
    // Where the glyph that draws `t` is written: its `[render]` entry, else the
    // first `[glyphs]` entry for it.
    let site_of = |t: Terrain, g: char| sites.iter().find(|(st, sg, _)| *st == t && *sg == g).map(|s| s.2.clone());
    let mut solid: BTreeMap<char, Terrain> = BTreeMap::new();
    for role in Role::ALL.into_iter().filter(|r| !matches!(r, Role::Floor(_))) {
        for variant in 0..=9 {
            let t = Terrain::with_variant(role, variant);
            solid.entry(palette.render_glyph(t)).or_insert(t);
        }
    }
    let mut warnings = Vec::new();
    for role in Role::ALL {
        for variant in 0..=9 {
            let t = Terrain::with_variant(role, variant);
            let g = palette.render_glyph(t);
            let Some(at) = site_of(t, g) else { continue };
            if g.is_ascii_digit() {
                warnings.push(
                    Error::at(ErrorKind::Lint, at, format!("{t} is drawn `{g}`, a digit: {DIGITS}"))
                        .with_help("draw it with a glyph of its own under `[render]`"),
                );
                continue;
            }
            let floor_variant = matches!(role, Role::Floor(_)) && variant > 0;
            let base = palette.render_glyph(Terrain::new(role));
            if let Some(other) = solid.get(&g).filter(|_| floor_variant && g != base) {
                warnings.push(
                    Error::at(
                        ErrorKind::Lint,
                        at,
                        format!("floor {t} is drawn `{g}`, the palette's glyph for {other}, which is not floor"),
                    )
                    .with_help(
                        "draw the floor with a glyph of its own under `[render]`, so it reads as ground to walk on",
                    ),
                );
            }
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use crate::content::{Pack, SourceFile};
    use crate::limits::Limits;

    const PALETTE: &str = r##"[glyphs]
"#" = "wall"
"." = "room"
"+" = "door"
[render]
"room:1" = "1"
"room:3" = "+"
"room:4" = "÷"
corridor = "."
junction = "."
"##;

    const CATALOG: &str = r##"[item_glyphs]
power = "#"
tools = "8"
[[item]]
tag = "cell"
category = "power"
rating = 1
[[item]]
tag = "drill"
category = "tools"
rating = 1
[[item]]
tag = "plate"
category = "armour"
rating = 1
[[item]]
tag = "rod"
category = "tools"
rating = 1
glyph = "╡"
[[item]]
tag = "gem"
category = "tools"
rating = 1
glyph = "!"
[[prop]]
tag = "console"
size = [2, 1]
art = ["╞╡"]
[[entity]]
tag = "bot"
classes = ["bot"]
rating = 1
[[debris]]
tag = "ash"
glyph = "!"
[[debris]]
tag = "soot"
"##;

    const PREFAB: &str = "prefab hall\nstyle: feature\nterrain:\n#####\n#...#\n##+##\nrefs:\n.....\n..!..\n.....\n";
    const MAP: &str = "width = 30\nheight = 20\n[[starts]]\nat = \"south\"\n[[variants]]\n[[variants.prefabs]]\nprefab = \"hall\"\nat = \"centre\"\ntransforms = \"r0\"\n";

    fn warnings(palette: &str, catalog: &str) -> Vec<String> {
        let files = [
            ("pack.toml", "name = \"g\"\ndefault_map_type = \"m\"\n"),
            ("palette.toml", palette),
            ("catalog/c.toml", catalog),
            ("prefabs/hall.txt", PREFAB),
            ("prefabs/hall.def", "! entity bot\n"),
            ("maps/m.toml", MAP),
        ];
        let files =
            files.iter().map(|(p, t)| SourceFile { path: p.to_string(), bytes: t.as_bytes().to_vec() }).collect();
        let pack = Pack::from_files("g", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"));
        pack.warnings().iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn glyphs_that_read_as_something_else_are_warned_about_where_they_are_written() {
        let all = warnings(PALETTE, CATALOG);
        let expected = [
            "g/catalog/c.toml:2:9: warning: items of category `power` are drawn `#`, the palette's glyph for wall",
            "g/catalog/c.toml:3:9: warning: items of category `tools` are drawn `8`, a digit: maps draw no digits",
            "g/catalog/c.toml:13:7: warning: items of category `armour` with no glyph of their own (`plate` first) are drawn `*`: `[item_glyphs]` gives other categories a glyph, but not this one",
            "g/catalog/c.toml:20:9: warning: item `rod` is drawn `╡`, as prop `console` is",
            "g/catalog/c.toml:36:9: warning: debris `ash` is drawn `!`, as item `gem` is",
            "g/prefabs/hall.def:1:1: warning: `!` stands for an entity here, which maps draw as `!`, but item `gem` is drawn `!` too",
            "g/palette.toml:6:12: warning: room:1 is drawn `1`, a digit: maps draw no digits",
            "g/palette.toml:7:12: warning: floor room:3 is drawn `+`, the palette's glyph for door, which is not floor",
        ];
        for e in expected {
            assert!(all.iter().any(|w| w.starts_with(e)), "missing {e:?} in\n{}", all.join("\n"));
        }
        // Each is said once; a floor variant drawn with a glyph of its own, and
        // debris drawn with the fallback `,` (corridors are drawn `.`), pass.
        let glyph_warnings = all.iter().filter(|w| w.contains(" drawn ")).count();
        assert_eq!(glyph_warnings, expected.len(), "{}", all.join("\n"));
        assert!(!all.iter().any(|w| w.contains("room:4") || w.contains("soot")), "{}", all.join("\n"));
        // Where corridors are drawn `,` (the palette's fallback), debris drawn
        // with the fallback `,` is told so.
        let all = warnings(&PALETTE.replace("corridor = \".\"\n", ""), CATALOG);
        let soot = "g/catalog/c.toml:38:7: warning: debris without a glyph of its own (`soot` first) is drawn `,`, the palette's glyph for corridor";
        assert!(all.iter().any(|w| w.starts_with(soot)), "{}", all.join("\n"));
    }

    #[test]
    fn glyphs_kept_apart_give_no_warning() {
        let palette = PALETTE.replace("\"room:1\" = \"1\"\n\"room:3\" = \"+\"\n", "");
        let catalog = CATALOG
            .replace("power = \"#\"", "power = \"&\"\narmour = \"[\"")
            .replace("tools = \"8\"", "tools = \"(\"")
            .replace("glyph = \"╡\"", "glyph = \")\"")
            .replace("tag = \"ash\"\nglyph = \"!\"", "tag = \"ash\"\nglyph = \";\"")
            .replace("rating = 1\nglyph = \"!\"", "rating = 1\nglyph = \"¢\"");
        let all = warnings(&palette, &catalog);
        assert!(all.iter().all(|w| !w.contains(" drawn ")), "{}", all.join("\n"));
        // The default pack keeps every glyph apart.
        assert!(Pack::embedded().unwrap().warnings().is_empty());
    }
}
