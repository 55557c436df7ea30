//! Skips: what a generation left out of a map, and why: encounters taken out
//! of the running and optional feature placements that fit nowhere.
//!
//! In: what the features and encounters stages decide. Out: [`EncounterSkip`]
//! with its [`SkipReason`], and [`FeatureSkip`]. The trace says the same in
//! words; these are for statistics and the JSON.

/// Why an encounter left a map without being placed.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// Never eligible for this map: weight 0, outside its depths, or used up
    /// in the world.
    Ineligible,
    /// Placed as often as its per-map or per-world limit allows.
    Limit,
    /// Another encounter of its exclusion group was placed, or one of its world
    /// group used up the group's `max_per_world`.
    Excluded,
    /// No free room or cavern of the access or size it needs, or none where
    /// one of its prefabs fits (crowded, wrong doors, no rock to sink it into).
    NoPlace,
    /// Every room or cavern it was tried in was too small for each of its
    /// prefabs in every orientation.
    TooLarge,
}

impl SkipReason {
    /// Lower-case name, as in statistics.
    pub const fn name(self) -> &'static str {
        match self {
            SkipReason::Ineligible => "ineligible",
            SkipReason::Limit => "limit",
            SkipReason::Excluded => "excluded",
            SkipReason::NoPlace => "no-place",
            SkipReason::TooLarge => "too-large",
        }
    }
}

/// An encounter the encounters stage took out of the running for a map, and
/// why (the trace says the same in words).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterSkip {
    /// The encounter's id.
    pub id: String,
    /// Why.
    pub reason: SkipReason,
}

/// A feature placement the features stage skipped for a map (an optional
/// one that fit nowhere), and why (the trace says the same in words).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureSkip {
    /// The prefabs the placement chooses from.
    pub prefabs: Vec<String>,
    /// Why it was skipped, in words.
    pub reason: String,
}
