//! The commands the README and the manual (`docs/*.md`) show are real output.
//!
//! Each ```` ```text ```` block whose first line starts with `$ ` is a session:
//! every `$ prefabric …` line in it is run, in the order the document shows
//! them, and the lines up to the next `$ ` line (or the block's end) are what it
//! must print. The filters its command line pipes into (`head -N`, `cut -cA-B`,
//! `sed -n A,Bp`) are applied to what it printed; a command whose standard
//! output goes to a file (`> map.json`) shows its standard error instead. A
//! line `...` or `…` stands for lines left out, so such a block must appear in
//! order, with gaps, in what was printed; within a line, `…/` stands for a
//! path's folders, any other `…` for any text, and a duration (`0.04 s`,
//! `12 ms`) matches any duration. The exit status must be the documented one (see
//! [`documented_status`]): a command shown without output must succeed.
//!
//! Each document runs in a folder of its own, where `content/` and `crates/`
//! lead to the repository's and `../shared` to the shared test data, so the
//! commands read what they name and write (`--out`, `init`, `convert`) only
//! into that folder; a document's later commands see what its earlier ones
//! wrote (`init my_pack`, then `check --pack my_pack`).
//!
//! Commands that cannot be run here are listed in [`NOT_RUN`] with the reason,
//! and each one met is named on standard error; a command in neither list
//! fails the test, so nothing is left out silently. Examples on files of
//! `../shared/testdata` are skipped, with a note, where it is absent (and fail
//! with `PREFABRIC_REQUIRE_TESTDATA=1`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The subcommands whose examples are run and compared.
const RUN: &[&str] = &["generate", "show", "check", "convert", "world", "import-des", "init"];

/// The subcommands whose examples are not run, and why.
const NOT_RUN: &[(&str, &str)] = &[
    ("watch", "it runs until it is stopped"),
    ("stats", "it prints times, which differ from run to run, over more maps than a test should wait for"),
];

/// How many examples of each document are run at least, so an example that
/// stops being found (a changed fence, a moved block) fails here. Every
/// document of the manual is listed: a new chapter needs a line. (The tour in
/// getting-started.md runs one more where ../shared/testdata is present.)
const MINIMUM: &[(&str, usize)] = &[
    ("README.md", 2),
    ("docs/README.md", 0),
    ("docs/c-interface.md", 0),
    ("docs/checking-and-tuning.md", 3),
    ("docs/definitions-and-catalog.md", 0),
    ("docs/developing.md", 0),
    ("docs/encounters-and-furnishing.md", 0),
    ("docs/getting-started.md", 20),
    ("docs/importing-vaults.md", 1),
    ("docs/json-schema.md", 0),
    ("docs/library.md", 0),
    ("docs/map-types.md", 0),
    ("docs/performance.md", 0),
    ("docs/prefabs.md", 1),
    ("docs/tiled-and-ldtk.md", 3),
    ("docs/viewer.md", 1),
    ("docs/worlds.md", 2),
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The README and every chapter of the manual, as paths from the repository root.
fn documents() -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(repo().join("docs"))
        .expect("the docs folder")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    [vec!["README.md".to_string()], docs].concat()
}

/// One `$ ` command of a document: where it is, its command line and the lines
/// it shows.
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The fenced blocks of a document: (info string, line of the first content
/// line, content lines).
fn blocks(text: &str) -> Vec<(String, usize, Vec<&str>)> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else { continue };
        let body: Vec<(usize, &str)> = lines.by_ref().take_while(|(_, l)| !l.starts_with("```")).collect();
        let first = body.first().map_or(0, |(n, _)| n + 1);
        blocks.push((info.trim().to_string(), first, body.into_iter().map(|(_, l)| l).collect()));
    }
    blocks
}

/// True when a line is a `prefabric` command line (`prefabric generate …`,
/// with or without a `$ ` before it).
fn is_command(line: &str) -> bool {
    let mut words = line.strip_prefix("$ ").unwrap_or(line).split_whitespace();
    words.next() == Some("prefabric")
        && words.next().is_some_and(|sub| RUN.contains(&sub) || NOT_RUN.iter().any(|(name, _)| *name == sub))
}

