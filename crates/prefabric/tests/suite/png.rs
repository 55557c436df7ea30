//! Maps as PNG images, decoded and checked pixel by pixel: every cell a tile of its
//! terrain's colour, objects over it, outlines where prefabs were placed, the
//! legend below, and limits before allocation.

use prefabric::render::{self, Highlight, PngOptions};
use prefabric::{ErrorKind, Generator, Map, Pack, Point, Rgb, Terrain};
use std::collections::BTreeMap;

/// Width, height and RGB bytes of a PNG image.
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("one frame");
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgb, png::BitDepth::Eight));
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

fn pixel(image: &(u32, u32, Vec<u8>), x: u32, y: u32) -> Rgb {
    let i = (y as usize * image.0 as usize + x as usize) * 3;
    Rgb::new(image.2[i], image.2[i + 1], image.2[i + 2])
}

fn map_of(pack: &Pack, map_type: &str, seed: u64) -> Map {
    Generator::new(pack, map_type).and_then(|g| g.generate(seed)).expect("the map generates")
}

fn terrain_colour(pack: &Pack, t: Terrain) -> Rgb {
    let palette = pack.palette();
    palette.colour_of(Some(t)).or_else(|| palette.colour_of(Some(Terrain::new(t.role())))).expect("a colour")
}

#[test]
fn each_cell_is_a_tile_of_its_terrain_colour_with_objects_over_it() {
    let pack = Pack::embedded().unwrap();
    for map_type in ["materials", "catacombs", "hotel", "mines"] {
        let map = map_of(&pack, map_type, 3);
        let image = decode(&render::map_png(&map, pack.palette(), &PngOptions::default()).unwrap());
        assert_eq!((image.0, image.1), (map.width() as u32 * 4, map.height() as u32 * 4), "{map_type}");
        let objects: Vec<Point> = map.objects().iter().flat_map(|o| o.cells.iter().map(|c| c.0)).collect();
        assert!(!objects.is_empty(), "{map_type} has objects to draw");
        for p in map.bounds().points() {
            let (x, y) = (p.x as u32 * 4, p.y as u32 * 4);
            // The corner shows the terrain even under an object, which is inset.
            assert_eq!(pixel(&image, x, y), terrain_colour(&pack, map.terrain()[p]), "{map_type} at {p}");
            let centre = pixel(&image, x + 2, y + 2);
            if objects.contains(&p) {
                assert_ne!(centre, pixel(&image, x, y), "{map_type}: the object at {p} is drawn");
            } else {
                assert_eq!(centre, pixel(&image, x, y), "{map_type}: nothing drawn over {p}");
            }
        }
    }
}

#[test]
fn highlights_outline_every_prefab_in_one_colour_per_stage() {
    let pack = Pack::embedded().unwrap();
    for map_type in ["materials", "catacombs", "hotel"] {
        let map = map_of(&pack, map_type, 8);
        let options = PngOptions { highlight: Some(Highlight::Stage), ..PngOptions::default() };
        let image = decode(&render::map_png(&map, pack.palette(), &options).unwrap());
        let mut colours: BTreeMap<String, Rgb> = BTreeMap::new();
        let prefabs = map.prefabs();
        for (i, placed) in prefabs.iter().enumerate() {
            let corner = Point::new(placed.bounds.x, placed.bounds.y);
            // Outlines are drawn in order: a later one may cover this corner.
            if prefabs[i + 1..].iter().any(|later| later.bounds.contains(corner)) {
                continue;
            }
            let colour = pixel(&image, corner.x as u32 * 4, corner.y as u32 * 4);
            assert_ne!(colour, terrain_colour(&pack, map.terrain()[corner]), "{map_type}: `{}` outlined", placed.name);
            let stage = format!("{:?}", placed.stage);
            let first = *colours.entry(stage.clone()).or_insert(colour);
            assert_eq!(colour, first, "{map_type}: every {stage} outline has one colour");
        }
        assert!(!colours.is_empty(), "{map_type}: some outline was checked");
        let mut distinct: Vec<Rgb> = colours.values().copied().collect();
        distinct.dedup();
        assert_eq!(distinct.len(), colours.len(), "{map_type}: stages have colours of their own: {colours:?}");
    }
}

#[test]
fn the_legend_goes_below_the_map_and_the_bytes_repeat() {
    let pack = Pack::embedded().unwrap();
    let map = map_of(&pack, "catacombs", 5);
    let plain = render::map_png(&map, pack.palette(), &PngOptions { scale: 2, ..PngOptions::default() }).unwrap();
    let options = PngOptions { scale: 2, highlight: Some(Highlight::Category), legend: true };
    let with_legend = render::map_png(&map, pack.palette(), &options).unwrap();
    let (w, h) = (map.width() as u32 * 2, map.height() as u32 * 2);
    let (plain, legend) = (decode(&plain), decode(&with_legend));
    assert_eq!((plain.0, plain.1), (w, h));
    assert!(legend.0 >= w && legend.1 > h + 8, "{}x{} under a {w}x{h} map", legend.0, legend.1);
    // The legend's text is drawn: some pixel below the map is the text's colour.
    let text = Rgb::new(0xdc, 0xdc, 0xdc);
    assert!((h..legend.1).any(|y| (0..legend.0).any(|x| pixel(&legend, x, y) == text)));
    assert_eq!(with_legend, render::map_png(&map, pack.palette(), &options).unwrap(), "same map, same bytes");
}

#[test]
fn scales_and_sizes_beyond_the_limits_are_refused() {
    let pack = Pack::embedded().unwrap();
    let map = map_of(&pack, "materials", 1);
    for scale in [0, render::MAX_SCALE + 1] {
        let e = render::map_png(&map, pack.palette(), &PngOptions { scale, ..PngOptions::default() }).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Limit);
    }
    // 200x200 cells of 32 pixels: 41 million pixels.
    let e = render::map_png(&map, pack.palette(), &PngOptions { scale: 32, ..PngOptions::default() }).unwrap_err();
    assert!(e.to_string().contains("the image would be 6400x6400 pixels"), "{e}");
}
