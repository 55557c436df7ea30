//! The `[chain]` section's smaller parts: number pairs, the fill terrains,
//! `[chain.hallways]`, `[chain.auto_rooms]`, `[chain.extra]` and
//! `[chain.overlay]`.
//!
//! In: each part as written. Out: its values in range, or the default with the
//! problem reported at its `file:line:col`. The pathways reader shares `pair`,
//! `fills`, `terrain` and `auto_rooms`.

use super::{AutoRooms, AutoRoomsFile, ExtraConnections, ExtraFile, HallwaysFile, Overlay, OverlayFile, PieceContext};
use super::{MAX_LENGTH, MAX_WIDTH};
use crate::content::section::SectionReader;
use crate::content::values::{IntRange, Percent};
use crate::format::palette::parse_terrain;
use crate::map::{Role, Terrain};
use toml::Spanned;

impl SectionReader<'_> {
    /// A `[lo, hi]` pair within `range`, or the default with the problem reported.
    pub(in crate::content) fn pair(
        &mut self,
        v: &Option<Spanned<[i64; 2]>>,
        what: &str,
        range: std::ops::RangeInclusive<i64>,
        default: (i64, i64),
    ) -> (i64, i64) {
        let Some(v) = v else { return default };
        let [lo, hi] = *v.get_ref();
        if !range.contains(&lo) || !range.contains(&hi) {
            let message =
                format!("{}{what} [{lo}, {hi}] must stay within {}-{}", self.prefix, range.start(), range.end());
            self.invalid(v.span(), message, None);
            return default;
        }
        if lo > hi {
            let message = format!("{}{what} [{lo}, {hi}] is backwards: write the smaller number first", self.prefix);
            self.invalid(v.span(), message, None);
            return default;
        }
        (lo, hi)
    }

    /// What unused connectors and the `?` cells of placed prefabs become: `unused`
    /// (default wall) must not be earth, `dont_care` (default earth) must be solid.
    pub(in crate::content) fn fills(
        &mut self,
        unused_written: &Option<Spanned<String>>,
        dont_care_written: &Option<Spanned<String>>,
    ) -> (Terrain, Terrain) {
        let unused = self.terrain(unused_written, "unused", Terrain::new(Role::Wall));
        if let (Some(v), Role::Earth) = (unused_written, unused.role()) {
            let message = format!(
                "{}unused connectors of earth would leave the rooms' floor open to the void: earth is never walled inside a prefab",
                self.prefix
            );
            self.invalid(
                v.span(),
                message,
                Some("use a wall (\"wall\", \"wall:1\"), \"blocked\", or a floor to leave niches".into()),
            );
        }
        let dont_care = self.terrain(dont_care_written, "dont_care", Terrain::EARTH);
        if let Some(v) = dont_care_written.as_ref().filter(|_| dont_care.is_walkable()) {
            let message = format!(
                "{}dont_care `{}` is walkable, but `?` cells lie outside the prefabs' floor",
                self.prefix,
                v.get_ref()
            );
            self.invalid(
                v.span(),
                message,
                Some("use a solid terrain: \"earth\" (the default), \"wall\" or \"blocked\"".into()),
            );
        }
        (unused, dont_care)
    }

    pub(in crate::content) fn terrain(&mut self, v: &Option<Spanned<String>>, what: &str, default: Terrain) -> Terrain {
        let Some(v) = v else { return default };
        match parse_terrain(v.get_ref()) {
            Ok(t) => t,
            Err(message) => {
                self.invalid(
                    v.span(),
                    format!("{}{what}: {message}", self.prefix),
                    Some("write a terrain such as \"wall\", \"wall:1\" or \"blocked\"".into()),
                );
                default
            }
        }
    }

    pub(super) fn hallways(&mut self, h: Option<&Spanned<HallwaysFile>>) -> (i32, i32, i32) {
        let Some(h) = h.map(|h| h.get_ref()) else { return (1, 6, 1) };
        let (lo, hi) = self.pair(&h.length, "hallway length", 0..=MAX_LENGTH, (1, 6));
        let width = self.number(&h.width, "hallway width", 1..=MAX_WIDTH, 1);
        (lo as i32, hi as i32, width as i32)
    }

    /// The auto-rooms; `default_weight` applies when the section or its weight is
    /// left out.
    /// `inside` is the map's size within its margin.
    pub(in crate::content) fn auto_rooms(
        &mut self,
        a: Option<&Spanned<AutoRoomsFile>>,
        cx: &PieceContext<'_, '_>,
        default_weight: u32,
        inside: (i32, i32),
    ) -> AutoRooms {
        let default = AutoRooms {
            weight: default_weight,
            kinds: 6,
            width: IntRange::new(4, 9),
            height: IntRange::new(3, 7),
            connectors: (1, 2),
        };
        let Some(a) = a else { return default };
        let span = a.span();
        let f = a.get_ref();
        // Asking for auto-rooms means wanting them: the weight defaults to 1.
        let weight = f.weight.as_ref().map_or(default_weight.max(1), |w| self.weight(w, cx.words));
        let kinds = self.number(&f.kinds, "auto_rooms kinds", 1..=64, 6) as u32;
        let width = f.width.unwrap_or(default.width);
        let height = f.height.unwrap_or(default.height);
        let (lo, hi) = self.pair(&f.connectors, "auto_rooms connectors", 0..=8, (1, 2));
        if hi == 0 && weight > 0 {
            let at = f.connectors.as_ref().map_or(span.clone(), |c| c.span());
            self.invalid(
                at,
                format!("{}auto-rooms with no connector can never be joined", self.prefix),
                Some("allow at least one connector per side, e.g. connectors = [1, 2]".into()),
            );
        }
        let (w, h) = inside;
        if width.lo + 2 > w || height.lo + 2 > h {
            self.invalid(
                span,
                format!(
                    "{}the smallest auto-room ({}x{} with its walls) does not fit the {w}x{h} inside the map's margin",
                    self.prefix,
                    width.lo + 2,
                    height.lo + 2
                ),
                None,
            );
        }
        AutoRooms { weight, kinds, width, height, connectors: (lo as u32, hi as u32) }
    }

    pub(super) fn extra(&mut self, e: Option<&Spanned<ExtraFile>>, max_length: i32) -> ExtraConnections {
        let longest = i64::from(max_length.max(1) * 2);
        let Some(e) = e.map(|e| e.get_ref()) else {
            return ExtraConnections {
                flanked: Percent(50),
                facing: Percent(30),
                corner: Percent(20),
                max_length: longest as i32,
            };
        };
        ExtraConnections {
            flanked: e.flanked.unwrap_or(Percent(50)),
            facing: e.facing.unwrap_or(Percent(30)),
            corner: e.corner.unwrap_or(Percent(20)),
            max_length: self.number(&e.max_length, "extra max_length", 1..=MAX_LENGTH, longest) as i32,
        }
    }

    /// Overlay rooms; `size` is where their floor may lie (inside the margin). The
    /// table asks for overlay rooms, so written without `count` it means one or two.
    pub(super) fn overlay(&mut self, o: Option<&Spanned<OverlayFile>>, size: (i32, i32)) -> Overlay {
        let default = Overlay { count: (0, 0), width: IntRange::new(4, 8), height: IntRange::new(3, 6) };
        let Some(o) = o else { return default };
        let span = o.span();
        let f = o.get_ref();
        let (lo, hi) = self.pair(&f.count, "overlay count", 0..=100, (1, 2));
        let width = f.width.unwrap_or(default.width);
        let height = f.height.unwrap_or(default.height);
        if width.lo > size.0 || height.lo > size.1 {
            self.invalid(
                span,
                format!(
                    "[chain]: the smallest overlay room ({}x{}) does not fit the {}x{} inside the map's margin",
                    width.lo, height.lo, size.0, size.1
                ),
                None,
            );
        }
        Overlay { count: (lo as u32, hi as u32), width, height }
    }
}
