//! The marks a prefab carries beside its terrain: link marks (where a
//! tunneler starts or a connector sits, and which way it leads), machines,
//! drawn references and named cell marks, the layers they are drawn on, and
//! the rules for where a link's way out may go.
//!
//! In: cells and glyphs read from a prefab's layers. Out: the marks, sorted in
//! reading order, and which edge a link without an arrow leads to. Guarantees:
//! the same marks in any order give the same sorted lists; a way out only
//! crosses cells walkers or tunnelers may cross.

use crate::geom::{Dir, Point, Rect};
use crate::grid::Grid;
use crate::map::{LinkKind, Role, Terrain};

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
    pub(super) cells: Vec<(Point, char)>,
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

impl Machine {
    /// A machine of these cells, put in reading order.
    pub(super) fn new(mut cells: Vec<(Point, char)>) -> Machine {
        cells.sort_by_key(|(p, _)| (p.y, p.x));
        Machine { cells }
    }
}

pub(super) fn sorted_machines(mut machines: Vec<Machine>) -> Vec<Machine> {
    machines.sort_by_key(|m| (m.anchor().y, m.anchor().x));
    machines
}

/// Marks in reading order, each name once a cell.
pub(crate) fn sorted_marks(mut marks: Vec<CellMark>) -> Vec<CellMark> {
    marks.sort_by(|a, b| (a.at.y, a.at.x, &a.name).cmp(&(b.at.y, b.at.x, &b.name)));
    marks.dedup();
    marks
}

pub(super) fn sorted_refs(mut refs: Vec<RefMark>) -> Vec<RefMark> {
    refs.sort_by_key(|r| (r.at.y, r.at.x));
    refs
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
