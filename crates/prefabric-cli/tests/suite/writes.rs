//! `--out` against what already stands at the path, as users meet it: two runs
//! writing one file at once, `-` and `/dev/stdout` for standard output, a
//! symbolic link, a read-only file, and no temporary file left behind. The
//! cases one process cannot show (a FIFO, `/dev/null`) are unit tests of
//! `safe_write.rs`.

use super::cli::{prefabric, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prefabric-writes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("listed")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The map `generate --seed SEED --format json` prints.
fn json_of(seed: &str) -> Vec<u8> {
    let out = prefabric(&["generate", "--map-type", "hotel", "--seed", seed, "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    out.stdout
}

#[test]
fn two_runs_writing_one_path_at_once_both_succeed_and_leave_one_whole_map() {
    let dir = scratch("race");
    let target = dir.join("map.json");
    let target_text = target.to_string_lossy().into_owned();
    let expected = [json_of("3"), json_of("4")];
    for round in 0..4 {
        let runs: Vec<_> = ["3", "4"]
            .iter()
            .map(|seed| {
                Command::new(env!("CARGO_BIN_EXE_prefabric"))
                    .args(["generate", "--map-type", "hotel", "--seed", seed, "--format", "json", "--out"])
                    .arg(&target_text)
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("runs")
            })
            .collect();
        for run in runs {
            let done = run.wait_with_output().expect("finishes");
            assert!(done.status.success(), "round {round}: {}", String::from_utf8_lossy(&done.stderr));
        }
        let written = std::fs::read(&target).expect("the map");
        assert!(expected.contains(&written), "round {round}: the file is one run's whole map");
        assert_eq!(listing(&dir), ["map.json"], "round {round}: no temporary file left");
    }
    std::fs::remove_dir_all(&dir).expect("cleaned");
}

#[test]
fn dash_and_dev_stdout_write_to_standard_output() {
    let expected = json_of("5");
    for out in ["-", "/dev/stdout"] {
        let run = prefabric(&["generate", "--map-type", "hotel", "--seed", "5", "--format", "json", "--out", out]);
        assert!(run.status.success(), "--out {out}: {}", stderr(&run));
        assert_eq!(run.stdout, expected, "--out {out}");
    }
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("../../-").exists(), "no file named -");
}

#[cfg(unix)]
#[test]
fn a_link_is_followed_and_a_read_only_file_is_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("link");
    std::os::unix::fs::symlink("maps/latest.txt", dir.join("latest.txt")).expect("a link");
    std::fs::create_dir(dir.join("maps")).expect("the link's folder");
    let link = dir.join("latest.txt").to_string_lossy().into_owned();
    let run = prefabric(&["generate", "--map-type", "hotel", "--seed", "6", "--out", &link]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(std::fs::symlink_metadata(&link).expect("there").file_type().is_symlink(), "still a link");
    let map = std::fs::read_to_string(dir.join("maps/latest.txt")).expect("written through the link");
    assert!(map.starts_with("# map type hotel, seed 6"), "{map}");

    let locked = dir.join("locked.txt");
    std::fs::write(&locked, "keep me").expect("written");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o444)).expect("read-only");
    let run = prefabric(&["generate", "--map-type", "hotel", "--out", &locked.to_string_lossy()]);
    assert_eq!(run.status.code(), Some(2), "{}", stdout(&run));
    assert!(stderr(&run).contains("locked.txt: the file is read-only"), "{}", stderr(&run));
    assert_eq!(std::fs::read_to_string(&locked).expect("read"), "keep me");
    std::fs::remove_dir_all(&dir).expect("cleaned");
}
