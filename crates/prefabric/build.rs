//! Embeds the default content pack into the library, so `Pack::embedded()` works
//! with no files on disk.
//!
//! The pack lives at `content/default/` at the repository root; the crate reaches it
//! through the symlink `crates/prefabric/content`, which `cargo package` follows, so
//! the published crate carries the pack as real files. A checkout without symlinks
//! (Windows without `core.symlinks`) falls back to the repository path. With neither,
//! the build stops and says why: a library whose built-in pack is empty would only
//! fail later, at run time, in a user's game.
//!
//! Written by hand rather than with `include_dir`: the list must be sorted (the pack
//! loader's order reaches the output) and Cargo must re-run this script when a file
//! is added, which needs one `rerun-if-changed` line per directory.

use std::env;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let candidates = [manifest.join("content/default"), manifest.join("../../content/default")];
    let Some(root) = candidates.iter().find(|dir| dir.join("pack.toml").is_file()) else {
        println!(
            "cargo::error=the built-in content pack is missing: no pack.toml in {} or {}. \
             The crate embeds it; restore `content/default/` (in a repository checkout, \
             `crates/prefabric/content` is a symlink to `../../content`).",
            candidates[0].display(),
            candidates[1].display()
        );
        for dir in &candidates {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
        return;
    };
    let mut files = Vec::new();
    collect(root, root, &mut files);
    files.sort();

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("embedded_pack.rs");
    let mut text = String::from("/// Files of the embedded default pack: (path inside the pack, contents).\n");
    text.push_str("pub(crate) static FILES: &[(&str, &[u8])] = &[\n");
    for rel in &files {
        let abs = root.join(rel).canonicalize().expect("listed file exists");
        text.push_str(&format!("    ({:?}, include_bytes!({:?})),\n", rel, abs));
    }
    text.push_str("];\n");
    fs::File::create(&out).and_then(|mut f| f.write_all(text.as_bytes())).expect("write embedded pack list");
}

/// Collects pack-relative paths (with `/` separators) of every file under `dir`.
fn collect(root: &Path, dir: &Path, files: &mut Vec<String>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            println!("cargo:rerun-if-changed={}", path.display());
            let rel = path.strip_prefix(root).expect("under root");
            let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            files.push(parts.join("/"));
        }
    }
}
