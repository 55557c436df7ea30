//! A feature variant's prefab placements, checked: the prefab choices
//! resolved against the pack, anchors, offsets, jitter, margins and
//! transforms in range, and every prefab shown to fit at one of its spots at
//! least, on a map holding only the variant's barriers.
//!
//! In: one `[[variants.prefabs]]` table as written. Out: a
//! [`PrefabPlacement`], or its problems pushed at their `file:line:col`.

use super::{Checker, PlacementFile, PrefabChoice, PrefabPlacement};
use crate::content::chain;
use crate::content::encounters::check_cave_prefab;
use crate::content::index::PrefabIndex;
use crate::content::values::Anchor;
use crate::error::{Error, ErrorKind};
use crate::format::article_before_number;
use crate::geom::{Moves, Point, Rect, Transform, TransformSet};
use crate::prefab::Prefab;
use crate::vocab::Style;
use toml::Spanned;

impl Checker<'_> {
    pub(super) fn placement(
        &mut self,
        p: &Spanned<PlacementFile>,
        size: (i32, i32),
        barriers: &[Rect],
        prefabs: &PrefabIndex<'_>,
    ) -> Option<PrefabPlacement> {
        let raw = p.get_ref();
        let location = self.loc(p.span());
        let transforms = match &raw.transforms {
            None => TransformSet::ALL,
            Some(t) => match TransformSet::parse(t.get_ref()) {
                Ok(set) if !set.is_empty() => set,
                Ok(_) => {
                    self.invalid(t.span(), "`transforms` lists no orientation".into(), None);
                    return None;
                }
                Err(word) => {
                    self.invalid(t.span(), format!("unknown transform `{word}`"), Some(Transform::HELP.into()));
                    return None;
                }
            },
        };
        let choices: Vec<(String, u32)> = match raw.prefab.get_ref() {
            PrefabChoice::One(name) => vec![(name.clone(), 1)],
            PrefabChoice::Weighted(map) => map.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        };
        let span = raw.prefab.span();
        if choices.is_empty() || choices.iter().all(|(_, w)| *w == 0) {
            self.invalid(span, "`prefab` names no prefab with a weight above 0".into(), None);
            return None;
        }
        self.check_offset(p.span(), raw.offset);
        if !(0..=64).contains(&raw.margin) {
            self.invalid(p.span(), format!("margin {} must be 0-64", raw.margin), None);
            return None;
        }
        let cavern = match (&raw.at, &raw.cavern) {
            (Some(_), None) => None,
            (None, None) => {
                self.invalid(
                    span,
                    "a feature placement needs `at` (where it goes) or `cavern` (how it joins a cave)".into(),
                    Some(
                        "write at = \"north\" (or another anchor, or { x = 4, y = 9 }), or cavern = \"centered\""
                            .into(),
                    ),
                );
                return None;
            }
            (Some(at), Some(_)) => {
                self.invalid(
                    at.span(),
                    "give `at` or `cavern`, not both: a cavern placement goes wherever a cavern has room".into(),
                    None,
                );
                return None;
            }
            (None, Some(c)) => match Style::parse(c.get_ref()).filter(|s| s.joins_caverns()) {
                Some(style) => {
                    if raw.offset != [0, 0] || raw.jitter != [0, 0] || raw.margin != 1 {
                        self.invalid(
                            c.span(),
                            "`offset`, `jitter` and `margin` move a prefab from its anchor, but a cavern placement has none".into(),
                            Some("remove them: the prefab goes to the centre of a cavern, or into its wall".into()),
                        );
                    }
                    Some(style)
                }
                None => {
                    self.invalid(
                        c.span(),
                        format!("unknown cavern placement `{}`", c.get_ref()),
                        Some("write \"centered\" (at the most central point of the largest cavern that holds it) or \"embedded\" (sunk into the rock beside a cavern)".into()),
                    );
                    return None;
                }
            },
        };
        let anchor = raw.at.as_ref().map_or(Anchor::Centre, |a| *a.get_ref());
        let mut ok = true;
        for (name, _) in &choices {
            let Some(prefab) = prefabs.get(name) else {
                let help = "check the prefab's `prefab NAME` line under prefabs/";
                if let Some((message, help)) = prefabs.unknown_name(name, help) {
                    self.invalid(span.clone(), message, Some(help));
                }
                ok = false;
                continue;
            };
            let allowed = prefab.transforms().intersect(transforms);
            if allowed.is_empty() {
                self.invalid(
                    span.clone(),
                    format!(
                        "prefab `{name}` allows {} but this placement asks for {}; no orientation is left",
                        prefab.transforms().describe(),
                        transforms.describe()
                    ),
                    None,
                );
                ok = false;
                continue;
            }
            if let Some(style) = cavern {
                if let Err((message, when)) = check_cave_prefab(prefab, style) {
                    // The drawing is what to fix: the error is the prefab's,
                    // with the placement that uses it in the hint.
                    let used = self.loc(span.clone());
                    let error = Error::at(ErrorKind::Invalid, prefab.origin().clone(), format!("prefab `{name}` {message}{when}"))
                        .with_help(format!("a {style} feature is joined to the cave through its own open cells and link marks, as {style} encounters are (the feature placement at {used} uses it)"));
                    self.errors.push(error);
                    ok = false;
                }
                // Its ring (centered) or the rock around it (embedded) must
                // fit inside the map's outer ring too.
                let fits = allowed.iter().any(|t| {
                    let (w, h) = t.apply_size(prefab.width(), prefab.height());
                    w + 4 <= size.0 && h + 4 <= size.1
                });
                if !fits {
                    self.invalid(
                        span.clone(),
                        format!(
                            "prefab `{name}` ({}x{}) is too large for any cavern of the {}x{} map: with the cave around it, it needs 4 cells more each way",
                            prefab.width(),
                            prefab.height(),
                            size.0,
                            size.1
                        ),
                        Some("use a smaller prefab or a bigger map".into()),
                    );
                    ok = false;
                }
                continue;
            }
            // The layout joins an anchored prefab at one of its ways in and
            // counts on its floor leading to the others; a cell cut off from
            // that floor (under orthogonal moves, a door DCSS enters
            // diagonally, say) would be left unreachable on the map.
            let apart = prefab
                .views(false)
                .into_iter()
                .find_map(|v| if v.whole { chain::floor_apart(v.prefab).map(|q| (q, v.when)) } else { None });
            if let Some((q, when)) = apart {
                self.invalid(
                    span.clone(),
                    format!("prefab `{name}` has walkable cells in more than one area: x={} y={} cannot be reached from the rest of its floor{when}", q.x, q.y),
                    Some(format!("an anchored prefab's floor, doors and stairs must form one area{}: open a way through, wall the cell, or make it two prefabs", match prefab.moves() {
                        Moves::Orthogonal => " (diagonal steps do not join while the palette's `moves` is orthogonal)",
                        Moves::Diagonal => "",
                    })),
                );
                ok = false;
                continue;
            }
            let m = raw.margin;
            let fits = allowed.iter().any(|t| {
                let (w, h) = t.apply_size(prefab.width(), prefab.height());
                w <= size.0 - 2 * m && h <= size.1 - 2 * m
            });
            if !fits {
                self.invalid(
                    span.clone(),
                    format!(
                        "prefab `{name}` ({}x{}) cannot fit {} {}x{} map with a margin of {m} in any allowed orientation",
                        prefab.width(),
                        prefab.height(),
                        article_before_number(size.0.max(0) as usize),
                        size.0,
                        size.1,
                    ),
                    Some("use a smaller prefab, a bigger map, or a smaller margin".into()),
                );
                ok = false;
                continue;
            }
            if let Anchor::At(at) = anchor
                && Rect::new(0, 0, size.0, size.1).contains(at)
            {
                let placeable = allowed.iter().any(|t| {
                    let (w, h) = t.apply_size(prefab.width(), prefab.height());
                    Rect::new(0, 0, size.0, size.1).expand(-m).contains_rect(&Rect::new(at.x, at.y, w, h))
                });
                if !placeable {
                    self.invalid(
                        raw.at.as_ref().map_or(span.clone(), |a| a.span()),
                        format!(
                            "prefab `{name}` at {at} comes closer than its margin ({m}) to the edge of the {}x{} map in every allowed orientation",
                            size.0, size.1
                        ),
                        Some("move it, or lower `margin` (0 lets it touch the edge)".into()),
                    );
                    ok = false;
                    continue;
                }
            }
            let spots = Spots {
                anchor,
                offset: Point::new(raw.offset[0], raw.offset[1]),
                jitter: Point::new(i32::from(raw.jitter[0]), i32::from(raw.jitter[1])),
                margin: m,
                size,
            };
            if let Some(why) = never_fits(prefab, allowed, &spots, barriers) {
                self.invalid(
                    span.clone(),
                    format!(
                        "prefab `{name}` at {anchor} can never be placed on the {}x{} map: in every allowed orientation, at every spot its jitter reaches, {why}",
                        size.0, size.1
                    ),
                    Some("a link needs `width + 1` clear rows outside the prefab, off barriers and inside the map's outer ring, and open cells must stay off that ring: move the anchor inward (`offset`), raise `margin`, widen `jitter`, or allow another orientation".into()),
                );
                ok = false;
            }
        }
        if let (Anchor::At(at), Some(written)) = (anchor, &raw.at)
            && !Rect::new(0, 0, size.0, size.1).contains(at)
        {
            self.invalid(written.span(), format!("position {at} is outside the {}x{} map", size.0, size.1), None);
            ok = false;
        }
        ok.then(|| PrefabPlacement {
            choices,
            anchor,
            cavern,
            offset: Point::new(raw.offset[0], raw.offset[1]),
            jitter: Point::new(i32::from(raw.jitter[0]), i32::from(raw.jitter[1])),
            transforms,
            margin: raw.margin.clamp(0, 64),
            spawn_block: raw.spawn_block,
            required: raw.required,
            location,
        })
    }
}

