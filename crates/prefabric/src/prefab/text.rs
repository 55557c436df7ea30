//! Text prefabs: raw blocks from [`crate::format::text`] turned into [`Prefab`]s.
//!
//! Reads the header (`tags`, `transforms`, `style`), the terrain grid through the
//! palette (`*` there is a connector: a door cell with a link mark on it), and the `links`, `machines` and `refs` grids as glyphs (`.` is an empty
//! cell), then hands them to [`assemble`](super::assemble) so text and `.xp` prefabs
//! pass the same checks. Every problem is reported at its `file:line:col`.

use super::assemble::{Drawn, Place, assemble};
use super::vary::{self, parse::Named};
use super::{Declared, Header, LayerKind, Prefab, VARIATION_KEYS, VariationLine, check_name, check_tag};
use crate::error::{Error, ErrorKind, Location};
use crate::format::palette::{CONNECTOR, DONT_CARE, Palette};
use crate::format::suggest;
use crate::format::text::{self, Field, Layer, Located, RawPrefab};
use crate::geom::{Point, Transform, TransformSet};
use crate::grid::Grid;
use crate::limits::Limits;
use crate::map::{Role, Terrain};
use crate::vocab::Style;

/// Header keys a prefab may have, each once.
const KEYS: [&str; 4] = ["tags", "transforms", "style", "defs"];

/// Most errors reported for one prefab's grid before the rest are summarised.
const MAX_GRID_ERRORS: usize = 12;

/// The glyph of an empty cell in the overlay layers (links, machines, refs).
pub const EMPTY: char = '.';

/// Builds a prefab from a raw text block; see [`Prefab::from_text`].
pub(super) fn from_text(file: &str, raw: &RawPrefab<'_>, palette: &Palette) -> Result<Prefab, Vec<Error>> {
    let mut b = Builder { file, errors: Vec::new() };
    let name = b.name(&raw.name);
    let (tags, transforms, style, defs) = b.header(&raw.fields);
    let variation = variation_lines(file, &raw.fields);
    let named = b.named(&variation);
    let layers = b.layers(raw);
    let terrain = layers[LayerKind::Terrain as usize].and_then(|layer| b.terrain(layer, palette, &named));
    let Some((terrain, connectors, glyphs)) = terrain else {
        return Err(b.sorted_errors());
    };
    let size = (terrain.width(), terrain.height());
    let mask = layers[LayerKind::Mask as usize].and_then(|l| b.overlay(l, size));
    if let Some(l) = layers[LayerKind::Mask as usize].filter(|_| named.rules == 0) {
        b.invalid(
            l.name.line,
            l.name.col,
            "a `mask` layer, but no variation rule to protect cells from",
            Some("remove the layer, or add `subst`, `subst-once`, `nsubst` or `shuffle` lines".into()),
        );
    }
    let overlay = |b: &mut Builder<'_>, kind: LayerKind| layers[kind as usize].and_then(|l| b.overlay(l, size));
    let drawn = Drawn {
        links: overlay(&mut b, LayerKind::Links),
        machines: overlay(&mut b, LayerKind::Machines),
        refs: overlay(&mut b, LayerKind::Refs),
        terrain,
        connectors,
    };
    let header = Header { name, tags, transforms, style, defs, variation };
    let origin = Location::at(file, raw.name.line, raw.name.col);
    let place = Place::Text { layers };
    let result = if header.variation.is_empty() {
        assemble(file, header, origin, drawn, &place, palette.moves())
    } else if b.errors.is_empty() {
        let mask = mask.map_or_else(|| Grid::new(size.0, size.1, false), |m| m.map(|c| c.is_some()));
        vary::build(file, header, origin, drawn, &place, (&glyphs, mask), palette)
    } else {
        // A mistake in a variation line or the grid: the variation is not built.
        Err(Vec::new())
    };
    match result {
        Ok(prefab) if b.errors.is_empty() => Ok(prefab),
        Ok(_) => Err(b.sorted_errors()),
        Err(errors) => {
            b.errors.extend(errors);
            Err(b.sorted_errors())
        }
    }
}

