//! Prefabs: validated hand-made rectangles with their link marks.
//!
//! A [`Prefab`] is built from a raw text block ([`crate::format::text`]) and the
//! pack's [`Palette`]: each terrain glyph becomes a [`Terrain`] (or don't-care), each
//! mark on the `links` layer becomes a [`LinkMark`] with its width and direction.
//! Every problem is reported at its `file:line:col`. A built prefab is consistent:
//! its grid is rectangular, every link mark has a direction and a clear way out to
//! the prefab's edge, and [`Prefab::transformed`] gives the same prefab in any of the
//! eight orientations.

use crate::error::{Error, ErrorKind, Location};
use crate::format::palette::{DONT_CARE, Palette};
use crate::format::suggest;
use crate::format::text::{self, Field, Layer, Located, RawPrefab};
use crate::geom::{Dir, Point, Transform, TransformSet};
use crate::grid::Grid;
use crate::limits::Limits;
use crate::map::{LinkKind, Role, Terrain};
use std::fmt;

/// How a prefab is meant to be placed (seed 000).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Style {
    /// Placed by the features stage before the layout (seeding).
    Feature,
    /// Fills a room, its bottom edge facing the room's door; the room shrinks to fit.
    Enclosed,
    /// Sits anywhere inside a room, all edges open.
    Accessible,
    /// Like enclosed, with the door and the whole front wall removed.
    Cubby,
}

impl Style {
    const ALL: [Style; 4] = [Style::Feature, Style::Enclosed, Style::Accessible, Style::Cubby];

    /// Lower-case name as written in headers.
    pub const fn name(self) -> &'static str {
        match self {
            Style::Feature => "feature",
            Style::Enclosed => "enclosed",
            Style::Accessible => "accessible",
            Style::Cubby => "cubby",
        }
    }

    /// Parses a name written by [`Style::name`].
    pub fn parse(s: &str) -> Option<Style> {
        Style::ALL.into_iter().find(|st| st.name() == s)
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A link mark: where a tunneler starts or a connector sits, and which way it leads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinkMark {
    /// The mark's cell, in prefab coordinates.
    pub at: Point,
    /// The way out of the prefab.
    pub dir: Dir,
    /// Tunnel start or connector.
    pub kind: LinkKind,
}

impl LinkMark {
    /// The cells from the mark to the prefab's edge in its direction, mark first.
    /// These are the only cells of a placed prefab a link may change.
    pub fn path(&self, width: i32, height: i32) -> impl Iterator<Item = Point> + use<> {
        let steps = match self.dir {
            Dir::North => self.at.y,
            Dir::South => height - 1 - self.at.y,
            Dir::West => self.at.x,
            Dir::East => width - 1 - self.at.x,
        };
        let (at, delta) = (self.at, self.dir.delta());
        (0..=steps.max(0)).map(move |k| at + delta * k)
    }
}

/// A validated prefab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prefab {
    name: String,
    tags: Vec<String>,
    transforms: TransformSet,
    style: Style,
    cells: Grid<Option<Terrain>>,
    links: Vec<LinkMark>,
    origin: Location,
}

/// Header keys a prefab may have.
const KEYS: [&str; 3] = ["tags", "transforms", "style"];

/// Most errors reported for one prefab's grid before the rest are summarised.
const MAX_GRID_ERRORS: usize = 12;

impl Prefab {
    /// Its name, unique in its pack.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its tags, in the order written.
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// The orientations it may be placed in.
    pub fn transforms(&self) -> TransformSet {
        self.transforms
    }

    /// How it is meant to be placed.
    pub fn style(&self) -> Style {
        self.style
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.cells.width()
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.cells.height()
    }

    /// The terrain layer: `None` is don't-care.
    pub fn cells(&self) -> &Grid<Option<Terrain>> {
        &self.cells
    }

    /// Its link marks, in reading order (row by row, west to east).
    pub fn links(&self) -> &[LinkMark] {
        &self.links
    }

    /// Where it is defined (its name on the `prefab` line).
    pub fn origin(&self) -> &Location {
        &self.origin
    }

