//! `prefabric show` and `prefabric convert` as users run them: prefabs drawn
//! as placed, the outcomes of a varying prefab, every layer of any `.xp` file,
//! conversions between text and `.xp` without loss, one file of a broken pack
//! still shown, references resolved at a depth, and problems with their places.

use super::*;

#[test]
fn show_renders_prefabs_as_placed() {
    let file = "content/default/prefabs/set_pieces.txt";
    let out = prefabric(&["show", file]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("prefab crossroads_plaza") && text.contains("terrain:"), "{text}");

    // An .xp prefab shows the same way once asked to be read as a prefab.
    let xp = "content/default/prefabs/xp/mine_shaft.xp";
    let out = prefabric(&["show", xp, "--name", "mine_shaft", "--transform", "r90"]);
    let text = stdout(&out);
    assert!(text.starts_with("# mine_shaft as r90: 9x11"), "{text}");
    let grid: Vec<&str> =
        text.lines().skip_while(|l| *l != "terrain:").skip(1).take_while(|l| *l != "links:").collect();
    assert_eq!(grid.len(), 11);
    assert!(grid.iter().all(|r| r.chars().count() == 9));

    // The winches turned with the prefab.
    let machines: Vec<&str> = text.lines().skip_while(|l| *l != "machines:").skip(1).take(11).collect();
    assert_eq!(machines.concat().chars().filter(|c| *c != '.').collect::<String>(), "╖╜╖╜", "{text}");

    let out = prefabric(&["show", xp, "--all-transforms"]);
    assert_eq!(stdout(&out).matches("# mine_shaft as ").count(), 8);

    let out = prefabric(&["show", "content/default/prefabs/entrances.txt", "--name", "nothing"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("it has: freight_exit"), "{}", stderr(&out));
}

#[test]
fn show_prints_outcomes_of_a_varying_prefab() {
    let file = "content/default/prefabs/catacombs/ossuaries.txt";
    let out = prefabric(&["show", file, "--name", "columbarium", "--variants", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The prefab as drawn, its lines included, then four outcomes.
    assert!(text.contains("shuffle: $ 2\nterrain:\n###*#######\n#.........#\n#.$$$.222.#"), "{text}");
    assert_eq!(text.matches("# columbarium variant ").count(), 4, "{text}");
    let outcomes: Vec<&str> = text.split("# columbarium variant ").skip(1).collect();
    for o in &outcomes {
        assert!(!o.contains("shuffle:"), "an outcome has no variation lines: {o}");
        let row = o.lines().skip_while(|l| *l != "terrain:").nth(3).expect("a third terrain row");
        assert!(row == "#.$$$.222.#" || row == "#.222.$$$.#", "{row}");
    }
    // Both ways of dealing the shuffle among four seeds, and the same again.
    assert!(text.contains("#.222.$$$.#") && text.matches("#.$$$.222.#").count() >= 2, "{text}");
    assert_eq!(stdout(&prefabric(&["show", file, "--name", "columbarium", "--variants", "4"])), text);
    // A prefab without variation lines says so and prints only itself.
    let out =
        prefabric(&["show", "content/default/prefabs/set_pieces.txt", "--name", "crossroads_plaza", "--variants", "2"]);
    assert!(out.status.success());
    assert!(!stdout(&out).contains(" variant "), "{}", stdout(&out));
    assert!(stderr(&out).contains("has no variation lines"), "{}", stderr(&out));
    // --variants 0 is a usage error.
    assert_eq!(prefabric(&["show", file, "--variants", "0"]).status.code(), Some(2));
}

#[test]
fn show_draws_every_layer_of_any_xp_file() {
    let Some(xp) = crate::testdata::testdata("xp") else { return };
    let mltest = xp.join("mltest.xp").display().to_string();
    let out = prefabric(&["show", &mltest]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let expected = "layer 1 of 2: 8x4, 0 transparent cells\nAAAAAAAA\nAAAAAAAA\nAAAAAAAA\nAAAAAAAA\n\
        layer 2 of 2: 8x4, 24 transparent cells\n        \n  BBBB  \n  BBBB  \n        \n";
    assert_eq!(text, expected);
    // CP437 glyphs come out as Unicode: SmallDungeon is drawn in full blocks.
    let small_dungeon = xp.join("SmallDungeon_80x50.xp").display().to_string();
    let out = prefabric(&["show", &small_dungeon, "--plain"]);
    let text = stdout(&out);
    assert_eq!(text.lines().nth(1).unwrap(), "█".repeat(80));
    // A file that is not an image says so, naming it.
    let out = prefabric(&["show", "README.md.xp"]);
    assert_eq!(out.status.code(), Some(2));
    let out = prefabric(&["show", "Cargo.toml", "--prefab"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn show_falls_back_to_layers_for_prefabs_text_cannot_hold() {
    let dir = std::env::temp_dir().join(format!("prefabric-blank-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let limits = prefabric::Limits::default();
    let bytes = std::fs::read(repo().join("content/default/prefabs/xp/mine_shaft.xp")).unwrap();
    let mut image = prefabric::format::xp::read("mine_shaft.xp", &bytes, &limits).unwrap();
    // A winch cell painted without a glyph: a valid machine cell, but no text glyph.
    let machines = image.layer_mut(2).unwrap();
    let cell = machines[prefabric::Point::new(2, 2)];
    machines.set(prefabric::Point::new(2, 2), prefabric::XpCell { glyph: 0, ..cell });
    let path = dir.join("blank_winch.xp");
    std::fs::write(&path, prefabric::format::xp::write(&image)).unwrap();
    let out = prefabric(&["show", path.to_str().unwrap(), "--prefab"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("showing its REXPaint layers instead"), "{}", stderr(&out));
    assert!(stdout(&out).contains("layer 3 of 4: 11x9"), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_goes_between_text_and_xp_without_loss() {
    let dir = std::env::temp_dir().join(format!("prefabric-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let xp = dir.join("storage_depot.xp");
    let xp = xp.to_str().unwrap();
    let out = prefabric(&["convert", "content/default/prefabs/small.txt", xp, "--name", "storage_depot"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(dir.join("storage_depot.toml")).unwrap().contains("tags = ["));
    let back = stdout(&prefabric(&["convert", xp, "-"]));
    let shown = stdout(&prefabric(&["show", "content/default/prefabs/small.txt", "--name", "storage_depot"]));
    // `show` adds one comment line before the prefab text.
    assert_eq!(back, shown.split_once('\n').unwrap().1);

    // Several prefabs need a name or a folder.
    let out = prefabric(&["convert", "content/default/prefabs/small.txt", xp]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("pick one with --name"), "{}", stderr(&out));
    // Existing files are kept unless --force, and nothing is written when one is in
    // the way.
    let out = prefabric(&["convert", "content/default/prefabs/small.txt", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("storage_depot.xp already exists; give --force"), "{}", stderr(&out));
    assert!(!dir.join("sealed_vault.xp").exists());
    let out = prefabric(&["convert", "content/default/prefabs/small.txt", dir.to_str().unwrap(), "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.join("sealed_vault.xp").is_file() && dir.join("relay_outpost.toml").is_file());
    // Never over the input, even with --force.
    let out = prefabric(&["convert", xp, xp, "--force"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
    // A .xp prefab is named after its file, so the file name must be a prefab name.
    let bad = dir.join("two words.xp");
    let out = prefabric(&["convert", xp, bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("contains a space"), "{}", stderr(&out));
    assert!(!bad.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_reports_prefab_problems_with_places_and_exits_1() {
    let out = prefabric(&["show", "crates/prefabric/tests/fixtures/prefabs/bad/ragged.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("ragged.txt:4:5: invalid: row is 4 cells wide"), "{}", stderr(&out));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn show_and_convert_work_on_one_file_of_a_broken_pack() {
    let dir = std::env::temp_dir().join(format!("prefabric-broken-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&repo().join("content/default"), &dir);
    let entrances = dir.join("prefabs/entrances.txt");
    let text = std::fs::read_to_string(&entrances).unwrap();
    std::fs::write(&entrances, text.replacen("\nterrain:\n", "\nterrain:\n@@@\n", 1)).unwrap();
    let items = dir.join("catalog/items.toml");
    std::fs::write(&items, std::fs::read_to_string(&items).unwrap() + "\n[[unclosed\n").unwrap();
    let pack = dir.to_str().unwrap();
    let set_pieces = dir.join("prefabs/set_pieces.txt");
    let set_pieces = set_pieces.to_str().unwrap();

    // A sound file of the broken pack shows, the other files' problems as warnings.
    let out = prefabric(&["show", set_pieces, "--pack", pack, "--name", "crossroads_plaza"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("# crossroads_plaza as r0"), "{}", stdout(&out));
    let warned = stderr(&out);
    assert!(warned.contains("warning: the pack has"), "{warned}");
    assert!(warned.contains("items.toml:") && warned.contains("entrances.txt:"), "{warned}");
    let out = prefabric(&["convert", set_pieces, "-", "--pack", pack, "--name", "crossroads_plaza"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("prefab crossroads_plaza"), "{}", stdout(&out));

    // The broken file itself: its own problems as errors, the others as warnings.
    let out = prefabric(&["show", entrances.to_str().unwrap(), "--pack", pack]);
    assert_eq!(out.status.code(), Some(1));
    let said = stderr(&out);
    assert!(said.contains("entrances.txt:13:1: invalid: unknown glyph `@`"), "{said}");
    let warned_about_itself = said.lines().any(|l| l.starts_with("warning: ") && l.contains("entrances.txt:"));
    assert!(!warned_about_itself, "{said}");
    assert!(said.contains("warning: ") && said.contains("items.toml:"), "{said}");

    // Without its palette nothing can be read, and it says so.
    let palette = dir.join("palette.toml");
    std::fs::write(&palette, std::fs::read_to_string(&palette).unwrap() + "\n[[\n").unwrap();
    let out = prefabric(&["show", set_pieces, "--pack", pack]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("palette.toml:"), "{}", stderr(&out));
    assert!(stderr(&out).contains("the pack's palette did not load"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn show_resolve_says_what_each_reference_stands_for_at_a_depth() {
    let pack = "crates/prefabric-cli/tests/fixtures/resolve_pack";
    let file = format!("{pack}/prefabs/armory.txt");
    let legend = |extra: &[&str]| -> String {
        let mut args = vec!["show", file.as_str(), "--pack", pack];
        args.extend_from_slice(extra);
        let out = prefabric(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).is_empty(), "a sound pack gives no warnings: {}", stderr(&out));
        let text = stdout(&out);
        let at = text.find("# references at").unwrap_or_else(|| panic!("no legend in\n{text}"));
        text[at..].to_string()
    };
    // --resolve alone resolves at depth 1: STRONG lifts the guard one level, the
    // gun is the best common one, the lamp keeps its chance, the group its lines.
    let shallow = legend(&["--resolve"]);
    for expected in [
        &format!("# references at depth 1, through {pack}/prefabs/armory.def:\n"),
        "#   g  line 2, entity\n#        class:guard -> recruit (rating 1)\n#        keywords: STRONG\n",
        "#   1  line 3, item\n#        category:gun -> pistol (rating 1)\n#        keywords: 40%:PROTOTYPE\n",
        "#   L  line 4, prop, 60% chance\n#        lamp\n",
        "#   2  line 5, item, group @loot, one of its 2 lines\n#        carbine (rating 2)\n",
        "#   2  line 6, item, group @loot, one of its 2 lines\n#        rifle (rating 4)\n",
    ] {
        assert!(shallow.contains(expected), "missing {expected:?} in\n{shallow}");
    }
    // Deeper, the picks change, and a keyword's own chance shows what it would give.
    let deep = legend(&["--depth", "3"]);
    for expected in [
        "class:guard -> sergeant (rating 3)",
        "category:gun -> pistol (rating 1) | carbine (rating 2)\n#          with 40%:PROTOTYPE: prototype_rifle (rating 3, 25% jammed_rifle)\n",
    ] {
        assert!(deep.contains(expected), "missing {expected:?} in\n{deep}");
    }
    // Turning the prefab does not repeat the legend.
    assert_eq!(legend(&["--resolve", "--all-transforms"]).matches("# references at").count(), 1);
}

#[test]
fn convert_creates_the_folder_it_is_told_to_write_into() {
    let dir = std::env::temp_dir().join(format!("prefabric-convert-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let folder = dir.join("xp_out");
    let out = prefabric(&["convert", "content/default/prefabs/entrances.txt", &format!("{}/", folder.display())]);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_dir(&folder).unwrap().count();
    let prefabs = std::fs::read_to_string(repo().join("content/default/prefabs/entrances.txt"))
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("prefab "))
        .count();
    assert_eq!(written, 2 * prefabs, "a .xp and a .toml per prefab");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_prefab_file_that_is_not_utf8_is_named_at_its_first_bad_byte() {
    let dir = std::env::temp_dir().join(format!("prefabric-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.txt");
    std::fs::write(&file, b"prefab bad\nterrain:\n#\xff#\n").unwrap();
    let out = prefabric(&["show", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let expected = format!("{}:3:2: the file is not valid UTF-8 text (byte 21)", file.display());
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
