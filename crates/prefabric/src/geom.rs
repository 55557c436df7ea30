//! Points, rectangles, directions and the eight orientations of a prefab.
//!
//! Coordinates are `i32` with `x` growing east and `y` growing south (screen order),
//! so "clockwise" means north → east → south → west. A [`Transform`] is one of the 8
//! symmetries of a rectangle: an optional horizontal flip followed by 0–3 clockwise
//! quarter turns. Transforms compose and invert exactly; [`Transform::apply_point`]
//! maps a cell of a `w × h` rectangle into the transformed rectangle. [`Moves`]
//! is the game's movement rule: which neighbours of a cell a walker steps to,
//! and so what "connected" means everywhere a floor must be one area.

use std::fmt;
use std::ops::{Add, Mul, Sub};

/// A cell position (or an offset between cells).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing south.
    pub y: i32,
}

impl Point {
    /// A point from its coordinates.
    pub const fn new(x: i32, y: i32) -> Point {
        Point { x, y }
    }
}

impl Add for Point {
    type Output = Point;
    fn add(self, o: Point) -> Point {
        Point::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Point {
    type Output = Point;
    fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<i32> for Point {
    type Output = Point;
    fn mul(self, k: i32) -> Point {
        Point::new(self.x * k, self.y * k)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// An axis-aligned rectangle of cells: `x..x+width`, `y..y+height`.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rect {
    /// West edge (inclusive).
    pub x: i32,
    /// North edge (inclusive).
    pub y: i32,
    /// Width in cells.
    pub width: i32,
    /// Height in cells.
    pub height: i32,
}

impl Rect {
    /// A rectangle from its top-left corner and size.
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Rect {
        Rect { x, y, width, height }
    }

    /// The smallest rectangle holding both corners (inclusive).
    pub fn spanning(a: Point, b: Point) -> Rect {
        let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }

    /// The `size × size` square centred on `centre` (for even sizes, the extra
    /// column and row lie east and south).
    pub const fn square_around(centre: Point, size: i32) -> Rect {
        Rect::new(centre.x - (size - 1) / 2, centre.y - (size - 1) / 2, size, size)
    }

    /// East edge (exclusive).
    pub const fn right(&self) -> i32 {
        self.x + self.width
    }

    /// South edge (exclusive).
    pub const fn bottom(&self) -> i32 {
        self.y + self.height
    }

    /// Number of cells.
    pub const fn area(&self) -> i64 {
        self.width as i64 * self.height as i64
    }

    /// True when the rectangle holds no cell.
    pub const fn is_empty(&self) -> bool {
        self.width <= 0 || self.height <= 0
    }

    /// True when `p` is inside.
    pub const fn contains(&self, p: Point) -> bool {
        p.x >= self.x && p.y >= self.y && p.x < self.right() && p.y < self.bottom()
    }

    /// True when every cell of `other` is inside `self`.
    pub const fn contains_rect(&self, other: &Rect) -> bool {
        other.x >= self.x && other.y >= self.y && other.right() <= self.right() && other.bottom() <= self.bottom()
    }

    /// True when the two rectangles share at least one cell.
    pub const fn intersects(&self, other: &Rect) -> bool {
        !self.is_empty()
            && !other.is_empty()
            && self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }

    /// The rectangle grown by `n` cells on every side (shrunk when `n` is negative).
    pub const fn expand(&self, n: i32) -> Rect {
        Rect::new(self.x - n, self.y - n, self.width + 2 * n, self.height + 2 * n)
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        Rect::new(x, y, self.right().max(other.right()) - x, self.bottom().max(other.bottom()) - y)
    }

    /// The cells both hold, as a rectangle; empty (zero-sized) when they share none.
    pub fn intersection(&self, other: &Rect) -> Rect {
        let (x, y) = (self.x.max(other.x), self.y.max(other.y));
        let (right, bottom) = (self.right().min(other.right()), self.bottom().min(other.bottom()));
        Rect::new(x, y, (right - x).max(0), (bottom - y).max(0))
    }

    /// Every cell, row by row.
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let r = *self;
        (r.y..r.bottom()).flat_map(move |y| (r.x..r.right()).map(move |x| Point::new(x, y)))
    }

    /// The cells of the one-cell ring just outside the rectangle, clockwise from the
    /// north-west corner.
    pub fn ring(&self) -> impl Iterator<Item = Point> + use<> {
        let o = self.expand(1);
        let top = (o.x..o.right()).map(move |x| Point::new(x, o.y));
        let right = (o.y + 1..o.bottom()).map(move |y| Point::new(o.right() - 1, y));
        let bottom = (o.x..o.right() - 1).rev().map(move |x| Point::new(x, o.bottom() - 1));
        let left = (o.y + 1..o.bottom() - 1).rev().map(move |y| Point::new(o.x, y));
        top.chain(right).chain(bottom).chain(left)
    }

    /// The side whose wall line (the ring just outside) holds `p`, corners
    /// excluded: where a door of this rectangle may stand.
    pub fn ring_side(&self, p: Point) -> Option<Dir> {
        let along_x = p.x >= self.x && p.x < self.right();
        let along_y = p.y >= self.y && p.y < self.bottom();
        if along_x && p.y == self.y - 1 {
            Some(Dir::North)
        } else if along_x && p.y == self.bottom() {
            Some(Dir::South)
        } else if along_y && p.x == self.x - 1 {
            Some(Dir::West)
        } else if along_y && p.x == self.right() {
            Some(Dir::East)
        } else {
            None
        }
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{} at ({}, {})", self.width, self.height, self.x, self.y)
    }
}

/// How a game's walkers step between walkable cells: the rule every check of
/// "one area" and "reachable" follows. A pack chooses it in `palette.toml`
/// (`moves = "diagonal"`); the default is [`Moves::Orthogonal`].
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Moves {
    /// To the four sides only: floor touching only at a corner is apart.
    #[default]
    Orthogonal,
    /// To all eight neighbours, corners included, even between two walls (as in
    /// Dungeon Crawl, Angband and Cogmind).
    Diagonal,
}

/// The four side steps, then the four corner steps, clockwise from north.
const STEPS: [Point; 8] = [
    Point::new(0, -1),
    Point::new(1, 0),
    Point::new(0, 1),
    Point::new(-1, 0),
    Point::new(1, -1),
    Point::new(1, 1),
    Point::new(-1, 1),
    Point::new(-1, -1),
];

impl Moves {
    /// Its name in `palette.toml`.
    pub const fn name(self) -> &'static str {
        match self {
            Moves::Orthogonal => "orthogonal",
            Moves::Diagonal => "diagonal",
        }
    }

    /// The rule named `name`, if any.
    pub fn parse(name: &str) -> Option<Moves> {
        [Moves::Orthogonal, Moves::Diagonal].into_iter().find(|m| m.name() == name)
    }

    /// The offsets a walker may step by: the four sides first.
    pub fn steps(self) -> &'static [Point] {
        match self {
            Moves::Orthogonal => &STEPS[..4],
            Moves::Diagonal => &STEPS,
        }
    }
}

/// A cardinal direction.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// Toward smaller `y`.
    North,
    /// Toward larger `x`.
    East,
    /// Toward larger `y`.
    South,
    /// Toward smaller `x`.
    West,
}

