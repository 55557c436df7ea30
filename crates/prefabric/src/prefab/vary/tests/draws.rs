//! Tests of drawing outcomes: each rule (`subst`, `subst-once`, `nsubst`,
//! `shuffle`) draws as written and as weighted, the seed decides, the mask
//! protects its cells, the legend places references and is read at its
//! columns, and turned outcomes follow the prefab.

use super::*;

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
