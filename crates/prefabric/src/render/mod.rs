//! Turning maps and prefabs into text and images for people and programs.
//!
//! [`ascii`] draws a map with the palette's render glyphs, [`ansi`] adds terminal
//! colours (placed prefabs stand out), [`json`] writes the documented JSON schema,
//! [`prefab_text`] writes a prefab back in the text prefab syntax, so what
//! `prefabric show` prints can be pasted into a pack, and [`map_xp`] writes maps as
//! REXPaint images and draws any REXPaint image as text (feature `xp`), [`map_png`]
//! draws a map as a PNG image (feature `png`), and [`map_html`] writes the viewer
//! (feature `html`): one HTML file holding the map's JSON and the script that
//! draws and explains it, and [`map_tmj`] and [`map_tmx`] write maps for the
//! Tiled editor with their [`TiledTileset`] (feature `tiled`); [`map_ldtk`] and
//! [`world_ldtk`] write LDtk projects, for the LDtk level editor and the engines
//! that import its files. Renderers only read.

mod ansi;
mod ascii;
mod colour;
#[cfg(feature = "html")]
mod html;
mod json;
mod ldtk;
#[cfg(feature = "png")]
mod png;
mod prefab_text;
#[cfg(feature = "tiled")]
mod tiled;
#[cfg(feature = "xp")]
mod xp;

pub use ansi::{ansi, ansi_window};
pub use ascii::{ascii, ascii_rows, ascii_window, passable_rows, spawn_blocked_rows};
#[cfg(feature = "html")]
pub use html::{HtmlOptions, PageCommand, PageLink, map_html};
pub use json::{json, json_with_trace};
pub use ldtk::{LDTK_GRID_SIZE, LDTK_VERSION, map_ldtk, world_ldtk};
#[cfg(feature = "png")]
pub use png::{Highlight, MAX_PIXELS, MAX_SCALE, PngOptions, map_png};
pub use prefab_text::prefab_text;
#[cfg(feature = "tiled")]
pub use tiled::{
    TILED_TILE_SIZE, TiledOptions, TiledTileset, TilesetPlacement, map_tmj, map_tmx, prefab_tmj, prefab_tmx,
    tiled_world,
};
#[cfg(feature = "xp")]
pub use xp::{XpStyle, map_xp, xp_text};