impl Dir {
    /// All four, clockwise from north.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The unit step in this direction.
    pub const fn delta(self) -> Point {
        match self {
            Dir::North => Point::new(0, -1),
            Dir::East => Point::new(1, 0),
            Dir::South => Point::new(0, 1),
            Dir::West => Point::new(-1, 0),
        }
    }

    /// A quarter turn clockwise (to the right when facing this way).
    pub const fn right(self) -> Dir {
        match self {
            Dir::North => Dir::East,
            Dir::East => Dir::South,
            Dir::South => Dir::West,
            Dir::West => Dir::North,
        }
    }

    /// A quarter turn counter-clockwise (to the left).
    pub const fn left(self) -> Dir {
        match self {
            Dir::North => Dir::West,
            Dir::East => Dir::North,
            Dir::South => Dir::East,
            Dir::West => Dir::South,
        }
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// Lower-case name: `north`, `east`, `south`, `west`.
    pub const fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
        }
    }

    /// Parses a name as written by [`Dir::name`] (also `n`, `e`, `s`, `w`).
    pub fn parse(s: &str) -> Option<Dir> {
        match s {
            "north" | "n" => Some(Dir::North),
            "east" | "e" => Some(Dir::East),
            "south" | "s" => Some(Dir::South),
            "west" | "w" => Some(Dir::West),
            _ => None,
        }
    }

    /// The arrow glyph pointing this way: `^ > v <`.
    pub const fn arrow(self) -> char {
        match self {
            Dir::North => '^',
            Dir::East => '>',
            Dir::South => 'v',
            Dir::West => '<',
        }
    }

    /// The direction an arrow glyph points, if it is one.
    pub const fn from_arrow(c: char) -> Option<Dir> {
        match c {
            '^' => Some(Dir::North),
            '>' => Some(Dir::East),
            'v' => Some(Dir::South),
            '<' => Some(Dir::West),
            _ => None,
        }
    }

    /// True for east and west.
    pub const fn is_horizontal(self) -> bool {
        matches!(self, Dir::East | Dir::West)
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the eight orientations of a rectangle: an optional horizontal flip, then
/// `quarter_turns` clockwise rotations.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Transform {
    quarter_turns: u8,
    flipped: bool,
}

