//! `prefabric show` and `prefabric convert`: the commands that work on one prefab
//! file (text or `.xp`) or one REXPaint image; `convert` reads and writes Tiled
//! prefabs (`.tmx`, `.tmj`) too.
//!
//! In: the file, and the pack whose palette reads it (the built-in pack without
//! `--pack`). Out: the prefabs drawn as they would be placed (in any orientation),
//! an image's layers, or the prefabs written in the other format. A pack with
//! problems in other files still lends its palette: those problems are printed as
//! warnings, so a designer can fix one prefab while another is broken.

use crate::{Failure, pack_or_fail, read_bounded, read_text, write_file_forced};
use prefabric::{ErrorKind, Limits, PackParts, Transform, render};
use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub(crate) struct ShowArgs {
    /// A text prefab file (.txt) or a REXPaint image (.xp).
    file: PathBuf,
    /// Pack whose palette reads the file (default: the built-in pack). Problems in
    /// the pack's other files are printed as warnings: only its palette must load.
    #[arg(long, value_name = "DIR")]
    pack: Option<PathBuf>,
    /// Show only the prefab with this name.
    #[arg(long, value_name = "PREFAB")]
    name: Option<String>,
    /// Show the prefab turned and flipped: r0 r90 r180 r270 flip flip-r90 flip-r180 flip-r270
    /// (r90 is a quarter turn clockwise; flip mirrors left to right, before any turn).
    #[arg(long, value_name = "T", value_parser = parse_transform, conflicts_with = "all_transforms")]
    transform: Option<Transform>,
    /// Show every orientation the prefab allows.
    #[arg(long)]
    all_transforms: bool,
    /// After each prefab with variation lines (`subst`, `subst-once`, `nsubst`,
    /// `shuffle`), show N of its outcomes: those placements with variant seeds 1
    /// to N draw (turned as --transform says).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    variants: Option<u32>,
    /// After each prefab, say what its reference characters stand for: each one's
    /// definition lines and, for every alternative, the catalog entries it can
    /// give at the depth (--depth, 1 by default), as comment lines.
    #[arg(long)]
    resolve: bool,
    /// The level depth references are resolved at (implies --resolve).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    depth: Option<u32>,
    /// Read a .xp file as a prefab instead of showing its layers (implied by
    /// --name, --transform, --all-transforms, --resolve and --depth; text files are
    /// always prefabs).
    #[arg(long)]
    prefab: bool,
    /// Show a .xp file's layers without colours even on a terminal (.xp only).
    #[arg(long)]
    plain: bool,
}

#[derive(clap::Args)]
pub(crate) struct ConvertArgs {
    /// The prefab file to read (.txt, .xp, .tmx or .tmj).
    input: PathBuf,
    /// Where to write: a .txt, .xp, .tmx or .tmj file, a folder (one file per prefab, as --to says), or - (text to standard output).
    output: PathBuf,
    /// With a folder as OUTPUT: the format of the file written for each prefab,
    /// NAME.xp (the default), NAME.tmx or NAME.tmj (each with its NAME.toml header,
    /// and its tileset image NAME.png for Tiled), or NAME.txt.
    #[arg(long, value_enum, value_name = "FORMAT")]
    to: Option<FolderFormat>,
    /// Pack whose palette reads and writes the prefabs (default: the built-in pack).
    /// Problems in the pack's other files are printed as warnings: only its palette
    /// must load.
    #[arg(long, value_name = "DIR")]
    pack: Option<PathBuf>,
    /// The prefab to convert, when the input holds more than one.
    #[arg(long, value_name = "PREFAB")]
    name: Option<String>,
    /// Write over files that already exist.
    #[arg(long)]
    force: bool,
}

/// The format `convert` writes each prefab in when it writes a folder.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FolderFormat {
    /// REXPaint images (.xp) and their .toml headers.
    Xp,
    /// Tiled maps in XML (.tmx), their tileset images and .toml headers.
    Tmx,
    /// Tiled maps in JSON (.tmj), their tileset images and .toml headers.
    Tmj,
    /// Text prefabs (.txt).
    Txt,
}

impl FolderFormat {
    fn extension(self) -> &'static str {
        match self {
            FolderFormat::Xp => "xp",
            FolderFormat::Tmx => "tmx",
            FolderFormat::Tmj => "tmj",
            FolderFormat::Txt => "txt",
        }
    }

    /// The files written beside each prefab's own.
    fn companions(self) -> &'static [&'static str] {
        match self {
            FolderFormat::Xp => &["toml"],
            FolderFormat::Tmx | FolderFormat::Tmj => &["toml", "png"],
            FolderFormat::Txt => &[],
        }
    }
}