/// The spots a placement may put a prefab at: its anchor, moved by its offset
/// and any jitter, kept `margin` cells inside the map.
struct Spots {
    anchor: Anchor,
    offset: Point,
    jitter: Point,
    margin: i32,
    size: (i32, i32),
}

impl Spots {
    /// Every top-left corner for a prefab of `w` x `h`: the anchored corner
    /// moved by every jitter, clamped to the margin as the features stage
    /// clamps it (a contiguous range, as clamping keeps order).
    fn corners(&self, w: i32, h: i32) -> impl Iterator<Item = Point> + use<> {
        let (size, m) = (self.size, self.margin);
        // Saturating: an offset far out of range is reported on its own.
        let anchored = self.anchor.place(size, (w, h), m);
        let base = Point::new(anchored.x.saturating_add(self.offset.x), anchored.y.saturating_add(self.offset.y));
        let clamp_x = |x: i32| x.clamp(m, (size.0 - w - m).max(m));
        let clamp_y = |y: i32| y.clamp(m, (size.1 - h - m).max(m));
        let xs = clamp_x(base.x.saturating_sub(self.jitter.x))..=clamp_x(base.x.saturating_add(self.jitter.x));
        let ys = clamp_y(base.y.saturating_sub(self.jitter.y))..=clamp_y(base.y.saturating_add(self.jitter.y));
        ys.flat_map(move |y| xs.clone().map(move |x| Point::new(x, y)))
    }
}