impl Transform {
    /// Leaves everything as drawn.
    pub const IDENTITY: Transform = Transform { quarter_turns: 0, flipped: false };

    /// All eight, in [`Transform::index`] order: `r0 r90 r180 r270 flip flip-r90
    /// flip-r180 flip-r270`.
    pub const ALL: [Transform; 8] = [
        Transform::new(0, false),
        Transform::new(1, false),
        Transform::new(2, false),
        Transform::new(3, false),
        Transform::new(0, true),
        Transform::new(1, true),
        Transform::new(2, true),
        Transform::new(3, true),
    ];

    const NAMES: [&'static str; 8] = ["r0", "r90", "r180", "r270", "flip", "flip-r90", "flip-r180", "flip-r270"];

    /// One line telling users which transform names exist, for help texts.
    pub const HELP: &'static str = "transforms are r0 r90 r180 r270 flip flip-r90 flip-r180 flip-r270 (r90 turns a quarter clockwise; flip mirrors left to right, before any turn), or all / rotations / none";

    /// A horizontal flip (when `flipped`) followed by `quarter_turns % 4` clockwise
    /// quarter turns.
    pub const fn new(quarter_turns: u8, flipped: bool) -> Transform {
        Transform { quarter_turns: quarter_turns % 4, flipped }
    }

    /// Clockwise quarter turns, 0–3.
    pub const fn quarter_turns(self) -> u8 {
        self.quarter_turns
    }

    /// True when the transform mirrors east and west before rotating.
    pub const fn flipped(self) -> bool {
        self.flipped
    }

    /// Position in [`Transform::ALL`], 0–7.
    pub const fn index(self) -> usize {
        self.quarter_turns as usize + if self.flipped { 4 } else { 0 }
    }

    /// The name used in prefab headers, map types and the CLI, e.g. `flip-r90`.
    pub const fn name(self) -> &'static str {
        Transform::NAMES[self.index()]
    }

    /// Parses a name written by [`Transform::name`]; `flip-r0` is accepted for `flip`.
    pub fn parse(s: &str) -> Option<Transform> {
        if s == "flip-r0" {
            return Some(Transform::new(0, true));
        }
        Transform::NAMES.iter().position(|n| *n == s).map(|i| Transform::ALL[i])
    }

    /// The transform that applies `self` first and `next` second.
    pub const fn then(self, next: Transform) -> Transform {
        // Writing T = R^r F^f (flip first), a flip moved across a rotation negates
        // the rotation: F R^r = R^-r F.
        if next.flipped {
            Transform::new((4 + next.quarter_turns - self.quarter_turns) % 4, !self.flipped)
        } else {
            Transform::new(next.quarter_turns + self.quarter_turns, self.flipped)
        }
    }

    /// The transform that undoes `self`.
    pub const fn inverse(self) -> Transform {
        if self.flipped { self } else { Transform::new(4 - self.quarter_turns, false) }
    }

    /// The size of a `width × height` rectangle after the transform.
    pub const fn apply_size(self, width: i32, height: i32) -> (i32, i32) {
        if self.quarter_turns % 2 == 1 { (height, width) } else { (width, height) }
    }

    /// Where cell `p` of a `width × height` rectangle lands in the transformed one.
    pub const fn apply_point(self, p: Point, width: i32, height: i32) -> Point {
        let (x, y) = (if self.flipped { width - 1 - p.x } else { p.x }, p.y);
        // Clockwise quarter turns, each taking a w × h rectangle to an h × w one.
        match self.quarter_turns % 4 {
            0 => Point::new(x, y),
            1 => Point::new(height - 1 - y, x),
            2 => Point::new(width - 1 - x, height - 1 - y),
            _ => Point::new(y, width - 1 - x),
        }
    }

