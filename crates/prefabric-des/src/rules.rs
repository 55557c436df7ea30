//! The glyph-changing directives of a `.des` map — `SUBST`, `NSUBST`, `SHUFFLE`
//! and `CLEAR` — read and written as prefabric's variation lines.
//!
//! In: a directive's value as written and where it starts. Out: the rules it
//! states ([`Rule`]), each rendered in prefabric's syntax by [`Rule::line`]
//! (`subst`, `subst-once`, `nsubst`, `shuffle`), or the reason it cannot be
//! read. DCSS and prefabric mean the same by each form, so the translation is
//! one to one: `SUBST: a = xy` draws each cell on its own (`subst`), `a : xy`
//! once for all (`subst-once`); `NSUBST` groups `N=` draw per cell and `N:` once
//! for their N cells (`once`), `*` is `rest`; `SHUFFLE: ab/cd` deals blocks. A
//! choice without a weight weighs 10, as in DCSS; [`glyph_sets`] follows which
//! glyphs each rule can leave in a cell, so every glyph an outcome may hold gets
//! a meaning.

use std::collections::BTreeSet;

/// A glyph and its weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The glyph.
    pub glyph: char,
    /// Its weight (DCSS's default is 10).
    pub weight: u32,
}

/// An `NSUBST` group: so many cells (all the rest for `None`) take the choices,
/// each on its own or all alike (`once`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// How many cells; `None` for the rest.
    pub count: Option<u32>,
    /// One draw for the whole group.
    pub once: bool,
    /// What they become.
    pub choices: Vec<Choice>,
}

/// One glyph-changing rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `SUBST`: every cell of the glyphs takes a choice, on its own or all alike.
    Subst {
        /// The glyphs rewritten.
        from: Vec<char>,
        /// What they become.
        choices: Vec<Choice>,
        /// One draw for every cell (`:`).
        once: bool,
    },
    /// `NSUBST`: the cells of the glyphs dealt to the groups.
    Count {
        /// The glyphs rewritten.
        from: Vec<char>,
        /// The groups, in order.
        groups: Vec<Group>,
    },
    /// `SHUFFLE`: blocks of glyphs dealt among each other.
    Shuffle {
        /// The blocks, each the same length.
        blocks: Vec<Vec<char>>,
    },
    /// `CLEAR`: the glyphs' cells leave the vault (don't care).
    Clear {
        /// The glyphs cleared.
        glyphs: Vec<char>,
    },
}

/// The most choices a rule may list (prefabric's own limit).
const MAX_CHOICES: usize = 64;

/// The largest weight prefabric takes.
const MAX_WEIGHT: u32 = 10_000;

/// Reads `SUBST` pairs: `a = xy, bc : d:30 .`.
pub fn subst(value: &str) -> Result<Vec<Rule>, String> {
    let mut rules = Vec::new();
    for pair in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (from, sep, rhs) = split_side(pair)?;
        let choices = choices(rhs)?;
        rules.push(Rule::Subst { from, choices, once: sep == ':' });
    }
    if rules.is_empty() {
        return Err("no `glyphs = choices` pair".into());
    }
    Ok(rules)
}

/// Reads an `NSUBST` line: `a = 2:x / 1=.W / *:c`.
pub fn nsubst(value: &str) -> Result<Vec<Rule>, String> {
    let mut rules = Vec::new();
    // Several rules may share a line, separated by commas (rare).
    for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (from, _, rhs) = split_side(part)?;
        let texts: Vec<&str> = rhs.split('/').map(str::trim).collect();
        let mut groups = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            let last = i + 1 == texts.len();
            groups.push(group(text, last)?);
        }
        if groups.iter().rev().skip(1).any(|g| g.count.is_none()) {
            return Err("`*` (the rest) before the last group".into());
        }
        rules.push(Rule::Count { from, groups });
    }
    if rules.is_empty() {
        return Err("no `glyphs = groups` rule".into());
    }
    Ok(rules)
}

/// Reads a `SHUFFLE` line: `abc, de/fg`.
pub fn shuffle(value: &str) -> Result<Vec<Rule>, String> {
    let mut rules = Vec::new();
    for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let blocks: Vec<Vec<char>> = if part.contains('/') {
            part.split('/').map(|b| b.trim().chars().collect()).collect()
        } else {
            part.chars().filter(|c| !c.is_whitespace()).map(|c| vec![c]).collect()
        };
        if blocks.len() < 2 || blocks.iter().any(|b| b.is_empty() || b.len() != blocks[0].len()) {
            return Err(format!("`{part}` is not two or more blocks of one length"));
        }
        // A glyph written more than once (`cxxx`, `ab/ac`) follows the place it
        // is first written, in DCSS as in prefabric's `shuffle`.
        if blocks.iter().all(|b| *b == blocks[0]) {
            return Err(format!("`{part}` shuffles one block with itself"));
        }
        rules.push(Rule::Shuffle { blocks });
    }
    if rules.is_empty() {
        return Err("nothing to shuffle".into());
    }
    Ok(rules)
}

