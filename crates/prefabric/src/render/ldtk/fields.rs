//! Fields and entities: what each entity and level of an LDtk project says
//! about itself — the entity types (`Object`, `Prefab`, `Region`) with their
//! fields, the level's fields, the values they hold, and how each field is
//! declared.
//!
//! In: a map's objects, prefabs and regions, and a level's seed, depth and
//! map type. Out: field declarations and field instances as LDtk's schema
//! writes them. Guarantees: every entity and level declares the same fields in
//! the same order; a seed is written as a string (LDtk's integers are 32-bit).

use crate::geom::Point;
use serde::Serialize;

/// The kind of value a field holds.
#[derive(Copy, Clone)]
pub(super) enum FieldKind {
    Int,
    Str,
    Ints,
    Strs,
    Points,
}

impl FieldKind {
    /// LDtk's `__type` and `type` of the field.
    pub(super) fn names(self) -> (&'static str, &'static str) {
        match self {
            FieldKind::Int => ("Int", "F_Int"),
            FieldKind::Str => ("String", "F_String"),
            FieldKind::Ints => ("Array<Int>", "F_Int"),
            FieldKind::Strs => ("Array<String>", "F_String"),
            FieldKind::Points => ("Array<Point>", "F_Point"),
        }
    }

    pub(super) fn is_array(self) -> bool {
        matches!(self, FieldKind::Ints | FieldKind::Strs | FieldKind::Points)
    }
}

/// A field as declared: its identifier, kind and whether it may be null.
pub(super) struct FieldSpec {
    pub(super) identifier: &'static str,
    pub(super) kind: FieldKind,
    pub(super) nullable: bool,
    pub(super) doc: &'static str,
}

pub(super) const fn field(identifier: &'static str, kind: FieldKind, nullable: bool, doc: &'static str) -> FieldSpec {
    FieldSpec { identifier, kind, nullable, doc }
}

/// An entity type as declared: its identifier, colour, tags and fields.
pub(super) struct EntitySpec {
    pub(super) identifier: &'static str,
    pub(super) color: &'static str,
    pub(super) hollow: bool,
    pub(super) doc: &'static str,
    pub(super) fields: &'static [FieldSpec],
}

pub(super) const OBJECT: usize = 0;
pub(super) const PREFAB: usize = 1;
pub(super) const REGION: usize = 2;

/// Every entity type, in the order of `OBJECT`, `PREFAB` and `REGION`.
pub(super) const ENTITIES: [EntitySpec; 3] = [
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
pub(super) const LEVEL_FIELDS: [FieldSpec; 3] = [
    field("seed", FieldKind::Str, false, "The map's seed, in decimal (it may not fit a 32-bit integer)."),
    field("depth", FieldKind::Int, false, "The depth the map was generated for."),
    field("map_type", FieldKind::Str, false, "The map type."),
];

/// A field's value as written.
pub(super) enum Value {
    Int(i64),
    Str(String),
    Null,
    Ints(Vec<i64>),
    Strs(Vec<String>),
    Points(Vec<Point>),
}

impl Value {
    pub(super) fn optional(text: Option<&str>) -> Value {
        text.map_or(Value::Null, |t| Value::Str(t.to_string()))
    }
}

#[derive(Serialize)]
pub(super) struct GridPoint {
    pub(super) cx: i32,
    pub(super) cy: i32,
}

#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum ValueJson {
    Int(i64),
    Str(String),
    Null(Option<()>),
    Ints(Vec<i64>),
    Strs(Vec<String>),
    Points(Vec<GridPoint>),
}

/// What LDtk's editor reads a field from: one entry per value.
#[derive(Serialize)]
pub(super) struct EditorValue {
    pub(super) id: &'static str,
    pub(super) params: [ValueJson; 1],
}

pub(super) fn editor_int(n: i64) -> EditorValue {
    EditorValue { id: "V_Int", params: [ValueJson::Int(n)] }
}

pub(super) fn editor_str(s: String) -> EditorValue {
    EditorValue { id: "V_String", params: [ValueJson::Str(s)] }
}

#[derive(Serialize)]
pub(super) struct FieldInstance {
    #[serde(rename = "__identifier")]
    pub(super) identifier: &'static str,
    #[serde(rename = "__type")]
    pub(super) kind: &'static str,
    #[serde(rename = "__value")]
    pub(super) value: ValueJson,
    #[serde(rename = "__tile")]
    pub(super) tile: Option<()>,
    #[serde(rename = "defUid")]
    pub(super) def_uid: i64,
    #[serde(rename = "realEditorValues")]
    pub(super) real_editor_values: Vec<EditorValue>,
}

/// The field instances of values `values`, declared by `specs` as `defs`.
pub(super) fn field_instances(
    specs: &'static [FieldSpec],
    defs: &[FieldDef],
    values: Vec<Value>,
) -> Vec<FieldInstance> {
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct FieldDef {
    pub(super) identifier: &'static str,
    pub(super) doc: &'static str,
    #[serde(rename = "__type")]
    pub(super) type_name: &'static str,
    pub(super) uid: i64,
    #[serde(rename = "type")]
    pub(super) kind: &'static str,
    pub(super) is_array: bool,
    pub(super) can_be_null: bool,
    pub(super) array_min_length: Option<u32>,
    pub(super) array_max_length: Option<u32>,
    pub(super) editor_display_mode: &'static str,
    pub(super) editor_display_scale: u8,
    pub(super) editor_display_pos: &'static str,
    pub(super) editor_link_style: &'static str,
    pub(super) editor_display_color: Option<&'static str>,
    pub(super) editor_always_show: bool,
    pub(super) editor_show_in_world: bool,
    pub(super) editor_cut_long_values: bool,
    pub(super) editor_text_suffix: Option<&'static str>,
    pub(super) editor_text_prefix: Option<&'static str>,
    pub(super) use_for_smart_color: bool,
    pub(super) export_to_toc: bool,
    pub(super) searchable: bool,
    pub(super) min: Option<i64>,
    pub(super) max: Option<i64>,
    pub(super) regex: Option<&'static str>,
    pub(super) accept_file_types: Option<Vec<()>>,
    pub(super) default_override: Option<()>,
    pub(super) text_language_mode: Option<&'static str>,
    pub(super) symmetrical_ref: bool,
    pub(super) auto_chain_ref: bool,
    pub(super) allow_out_of_level_ref: bool,
    pub(super) allowed_refs: &'static str,
    pub(super) allowed_refs_entity_uid: Option<i64>,
    pub(super) allowed_ref_tags: Vec<()>,
    pub(super) tileset_uid: Option<i64>,
}

impl FieldDef {
    pub(super) fn new(spec: &FieldSpec, uid: i64) -> FieldDef {
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
