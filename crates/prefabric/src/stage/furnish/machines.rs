//! Machines and stockpiles inside one area: the interactive machine and the
//! stockpiles against the inner rectangle's edges (or a cavern's wall), the filler
//! array of non-interactive machines, and machines scattered over a cavern.
//!
//! In: one [`Area`] and its composition's draws. Out: objects placed through
//! [`Furnisher::place`], each checked by [`Furnisher::misfit`] and
//! [`Furnisher::keeps_connected`] first, so every guarantee of the stage holds.

use super::{Area, Furnisher, Misfit, count_of, describe_misfits, item_object, packed, range};
use crate::content::catalog::{Catalog, Item, Prop};
use crate::content::furnishing::Count;
use crate::format::article_before_number;
use crate::geom::{Dir, Point, Rect, Transform, largest_in_bit_rows};
use crate::map::{FurnishPart, Furnished, Map, Object, ObjectKind, Pools, RegionId};
use crate::prefab::art;
use crate::rng::Rng;
use crate::trace::{Note, Outcome};
use std::fmt::Write;

impl<'a> Furnisher<'a> {
    /// The interactive machine of an area's composition: a type by weight, then
    /// its machines from the depth's tier down until one has a place.
    pub(super) fn interactive(&mut self, map: &mut Map, area: &Area<'_>, rng: &mut Rng) {
        let Some(t) = rng.weighted_by(&self.rules.interactive_types, |(_, w)| *w) else {
            map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || {
                format!("{}: interactive machine: no type has a weight", area.name)
            });
            return;
        };
        let machine_type = &self.rules.interactive_types[t].0;
        let tier = self.rules.tier_at(self.depth);
        let mut misfits = [0u32; 4];
        let mut tried: Vec<&str> = Vec::new();
        for prop in machines_for(self.catalog, machine_type, tier, rng) {
            match self.against_edge(map, area, turned_size(prop, Transform::IDENTITY), prop.rotate, true, rng) {
                Ok((rect, turn, pushed)) => {
                    let cells = art_cells(&mut map.pools, prop, rect, turn);
                    self.place(map, machine(prop, cells, FurnishPart::Interactive, area.id));
                    self.tally.interactive += 1;
                    let instead = if tried.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " ({} found no place)",
                            tried.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
                        )
                    };
                    map.trace.push_with("furnishing", Outcome::Chose, area.inner, || {
                        format!(
                            "{}: interactive `{}` ({machine_type}, tier {}){instead} {turn} at ({}, {}){}",
                            area.name,
                            prop.tag,
                            prop.tier,
                            rect.x,
                            rect.y,
                            pushed.describe()
                        )
                    });
                    return;
                }
                Err(tally) => {
                    tried.push(&prop.tag);
                    for (sum, n) in misfits.iter_mut().zip(tally) {
                        *sum += n;
                    }
                }
            }
        }
        map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || format!(
            "{}: interactive {machine_type}: no machine of tier {tier} or below has a place on the inner rectangle's edge ({})",
            area.name,
            describe_misfits(&misfits)
        ));
    }

    /// A place for a `size` footprint on the edge of the area's inner rectangle,
    /// its back (north side, when `rotate`) to the nearest wall, then maybe pushed
    /// back against that wall. Returns the rectangle, the turn and what happened to
    /// the push, or how many places failed for each reason.
    fn against_edge(
        &mut self,
        map: &Map,
        area: &Area<'_>,
        size: (i32, i32),
        rotate: bool,
        blocks: bool,
        rng: &mut Rng,
    ) -> Result<(Rect, Transform, Push), [u32; 4]> {
        let mut places = std::mem::take(&mut self.places);
        places.clear();
        let shapes = Dir::ALL.map(|side| {
            let turn = if rotate { facing(side) } else { Transform::IDENTITY };
            let (w, h) = turn.apply_size(size.0, size.1);
            (turn, w, h)
        });
        for (side, &(_, w, h)) in Dir::ALL.into_iter().zip(&shapes) {
            if area.open {
                // Anywhere on the cavern's floor with its back to the rock.
                backed_places(map, area.inner, side, w, h, &mut |r| places.push((Point::new(r.x, r.y), side)));
            } else {
                edge_places(area.inner, side, w, h, &mut |r| places.push((Point::new(r.x, r.y), side)));
            }
        }
        let found = self.first_fit(map, area, &mut places, &shapes, blocks, rng);
        self.places = places;
        found
    }

    /// Tries `places` in a random order (drawing each next one only when the last
    /// failed, so a hall's long edges cost no more draws than the places tried) and
    /// places the first that fits, maybe pushed back against the wall. A place
    /// is its top-left corner and the side it backs onto; `shapes` holds the
    /// turn, width and height for each side, in the order of [`Dir::ALL`] (a
    /// place is kept small: a cavern on a large map offers millions).
    fn first_fit(
        &mut self,
        map: &Map,
        area: &Area<'_>,
        places: &mut [Place],
        shapes: &[(Transform, i32, i32); 4],
        blocks: bool,
        rng: &mut Rng,
    ) -> Result<(Rect, Transform, Push), [u32; 4]> {
        let mut misfits = [0u32; 4];
        for k in 0..places.len() {
            let j = k + rng.index(places.len() - k).unwrap_or(0);
            places.swap(k, j);
            let (at, side) = places[k];
            let (turn, w, h) = shapes[Dir::ALL.iter().position(|&d| d == side).unwrap_or(0)];
            let rect = Rect::new(at.x, at.y, w, h);
            match self.misfit(map, rect, area.id, blocks) {
                Some(m) => misfits[m as usize] += 1,
                None => {
                    // A cavern's places stand against the rock already.
                    let push = if area.open || !rng.percent(self.rules.push_chance) || self.rules.padding == 0 {
                        Push::NotTried
                    } else {
                        let pushed = shifted(rect, side, self.rules.padding);
                        match self.misfit(map, pushed, area.id, blocks) {
                            None => return Ok((pushed, turn, Push::Pushed(side))),
                            Some(m) => Push::Refused(side, m),
                        }
                    };
                    return Ok((rect, turn, push));
                }
            }
        }
        Err(misfits)
    }

    /// One stockpile: 3-9 items of 1-3 kinds (as the rules say) in a compact
    /// block, placed like an interactive machine.
    pub(super) fn stockpile(&mut self, map: &mut Map, area: &Area<'_>, rng: &mut Rng) {
        let rules = self.rules;
        let n = range(rng, rules.stockpile_items).max(1);
        // The most items whose block fits the inner rectangle, down to the fewest
        // a stockpile may hold.
        let fit = |(w, h): (i32, i32)| w <= area.inner.width && h <= area.inner.height;
        let fits = |n: u32| {
            let (w, h) = pile_size(n);
            fit((w, h)) || fit((h, w))
        };
        let Some(n) = (rules.stockpile_items.lo.max(1)..=n).rev().find(|&k| fits(k)) else {
            let (w, h) = pile_size(rules.stockpile_items.lo.max(1));
            map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || {
                format!(
                    "{}: stockpile: even {} items ({w}x{h}) do not fit the {}x{} inner rectangle",
                    area.name,
                    rules.stockpile_items.lo.max(1),
                    area.inner.width,
                    area.inner.height
                )
            });
            return;
        };
        let (w, h) = pile_size(n);
        let size = match (fit((w, h)), fit((h, w))) {
            (true, true) if rng.coin() => (h, w),
            (true, _) => (w, h),
            _ => (h, w),
        };
        let pool = &self.stock_pool;
        let kinds =
            range(rng, Count { lo: rules.stockpile_types.lo.min(n), hi: rules.stockpile_types.hi.min(n) }).max(1);
        let mut order: Vec<usize> = (0..pool.len()).collect();
        rng.shuffle(&mut order);
        let chosen: Vec<&Item> = order.iter().take(kinds as usize).map(|&i| pool[i]).collect();
        if chosen.is_empty() {
            map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || {
                format!("{}: stockpile: no item suits depth {}", area.name, self.depth)
            });
            return;
        }
        match self.against_edge(map, area, size, false, false, rng) {
            Ok((rect, _, pushed)) => {
                let mut cells: Vec<Point> = rect.points().collect();
                rng.shuffle(&mut cells);
                // Each kind gets one item, the rest go to kinds at random.
                let mut counts = vec![1u32; chosen.len()];
                for _ in chosen.len() as u32..n {
                    counts[rng.index(chosen.len()).unwrap_or(0)] += 1;
                }
                let pile = self.tally.stockpiles;
                let mut next = cells.into_iter();
                let mut names = Vec::new();
                for (item, &count) in chosen.iter().zip(&counts) {
                    if map.trace.is_on() {
                        names.push(format!("{count} `{}`", item.tag));
                    }
                    for p in next.by_ref().take(count as usize) {
                        let furnished =
                            Furnished { part: FurnishPart::Stockpile, region: Some(area.id), pile: Some(pile) };
                        let object = item_object(map, item, p, furnished);
                        self.place(map, object);
                    }
                }
                self.tally.stockpiles += 1;
                self.tally.stockpile_items += n;
                map.trace.push_with("furnishing", Outcome::Chose, area.inner, || {
                    format!(
                        "{}: stockpile of {} at ({}, {}){}",
                        area.name,
                        names.join(", "),
                        rect.x,
                        rect.y,
                        pushed.describe()
                    )
                });
            }
            Err(tally) => {
                map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || {
                    format!(
                        "{}: stockpile of {}: no place on the inner rectangle's edge ({})",
                        area.name,
                        count_of(n, "item", "items"),
                        describe_misfits(&tally)
                    )
                });
            }
        }
    }

    /// A themed set of machines drawn by weight for `area`'s `part` (filler or
    /// scatter), or a traced skip when no set has a weight.
    fn draw_set(&self, map: &mut Map, area: &Area<'_>, part: &str, rng: &mut Rng) -> Option<&'a str> {
        let Some(s) = rng.weighted_by(&self.rules.sets, |(_, w)| *w) else {
            map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || {
                format!("{}: {part}: no set has a weight", area.name)
            });
            return None;
        };
        Some(self.rules.sets[s].0.as_str())
    }

    /// The filler: up to `groups` arrays of non-interactive machines of one
    /// themed set, each of a different machine. Each array is the largest of its
    /// machine (at most `max_array`) that fits its share ([`share_of`]) of the
    /// largest free rectangle left in the inner rectangle by what the area
    /// already holds (an encounter's objects, the interactive machine,
    /// stockpiles, earlier arrays, each with its spacing), at a random offset
    /// inside it; members that would block a way are dropped, and maybe one is
    /// swapped for a smaller machine of the set.
    pub(super) fn filler(&mut self, map: &mut Map, area: &Area<'_>, rng: &mut Rng) {
        let Some(set) = self.draw_set(map, area, "filler", rng) else { return };
        let mut members = std::mem::take(&mut self.set_members);
        members.clear();
        members.extend(self.catalog.set_members(set));
        rng.shuffle(&mut members);
        let groups = range(rng, self.rules.filler_groups).max(1);
        let mut laid = 0;
        for group in 0..groups {
            let free = self.free_rect(map, area);
            if free.is_empty() {
                break;
            }
            // The first machine not used yet, in shuffled order, of which an
            // array of one or more fits this array's share of the free
            // rectangle, else the whole of it.
            let share = share_of(free, groups - group, self.rules.spacing, rng);
            let first_fit = |within: Rect, rng: &mut Rng| {
                (0..members.len()).find_map(|k| Some((k, self.array_in(members[k], within, free, rng)?)))
            };
            let found = first_fit(share, rng).or_else(|| if share == free { None } else { first_fit(free, rng) });
            let Some((k, array)) = found else {
                break;
            };
            members.remove(k);
            self.lay_array(map, area, set, &array, &members, rng);
            laid += 1;
        }
        self.set_members = members;
        if laid == 0 {
            map.trace.push_with("furnishing", Outcome::Skipped, area.inner, || {
                format!("{}: filler: no machine of set `{set}` fits the free floor", area.name)
            });
        }
    }

    /// The largest rectangle of the inner rectangle whose every cell furnishing
    /// may use for a machine: open floor of the area, no way in, and no object
    /// within the spacing. An area whose inner rectangle, widened by the
    /// spacing, is at most 64 cells wide is searched on bit rows; a wider one
    /// by the sweep, its objects nearby counted with a summed-area table over
    /// the widened rectangle, so each cell's square costs four lookups.
    fn free_rect(&mut self, map: &Map, area: &Area<'_>) -> Rect {
        // The inner rectangle lies on the map; the window around it may not.
        let inner = area.inner.intersection(&map.bounds());
        let gap = self.rules.spacing.max(0);
        let found = if inner.width >= 1 && inner.width + 2 * gap <= 64 {
            let mut rows = std::mem::take(&mut self.free_rows);
            self.free_bit_rows(map, area, inner, gap, &mut rows);
            let found = largest_in_bit_rows(&rows);
            self.free_rows = rows;
            // Under the unit tests, every free rectangle is checked against the sweep.
            #[cfg(test)]
            assert_eq!(found, self.free_rect_swept(map, area, inner, gap), "free rectangle of {}", area.name);
            found
        } else {
            self.free_rect_swept(map, area, inner, gap)
        };
        Rect::new(inner.x + found.x, inner.y + found.y, found.width, found.height)
    }

    /// The free cells of each row of `inner` as bits (bit `x` for column
    /// `inner.x + x`), `inner` widened by `gap` at most 64 cells wide. A cell
    /// is near an object when a taken cell lies within `gap` of it both ways:
    /// each row's taken cells spread sideways by shifts, then rows are ORed
    /// down, a word at a time.
    fn free_bit_rows(&mut self, map: &Map, area: &Area<'_>, inner: Rect, gap: i32, rows: &mut Vec<u64>) {
        let window = inner.expand(gap);
        let (w, g) = (map.width() as usize, gap as usize);
        // Window row `y`: its taken cells, spread `2 * gap` cells west, so
        // bit `x` says whether one lies within `gap` of inner column `x`.
        let spread = |y: i32| {
            if !(0..map.height()).contains(&y) {
                return 0;
            }
            let flags = &self.flags[y as usize * w..(y as usize + 1) * w];
            // Most rows hold no object: one OR over the row says so.
            let (x0, x1) = (window.x.max(0) as usize, window.right().min(w as i32).max(0) as usize);
            if flags[x0.min(x1)..x1].iter().fold(0, |a, &f| a | f) & super::cell::TAKEN == 0 {
                return 0;
            }
            let taken = packed(window.width as usize, |x| {
                // A column off the map wraps to a huge index and reads as not taken.
                let map_x = (window.x + x as i32) as usize;
                map_x < w && flags[map_x] & super::cell::TAKEN != 0
            });
            (0..=2 * g).fold(0, |near, k| near | taken >> k)
        };
        let mut near_rows = std::mem::take(&mut self.near_rows);
        near_rows.clear();
        near_rows.extend((window.y..window.bottom()).map(spread));
        rows.clear();
        let (x0, x1) = (inner.x as usize, inner.right() as usize);
        for y in 0..inner.height as usize {
            let row = (inner.y as usize + y) * w;
            let (flags, regions) = (&self.flags[row + x0..row + x1], &map.region_of.cells()[row + x0..row + x1]);
            let usable = packed(x1 - x0, |x| {
                let f = flags[x];
                f & super::cell::OPEN != 0 && f & super::cell::CLEAR == 0 && regions[x] == area.id
            });
            let near = near_rows[y..=y + 2 * g].iter().fold(0, |a, &n| a | n);
            rows.push(usable & !near);
        }
        self.near_rows = near_rows;
    }

    /// [`Furnisher::free_rect`] by the sweep, in the inner rectangle's own
    /// coordinates.
    fn free_rect_swept(&mut self, map: &Map, area: &Area<'_>, inner: Rect, gap: i32) -> Rect {
        let window = inner.expand(gap);
        let (ww, wh) = (window.width.max(0) as usize, window.height.max(0) as usize);
        let stride = ww + 1;
        let map_width = map.width() as usize;
        // Row `y` of the map's cells, flags and region ids (`y` on the map).
        let row_of = |y: i32| y as usize * map_width..(y as usize + 1) * map_width;
        let mut sums = std::mem::take(&mut self.taken_sums);
        sums.clear();
        sums.resize(stride * (wh + 1), 0);
        for y in 0..wh {
            let map_y = window.y + y as i32;
            let flags = if (0..map.height()).contains(&map_y) { &self.flags[row_of(map_y)] } else { &[][..] };
            let mut row = 0;
            for x in 0..ww {
                // A column off the map wraps to a huge index and reads as not taken.
                let map_x = (window.x + x as i32) as usize;
                row += u32::from(map_x < flags.len() && flags[map_x] & super::cell::TAKEN != 0);
                sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
            }
        }
        let side = (2 * gap + 1) as usize;
        let columns = inner.x.max(0) as usize..inner.right().max(0) as usize;
        let mut search = std::mem::take(&mut self.free_search);
        let found = search.largest(inner.width, inner.height, 1, |y, row| {
            let map_row = row_of(inner.y + y as i32);
            let flags = &self.flags[map_row.clone()][columns.clone()];
            let regions = &map.region_of.cells()[map_row][columns.clone()];
            let (above, below) = (&sums[y * stride..], &sums[(y + side) * stride..]);
            for (x, ((cell, &f), &region)) in row.iter_mut().zip(flags).zip(regions).enumerate() {
                let near = below[x + side] + above[x] - above[x + side] - below[x];
                *cell = f & super::cell::OPEN != 0 && f & super::cell::CLEAR == 0 && near == 0 && region == area.id;
            }
        });
        self.taken_sums = sums;
        self.free_search = search;
        found
    }

    /// The largest array of `prop` in `free` (the area's free rectangle
    /// `whole_free` or a share of it), cut down to `max_array` members (its
    /// longer side first); ties between turns drawn at random. `None` when not
    /// even one fits.
    fn array_in(&self, prop: &'a Prop, free: Rect, whole_free: Rect, rng: &mut Rng) -> Option<FillerArray<'a>> {
        let gap = self.rules.spacing;
        let most = self.rules.max_array as i32;
        // One entry per quarter turn at most.
        let mut best = [(Transform::IDENTITY, 0, 0); 4];
        let (mut tied, mut largest) = (0, 0);
        for turn in turns(prop.rotate) {
            let (w, h) = turned_size(prop, turn);
            let (mut nx, mut ny) = ((free.width + gap) / (w + gap), (free.height + gap) / (h + gap));
            while nx * ny > most {
                if nx >= ny { nx -= 1 } else { ny -= 1 }
            }
            if nx * ny > largest {
                largest = nx * ny;
                tied = 0;
            }
            if nx * ny == largest && largest > 0 {
                best[tied] = (turn, nx, ny);
                tied += 1;
            }
        }
        rng.pick(&best[..tied]).map(|&(turn, nx, ny)| FillerArray { prop, turn, nx, ny, free, whole_free })
    }

    /// Lays one filler array inside the rectangle it was fitted to (the whole
    /// free rectangle, or its share of it) and traces it; `others` are the
    /// set's other machines, for the odd one.
    fn lay_array(
        &mut self,
        map: &mut Map,
        area: &Area<'_>,
        set: &str,
        array: &FillerArray<'a>,
        others: &[&Prop],
        rng: &mut Rng,
    ) {
        let FillerArray { prop, turn, nx, ny, free, whole_free } = *array;
        let gap = self.rules.spacing;
        let (w, h) = turned_size(prop, turn);
        let (span_w, span_h) = (nx * (w + gap) - gap, ny * (h + gap) - gap);
        let origin =
            Point::new(free.x + rng.range(0, free.width - span_w), free.y + rng.range(0, free.height - span_h));
        let odd = if nx * ny > 1 && rng.percent(self.rules.odd_one_chance) {
            let smaller: Vec<(&Prop, Transform)> = others
                .iter()
                .flat_map(|&m| turns(m.rotate).map(move |t| (m, t)))
                .filter(|(m, t)| {
                    let (mw, mh) = turned_size(m, *t);
                    mw <= w && mh <= h
                })
                .collect();
            rng.pick(&smaller).map(|&(m, t)| (rng.below((nx * ny) as u32) as i32, m, t))
        } else {
            None
        };
        let mut misfits = [0u32; 4];
        let mut placed = 0;
        let mut swapped = None;
        for k in 0..nx * ny {
            let at = origin + Point::new((k % nx) * (w + gap), (k / nx) * (h + gap));
            let (member, member_turn) = match odd {
                Some((j, m, t)) if j == k => (m, t),
                _ => (prop, turn),
            };
            let (mw, mh) = turned_size(member, member_turn);
            let rect = Rect::new(at.x, at.y, mw, mh);
            // Every member lies inside `free`, whose cells are the area's open
            // floor with no way in and no object within the spacing, and members
            // keep the spacing from each other: of the misfits only a cut path
            // is left to check.
            debug_assert!(free.contains_rect(&rect) && self.misfit(map, rect, area.id, false).is_none());
            let misfit = (!self.keeps_connected(map, rect)).then_some(Misfit::Path);
            match misfit {
                Some(m) => misfits[m as usize] += 1,
                None => {
                    let cells = art_cells(&mut map.pools, member, rect, member_turn);
                    self.place(map, machine(member, cells, FurnishPart::Filler, area.id));
                    placed += 1;
                    if member.tag != prop.tag {
                        swapped = Some(member.tag.as_ref());
                    }
                }
            }
        }
        self.tally.fillers += placed;
        let dropped: u32 = misfits.iter().sum();
        let outcome = if placed > 0 { Outcome::Chose } else { Outcome::Skipped };
        if !map.trace.is_on() {
            return;
        }
        // The commonest message of a map: one buffer with room for all of it,
        // written by pieces (`{name}: filler of set `{set}`: a {nx}x{ny} array
        // of `{tag}` {turn} at ({x}, {y}) in ...: {placed} placed`).
        let mut message = String::with_capacity(area.name.len() + 192);
        let mut note = Note(&mut message);
        note.text(area.name)
            .text(": filler of set `")
            .text(set)
            .text("`: ")
            .text(article_before_number(nx.max(0) as usize));
        note.text(" ").int(nx).text("x").int(ny);
        note.text(" array of `").text(&prop.tag).text("` ").text(turn.name()).text(" at ").at(origin.x, origin.y);
        note.text(if free == whole_free { " in the free " } else { " in its share " });
        note.int(free.width).text("x").int(free.height).text(" at ").at(free.x, free.y);
        if free != whole_free {
            note.text(" of the free ").int(whole_free.width).text("x").int(whole_free.height);
        }
        note.text(": ").int(placed).text(" placed");
        if dropped > 0 {
            let _ = write!(message, ", {dropped} dropped ({})", describe_misfits(&misfits));
        }
        if let Some(tag) = swapped {
            let _ = write!(message, ", one swapped for `{tag}`");
        }
        map.trace.push_at("furnishing", outcome, area.inner, message);
    }

    /// Machines scattered over a cavern one by one, each a member of the area's
    /// set drawn anew, anywhere on its floor they keep their spacing and leave
    /// every way open.
    pub(super) fn scatter(&mut self, map: &mut Map, area: &Area<'_>, rng: &mut Rng) {
        let Some(set) = self.draw_set(map, area, "scatter", rng) else { return };
        let members: Vec<&Prop> = self.catalog.set_members(set).collect();
        let wanted = range(rng, self.rules.scatter);
        let mut placed: Vec<String> = Vec::new();
        let mut misfits = [0u32; 4];
        let mut places = std::mem::take(&mut self.places);
        for _ in 0..wanted {
            let Some(&prop) = rng.pick(&members) else { break };
            let turn = Transform::new(if prop.rotate { rng.below(4) as u8 } else { 0 }, false);
            let (w, h) = turned_size(prop, turn);
            places.clear();
            let b = area.inner;
            for y in b.y..=b.bottom() - h {
                for x in b.x..=b.right() - w {
                    places.push((Point::new(x, y), Dir::North));
                }
            }
            match self.first_fit(map, area, &mut places, &[(turn, w, h); 4], true, rng) {
                Ok((rect, turn, _)) => {
                    let cells = art_cells(&mut map.pools, prop, rect, turn);
                    self.place(map, machine(prop, cells, FurnishPart::Filler, area.id));
                    self.tally.fillers += 1;
                    placed.push(format!("`{}` at ({}, {})", prop.tag, rect.x, rect.y));
                }
                Err(tally) => {
                    for (sum, n) in misfits.iter_mut().zip(tally) {
                        *sum += n;
                    }
                }
            }
        }
        self.places = places;
        let mut message = format!("{}: scatter of set `{set}`: {} of {wanted} placed", area.name, placed.len());
        if !placed.is_empty() {
            message.push_str(&format!(" ({})", placed.join(", ")));
        }
        if placed.len() < wanted as usize {
            message.push_str(&format!("; the rest found no place ({})", describe_misfits(&misfits)));
        }
        let outcome = if placed.is_empty() { Outcome::Skipped } else { Outcome::Chose };
        map.trace.push_at("furnishing", outcome, area.inner, message);
    }
}

