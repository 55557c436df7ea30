//! The README's `prefabric generate` and `prefabric show` examples are real
//! output: each ```` ```text ```` block that starts with `$ prefabric generate`
//! or `$ prefabric show` is run, through the `head`, `cut` and `sed -n` filters
//! its command line pipes into, and must print what the block shows. A block
//! whose command redirects standard output to a file (`> map.json`) shows
//! standard error instead, as does a command that prints nothing else. A line `...` or `…` in a block stands for lines left
//! out, so such a block must appear in order, with gaps, in what was printed.
//! Commands that write files (`--out`) are left to the tests of those files.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A README example: its line, command line and the lines it shows.
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
}

fn examples() -> Vec<Example> {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("the README");
    let mut examples = Vec::new();
    let mut lines = readme.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        if line != "```text" {
            continue;
        }
        let block: Vec<(usize, &str)> = lines.by_ref().take_while(|(_, l)| *l != "```").collect();
        let Some(&(n, first)) = block.first() else { continue };
        let Some(command) = first.strip_prefix("$ ") else { continue };
        let runs = command.starts_with("prefabric generate ") || command.starts_with("prefabric show ");
        if runs && !command.contains("--out") {
            let shown = block[1..].iter().map(|(_, l)| l.to_string()).collect();
            examples.push(Example { line: n + 1, command: command.to_string(), shown });
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
        _ => panic!("the README test knows head -N, cut -cA-B and sed -n A,Bp, not `{stage}`"),
    }
}

/// True when a shown line is the printed one, but for trailing spaces and a
/// `…/` standing for a path's folders (`…/maps/depot.toml`).
fn same_line(shown: &str, printed: &str) -> bool {
    let (shown, printed) = (shown.trim_end(), printed.trim_end());
    let mut pieces = shown.split("…/");
    let Some(mut rest) = pieces.next().and_then(|first| printed.strip_prefix(first)) else { return false };
    for piece in pieces {
        let folders = rest.find(' ').unwrap_or(rest.len());
        let Some(after) = rest[..folders].match_indices('/').find_map(|(i, _)| rest[i + 1..].strip_prefix(piece))
        else {
            return false;
        };
        rest = after;
    }
    rest.is_empty()
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

#[test]
fn the_readme_examples_print_what_they_show() {
    let examples = examples();
    assert!(examples.len() >= 8, "the README's examples were found: {}", examples.len());
    let mut wrong = Vec::new();
    for example in &examples {
        // Examples on files of ../shared/testdata run where it is beside the repository.
        if example.command.contains("../shared/testdata/") && crate::testdata::testdata("").is_none() {
            continue;
        }
        let mut stages = example.command.split(" | ");
        let run = stages.next().expect("a command");
        let (run, to_file) = match run.split_once(" > ") {
            Some((run, _)) => (run, true),
            None => (run, false),
        };
        let args: Vec<&str> = run.split_whitespace().skip(1).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_prefabric"))
            .args(&args)
            .current_dir(repo())
            .output()
            .expect("the binary runs");
        // Errors go to standard error, and so does the trace of a map written
        // to a file.
        let text =
            String::from_utf8(if to_file || out.stdout.is_empty() { out.stderr } else { out.stdout }).expect("UTF-8");
        let printed = stages.fold(text.lines().map(str::to_string).collect(), filter);
        if !appears(&example.shown, &printed) {
            wrong.push(format!(
                "README.md:{}: `{}` printed:\n{}\n",
                example.line,
                example.command,
                printed.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
            ));
        }
    }
    assert!(wrong.is_empty(), "README examples that no longer print what they show:\n{}", wrong.join("\n"));
}
