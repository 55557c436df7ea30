//! The `prefabric` command: generate maps, show prefabs and REXPaint images, convert
//! prefabs between text and `.xp`, check packs.
//!
//! A thin layer over the library's public API: parse arguments, load the pack,
//! call the library, print. Exit codes: 0 success, 1 problems found or generation
//! failed, 2 usage or I/O error. A closed pipe (`prefabric generate | head`) ends
//! the program quietly with 0.

mod check;
mod generate;
mod html_page;
mod import_des;
mod init;
mod neighbours;
mod prefab_files;
mod safe_write;
mod stats;
mod stats_depth_html;
mod stats_examples_html;
mod stats_html;
mod stats_world;
mod tiled_files;
mod watch;
mod world_graph;
mod world_index;

use clap::{Parser, Subcommand};
use generate::Format;
use prefabric::{Generator, Limits, Pack, Problems, render};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "prefabric",
    version,
    about = "Roguelike maps from hand-made prefabs woven into procedural layouts",
    long_about = "Roguelike maps from hand-made prefabs woven into procedural layouts.\n\n\
        Without --pack, commands use the default content pack built into the program.",
    after_help = "Examples:\n  \
        prefabric generate                          a map of the default pack's default type\n  \
        prefabric generate --seed 42 --format json  the same map every time, as JSON\n  \
        prefabric show my_pack/prefabs/vaults.txt   prefabs as they would be placed\n  \
        prefabric show picture.xp                   every layer of a REXPaint image\n  \
        prefabric convert vault.txt vault.xp        a text prefab as a REXPaint prefab\n  \
        prefabric check --pack my_pack              every problem in a pack, with file:line:col\n  \
        prefabric init my_pack                      a commented pack to start your own from"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a map and print it (or write it to a file).
    #[command(after_help = "Examples:\n  \
        prefabric generate\n  \
        prefabric generate --seed 1234 --depth 3\n  \
        prefabric generate --pack my_pack --map-type caves --format json --out map.json\n  \
        prefabric generate --seed 7 --explain 2> decisions.txt\n  \
        prefabric generate --seed 7 --format xp --out map.xp   open it in REXPaint\n  \
        prefabric generate --seed 7 --out map.png --highlight category --legend   an image, prefabs outlined\n  \
        prefabric generate --seed 7 --out map.html   the viewer: zoom, layers, what each cell holds, the trace\n  \
        prefabric generate --seed 7 --out map.tmj    a Tiled map, with map-tiles.tsj and map-tiles.png beside it\n  \
        prefabric generate --seed 7 --out map.ldtk   an LDtk project, to open in LDtk or an engine's LDtk importer")]
    Generate(generate::GenerateArgs),
    /// Render the prefabs of a prefab file as they would be placed, or every layer of
    /// a REXPaint image.
    #[command(after_help = "Examples:\n  \
        prefabric show content/default/prefabs/entrances.txt\n  \
        prefabric show content/default/prefabs/set_pieces.txt --name crossroads_plaza --transform r90\n  \
        prefabric show my_pack/prefabs/vaults.txt --pack my_pack --all-transforms\n  \
        prefabric show content/default/prefabs/catacombs/ossuaries.txt --name columbarium --variants 3\n  \
        prefabric show picture.xp                    each layer of any REXPaint image\n  \
        prefabric show content/default/prefabs/xp/foundry.xp --prefab   the image read as a prefab")]
    Show(prefab_files::ShowArgs),
    /// Convert prefabs between the text syntax, REXPaint `.xp` files and Tiled maps.
    #[command(
        long_about = "Convert prefabs between the text syntax (.txt), REXPaint images (.xp) and Tiled maps (.tmx, .tmj).\n\n\
            A .xp prefab holds its four layers (five with a variation's mask); its name is its \
            file name and its header (tags, transforms, style, variation lines) lives in \
            NAME.toml beside it, which convert writes too. \
            Everything both formats can hold survives the round trip; what one cannot hold \
            is reported. A Tiled prefab (.tmx or .tmj) is the same: one prefab named after \
            its file, its header in NAME.toml; convert writes its tileset embedded, with the \
            tileset image as NAME.png. Existing files are kept unless --force is given.",
        after_help = "Examples:\n  \
        prefabric convert vaults.txt vault_a.xp --name vault_a   one prefab of a text file\n  \
        prefabric convert vaults.txt xp_out/                      every prefab, as xp_out/NAME.xp\n  \
        prefabric convert vault_a.xp vault_a.txt                  back to text (- for standard output)\n  \
        prefabric convert vaults.txt vault_a.tmx --name vault_a  to draw it in Tiled (or .tmj)\n  \
        prefabric convert vaults.txt tiled_out/ --to tmx          every prefab, as tiled_out/NAME.tmx"
    )]
    Convert(prefab_files::ConvertArgs),
    /// Generate a world of levels: the pack's world.toml (a main line and its
    /// branches, with stairs that lead into each other), or with --levels a run of
    /// one map type at increasing depth. Encounters limited per world appear at
    /// most that often across all the levels.
    #[command(after_help = "Examples:\n  \
        prefabric world --seed 7                              the built-in world: each level and where its stairs lead\n  \
        prefabric world --seed 7 --format html --out w/       w/index.html draws the world; w/materials-01.html ...\n  \
        prefabric world --seed 7 --level mines:2 --format ascii   one level, as the whole world makes it\n  \
        prefabric world --levels 10 --seed 7                  a run of the default map type: what each level holds\n  \
        prefabric world --levels 20 --seed 7 --out run/       run/level-01.json ... and run/world.json\n  \
        prefabric world --levels 5 --seed 7 --format tmj --out run/   Tiled maps, their tileset and run/world.world\n  \
        prefabric world --levels 5 --seed 7 --format ldtk --out run/   run/world.ldtk: every level in one LDtk project\n  \
        prefabric world --levels 5 --world run/world.json --depth 21 --out run2/   carry on a saved world")]
    World(WorldArgs),
    /// Load and validate a pack; print every problem as file:line:col.
    #[command(after_help = "Examples:\n  \
        prefabric check\n  \
        prefabric check --pack my_pack\n  \
        prefabric check --pack my_pack --seeds 200")]
    Check(check::CheckArgs),
    /// Generate many maps on every core and report what became of each piece of
    /// content: feature variants, encounters, prefabs, furnishing, time per map.
    #[command(after_help = "Examples:\n  \
        prefabric stats --seeds 10000                     every map type of the built-in pack\n  \
        prefabric stats --pack my_pack --map-type caves --depth 1-5\n  \
        prefabric stats --seeds 0..50000 --json > a.json   one shard of a large run\n  \
        prefabric stats --seeds 50000..100000 --json > b.json\n  \
        prefabric stats merge a.json b.json               the two shards as one report")]
    Stats(stats::StatsArgs),
    /// Check a pack and make one map again each time a file of the pack changes:
    /// problems and the map on the terminal, and an HTML viewer that reloads itself.
    #[command(after_help = "Examples:\n  \
        prefabric watch --pack my_pack                       open prefabric-watch.html in a browser\n  \
        prefabric watch --pack my_pack --map-type caves --seed 7 --out caves.html\n  \
        prefabric watch --pack my_pack --no-map              problems only on the terminal")]
    Watch(watch::WatchArgs),
    /// Import Dungeon Crawl Stone Soup `.des` vault files into a pack: prefabs with
    /// their variations, definition files, catalog entries, encounter pools and map
    /// types; prints what became of every map.
    #[command(
        name = "import-des",
        long_about = "Import Dungeon Crawl Stone Soup `.des` vault files into a pack.\n\n\
            Each map becomes a prefab (its SUBST, NSUBST and SHUFFLE lines its variation \
            rules, its monsters, items and features reference characters of a definition \
            file naming new catalog entries), placed as an encounter in rooms and caverns, \
            a feature at the edge it is anchored to, or a map type of its own for a \
            whole-level vault. Maps with Lua or sub-vaults are skipped; what cannot be kept \
            is counted as a loss. The pack is the base pack (the built-in one unless --base) \
            with the import added, and loads clean: a vault `check` would reject is left \
            out and reported. Its palette says `moves = \"diagonal\"`, as DCSS's walkers \
            step (--moves orthogonal for a game whose walkers do not). prefabric ships no \
            DCSS content: run it on your own copy.",
        after_help = "Examples:\n  \
        prefabric import-des crawl/crawl-ref/source/dat/des --out dcss_pack\n  \
        prefabric import-des my_vaults.des --out my_pack --base my_game_pack --force\n  \
        prefabric import-des my_vaults.des --out my_pack --moves orthogonal\n  \
        prefabric generate --pack dcss_pack --map-type dcss_rooms --seed 3"
    )]
    ImportDes(import_des::ImportDesArgs),
    /// Start a content pack: write a small commented pack with one map type for each
    /// layout generator (or the whole built-in pack) into a new folder.
    #[command(after_help = "Examples:\n  \
        prefabric init my_pack                    the starter pack, to grow your own from\n  \
        prefabric init my_pack --from default     every file of the built-in pack\n  \
        prefabric init . --force                  into the current folder, though it holds files")]
    Init(init::InitArgs),
}

