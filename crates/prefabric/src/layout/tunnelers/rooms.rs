//! What tunnelers dig beside and across their corridors: rooms behind doors
//! (the largest class maybe through an anteroom), halls the tunnel runs
//! through and their side exits, last-chance halls in space left untouched,
//! and rooms grown by a row to share a wall with their neighbour.
//!
//! In: the [`Digger`] and a tunneler's head. Out: the cells dug through the
//! [`Carver`] as regions with their doors, counted in
//! the layout's stats; a room or hall that does not fit is not dug.

use super::{Digger, HALL_MIN_SIDE, Tunneler, head_leaving, line_beside, pick};
use crate::geom::{Dir, Point, Rect};
use crate::layout::{Carver, Cell};
use crate::map::{FloorKind, RegionId, RegionKind, Role, Terrain};
use crate::rng::Rng;

impl Digger<'_, '_> {
    /// Maybe a room on each side of the `len` rows just dug.
    pub(super) fn rooms(&mut self, t: &Tunneler, len: i32) {
        let chance = Self::drifted(self.p.room_chance.0, self.p.room_drift, t.generation);
        for on_right in [false, true] {
            if self.rng.percent(chance) {
                for _ in 0..2 {
                    if self.room(t, len, on_right) {
                        break;
                    }
                }
            }
        }
    }

    /// Tries one room beside the rows `1-len..=0` (relative to the head), behind a
    /// door in the corridor's side margin; a room of the largest class may be
    /// entered through an anteroom.
    pub(super) fn room(&mut self, t: &Tunneler, len: i32, on_right: bool) -> bool {
        let Some(class_index) = self.rng.weighted(&self.room_weights) else { return false };
        let class = &self.p.rooms[class_index];
        let (rw, rd) = (pick(&mut self.rng, class.width), pick(&mut self.rng, class.depth));
        // Cells away from the tunnel's side: 1 is its side margin, where the door goes.
        let out = |o: i32| if on_right { t.width - 1 + o } else { -o };
        let span = |k1: i32, k2: i32, o1: i32, o2: i32| t.area(k1, k2, out(o1).min(out(o2)), out(o1).max(out(o2)));
        let door_k = self.rng.range(1 - len, 0);
        let door = t.cell(door_k, out(1));
        if self.c.classify(door) != Cell::Diggable {
            return false;
        }
        let ante = (class_index == self.largest_class && rw >= 5 && self.rng.percent(self.p.anteroom_chance.0))
            .then(|| (self.rng.range(3, (rw - 2).min(5)), self.rng.range(2, 3)));
        let (ante_rect, inner_door, first_o) = match ante {
            Some((aw, ad)) => {
                let first = door_k - (aw - 1) / 2;
                (Some(span(first, first + aw - 1, 2, 1 + ad)), Some(t.cell(door_k, out(2 + ad))), 3 + ad)
            }
            None => (None, None, 2),
        };
        let first_k = self.rng.range(door_k - rw + 1, door_k);
        let room = span(first_k, first_k + rw - 1, first_o, first_o + rd - 1);
        let fits = |c: &Carver<'_>, r: Rect| c.all_diggable(r) && c.ring_closed(r);
        let inner_diggable = inner_door.is_none_or(|p| self.c.classify(p) == Cell::Diggable);
        if !inner_diggable || !fits(self.c, room) || ante_rect.is_some_and(|r| !fits(self.c, r)) {
            return false;
        }
        let corridor = self.c.map.region_of[t.cell(door_k, out(0))];
        let role = if self.rng.percent(self.p.secret_door_chance.0) { Role::SecretDoor } else { Role::Door };
        let mut parent = corridor;
        let mut entrance = door;
        if let (Some(ante_rect), Some(inner)) = (ante_rect, inner_door) {
            let ante = self.c.region(RegionKind::Room, ante_rect, Some(corridor));
            self.c.dig_rect(ante_rect, FloorKind::Room, ante);
            self.c.dig(door, Terrain::new(role), ante);
            self.c.add_door(ante, door);
            self.c.add_door(ante, inner);
            self.stats.anterooms += 1;
            parent = ante;
            entrance = inner;
        }
        let region = self.c.region(RegionKind::Room, room, Some(parent));
        self.c.dig_rect(room, FloorKind::Room, region);
        let entrance_role = if ante.is_some() { Role::Door } else { role };
        self.c.dig(entrance, Terrain::new(entrance_role), region);
        self.c.add_door(region, entrance);
        self.rooms_dug[class_index] += 1;
        if class.quota.is_some_and(|q| self.rooms_dug[class_index] >= q) {
            self.room_weights[class_index] = 0;
        }
        true
    }

