//! Unit tests of drawing outcomes and of the proof.

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

#[test]
fn a_prefab_without_variation_lines_draws_nothing() {
    let p = build("prefab plain\nterrain:\n###\n#.#\n#+#\n").unwrap();
    assert!(!p.varies());
    assert!(matches!(p.variant(7), Cow::Borrowed(_)));
    assert!(std::ptr::eq(p.most_closed(), &p) && std::ptr::eq(p.most_open(), &p));
}

#[test]
fn subst_draws_each_cell_from_its_choices_and_the_seed_decides() {
    let p = build("prefab s\nsubst: a = . ~\nterrain:\n#######\n#.....#\n#.aaa.#\n#.....#\n#######\n").unwrap();
    assert!(p.varies());
    // The first outcome takes every rule's first choice.
    assert_eq!(rows(&p)[2], "#.....#");
    let mut seen = [false; 2];
    for seed in 0..200 {
        let o = p.variant(seed);
        assert_eq!(rows(&o), rows(&p.variant(seed)), "the same seed gives the same outcome");
        for x in 2..5 {
            match rows(&o)[2].as_bytes()[x] {
                b'.' => seen[0] = true,
                b'~' => seen[1] = true,
                other => panic!("seed {seed}: `{}` is no choice", other as char),
            }
        }
        // Cells no rule names never change.
        assert_eq!(rows(&o)[1], "#.....#");
    }
    assert_eq!(seen, [true, true]);
    // Per cell: some outcome has both.
    assert!((0..200).any(|s| {
        let r = &rows(&p.variant(s))[2];
        r.contains('.') && r.contains('~')
    }));
}

#[test]
fn subst_once_draws_one_choice_for_every_cell() {
    let p = build("prefab s\nsubst-once: a = . ~\nterrain:\n#######\n#.....#\n#.aaa.#\n#.....#\n#######\n").unwrap();
    let mut kinds = Vec::new();
    for seed in 0..100 {
        let row = rows(&p.variant(seed))[2].clone();
        assert!(row == "#.....#" || row == "#.~~~.#", "seed {seed}: {row}");
        kinds.push(row);
    }
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds.len(), 2);
}

#[test]
fn weights_are_honoured() {
    // `~:3` against `.`: three cells in four, over 4 cells and 2000 outcomes.
    let p =
        build("prefab w\nsubst: a = . ~:3\nterrain:\n#######\n#.....#\n#.a.a.#\n#.....#\n#.a.a.#\n#.....#\n#######\n")
            .unwrap();
    let (mut water, mut all) = (0, 0);
    for seed in 0..2000 {
        let o = p.variant(seed);
        for y in [2, 4] {
            for x in [2, 4] {
                all += 1;
                water += usize::from(rows(&o)[y].as_bytes()[x] == b'~');
            }
        }
    }
    let share = water * 1000 / all;
    assert!((720..=780).contains(&share), "{water} of {all} cells took `~`: {share} per mille, not about 750");
}

#[test]
fn nsubst_deals_exact_counts_and_the_rest() {
    let src = "prefab n\nnsubst: a = 2 ~ / 1 + / rest :\nterrain:\n#######\n#.....#\n#.a.a.#\n#.....#\n#.a.a.#\n#.....#\n#.a.a.#\n#.....#\n#######\n";
    let p = build(src).unwrap();
    let count = |o: &Prefab, c: char| rows(o).iter().map(|r| r.chars().filter(|&g| g == c).count()).sum::<usize>();
    let mut spots = Vec::new();
    for seed in 0..300 {
        let o = p.variant(seed);
        assert_eq!((count(&o, '~'), count(&o, '+'), count(&o, ':')), (2, 1, 3), "seed {seed}: {:?}", rows(&o));
        spots.push(rows(&o));
    }
    spots.sort();
    spots.dedup();
    // 6! / (2! 1! 3!) = 60 ways to deal them; 300 draws see most of them.
    assert!(spots.len() > 45, "only {} different outcomes", spots.len());
    // Without `rest`, the cells past the counts keep their glyph (here given a meaning).
    let p =
        build("prefab n\nlegend: a = room\nnsubst: a = 1 ~\nterrain:\n#####\n#.a.#\n#...#\n#.a.#\n#####\n").unwrap();
    for seed in 0..50 {
        assert_eq!(count(&p.variant(seed), '~'), 1);
    }
}

#[test]
fn shuffle_deals_whole_blocks() {
    let src = "prefab sh\nlegend: a = room\nlegend: b = door\nlegend: c = earth\nlegend: d = liquid\nshuffle: ab cd\nterrain:\n#######\n#.....#\n#.a.b.#\n#.....#\n#.c.d.#\n#.....#\n#######\n";
    let p = build(src).unwrap();
    let mut seen = Vec::new();
    for seed in 0..100 {
        let r = rows(&p.variant(seed));
        let pair = (r[2].clone(), r[4].clone());
        let drawn = ("#...+.#".to_string(), "#.:.~.#".to_string());
        let swapped = ("#.:.~.#".to_string(), "#...+.#".to_string());
        assert!(pair == drawn || pair == swapped, "{pair:?}");
        seen.push(pair);
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 2, "either as drawn or the blocks swapped: {seen:?}");
}

