//! Extra connections and overlay rooms: what the chain does once its pieces are
//! placed (seed 002, step 9, and the closing paragraph).
//!
//! In: the chain with its pieces and unused connectors. Extra connections make
//! loops so players backtrack less, each kind with its own chance per candidate:
//! a connector with floor on both sides is opened; two connectors facing each other
//! across free ground are joined by a straight hallway; two perpendicular ones by an
//! L-shaped hallway. Hallways run only through free ground, walled on both sides,
//! so none cuts through a piece. Overlay rooms are then laid over the level to open
//! it up: rectangles of floor over free ground, auto-rooms, hallways and their
//! walls, never over a protected (hand-made) cell, always touching the open space
//! of two regions or more, so each one opens something up.
//! Out: the same chain with more doorways, corridor regions and overlay regions,
//! every connection joined in the union-find and traced.

use super::{Chain, Connector, claim};
use crate::format::article_before_number;
use crate::geom::{Dir, Point, Rect};
use crate::map::{FloorKind, RegionId, RegionKind, Terrain};
use crate::rng::Rng;
use crate::trace::Outcome;

/// Tries per overlay room before it is skipped.
const OVERLAY_TRIES: u32 = 40;

/// Makes the extra connections, in a fixed order: flanked connectors, facing
/// pairs, then perpendicular pairs.
pub(super) fn connect(chain: &mut Chain<'_, '_>, mut rng: Rng) {
    flanked(chain, &mut rng);
    facing(chain, &mut rng);
    corners(chain, &mut rng);
}

/// The unused connectors whose cell is still `state` (free ones are
/// [`claim::CONNECTOR`]; those buried in an auto-room's or a hallway's wall are
/// [`claim::SOLID`]), once each: a cell two pieces share appears once, for the
/// first piece that placed it.
fn unused(chain: &Chain<'_, '_>, states: &[u8]) -> Vec<Connector> {
    let mut seen = vec![false; chain.claims.len()];
    let mut out = Vec::new();
    for &c in &chain.connectors {
        let i = chain.index(c.at);
        if states.contains(&chain.claims[i]) && !seen[i] {
            seen[i] = true;
            out.push(c);
        }
    }
    out
}

/// Where each connector of `list` lies: its index in `list` by map cell.
fn by_cell(chain: &Chain<'_, '_>, list: &[Connector]) -> Vec<u32> {
    let mut at = vec![u32::MAX; chain.claims.len()];
    for (k, c) in list.iter().enumerate() {
        at[chain.index(c.at)] = k as u32;
    }
    at
}

/// The connector of `list` at `p` (looked up through `at`), if any.
fn connector_at(chain: &Chain<'_, '_>, list: &[Connector], at: &[u32], p: Point) -> Option<Connector> {
    if !chain.c.map.bounds().contains(p) {
        return None;
    }
    list.get(at[chain.index(p)] as usize).copied()
}

fn flanked(chain: &mut Chain<'_, '_>, rng: &mut Rng) {
    let chance = chain.params.extra.flanked.0;
    if chance == 0 {
        return;
    }
    for c in unused(chain, &[claim::CONNECTOR, claim::SOLID]) {
        let (front, back) = (c.at + c.dir.delta(), c.at - c.dir.delta());
        let walkable = |p: Point| chain.claim(p) == claim::OPEN;
        if !walkable(front) || !walkable(back) || !rng.percent(chance) {
            continue;
        }
        chain.doorway(c.piece, c.at, c.dir, true);
        // The other side's region: the piece sharing the cell, or whatever is there.
        let other = chain.c.map.region_of[front];
        let sharing: Vec<Connector> =
            chain.connectors.iter().copied().filter(|d| d.at == c.at && d.piece != c.piece).collect();
        for d in sharing {
            chain.doorway(d.piece, d.at, d.dir, false);
        }
        let here = chain.pieces[c.piece as usize].region;
        if other != crate::map::NO_REGION {
            chain.c.union(here, other);
            // A room whose wall held the connector has a new way in.
            chain.c.add_door(other, c.at);
        }
        chain.stats.flanked += 1;
        let message = format!(
            "extra: connector {} of `{}` has floor on both sides; opened",
            c.at, chain.pieces[c.piece as usize].label
        );
        chain.c.map.trace.push("layout", Outcome::Chose, message);
    }
}

