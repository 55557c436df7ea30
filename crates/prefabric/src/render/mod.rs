//! Turning maps and prefabs into text for people and programs.
//!
//! [`ascii`] draws a map with the palette's render glyphs, [`ansi`] adds terminal
//! colours (placed prefabs stand out), [`json`] writes the documented JSON schema,
//! and [`prefab_text`] writes a prefab back in the text prefab syntax, so what
//! `prefabric show` prints can be pasted into a pack. Renderers only read.

mod ansi;
mod ascii;
mod json;
mod prefab_text;

pub use ansi::ansi;
pub use ascii::{ascii, ascii_rows, passable_rows, spawn_blocked_rows};
pub use json::json;
pub use prefab_text::prefab_text;
