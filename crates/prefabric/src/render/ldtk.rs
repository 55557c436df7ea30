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

use super::colour::{BACKGROUND, terrain_colour};
use crate::content::Pack;
use crate::geom::Point;
use crate::map::{Map, Role, Terrain};
use crate::rng::Rng;
use serde::Serialize;

/// The LDtk file format version the project follows (its `jsonVersion`).
pub const LDTK_VERSION: &str = "1.5.3";

/// Pixels per map cell in the project (every layer's grid size).
pub const LDTK_GRID_SIZE: i32 = 16;

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

/// A cell count in pixels.
fn px(cells: i32) -> i64 {
    i64::from(cells) * i64::from(LDTK_GRID_SIZE)
}

/// The number every `iid` of a level is drawn from: its seed, map type, depth
/// and place in the project.
fn level_key(map: &Map, index: usize) -> u64 {
    let key = Rng::stream(map.seed(), "render/ldtk/level", map.map_type()).next_u64();
    Rng::stream_n(key ^ u64::from(map.depth()), "render/ldtk/level", index as u64).next_u64()
}

/// A UUID (RFC 9562 version 8, custom) drawn from `key`, `what` and `n`.
fn iid(key: u64, what: &str, n: u64) -> String {
    let mut rng = Rng::stream_n(key, what, n);
    let (high, low) = (rng.next_u64(), rng.next_u64());
    let high = (high & !0xf000) | 0x8000;
    let low = (low & !(0xc << 60)) | (0x8 << 60);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

/// What every level of a project is written with.
struct Within<'a> {
    pack: &'a Pack,
    defs: &'a Defs,
    entities_layer: i64,
    terrain_layer: i64,
}

/// Hands out the project's `uid`s in order.
#[derive(Default)]
struct Uids(i64);

impl Uids {
    fn next(&mut self) -> i64 {
        self.0 += 1;
        self.0
    }
}

const TERRAIN_DOC: &str = "Each cell's terrain role: its index in prefabric's Role::ALL plus one.";
const ENTITIES_DOC: &str = "prefabric's objects, placed prefabs and regions.";

/// One IntGrid value per role, in the palette's colour for that role.
fn int_grid_values(pack: &Pack) -> Vec<IntGridValue> {
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

/// A role's IntGrid value: its index plus one, since 0 is an empty cell.
fn role_value(role: Role) -> u8 {
    role.index() as u8 + 1
}

// ---------------------------------------------------------------------------
// Fields and entities: what each entity and level says about itself.

/// The kind of value a field holds.
#[derive(Copy, Clone)]
enum FieldKind {
    Int,
    Str,
    Ints,
    Strs,
    Points,
}

impl FieldKind {
    /// LDtk's `__type` and `type` of the field.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            FieldKind::Int => ("Int", "F_Int"),
            FieldKind::Str => ("String", "F_String"),
            FieldKind::Ints => ("Array<Int>", "F_Int"),
            FieldKind::Strs => ("Array<String>", "F_String"),
            FieldKind::Points => ("Array<Point>", "F_Point"),
        }
    }

    fn is_array(self) -> bool {
        matches!(self, FieldKind::Ints | FieldKind::Strs | FieldKind::Points)
    }
}

/// A field as declared: its identifier, kind and whether it may be null.
struct FieldSpec {
    identifier: &'static str,
    kind: FieldKind,
    nullable: bool,
    doc: &'static str,
}

const fn field(identifier: &'static str, kind: FieldKind, nullable: bool, doc: &'static str) -> FieldSpec {
    FieldSpec { identifier, kind, nullable, doc }
}

/// An entity type as declared: its identifier, colour, tags and fields.
struct EntitySpec {
    identifier: &'static str,
    color: &'static str,
    hollow: bool,
    doc: &'static str,
    fields: &'static [FieldSpec],
}

const OBJECT: usize = 0;
const PREFAB: usize = 1;
const REGION: usize = 2;

