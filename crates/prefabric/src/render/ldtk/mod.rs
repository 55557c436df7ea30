//! Maps as LDtk projects: `.ldtk` files the LDtk level editor opens and its
//! engine importers read.
//!
//! In: one map ([`map_ldtk`]) or the levels of a world ([`world_ldtk`]) and the
//! pack that made them. Out: one line of JSON, an LDtk project of format
//! [`LDTK_VERSION`] with one level per map, laid side by side from left to right
//! in a `Free` world layout. Each level has two layers: `Terrain`, an IntGrid
//! whose value in each cell is the cell's [`Role`] index plus one (LDtk keeps 0
//! for an empty cell), one named and coloured value per role in the palette's
//! colours, as the PNG draws them; and `Entities`, holding an `Object` for every
//! object (kind, tag, catalog name, keywords), a `Prefab` for every placed prefab
//! (name, stage, encounter, category, transform) and a `Region` for every region
//! (kind, id, doors, neighbours), each the size of what it covers, at
//! [`LDTK_GRID_SIZE`] pixels a cell. Every level carries its seed (as a string:
//! LDtk's integers are 32-bit), depth and map type. Guarantees: the same maps
//! give the same bytes; each `iid` is a UUID derived from the level's seed, map
//! type and place in the project, and each `uid` is unique in the project; the
//! output follows LDtk's JSON schema (the tests check it against the schema and
//! read it back with an LDtk reader).

mod defs;
mod fields;
mod ids;
mod levels;

use super::colour::BACKGROUND;
use crate::content::Pack;
use crate::map::Map;
use crate::rng::Rng;
use serde::Serialize;

pub use ids::LDTK_GRID_SIZE;

use defs::{Defs, ENTITIES_DOC, EntityDef, LayerDef, TERRAIN_DOC, int_grid_values};
use fields::{ENTITIES, FieldDef, LEVEL_FIELDS};
use ids::{Uids, iid, px};
use levels::{Level, Within};

/// The LDtk file format version the project follows (its `jsonVersion`).
pub const LDTK_VERSION: &str = "1.5.3";

/// LDtk's build identifier of release 1.5.3, whose file format this follows.
const APP_BUILD_ID: u32 = 473_702;

/// Cells between two levels of a world, so they neither overlap nor touch
/// (touching levels would count as neighbours in LDtk).
const LEVEL_GAP: i64 = 4;

/// The map as an LDtk project of one level, on one line followed by a newline.
pub fn map_ldtk(map: &Map, pack: &Pack) -> String {
    world_ldtk(std::slice::from_ref(map), pack)
}

