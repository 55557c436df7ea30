//! The files a map or a world written for Tiled takes: the map (`.tmj` or
//! `.tmx`), its tileset image and, unless embedded in the map, its tileset
//! file; for a world, one map per level sharing one tileset, and a `.world`
//! file that lays them side by side.
//!
//! In: generated maps, their pack, a path and the user's choices. Out: the
//! files, each written whole or not at all, and the list of what was written.

use crate::{Failure, write_atomically};
use clap::ValueEnum;
use prefabric::render::{self, TiledOptions, TiledTileset, TilesetPlacement};
use prefabric::{Map, Pack};
use std::path::{Path, PathBuf};

/// Tiled's two map formats.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum TiledFormat {
    /// `.tmj`, with a `.tsj` tileset.
    Json,
    /// `.tmx`, with a `.tsx` tileset.
    Xml,
}

impl TiledFormat {
    pub(crate) fn map_extension(self) -> &'static str {
        match self {
            TiledFormat::Json => "tmj",
            TiledFormat::Xml => "tmx",
        }
    }

    fn tileset_extension(self) -> &'static str {
        match self {
            TiledFormat::Json => "tsj",
            TiledFormat::Xml => "tsx",
        }
    }
}

/// Where `--tileset` puts the tileset of a Tiled map.
#[derive(Copy, Clone, PartialEq, Eq, Default, ValueEnum)]
pub(crate) enum TilesetChoice {
    /// In a tileset file beside the map (.tsj or .tsx), which other maps can share.
    #[default]
    External,
    /// Inside the map file.
    Embedded,
}

/// Writes `map` to `path` with its tileset beside it, named after the map
/// (`NAME-tiles.png`, `NAME-tiles.tsj`); returns the files written.
pub(crate) fn write_map(
    map: &Map,
    pack: &Pack,
    path: &Path,
    format: TiledFormat,
    choice: TilesetChoice,
    command: String,
) -> Result<Vec<PathBuf>, Failure> {
    let stem = path.file_stem().map_or("map".into(), |s| s.to_string_lossy().into_owned());
    let tileset = TiledTileset::of_maps([map], pack);
    let dir = path.parent().unwrap_or(Path::new(""));
    let tiles = format!("{stem}-tiles");
    let mut written = write_tileset(&tileset, dir, &tiles, format, choice)?;
    let options = TiledOptions { tileset: placement(&tiles, format, choice), command: Some(command) };
    write_atomically(path, map_text(map, pack, &tileset, &options, format).as_bytes())?;
    written.push(path.to_path_buf());
    Ok(written)
}

/// Writes each level as `dir/NAME` (the names given), one tileset for all
/// (`tiles.png`, `tiles.tsj`) and `world.world`; returns the files written.
pub(crate) fn write_world(
    levels: &[(String, Map, String)],
    pack: &Pack,
    dir: &Path,
    format: TiledFormat,
    choice: TilesetChoice,
) -> Result<Vec<PathBuf>, Failure> {
    let tileset = TiledTileset::of_maps(levels.iter().map(|(_, map, _)| map), pack);
    let mut written = write_tileset(&tileset, dir, "tiles", format, choice)?;
    for (name, map, command) in levels {
        let options = TiledOptions { tileset: placement("tiles", format, choice), command: Some(command.clone()) };
        let path = dir.join(name);
        write_atomically(&path, map_text(map, pack, &tileset, &options, format).as_bytes())?;
        written.push(path);
    }
    let placed: Vec<(&str, &Map)> = levels.iter().map(|(name, map, _)| (name.as_str(), map)).collect();
    let path = dir.join("world.world");
    write_atomically(&path, render::tiled_world(&placed).as_bytes())?;
    written.push(path);
    Ok(written)
}

/// Where a map finds the tileset whose files are named `tiles` (`tiles.png`, ...).
fn placement(tiles: &str, format: TiledFormat, choice: TilesetChoice) -> TilesetPlacement {
    match choice {
        TilesetChoice::External => {
            TilesetPlacement::External { source: format!("{tiles}.{}", format.tileset_extension()) }
        }
        TilesetChoice::Embedded => TilesetPlacement::Embedded { image: format!("{tiles}.png") },
    }
}

fn map_text(map: &Map, pack: &Pack, tileset: &TiledTileset, options: &TiledOptions, format: TiledFormat) -> String {
    match format {
        TiledFormat::Json => render::map_tmj(map, pack, tileset, options),
        TiledFormat::Xml => render::map_tmx(map, pack, tileset, options),
    }
}

/// Writes the tileset's image, and its file unless embedded, as `dir/NAME.png`
/// and `dir/NAME.tsj` (or `.tsx`).
fn write_tileset(
    tileset: &TiledTileset,
    dir: &Path,
    name: &str,
    format: TiledFormat,
    choice: TilesetChoice,
) -> Result<Vec<PathBuf>, Failure> {
    let image = tileset.image_png().map_err(|e| Failure::Usage(format!("error: {e}")))?;
    let image_path = dir.join(format!("{name}.png"));
    write_atomically(&image_path, &image)?;
    let mut written = vec![image_path];
    if choice == TilesetChoice::External {
        let image_name = format!("{name}.png");
        let text = match format {
            TiledFormat::Json => tileset.to_tsj(&image_name),
            TiledFormat::Xml => tileset.to_tsx(&image_name),
        };
        let path = dir.join(format!("{name}.{}", format.tileset_extension()));
        write_atomically(&path, text.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}
