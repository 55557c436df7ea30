//! Definition files and the catalog as a pack loads them: classes are checked at
//! the depths their prefabs can appear at, FALLBACK and depth ranges change the
//! verdict, and shared files are found through `defs:` headers.

use prefabric::content::SourceFile;
use prefabric::format::def::Pick;
use prefabric::{Limits, Pack};

const PALETTE: &str = "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n";

const CATALOG: &str = r#"
[[entity]]
tag = "drone"
classes = ["worker"]
rating = 1
[[entity]]
tag = "brute"
classes = ["guard"]
rating = 4
[[item]]
tag = "cell"
category = "power"
rating = 1
carried_by = ["drone"]
"#;

const PREFABS: &str = "\
prefab post_a
style: accessible
defs: posts
terrain:
...
...
refs:
g.1
...

prefab post_b
style: accessible
defs: posts
terrain:
..
..
refs:
.g
..
";

fn pack(defs: &str, depth: &str) -> Result<Pack, String> {
    let map = format!(
        "width = 40\nheight = 30\n[[starts]]\nat = \"centre\"\n[encounters]\ncount = 1\n[[encounters.pool]]\nid = \"posts\"\nweight = \"common\"\ncategory = \"danger\"\nprefabs = [\"post_a\", \"post_b\"]\n{depth}\n"
    );
    let files = [
        ("pack.toml", "name = \"d\"\ndefault_map_type = \"m\"\n".to_string()),
        ("palette.toml", PALETTE.to_string()),
        ("catalog/all.toml", CATALOG.to_string()),
        ("prefabs/posts.txt", PREFABS.to_string()),
        ("prefabs/shared/posts.def", defs.to_string()),
        ("maps/m.toml", map),
    ];
    let files = files.into_iter().map(|(p, t)| SourceFile { path: p.into(), bytes: t.into_bytes() }).collect();
    Pack::from_files("d", files, Limits::default()).map_err(|p| p.to_string())
}

#[test]
fn a_shared_file_defines_what_its_prefabs_draw() {
    let pack = pack("g entity class:guard FALLBACK\n1 item carried-by:drone|category:power PROTOTYPE\n", "").unwrap();
    assert_eq!(pack.prefab("post_b").unwrap().defs_name(), "posts");
    let defs = pack.definitions("posts").unwrap();
    assert_eq!(defs.lines.len(), 2);
    assert_eq!(defs.lines[1].line.picks[0].0, Pick::CarriedBy("drone".into()));
    assert_eq!(pack.catalog().entities().len(), 2);
}

#[test]
fn classes_are_checked_at_every_depth_the_prefabs_can_appear() {
    // The guard class starts at rating 4: at depth 1 it has no member.
    let err = pack("g entity class:guard\n1 item cell\n", "").unwrap_err();
    assert!(err.contains("posts.def:1:10: invalid: class `guard` has no member at or below depth 1"), "{err}");
    // Kept to depths 4-6 by its encounter, the same line is fine...
    assert!(pack("g entity class:guard\n1 item cell\n", "depth = [4, 6]").is_ok());
    // ...and FALLBACK makes it fine at every depth.
    assert!(pack("g entity class:guard FALLBACK\n1 item cell\n", "").is_ok());
}

#[test]
fn a_map_type_read_later_checks_the_definitions_at_its_own_depths() {
    // Loaded with its encounter kept to depths 4-6, the guard line passes...
    let pack = pack("g entity class:guard\n1 item cell\n", "depth = [4, 6]").unwrap();
    let map = |depth: &str| {
        format!(
            "width = 40\nheight = 30\n[[starts]]\nat = \"centre\"\n[encounters]\ncount = 1\n[[encounters.pool]]\nid = \"posts\"\nweight = \"common\"\ncategory = \"danger\"\nprefabs = [\"post_a\"]\n{depth}\n"
        )
    };
    let same = pack.read_map_type("d/maps/n.toml", "n", &map("depth = [5, 6]")).expect("depths the pack checked");
    assert_eq!((same.name.as_str(), same.width), ("n", 40));
    // ...but a map type placing the posts from depth 1 is refused as loading
    // the pack with it would refuse it: the guard class has no member there.
    let err = pack.read_map_type("d/maps/n.toml", "n", &map("")).unwrap_err().to_string();
    assert!(err.contains("posts.def:1:10: invalid: class `guard` has no member at or below depth 1"), "{err}");
    // Its own problems are located in the file it is given as.
    let err = pack.read_map_type("d/maps/n.toml", "n", "width = 40\nheight = 30\nmargin = [\n").unwrap_err();
    assert!(
        err.errors().iter().all(|e| e.location().is_some_and(|l| l.file == "d/maps/n.toml" && l.line > 0)),
        "{err}"
    );
}

