//! The record of one generation's decisions and rejections.
//!
//! Stages append [`Event`]s as they choose a feature variant, place or skip a prefab,
//! fall back to a connecting corridor, or retry. An event that concerns one part
//! of the map (a prefab placed, a room that refused an encounter, a try that did
//! not fit) carries that rectangle as its place. The trace is what `--explain`
//! prints, what `--format json` lists with `--explain`, and what the HTML viewer's
//! timeline steps through; it is never read back by a later stage.
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