/// Every entity type, in the order of `OBJECT`, `PREFAB` and `REGION`.
const ENTITIES: [EntitySpec; 3] = [
    EntitySpec {
        identifier: "Object",
        color: "#FFD040",
        hollow: false,
        doc: "A thing on the map, covering its cells.",
        fields: &[
            field("kind", FieldKind::Str, false, "machine, entity, item, prop, trap or debris"),
            field("tag", FieldKind::Str, true, "Its catalog tag."),
            field("name", FieldKind::Str, true, "Its catalog entry's name."),
            field("keywords", FieldKind::Strs, false, "Game keywords: `name` or `name=value`."),
        ],
    },
    EntitySpec {
        identifier: "Prefab",
        color: "#40E0FF",
        hollow: true,
        doc: "A placed prefab, covering its bounds.",
        fields: &[
            field("name", FieldKind::Str, false, "The prefab's name in its pack."),
            field("stage", FieldKind::Str, false, "The stage that placed it: feature, layout or encounter."),
            field("encounter", FieldKind::Str, true, "The encounter it was placed for."),
            field("category", FieldKind::Str, true, "That encounter's category."),
            field("transform", FieldKind::Str, false, "How it was turned and flipped, e.g. r90 or flip-r270."),
        ],
    },
    EntitySpec {
        identifier: "Region",
        color: "#80FF80",
        hollow: true,
        doc: "A room, hall, corridor, junction, cave, passage or prefab interior, covering its bounds.",
        fields: &[
            field("kind", FieldKind::Str, false, "room, hall, corridor, junction, cave, passage or prefab"),
            field("id", FieldKind::Int, false, "Its index among the map's regions."),
            field("doors", FieldKind::Points, false, "Its door cells."),
            field("neighbours", FieldKind::Ints, false, "The ids of the regions a walker can step into from it."),
        ],
    },
];

/// The fields of every level.
const LEVEL_FIELDS: [FieldSpec; 3] = [
    field("seed", FieldKind::Str, false, "The map's seed, in decimal (it may not fit a 32-bit integer)."),
    field("depth", FieldKind::Int, false, "The depth the map was generated for."),
    field("map_type", FieldKind::Str, false, "The map type."),
];

/// A field's value as written.
enum Value {
    Int(i64),
    Str(String),
    Null,
    Ints(Vec<i64>),
    Strs(Vec<String>),
    Points(Vec<Point>),
}

impl Value {
    fn optional(text: Option<&str>) -> Value {
        text.map_or(Value::Null, |t| Value::Str(t.to_string()))
    }
}

#[derive(Serialize)]
struct GridPoint {
    cx: i32,
    cy: i32,
}

#[derive(Serialize)]
#[serde(untagged)]
enum ValueJson {
    Int(i64),
    Str(String),
    Null(Option<()>),
    Ints(Vec<i64>),
    Strs(Vec<String>),
    Points(Vec<GridPoint>),
}

/// What LDtk's editor reads a field from: one entry per value.
#[derive(Serialize)]
struct EditorValue {
    id: &'static str,
    params: [ValueJson; 1],
}

fn editor_int(n: i64) -> EditorValue {
    EditorValue { id: "V_Int", params: [ValueJson::Int(n)] }
}

fn editor_str(s: String) -> EditorValue {
    EditorValue { id: "V_String", params: [ValueJson::Str(s)] }
}

#[derive(Serialize)]
struct FieldInstance {
    #[serde(rename = "__identifier")]
    identifier: &'static str,
    #[serde(rename = "__type")]
    kind: &'static str,
    #[serde(rename = "__value")]
    value: ValueJson,
    #[serde(rename = "__tile")]
    tile: Option<()>,
    #[serde(rename = "defUid")]
    def_uid: i64,
    #[serde(rename = "realEditorValues")]
    real_editor_values: Vec<EditorValue>,
}

