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
mod text;
pub mod tiled;
mod vary;
pub mod xp;

use crate::error::{Error, Location};
use crate::format::palette::Palette;
use crate::format::text::RawPrefab;
use crate::geom::{Dir, Moves, Point, Rect, Transform, TransformSet};
use crate::grid::Grid;
pub use crate::map::Style;
use crate::map::{LinkKind, Object, ObjectKind, Role, Terrain};
use std::borrow::Cow;
use std::sync::Arc;
use vary::Variation;

pub use vary::KEYS as VARIATION_KEYS;

pub(crate) use text::read_file_declaring;
pub use text::{EMPTY, read_file};

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

/// The ground a link's tunnel needs just outside its placed prefab (`prefab`,
/// the prefab's bounds; `mark`, the link's cell in map coordinates): `width + 1`
/// rows (room for a junction and the wall after it), as the whole area with one
/// margin cell on each side, and as the tunnel's body alone.
pub(crate) fn link_ground(mark: Point, dir: Dir, kind: LinkKind, prefab: Rect) -> (Rect, Rect) {
    let width = i32::from(kind.width());
    let mut edge = mark;
    while prefab.contains(edge + dir.delta()) {
        edge = edge + dir.delta();
    }
    let across = dir.right().delta();
    let left = -(width - 1) / 2;
    let (first, last) = (edge + dir.delta(), edge + dir.delta() * (width + 1));
    let body = Rect::spanning(first + across * left, last + across * (left + width - 1));
    let area = Rect::spanning(first + across * (left - 1), last + across * (left + width));
    (area, body)
}

/// A machine drawn on the machine layer: one 4-connected group of glyph cells that
/// the game treats as a single prop (Cogmind's hand-drawn gray machines), named
/// after a catalog prop when a `machine` line's reference is drawn over it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Machine {
    /// Its cells and their glyphs, in reading order; never empty.
    cells: Vec<(Point, char)>,
}

impl Machine {
    /// Its cells and their glyphs, in reading order (row by row, west to east).
    pub fn cells(&self) -> &[(Point, char)] {
        &self.cells
    }

    /// The first cell in reading order: where the machine is said to be.
    pub fn anchor(&self) -> Point {
        self.cells[0].0
    }
}

/// A reference character on the reference layer: an object a definition file names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefMark {
    /// The cell, in prefab coordinates.
    pub at: Point,
    /// The character, as drawn.
    pub glyph: char,
}

/// A cell mark: a name the game reads for one cell of a prefab (`no_monster_gen`,
/// say), given by a `legend` line's `mark` words to the cells holding its glyph.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CellMark {
    /// The cell, in prefab coordinates.
    pub at: Point,
    /// The mark's name.
    pub name: String,
}

/// The layers of a prefab, in the order REXPaint stacks them (layer 1 first): the
/// four of a Cogmind prefab, and the mask of a prefab with variation transforms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LayerKind {
    /// Terrain: walls, floors, doors, earth, don't-care.
    Terrain,
    /// Link marks: tunneler widths, connectors and their arrows.
    Links,
    /// Machines drawn as line art.
    Machines,
    /// Reference characters for the definition file.
    Refs,
    /// Cells protected from variation transforms.
    Mask,
}

impl LayerKind {
    /// All five, bottom layer first.
    pub const ALL: [LayerKind; 5] =
        [LayerKind::Terrain, LayerKind::Links, LayerKind::Machines, LayerKind::Refs, LayerKind::Mask];

