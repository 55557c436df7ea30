//! Which files of a pack folder the pack reads: one rule, by folder and extension.
//!
//! In goes a file's path inside the pack (`/` between folders); out comes whether
//! the pack reads it and, when it does not, why, in words a designer can act on.
//! The same rule holds for a folder on disk ([`super::Pack::load`] never opens a
//! file the rule leaves out, so a large render beside the prefabs counts toward no
//! limit) and for files in memory ([`super::Pack::from_files`]). A file the rule
//! reads as text that holds binary data (an image, a document, an archive) is told
//! apart from text in another encoding, so it is never advised to be saved as
//! UTF-8.
//!
//! ```text
//! pack.toml, palette.toml, world.toml   at the top of the pack
//! prefabs/**  .txt .def .xp .tmx .tmj .toml .tsx .tsj
//! maps/*.toml, encounters/*.toml   directly in the folder
//! catalog/**/*.toml
//! **/*.tsx, **/*.tsj               Tiled tilesets, wherever a Tiled prefab keeps them
//! ```
//!
//! Hidden files and folders (a name starting with `.`) are skipped without a word.

/// A file in a pack's folder that the pack does not read, and why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct IgnoredFile {
    /// Path inside the pack, e.g. `renders/map.png`.
    pub path: String,
    /// Why the pack does not read it, e.g. "not a file a pack reads: maps/ holds
    /// map types, .toml files directly in it".
    pub reason: String,
}

/// What `prefabs/` holds, as said in a reason.
const PREFABS_HOLD: &str =
    "prefabs/ holds .txt, .xp, .tmx and .tmj prefabs, .toml headers, .def definition files and .tsx or .tsj tilesets";

/// True when a folder or file of `path` is hidden (its name starts with `.`).
pub(crate) fn is_hidden(path: &str) -> bool {
    path.split('/').any(|part| part.starts_with('.'))
}

/// `None` when the pack reads the file at `path` (inside the pack, `/`-separated);
/// otherwise why it does not.
pub fn ignored_because(path: &str) -> Option<String> {
    if is_hidden(path) {
        return Some("a hidden file".to_string());
    }
    let extension = extension(path);
    let is = |wanted: &str| extension.is_some_and(|e| e.eq_ignore_ascii_case(wanted));
    if is("tsx") || is("tsj") {
        return None;
    }
    let why = |what: &str| Some(format!("not a file a pack reads: {what}"));
    let Some((folder, rest)) = path.split_once('/') else {
        return match path {
            "pack.toml" | "palette.toml" | "world.toml" => None,
            _ => why("at the top of a pack only pack.toml, palette.toml and world.toml are read"),
        };
    };
    let toml = extension == Some("toml");
    match folder {
        "prefabs" => {
            let text = matches!(extension, Some("txt" | "def" | "toml"));
            let drawn = is("xp") || is("tmx") || is("tmj");
            if text || drawn { None } else { why(PREFABS_HOLD) }
        }
        "maps" | "encounters" => {
            let what = if folder == "maps" { "map types" } else { "shared encounter pools" };
            match (toml, rest.contains('/')) {
                (true, false) => None,
                (true, true) => {
                    why(&format!("{folder}/ holds {what} as .toml files directly in it, not in folders under it"))
                }
                (false, _) => why(&format!("{folder}/ holds {what}, .toml files")),
            }
        }
        "catalog" if toml => None,
        "catalog" => why("catalog/ holds .toml files"),
        _ => why(
            "a pack reads pack.toml, palette.toml, world.toml and the folders prefabs/, maps/, encounters/ and catalog/",
        ),
    }
}

/// The extension of the file name at the end of `path`, if it has one.
fn extension(path: &str) -> Option<&str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').map(|(_, e)| e).filter(|e| !e.is_empty())
}

/// What a file the pack reads as text is, when its bytes say it is binary: an
/// image, a document, an archive, or other data with NUL bytes. `None` for text,
/// in any encoding (UTF-16 with its byte-order mark is text, wrongly encoded).
pub(crate) fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    const SIGNATURES: [(&[u8], &str); 9] = [
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF87a", "a GIF image"),
        (b"GIF89a", "a GIF image"),
        (b"%PDF-", "a PDF document"),
        (b"PK\x03\x04", "a ZIP archive (or a document saved as one)"),
        (b"\x1f\x8b", "gzip-compressed data"),
        (b"\x7fELF", "a program"),
        (b"RIFF", "a RIFF file (an image or a sound)"),
    ];
    if let Some((_, what)) = SIGNATURES.iter().find(|(signature, _)| bytes.starts_with(signature)) {
        return Some(what);
    }
    let sample = &bytes[..bytes.len().min(8192)];
    (!is_utf16(bytes) && sample.contains(&0)).then_some("binary data")
}

/// True when `bytes` start with a UTF-16 byte-order mark.
pub(crate) fn is_utf16(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_a_pack_reads_are_named_by_folder_and_extension() {
        let read = [
            "pack.toml",
            "palette.toml",
            "prefabs/a.txt",
            "prefabs/deep/er/b.def",
            "prefabs/x/c.XP",
            "prefabs/d.tmx",
            "prefabs/e.tmj",
            "prefabs/e.toml",
            "prefabs/tiles.tsx",
            "tilesets/tiles.tsj",
            "maps/mines.toml",
            "encounters/dcss.toml",
            "catalog/items.toml",
            "catalog/more/props.toml",
        ];
        for path in read {
            assert_eq!(ignored_because(path), None, "{path} is read");
        }
        let ignored = [
            ("README.md", "at the top of a pack"),
            ("map.png", "at the top of a pack"),
            ("prefabs/render.png", "prefabs/ holds .txt"),
            ("prefabs/notes.pdf", "prefabs/ holds .txt"),
            ("prefabs/a.txt~", "prefabs/ holds .txt"),
            ("maps/old/mines.toml", "not in folders under it"),
            ("maps/notes.txt", "maps/ holds map types, .toml files"),
            ("encounters/x.md", "encounters/ holds shared encounter pools"),
            ("catalog/items.json", "catalog/ holds .toml files"),
            ("renders/seed1.png", "the folders prefabs/, maps/"),
            ("prefabs/.a.txt.swp", "hidden"),
            (".git/config", "hidden"),
        ];
        for (path, why) in ignored {
            let reason = ignored_because(path).unwrap_or_else(|| panic!("{path} is ignored"));
            assert!(reason.contains(why), "{path}: {reason}");
        }
    }

    #[test]
    fn binary_files_are_told_apart_from_text_in_another_encoding() {
        assert_eq!(binary_kind(b"\x89PNG\r\n\x1a\n\0\0"), Some("a PNG image"));
        assert_eq!(binary_kind(b"%PDF-1.7\n"), Some("a PDF document"));
        assert_eq!(binary_kind(b"name = \"a\"\0"), Some("binary data"));
        assert_eq!(binary_kind(b"\xff\xfen\0a\0"), None, "UTF-16 text");
        assert!(is_utf16(b"\xff\xfen\0a\0"));
        assert_eq!(binary_kind(b"caf\xe9 = 1\n"), None, "Latin-1 text");
        assert_eq!(binary_kind(b"name = \"a\"\n"), None);
    }
}
