//! Where and how a `.des` vault may go: its orientations from DCSS's tags
//! and `ORIENT`, its depths and weight from `DEPTH`, `PLACE`, `WEIGHT` and
//! `CHANCE`, and the cells of its grid.
//!
//! In: a map as read. Out: the [`super::Orient`], the transforms, the depths
//! and weight a vault keeps, and the losses of what it cannot.

use super::{Loss, Orient};
use crate::depth::{self, Depths};
use crate::read::{DesMap, Header};
use prefabric::geom::{Point, Transform, TransformSet};

/// The orientations DCSS gives a map: any mix of a horizontal mirror, a
/// vertical mirror and a quarter turn either way, each unless its tag forbids it.
pub(super) fn dcss_transforms(tags: &[String]) -> TransformSet {
    let has = |t: &str| tags.iter().any(|x| x == t);
    let mirrors_h: &[bool] = if has("no_hmirror") { &[false] } else { &[false, true] };
    let mirrors_v: &[bool] = if has("no_vmirror") { &[false] } else { &[false, true] };
    let turns: &[u8] = if has("no_rotate") { &[0] } else { &[0, 1, 3] };
    let (h, v) = (Transform::new(0, true), Transform::new(2, true));
    let mut set = TransformSet::EMPTY;
    for &mh in mirrors_h {
        for &mv in mirrors_v {
            for &q in turns {
                let mut t = Transform::IDENTITY;
                if mh {
                    t = t.then(h);
                }
                if mv {
                    t = t.then(v);
                }
                set = set.with(t.then(Transform::new(q, false)));
            }
        }
    }
    set
}

/// Where the map goes, from its `ORIENT` line.
pub(super) fn orient(map: &DesMap, losses: &mut Vec<Loss>) -> Orient {
    let Some(h) = map.first("ORIENT") else { return Orient::Mini };
    match h.value.trim() {
        "float" => Orient::Float,
        "encompass" => Orient::Encompass,
        "centre" | "center" => Orient::Anchor("centre"),
        "north" => Orient::Anchor("north"),
        "south" => Orient::Anchor("south"),
        "east" => Orient::Anchor("east"),
        "west" => Orient::Anchor("west"),
        "northeast" => Orient::Anchor("north-east"),
        "northwest" => Orient::Anchor("north-west"),
        "southeast" => Orient::Anchor("south-east"),
        "southwest" => Orient::Anchor("south-west"),
        other => {
            losses.push(Loss {
                what: format!("`ORIENT: {other}` not understood: placed as a minivault"),
                at: h.at.clone(),
            });
            Orient::Mini
        }
    }
}

/// Depths and weight: `DEPTH` lines (else `PLACE`, else the file's
/// `default-depth`), `WEIGHT`; and what could not be kept.
pub(super) fn placement(map: &DesMap) -> (Vec<Depths>, u32, Vec<Loss>) {
    let mut losses = Vec::new();
    let depth_lines: Vec<&Header> = map.all("DEPTH").collect();
    let source: Vec<&Header> = if !depth_lines.is_empty() {
        depth_lines
    } else if let Some(p) = map.first("PLACE") {
        vec![p]
    } else {
        map.default_depth.iter().collect()
    };
    let mut ranges: Vec<Depths> = Vec::new();
    for h in source {
        let spec = depth::spec(&h.value);
        losses.extend(spec.losses.into_iter().map(|what| Loss { what, at: h.at.clone() }));
        ranges.extend(spec.ranges);
    }
    let range = depth::union(ranges);
    let mut weight = 10;
    if let Some(h) = map.first("WEIGHT") {
        match depth::weight(&h.value) {
            Ok((w, qualified)) => {
                weight = w;
                if qualified {
                    losses.push(Loss { what: "weights by depth kept as one weight".into(), at: h.at.clone() });
                }
            }
            Err(e) => losses.push(Loss { what: format!("`WEIGHT`: {e}"), at: h.at.clone() }),
        }
    }
    (range, weight, losses)
}

/// Every cell of a grid with its glyph.
pub(super) fn cells(grid: &[Vec<char>]) -> impl Iterator<Item = (Point, char)> + '_ {
    grid.iter()
        .enumerate()
        .flat_map(|(y, row)| row.iter().enumerate().map(move |(x, &g)| (Point::new(x as i32, y as i32), g)))
}