#[test]
fn a_block_written_again_weighs_the_shuffle() {
    // `shuffle: c x x x`, as Dungeon Crawl weights its shuffles: the blocks are
    // laid in random order and each glyph becomes the one laid where it is first
    // written. `c` stays `c` one time in four, the two swap one time in four, and
    // both end `x` otherwise; both never end `c`.
    let src = "prefab w\nlegend: c = door\nlegend: x = liquid\nshuffle: c x x x\nterrain:\n#####\n#.c.#\n#.x.#\n#...#\n#####\n";
    let p = build(src).unwrap_or_else(|e| panic!("{e:?}"));
    let mut tally = [0u32; 3];
    for seed in 0..4000 {
        let r = rows(&p.variant(seed));
        let pair = (r[1].as_bytes()[2], r[2].as_bytes()[2]);
        match pair {
            (b'+', b'~') => tally[0] += 1,
            (b'~', b'+') => tally[1] += 1,
            (b'~', b'~') => tally[2] += 1,
            other => panic!("seed {seed}: {other:?} is no outcome of the shuffle"),
        }
    }
    let share = |n: u32| f64::from(n) / 4000.0;
    assert!((share(tally[0]) - 0.25).abs() < 0.03, "{tally:?}");
    assert!((share(tally[1]) - 0.25).abs() < 0.03, "{tally:?}");
    assert!((share(tally[2]) - 0.5).abs() < 0.03, "{tally:?}");
    // A glyph in two blocks follows its first place: with `shuffle: ab ac`, `a`
    // stays (both blocks start with it) while `b` and `c` stay or swap.
    let src = "prefab o\nlegend: a = door\nlegend: b = liquid\nlegend: c = earth\nshuffle: ab ac\nterrain:\n#####\n#abc#\n#...#\n#####\n";
    let p = build(src).unwrap_or_else(|e| panic!("{e:?}"));
    let mut seen: Vec<String> = (0..200).map(|seed| rows(&p.variant(seed))[1].clone()).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen, ["#+:~#", "#+~:#"], "as drawn, or `b` and `c` swapped");
    // A weighted shuffle deals nothing the proof counts on: the two doorways of
    // `shuffle: f g` keep one open, but with `g` written twice both may close.
    let doorways = "prefab s\nlegend: f = door\nshuffle: f g\nsubst: g = #\nterrain:\n#########\n#...f...#\n#...#...#\n#...g...#\n#########\n";
    build(doorways).unwrap_or_else(|e| panic!("{e:?}"));
    let err = build(&doorways.replace("shuffle: f g", "shuffle: f g g")).expect_err("both doorways may close");
    assert!(err.iter().any(|e| e.contains("only through cells that may close")), "{err:#?}");
}

#[test]
fn the_mask_protects_its_cells() {
    let src = "prefab m\nsubst: a = . ~\nterrain:\n#######\n#.....#\n#.aaa.#\n#.....#\n#######\nmask:\n.......\n.......\n..x....\n.......\n.......\n";
    let err = build(src).unwrap_err();
    assert!(err[0].contains("`a` means nothing"), "masked cells keep `a`, which needs a meaning: {err:?}");
    let p = build(&src.replace("subst: a", "legend: a = liquid\nsubst: a")).unwrap();
    for seed in 0..50 {
        assert_eq!(rows(&p.variant(seed))[2].as_bytes()[2], b'~');
    }
    let err = build("prefab m\nlegend: a = room\nterrain:\n###\n#a#\n###\nmask:\n...\n.x.\n...\n").unwrap_err();
    assert!(err[0].contains("a `mask` layer, but no variation rule"), "{err:?}");
}

#[test]
fn the_legend_places_references_with_its_glyphs() {
    let src = "prefab r\nlegend: C = room ref C\nnsubst: c = 2 C / rest .\nterrain:\n#######\n#.....#\n#.c.c.#\n#.....#\n#.c.c.#\n#.....#\n#######\nrefs:\n.......\n.1.....\n.......\n.......\n.......\n.......\n.......\n";
    let p = build(src).unwrap();
    assert_eq!(p.drawn_refs().len(), 1);
    for seed in 0..50 {
        let o = p.variant(seed);
        let crates: Vec<_> = o.refs().iter().filter(|r| r.glyph == 'C').collect();
        assert_eq!(crates.len(), 2);
        assert!(crates.iter().all(|r| [2, 4].contains(&r.at.x) && [2, 4].contains(&r.at.y)));
        assert!(o.refs().iter().any(|r| r.glyph == '1'));
    }
    let possible = p.possible_refs();
    assert_eq!(possible.iter().filter(|(r, _)| r.glyph == 'C').count(), 4);
}

#[test]
fn the_proof_rejects_a_wall_sampling_would_rarely_find() {
    // 82 cells of `c`, two of which become wall. The side room at the bottom is
    // reached only through the two `c` side by side above it: only when both
    // walls fall there (1 outcome in C(82, 2) = 3321) is it cut off.
    let mut src = String::from("prefab rare\nnsubst: c = 2 # / rest .\nterrain:\n");
    src.push_str("########################\n");
    for _ in 0..4 {
        src.push_str("#......................#\n#.cccccccccccccccccccc.#\n");
    }
    src.push_str(
        "#......................#\n###########cc###########\n###########..###########\n########################\n",
    );
    let err = build(&src).unwrap_err();
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(
        err[0].starts_with("p.txt:2:9: invalid: `nsubst` at line 2 may open or close the cell at x=11 y=10: the floor at x=11 y=11 reaches the rest"),
        "{err:?}"
    );
    // The outcome it names exists, and sampling finds it about once in 3321 draws.
    let pal = palette();
    let glyphs = drawn_glyphs(&src);
    let line = crate::prefab::VariationLine {
        key: "nsubst".into(),
        value: "c = 2 # / rest .".into(),
        at: crate::error::Location::at("p.txt", 2, 9),
    };
    let steps = super::parse::lines(&[line]).unwrap().1;
    let v = super::Variation::new(&glyphs, Grid::new(24, 13, false), Vec::new(), steps, &pal);
    let drawn: Grid<Option<crate::map::Terrain>> = glyphs.map(|g| g.and_then(|g| pal.terrain_of(g)));
    let (mut cut, draws) = (0, 40_000);
    for seed in 0..draws {
        let (mut cells, mut refs) = (drawn.clone(), Vec::new());
        v.outcome(seed, &mut cells, &mut refs, &mut Vec::new());
        let open = |q: Point| cells.get(q).copied().flatten().is_some_and(|t| t.is_walkable());
        if !Grid::reachable(24, 13, Point::new(1, 1), Moves::Orthogonal, open)[Point::new(11, 11)] {
            cut += 1;
        }
    }
    assert!(cut > 0, "no draw of {draws} cut the side room off");
    assert!(cut * 1000 < draws, "{cut} of {draws} draws cut it off: not rare");
}

/// The terrain layer's glyphs of a one-prefab source, read directly.
fn drawn_glyphs(src: &str) -> Grid<Option<char>> {
    let grid: Vec<&str> = src.lines().skip_while(|l| *l != "terrain:").skip(1).take_while(|l| !l.is_empty()).collect();
    let (w, h) = (grid[0].chars().count() as i32, grid.len() as i32);
    Grid::from_cells(w, h, grid.iter().flat_map(|r| r.chars().map(Some)).collect()).unwrap()
}

