//! Which files a pack reads (issue 53): renders, documents and notes anywhere in
//! a pack folder are left unread and listed, never an error; a binary file where
//! the pack reads text is called binary, never advised to be saved as UTF-8; a
//! pack in memory follows the same rule as a folder.

use prefabric::content::SourceFile;
use prefabric::{Limits, Pack};
use std::path::{Path, PathBuf};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01";
const PDF: &[u8] = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< >>\n\0";

fn tiny_pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny_pack")
}

/// A copy of the tiny pack in a fresh folder of its own, with `extra` files.
fn tiny_pack_folder(name: &str, extra: &[(&str, &[u8])]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prefabric-pack-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for f in Pack::read_files(&tiny_pack(), &Limits::default()).expect("the tiny pack reads") {
        write(&dir, &f.path, &f.bytes);
    }
    for (path, bytes) in extra {
        write(&dir, path, bytes);
    }
    dir
}

fn write(dir: &Path, path: &str, bytes: &[u8]) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().expect("in a folder")).expect("a folder");
    std::fs::write(path, bytes).expect("written");
}

/// Renders, documents and stray text in several folders.
const STRAYS: [(&str, &[u8]); 8] = [
    ("map.png", PNG),
    ("notes.pdf", PDF),
    ("README.md", b"# my pack\n"),
    ("prefabs/render.png", PNG),
    ("prefabs/entry.txt~", b"an editor's backup\n"),
    ("maps/old/tiny.toml", b"not = [a map type\n"),
    ("catalog/notes.txt", b"ideas\n"),
    ("renders/seed1.png", PNG),
];

#[test]
fn binary_and_stray_files_anywhere_in_a_pack_folder_are_listed_not_read() {
    let dir = tiny_pack_folder("strays", &STRAYS);
    let pack = Pack::load(&dir).unwrap_or_else(|p| panic!("the pack loads with strays beside it:\n{p}"));
    let listed: Vec<&str> = pack.ignored_files().iter().map(|f| f.path.as_str()).collect();
    let mut expected: Vec<&str> = STRAYS.iter().map(|(p, _)| *p).collect();
    expected.sort();
    assert_eq!(listed, expected);
    let reason = |path: &str| &pack.ignored_files().iter().find(|f| f.path == path).expect("listed").reason;
    assert!(reason("maps/old/tiny.toml").contains("directly in it"), "{}", reason("maps/old/tiny.toml"));
    assert!(reason("prefabs/render.png").contains("prefabs/ holds .txt, .xp"), "{}", reason("prefabs/render.png"));

    // The same files in memory: the same rule, the same list.
    let mut files = Pack::read_files(&tiny_pack(), &Limits::default()).expect("the tiny pack reads");
    files.extend(STRAYS.iter().map(|(path, bytes)| SourceFile { path: path.to_string(), bytes: bytes.to_vec() }));
    let in_memory = Pack::from_files("tiny", files, Limits::default()).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(in_memory.ignored_files(), pack.ignored_files());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_left_unread_count_toward_no_limit() {
    let huge = vec![b'x'; 4096];
    let dir =
        tiny_pack_folder("limits", &[("renders/huge.png", &huge), ("renders/a.png", PNG), ("renders/b.png", PNG)]);
    // Room for the pack's own five files only, and for no file as large as the render.
    let limits = Limits { max_file_bytes: 2048, max_pack_files: 5, ..Limits::default() };
    let pack = Pack::load_with_limits(&dir, limits).unwrap_or_else(|p| panic!("{p}"));
    assert_eq!(pack.ignored_files().len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_binary_file_where_text_is_read_is_called_binary_not_badly_encoded() {
    for (path, bytes, what) in [
        ("maps/render.toml", PNG, "a PNG image"),
        ("prefabs/notes.txt", PDF, "a PDF document"),
        ("catalog/data.toml", b"name = 1\0\0\x01\x02".as_slice(), "binary data"),
    ] {
        let dir = tiny_pack_folder("binary", &[(path, bytes)]);
        let problems = Pack::load(&dir).expect_err("a binary file where text is read");
        let text = problems.to_string();
        let shown =
            format!("{}/{path}: format error: the file is {what}, where the pack reads a text file", dir.display());
        assert!(text.contains(&shown), "{text}");
        assert!(!text.contains("UTF-8"), "no encoding advice for a binary file: {text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // Text in another encoding is still told to be saved as UTF-8.
    let utf16 = [b"\xff\xfe".as_slice(), b"n\0a\0"].concat();
    let files = vec![SourceFile { path: "pack.toml".into(), bytes: utf16 }];
    let problems = Pack::from_files("p", files, Limits::default()).expect_err("UTF-16");
    assert!(
        problems.to_string().contains("p/pack.toml: format error: the file is UTF-16 text, not UTF-8"),
        "{problems}"
    );
}

#[test]
fn a_tileset_saved_under_a_name_a_pack_does_not_read_is_named_as_such() {
    let fixture = |path: &str| std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(path));
    let map = String::from_utf8(fixture("tiled/entry.tmx").expect("the fixture")).expect("UTF-8");
    let mut files: Vec<SourceFile> = ["pack.toml", "palette.toml", "maps/tiny.toml", "catalog/things.toml"]
        .iter()
        .map(|p| SourceFile { path: p.to_string(), bytes: fixture(&format!("tiny_pack/{p}")).expect("the fixture") })
        .collect();
    files.push(SourceFile { path: "prefabs/entry.tmx".into(), bytes: map.replace("prefab.tsx", "prefab.json").into() });
    files.push(SourceFile {
        path: "prefabs/prefab.json".into(),
        bytes: fixture("tiled/prefab.tsx").expect("the fixture"),
    });
    let problems = Pack::from_files("tiny", files, Limits::default()).expect_err("the tileset is not read");
    assert!(
        problems.to_string().contains(
            "tiny/prefabs/entry.tmx: invalid: the tileset `prefab.json` is in the pack, but a pack reads tilesets saved as .tsx or .tsj only"
        ),
        "{problems}"
    );
}
