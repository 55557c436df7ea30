//! `prefabric generate`: one map, printed or written in the format asked for.
//!
//! In: the command line's pack, map type, seed, depth, previews and output
//! options. Out: the map as text, JSON, a REXPaint image, a PNG image, the HTML
//! viewer, a Tiled map with its tileset or an LDtk project, and on standard
//! error the line that makes the same file again.

use crate::tiled_files::{self, TiledFormat, TilesetChoice};
use crate::{Failure, fresh_seed, pack_or_fail, write_atomically};
use clap::ValueEnum;
use prefabric::{Generator, Map, Pack, render};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub(crate) struct GenerateArgs {
    /// Content pack folder (default: the built-in pack).
    #[arg(long, value_name = "DIR")]
    pack: Option<PathBuf>,
    /// Map type to generate (default: the pack's default map type).
    #[arg(long, value_name = "NAME")]
    map_type: Option<String>,
    /// Seed; the same seed gives the same map (default: a random one, printed).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::parse_seed)]
    seed: Option<u64>,
    /// Depth the map is generated for.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    depth: u32,
    /// Generate the map W cells wide and H high instead of the map type's own
    /// size (an error names what does not fit).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    size: Option<(u32, u32)>,
    /// Output format (default: the one --out's extension names — .json, .xp,
    /// .png, .html, .tmj, .tmx, .ldtk, .txt — else ansi on a terminal, else ascii).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Tiled (tmj, tmx): put the tileset in a file beside the map
    /// (NAME-tiles.tsj or .tsx, with NAME-tiles.png) or inside the map (the
    /// image is always a file beside it).
    #[arg(long, value_enum, value_name = "WHERE")]
    tileset: Option<TilesetChoice>,
    /// PNG: pixels per cell side, 1-32.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=32))]
    scale: u32,
    /// PNG: outline every placed prefab, coloured by its encounter's category (Cogmind's
    /// debug view) or by the stage that placed it.
    #[arg(long, value_enum, value_name = "BY")]
    highlight: Option<HighlightBy>,
    /// PNG: add a legend of the colours below the map.
    #[arg(long)]
    legend: bool,
    /// Text: print only the window of W x H cells whose top-left cell is (X, Y),
    /// counted from 0 as in JSON (a 200x200 map is wider than most terminals).
    #[arg(long, value_name = "X,Y,W,H", allow_hyphen_values = true, value_parser = parse_crop)]
    crop: Option<prefabric::Rect>,
    /// Write the map to this file instead of standard output (`-` is standard
    /// output). The file is written whole or not at all; a symbolic link is
    /// followed, a pipe or device (`/dev/stdout`) written into, and a read-only
    /// file left alone.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print every decision of the generation to standard error (of every
    /// attempt, when all of them fail); with --format json, list them in the JSON too.
    #[arg(long)]
    explain: bool,
    /// Preview: use this feature variant instead of one drawn by weight.
    #[arg(long, value_name = "NAME")]
    variant: Option<String>,
    /// Preview: place this encounter first (an error saying why when it fits nowhere).
    #[arg(long, value_name = "ID")]
    encounter: Option<String>,
    /// Preview: use this prefab where its feature placement or encounter chooses
    /// among alternatives (forcing that variant or encounter too), or place a
    /// chain or pathways pool prefab (room or hallway piece) at least once.
    #[arg(long, value_name = "PREFAB")]
    prefab: Option<String>,
    /// HTML: make each `file:line` in the viewer a link your editor opens, from this
    /// template: {path} is the file's absolute path, {line} its line
    /// (e.g. 'vscode://file/{path}:{line}').
    #[arg(long, value_name = "TEMPLATE")]
    editor_url: Option<String>,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Plain text, one line per row.
    Ascii,
    /// Text with terminal colours.
    Ansi,
    /// JSON in the schema docs/json-schema.md documents.
    Json,
    /// A REXPaint image: terrain, prefab outlines and objects on three layers.
    Xp,
    /// A PNG image: a tile per cell in the palette's colours, objects over terrain.
    Png,
    /// The viewer: one self-contained HTML page with zoom, layers, cell details and
    /// the trace's timeline.
    Html,
    /// A map for the Tiled editor (JSON), with its tileset beside it: tile layers of
    /// terrain and objects, object layers of regions, prefabs, objects, links,
    /// doors and marks.
    Tmj,
    /// The same map for Tiled as XML.
    Tmx,
    /// An LDtk project: terrain roles on an IntGrid layer, objects, placed prefabs
    /// and regions as entities.
    Ldtk,
}

