//! Tests of the statistics page: names from the pack escaped everywhere, the
//! same statistics giving the same page, and the plots' axes ending on round
//! values with readable tick labels.

use super::charts::{LogAxis, ShareAxis, bucket_start, count_step, tick_percent, time_label, time_ticks};
use super::*;
use prefabric::stats::{EncounterStats, MapTypeStats};

#[test]
fn escape_leaves_no_markup() {
    assert_eq!(
        escape("<script>alert('x') & \"y\"</script>"),
        "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
    );
    assert_eq!(escape("plain µ name"), "plain µ name");
}

#[test]
fn names_from_the_pack_are_escaped_everywhere() {
    let mut m = MapTypeStats { maps: 4, ..MapTypeStats::default() };
    m.encounters.insert("<img src=x>".into(), EncounterStats { weight_word: "<b>".into(), ..Default::default() });
    m.time.buckets.insert(280, 4);
    let mut stats = Stats { format: 1, pack: "<script>alert(1)</script>".into(), ..Stats::default() };
    stats.map_types.insert("\"><svg onload=x>".into(), m);
    stats.finish();
    let page = report(&stats, "");
    assert!(!page.contains("<script") && !page.contains("<img") && !page.contains("<b>"), "{page}");
    assert!(!page.contains("\"><svg onload"));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("&lt;img src=x&gt;"));
    assert_eq!(page, report(&stats, ""), "the same statistics give the same page");
}

#[test]
fn time_axes_get_round_ticks_in_readable_units() {
    assert_eq!(time_label(250_000.0), "250 µs");
    assert_eq!(time_label(1_500_000.0), "1.5 ms");
    assert_eq!(time_label(1e6), "1 ms");
    assert_eq!(time_label(12_000_000.0), "12 ms");
    assert_eq!(time_label(2.5e9), "2.5 s");
    // A narrow range still gets four or more ticks, all inside it.
    let axis = LogAxis::around(bucket_start(270), bucket_start(272), 0.0, 100.0);
    let ticks = time_ticks(axis.low, axis.high);
    assert!(ticks.len() >= 4, "{ticks:?}");
    assert!(ticks.iter().all(|t| (axis.low..=axis.high).contains(t)));
    // A wide one, few: one per decade.
    assert_eq!(time_ticks(1e3, 1e9), vec![1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]);
}

#[test]
fn share_axes_end_on_a_round_share() {
    let axis = ShareAxis::fitting(0.0, 100.0, 0.2174);
    assert_eq!((axis.max, axis.step), (0.25, 0.05));
    assert_eq!(ShareAxis::fitting(0.0, 100.0, 0.9).max, 1.0);
    assert_eq!(ShareAxis::fitting(0.0, 100.0, 0.0).max, 0.01);
    assert_eq!(count_step(7), 2);
    assert_eq!(count_step(5), 1);
    assert_eq!(count_step(480), 100);
    assert_eq!(tick_percent(0.025), "2.5%");
    assert_eq!(tick_percent(0.25), "25%");
}
