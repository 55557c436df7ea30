//! Where a vault may appear and how often: DCSS depth specs and weights read
//! into prefabric's absolute depth ranges and integer weights.
//!
//! In: the values of `DEPTH`, `PLACE`, `default-depth` and `WEIGHT` lines. Out:
//! an inclusive range of absolute depths, a weight, and what could not be kept.
//! DCSS names levels by branch (`D:3-8`, `Lair`, `Zot:$`); prefabric's map types
//! have one depth number, so each branch level becomes an absolute depth through
//! [`BRANCHES`]: the levels of the Dungeon are depths 1-15, and every other
//! branch sits where a typical game reaches it. This is a convention of the
//! importer, not a fact of DCSS (which varies branch entries from game to
//! game); it keeps a vault's early and late appearances in order. Terms far
//! apart stay apart (an encounter takes a list of depth ranges), and `!`
//! exclusions take their depths out.

/// Each branch: its DCSS names, the absolute depth of its first level and its
/// number of levels.
pub const BRANCHES: [(&[&str], u32, u32); 29] = [
    (&["D", "Dungeon"], 1, 15),
    (&["Temple"], 6, 1),
    (&["Orc"], 4, 2),
    (&["Elf"], 6, 3),
    (&["Lair"], 9, 5),
    (&["Swamp"], 12, 4),
    (&["Shoals"], 12, 4),
    (&["Snake"], 12, 4),
    (&["Spider"], 12, 4),
    (&["Slime"], 14, 5),
    (&["Vaults"], 14, 5),
    (&["Crypt"], 16, 3),
    (&["Tomb"], 19, 3),
    (&["Depths"], 16, 4),
    (&["Zot"], 20, 5),
    (&["Hell"], 20, 1),
    (&["Dis", "Geh", "Gehenna", "Coc", "Cocytus", "Tar", "Tartarus"], 21, 7),
    (&["Abyss"], 20, 7),
    (&["Pan"], 22, 1),
    (&["Zig", "Ziggurat"], 20, 27),
    (&["Sewer"], 3, 1),
    (&["Ossuary"], 5, 1),
    (&["Bailey"], 7, 1),
    (&["Gauntlet"], 7, 1),
    (&["IceCv", "IceCave"], 10, 1),
    (&["Volcano"], 11, 1),
    (&["Lab", "Labyrinth"], 12, 1),
    (&["Bazaar", "Trove", "WizLab", "Desolation", "Arena", "Crucible"], 10, 1),
    (&["Tutorial", "Sprint"], 1, 27),
];

/// The deepest depth the importer gives (the deepest branch level above).
pub const DEEPEST: u32 = 27;

/// An inclusive range of absolute depths.
pub type Depths = (u32, u32);

/// What a depth spec says: the ranges, and what could not be kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepthSpec {
    /// The depths the terms name, less the excluded ones, as sorted, disjoint
    /// ranges; empty when no term names a level.
    pub ranges: Vec<Depths>,
    /// What could not be kept exactly, in words.
    pub losses: Vec<String>,
}

/// Reads a depth spec: comma-separated terms `Branch`, `Branch:N`, `Branch:N-M`,
/// `Branch:N-`, `Branch:$`, bare `N-M` (absolute); a `!` before a term takes its
/// depths out. Unknown branch names are reported and skipped.
pub fn spec(value: &str) -> DepthSpec {
    let mut out = DepthSpec::default();
    let (mut taken, mut excluded) = (Vec::new(), Vec::new());
    for term in value.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (list, term) = match term.strip_prefix('!') {
            Some(t) => (&mut excluded, t.trim()),
            None => (&mut taken, term),
        };
        match term_range(term) {
            Some(r) => list.push(r),
            None => out.losses.push(format!("depth term `{term}` not understood")),
        }
    }
    out.ranges = subtract(&union(taken), &excluded);
    out
}

