//! Reading one section of a map type: numbers checked against their ranges, every
//! problem reported at the span it was written at.
//!
//! [`SectionReader`] holds where errors go and how spans become `file:line:col`
//! locations; the sections (`[furnishing]`, `[chain]`) add their own readers on top
//! of it in their modules. A value out of range is reported once and replaced by
//! its default, so one mistake never hides the next.

use super::values::{WeightFile, WeightWords};
use crate::error::{Error, ErrorKind, Location};
use toml::Spanned;

/// A byte range in the map type's source.
pub(crate) type Span = std::ops::Range<usize>;

/// Where a section's problems go.
pub(crate) struct SectionReader<'a> {
    /// Turns a span into a location in the file.
    pub at: &'a dyn Fn(Span) -> Location,
    /// The problems found so far.
    pub errors: &'a mut Vec<Error>,
    /// Put before messages about a value (e.g. `[chain]: `), so a message names
    /// its section.
    pub prefix: &'static str,
}

impl SectionReader<'_> {
    /// Reports a problem at `span`, with a hint.
    pub fn invalid(&mut self, span: Span, message: String, help: Option<String>) {
        let mut e = Error::at(ErrorKind::Invalid, (self.at)(span), message);
        if let Some(h) = help {
            e = e.with_help(h);
        }
        self.errors.push(e);
    }

    /// The section's name as its prefix gives it: `chain` for `[chain]: `.
    pub fn section(&self) -> &'static str {
        self.prefix.trim_start_matches('[').trim_end_matches(": ").trim_end_matches(']')
    }

    /// A weight written as a number or one of the pack's weight words; 0 after
    /// an error.
    pub fn weight(&mut self, w: &Spanned<WeightFile>, words: &WeightWords) -> u32 {
        words.resolve(w.get_ref()).unwrap_or_else(|(message, help)| {
            self.invalid(w.span(), message, help);
            0
        })
    }

    /// A number in `range`, or `default` when absent (and after an error).
    pub fn number(
        &mut self,
        v: &Option<Spanned<i64>>,
        what: &str,
        range: std::ops::RangeInclusive<i64>,
        default: i64,
    ) -> i64 {
        match v {
            None => default,
            Some(n) if range.contains(n.get_ref()) => *n.get_ref(),
            Some(n) => {
                let message =
                    format!("{}{what} {} must be {}-{}", self.prefix, n.get_ref(), range.start(), range.end());
                self.invalid(n.span(), message, None);
                default
            }
        }
    }
}
