//! Game keywords the catalog declares: what the game reads from definition lines
//! beyond the built-in keywords, per kind of object, with the values each takes.
//!
//! A catalog file may hold `[keywords.KIND]` tables (`KIND` one of entity, item,
//! prop, trap, debris) mapping an upper-case keyword to what it takes:
//!
//! ```toml
//! [keywords.prop]
//! LIT = "yes|no"        # one of these words
//! LIGHT = "1..9"        # an integer in this range
//! CONTROLS = "*"        # any value
//! SEALED = ""           # no value: a flag
//! ```
//!
//! Once a kind has a table, every game keyword a definition line of that kind
//! writes is checked against it: a keyword the table lacks is a warning (a typo,
//! or a declaration to add), a value it does not allow an error — both at the
//! keyword's `file:line:col`. Every value a line could draw is checked (each of
//! `a|b`, both ends of `lo..hi` and `v~d`). Kinds without a table are not
//! checked, so a pack that declares nothing loads as before.

use super::kind::Kind;
use crate::format::def::{BUILT_IN_KEYWORDS, Keyword, Value};
use std::collections::BTreeMap;

/// What a declared game keyword takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Allowed {
    /// No value: the keyword is a flag (`""`).
    Flag,
    /// Any value (`"*"`).
    Any,
    /// One of these words (`"yes|no"`).
    Words(Vec<String>),
    /// An integer in this inclusive range (`"1..9"`).
    Numbers(i64, i64),
}

impl Allowed {
    /// Reads a declaration as the catalog writes it; `None` when it is none of
    /// the four forms.
    pub fn parse(spec: &str) -> Option<Allowed> {
        let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
        match spec {
            "" => Some(Allowed::Flag),
            "*" => Some(Allowed::Any),
            _ => {
                if let Some((lo, hi)) = spec.split_once("..") {
                    let (lo, hi) = (lo.parse::<i64>().ok()?, hi.parse::<i64>().ok()?);
                    return (lo <= hi).then_some(Allowed::Numbers(lo, hi));
                }
                let words: Vec<&str> = spec.split('|').collect();
                words.iter().all(|w| word(w)).then(|| Allowed::Words(words.into_iter().map(str::to_string).collect()))
            }
        }
    }
}

impl std::fmt::Display for Allowed {
    /// What it allows, as a phrase for messages.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Allowed::Flag => write!(f, "no value"),
            Allowed::Any => write!(f, "any value"),
            Allowed::Words(ws) => write!(f, "one of {}", ws.join(", ")),
            Allowed::Numbers(lo, hi) => write!(f, "an integer from {lo} to {hi}"),
        }
    }
}

/// The game keywords a catalog declares, per kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameKeywords {
    declared: BTreeMap<Kind, BTreeMap<String, Allowed>>,
}

/// What is wrong with a game keyword as a line writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeywordProblem {
    /// The kind declares keywords and not this one: a warning. Holds the closest
    /// declared name, if one is close.
    Unknown(Option<String>),
    /// The keyword is declared and the line gives a value it does not allow: an
    /// error. Holds the message.
    Value(String),
}

impl GameKeywords {
    /// Declares `name` for `kind`; false when it already was.
    pub(crate) fn declare(&mut self, kind: Kind, name: &str, allowed: Allowed) -> bool {
        self.declared.entry(kind).or_default().insert(name.to_string(), allowed).is_none()
    }

    /// True when the catalog declares keywords for `kind`.
    pub fn declares(&self, kind: Kind) -> bool {
        self.declared.contains_key(&kind)
    }

    /// What `name` takes on `kind`, if declared.
    pub fn allowed(&self, kind: Kind, name: &str) -> Option<&Allowed> {
        self.declared.get(&kind)?.get(name)
    }

    /// Checks a game keyword of a line of `kind`; `None` when it is fine or the
    /// kind declares nothing. Built-in keywords are not the catalog's and pass.
    pub fn check(&self, kind: Kind, keyword: &Keyword) -> Option<KeywordProblem> {
        let table = self.declared.get(&kind)?;
        if BUILT_IN_KEYWORDS.contains(&keyword.name.as_str()) {
            return None;
        }
        let Some(allowed) = table.get(&keyword.name) else {
            let closest = crate::format::suggest(&keyword.name, table.keys().map(String::as_str));
            return Some(KeywordProblem::Unknown(closest.map(str::to_string)));
        };
        value_problem(&keyword.name, keyword.value.as_ref(), allowed).map(KeywordProblem::Value)
    }
}

