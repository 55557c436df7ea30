//! The definitions of an LDtk project: its two layers (`Terrain`, an IntGrid
//! of roles, and `Entities`), one IntGrid value per role in the palette's
//! colours, and the entity types with their fields.
//!
//! In: the pack (its palette) and the project's `uid` counter. Out: the
//! project's `defs`. Guarantees: the same pack gives the same definitions and
//! `uid`s; every field LDtk's schema requires is written.

use super::fields::{EntitySpec, FieldDef};
use super::ids::{LDTK_GRID_SIZE, Uids, role_value};
use crate::content::Pack;
use crate::map::{Role, Terrain};
use crate::render::colour::terrain_colour;
use serde::Serialize;

pub(super) const TERRAIN_DOC: &str = "Each cell's terrain role: its index in prefabric's Role::ALL plus one.";
pub(super) const ENTITIES_DOC: &str = "prefabric's objects, placed prefabs and regions.";

/// One IntGrid value per role, in the palette's colour for that role.
pub(super) fn int_grid_values(pack: &Pack) -> Vec<IntGridValue> {
    Role::ALL
        .iter()
        .map(|&role| IntGridValue {
            value: role_value(role),
            identifier: role.name(),
            color: terrain_colour(Terrain::new(role), pack.palette()).to_string(),
            tile: None,
            group_uid: 0,
        })
        .collect()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Defs {
    pub(super) layers: Vec<LayerDef>,
    pub(super) entities: Vec<EntityDef>,
    pub(super) tilesets: Vec<()>,
    pub(super) enums: Vec<()>,
    pub(super) external_enums: Vec<()>,
    pub(super) level_fields: Vec<FieldDef>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LayerDef {
    #[serde(rename = "__type")]
    pub(super) type_name: &'static str,
    pub(super) identifier: &'static str,
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) uid: i64,
    pub(super) doc: &'static str,
    pub(super) ui_color: Option<&'static str>,
    pub(super) grid_size: i32,
    pub(super) guide_grid_wid: u8,
    pub(super) guide_grid_hei: u8,
    pub(super) display_opacity: u8,
    pub(super) inactive_opacity: u8,
    pub(super) hide_in_list: bool,
    pub(super) hide_fields_when_inactive: bool,
    pub(super) can_select_when_inactive: bool,
    pub(super) render_in_world_view: bool,
    pub(super) px_offset_x: u8,
    pub(super) px_offset_y: u8,
    pub(super) parallax_factor_x: u8,
    pub(super) parallax_factor_y: u8,
    pub(super) parallax_scaling: bool,
    pub(super) required_tags: Vec<()>,
    pub(super) excluded_tags: Vec<()>,
    pub(super) auto_tiles_killed_by_other_layer_uid: Option<i64>,
    pub(super) ui_filter_tags: Vec<()>,
    pub(super) use_async_render: bool,
    pub(super) int_grid_values: Vec<IntGridValue>,
    pub(super) int_grid_values_groups: Vec<()>,
    pub(super) auto_rule_groups: Vec<()>,
    pub(super) auto_source_layer_def_uid: Option<i64>,
    pub(super) tileset_def_uid: Option<i64>,
    pub(super) tile_pivot_x: u8,
    pub(super) tile_pivot_y: u8,
    pub(super) biome_field_uid: Option<i64>,
}

impl LayerDef {
    pub(super) fn new(
        identifier: &'static str,
        kind: &'static str,
        uid: i64,
        doc: &'static str,
        int_grid_values: Vec<IntGridValue>,
    ) -> LayerDef {
        LayerDef {
            type_name: kind,
            identifier,
            kind,
            uid,
            doc,
            ui_color: None,
            grid_size: LDTK_GRID_SIZE,
            guide_grid_wid: 0,
            guide_grid_hei: 0,
            display_opacity: 1,
            inactive_opacity: 1,
            hide_in_list: false,
            hide_fields_when_inactive: true,
            can_select_when_inactive: true,
            render_in_world_view: true,
            px_offset_x: 0,
            px_offset_y: 0,
            parallax_factor_x: 0,
            parallax_factor_y: 0,
            parallax_scaling: true,
            required_tags: Vec::new(),
            excluded_tags: Vec::new(),
            auto_tiles_killed_by_other_layer_uid: None,
            ui_filter_tags: Vec::new(),
            use_async_render: false,
            int_grid_values,
            int_grid_values_groups: Vec::new(),
            auto_rule_groups: Vec::new(),
            auto_source_layer_def_uid: None,
            tileset_def_uid: None,
            tile_pivot_x: 0,
            tile_pivot_y: 0,
            biome_field_uid: None,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct IntGridValue {
    pub(super) value: u8,
    pub(super) identifier: &'static str,
    pub(super) color: String,
    pub(super) tile: Option<()>,
    pub(super) group_uid: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct EntityDef {
    pub(super) identifier: &'static str,
    pub(super) uid: i64,
    pub(super) tags: [&'static str; 1],
    pub(super) export_to_toc: bool,
    pub(super) allow_out_of_bounds: bool,
    pub(super) doc: &'static str,
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) resizable_x: bool,
    pub(super) resizable_y: bool,
    pub(super) min_width: Option<i32>,
    pub(super) max_width: Option<i32>,
    pub(super) min_height: Option<i32>,
    pub(super) max_height: Option<i32>,
    pub(super) keep_aspect_ratio: bool,
    pub(super) tile_opacity: u8,
    pub(super) fill_opacity: f32,
    pub(super) line_opacity: u8,
    pub(super) hollow: bool,
    pub(super) color: &'static str,
    pub(super) render_mode: &'static str,
    pub(super) show_name: bool,
    pub(super) tileset_id: Option<i64>,
    pub(super) tile_render_mode: &'static str,
    pub(super) tile_rect: Option<()>,
    pub(super) ui_tile_rect: Option<()>,
    pub(super) nine_slice_borders: Vec<()>,
    pub(super) max_count: u32,
    pub(super) limit_scope: &'static str,
    pub(super) limit_behavior: &'static str,
    pub(super) pivot_x: u8,
    pub(super) pivot_y: u8,
    pub(super) field_defs: Vec<FieldDef>,
}

impl EntityDef {
    pub(super) fn new(spec: &'static EntitySpec, uid: i64, uids: &mut Uids) -> EntityDef {
        EntityDef {
            identifier: spec.identifier,
            uid,
            tags: [spec.identifier],
            export_to_toc: false,
            allow_out_of_bounds: false,
            doc: spec.doc,
            width: LDTK_GRID_SIZE,
            height: LDTK_GRID_SIZE,
            resizable_x: true,
            resizable_y: true,
            min_width: None,
            max_width: None,
            min_height: None,
            max_height: None,
            keep_aspect_ratio: false,
            tile_opacity: 1,
            fill_opacity: if spec.hollow { 0.0 } else { 0.6 },
            line_opacity: 1,
            hollow: spec.hollow,
            color: spec.color,
            render_mode: "Rectangle",
            show_name: true,
            tileset_id: None,
            tile_render_mode: "FitInside",
            tile_rect: None,
            ui_tile_rect: None,
            nine_slice_borders: Vec::new(),
            max_count: 0,
            limit_scope: "PerLevel",
            limit_behavior: "MoveLastOne",
            pivot_x: 0,
            pivot_y: 0,
            field_defs: spec.fields.iter().map(|f| FieldDef::new(f, uids.next())).collect(),
        }
    }
}
