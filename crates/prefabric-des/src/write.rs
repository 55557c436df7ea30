//! Writing a translated vault as prefabric text: its prefab (header, legend,
//! variation rules, terrain grid) in the style it is placed in, and its
//! definition file.
//!
//! In: a [`Vault`] and how it is placed. Out: the text of one prefab and of
//! its definition file, in the syntax a designer writes by hand, or why the
//! vault cannot be placed that way. For a room (`enclosed`) or a cave wall
//! (`embedded`) the drawing is turned first so that its open side is the bottom
//! row, as prefabric draws such prefabs, and its allowed orientations turned
//! with it.

use super::glyphs::walkable;
use super::picks::{common_keywords, group_picks, weighted_picks};
use super::vault::{Line, Vault};
use prefabric::geom::{Dir, Point, Transform, TransformSet};
use std::collections::BTreeMap;
use std::fmt::Write;

/// How a vault's prefab is placed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Placed {
    /// In a room, any cell of its edge open (`accessible`).
    Accessible,
    /// A room's interior, entered from its bottom row (`enclosed`).
    Enclosed,
    /// Free in the middle of a cavern (`centered`).
    Centered,
    /// Before the layout, at an anchor (`feature`), its exits link marks.
    Feature,
    /// The whole level (`feature` of a map type of its own).
    Level,
}

impl Placed {
    /// The prefab style it is written with.
    pub fn style(self) -> &'static str {
        match self {
            Placed::Accessible => "accessible",
            Placed::Enclosed => "enclosed",
            Placed::Centered => "centered",
            Placed::Feature | Placed::Level => "feature",
        }
    }
}

/// What a cell of the drawing may be in the vault's outcomes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Cell {
    /// Not drawn (`?`).
    Open,
    /// Walkable in every outcome.
    Floor,
    /// Walkable in some outcomes only.
    Maybe,
    /// Never walkable.
    Solid,
}

/// What each glyph of `grid` may be in `v`'s outcomes: [`classify`] once a
/// glyph, as following a glyph through the rules costs more than a cell.
fn classes(v: &Vault, grid: &[Vec<char>]) -> BTreeMap<char, Cell> {
    let mut classes = BTreeMap::new();
    for &g in grid.iter().flatten() {
        classes.entry(g).or_insert_with(|| classify(v, g));
    }
    classes
}

fn classify(v: &Vault, g: char) -> Cell {
    if g == '?' {
        return Cell::Open;
    }
    let finals = super::rules::glyph_sets(g, &v.rules);
    let walk: Vec<bool> = finals.iter().map(|f| v.legend.get(f).is_some_and(|(t, _)| walkable(t))).collect();
    if walk.iter().all(|&w| w) {
        Cell::Floor
    } else if walk.iter().any(|&w| w) {
        Cell::Maybe
    } else {
        Cell::Solid
    }
}

/// The cells of one side of a `w × h` drawing.
fn side(w: i32, h: i32, d: Dir) -> Vec<Point> {
    match d {
        Dir::North => (0..w).map(|x| Point::new(x, 0)).collect(),
        Dir::South => (0..w).map(|x| Point::new(x, h - 1)).collect(),
        Dir::West => (0..h).map(|y| Point::new(0, y)).collect(),
        Dir::East => (0..h).map(|y| Point::new(w - 1, y)).collect(),
    }
}

/// How a vault may be placed in a room: `accessible` when every edge cell is
/// open in every outcome, else `enclosed` through its most open side (the one
/// with exits first), counting cells walkable in every outcome and undrawn
/// cells its floor reaches. `None` when no side has such a cell.
pub fn room_style(v: &Vault) -> Option<(Placed, Dir)> {
    let (w, h) = size(v);
    let classes = classes(v, &v.grid);
    let at = |p: Point| classes[&v.grid[p.y as usize][p.x as usize]];
    let edge_open =
        Dir::ALL.iter().all(|&d| side(w, h, d).into_iter().all(|p| matches!(at(p), Cell::Open | Cell::Floor)));
    if edge_open {
        return Some((Placed::Accessible, Dir::South));
    }
    // An undrawn cell counts as open only where the vault's floor reaches it:
    // the others become earth (`fill_pockets`), and a door there leads nowhere.
    let reached = reached_from(v, &v.grid, &classes, false);
    let open_at = |p: Point| match at(p) {
        Cell::Floor => true,
        Cell::Open => reached[p.y as usize][p.x as usize],
        _ => false,
    };
    let score = |d: Dir| {
        let cells = side(w, h, d);
        let exits = cells.iter().filter(|p| v.exits.contains(p)).count();
        let open = cells.iter().filter(|&&p| open_at(p)).count();
        (exits, open)
    };
    let best = Dir::ALL.into_iter().max_by_key(|&d| (score(d), d == Dir::South))?;
    (score(best).1 > 0).then_some((Placed::Enclosed, best))
}

