//! Unit tests of drawing outcomes and of the proof, and the helpers they share:
//! a small palette, building a prefab from text, its rows and floor areas, and
//! checking that drawn outcomes keep the floor.

mod draws;
mod floor;
mod listing;
mod proof;

use crate::format::palette::Palette;
use crate::format::text;
use crate::geom::{Moves, Point};
use crate::grid::Grid;
use crate::limits::Limits;
use crate::prefab::Prefab;
use crate::rng::Rng;
use std::borrow::Cow;

const PALETTE: &str = "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n\":\" = \"earth\"\n\">\" = \"stairs_down\"\n\"~\" = \"liquid\"\n";

fn palette() -> Palette {
    Palette::parse("palette.toml", PALETTE).unwrap()
}

fn build(src: &str) -> Result<Prefab, Vec<String>> {
    let (raws, errors) = text::parse("p.txt", src, &Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    Prefab::from_text("p.txt", &raws[0], &palette()).map_err(|es| es.iter().map(|e| e.to_string()).collect())
}

/// The terrain as rows of palette glyphs (`?` for don't care).
fn rows(p: &Prefab) -> Vec<String> {
    let pal = palette();
    p.cells()
        .rows()
        .map(|row| row.iter().map(|c| c.map_or('?', |t| pal.source_glyph(t).unwrap_or('*'))).collect())
        .collect()
}

/// How many 4-connected areas the walkable cells form.
fn areas(p: &Prefab) -> usize {
    labels(p).1
}

fn labels(p: &Prefab) -> (Grid<u32>, usize) {
    let cells = p.cells();
    let open = |q: Point| cells.get(q).copied().flatten().is_some_and(|t| t.is_walkable());
    let mut label = Grid::new(cells.width(), cells.height(), 0u32);
    let mut count = 0;
    for start in cells.bounds().points() {
        if !open(start) || label[start] != 0 {
            continue;
        }
        count += 1;
        let seen = Grid::reachable(cells.width(), cells.height(), start, Moves::Orthogonal, open);
        for q in cells.bounds().points().filter(|&q| seen[q]) {
            label.set(q, count as u32);
        }
    }
    (label, count)
}

/// A random grid walled round, its inside drawn from `glyphs`, its inside's
/// width and height drawn from `w` and `h` (inclusive).
fn walled_noise(rng: &mut Rng, glyphs: &[char], w: (i32, i32), h: (i32, i32)) -> String {
    let (w, h) = (rng.range(w.0, w.1), rng.range(h.0, h.1));
    let mut grid = String::new();
    for y in 0..h + 2 {
        for x in 0..w + 2 {
            let edge = x == 0 || y == 0 || x == w + 1 || y == h + 1;
            grid.push(if edge { '#' } else { glyphs[rng.below(glyphs.len() as u32) as usize] });
        }
        grid.push('\n');
    }
    grid
}

/// Checks, over the first outcome and those of seeds `0..seeds`, what the proof
/// promises: every area holds floor open in all of them (the sure floor), the
/// sure floor is split alike in each, and an area meets the rim (the grid's
/// edge) in all of them or in none. Returns how many areas the sure floor forms
/// on its own, and how many the floor forms in every outcome.
fn keeps_its_floor(p: &Prefab, grid: &str, seeds: u32) -> (usize, usize) {
    let outcomes: Vec<Prefab> =
        std::iter::once(p.clone()).chain((0..seeds).map(|s| p.variant(s).into_owned())).collect();
    let walkable = |o: &Prefab, q: Point| o.cells()[q].is_some_and(|t| t.is_walkable());
    let sure: Vec<Point> = p.cells().bounds().points().filter(|&q| outcomes.iter().all(|o| walkable(o, q))).collect();
    let (w, h) = (p.width(), p.height());
    let on_rim = |q: Point| q.x == 0 || q.y == 0 || q.x == w - 1 || q.y == h - 1;
    let mut seen: Option<(Vec<u32>, Vec<bool>)> = None;
    let mut areas = 0;
    for (k, o) in outcomes.iter().enumerate() {
        let (label, count) = labels(o);
        areas = count;
        // Every area holds floor that every outcome has.
        for q in o.cells().bounds().points().filter(|&q| label[q] != 0) {
            assert!(
                sure.is_empty() || sure.iter().any(|&s| label[s] == label[q]),
                "{grid}outcome {k}: floor at {q} is apart from the floor every outcome has"
            );
        }
        // The sure floor is split alike in every outcome, and each part meets the
        // rim alike.
        let mut names: Vec<u32> = Vec::new();
        let partition: Vec<u32> = sure
            .iter()
            .map(|&s| match names.iter().position(|&n| n == label[s]) {
                Some(i) => i as u32,
                None => {
                    names.push(label[s]);
                    names.len() as u32 - 1
                }
            })
            .collect();
        if !sure.is_empty() {
            assert_eq!(names.len(), count, "{grid}outcome {k}: an area without sure floor");
        }
        let rim: Vec<bool> =
            names.iter().map(|&n| o.cells().bounds().points().any(|q| label[q] == n && on_rim(q))).collect();
        match &seen {
            None => seen = Some((partition, rim)),
            Some((first, first_rim)) => {
                assert_eq!(first, &partition, "{grid}outcome {k} splits the sure floor otherwise than the first");
                assert_eq!(first_rim, &rim, "{grid}outcome {k} meets the rim otherwise than the first");
            }
        }
    }
    let sure_alone = {
        let mut open = Grid::new(w, h, false);
        for &q in &sure {
            open.set(q, true);
        }
        let mut label = Grid::new(w, h, 0u32);
        let mut count = 0;
        for &start in &sure {
            if label[start] == 0 {
                count += 1;
                let reached =
                    Grid::reachable(w, h, start, Moves::Orthogonal, |q| open.get(q).copied().unwrap_or(false));
                for q in p.cells().bounds().points().filter(|&q| reached[q]) {
                    label.set(q, count);
                }
            }
        }
        count as usize
    };
    (sure_alone, areas)
}