/// Every `w × h` rectangle inside `inner` whose side `side` has solid ground all
/// along it, just outside: a place with its back to the wall in an area of any
/// shape (whether it stands on the area's floor is checked when it is tried).
fn backed_places(map: &Map, inner: Rect, side: Dir, w: i32, h: i32, out: &mut dyn FnMut(Rect)) {
    let (width, height) = (map.width(), map.height());
    let terrain = map.terrain.cells();
    // Off the map is solid. Read by index: a cavern offers every cell.
    let solid = |x: i32, y: i32| {
        !((0..width).contains(&x) && (0..height).contains(&y) && terrain[(y * width + x) as usize].is_walkable())
    };
    for y in inner.y..=inner.bottom() - h {
        for x in inner.x..=inner.right() - w {
            let backed = match side {
                Dir::North => (x..x + w).all(|bx| solid(bx, y - 1)),
                Dir::South => (x..x + w).all(|bx| solid(bx, y + h)),
                Dir::West => (y..y + h).all(|by| solid(x - 1, by)),
                Dir::East => (y..y + h).all(|by| solid(x + w, by)),
            };
            if backed {
                out(Rect::new(x, y, w, h));
            }
        }
    }
}

/// Where a machine may go: its top-left corner, and the side it backs onto.
pub(super) type Place = (Point, Dir);

