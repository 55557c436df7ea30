//! `prefabric init DIR`: a new content pack to start from.
//!
//! In: a folder (new, or empty, or any folder with `--force`) and which pack to
//! copy — the commented starter pack (the files under `starter/` in this crate,
//! compiled into the program) or the whole built-in pack (`--from default`).
//! Out: the pack's files in the folder, the pack loaded back to make sure it is
//! whole, and the three commands to run next. A folder holding anything is left
//! untouched unless `--force` is given; then files of the same name are replaced
//! and the rest kept.

use crate::Failure;
use prefabric::Pack;
use prefabric::content::SourceFile;
use std::path::{Path, PathBuf};

/// The starter pack's files: (path inside the pack, contents). Listed by hand so
/// the program carries them without a build script; a test checks the list
/// against the `starter/` folder, so a file added there and not here fails.
pub(crate) const STARTER: &[(&str, &str)] = &[
    ("catalog/creatures.toml", include_str!("../starter/catalog/creatures.toml")),
    ("catalog/furniture.toml", include_str!("../starter/catalog/furniture.toml")),
    ("catalog/hazards.toml", include_str!("../starter/catalog/hazards.toml")),
    ("catalog/items.toml", include_str!("../starter/catalog/items.toml")),
    ("encounters/common.toml", include_str!("../starter/encounters/common.toml")),
    ("maps/cave.toml", include_str!("../starter/maps/cave.toml")),
    ("maps/crypt.toml", include_str!("../starter/maps/crypt.toml")),
    ("maps/inn.toml", include_str!("../starter/maps/inn.toml")),
    ("maps/keep.toml", include_str!("../starter/maps/keep.toml")),
    ("pack.toml", include_str!("../starter/pack.toml")),
    ("palette.toml", include_str!("../starter/palette.toml")),
    ("prefabs/cave.def", include_str!("../starter/prefabs/cave.def")),
    ("prefabs/cave.txt", include_str!("../starter/prefabs/cave.txt")),
    ("prefabs/crypt.def", include_str!("../starter/prefabs/crypt.def")),
    ("prefabs/crypt.txt", include_str!("../starter/prefabs/crypt.txt")),
    ("prefabs/encounters.def", include_str!("../starter/prefabs/encounters.def")),
    ("prefabs/encounters.txt", include_str!("../starter/prefabs/encounters.txt")),
    ("prefabs/inn.def", include_str!("../starter/prefabs/inn.def")),
    ("prefabs/inn.txt", include_str!("../starter/prefabs/inn.txt")),
    ("prefabs/keep.def", include_str!("../starter/prefabs/keep.def")),
    ("prefabs/keep.txt", include_str!("../starter/prefabs/keep.txt")),
];

#[derive(clap::Args)]
pub(crate) struct InitArgs {
    /// The folder to write the pack into; created when missing.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Which pack to start from: `starter`, a small commented pack with one map
    /// type for each layout generator, or `default`, the whole built-in pack.
    #[arg(long, value_name = "PACK", default_value = "starter", value_parser = ["starter", "default"])]
    from: String,
    /// Write into a folder that already holds files, replacing files of the same name.
    #[arg(long)]
    force: bool,
}

pub(crate) fn init(args: InitArgs) -> Result<(), Failure> {
    let files = match args.from.as_str() {
        "default" => Pack::embedded_files(),
        _ => STARTER
            .iter()
            .map(|(path, text)| SourceFile { path: path.to_string(), bytes: text.as_bytes().to_vec() })
            .collect(),
    };
    let held_files = refuse_unless_empty(&args.dir, args.force)?;
    for file in &files {
        write_file(&args.dir, file)?;
    }
    let shown = args.dir.display();
    let pack = Pack::load(&args.dir).map_err(|problems| {
        Failure::Problems(if held_files {
            format!(
                "{problems}\nthe {} pack does not load together with the files already in {shown}: \
                 start it in a new folder instead",
                args.from
            )
        } else {
            format!("{problems}\nthe pack written to {shown} does not load: please report this as a bug")
        })
    })?;
    println!("wrote {} files to {shown}: the {} pack", files.len(), args.from);
    for map_type in pack.map_types() {
        let generators: Vec<&str> = map_type.generators.iter().map(|g| g.generator.name()).collect();
        println!(
            "  map type {:<12} {}x{}, {}",
            map_type.name,
            map_type.width,
            map_type.height,
            generators.join(" or ")
        );
    }
    let dir = quoted(&args.dir);
    println!("\nNext:");
    println!("  prefabric check --pack {dir}");
    println!("  prefabric generate --pack {dir} --map-type {} --seed 1", pack.default_map_type());
    println!("  prefabric watch --pack {dir}");
    println!("Every file of the pack explains itself in its comments; docs/ in the repository is the manual.");
    Ok(())
}

/// A folder that holds anything is refused without `--force`; with it, says
/// whether the folder held anything.
fn refuse_unless_empty(dir: &Path, force: bool) -> Result<bool, Failure> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        return Err(Failure::Usage(format!("error: {shown} is a file, not a folder: name a new folder for the pack")));
    }
    if !dir.exists() {
        return Ok(false);
    }
    let mut entries =
        std::fs::read_dir(dir).map_err(|e| Failure::Usage(format!("error: cannot read the folder {shown}: {e}")))?;
    let holds_files = entries.next().is_some();
    if holds_files && !force {
        return Err(Failure::Usage(format!(
            "error: {shown} is not empty: name a new folder, or add --force to write the pack into it \
             (files of the same name are replaced, others kept)"
        )));
    }
    Ok(holds_files)
}

/// Writes one file of the pack under `dir`, creating its folders.
fn write_file(dir: &Path, file: &SourceFile) -> Result<(), Failure> {
    let path = file.path.split('/').fold(dir.to_path_buf(), |path, part| path.join(part));
    let fail = |e: std::io::Error| Failure::Usage(format!("error: cannot write {}: {e}", path.display()));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    std::fs::write(&path, &file.bytes).map_err(fail)
}

/// The folder as the next commands should name it: quoted when it holds a space.
fn quoted(dir: &Path) -> String {
    let text = dir.display().to_string();
    if text.contains(char::is_whitespace) { format!("\"{text}\"") } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of `starter/`, as a path inside the pack.
    fn starter_folder_files() -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("starter");
        let mut found = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("the starter folder") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let rel = path.strip_prefix(&root).expect("under the root");
                    let parts: Vec<String> =
                        rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                    found.push(parts.join("/"));
                }
            }
        }
        found.sort();
        found
    }

    #[test]
    fn the_starter_list_names_every_file_of_the_starter_folder_in_order() {
        let listed: Vec<String> = STARTER.iter().map(|(path, _)| path.to_string()).collect();
        assert_eq!(listed, starter_folder_files(), "STARTER in init.rs must list the starter/ folder, sorted");
    }

    #[test]
    fn the_starter_pack_loads() {
        let files =
            STARTER.iter().map(|(path, text)| SourceFile { path: path.to_string(), bytes: text.as_bytes().to_vec() });
        let pack = Pack::from_files("starter", files.collect(), prefabric::Limits::default())
            .unwrap_or_else(|problems| panic!("{problems}"));
        let mut generators: Vec<&str> =
            pack.map_types().flat_map(|t| t.generators.iter().map(|g| g.generator.name())).collect();
        generators.sort();
        generators.dedup();
        assert_eq!(generators, ["caves", "chain", "pathways", "tunnelers"], "one map type for each generator");
    }
}