    /// The name of its layer line in text prefabs.
    pub const fn name(self) -> &'static str {
        crate::format::text::LAYER_NAMES[self as usize]
    }

    /// Its 1-based layer number in a REXPaint image.
    pub const fn xp_layer(self) -> usize {
        self as usize + 1
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

    /// True when it has variation lines: each placement draws an outcome
    /// ([`Prefab::variant`]). Its own cells and references are then those of its
    /// first outcome: every rule's first choice, `nsubst` dealing in reading
    /// order, nothing shuffled.
    pub fn varies(&self) -> bool {
        self.variation.is_some()
    }

    /// The outcome of its variation that `seed` draws (itself when it has none):
    /// the terrain and references rewritten, links and machines as drawn, no
    /// variation left. The same seed always gives the same outcome; a placed
    /// prefab records its seed (`PlacedPrefab::variant`).
    pub fn variant(&self, seed: u32) -> Cow<'_, Prefab> {
        match &self.variation {
            None => Cow::Borrowed(self),
            Some(v) => {
                let mut cells = self.cells.clone();
                let mut refs = v.drawn_refs.clone();
                let mut marks = Vec::new();
                v.variation.outcome(seed, &mut cells, &mut refs, &mut marks);
                Cow::Owned(self.with_layers(cells, refs, marks))
            }
        }
    }

    /// The prefab where every cell that varies takes its most closed choice
    /// (solid over walkable): what checks that more floor can only help (a way
    /// in, an open edge) run on. Itself when it does not vary.
    pub(crate) fn most_closed(&self) -> &Prefab {
        self.variation.as_ref().map_or(self, |v| &v.closed)
    }

    /// The prefab where every cell that varies takes its most open choice: what
    /// checks that more floor can only break (a closed outline, floor off the
    /// map's edge) run on. Itself when it does not vary.
    pub(crate) fn most_open(&self) -> &Prefab {
        self.variation.as_ref().map_or(self, |v| &v.open)
    }

    /// The drawings a placement check must pass for every outcome to pass it: the
    /// prefab as it reads, and for a prefab that varies its most closed and most
    /// open drawings. A condition on walkable cells that only grows (or only
    /// shrinks) with more floor holds in every outcome once it holds in both
    /// extremes. Whether the floor is one area is no such condition, and the
    /// extremes need not be outcomes (an `nsubst` that keeps one door of three
    /// never closes all three); but the variation's proof shows the floor has the
    /// same areas in every outcome, so a check that counts `?` as floor exactly
    /// when `dont_care_is_floor` (as the proof did, from the prefab's style) asks
    /// it of the prefab as it reads only ([`View::whole`]). The proof of a prefab
    /// drawn `centered` shows instead that each area of every outcome leads out
    /// (its floor may be parted), so a check asking for one area asks it of its
    /// extremes too.
    pub(crate) fn views(&self, dont_care_is_floor: bool) -> Vec<View<'_>> {
        let first = View { prefab: self, when: "", whole: true };
        match &self.variation {
            None => vec![first],
            Some(v) => {
                // A centered prefab's proof shows each area of every outcome
                // leads out, not that the areas stay as they read.
                let whole = dont_care_is_floor != self.style.dont_care_is_floor() || self.style == Style::Centered;
                vec![
                    first,
                    View { prefab: &v.closed, when: " (when every varied cell takes its most closed choice)", whole },
                    View { prefab: &v.open, when: " (when every varied cell takes its most open choice)", whole },
                ]
            }
        }
    }

    /// True when the terrain at `p` is not the same in every outcome.
    pub(crate) fn varies_at(&self, p: Point) -> bool {
        self.variation.as_ref().is_some_and(|v| v.proven.varies.get(p).copied().unwrap_or(false))
    }

    /// Every reference character some outcome may hold, with its cell and each
    /// terrain it may stand on there: the ones drawn on the refs layer, and those
    /// the legend gives the glyphs a cell may end up with. For a prefab that does
    /// not vary, its references and the cells under them.
    pub fn possible_refs(&self) -> Vec<(RefMark, Option<Terrain>)> {
        match &self.variation {
            None => self.refs.iter().map(|&r| (r, self.cells[r.at])).collect(),
            Some(v) => v.proven.possible_refs.clone(),
        }
    }

    /// The references drawn on its refs layer: [`Prefab::refs`] without those a
    /// varying prefab's legend gives its first outcome.
    pub fn drawn_refs(&self) -> &[RefMark] {
        self.variation.as_ref().map_or(&self.refs, |v| &v.drawn_refs)
    }

    /// The glyph drawn in the terrain layer at `p` when a variation line names it
    /// (the glyph text and `.xp` prefabs write back), and whether the mask
    /// protects the cell.
    pub fn variation_glyph(&self, p: Point) -> Option<(char, bool)> {
        let v = &self.variation.as_ref()?.variation;
        Some((v.glyphs.get(p).copied().flatten()?, v.mask.get(p).copied().unwrap_or(false)))
    }

    /// True when its variation has a mask protecting some cell.
    pub fn has_mask(&self) -> bool {
        self.variation.as_ref().is_some_and(|v| v.variation.mask.cells().iter().any(|&m| m))
    }

    /// The mask layer as glyphs (`x` on protected cells), when it has one.
    pub fn mask_glyphs(&self) -> Option<Grid<Option<char>>> {
        let v = &self.variation.as_ref().filter(|_| self.has_mask())?.variation;
        let cells = v.mask.cells().iter().map(|&m| m.then_some('x')).collect();
        Grid::from_cells(self.width(), self.height(), cells)
    }

    /// The problems a varying prefab's floor would have in some outcome if
    /// `blockers` (the cells machine footprints may cover) blocked walkers too,
    /// and the cells holding `machine_glyphs` (glyphs whose legend reference a
    /// definition file may make a one-cell machine: always, or by some draw);
    /// empty for a prefab that does not vary. `context` goes into each
    /// problem's message after its reason.
    pub(crate) fn floor_problems_with(
        &self,
        blockers: &[Point],
        machine_glyphs: &[(char, bool)],
        context: &str,
    ) -> Vec<Error> {
        let Some(v) = &self.variation else { return Vec::new() };
        vary::proof::prove_floor(&v.variation, &self.subject(v, machine_glyphs), &v.proven.envelope, blockers, context)
    }

    /// For a prefab that varies, the cells walkable in every outcome with no
    /// machine on them, counting those `machine_glyphs` may bring.
    pub(crate) fn sure_floor(&self, machine_glyphs: &[(char, bool)]) -> Option<Grid<bool>> {
        let v = self.variation.as_ref()?;
        Some(vary::proof::sure_floor(&v.variation, &self.subject(v, machine_glyphs), &v.proven.envelope))
    }

    /// The cells drawn with one of `glyphs` that every outcome keeps: masked,
    /// or holding a glyph no rule rewrites.
    pub(crate) fn kept_glyph_cells(&self, glyphs: &[char]) -> Vec<Point> {
        let Some(v) = &self.variation else { return Vec::new() };
        let v = &v.variation;
        v.glyphs
            .bounds()
            .points()
            .filter(|&q| {
                v.glyphs[q]
                    .is_some_and(|g| glyphs.contains(&g) && (v.mask[q] || !v.steps.iter().any(|s| s.rule.takes(g))))
            })
            .collect()
    }

    /// Where its legend first gives reference character `reference`, if it does.
    pub(crate) fn legend_line_of(&self, reference: char) -> Option<Location> {
        let v = self.variation.as_ref()?;
        v.variation.legend.iter().find(|l| l.reference == Some(reference)).map(|l| l.at.clone())
    }

    /// The glyphs its legend gives reference character `reference`.
    pub(crate) fn legend_glyphs(&self, reference: char) -> Vec<char> {
        let Some(v) = &self.variation else { return Vec::new() };
        v.variation.legend.iter().filter(|l| l.reference == Some(reference)).map(|l| l.glyph).collect()
    }

    /// What the proof reasons about: the prefab as its first outcome reads.
    fn subject<'a>(&'a self, v: &'a Varying, machine_glyphs: &'a [(char, bool)]) -> vary::proof::Subject<'a> {
        vary::proof::Subject {
            cells: &self.cells,
            links: &self.links,
            machines: &self.machines,
            drawn_refs: &v.drawn_refs,
            dont_care_is_floor: self.style.dont_care_is_floor(),
            parted: self.style == Style::Centered,
            moves: self.moves,
            machine_glyphs,
            origin: &self.about.origin,
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

impl Machine {
    /// A machine of these cells, put in reading order.
    fn new(mut cells: Vec<(Point, char)>) -> Machine {
        cells.sort_by_key(|(p, _)| (p.y, p.x));
        Machine { cells }
    }
}

fn sorted_machines(mut machines: Vec<Machine>) -> Vec<Machine> {
    machines.sort_by_key(|m| (m.anchor().y, m.anchor().x));
    machines
}

/// Marks in reading order, each name once a cell.
pub(crate) fn sorted_marks(mut marks: Vec<CellMark>) -> Vec<CellMark> {
    marks.sort_by(|a, b| (a.at.y, a.at.x, &a.name).cmp(&(b.at.y, b.at.x, &b.name)));
    marks.dedup();
    marks
}

fn sorted_refs(mut refs: Vec<RefMark>) -> Vec<RefMark> {
    refs.sort_by_key(|r| (r.at.y, r.at.x));
    refs
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
/// them), no `#` (it starts a comment) and no control character.
pub(crate) fn check_tag(tag: &str) -> Result<(), String> {
    if tag.is_empty() || tag.contains(|c: char| c.is_whitespace() || c.is_control() || c == ',' || c == '#') {
        Err(format!("tag {tag:?} is not a single word; tags hold no spaces, commas, `#` or control characters"))
    } else {
        Ok(())
    }
}

/// True when a link's way out may cross a cell of this terrain.
pub(crate) fn link_can_pass(cell: Option<Terrain>) -> bool {
    match cell {
        None => true,
        Some(t) => matches!(t.role(), Role::Earth | Role::Floor(_) | Role::Door | Role::SecretDoor),
    }
}

/// The edge of a `w × h` rectangle nearest to `p` — the way a link mark without
/// an arrow leads — or the two edges tied for nearest.
pub fn nearest_edge(p: Point, w: i32, h: i32) -> Result<Dir, (Dir, Dir)> {
    let mut by_distance = [(p.y, Dir::North), (w - 1 - p.x, Dir::East), (h - 1 - p.y, Dir::South), (p.x, Dir::West)];
    by_distance.sort_by_key(|(d, _)| *d);
    if by_distance[0].0 == by_distance[1].0 { Err((by_distance[0].1, by_distance[1].1)) } else { Ok(by_distance[0].1) }
}

/// The side a connector at `p` faces out of a prefab's outline: the one side
/// whose neighbour lies past the grid or is `?` while the opposite neighbour is
/// walkable. Fails with the sides that qualify when that is not exactly one (none:
/// the connector is not on the edge; several: it needs an arrow).
pub fn outline_facing(p: Point, cells: &Grid<Option<Terrain>>) -> Result<Dir, Vec<Dir>> {
    let outside = |q: Point| cells.get(q).is_none_or(|c| c.is_none());
    let floor = |q: Point| cells.get(q).is_some_and(|c| c.is_some_and(|t| t.is_walkable()));
    let sides: Vec<Dir> = Dir::ALL.into_iter().filter(|d| outside(p + d.delta()) && floor(p - d.delta())).collect();
    match sides.as_slice() {
        [one] => Ok(*one),
        _ => Err(sides),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::text;
    use crate::limits::Limits;

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
            err[0].contains("8:3: invalid: the way west from this mark to the prefab's edge is blocked by wall at 4:1"),
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

    #[test]
    fn machine_objects_turned_in_place_are_those_of_the_turned_prefab() {
        let p = build("prefab m\nterrain:\n########\n#......#\n#......#\n#......#\n#......#\n###+####\nmachines:\n........\n.┌┐.....\n...│....\n.....═╗.\n........\n........\n").unwrap();
        let at = Point::new(7, 4);
        for t in Transform::ALL {
            let turned = p.transformed(t).machine_objects(Transform::IDENTITY, at, 3);
            assert_eq!(p.machine_objects(t, at, 3), turned, "{t}");
            assert_eq!(turned.len(), 3, "{t}");
        }
    }

    #[test]
    fn machines_and_references_are_read_and_checked_in_place() {
        // A room with floor all round the machines: they block walkers, so they
        // may not cut its floor in two.
        let p = build("prefab m\nterrain:\n######\n#....#\n#....#\n#....#\n##+###\nmachines:\n......\n.┌┐...\n...│..\n......\n......\nrefs:\n......\n...a..\n.1....\n......\n......\n").unwrap();
        let cells: Vec<Vec<(Point, char)>> = p.machines().iter().map(|m| m.cells().to_vec()).collect();
        assert_eq!(
            cells,
            [vec![(Point::new(1, 1), '┌'), (Point::new(2, 1), '┐')], vec![(Point::new(3, 2), '│')]],
            "diagonal neighbours are two machines"
        );
        assert_eq!(
            p.refs(),
            [RefMark { at: Point::new(3, 1), glyph: 'a' }, RefMark { at: Point::new(1, 2), glyph: '1' }]
        );
        // Turned, the line art turns with it.
        let q = p.transformed(Transform::parse("r90").unwrap());
        assert_eq!(q.machines()[0].cells(), [(Point::new(3, 1), '┐'), (Point::new(3, 2), '┘')]);
        assert_eq!(q.machines()[1].cells(), [(Point::new(2, 3), '─')]);

        let err = build("prefab m\nterrain:\n#####\n#...#\n##+##\nmachines:\nX....\n.. ..\n.....\nrefs:\n.....\n.....\n..r..\nlinks:\n.....\n.....\n..1..\n").unwrap_err();
        assert_eq!(err.len(), 3, "{err:?}");
        assert!(err[0].starts_with("p.txt:7:1: invalid: a machine stands on wall"), "{err:?}");
        assert!(err[1].starts_with("p.txt:8:3: invalid: ` ` is not a glyph"), "{err:?}");
        assert!(err[2].starts_with("p.txt:13:3: invalid: reference `r` stands on a link's way out"), "{err:?}");
    }

    #[test]
    fn connectors_in_the_terrain_face_out_of_the_outline() {
        // A diamond: its side connectors lie inside the bounding box, `?` before them.
        let p = build("prefab d\nterrain:\n??#*#??\n?#...#?\n*.....*\n?#...#?\n??#*#??\n").unwrap();
        let found: Vec<(Point, Dir)> = p.links().iter().map(|l| (l.at, l.dir)).collect();
        assert_eq!(
            found,
            [
                (Point::new(3, 0), Dir::North),
                (Point::new(0, 2), Dir::West),
                (Point::new(6, 2), Dir::East),
                (Point::new(3, 4), Dir::South)
            ]
        );
        assert!(p.links().iter().all(|l| l.kind == LinkKind::Connector));
        assert!(p.links().iter().all(|l| p.cells()[l.at] == Some(Terrain::new(Role::Door))));
        // Written back, the connectors stay in the terrain and read back equal.
        let palette = Palette::parse("palette.toml", PALETTE).unwrap();
        let text = crate::render::prefab_text(&p, &palette).unwrap();
        assert!(text.contains("??#*#??\n") && !text.contains("links:"), "{text}");
        assert_eq!(build(&text).unwrap(), p);
        for t in Transform::ALL {
            let q = p.transformed(t);
            assert_eq!(q.terrain_connectors(), vec![true; 4], "{t}");
        }
    }

    #[test]
    fn unclear_connectors_are_reported_with_a_fix() {
        // A connector on a cut corner faces both north and west; one in the middle
        // of the floor and one in a square corner face nowhere.
        let err = build("prefab c\nterrain:\n??###\n?*..#\n#.*.#\n*####\n").unwrap_err();
        assert_eq!(err.len(), 3, "{err:?}");
        assert!(
            err[0].contains("p.txt:4:2: invalid: connector `*` faces out of the prefab both north and west"),
            "{err:?}"
        );
        assert!(err[0].contains("help: put an arrow"), "{err:?}");
        assert!(err[1].contains("p.txt:5:3: invalid: connector `*` is not on the prefab's edge"), "{err:?}");
        assert!(err[2].contains("p.txt:6:1: invalid: connector `*` is not on the prefab's edge"), "{err:?}");
        // An arrow in the links layer settles the cut corner.
        let p = build("prefab c\nterrain:\n??###\n?*..#\n#...#\n#####\nlinks:\n.^...\n.....\n.....\n.....\n").unwrap();
        assert_eq!(p.links()[0].dir, Dir::North);
        let palette = Palette::parse("palette.toml", PALETTE).unwrap();
        let text = crate::render::prefab_text(&p, &palette).unwrap();
        assert_eq!(build(&text).unwrap(), p, "{text}");
        let ok = build("prefab c\nterrain:\n?*?\n#.#\n###\nlinks:\n>..\n...\n...\n").unwrap();
        assert_eq!(ok.links()[0].dir, Dir::East);
        let err = build("prefab c\nterrain:\n#*#\n#.#\n###\nlinks:\n.2.\n...\n...\n").unwrap_err();
        assert!(err[0].contains("tunnel mark `2` lies on a connector drawn in the terrain"), "{err:?}");
    }

    #[test]
    fn tags_are_single_words() {
        let p = build("prefab t\ntags: a, b c\nterrain:\n.\n").unwrap();
        assert_eq!(p.tags(), ["a", "b", "c"]);
        let err = build("prefab t\ntags: ok bad\u{1}tag\nterrain:\n.\n").unwrap_err();
        assert!(err[0].starts_with("p.txt:2:10: invalid: tag \"bad\\u{1}tag\" is not a single word"), "{err:?}");
    }
}