fn parse_transform(s: &str) -> Result<Transform, String> {
    Transform::parse(s)
        .ok_or_else(|| format!("`{s}` is not a transform; use r0 r90 r180 r270 flip flip-r90 flip-r180 flip-r270"))
}

/// Problems of other files printed before the rest are counted.
const MAX_WARNINGS: usize = 10;

/// The pack that reads `files`: the built-in pack, or the one in `dir` as far as
/// it loads. Its problems in other files are printed as warnings (those in `files`
/// are reported by reading them); it fails only when its palette does not load.
fn pack_parts(dir: Option<&Path>, files: &[&Path]) -> Result<PackParts, Failure> {
    let Some(dir) = dir else {
        return pack_or_fail(None).map(|pack| PackParts::from(&pack));
    };
    let parts = PackParts::load(dir, Limits::default()).map_err(|problems| {
        let text = format!(
            "{problems}
the pack's palette did not load, and no prefab can be read without it: fix palette.toml first"
        );
        match problems.errors().iter().all(|e| e.kind() == ErrorKind::Io) {
            true => Failure::Usage(text),
            false => Failure::Problems(text),
        }
    })?;
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    let own: Vec<PathBuf> = files
        .iter()
        .flat_map(|f| [Some(f.to_path_buf()), (is_xp(f) || is_tiled(f)).then(|| f.with_extension("toml"))])
        .flatten()
        .filter_map(|p| canonical(&p))
        .collect();
    let elsewhere: Vec<&prefabric::Error> = parts
        .problems()
        .errors()
        .iter()
        .filter(|e| e.location().and_then(|l| canonical(Path::new(&l.file))).is_none_or(|f| !own.contains(&f)))
        .collect();
    if !elsewhere.is_empty() {
        let mut err = io::stderr().lock();
        let count = elsewhere.len();
        let s = if count == 1 { "" } else { "s" };
        let read: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        writeln!(
            err,
            "warning: the pack has {count} problem{s} in other files; {} is read with its palette all the same",
            read.join(" and ")
        )?;
        for e in elsewhere.iter().take(MAX_WARNINGS) {
            writeln!(err, "warning: {e}")?;
        }
        if count > MAX_WARNINGS {
            writeln!(
                err,
                "warning: … and {} more (`prefabric check --pack {}` lists them all)",
                count - MAX_WARNINGS,
                dir.display()
            )?;
        }
    }
    Ok(parts)
}

fn is_xp(path: &Path) -> bool {
    prefabric::prefab::xp::is_xp_path(&path.to_string_lossy())
}

/// A Tiled map: `.tmx` or `.tmj`.
fn is_tiled(path: &Path) -> bool {
    prefabric::prefab::tiled::is_tiled_path(&path.to_string_lossy())
}

/// The header file beside a `.xp` or Tiled prefab, if there is one: its name and text.
fn read_sidecar(path: &Path, pack: &PackParts) -> Result<Option<(String, String)>, Failure> {
    let sidecar_path = path.with_extension("toml");
    Ok(match sidecar_path.is_file() {
        true => Some((sidecar_path.display().to_string(), read_text(&sidecar_path, pack.limits())?)),
        false => None,
    })
}

/// Every prefab in a text or `.xp` prefab file; a `.xp` file's header comes from
/// the `.toml` beside it, if there is one.
fn read_prefabs(path: &Path, pack: &PackParts) -> Result<Vec<prefabric::Prefab>, Failure> {
    let shown = path.display().to_string();
    let bytes = read_bounded(path, pack.limits())?;
    if is_tiled(path) {
        let text = crate::utf8_text(&shown, bytes)?;
        let sidecar = read_sidecar(path, pack)?;
        let sidecar = sidecar.as_ref().map(|(f, t)| (f.as_str(), t.as_str()));
        // External tilesets are read relative to the map, within the same size limit.
        let folder = path.parent().unwrap_or(Path::new(""));
        let tilesets = |source: &str| -> Result<(String, String), prefabric::Error> {
            let file = folder.join(source);
            let shown = file.display().to_string();
            let fail = |message: String| {
                prefabric::Error::at(ErrorKind::Io, prefabric::Location::file(shown.clone()), message)
            };
            let bytes =
                read_bounded(&file, pack.limits()).map_err(|_| fail(format!("cannot read the tileset `{source}`")))?;
            let text = String::from_utf8(bytes).map_err(|_| fail("the tileset is not UTF-8 text".into()))?;
            Ok((shown.clone(), text))
        };
        let prefab =
            pack.read_tiled_prefab(&shown, &text, sidecar, &tilesets).map_err(|p| Failure::Problems(p.to_string()))?;
        return Ok(vec![prefab]);
    }
    if is_xp(path) {
        let sidecar = read_sidecar(path, pack)?;
        let sidecar = sidecar.as_ref().map(|(f, t)| (f.as_str(), t.as_str()));
        let prefab = pack.read_xp_prefab(&shown, &bytes, sidecar).map_err(|p| Failure::Problems(p.to_string()))?;
        return Ok(vec![prefab]);
    }
    let text = crate::utf8_text(&shown, bytes)?;
    pack.read_prefab_file(&shown, &text).map_err(|p| Failure::Problems(p.to_string()))
}

