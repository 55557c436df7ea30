//! The catalog's tests: reading files, every check with its location, and
//! the lookups the stages make.

use super::read::*;
use super::*;
use crate::content::keywords::Allowed;
use crate::rng::Rng;

const GOOD: &str = r#"
[[entity]]
tag = "w1"
classes = ["worker"]
rating = 1
[[entity]]
tag = "w3"
classes = ["worker"]
categories = ["civilian"]
rating = 3
[[entity]]
tag = "w3b"
classes = ["worker", "hauler"]
rating = 3
[[entity]]
tag = "w6"
classes = ["worker"]
rating = 6
[[item]]
tag = "drill"
category = "utility"
rating = 2
prototype = true
faulty = "drill_faulty"
carried_by = ["w3"]
[[item]]
tag = "drill_faulty"
category = "utility"
rating = 2
[[prop]]
tag = "press"
size = [2, 3]
interactive = true
[[trap]]
tag = "mine"
rating = 4
[[debris]]
tag = "rubble"
"#;

#[test]
fn classes_resolve_by_depth_with_fallback() {
    let c = read(&[("c.toml", GOOD)]).unwrap();
    let tags = |v: Vec<&Entity>| v.into_iter().map(|e| e.tag.to_string()).collect::<Vec<String>>();
    assert_eq!(tags(c.class_members("worker", None, 1, false)), ["w1"]);
    assert_eq!(tags(c.class_members("worker", None, 5, false)), ["w3", "w3b"]);
    assert_eq!(tags(c.class_members("worker", Some("civilian"), 5, false)), ["w3"]);
    assert_eq!(tags(c.class_members("worker", None, 20, false)), ["w6"]);
    // Nothing of the class at or below depth 2: only FALLBACK gives the weakest.
    assert!(c.class_members("hauler", None, 2, false).is_empty());
    assert_eq!(tags(c.class_members("hauler", None, 2, true)), ["w3b"]);
    assert!(c.has(Kind::Prop, "press") && c.has(Kind::Debris, "rubble") && !c.has(Kind::Trap, "rubble"));
    assert_eq!(c.item("drill").unwrap().faulty.as_deref(), Some("drill_faulty"));
}

#[test]
fn glyphs_come_from_the_item_then_its_category_then_the_fallback() {
    let glyphs = r#"
[item_glyphs]
utility = "("
[[item]]
tag = "probe"
category = "utility"
rating = 1
glyph = "¢"
[[item]]
tag = "cell"
category = "power"
rating = 1
[[debris]]
tag = "slick"
glyph = "~"
"#;
    // The category's glyph is declared in a file after its items'.
    let c = read(&[("a.toml", GOOD), ("b.toml", glyphs)]).unwrap();
    assert_eq!(c.item("drill").unwrap().glyph, '(');
    assert_eq!(c.item("drill_faulty").unwrap().glyph, '(');
    assert_eq!(c.item("probe").unwrap().glyph, '¢');
    assert_eq!(c.item("cell").unwrap().glyph, ITEM_GLYPH);
    assert_eq!(c.category_glyph("utility"), Some('('));
    assert_eq!(c.category_glyph("power"), None);
    assert_eq!(c.glyph_of(Kind::Debris, "rubble"), Some(DEBRIS_GLYPH));
    assert_eq!(c.glyph_of(Kind::Debris, "slick"), Some('~'));
    assert_eq!(c.glyph_of(Kind::Entity, "w1"), None);
    // Where each glyph comes from, for the lint: written ones at their value,
    // fallbacks at the first entry drawn with them.
    let sites: Vec<String> =
        c.glyph_sites.iter().map(|s| format!("{} `{}` {} {}", s.what, s.glyph, s.at, s.fallback)).collect();
    assert_eq!(
        sites,
        [
            "item `probe` `¢` b.toml:8:9 false",
            "debris `slick` `~` b.toml:15:9 false",
            "items of category `utility` `(` b.toml:3:11 false",
            "debris without a glyph of its own (`rubble` first) `,` a.toml:38:7 true",
            "items of category `power` with no glyph of their own (`cell` first) `*` b.toml:10:7 true",
        ]
    );
}

#[test]
fn bad_glyphs_are_located() {
    let bad = r#"
[item_glyphs]
utilty = "("
power = "ab"
[[item]]
tag = "probe"
category = "utility"
rating = 1
glyph = " "
[[item]]
tag = "cell"
category = "power"
rating = 1
[[debris]]
tag = "slick"
glyph = "€"
"#;
    let all = read(&[("a.toml", bad), ("b.toml", "[item_glyphs]\nutilty = \")\"\n")])
        .unwrap_err()
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    for expected in [
        "a.toml:3:1: invalid: `[item_glyphs]` names category `utilty`, which no item has\n  help: did you mean `utility`?",
        "a.toml:4:9: invalid: the glyph of item category `power` must be one character, not `ab`",
        "a.toml:9:9: invalid: the glyph of item `probe` is blank; maps would not show it",
        "a.toml:16:9: invalid: the glyph of debris `slick` is `€`, which code page 437 lacks, so maps could not be written as .xp",
        "b.toml:2:1: invalid: a second glyph for item category `utilty` (the first is at a.toml:3:1)",
    ] {
        assert!(all.contains(expected), "missing {expected:?} in\n{all}");
    }
}