    /// True when `p` lies on the way out of one of the link marks.
    pub fn is_link_path(&self, p: Point) -> bool {
        self.links.iter().any(|l| l.path(self.width(), self.height()).any(|q| q == p))
    }

    /// The same prefab turned and flipped by `t`: cells, links and their directions
    /// all move together.
    pub fn transformed(&self, t: Transform) -> Prefab {
        let (w, h) = (self.width(), self.height());
        let (tw, th) = t.apply_size(w, h);
        let mut cells = Grid::new(tw, th, None);
        for p in self.cells.bounds().points() {
            cells.set(t.apply_point(p, w, h), self.cells[p]);
        }
        let mut links: Vec<LinkMark> = self
            .links
            .iter()
            .map(|l| LinkMark { at: t.apply_point(l.at, w, h), dir: t.apply_dir(l.dir), kind: l.kind })
            .collect();
        // Reading order, as a parsed prefab lists them.
        links.sort_by_key(|l| (l.at.y, l.at.x));
        Prefab { cells, links, ..self.clone() }
    }

    /// Builds a prefab from a raw text block, reading glyphs through `palette`.
    /// Returns every problem found, each located in `file`.
    pub fn from_text(file: &str, raw: &RawPrefab<'_>, palette: &Palette) -> Result<Prefab, Vec<Error>> {
        let mut b = Builder { file, errors: Vec::new() };
        let name = b.name(&raw.name);
        let (tags, transforms, style) = b.header(&raw.fields);
        let (terrain, links) = b.layers(raw);
        let cells = terrain.and_then(|layer| b.terrain(layer, palette));
        let marks = match (&cells, links) {
            (Some(cells), Some(layer)) => b.links(layer, cells),
            _ => Vec::new(),
        };
        match cells {
            Some(cells) if b.errors.is_empty() => Ok(Prefab {
                name,
                tags,
                transforms,
                style,
                cells,
                links: marks,
                origin: Location::at(file, raw.name.line, raw.name.col),
            }),
            _ => {
                b.errors.sort_by(|x, y| x.location().cmp(&y.location()));
                Err(b.errors)
            }
        }
    }
}

/// Reads every prefab of one text file: the prefabs that are valid, and every
/// problem found (syntax, glyphs, links), located in `file`. A file without any
/// prefab is a problem too.
pub fn read_file(file: &str, source: &str, palette: &Palette, limits: &Limits) -> (Vec<Prefab>, Vec<Error>) {
    let (raws, mut errors) = text::parse(file, source, limits);
    if raws.is_empty() && errors.is_empty() {
        errors.push(
            Error::at(ErrorKind::Invalid, Location::file(file), "the file holds no prefab")
                .with_help("a prefab starts with a line `prefab NAME`"),
        );
    }
    let mut prefabs = Vec::new();
    for raw in &raws {
        match Prefab::from_text(file, raw, palette) {
            Ok(p) => prefabs.push(p),
            Err(e) => errors.extend(e),
        }
    }
    (prefabs, errors)
}

struct Builder<'f> {
    file: &'f str,
    errors: Vec<Error>,
}