/// Reads a `CLEAR` line: the glyphs written.
pub fn clear(value: &str) -> Result<Vec<Rule>, String> {
    let glyphs: Vec<char> = value.chars().filter(|c| !c.is_whitespace() && *c != ',').collect();
    if glyphs.is_empty() {
        return Err("no glyph to clear".into());
    }
    Ok(vec![Rule::Clear { glyphs }])
}

/// Splits `LHS sep RHS`, `sep` the first `=` or `:` after at least one glyph.
fn split_side(pair: &str) -> Result<(Vec<char>, char, &str), String> {
    let mut chars = pair.char_indices();
    let Some((_, first)) = chars.next() else { return Err("an empty rule".into()) };
    let mut from = vec![first];
    for (i, c) in chars {
        if c == '=' || c == ':' {
            let rhs = pair[i + c.len_utf8()..].trim();
            let mut seen = BTreeSet::new();
            if !from.iter().all(|&g| seen.insert(g)) {
                return Err(format!("`{}` names a glyph twice", from.iter().collect::<String>()));
            }
            return Ok((from, c, rhs));
        }
        if !c.is_whitespace() {
            from.push(c);
        }
    }
    Err(format!("`{pair}` has no `=` or `:`"))
}

/// Choices as written on a right-hand side: tokens separated by blanks, each
/// `g:WEIGHT` or glyphs weighing 10 each; a glyph written twice adds up.
fn choices(rhs: &str) -> Result<Vec<Choice>, String> {
    let mut out: Vec<Choice> = Vec::new();
    let mut add = |glyph: char, weight: u32| match out.iter_mut().find(|c| c.glyph == glyph) {
        Some(c) => c.weight = c.weight.saturating_add(weight),
        None => out.push(Choice { glyph, weight }),
    };
    for token in rhs.split_whitespace() {
        let mut it = token.chars();
        match (it.next(), it.next(), it.as_str()) {
            (Some(g), Some(':'), digits) if !digits.is_empty() && digits.chars().all(|d| d.is_ascii_digit()) => {
                let weight: u32 = digits.parse().map_err(|_| format!("weight `{digits}` is too large"))?;
                if weight > 0 {
                    add(g, weight);
                }
            }
            _ => token.chars().for_each(|g| add(g, 10)),
        }
    }
    if out.is_empty() {
        return Err("nothing to choose from".into());
    }
    if out.len() > MAX_CHOICES {
        return Err(format!("more than {MAX_CHOICES} choices"));
    }
    // Weights above prefabric's largest keep their proportions.
    let top = out.iter().map(|c| c.weight).max().unwrap_or(1);
    if top > MAX_WEIGHT {
        for c in &mut out {
            c.weight = (u64::from(c.weight) * u64::from(MAX_WEIGHT) / u64::from(top)).max(1) as u32;
        }
    }
    Ok(out)
}

/// One `NSUBST` group: `N:glyphs`, `N=glyphs`, `*:glyphs`, or bare glyphs (one
/// cell on its own, or the rest when last).
fn group(text: &str, last: bool) -> Result<Group, String> {
    let split = text.find([':', '=']).filter(|&i| {
        let count = text[..i].trim();
        i > 0 && (count == "*" || count.chars().all(|c| c.is_ascii_digit()))
    });
    let (count, once, rest) = match split {
        Some(i) => {
            let count = text[..i].trim();
            let once = text[i..].starts_with(':');
            let n = match count {
                "*" => None,
                n => Some(n.parse::<u32>().map_err(|_| format!("count `{n}` is too large"))?),
            };
            (n, once, &text[i + 1..])
        }
        None if last => (None, false, text),
        None => (Some(1), false, text),
    };
    if count == Some(0) {
        return Err("a group of 0 cells".into());
    }
    Ok(Group { count, once, choices: choices(rest)? })
}

impl Rule {
    /// The glyphs whose cells the rule rewrites.
    pub fn from(&self) -> Vec<char> {
        match self {
            Rule::Subst { from, .. } | Rule::Count { from, .. } => from.clone(),
            Rule::Shuffle { blocks } => blocks.iter().flatten().copied().collect(),
            Rule::Clear { glyphs } => glyphs.clone(),
        }
    }

