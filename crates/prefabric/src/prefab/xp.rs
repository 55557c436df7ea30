//! REXPaint prefabs: [`XpImage`]s read as [`Prefab`]s and prefabs written as images.
//!
//! The layers are Cogmind's (seed 001): layer 1 is terrain, each cell painted in the
//! palette colour of its terrain (its background colour, or its glyph's with
//! `colour_from = "foreground"`), REXPaint's transparent magenta for don't-care, and
//! a floor colour under a digit glyph for that floor variant; layer 2 holds link
//! marks (a digit is a tunneler's width, `*` a connector, an arrow beside a mark its
//! direction); layer 3 holds machines, each 4-connected group of painted cells one
//! machine with its glyphs kept; layer 4 holds reference characters. A transparent
//! cell (background 255,0,255) on layers 2–4 is empty. Any layer after the first may
//! be missing. Glyphs are code page 437, read and written as Unicode.
//!
//! An image holds no header, so the name comes from the file name and the tags,
//! transforms, style and variation lines from an optional TOML file beside it
//! ([`read_sidecar`]). A prefab with variation lines reads layer 1's glyphs too:
//! a painted cell whose glyph a line names takes part in the variation, its
//! meaning that glyph's (the legend's, else the palette's text glyph), and a fifth
//! layer, if there is one, is the mask (every painted cell protected).
//! [`Prefab::to_xp`] writes an image that reads back to an equal prefab.

use super::assemble::{Drawn, Place, assemble};
use super::{Header, LayerKind, Prefab, VARIATION_KEYS, VariationLine, check_name, check_tag, vary};
use crate::error::{Error, ErrorKind, LineIndex, Location};
use crate::format::cp437;
use crate::format::palette::{ColourChannel, Palette};
use crate::format::parse_toml;
use crate::format::xp::{Rgb, XpCell, XpImage, XpLayer};
use crate::geom::{Dir, Point, TransformSet};
use crate::grid::Grid;
use crate::limits::Limits;
use crate::map::{Role, Terrain};
use crate::vocab::Style;
use serde::Deserialize;

/// Most bad cells reported per layer before the rest are summarised.
const MAX_COLOUR_ERRORS: usize = 12;

/// Colours written for the overlay layers: Cogmind's yellow link numbers, gray
/// machines and green references, on black so REXPaint shows them.
const LINK_FG: Rgb = Rgb::new(0xff, 0xff, 0x00);
const MACHINE_FG: Rgb = Rgb::new(0xb4, 0xb4, 0xb4);
const MACHINE_BG: Rgb = Rgb::new(0x24, 0x24, 0x24);
const REF_FG: Rgb = Rgb::new(0x40, 0xff, 0x40);
const MARK_BG: Rgb = Rgb::new(0, 0, 0);

/// True when `path` names a REXPaint file: it ends in `.xp`, in any case.
pub fn is_xp_path(path: &str) -> bool {
    path.len() > 3 && path.is_char_boundary(path.len() - 3) && path[path.len() - 3..].eq_ignore_ascii_case(".xp")
}