#[derive(clap::Args)]
struct WorldArgs {
    /// A run of N levels of one map type (1 or more). Without it, the pack's
    /// world.toml: its main line and branches.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    levels: Option<u32>,
    /// With the pack's world.toml: make only this level (e.g. `mines:2`), as the
    /// whole world would, and print it in --format.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["levels", "out"])]
    level: Option<String>,
    /// Seed of the whole run; each level's seed is derived from it (default: a random one, printed).
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = crate::parse_seed)]
    seed: Option<u64>,
    /// Content pack folder (default: the built-in pack).
    #[arg(long, value_name = "DIR")]
    pack: Option<PathBuf>,
    /// Map type of every level (default: the pack's default map type).
    #[arg(long, value_name = "NAME")]
    map_type: Option<String>,
    /// Depth of the first level; each next level is one deeper.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    depth: u32,
    /// Start from a world saved by an earlier run instead of a new one.
    #[arg(long, value_name = "FILE")]
    world: Option<PathBuf>,
    /// Write each level (level-01.json, ...) and the final world.json into this folder
    /// (with --format ldtk, one world.ldtk holding every level, and world.json).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Format of the level files (ldtk: one LDtk project of all the levels, side by side).
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// With --out: remove the level files and world.json of an earlier run in
    /// that folder first (without it, such a folder is refused).
    #[arg(long)]
    force: bool,
    /// Tiled (tmj, tmx): one tileset file beside the levels (tiles.tsj or
    /// .tsx, with tiles.png), or a copy inside each level.
    #[arg(long, value_enum, value_name = "WHERE")]
    tileset: Option<tiled_files::TilesetChoice>,
    /// HTML: make each `file:line` in the viewer a link your editor opens, from this
    /// template: {path} is the file's absolute path, {line} its line
    /// (e.g. 'vscode://file/{path}:{line}').
    #[arg(long, value_name = "TEMPLATE")]
    editor_url: Option<String>,
}

