//! How an object line's alternatives become the picks of a definition line:
//! weights divided by their greatest common divisor (`tag*w`), a group's lines
//! repeated by weight, and the keywords every alternative shares.
//!
//! In: the [`Alt`]s of one line. Out: the picks as written, and whether they
//! keep DCSS's weights exactly — the translation (`vault`) counts a loss when
//! they do not, and the writer (`write`) writes them.

use super::objects::Alt;

/// Alternatives as picks: `tag`, or `tag*w` when the weights differ (divided by
/// their greatest common divisor; above 1000, scaled down to fit).
pub fn weighted_picks(alts: &[Alt]) -> Vec<String> {
    let gcd = alts.iter().map(|a| a.weight).fold(0, gcd_of).max(1);
    let same = alts.iter().all(|a| a.weight == alts[0].weight);
    let top = alts.iter().map(|a| a.weight / gcd).max().unwrap_or(1);
    alts.iter()
        .map(|a| {
            if same {
                return a.tag.clone();
            }
            let w = a.weight / gcd;
            let w = if top > 1000 { (u64::from(w) * 1000 / u64::from(top)).max(1) as u32 } else { w };
            format!("{}*{w}", a.tag)
        })
        .collect()
}

/// The most lines a group may repeat alternatives over to weigh them.
const MOST_GROUP_LINES: u32 = 24;

/// Alternatives drawn once for every cell, as a group's lines: each repeated
/// by its weight (divided by their greatest common divisor), or once each when
/// that would take more than [`MOST_GROUP_LINES`] lines.
pub fn group_picks(alts: &[Alt]) -> Vec<String> {
    let gcd = alts.iter().map(|a| a.weight).fold(0, gcd_of).max(1);
    let total: u32 = alts.iter().map(|a| a.weight / gcd).sum();
    let repeat = |a: &Alt| if total <= MOST_GROUP_LINES { (a.weight / gcd).max(1) } else { 1 };
    alts.iter().flat_map(|a| std::iter::repeat_n(a.tag.clone(), repeat(a) as usize)).collect()
}

/// True when the written picks keep the alternatives' weights exactly: one
/// line's weights up to 1000, a group's repeated lines up to [`MOST_GROUP_LINES`].
pub fn weights_kept(alts: &[Alt], once: bool) -> bool {
    let gcd = alts.iter().map(|a| a.weight).fold(0, gcd_of).max(1);
    let same = alts.iter().all(|a| a.weight == alts[0].weight);
    if once {
        same || alts.iter().map(|a| a.weight / gcd).sum::<u32>() <= MOST_GROUP_LINES
    } else {
        alts.iter().all(|a| a.weight / gcd <= 1000)
    }
}

/// The keywords every alternative has, in the first's order.
pub fn common_keywords(alts: &[Alt]) -> Vec<String> {
    let Some(first) = alts.first() else { return Vec::new() };
    first.keywords.iter().filter(|k| alts.iter().all(|a| a.keywords.contains(k))).cloned().collect()
}

/// The greatest common divisor of `a` and `b` (`a` when `b` is 0).
fn gcd_of(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd_of(b, a % b) }
}