/// The prefab name a `.xp` file gives: its file name without folders and extension.
pub fn name_of_file(file: &str) -> &str {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    if is_xp_path(base) { &base[..base.len() - 3] } else { base }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SidecarFile {
    #[serde(default)]
    tags: Vec<toml::Spanned<String>>,
    #[serde(default)]
    transforms: Option<toml::Spanned<String>>,
    #[serde(default)]
    style: Option<toml::Spanned<String>>,
    #[serde(default)]
    defs: Option<toml::Spanned<String>>,
    #[serde(default)]
    vary: Vec<toml::Spanned<String>>,
}

/// Reads the header file beside a `.xp` prefab (`NAME.toml`): `tags`, `transforms`,
/// `style`, `defs` and `vary`, all optional, as in a text prefab's header. `vary`
/// lists the variation lines in order, each written as in a text prefab
/// (`"nsubst: c = 3 C / rest ."`); their columns are exact in strings without
/// escapes (TOML's single-quoted strings have none).
pub fn read_sidecar(file: &str, text: &str, name: &str) -> Result<Header, Vec<Error>> {
    let raw: SidecarFile = parse_toml(file, text).map_err(|e| vec![e])?;
    let mut header = Header::named(name);
    let mut errors = Vec::new();
    let lines = LineIndex::new(text);
    let at = |span: std::ops::Range<usize>| lines.locate(file, text, span.start);
    for tag in &raw.tags {
        if let Err(message) = check_tag(tag.get_ref()) {
            errors.push(Error::at(ErrorKind::Invalid, at(tag.span()), message));
        }
    }
    header.tags = raw.tags.into_iter().map(toml::Spanned::into_inner).collect();
    if let Some(t) = raw.transforms {
        match TransformSet::parse(t.get_ref()) {
            Ok(set) if !set.is_empty() => header.transforms = set,
            Ok(_) => errors.push(Error::at(ErrorKind::Invalid, at(t.span()), "`transforms` lists no orientation")),
            Err(word) => {
                // Point at the word itself: one past the opening quote, then into the string.
                let start = t.span().start + 1 + t.get_ref().find(word.as_str()).unwrap_or(0);
                errors.push(
                    Error::at(ErrorKind::Invalid, at(start..start), format!("unknown transform `{word}`"))
                        .with_help(crate::geom::Transform::HELP),
                );
            }
        }
    }
    if let Some(s) = raw.style {
        match Style::parse(s.get_ref()) {
            Some(style) => header.style = style,
            None => errors.push(
                Error::at(ErrorKind::Invalid, at(s.span()), format!("unknown style `{}`", s.get_ref()))
                    .with_help(format!("styles are {}", Style::names())),
            ),
        }
    }
    if let Some(d) = raw.defs {
        match check_name(d.get_ref()) {
            Ok(()) => header.defs = Some(d.into_inner()),
            Err((message, _)) => errors.push(Error::at(
                ErrorKind::Invalid,
                at(d.span()),
                message.replace("prefab name", "definition file name"),
            )),
        }
    }
    for line in &raw.vary {
        // The string's first character, one past its opening quote; columns
        // count on from there when the string holds no escape.
        let span = line.span();
        let inner = text.get(span.start + 1..span.end.saturating_sub(1));
        let exact = inner == Some(line.get_ref().as_str());
        let start = at(span.start + usize::from(exact)..span.end);
        let whole = line.get_ref();
        let Some((key, value)) = whole.split_once(':').filter(|(k, _)| VARIATION_KEYS.contains(&k.trim())) else {
            errors.push(Error::at(ErrorKind::Invalid, start, format!("`{whole}` is not a variation line")).with_help(
                format!("write `KEY: VALUE` with KEY one of {}, as in a text prefab", VARIATION_KEYS.join(", ")),
            ));
            continue;
        };
        let skipped = whole.len() - value.trim_start().len();
        let col = if exact { start.col + whole[..skipped].chars().count() as u32 } else { start.col };
        header.variation.push(VariationLine {
            key: key.trim().to_string(),
            value: value.trim().to_string(),
            at: Location::at(file, start.line, col),
        });
    }
    if errors.is_empty() { Ok(header) } else { Err(errors) }
}

/// The header file for a `.xp` prefab, as [`read_sidecar`] reads it back.
pub fn sidecar_text(header: &Header) -> String {
    let tags: Vec<String> = header.tags.iter().map(|t| format!("{t:?}")).collect();
    let defs = header.defs.as_ref().map_or(String::new(), |d| format!("defs = \"{d}\"\n"));
    let vary = if header.variation.is_empty() {
        String::new()
    } else {
        let lines: Vec<String> = header
            .variation
            .iter()
            .map(|l| format!("  {},\n", toml::Value::String(format!("{}: {}", l.key, l.value))))
            .collect();
        format!("vary = [\n{}]\n", lines.concat())
    };
    format!(
        "# Header of the REXPaint prefab {}.xp\ntags = [{}]\ntransforms = \"{}\"\nstyle = \"{}\"\n{defs}{vary}",
        header.name,
        tags.join(", "),
        header.transforms.describe(),
        header.style
    )
}

impl Prefab {
    /// Reads a prefab from a REXPaint image drawn as the module documentation says.
    /// `header` comes from [`read_sidecar`] or [`Header::named`]; its name is checked
    /// here. Returns every problem found, each naming `file`, the layer and the cell.
    pub fn from_xp(
        file: &str,
        image: &XpImage,
        header: Header,
        palette: &Palette,
        limits: &Limits,
    ) -> Result<Prefab, Vec<Error>> {
        let whole = |message: String| Error::at(ErrorKind::Invalid, Location::file(file), message);
        if let Err((message, help)) = check_name(&header.name) {
            let mut e = whole(message);
            if let Some(help) = help {
                e = e.with_help(help);
            }
            return Err(vec![e]);
        }
        let (w, h) = (image.width(), image.height());
        let max = limits.max_prefab_side as i32;
        if w > max || h > max {
            return Err(vec![
                Error::at(
                    ErrorKind::Limit,
                    Location::file(file),
                    format!("the image is {w}x{h} cells; prefabs are at most {max} on a side"),
                )
                .with_help("crop the image, or raise Limits::max_prefab_side"),
            ]);
        }
        if image.layers().is_empty() {
            return Err(vec![
                whole("the image has no layers".into()).with_help("a prefab needs at least its terrain layer"),
            ]);
        }
        // A fifth layer, the mask, only means something to variation lines.
        let varies = !header.variation.is_empty();
        let most = if varies { LayerKind::Mask.xp_layer() } else { LayerKind::Refs.xp_layer() };
        if image.layers().len() > most {
            let help = if varies {
                "merge or delete the extra layers in REXPaint"
            } else {
                "merge or delete the extra layers in REXPaint (a fifth layer is a mask, for a prefab whose .toml has `vary` lines)"
            };
            return Err(vec![
                whole(format!(
                    "the image has {} layers; a prefab has at most {most} (terrain, links, machines, refs{})",
                    image.layers().len(),
                    if varies { ", mask" } else { "" }
                ))
                .with_help(help),
            ]);
        }
        let mut errors = Vec::new();
        let terrain = read_terrain(file, &image.layers()[0], palette, &mut errors);
        let mut overlays = [None, None, None];
        for (slot, (layer, &kind)) in overlays.iter_mut().zip(image.layers()[1..].iter().zip(&LayerKind::ALL[1..])) {
            *slot = Some(read_overlay(file, layer, kind, &mut errors));
        }
        let [links, machines, refs] = overlays;
        let Some(terrain) = terrain.filter(|_| errors.is_empty()) else {
            return Err(errors);
        };
        let drawn = Drawn { terrain, connectors: Vec::new(), links, machines, refs };
        if !varies {
            return assemble(file, header, Location::file(file), drawn, &Place::Xp, palette.moves());
        }
        // Layer 1's glyphs on painted cells; the mask where layer 5 is painted.
        let layer = &image.layers()[0];
        let glyphs = Grid::from_cells(
            w,
            h,
            layer.cells().iter().map(|c| (!c.is_transparent()).then(|| cp437::to_char(c.glyph)).flatten()).collect(),
        )
        .unwrap_or_else(|| Grid::new(w, h, None));
        let mask = match image.layers().get(LayerKind::Mask as usize) {
            Some(m) => Grid::from_cells(w, h, m.cells().iter().map(|c| !c.is_transparent()).collect())
                .unwrap_or_else(|| Grid::new(w, h, false)),
            None => Grid::new(w, h, false),
        };
        vary::build(file, header, Location::file(file), drawn, &Place::Xp, (&glyphs, mask), palette)
    }

    /// The prefab as a four-layer REXPaint image (five with a variation's mask)
    /// that [`Prefab::from_xp`] reads back to an equal prefab. Fails when the palette has no colour for one of its
    /// terrains, or a glyph has no code page 437 code.
    pub fn to_xp(&self, palette: &Palette) -> Result<XpImage, Error> {
        let (w, h) = (self.width(), self.height());
        let fail = |message: String| Error::new(ErrorKind::Invalid, format!("prefab `{}`: {message}", self.about.name));
        let mut terrain = XpLayer::new(w, h, XpCell::TRANSPARENT);
        for p in self.cells.bounds().points() {
            let mut cell = terrain_cell(self.cells[p], palette).map_err(fail)?;
            // A cell a variation line names keeps the glyph drawn there.
            if let Some((glyph, _)) = self.variation_glyph(p) {
                cell.glyph = cp437::from_char(glyph).ok_or_else(|| {
                    fail(format!("the variation glyph {glyph:?} at x={} y={} has no code page 437 code", p.x, p.y))
                })?;
            }
            terrain.set(p, cell);
        }
        let mut links = XpLayer::new(w, h, XpCell::TRANSPARENT);
        for (p, glyph) in self.link_glyphs()?.cells().iter().enumerate().filter_map(|(i, g)| g.map(|g| (i, g))) {
            let p = Point::new(p as i32 % w, p as i32 / w);
            let glyph = xp_arrow(glyph);
            links.set(p, mark(glyph, LINK_FG, MARK_BG).ok_or_else(|| fail(format!("no CP437 code for {glyph:?}")))?);
        }
        let mut machines = XpLayer::new(w, h, XpCell::TRANSPARENT);
        for m in &self.machines {
            for &(p, glyph) in m.cells() {
                let cell = mark(glyph, MACHINE_FG, MACHINE_BG).ok_or_else(|| {
                    fail(format!("the machine glyph {glyph:?} at x={} y={} has no code page 437 code", p.x, p.y))
                })?;
                machines.set(p, cell);
            }
        }
        let mut refs = XpLayer::new(w, h, XpCell::TRANSPARENT);
        for r in self.drawn_refs() {
            let cell = mark(r.glyph, REF_FG, MARK_BG).ok_or_else(|| {
                fail(format!("the reference {:?} at x={} y={} has no code page 437 code", r.glyph, r.at.x, r.at.y))
            })?;
            refs.set(r.at, cell);
        }
        let mut layers = vec![terrain, links, machines, refs];
        if let Some(mask) = self.mask_glyphs() {
            let mut layer = XpLayer::new(w, h, XpCell::TRANSPARENT);
            for p in mask.bounds().points().filter(|&p| mask[p].is_some()) {
                layer.set(p, XpCell { glyph: u32::from(b'x'), fg: MACHINE_FG, bg: MARK_BG });
            }
            layers.push(layer);
        }
        XpImage::with_layers(layers).map_err(|e| fail(e.to_string()))
    }
}

/// An opaque cell showing `glyph`, if it has a code page 437 code.
fn mark(glyph: char, fg: Rgb, bg: Rgb) -> Option<XpCell> {
    cp437::from_char(glyph).map(|code| XpCell { glyph: code, fg, bg })
}

/// The code page 437 arrow for a direction, as REXPaint's font draws it.
fn xp_arrow(arrow: char) -> char {
    match Dir::from_arrow(arrow) {
        Some(Dir::North) => '↑',
        Some(Dir::East) => '→',
        Some(Dir::South) => '↓',
        Some(Dir::West) => '←',
        None => arrow,
    }
}

/// Reads an arrow drawn in any of the ways REXPaint offers as `^ > v <`.
pub(super) fn text_arrow(glyph: char) -> char {
    match glyph {
        '↑' | '▲' => '^',
        '→' | '►' => '>',
        '↓' | '▼' => 'v',
        '←' | '◄' => '<',
        other => other,
    }
}

/// Black or white, whichever reads better on `bg`.
fn contrast(bg: Rgb) -> Rgb {
    let luma = 299 * u32::from(bg.r) + 587 * u32::from(bg.g) + 114 * u32::from(bg.b);
    if luma > 128_000 { Rgb::new(0, 0, 0) } else { Rgb::new(0xff, 0xff, 0xff) }
}

/// The layer-1 cell for a terrain: its palette colour and its text glyph, so the
/// image reads like the text prefab. A floor variant without a colour of its own is
/// painted in its floor's colour under its digit.
fn terrain_cell(terrain: Option<Terrain>, palette: &Palette) -> Result<XpCell, String> {
    let (colour, glyph) = match (palette.colour_of(terrain), terrain) {
        // Transparent reads as don't-care whatever the palette says.
        (_, None) => {
            return Ok(XpCell { glyph: u32::from(b'?'), fg: Rgb::new(0x80, 0x80, 0x80), bg: Rgb::TRANSPARENT });
        }
        (Some(c), Some(t)) => (c, palette.source_glyph(t).unwrap_or_else(|| palette.render_glyph(t))),
        (None, Some(t)) if t.is_floor() && t.variant() > 0 => {
            let base = Terrain::new(t.role());
            let c = palette.colour_of(Some(base)).ok_or_else(|| format!("the palette has no colour for {base}"))?;
            (c, char::from(b'0' + t.variant()))
        }
        (None, Some(t)) => {
            return Err(format!("the palette has no colour for {t}; add one under [colours] in palette.toml"));
        }
    };
    let code = cp437::from_char(glyph).unwrap_or(u32::from(b'?'));
    Ok(match palette.colour_from() {
        ColourChannel::Background => XpCell { glyph: code, fg: contrast(colour), bg: colour },
        ColourChannel::Foreground => XpCell { glyph: code, fg: colour, bg: Rgb::new(0, 0, 0) },
    })
}

/// Reads layer 1 through the palette's colours; unknown colours are reported with
/// the palette colour nearest to them.
fn read_terrain(
    file: &str,
    layer: &XpLayer,
    palette: &Palette,
    errors: &mut Vec<Error>,
) -> Option<Grid<Option<Terrain>>> {
    let (w, h) = (layer.width(), layer.height());
    let mut cells = Vec::with_capacity((w * h) as usize);
    let mut bad = 0usize;
    for y in 0..h {
        for x in 0..w {
            let cell = layer[Point::new(x, y)];
            if cell.is_transparent() {
                // Unpainted: don't care, whichever colour the palette reads.
                cells.push(None);
                continue;
            }
            let colour = match palette.colour_from() {
                ColourChannel::Background => cell.bg,
                ColourChannel::Foreground => cell.fg,
            };
            match palette.terrain_of_colour(colour) {
                Some(Some(t)) => cells.push(Some(digit_variant(t, cell.glyph))),
                Some(None) => cells.push(None),
                None => {
                    bad += 1;
                    if bad <= MAX_COLOUR_ERRORS {
                        errors.push(unknown_colour(file, Point::new(x, y), colour, palette));
                    }
                    cells.push(None);
                }
            }
        }
    }
    if bad > MAX_COLOUR_ERRORS {
        errors.push(Error::at(
            ErrorKind::Invalid,
            Location::file(file),
            format!("... and {} more cells of layer 1 in colours the palette does not know", bad - MAX_COLOUR_ERRORS),
        ));
    }
    Grid::from_cells(w, h, cells)
}

/// A floor painted under a digit glyph is that variant of the floor.
fn digit_variant(t: Terrain, glyph: u32) -> Terrain {
    match (t.role(), glyph) {
        (Role::Floor(_), 0x30..=0x39) if t.variant() == 0 => Terrain::with_variant(t.role(), (glyph - 0x30) as u8),
        _ => t,
    }
}

fn unknown_colour(file: &str, p: Point, colour: Rgb, palette: &Palette) -> Error {
    let distance = |c: Rgb| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(c.r, colour.r) + d(c.g, colour.g) + d(c.b, colour.b)
    };
    let nearest = palette.colours().iter().min_by_key(|(c, _)| distance(*c));
    let mut e = Error::at(
        ErrorKind::Invalid,
        Location::file(file),
        format!("layer 1 (terrain), cell x={} y={}: colour {colour} is not in the palette", p.x, p.y),
    );
    if let Some((c, t)) = nearest {
        let what = t.map_or("`?` (don't care)".to_string(), |t| t.to_string());
        e = e.with_help(format!(
            "the nearest palette colour is {c} ({what}); repaint the cell, or name the colour under [colours] in palette.toml"
        ));
    }
    e
}