/// Refuses a folder holding an earlier `world` run (its levels would lie beside
/// the new ones), or with `force` removes that run's files — and only those.
fn clear_earlier_run(dir: &Path, force: bool, prefixes: &[String]) -> Result<(), Failure> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| Failure::Usage(format!("error: cannot read {}: {e}", dir.display())))?;
    let earlier: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let level =
                prefixes.iter().find_map(|p| name.strip_prefix(p.as_str())).and_then(|rest| rest.split_once('.'));
            ["world.json", "world.ldtk", "world.world", "tiles.png", "tiles.tsj", "tiles.tsx", "index.html"]
                .contains(&name)
                || level.is_some_and(|(n, ext)| {
                    n.bytes().all(|b| b.is_ascii_digit())
                        && ["json", "txt", "xp", "png", "html", "tmj", "tmx"].contains(&ext)
                })
        })
        .collect();
    if earlier.is_empty() {
        return Ok(());
    }
    if !force {
        let mut names: Vec<String> =
            earlier.iter().filter_map(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned()).collect();
        names.sort();
        return Err(Failure::Usage(format!(
            "error: {} holds an earlier run ({}); give another --out folder, or --force to remove those files first",
            dir.display(),
            names.join(", ")
        )));
    }
    for path in earlier {
        std::fs::remove_file(&path)
            .map_err(|e| Failure::Usage(format!("error: cannot remove {}: {e}", path.display())))?;
    }
    Ok(())
}

