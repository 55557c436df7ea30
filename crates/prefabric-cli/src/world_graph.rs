//! `world` on a pack with a `world.toml`: every level of one world seed, its
//! main line and branches, with stairs that lead into each other.
//!
//! In: the pack, the world seed and the command's options. Out: a listing of
//! the levels on standard output (name, depth, map type, seed, and where each
//! exit leads); with `--out DIR`, every level in the chosen format
//! (`LINE-NN.EXT`), `world.json` (the graph of levels and exits, see
//! docs/worlds.md) and, for HTML, `index.html` drawing the world as a graph
//! whose boxes link the levels' viewer pages. With `--level NAME`, only that
//! level — made as the whole world would make it — printed in the format.

use crate::generate::{self, Format};
use crate::html_page::escape;
use crate::{Failure, WorldArgs, clear_earlier_run, tiled_files, write_atomically};
use prefabric::world::PlannedLevel;
use prefabric::{ExitWay, Map, Pack, World, render};
use std::fmt::Write as _;
use std::io::{self, Write};

/// Runs `world` on the pack's world.
pub(crate) fn run(args: &WorldArgs, pack: &Pack, seed: u64) -> Result<(), Failure> {
    for (given, flag) in
        [(args.map_type.is_some(), "--map-type"), (args.world.is_some(), "--world"), (args.depth != 1, "--depth")]
    {
        if given {
            return Err(Failure::Usage(format!(
                "error: {flag} is for a run of one map type (with --levels); the pack's world.toml says each level's map type and depth"
            )));
        }
    }
    let mut world = World::new(pack, seed).map_err(|e| Failure::Usage(e.to_string()))?;
    if let Some(name) = &args.level {
        // The levels its stairs lead to as well: an exit's arrival is known
        // once its destination is made, so the level prints as the whole world has it.
        let exits: Vec<String> = world
            .level(name)
            .map_err(|e| Failure::Problems(e.to_string()))?
            .exits()
            .iter()
            .filter_map(|e| e.to.clone())
            .collect();
        for to in exits {
            world.level(&to).map_err(|e| Failure::Problems(e.to_string()))?;
        }
        let map = world.level(name).map_err(|e| Failure::Problems(e.to_string()))?.clone();
        let rendering = generate::Rendering {
            png: render::PngOptions::default(),
            trace: false,
            command: format!("prefabric world --seed {seed} --level {name}"),
        };
        let format = if args.format == Format::Ansi { Format::Ascii } else { args.format };
        let bytes = generate::map_bytes(&map, pack, format, &rendering)?;
        io::stdout().lock().write_all(&bytes)?;
        return Ok(());
    }
    world.make_all().map_err(|e| Failure::Problems(e.to_string()))?;
    let mut out = io::stdout().lock();
    writeln!(out, "{}", summary(&world))?;
    for (i, level) in world.plan().levels.iter().enumerate() {
        writeln!(out, "{}", listing(level, &world.maps()[i]))?;
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Usage(format!("error: cannot create {}: {e}", dir.display())))?;
        let lines: Vec<String> = world.spec().lines.iter().map(|l| format!("{}-", l.name)).collect();
        clear_earlier_run(dir, args.force, &lines)?;
        let written = write_levels(args, pack, &world, dir)?;
        let files = |l: &PlannedLevel| Some(file_name(l, args.format));
        write_atomically(&dir.join("world.json"), world.to_json(&files).as_bytes())?;
        if args.format == Format::Html {
            write_atomically(&dir.join("index.html"), index_page(&world, seed).as_bytes())?;
        }
        writeln!(out, "wrote {written} and {}", dir.join("world.json").display())?;
    }
    out.flush()?;
    Ok(())
}

/// The first line: the seed, the levels and where each branch went.
fn summary(world: &World<'_>) -> String {
    let lines = &world.spec().lines;
    let branches: Vec<String> = world
        .plan()
        .branches
        .iter()
        .map(|b| match b.entrance {
            Some(e) => format!("{} from {}", lines[b.line].name, world.plan().levels[e].name),
            None => format!("{} not in this world", lines[b.line].name),
        })
        .collect();
    let branches = if branches.is_empty() { String::new() } else { format!("; branches: {}", branches.join(", ")) };
    format!("# world seed {}: {} levels{branches}", world.seed(), world.plan().levels.len())
}

/// One level's line: name, depth, map type, seed and its exits.
fn listing(level: &PlannedLevel, map: &Map) -> String {
    let exits: Vec<String> = map
        .exits()
        .iter()
        .map(|e| {
            let to = match (&e.to, e.arrival) {
                (None, _) => "out of the world".to_string(),
                (Some(to), Some(at)) => format!("{to} {at}"),
                (Some(to), None) => to.clone(),
            };
            format!("{} {} -> {to}", e.way.name(), e.at)
        })
        .collect();
    format!(
        "{:<14} depth {:<3} {:<10} seed {:<20}  {}",
        level.name,
        level.depth,
        level.map_type,
        level.seed,
        exits.join("; ")
    )
}

/// A level's file: `materials-03.json`, its number padded to two digits.
fn file_name(level: &PlannedLevel, format: Format) -> String {
    let line = level.name.rsplit_once(':').map_or(level.name.as_str(), |(line, _)| line);
    format!("{line}-{:02}.{}", level.number, format.extension())
}

