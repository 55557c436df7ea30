//! Tests of what the proof accepts and refuses: walls sampling would rarely
//! find, links, machines, references and stairs checked against every rule,
//! hostile variations refused without hanging, and refusals that name a
//! drawn outcome or the prefab's own split floor.

use super::*;

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
    let steps = crate::prefab::vary::parse::lines(&[line]).unwrap().1;
    let v = crate::prefab::vary::Variation::new(&glyphs, Grid::new(24, 13, false), Vec::new(), steps, &pal);
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