/// Why the program stops early.
pub(crate) enum Failure {
    /// Content problems or a failed generation (exit 1).
    Problems(String),
    /// Bad usage or I/O (exit 2).
    Usage(String),
    /// Standard output was closed by the reader (exit 0).
    ClosedPipe,
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe { Failure::ClosedPipe } else { Failure::Usage(format!("error: {e}")) }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    safe_write::remove_partial_files_on_interrupt();
    let result = match cli.command {
        Command::Generate(args) => generate::generate(args),
        Command::Show(args) => prefab_files::show(args),
        Command::Check(args) => check::check(args),
        Command::Convert(args) => prefab_files::convert(args),
        Command::World(args) => world(args),
        Command::Stats(args) => stats::stats(args),
        Command::Watch(args) => watch::watch(args),
        Command::ImportDes(args) => import_des::import_des(args),
        Command::Init(args) => init::init(args),
    };
    match result {
        Ok(()) | Err(Failure::ClosedPipe) => ExitCode::SUCCESS,
        Err(Failure::Problems(text)) => {
            let _ = writeln!(io::stderr(), "{text}");
            ExitCode::from(1)
        }
        Err(Failure::Usage(text)) => {
            let _ = writeln!(io::stderr(), "{text}");
            ExitCode::from(2)
        }
    }
}

fn load_pack(dir: Option<&Path>) -> Result<Pack, Problems> {
    match dir {
        Some(dir) => Pack::load(dir),
        None => Pack::embedded(),
    }
}

/// A pack that fails to load is a content problem (exit 1), unless the folder
/// itself could not be read (exit 2).
fn pack_or_fail(dir: Option<&Path>) -> Result<Pack, Failure> {
    load_pack(dir).map_err(|problems| {
        let io_only = problems.errors().iter().all(|e| e.kind() == prefabric::ErrorKind::Io);
        let text = format!(
            "{}\n{} problem{} in the pack",
            problems.report(),
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        );
        if io_only { Failure::Usage(text) } else { Failure::Problems(text) }
    })
}

/// A seed as the command line writes it: 0 to 2^64 - 1.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|_| {
        format!("`{text}` is not a seed: seeds are whole numbers from 0 to 18446744073709551615 (2^64 - 1)")
    })
}

/// A seed for runs that name none, from the clock and the process id; printed so the
/// map can be made again.
fn fresh_seed() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0);
    let mut rng = prefabric::Rng::stream(nanos ^ u64::from(std::process::id()), "cli", "seed");
    u64::from(rng.next_u32())
}

/// Reads a file no bigger than the pack's file limit.
pub(crate) fn read_bounded(path: &Path, limits: &Limits) -> Result<Vec<u8>, Failure> {
    let shown = path.display();
    let size = std::fs::metadata(path).map_err(|e| Failure::Usage(format!("error: cannot read {shown}: {e}")))?.len();
    if size > limits.max_file_bytes {
        return Err(Failure::Usage(format!(
            "error: {shown} is {size} bytes, more than the {} byte limit",
            limits.max_file_bytes
        )));
    }
    std::fs::read(path).map_err(|e| Failure::Usage(format!("error: cannot read {shown}: {e}")))
}

/// Reads a text file no bigger than the file limit.
pub(crate) fn read_text(path: &Path, limits: &Limits) -> Result<String, Failure> {
    utf8_text(&path.display().to_string(), read_bounded(path, limits)?)
}

/// The bytes of file `shown` as text, or a problem naming the line, column and
/// byte of the first that is not UTF-8.
pub(crate) fn utf8_text(shown: &str, bytes: Vec<u8>) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..valid]);
        let at = prefabric::Location::at_offset(shown, &text, valid);
        Failure::Problems(format!("{at}: the file is not valid UTF-8 text (byte {valid})\n  help: save it as UTF-8"))
    })
}

/// Writes a file and says so on standard error.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    write_file_forced(path, bytes, false)
}

/// [`write_file`], replacing a read-only file too when `force` is set.
pub(crate) fn write_file_forced(path: &Path, bytes: &[u8], force: bool) -> Result<(), Failure> {
    write_replacing(path, bytes, force)?;
    writeln!(io::stderr(), "wrote {}", path.display())?;
    Ok(())
}