    /// The direction `d` becomes after the transform.
    pub const fn apply_dir(self, d: Dir) -> Dir {
        let mut d = if self.flipped {
            match d {
                Dir::East => Dir::West,
                Dir::West => Dir::East,
                other => other,
            }
        } else {
            d
        };
        let mut turns = self.quarter_turns;
        while turns > 0 {
            d = d.right();
            turns -= 1;
        }
        d
    }
}

impl fmt::Display for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of transforms (a prefab's allowed orientations).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TransformSet(u8);

impl TransformSet {
    /// All eight orientations.
    pub const ALL: TransformSet = TransformSet(0xff);
    /// The four rotations without flips.
    pub const ROTATIONS: TransformSet = TransformSet(0x0f);
    /// Only the orientation as drawn.
    pub const IDENTITY: TransformSet = TransformSet(0x01);
    /// No orientation at all.
    pub const EMPTY: TransformSet = TransformSet(0);

    /// True when `t` is in the set.
    pub const fn contains(self, t: Transform) -> bool {
        self.0 & (1 << t.index()) != 0
    }

    /// The set with `t` added.
    pub const fn with(self, t: Transform) -> TransformSet {
        TransformSet(self.0 | (1 << t.index()))
    }

    /// Transforms in both sets.
    pub const fn intersect(self, other: TransformSet) -> TransformSet {
        TransformSet(self.0 & other.0)
    }

    /// True when the set holds nothing.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of transforms in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The transforms in [`Transform::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Transform> {
        Transform::ALL.into_iter().filter(move |t| self.contains(*t))
    }

    /// Parses a space- or comma-separated list of transform names, or one of the
    /// words `all`, `rotations`, `none` (meaning `r0` only). Returns the first word
    /// that is not understood as the error.
    pub fn parse(words: &str) -> Result<TransformSet, String> {
        let mut set = TransformSet::EMPTY;
        for word in words.split(|c: char| c == ',' || c.is_whitespace()).filter(|w| !w.is_empty()) {
            set = match word {
                "all" => TransformSet(set.0 | TransformSet::ALL.0),
                "rotations" => TransformSet(set.0 | TransformSet::ROTATIONS.0),
                "none" => set.with(Transform::IDENTITY),
                _ => set.with(Transform::parse(word).ok_or_else(|| word.to_string())?),
            };
        }
        Ok(set)
    }

    /// The shortest description: `all`, `rotations`, `none`, or a list of names.
    pub fn describe(self) -> String {
        match self {
            TransformSet::ALL => "all".into(),
            TransformSet::ROTATIONS => "rotations".into(),
            TransformSet::IDENTITY => "none".into(),
            set => set.iter().map(Transform::name).collect::<Vec<_>>().join(" "),
        }
    }
}

impl Default for TransformSet {
    fn default() -> TransformSet {
        TransformSet::ALL
    }
}

/// The largest rectangle of a `width` x `height` grid whose cells are all
/// empty and whose sides are both at least `min_side`, by the
/// histogram-and-stack sweep over rows (linear in the cells): `heights[x]`
/// counts empty cells straight up from the current row, and a column shorter
/// than `min_side` counts as none. `empty_row(y, row)` sets `row[x]` for each
/// empty cell of row `y` (the row comes cleared). Ties
/// keep the first found, so the answer is the same on every platform; none
/// found is an empty rectangle. A caller searching many times keeps a
/// [`RectSearch`] and calls [`RectSearch::largest`] instead.
pub(crate) fn largest_empty_rect(
    width: i32,
    height: i32,
    min_side: i32,
    empty_row: impl FnMut(usize, &mut [bool]),
) -> Rect {
    RectSearch::default().largest(width, height, min_side, empty_row)
}

/// The buffers of [`largest_empty_rect`], kept between searches so that a
/// stage searching once per room allocates once per map.
#[derive(Default)]
pub(crate) struct RectSearch {
    row: Vec<bool>,
    /// Empty cells straight up from the current row, per column.
    raw: Vec<i32>,
    /// `raw`, with heights below `min_side` stored as 0: such a column cannot
    /// be part of a rectangle, and a zero splits the row into runs searched apart.
    counted: Vec<i32>,
    stack: Vec<usize>,
}