#[test]
fn the_proof_accepts_what_keeps_the_floor_and_every_outcome_does() {
    // Rubble on cells that each touch floor open in every outcome, and an alcove
    // that opens or closes as one (`subst-once`).
    let src = "prefab ok\nsubst: r = .:2 #\nsubst-once: a = . #\nterrain:\n#########\n#.r...r.#\n#.......#\n#r..r..r#\n#.......#\n####a####\n####a####\n####a####\n#########\n";
    let p = build(src).unwrap();
    for seed in 0..2000 {
        assert_eq!(areas(&p.variant(seed)), 1, "seed {seed}: {:?}", rows(&p.variant(seed)));
    }
    // The same alcove drawn per cell may open a pocket: refused.
    let err = build(&src.replace("subst-once: a", "subst: a")).unwrap_err();
    assert!(err[0].contains("a pocket cut off"), "{err:?}");
}

#[test]
fn every_rule_is_checked_against_links_machines_and_references() {
    let cases = [
        // A way out that may close.
        (
            "prefab l\nsubst: a = . #\nterrain:\n#####\n#...#\n#...#\n##a##\nlinks:\n.....\n.....\n..2..\n.....\n",
            "p.txt:2:8: invalid: `subst` at line 2 may put wall (`#`) at x=2 y=3, on the way out of the link at x=2 y=2",
        ),
        // The floor behind a link that may close.
        (
            "prefab l\nsubst: a = . #\nterrain:\n#####\n#...#\n#.a.#\n##.##\nlinks:\n.....\n.....\n.....\n..2..\n",
            "p.txt:2:8: invalid: `subst` at line 2 may put wall (`#`) at x=2 y=2, behind the link at x=2 y=3",
        ),
        // A machine on a cell that may become door.
        (
            "prefab m\nsubst: a = . +\nterrain:\n#####\n#.a.#\n#...#\n#####\nmachines:\n.....\n..■..\n.....\n.....\n",
            "p.txt:2:8: invalid: `subst` at line 2 may put door (`+`) under the machine at x=2 y=1",
        ),
        // A drawn reference on a cell that may become wall.
        (
            "prefab r\nsubst: a = . #\nterrain:\n#####\n#.a.#\n#...#\n#####\nrefs:\n.....\n..1..\n.....\n.....\n",
            "p.txt:2:8: invalid: `subst` at line 2 may put wall (`#`) under reference `1` at x=2 y=1",
        ),
        // A legend reference landing on a drawn one.
        (
            "prefab r\nlegend: C = room ref C\nsubst: a = . C\nterrain:\n#####\n#.a.#\n#...#\n#####\nrefs:\n.....\n..1..\n.....\n.....\n",
            "p.txt:3:8: invalid: `subst` at line 3 may put reference `C` (`C`) at x=2 y=1, on a reference drawn on the refs layer",
        ),
        // A rule that finds nothing to rewrite.
        (
            "prefab i\nsubst: z = . #\nterrain:\n###\n#.#\n###\n",
            "p.txt:2:8: invalid: `subst` at line 2 rewrites `z`, which no cell it may change holds when it runs",
        ),
        // A glyph with no meaning.
        (
            "prefab g\nsubst: a = . Q\nterrain:\n#####\n#.a.#\n#####\n",
            "p.txt:2:8: invalid: `subst` at line 2 may put `Q` at x=2 y=1, and `Q` means nothing",
        ),
        // A floor that meets the rim only through cells that may close.
        (
            "prefab rim\nsubst: a = . #\nterrain:\n??#a#??\n??#.#??\n#######\n",
            "p.txt:2:8: invalid: `subst` at line 2 may open or close the cell at x=3 y=0: it is the only way its floor meets the prefab's rim",
        ),
    ];
    for (src, want) in cases {
        let err = build(src).expect_err(src);
        assert!(err.iter().any(|e| e.starts_with(want)), "{src}\n got {err:#?}\nwant {want}");
    }
}

#[test]
fn turning_keeps_the_outcome_and_rendering_writes_the_drawing_back() {
    let src = "prefab t\ntransforms: all\nlegend: C = room ref C\nlegend: r = liquid\nnsubst: c = 1 C / rest .\nsubst: r = . ~\nterrain:\n#######\n#.r.c.#\n#.....#\n#.c.r.#\n###+###\nmask:\n.......\n.......\n.......\n....x..\n.......\n";
    let p = build(src).unwrap();
    let text = crate::render::prefab_text(&p, &palette()).unwrap();
    assert!(
        text.contains("legend: C = room ref C\nlegend: r = liquid\nnsubst: c = 1 C / rest .\nsubst: r = . ~\nterrain:\n#######\n#.r.c.#"),
        "{text}"
    );
    assert!(text.contains("mask:\n.......\n.......\n.......\n....x..\n"), "{text}");
    let back = build(&text).unwrap();
    assert_eq!(back, p);
    for seed in 0..20 {
        assert_eq!(back.variant(seed).as_ref(), p.variant(seed).as_ref());
    }
    // Through REXPaint and back.
    let image = p.to_xp(&palette()).unwrap();
    assert_eq!(image.layers().len(), 5, "the mask is the fifth layer");
    let from_xp = Prefab::from_xp("p.xp", &image, p.header(), &palette(), &Limits::default()).unwrap();
    assert_eq!(from_xp, p);
    assert_eq!(from_xp.variant(3).as_ref(), p.variant(3).as_ref());
}