/// True when the vault may stand free in a cavern: some drawn edge cell is
/// walkable in some outcome. Whether every outcome leads out (a shuffle that
/// opens one exit of four, say) is for `check`'s proof to show.
pub fn cave_style(v: &Vault) -> bool {
    let (w, h) = size(v);
    Dir::ALL.iter().any(|&d| {
        side(w, h, d)
            .into_iter()
            .any(|p| matches!(classify(v, v.grid[p.y as usize][p.x as usize]), Cell::Floor | Cell::Maybe))
    })
}

fn size(v: &Vault) -> (i32, i32) {
    (v.grid.first().map_or(0, Vec::len) as i32, v.grid.len() as i32)
}

/// The turn that brings side `d` to the bottom.
fn turn_to_bottom(d: Dir) -> Transform {
    match d {
        Dir::South => Transform::IDENTITY,
        Dir::East => Transform::new(1, false),
        Dir::North => Transform::new(2, false),
        Dir::West => Transform::new(3, false),
    }
}

/// The prefab text of `v` placed as `placed`, `open` its side to face the
/// bottom (for `enclosed`), named `name`, using definition file `defs`.
pub fn prefab(v: &Vault, placed: Placed, open: Dir, name: &str, defs: &str, source: &str) -> String {
    let turn = if placed == Placed::Enclosed { turn_to_bottom(open) } else { Transform::IDENTITY };
    let (w, h) = size(v);
    let (tw, th) = turn.apply_size(w, h);
    let mut grid = vec![vec!['?'; tw as usize]; th as usize];
    for (y, row) in v.grid.iter().enumerate() {
        for (x, &g) in row.iter().enumerate() {
            let p = turn.apply_point(Point::new(x as i32, y as i32), w, h);
            grid[p.y as usize][p.x as usize] = g;
        }
    }
    // Cells DCSS leaves to the level that no open ground reaches: rock here.
    let earth = match placed {
        Placed::Accessible | Placed::Enclosed => fill_pockets(v, &mut grid, placed == Placed::Accessible),
        _ => None,
    };
    // The orientations DCSS allows, of the drawing as turned.
    let back = turn.inverse();
    let mut transforms = TransformSet::EMPTY;
    for t in v.transforms.iter() {
        transforms = transforms.with(back.then(t));
    }
    let mut out = String::new();
    let _ = writeln!(out, "# DCSS vault `{}`, {source}", v.dcss_name);
    let _ = writeln!(out, "prefab {name}");
    let mut tags = vec!["dcss".to_string()];
    tags.extend(v.tags.iter().filter(|t| prefabric::prefab::check_tag(t).is_ok()).cloned());
    let _ = writeln!(out, "tags: {}", tags.join(" "));
    let _ = writeln!(out, "transforms: {}", transforms.describe());
    let _ = writeln!(out, "style: {}", placed.style());
    if !v.lines.is_empty() && defs != name {
        let _ = writeln!(out, "defs: {defs}");
    }
    for (g, (terrain, reference)) in &v.legend {
        let _ = write!(out, "legend: {g} = {terrain}");
        if let Some(r) = reference {
            let _ = write!(out, " ref {r}");
        }
        if let Some(names) = v.marks.get(g) {
            let _ = write!(out, " mark {}", names.join(" "));
        }
        out.push('\n');
    }
    if let Some(g) = earth {
        let _ = writeln!(out, "legend: {g} = earth");
    }
    for rule in &v.rules {
        if let Some((key, value)) = rule.line() {
            let _ = writeln!(out, "{key}: {value}");
        }
    }
    out.push_str("terrain:\n");
    for row in &grid {
        out.extend(row.iter());
        out.push('\n');
    }
    if placed == Placed::Feature && !v.exits.is_empty() {
        links_layer(&mut out, v, &grid, turn);
    }
    out.push('\n');
    out
}

/// Turns into earth every undrawn (`?`) cell that open ground of the vault
/// cannot reach — from the cells walkable in every outcome, and for an
/// `accessible` vault from its rim (the room around it), through undrawn and
/// walkable cells. In a room such a cell would keep the room's floor, shut in
/// by the vault's walls; DCSS leaves the level's rock there. Returns the glyph
/// drawn for earth, when any cell took it.
fn fill_pockets(v: &Vault, grid: &mut [Vec<char>], from_rim: bool) -> Option<char> {
    let reached = reached_from(v, grid, &classes(v, grid), from_rim);
    let glyph = ['░', '▒', '▓', '■']
        .into_iter()
        .find(|g| !v.legend.contains_key(g) && !grid.iter().flatten().any(|c| c == g))?;
    let mut used = false;
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, g) in row.iter_mut().enumerate() {
            if *g == '?' && !reached[y][x] {
                *g = glyph;
                used = true;
            }
        }
    }
    used.then_some(glyph)
}