/// What `--highlight` colours prefab outlines by.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum HighlightBy {
    /// The encounter's category; features and layout pieces in their own colours.
    Category,
    /// The stage that placed the prefab.
    Stage,
}

impl Format {
    /// The extension of a file in this format (`txt` for text and ANSI).
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Xp => "xp",
            Format::Png => "png",
            Format::Html => "html",
            Format::Tmj => "tmj",
            Format::Tmx => "tmx",
            Format::Ldtk => "ldtk",
            Format::Ascii | Format::Ansi => "txt",
        }
    }

    /// The Tiled map format it is, if it is one.
    pub(crate) fn tiled(self) -> Option<TiledFormat> {
        match self {
            Format::Tmj => Some(TiledFormat::Json),
            Format::Tmx => Some(TiledFormat::Xml),
            _ => None,
        }
    }

    /// The format a file name's extension implies: `.json`, `.xp`, `.png`,
    /// `.html`, `.tmj`, `.tmx`, `.ldtk`, `.txt` (plain text).
    pub(crate) fn of_path(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "json" => Some(Format::Json),
            "xp" => Some(Format::Xp),
            "png" => Some(Format::Png),
            "html" | "htm" => Some(Format::Html),
            "tmj" => Some(Format::Tmj),
            "tmx" => Some(Format::Tmx),
            "ldtk" => Some(Format::Ldtk),
            "txt" => Some(Format::Ascii),
            _ => None,
        }
    }
}