#[test]
fn an_accepted_variation_keeps_the_floor_in_every_drawn_outcome() {
    // Soundness, over random drawings: whatever the proof accepts, no outcome
    // drawn splits, joins or strands floor the others have.
    let mut rng = Rng::stream(0, "test", "vary soundness");
    let glyphs = ['.', '.', '.', '.', '.', '.', '#', 'a', 'b', 'c', 'd'];
    let (mut accepted, mut tried) = (0, 0);
    for _ in 0..20_000 {
        tried += 1;
        let grid = walled_noise(&mut rng, &glyphs, (4, 8), (3, 6));
        let src = format!(
            "prefab r\nlegend: d = room\nsubst: a = . #\nnsubst: b = 2 # / rest .\nshuffle: c d\nsubst-once: c = . #\nterrain:\n{grid}"
        );
        let Ok(p) = build(&src) else { continue };
        accepted += 1;
        keeps_its_floor(&p, &grid, 40);
    }
    assert!(accepted >= 500, "only {accepted} of {tried} random drawings were accepted: the property is barely tested");
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

#[test]
fn cells_one_draw_rewrites_alike_stay_tied() {
    // Soundness of ties through rules that draw once for every cell (a shuffle,
    // `subst-once`, a `subst` with one choice) and not through those that draw
    // per cell, over random drawings of blobs: cells drawn `f` hold one glyph
    // after `shuffle: f g`, and still after `subst: g = #` and `subst: f = .`,
    // so a blob of them may open as one; after `subst: f = . #` they may not.
    let mut rng = Rng::stream(0, "test", "vary ties");
    let glyphs = ['.', '.', '.', '.', '.', '.', '#', '#', 'f', 'f', 'g', 'h'];
    let (mut accepted, mut tied, mut tried) = (0, 0, 0);
    for _ in 0..30_000 {
        tried += 1;
        let grid = walled_noise(&mut rng, &glyphs, (3, 7), (3, 5));
        let mut rules = String::new();
        if grid.contains('f') || grid.contains('g') {
            let f = if rng.coin() { "." } else { ". #" };
            rules.push_str(&format!("shuffle: f g\nsubst: g = #\nsubst: f = {f}\n"));
        }
        if grid.contains('h') {
            rules.push_str("legend: h = room\nsubst-once: h = h #\n");
        }
        let Ok(p) = build(&format!("prefab t\n{rules}terrain:\n{grid}")) else { continue };
        accepted += 1;
        keeps_its_floor(&p, &grid, 40);
        // Some cell that may open has no neighbour open in every outcome: only
        // the cells tied to it lead it to the floor.
        let walkable = |o: &Prefab, q: Point| o.cells().get(q).copied().flatten().is_some_and(|t| t.is_walkable());
        let outcomes: Vec<Prefab> = (0..40).map(|s| p.variant(s).into_owned()).collect();
        let sure = |q: Point| outcomes.iter().all(|o| walkable(o, q));
        let maybe = |q: Point| !sure(q) && outcomes.iter().any(|o| walkable(o, q));
        let apart = |q: Point| crate::geom::Dir::ALL.iter().all(|d| !sure(q + d.delta()));
        tied += usize::from(p.cells().bounds().points().any(|q| maybe(q) && apart(q)));
    }
    assert!(
        accepted >= 1_000,
        "only {accepted} of {tried} random drawings were accepted: the property is barely tested"
    );
    assert!(tied >= 200, "only {tied} accepted drawings lead a cell to the floor through its ties alone");
    // A blob whose middle has no neighbour open in every outcome: dealt open or
    // shut as one by the shuffle, and rewritten alike by a `subst` of one choice.
    let src = "prefab blob\nshuffle: A B\nsubst: A = .\nsubst: B = #\nterrain:\n#########\n#.......#\n#.AAA...#\n#.AAA.B.#\n#.AAA...#\n#.......#\n#########\n";
    let p = build(src).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(keeps_its_floor(&p, src, 100), (1, 1));
    let err = build(&src.replace("subst: A = .", "subst: A = . #")).unwrap_err();
    assert!(err[0].contains("a pocket cut off"), "drawn per cell, the middle may open alone: {err:?}");
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

#[test]
fn counted_deals_keep_the_floor_in_every_drawn_outcome() {
    // Soundness of counting, over random rooms split by walls with cells of the
    // walls (the outer one too) that `nsubst` and `shuffle` deal open or closed:
    // whatever the proof accepts, no outcome drawn splits, joins or strands floor
    // the others have, or loses the rim. The drawings also hold deals that must
    // not count: one whose open share a later rule may close (`m`, then `k`),
    // deals over cells that may not hold their glyph (`n` before `e`, `h` before
    // `f`), a shuffle whose blocks are drawn unevenly (`f`, `g`), and one that
    // writes a block twice.
    let mut rng = Rng::stream(0, "test", "vary counting");
    let (mut accepted, mut counted, mut tried) = (0, 0, 0);
    for _ in 0..10_000 {
        tried += 1;
        let grid = walled_room(&mut rng);
        let rules = dealing_rules(&mut rng, &grid);
        let src = format!("prefab r\n{rules}terrain:\n{grid}");
        let Ok(p) = build(&src) else { continue };
        accepted += 1;
        let (sure_alone, areas) = keeps_its_floor(&p, &src, 60);
        if sure_alone > areas {
            counted += 1;
        }
    }
    assert!(
        accepted >= 1_000,
        "only {accepted} of {tried} random drawings were accepted: the property is barely tested"
    );
    assert!(
        counted >= 300,
        "only {counted} accepted drawings join sure floor through a deal: counting is barely tested"
    );
}

#[test]
fn a_centered_floor_may_part_but_every_area_of_every_drawn_outcome_leads_out() {
    // Soundness of the parted floor of a centered prefab, over the random rooms
    // of the counting test (walls across them and the outer wall dealt open or
    // shut), some of their cells `?` (the cave's ground, closed to the proof):
    // whatever the proof accepts where the prefab as it reads leads out of each
    // area (as the cave check asks), every area of every outcome drawn has a
    // cell on the prefab's edge, where the carved ring meets it.
    let mut rng = Rng::stream(0, "test", "vary parted");
    let (mut accepted, mut parted, mut tried) = (0, 0, 0);
    for _ in 0..10_000 {
        tried += 1;
        let mut grid = walled_room(&mut rng);
        // Doors in the outer wall, which lead out in every outcome.
        let width = grid.find('\n').unwrap_or(0) + 1;
        let height = grid.len() / width;
        let doors: Vec<usize> = (0..grid.len())
            .filter(|&i| {
                let (x, y) = (i % width, i / width);
                let side = (x == 0 || x == width - 2) != (y == 0 || y == height - 1);
                side && grid.as_bytes()[i] == b'#'
            })
            .collect();
        for _ in 0..rng.range(0, 3) {
            if let Some(&i) = rng.pick(&doors) {
                grid.replace_range(i..=i, ".");
            }
        }
        if rng.percent(30) {
            // A `?` cell somewhere on the outer wall, or inside.
            let cells: Vec<usize> = grid.char_indices().filter(|(_, c)| *c != '\n').map(|(i, _)| i).collect();
            if let Some(&i) = rng.pick(&cells) {
                grid.replace_range(i..=i, "?");
            }
        }
        let rules = format!("style: centered\n{}", dealing_rules(&mut rng, &grid));
        let src = format!("prefab r\n{rules}terrain:\n{grid}");
        let Ok(p) = build(&src) else { continue };
        let (w, h) = (p.width(), p.height());
        let on_edge = |q: Point| q.x == 0 || q.y == 0 || q.x == w - 1 || q.y == h - 1;
        let leads_out = |o: &Prefab, label: &Grid<u32>, area: u32| {
            o.cells().bounds().points().any(|q| label[q] == area && on_edge(q))
        };
        // The cave check asks the prefab as it reads to lead out of each area;
        // the proof answers for the other outcomes.
        let (label, count) = labels(&p);
        if !(1..=count as u32).all(|a| leads_out(&p, &label, a)) {
            continue;
        }
        accepted += 1;
        let mut apart = false;
        for (k, o) in std::iter::once(p.clone()).chain((0..60).map(|s| p.variant(s).into_owned())).enumerate() {
            let (label, count) = labels(&o);
            apart |= count > 1;
            for area in 1..=count as u32 {
                assert!(
                    leads_out(&o, &label, area),
                    "{src}outcome {k}: an area of its floor meets no edge:\n{}",
                    rows(&o).join("\n")
                );
            }
        }
        parted += usize::from(apart);
    }
    assert!(
        accepted >= 2_000,
        "only {accepted} of {tried} random drawings were accepted: the property is barely tested"
    );
    assert!(parted >= 1_000, "only {parted} accepted drawings have their floor apart: parting is barely tested");
}

/// The variation lines for a drawing of [`walled_room`]: for each glyph it
/// holds, a rule dealing or drawing it open or closed, among them deals that
/// count and deals that must not (see the counting test).
fn dealing_rules(rng: &mut Rng, grid: &str) -> String {
    let has = |c: char| grid.contains(c);
    let mut rules = String::from("legend: d = room\nlegend: f = room\nlegend: g = room\nlegend: k = room\n");
    if has('n') {
        rules.push_str("subst: n = e #\n");
    }
    if has('e') || has('n') {
        let k = rng.range(1, 2);
        rules.push_str(&if rng.coin() {
            format!("nsubst: e = {k} . / rest #\n")
        } else {
            format!("nsubst: e = {k} # / rest .\n")
        });
    }
    if has('m') {
        rules.push_str("nsubst: m = 1 k / rest #\nsubst: k = .:3 #\n");
    }
    if has('h') {
        rules.push_str("subst: h = f #\n");
    }
    if has('f') || has('g') || has('h') {
        // Sometimes weighted: a block written twice deals nothing to count on.
        let blocks = ["f g", "f g", "f g g", "f f g"][rng.range(0, 3) as usize];
        rules.push_str(&format!("shuffle: {blocks}\nsubst: g = #\n"));
    }
    if has('a') {
        rules.push_str("subst: a = . #\n");
    }
    if has('b') {
        rules.push_str("nsubst: b = 1 # / rest .\n");
    }
    if has('c') {
        rules.push_str("subst-once: c = . #\n");
    }
    rules
}

/// A random room walled round, split by one or two walls across it. Most walls
/// (the outer one too) get a glyph that rules deal, on one to three of their
/// cells with floor on both sides (inside, for the outer wall); a few cells of
/// noise follow.
fn walled_room(rng: &mut Rng) -> String {
    let (w, h) = (rng.range(4, 9) as usize, rng.range(3, 7) as usize);
    let mut g = vec![vec!['.'; w + 2]; h + 2];
    let outer = |x: usize, y: usize| x == 0 || y == 0 || x == w + 1 || y == h + 1;
    for (y, row) in g.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if outer(x, y) {
                *c = '#';
            }
        }
    }
    // Each wall as its cells and, for each, the two cells it stands between.
    type Wall = Vec<((usize, usize), [(usize, usize); 2])>;
    let mut walls: Vec<Wall> = Vec::new();
    for _ in 0..rng.range(1, 2) {
        if rng.coin() {
            let x = rng.range(2, w as i32 - 1) as usize;
            (1..=h).for_each(|y| g[y][x] = '#');
            walls.push((1..=h).map(|y| ((x, y), [(x - 1, y), (x + 1, y)])).collect());
        } else {
            let y = rng.range(2, h as i32 - 1) as usize;
            (1..=w).for_each(|x| g[y][x] = '#');
            walls.push((1..=w).map(|x| ((x, y), [(x, y - 1), (x, y + 1)])).collect());
        }
    }
    let mut rim: Wall = Vec::new();
    for x in 1..=w {
        rim.push(((x, 0), [(x, 1), (x, 1)]));
        rim.push(((x, h + 1), [(x, h), (x, h)]));
    }
    for y in 1..=h {
        rim.push(((0, y), [(1, y), (1, y)]));
        rim.push(((w + 1, y), [(w, y), (w, y)]));
    }
    walls.push(rim);
    // What a wall's chosen cells hold: `e`, or `f` and `g` mixed (with `h`,
    // which may become `f`); more rarely a glyph whose deal must not count.
    let mut kinds = vec![
        "e",
        "e",
        "fg",
        "fg",
        "fgh",
        if rng.percent(30) { "m" } else { "e" },
        if rng.percent(30) { "n" } else { "fg" },
    ];
    if rng.percent(30) {
        kinds.push("b");
    }
    for wall in &walls {
        if kinds.is_empty() || rng.percent(25) {
            continue;
        }
        let kind: Vec<char> = kinds.swap_remove(rng.below(kinds.len() as u32) as usize).chars().collect();
        let doors: Vec<(usize, usize)> =
            wall.iter().filter(|(_, sides)| sides.iter().all(|&(x, y)| g[y][x] == '.')).map(|c| c.0).collect();
        for _ in 0..rng.range(1, 3) {
            if let (Some(&(x, y)), Some(&glyph)) = (rng.pick(&doors), rng.pick(&kind)) {
                g[y][x] = glyph;
            }
        }
    }
    for _ in 0..rng.range(0, 2) {
        let (x, y) = (rng.range(1, w as i32) as usize, rng.range(1, h as i32) as usize);
        g[y][x] = *rng.pick(&['#', 'a', 'c', 'd']).unwrap_or(&'#');
    }
    g.iter().map(|row| row.iter().collect::<String>() + "\n").collect()
}