/// The `$ ` commands of a document's text blocks, in order. Panics on a
/// `prefabric` command written where this test would not run it.
fn examples(document: &str, text: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    for (info, first, body) in blocks(text) {
        if info != "text" {
            if let Some(i) = body.iter().position(|l| is_command(l)) {
                panic!(
                    "{document}:{}: a `prefabric` command in a ```{info} block: show it in a ```text block \
                     starting with `$ `, so the docs test runs it",
                    first + i
                );
            }
            continue;
        }
        if !body.first().is_some_and(|l| l.starts_with("$ ")) {
            continue;
        }
        for (i, line) in body.iter().enumerate() {
            let Some(command) = line.strip_prefix("$ ") else { continue };
            let shown = body[i + 1..].iter().take_while(|l| !l.starts_with("$ ")).map(|l| l.to_string()).collect();
            examples.push(Example { line: first + i, command: command.to_string(), shown });
        }
    }
    examples
}

/// Applies one `head -N`, `cut -cA-B` or `sed -n A,Bp` filter.
fn filter(lines: Vec<String>, stage: &str) -> Vec<String> {
    let words: Vec<&str> = stage.split_whitespace().collect();
    let number = |s: &str| s.parse::<usize>().unwrap_or_else(|_| panic!("a number in `{stage}`"));
    match words.as_slice() {
        ["head", n] => lines.into_iter().take(number(n.trim_start_matches('-'))).collect(),
        ["cut", range] => {
            let (a, b) = range.trim_start_matches("-c").split_once('-').expect("cut -cA-B");
            let (a, b) = (number(a), number(b));
            lines.into_iter().map(|l| l.chars().skip(a - 1).take(b + 1 - a).collect()).collect()
        }
        ["sed", "-n", range] => {
            let (a, b) = range.trim_end_matches('p').split_once(',').expect("sed -n A,Bp");
            lines.into_iter().skip(number(a) - 1).take(number(b) + 1 - number(a)).collect()
        }
        _ => panic!("the docs test knows head -N, cut -cA-B and sed -n A,Bp, not `{stage}`"),
    }
}

/// A line with every duration (`0.04 s`, `12 ms`, `29 µs`) written as `⏱`:
/// times differ from run to run.
fn without_durations(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_alphanumeric());
        if starts_number {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || chars[j] == '.') {
                j += 1;
            }
            let rest: String = chars[j..].iter().collect();
            let unit = ["s", "ms", "µs"].iter().find(|u| {
                rest.strip_prefix(' ')
                    .and_then(|r| r.strip_prefix(**u))
                    .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric()))
            });
            if let Some(unit) = unit {
                out.push('⏱');
                i = j + 1 + unit.chars().count();
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// True when `text` matches the pieces of a shown line split at `…`: each
/// `…` stands for any text, or for a path's folders (no blank) where the next
/// piece starts with `/`.
fn matches(pieces: &[&str], text: &str) -> bool {
    let Some((piece, rest)) = pieces.split_first() else { return text.is_empty() };
    let Some(after) = text.strip_prefix(piece) else { return false };
    if rest.is_empty() {
        return after.is_empty();
    }
    let folders = rest[0].starts_with('/');
    after
        .char_indices()
        .map(|(i, _)| i)
        .chain([after.len()])
        .take_while(|&i| !folders || !after[..i].contains(' '))
        .any(|i| matches(rest, &after[i..]))
}

/// True when a shown line is the printed one, but for trailing spaces, `…`
/// and durations.
fn same_line(shown: &str, printed: &str) -> bool {
    let (shown, printed) = (without_durations(shown.trim_end()), without_durations(printed.trim_end()));
    let pieces: Vec<&str> = shown.split('…').collect();
    matches(&pieces, &printed)
}

/// True when `shown` appears in `printed` in order; `...` and `…` lines skip any
/// number of printed lines.
fn appears(shown: &[String], printed: &[String]) -> bool {
    let gap = |l: &str| l == "..." || l == "…";
    if !shown.iter().any(|l| gap(l)) {
        return shown.len() == printed.len() && shown.iter().zip(printed).all(|(s, p)| same_line(s, p));
    }
    let mut at = 0;
    for line in shown.iter().filter(|l| !gap(l)) {
        match printed[at..].iter().position(|p| same_line(line, p)) {
            Some(i) => at += i + 1,
            None => return false,
        }
    }
    true
}

/// The exit status an example documents, as the tour of the command line
/// gives them: 2 when what it shows is a usage or I/O error (`error: …`), 1
/// when it reports problems (`2 problems in the pack`) or a failed generation,
/// else 0.
fn documented_status(shown: &[String]) -> i32 {
    let failure = |l: &String| {
        l.starts_with("generation failed")
            || l.contains(": generation failed: ")
            || (l.ends_with(" in the pack") && l.split_whitespace().next().is_some_and(|n| n.parse::<u32>().is_ok()))
    };
    if shown.iter().any(|l| l.starts_with("error: ")) {
        2
    } else if shown.iter().any(failure) {
        1
    } else {
        0
    }
}

/// The files and folders a command writes, as it names them.
fn written<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let positional: Vec<&str> = args.iter().skip(1).copied().filter(|a| !a.starts_with('-')).collect();
    let mut out: Vec<&str> = args.windows(2).filter(|w| w[0] == "--out").map(|w| w[1]).collect();
    match args.first() {
        Some(&"convert") => out.extend(positional.get(1)),
        Some(&"init") => out.extend(positional.first()),
        _ => {}
    }
    out
}

