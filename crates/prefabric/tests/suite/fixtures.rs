//! Parser fixtures: text prefab files that must load (their canonical text form is
//! the expected output) and files that must not (the exact error text is the
//! expected output), definition files the same way, plus broken packs with every
//! problem they must report.
//!
//! Each `name.txt` (or pack folder) has a `name.expected` beside it. Run with
//! `PREFABRIC_BLESS=1` to rewrite the expected files, then review the diff.

use prefabric::{Pack, render};
use std::fs;
use std::path::{Path, PathBuf};

fn fixtures(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir)
}

/// Compares `actual` with the file `expected`, or rewrites it when blessing.
fn check(expected: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("PREFABRIC_BLESS").is_some() {
        fs::write(expected, actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let want = fs::read_to_string(expected)
        .map_err(|e| format!("{}: {e} (run with PREFABRIC_BLESS=1)", expected.display()))?;
    if want == actual {
        Ok(())
    } else {
        Err(format!("{} differs.\n--- expected\n{want}\n--- actual\n{actual}", expected.display()))
    }
}

fn txt_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

/// The path as error messages show it: relative to the crate.
fn shown(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap().to_string_lossy().replace('\\', "/")
}

#[test]
fn good_prefabs_load_and_print_canonically() {
    let pack = Pack::embedded().unwrap();
    let files = txt_files(&fixtures("prefabs/good"));
    assert!(files.len() >= 5);
    let mut failures = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let actual = match pack.read_prefab_file(&shown(&file), &text) {
            Ok(prefabs) => {
                prefabs.iter().map(|p| render::prefab_text(p, pack.palette()).unwrap()).collect::<Vec<_>>().join("\n")
            }
            Err(problems) => format!("unexpected problems:\n{problems}\n"),
        };
        if let Err(e) = check(&file.with_extension("expected"), &actual) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn bad_prefabs_report_every_problem_with_its_place() {
    let pack = Pack::embedded().unwrap();
    let files = txt_files(&fixtures("prefabs/bad"));
    assert!(files.len() >= 10);
    let mut failures = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let actual = match pack.read_prefab_file(&shown(&file), &text) {
            Ok(_) => "loaded without problems\n".to_string(),
            Err(problems) => {
                for e in problems.errors() {
                    let at = e.location().expect("every prefab problem has a location");
                    assert!(at.line > 0, "{e}: a line number is known");
                }
                format!("{problems}\n")
            }
        };
        if let Err(e) = check(&file.with_extension("expected"), &actual) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn broken_packs_report_every_problem_with_its_place() {
    let root = fixtures("packs");
    let mut dirs: Vec<PathBuf> =
        fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    assert!(dirs.len() >= 5);
    let mut failures = Vec::new();
    for dir in dirs {
        let actual = match Pack::load(Path::new(&shown(&dir))) {
            Ok(_) => "loaded without problems\n".to_string(),
            Err(problems) => format!("{problems}\n"),
        };
        if let Err(e) = check(&dir.with_extension("expected"), &actual) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn files_with(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

#[test]
fn definition_files_parse_or_report_every_line() {
    use prefabric::format::def;
    let mut failures = Vec::new();
    for (dir, good) in [("defs/good", true), ("defs/bad", false)] {
        let files = files_with(&fixtures(dir), "def");
        assert!(!files.is_empty(), "{dir}");
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            let (lines, errors) = def::parse(&shown(&file), &text, &prefabric::Limits::default());
            assert_eq!(errors.is_empty(), good, "{}: {errors:?}", file.display());
            let actual = if good {
                lines.iter().map(|l| format!("{l:?}\n")).collect::<String>()
            } else {
                errors.iter().map(|e| format!("{e}\n")).collect::<String>()
            };
            if let Err(e) = check(&file.with_extension("expected"), &actual) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