#[test]
fn a_deal_that_keeps_one_doorway_of_several_open_keeps_the_floor() {
    // Two chambers and three doorways between them, one of which stays open;
    // the outer wall's gaps, one of which stays open, are the only way out.
    let src = "prefab d\nlegend: o = room\nnsubst: + = 1 + / rest #\nnsubst: o = 1 . / rest #\nterrain:\n##o####o##\n#...+....#\n#...#....#\n#...+....#\n#...#....#\n#...+....#\n##########\n";
    let p = build(src).unwrap_or_else(|e| panic!("{e:?}"));
    let (sure_alone, areas) = keeps_its_floor(&p, src, 200);
    assert_eq!((sure_alone, areas), (2, 1), "two chambers, one area in every outcome");
    for seed in 0..200 {
        let o = p.variant(seed);
        let doors = rows(&o).iter().map(|r| r.matches('+').count()).sum::<usize>();
        let gaps = rows(&o)[0].matches('.').count();
        assert_eq!((doors, gaps), (1, 1), "seed {seed}: {:?}", rows(&o));
    }
    // A shuffle that deals one block's glyph to the cells of another counts too:
    // two doorway cells, one dealt `f` (kept open), one `g` (walled).
    let src = "prefab s\nlegend: f = door\nshuffle: f g\nsubst: g = #\nterrain:\n#########\n#...f...#\n#...#...#\n#...g...#\n#########\n";
    let p = build(src).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(keeps_its_floor(&p, src, 100), (2, 1));

    // What must not count:
    let refused = |src: &str, want: &str| {
        let err = build(src).expect_err(src);
        assert!(err.iter().any(|e| e.contains(want)), "{src}\n{err:#?}");
    };
    // every doorway may close: the open share is closed again by a later rule;
    refused(
        &src.replace("subst: g = #", "subst: g = #\nsubst-once: f = + #"),
        "the floor at x=1 y=1 reaches the rest of the prefab's floor only through cells that may close",
    );
    // the shuffle's blocks are drawn unevenly: both cells may be dealt `g`;
    refused(
        &src.replace("#...g...#", "#...f...#"),
        "reaches the rest of the prefab's floor only through cells that may close",
    );
    // a doorway opens onto a third chamber the others do not touch;
    refused(
        "prefab t\nnsubst: + = 1 + / rest #\nterrain:\n#########\n#...+...#\n#...#...#\n#...+...#\n#########\n#...+...#\n#########\n",
        "reaches the rest of the prefab's floor only through cells that may close",
    );
    // the gaps of the outer wall are not all on the rim: one leads to the other
    // chamber, so the open one may not lead out.
    refused(
        "prefab r\nlegend: o = room\nnsubst: o = 1 . / rest #\nterrain:\n##o######\n#...o...#\n#...#...#\n#########\n",
        "reaches the rest of the prefab's floor only through cells that may close",
    );
}

