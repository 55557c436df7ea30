//! Importers: other tools' prefab corpora turned into prefabric packs.
//!
//! In: another tool's files, as text, and the pack to add to. Out: the files
//! of a prefabric pack and a report of what became of every piece of the
//! input — imported, imported with losses, skipped — each loss and skip with
//! its reason and place. An importer never writes a file itself (the command
//! line does), and what it returns always loads: every vault whose translation
//! `check` would reject is taken out and reported.
//!
//! * [`des`] — Dungeon Crawl Stone Soup's `.des` vault files.

pub mod des;

/// True when `tag` can be a prefab tag (one word, no `,` or `#`).
pub(crate) fn valid_tag(tag: &str) -> bool {
    crate::prefab::check_tag(tag).is_ok()
}