#[test]
fn drawn_and_defined_characters_must_match() {
    let err = pack("g entity drone\nx item cell\n", "").unwrap_err();
    assert!(
        err.contains("prefab `post_a` draws `1` (first at x=2 y=0) but d/prefabs/shared/posts.def does not define it"),
        "{err}"
    );
    assert!(err.contains("posts.def:2:1: invalid: `x` is defined but no prefab using `posts` draws it"), "{err}");
}

#[test]
fn the_readme_definition_example_parses() {
    let chapter = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/definitions-and-catalog.md");
    let chapter = std::fs::read_to_string(chapter).unwrap();
    let section = chapter.split("\n## Definition files\n").nth(1).unwrap();
    let block = section.split("```text\n").nth(1).unwrap().split("```").next().unwrap();
    let (lines, errors) = prefabric::format::def::parse("definitions-and-catalog.md", block, &Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(lines.len(), 11);
    assert!(lines[10].names_machine() && !lines[9].names_machine());
    let terminal = lines.iter().find(|l| l.glyph == 'T').unwrap();
    let written: Vec<String> = terminal.keywords.iter().map(|k| k.to_string()).collect();
    assert_eq!(written, ["50%:ACTIVE", "LIGHT=5~1", "MODE=idle*3|busy"]);
}

#[test]
fn game_keywords_are_checked_against_the_catalogs_declarations() {
    let declared = "[keywords.entity]\nSTANCE = \"guard|patrol\"\nCHARGE = \"0..100\"\n";
    let with = |defs: &str| {
        let files = [
            ("pack.toml", "name = \"d\"\ndefault_map_type = \"m\"\n".to_string()),
            ("palette.toml", PALETTE.to_string()),
            ("catalog/all.toml", CATALOG.to_string()),
            ("catalog/keywords.toml", declared.to_string()),
            ("prefabs/posts.txt", PREFABS.to_string()),
            ("prefabs/shared/posts.def", defs.to_string()),
            ("maps/m.toml", "width = 40\nheight = 30\n[[starts]]\nat = \"centre\"\n[encounters]\ncount = 1\n[[encounters.pool]]\nid = \"posts\"\nweight = \"common\"\ncategory = \"danger\"\nprefabs = [\"post_a\", \"post_b\"]\n".to_string()),
        ];
        let files = files.into_iter().map(|(p, t)| SourceFile { path: p.into(), bytes: t.into_bytes() }).collect();
        Pack::from_files("d", files, Limits::default()).map_err(|p| p.to_string())
    };
    // Declared keywords with allowed values load without a word; an undeclared
    // one is a warning at its column, with the closest declared name.
    let pack =
        with("g entity drone STANCE=guard*3|patrol CHARGE=50~50 STANSE=guard\n1 item cell WHATEVER=1\n").unwrap();
    let warnings: Vec<String> = pack.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0]
            .starts_with("d/prefabs/shared/posts.def:1:51: warning: the catalog declares no entity keyword `STANSE`"),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("did you mean `STANCE`?"), "{warnings:?}");
    // A value the declaration does not allow is an error, for every value the
    // line could draw.
    let err = with("g entity drone STANCE=guard|sleep CHARGE=90..120\n1 item cell\n").unwrap_err();
    assert!(
        err.contains("posts.def:1:16: invalid: STANCE=guard|sleep can give sleep: STANCE takes one of guard, patrol"),
        "{err}"
    );
    assert!(
        err.contains("posts.def:1:35: invalid: CHARGE=90..120 can give 120: CHARGE takes an integer from 0 to 100"),
        "{err}"
    );
}