#[test]
fn a_deal_counts_only_the_cells_that_can_open() {
    // Two doorways, one kept: when a machine a definition file places may stand
    // on one of them, the open one may be the blocked one.
    let p =
        build("prefab b\nnsubst: + = 1 . / rest #\nterrain:\n#########\n#...+...#\n#...#...#\n#...+...#\n#########\n")
            .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(p.floor_problems_with(&[], &[], "").is_empty());
    let blocked = p.floor_problems_with(&[Point::new(4, 1)], &[], "");
    assert!(
        blocked.iter().any(|e| e
            .to_string()
            .contains("reaches the rest of the prefab's floor only through cells that may close")),
        "{blocked:?}"
    );
    // Three doorways, two kept: one blocked still leaves one open.
    let p = build("prefab b\nnsubst: + = 2 . / rest #\nterrain:\n#########\n#...+...#\n#...#...#\n#...+...#\n#...#...#\n#...+...#\n#########\n")
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(p.floor_problems_with(&[Point::new(4, 1)], &[], "").is_empty());
    // A legend glyph whose machine may block counts as closed.
    let p = build("prefab m\nlegend: M = room ref M\nnsubst: + = 1 M / rest #\nterrain:\n#########\n#...+...#\n#...#...#\n#...+...#\n#########\n")
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert!(!p.floor_problems_with(&[], &[('M', false)], "").is_empty());
}

#[test]
fn stairs_may_vary() {
    // Stairs written, rewritten and dealt like any terrain: every outcome has
    // its stairs where its lines put them, and the floor stays whole.
    let p = build("prefab s\nlegend: u = stairs_up\nsubst: a = . >\nshuffle: u >\nnsubst: b = 1 u / rest .\nterrain:\n#######\n#.a.u.#\n#..>..#\n#.b.b.#\n#######\n")
        .unwrap_or_else(|e| panic!("{e:?}"));
    let mut seen = Vec::new();
    for seed in 0..100 {
        let o = p.variant(seed);
        let roles: Vec<crate::map::Role> = o.cells().cells().iter().flatten().map(|t| t.role()).collect();
        let count = |r: crate::map::Role| roles.iter().filter(|&&x| x == r).count();
        assert!(count(crate::map::Role::StairsUp) + count(crate::map::Role::StairsDown) >= 3, "seed {seed}");
        seen.push(rows(&o)[1].clone());
        assert_eq!(areas(&o), 1);
    }
    seen.sort();
    seen.dedup();
    assert!(seen.len() >= 3, "{seen:?}");
}

#[test]
fn a_neighbour_of_a_machine_may_vary_only_as_the_floor_allows() {
    // A machine across a corridor: the cell beside it may close only if the
    // floor stays whole.
    let err = build("prefab m\nsubst: a = . #\nterrain:\n#####\n#...#\n#.a.#\n#...#\n#####\nmachines:\n.....\n.....\n.■...\n.....\n.....\n")
        .map(|_| ());
    assert!(err.is_ok(), "the floor goes round both: {err:?}");
    let err = build("prefab m\nsubst: a = . #\nterrain:\n#####\n#.#.#\n#.a.#\n#.#.#\n#####\nmachines:\n.....\n.....\n.....\n.■...\n.....\n")
        .unwrap_err();
    assert!(err[0].contains("may open or close the cell at x=2 y=2"), "{err:?}");
}