pub(crate) fn generate(mut args: GenerateArgs) -> Result<(), Failure> {
    // `--out -` is standard output, as convert's `-` is.
    if args.out.as_deref() == Some(Path::new("-")) {
        args.out = None;
    }
    let pack = pack_or_fail(args.pack.as_deref())?;
    let map_type = args.map_type.unwrap_or_else(|| pack.default_map_type().to_string());
    let preview = prefabric::Preview {
        variant: args.variant.clone(),
        encounter: args.encounter.clone(),
        prefab: args.prefab.clone(),
    };
    let sized = match args.size {
        Some((w, h)) => Some(pack.map_type_sized(&map_type, w, h).map_err(|e| Failure::Usage(e.to_string()))?),
        None => None,
    };
    let generator = match &sized {
        Some(sized) => Ok(Generator::with_map_type(&pack, sized)),
        None => Generator::new(&pack, &map_type),
    };
    let generator =
        generator.and_then(|g| g.preview(&preview)).map_err(|e| Failure::Usage(e.to_string()))?.depth(args.depth);
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let map = match generator.generate(seed) {
        Ok(map) => map,
        Err(e) => {
            if args.explain {
                let mut err = io::stderr().lock();
                for (n, (trace, failure)) in generator.attempts(seed).iter().enumerate() {
                    writeln!(err, "== attempt {} ==", n + 1)?;
                    for event in trace.events() {
                        writeln!(err, "{event}")?;
                    }
                    if let Some(f) = failure {
                        writeln!(err, "attempt {} failed: {}", n + 1, f.message())?;
                    }
                }
            }
            return Err(Failure::Problems(e.to_string()));
        }
    };

    if args.explain {
        let mut err = io::stderr().lock();
        for event in map.trace().events() {
            writeln!(err, "{event}")?;
        }
    }
    let to_terminal = args.out.is_none() && io::stdout().is_terminal();
    // Without --format: what --out's extension says, else colour on a terminal.
    let implied = args.out.as_deref().and_then(Format::of_path);
    let format = args.format.or(implied).unwrap_or(if to_terminal && std::env::var_os("NO_COLOR").is_none() {
        Format::Ansi
    } else {
        Format::Ascii
    });
    let pack_flag = args.pack.as_ref().map(|p| format!(" --pack {}", p.display())).unwrap_or_default();
    let depth_flag = if args.depth == 1 { String::new() } else { format!(" --depth {}", args.depth) };
    let mut preview_flags = String::new();
    for (flag, value) in [("variant", &args.variant), ("encounter", &args.encounter), ("prefab", &args.prefab)] {
        if let Some(v) = value {
            let quoted = if v.contains(' ') { format!("'{v}'") } else { v.clone() };
            preview_flags.push_str(&format!(" --{flag} {quoted}"));
        }
    }
    // The image's own options, so the reproduce line makes the same file.
    let mut image_flags = String::new();
    if args.scale != 4 {
        image_flags.push_str(&format!(" --scale {}", args.scale));
    }
    if let Some(h) = args.highlight.and_then(|h| h.to_possible_value()) {
        image_flags.push_str(&format!(" --highlight {}", h.get_name()));
    }
    if args.legend {
        image_flags.push_str(" --legend");
    }
    if args.tileset.is_some() && format.tiled().is_none() {
        return Err(Failure::Usage(
            "error: --tileset places a Tiled map's tileset; add --format tmj or tmx (or --out FILE.tmj)".into(),
        ));
    }
    if let (Some(tiled), None) = (format.tiled(), &args.out) {
        return Err(Failure::Usage(format!(
            "error: --format {0} writes a map and its tileset image as files; give --out FILE.{0}",
            tiled.map_extension()
        )));
    }
    if matches!(format, Format::Xp | Format::Png | Format::Html) && args.out.is_none() && io::stdout().is_terminal() {
        let (name, what) = match format {
            Format::Xp => ("xp", "a binary REXPaint image"),
            Format::Png => ("png", "a binary PNG image"),
            _ => ("html", "a web page to open in a browser"),
        };
        return Err(Failure::Usage(format!(
            "error: --format {name} writes {what}; give --out FILE.{name} (or redirect standard output)"
        )));
    }
    let png_options = render::PngOptions {
        scale: args.scale,
        highlight: args.highlight.map(|h| match h {
            HighlightBy::Category => render::Highlight::Category,
            HighlightBy::Stage => render::Highlight::Stage,
        }),
        legend: args.legend,
    };
    if format != Format::Png && png_options != render::PngOptions::default() {
        return Err(Failure::Usage(
            "error: --scale, --highlight and --legend draw PNG images; add --format png (or --out FILE.png)".into(),
        ));
    }
    if let Some(window) = args.crop {
        if !matches!(format, Format::Ascii | Format::Ansi) {
            return Err(Failure::Usage(
                "error: --crop prints a window of a text map; use it with --format ascii or ansi".into(),
            ));
        }
        if window.x >= map.width() || window.y >= map.height() {
            return Err(Failure::Usage(format!(
                "error: --crop {},{},{},{} starts outside the {}x{} map: X must be below {} and Y below {}",
                window.x,
                window.y,
                window.width,
                window.height,
                map.width(),
                map.height(),
                map.width(),
                map.height()
            )));
        }
        image_flags.push_str(&format!(" --crop {},{},{},{}", window.x, window.y, window.width, window.height));
    }
    if args.tileset == Some(TilesetChoice::Embedded) {
        image_flags.push_str(" --tileset embedded");
    }
    // The line must make the same file: name the format unless the extension implies it.
    let format_flag = match (implied, format.to_possible_value()) {
        (Some(f), _) if f == format => String::new(),
        (_, Some(v)) => format!(" --format {}", v.get_name()),
        (_, None) => String::new(),
    };
    let size_flag = args.size.map(|(w, h)| format!(" --size {w}x{h}")).unwrap_or_default();
    let head = format!("prefabric generate{pack_flag} --map-type {map_type}");
    let tail = format!("{depth_flag}{size_flag}{preview_flags}{image_flags}");
    let reproduce = format!("{head} --seed {seed}{tail}");
    let mut html = render::HtmlOptions::default();
    let mut format_flag = format_flag;
    if format == Format::Html {
        if let Some(template) = &args.editor_url {
            format_flag.push_str(&format!(" --editor-url '{template}'"));
        }
        html = page_options(args.editor_url.clone());
        html.neighbours =
            crate::neighbours::seed_steps(&head, &format!("{tail}{format_flag}"), seed, args.out.as_deref());
    }
    let out_flag = args.out.as_ref().map(|p| format!(" --out {}", p.display())).unwrap_or_default();
    if let (Some(tiled), Some(path)) = (format.tiled(), &args.out) {
        let command = format!("{reproduce}{format_flag}{out_flag}");
        let choice = args.tileset.unwrap_or_default();
        let written = tiled_files::write_map(&map, &pack, path, tiled, choice, command.clone())?;
        let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        writeln!(io::stderr(), "wrote {} (seed {seed}; reproduce: {command})", names.join(", "))?;
        return Ok(());
    }
    let rendering =
        Rendering { png: png_options, trace: args.explain, command: format!("{reproduce}{format_flag}{out_flag}") };
    let bytes = match (args.crop, format) {
        (Some(window), Format::Ansi) => render::ansi_window(&map, pack.palette(), window).into_bytes(),
        (Some(window), _) => render::ascii_window(&map, pack.palette(), window).into_bytes(),
        (None, _) => page_or_map_bytes(&map, &pack, format, &rendering, &html)?,
    };
    let bytes = if matches!(format, Format::Ascii | Format::Ansi) {
        let cells = args.crop.map_or(String::new(), |w| {
            let last = |start: i32, len: i32, size: i32| start.saturating_add(len).min(size) - 1;
            format!(
                ", cells x {}-{} y {}-{}",
                w.x,
                last(w.x, w.width, map.width()),
                w.y,
                last(w.y, w.height, map.height())
            )
        });
        let header =
            format!("# map type {map_type}, seed {seed}, depth {}{cells}; reproduce: {reproduce}\n", args.depth);
        [header.into_bytes(), bytes].concat()
    } else {
        bytes
    };
    match &args.out {
        Some(path) => {
            write_atomically(path, &bytes)?;
            writeln!(io::stderr(), "wrote {} (seed {seed}; reproduce: {})", path.display(), rendering.command)?;
        }
        None => {
            let mut out = io::stdout().lock();
            out.write_all(&bytes)?;
            out.flush()?;
            if format == Format::Json && io::stderr().is_terminal() {
                writeln!(io::stderr(), "seed {seed}; reproduce: {reproduce} --format json")?;
            }
        }
    }
    Ok(())
}

