//! The furnishing stage (seed 003), checked over many seeds: the map stays
//! connected and every way into a room or hall stays open, limits hold, padding
//! and spacing are kept, no object overlaps another, terminals stand in junctions,
//! higher-rated loose items lie in more secluded cells, and a small pack written
//! here shows per-map limits cutting compositions short, with the trace saying so.

use crate::common;

use prefabric::content::SourceFile;
use prefabric::{Dir, FurnishPart, Generator, Limits, Map, ObjectKind, Outcome, Pack, Point, Rect, RegionKind};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// One furnishing unit: a machine (by object index) or a stockpile (by pile).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Unit {
    Machine(usize),
    Pile(u32),
}

/// The cells of every machine and stockpile furnishing placed, by unit.
fn units(map: &Map) -> BTreeMap<Unit, Vec<Point>> {
    let mut out: BTreeMap<Unit, Vec<Point>> = BTreeMap::new();
    for (i, o) in map.objects().iter().enumerate() {
        let Some(f) = o.furnishing else { continue };
        let unit = match (f.part, f.pile) {
            (FurnishPart::Item, _) => continue,
            (FurnishPart::Stockpile, Some(pile)) => Unit::Pile(pile),
            (FurnishPart::Stockpile, None) => panic!("a stockpile item without its pile: {o:?}"),
            _ => Unit::Machine(i),
        };
        out.entry(unit).or_default().extend(o.cells.iter().map(|c| c.0));
    }
    out
}

fn rect_of(cells: &[Point]) -> Rect {
    let (x0, y0) = (cells.iter().map(|p| p.x).min().unwrap(), cells.iter().map(|p| p.y).min().unwrap());
    let (x1, y1) = (cells.iter().map(|p| p.x).max().unwrap(), cells.iter().map(|p| p.y).max().unwrap());
    Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1)
}

fn is_door(map: &Map, p: Point) -> bool {
    map.terrain_at(p).is_some_and(|t| t.is_door())
}

/// Cells of rooms and halls beside a door, or beside a walkable cell of another
/// region or of none: just inside a door, an opening, or a corridor running
/// through.
fn ways_in(map: &Map) -> BTreeSet<(i32, i32)> {
    let mut out = BTreeSet::new();
    for r in map.regions().iter().filter(|r| matches!(r.kind, RegionKind::Room | RegionKind::Hall)) {
        for p in r.bounds.points() {
            if map.region_at(p).map(|x| x.id) != Some(r.id) {
                continue;
            }
            let outside = Dir::ALL.iter().any(|d| {
                let q = p + d.delta();
                is_door(map, q) || (map.is_walkable(q) && map.region_at(q).map(|x| x.id) != Some(r.id))
            });
            if outside {
                out.insert((p.x, p.y));
            }
        }
    }
    out
}