/// Why `value` (as written for keyword `name`) is not what `allowed` allows.
fn value_problem(name: &str, value: Option<&Value>, allowed: &Allowed) -> Option<String> {
    let wrong = |v: &str| Some(format!("{name}={v}: {name} takes {allowed}"));
    let (value, allowed) = match (value, allowed) {
        (None, Allowed::Flag) => return None,
        (Some(v), Allowed::Flag) => return wrong(&v.to_string()),
        (None, _) => return Some(format!("{name} needs a value: it takes {allowed}")),
        (Some(_), Allowed::Any) => return None,
        (Some(v), a) => (v, a),
    };
    let fits = |v: &str| match allowed {
        Allowed::Words(ws) => ws.iter().any(|w| w == v),
        Allowed::Numbers(lo, hi) => v.parse::<i64>().is_ok_and(|n| (*lo..=*hi).contains(&n)),
        Allowed::Flag | Allowed::Any => true,
    };
    let drawn: Vec<String> = match value {
        Value::One(v) => vec![v.clone()],
        Value::OneOf(vs) => vs.clone(),
        Value::Weighted(vs) => vs.iter().map(|(v, _)| v.clone()).collect(),
        Value::Range(..) | Value::Around(..) => {
            let (lo, hi) = value.bounds().unwrap_or_default();
            vec![lo.to_string(), hi.to_string()]
        }
    };
    drawn.iter().find(|v| !fits(v)).and_then(|v| {
        let whole = value.to_string();
        if whole == *v { wrong(v) } else { Some(format!("{name}={whole} can give {v}: {name} takes {allowed}")) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyword(text: &str) -> Keyword {
        let line = format!("a prop x {text}\n");
        let (lines, errors) = crate::format::def::parse("d.def", &line, &crate::limits::Limits::default());
        assert!(errors.is_empty(), "{errors:?}");
        lines[0].keywords[0].clone()
    }

    #[test]
    fn declarations_parse_in_four_forms() {
        assert_eq!(Allowed::parse(""), Some(Allowed::Flag));
        assert_eq!(Allowed::parse("*"), Some(Allowed::Any));
        assert_eq!(Allowed::parse("yes|no"), Some(Allowed::Words(vec!["yes".into(), "no".into()])));
        assert_eq!(Allowed::parse("-2..9"), Some(Allowed::Numbers(-2, 9)));
        for bad in ["9..2", "yes||no", "a b", "1..x"] {
            assert_eq!(Allowed::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_value_a_line_can_draw_is_checked() {
        let mut k = GameKeywords::default();
        k.declare(Kind::Prop, "LIT", Allowed::parse("yes|no").unwrap());
        k.declare(Kind::Prop, "LIGHT", Allowed::parse("1..9").unwrap());
        k.declare(Kind::Prop, "SEALED", Allowed::Flag);
        k.declare(Kind::Prop, "CONTROLS", Allowed::Any);
        let check = |text: &str| k.check(Kind::Prop, &keyword(text));
        for fine in ["LIT=yes", "LIT=yes*3|no", "LIGHT=5~2", "LIGHT=1..9", "SEALED", "CONTROLS=lift", "30%:SHIFT=1"] {
            assert_eq!(check(fine), None, "{fine}");
        }
        let value = |text: &str| match check(text) {
            Some(KeywordProblem::Value(m)) => m,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(value("LIT=maybe"), "LIT=maybe: LIT takes one of yes, no");
        assert_eq!(value("LIT=yes|dim"), "LIT=yes|dim can give dim: LIT takes one of yes, no");
        assert_eq!(value("LIGHT=8~2"), "LIGHT=8~2 can give 10: LIGHT takes an integer from 1 to 9");
        assert_eq!(value("LIGHT=bright"), "LIGHT=bright: LIGHT takes an integer from 1 to 9");
        assert_eq!(value("SEALED=yes"), "SEALED=yes: SEALED takes no value");
        assert_eq!(value("CONTROLS"), "CONTROLS needs a value: it takes any value");
        assert_eq!(check("LITE=yes"), Some(KeywordProblem::Unknown(Some("LIT".into()))));
        // A kind with no table is not checked.
        assert_eq!(k.check(Kind::Trap, &keyword("ANYTHING=at_all")), None);
    }
}