/// What happened when a placement tried to push back against the wall.
#[derive(Copy, Clone, Debug)]
enum Push {
    /// The push chance did not come up (or there is no padding to close).
    NotTried,
    /// Pushed against the wall on this side.
    Pushed(Dir),
    /// Not pushed: that would have broken a rule.
    Refused(Dir, Misfit),
}

impl Push {
    pub(super) fn describe(self) -> String {
        match self {
            Push::NotTried => String::new(),
            Push::Pushed(side) => format!(", pushed against the {} wall", side.name()),
            Push::Refused(side, why) => {
                format!(", not pushed against the {} wall: it would stand {}", side.name(), why.describe())
            }
        }
    }
}

/// The quarter turn that puts a drawing's north edge on `side`.
fn facing(side: Dir) -> Transform {
    (0..4).map(|q| Transform::new(q, false)).find(|t| t.apply_dir(Dir::North) == side).unwrap_or(Transform::IDENTITY)
}

/// The part of the free rectangle `free` that the next of `arrays` filler
/// arrays still to lay may take: all of it for the last one; else a slice of
/// its longer side, one `arrays`-th of it, at one end or the other, so the
/// arrays after it (of other machines) find room beside it instead of one
/// machine filling the room in rows.
fn share_of(free: Rect, arrays: u32, gap: i32, rng: &mut Rng) -> Rect {
    if arrays <= 1 {
        return free;
    }
    let arrays = arrays as i32;
    // The slice and the gap kept after it, rounded so the slices tile the side.
    let along = |side: i32| ((side + gap) / arrays - gap).max(1);
    let from_end = rng.coin();
    if free.width >= free.height {
        let width = along(free.width);
        let x = if from_end { free.right() - width } else { free.x };
        Rect::new(x, free.y, width, free.height)
    } else {
        let height = along(free.height);
        let y = if from_end { free.bottom() - height } else { free.y };
        Rect::new(free.x, y, free.width, height)
    }
}