#[test]
fn default_furnishing_keeps_every_rule_over_300_seeds() {
    let pack = Pack::embedded().unwrap();
    let rules = pack.map_type("materials").unwrap().furnishing.clone().expect("materials is furnished");
    let mut parts_seen = BTreeSet::new();
    let (mut pushed, mut swapped, mut limit_hits) = (0, 0, 0);
    for seed in 0..300u64 {
        let depth = 1 + (seed % 9) as u32;
        let generator = Generator::new(&pack, "materials").unwrap().depth(depth);
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let at = |what: &str| format!("seed {seed} depth {depth}: {what}");
        common::connected(&map).unwrap_or_else(|e| panic!("{}", at(&e)));

        // One object per cell.
        let mut taken = BTreeSet::new();
        for o in map.objects() {
            for &(p, _) in &o.cells {
                assert!(taken.insert((p.x, p.y)), "{}", at(&format!("two objects at {p}")));
            }
        }
        // Ways in stay open: no door or stairs under an object, no machine or
        // stockpile just inside a room's or hall's way in.
        let clear = ways_in(&map);
        for o in map.objects().iter().filter(|o| o.furnishing.is_some()) {
            let f = o.furnishing.unwrap();
            parts_seen.insert(f.part);
            for &(p, _) in &o.cells {
                let terrain = map.terrain_at(p).unwrap();
                assert!(terrain.is_floor(), "{}", at(&format!("{o:?} on {terrain}")));
                assert!(!map.is_protected(p) && !map.is_spawn_blocked(p), "{}", at(&format!("{o:?}")));
                assert!(!map.prefabs().iter().any(|x| x.bounds.contains(p)), "{}", at(&format!("{o:?} in a prefab")));
                let keeps_off = !matches!(f.part, FurnishPart::Item | FurnishPart::Terminal);
                assert!(!(keeps_off && clear.contains(&(p.x, p.y))), "{}", at(&format!("{o:?} blocks a way in")));
            }
        }
        for r in map.regions() {
            for d in &r.doors {
                assert!(map.is_passable(d.at), "{}", at(&format!("door {} of region {} is covered", d.at, r.id)));
            }
        }
        // Every door leads somewhere: no furnished machine or stockpile beside one.
        for o in map.objects().iter().filter(|o| o.furnishing.is_some_and(|f| f.part != FurnishPart::Item)) {
            for &(p, _) in &o.cells {
                let door = Dir::ALL.iter().map(|d| p + d.delta()).find(|&q| is_door(&map, q));
                assert!(door.is_none(), "{}", at(&format!("{o:?} stands beside the door at {door:?}")));
            }
        }

        // Limits.
        let count = |part: FurnishPart| {
            map.objects().iter().filter(|o| o.furnishing.is_some_and(|f| f.part == part)).count() as u32
        };
        let interactive = count(FurnishPart::Interactive);
        assert!(
            interactive <= rules.max_interactive.unwrap(),
            "{}",
            at(&format!("{interactive} interactive machines"))
        );
        let units = units(&map);
        let piles: Vec<&Vec<Point>> =
            units.iter().filter(|(u, _)| matches!(u, Unit::Pile(_))).map(|(_, cells)| cells).collect();
        assert!(piles.len() as u32 <= rules.max_stockpiles.unwrap(), "{}", at(&format!("{} stockpiles", piles.len())));
        for pile in &piles {
            let n = pile.len() as u32;
            assert!((rules.stockpile_items.lo..=rules.stockpile_items.hi).contains(&n), "{}", at("stockpile size"));
        }
        for (unit, cells) in &units {
            if let Unit::Pile(p) = unit {
                let kinds: BTreeSet<&str> = map
                    .objects()
                    .iter()
                    .filter(|o| o.furnishing.is_some_and(|f| f.pile == Some(*p)))
                    .map(|o| o.tag.as_deref().unwrap())
                    .collect();
                assert!((1..=3).contains(&kinds.len()), "{}", at(&format!("a stockpile of {} kinds", kinds.len())));
                assert!(rect_of(cells).width <= 3 && rect_of(cells).height <= 3, "{}", at("a stockpile spread out"));
            }
        }
        let terminals = rules.terminals.as_ref().unwrap();
        assert!(count(FurnishPart::Terminal) <= terminals.count.hi, "{}", at("terminals"));
        assert!(count(FurnishPart::Item) <= rules.items.as_ref().unwrap().count.hi, "{}", at("loose items"));

        // Padding: fillers inside their area's inner rectangle; interactive machines
        // and stockpiles inside it or pushed back against the wall. Terminals in
        // junctions, against a wall.
        for (unit, cells) in &units {
            let rect = rect_of(cells);
            let region = map.region_at(cells[0]).unwrap();
            let inner = region.bounds.expand(-rules.padding);
            let part = match unit {
                Unit::Pile(_) => FurnishPart::Stockpile,
                Unit::Machine(i) => map.objects()[*i].furnishing.unwrap().part,
            };
            match part {
                FurnishPart::Filler => {
                    assert!(inner.contains_rect(&rect), "{}", at(&format!("filler {rect} off {inner}")))
                }
                FurnishPart::Interactive | FurnishPart::Stockpile => {
                    let b = region.bounds;
                    let against_wall =
                        rect.x == b.x || rect.y == b.y || rect.right() == b.right() || rect.bottom() == b.bottom();
                    assert!(
                        inner.contains_rect(&rect) || (b.contains_rect(&rect) && against_wall),
                        "{}",
                        at(&format!("{part:?} {rect} neither inside {inner} nor against the wall of {b}"))
                    );
                }
                FurnishPart::Terminal => {
                    assert_eq!(region.kind, RegionKind::Junction, "{}", at("a terminal outside a junction"));
                    // Sharing a side with a wall, and with no other region: off
                    // the mouths where corridors come in.
                    let sides: Vec<Point> = rect
                        .ring()
                        .filter(|q| (q.x >= rect.x && q.x < rect.right()) || (q.y >= rect.y && q.y < rect.bottom()))
                        .collect();
                    assert!(sides.iter().any(|&q| !map.is_walkable(q)), "{}", at("a terminal away from the walls"));
                    let mouth =
                        sides.iter().any(|&q| map.is_walkable(q) && map.region_at(q).map(|x| x.id) != Some(region.id));
                    assert!(!mouth, "{}", at(&format!("a terminal at {rect} stands in a corridor mouth")));
                }
                FurnishPart::Item | FurnishPart::Debris => unreachable!("single-cell parts are not units"),
            }
        }
        // Spacing: no two units, or a unit and a prefab's machine, closer than the
        // spacing (Chebyshev distance between their nearest cells).
        let mut all: Vec<(String, Vec<Point>)> = units.iter().map(|(u, c)| (format!("{u:?}"), c.clone())).collect();
        // Machines definition lines place come after furnishing, which cannot keep
        // its distance from them.
        let drawn = |o: &prefabric::Object| o.furnishing.is_none() && !common::placed_by_line(&pack, o);
        for o in map.objects().iter().filter(|o| o.kind == ObjectKind::Machine && drawn(o)) {
            all.push(("a prefab machine".into(), o.cells.iter().map(|c| c.0).collect()));
        }
        for (i, (a, ca)) in all.iter().enumerate() {
            for (b, cb) in &all[i + 1..] {
                let near =
                    ca.iter().any(|p| cb.iter().any(|q| (p.x - q.x).abs().max((p.y - q.y).abs()) <= rules.spacing));
                assert!(!near, "{}", at(&format!("{a} and {b} are closer than the spacing")));
            }
        }
        for e in map.trace().events().iter().filter(|e| e.stage == "furnishing") {
            pushed += e.message.contains(", pushed against the") as u32;
            swapped += e.message.contains("one swapped for") as u32;
            limit_hits += e.message.contains("reached") as u32;
        }
    }
    assert_eq!(parts_seen.len(), 5, "every part is placed somewhere: {parts_seen:?}");
    assert!(pushed > 50, "interactive machines and stockpiles are pushed to the wall sometimes: {pushed}");
    assert!(swapped > 50, "filler arrays sometimes have an odd one: {swapped}");
    assert!(limit_hits > 0, "the per-map limits come into play");
}