/// Writes `bytes` at `path` as [`safe_write`] says: an interrupted run never
/// leaves half a file, a reader (a browser, REXPaint) never sees one, and a
/// device, a pipe or a read-only file is never replaced.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    write_replacing(path, bytes, false)
}

/// [`write_atomically`], replacing a read-only file too when `force` is set
/// (the command's `--force`).
pub(crate) fn write_replacing(path: &Path, bytes: &[u8], force: bool) -> Result<(), Failure> {
    safe_write::write(path, bytes, force).map_err(|e| {
        let help = if e.to_string() == safe_write::READ_ONLY {
            "\n  help: make it writable (chmod u+w) to let prefabric replace it, or write elsewhere"
        } else {
            ""
        };
        Failure::Usage(format!("error: cannot write {}: {e}{help}", path.display()))
    })
}

/// The links of a world level's viewer page: the index, and the levels
/// before and after it.
fn level_links(level: u32, levels: u32, width: usize) -> Vec<render::PageLink> {
    let link = |text: String, href: String| render::PageLink { text, href };
    let mut links = vec![link("all levels".into(), "index.html".into())];
    if level > 1 {
        links.push(link(format!("level {}", level - 1), format!("level-{:0width$}.html", level - 1)));
    }
    if level < levels {
        links.push(link(format!("level {}", level + 1), format!("level-{:0width$}.html", level + 1)));
    }
    links
}

/// The encounters a level placed, counted and named: those with a prefab in
/// the order placed, then those that placed only objects.
fn encounters_placed(map: &prefabric::Map) -> String {
    let mut ids: Vec<&str> = map.prefabs().iter().filter_map(|p| p.encounter.as_ref().map(|e| e.id.as_str())).collect();
    ids.extend(map.object_encounters().iter().map(|e| e.id.as_str()));
    counted_encounters(&ids)
}

/// "1 encounter: a", "2 encounters: a, b", "0 encounters".
fn counted_encounters(ids: &[&str]) -> String {
    match ids.len() {
        0 => "0 encounters".to_string(),
        1 => format!("1 encounter: {}", ids[0]),
        n => format!("{n} encounters: {}", ids.join(", ")),
    }
}

