//! `prefabric import-des` on input that imports nothing or holds a misspelt
//! directive (issue 53): nothing imported is a failure that says why, and a
//! header DCSS does not know is a warning at its file:line:col.

use crate::cli::{prefabric, stderr, stdout};
use std::path::PathBuf;

/// A fresh folder of the test's own, holding `name` with `text`.
fn folder_with(test: &str, name: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("prefabric-import-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let des = dir.join(name);
    std::fs::write(&des, text).unwrap();
    (dir, des)
}

#[test]
fn an_import_where_every_map_is_skipped_fails_and_says_why() {
    let text = "NAME: lua_only\n: if crawl.coinflip() then\nMAP\nx.x\nENDMAP\n\nNAME: stub\nTAGS: dummy\n";
    let (dir, des) = folder_with("skipped", "skipped.des", text);
    let out_dir = dir.join("pack");
    let out = prefabric(&["import-des", des.to_str().unwrap(), "--out", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}{}", stdout(&out), stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("error: nothing was imported: all 2 maps read were skipped (1 dummy, 1 uses Lua)"), "{err}");
    let report = out_dir.join("IMPORT-REPORT.txt");
    assert!(err.contains(&format!("help: every map's reason, at its file:line, is in {}", report.display())), "{err}");
    let written = std::fs::read_to_string(&report).expect("the report is written");
    assert!(written.contains("skipped: `lua_only`: uses Lua"), "{written}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_misspelt_directive_is_a_warning_at_its_place() {
    let text = "NAME: room\nSUBTS: a = x.\n  ORIENTT: float\nMAP\nxax\nx.x\nENDMAP\n";
    let (dir, des) = folder_with("misspelt", "misspelt.des", text);
    let out_dir = dir.join("pack");
    let out = prefabric(&["import-des", des.to_str().unwrap(), "--out", out_dir.to_str().unwrap()]);
    assert!(out.status.success(), "the map is imported: {}{}", stdout(&out), stderr(&out));
    let err = stderr(&out);
    let file = des.display();
    assert!(err.contains(&format!("{file}:2:1: warning: unknown directive `SUBTS:`")), "{err}");
    assert!(err.contains("help: did you mean `SUBST:`?"), "{err}");
    assert!(err.contains(&format!("{file}:3:3: warning: unknown directive `ORIENTT:`")), "{err}");
    assert!(err.contains("help: did you mean `ORIENT:`?"), "{err}");
    let report = std::fs::read_to_string(out_dir.join("IMPORT-REPORT.txt")).expect("the report");
    assert!(report.contains(&format!("{file}:2:1: warning: unknown directive `SUBTS:`")), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}
