//! The commands a viewer page shows for stepping to the seed before and after
//! its own.
//!
//! In: the parts of a `generate` command around its `--seed`, the seed, and the
//! page's `--out` file. Out: one [`prefabric::render::PageCommand`] per
//! neighbouring seed (none before seed 0, none after the last), each writing
//! its own file: the seed in the file's name replaced by the neighbour's, or
//! the neighbour's seed added before the extension. Embedding neighbouring maps
//! would double or triple a page; a command to copy costs a line.

use prefabric::render::PageCommand;
use std::path::{Path, PathBuf};

/// The commands for seeds `seed - 1` and `seed + 1`: `head` comes before
/// ` --seed N`, `tail` after it; `out` is the page's file, if it has one.
pub(crate) fn seed_steps(head: &str, tail: &str, seed: u64, out: Option<&Path>) -> Vec<PageCommand> {
    let steps = [("seed-prev", "previous seed", seed.checked_sub(1)), ("seed-next", "next seed", seed.checked_add(1))];
    steps
        .into_iter()
        .filter_map(|(id, label, other)| {
            let other = other?;
            let out_flag = out.map(|p| format!(" --out {}", out_for(p, seed, other).display())).unwrap_or_default();
            Some(PageCommand {
                id: id.to_string(),
                label: format!("{label} ({other})"),
                command: format!("{head} --seed {other}{tail}{out_flag}"),
            })
        })
        .collect()
}

/// `out` for seed `other`: the last `seed` in its file name replaced, or
/// `-other` added before the extension.
fn out_for(out: &Path, seed: u64, other: u64) -> PathBuf {
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let digits = seed.to_string();
    let renamed = match name.rfind(&digits) {
        Some(at) => format!("{}{other}{}", &name[..at], &name[at + digits.len()..]),
        None => match name.rsplit_once('.') {
            Some((stem, extension)) => format!("{stem}-{other}.{extension}"),
            None => format!("{name}-{other}"),
        },
    };
    out.with_file_name(renamed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_write_files_of_their_own() {
        let steps =
            seed_steps("prefabric generate --map-type maze", " --depth 2", 7, Some(Path::new("out/maze-7.html")));
        let commands: Vec<&str> = steps.iter().map(|s| s.command.as_str()).collect();
        assert_eq!(
            commands,
            [
                "prefabric generate --map-type maze --seed 6 --depth 2 --out out/maze-6.html",
                "prefabric generate --map-type maze --seed 8 --depth 2 --out out/maze-8.html"
            ]
        );
        assert_eq!(out_for(Path::new("map.html"), 7, 8), Path::new("map-8.html"));
        let first = seed_steps("g", "", 0, None);
        assert_eq!(first.len(), 1, "no seed before 0");
        assert_eq!(first[0].command, "g --seed 1");
    }
}