fn world(args: WorldArgs) -> Result<(), Failure> {
    let pack = pack_or_fail(args.pack.as_deref())?;
    let Some(levels) = args.levels else {
        if pack.world().is_none() {
            return Err(Failure::Usage(format!(
                "error: pack `{}` has no world.toml: give --levels N for a run of one map type, or describe a world (docs/worlds.md)",
                pack.name()
            )));
        }
        if args.tileset.is_some() && args.format.tiled().is_none() {
            return Err(Failure::Usage(
                "error: --tileset places the levels' Tiled tileset; add --format tmj or tmx".into(),
            ));
        }
        let seed = args.seed.unwrap_or_else(fresh_seed);
        return world_graph::run(&args, &pack, seed);
    };
    let map_type = args.map_type.unwrap_or_else(|| pack.default_map_type().to_string());
    let seed = args.seed.unwrap_or_else(fresh_seed);
    if args.tileset.is_some() && args.format.tiled().is_none() {
        return Err(Failure::Usage(
            "error: --tileset places the levels' Tiled tileset; add --format tmj or tmx".into(),
        ));
    }
    let mut world = match &args.world {
        Some(path) => {
            let text = read_text(path, pack.limits())?;
            prefabric::WorldState::from_json(&path.display().to_string(), &text)
                .map_err(|e| Failure::Problems(e.to_string()))?
        }
        None => prefabric::WorldState::new(),
    };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Usage(format!("error: cannot create {}: {e}", dir.display())))?;
        clear_earlier_run(dir, args.force, &["level-".to_string()])?;
    }
    let width = levels.to_string().len().max(2);
    let world_command = format!(
        "prefabric world --levels {} --seed {seed}{}{} --map-type {map_type} --depth {}",
        levels,
        args.pack.as_ref().map(|p| format!(" --pack {}", p.display())).unwrap_or_default(),
        args.world.as_ref().map(|p| format!(" --world {}", p.display())).unwrap_or_default(),
        args.depth
    );
    let mut out = io::stdout().lock();
    writeln!(out, "# world of {levels} levels of {map_type}, seed {seed}")?;
    // Tiled levels share one tileset of every level's tiles: written after the last.
    let mut tiled_levels = Vec::new();
    // With --format ldtk the levels go into one project, written after the last.
    let mut ldtk_levels = Vec::new();
    // With --format html an index page links the levels' pages.
    let mut index = Vec::new();
    for level in 1..=levels {
        let depth = args.depth.saturating_add(level - 1);
        let level_seed = prefabric::Rng::stream_n(seed, "world/level", u64::from(world.levels()) + 1).next_u64();
        let generator = Generator::new(&pack, &map_type).map_err(|e| Failure::Usage(e.to_string()))?.depth(depth);
        let (map, next) =
            generator.generate_in(level_seed, &world).map_err(|e| Failure::Problems(format!("level {level}: {e}")))?;
        world = next;
        writeln!(out, "level {level:0width$}  depth {depth}  seed {level_seed}  {}", encounters_placed(&map))?;
        if let Some(dir) = &args.out {
            let extension = args.format.extension();
            let command = format!("{world_command} (level {level})");
            if args.format.tiled().is_some() {
                tiled_levels.push((format!("level-{level:0width$}.{extension}"), map, command));
                continue;
            }
            if args.format == Format::Ldtk {
                ldtk_levels.push(map);
                continue;
            }
            if args.format == Format::Html {
                let mut encounters: Vec<String> = map
                    .prefabs()
                    .iter()
                    .filter_map(|p| p.encounter.as_ref().map(|e| e.id.clone()))
                    .chain(map.object_encounters().iter().map(|e| e.id.clone()))
                    .collect();
                encounters.dedup();
                let file = format!("level-{level:0width$}.html");
                index.push(world_index::IndexEntry { level, depth, seed: level_seed, file, encounters });
            }
            let format = if args.format == Format::Ansi { Format::Ascii } else { args.format };
            let mut html = generate::page_options(args.editor_url.clone());
            if args.format == Format::Html {
                html.links = level_links(level, levels, width);
            }
            let rendering = generate::Rendering { png: render::PngOptions::default(), trace: false, command };
            let bytes = generate::page_or_map_bytes(&map, &pack, format, &rendering, &html)?;
            let path = dir.join(format!("level-{level:0width$}.{extension}"));
            write_atomically(&path, &bytes)?;
        }
    }
    let mut tiled_files_written = String::new();
    if let (Some(tiled), Some(dir)) = (args.format.tiled(), &args.out) {
        let written = tiled_files::write_world(&tiled_levels, &pack, dir, tiled, args.tileset.unwrap_or_default())?;
        let shared: Vec<String> = written
            .iter()
            .filter_map(|p| p.file_name()?.to_str())
            .filter(|name| !name.starts_with("level-"))
            .map(str::to_string)
            .collect();
        tiled_files_written = format!(" (Tiled: {})", shared.join(", "));
    }
    if let Some(dir) = &args.out {
        let path = dir.join("world.json");
        write_atomically(&path, world.to_json().as_bytes())?;
        if !index.is_empty() {
            let page = world_index::index_page(&map_type, &world_command, &index);
            let index_path = dir.join("index.html");
            write_atomically(&index_path, page.as_bytes())?;
            writeln!(out, "wrote {}, linking the levels' pages", index_path.display())?;
        }
        if args.format == Format::Ldtk {
            let project = dir.join("world.ldtk");
            write_atomically(&project, render::world_ldtk(&ldtk_levels, &pack).as_bytes())?;
            writeln!(out, "wrote {levels} levels in {} and {}", project.display(), path.display())?;
        } else {
            writeln!(out, "wrote {levels} level files{tiled_files_written} and {}", path.display())?;
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::counted_encounters;

    #[test]
    fn encounters_are_counted_in_the_singular_and_the_plural() {
        assert_eq!(counted_encounters(&[]), "0 encounters");
        assert_eq!(counted_encounters(&["scavengers"]), "1 encounter: scavengers");
        assert_eq!(counted_encounters(&["ore_heap", "scavengers"]), "2 encounters: ore_heap, scavengers");
    }
}