impl Builder<'_> {
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
        let (line, col, text) = (name.line, name.col, name.text);
        if text.is_empty() {
            self.invalid(
                line,
                col,
                "`prefab` needs a name",
                Some("write `prefab NAME`, e.g. `prefab storeroom`".into()),
            );
        } else if text.contains(char::is_whitespace) {
            self.invalid(
                line,
                col,
                format!("prefab name `{text}` contains a space"),
                Some("join the words with `_` or `-`".into()),
            );
        } else if text.len() > 64 || !text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')) {
            self.invalid(
                line,
                col,
                format!("prefab name `{text}` may only use letters, digits, `_`, `-` and `.` (at most 64)"),
                None,
            );
        }
        text.to_string()
    }

    fn header(&mut self, fields: &[Field<'_>]) -> (Vec<String>, TransformSet, Style) {
        let mut tags = Vec::new();
        let mut transforms = TransformSet::ALL;
        let mut style = Style::Feature;
        let mut seen: Vec<&str> = Vec::new();
        for f in fields {
            let (key, value) = (&f.key, &f.value);
            if seen.contains(&key.text) {
                self.invalid(key.line, key.col, format!("`{}` is given twice", key.text), None);
                continue;
            }
            seen.push(key.text);
            match key.text {
                "tags" => {
                    tags = value
                        .text
                        .split(|c: char| c == ',' || c.is_whitespace())
                        .filter(|t| !t.is_empty())
                        .map(String::from)
                        .collect();
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
                "style" => match Style::parse(value.text) {
                    Some(s) => style = s,
                    None => self.invalid(
                        value.line,
                        value.col,
                        format!("unknown style `{}`", value.text),
                        Some("styles are feature, enclosed, accessible, cubby".into()),
                    ),
                },
                other => {
                    let help = match suggest(other, KEYS) {
                        Some(s) => format!("did you mean `{s}`? header keys are {}", KEYS.join(", ")),
                        None => format!("header keys are {}", KEYS.join(", ")),
                    };
                    self.invalid(key.line, key.col, format!("unknown header key `{other}`"), Some(help));
                }
            }
        }
        (tags, transforms, style)
    }

    fn layers<'r, 'a>(&mut self, raw: &'r RawPrefab<'a>) -> (Option<&'r Layer<'a>>, Option<&'r Layer<'a>>) {
        let (mut terrain, mut links) = (None, None);
        for layer in &raw.layers {
            let slot = if layer.name.text == "terrain" { &mut terrain } else { &mut links };
            if slot.is_some() {
                self.invalid(
                    layer.name.line,
                    layer.name.col,
                    format!("prefab `{}` has two `{}` layers", raw.name.text, layer.name.text),
                    None,
                );
            } else if layer.rows.is_empty() {
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
        if terrain.is_none() {
            self.invalid(
                raw.name.line,
                raw.name.col,
                format!("prefab `{}` has no terrain layer", raw.name.text),
                Some("add a line `terrain:` followed by the prefab's rows".into()),
            );
        }
        (terrain.filter(|l| !l.rows.is_empty()), links.filter(|l| !l.rows.is_empty()))
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

    fn terrain(&mut self, layer: &Layer<'_>, palette: &Palette) -> Option<Grid<Option<Terrain>>> {
        // Glyphs are checked even when rows are ragged, so one pass reports both.
        let width = self.width_of(layer, None);
        let height = layer.rows.len() as i32;
        let mut cells = Vec::with_capacity(layer.rows[0].text.len() * layer.rows.len());
        let mut bad = 0usize;
        for row in &layer.rows {
            for (x, c) in row.text.chars().enumerate() {
                if c == DONT_CARE {
                    cells.push(None);
                } else if let Some(t) = palette.terrain_of(c) {
                    cells.push(Some(t));
                } else {
                    bad += 1;
                    if bad <= MAX_GRID_ERRORS {
                        let help = if c == ' ' || c == '\t' {
                            "spaces are not glyphs; write `?` for cells the prefab leaves as they are".to_string()
                        } else {
                            let known: String = palette.glyphs().iter().map(|(g, _)| *g).collect();
                            format!(
                                "the palette defines `{known}`, the digits 0-9 and `?`; add `{c}` to palette.toml or use one of those"
                            )
                        };
                        self.invalid(row.line, x as u32 + 1, format!("unknown glyph `{c}`"), Some(help));
                    }
                    cells.push(None);
                }
            }
        }
        if bad > MAX_GRID_ERRORS {
            let first = &layer.rows[0];
            self.invalid(
                first.line,
                1,
                format!("... and {} more unknown glyphs in this grid", bad - MAX_GRID_ERRORS),
                None,
            );
        }
        let width = width.filter(|_| bad == 0)?;
        Grid::from_cells(width, height, cells)
    }

    fn links(&mut self, layer: &Layer<'_>, cells: &Grid<Option<Terrain>>) -> Vec<LinkMark> {
        let (w, h) = (cells.width(), cells.height());
        if self.width_of(layer, Some((w, h))).is_none() {
            return Vec::new();
        }
        let glyphs: Vec<Vec<char>> = layer.rows.iter().map(|r| r.text.chars().collect()).collect();
        let glyph = |p: Point| glyphs[p.y as usize][p.x as usize];
        let loc = |p: Point| (layer.rows[p.y as usize].line, p.x as u32 + 1);
        let mut marks: Vec<(Point, LinkKind)> = Vec::new();
        let mut arrows: Vec<(Point, Dir)> = Vec::new();
        for p in cells.bounds().points() {
            match glyph(p) {
                '.' => {}
                '*' => marks.push((p, LinkKind::Connector)),
                c @ '1'..='9' => marks.push((p, LinkKind::Tunnel { width: c as u8 - b'0' })),
                c => match Dir::from_arrow(c) {
                    Some(d) => arrows.push((p, d)),
                    None => {
                        let (line, col) = loc(p);
                        self.invalid(
                            line,
                            col,
                            format!("`{c}` is not a link mark"),
                            Some("the links layer holds `.` (nothing), 1-9 (a tunneler of that width), `*` (a connector) and arrows `^ > v <` beside a mark".into()),
                        );
                    }
                },
            }
        }

        let mut dirs: Vec<Option<Dir>> = vec![None; marks.len()];
        for &(p, d) in &arrows {
            let owners: Vec<usize> =
                Dir::ALL.iter().filter_map(|n| marks.iter().position(|(m, _)| *m == p + n.delta())).collect();
            let (line, col) = loc(p);
            match owners.as_slice() {
                [i] if dirs[*i].is_none() => dirs[*i] = Some(d),
                [i] => {
                    let (mline, mcol) = loc(marks[*i].0);
                    self.invalid(line, col, format!("the mark at {mline}:{mcol} already has an arrow"), None);
                }
                [] => self.invalid(
                    line,
                    col,
                    format!("arrow `{}` is not beside a link mark", d.arrow()),
                    Some("put the arrow right next to the digit or `*` it steers".into()),
                ),
                _ => self.invalid(
                    line,
                    col,
                    format!("arrow `{}` touches more than one link mark", d.arrow()),
                    Some("move the marks apart so each arrow touches one".into()),
                ),
            }
        }

        let mut links = Vec::new();
        for (i, &(p, kind)) in marks.iter().enumerate() {
            let (line, col) = loc(p);
            let dir = match dirs[i] {
                Some(d) => d,
                None => {
                    match nearest_edge(p, w, h) {
                        Ok(d) => d,
                        Err((a, b)) => {
                            self.invalid(
                            line,
                            col,
                            format!("the mark is as close to the {a} edge as to the {b} edge, so its direction is unclear"),
                            Some("put an arrow (^ > v <) beside it to say which way it leads".into()),
                        );
                            continue;
                        }
                    }
                }
            };
            let mark = LinkMark { at: p, dir, kind };
            if let Some(blocker) = mark.path(w, h).find(|q| !link_can_pass(cells[*q])) {
                let (bl, bc) = loc(blocker);
                let what = cells[blocker].map_or("?".to_string(), |t| t.to_string());
                self.invalid(
                    line,
                    col,
                    format!("the way {} from this mark to the prefab's edge is blocked by {what} at {bl}:{bc}", dir.name()),
                    Some("a link leads out through floor, doors, earth or `?` cells; move the mark or point it another way".into()),
                );
                continue;
            }
            links.push(mark);
        }
        links
    }
}

/// True when a link's way out may cross a cell of this terrain.
fn link_can_pass(cell: Option<Terrain>) -> bool {
    match cell {
        None => true,
        Some(t) => matches!(t.role, Role::Earth | Role::Floor(_) | Role::Door | Role::SecretDoor),
    }
}

/// The edge of a `w × h` rectangle nearest to `p` — the way a link mark without
/// an arrow leads — or the two edges tied for nearest.
pub fn nearest_edge(p: Point, w: i32, h: i32) -> Result<Dir, (Dir, Dir)> {
    let mut by_distance = [(p.y, Dir::North), (w - 1 - p.x, Dir::East), (h - 1 - p.y, Dir::South), (p.x, Dir::West)];
    by_distance.sort_by_key(|(d, _)| *d);
    if by_distance[0].0 == by_distance[1].0 { Err((by_distance[0].1, by_distance[1].1)) } else { Ok(by_distance[0].1) }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PALETTE: &str = "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n\":\" = \"earth\"\n";

    fn build(src: &str) -> Result<Prefab, Vec<String>> {
        let palette = Palette::parse("palette.toml", PALETTE).unwrap();
        let (raws, errors) = text::parse("p.txt", src, &Limits::default());
        assert!(errors.is_empty(), "{errors:?}");
        Prefab::from_text("p.txt", &raws[0], &palette).map_err(|es| es.iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn reads_header_grid_and_links() {
        let p = build("prefab room\ntags: a b\ntransforms: r0 flip\nstyle: enclosed\nterrain:\n#####\n#.?.#\n##+##\nlinks:\n.....\n.....\n..3..\n").unwrap();
        assert_eq!((p.name(), p.width(), p.height()), ("room", 5, 3));
        assert_eq!(p.tags(), ["a", "b"]);
        assert_eq!(p.transforms().len(), 2);
        assert_eq!(p.style(), Style::Enclosed);
        assert_eq!(p.cells()[Point::new(2, 1)], None);
        assert_eq!(
            p.links(),
            [LinkMark { at: Point::new(2, 2), dir: Dir::South, kind: LinkKind::Tunnel { width: 3 } }]
        );
        assert!(p.is_link_path(Point::new(2, 2)));
        assert!(!p.is_link_path(Point::new(2, 1)));
    }

    #[test]
    fn arrows_steer_marks_and_paths_run_to_the_edge() {
        let p = build("prefab a\nterrain:\n#####\n#....\n#####\nlinks:\n.....\n.2>..\n.....\n").unwrap();
        assert_eq!(p.links()[0].dir, Dir::East);
        let err = build("prefab a\nterrain:\n#####\n#....\n#####\nlinks:\n.....\n.<2..\n.....\n").unwrap_err();
        assert!(
            err[0].contains("8:3: invalid: the way west from this mark to the prefab's edge is blocked by wall at 8:1"),
            "{err:?}"
        );
    }

    #[test]
    fn transformed_prefabs_move_links_with_cells() {
        let p = build("prefab a\nterrain:\n###\n#.#\n#.#\n#+#\nlinks:\n...\n...\n...\n.1.\n").unwrap();
        for t in Transform::ALL {
            let q = p.transformed(t);
            assert_eq!((q.width(), q.height()), t.apply_size(3, 4));
            let link = q.links()[0];
            assert_eq!(link.dir, t.apply_dir(Dir::South));
            assert_eq!(q.cells()[link.at], Some(Terrain::new(Role::Door)));
            // The transformed link still leads straight out of the prefab.
            let out = link.at + link.dir.delta();
            assert!(!q.cells().contains(out), "{t}");
            assert_eq!(q.transformed(t.inverse()), p);
        }
    }

    #[test]
    fn grid_problems_are_all_reported_with_places() {
        let err = build("prefab a\nsize: 3\nterrain:\n#Z#\n#.\n###\n").unwrap_err();
        assert_eq!(err.len(), 3, "{err:?}");
        assert!(err[0].starts_with("p.txt:2:1: invalid: unknown header key `size`"), "{err:?}");
        assert!(err[1].starts_with("p.txt:4:2: invalid: unknown glyph `Z`"), "{err:?}");
        assert!(err[2].starts_with("p.txt:5:3: invalid: row is 2 cells wide but the first row"), "{err:?}");
    }

    #[test]
    fn ambiguous_and_orphan_marks_are_errors() {
        let err = build("prefab a\nterrain:\n...\n...\n...\nlinks:\n...\n.1.\n..<\n").unwrap_err();
        assert_eq!(err.len(), 2, "{err:?}");
        assert!(err[0].contains("8:2: invalid: the mark is as close to the north edge as to the east edge"), "{err:?}");
        assert!(err[1].contains("9:3: invalid: arrow `<` is not beside a link mark"), "{err:?}");
    }
}
