//! Tests of listing outcomes (the proof by cases): every outcome of each
//! rule and no other, every drawn outcome among those listed, and a floor the
//! sets refuse accepted when every listed outcome keeps it.

use super::*;

/// Every outcome `all_outcomes` lists, as whole glyph vectors of the concerned
/// cells, sorted.
fn listed(v: &crate::prefab::vary::Variation) -> Option<Vec<Vec<char>>> {
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
fn variation_of(src: &str) -> crate::prefab::vary::Variation {
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
            let outcome = v.rewritten(crate::prefab::vary::Draw::Random(&mut draws));
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
