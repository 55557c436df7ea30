//! `prefabric watch` as a designer uses it: start it on a pack, break a file,
//! mend it, and see each change checked, the problem named on the terminal and
//! in the viewer, and the viewer's stamp move on so open pages reload.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// How long one run may take to show up.
const RUN_TIMEOUT: Duration = Duration::from_secs(60);

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The watcher and the lines it prints, as they come.
struct Watching {
    child: Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Watching {
    /// Reads lines until one contains `text`; returns everything read since the
    /// last call.
    fn until(&mut self, text: &str) -> String {
        let start = self.seen.len();
        loop {
            let line = self
                .lines
                .recv_timeout(RUN_TIMEOUT)
                .unwrap_or_else(|_| panic!("no line with {text:?} came; so far:\n{}", self.seen.join("\n")));
            let found = line.contains(text);
            self.seen.push(line);
            if found {
                return self.seen[start..].join("\n");
            }
        }
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn watch_checks_and_redraws_on_every_change() {
    let dir = std::env::temp_dir().join(format!("prefabric-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let pack = dir.join("pack");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../prefabric/tests/fixtures/tiny_pack"), &pack);
    let page: PathBuf = dir.join("view.html");
    let stamp = dir.join("view.html.stamp.js");
    let mut child = Command::new(env!("CARGO_BIN_EXE_prefabric"))
        .args(["watch", "--pack", pack.to_str().unwrap(), "--seed", "7", "--check-seeds", "4"])
        .args(["--out", page.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut watching = Watching { child, lines, seen: Vec::new() };

    let first = watching.until("viewer:");
    assert!(first.contains("== run 1 (start) =="), "{first}");
    assert!(first.contains("check: 0 problems"), "{first}");
    assert!(first.lines().filter(|l| l.chars().count() == 40).count() == 24, "the 40x24 map is printed:\n{first}");
    assert!(first.contains("seed 7"), "{first}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"reload_from\":\"view.html.stamp.js\""), "the page polls its stamp");
    let first_stamp = std::fs::read_to_string(&stamp).unwrap();
    assert!(first_stamp.starts_with("prefabricStamp(") && first_stamp.contains("-1\""), "{first_stamp}");

    // Break the palette: the problem is named, the viewer keeps the map and shows it.
    let palette = pack.join("palette.toml");
    let good = std::fs::read_to_string(&palette).unwrap();
    std::fs::write(&palette, format!("{good}\nthis is not toml\n")).unwrap();
    let broken = watching.until("in the pack; fix and save");
    assert!(broken.contains("== run 2 (changed: palette.toml) =="), "{broken}");
    assert!(broken.contains("palette.toml:"), "the problem names its file and line:\n{broken}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("palette.toml:"), "the viewer shows the problem");
    assert!(html.contains("\"map_type\":\"tiny\""), "and still the last map");
    assert_ne!(std::fs::read_to_string(&stamp).unwrap(), first_stamp, "open viewers are told to reload");

    // Mend it: checked clean again.
    std::fs::write(&palette, &good).unwrap();
    let mended = watching.until("viewer:");
    assert!(mended.contains("== run 3"), "{mended}");
    assert!(mended.contains("check: 0 problems"), "{mended}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"problems\":[]"), "no problems shown once mended");
    drop(watching);
    let _ = std::fs::remove_dir_all(&dir);
}
