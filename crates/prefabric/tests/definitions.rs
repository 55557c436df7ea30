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
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let section = readme.split("### Definition files and the catalog").nth(1).unwrap();
    let block = section.split("```text\n").nth(1).unwrap().split("```").next().unwrap();
    let (lines, errors) = prefabric::format::def::parse("README.md", block, &Limits::default());
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