/// Reads `--crop X,Y,W,H`: a corner at or right of and below (0, 0) and a size
/// of at least one cell.
fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let parts = text.split_once(['x', 'X']).map(|(w, h)| (w.trim().parse::<u32>(), h.trim().parse::<u32>()));
    match parts {
        Some((Ok(w), Ok(h))) => Ok((w, h)),
        _ => Err(format!("`{text}` is not WxH: a width and a height in cells, e.g. 120x80")),
    }
}

fn parse_crop(text: &str) -> Result<prefabric::Rect, String> {
    let numbers: Vec<&str> = text.split(',').map(str::trim).collect();
    let [x, y, w, h] = numbers.as_slice() else {
        return Err(format!("`{text}` is not X,Y,W,H: four numbers separated by commas, e.g. 0,0,80,40"));
    };
    let number = |what: &str, s: &str, least: i32| match s.parse::<i32>() {
        Ok(n) if n >= least => Ok(n),
        _ => Err(format!("{what} `{s}` must be a whole number of at least {least}")),
    };
    Ok(prefabric::Rect {
        x: number("X", x, 0)?,
        y: number("Y", y, 0)?,
        width: number("W", w, 1)?,
        height: number("H", h, 1)?,
    })
}

/// How a map is drawn, besides its format.
pub(crate) struct Rendering {
    /// PNG: scale, highlight and legend.
    pub(crate) png: render::PngOptions,
    /// JSON: list the trace too.
    pub(crate) trace: bool,
    /// HTML: the command that makes the same file, shown in the viewer.
    pub(crate) command: String,
}

/// The viewer's options for an editor URL template: the template, and the
/// current folder that the pack's relative paths start from.
pub(crate) fn page_options(editor_url: Option<String>) -> render::HtmlOptions {
    let editor_base =
        editor_url.as_ref().and_then(|_| std::env::current_dir().ok()).map(|dir| dir.display().to_string());
    render::HtmlOptions { editor_url, editor_base, ..Default::default() }
}

/// The map in `format`; text formats without their comment line.
pub(crate) fn map_bytes(map: &Map, pack: &Pack, format: Format, rendering: &Rendering) -> Result<Vec<u8>, Failure> {
    page_or_map_bytes(map, pack, format, rendering, &render::HtmlOptions::default())
}

/// [`map_bytes`], with the viewer's options besides its command (`html`).
pub(crate) fn page_or_map_bytes(
    map: &Map,
    pack: &Pack,
    format: Format,
    rendering: &Rendering,
    html: &render::HtmlOptions,
) -> Result<Vec<u8>, Failure> {
    Ok(match format {
        Format::Json if rendering.trace => render::json_with_trace(map, pack).into_bytes(),
        Format::Json => render::json(map, pack).into_bytes(),
        Format::Xp => prefabric::format::xp::write(&render::map_xp(map, pack.palette())),
        Format::Png => {
            render::map_png(map, pack.palette(), &rendering.png).map_err(|e| Failure::Usage(e.to_string()))?
        }
        Format::Html => {
            let options = render::HtmlOptions { command: Some(rendering.command.clone()), ..html.clone() };
            render::map_html(map, pack, &options).into_bytes()
        }
        Format::Ldtk => render::map_ldtk(map, pack).into_bytes(),
        Format::Ansi => render::ansi(map, pack.palette()).into_bytes(),
        Format::Ascii => render::ascii(map, pack.palette()).into_bytes(),
        Format::Tmj | Format::Tmx => {
            return Err(Failure::Usage("error: a Tiled map is several files; write it with --out".into()));
        }
    })
}
