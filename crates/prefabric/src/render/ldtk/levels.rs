//! The levels of an LDtk project: one per map, with its `Terrain` layer (each
//! cell's role) and its `Entities` layer (every object, then every placed
//! prefab, then every region, each the size of what it covers).
//!
//! In: a map, its place in the world and the project's definitions. Out: the
//! level as LDtk's schema writes it. Guarantees: the same map at the same place
//! gives the same level, `iid`s included.

use super::defs::Defs;
use super::fields::{ENTITIES, FieldInstance, LEVEL_FIELDS, OBJECT, PREFAB, REGION, Value, field_instances};
use super::ids::{LDTK_GRID_SIZE, iid, px, role_value};
use crate::content::Pack;
use crate::map::Map;
use crate::render::colour::BACKGROUND;
use crate::rng::Rng;
use serde::Serialize;

/// What every level of a project is written with.
pub(super) struct Within<'a> {
    pub(super) pack: &'a Pack,
    pub(super) defs: &'a Defs,
    pub(super) entities_layer: i64,
    pub(super) terrain_layer: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Level {
    pub(super) identifier: String,
    pub(super) iid: String,
    pub(super) uid: i64,
    pub(super) world_x: i64,
    pub(super) world_y: i64,
    pub(super) world_depth: i64,
    pub(super) px_wid: i64,
    pub(super) px_hei: i64,
    #[serde(rename = "__bgColor")]
    pub(super) bg_color_: String,
    pub(super) bg_color: Option<()>,
    pub(super) use_auto_identifier: bool,
    pub(super) bg_rel_path: Option<()>,
    pub(super) bg_pos: Option<()>,
    pub(super) bg_pivot_x: f32,
    pub(super) bg_pivot_y: f32,
    #[serde(rename = "__smartColor")]
    pub(super) smart_color: &'static str,
    #[serde(rename = "__bgPos")]
    pub(super) bg_pos_: Option<()>,
    pub(super) external_rel_path: Option<()>,
    pub(super) field_instances: Vec<FieldInstance>,
    pub(super) layer_instances: [LayerInstance; 2],
    #[serde(rename = "__neighbours")]
    pub(super) neighbours: Vec<()>,
}

