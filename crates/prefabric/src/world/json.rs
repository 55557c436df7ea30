//! A world as JSON: the graph of its levels and where their exits lead.
//!
//! In: a [`World`] and, per level, the file its map was written to (if any).
//! Out: one pretty-printed JSON document (format `prefabric-world-graph`,
//! version 1; docs/worlds.md documents it) listing every level of the plan —
//! name, line, number, depth, map type, seed, size, the level it is entered
//! from, its file — with each made level's exits (way, cell, destination level
//! and arrival cell), every branch (whether the world holds it and where it is
//! entered) and the per-world encounter counts. Field order is fixed, so the
//! same world gives the same bytes.

use super::{PlannedLevel, World};
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of the world graph JSON; bumped when a field changes meaning.
const GRAPH_VERSION: u32 = 1;

#[derive(Serialize)]
struct WorldJson<'a> {
    format: &'static str,
    version: u32,
    seed: u64,
    aligned_stairs: bool,
    levels: Vec<LevelJson<'a>>,
    branches: Vec<BranchJson<'a>>,
    /// Encounter id -> times placed in the levels made.
    encounters: BTreeMap<&'a str, u32>,
}

#[derive(Serialize)]
struct LevelJson<'a> {
    name: &'a str,
    line: &'a str,
    number: u32,
    depth: u32,
    map_type: &'a str,
    seed: u64,
    width: Option<i32>,
    height: Option<i32>,
    /// The level it is entered from.
    from: Option<&'a str>,
    /// The file its map was written to, relative to the world file.
    file: Option<String>,
    /// Its exits; empty until it is made.
    exits: Vec<ExitJson<'a>>,
}

#[derive(Serialize)]
struct ExitJson<'a> {
    way: &'static str,
    at: [i32; 2],
    to: Option<&'a str>,
    arrival: Option<[i32; 2]>,
}

#[derive(Serialize)]
struct BranchJson<'a> {
    name: &'a str,
    from: &'a str,
    /// The level holding its entrance; `null` when the world does not hold it.
    entrance: Option<&'a str>,
}

/// The world's graph as JSON, ending in a newline; `files` names each level's file.
pub(super) fn world_json(world: &World<'_>, files: &dyn Fn(&PlannedLevel) -> Option<String>) -> String {
    let plan = world.plan();
    let lines = &world.spec().lines;
    let doc = WorldJson {
        format: "prefabric-world-graph",
        version: GRAPH_VERSION,
        seed: world.seed(),
        aligned_stairs: world.spec().aligned_stairs,
        levels: plan
            .levels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let map = world.maps().get(i);
                LevelJson {
                    name: &l.name,
                    line: &lines[l.line].name,
                    number: l.number,
                    depth: l.depth,
                    map_type: &l.map_type,
                    seed: l.seed,
                    width: map.map(|m| m.width()),
                    height: map.map(|m| m.height()),
                    from: l.from.map(|f| plan.levels[f].name.as_str()),
                    file: files(l),
                    exits: map
                        .map(|m| {
                            m.exits()
                                .iter()
                                .map(|e| ExitJson {
                                    way: e.way.name(),
                                    at: [e.at.x, e.at.y],
                                    to: e.to.as_deref(),
                                    arrival: e.arrival.map(|p| [p.x, p.y]),
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                }
            })
            .collect(),
        branches: plan
            .branches
            .iter()
            .map(|b| BranchJson {
                name: &lines[b.line].name,
                from: lines[b.line].branch.as_ref().map_or("", |s| lines[s.from].name.as_str()),
                entrance: b.entrance.map(|e| plan.levels[e].name.as_str()),
            })
            .collect(),
        encounters: world.state().encounters().collect(),
    };
    // Plain structs of strings and integers always serialise.
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}
