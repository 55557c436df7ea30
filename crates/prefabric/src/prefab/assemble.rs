//! The checks every prefab passes, whichever format it was drawn in.
//!
//! The text reader and the REXPaint reader each turn their input into a header, a
//! terrain grid and up to three glyph grids ([`Drawn`]); [`assemble`] gives the glyph
//! grids their meaning (link marks with directions, machines as 4-connected groups,
//! reference characters) and checks them against the terrain. Every problem is
//! reported at the cell it concerns, through a [`Place`] that knows how the source
//! names cells: `file:line:col` for text, layer and coordinates for `.xp`. Two
//! sources that draw the same thing therefore give equal [`Prefab`]s.

use super::{
    About, Header, LayerKind, LinkMark, Machine, Prefab, RefMark, nearest_edge, outline_facing, sorted_machines,
    sorted_refs,
};
use crate::error::{Error, ErrorKind, Location};
use crate::format::text::Layer;
use crate::geom::{Dir, Moves, Point};
use crate::grid::Grid;
use crate::map::{LinkKind, Terrain};
use std::sync::Arc;

/// A prefab's layers as drawn, before their marks are interpreted. Overlay grids hold
/// `None` for empty cells and have the terrain's size.
pub(crate) struct Drawn {
    pub terrain: Grid<Option<Terrain>>,
    /// Connectors drawn in the terrain layer (`*` in text prefabs): door cells that
    /// are link marks too, facing out of the prefab's outline.
    pub connectors: Vec<Point>,
    /// Link layer glyphs: `1`–`9`, `*`, and arrows written `^ > v <`.
    pub links: Option<Grid<Option<char>>>,
    pub machines: Option<Grid<Option<char>>>,
    pub refs: Option<Grid<Option<char>>>,
}

/// How a source names the place of a cell in an error.
pub(crate) enum Place<'r, 'a> {
    /// A text prefab: each layer's rows know their line numbers.
    Text { layers: [Option<&'r Layer<'a>>; 5] },
    /// A REXPaint image: a layer number and the cell's coordinates.
    Xp,
    /// A Tiled map: the layer's name and the cell's coordinates.
    Tiled,
}

impl Place<'_, '_> {
    /// The location and message of a problem at cell `p` of `layer` in `file`.
    pub fn error(&self, file: &str, layer: LayerKind, p: Point, message: &str) -> (Location, String) {
        match self {
            Place::Text { layers } => match layers[layer as usize].and_then(|l| l.rows.get(p.y as usize)) {
                Some(row) => (Location::at(file, row.line, row.col + p.x as u32), message.to_string()),
                None => (Location::file(file), message.to_string()),
            },
            Place::Xp => (
                Location::file(file),
                format!("layer {} ({}), cell x={} y={}: {message}", layer.xp_layer(), layer.name(), p.x, p.y),
            ),
            Place::Tiled => {
                (Location::file(file), format!("layer `{}`, cell x={} y={}: {message}", layer.name(), p.x, p.y))
            }
        }
    }
}

/// Checks the drawn layers and builds the prefab, or returns every problem found;
/// `moves` is the pack's movement rule, which the prefab's floor checks follow.
pub(crate) fn assemble(
    file: &str,
    header: Header,
    origin: Location,
    drawn: Drawn,
    place: &Place<'_, '_>,
    moves: Moves,
) -> Result<Prefab, Vec<Error>> {
    let mut a = Assembler { file, place, moves, errors: Vec::new(), counts: [0; 5] };
    let links = a.links(drawn.links.as_ref(), &drawn.connectors, &drawn.terrain);
    let link_paths = link_paths(&links, &drawn.terrain);
    // A room encounter's `?` cells keep the room's floor; a feature's or a cave
    // prefab's keep whatever ground the map had, which may be solid.
    let dont_care_is_floor = header.style.dont_care_is_floor();
    let machines = drawn
        .machines
        .as_ref()
        .map_or_else(Vec::new, |g| a.machines(g, &drawn.terrain, &link_paths, dont_care_is_floor));
    let refs = drawn.refs.as_ref().map_or_else(Vec::new, |g| a.refs(g, &drawn.terrain, &link_paths));
    a.summarise();
    if !a.errors.is_empty() {
        return Err(a.errors);
    }
    Ok(Prefab {
        about: Arc::new(About { name: header.name, tags: header.tags, defs: header.defs, origin }),
        transforms: header.transforms,
        style: header.style,
        cells: drawn.terrain,
        links,
        machines: sorted_machines(machines),
        refs: sorted_refs(refs),
        marks: Vec::new(),
        variation: None,
        moves,
    })
}