fn facing(chain: &mut Chain<'_, '_>, rng: &mut Rng) {
    let chance = chain.params.extra.facing.0;
    if chance == 0 {
        return;
    }
    let longest = chain.params.extra.max_length;
    let list = unused(chain, &[claim::CONNECTOR]);
    let at = by_cell(chain, &list);
    for &a in &list {
        // Each pair once: from its west or north member.
        if !matches!(a.dir, Dir::East | Dir::South) || chain.claim(a.at) != claim::CONNECTOR {
            continue;
        }
        let clear = chain.clear_length(a.at, a.dir, longest);
        let end = a.at + a.dir.delta() * (clear + 1);
        let Some(b) = connector_at(chain, &list, &at, end).filter(|b| b.dir == a.dir.opposite()) else { continue };
        if chain.claim(b.at) != claim::CONNECTOR || !rng.percent(chance) {
            continue;
        }
        let region = if clear > 0 {
            let from = chain.pieces[a.piece as usize].region;
            Some(chain.hallway(a.at, a.dir, clear, from))
        } else {
            None
        };
        chain.doorway(a.piece, a.at, a.dir, true);
        chain.doorway(b.piece, b.at, b.dir, true);
        let (ra, rb) = (chain.pieces[a.piece as usize].region, chain.pieces[b.piece as usize].region);
        chain.c.union(ra, region.unwrap_or(rb));
        chain.c.union(rb, region.unwrap_or(ra));
        chain.stats.facing += 1;
        let message = format!(
            "extra: connectors {} of `{}` and {} of `{}` face each other; joined by {} {clear}-cell hallway",
            a.at,
            chain.pieces[a.piece as usize].label,
            b.at,
            chain.pieces[b.piece as usize].label,
            article_before_number(clear as usize)
        );
        chain.c.map.trace.push("layout", Outcome::Chose, message);
    }
}

/// Joins perpendicular connectors through L-shaped hallways: from each connector
/// facing east or west, along free ground to a corner, then north or south to a
/// connector facing back at the corner. Hallways are one cell wide here.
fn corners(chain: &mut Chain<'_, '_>, rng: &mut Rng) {
    let chance = chain.params.extra.corner.0;
    if chance == 0 || chain.params.hallway_width != 1 {
        return;
    }
    let longest = chain.params.extra.max_length;
    let list = unused(chain, &[claim::CONNECTOR]);
    let at = by_cell(chain, &list);
    for &a in list.iter().filter(|a| a.dir.is_horizontal()) {
        'leg: for la in 1..=longest {
            let corner = a.at + a.dir.delta() * la;
            if chain.claim(a.at) != claim::CONNECTOR || chain.claim(corner) != claim::FREE {
                break;
            }
            for turn in [Dir::North, Dir::South] {
                let Some((b, lb)) = toward_corner(chain, &list, &at, corner, turn, longest) else { continue };
                if b.piece == a.piece || !l_clear(chain, a, b, la, lb) || !rng.percent(chance) {
                    continue;
                }
                join_corner(chain, a, b, la, lb, corner);
                break 'leg;
            }
        }
    }
}

/// The first unused connector straight out from `corner` toward `turn` (past free
/// ground only, at most `longest` cells) that faces back at the corner, and how
/// far it is.
fn toward_corner(
    chain: &Chain<'_, '_>,
    list: &[Connector],
    at: &[u32],
    corner: Point,
    turn: Dir,
    longest: i32,
) -> Option<(Connector, i32)> {
    for m in 1..=longest {
        let q = corner + turn.delta() * m;
        match chain.claim(q) {
            claim::FREE => continue,
            claim::CONNECTOR => {
                return connector_at(chain, list, at, q).filter(|b| b.dir == turn.opposite()).map(|b| (b, m));
            }
            _ => return None,
        }
    }
    None
}

/// Digs an L-shaped hallway from `a` (`la` cells, to the corner) to `b` (`lb` cells
/// back from the corner) and opens both doorways.
fn join_corner(chain: &mut Chain<'_, '_>, a: Connector, b: Connector, la: i32, lb: i32, corner: Point) {
    let ra = chain.pieces[a.piece as usize].region;
    let rb = chain.pieces[b.piece as usize].region;
    let first = chain.hallway(a.at, a.dir, la, ra);
    // The second leg runs from b up to (not into) the corner.
    let second = if lb > 1 { Some(chain.hallway(b.at, b.dir, lb - 1, rb)) } else { None };
    chain.c.union(first, second.unwrap_or(rb));
    chain.wall_corner(corner, a.dir, b.dir);
    chain.doorway(a.piece, a.at, a.dir, true);
    chain.doorway(b.piece, b.at, b.dir, true);
    chain.stats.corner += 1;
    let message = format!(
        "extra: connectors {} of `{}` and {} of `{}` meet through an L-shaped hallway turning at {corner}",
        a.at, chain.pieces[a.piece as usize].label, b.at, chain.pieces[b.piece as usize].label
    );
    chain.c.map.trace.push("layout", Outcome::Chose, message);
}

/// True when an L-shaped hallway from `a` (`la` cells, turning at the corner) to
/// `b` (`lb` cells back from the corner) runs through free ground with nothing
/// open beside it, and neither leg has a connector's doorway ahead blocked.
fn l_clear(chain: &Chain<'_, '_>, a: Connector, b: Connector, la: i32, lb: i32) -> bool {
    chain.clear_length(a.at, a.dir, la) >= la && chain.clear_length(b.at, b.dir, lb) >= lb
}

impl Chain<'_, '_> {
    /// Walls the free cells around an L's corner on its outer side.
    fn wall_corner(&mut self, corner: Point, a: Dir, b: Dir) {
        for p in [corner + a.delta(), corner + b.delta(), corner + a.delta() + b.delta()] {
            self.wall_if_free(p);
        }
    }
}

