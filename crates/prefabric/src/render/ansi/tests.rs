//! The coloured map against the plain one, on built-in maps (a test: it
//! generates maps, which the renderer below the pipeline never does).

use super::*;
use crate::content::Pack;

/// Without its colour codes, the coloured map is the plain one: the same
/// terrain, and every object drawn over it.
#[test]
fn colours_aside_it_is_the_ascii_map() {
    let pack = Pack::embedded().expect("the default pack loads");
    for map_type in ["materials", "hotel", "mines"] {
        let map = crate::generate(&pack, map_type, 3).expect("the map generates");
        assert!(!map.objects().is_empty());
        let coloured = ansi(&map, pack.palette());
        let mut plain = String::new();
        let mut chars = coloured.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                chars.by_ref().find(|&c| c == 'm');
            } else {
                plain.push(c);
            }
        }
        assert_eq!(plain, super::super::ascii(&map, pack.palette()), "{map_type}");
    }
}