pub(crate) fn show(args: ShowArgs) -> Result<(), Failure> {
    let pack = pack_parts(args.pack.as_deref(), &[&args.file])?;
    let shown = args.file.display().to_string();
    let resolve_at = args.depth.or(args.resolve.then_some(1));
    let as_prefab = args.prefab
        || args.name.is_some()
        || args.transform.is_some()
        || args.all_transforms
        || resolve_at.is_some()
        || args.variants.is_some();
    if is_xp(&args.file) && !as_prefab {
        let bytes = read_bounded(&args.file, pack.limits())?;
        let image =
            prefabric::format::xp::read(&shown, &bytes, pack.limits()).map_err(|e| Failure::Problems(e.to_string()))?;
        let colour = !args.plain && io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        let style = if colour { render::XpStyle::Ansi } else { render::XpStyle::Plain };
        let mut out = io::stdout().lock();
        out.write_all(render::xp_text(&image, style).as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    let prefabs = read_prefabs(&args.file, &pack)?;
    let chosen: Vec<_> = prefabs.iter().filter(|p| args.name.as_deref().is_none_or(|n| p.name() == n)).collect();
    if chosen.is_empty() {
        let names: Vec<&str> = prefabs.iter().map(|p| p.name()).collect();
        return Err(Failure::Usage(format!(
            "error: {shown} has no prefab named `{}`; it has: {}",
            args.name.unwrap_or_default(),
            names.join(", ")
        )));
    }
    let mut out = io::stdout().lock();
    for (i, prefab) in chosen.into_iter().enumerate() {
        let transforms: Vec<Transform> = if args.all_transforms {
            prefab.transforms().iter().collect()
        } else {
            vec![args.transform.unwrap_or(Transform::IDENTITY)]
        };
        for (j, t) in transforms.into_iter().enumerate() {
            if i + j > 0 {
                writeln!(out)?;
            }
            // As drawn, variation lines and all, unless turned: a turned prefab
            // is its first outcome, turned.
            let oriented =
                if t == Transform::IDENTITY { Cow::Borrowed(prefab) } else { Cow::Owned(prefab.transformed(t)) };
            let note = match (prefab.transforms().contains(t), prefab.varies() && t != Transform::IDENTITY) {
                (true, false) => "",
                (true, true) => " (its first outcome: variation lines speak of the prefab as drawn)",
                (false, _) => " (not among the prefab's allowed transforms)",
            };
            writeln!(
                out,
                "# {} as {t}{note}: {}x{}, from {}",
                prefab.name(),
                oriented.width(),
                oriented.height(),
                prefab.origin()
            )?;
            write_prefab(&mut out, &oriented, &pack, false)?;
        }
        let variants = args.variants.unwrap_or(0);
        if variants > 0 && !prefab.varies() {
            writeln!(
                io::stderr(),
                "note: prefab `{}` has no variation lines: every placement is the same",
                prefab.name()
            )?;
        }
        for seed in (1..=variants).filter(|_| prefab.varies()) {
            // Each outcome drawn as a placement with that seed draws it, turned
            // as asked; only its layers are news (its header is the prefab's).
            let t = args.transform.unwrap_or(Transform::IDENTITY);
            let outcome = prefab.variant(seed).transformed(t);
            writeln!(out, "\n# {} variant {seed} of {variants}, as {t}", prefab.name())?;
            write_prefab(&mut out, &outcome, &pack, true)?;
        }
        // Turning a prefab moves its references but not what they stand for: one
        // legend after its last orientation.
        if let Some(depth) = resolve_at {
            out.write_all(references_legend(prefab, &pack, depth).as_bytes())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Writes a prefab in the text syntax (only its layers when `layers_only`), or
/// its REXPaint layers when the text syntax cannot hold it (a blank machine
/// glyph, a terrain without a glyph).
fn write_prefab(
    out: &mut impl Write,
    prefab: &prefabric::Prefab,
    pack: &PackParts,
    layers_only: bool,
) -> Result<(), Failure> {
    match render::prefab_text(prefab, pack.palette()) {
        Ok(text) => {
            let text = if layers_only { text.find("terrain:\n").map_or(text.as_str(), |i| &text[i..]) } else { &text };
            out.write_all(text.as_bytes())?;
        }
        Err(e) => {
            writeln!(io::stderr(), "note: {e}; showing its REXPaint layers instead")?;
            let image = prefab.to_xp(pack.palette()).map_err(|e| Failure::Problems(e.to_string()))?;
            out.write_all(render::xp_text(&image, render::XpStyle::Plain).as_bytes())?;
        }
    }
    Ok(())
}

pub(crate) fn convert(args: ConvertArgs) -> Result<(), Failure> {
    let pack = pack_parts(args.pack.as_deref(), &[&args.input])?;
    let prefabs = read_prefabs(&args.input, &pack)?;
    let names: Vec<&str> = prefabs.iter().map(|p| p.name()).collect();
    let chosen: Vec<&prefabric::Prefab> = match &args.name {
        Some(name) => prefabs.iter().filter(|p| p.name() == name).collect(),
        None => prefabs.iter().collect(),
    };
    if chosen.is_empty() {
        return Err(Failure::Usage(format!(
            "error: {} has no prefab named `{}`; it has: {}",
            args.input.display(),
            args.name.unwrap_or_default(),
            names.join(", ")
        )));
    }
    let to_stdout = args.output.as_os_str() == "-";
    let same = |a: &Path, b: &Path| {
        std::fs::canonicalize(a).ok().zip(std::fs::canonicalize(b).ok()).is_some_and(|(a, b)| a == b)
    };
    let writes = |path: &Path| -> Result<(), Failure> {
        if same(path, &args.input) {
            return Err(Failure::Usage(format!(
                "error: {} is the input; convert writes a new file and never over its input",
                path.display()
            )));
        }
        if path.exists() && !args.force {
            return Err(Failure::Usage(format!(
                "error: {} already exists; give --force to write over it",
                path.display()
            )));
        }
        Ok(())
    };
    // A folder: one that exists, or a new one (a name ending in `/` or with no
    // extension), created as `world --out` creates its own.
    let names_folder = args.output.as_os_str().to_string_lossy().ends_with(std::path::MAIN_SEPARATOR)
        || (args.output.extension().is_none() && !to_stdout);
    if args.output.is_dir() || (names_folder && !args.output.exists()) {
        let format = args.to.unwrap_or(FolderFormat::Xp);
        let targets: Vec<PathBuf> =
            chosen.iter().map(|p| args.output.join(format!("{}.{}", p.name(), format.extension()))).collect();
        // Every target is checked before the first is written, so a refusal writes nothing.
        for path in &targets {
            writes(path)?;
            for companion in format.companions() {
                writes(&path.with_extension(companion))?;
            }
        }
        std::fs::create_dir_all(&args.output)
            .map_err(|e| Failure::Usage(format!("error: cannot create {}: {e}", args.output.display())))?;
        for (prefab, path) in chosen.iter().zip(&targets) {
            match format {
                FolderFormat::Xp => write_xp_prefab(prefab, path, &pack, args.force)?,
                FolderFormat::Tmx | FolderFormat::Tmj => write_tiled_prefab(prefab, path, &pack, args.force)?,
                FolderFormat::Txt => write_file_forced(path, text_of(prefab, &pack)?.as_bytes(), args.force)?,
            }
        }
        writeln!(
            io::stderr(),
            "wrote {} prefab{} to {} as .{}",
            targets.len(),
            if targets.len() == 1 { "" } else { "s" },
            args.output.display(),
            format.extension()
        )?;
        return Ok(());
    }
    if let Some(format) = args.to {
        return Err(Failure::Usage(format!(
            "error: --to {} is for a folder; {} is a file, whose extension says its format",
            format.extension(),
            args.output.display()
        )));
    }
    let is_txt = args.output.extension().is_some_and(|e| e.eq_ignore_ascii_case("txt"));
    if !to_stdout && !is_txt && !is_xp(&args.output) && !is_tiled(&args.output) {
        return Err(Failure::Usage(format!(
            "error: cannot tell what to write to {}: give a .txt, .xp, .tmx or .tmj file, a folder, or - for standard output",
            args.output.display()
        )));
    }
    if chosen.len() > 1 && (is_xp(&args.output) || is_tiled(&args.output)) {
        return Err(Failure::Usage(format!(
            "error: {} holds {} prefabs ({}); a {} file holds one: pick one with --name, or give a folder to write them all",
            args.input.display(),
            chosen.len(),
            names.join(", "),
            args.output.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default()
        )));
    }
    if is_tiled(&args.output) {
        writes(&args.output)?;
        writes(&args.output.with_extension("toml"))?;
        writes(&args.output.with_extension("png"))?;
        return write_tiled_prefab(chosen[0], &args.output, &pack, args.force);
    }
    if is_xp(&args.output) {
        writes(&args.output)?;
        writes(&args.output.with_extension("toml"))?;
        return write_xp_prefab(chosen[0], &args.output, &pack, args.force);
    }
    let mut text = String::new();
    for (i, prefab) in chosen.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&text_of(prefab, &pack)?);
    }
    if to_stdout {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
    } else {
        writes(&args.output)?;
        write_file_forced(&args.output, text.as_bytes(), args.force)?;
    }
    Ok(())
}

/// A prefab in the text syntax.
fn text_of(prefab: &prefabric::Prefab, pack: &PackParts) -> Result<String, Failure> {
    render::prefab_text(prefab, pack.palette()).map_err(|e| Failure::Problems(e.to_string()))
}

/// The header of a prefab written as `path` (a `.xp` or Tiled map), which names
/// it after the file; a note when that renames it.
fn file_header(prefab: &prefabric::Prefab, path: &Path) -> Result<prefabric::Header, Failure> {
    let what = path.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    if let Err((message, _)) = prefabric::prefab::check_name(&stem) {
        return Err(Failure::Usage(format!(
            "error: {}: a {what} prefab is named after its file, and {message}",
            path.display()
        )));
    }
    let mut header = prefab.header();
    if stem != prefab.name() {
        writeln!(
            io::stderr(),
            "note: a {what} prefab is named after its file, so `{}` will be read back as `{stem}`",
            prefab.name()
        )?;
        header.name = stem;
    }
    Ok(header)
}

/// Writes a prefab as `path` (a `.xp`) and its header as the `.toml` beside it
/// (over read-only files too with `force`).
fn write_xp_prefab(prefab: &prefabric::Prefab, path: &Path, pack: &PackParts, force: bool) -> Result<(), Failure> {
    let image = prefab.to_xp(pack.palette()).map_err(|e| Failure::Problems(e.to_string()))?;
    let header = file_header(prefab, path)?;
    write_file_forced(path, &prefabric::format::xp::write(&image), force)?;
    write_file_forced(&path.with_extension("toml"), prefabric::prefab::xp::sidecar_text(&header).as_bytes(), force)
}

/// Writes a prefab as `path` (a `.tmx` or `.tmj` Tiled map with its tileset
/// embedded), the tileset's image as the `.png` beside it and its header as the
/// `.toml` (over read-only files too with `force`).
fn write_tiled_prefab(prefab: &prefabric::Prefab, path: &Path, pack: &PackParts, force: bool) -> Result<(), Failure> {
    let problem = |e: prefabric::Error| Failure::Problems(e.to_string());
    let tileset = render::TiledTileset::of_prefab(prefab, pack.palette()).map_err(problem)?;
    let header = file_header(prefab, path)?;
    let image = path.with_extension("png");
    let image_name = image.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let options =
        render::TiledOptions { tileset: render::TilesetPlacement::Embedded { image: image_name }, command: None };
    let map = if prefabric::prefab::tiled::is_tmj_path(&path.to_string_lossy()) {
        render::prefab_tmj(prefab, &tileset, &options)
    } else {
        render::prefab_tmx(prefab, &tileset, &options)
    }
    .map_err(problem)?;
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let sidecar = prefabric::prefab::xp::sidecar_text(&header).replacen(
        &format!("REXPaint prefab {}.xp", header.name),
        &format!("Tiled prefab {file_name}"),
        1,
    );
    write_file_forced(&image, &tileset.image_png().map_err(problem)?, force)?;
    write_file_forced(path, map.as_bytes(), force)?;
    write_file_forced(&path.with_extension("toml"), sidecar.as_bytes(), force)
}

/// What each reference character of `prefab` stands for at `depth`, as comment
/// lines: the lines of its definition file that define it (chance, group,
/// keywords) and, per alternative, the catalog entries it can give, each as likely.
fn references_legend(prefab: &prefabric::Prefab, pack: &PackParts, depth: u32) -> String {
    let mut glyphs: Vec<char> = Vec::new();
    for r in prefab.refs() {
        if !glyphs.contains(&r.glyph) {
            glyphs.push(r.glyph);
        }
    }
    if glyphs.is_empty() {
        return "# no reference characters to resolve\n".to_string();
    }
    let Some(defs) = pack.definitions(prefab.defs_name()) else {
        return format!(
            "# references not resolved: the pack has no definition file `{}.def` that loaded\n",
            prefab.defs_name()
        );
    };
    let mut text = format!("# references at depth {depth}, through {}:\n", defs.file);
    for glyph in glyphs {
        let lines: Vec<&prefabric::content::defs::Definition> =
            defs.lines.iter().filter(|d| d.line.glyph == glyph).collect();
        if lines.is_empty() {
            text.push_str(&format!("#   {glyph}  not defined in {}\n", defs.file));
        }
        for d in lines {
            text.push_str(&definition_legend(d, defs, pack, depth));
        }
    }
    text
}

/// One definition line as [`references_legend`] shows it.
fn definition_legend(
    d: &prefabric::content::defs::Definition,
    defs: &prefabric::content::defs::Definitions,
    pack: &PackParts,
    depth: u32,
) -> String {
    let line = &d.line;
    let mut how = vec![format!("line {}", line.line), d.kind.name().to_string()];
    if line.chance < 100 {
        how.push(format!("{}% chance", line.chance));
    }
    if let Some(group) = &line.group {
        let members = defs.lines.iter().filter(|l| l.line.group.as_ref() == Some(group)).count();
        how.push(format!("group @{group}, one of its {members} lines"));
    }
    if line.picks.len() > 1 {
        how.push(format!("one of {} alternatives", line.picks.len()));
    }
    let mut text = format!("#   {}  {}\n", line.glyph, how.join(", "));
    // Keywords with a chance of their own are rolled before the pick: show the
    // pick without them, then with them where they change it.
    let chancy: Vec<&prefabric::format::def::Keyword> = line
        .keywords
        .iter()
        .filter(|k| k.chance < 100 && prefabric::format::def::BUILT_IN_KEYWORDS.contains(&k.name.as_str()))
        .collect();
    let mut sure = line.clone();
    sure.keywords.retain(|k| k.chance >= 100);
    for (pick, _) in &line.picks {
        let gives = candidates_text(pack, d.kind, pick, &sure, depth);
        let with = candidates_text(pack, d.kind, pick, line, depth);
        match pick {
            // A tag gives itself: no arrow to repeat it.
            prefabric::format::def::Pick::Tag(_) => text.push_str(&format!("#        {gives}\n")),
            prefabric::format::def::Pick::Nothing => text.push_str("#        nothing (the cell stays empty)\n"),
            _ => text.push_str(&format!("#        {pick} -> {gives}\n")),
        }
        if with != gives {
            let named: Vec<String> = chancy.iter().map(|k| k.to_string()).collect();
            text.push_str(&format!("#          with {}: {with}\n", named.join(" ")));
        }
    }
    if !line.keywords.is_empty() {
        let keywords: Vec<String> = line.keywords.iter().map(|k| k.to_string()).collect();
        text.push_str(&format!("#        keywords: {}\n", keywords.join(" ")));
    }
    text
}

/// The catalog entries one alternative gives at `depth`, as the legend lists them.
fn candidates_text(
    pack: &PackParts,
    kind: prefabric::content::catalog::Kind,
    pick: &prefabric::format::def::Pick,
    line: &prefabric::format::def::DefLine,
    depth: u32,
) -> String {
    let gives: Vec<String> = pack
        .catalog()
        .candidates(kind, pick, line, depth)
        .iter()
        .map(|c| {
            let mut about: Vec<String> = c.rating.map(|r| format!("rating {r}")).into_iter().collect();
            if let Some(f) = c.faulty {
                about.push(format!("{}% {f}", prefabric::content::catalog::FAULTY_PERCENT));
            }
            match about.is_empty() {
                true => c.tag.to_string(),
                false => format!("{} ({})", c.tag, about.join(", ")),
            }
        })
        .collect();
    match gives.is_empty() {
        true => "nothing at this depth".to_string(),
        false => gives.join(" | "),
    }
}
