//! The object layers of a Tiled map: regions, prefabs, objects, links, doors
//! and marks as Tiled objects with their class and properties.
//!
//! In: a generated map. Out: the objects of each object layer, numbered from 1
//! in layer order. Guarantees: every object has its class and properties; the
//! same map gives the same objects and ids.

use super::schema::{ObjectJson, Property};
use super::tileset::TILED_TILE_SIZE;
use crate::content::Pack;
use crate::content::catalog::Catalog;
use crate::geom::{Point, Rect};
use crate::map::{LinkKind, Map, Object};

/// Hands out object ids, unique in a map, from 1.
pub(super) struct ObjectIds(pub(super) u32);

impl ObjectIds {
    pub(super) fn next(&mut self) -> u32 {
        self.0 += 1;
        self.0 - 1
    }

    /// A rectangle object over the cells of `r`.
    pub(super) fn rect(&mut self, name: String, class: &'static str, r: Rect, properties: Vec<Property>) -> ObjectJson {
        let px = |v: i32| v.max(0) as u32 * TILED_TILE_SIZE;
        ObjectJson {
            id: self.next(),
            name,
            class,
            x: px(r.x),
            y: px(r.y),
            width: px(r.width),
            height: px(r.height),
            rotation: 0,
            visible: true,
            point: false,
            properties,
        }
    }

    /// A point object at the centre of cell `p`.
    pub(super) fn point(
        &mut self,
        name: String,
        class: &'static str,
        p: Point,
        properties: Vec<Property>,
    ) -> ObjectJson {
        let centre = |v: i32| v.max(0) as u32 * TILED_TILE_SIZE + TILED_TILE_SIZE / 2;
        ObjectJson {
            id: self.next(),
            name,
            class,
            x: centre(p.x),
            y: centre(p.y),
            width: 0,
            height: 0,
            rotation: 0,
            visible: true,
            point: true,
            properties,
        }
    }
}

/// `x,y>to` for each door, `;`-separated; `to` is `-` when it leads nowhere.
pub(super) fn doors_text(doors: &[crate::map::Door]) -> String {
    let each = doors.iter().map(|d| {
        let to = d.to.map_or("-".to_string(), |t| t.to_string());
        format!("{},{}>{to}", d.at.x, d.at.y)
    });
    each.collect::<Vec<_>>().join(";")
}

pub(super) fn region_objects(map: &Map, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    map.regions()
        .iter()
        .map(|r| {
            let neighbours = map.neighbours(r.id).iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            let mut properties = vec![
                Property::int("id", r.id),
                Property::int("area", r.area),
                Property::text("laid_out_as", r.laid_out_as.name()),
                Property::text("doors", doors_text(&r.doors)),
                Property::text("openings", doors_text(&r.openings)),
                Property::text("neighbours", neighbours),
            ];
            if let Some(c) = r.centre {
                properties.push(Property::text("centre", format!("{},{}", c.x, c.y)));
            }
            ids.rect(format!("{} {}", r.kind.name(), r.id), r.kind.name(), r.bounds, properties)
        })
        .collect()
}

pub(super) fn prefab_objects(map: &Map, pack: &Pack, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    map.prefabs()
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let mut properties = vec![
                Property::int("index", index as i64),
                Property::text("stage", p.stage.name()),
                Property::text("transform", p.transform.name()),
            ];
            if let Some(e) = &p.encounter {
                properties.push(Property::text("encounter", e.id.as_str()));
                properties.push(Property::text("category", e.category.name()));
                properties.push(Property::text("style", e.style.name()));
            }
            if let Some(origin) = pack.prefab(&p.name).map(|prefab| prefab.origin()) {
                properties.push(Property::text("source", format!("{}:{}", origin.file, origin.line)));
            }
            if let Some(region) = p.region {
                properties.push(Property::int("region", region));
            }
            if let Some(variant) = p.variant {
                properties.push(Property::int("variant", variant));
            }
            ids.rect(p.name.clone(), "prefab", p.bounds, properties)
        })
        .collect()
}

/// The smallest rectangle holding an object's cells.
pub(super) fn object_bounds(o: &Object) -> Rect {
    let xs = o.cells.iter().map(|c| c.0.x);
    let ys = o.cells.iter().map(|c| c.0.y);
    let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
    let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
    Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1)
}

pub(super) fn object_objects(map: &Map, catalog: &Catalog, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    map.objects()
        .iter()
        .map(|o| {
            let name = o.tag.as_deref().and_then(|tag| catalog.name_of(o.kind, tag));
            let mut properties = vec![Property::text("kind", o.kind.name()), Property::flag("blocks", o.blocks())];
            if let Some(tag) = &o.tag {
                properties.push(Property::text("tag", &**tag));
            }
            if let Some(name) = name {
                properties.push(Property::text("name", name));
            }
            if let Some(prefab) = o.prefab {
                properties.push(Property::int("prefab", prefab as i64));
            }
            // Game keywords as properties of their own, so an engine reads them
            // by name; one that would clash with the fields above is prefixed.
            for (key, value) in &o.keywords {
                let key =
                    if properties.iter().any(|p| &p.name == key) { format!("keyword.{key}") } else { key.clone() };
                properties.push(match value {
                    Some(v) => Property::text(&key, v.as_str()),
                    None => Property::flag(&key, true),
                });
            }
            let label = name.or(o.tag.as_deref()).unwrap_or(o.kind.name()).to_string();
            ids.rect(label, o.kind.name(), object_bounds(o), properties)
        })
        .collect()
}

pub(super) fn link_objects(map: &Map, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    map.links()
        .iter()
        .map(|l| {
            let class = if l.kind == LinkKind::Connector { "connector" } else { "tunnel" };
            let properties = vec![
                Property::text("dir", l.dir.name()),
                Property::int("width", l.kind.width()),
                Property::int("prefab", l.prefab as i64),
            ];
            ids.point(class.to_string(), class, l.at, properties)
        })
        .collect()
}

pub(super) fn door_objects(map: &Map, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    let mut out = Vec::new();
    for r in map.regions() {
        for d in &r.doors {
            let mut properties = vec![Property::int("region", r.id), Property::text("side", d.side.name())];
            if let Some(to) = d.to {
                properties.push(Property::int("to", to));
            }
            out.push(ids.point("door".to_string(), "door", d.at, properties));
        }
    }
    out
}

pub(super) fn mark_objects(map: &Map, ids: &mut ObjectIds) -> Vec<ObjectJson> {
    let mut out = Vec::new();
    for (name, cells) in map.marks() {
        for &p in cells {
            out.push(ids.rect(name.to_string(), "mark", Rect::new(p.x, p.y, 1, 1), Vec::new()));
        }
    }
    out
}