/// The stage itself never breaks a map: run stage by stage, every layout that
/// validates before furnishing validates after it, without the retries that
/// `generate` would otherwise hide a failure behind.
#[test]
fn furnishing_never_breaks_a_valid_map() {
    let pack = Pack::embedded().unwrap();
    let generator = Generator::new(&pack, "materials").unwrap();
    let mut checked = 0;
    for seed in 0..200u64 {
        let mut g = generator.clone().depth(1 + (seed % 9) as u32).start(seed, 0);
        if g.features().is_err() || g.layout().is_err() || g.encounters().is_err() || g.validate().is_err() {
            continue;
        }
        g.furnish();
        common::connected(g.map()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        g.objects();
        g.validate().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        checked += 1;
    }
    assert!(checked > 150, "most first attempts lay out: {checked} of 200");
}

#[test]
fn furnishing_is_deterministic_and_traced_per_area() {
    let pack = Pack::embedded().unwrap();
    let generator = Generator::new(&pack, "materials").unwrap().depth(4);
    for seed in [3u64, 77, 1234] {
        let a = generator.generate(seed).unwrap();
        let b = generator.generate(seed).unwrap();
        assert_eq!(a.objects(), b.objects());
        assert_eq!(prefabric::render::json(&a, &pack), prefabric::render::json(&b, &pack), "seed {seed}");
        // Every room and hall left to furnishing draws a composition, in the trace.
        let compositions: Vec<&str> = a
            .trace()
            .events()
            .iter()
            .filter(|e| e.stage == "furnishing" && e.outcome == Outcome::Chose && e.message.contains(": composition `"))
            .map(|e| e.message.as_str())
            .collect();
        let areas = a
            .regions()
            .iter()
            .filter(|r| matches!(r.kind, RegionKind::Room | RegionKind::Hall) && r.prefab.is_none())
            .count();
        assert_eq!(compositions.len(), areas, "seed {seed}");
    }
}

/// Each cell's walking distance from the nearest corridor or junction cell, through
/// cells a walker can pass: computed here independently of the library.
fn seclusion(map: &Map) -> Vec<u32> {
    let t = map.terrain();
    let mut d = vec![u32::MAX; t.cells().len()];
    let mut queue = VecDeque::new();
    for (i, c) in t.cells().iter().enumerate() {
        let busy =
            matches!(c.role(), prefabric::Role::Floor(prefabric::FloorKind::Corridor | prefabric::FloorKind::Junction));
        if busy && map.is_passable(t.point_of(i)) {
            d[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for dir in Dir::ALL {
            let q = t.point_of(i) + dir.delta();
            if let Some(j) = t.index_of(q)
                && d[j] == u32::MAX
                && map.is_passable(q)
            {
                d[j] = d[i] + 1;
                queue.push_back(j);
            }
        }
    }
    d
}

#[test]
fn higher_rated_loose_items_lie_in_more_secluded_cells() {
    let pack = Pack::embedded().unwrap();
    // At depth 3 the default pool holds items rated 1, 2 and 3: they draw 1, 3 and
    // 5 cells and keep the most secluded.
    let generator = Generator::new(&pack, "materials").unwrap().depth(3);
    let mut sums: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
    for seed in 0..150u64 {
        let map = generator.generate(seed).unwrap();
        let s = seclusion(&map);
        for o in map.objects().iter().filter(|o| o.furnishing.is_some_and(|f| f.part == FurnishPart::Item)) {
            let rating = pack.catalog().item(o.tag.as_deref().unwrap()).unwrap().rating;
            let d = s[map.terrain().index_of(o.cells[0].0).unwrap()];
            if d != u32::MAX {
                let e = sums.entry(rating).or_default();
                e.0 += u64::from(d);
                e.1 += 1;
            }
        }
    }
    let mean = |r: u32| {
        let (sum, n) = sums[&r];
        assert!(n > 100, "rating {r}: only {n} items");
        sum as f64 / n as f64
    };
    let (low, mid, high) = (mean(1), mean(2), mean(3));
    eprintln!("mean seclusion by rating 1, 2, 3: {low:.2}, {mid:.2}, {high:.2}");
    assert!(low < mid && mid < high, "mean seclusion by rating 1, 2, 3: {low:.1}, {mid:.1}, {high:.1}");
}

// ---- a small pack written here, to see limits cut compositions short ----

const PALETTE: &str = "[glyphs]\n\"#\" = \"wall\"\n\".\" = \"room\"\n\"+\" = \"door\"\n";

const CATALOG: &str = r#"
[[prop]]
tag = "console"
size = [2, 1]
interactive = true
type = "console"
art = ["╞╡"]

[[prop]]
tag = "tank"
size = [2, 2]
set = "tanks"
art = ["┌┐", "└┘"]

[[prop]]
tag = "valve"
size = [1, 1]
set = "tanks"

[[item]]
tag = "bolt"
category = "parts"
rating = 1

[[item]]
tag = "gear"
category = "parts"
rating = 1
"#;

fn small_pack(furnishing: &str) -> Result<Pack, prefabric::Problems> {
    small_pack_with(CATALOG, furnishing)
}

fn small_pack_with(catalog: &str, furnishing: &str) -> Result<Pack, prefabric::Problems> {
    let map = format!(
        "width = 80\nheight = 60\n[tunnelers]\nroom_chance = 70\nhall_chance = 10\n[[starts]]\nat = \"centre\"\n{furnishing}"
    );
    let files = [
        ("pack.toml", "name = \"t\"\ndefault_map_type = \"m\"\n".to_string()),
        ("palette.toml", PALETTE.to_string()),
        ("catalog/things.toml", catalog.to_string()),
        ("maps/m.toml", map),
    ];
    let files = files.into_iter().map(|(p, t)| SourceFile { path: p.to_string(), bytes: t.into_bytes() }).collect();
    Pack::from_files("t", files, Limits::default())
}

#[test]
fn per_map_limits_skip_the_parts_that_reached_them() {
    let pack = small_pack(
        r#"
[furnishing]
max_interactive = 2
max_stockpiles = 1
[furnishing.rooms]
interactive_machines_stockpiles = 1
[furnishing.halls]
interactive_machines_stockpiles = 1
[furnishing.interactive]
types = { console = 1 }
[furnishing.machines]
sets = { tanks = 1 }
[furnishing.stockpiles]
items = [3, 4]
"#,
    )
    .unwrap();
    let generator = Generator::new(&pack, "m").unwrap();
    let mut full = 0;
    for seed in 0..40u64 {
        let map = generator.generate(seed).unwrap();
        common::connected(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let parts: Vec<FurnishPart> = map.objects().iter().filter_map(|o| o.furnishing.map(|f| f.part)).collect();
        let consoles = parts.iter().filter(|&&p| p == FurnishPart::Interactive).count();
        let piles: BTreeSet<u32> = map.objects().iter().filter_map(|o| o.furnishing.and_then(|f| f.pile)).collect();
        assert!(consoles <= 2 && piles.len() <= 1, "seed {seed}: {consoles} consoles, {} piles", piles.len());
        let trace: Vec<&str> = map.trace().events().iter().map(|e| e.message.as_str()).collect();
        if consoles == 2 && piles.len() == 1 {
            full += 1;
            assert!(trace.iter().any(|m| m.contains("max_interactive 2 reached")), "seed {seed}");
            assert!(trace.iter().any(|m| m.contains("max_stockpiles 1 reached")), "seed {seed}");
        }
    }
    assert!(full > 30, "most maps have room to reach both limits: {full} of 40");
}

#[test]
fn furnishing_names_are_checked_against_the_catalog() {
    let problems = small_pack(
        r#"
[furnishing]
padding = 12
[furnishing.rooms]
machines = 2
every_thing = 1
[furnishing.halls]
interactive_machines = "often"
[furnishing.interactive]
types = { consle = 1 }
tier_depths = [4, 2]
[furnishing.machines]
sets = { tank = 1 }
[furnishing.stockpiles]
categories = ["part"]
[furnishing.terminals]
count = [3, 1]
type = "terminal"
"#,
    )
    .unwrap_err()
    .to_string();
    for expected in [
        "t/maps/m.toml:10:11: invalid: padding 12 must be 0-8",
        "t/maps/m.toml:13:1: invalid: unknown composition `every_thing`",
        "t/maps/m.toml:15:24: invalid: unknown weight word `often`",
        "t/maps/m.toml:17:11: invalid: no interactive machine type `consle` in the catalog",
        "help: did you mean `console`?",
        "t/maps/m.toml:18:15: invalid: tier_depths [4, 2] must list 1 to 5 depths",
        "t/maps/m.toml:20:10: invalid: no machine set `tank` in the catalog",
        "help: did you mean `tanks`?",
        "t/maps/m.toml:22:15: invalid: no item category `part` in the catalog",
        "t/maps/m.toml:24:9: invalid: count [3, 1] is backwards",
        "t/maps/m.toml:25:8: invalid: no interactive machine type `terminal` in the catalog",
    ] {
        assert!(problems.contains(expected), "missing {expected:?} in\n{problems}");
    }
    // A composition with a weight needs what it places, and says so at its line;
    // an empty table gives nothing either.
    let problems = small_pack("[furnishing]\n[furnishing.rooms]\nmachines = 1\ninteractive_machines = 2\n[furnishing.interactive]\ntypes = {}\n[furnishing.machines]\nsets = { tanks = 1 }\n")
        .unwrap_err()
        .to_string();
    assert!(
        problems.contains("t/maps/m.toml:11:1: invalid: composition `interactive_machines` of rooms places an interactive machine, but no type is given"),
        "{problems}"
    );
    let problems = small_pack("[furnishing]\n[furnishing.rooms]\nmachines = 1\n").unwrap_err().to_string();
    assert!(
        problems.contains("t/maps/m.toml:10:1: invalid: composition `machines` of rooms places non-interactive machines, but no set is given"),
        "{problems}"
    );
    // Values of the wrong shape say what was expected, in the file's words.
    let problems = small_pack("[furnishing]\n[furnishing.rooms]\nmachines = 1.5\n").unwrap_err().to_string();
    assert!(
        problems.contains("t/maps/m.toml:10:12: syntax error: expected a weight: a whole number or a weight word"),
        "{problems}"
    );
    let problems = small_pack("[furnishing]\n[furnishing.items]\ncount = [1, 2, 3]\n").unwrap_err().to_string();
    assert!(
        problems.contains("t/maps/m.toml:10:9: syntax error: expected a count: a whole number or a range [lo, hi]"),
        "{problems}"
    );
}

#[test]
fn a_tier_no_machine_has_is_a_warning_not_an_error() {
    let pack = small_pack(
        "[furnishing]\n[furnishing.rooms]\ninteractive_machines = 1\n[furnishing.interactive]\ntypes = { console = 1 }\ntier_depths = [1, 4]\n[furnishing.machines]\nsets = { tanks = 1 }\n",
    )
    .expect("a missing tier is not an error");
    let warnings: Vec<String> = pack.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    // At the `tier_depths` value.
    assert!(
        warnings[0].starts_with(
            "t/maps/m.toml:13:15: warning: interactive type `console` has no tier 2 machine for depths from 4"
        ),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("those depths get its tier 1 machines"), "{warnings:?}");
    // And the stage does what the warning says: depth 6 still gets consoles.
    let map = Generator::new(&pack, "m").unwrap().depth(6).generate(3).unwrap();
    assert!(map.objects().iter().any(|o| o.tag.as_deref() == Some("console")));
    // The default pack has every tier it asks for.
    assert!(Pack::embedded().unwrap().warnings().is_empty());
}

#[test]
fn machine_art_is_checked_and_one_bad_prop_does_not_hide_the_rest() {
    // Art the size of the prop, in code page 437, without blanks; one bad prop is
    // one problem, not a cascade through everything that names the catalog.
    let bad = CATALOG.replace(r#"art = ["╞╡"]"#, r#"art = ["╞╡", "╞╡"]"#);
    let problems = small_pack_with(&bad, "").unwrap_err();
    assert_eq!(problems.errors().len(), 1, "{problems}");
    assert!(problems.to_string().contains("prop `console` has 2 rows of art but is 1 high"), "{problems}");
    let problems = small_pack_with(&CATALOG.replace("╞╡", "╞\u{a0}"), "").unwrap_err().to_string();
    assert!(problems.contains("has a blank"), "{problems}");
    let problems = small_pack_with(&CATALOG.replace("╞╡", "╞€"), "").unwrap_err().to_string();
    assert!(problems.contains("uses `€`, which code page 437 lacks"), "{problems}");
    // Art drawn with a terrain glyph loads, with a warning at the prop.
    let pack = small_pack_with(&CATALOG.replace("╞╡", "#╡"), "").unwrap();
    let warnings: Vec<String> = pack.warnings().iter().map(|w| w.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.contains(
            "t/catalog/things.toml:3:7: warning: prop `console` is drawn with `#`, the palette's glyph for wall"
        )),
        "{warnings:?}"
    );
}

/// Per map type: how many areas of 60 cells or more drew a composition that
/// places something, how many of those hold no object, and how many filler
/// arrays (machines of one tag in one area) each area with machines got.
fn bare_large_areas(map_type: &str, seeds: u64) -> (u32, u32, Vec<String>) {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let generator = Generator::new(&pack, map_type).expect("the map type exists");
    let (mut large, mut bare, mut seen) = (0, 0, Vec::new());
    for seed in 0..seeds {
        let map = generator.generate(seed).expect("the map generates");
        for &(id, composition, _) in &map.furnishing_summary().areas {
            let region = &map.regions()[id as usize];
            if region.area < 60 || composition == prefabric::Composition::Empty {
                continue;
            }
            large += 1;
            let inside = |p: &Point| map.region_at(*p).is_some_and(|r| r.id == id);
            if !map.objects().iter().any(|o| o.cells.iter().any(|(p, _)| inside(p))) {
                bare += 1;
                seen.push(format!("seed {seed}: {:?} {id} {:?} ({composition})", region.kind, region.bounds));
            }
        }
    }
    (large, bare, seen)
}

#[test]
fn large_rooms_and_halls_are_bare_only_when_their_composition_is_empty() {
    for map_type in ["materials", "hotel", "catacombs", "mines"] {
        let (large, bare, seen) = bare_large_areas(map_type, 200);
        eprintln!("{map_type}: {bare} of {large}");
        assert!(large > 0, "{map_type}: no large area drew a composition");
        // A composition that places something may still find its room taken by an
        // encounter; at most one large area in a hundred may end up bare.
        assert!(
            bare * 100 <= large,
            "{map_type}: {bare} of {large} large furnished areas are bare: {:?}",
            &seen[..seen.len().min(8)]
        );
    }
}

#[test]
fn loose_items_lie_off_the_ways_through() {
    let pack = Pack::embedded().expect("the embedded pack loads");
    for map_type in ["materials", "hotel", "catacombs", "mines"] {
        let generator = Generator::new(&pack, map_type).expect("the map type exists");
        let mut items = 0;
        for seed in 0..150 {
            let map = generator.generate(seed).expect("the map generates");
            for o in map.objects().iter().filter(|o| o.furnishing.is_some_and(|f| f.part == FurnishPart::Item)) {
                let (p, _) = o.cells[0];
                let kind = map.region_at(p).map(|r| r.kind);
                assert!(
                    matches!(kind, Some(RegionKind::Room | RegionKind::Hall | RegionKind::Cave)),
                    "{map_type} seed {seed}: loose item {:?} at {p} lies in {kind:?}",
                    o.tag
                );
                items += 1;
            }
        }
        // Every one of these map types asks for loose items.
        assert!(items > 150, "{map_type}: only {items} loose items placed");
    }
}

#[test]
fn filler_arrays_mix_machines_and_stay_within_max_array() {
    // materials: groups = [2, 3], max_array = 10.
    let pack = Pack::embedded().expect("the embedded pack loads");
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    let (mut filled, mut mixed, mut dominated) = (0, 0, 0);
    for seed in 0..150 {
        let map = generator.generate(seed).expect("the map generates");
        let mut per_area: BTreeMap<u32, BTreeMap<String, u32>> = BTreeMap::new();
        for o in map.objects() {
            let Some(f) = o.furnishing.filter(|f| f.part == FurnishPart::Filler) else { continue };
            let area = f.region.expect("a filler machine belongs to its area");
            *per_area.entry(area).or_default().entry(o.tag.as_deref().unwrap_or_default().to_string()).or_default() +=
                1;
        }
        for (area, tags) in &per_area {
            // One array per machine, and an odd one from each of the other two.
            for (tag, &n) in tags {
                assert!(n <= 12, "seed {seed}: area {area} holds {n} filler `{tag}`");
            }
            // Rooms with room for more than a handful: the ones an identical grid
            // would make look stamped.
            let total = tags.values().sum::<u32>();
            if total >= 6 {
                filled += 1;
                mixed += u32::from(tags.len() > 1);
                // One machine in rows with a token other beside it still reads
                // as rows of one machine.
                let most = tags.values().max().copied().unwrap_or(0);
                dominated += u32::from(most * 4 > total * 3);
            }
        }
    }
    eprintln!(
        "{mixed} of {filled} areas with a filler of 6 machines or more mix machines; one machine is over 3/4 of it in {dominated}"
    );
    assert!(filled > 300, "only {filled} areas got a filler of 6 machines or more");
    assert!(mixed * 10 >= filled * 9, "only {mixed} of {filled} areas with a filler of 6 or more mix machines");
    assert!(dominated * 5 <= filled, "one machine is over 3/4 of the filler in {dominated} of {filled} areas");
}