#[test]
fn directions_of_turned_outcomes_follow_the_prefab() {
    let p = build("prefab d\nsubst: a = . ~\nterrain:\n#####\n#aa.#\n#...#\n##+##\n").unwrap();
    let t = crate::geom::Transform::parse("r90").unwrap();
    for seed in 0..10 {
        let turned = p.variant(seed).transformed(t);
        let direct = p.variant(seed);
        for q in direct.cells().bounds().points() {
            assert_eq!(turned.cells()[t.apply_point(q, 5, 4)], direct.cells()[q]);
        }
    }
}

#[test]
fn hostile_variations_are_refused_without_hanging() {
    // Too many lines: refused at the first one past the limit.
    let mut src = String::from("prefab many\n");
    for _ in 0..300 {
        src.push_str("subst: a = . #\n");
    }
    src.push_str("terrain:\n#####\n#.a.#\n#...#\n#####\n");
    let err = build(&src).unwrap_err();
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(err[0].starts_with("p.txt:258:1: limit exceeded: more than 256 variation lines"), "{err:?}");
    // Too many glyphs for the proof's sets.
    let glyphs: String = (0..140u32).filter_map(|i| char::from_u32(0x4e00 + i)).collect();
    let choices: Vec<String> = glyphs.chars().take(60).map(String::from).collect();
    let mut src = format!("prefab wide\nsubst: a = {}\n", choices.join(" "));
    let rest: Vec<String> = glyphs.chars().skip(60).take(60).map(String::from).collect();
    src.push_str(&format!("subst: b = {}\n", rest.join(" ")));
    let last: Vec<String> = glyphs.chars().skip(120).map(String::from).collect();
    src.push_str(&format!("subst: c = {}\nterrain:\n#####\n#abc#\n#...#\n#####\n", last.join(" ")));
    let err = build(&src).unwrap_err();
    assert!(err[0].contains("limit exceeded: the variation involves 143 glyphs; at most 128"), "{err:?}");
    // Huge counts and weights are read as numbers, never allocated.
    let err = build(
        "prefab big\nnsubst: a = 100000 # / rest .\nsubst: b = .:10000 #:10000\nterrain:\n#####\n#a.b#\n#...#\n#####\n",
    );
    assert!(err.is_ok(), "{err:?}");
}

#[test]
fn a_refused_floor_names_a_drawn_outcome_that_splits_it_or_says_none_was_found() {
    // A passage that rubble may close: the proof refuses it and names the first
    // variant seed whose outcome closes it, with two cells that outcome parts.
    let split = "prefab split\nsubst: c = . #\nterrain:\n#####\n#.c.#\n##.##\n";
    let err = build(split).unwrap_err();
    let witness = err[0].split("(the outcome of variant seed ").nth(1).unwrap_or_else(|| panic!("{err:?}"));
    let seed: u32 = witness.split(' ').next().and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{err:?}"));
    assert!(witness.contains("no longer meets the prefab's rim"), "{err:?}");
    // The same rule over the same cells, with the passage doubled by a row that
    // keeps the floor whole: the seed draws rubble there, and no earlier seed does.
    let doubled = build("prefab doubled\nsubst: c = . #\nterrain:\n#####\n#.c.#\n#...#\n##.##\n").unwrap();
    let rubble_at = |seed: u32| rows(&doubled.variant(seed))[1].as_bytes()[2] == b'#';
    assert!(rubble_at(seed), "seed {seed} should close the passage");
    assert!((1..seed).all(|s| !rubble_at(s)), "seed {seed} is not the first to close it");
    // An outcome rare enough that the draws miss it: the message says so rather
    // than claiming an outcome it has not seen.
    // (`nsubst` walls the two cells of the way into the bottom room in 1 outcome of 3,321.)
    let rare = format!(
        "prefab rare\nnsubst: c = 2 # / rest .\nterrain:\n{wall}\n{rows}###########cc###########\n###########..###########\n{wall}\n",
        wall = "#".repeat(24),
        rows = format!("#{}#\n#.{}.#\n", ".".repeat(22), "c".repeat(20)).repeat(4) + &format!("#{}#\n", ".".repeat(22)),
    );
    let err = build(&rare).err().unwrap_or_else(|| panic!("the rare wall is refused"));
    assert!(err[0].contains("no outcome of variant seeds 1 to 64 does: such outcomes are rare"), "{err:?}");
}

#[test]
fn a_refused_floor_already_apart_as_it_reads_says_so_rather_than_drawing_outcomes() {
    // Two rooms the prefab as it reads keeps apart, a cell between them that
    // may open: outcomes are compared with the first, which is the problem.
    let err = build("prefab rooms\nsubst: c = # .\nterrain:\n##.####\n#..c..#\n####.##\n").unwrap_err();
    assert!(
        err[0].contains("(the prefab as it reads already has its floor apart: the floor at x=4 y=1 cannot reach the floor at x=2 y=0,"),
        "{err:?}"
    );
}

/// Every outcome `all_outcomes` lists, as whole glyph vectors of the concerned
/// cells, sorted.
fn listed(v: &super::Variation) -> Option<Vec<Vec<char>>> {
    let outcomes = v.all_outcomes()?;
    let mut all: Vec<Vec<char>> = outcomes
        .listed()
        .iter()
        .map(|row| {
            let mut glyphs: Vec<char> = outcomes.start().iter().map(|&(_, g)| g).collect();
            for (&cell, &g) in outcomes.live().iter().zip(row) {
                let k = outcomes.start().iter().position(|&(i, _)| i == cell).unwrap();
                glyphs[k] = g;
            }
            glyphs
        })
        .collect();
    all.sort();
    Some(all)
}

/// The variation of a prefab built from `src` (its proof passed).
fn variation_of(src: &str) -> super::Variation {
    let p = build(src).unwrap_or_else(|e| panic!("{e:?}"));
    p.variation.as_ref().map(|v| v.variation.clone()).expect("the prefab varies")
}