/// Lays the map type's overlay rooms over the level.
pub(super) fn overlay(chain: &mut Chain<'_, '_>, mut rng: Rng) {
    let o = &chain.params.overlay;
    let count = rng.range(o.count.0 as i32, o.count.1 as i32);
    for n in 0..count {
        let mut placed = false;
        for _ in 0..OVERLAY_TRIES {
            let w = rng.range(o.width.lo, o.width.hi);
            let h = rng.range(o.height.lo, o.height.hi);
            let interior = chain.floor_area;
            if w > interior.width || h > interior.height {
                break;
            }
            let x = rng.range(interior.x, interior.right() - w);
            let y = rng.range(interior.y, interior.bottom() - h);
            let rect = Rect::new(x, y, w, h);
            if let Some(region) = lay_overlay(chain, rect) {
                chain.stats.overlays += 1;
                let r = &chain.c.map.regions[region as usize];
                let message = format!(
                    "overlay room {} of {count}: {w}x{h} at ({x}, {y}), {} cells opened as a {}",
                    n + 1,
                    r.area,
                    r.kind.name()
                );
                chain.c.map.trace.push("layout", Outcome::Chose, message);
                placed = true;
                break;
            }
        }
        if !placed {
            let message = format!(
                "overlay room {} of {count}: no place in {OVERLAY_TRIES} tries that touches open space without covering a prefab",
                n + 1
            );
            chain.c.map.trace.push("layout", Outcome::Skipped, message);
        }
    }
}

/// Opens `rect` as floor if no cell of it is protected or blocked and it touches
/// the open space of two regions or more; returns the new region. Cells already open keep their region; the
/// rest become a room (when that is the whole rectangle) or an open area of any
/// shape, joined to everything it touches. Rooms whose walls it opened gain doors.
fn lay_overlay(chain: &mut Chain<'_, '_>, rect: Rect) -> Option<RegionId> {
    let mut touches = false;
    let mut new_cells = 0;
    for p in rect.points() {
        if chain.c.map.is_protected(p) || chain.claim(p) == claim::BLOCKED {
            return None;
        }
        match chain.claim(p) {
            claim::OPEN => touches = true,
            _ => new_cells += 1,
        }
    }
    if new_cells == 0 {
        return None;
    }
    touches |= rect.ring().any(|p| chain.claim(p) == claim::OPEN && !is_corner(rect.expand(1), p));
    // It must open things up: touch the open space of two networks' worth of
    // regions, not just grow one.
    if !touches || touched_regions(chain, rect) < 2 {
        return None;
    }
    let whole = new_cells == rect.area() as i32;
    let kind = if whole { RegionKind::Room } else { RegionKind::Cave };
    let region = chain.c.region(kind, rect, None);
    let mut bounds: Option<Rect> = None;
    for p in rect.points() {
        if chain.claim(p) == claim::OPEN {
            continue;
        }
        // An opened wall of a room is a way into it.
        for d in Dir::ALL {
            if let Some(r) = chain.c.map.region_at(p + d.delta()).map(|r| r.id)
                && matches!(chain.c.map.regions[r as usize].kind, RegionKind::Room | RegionKind::Hall)
            {
                chain.c.add_door(r, p);
            }
        }
        chain.c.dig(p, Terrain::floor(FloorKind::Room), region);
        let i = chain.index(p);
        chain.claims[i] = claim::OPEN;
        let cell = Rect::new(p.x, p.y, 1, 1);
        bounds = Some(bounds.map_or(cell, |b| b.union(&cell)));
    }
    chain.c.map.regions[region as usize].bounds = bounds.unwrap_or(rect);
    // Joined to every region it touches.
    for p in rect.expand(1).points() {
        let Some(other) = chain.c.map.region_at(p).map(|r| r.id) else { continue };
        if other != region && chain.claim(p) == claim::OPEN && (rect.contains(p) || !is_corner(rect.expand(1), p)) {
            chain.c.union(region, other);
        }
    }
    if whole {
        for p in rect.ring() {
            if chain.claim(p) == claim::OPEN && !is_corner(rect.expand(1), p) {
                chain.c.add_door(region, p);
            }
        }
    }
    Some(region)
}

/// How many regions have open cells in `rect` or beside it (corners left out).
fn touched_regions(chain: &Chain<'_, '_>, rect: Rect) -> usize {
    let mut seen: Vec<RegionId> = Vec::new();
    let outer = rect.expand(1);
    for p in outer.points() {
        if is_corner(outer, p) || chain.claim(p) != claim::OPEN {
            continue;
        }
        if let Some(r) = chain.c.map.region_at(p).map(|r| r.id)
            && !seen.contains(&r)
        {
            seen.push(r);
        }
    }
    seen.len()
}

/// True when `p` is a corner of `r`.
fn is_corner(r: Rect, p: Point) -> bool {
    (p.x == r.x || p.x == r.right() - 1) && (p.y == r.y || p.y == r.bottom() - 1)
}