/// The maps as one LDtk project whose levels (`Level_1`, `Level_2`, ...) lie in
/// the order given, side by side from left to right, on one line followed by a
/// newline.
pub fn world_ldtk(maps: &[Map], pack: &Pack) -> String {
    let mut uids = Uids::default();
    let entities_layer = uids.next();
    let terrain_layer = uids.next();
    let entity_defs: Vec<EntityDef> =
        ENTITIES.iter().map(|spec| EntityDef::new(spec, uids.next(), &mut uids)).collect();
    let level_fields: Vec<FieldDef> = LEVEL_FIELDS.iter().map(|f| FieldDef::new(f, uids.next())).collect();
    let defs = Defs {
        layers: vec![
            LayerDef::new("Entities", "Entities", entities_layer, ENTITIES_DOC, Vec::new()),
            LayerDef::new("Terrain", "IntGrid", terrain_layer, TERRAIN_DOC, int_grid_values(pack)),
        ],
        entities: entity_defs,
        tilesets: Vec::new(),
        enums: Vec::new(),
        external_enums: Vec::new(),
        level_fields,
    };

    let mut project_key = 0u64;
    let mut levels = Vec::with_capacity(maps.len());
    let mut world_x = 0i64;
    for (index, map) in maps.iter().enumerate() {
        let key = level_key(map, index);
        project_key = Rng::stream_n(project_key ^ key, "render/ldtk/project", index as u64).next_u64();
        let within = Within { pack, defs: &defs, entities_layer, terrain_layer };
        let level = Level::new(map, index, key, world_x, uids.next(), &within);
        world_x += i64::from(map.width()) * i64::from(LDTK_GRID_SIZE) + LEVEL_GAP * i64::from(LDTK_GRID_SIZE);
        levels.push(level);
    }
    let (width, height) = maps.first().map_or((256, 256), |m| (px(m.width()), px(m.height())));
    let project = Project {
        header: Header {
            file_type: "LDtk Project JSON",
            app: "prefabric",
            doc: "https://ldtk.io/json",
            schema: "https://ldtk.io/files/JSON_SCHEMA.json",
            app_author: "prefabric",
            app_version: env!("CARGO_PKG_VERSION"),
            url: env!("CARGO_PKG_REPOSITORY"),
        },
        iid: iid(project_key, "render/ldtk/project", maps.len() as u64),
        json_version: LDTK_VERSION,
        app_build_id: APP_BUILD_ID,
        next_uid: uids.next(),
        identifier_style: "Free",
        toc: Vec::new(),
        world_layout: "Free",
        world_grid_width: 256,
        world_grid_height: 256,
        default_level_width: width,
        default_level_height: height,
        default_pivot_x: 0,
        default_pivot_y: 0,
        default_grid_size: LDTK_GRID_SIZE,
        default_entity_width: LDTK_GRID_SIZE,
        default_entity_height: LDTK_GRID_SIZE,
        bg_color: BACKGROUND.to_string(),
        default_level_bg_color: BACKGROUND.to_string(),
        minify_json: true,
        external_levels: false,
        export_tiled: false,
        simplified_export: false,
        image_export_mode: "None",
        export_level_bg: true,
        png_file_pattern: None,
        backup_on_save: false,
        backup_limit: 10,
        backup_rel_path: None,
        level_name_pattern: "Level_%idx",
        tutorial_desc: None,
        custom_commands: Vec::new(),
        flags: Vec::new(),
        defs,
        levels,
        worlds: Vec::new(),
        dummy_world_iid: iid(project_key, "render/ldtk/world", 0),
    };
    // Plain structs of strings, numbers and lists always serialise.
    let mut out = serde_json::to_string(&project).unwrap_or_default();
    out.push('\n');
    out
}

/// The number every `iid` of a level is drawn from: its seed, map type, depth
/// and place in the project.
fn level_key(map: &Map, index: usize) -> u64 {
    let key = Rng::stream(map.seed(), "render/ldtk/level", map.map_type()).next_u64();
    Rng::stream_n(key ^ u64::from(map.depth()), "render/ldtk/level", index as u64).next_u64()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Header {
    file_type: &'static str,
    app: &'static str,
    doc: &'static str,
    schema: &'static str,
    app_author: &'static str,
    app_version: &'static str,
    url: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Project {
    #[serde(rename = "__header__")]
    header: Header,
    iid: String,
    json_version: &'static str,
    app_build_id: u32,
    next_uid: i64,
    identifier_style: &'static str,
    toc: Vec<()>,
    world_layout: &'static str,
    world_grid_width: i64,
    world_grid_height: i64,
    default_level_width: i64,
    default_level_height: i64,
    default_pivot_x: u8,
    default_pivot_y: u8,
    default_grid_size: i32,
    default_entity_width: i32,
    default_entity_height: i32,
    bg_color: String,
    default_level_bg_color: String,
    minify_json: bool,
    external_levels: bool,
    export_tiled: bool,
    simplified_export: bool,
    image_export_mode: &'static str,
    export_level_bg: bool,
    png_file_pattern: Option<&'static str>,
    backup_on_save: bool,
    backup_limit: u32,
    backup_rel_path: Option<&'static str>,
    level_name_pattern: &'static str,
    tutorial_desc: Option<&'static str>,
    custom_commands: Vec<()>,
    flags: Vec<&'static str>,
    defs: Defs,
    levels: Vec<Level>,
    worlds: Vec<()>,
    dummy_world_iid: String,
}