/// Most problems reported per layer before the rest are summarised.
const MAX_LAYER_ERRORS: usize = 12;

struct Assembler<'p, 'r, 'a> {
    file: &'p str,
    place: &'p Place<'r, 'a>,
    moves: Moves,
    errors: Vec<Error>,
    /// Problems found per layer, reported or not.
    counts: [usize; 5],
}

/// A glyph as messages show it: in backquotes, or escaped when it is invisible.
fn shown(c: char) -> String {
    if c.is_whitespace() || c.is_control() { format!("{:?}", c) } else { format!("`{c}`") }
}

/// Cells on the way out of any link, which must stay clear.
fn link_paths(links: &[LinkMark], terrain: &Grid<Option<Terrain>>) -> Grid<bool> {
    let mut paths = Grid::new(terrain.width(), terrain.height(), false);
    for l in links {
        for p in l.path(terrain.width(), terrain.height()) {
            paths.set(p, true);
        }
    }
    paths
}

impl Assembler<'_, '_, '_> {
    /// Reports a problem at cell `p` of `layer`; past [`MAX_LAYER_ERRORS`] for the
    /// layer it is only counted.
    fn invalid(&mut self, layer: LayerKind, p: Point, message: &str, help: &str) {
        self.counts[layer as usize] += 1;
        if self.counts[layer as usize] > MAX_LAYER_ERRORS {
            return;
        }
        let (location, message) = self.place.error(self.file, layer, p, message);
        let mut e = Error::at(ErrorKind::Invalid, location, message);
        if !help.is_empty() {
            e = e.with_help(help);
        }
        self.errors.push(e);
    }

    /// Adds one line per layer for the problems counted but not reported.
    fn summarise(&mut self) {
        for kind in LayerKind::ALL {
            let extra = self.counts[kind as usize].saturating_sub(MAX_LAYER_ERRORS);
            if extra > 0 {
                let what = format!("... and {extra} more problems in the `{}` layer", kind.name());
                self.errors.push(Error::at(ErrorKind::Invalid, Location::file(self.file), what));
            }
        }
    }

    /// Describes where cell `p` of `layer` is, for messages that point at a second cell.
    fn cell_name(&self, layer: LayerKind, p: Point) -> String {
        match self.place.error(self.file, layer, p, "") {
            (loc, _) if loc.line > 0 => format!("{}:{}", loc.line, loc.col),
            _ => format!("x={} y={}", p.x, p.y),
        }
    }

    /// The link marks of the links layer (`glyphs`) and of the terrain layer
    /// (`connectors`), each with its direction: an arrow beside it, else the nearest
    /// edge for a links-layer mark and the side facing out of the outline for a
    /// terrain connector.
    fn links(
        &mut self,
        glyphs: Option<&Grid<Option<char>>>,
        connectors: &[Point],
        cells: &Grid<Option<Terrain>>,
    ) -> Vec<LinkMark> {
        let (w, h) = (cells.width(), cells.height());
        let mut marks: Vec<(Point, LinkKind)> = Vec::new();
        let mut arrows: Vec<(Point, Dir)> = Vec::new();
        // Index into `marks` of the mark at each cell, so arrows find theirs in
        // constant time.
        let mut mark_at: Grid<Option<usize>> = Grid::new(w, h, None);
        let layer = LayerKind::Links;
        for &p in connectors {
            mark_at.set(p, Some(marks.len()));
            marks.push((p, LinkKind::Connector));
        }
        let in_terrain = marks.len();
        for p in cells.bounds().points() {
            let Some(glyph) = glyphs.and_then(|g| g[p]) else { continue };
            let kind = match glyph {
                '*' => LinkKind::Connector,
                c @ '1'..='9' => LinkKind::Tunnel { width: c as u8 - b'0' },
                c => {
                    match Dir::from_arrow(c) {
                        Some(d) if mark_at[p].is_some() => self.invalid(
                            layer,
                            p,
                            &format!("arrow `{}` lies on the connector drawn in the terrain", d.arrow()),
                            "put the arrow in the cell beside the connector that it steers",
                        ),
                        Some(d) => arrows.push((p, d)),
                        None => self.invalid(
                            layer,
                            p,
                            &format!("{} is not a link mark", shown(c)),
                        "the links layer holds 1-9 (a tunneler of that width), `*` (a connector) and arrows `^ > v <` beside a mark; empty cells are `.` in text and transparent in REXPaint",
                        ),
                    }
                    continue;
                }
            };
            if mark_at[p].is_some() {
                // A `*` over a terrain connector says the same thing twice.
                if kind != LinkKind::Connector {
                    self.invalid(
                        layer,
                        p,
                        &format!("tunnel mark `{glyph}` lies on a connector drawn in the terrain"),
                        "a cell is a connector (`*` in the terrain) or a tunneler start (a digit in the links layer), not both",
                    );
                }
                continue;
            }
            mark_at.set(p, Some(marks.len()));
            marks.push((p, kind));
        }

        let mut dirs: Vec<Option<Dir>> = vec![None; marks.len()];
        for &(p, d) in &arrows {
            let mut owners = Dir::ALL.iter().filter_map(|n| mark_at.get(p + n.delta()).copied().flatten());
            match (owners.next(), owners.next()) {
                (Some(i), None) if dirs[i].is_none() => dirs[i] = Some(d),
                (Some(i), None) => {
                    let other = self.cell_name(layer, marks[i].0);
                    self.invalid(layer, p, &format!("the mark at {other} already has an arrow"), "");
                }
                (None, _) => self.invalid(
                    layer,
                    p,
                    &format!("arrow `{}` is not beside a link mark", d.arrow()),
                    "put the arrow right next to the digit or `*` it steers",
                ),
                _ => self.invalid(
                    layer,
                    p,
                    &format!("arrow `{}` touches more than one link mark", d.arrow()),
                    "move the marks apart so each arrow touches one",
                ),
            }
        }

        let mut links = Vec::new();
        for (i, &(p, kind)) in marks.iter().enumerate() {
            let dir = match dirs[i] {
                Some(d) => d,
                None if i < in_terrain => match outline_facing(p, cells) {
                    Ok(d) => d,
                    Err(sides) => {
                        self.unclear_connector(p, &sides);
                        continue;
                    }
                },
                None => match nearest_edge(p, w, h) {
                    Ok(d) => d,
                    Err((a, b)) => {
                        self.invalid(
                            layer,
                            p,
                            &format!(
                                "the mark is as close to the {a} edge as to the {b} edge, so its direction is unclear"
                            ),
                            "put an arrow (^ > v <) beside it to say which way it leads",
                        );
                        continue;
                    }
                },
            };
            let mark = LinkMark { at: p, dir, kind };
            // A connector drawn in the terrain is reported where it is drawn.
            let drawn_in = if i < in_terrain { LayerKind::Terrain } else { layer };
            if let Some(blocker) = mark.path(w, h).find(|q| !super::link_can_pass(cells[*q])) {
                let what = cells[blocker].map_or("?".to_string(), |t| t.to_string());
                if blocker == p {
                    self.invalid(
                        drawn_in,
                        p,
                        &format!("the link mark stands on {what}"),
                        "a link mark stands on floor, a door or earth; draw it on the doorway, or draw `*` in the terrain itself",
                    );
                } else {
                    let at = self.cell_name(LayerKind::Terrain, blocker);
                    self.invalid(
                        drawn_in,
                        p,
                        &format!("the way {} from this mark to the prefab's edge is blocked by {what} at {at}", dir.name()),
                        "a link leads out through floor, doors, earth or `?` cells; move the mark or point it another way",
                    );
                }
                continue;
            }
            links.push(mark);
        }
        // Reading order, whichever layer drew each mark, as a written and read
        // again prefab (or a transformed one) lists them.
        links.sort_by_key(|l| (l.at.y, l.at.x));
        links
    }

    /// Reports a terrain connector whose facing cannot be read from the outline:
    /// `sides` are the sides that face out of it (none: it is not on the edge).
    fn unclear_connector(&mut self, p: Point, sides: &[Dir]) {
        let layer = LayerKind::Terrain;
        match sides {
            [] => self.invalid(
                layer,
                p,
                "connector `*` is not on the prefab's edge: no side of it faces out of the prefab (past the grid or onto `?`) with floor on the opposite side",
                "a connector sits in the prefab's outline with floor behind it; move it there, or put an arrow (^ > v <) beside it in the links layer",
            ),
            [first, rest @ ..] => {
                let names: Vec<&str> = rest.iter().map(|d| d.name()).collect();
                self.invalid(
                    layer,
                    p,
                    &format!(
                        "connector `*` faces out of the prefab both {} and {}, so its direction is unclear",
                        first.name(),
                        names.join(" and ")
                    ),
                    "put an arrow (^ > v <) beside it in the links layer to say which way it leads",
                )
            }
        }
    }

    /// Checks that an object drawn at `p` stands where objects can stand.
    fn check_footing(
        &mut self,
        layer: LayerKind,
        p: Point,
        what: &str,
        terrain: Option<Terrain>,
        on_path: bool,
    ) -> bool {
        let standable = terrain.is_some_and(|t| t.is_walkable());
        if !standable {
            let under = terrain.map_or("`?` (don't care)".to_string(), |t| t.to_string());
            self.invalid(
                layer,
                p,
                &format!("{what} stands on {under}"),
                "machines and references stand on floor, doors or stairs; move it or change the terrain under it",
            );
            return false;
        }
        if on_path {
            self.invalid(
                layer,
                p,
                &format!("{what} stands on a link's way out, which the link will dig through"),
                "move it off the line from the link mark to the prefab's edge",
            );
            return false;
        }
        true
    }

    fn machines(
        &mut self,
        glyphs: &Grid<Option<char>>,
        terrain: &Grid<Option<Terrain>>,
        paths: &Grid<bool>,
        dont_care_is_floor: bool,
    ) -> Vec<Machine> {
        let mut seen = Grid::new(glyphs.width(), glyphs.height(), false);
        let mut machines = Vec::new();
        let mut stack = Vec::new();
        for start in glyphs.bounds().points() {
            if glyphs[start].is_none() || seen[start] {
                continue;
            }
            // Flood the 4-connected group: one machine.
            let mut cells = Vec::new();
            seen[start] = true;
            stack.push(start);
            while let Some(p) = stack.pop() {
                if let Some(g) = glyphs[p] {
                    cells.push((p, g));
                }
                for d in Dir::ALL {
                    let q = p + d.delta();
                    if glyphs.get(q).is_some_and(|g| g.is_some()) && !seen[q] {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
            let mut ok = true;
            for &(p, _) in &cells {
                ok &= self.check_footing(LayerKind::Machines, p, "a machine", terrain[p], paths[p]);
                if let Some(t) = terrain[p].filter(|t| ok && !t.is_floor()) {
                    self.invalid(
                        LayerKind::Machines,
                        p,
                        &format!("a machine stands on {t}"),
                        "machines block walkers, so they stand on floor, never on doors or stairs",
                    );
                    ok = false;
                }
            }
            if ok && !self.keeps_floor_whole(&cells, glyphs, terrain, dont_care_is_floor) {
                ok = false;
            }
            if ok {
                machines.push(Machine::new(cells));
            }
        }
        machines
    }

    /// True when the floor beside a machine (the walkable cells a step away)
    /// stays one area without the cells any machine covers: machines block
    /// walkers, so one that cuts a prefab's floor in two would strand part of
    /// it. `?` cells count as floor when `dont_care_is_floor`. Reports the
    /// problem otherwise.
    fn keeps_floor_whole(
        &mut self,
        cells: &[(Point, char)],
        glyphs: &Grid<Option<char>>,
        terrain: &Grid<Option<Terrain>>,
        dont_care_is_floor: bool,
    ) -> bool {
        let open = |p: Point| {
            let floor = match terrain.get(p) {
                Some(Some(t)) => t.is_walkable(),
                Some(None) => dont_care_is_floor,
                None => false,
            };
            floor && glyphs.get(p).is_some_and(|g| g.is_none())
        };
        let mut beside: Vec<Point> = Vec::new();
        for &(p, _) in cells {
            for &step in self.moves.steps() {
                let q = p + step;
                if open(q) && !beside.contains(&q) {
                    beside.push(q);
                }
            }
        }
        let Some(&first) = beside.first() else { return true };
        let seen = Grid::reachable(terrain.width(), terrain.height(), first, self.moves, open);
        match beside.iter().find(|&&q| !seen[q]) {
            None => true,
            Some(&q) => {
                self.invalid(
                    LayerKind::Machines,
                    cells[0].0,
                    &format!("this machine cuts the floor in two: the floor at ({}, {}) cannot reach the floor at ({}, {}) around it", q.x, q.y, first.x, first.y),
                    "machines block walkers; leave a floor cell free around it so the floor stays one area",
                );
                false
            }
        }
    }

    fn refs(
        &mut self,
        glyphs: &Grid<Option<char>>,
        terrain: &Grid<Option<Terrain>>,
        paths: &Grid<bool>,
    ) -> Vec<RefMark> {
        let mut refs = Vec::new();
        for p in glyphs.bounds().points() {
            let Some(glyph) = glyphs[p] else { continue };
            if !self.check_footing(LayerKind::Refs, p, &format!("reference {}", shown(glyph)), terrain[p], paths[p]) {
                continue;
            }
            refs.push(RefMark { at: p, glyph });
        }
        refs
    }
}