/// Sorted, disjoint ranges covering every depth of `ranges` (touching ones
/// joined).
pub fn union(mut ranges: Vec<Depths>) -> Vec<Depths> {
    ranges.sort_unstable();
    let mut out: Vec<Depths> = Vec::new();
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo <= last.1 + 1 => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// `ranges` without the depths of `cut`.
fn subtract(ranges: &[Depths], cut: &[Depths]) -> Vec<Depths> {
    let mut out = Vec::new();
    for &(lo, hi) in ranges {
        let mut pieces = vec![(lo, hi)];
        for &(clo, chi) in cut {
            pieces = pieces
                .into_iter()
                .flat_map(|(a, b)| {
                    let mut left = Vec::new();
                    if clo > a {
                        left.push((a, b.min(clo - 1)));
                    }
                    if chi < b {
                        left.push((a.max(chi + 1), b));
                    }
                    if clo > b || chi < a { vec![(a, b)] } else { left }
                })
                .collect();
        }
        out.extend(pieces);
    }
    union(out)
}

/// The absolute depths of one term.
fn term_range(term: &str) -> Option<Depths> {
    if term.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        let (lo, hi) = numbers(term)?;
        return Some((lo.clamp(1, DEEPEST), hi.clamp(1, DEEPEST)));
    }
    let (name, levels) = match term.split_once(':') {
        Some((n, l)) => (n.trim(), Some(l.trim())),
        None => (term, None),
    };
    let &(_, first, count) =
        BRANCHES.iter().find(|(names, _, _)| names.iter().any(|n| n.eq_ignore_ascii_case(name)))?;
    let (lo, hi) = match levels {
        None | Some("*") => (1, count),
        Some("$") => (count, count),
        Some(l) => {
            let l = if l.ends_with('-') { format!("{l}$") } else { l.to_string() };
            let (lo, hi) = numbers(&l.replace('$', &count.to_string()))?;
            (lo.clamp(1, count), hi.clamp(1, count))
        }
    };
    Some((first + lo - 1, first + hi - 1))
}

/// `N` or `N-M`; `N-` runs to the branch's last level, written as `$`.
fn numbers(text: &str) -> Option<(u32, u32)> {
    match text.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            (a <= b).then_some((a, b))
        }
        None => {
            let n = text.trim().parse().ok()?;
            Some((n, n))
        }
    }
}

/// A `WEIGHT` line: the plain weight, and whether some weight was qualified by
/// depth (`40 (D:2-5), 10`), which prefabric cannot keep.
pub fn weight(value: &str) -> Result<(u32, bool), String> {
    let mut plain = None;
    let mut qualified = false;
    for part in split_outside_parens(value) {
        let part = part.trim();
        if part.contains('(') {
            qualified = true;
            continue;
        }
        plain = Some(part.parse::<u32>().map_err(|_| format!("`{part}` is not a weight"))?);
    }
    match (plain, qualified) {
        (Some(w), q) => Ok((w, q)),
        // Only depth-qualified weights: DCSS's default 10 elsewhere.
        (None, true) => Ok((10, true)),
        (None, false) => Err("no weight".into()),
    }
}

/// Splits at commas that are not inside parentheses.
fn split_outside_parens(value: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in value.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                parts.push(&value[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&value[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_levels_become_absolute_depths() {
        assert_eq!(spec("D:3-8").ranges, [(3, 8)]);
        assert_eq!(spec("Lair").ranges, [(9, 13)]);
        assert_eq!(spec("Zot:$").ranges, [(24, 24)]);
        assert_eq!(spec("D:7-").ranges, [(7, 15)], "to the branch's end");
        assert_eq!(spec("Lair:2-$").ranges, [(10, 13)]);
        assert_eq!(spec("D:2, D:4").ranges, [(2, 2), (4, 4)]);
        assert_eq!(spec("D:2-3, D:4").ranges, [(2, 4)], "touching ranges join");
        assert_eq!(spec("4-9").ranges, [(4, 9)]);
        assert_eq!(spec("Elf, Depths").ranges, [(6, 8), (16, 19)], "apart, as written");
        let s = spec("D:1-3, Zot, !Zot:$");
        assert_eq!(s.ranges, [(1, 3), (20, 23)], "an exclusion takes its depths out");
        assert!(s.losses.is_empty(), "{:?}", s.losses);
        assert_eq!(spec("Vaults, !Vaults:2-3").ranges, [(14, 14), (17, 18)]);
        assert_eq!(spec("Nowhere").ranges, []);
        assert_eq!(spec("Nowhere").losses.len(), 1);
        assert_eq!(spec("").ranges, []);
    }

    #[test]
    fn weights_keep_the_plain_value_and_say_when_one_was_qualified() {
        assert_eq!(weight("5"), Ok((5, false)));
        assert_eq!(weight("40 (D:2-5), 5 (Lair), 10"), Ok((10, true)));
        assert_eq!(weight("40 (D:2-5)"), Ok((10, true)));
        assert!(weight("lots").is_err());
    }
}
