//! The `[caves]` section of a map type: caves grown by a cellular automaton,
//! with the features' prefabs joined to them by direct passages (Cogmind's cave
//! branches, seeds 000 and 001).
//!
//! In: the section as written. Out: [`CavesParams`] with every number in range
//! and settings that can make both rock and floor. Every problem is reported at
//! its `file:line:col` with a fix.

use super::section::{SectionReader, Span};
use super::values::Percent;
use crate::error::{Error, Location};
use serde::Deserialize;
use toml::Spanned;

/// The parameters of the cave layout. Every field has a default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CavesParams {
    /// Share of the ground that starts as rock.
    pub fill: Percent,
    /// Open ground becomes rock with at least this many rock neighbours (of 8).
    pub birth: u32,
    /// Rock stays rock with at least this many rock neighbours (of 8).
    pub survival: u32,
    /// Rounds of the automaton.
    pub iterations: u32,
    /// Open areas smaller than this many cells are filled in; the rest are joined.
    pub min_pocket: u32,
    /// Cells kept as rock along the map's edge.
    pub margin: i32,
    /// Width of the passages dug to join caverns and features (1-3).
    pub passage_width: i32,
    /// How far from any wall a cell must be to count as a cavern's open ground.
    pub cavern_clearance: u32,
    /// Caverns smaller than this many cells count as passages.
    pub min_cavern: u32,
    /// Where the section is written (or the map type's `generator`, without
    /// one), for errors found while generating.
    pub location: Option<Location>,
}

impl Default for CavesParams {
    fn default() -> CavesParams {
        CavesParams {
            fill: Percent(50),
            birth: 5,
            survival: 4,
            iterations: 4,
            min_pocket: 24,
            margin: 1,
            passage_width: 2,
            cavern_clearance: 2,
            min_cavern: 40,
            location: None,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CavesFile {
    #[serde(default)]
    fill: Option<Spanned<Percent>>,
    #[serde(default)]
    birth: Option<Spanned<i64>>,
    #[serde(default)]
    survival: Option<Spanned<i64>>,
    #[serde(default)]
    iterations: Option<Spanned<i64>>,
    #[serde(default)]
    min_pocket: Option<Spanned<i64>>,
    #[serde(default)]
    margin: Option<Spanned<i64>>,
    #[serde(default)]
    passage_width: Option<Spanned<i64>>,
    #[serde(default)]
    cavern_clearance: Option<Spanned<i64>>,
    #[serde(default)]
    min_cavern: Option<Spanned<i64>>,
}

/// Reads and checks a `[caves]` section (absent: every default). `size` is the
/// map's width and height.
pub(crate) fn read(
    raw: Option<&Spanned<CavesFile>>,
    section: Span,
    at: &dyn Fn(Span) -> Location,
    size: (i32, i32),
    errors: &mut Vec<Error>,
) -> CavesParams {
    let mut r = SectionReader { at, errors, prefix: "[caves]: " };
    let d = CavesParams { location: Some(at(section.clone())), ..CavesParams::default() };
    let Some(raw) = raw else { return d };
    let f = raw.get_ref();
    let fill = f.fill.as_ref().map_or(d.fill, |v| *v.get_ref());
    let params = CavesParams {
        fill,
        birth: r.number(&f.birth, "birth", 1..=9, i64::from(d.birth)) as u32,
        survival: r.number(&f.survival, "survival", 1..=9, i64::from(d.survival)) as u32,
        iterations: r.number(&f.iterations, "iterations", 0..=20, i64::from(d.iterations)) as u32,
        min_pocket: r.number(&f.min_pocket, "min_pocket", 1..=100_000, i64::from(d.min_pocket)) as u32,
        margin: r.number(&f.margin, "margin", 1..=64, i64::from(d.margin)) as i32,
        passage_width: r.number(&f.passage_width, "passage_width", 1..=3, i64::from(d.passage_width)) as i32,
        cavern_clearance: r.number(&f.cavern_clearance, "cavern_clearance", 1..=8, i64::from(d.cavern_clearance))
            as u32,
        min_cavern: r.number(&f.min_cavern, "min_cavern", 1..=100_000, i64::from(d.min_cavern)) as u32,
        location: Some(at(raw.span())),
    };
    let fill_span = f.fill.as_ref().map_or(raw.span(), |v| v.span());
    if fill.0 == 0 || fill.0 == 100 {
        let what = if fill.0 == 0 { "no rock at all, so the map is one open floor" } else { "only rock" };
        r.invalid(
            fill_span.clone(),
            format!("[caves]: a fill of {}% makes {what}", fill.0),
            Some("caves grow from a fill between about 40 and 55".into()),
        );
    } else if params.birth == 9 && params.iterations > 0 {
        let span = f.birth.as_ref().map_or(section.clone(), |v| v.span());
        r.invalid(
            span,
            "[caves]: a birth of 9 never turns open ground to rock: the automaton can only open the map up".into(),
            Some("use 5 (open ground with 5 or more rock neighbours becomes rock)".into()),
        );
    } else if params.survival == 9 && params.iterations > 0 {
        let span = f.survival.as_ref().map_or(section.clone(), |v| v.span());
        r.invalid(
            span,
            "[caves]: a survival of 9 never keeps rock: after one round the map is all floor".into(),
            Some("use 4 (rock with 4 or more rock neighbours stays)".into()),
        );
    }
    if 2 * params.margin + 3 > size.0.min(size.1) {
        let span = f.margin.as_ref().map_or(section, |v| v.span());
        let message = format!("[caves]: a margin of {} leaves no room on the {}x{} map", params.margin, size.0, size.1);
        r.invalid(span, message, Some("lower `margin` or use a bigger map".into()));
    } else {
        // Every attempt would fill in every area: none can be this large.
        let ground = i64::from(size.0 - 2 * params.margin) * i64::from(size.1 - 2 * params.margin);
        if i64::from(params.min_pocket) > ground {
            let span = f.min_pocket.as_ref().map_or(section, |v| v.span());
            let message = format!(
                "[caves]: a min_pocket of {} is more than the {ground} cells inside the margin of the {}x{} map, so every open area would be filled in",
                params.min_pocket, size.0, size.1
            );
            r.invalid(span, message, Some("lower `min_pocket` (the default is 24) or use a bigger map".into()));
        }
    }
    params
}