    /// Every glyph the rule may write.
    pub fn writes(&self) -> Vec<char> {
        match self {
            Rule::Subst { choices, .. } => choices.iter().map(|c| c.glyph).collect(),
            Rule::Count { groups, .. } => groups.iter().flat_map(|g| g.choices.iter().map(|c| c.glyph)).collect(),
            Rule::Shuffle { blocks } => blocks.iter().flatten().copied().collect(),
            Rule::Clear { .. } => Vec::new(),
        }
    }

    /// The rule with every glyph renamed by `rename`.
    pub fn renamed(&self, rename: impl Fn(char) -> char) -> Rule {
        let choices = |cs: &[Choice]| cs.iter().map(|c| Choice { glyph: rename(c.glyph), weight: c.weight }).collect();
        match self {
            Rule::Subst { from, choices: cs, once } => {
                Rule::Subst { from: from.iter().map(|&c| rename(c)).collect(), choices: choices(cs), once: *once }
            }
            Rule::Count { from, groups } => Rule::Count {
                from: from.iter().map(|&c| rename(c)).collect(),
                groups: groups
                    .iter()
                    .map(|g| Group { count: g.count, once: g.once, choices: choices(&g.choices) })
                    .collect(),
            },
            Rule::Shuffle { blocks } => {
                Rule::Shuffle { blocks: blocks.iter().map(|b| b.iter().map(|&c| rename(c)).collect()).collect() }
            }
            Rule::Clear { glyphs } => Rule::Clear { glyphs: glyphs.iter().map(|&c| rename(c)).collect() },
        }
    }

    /// The rule as a prefabric variation line: `(key, value)`; `None` for `CLEAR`,
    /// which the importer applies to the drawing itself.
    pub fn line(&self) -> Option<(&'static str, String)> {
        let choices = |cs: &[Choice]| {
            let same = cs.iter().all(|c| c.weight == cs[0].weight);
            let words: Vec<String> = cs
                .iter()
                .map(|c| if same { c.glyph.to_string() } else { format!("{}:{}", c.glyph, c.weight) })
                .collect();
            words.join(" ")
        };
        let glyphs = |gs: &[char]| gs.iter().collect::<String>();
        match self {
            Rule::Subst { from, choices: cs, once } => {
                let key = if *once { "subst-once" } else { "subst" };
                Some((key, format!("{} = {}", glyphs(from), choices(cs))))
            }
            Rule::Count { from, groups } => {
                let parts: Vec<String> = groups
                    .iter()
                    .map(|g| {
                        let count = g.count.map_or("rest".to_string(), |n| n.to_string());
                        let once = if g.once { " once" } else { "" };
                        format!("{count}{once} {}", choices(&g.choices))
                    })
                    .collect();
                Some(("nsubst", format!("{} = {}", glyphs(from), parts.join(" / "))))
            }
            Rule::Shuffle { blocks } => {
                Some(("shuffle", blocks.iter().map(|b| glyphs(b)).collect::<Vec<_>>().join(" ")))
            }
            Rule::Clear { .. } => None,
        }
    }
}

/// The rules that find something to rewrite when they run, on a drawing holding
/// `drawn`: a rule whose glyphs no cell can hold by then is a no-op, in DCSS as
/// here, and is left out.
pub fn live(drawn: &BTreeSet<char>, rules: Vec<Rule>) -> Vec<Rule> {
    let mut present = drawn.clone();
    let mut kept = Vec::new();
    for rule in rules {
        if !rule.from().iter().any(|g| present.contains(g)) {
            continue;
        }
        let mut next = BTreeSet::new();
        for &g in &present {
            next.extend(glyph_sets(g, std::slice::from_ref(&rule)));
        }
        present = next;
        kept.push(rule);
    }
    kept
}

