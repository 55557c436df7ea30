//! The objects stage over many seeds and depths, on a pack written here: classes
//! resolve by depth (STRONG one level up, FALLBACK to the weakest), chains of the
//! same character share one choice unless UNIQUE, SHIFT stays inside its box and on
//! free floor, one line per group is used, chances and keyword values hold; items
//! and debris are drawn with their catalog glyphs, not their reference characters;
//! machines definition lines place keep their footprint whole on floor, within
//! their box when shifted, and drawn machines `machine` lines name carry the tag.

use crate::common;

use prefabric::content::SourceFile;
use prefabric::{Generator, Limits, Map, ObjectKind, Pack, Point};
use std::collections::BTreeSet;

const CATALOG: &str = r#"
[[entity]]
tag = "w1"
classes = ["worker"]
rating = 1
[[entity]]
tag = "w3"
classes = ["worker"]
rating = 3
[[entity]]
tag = "w6"
classes = ["worker"]
rating = 6
[[entity]]
tag = "g5"
classes = ["guard"]
rating = 5
[[entity]]
tag = "g8"
classes = ["guard"]
rating = 8
[[item]]
tag = "cell"
category = "power"
rating = 1
[[item]]
tag = "core"
category = "power"
rating = 4
prototype = true
faulty = "core_bad"
[[item]]
tag = "core_bad"
category = "power"
rating = 4
glyph = "&"
[[debris]]
tag = "rubble"
[[debris]]
tag = "ash"
glyph = "~"
[item_glyphs]
power = "!"
"#;

/// A 9x5 hall: a pair of `a` (a chain), a pair of `u` (UNIQUE), a worker, a STRONG
/// worker, a guard with FALLBACK, a shifted item, two group alternatives and a
/// line that never places anything.
const PREFAB: &str = "\
prefab hall
style: feature
terrain:
#########
#.......#
#.......#
#.......#
####+####
refs:
.........
.aa.uu.w.
.s..g.1..
.x.y..n..
.........
";

const DEFS: &str = "\
a debris rubble|ash
u debris rubble|ash UNIQUE
w entity class:worker
s entity class:worker STRONG
g entity class:guard FALLBACK
1 item category:power PROTOTYPE SHIFT=1,1 MODE=on|off LEVEL=3..7 0%:NEVER ?:COIN ODDS=hi*9|lo NEAR=10~2
@pick x debris rubble
@pick y debris ash
0% n debris rubble
";

const MAP: &str = r#"
width = 40
height = 30
[[starts]]
at = "south"
[[variants]]
[[variants.prefabs]]
prefab = "hall"
at = "centre"
transforms = "r0"
"#;

