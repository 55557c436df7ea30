//! Map types at another size, set from code (`Pack::map_type_sized`,
//! `Generator::with_map_type`, `SharedGenerator::size`): maps of the size asked
//! that hold every invariant, and a located error naming the map type and the
//! size when it cannot fit.

use crate::common::invariants;
use prefabric::{ErrorKind, Generator, Pack, SharedGenerator};
use std::sync::Arc;

#[test]
fn every_built_in_map_type_generates_sound_maps_smaller_and_larger() {
    let pack = Pack::embedded().expect("the built-in pack");
    // The materials' features and barriers stand at fixed places of a 200x200
    // floor: it only grows.
    let sizes = |name: &str| match name {
        "materials" => vec![(240, 200), (200, 260)],
        _ => vec![(48, 32), (90, 60), (160, 110)],
    };
    for map_type in pack.map_types() {
        for (w, h) in sizes(&map_type.name) {
            let sized = pack
                .map_type_sized(&map_type.name, w, h)
                .unwrap_or_else(|e| panic!("{} at {w}x{h}: {e}", map_type.name));
            assert_eq!((sized.width, sized.height), (w as i32, h as i32));
            let generator = Generator::with_map_type(&pack, &sized);
            for seed in 0..3 {
                let at = format!("{} {w}x{h} seed {seed}", map_type.name);
                let map = generator.generate(seed).unwrap_or_else(|e| panic!("{at}: {e}"));
                assert_eq!((map.width(), map.height()), (w as i32, h as i32), "{at}");
                invariants(&map, &pack, &sized).unwrap_or_else(|e| panic!("{at}: {e}"));
            }
        }
    }
}

#[test]
fn the_same_size_gives_the_same_map_as_the_file() {
    let pack = Pack::embedded().expect("the built-in pack");
    let own = pack.map_type("hotel").expect("the hotel");
    let sized = pack.map_type_sized("hotel", own.width as u32, own.height as u32).expect("its own size fits");
    assert_eq!(&sized, own);
    let a = prefabric::render::json(&Generator::new(&pack, "hotel").expect("hotel").generate(4).expect("map"), &pack);
    let b = prefabric::render::json(&Generator::with_map_type(&pack, &sized).generate(4).expect("map"), &pack);
    assert_eq!(a, b);
}

#[test]
fn a_size_that_does_not_fit_names_the_map_type_the_size_and_the_line() {
    let pack = Pack::embedded().expect("the built-in pack");
    let err = pack.map_type_sized("hotel", 20, 20).expect_err("the grand lobby is 25 wide");
    assert_eq!(err.kind(), ErrorKind::Invalid);
    assert!(err.message().starts_with("map type `hotel` cannot be 20x20: start prefab `grand_lobby`"), "{err}");
    let at = err.location().expect("located");
    assert_eq!((at.file.as_str(), at.line > 0), ("content/default/maps/hotel.toml", true), "{err}");
    assert!(err.help().is_some_and(|h| h.ends_with("the file is written for 120x80")), "{err}");

    let err = pack.map_type_sized("maze", 8, 300).expect_err("out of range");
    assert!(err.message().contains("width and height must be between 16 and"), "{err}");
    let err = pack.map_type_sized("mazes", 80, 50).expect_err("no such map type");
    assert_eq!(err.help(), Some("did you mean `maze`?"));
}

#[test]
fn a_shared_generator_at_a_size_makes_the_same_maps_as_a_borrowed_one() {
    let pack = Arc::new(Pack::embedded().expect("the built-in pack"));
    let shared = SharedGenerator::new(Arc::clone(&pack), "catacombs").expect("catacombs").depth(2).size(70, 50);
    let shared = shared.expect("the catacombs fit 70x50");
    let sized = pack.map_type_sized("catacombs", 70, 50).expect("fits");
    let borrowed = Generator::with_map_type(&pack, &sized).depth(2);
    for seed in 0..3 {
        let a = shared.generate(seed).expect("map");
        let b = borrowed.generate(seed).expect("map");
        assert_eq!(prefabric::render::json(&a, &pack), prefabric::render::json(&b, &pack), "seed {seed}");
    }
    let err = shared.size(16, 16).expect_err("too small");
    assert!(err.message().starts_with("map type `catacombs` cannot be 16x16"), "{err}");
}