/// A prefab's variation lines, in the order written: their values whole, as `#`
/// is a glyph there.
fn variation_lines(file: &str, fields: &[Field<'_>]) -> Vec<VariationLine> {
    fields
        .iter()
        .filter(|f| VARIATION_KEYS.contains(&f.key.text))
        .map(|f| VariationLine {
            key: f.key.text.to_string(),
            value: f.whole_value.text.to_string(),
            at: Location::at(file, f.whole_value.line, f.whole_value.col),
        })
        .collect()
}

/// Reads every prefab of one text file: the prefabs that are valid, and every
/// problem found (syntax, glyphs, links), located in `file`. A file without any
/// prefab is a problem too.
pub fn read_file(file: &str, source: &str, palette: &Palette, limits: &Limits) -> (Vec<Prefab>, Vec<Error>) {
    let (prefabs, _, errors) = read_file_declaring(file, source, Some(palette), limits);
    (prefabs, errors)
}

/// [`read_file`], also giving what each prefab that did not load declared in its
/// header. Without a palette no grid can be read: only the syntax is checked, and
/// every prefab is declared.
pub(crate) fn read_file_declaring(
    file: &str,
    source: &str,
    palette: Option<&Palette>,
    limits: &Limits,
) -> (Vec<Prefab>, Vec<Declared>, Vec<Error>) {
    let (raws, mut errors) = text::parse(file, source, limits);
    if raws.is_empty() && errors.is_empty() {
        errors.push(
            Error::at(ErrorKind::Invalid, Location::file(file), "the file holds no prefab")
                .with_help("a prefab starts with a line `prefab NAME`"),
        );
    }
    let mut prefabs = Vec::new();
    let mut unread = Vec::new();
    for raw in &raws {
        match palette.map(|palette| Prefab::from_text(file, raw, palette)) {
            Some(Ok(p)) => prefabs.push(p),
            Some(Err(e)) => {
                errors.extend(e);
                unread.push(declared(raw));
            }
            None => unread.push(declared(raw)),
        }
    }
    (prefabs, unread, errors)
}

/// What a raw prefab's header declares, as written.
fn declared(raw: &RawPrefab<'_>) -> Declared {
    let field = |key: &str| raw.fields.iter().find(|f| f.key.text == key).map(|f| f.value.text);
    Declared::new(raw.name.text, field("tags"), field("defs"))
}

struct Builder<'f> {
    file: &'f str,
    errors: Vec<Error>,
}