/// Writes every level into `dir` in the run's format; says what it wrote.
fn write_levels(args: &WorldArgs, pack: &Pack, world: &World<'_>, dir: &std::path::Path) -> Result<String, Failure> {
    let levels = &world.plan().levels;
    let command = |l: &PlannedLevel| format!("prefabric world --seed {} --level {}", world.seed(), l.name);
    if let Some(tiled) = args.format.tiled() {
        let named: Vec<(String, Map, String)> = levels
            .iter()
            .zip(world.maps())
            .map(|(l, map)| (file_name(l, args.format), map.clone(), command(l)))
            .collect();
        tiled_files::write_world(&named, pack, dir, tiled, args.tileset.unwrap_or_default())?;
        return Ok(format!("{} level files with their Tiled tileset", levels.len()));
    }
    if args.format == Format::Ldtk {
        let project = dir.join("world.ldtk");
        write_atomically(&project, render::world_ldtk(world.maps(), pack).as_bytes())?;
        return Ok(format!("{} levels in {}", levels.len(), project.display()));
    }
    let format = if args.format == Format::Ansi { Format::Ascii } else { args.format };
    for (i, level) in levels.iter().enumerate() {
        let map = &world.maps()[i];
        let mut html = generate::page_options(args.editor_url.clone());
        html.links = exit_links(world, map, args.format);
        let rendering =
            generate::Rendering { png: render::PngOptions::default(), trace: false, command: command(level) };
        let bytes = generate::page_or_map_bytes(map, pack, format, &rendering, &html)?;
        write_atomically(&dir.join(file_name(level, args.format)), &bytes)?;
    }
    Ok(format!("{} level files", levels.len()))
}

/// A level page's links: the index, and each exit to its destination's page.
fn exit_links(world: &World<'_>, map: &Map, format: Format) -> Vec<render::PageLink> {
    let link = |text: String, href: String| render::PageLink { text, href };
    let mut links = vec![link("the world".into(), "index.html".into())];
    for exit in map.exits() {
        let Some(to) = exit.to.as_deref().and_then(|to| world.plan().index(to)) else { continue };
        let level = &world.plan().levels[to];
        let arrival = exit.arrival.map(|p| format!(" at {p}")).unwrap_or_default();
        links.push(link(format!("{} {}: {}{arrival}", exit.way.name(), exit.at, level.name), file_name(level, format)));
    }
    links
}

/// Box size and spacing of the index's graph, in SVG units.
const BOX: (i32, i32) = (150, 40);
const GAP: (i32, i32) = (40, 28);

/// `index.html`: the world drawn as a graph, one column per line, one row per
/// depth; each box links its level's page, each arrow (an exit) its destination.
fn index_page(world: &World<'_>, seed: u64) -> String {
    let plan = world.plan();
    let spec = world.spec();
    let place = |l: &PlannedLevel| (20 + l.line as i32 * (BOX.0 + GAP.0), 20 + (l.depth as i32 - 1) * (BOX.1 + GAP.1));
    let width = 40 + spec.lines.len() as i32 * (BOX.0 + GAP.0);
    let height = 40 + plan.levels.iter().map(|l| l.depth as i32).max().unwrap_or(1) * (BOX.1 + GAP.1);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"the world's levels and their stairs\">\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#888\"/></marker></defs>\n"
    );
    for (i, level) in plan.levels.iter().enumerate() {
        let (x, y) = place(level);
        for exit in world.maps()[i].exits().iter().filter(|e| e.way != ExitWay::Up) {
            let Some(to) = exit.to.as_deref().and_then(|t| plan.index(t)) else { continue };
            let (tx, ty) = place(&plan.levels[to]);
            let arrival = exit.arrival.map(|p| format!(" at {p}")).unwrap_or_default();
            let _ = writeln!(
                svg,
                "<a href=\"{}\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{ty}\" stroke=\"#888\" stroke-width=\"2\" marker-end=\"url(#arrow)\"><title>{} {}: {}{arrival}</title></line></a>",
                escape(&file_name(&plan.levels[to], Format::Html)),
                x + BOX.0 / 2,
                y + BOX.1,
                tx + BOX.0 / 2,
                exit.way.name(),
                exit.at,
                escape(&plan.levels[to].name),
            );
        }
    }
    for level in &plan.levels {
        let (x, y) = place(level);
        let _ = writeln!(
            svg,
            "<a href=\"{}\"><rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"#223\" stroke=\"#99b\"/>\
             <text x=\"{}\" y=\"{}\" fill=\"#eee\" font-family=\"monospace\" font-size=\"13\" text-anchor=\"middle\">{}</text>\
             <text x=\"{}\" y=\"{}\" fill=\"#aab\" font-family=\"monospace\" font-size=\"11\" text-anchor=\"middle\">depth {} · {}</text></a>",
            escape(&file_name(level, Format::Html)),
            BOX.0,
            BOX.1,
            x + BOX.0 / 2,
            y + 16,
            escape(&level.name),
            x + BOX.0 / 2,
            y + 32,
            level.depth,
            escape(&level.map_type),
        );
    }
    svg.push_str("</svg>\n");
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>prefabric world, seed {seed}</title>\n\
         <style>body{{background:#111;color:#ddd;font-family:sans-serif;margin:2em}}a{{color:#9bf}}</style>\n</head>\n<body>\n\
         <h1>prefabric world, seed {seed}</h1>\n<p>{}</p>\n<p>Each box is a level (its viewer page); each arrow a way down or into a branch, to the level it leads to.</p>\n{svg}</body>\n</html>\n",
        escape(&summary(world)),
    )
}