#[test]
fn keyword_declarations_are_read_and_checked() {
    let good = "[keywords.prop]\nLIT = \"yes|no\"\nLIGHT = \"1..9\"\n";
    let c = read(&[("a.toml", good)]).unwrap();
    assert!(c.keywords().declares(Kind::Prop) && !c.keywords().declares(Kind::Trap));
    assert_eq!(c.keywords().allowed(Kind::Prop, "LIGHT"), Some(&Allowed::Numbers(1, 9)));
    let bad = "[keywords.machine]\nX = \"\"\n[keywords.trap]\nlit = \"yes\"\nSHIFT = \"*\"\nFUSE = \"9..1\"\n";
    let twice = "[keywords.prop]\nLIT = \"*\"\n";
    let all: Vec<String> = read(&[("a.toml", good), ("b.toml", bad), ("c.toml", twice)])
        .unwrap_err()
        .iter()
        .map(|e| e.to_string())
        .collect();
    let expected = [
        "b.toml:1:11: invalid: `[keywords.machine]` is not a kind",
        "b.toml:4:1: invalid: `lit` cannot be declared",
        "b.toml:5:1: invalid: `SHIFT` cannot be declared",
        "b.toml:6:8: invalid: `9..1` is not what a keyword takes",
        "c.toml:2:1: invalid: prop keyword `LIT` is declared twice (the first is at a.toml:2:1)",
    ];
    assert_eq!(all.len(), expected.len(), "{all:?}");
    for e in expected {
        assert!(all.iter().any(|a| a.starts_with(e)), "missing {e:?} in {all:?}");
    }
}

#[test]
fn every_problem_is_located() {
    let bad = r#"
[[entity]]
tag = "a b"
classes = []
rating = 0
[[entity]]
tag = "x"
classes = ["c"]
rating = 2
[[item]]
tag = "gun"
category = "weapon"
rating = 3
faulty = "nothing"
carried_by = ["y"]
[[prop]]
tag = "big"
size = [12, 1]
tier = 9
"#;
    let more = "[[entity]]\ntag = \"x\"\nclasses = [\"c\"]\nrating = 1\n";
    let all_of = |files: &[(&str, &str)]| -> String {
        read(files).unwrap_err().iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
    };
    let all = all_of(&[("a.toml", bad), ("b.toml", more)]);
    let cross_references = [
        "a.toml:11:7: invalid: item `gun` names faulty variant `nothing`, which is not an item",
        "a.toml:15:15: invalid: no entity tagged `y` carries `gun`",
    ];
    let own = [
        "a.toml:3:7: invalid: tag `a b` may only use letters",
        "a.toml:4:11: invalid: entity `a b` has no class",
        "a.toml:5:10: invalid: rating 0 must be 1-20",
        "a.toml:18:8: invalid: size [12, 1] must be 1-9 on each side",
        "a.toml:19:8: invalid: tier 9 must be 1-5",
    ];
    for expected in own.iter().chain(&cross_references) {
        assert!(all.contains(expected), "missing {expected:?} in\n{all}");
    }
    // With a file that does not parse, what it held is unknown: references
    // across files are not checked, each file's own problems still are.
    let all = all_of(&[("a.toml", bad), ("b.toml", &format!("{more}[[thing]]\n"))]);
    assert!(all.contains("b.toml:5:3: syntax error: unknown field `thing`"), "{all}");
    for expected in own {
        assert!(all.contains(expected), "missing {expected:?} in\n{all}");
    }
    for unexpected in cross_references {
        assert!(!all.contains(unexpected), "{unexpected:?} reported against a broken catalog:\n{all}");
    }
    // The duplicate is found across files.
    let errors =
        read(&[("a.toml", GOOD), ("b.toml", "[[entity]]\ntag = \"w1\"\nclasses = [\"c\"]\nrating = 1\n")]).unwrap_err();
    assert!(
        errors[0]
            .to_string()
            .starts_with("b.toml:2:7: invalid: a second entity tagged `w1` (the first is at a.toml:3:7)"),
        "{errors:?}"
    );
}

/// A catalog file of `n` weapons, four lines each (`[[item]]`, its tag on
/// line `4i + 2`, its category, its rating on line `4i + 4`), the ratings
/// and tags given by `rating_of` and `tag_of`.
fn many_items(n: usize, rating_of: impl Fn(usize) -> u32, tag_of: impl Fn(usize) -> String) -> String {
    let mut text = String::new();
    for i in 0..n {
        let (tag, rating) = (tag_of(i), rating_of(i));
        text.push_str(&format!("[[item]]\ntag = \"{tag}\"\ncategory = \"weapon\"\nrating = {rating}\n"));
    }
    text
}