/// When a prefab fits at none of a placement's spots, in any allowed
/// orientation, on a map holding nothing but the variant's barriers: the rule
/// that turned the spots away most. The rules are the features stage's, less
/// those about other prefabs, which no map type can break on its own.
fn never_fits(prefab: &Prefab, allowed: TransformSet, spots: &Spots, barriers: &[Rect]) -> Option<&'static str> {
    const OFF_MAP: &str = "it would leave the map";
    const ON_BARRIER: &str = "it would lie on a barrier";
    const OPEN_ON_EDGE: &str = "an open cell would lie on the map's outer ring";
    const GROUND_OFF_MAP: &str = "a link's clear ground would fall off the map or on its outer ring";
    const GROUND_BLOCKED: &str = "a link's clear ground would lie on a barrier";
    let map = Rect::new(0, 0, spots.size.0, spots.size.1);
    let inner = map.expand(-1);
    let on_barrier = |r: &Rect| barriers.iter().any(|b| b.intersects(r));
    let mut tally: Vec<(&'static str, u32)> = Vec::new();
    // Open cells must keep off the map's edge in every outcome: its most open.
    let prefab = prefab.most_open();
    for t in allowed.iter() {
        let oriented = prefab.transformed(t);
        let (w, h) = (oriented.width(), oriented.height());
        for at in spots.corners(w, h) {
            let bounds = Rect::new(at.x, at.y, w, h);
            let cell_rule = |local: Point| match oriented.cells()[local] {
                Some(_) if on_barrier(&Rect::new(at.x + local.x, at.y + local.y, 1, 1)) => Some(ON_BARRIER),
                Some(c) if c.is_walkable() && !inner.contains(at + local) => Some(OPEN_ON_EDGE),
                None if oriented.is_link_path(local)
                    && on_barrier(&Rect::new(at.x + local.x, at.y + local.y, 1, 1)) =>
                {
                    Some(ON_BARRIER)
                }
                _ => None,
            };
            let broken = if !map.contains_rect(&bounds) {
                Some(OFF_MAP)
            } else if let Some(rule) = oriented.cells().bounds().points().find_map(cell_rule) {
                Some(rule)
            } else {
                oriented.links().iter().find_map(|link| {
                    let (area, body) = crate::prefab::link_ground(at + link.at, link.dir, link.kind, bounds);
                    if !map.contains_rect(&area) || !inner.contains_rect(&body) {
                        Some(GROUND_OFF_MAP)
                    } else {
                        on_barrier(&body).then_some(GROUND_BLOCKED)
                    }
                })
            };
            match broken {
                None => return None,
                Some(rule) => match tally.iter_mut().find(|(r, _)| *r == rule) {
                    Some((_, n)) => *n += 1,
                    None => tally.push((rule, 1)),
                },
            }
        }
    }
    tally.iter().max_by_key(|(_, n)| *n).map(|(rule, _)| *rule)
}