/// One filler array: a machine, its turn, its columns and rows, and the free
/// rectangle it is laid out in.
#[derive(Copy, Clone)]
struct FillerArray<'a> {
    prop: &'a Prop,
    turn: Transform,
    nx: i32,
    ny: i32,
    /// The rectangle it was fitted to: `whole_free` or a share of it.
    free: Rect,
    /// The largest free rectangle of the area when it was laid.
    whole_free: Rect,
}

/// The four quarter turns when a machine may turn, else none.
pub(super) fn turns(rotate: bool) -> impl Iterator<Item = Transform> {
    (0..if rotate { 4 } else { 1 }).map(|q| Transform::new(q, false))
}

/// A prop's width and height once turned by `turn`.
pub(super) fn turned_size(p: &Prop, turn: Transform) -> (i32, i32) {
    turn.apply_size(i32::from(p.size.0), i32::from(p.size.1))
}

/// Every `w × h` rectangle inside `inner` touching its edge on `side`.
fn edge_places(inner: Rect, side: Dir, w: i32, h: i32, out: &mut dyn FnMut(Rect)) {
    if w > inner.width || h > inner.height {
        return;
    }
    match side {
        Dir::North | Dir::South => {
            let y = if side == Dir::North { inner.y } else { inner.bottom() - h };
            for x in inner.x..=inner.right() - w {
                out(Rect::new(x, y, w, h));
            }
        }
        Dir::West | Dir::East => {
            let x = if side == Dir::West { inner.x } else { inner.right() - w };
            for y in inner.y..=inner.bottom() - h {
                out(Rect::new(x, y, w, h));
            }
        }
    }
}