/// A folder for one document's commands: `content` and `crates` lead to the
/// repository's, `../shared` to the one beside the repository.
fn sandbox(document: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "prefabric-docs-{}-{}",
        std::process::id(),
        document.replace(['/', '.', ' '], "-")
    ));
    let _ = std::fs::remove_dir_all(&root);
    let work = root.join("work");
    std::fs::create_dir_all(&work).expect("a sandbox");
    let repo = repo().canonicalize().expect("the repository");
    link(&repo.join("content"), &work.join("content"));
    link(&repo.join("crates"), &work.join("crates"));
    if let Some(parent) = repo.parent() {
        link(&parent.join("shared"), &root.join("shared"));
    }
    work
}

#[cfg(unix)]
fn link(target: &Path, at: &Path) {
    std::os::unix::fs::symlink(target, at).expect("a link in the sandbox");
}

#[cfg(windows)]
fn link(target: &Path, at: &Path) {
    std::os::windows::fs::symlink_dir(target, at).expect("a link in the sandbox");
}

/// Runs one example in `dir`; what went wrong, if anything.
fn run(example: &Example, dir: &Path) -> Result<(), String> {
    let mut stages = example.command.split(" | ");
    let run = stages.next().expect("a command");
    let (run, to_file) = match run.split_once(" > ") {
        Some((run, _)) => (run, true),
        None => (run, false),
    };
    let args: Vec<&str> = run.split_whitespace().skip(1).collect();
    for path in written(&args) {
        if path.starts_with("content/") || path.starts_with("crates/") || path.starts_with("..") {
            return Err(format!("writes `{path}`, outside the folder the docs test gives it"));
        }
        if let Some(parent) = Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir.join(parent)).expect("the folder an example writes into");
        }
    }
    let out =
        Command::new(env!("CARGO_BIN_EXE_prefabric")).args(&args).current_dir(dir).output().expect("the binary runs");
    let lines = |bytes: &[u8]| -> Vec<String> {
        let printed = String::from_utf8_lossy(bytes).lines().map(str::to_string).collect();
        stages.clone().fold(printed, filter)
    };
    let (stdout, stderr) = (lines(&out.stdout), lines(&out.stderr));
    let status = out.status.code().unwrap_or(-1);
    let expected = documented_status(&example.shown);
    let printed = || format!("standard output:\n{}\nstandard error:\n{}", stdout.join("\n"), stderr.join("\n"));
    if status != expected {
        return Err(format!("exited with {status}, where the example documents {expected}; {}", printed()));
    }
    if example.shown.is_empty() {
        return Ok(());
    }
    // The map or report goes to standard output, errors and a redirected
    // command's trace to standard error; some commands print on both.
    let shown_in = |lines: &[String]| appears(&example.shown, lines);
    let found = if to_file {
        shown_in(&stderr)
    } else {
        shown_in(&stdout)
            || shown_in(&stderr)
            || shown_in(&[stdout.clone(), stderr.clone()].concat())
            || shown_in(&[stderr.clone(), stdout.clone()].concat())
    };
    if found { Ok(()) } else { Err(format!("does not print what the example shows; it printed\n{}", printed())) }
}

