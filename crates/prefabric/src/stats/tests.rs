//! Unit tests of the statistics' derived figures: the 95% interval holds the
//! share and narrows with more maps.

use super::finish::wilson;
use super::*;

#[test]
fn the_wilson_interval_holds_the_share_and_narrows_with_more_maps() {
    let [lo, hi] = wilson(50, 100);
    assert!(lo < 0.5 && 0.5 < hi && (hi - lo - 0.19).abs() < 0.01, "{lo} {hi}");
    let [lo2, hi2] = wilson(5000, 10000);
    assert!(hi2 - lo2 < 0.02);
    assert_eq!(wilson(0, 0), [0.0, 1.0]);
    let [lo, hi] = wilson(0, 100);
    assert!(lo == 0.0 && hi > 0.03 && hi < 0.04, "{hi}");
}

#[test]
fn an_ineligible_encounter_says_which_cause_kept_it_out() {
    let seen = |depth| Seen { count: 3, example_seed: 0, example_depth: depth };
    let e = EncounterStats {
        weight_word: "rare".into(),
        weight: 2,
        depths: vec![[2, 4], [9, 9]],
        ..EncounterStats::default()
    };
    assert_eq!(e.why("ineligible", &seen(1)), "not eligible: depth 1 is outside its depths 2-4, 9");
    assert_eq!(e.why("ineligible", &seen(3)), "not eligible: used up in the world (max_per_world)");
    assert_eq!(e.why("limit", &seen(3)), describe("limit"));
    let weightless = EncounterStats { weight_word: "never".into(), weight: 0, ..e.clone() };
    assert_eq!(weightless.why("ineligible", &seen(1)), "not eligible: its weight `never` is 0");
    let anywhere = EncounterStats { depths: Vec::new(), ..e };
    assert_eq!(anywhere.why("ineligible", &seen(1)), "not eligible: used up in the world (max_per_world)");
}

#[test]
fn time_quantiles_come_from_the_buckets() {
    let mut t = TimeStats::default();
    for ms in 1..=100u64 {
        t.record(Duration::from_micros(ms * 10), ms, 1);
    }
    // The median map took 0.5 ms, the 99th 0.99 ms: to the bucket's 5%.
    assert!((t.quantile(0.5) / 0.5 - 1.0).abs() < 0.05, "{}", t.quantile(0.5));
    assert!((t.quantile(0.99) / 0.99 - 1.0).abs() < 0.05, "{}", t.quantile(0.99));
    assert_eq!(t.slowest.as_ref().map(|s| s.seed), Some(100));
}
