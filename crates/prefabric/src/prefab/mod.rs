//! Prefabs: validated hand-made rectangles with their four layers.
//!
//! A [`Prefab`] is built from a raw text block ([`crate::format::text`]) or a
//! REXPaint image ([`xp`]) and the pack's [`Palette`]. Its layers are those of a
//! Cogmind prefab drawn in REXPaint: terrain (each cell a [`Terrain`] or
//! don't-care), link marks ([`LinkMark`]: a tunneler's width or a connector, and the
//! way out), machines ([`Machine`]: 4-connected groups of line-art glyphs, each one
//! prop) and reference characters ([`RefMark`], resolved later by definition files).
//! Every problem is reported at its `file:line:col` (or layer and cell for `.xp`).
//! A built prefab is consistent: its grid is rectangular, every link mark has a
//! direction and a clear way out to the prefab's edge, machines and references stand
//! on walkable cells off every link's way out, and [`Prefab::transformed`] gives the
//! same prefab in any of the eight orientations, line art turned with it. A prefab
//! may also vary: its header's variation lines ([`VariationLine`]) rewrite its
//! terrain glyphs at each placement ([`Prefab::variant`]), and loading proves every
//! outcome valid, reasoning over the glyphs each cell may hold; its own cells are
//! those of its first outcome, and [`Prefab::transformed`] turns that outcome.

pub mod art;
mod assemble;
mod marks;
mod text;
pub mod tiled;
mod variants;
mod vary;
pub mod xp;

use crate::error::{Error, Location};
use crate::format::palette::Palette;
use crate::format::text::RawPrefab;
use crate::geom::{Dir, Moves, Point, Transform, TransformSet};
use crate::grid::Grid;
use crate::map::{LinkKind, Object, ObjectKind, Role, Terrain};
use crate::vocab::Style;
use std::sync::Arc;
use vary::Variation;

pub use vary::KEYS as VARIATION_KEYS;

pub(crate) use text::read_file_declaring;
pub use text::{EMPTY, read_file};

pub use marks::{CellMark, LayerKind, LinkMark, Machine, RefMark, nearest_edge, outline_facing};
pub(crate) use marks::{link_can_pass, link_ground, sorted_marks};
use marks::{sorted_machines, sorted_refs};

/// What a prefab that did not load declared in its header.
#[derive(Clone, Debug)]
pub(crate) struct Declared {
    /// Its name.
    pub name: String,
    /// Its tags.
    pub tags: Vec<String>,
    /// The definition file it would use.
    pub defs: String,
}

impl Declared {
    /// A header read from a prefab's `tags:` and `defs:` values as written.
    pub fn new(name: &str, tags: Option<&str>, defs: Option<&str>) -> Declared {
        Declared {
            name: name.to_string(),
            tags: tags.map(|t| t.split_whitespace().map(str::to_string).collect()).unwrap_or_default(),
            defs: defs.map(str::trim).filter(|d| !d.is_empty()).unwrap_or(name).to_string(),
        }
    }
}

/// A validated prefab. Two prefabs are equal when they say the same thing — header,
/// layers and variation — wherever each was read from: [`Prefab::origin`] is left
/// out of the comparison, so a text prefab and a `.xp` prefab of the same drawing
/// are equal.
#[derive(Clone, Debug)]
pub struct Prefab {
    /// Its name, tags, definition file and origin: shared by every turned copy,
    /// so turning a prefab (stages do, per placement) copies no text.
    about: Arc<About>,
    transforms: TransformSet,
    style: Style,
    cells: Grid<Option<Terrain>>,
    links: Vec<LinkMark>,
    machines: Vec<Machine>,
    refs: Vec<RefMark>,
    /// Its cell marks, in reading order (those of its first outcome when it varies).
    marks: Vec<CellMark>,
    /// Its variation transforms, when it has any; its own cells and references
    /// are then those of its first outcome.
    variation: Option<Arc<Varying>>,
    /// The movement rule of the palette it was read with: what its floor
    /// being one area means.
    moves: Moves,
}

/// What names a prefab and where it was read from.
#[derive(Debug)]
struct About {
    name: String,
    tags: Vec<String>,
    defs: Option<String>,
    origin: Location,
}

