//! The record of one generation's decisions and rejections.
//!
//! Stages append [`Event`]s as they choose a feature variant, place or skip a prefab,
//! fall back to a connecting corridor, or retry. An event that concerns one part
//! of the map (a prefab placed, a room that refused an encounter, a try that did
//! not fit) carries that rectangle as its place. The trace is what `--explain`
//! prints, what `--format json` lists with `--explain`, and what the HTML viewer's
//! timeline steps through; it is never read back by a later stage.
//!
//! The commonest messages are written by pieces (the crate's own `Note`),
//! which spares them the formatting machinery's cost.
//!
//! A trace may be switched off ([`crate::Generator::trace`]) when nobody will
//! read it: it then records nothing, and stages skip writing their messages, so
//! generating many maps does not pay for text no one sees. Whether it is on never
//! changes a map.

use crate::geom::Rect;
use std::fmt;

/// What an event records.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Something was chosen or placed.
    Chose,
    /// Something optional was left out, with the reason.
    Skipped,
    /// A fact worth knowing: counts, fallbacks, retries.
    Note,
}

impl Outcome {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Chose => "chose",
            Outcome::Skipped => "skipped",
            Outcome::Note => "note",
        }
    }
}

/// One decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The stage that made it: `features`, `layout`, `validate`, `generate`.
    pub stage: &'static str,
    /// What kind of decision.
    pub outcome: Outcome,
    /// What happened, for people.
    pub message: String,
    /// The part of the map it concerns, when it concerns one.
    pub place: Option<Rect>,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}: {}", self.stage, self.outcome.name(), self.message)
    }
}

/// Every decision of one generation, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    events: Vec<Event>,
    /// Records nothing.
    off: bool,
}

impl Trace {
    /// A trace that records nothing.
    pub(crate) fn off() -> Trace {
        Trace { events: Vec::new(), off: true }
    }

    /// True when events are recorded: stages write costly messages only then.
    pub fn is_on(&self) -> bool {
        !self.off
    }

    /// Appends an event.
    pub fn push(&mut self, stage: &'static str, outcome: Outcome, message: impl Into<String>) {
        if self.off {
            return;
        }
        self.events.push(Event { stage, outcome, message: message.into(), place: None });
    }

    /// Appends an event about one part of the map whose message is written only
    /// when the trace is on.
    pub(crate) fn push_with(
        &mut self,
        stage: &'static str,
        outcome: Outcome,
        place: impl Into<Option<Rect>>,
        message: impl FnOnce() -> String,
    ) {
        if self.off {
            return;
        }
        self.events.push(Event { stage, outcome, message: message(), place: place.into() });
    }

    /// Appends an event about one part of the map.
    /// `place` may be a [`Rect`] or an `Option<Rect>`.
    pub fn push_at(
        &mut self,
        stage: &'static str,
        outcome: Outcome,
        place: impl Into<Option<Rect>>,
        message: impl Into<String>,
    ) {
        if self.off {
            return;
        }
        self.events.push(Event { stage, outcome, message: message.into(), place: place.into() });
    }

    /// The events in the order they happened.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
}

/// Writes a trace message into a `String` a piece at a time: text as it is,
/// numbers through `itoa`. The commonest messages of a map (one or two per
/// furnished room) are written this way: `write!` spends about a thousand
/// instructions on a message with a handful of numbers, most of them on the
/// numbers, and a traced map writes a few hundred such messages.
pub(crate) struct Note<'s>(pub &'s mut String);

impl Note<'_> {
    /// Appends `text`.
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.0.push_str(text);
        self
    }

    /// Appends `n` in decimal.
    pub fn int(&mut self, n: impl itoa::Integer) -> &mut Self {
        self.0.push_str(itoa::Buffer::new().format(n));
        self
    }

    /// Appends `(x, y)`.
    pub fn at(&mut self, x: i32, y: i32) -> &mut Self {
        self.text("(").int(x).text(", ").int(y).text(")")
    }
}

#[cfg(test)]
mod tests {
    use super::Note;

    #[test]
    fn a_note_written_by_pieces_reads_as_the_same_note_formatted() {
        let (id, x, y) = (115u32, -3i32, 46i32);
        let mut message = String::new();
        Note(&mut message).text("room ").int(id).text(" at ").at(x, y).text(": ").int(0u32).text(" placed");
        assert_eq!(message, format!("room {id} at ({x}, {y}): 0 placed"));
    }
}