/// Reads an overlay layer as glyphs: transparent cells are empty; on the links and
/// references layers so are painted cells without a glyph.
fn read_overlay(file: &str, layer: &XpLayer, kind: LayerKind, errors: &mut Vec<Error>) -> Grid<Option<char>> {
    let mut glyphs = Grid::new(layer.width(), layer.height(), None);
    let mut bad = 0usize;
    for p in glyphs.bounds().points() {
        let cell = layer[p];
        if cell.is_transparent() {
            continue;
        }
        let blank = cell.glyph == 0 || cell.glyph == u32::from(b' ');
        if blank && kind != LayerKind::Machines {
            continue;
        }
        let Some(glyph) = cp437::to_char(cell.glyph) else {
            bad += 1;
            if bad > MAX_COLOUR_ERRORS {
                continue;
            }
            errors.push(
                Error::at(
                    ErrorKind::Invalid,
                    Location::file(file),
                    format!(
                        "layer {} ({}), cell x={} y={}: glyph {} is not a code page 437 glyph",
                        kind.xp_layer(),
                        kind.name(),
                        p.x,
                        p.y,
                        cell.glyph
                    ),
                )
                .with_help("draw prefabs with a 256-glyph CP437 font"),
            );
            continue;
        };
        let glyph = if kind == LayerKind::Links { text_arrow(glyph) } else { glyph };
        glyphs.set(p, Some(glyph));
    }
    if bad > MAX_COLOUR_ERRORS {
        errors.push(Error::at(
            ErrorKind::Invalid,
            Location::file(file),
            format!(
                "... and {} more cells of layer {} outside code page 437",
                bad - MAX_COLOUR_ERRORS,
                kind.xp_layer()
            ),
        ));
    }
    glyphs
}