/// The block a stockpile of `n` items fills: the narrowest near-square that holds
/// them (3 and 4 items 2x2, 5 and 6 items 3x2, up to 9 items 3x3).
fn pile_size(n: u32) -> (i32, i32) {
    let w = (1..=n).find(|w| w * w >= n).unwrap_or(n);
    (w as i32, n.div_ceil(w.max(1)) as i32)
}

/// `rect` moved `n` cells towards `side`.
fn shifted(rect: Rect, side: Dir, n: i32) -> Rect {
    let d = side.delta();
    Rect::new(rect.x + d.x * n, rect.y + d.y * n, rect.width, rect.height)
}

/// The cells of a machine turned by `turn` with its top-left at `rect`'s, and the
/// glyph of each, in reading order, in a list the map's `pools` lend.
pub(super) fn art_cells(pools: &mut Pools, prop: &Prop, rect: Rect, turn: Transform) -> Vec<(Point, char)> {
    let back = turn.inverse();
    let mut cells = pools.cells(rect.area() as usize);
    cells.extend(rect.points().map(|p| {
        let local = p - Point::new(rect.x, rect.y);
        let source = back.apply_point(local, rect.width, rect.height);
        (p, art::turn(prop.glyph(source.x, source.y), turn))
    }));
    cells
}

