//! What happens in the caverns once the caves are dug: cave encounters that
//! fit nowhere are skipped and traced, a required cavern feature that fits
//! nowhere fails with its reason, and caverns are furnished with scattered
//! machines, stockpiles and debris.

use super::*;

#[test]
fn cave_encounters_that_fit_nowhere_are_skipped_and_traced() {
    const HUGE: &str = r#"
prefab colossus
style: centered
transforms: none
terrain:
##############################
#............................#
#............................#
#............................#
#............................#
#............................#
#............................#
#............................#
#............................#
#............................#
###############.##############
"#;
    const MAP: &str = r#"
width = 60
height = 40
generator = "caves"

# Dense caves: small caverns.
[caves]
fill = 56
min_cavern = 20

[encounters]
count = 3

[[encounters.pool]]
id = "colossus"
weight = "common"
category = "fluff"
prefabs = ["colossus"]

[[encounters.pool]]
id = "greedy"
weight = "common"
category = "fluff"
prefabs = ["den"]
min_area = 100000
"#;
    let pack = common::test_pack(
        "huge",
        "huge",
        &[("prefabs/caverns.txt", CAVE_PREFABS), ("prefabs/huge.txt", HUGE), ("maps/huge.toml", MAP)],
    );
    for seed in 0..20 {
        let map = generate(&pack, "huge", seed);
        assert!(map.prefabs().is_empty(), "seed {seed}");
        let skipped: Vec<String> = map
            .trace()
            .events()
            .iter()
            .filter(|e| e.stage == "encounters" && e.outcome == prefabric::Outcome::Skipped)
            .map(|e| e.message.clone())
            .collect();
        if !map.regions().iter().any(|r| r.centre.is_some()) {
            // Dense caves may have no cavern at all, which the trace says.
            assert!(skipped.iter().all(|m| m.ends_with("the layout made no caverns for it")), "{skipped:?}");
            continue;
        }
        assert!(
            skipped.iter().any(|m| m.starts_with("encounter `colossus`: no cavern takes it: of ")
                && (m.contains("too small around") || m.contains("the map's edge"))),
            "seed {seed}: {skipped:?}"
        );
        assert!(
            skipped.iter().any(|m| m.contains("`greedy`: ") && m.contains("fewer than 100000 cells")),
            "seed {seed}: {skipped:?}"
        );
        let reasons: Vec<(&str, SkipReason)> =
            map.encounter_skips().iter().map(|s| (s.id.as_str(), s.reason)).collect();
        assert!(reasons.contains(&("colossus", SkipReason::TooLarge)), "seed {seed}: {reasons:?}");
        assert!(reasons.contains(&("greedy", SkipReason::NoPlace)), "seed {seed}: {reasons:?}");
    }
}

#[test]
fn a_required_cavern_feature_that_fits_nowhere_fails_with_its_reason() {
    const MAP: &str = r#"
width = 60
height = 40
generator = "caves"

[caves]
fill = 56
min_cavern = 20

[[variants]]
name = "v"

[[variants.prefabs]]
prefab = "colossus"
cavern = "centered"
"#;
    const HUGE: &str = "prefab colossus\nstyle: centered\ntransforms: none\nterrain:\n#########################\n#.......................#\n#.......................#\n#.......................#\n#.......................#\n############.############\n";
    let pack = common::test_pack("huge", "huge", &[("prefabs/huge.txt", HUGE), ("maps/huge.toml", MAP)]);
    let err = Generator::new(&pack, "huge").unwrap().generate(1).expect_err("it cannot fit").to_string();
    assert!(err.contains("prefab `colossus` (centered in a cavern"), "{err}");
    assert!(err.contains("found no cavern") && err.contains("too small around"), "{err}");
}

#[test]
fn caverns_are_furnished_with_scattered_machines_stockpiles_and_debris() {
    let catalog =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/catalog/props.toml"))
            .expect("props");
    let items =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/catalog/items.toml"))
            .expect("items");
    let debris =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/catalog/debris.toml"))
            .expect("debris");
    let entities =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/default/catalog/entities.toml"))
            .expect("entities");
    const MAP: &str = r#"
width = 120
height = 90
generator = "caves"

[furnishing]
max_stockpiles = 4

[furnishing.caves]
interactive_machines_stockpiles = 2
machines = 3
stockpiles = 2
empty = 1

[furnishing.interactive]
types = { assayer = 1 }

[furnishing.machines]
sets = { salvage = 1, storage = 1 }
scatter = [2, 4]

[furnishing.stockpiles]
items = [3, 5]
categories = ["power"]

[furnishing.debris]
count = [20, 30]
tags = { rubble_pile = 2, ore_spill = 1 }
"#;
    let pack = common::test_pack(
        "furnished",
        "furnished",
        &[
            ("catalog/props.toml", &catalog),
            ("catalog/items.toml", &items),
            ("catalog/debris.toml", &debris),
            ("catalog/entities.toml", &entities),
            ("maps/furnished.toml", MAP),
        ],
    );
    let (mut scattered, mut piles, mut interactive) = (0, 0, 0);
    for seed in 0..60 {
        let map = generate(&pack, "furnished", seed);
        common::connected(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut strewn = 0;
        for o in map.objects() {
            let f = o.furnishing.expect("everything here is furnished");
            let p = o.cells[0].0;
            assert!(map.is_walkable(p), "seed {seed}: {:?} in rock at {p}", o.tag);
            match f.part {
                prefabric::FurnishPart::Debris => {
                    strewn += 1;
                    assert!(matches!(o.tag.as_deref(), Some("rubble_pile" | "ore_spill")), "{:?}", o.tag);
                    let beside = (-1..=1).any(|dy| (-1..=1).any(|dx| !map.is_walkable(p + Point::new(dx, dy))));
                    assert!(beside, "seed {seed}: debris at {p} is away from the walls");
                }
                prefabric::FurnishPart::Filler => scattered += 1,
                prefabric::FurnishPart::Stockpile => piles += 1,
                prefabric::FurnishPart::Interactive => {
                    interactive += 1;
                    // With its back to the rock.
                    let rect =
                        o.cells.iter().fold(Rect::new(p.x, p.y, 1, 1), |r, c| r.union(&Rect::new(c.0.x, c.0.y, 1, 1)));
                    let sides = [
                        Rect::new(rect.x, rect.y - 1, rect.width, 1),
                        Rect::new(rect.x, rect.bottom(), rect.width, 1),
                        Rect::new(rect.x - 1, rect.y, 1, rect.height),
                        Rect::new(rect.right(), rect.y, 1, rect.height),
                    ];
                    assert!(sides.iter().any(|s| s.points().all(|q| !map.is_walkable(q))), "seed {seed}: {rect}");
                }
                other => panic!("seed {seed}: unexpected {other:?}"),
            }
            let region = f.region.map(|r| map.regions()[r as usize].kind);
            assert!(matches!(region, Some(RegionKind::Cave | RegionKind::Passage)), "seed {seed}: {region:?}");
        }
        assert!((20..=30).contains(&strewn), "seed {seed}: {strewn} pieces of debris");
    }
    assert!(
        scattered > 100 && piles > 100 && interactive > 30,
        "{scattered} scattered, {piles} items in piles, {interactive} interactive"
    );
}