/// A variation, its lines as written, and what its proof established.
#[derive(Debug)]
struct Varying {
    variation: Variation,
    lines: Vec<VariationLine>,
    proven: vary::proof::Proven,
    /// The references drawn on the refs layer (the prefab's own are those of its
    /// first outcome, the legend's included).
    drawn_refs: Vec<RefMark>,
    /// The prefab where every varied cell takes its most closed choice, then its
    /// most open one; with the drawn references only.
    closed: Prefab,
    open: Prefab,
}

/// A drawing a placement check runs on ([`Prefab::views`]).
pub(crate) struct View<'p> {
    /// The drawing.
    pub prefab: &'p Prefab,
    /// How messages name it: empty for the prefab as it reads.
    pub when: &'static str,
    /// Whether the check must also find its floor one area here: always for the
    /// prefab as it reads; for an extreme, only when the variation's proof does
    /// not speak for it.
    pub whole: bool,
}

/// One variation line of a prefab's header (`legend`, `subst`, `subst-once`,
/// `nsubst`, `shuffle`), as written, and where its value starts. Two lines are
/// equal when they say the same, wherever written.
#[derive(Clone, Debug)]
pub struct VariationLine {
    /// The key: one of [`VARIATION_KEYS`].
    pub key: String,
    /// The value after `key:`, trimmed (in it `#` is a glyph, not a comment).
    pub value: String,
    /// Where the value starts.
    pub at: Location,
}

impl PartialEq for VariationLine {
    fn eq(&self, other: &VariationLine) -> bool {
        (&self.key, &self.value) == (&other.key, &other.value)
    }
}

impl Eq for VariationLine {}

impl PartialEq for Prefab {
    fn eq(&self, other: &Prefab) -> bool {
        (
            &self.about.name,
            &self.about.tags,
            self.transforms,
            self.style,
            &self.about.defs,
            &self.cells,
            &self.links,
            &self.machines,
            &self.refs,
            &self.marks,
            self.variation.as_ref().map(|v| &v.variation),
        ) == (
            &other.about.name,
            &other.about.tags,
            other.transforms,
            other.style,
            &other.about.defs,
            &other.cells,
            &other.links,
            &other.machines,
            &other.refs,
            &other.marks,
            other.variation.as_ref().map(|v| &v.variation),
        )
    }
}

impl Eq for Prefab {}

/// What a prefab's header says: everything but its layers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Its name, unique in its pack.
    pub name: String,
    /// Its tags, in the order written.
    pub tags: Vec<String>,
    /// The orientations it may be placed in.
    pub transforms: TransformSet,
    /// How it is meant to be placed.
    pub style: Style,
    /// The definition file it uses when that is not the one named after it.
    pub defs: Option<String>,
    /// Its variation lines, in the order written (none: it never varies).
    pub variation: Vec<VariationLine>,
}

impl Header {
    /// A header with this name and the defaults: no tags, every transform, feature
    /// style, no variation.
    pub fn named(name: impl Into<String>) -> Header {
        Header {
            name: name.into(),
            tags: Vec::new(),
            transforms: TransformSet::ALL,
            style: Style::Feature,
            defs: None,
            variation: Vec::new(),
        }
    }
}

impl Prefab {
    /// Its name, unique in its pack.
    pub fn name(&self) -> &str {
        &self.about.name
    }

    /// Its tags, in the order written.
    pub fn tags(&self) -> &[String] {
        &self.about.tags
    }

    /// The orientations it may be placed in.
    pub fn transforms(&self) -> TransformSet {
        self.transforms
    }

    /// How it is meant to be placed.
    pub fn style(&self) -> Style {
        self.style
    }

    /// The movement rule of the palette it was read with, which its floor
    /// checks followed.
    pub fn moves(&self) -> Moves {
        self.moves
    }

    /// The name of the definition file that says what its reference characters
    /// stand for: the one its header names, else the one named after it.
    pub fn defs_name(&self) -> &str {
        self.about.defs.as_deref().unwrap_or(&self.about.name)
    }

