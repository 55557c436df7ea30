//! Unit tests of the geometry: points, rectangles, directions, the eight
//! transforms and their sets, and the largest empty rectangle.

use super::*;

#[test]
fn an_intersection_holds_the_cells_both_hold() {
    let (a, b) = (Rect::new(2, 3, 6, 4), Rect::new(5, 1, 10, 4));
    let both = a.intersection(&b);
    assert_eq!(both, Rect::new(5, 3, 3, 2));
    let by_cells: Vec<Point> = a.points().filter(|&p| b.contains(p)).collect();
    assert_eq!(both.points().collect::<Vec<_>>(), by_cells);
    assert!(a.intersection(&Rect::new(20, 20, 3, 3)).is_empty());
    assert_eq!(b.intersection(&b), b);
}

#[test]
fn ring_side_names_the_wall_line_and_skips_corners() {
    let r = Rect::new(2, 3, 4, 2);
    assert_eq!(r.ring_side(Point::new(2, 2)), Some(Dir::North));
    assert_eq!(r.ring_side(Point::new(5, 5)), Some(Dir::South));
    assert_eq!(r.ring_side(Point::new(1, 4)), Some(Dir::West));
    assert_eq!(r.ring_side(Point::new(6, 3)), Some(Dir::East));
    assert_eq!(r.ring_side(Point::new(1, 2)), None, "a corner");
    assert_eq!(r.ring_side(Point::new(3, 4)), None, "inside");
    assert_eq!(r.ring_side(Point::new(3, 0)), None, "further out");
}

#[test]
fn the_largest_empty_rectangle_respects_the_shortest_side() {
    // 12 x 6 grid: a 12 x 2 strip on top (24 cells), a 4 x 4 block below (16).
    let empty = |y: usize, row: &mut [bool]| {
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = y < 2 || x < 4;
        }
    };
    assert_eq!(largest_empty_rect(12, 6, 1, empty), Rect::new(0, 0, 12, 2));
    // Both sides at least 3: only the 4 x 6 column down the left qualifies.
    assert_eq!(largest_empty_rect(12, 6, 3, empty), Rect::new(0, 0, 4, 6));
    assert!(largest_empty_rect(12, 6, 7, empty).is_empty());
}

/// The largest area of an all-empty rectangle with both sides at least
/// `min_side`, by trying every rectangle.
fn largest_area_by_brute_force(w: i32, h: i32, min_side: i32, empty: &[bool]) -> i64 {
    let mut best = 0;
    for (y0, x0) in (0..h).flat_map(|y| (0..w).map(move |x| (y, x))) {
        for (y1, x1) in (y0 + min_side..=h).flat_map(|y| (x0 + min_side..=w).map(move |x| (y, x))) {
            let all = (y0..y1).all(|y| (x0..x1).all(|x| empty[(y * w + x) as usize]));
            if all {
                best = best.max(i64::from(x1 - x0) * i64::from(y1 - y0));
            }
        }
    }
    best
}

proptest::proptest! {
    #[test]
    fn the_largest_empty_rectangle_is_as_large_as_any(
        w in 1i32..12, h in 1i32..10, min_side in 1i32..4, bits in proptest::collection::vec(proptest::bool::weighted(0.7), 120)
    ) {
        let empty: Vec<bool> = (0..(w * h) as usize).map(|i| bits[i]).collect();
        let found = largest_empty_rect(w, h, min_side, |y, row| {
            row.copy_from_slice(&empty[y * w as usize..(y + 1) * w as usize]);
        });
        proptest::prop_assert_eq!(found.area(), largest_area_by_brute_force(w, h, min_side, &empty));
        if !found.is_empty() {
            proptest::prop_assert!(found.width >= min_side && found.height >= min_side);
            proptest::prop_assert!(found.points().all(|p| empty[(p.y * w + p.x) as usize]));
        }
    }
}

proptest::proptest! {
    #[test]
    fn the_search_on_bit_rows_finds_what_the_sweep_finds_ties_included(
        w in 1usize..=64, h in 1usize..14, full in proptest::bool::ANY,
        bits in proptest::collection::vec(proptest::bool::weighted(0.75), 64 * 14)
    ) {
        // Half the grids wholly empty but for a few cells: the most ties.
        let empty = |x: usize, y: usize| full && !(x + 3 * y).is_multiple_of(11) || bits[y * 64 + x];
        let rows: Vec<u64> =
            (0..h).map(|y| (0..w).filter(|&x| empty(x, y)).fold(0u64, |a, x| a | 1 << x)).collect();
        let swept = largest_empty_rect(w as i32, h as i32, 1, |y, row| {
            for (x, cell) in row.iter_mut().enumerate() {
                *cell = empty(x, y);
            }
        });
        proptest::prop_assert_eq!(largest_in_bit_rows(&rows), swept);
    }
}