/// The glyphs a cell holding `start` may end with after `rules` run in order.
/// A rule that rewrites a glyph may also leave it (an `NSUBST` without a rest
/// group, a choice that writes it back), so sets only grow where that can be.
pub fn glyph_sets(start: char, rules: &[Rule]) -> BTreeSet<char> {
    let mut set = BTreeSet::from([start]);
    for rule in rules {
        let from = rule.from();
        if !set.iter().any(|g| from.contains(g)) {
            continue;
        }
        let keeps = match rule {
            Rule::Count { groups, .. } => groups.last().is_some_and(|g| g.count.is_some()),
            _ => false,
        };
        let hit: Vec<char> = set.iter().copied().filter(|g| from.contains(g)).collect();
        if !keeps {
            set.retain(|g| !from.contains(g));
        }
        match rule {
            Rule::Shuffle { blocks } => {
                // A glyph may become the glyph at its place in any block.
                for g in hit {
                    if let Some(pos) = blocks.iter().find_map(|b| b.iter().position(|&c| c == g)) {
                        set.extend(blocks.iter().map(|b| b[pos]));
                    }
                }
            }
            _ => set.extend(rule.writes()),
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ch(glyph: char, weight: u32) -> Choice {
        Choice { glyph, weight }
    }

    #[test]
    fn subst_reads_both_forms_weights_and_several_pairs() {
        let rules = subst("a = x., bc : d:30 .").expect("reads");
        assert_eq!(
            rules,
            [
                Rule::Subst { from: vec!['a'], choices: vec![ch('x', 10), ch('.', 10)], once: false },
                Rule::Subst { from: vec!['b', 'c'], choices: vec![ch('d', 30), ch('.', 10)], once: true },
            ]
        );
        let repeated = subst(". = -----....332").expect("reads");
        assert_eq!(
            repeated[0],
            Rule::Subst {
                from: vec!['.'],
                choices: vec![ch('-', 50), ch('.', 40), ch('3', 20), ch('2', 10)],
                once: false
            }
        );
        let odd = subst("= = x").expect("`=` may be a glyph");
        assert_eq!(odd[0].from(), ['=']);
        assert!(subst("a x").is_err());
        assert!(subst("aa = x").is_err());
        assert_eq!(subst("XY=x").expect("no blanks")[0].line(), Some(("subst", "XY = x".to_string())));
        assert_eq!(rules[1].line(), Some(("subst-once", "bc = d:30 .:10".to_string())));
    }

    #[test]
    fn nsubst_reads_counts_modes_defaults_and_the_rest() {
        let r = nsubst("a = 2:x / 1=.W / *:c").expect("reads");
        assert_eq!(
            r[0],
            Rule::Count {
                from: vec!['a'],
                groups: vec![
                    Group { count: Some(2), once: true, choices: vec![ch('x', 10)] },
                    Group { count: Some(1), once: false, choices: vec![ch('.', 10), ch('W', 10)] },
                    Group { count: None, once: true, choices: vec![ch('c', 10)] },
                ],
            }
        );
        assert_eq!(r[0].line(), Some(("nsubst", "a = 2 once x / 1 . W / rest once c".to_string())));
        let bare = nsubst("B = 0 / 1 / 2").expect("bare glyphs");
        let Rule::Count { groups, .. } = &bare[0] else { panic!() };
        assert_eq!(groups.iter().map(|g| g.count).collect::<Vec<_>>(), [Some(1), Some(1), None]);
        assert!(nsubst("a = *:x / 1:y").is_err(), "the rest comes last");
        assert!(nsubst("a = 0:x").is_err());
    }

    #[test]
    fn shuffle_and_clear_read_glyphs_and_blocks() {
        assert_eq!(shuffle("abc").expect("reads")[0], Rule::Shuffle { blocks: vec![vec!['a'], vec!['b'], vec!['c']] });
        assert_eq!(shuffle("ab/cd").expect("reads")[0].line(), Some(("shuffle", "ab cd".to_string())));
        assert!(shuffle("ab/c").is_err());
        assert!(shuffle("aa").is_err());
        assert_eq!(clear("a b").expect("reads"), [Rule::Clear { glyphs: vec!['a', 'b'] }]);
    }

    #[test]
    fn glyph_sets_follow_each_rule() {
        let rules = [subst("a = bc").unwrap(), nsubst("b = 1:d").unwrap(), shuffle("cd/ef").unwrap()].concat();
        // a -> {b, c}; b -> {b, d} (no rest group); shuffle: c -> {c, e}, d -> {d, f}.
        assert_eq!(glyph_sets('a', &rules), BTreeSet::from(['b', 'c', 'd', 'e', 'f']));
        assert_eq!(glyph_sets('x', &rules), BTreeSet::from(['x']));
    }

    #[test]
    fn rules_with_nothing_to_rewrite_are_left_out() {
        let rules =
            [subst("a = b").unwrap(), subst("q = r").unwrap(), subst("b = c").unwrap(), subst("a = d").unwrap()]
                .concat();
        let kept = live(&BTreeSet::from(['a', 'x']), rules);
        // `q` is never drawn; `a` is gone once the first rule has run.
        assert_eq!(kept.iter().map(|r| r.from()).collect::<Vec<_>>(), [vec!['a'], vec!['b']]);
    }
}
