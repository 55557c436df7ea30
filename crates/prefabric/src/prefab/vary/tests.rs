//! Unit tests of drawing outcomes and of the proof.

use crate::format::palette::Palette;
use crate::format::text;
use crate::geom::Point;
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
    let open = |q: Point| cells.get(q).copied().flatten().is_some_and(|t| t.role.is_walkable());
    let mut label = Grid::new(cells.width(), cells.height(), 0u32);
    let mut count = 0;
    for start in cells.bounds().points() {
        if !open(start) || label[start] != 0 {
            continue;
        }
        count += 1;
        let seen = Grid::reachable(cells.width(), cells.height(), start, open);
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
        v.outcome(seed, &mut cells, &mut refs);
        let open = |q: Point| cells.get(q).copied().flatten().is_some_and(|t| t.role.is_walkable());
        if !Grid::reachable(24, 13, Point::new(1, 1), open)[Point::new(11, 11)] {
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
        // Stairs may not vary.
        (
            "prefab s\nsubst: a = . >\nterrain:\n#####\n#.a.#\n#...#\n#####\n",
            "p.txt:2:8: invalid: `subst` at line 2 rewrites or writes `>`, which is stairs",
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
        let (w, h) = (rng.range(4, 8), rng.range(3, 6));
        let mut grid = String::new();
        for y in 0..h + 2 {
            for x in 0..w + 2 {
                let edge = x == 0 || y == 0 || x == w + 1 || y == h + 1;
                grid.push(if edge { '#' } else { glyphs[rng.below(glyphs.len() as u32) as usize] });
            }
            grid.push('\n');
        }
        let src = format!(
            "prefab r\nlegend: d = room\nsubst: a = . #\nnsubst: b = 2 # / rest .\nshuffle: c d\nsubst-once: c = . #\nterrain:\n{grid}"
        );
        let Ok(p) = build(&src) else { continue };
        accepted += 1;
        let sure: Vec<Point> = p
            .cells()
            .bounds()
            .points()
            .filter(|&q| (0..40).all(|s| p.variant(s).cells()[q].is_some_and(|t| t.role.is_walkable())))
            .collect();
        let mut partitions: Vec<Vec<u32>> = Vec::new();
        for seed in 0..40 {
            let o = p.variant(seed);
            let (label, count) = labels(&o);
            // Every area holds floor that every outcome has.
            for q in o.cells().bounds().points().filter(|&q| label[q] != 0) {
                assert!(
                    sure.is_empty() || sure.iter().any(|&s| label[s] == label[q]),
                    "{grid}seed {seed}: floor at {q} is apart from the floor every outcome has"
                );
            }
            // The sure floor is split alike in every outcome.
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
                assert_eq!(names.len(), count, "{grid}seed {seed}: an area without sure floor");
            }
            partitions.push(partition);
        }
        partitions.dedup();
        assert_eq!(partitions.len(), 1, "{grid}the sure floor splits differently between outcomes");
    }
    assert!(accepted >= 500, "only {accepted} of {tried} random drawings were accepted: the property is barely tested");
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
