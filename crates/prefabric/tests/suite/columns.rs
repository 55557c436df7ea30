//! Columns in wide tunnels (`[tunnelers] columns`): where they stand in the
//! default pack's materials maps, and that a map type without them has none.

use crate::common;

use prefabric::{Generator, Map, Pack, Point, RegionKind, Role};

const SEEDS: u64 = 120;

/// The default pack with `line` added to materials' `[tunnelers]`, or what
/// loading it reports.
fn materials_with(line: &str) -> Result<Pack, String> {
    let mut files = common::default_pack_files();
    let maps = files.iter_mut().find(|f| f.path == "maps/materials.toml").expect("materials.toml");
    let text = String::from_utf8(maps.bytes.clone()).expect("UTF-8");
    // The line replaces the file's own setting of the same key, if any.
    let key = format!("{} =", line.split('=').next().unwrap_or("").trim());
    let kept: Vec<&str> = text.lines().filter(|l| !l.starts_with(&key)).collect();
    let text = kept.join("\n") + "\n";
    maps.bytes = text.replacen("[tunnelers]\n", &format!("[tunnelers]\n{line}\n"), 1).into_bytes();
    Pack::from_files("default", files, prefabric::Limits::default()).map_err(|p| p.to_string())
}

/// Every wall cell standing inside a corridor's rectangle: the columns, found
/// from the terrain and the regions alone.
fn columns(map: &Map) -> Vec<Point> {
    let mut found: Vec<Point> = map
        .regions()
        .iter()
        .filter(|r| r.kind == RegionKind::Corridor)
        .flat_map(|r| r.bounds.points())
        .filter(|&p| map.terrain_at(p).is_some_and(|t| t.is(Role::Wall)))
        .collect();
    found.sort_by_key(|p| (p.y, p.x));
    found.dedup();
    found
}

fn is_door(map: &Map, p: Point) -> bool {
    map.terrain_at(p).is_some_and(|t| t.is_door()) || map.regions().iter().any(|r| r.doors.iter().any(|d| d.at == p))
}

/// Why column `p` stands where it should not, if it does.
fn misplaced(map: &Map, p: Point) -> Option<String> {
    let wide = map
        .regions()
        .iter()
        .any(|r| r.kind == RegionKind::Corridor && r.bounds.contains(p) && r.bounds.width.min(r.bounds.height) >= 5);
    if !wide {
        return Some("in no corridor at least 5 wide".into());
    }
    if map.region_at(p).is_some() {
        return Some("belongs to a region".into());
    }
    for dy in -1..=1 {
        for dx in -1..=1 {
            let q = p + Point::new(dx, dy);
            if q == p {
                continue;
            }
            if !map.is_walkable(q) {
                return Some(format!("its neighbour {q} is not open"));
            }
            if is_door(map, q) {
                return Some(format!("beside the door at {q}"));
            }
        }
    }
    None
}

#[test]
fn colonnades_stand_free_in_wide_materials_tunnels() {
    let pack = Pack::embedded().expect("the embedded pack loads");
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    let (mut maps_with, mut total) = (0, 0);
    for seed in 0..SEEDS {
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let found = columns(&map);
        for &p in &found {
            if let Some(why) = misplaced(&map, p) {
                panic!("seed {seed}: column at {p} {why}");
            }
        }
        assert_eq!(found.len() as u32, map.layout_stats().columns, "seed {seed}: columns found vs counted");
        common::connected(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        common::regions_consistent(&map).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        maps_with += usize::from(!found.is_empty());
        total += found.len();
    }
    assert!(maps_with >= 10, "only {maps_with} of {SEEDS} materials maps have columns ({total} in all)");
}

#[test]
fn without_columns_no_corridor_holds_a_wall() {
    let pack = materials_with("columns = 0").expect("loads");
    let generator = Generator::new(&pack, "materials").expect("materials exists");
    for seed in 0..40 {
        let map = generator.generate(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(columns(&map), [], "seed {seed}");
        assert_eq!(map.layout_stats().columns, 0, "seed {seed}");
    }
}

#[test]
fn column_settings_out_of_range_are_refused_with_the_range() {
    for (line, says) in [("column_spacing = 1", "column_spacing must be 2-9"), ("columns = 101", "percentage")] {
        let text = materials_with(line).err().unwrap_or_else(|| panic!("{line} is refused"));
        assert!(text.contains(says), "{line}: {text}");
        assert!(text.contains("materials.toml:"), "{line}: no file:line:col in {text}");
    }
}