fn apply_all(t: Transform, w: i32, h: i32) -> Vec<Point> {
    Rect::new(0, 0, w, h).points().map(|p| t.apply_point(p, w, h)).collect()
}

#[test]
fn a_transform_is_its_flip_then_its_quarter_turns_one_by_one() {
    for t in Transform::ALL {
        let (w, h) = (5, 3);
        for p in Rect::new(0, 0, w, h).points() {
            let (mut q, mut size) = (if t.flipped { Point::new(w - 1 - p.x, p.y) } else { p }, (w, h));
            for _ in 0..t.quarter_turns {
                q = Point::new(size.1 - 1 - q.y, q.x);
                size = (size.1, size.0);
            }
            assert_eq!(t.apply_point(p, w, h), q, "{t} at {p}");
        }
    }
}

#[test]
fn every_transform_is_a_bijection_onto_the_transformed_rectangle() {
    for t in Transform::ALL {
        let (w, h) = (5, 3);
        let (tw, th) = t.apply_size(w, h);
        let mut seen = apply_all(t, w, h);
        assert!(seen.iter().all(|p| Rect::new(0, 0, tw, th).contains(*p)), "{t}");
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 15, "{t} must not merge cells");
    }
}

#[test]
fn quarter_turn_is_clockwise_in_screen_coordinates() {
    let r90 = Transform::new(1, false);
    // Top-left of a 4x2 rectangle goes to the top-right of the 2x4 result.
    assert_eq!(r90.apply_point(Point::new(0, 0), 4, 2), Point::new(1, 0));
    assert_eq!(r90.apply_dir(Dir::North), Dir::East);
    assert_eq!(r90.apply_dir(Dir::South), Dir::West);
    let flip = Transform::new(0, true);
    assert_eq!(flip.apply_point(Point::new(0, 1), 4, 2), Point::new(3, 1));
    assert_eq!(flip.apply_dir(Dir::East), Dir::West);
    assert_eq!(flip.apply_dir(Dir::North), Dir::North);
}

#[test]
fn composition_matches_applying_one_after_the_other() {
    let (w, h) = (4, 7);
    for a in Transform::ALL {
        for b in Transform::ALL {
            let ab = a.then(b);
            let (aw, ah) = a.apply_size(w, h);
            for p in Rect::new(0, 0, w, h).points() {
                let step = b.apply_point(a.apply_point(p, w, h), aw, ah);
                assert_eq!(ab.apply_point(p, w, h), step, "{a} then {b} at {p}");
            }
            for d in Dir::ALL {
                assert_eq!(ab.apply_dir(d), b.apply_dir(a.apply_dir(d)));
            }
        }
    }
}

#[test]
fn inverse_undoes_every_transform() {
    for t in Transform::ALL {
        assert_eq!(t.then(t.inverse()), Transform::IDENTITY, "{t}");
        assert_eq!(t.inverse().then(t), Transform::IDENTITY, "{t}");
    }
}

#[test]
fn names_round_trip() {
    for t in Transform::ALL {
        assert_eq!(Transform::parse(t.name()), Some(t));
    }
    assert_eq!(Transform::parse("flip-r0"), Some(Transform::new(0, true)));
    assert_eq!(Transform::parse("r45"), None);
}

#[test]
fn transform_sets_parse_words_and_lists() {
    assert_eq!(TransformSet::parse("all"), Ok(TransformSet::ALL));
    assert_eq!(TransformSet::parse("none"), Ok(TransformSet::IDENTITY));
    let s = TransformSet::parse("r0, flip").unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s.describe(), "r0 flip");
    assert_eq!(TransformSet::parse("r0 sideways"), Err("sideways".to_string()));
    assert_eq!(TransformSet::ROTATIONS.describe(), "rotations");
}

#[test]
fn ring_surrounds_the_rectangle_once() {
    let r = Rect::new(2, 3, 4, 2);
    let ring: Vec<Point> = r.ring().collect();
    assert_eq!(ring.len(), 2 * (4 + 2) + 4);
    let mut sorted = ring.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), ring.len());
    assert!(ring.iter().all(|p| !r.contains(*p) && r.expand(1).contains(*p)));
}