impl RectSearch {
    /// [`largest_empty_rect`] with these buffers.
    pub(crate) fn largest(
        &mut self,
        width: i32,
        height: i32,
        min_side: i32,
        mut empty_row: impl FnMut(usize, &mut [bool]),
    ) -> Rect {
        let (w, h) = (width.max(0) as usize, height.max(0) as usize);
        for buffer in [&mut self.raw, &mut self.counted] {
            buffer.clear();
            buffer.resize(w, 0);
        }
        self.row.clear();
        self.row.resize(w, false);
        let mut best = Rect::new(0, 0, 0, 0);
        for y in 0..h {
            self.row.fill(false);
            empty_row(y, &mut self.row);
            for ((&empty, raw), counted) in self.row.iter().zip(&mut self.raw).zip(&mut self.counted) {
                *raw = if empty { *raw + 1 } else { 0 };
                *counted = if *raw >= min_side { *raw } else { 0 };
            }
            let mut x = 0;
            while x < w {
                if self.counted[x] == 0 {
                    x += 1;
                    continue;
                }
                let start = x;
                let mut sum = 0i64;
                while x < w && self.counted[x] > 0 {
                    sum += i64::from(self.counted[x]);
                    x += 1;
                }
                // A rectangle of this run covers at most every counted cell of it:
                // a run that cannot beat the best so far is not swept.
                if sum > best.area() {
                    best = largest_in_run(&self.counted[start..x], start, y, min_side, &mut self.stack, best);
                }
            }
        }
        best
    }
}

/// [`largest_empty_rect`] with sides of one cell or more, over a grid at most 64
/// cells wide given as bit rows (bit `x` of `rows[y]` set where the cell is
/// empty), with the same answer, ties included.
///
/// Every pair of a bottom row and a row above it is ANDed into one word, and
/// each run of set bits in it is a rectangle. For the rooms the furnishing
/// searches many times a map, that is a few dozen word operations where the
/// sweep takes a few per cell. The sweep keeps the first largest rectangle it
/// meets: rows from the north, then rectangles by their east edge, then the
/// taller first; this search keeps the largest by the same order.
pub(crate) fn largest_in_bit_rows(rows: &[u64]) -> Rect {
    let mut best = Rect::new(0, 0, 0, 0);
    for (bottom, &row) in rows.iter().enumerate() {
        let mut both = row;
        let mut top = bottom;
        while both != 0 {
            let height = (bottom - top + 1) as i32;
            let mut runs = both;
            while runs != 0 {
                let start = runs.trailing_zeros();
                let len = (!(runs >> start)).trailing_zeros();
                let r = Rect::new(start as i32, top as i32, len as i32, height);
                // Rows come from the north: an earlier row's rectangle keeps a tie.
                let ties_and_comes_first = r.area() == best.area()
                    && r.bottom() == best.bottom()
                    && (r.right(), -r.height) < (best.right(), -best.height);
                if r.area() > best.area() || ties_and_comes_first {
                    best = r;
                }
                runs = if start + len >= 64 { 0 } else { runs & (!0u64 << (start + len)) };
            }
            let Some(above) = top.checked_sub(1) else { break };
            top = above;
            both &= rows[top];
        }
    }
    best
}

/// The histogram sweep of one run of nonzero `heights` starting at column `start`
/// with its bars ending on row `y`: `best` or a larger rectangle found in the run.
fn largest_in_run(
    heights: &[i32],
    start: usize,
    y: usize,
    min_side: i32,
    stack: &mut Vec<usize>,
    mut best: Rect,
) -> Rect {
    stack.clear();
    let n = heights.len();
    for x in 0..=n {
        // A bar of height 0 past the run's end closes every open bar.
        let here = heights.get(x).copied().unwrap_or(0);
        while let Some(&top) = stack.last() {
            if heights[top] < here {
                break;
            }
            stack.pop();
            let left = stack.last().map_or(0, |&l| l + 1);
            let (rw, rh) = ((x - left) as i32, heights[top]);
            if rw >= min_side && i64::from(rw) * i64::from(rh) > best.area() {
                best = Rect::new((start + left) as i32, y as i32 + 1 - rh, rw, rh);
            }
        }
        stack.push(x);
    }
    best
}

#[cfg(test)]
mod tests;