    /// Tries a hall straight ahead: the tunnel enters through its near wall and
    /// leaves through its far wall; side exits may send children off.
    pub(super) fn hall(&mut self, t: &mut Tunneler) -> bool {
        let w = t.width;
        let (hw, hd) = (pick(&mut self.rng, self.p.hall_width), pick(&mut self.rng, self.p.hall_depth));
        if hw < w + 2 {
            return false;
        }
        let offset = self.rng.range(w - hw, 0);
        let hall = t.area(2, 1 + hd, offset, offset + hw - 1);
        let entry = t.area(1, 1, 0, w - 1);
        if !self.c.all_diggable(entry) || !self.c.all_diggable(hall) || !self.c.ring_closed(hall) {
            return false;
        }
        let exit_j = self.rng.range(offset, offset + hw - w);
        let exit = t.area(2 + hd, 2 + hd, exit_j, exit_j + w - 1);
        let inside = self.allowed.contains_rect(&hall) && self.allowed.contains_rect(&exit);
        if !inside || !self.c.all_diggable(exit) {
            return false;
        }
        self.advance(t, 1);
        let region = self.c.region(RegionKind::Hall, hall, Some(t.region));
        self.c.dig_rect(hall, FloorKind::Hall, region);
        for p in entry.points() {
            self.c.add_door(region, p);
        }
        let out = self.c.region(RegionKind::Corridor, exit, Some(region));
        self.c.dig_rect(exit, FloorKind::Corridor, out);
        for p in exit.points() {
            self.c.add_door(region, p);
        }
        if t.generation < self.p.max_generations {
            for side in [t.dir.left(), t.dir.right()] {
                if self.rng.percent(self.p.branch_chance.0 * 2) {
                    self.hall_side_exit(t, hall, side, region);
                }
            }
        }
        t.left = head_leaving(exit, t.dir);
        t.region = out;
        t.corridor = Some(out);
        true
    }

    /// Opens a hall's side wall and sends a child out through it.
    pub(super) fn hall_side_exit(&mut self, parent: &Tunneler, hall: Rect, side: Dir, region: RegionId) {
        let along = if side.is_horizontal() { hall.height } else { hall.width };
        let width = parent.width.min(along);
        let offset = self.rng.range(0, along - width);
        // The wall line just outside the hall on `side`, `width` cells of it.
        let start = head_leaving(hall, side) + side.delta() + side.right().delta() * offset;
        let exit = Rect::spanning(start, start + side.right().delta() * (width - 1));
        if !self.c.all_diggable(exit) {
            return;
        }
        let out = self.c.region(RegionKind::Corridor, exit, Some(region));
        self.c.dig_rect(exit, FloorKind::Corridor, out);
        for p in exit.points() {
            self.c.add_door(region, p);
        }
        let mut child = self.new_tunneler(head_leaving(exit, side), side, width, parent.generation + 1, out);
        child.corridor = Some(out);
        self.spawn(child);
    }

    /// Last-chance tunnelers: while the largest untouched rectangle covers more
    /// than `max_empty` of the map, or the map has fewer than `min_halls` halls,
    /// a hall opens in the middle of that rectangle and sends a tunneler out of
    /// each side to dig until it meets the rest.
    pub(super) fn last_chance(&mut self) {
        let map_area = self.c.map.bounds().area();
        for _ in 0..self.p.last_chance {
            let halls = self.c.map.regions.iter().filter(|r| r.kind == RegionKind::Hall).count() as u32;
            // Too few halls call for one whatever is empty; only with enough is
            // the whole map searched for a space left too large.
            if halls >= self.p.min_halls {
                let empty = self.c.largest_diggable(self.c.map.bounds(), 1);
                // The search by blocks may miss a cell on each side, and the walls
                // still to rise around it count as unused too: judge it a size larger.
                let judged = i64::from(empty.width + 2) * i64::from(empty.height + 2);
                let too_empty = !empty.is_empty() && judged * 100 > map_area * i64::from(self.p.max_empty.0);
                if !too_empty {
                    return;
                }
            }
            // The hall goes into the largest space it may use (not the edge
            // margin) with room for its smallest size and a wall's gap around it.
            if !self.hall_in(self.c.largest_diggable(self.allowed, HALL_MIN_SIDE + 4)) {
                return;
            }
            self.stats.last_chance_halls += 1;
            self.run_queue();
        }
    }