/// The cells of `grid` that open ground of vault `v` reaches through undrawn
/// and walkable cells: from the cells walkable in every outcome, and with
/// `from_rim` from the undrawn cells on the rim too. `classes` holds what each
/// glyph of `grid` may be (see [`classes`]).
fn reached_from(v: &Vault, grid: &[Vec<char>], classes: &BTreeMap<char, Cell>, from_rim: bool) -> Vec<Vec<bool>> {
    let (h, w) = (grid.len(), grid.first().map_or(0, Vec::len));
    let passable: Vec<Vec<bool>> =
        grid.iter().map(|row| row.iter().map(|g| matches!(classes[g], Cell::Open | Cell::Floor)).collect()).collect();
    let mut reached = vec![vec![false; w]; h];
    let mut stack = Vec::new();
    for (y, row) in grid.iter().enumerate() {
        for (x, &g) in row.iter().enumerate() {
            let rim = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
            if classes[&g] == Cell::Floor || (from_rim && rim && g == '?') {
                reached[y][x] = true;
                stack.push((x, y));
            }
        }
    }
    while let Some((x, y)) = stack.pop() {
        let near =
            v.moves.steps().iter().map(|s| (x.wrapping_add_signed(s.x as isize), y.wrapping_add_signed(s.y as isize)));
        for (nx, ny) in near {
            if nx < w && ny < h && passable[ny][nx] && !reached[ny][nx] {
                reached[ny][nx] = true;
                stack.push((nx, ny));
            }
        }
    }
    reached
}

/// A `links` layer with a 1-wide tunnel start on each exit at the drawing's
/// edge, so the layout digs to it.
fn links_layer(out: &mut String, v: &Vault, grid: &[Vec<char>], turn: Transform) {
    let (w, h) = size(v);
    let (tw, th) = turn.apply_size(w, h);
    let mut links = vec![vec!['.'; tw as usize]; th as usize];
    let mut corners = Vec::new();
    for &e in &v.exits {
        let p = turn.apply_point(e, w, h);
        let faces: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|d| match d {
                Dir::North => p.y == 0,
                Dir::South => p.y == th - 1,
                Dir::West => p.x == 0,
                Dir::East => p.x == tw - 1,
            })
            .collect();
        if !faces.is_empty() {
            links[p.y as usize][p.x as usize] = '1';
        }
        if faces.len() > 1 {
            corners.push((p, faces));
        }
    }
    // An exit on a corner faces two edges: an arrow beside it says which, the
    // one whose cell behind the exit is walkable in every outcome (DCSS joins
    // the level to it from either side).
    for (p, faces) in corners {
        let inside = |q: Point| q.x >= 0 && q.y >= 0 && q.x < tw && q.y < th;
        let behind = |d: Dir| Some(p - d.delta()).filter(|&q| inside(q));
        let walkable = |q: Point| classify(v, grid[q.y as usize][q.x as usize]) == Cell::Floor;
        let d = faces.iter().copied().find(|&d| behind(d).is_some_and(walkable)).unwrap_or(faces[0]);
        let Some(q) = behind(d) else { continue };
        if links[q.y as usize][q.x as usize] == '.' {
            links[q.y as usize][q.x as usize] = match d {
                Dir::North => '^',
                Dir::East => '>',
                Dir::South => 'v',
                Dir::West => '<',
            };
        }
    }
    out.push_str("links:\n");
    for row in &links {
        out.extend(row.iter());
        out.push('\n');
    }
}

/// The definition file of `v`; empty when it places nothing.
pub fn definitions(v: &Vault, source: &str) -> String {
    let mut out = String::new();
    if v.lines.is_empty() {
        return out;
    }
    let _ = writeln!(out, "# The objects of DCSS vault `{}`, {source}", v.dcss_name);
    // Lines stacked on one reference each draw their own group.
    let mut stacked: BTreeMap<char, usize> = BTreeMap::new();
    for line in &v.lines {
        let k = stacked.entry(line.reference).or_insert(0);
        write_line(&mut out, line, *k);
        *k += 1;
    }
    out
}

/// One object line: per-cell alternatives on one line (`UNIQUE`, so cells do not
/// share a draw), or a group of lines when one draw serves every cell; `stacked`
/// counts the lines written for its reference before it.
fn write_line(out: &mut String, line: &Line, stacked: usize) {
    let kind = line.kind.name();
    let chance = if line.chance < 100 { format!("{}% ", line.chance) } else { String::new() };
    let keywords = common_keywords(&line.alts);
    let kw = if keywords.is_empty() { String::new() } else { format!(" {}", keywords.join(" ")) };
    if line.once && line.alts.len() > 1 {
        // A group's lines are drawn alike: weights by repeating lines.
        for tag in group_picks(&line.alts) {
            let group = match stacked {
                0 => group_name(line.reference),
                k => format!("{}_{k}", group_name(line.reference)),
            };
            let _ = writeln!(out, "{chance}@pick_{group} {} {kind} {tag}{kw}", line.reference);
        }
        return;
    }
    let picks = weighted_picks(&line.with_nothing());
    let unique = if picks.len() > 1 { " UNIQUE" } else { "" };
    let _ = writeln!(out, "{chance}{} {kind} {}{unique}{kw}", line.reference, picks.join("|"));
}

/// A group name for a reference character.
fn group_name(r: char) -> String {
    if r.is_ascii_alphanumeric() { r.to_string() } else { format!("u{:x}", r as u32) }
}
