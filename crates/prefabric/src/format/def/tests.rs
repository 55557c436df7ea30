//! Unit tests of the definition file format: lines, alternatives, values,
//! machines and objects read as written, every mistake reported at its line
//! and column, and long files and lines stopped at the limits.

use super::*;

fn ok(src: &str) -> Vec<DefLine> {
    let (lines, errors) = parse("d.def", src, &Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    lines
}

fn errs(src: &str) -> Vec<String> {
    parse("d.def", src, &Limits::default()).1.iter().map(|e| e.to_string()).collect()
}

#[test]
fn reads_object_lines_with_counts_at_their_columns() {
    // The text starts at column 12 of line 7.
    let o = parse_object("40% entity class:swarmer|sentry_mk1 STRONG x2-4", 7, 12).unwrap();
    assert_eq!((o.line.line, o.line.chance, o.count), (7, 40, (2, 4)));
    assert_eq!(o.line.kind, ("entity".to_string(), 16));
    assert_eq!(o.line.picks, [(Pick::Class("swarmer".into()), 23), (Pick::Tag("sentry_mk1".into()), 37)]);
    assert_eq!(o.line.keywords[0].name, "STRONG");
    assert_eq!(parse_object("item any", 1, 1).unwrap().count, (1, 1));
    assert_eq!(parse_object("debris scrap_heap x3", 1, 1).unwrap().count, (3, 3));
    let err = |src: &str| parse_object(src, 1, 1).unwrap_err();
    assert_eq!(err("item any x4-2").0, 10);
    assert!(err("item any x0").1.contains("`x0` is not a count"));
    assert!(err("item any x2 x3").1.contains("given twice"));
    assert!(err("@loot item any").1.contains("no groups"));
    assert!(err("entity").1.contains("not which object"));
    assert!(err("").1.contains("empty"));
    assert!(err("item Bad!").1.contains("not a tag or a pick"));
}

#[test]
fn reads_columns_picks_and_keywords() {
    let lines = ok(
        "# legend\na entity sentry_mk1\n50% @loot 1 item category:power|any 30%:PROTOTYPE RATING=+2 SHIFT=2,1 # note\n  T trap arc_mine DELAY=2..5 ARMED=yes|no\n",
    );
    assert_eq!(lines.len(), 3);
    assert_eq!((lines[0].line, lines[0].glyph, lines[0].chance, lines[0].group.as_deref()), (2, 'a', 100, None));
    assert_eq!(lines[0].picks, [(Pick::Tag("sentry_mk1".into()), 10)]);
    let l = &lines[1];
    assert_eq!((l.chance, l.group.as_deref(), l.glyph, l.glyph_col), (50, Some("loot"), '1', 11));
    assert_eq!(l.picks, [(Pick::Category("power".into()), 18), (Pick::Any, 33)]);
    assert_eq!(l.keywords[0], Keyword { name: "PROTOTYPE".into(), value: None, chance: 30, col: 37 });
    assert_eq!(l.keywords[1].value, Some(Value::One("+2".into())));
    assert_eq!(l.keywords.len(), 3, "the comment is not a keyword");
    assert_eq!(lines[2].keywords[0].value, Some(Value::Range(2, 5)));
    assert_eq!(lines[2].keywords[1].value, Some(Value::OneOf(vec!["yes".into(), "no".into()])));
    // Keywords print as they are written.
    let written: Vec<String> = l.keywords.iter().chain(&lines[2].keywords).map(|k| k.to_string()).collect();
    assert_eq!(written, ["30%:PROTOTYPE", "RATING=+2", "SHIFT=2,1", "DELAY=2..5", "ARMED=yes|no"]);
}

#[test]
fn mistakes_are_located_and_explained() {
    let e = errs(
        "ab entity x\n. item y\n1 item\n2 item bad/tag\n3 item x shift=1\n150% 4 item x\n5 item x K=\n6 item x K=5..2\n",
    );
    assert_eq!(e.len(), 8, "{e:?}");
    assert!(e[0].starts_with("d.def:1:1: syntax error: `ab` is not a single reference character"), "{e:?}");
    assert!(e[1].starts_with("d.def:2:1: syntax error: `.` cannot be a reference character"), "{e:?}");
    assert!(e[2].starts_with("d.def:3:3: syntax error: reference `1` says what kind but not which object"), "{e:?}");
    assert!(e[3].starts_with("d.def:4:8: syntax error: `bad/tag` is not a tag or a pick"), "{e:?}");
    assert!(e[4].starts_with("d.def:5:10: syntax error: `shift` is not a keyword"), "{e:?}");
    assert!(e[5].starts_with("d.def:6:1: syntax error: `150%` is not a chance"), "{e:?}");
    assert!(e[6].starts_with("d.def:7:10: syntax error: keyword `K` has `=` but no value"), "{e:?}");
    assert!(e[7].starts_with("d.def:8:10: syntax error: `5..2` is not a value for `K`"), "{e:?}");
}

#[test]
fn keyword_prefixes_and_value_forms() {
    let l = &ok("a entity x ?:ALERT LIGHT=5~2 ARMED=yes*3|no MOOD=calm|angry*2 DEPTH=-4~0\n")[0];
    assert_eq!(l.keywords[0], Keyword { name: "ALERT".into(), value: None, chance: 50, col: 12 });
    assert_eq!(l.keywords[1].value, Some(Value::Around(5, 2)));
    assert_eq!(l.keywords[1].value.as_ref().unwrap().bounds(), Some((3, 7)));
    assert_eq!(l.keywords[2].value, Some(Value::Weighted(vec![("yes".into(), 3), ("no".into(), 1)])));
    assert_eq!(l.keywords[3].value, Some(Value::Weighted(vec![("calm".into(), 1), ("angry".into(), 2)])));
    assert_eq!(l.keywords[4].value.as_ref().unwrap().bounds(), Some((-4, -4)));
    let written: Vec<String> = l.keywords.iter().map(|k| k.to_string()).collect();
    assert_eq!(written, ["50%:ALERT", "LIGHT=5~2", "ARMED=yes*3|no", "MOOD=calm|angry*2", "DEPTH=-4~0"]);
    let e = errs(
        "a entity x K=5~-1\nb entity x K=yes*0|no\nc entity x K=yes*|no\nd entity x K=*2|no\ne entity x K=1..2000000\nf entity x ?PROTO\n",
    );
    assert_eq!(e.len(), 6, "{e:?}");
    for (i, (col, what)) in [
        (12, "`5~-1` is not a value for `K`"),
        (12, "`yes*0|no`"),
        (12, "`yes*|no`"),
        (12, "`*2|no`"),
        (12, "`1..2000000`"),
        (12, "`?PROTO` is not a keyword"),
    ]
    .into_iter()
    .enumerate()
    {
        let line = i + 1;
        assert!(e[i].starts_with(&format!("d.def:{line}:{col}: syntax error: ")) && e[i].contains(what), "{e:?}");
    }
}

#[test]
fn nothing_is_an_alternative_but_never_the_only_one() {
    let (lines, errors) = parse("n.def", "r entity rat*2|nothing*3\n", &Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(lines[0].picks, [(Pick::Tag("rat".into()), 10), (Pick::Nothing, 16)]);
    assert_eq!(lines[0].weights, [2, 3]);
    assert_eq!(lines[0].picks[1].0.to_string(), "nothing");
    let (_, errors) = parse("n.def", "r entity nothing*2|nothing\n", &Limits::default());
    let text = errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n");
    assert!(text.starts_with("n.def:1:10: ") && text.contains("places nothing in every draw"), "{text}");
}

#[test]
fn machine_lines_name_one_tag_with_no_chance_group_or_shift() {
    let lines = ok("W machine winch_drum LOAD=ore\nP prop parts_press SHIFT=1,0\n");
    assert!(lines[0].names_machine() && !lines[1].names_machine());
    assert_eq!(lines[0].picks, [(Pick::Tag("winch_drum".into()), 11)]);
    assert_eq!(lines[0].keywords[0].name, "LOAD");
    let e = errs(
        "50% A machine winch_drum\n@g B machine winch_drum\nC machine winch_drum|ore_skip\nD machine class:guard\nE machine winch_drum SHIFT=1\nF machine winch_drum UNIQUE\n",
    );
    assert_eq!(e.len(), 6, "{e:?}");
    for (i, (col, what)) in [
        (1, "machine `A` has a chance"),
        (1, "machine `B` has a group"),
        (22, "machine `C` has more than one name"),
        (11, "machine `D` is named by `class:guard`, not a tag"),
        (22, "machine `E` cannot take SHIFT"),
        (22, "machine `F` cannot take UNIQUE"),
    ]
    .into_iter()
    .enumerate()
    {
        let line = i + 1;
        assert!(e[i].starts_with(&format!("d.def:{line}:{col}: syntax error: {what}")), "{e:?}");
    }
    assert!(e[0].contains("help: a `machine` line names a machine drawn in the prefab"), "{e:?}");
}

#[test]
fn limits_stop_long_files_and_lines() {
    let limits = Limits { max_def_lines: 2, ..Limits::default() };
    let (lines, errors) = parse("d.def", "a item x\nb item x\nc item x\nd item x\n", &limits);
    assert_eq!(lines.len(), 2);
    assert!(errors[0].to_string().contains("more than 2 definitions"), "{errors:?}");
    let long = format!("a item x {}\n", "K ".repeat(3000));
    assert!(errs(&long)[0].contains("longer than 4096 bytes"));
}