    /// Opens a hall near the middle of `space` (two cells in from its sides) with an exit and a tunneler on each side. False when no
    /// hall of at least [`HALL_MIN_SIDE`] each way fits.
    pub(super) fn hall_in(&mut self, space: Rect) -> bool {
        let a = self.allowed;
        let (x0, y0) = (space.x.max(a.x) + 2, space.y.max(a.y) + 2);
        let (x1, y1) = (space.right().min(a.right()) - 2, space.bottom().min(a.bottom()) - 2);
        let (room_w, room_h) = (x1 - x0, y1 - y0);
        let across = pick(&mut self.rng, self.p.hall_width).min(room_w);
        let along = pick(&mut self.rng, self.p.hall_depth).min(room_h);
        // The larger side lies along the space's longer side.
        let (hw, hh) = if (room_w >= room_h) == (across >= along) { (across, along) } else { (along, across) };
        let (hw, hh) = (hw.min(room_w), hh.min(room_h));
        if hw < HALL_MIN_SIDE || hh < HALL_MIN_SIDE {
            return false;
        }
        let jitter = |rng: &mut Rng, slack: i32| if slack > 0 { rng.range(slack / 4, slack - slack / 4) } else { 0 };
        let hall = Rect::new(x0 + jitter(&mut self.rng, room_w - hw), y0 + jitter(&mut self.rng, room_h - hh), hw, hh);
        if !self.c.all_diggable(hall) || !self.c.ring_closed(hall) {
            return false;
        }
        let region = self.c.region(RegionKind::Hall, hall, None);
        self.c.dig_rect(hall, FloorKind::Hall, region);
        let centre = Point::new(hall.x + hw / 2, hall.y + hh / 2);
        let parent = self.new_tunneler(centre, Dir::North, i32::from(self.p.width), 0, region);
        for side in Dir::ALL {
            self.hall_side_exit(&parent, hall, side, region);
        }
        true
    }

    /// Grows each room and hall by a row on every side where a wall two cells
    /// thick stands between it and other open space (two cells of it or more),
    /// so the two share one wall.
    pub(super) fn share_walls(&mut self) {
        for id in 0..self.c.map.regions.len() {
            let kind = self.c.map.regions[id].kind;
            if !matches!(kind, RegionKind::Room | RegionKind::Hall | RegionKind::Corridor) {
                continue;
            }
            for side in Dir::ALL {
                let b = self.c.map.regions[id].bounds;
                // A corridor grows only along its length, where most of it runs beside the other space.
                let lengthwise = if side.is_horizontal() { b.height > b.width } else { b.width > b.height };
                let least = if kind == RegionKind::Corridor {
                    if !lengthwise {
                        continue;
                    }
                    (if side.is_horizontal() { b.height } else { b.width } + 1) / 2
                } else {
                    2
                };
                if self.grows_into_shared_wall(b, side, least, kind != RegionKind::Corridor) {
                    let grow = line_beside(b, side, 1);
                    self.c.dig_rect(grow, FloorKind::Room, id as RegionId);
                    self.c.extend(id as RegionId, grow);
                    self.stats.rooms_grown += 1;
                }
            }
        }
    }

    /// True when room `b` may grow a row on `side` and would then share its wall
    /// there: the row is untouched, the new wall line and its ends are closed,
    /// and open space lies beyond that wall along two cells of the side or more.
    pub(super) fn grows_into_shared_wall(&self, b: Rect, side: Dir, least: i32, closed_ends: bool) -> bool {
        // Most sides have nothing open beyond: that is asked first.
        let along = if side.is_horizontal() { b.height } else { b.width };
        if (self.c.open_in(line_beside(b, side, 3)) as i32) < along.min(least) {
            return false;
        }
        let grow = line_beside(b, side, 1);
        if !self.c.all_diggable(grow) {
            return false;
        }
        let lengthwise = if side.is_horizontal() { Point::new(0, 1) } else { Point::new(1, 0) };
        let wall = line_beside(b, side, 2);
        let ends =
            |r: Rect| [Point::new(r.x, r.y) - lengthwise, Point::new(r.right() - 1, r.bottom() - 1) + lengthwise];
        let ([w0, w1], [g0, g1]) = (ends(wall), ends(grow));
        let end_cells = if closed_ends { &[w0, w1, g0, g1][..] } else { &[] };
        self.c.open_in(wall) == 0 && !end_cells.iter().any(|&p| matches!(self.c.classify(p), Cell::Open(_)))
    }
}
