//! Tests that an accepted variation keeps its floor in every drawn outcome:
//! random walled rooms and noise under random rules, tied cells, counted
//! deals, and centered floors that may part but always lead out.

use super::*;

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