const MACHINES: &str = r#"
[[entity]]
tag = "drone"
classes = ["worker"]
rating = 1
[[prop]]
tag = "press"
size = [2, 2]
[[prop]]
tag = "bench"
size = [3, 1]
[[prop]]
tag = "lamp"
[[prop]]
tag = "console"
interactive = true
type = "terminal"
"#;

/// A pack of one prefab `room` (drawn by `prefab`, the header given) whose
/// definition file is `defs`.
fn machine_pack(prefab: &str, defs: &str) -> Result<Pack, String> {
    let map = "width = 40\nheight = 30\n[[starts]]\nat = \"centre\"\n[encounters]\ncount = 1\n[[encounters.pool]]\nid = \"bots\"\nweight = \"common\"\ncategory = \"fluff\"\nobjects = [\"entity drone\"]\n";
    room_pack(MACHINES.to_string(), format!("prefab room\ntransforms: none\n{prefab}"), defs, map)
}

/// A pack `d` of one map type `m` (`map`), the test palette with doors, a
/// catalog, and one prefab file `room.txt` with its definition file `defs`.
fn room_pack(catalog: String, room: String, defs: &str, map: &str) -> Result<Pack, String> {
    let files = [
        ("pack.toml", "name = \"d\"\ndefault_map_type = \"m\"\n".to_string()),
        ("palette.toml", format!("{PALETTE}\"+\" = \"door\"\n")),
        ("catalog/all.toml", catalog),
        ("prefabs/room.txt", room),
        ("prefabs/room.def", defs.to_string()),
        ("maps/m.toml", map.to_string()),
    ];
    let files = files.into_iter().map(|(p, t)| SourceFile { path: p.into(), bytes: t.into_bytes() }).collect();
    Pack::from_files("d", files, Limits::default()).map_err(|p| p.to_string())
}

#[test]
fn machine_footprints_are_checked_over_every_alternative_and_chance() {
    let room = |refs: &str| format!("terrain:\n#######\n#.....#\n#.....#\n#.....#\n#.....#\n###+###\nrefs:\n{refs}");
    let open = room(".......\n.......\n..P....\n.......\n.......\n.......\n");
    // In open floor, a press, a press or a bench, or a press half the time all fit.
    for defs in ["P prop press\n", "P prop press|bench\n", "50% P prop press\n", "P prop press|lamp\n"] {
        machine_pack(&open, defs).unwrap_or_else(|e| panic!("{defs}: {e}"));
    }
    // A bench from (1, 3) overlaps the press from (2, 2), though neither covers
    // the other's reference.
    let err =
        machine_pack(&room(".......\n.......\n..P....\n.Q.....\n.......\n.......\n"), "P prop press\nQ prop bench\n")
            .unwrap_err();
    assert!(
        err.contains("room.def:2:8: invalid: machine `bench` (3x1) drawn as `Q` at x=1 y=3 of prefab `room` may overlap the footprint of `press` drawn as `P` at x=2 y=2"),
        "{err}"
    );
    // A link's way out, and a machine drawn on the machine layer.
    let linked = "terrain:\n#######\n#.....#\n#.....#\n#.....#\n#.....#\n###+###\nlinks:\n.......\n.......\n.......\n.......\n...1...\n.......\nmachines:\n.......\n.....│.\n.......\n.......\n.......\n.......\nrefs:\n.......\n...B...\n.......\n..P....\n.......\n.......\n";
    let err = machine_pack(linked, "P prop press\nB prop bench\n").unwrap_err();
    assert!(err.contains("room.def:1:8: invalid: machine `press` (2x2) drawn as `P` at x=2 y=3 of prefab `room` covers a link's way out at x=3 y=4"), "{err}");
    assert!(err.contains("room.def:2:8: invalid: machine `bench` (3x1) drawn as `B` at x=3 y=1 of prefab `room` covers a machine drawn there at x=5 y=1"), "{err}");
    // Two presses side by side across the room's middle cut it in two when both
    // stand; the error names the line that completes the cut.
    let wall = room(".......\n.......\n.P.Q...\n.......\n.......\n.......\n");
    assert!(machine_pack(&wall, "P prop press\nQ prop press\n").is_ok(), "a gap at x=5 keeps the floor whole");
    let wall = room(".......\n.......\n.P.Q.R.\n.......\n.......\n.......\n");
    let err = machine_pack(&wall, "P prop press\nQ prop press\nR prop console\n").unwrap_err();
    assert!(
        err.contains("room.def:3:8: invalid: machine `console` (1x1) drawn as `R` at x=5 y=2 of prefab `room`, together with the other machines the file places there, cuts the prefab's floor in two"),
        "{err}"
    );
    // Half the time, the console is not there: the floor is still cut when it is.
    assert!(machine_pack(&wall, "P prop press\nQ prop press\n50% R prop console\n").is_err());
}

