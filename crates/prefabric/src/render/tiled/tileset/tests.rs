//! Every glyph the built-in maps show has a drawing in the tileset (a test:
//! it generates maps, which the renderer below the pipeline never does).

use super::*;
use crate::Generator;

#[test]
fn every_glyph_the_built_in_maps_show_is_drawn() {
    let pack = Pack::embedded().expect("the built-in pack loads");
    let names: Vec<String> = pack.map_types().map(|t| t.name.clone()).collect();
    for name in &names {
        for seed in 1..=4 {
            let map = Generator::new(&pack, name).and_then(|g| g.generate(seed)).expect("the map generates");
            for look in TiledTileset::of_maps([&map], &pack).looks {
                assert_ne!(glyph_rows(look.glyph), MISSING_GLYPH, "{name} seed {seed}: {:?}", look.glyph);
            }
        }
    }
    for &(glyph, rows) in &EXTRA_GLYPHS {
        assert!(rows.iter().all(|r| r.len() == 8 && r.bytes().all(|b| b == b'#' || b == b'.')), "{glyph}");
    }
}