impl Level {
    pub(super) fn new(map: &Map, index: usize, key: u64, world_x: i64, uid: i64, within: &Within) -> Level {
        let values = vec![
            Value::Str(map.seed().to_string()),
            Value::Int(i64::from(map.depth())),
            Value::Str(map.map_type().to_string()),
        ];
        let level_iid = iid(key, "render/ldtk/level", 0);
        let entities = entity_instances(map, key, world_x, within);
        let terrain: Vec<u8> = map.terrain().cells().iter().map(|t| role_value(t.role())).collect();
        Level {
            identifier: format!("Level_{}", index + 1),
            iid: level_iid,
            uid,
            world_x,
            world_y: 0,
            world_depth: 0,
            px_wid: px(map.width()),
            px_hei: px(map.height()),
            bg_color_: BACKGROUND.to_string(),
            bg_color: None,
            use_auto_identifier: false,
            bg_rel_path: None,
            bg_pos: None,
            bg_pivot_x: 0.5,
            bg_pivot_y: 0.5,
            smart_color: "#ADADB5",
            bg_pos_: None,
            external_rel_path: None,
            field_instances: field_instances(&LEVEL_FIELDS, &within.defs.level_fields, values),
            layer_instances: [
                LayerInstance::new(map, "Entities", within.entities_layer, uid, key, entities, Vec::new()),
                LayerInstance::new(map, "IntGrid", within.terrain_layer, uid, key, Vec::new(), terrain),
            ],
            neighbours: Vec::new(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LayerInstance {
    #[serde(rename = "__identifier")]
    pub(super) identifier: &'static str,
    #[serde(rename = "__type")]
    pub(super) type_name: &'static str,
    #[serde(rename = "__cWid")]
    pub(super) c_wid: i32,
    #[serde(rename = "__cHei")]
    pub(super) c_hei: i32,
    #[serde(rename = "__gridSize")]
    pub(super) grid_size: i32,
    #[serde(rename = "__opacity")]
    pub(super) opacity: u8,
    #[serde(rename = "__pxTotalOffsetX")]
    pub(super) px_total_offset_x: u8,
    #[serde(rename = "__pxTotalOffsetY")]
    pub(super) px_total_offset_y: u8,
    #[serde(rename = "__tilesetDefUid")]
    pub(super) tileset_def_uid: Option<i64>,
    #[serde(rename = "__tilesetRelPath")]
    pub(super) tileset_rel_path: Option<()>,
    pub(super) iid: String,
    pub(super) level_id: i64,
    pub(super) layer_def_uid: i64,
    pub(super) px_offset_x: u8,
    pub(super) px_offset_y: u8,
    pub(super) visible: bool,
    pub(super) optional_rules: Vec<()>,
    pub(super) int_grid_csv: Vec<u8>,
    pub(super) auto_layer_tiles: Vec<()>,
    pub(super) seed: u32,
    pub(super) override_tileset_uid: Option<i64>,
    pub(super) grid_tiles: Vec<()>,
    pub(super) entity_instances: Vec<EntityInstance>,
}

impl LayerInstance {
    pub(super) fn new(
        map: &Map,
        kind: &'static str,
        layer_uid: i64,
        level_uid: i64,
        key: u64,
        entity_instances: Vec<EntityInstance>,
        int_grid_csv: Vec<u8>,
    ) -> LayerInstance {
        let identifier = if kind == "IntGrid" { "Terrain" } else { "Entities" };
        let mut rng = Rng::stream_n(key, "render/ldtk/layer", layer_uid as u64);
        LayerInstance {
            identifier,
            type_name: kind,
            c_wid: map.width(),
            c_hei: map.height(),
            grid_size: LDTK_GRID_SIZE,
            opacity: 1,
            px_total_offset_x: 0,
            px_total_offset_y: 0,
            tileset_def_uid: None,
            tileset_rel_path: None,
            iid: iid(key, "render/ldtk/layer", layer_uid as u64),
            level_id: level_uid,
            layer_def_uid: layer_uid,
            px_offset_x: 0,
            px_offset_y: 0,
            visible: true,
            optional_rules: Vec::new(),
            int_grid_csv,
            auto_layer_tiles: Vec::new(),
            // What LDtk would draw auto-layer tiles' randomness from (it keeps it below 10^7).
            seed: rng.below(10_000_000),
            override_tileset_uid: None,
            grid_tiles: Vec::new(),
            entity_instances,
        }
    }
}

#[derive(Serialize)]
pub(super) struct EntityInstance {
    #[serde(rename = "__identifier")]
    pub(super) identifier: &'static str,
    #[serde(rename = "__grid")]
    pub(super) grid: [i32; 2],
    #[serde(rename = "__pivot")]
    pub(super) pivot: [u8; 2],
    #[serde(rename = "__tags")]
    pub(super) tags: [&'static str; 1],
    #[serde(rename = "__tile")]
    pub(super) tile: Option<()>,
    #[serde(rename = "__smartColor")]
    pub(super) smart_color: &'static str,
    pub(super) iid: String,
    pub(super) width: i64,
    pub(super) height: i64,
    #[serde(rename = "defUid")]
    pub(super) def_uid: i64,
    pub(super) px: [i64; 2],
    #[serde(rename = "fieldInstances")]
    pub(super) field_instances: Vec<FieldInstance>,
    #[serde(rename = "__worldX")]
    pub(super) world_x: i64,
    #[serde(rename = "__worldY")]
    pub(super) world_y: i64,
}

/// Every object, then every placed prefab, then every region, as entities.
pub(super) fn entity_instances(map: &Map, key: u64, world_x: i64, within: &Within) -> Vec<EntityInstance> {
    let defs = within.defs;
    let mut out = Vec::with_capacity(map.objects().len() + map.prefabs().len() + map.regions().len());
    let mut add = |spec: usize, (x, y, w, h): (i32, i32, i32, i32), values: Vec<Value>| {
        let (entity, def) = (&ENTITIES[spec], &defs.entities[spec]);
        let n = out.len() as u64;
        out.push(EntityInstance {
            identifier: entity.identifier,
            grid: [x, y],
            pivot: [0, 0],
            tags: def.tags,
            tile: None,
            smart_color: entity.color,
            iid: iid(key, "render/ldtk/entity", n),
            width: px(w),
            height: px(h),
            def_uid: def.uid,
            px: [px(x), px(y)],
            field_instances: field_instances(entity.fields, &def.field_defs, values),
            world_x: world_x + px(x),
            world_y: px(y),
        });
    };
    for o in map.objects() {
        let xs = o.cells.iter().map(|(p, _)| p.x);
        let ys = o.cells.iter().map(|(p, _)| p.y);
        let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
        let keywords = o
            .keywords
            .iter()
            .map(|(name, value)| match value {
                Some(v) => format!("{name}={v}"),
                None => name.clone(),
            })
            .collect();
        let tag = o.tag.as_deref();
        let name = tag.and_then(|tag| within.pack.catalog().name_of(o.kind, tag));
        add(
            OBJECT,
            (x0, y0, x1 - x0 + 1, y1 - y0 + 1),
            vec![
                Value::Str(o.kind.name().to_string()),
                Value::optional(tag),
                Value::optional(name),
                Value::Strs(keywords),
            ],
        );
    }
    for p in map.prefabs() {
        let b = p.bounds;
        let encounter = p.encounter.as_ref();
        add(
            PREFAB,
            (b.x, b.y, b.width, b.height),
            vec![
                Value::Str(p.name.clone()),
                Value::Str(p.stage.name().to_string()),
                Value::optional(encounter.map(|e| e.id.as_str())),
                Value::optional(encounter.map(|e| e.category.name())),
                Value::Str(p.transform.name().to_string()),
            ],
        );
    }
    for r in map.regions() {
        let b = r.bounds;
        add(
            REGION,
            (b.x, b.y, b.width, b.height),
            vec![
                Value::Str(r.kind.name().to_string()),
                Value::Int(i64::from(r.id)),
                Value::Points(r.doors.iter().map(|d| d.at).collect()),
                Value::Ints(map.neighbours(r.id).into_iter().map(i64::from).collect()),
            ],
        );
    }
    out
}