/// A pack of one enclosed prefab `room`, a lamp, a cell and a drone stacked at
/// its `L`, the stack written by `defs`, placed by one encounter a map.
fn stack_pack(defs: &str) -> Result<Pack, String> {
    let room = "prefab room\nstyle: enclosed\nterrain:\n.....\n.....\n.....\nrefs:\n.....\n..L..\n.....\n";
    let catalog = format!("{MACHINES}[[item]]\ntag = \"cell\"\ncategory = \"power\"\nrating = 1\n");
    let map = "width = 40\nheight = 30\n[[starts]]\nat = \"centre\"\n[encounters]\ncount = 1\n[[encounters.pool]]\nid = \"room\"\nweight = \"common\"\ncategory = \"fluff\"\nprefabs = [\"room\"]\n";
    room_pack(catalog, room.to_string(), defs, map)
}

/// Several lines for one character stack their objects on each of its cells,
/// as an item lies under a creature: on real maps both stand there, the last
/// line's on top, and the map holds its invariants. A stack of two entities, or
/// with a machine, is refused where its second line is written.
#[test]
fn lines_for_one_character_stack_their_objects_on_its_cells() {
    let pack = stack_pack("L prop lamp\n@loot L item cell\n@loot L item cell\nL entity drone\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stacks = 0;
    for seed in 0..40 {
        let map = prefabric::Generator::new(&pack, "m").expect("exists").generate(seed).expect("valid");
        let Some(placed) = map.prefabs().iter().find(|p| p.name == "room") else { continue };
        let oriented = pack.placed(placed).expect("in the pack");
        let cell = prefabric::Point::new(placed.bounds.x, placed.bounds.y) + oriented.refs()[0].at;
        let here: Vec<(&str, &str)> = map
            .objects()
            .iter()
            .filter(|o| o.cells.iter().any(|c| c.0 == cell))
            .map(|o| (o.kind.name(), o.tag.as_deref().unwrap_or("")))
            .collect();
        assert_eq!(here, [("prop", "lamp"), ("item", "cell"), ("entity", "drone")], "seed {seed}");
        stacks += 1;
    }
    assert!(stacks >= 15, "the room was placed in {stacks} of 40 maps");
    for (defs, expected) in [
        (
            "L entity drone\nL entity drone\n",
            "room.def:2:1: invalid: `L` is already defined at d/prefabs/room.def:1:1: a cell of `L` holds one entity, and the line at d/prefabs/room.def:1:1 places one already",
        ),
        (
            "L item cell\nL prop press\n",
            "room.def:2:1: invalid: `L` is already defined at d/prefabs/room.def:1:1: it stacks objects on the cells of `L`, and the line at d/prefabs/room.def:2:1 may place a machine, which has its cells alone",
        ),
    ] {
        let err = stack_pack(defs).map(|_| ()).expect_err("refused");
        assert!(err.contains(expected), "{defs}: {err}");
    }
}