#[test]
fn a_large_file_read_in_parts_locates_its_problems_as_a_small_one() {
    // 1.2 MB: read in parts wherever there are two threads or more.
    let n = 20_000;
    let text = many_items(
        n,
        |i| match i {
            3 => 0,
            15_000 => 99,
            _ => 1 + (i % 20) as u32,
        },
        |i| if i == n - 1 { "item_5".to_string() } else { format!("item_{i}") },
    );
    let errors = read(&[("big.toml", &text)]).unwrap_err();
    let said: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    let expected = [
        "big.toml:16:10: invalid: rating 0 must be 1-20",
        "big.toml:60004:10: invalid: rating 99 must be 1-20",
        "big.toml:79998:7: invalid: a second item tagged `item_5` (the first is at big.toml:22:7)",
    ];
    assert_eq!(said, expected);
    // Without the duplicate, all 20,000 are read, in file order.
    let fixed = text.replace("rating = 0\n", "rating = 1\n").replace("rating = 99\n", "rating = 2\n");
    let fixed = fixed.replace(
        &format!("tag = \"item_5\"\ncategory = \"weapon\"\nrating = {}\n", 1 + (n - 1) % 20),
        "tag = \"last\"\ncategory = \"weapon\"\nrating = 1\n",
    );
    let catalog = read(&[("big.toml", &fixed)]).expect("the fixed file reads");
    let tags: Vec<&str> = catalog.items.iter().map(|item| item.tag.as_ref()).collect();
    assert_eq!((tags.len(), tags[0], tags[12_345], tags[n - 1]), (n, "item_0", "item_12345", "last"));
}

#[test]
fn a_large_file_that_toml_refuses_is_refused_whole() {
    let items = many_items(20_000, |i| 1 + (i % 20) as u32, |i| format!("item_{i}"));
    // A table written twice, far apart (so in two parts): TOML refuses it.
    let twice = format!("[item_glyphs]\nweapon = \")\"\n{items}[item_glyphs]\narmor = \"[\"\n");
    let said = read(&[("twice.toml", &twice)]).unwrap_err()[0].to_string();
    let small = read(&[("twice.toml", "[item_glyphs]\nweapon = \")\"\n[item_glyphs]\narmor = \"[\"\n")]).unwrap_err();
    let small_said = small[0].to_string();
    let message = |s: &str| s.split_once(": ").map(|(_, m)| m.to_string()).unwrap_or_default();
    assert_eq!(message(&said), message(&small_said));
    assert!(said.starts_with("twice.toml:80003:"), "{said}");
    // Items written as an inline array before the first header, which a
    // `[[item]]` further on may not add to.
    let inline = format!("item = [{{ tag = \"first\", category = \"weapon\", rating = 1 }}]\n{items}");
    let said = read(&[("inline.toml", &inline)]).unwrap_err()[0].to_string();
    assert!(said.starts_with("inline.toml:2:") && said.contains("syntax"), "{said}");
}

#[test]
fn a_pick_draws_what_a_pick_among_the_listed_candidates_draws() {
    // 3,000 items of three categories, every rating, one in five a prototype
    // (half of those with a faulty variant), in a shuffled order of ratings.
    let mut text = String::new();
    let mut state: u64 = 55;
    let mut next = |below: u64| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % below
    };
    for i in 0..3_000 {
        let category = ["weapon", "armor", "power"][next(3) as usize];
        let rating = 1 + next(20);
        text.push_str(&format!("[[item]]\ntag = \"i{i}\"\ncategory = \"{category}\"\nrating = {rating}\n"));
        match next(10) {
            0 => text.push_str(&format!("prototype = true\nfaulty = \"f{i}\"\n[[item]]\ntag = \"f{i}\"\ncategory = \"{category}\"\nrating = {rating}\n")),
            1 => text.push_str("prototype = true\n"),
            _ => {}
        }
    }
    let catalog = read(&[("many.toml", &text)]).expect("the catalog reads");
    let lines = "a item category:weapon\nb item any\nc item category:armor PROTOTYPE\nd item any PROTOTYPE NEVERFAULTY RATING=+3\ne item category:power|any RATING=+1\n";
    let (lines, errors) = crate::format::def::parse("p.def", lines, &crate::Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    let mut drawn = 0;
    for line in &lines {
        for (pick, _) in &line.picks {
            for depth in 0..24 {
                for seed in 0..8 {
                    let mut listed = Rng::stream_n(seed, "objects", u64::from(depth));
                    let mut searched = listed.clone();
                    let expected = listed.pick(&catalog.candidates(Kind::Item, pick, line, depth)).cloned();
                    let got = catalog.pick_candidate(Kind::Item, pick, line, depth, &mut searched);
                    assert_eq!(got, expected, "{pick:?} at depth {depth}, seed {seed}");
                    assert_eq!(listed.below(1 << 30), searched.below(1 << 30), "the same draws were made");
                    drawn += usize::from(got.is_some());
                }
            }
        }
    }
    assert!(drawn > 1_000, "most picks find an item ({drawn})");
}