    /// Everything but its layers.
    pub fn header(&self) -> Header {
        Header {
            name: self.about.name.clone(),
            tags: self.about.tags.clone(),
            transforms: self.transforms,
            style: self.style,
            defs: self.about.defs.clone(),
            variation: self.variation.as_ref().map_or_else(Vec::new, |v| v.lines.clone()),
        }
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

    /// Its machines, in reading order of their first cells.
    pub fn machines(&self) -> &[Machine] {
        &self.machines
    }

    /// Its machines as map objects, for the prefab turned by `t` and placed with
    /// its top-left corner at `at` as placed prefab `index`: the objects of
    /// `self.transformed(t)`'s machines, in the same order, without turning the
    /// rest of the prefab. Untagged until the objects stage gives those its
    /// definition file's `machine` lines name their catalog tag.
    pub(crate) fn machine_objects(&self, t: Transform, at: Point, index: usize) -> Vec<Object> {
        let (w, h) = (self.width(), self.height());
        let object = |cells| Object {
            kind: ObjectKind::Machine,
            tag: None,
            cells,
            prefab: Some(index),
            keywords: Vec::new(),
            furnishing: None,
            definition: None,
        };
        // As `transformed` does: each machine's cells back in reading order,
        // then the machines by their first cell.
        let mut objects: Vec<Object> = self
            .machines
            .iter()
            .map(|m| {
                let mut cells: Vec<(Point, char)> =
                    m.cells.iter().map(|&(p, g)| (at + t.apply_point(p, w, h), art::turn(g, t))).collect();
                cells.sort_by_key(|(p, _)| (p.y, p.x));
                object(cells)
            })
            .collect();
        objects.sort_by_key(|o| (o.cells[0].0.y, o.cells[0].0.x));
        objects
    }

    /// Its reference characters, in reading order.
    pub fn refs(&self) -> &[RefMark] {
        &self.refs
    }

    /// Its cell marks (see [`CellMark`]), in reading order: those of the
    /// outcome it is, for a prefab from [`Prefab::variant`].
    pub fn marks(&self) -> &[CellMark] {
        &self.marks
    }

    /// True when some outcome of it may hold a cell mark.
    pub fn may_mark(&self) -> bool {
        !self.marks.is_empty()
            || self.variation.as_ref().is_some_and(|v| v.variation.legend.iter().any(|l| !l.marks.is_empty()))
    }

    /// Where it is defined (its name on the `prefab` line, or its `.xp` file).
    pub fn origin(&self) -> &Location {
        &self.about.origin
    }

    /// True when `p` lies on the way out of one of the link marks.
    pub fn is_link_path(&self, p: Point) -> bool {
        self.links.iter().any(|l| l.path(self.width(), self.height()).any(|q| q == p))
    }

    /// The same prefab turned and flipped by `t`: cells, links and their directions,
    /// machines (their line art turned too) and references all move together. A
    /// prefab with variation lines turns as its first outcome, without them: to
    /// place another outcome, turn what [`Prefab::variant`] draws.
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
        let machines = self
            .machines
            .iter()
            .map(|m| Machine::new(m.cells.iter().map(|&(p, g)| (t.apply_point(p, w, h), art::turn(g, t))).collect()))
            .collect();
        let refs = self.refs.iter().map(|r| RefMark { at: t.apply_point(r.at, w, h), glyph: r.glyph }).collect();
        let marks =
            self.marks.iter().map(|m| CellMark { at: t.apply_point(m.at, w, h), name: m.name.clone() }).collect();
        // A variation speaks of the drawing as drawn: the turned prefab is its
        // first outcome, turned (turn an outcome from `variant` instead).
        // Field by field, not `..self.clone()`: that would copy the grid and
        // lists replaced here only to drop them, and stages turn prefabs per map.
        Prefab {
            about: Arc::clone(&self.about),
            transforms: self.transforms,
            style: self.style,
            cells,
            links,
            machines: sorted_machines(machines),
            refs: sorted_refs(refs),
            marks: sorted_marks(marks),
            variation: None,
            moves: self.moves,
        }
    }

    /// The same prefab with other terrain and references and no variation.
    fn with_layers(&self, cells: Grid<Option<Terrain>>, refs: Vec<RefMark>, marks: Vec<CellMark>) -> Prefab {
        Prefab {
            about: Arc::clone(&self.about),
            transforms: self.transforms,
            style: self.style,
            cells,
            links: self.links.clone(),
            machines: self.machines.clone(),
            refs,
            marks,
            variation: None,
            moves: self.moves,
        }
    }

    /// The links layer as glyphs: `1`-`9` and `*` at the marks, and an arrow
    /// (`^ > v <`) beside each mark whose direction is not the one its nearest edge
    /// implies. Fails when such a mark has no free cell beside it for its arrow.
    pub fn link_glyphs(&self) -> Result<Grid<Option<char>>, Error> {
        self.link_layer(&vec![false; self.links.len()])
    }