fn pack() -> Pack {
    let files = [
        ("pack.toml", "name = \"o\"\ndefault_map_type = \"m\"\n"),
        ("palette.toml", "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n"),
        ("catalog/all.toml", CATALOG),
        ("prefabs/hall.txt", PREFAB),
        ("prefabs/hall.def", DEFS),
        ("maps/m.toml", MAP),
    ];
    let files = files.iter().map(|(p, t)| SourceFile { path: p.to_string(), bytes: t.as_bytes().to_vec() }).collect();
    Pack::from_files("o", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

/// The objects the reference character `glyph` stands for, as (cell relative to
/// the prefab, tag).
fn drawn(map: &Map, glyph: char) -> Vec<(Point, String)> {
    let b = map.prefabs()[0].bounds;
    let defs = pack_defs();
    map.objects()
        .iter()
        .filter(|o| o.definition.as_ref().is_some_and(|d| defs.lines[d.line as usize].line.glyph == glyph))
        .map(|o| (o.cells[0].0 - Point::new(b.x, b.y), o.tag.as_deref().unwrap().to_string()))
        .collect()
}

/// The definition file of the pack written here.
fn pack_defs() -> prefabric::content::defs::Definitions {
    thread_local! {
        static DEFS: prefabric::content::defs::Definitions = pack().definitions("hall").unwrap().clone();
    }
    DEFS.with(|d| d.clone())
}

#[test]
fn references_resolve_by_their_definitions_over_many_seeds() {
    let pack = pack();
    let (mut chains_split, mut uniques_split) = (0, 0);
    let mut shifted = 0;
    let mut levels = BTreeSet::new();
    let mut prototypes = BTreeSet::new();
    let (mut coins, mut his, mut nears) = (0, 0, BTreeSet::new());
    for seed in 0..300u64 {
        let depth = 1 + (seed % 9) as u32;
        let map = Generator::new(&pack, "m").unwrap().depth(depth).generate(seed).unwrap();
        let cells: BTreeSet<(i32, i32)> = map.objects().iter().map(|o| (o.cells[0].0.x, o.cells[0].0.y)).collect();
        assert_eq!(cells.len(), map.objects().len(), "seed {seed}: a shifted object landed on another");
        // Classes by depth: the best member at or below it; STRONG one level up.
        let best = |d: u32| match d {
            0..=2 => "w1",
            3..=5 => "w3",
            _ => "w6",
        };
        assert_eq!(drawn(&map, 'w')[0].1, best(depth), "depth {depth}");
        assert_eq!(drawn(&map, 's')[0].1, best(depth + 1), "depth {depth}");
        // FALLBACK: the weakest guard when none is at or below the depth.
        let guard = &drawn(&map, 'g')[0].1;
        assert_eq!(guard, if depth >= 8 { "g8" } else { "g5" }, "depth {depth}");
        // A chain shares its choice; UNIQUE cells choose on their own.
        let a = drawn(&map, 'a');
        let u = drawn(&map, 'u');
        assert_eq!(a.len(), 2);
        chains_split += usize::from(a[0].1 != a[1].1);
        uniques_split += usize::from(u[0].1 != u[1].1);
        // SHIFT=1,1: inside its box around (6, 2), on walkable floor.
        let item = drawn(&map, '1');
        let (p, tag) = &item[0];
        assert!((p.x - 6).abs() <= 1 && (p.y - 2).abs() <= 1, "seed {seed}: {p}");
        assert!(map.is_walkable(*p + Point::new(map.prefabs()[0].bounds.x, map.prefabs()[0].bounds.y)));
        shifted += usize::from(*p != Point::new(6, 2));
        // PROTOTYPE: the prototype (or, one time in four, its faulty variant) from
        // depth 4, where it is rated; a common item above that.
        if depth >= 4 {
            assert!(tag == "core" || tag == "core_bad", "{tag}");
            prototypes.insert(tag.clone());
        } else {
            assert_eq!(tag, "cell");
        }
        // Items and debris are drawn with their catalog glyphs (the category's,
        // an item's own, the fallback for debris with none), never their
        // reference characters; entities with their reference characters.
        let defs = pack_defs();
        for o in map.objects() {
            let expected = match (o.kind, o.tag.as_deref()) {
                (ObjectKind::Item, Some("core_bad")) => '&',
                (ObjectKind::Item, _) => '!',
                (ObjectKind::Debris, Some("ash")) => '~',
                (ObjectKind::Debris, _) => ',',
                _ => defs.lines[o.definition.as_ref().unwrap().line as usize].line.glyph,
            };
            assert_eq!(o.cells[0].1, expected, "seed {seed}: {o:?}");
        }
        // One line of the group, and never the 0% line.
        assert_eq!(drawn(&map, 'x').len() + drawn(&map, 'y').len(), 1, "seed {seed}");
        assert!(drawn(&map, 'n').is_empty());
        // Game keywords come out with their values picked; a 0% keyword never does.
        let keywords = &map.objects().iter().find(|o| o.kind == ObjectKind::Item).unwrap().keywords;
        let value = |name: &str| keywords.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.clone());
        assert!(matches!(value("MODE").as_deref(), Some("on" | "off")));
        let level: i64 = value("LEVEL").unwrap().parse().unwrap();
        assert!((3..=7).contains(&level));
        levels.insert(level);
        assert!(keywords.iter().all(|(n, _)| n != "NEVER" && n != "SHIFT" && n != "PROTOTYPE"));
        // `?:` is a coin flip; `hi*9|lo` gives `hi` nine times in ten; `10~2` is 8 to 12.
        coins += usize::from(keywords.iter().any(|(n, _)| n == "COIN"));
        let odds = value("ODDS").unwrap();
        assert!(odds == "hi" || odds == "lo", "{odds}");
        his += usize::from(odds == "hi");
        let near: i64 = value("NEAR").unwrap().parse().unwrap();
        assert!((8..=12).contains(&near), "{near}");
        nears.insert(near);
    }
    assert!((100..=200).contains(&coins), "`?:` applies about half the time: {coins} of 300");
    assert!((240..=295).contains(&his), "`hi*9|lo` gives `hi` about 270 times in 300: {his}");
    assert_eq!(nears.len(), 5, "every value of 10~2 comes up: {nears:?}");
    assert_eq!(chains_split, 0, "adjacent same characters share their object");
    assert!(uniques_split > 50, "UNIQUE cells differ about half the time: {uniques_split} of 300");
    assert!(shifted > 100, "SHIFT moves the item most of the time: {shifted} of 300");
    assert_eq!(levels.len(), 5, "every value of 3..7 comes up");
    assert_eq!(prototypes.len(), 2, "prototypes are sometimes faulty without NEVERFAULTY");
}

#[test]
fn objects_are_deterministic_and_on_walkable_cells_in_the_default_pack() {
    let pack = Pack::embedded().unwrap();
    let generator = Generator::new(&pack, "materials").unwrap();
    let mut kinds = BTreeSet::new();
    for seed in 0..100u64 {
        let map = generator.generate(seed).unwrap();
        // No two objects share a cell.
        let mut cells = BTreeSet::new();
        for o in map.objects() {
            for &(p, _) in &o.cells {
                assert!(cells.insert((p.x, p.y)), "seed {seed}: two objects at {p}");
            }
        }
        for o in map.objects() {
            kinds.insert(o.kind.name());
            // Objects of prefabs stay inside them; the rest are furnishing's, or
            // an object-only encounter's.
            let scattered = |k: usize| map.object_encounters().iter().any(|e| e.objects.contains(&k));
            match o.prefab {
                Some(i) => {
                    let placed = &map.prefabs()[i];
                    for &(p, _) in &o.cells {
                        assert!(map.is_walkable(p) && placed.bounds.contains(p), "seed {seed}: {o:?}");
                    }
                }
                None => {
                    let k = map.objects().iter().position(|x| std::ptr::eq(x, o)).unwrap();
                    assert!(o.furnishing.is_some() || scattered(k), "seed {seed}: {o:?}");
                }
            }
            if o.kind == ObjectKind::Machine && (o.furnishing.is_some() || o.definition.is_some()) {
                let tag = o.tag.as_deref().unwrap();
                assert!(pack.catalog().prop(tag).is_some_and(|p| p.blocks()), "{o:?}");
            }
            // A prop that is a machine blocks wherever it is placed.
            if o.kind == ObjectKind::Prop {
                assert!(!pack.catalog().prop(o.tag.as_deref().unwrap()).unwrap().blocks(), "{o:?}");
            }
            if o.kind != ObjectKind::Machine {
                let kind = prefabric::content::catalog::Kind::parse(o.kind.name()).unwrap();
                assert!(pack.catalog().has(kind, o.tag.as_deref().unwrap()), "{o:?}");
                // Floor for every kind; doors for traps only.
                assert!(kind.may_stand_on(map.terrain_at(o.cells[0].0).unwrap()), "seed {seed}: {o:?}");
            }
        }
        if seed < 5 {
            let again = generator.generate(seed).unwrap();
            assert_eq!(again.objects(), map.objects());
        }
    }
    // The materials floors' definition files place only props that are machines
    // (terminals, crates), so every other kind appears.
    assert_eq!(kinds.len(), 5, "every kind of object but plain props appears: {kinds:?}");
}

const TRAPS: &str = r#"
[[trap]]
tag = "cap"
category = "explosive"
rating = 1
[[trap]]
tag = "charge"
category = "explosive"
rating = 3
[[trap]]
tag = "mine"
category = "explosive"
rating = 6
[[trap]]
tag = "bell"
category = "alarm"
rating = 2
[[trap]]
tag = "pit"
rating = 4
"#;

/// A pack whose one prefab draws an explosive trap `E`, any trap `T` and an
/// explosive trap one level out of depth `R`.
fn trap_pack() -> Pack {
    let prefab = "prefab hall\nstyle: feature\nterrain:\n#####\n#...#\n##+##\nrefs:\n.....\n.E.T.\n.....\n";
    let defs = "E trap category:explosive\nT trap any\nR trap category:explosive RATING=+1\n";
    let prefab = prefab.replace(".E.T.", ".ERT.");
    let files = [
        ("pack.toml", "name = \"t\"\ndefault_map_type = \"m\"\n".to_string()),
        ("palette.toml", "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n".to_string()),
        ("catalog/all.toml", TRAPS.to_string()),
        ("prefabs/hall.txt", prefab),
        ("prefabs/hall.def", defs.to_string()),
        ("maps/m.toml", MAP.to_string()),
    ];
    let files = files.into_iter().map(|(p, t)| SourceFile { path: p.to_string(), bytes: t.into_bytes() }).collect();
    Pack::from_files("t", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"))
}

#[test]
fn traps_are_chosen_by_category_and_depth() {
    let pack = trap_pack();
    let catalog = pack.catalog();
    let defs = pack.definitions("hall").unwrap();
    let mut seen = BTreeSet::new();
    for seed in 0..200u64 {
        let depth = 1 + (seed % 10) as u32;
        let map = Generator::new(&pack, "m").unwrap().depth(depth).generate(seed).unwrap();
        let traps: Vec<_> = map.objects().iter().filter(|o| o.kind == ObjectKind::Trap).collect();
        assert_eq!(traps.len(), 3, "seed {seed}: {traps:?}");
        for o in traps {
            let glyph = defs.lines[o.definition.as_ref().unwrap().line as usize].line.glyph;
            let tag = o.tag.as_deref().unwrap();
            let trap = catalog.traps().iter().find(|t| &*t.tag == tag).unwrap();
            // Rated at most the depth (plus RATING=+N) and within two levels of
            // the best such trap of its pool.
            let target = depth + u32::from(glyph == 'R');
            assert!(trap.rating <= target, "seed {seed} depth {depth}: `{tag}` is rated {}", trap.rating);
            let pool = catalog
                .traps()
                .iter()
                .filter(|t| glyph == 'T' || t.category.as_deref() == Some("explosive"))
                .filter(|t| t.rating <= target);
            let best = pool.map(|t| t.rating).max().unwrap();
            assert!(trap.rating >= best.min(target.saturating_sub(2)), "seed {seed} depth {depth}: `{tag}`");
            if glyph != 'T' {
                assert_eq!(trap.category.as_deref(), Some("explosive"), "seed {seed}: `{tag}`");
            }
            seen.insert((glyph, tag.to_string()));
        }
    }
    // Every explosive comes up at some depth, and `any` reaches beyond them.
    for tag in ["cap", "charge", "mine"] {
        assert!(seen.contains(&('E', tag.to_string())), "{seen:?}");
    }
    assert!(seen.iter().any(|(g, t)| *g == 'T' && (t == "bell" || t == "pit")), "{seen:?}");
}

/// Over 200 seeds each of the catacombs (a bier placed whole with SHIFT=2,0, a
/// sarcophagus and an idol drawn and named) and the mines (a drawn core drill
/// named, terminals that are machines): every machine a `prop` line places keeps
/// its whole footprint, its catalog size turned or not, on floor, blocks, and a
/// shifted one stays within its box of a reference cell drawn with its
/// character; every drawn machine a `machine` line names carries the line's tag
/// over the machine drawn there; and every map stays connected.
#[test]
fn definition_machines_stay_whole_on_floor_within_their_box_and_named_ones_carry_their_tag() {
    use prefabric::format::def::Pick;
    let pack = Pack::embedded().unwrap();
    let (mut placed, mut moved, mut named) = (0, 0, 0);
    for map_type in ["catacombs", "mines"] {
        let generator = Generator::new(&pack, map_type).unwrap();
        for seed in 0..200u64 {
            let map = generator.generate(seed).unwrap();
            let at = format!("{map_type} seed {seed}");
            common::connected(&map).unwrap_or_else(|e| panic!("{at}: {e}"));
            for o in map.objects() {
                let Some(d) = &o.definition else { continue };
                let line = &pack.definitions(&d.defs).unwrap().lines[d.line as usize].line;
                let index = o.prefab.expect("a definition object belongs to a prefab");
                let placement = &map.prefabs()[index];
                let oriented = pack.placed(placement).unwrap();
                let origin = Point::new(placement.bounds.x, placement.bounds.y);
                if line.names_machine() {
                    let Some((Pick::Tag(tag), _)) = line.picks.first() else { panic!("{at}: {line:?}") };
                    assert_eq!(o.tag.as_deref(), Some(tag.as_str()), "{at}");
                    assert_eq!(o.kind, ObjectKind::Machine, "{at}");
                    let drawn = oriented
                        .machines()
                        .iter()
                        .any(|m| m.cells().iter().map(|&(p, g)| (origin + p, g)).eq(o.cells.iter().copied()));
                    assert!(drawn, "{at}: named machine {o:?} is not one drawn in `{}`", placement.name);
                    named += 1;
                    continue;
                }
                if o.kind != ObjectKind::Machine {
                    continue;
                }
                let prop = pack.catalog().prop(o.tag.as_deref().unwrap()).unwrap();
                assert!(o.blocks() && prop.blocks(), "{at}: {o:?}");
                // The whole footprint: a full rectangle of the prop's size, turned or not.
                let (xs, ys) = (o.cells.iter().map(|c| c.0.x), o.cells.iter().map(|c| c.0.y));
                let (x0, x1, y0, y1) =
                    (xs.clone().min().unwrap(), xs.max().unwrap(), ys.clone().min().unwrap(), ys.max().unwrap());
                let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
                let (pw, ph) = (i32::from(prop.size.0), i32::from(prop.size.1));
                assert!((w, h) == (pw, ph) || (w, h) == (ph, pw), "{at}: {o:?} is not {pw}x{ph}");
                assert_eq!(o.cells.len() as i32, w * h, "{at}: {o:?}");
                for &(p, _) in &o.cells {
                    let floor = map.terrain_at(p).is_some_and(|t| t.is_floor());
                    assert!(floor && placement.bounds.contains(p), "{at}: {o:?} off the prefab's floor at {p}");
                }
                // Within the box: some reference cell of its character lies inside
                // the footprint widened by the SHIFT reach.
                let reach = match line.value_of("SHIFT").map(|v| v.split_once(',').unwrap_or((v, v))) {
                    Some((x, y)) => (x.parse::<i32>().unwrap(), y.parse::<i32>().unwrap()),
                    None => (0, 0),
                };
                let refs: Vec<Point> =
                    oriented.refs().iter().filter(|r| r.glyph == line.glyph).map(|r| origin + r.at).collect();
                let within = |r: &Point| {
                    (x0 - reach.0..=x1 + reach.0).contains(&r.x) && (y0 - reach.1..=y1 + reach.1).contains(&r.y)
                };
                assert!(refs.iter().any(within), "{at}: {o:?} left the box of its `{}` references", line.glyph);
                placed += 1;
                let covers_its_ref = refs.iter().any(|r| o.cells.iter().any(|c| c.0 == *r));
                moved += usize::from(line.has("SHIFT") && !covers_its_ref);
            }
        }
    }
    assert!(placed > 100, "{placed} machines placed by definition lines");
    assert!(moved > 5, "SHIFT moves a bier off its reference now and then: {moved}");
    assert!(named > 50, "{named} drawn machines named");
}