#[test]
fn the_commands_the_readme_and_the_manual_show_print_what_they_show() {
    let documents = documents();
    let listed: Vec<&str> = MINIMUM.iter().map(|(d, _)| *d).collect();
    assert_eq!(documents, listed, "MINIMUM in readme.rs lists every document, in order");
    let have_testdata = crate::testdata::testdata("").is_some();
    let mut wrong = Vec::new();
    let mut counts = BTreeMap::new();
    for (document, minimum) in MINIMUM {
        let text = std::fs::read_to_string(repo().join(document)).expect("the document");
        let examples = examples(document, &text);
        let dir = sandbox(document);
        let mut ran = 0;
        for example in &examples {
            let at = format!("{document}:{}: `{}`", example.line, example.command);
            let Some(subcommand) = example.command.strip_prefix("prefabric ").and_then(|c| c.split_whitespace().next())
            else {
                wrong.push(format!("{at}: only `$ prefabric` commands are run; show other commands in a ```sh block"));
                continue;
            };
            if let Some((_, why)) = NOT_RUN.iter().find(|(name, _)| *name == subcommand) {
                eprintln!("not run: {at}: `{subcommand}` is not run because {why}");
                continue;
            }
            if !RUN.contains(&subcommand) {
                wrong.push(format!("{at}: `{subcommand}` is in neither RUN nor NOT_RUN of readme.rs"));
                continue;
            }
            // Examples on files of ../shared/testdata run where it is beside the repository.
            if example.command.contains("../shared/testdata/") && !have_testdata {
                continue;
            }
            ran += 1;
            if let Err(why) = run(example, &dir) {
                wrong.push(format!("{at} {why}\n"));
            }
        }
        counts.insert(*document, ran);
        if ran < *minimum {
            wrong.push(format!("{document}: {ran} examples ran, where at least {minimum} are expected"));
        }
        let _ = std::fs::remove_dir_all(dir.parent().expect("the sandbox's root"));
    }
    eprintln!("examples run: {counts:?}");
    assert!(wrong.is_empty(), "examples that no longer print what they show:\n{}", wrong.join("\n"));
}

/// The README's prefab and map type — its code blocks whose first line is
/// `# path/with/a/slash` — with the built-in palette and a `pack.toml` are a
/// pack that `check --strict` passes.
#[test]
fn the_readme_prefab_and_map_type_are_a_pack() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("the README");
    let pack = sandbox("README pack").join("pack");
    let mut map_types = Vec::new();
    for (_, _, body) in blocks(&readme) {
        let path = body.first().and_then(|l| l.strip_prefix("# ")).map(str::trim);
        let Some(path) = path.filter(|p| p.contains('/') && !p.contains(' ')) else { continue };
        let file = pack.join(path);
        std::fs::create_dir_all(file.parent().expect("a folder")).expect("the pack's folders");
        std::fs::write(&file, body.join("\n") + "\n").expect("a file of the pack");
        map_types.extend(path.strip_prefix("maps/").and_then(|p| p.strip_suffix(".toml")).map(str::to_string));
    }
    assert_eq!(map_types.len(), 1, "the README shows one map type: {map_types:?}");
    let name = &map_types[0];
    std::fs::copy(repo().join("content/default/palette.toml"), pack.join("palette.toml")).expect("the palette");
    std::fs::write(pack.join("pack.toml"), format!("name = \"{name}\"\ndefault_map_type = \"{name}\"\n"))
        .expect("pack.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_prefabric"))
        .args(["check", "--pack", "pack", "--strict", "--seeds", "50"])
        .current_dir(pack.parent().expect("the sandbox"))
        .output()
        .expect("the binary runs");
    let printed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the README's pack does not check clean:\n{printed}");
    assert!(printed.contains("1 map type, 50 trial maps"), "{printed}");
    let _ = std::fs::remove_dir_all(pack.parent().and_then(Path::parent).expect("the sandbox's root"));
}

/// GitHub's anchor for a heading: lower case, blanks as `-`, punctuation but
/// `-` and `_` left out.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a document's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut anchors = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            anchors.push(anchor(line.trim_start_matches('#')));
        }
    }
    anchors
}