#[test]
fn listing_finds_every_outcome_of_each_rule_and_no_other() {
    // Counted by hand: three cells drawn per cell from two choices; one draw for
    // all; two of four dealt walls (4 choose 2); three blocks in any order; a
    // block written twice (`x` takes the first or third block's glyph, `y` one
    // of the others: xx, xy, yx); a deal that leaves one of three cells as it
    // reads (3 × 2); a masked cell never rewritten.
    let cases = [
        ("subst: a = . ~", "#####\n#aaa#\n#...#\n#####\n", 8),
        ("subst-once: a = . ~", "#####\n#aaa#\n#...#\n#####\n", 2),
        ("nsubst: a = 2 # / rest .", "######\n#aaaa#\n#....#\n######\n", 6),
        ("legend: x = room\nlegend: y = room\nlegend: z = liquid\nshuffle: x y z", "#####\n#xyz#\n#...#\n#####\n", 6),
        ("legend: x = room\nlegend: y = liquid\nshuffle: x x y", "####\n#xy#\n#..#\n####\n", 3),
        ("legend: a = room\nnsubst: a = 1 # / 1 ~", "#####\n#aaa#\n#...#\n#####\n", 6),
        ("legend: a = room\nsubst: a = . ~\nmask:\n#####\n#m..#\n#...#\n#####", "#####\n#aaa#\n#...#\n#####\n", 4),
    ];
    for (rules, grid, count) in cases {
        let (rules, mask) = rules.split_once("\nmask:\n").map_or((rules, None), |(r, m)| (r, Some(m)));
        let src = match mask {
            Some(m) => format!("prefab l\n{rules}\nterrain:\n{grid}mask:\n{m}\n"),
            None => format!("prefab l\n{rules}\nterrain:\n{grid}"),
        };
        let v = variation_of(&src);
        let all = listed(&v).unwrap_or_else(|| panic!("`{rules}` is listed"));
        assert_eq!(all.len(), count, "`{rules}`: {all:?}");
    }
}

#[test]
fn listing_holds_every_drawn_outcome_and_each_is_drawn() {
    // Exactness over random drawings of every rule together: each outcome a
    // seed draws is listed, and with few outcomes of even weight, 400 seeds
    // draw every listed one. Every choice is floor, so the proof accepts them all.
    let mut rng = Rng::stream(0, "test", "vary listing");
    let glyphs = ['.', '.', '.', '#', 'a', 'b', 'c', 'd'];
    let (mut compared, mut exact) = (0, 0);
    for _ in 0..400 {
        let grid = walled_noise(&mut rng, &glyphs, (2, 4), (2, 3));
        let src = format!(
            "prefab r\nlegend: d = room\nlegend: e = room\nsubst: a = . e\nnsubst: b = 1 e / rest .\nshuffle: c d\nsubst-once: c = . e\nterrain:\n{grid}"
        );
        let Ok(p) = build(&src) else { continue };
        let Some(v) = p.variation.as_ref().map(|v| &v.variation) else { continue };
        let Some(all) = listed(v) else { continue };
        compared += 1;
        let mut drawn = std::collections::BTreeSet::new();
        for seed in 0..400u32 {
            let mut draws = Rng::stream_n(u64::from(seed), "variant", 0);
            let outcome = v.rewritten(super::Draw::Random(&mut draws));
            assert!(all.binary_search(&outcome).is_ok(), "{grid}seed {seed} drew {outcome:?}, which is not listed");
            drawn.insert(outcome);
        }
        if all.len() <= 16 {
            exact += 1;
            assert_eq!(
                drawn.len(),
                all.len(),
                "{grid}400 seeds drew {} of the {} listed outcomes",
                drawn.len(),
                all.len()
            );
        }
    }
    assert!(compared >= 100 && exact >= 50, "only {compared} drawings listed, {exact} of them small");
}

#[test]
fn a_floor_the_sets_refuse_is_accepted_when_every_listed_outcome_keeps_it() {
    // Two doorways, a shuffle shutting exactly one of them: the sets see each
    // doorway as maybe shut and the room behind as maybe cut off, but every
    // outcome keeps one of them open.
    let src = "prefab pair\nlegend: o = room\nlegend: s = wall\nshuffle: o s\nterrain:\n#######\n#.....#\n#o###s#\n#.....#\n#######\n";
    let p = build(src).unwrap_or_else(|e| panic!("every outcome keeps a doorway open: {e:?}"));
    // The rooms open in every outcome are two areas of sure floor, joined as one.
    assert_eq!(keeps_its_floor(&p, src, 50), (2, 1));
    // Both doorways may shut together: refused, outcome by outcome too.
    let err = build(&src.replace("shuffle: o s", "subst: o = . #\nsubst: s = # .")).unwrap_err();
    assert!(err[0].contains("the floor splits"), "{err:?}");
}

#[test]
fn legend_marks_are_read_and_bad_ones_named_at_their_column() {
    let p =
        build("prefab m\nlegend: w = room:1 mark no_monster_gen quiet quiet\nsubst: a = w .\nterrain:\n#a.#\n#w.#\n")
            .expect("reads");
    let names: Vec<(Point, &str)> = p.marks().iter().map(|m| (m.at, m.name.as_str())).collect();
    // The first outcome draws `w` for `a`: both cells are marked, each name once.
    let expected = [
        (Point::new(1, 0), "no_monster_gen"),
        (Point::new(1, 0), "quiet"),
        (Point::new(1, 1), "no_monster_gen"),
        (Point::new(1, 1), "quiet"),
    ];
    assert_eq!(names, expected);
    assert!(p.may_mark());
    for (line, expected) in [
        ("legend: w = liquid mark", "p.txt:2:20: syntax error: `mark` needs the names of the marks after it"),
        ("legend: w = liquid mark Quiet", "p.txt:2:25: syntax error: `Quiet` is not a mark name"),
        ("legend: w = liquid mark a b c d e f g h i", "p.txt:2:25: syntax error: more than 8 marks on one glyph"),
        ("legend: w = liquid marks a", "p.txt:2:20: syntax error: unexpected `marks`"),
    ] {
        let err = build(&format!("prefab m\n{line}\nterrain:\n#w#\n")).expect_err("refused");
        assert!(err[0].starts_with(expected), "{line}: {err:?}");
    }
}
