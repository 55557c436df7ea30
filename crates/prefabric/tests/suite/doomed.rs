//! Map types whose every attempt would fail are refused when the pack loads,
//! at the line of the parameter that dooms them, before any trial map: `check`
//! says so at once instead of after its trial maps all fail.

use crate::common::try_test_pack;

/// A caves map type of `width` x `height` with `caves` as its `[caves]` table.
fn caves(width: u32, height: u32, caves: &str) -> Result<prefabric::Pack, String> {
    let map = format!("width = {width}\nheight = {height}\ngenerator = \"caves\"\n\n[caves]\n{caves}\n");
    try_test_pack("doomed", "cave", &[("maps/cave.toml", &map)])
}

#[test]
fn a_min_pocket_larger_than_the_ground_inside_the_margin_is_refused_at_its_line() {
    // 40x30 with a margin of 2 leaves 36x26 = 936 cells.
    let err = caves(40, 30, "margin = 2\nmin_pocket = 937").expect_err("no area can be that large");
    assert!(err.contains("maps/cave.toml:7:"), "{err}");
    assert!(err.contains("min_pocket of 937 is more than the 936 cells inside the margin of the 40x30 map"), "{err}");
    assert!(err.contains("lower `min_pocket`"), "{err}");
    // The largest that could still hold: loads, and the map generates or fails
    // by chance, not by arithmetic.
    caves(40, 30, "margin = 2\nmin_pocket = 936").expect("one area could hold it");
}