/// The targets of a document's relative Markdown links, with their lines.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    let mut in_code = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        for piece in line.split("](").skip(1) {
            let Some(target) = piece.split(')').next() else { continue };
            if !target.contains("://") && !target.starts_with("mailto:") {
                links.push((n + 1, target.to_string()));
            }
        }
    }
    links
}

#[test]
fn the_links_of_the_readme_and_the_manual_lead_somewhere() {
    let mut wrong = Vec::new();
    for document in documents() {
        let path = repo().join(&document);
        let text = std::fs::read_to_string(&path).expect("the document");
        let folder = path.parent().expect("a folder");
        for (line, target) in links(&text) {
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if file.is_empty() { path.clone() } else { folder.join(file) };
            if !linked.exists() {
                wrong.push(format!("{document}:{line}: `{target}`: no such file"));
                continue;
            }
            if !fragment.is_empty() {
                let linked_text = std::fs::read_to_string(&linked).unwrap_or_default();
                if !anchors(&linked_text).iter().any(|a| a == fragment) {
                    wrong.push(format!("{document}:{line}: `{target}`: no heading has the anchor `#{fragment}`"));
                }
            }
        }
        // A fence without a language is Rust to rustdoc, which runs the
        // documents' blocks as doctests: every block says what it holds.
        for (info, first, _) in blocks(&text) {
            if info.is_empty() {
                wrong.push(format!("{document}:{}: a code block without a language", first - 1));
            }
        }
    }
    assert!(wrong.is_empty(), "broken links or blocks:\n{}", wrong.join("\n"));
}

/// Every document with a ```` ```rust ```` block is included by a doctest
/// struct at the end of the library's `lib.rs`, so its examples compile and run.
#[test]
fn every_document_with_rust_examples_is_a_doctest() {
    let lib = std::fs::read_to_string(repo().join("crates/prefabric/src/lib.rs")).expect("lib.rs");
    for document in documents() {
        let text = std::fs::read_to_string(repo().join(&document)).expect("the document");
        if blocks(&text).iter().any(|(info, _, _)| info == "rust") {
            let include = format!("#[doc = include_str!(\"../../../{document}\")]");
            assert!(
                lib.contains(&include),
                "{document} has Rust examples: lib.rs needs `{include}` on a doctest struct"
            );
        }
    }
}

#[test]
fn shown_lines_match_with_gaps_wildcards_and_durations() {
    assert!(same_line("…/maps/depot.toml:17:1: warning", "crates/x/dead/maps/depot.toml:17:1: warning"));
    assert!(!same_line("…/maps/depot.toml:17:1", "a b/maps/depot.toml:17:1"));
    assert!(same_line("ok: pack `dead` (…): 5 prefabs", "ok: pack `dead` (crates/x/dead): 5 prefabs"));
    assert!(!same_line("ok: pack `dead` (…): 5 prefabs", "ok: pack `dead` (crates/x/dead): 6 prefabs"));
    assert!(same_line("took 0.04 s", "took 0.13 s"));
    assert!(same_line("30000 maps in 11.3 s", "30000 maps in 9.87 s  "));
    assert!(!same_line("took 0.04 s", "took 0.04 steps"));
    assert!(!same_line("12 encounters", "13 encounters"));
    assert_eq!(documented_status(&["2 problems in the pack".to_string()]), 1);
    assert_eq!(documented_status(&["generation failed: …".to_string()]), 1);
    assert_eq!(documented_status(&["…/maps/m.toml:7:1: generation failed: …".to_string()]), 1);
    assert_eq!(documented_status(&["wrote map.xp".to_string()]), 0);
    assert_eq!(documented_status(&["error: big_pack is not empty: …".to_string()]), 2);
    assert_eq!(written(&["convert", "a.txt", "b.xp", "--name", "x"]), ["b.xp"]);
    assert_eq!(written(&["generate", "--seed", "4", "--out", "docs/a.png"]), ["docs/a.png"]);
    assert_eq!(anchor("Variation: one drawing, many prefabs"), "variation-one-drawing-many-prefabs");
    assert_eq!(anchor("The viewer and `watch`"), "the-viewer-and-watch");
    assert_eq!(anchor("A pack's files"), "a-packs-files");
}