pub(super) fn machine(prop: &Prop, cells: Vec<(Point, char)>, part: FurnishPart, region: RegionId) -> Object {
    Object {
        kind: ObjectKind::Machine,
        tag: Some(prop.tag.clone()),
        cells,
        prefab: None,
        keywords: Vec::new(),
        furnishing: Some(Furnished { part, region: Some(region), pile: None }),
        definition: None,
    }
}

/// The interactive machines of `machine_type` to try for `tier`, best first: those
/// of the highest tier at or below it (in a random order), then each lower tier
/// in turn; when the catalog has none that low, its lowest tier.
pub(super) fn machines_for<'c>(catalog: &'c Catalog, machine_type: &str, tier: u32, rng: &mut Rng) -> Vec<&'c Prop> {
    let mut of_type: Vec<&'c Prop> = catalog.machines_of_type(machine_type).collect();
    let lowest = of_type.iter().map(|p| p.tier).min().unwrap_or(1);
    of_type.retain(|p| p.tier <= tier.max(lowest));
    rng.shuffle(&mut of_type);
    // A stable sort keeps the shuffled order within a tier.
    of_type.sort_by_key(|p| std::cmp::Reverse(p.tier));
    of_type
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_array_takes_the_whole_free_rectangle() {
        let free = Rect::new(3, 4, 11, 5);
        assert_eq!(share_of(free, 1, 1, &mut Rng::stream(7, "test", "share")), free);
    }

    #[test]
    fn a_share_is_a_slice_of_the_longer_side_at_one_end_leaving_room_for_the_rest() {
        let mut ends = [0u32; 2];
        for seed in 0..64 {
            let mut rng = Rng::stream(seed, "test", "share");
            for (free, arrays, gap) in
                [(Rect::new(3, 4, 11, 5), 2, 1), (Rect::new(0, 0, 4, 13), 3, 1), (Rect::new(2, 2, 9, 9), 2, 0)]
            {
                let share = share_of(free, arrays, gap, &mut rng);
                assert!(free.contains_rect(&share), "{share} lies in {free}");
                let (long, slice, across, kept) = if free.width >= free.height {
                    (free.width, share.width, free.height, share.height)
                } else {
                    (free.height, share.height, free.width, share.width)
                };
                assert_eq!(kept, across, "the share keeps the shorter side whole");
                // The other arrays' slices, each with its gap, fit beside it.
                assert!(arrays as i32 * (slice + gap) - gap <= long, "{arrays} slices of {slice} fit {long}");
                assert!(arrays as i32 * (slice + 1 + gap) - gap > long, "a slice one longer would not leave room");
                let at_start = share.x == free.x && share.y == free.y;
                let at_end = share.right() == free.right() && share.bottom() == free.bottom();
                assert!(at_start || at_end, "{share} lies at one end of {free}");
                ends[usize::from(at_end && !at_start)] += 1;
            }
        }
        assert!(ends[0] > 40 && ends[1] > 40, "both ends are drawn: {ends:?}");
    }
}