/// The field instances of values `values`, declared by `specs` as `defs`.
fn field_instances(specs: &'static [FieldSpec], defs: &[FieldDef], values: Vec<Value>) -> Vec<FieldInstance> {
    specs
        .iter()
        .zip(defs)
        .zip(values)
        .map(|((spec, def), value)| {
            let (value, editor) = match value {
                Value::Int(n) => (ValueJson::Int(n), vec![editor_int(n)]),
                Value::Str(s) => (ValueJson::Str(s.clone()), vec![editor_str(s)]),
                Value::Null => (ValueJson::Null(None), Vec::new()),
                Value::Ints(ns) => (ValueJson::Ints(ns.clone()), ns.into_iter().map(editor_int).collect()),
                Value::Strs(ss) => (ValueJson::Strs(ss.clone()), ss.into_iter().map(editor_str).collect()),
                Value::Points(ps) => (
                    ValueJson::Points(ps.iter().map(|p| GridPoint { cx: p.x, cy: p.y }).collect()),
                    ps.iter().map(|p| editor_str(format!("{},{}", p.x, p.y))).collect(),
                ),
            };
            FieldInstance {
                identifier: spec.identifier,
                kind: spec.kind.names().0,
                value,
                tile: None,
                def_uid: def.uid,
                real_editor_values: editor,
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The project, as LDtk's schema names its parts.

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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Defs {
    layers: Vec<LayerDef>,
    entities: Vec<EntityDef>,
    tilesets: Vec<()>,
    enums: Vec<()>,
    external_enums: Vec<()>,
    level_fields: Vec<FieldDef>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LayerDef {
    #[serde(rename = "__type")]
    type_name: &'static str,
    identifier: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    uid: i64,
    doc: &'static str,
    ui_color: Option<&'static str>,
    grid_size: i32,
    guide_grid_wid: u8,
    guide_grid_hei: u8,
    display_opacity: u8,
    inactive_opacity: u8,
    hide_in_list: bool,
    hide_fields_when_inactive: bool,
    can_select_when_inactive: bool,
    render_in_world_view: bool,
    px_offset_x: u8,
    px_offset_y: u8,
    parallax_factor_x: u8,
    parallax_factor_y: u8,
    parallax_scaling: bool,
    required_tags: Vec<()>,
    excluded_tags: Vec<()>,
    auto_tiles_killed_by_other_layer_uid: Option<i64>,
    ui_filter_tags: Vec<()>,
    use_async_render: bool,
    int_grid_values: Vec<IntGridValue>,
    int_grid_values_groups: Vec<()>,
    auto_rule_groups: Vec<()>,
    auto_source_layer_def_uid: Option<i64>,
    tileset_def_uid: Option<i64>,
    tile_pivot_x: u8,
    tile_pivot_y: u8,
    biome_field_uid: Option<i64>,
}

impl LayerDef {
    fn new(
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
struct IntGridValue {
    value: u8,
    identifier: &'static str,
    color: String,
    tile: Option<()>,
    group_uid: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EntityDef {
    identifier: &'static str,
    uid: i64,
    tags: [&'static str; 1],
    export_to_toc: bool,
    allow_out_of_bounds: bool,
    doc: &'static str,
    width: i32,
    height: i32,
    resizable_x: bool,
    resizable_y: bool,
    min_width: Option<i32>,
    max_width: Option<i32>,
    min_height: Option<i32>,
    max_height: Option<i32>,
    keep_aspect_ratio: bool,
    tile_opacity: u8,
    fill_opacity: f32,
    line_opacity: u8,
    hollow: bool,
    color: &'static str,
    render_mode: &'static str,
    show_name: bool,
    tileset_id: Option<i64>,
    tile_render_mode: &'static str,
    tile_rect: Option<()>,
    ui_tile_rect: Option<()>,
    nine_slice_borders: Vec<()>,
    max_count: u32,
    limit_scope: &'static str,
    limit_behavior: &'static str,
    pivot_x: u8,
    pivot_y: u8,
    field_defs: Vec<FieldDef>,
}

impl EntityDef {
    fn new(spec: &'static EntitySpec, uid: i64, uids: &mut Uids) -> EntityDef {
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FieldDef {
    identifier: &'static str,
    doc: &'static str,
    #[serde(rename = "__type")]
    type_name: &'static str,
    uid: i64,
    #[serde(rename = "type")]
    kind: &'static str,
    is_array: bool,
    can_be_null: bool,
    array_min_length: Option<u32>,
    array_max_length: Option<u32>,
    editor_display_mode: &'static str,
    editor_display_scale: u8,
    editor_display_pos: &'static str,
    editor_link_style: &'static str,
    editor_display_color: Option<&'static str>,
    editor_always_show: bool,
    editor_show_in_world: bool,
    editor_cut_long_values: bool,
    editor_text_suffix: Option<&'static str>,
    editor_text_prefix: Option<&'static str>,
    use_for_smart_color: bool,
    export_to_toc: bool,
    searchable: bool,
    min: Option<i64>,
    max: Option<i64>,
    regex: Option<&'static str>,
    accept_file_types: Option<Vec<()>>,
    default_override: Option<()>,
    text_language_mode: Option<&'static str>,
    symmetrical_ref: bool,
    auto_chain_ref: bool,
    allow_out_of_level_ref: bool,
    allowed_refs: &'static str,
    allowed_refs_entity_uid: Option<i64>,
    allowed_ref_tags: Vec<()>,
    tileset_uid: Option<i64>,
}

impl FieldDef {
    fn new(spec: &FieldSpec, uid: i64) -> FieldDef {
        let (type_name, kind) = spec.kind.names();
        FieldDef {
            identifier: spec.identifier,
            doc: spec.doc,
            type_name,
            uid,
            kind,
            is_array: spec.kind.is_array(),
            can_be_null: spec.nullable,
            array_min_length: None,
            array_max_length: None,
            // Doors show as points on the map when their region is selected.
            editor_display_mode: if matches!(spec.kind, FieldKind::Points) { "Points" } else { "NameAndValue" },
            editor_display_scale: 1,
            editor_display_pos: "Beneath",
            editor_link_style: "StraightArrow",
            editor_display_color: None,
            editor_always_show: false,
            editor_show_in_world: true,
            editor_cut_long_values: true,
            editor_text_suffix: None,
            editor_text_prefix: None,
            use_for_smart_color: false,
            export_to_toc: false,
            searchable: false,
            min: None,
            max: None,
            regex: None,
            accept_file_types: None,
            default_override: None,
            text_language_mode: None,
            symmetrical_ref: false,
            auto_chain_ref: false,
            allow_out_of_level_ref: true,
            allowed_refs: "OnlySame",
            allowed_refs_entity_uid: None,
            allowed_ref_tags: Vec::new(),
            tileset_uid: None,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Level {
    identifier: String,
    iid: String,
    uid: i64,
    world_x: i64,
    world_y: i64,
    world_depth: i64,
    px_wid: i64,
    px_hei: i64,
    #[serde(rename = "__bgColor")]
    bg_color_: String,
    bg_color: Option<()>,
    use_auto_identifier: bool,
    bg_rel_path: Option<()>,
    bg_pos: Option<()>,
    bg_pivot_x: f32,
    bg_pivot_y: f32,
    #[serde(rename = "__smartColor")]
    smart_color: &'static str,
    #[serde(rename = "__bgPos")]
    bg_pos_: Option<()>,
    external_rel_path: Option<()>,
    field_instances: Vec<FieldInstance>,
    layer_instances: [LayerInstance; 2],
    #[serde(rename = "__neighbours")]
    neighbours: Vec<()>,
}

impl Level {
    fn new(map: &Map, index: usize, key: u64, world_x: i64, uid: i64, within: &Within) -> Level {
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
struct LayerInstance {
    #[serde(rename = "__identifier")]
    identifier: &'static str,
    #[serde(rename = "__type")]
    type_name: &'static str,
    #[serde(rename = "__cWid")]
    c_wid: i32,
    #[serde(rename = "__cHei")]
    c_hei: i32,
    #[serde(rename = "__gridSize")]
    grid_size: i32,
    #[serde(rename = "__opacity")]
    opacity: u8,
    #[serde(rename = "__pxTotalOffsetX")]
    px_total_offset_x: u8,
    #[serde(rename = "__pxTotalOffsetY")]
    px_total_offset_y: u8,
    #[serde(rename = "__tilesetDefUid")]
    tileset_def_uid: Option<i64>,
    #[serde(rename = "__tilesetRelPath")]
    tileset_rel_path: Option<()>,
    iid: String,
    level_id: i64,
    layer_def_uid: i64,
    px_offset_x: u8,
    px_offset_y: u8,
    visible: bool,
    optional_rules: Vec<()>,
    int_grid_csv: Vec<u8>,
    auto_layer_tiles: Vec<()>,
    seed: u32,
    override_tileset_uid: Option<i64>,
    grid_tiles: Vec<()>,
    entity_instances: Vec<EntityInstance>,
}

impl LayerInstance {
    fn new(
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
struct EntityInstance {
    #[serde(rename = "__identifier")]
    identifier: &'static str,
    #[serde(rename = "__grid")]
    grid: [i32; 2],
    #[serde(rename = "__pivot")]
    pivot: [u8; 2],
    #[serde(rename = "__tags")]
    tags: [&'static str; 1],
    #[serde(rename = "__tile")]
    tile: Option<()>,
    #[serde(rename = "__smartColor")]
    smart_color: &'static str,
    iid: String,
    width: i64,
    height: i64,
    #[serde(rename = "defUid")]
    def_uid: i64,
    px: [i64; 2],
    #[serde(rename = "fieldInstances")]
    field_instances: Vec<FieldInstance>,
    #[serde(rename = "__worldX")]
    world_x: i64,
    #[serde(rename = "__worldY")]
    world_y: i64,
}

/// Every object, then every placed prefab, then every region, as entities.
fn entity_instances(map: &Map, key: u64, world_x: i64, within: &Within) -> Vec<EntityInstance> {
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