impl Builder<'_> {
    fn sorted_errors(&mut self) -> Vec<Error> {
        let mut errors = std::mem::take(&mut self.errors);
        errors.sort_by(|x, y| x.location().cmp(&y.location()));
        errors
    }

    fn at(&self, line: u32, col: u32) -> Location {
        Location::at(self.file, line, col)
    }

    fn invalid(&mut self, line: u32, col: u32, message: impl Into<String>, help: Option<String>) {
        let mut e = Error::at(ErrorKind::Invalid, self.at(line, col), message);
        if let Some(help) = help {
            e = e.with_help(help);
        }
        self.errors.push(e);
    }

    fn name(&mut self, name: &Located<'_>) -> String {
        if let Err((message, help)) = check_name(name.text) {
            self.invalid(name.line, name.col, message, help);
        }
        name.text.to_string()
    }

    fn header(&mut self, fields: &[Field<'_>]) -> (Vec<String>, TransformSet, Style, Option<String>) {
        let mut defs = None;
        let mut tags = Vec::new();
        let mut transforms = TransformSet::ALL;
        let mut style = Style::Feature;
        let mut seen: Vec<&str> = Vec::new();
        for f in fields.iter().filter(|f| !VARIATION_KEYS.contains(&f.key.text)) {
            let (key, value) = (&f.key, &f.value);
            if seen.contains(&key.text) {
                self.invalid(key.line, key.col, format!("`{}` is given twice", key.text), None);
                continue;
            }
            seen.push(key.text);
            match key.text {
                "tags" => {
                    tags = Vec::new();
                    for tag in value.text.split(|c: char| c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()) {
                        if let Err(message) = check_tag(tag) {
                            let offset = tag.as_ptr() as usize - value.text.as_ptr() as usize;
                            let col = value.col + value.text[..offset].chars().count() as u32;
                            self.invalid(value.line, col, message, None);
                        }
                        tags.push(tag.to_string());
                    }
                }
                "transforms" => match TransformSet::parse(value.text) {
                    Ok(set) if set.is_empty() => self.invalid(
                        value.line,
                        value.col,
                        "`transforms` lists no orientation",
                        Some("write `all`, `rotations`, `none`, or names such as `r0 r90 flip`".into()),
                    ),
                    Ok(set) => transforms = set,
                    Err(word) => {
                        let col = value.col
                            + value.text.find(word.as_str()).map_or(0, |i| value.text[..i].chars().count() as u32);
                        self.invalid(
                            value.line,
                            col,
                            format!("unknown transform `{word}`"),
                            Some(Transform::HELP.into()),
                        );
                    }
                },
                "defs" => match check_name(value.text) {
                    Ok(()) => defs = Some(value.text.to_string()),
                    Err((message, _)) => self.invalid(
                        value.line,
                        value.col,
                        message.replace("prefab name", "definition file name"),
                        Some("`defs:` names a .def file under prefabs/, without `.def`".into()),
                    ),
                },
                "style" => match Style::parse(value.text) {
                    Some(s) => style = s,
                    None => self.invalid(
                        value.line,
                        value.col,
                        format!("unknown style `{}`", value.text),
                        Some(format!("styles are {}", Style::names())),
                    ),
                },
                other => {
                    let all = KEYS.iter().chain(&VARIATION_KEYS).copied();
                    let names = all.clone().collect::<Vec<_>>().join(", ");
                    let help = match suggest(other, all) {
                        Some(s) => format!("did you mean `{s}`? header keys are {names}"),
                        None => format!("header keys are {names}"),
                    };
                    self.invalid(key.line, key.col, format!("unknown header key `{other}`"), Some(help));
                }
            }
        }
        (tags, transforms, style, defs)
    }

    /// The glyphs the variation lines name; reports their mistakes.
    fn named(&mut self, lines: &[VariationLine]) -> Named {
        let (named, errors) = Named::read(lines);
        self.errors.extend(errors);
        named
    }

    /// The layers by kind; reports duplicates, empty layers and a missing terrain layer.
    fn layers<'r, 'a>(&mut self, raw: &'r RawPrefab<'a>) -> [Option<&'r Layer<'a>>; 5] {
        let mut found: [Option<&'r Layer<'a>>; 5] = [None; 5];
        for layer in &raw.layers {
            let Some(kind) = LayerKind::ALL.into_iter().find(|k| k.name() == layer.name.text) else { continue };
            let slot = &mut found[kind as usize];
            if slot.is_some() {
                self.invalid(
                    layer.name.line,
                    layer.name.col,
                    format!("prefab `{}` has two `{}` layers", raw.name.text, layer.name.text),
                    None,
                );
            } else if layer.rows.is_empty() && layer.dropped_rows == 0 {
                self.invalid(
                    layer.name.line,
                    layer.name.col,
                    format!("the `{}` layer has no rows", layer.name.text),
                    Some("the grid's rows follow the layer line directly, with no blank line between".into()),
                );
                *slot = Some(layer);
            } else {
                *slot = Some(layer);
            }
        }
        if found[LayerKind::Terrain as usize].is_none() {
            self.invalid(
                raw.name.line,
                raw.name.col,
                format!("prefab `{}` has no terrain layer", raw.name.text),
                Some("add a line `terrain:` followed by the prefab's rows".into()),
            );
        }
        found.map(|l| l.filter(|l| !l.rows.is_empty()))
    }

    /// Checks that every row of a layer has the width of the first; returns it.
    fn width_of(&mut self, layer: &Layer<'_>, expected: Option<(i32, i32)>) -> Option<i32> {
        let width = layer.rows[0].text.chars().count() as i32;
        let mut ok = true;
        if let Some((ew, eh)) = expected {
            let h = layer.rows.len() as i32;
            if (width, h) != (ew, eh) {
                self.invalid(
                    layer.name.line,
                    layer.name.col,
                    format!("the `{}` layer is {width}x{h} but the terrain is {ew}x{eh}", layer.name.text),
                    Some("every layer must have exactly the terrain's rows and columns".into()),
                );
                return None;
            }
        }
        for row in &layer.rows[1..] {
            let w = row.text.chars().count() as i32;
            if w != width {
                ok = false;
                self.invalid(
                    row.line,
                    (w.min(width) + 1) as u32,
                    format!("row is {w} cells wide but the first row of the `{}` layer is {width}", layer.name.text),
                    Some(
                        "every row of a grid must be as wide as the first; a grid ends at the first blank line".into(),
                    ),
                );
            }
        }
        ok.then_some(width)
    }

    /// The terrain grid, the cells where it draws a connector (`*`, a door the
    /// layout may join the prefab through), and the glyph of every other cell (for
    /// the variation; a glyph only the legend or a rule gives meaning to reads as
    /// don't-care until the variation resolves it).
    #[allow(clippy::type_complexity)]
    fn terrain(
        &mut self,
        layer: &Layer<'_>,
        palette: &Palette,
        named: &Named,
    ) -> Option<(Grid<Option<Terrain>>, Vec<Point>, Grid<Option<char>>)> {
        // Glyphs are checked even when rows are ragged, so one pass reports both.
        let width = self.width_of(layer, None);
        let height = layer.rows.len() as i32;
        let mut cells = Vec::with_capacity(layer.rows[0].text.len() * layer.rows.len());
        let mut glyphs = Vec::with_capacity(cells.capacity());
        let mut connectors = Vec::new();
        // Each unknown glyph once per grid: where it is first, and how often.
        let mut unknown: Vec<(char, u32, u32, usize)> = Vec::new();
        for (y, row) in layer.rows.iter().enumerate() {
            for (x, c) in row.text.chars().enumerate() {
                glyphs.push((c != CONNECTOR).then_some(c));
                if let Some(t) = named.legend_terrain(c) {
                    cells.push(Some(t));
                } else if c == DONT_CARE {
                    cells.push(None);
                } else if c == CONNECTOR {
                    connectors.push(Point::new(x as i32, y as i32));
                    cells.push(Some(Terrain::new(Role::Door)));
                } else if let Some(t) = palette.terrain_of(c) {
                    cells.push(Some(t));
                } else if named.accepts(c) {
                    cells.push(None);
                } else {
                    match unknown.iter_mut().find(|u| u.0 == c) {
                        Some(u) => u.3 += 1,
                        None => unknown.push((c, row.line, x as u32 + 1, 1)),
                    }
                    cells.push(None);
                }
            }
        }
        for &(c, line, col, count) in unknown.iter().take(MAX_GRID_ERRORS) {
            let help = if c == ' ' || c == '\t' {
                "spaces are not glyphs; write `?` for cells the prefab leaves as they are".to_string()
            } else {
                let known: String = palette.glyphs().iter().map(|(g, _)| *g).collect();
                format!(
                    "the palette defines `{known}`, the digits 0-9, `?` and `*`; add `{c}` to palette.toml, use one of those, or give it a meaning in this prefab with `legend: {c} = TERRAIN`"
                )
            };
            let more = match count {
                1 => String::new(),
                2 => " (here and in 1 more cell of this grid)".to_string(),
                n => format!(" (here and in {} more cells of this grid)", n - 1),
            };
            self.invalid(line, col, format!("unknown glyph `{c}`{more}"), Some(help));
        }
        if unknown.len() > MAX_GRID_ERRORS {
            let first = &layer.rows[0];
            let more = unknown.len() - MAX_GRID_ERRORS;
            self.invalid(first.line, 1, format!("... and {more} more unknown glyphs in this grid"), None);
        }
        let bad = unknown.len();
        let width = width.filter(|_| bad == 0)?;
        let glyphs = Grid::from_cells(width, height, glyphs)?;
        Grid::from_cells(width, height, cells).map(|grid| (grid, connectors, glyphs))
    }

    /// An overlay layer (links, machines, refs) as glyphs, `.` read as empty.
    fn overlay(&mut self, layer: &Layer<'_>, (w, h): (i32, i32)) -> Option<Grid<Option<char>>> {
        self.width_of(layer, Some((w, h)))?;
        let mut glyphs = Vec::with_capacity((w * h) as usize);
        for row in &layer.rows {
            for (x, c) in row.text.chars().enumerate() {
                if c.is_whitespace() || c.is_control() {
                    self.invalid(
                        row.line,
                        x as u32 + 1,
                        format!("`{}` is not a glyph", c.escape_default()),
                        Some(format!("write `{EMPTY}` for cells of the `{}` layer that hold nothing", layer.name.text)),
                    );
                    glyphs.push(None);
                } else {
                    glyphs.push((c != EMPTY).then_some(c));
                }
            }
        }
        Grid::from_cells(w, h, glyphs)
    }
}
