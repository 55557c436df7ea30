//! The prefab a placement put down, as its variation drew it: what the stages
//! after placing (objects, validation) read a placed prefab's layers from.

use crate::content::Pack;
use crate::map::PlacedPrefab;
use crate::prefab::Prefab;
use std::borrow::Cow;

/// The prefab a placement put down, in the outcome its variation drew (not
/// turned); the pack's prefab itself when it does not vary.
pub(crate) fn placed_prefab<'p>(pack: &'p Pack, placed: &PlacedPrefab) -> Option<Cow<'p, Prefab>> {
    let prefab = pack.prefab(&placed.name)?;
    Some(match placed.variant {
        Some(seed) => prefab.variant(seed),
        None => Cow::Borrowed(prefab),
    })
}