    /// For each link, true when a text prefab can draw it as `*` in its terrain
    /// layer: a connector on a door cell facing out of the outline the way
    /// [`outline_facing`] reads it back.
    pub fn terrain_connectors(&self) -> Vec<bool> {
        self.links
            .iter()
            .map(|l| {
                l.kind == LinkKind::Connector
                    && self.cells[l.at] == Some(Terrain::new(Role::Door))
                    && outline_facing(l.at, &self.cells) == Ok(l.dir)
            })
            .collect()
    }

    /// The links layer without the links marked in `in_terrain` (drawn as `*` in
    /// the terrain layer instead); arrows keep clear of every mark.
    pub(crate) fn link_layer(&self, in_terrain: &[bool]) -> Result<Grid<Option<char>>, Error> {
        let (w, h) = (self.width(), self.height());
        let mut layer = Grid::new(w, h, None);
        let drawn = || self.links.iter().zip(in_terrain).filter(|(_, t)| !**t).map(|(l, _)| l);
        for link in drawn() {
            let glyph = match link.kind {
                LinkKind::Tunnel { width } => char::from(b'0' + width.min(9)),
                LinkKind::Connector => '*',
            };
            layer.set(link.at, Some(glyph));
        }
        let is_mark = |p: Point| self.links.iter().any(|l| l.at == p);
        for link in drawn() {
            if nearest_edge(link.at, w, h) == Ok(link.dir) {
                continue;
            }
            let free = [link.dir, link.dir.left(), link.dir.right(), link.dir.opposite()]
                .into_iter()
                .map(|d| link.at + d.delta())
                .find(|&p| {
                    layer.get(p) == Some(&None)
                        && !is_mark(p)
                        && Dir::ALL.iter().filter(|d| is_mark(p + d.delta())).count() == 1
                });
            let Some(p) = free else {
                return Err(Error::new(
                    crate::error::ErrorKind::Invalid,
                    format!("prefab `{}`: no free cell beside the link at {} for its arrow", self.about.name, link.at),
                ));
            };
            layer.set(p, Some(link.dir.arrow()));
        }
        Ok(layer)
    }

    /// A prefab a generator made rather than a designer drew (the chain's
    /// auto-rooms): terrain and connectors only, placeable in every orientation.
    pub(crate) fn generated(name: String, cells: Grid<Option<Terrain>>, links: Vec<LinkMark>) -> Prefab {
        Prefab {
            about: Arc::new(About { name, tags: Vec::new(), defs: None, origin: Location::file("(generated)") }),
            transforms: TransformSet::ALL,
            style: Style::Feature,
            cells,
            links,
            machines: Vec::new(),
            refs: Vec::new(),
            marks: Vec::new(),
            variation: None,
            moves: Moves::Orthogonal,
        }
    }

    /// Builds a prefab from a raw text block, reading glyphs through `palette`.
    /// Returns every problem found, each located in `file`.
    pub fn from_text(file: &str, raw: &RawPrefab<'_>, palette: &Palette) -> Result<Prefab, Vec<Error>> {
        text::from_text(file, raw, palette)
    }
}

/// Checks a prefab name: letters, digits, `_`, `-` and `.`, at most 64, not
/// starting with `.` (a `.xp` file of that name would be hidden). The error is a
/// message and a hint.
pub fn check_name(text: &str) -> Result<(), (String, Option<String>)> {
    if text.is_empty() {
        Err(("`prefab` needs a name".into(), Some("write `prefab NAME`, e.g. `prefab storeroom`".into())))
    } else if text.contains(char::is_whitespace) {
        Err((format!("prefab name `{text}` contains a space"), Some("join the words with `_` or `-`".into())))
    } else if text.len() > 64
        || text.starts_with('.')
        || !text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        Err((
            format!(
                "prefab name `{text}` may only use letters, digits, `_`, `-` and `.`, may not start with `.`, and has at most 64 characters"
            ),
            None,
        ))
    } else {
        Ok(())
    }
}

/// Checks a tag: a single word, with no space or comma (the text header splits on
/// them), no `#` (it starts a comment) and no control character. The error says
/// what is wrong with it; a tool that writes prefabs (such as an importer) keeps
/// only the tags this accepts, so what it writes loads.
pub fn check_tag(tag: &str) -> Result<(), String> {
    if tag.is_empty() || tag.contains(|c: char| c.is_whitespace() || c.is_control() || c == ',' || c == '#') {
        Err(format!("tag {tag:?} is not a single word; tags hold no spaces, commas, `#` or control characters"))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
