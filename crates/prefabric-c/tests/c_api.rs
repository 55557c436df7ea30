//! The C tests (`tests/c/*.c`), compiled with the system C compiler against
//! the static library cargo built for this test, and run — under Valgrind
//! (`--error-exitcode=1 --leak-check=full`) when it is installed, so a leak
//! or an invalid read fails the test. Without Valgrind they run bare, with a
//! note; `PREFABRIC_REQUIRE_VALGRIND=1` (CI, .ci/run) makes that a failure.
//!
//! `generate.c` makes every map type of the built-in pack, reads every part
//! of every map, and compares each map's JSON with what the `prefabric`
//! command prints for the same map type and seed (`prefabric generate
//! --map-type NAME --seed 7 --format json`, run here beforehand); `world.c`
//! makes the built-in world, checks every level's exits know their arrivals,
//! compares its first level's JSON with `prefabric world --seed 7 --level
//! NAME --format json` and takes that level's stairs; `bad_input.c` checks the status codes and messages of bad input;
//! the C example of the README's "From C" section is compiled and run as it
//! stands.
//!
//! The command is `PREFABRIC_CLI` when set, else the `prefabric` cargo built
//! in this test's target folder (`cargo test --workspace` builds it with the
//! command's own tests, before any test runs), as the Python package's tests
//! find it. Without one (`cargo test -p prefabric-c` on a fresh clone) the
//! library's `render::json` stands in, with a note;
//! `PREFABRIC_REQUIRE_CLI=1` (.ci/run) makes that a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The seed every map type is generated with.
const SEED: u64 = 7;

/// The folder cargo put this test's dependencies in (`target/<profile>/deps`,
/// wherever `CARGO_TARGET_DIR` puts the target folder): where the static
/// library built with this test is.
fn static_library() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its path");
    let deps = exe.parent().expect("the test is in a folder");
    let name = if cfg!(windows) { "prefabric_c.lib" } else { "libprefabric_c.a" };
    [deps.join(name), deps.join("..").join(name)]
        .into_iter()
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("no {name} beside {}: cargo builds it with this test", exe.display()))
}

/// The system libraries a Rust static library needs, as `rustc --print
/// native-static-libs` lists them on each platform.
fn system_libraries() -> &'static [&'static str] {
    if cfg!(target_os = "macos") {
        &["-lSystem", "-lc", "-lm"]
    } else {
        &["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]
    }
}

/// Compiles `tests/c/<name>.c` into the test's scratch folder; the program's path.
fn compile(name: &str) -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    compile_source(name, &crate_dir.join("tests/c").join(format!("{name}.c")))
}

/// Compiles the C file `source` into the test's scratch folder as `c-<name>`; the program's path.
fn compile_source(name: &str, source: &Path) -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("c-{name}"));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-g", "-O1"])
        .arg("-I")
        .arg(crate_dir.join("include"))
        .arg(source)
        .arg(static_library())
        .args(system_libraries())
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}` (set CC to another): {e}"));
    assert!(status.success(), "{} does not compile", source.display());
    out
}

/// Whether Valgrind is there to run the programs under.
fn valgrind() -> bool {
    let found = Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("PREFABRIC_REQUIRE_VALGRIND").is_none_or(|v| v != "1"),
            "PREFABRIC_REQUIRE_VALGRIND=1 but valgrind is not installed (.ci/install-valgrind)"
        );
        eprintln!("valgrind is not installed: the C tests run without it (no leak check)");
    }
    found
}

/// Runs `program` with `args`, under Valgrind when there is one; its standard output.
fn run(program: &Path, args: &[&Path]) -> String {
    let mut command = if valgrind() {
        let mut c = Command::new("valgrind");
        let suppressions = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/valgrind.supp");
        c.args(["--error-exitcode=1", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect,possible", "-q"])
            .arg(format!("--suppressions={}", suppressions.display()))
            .arg(program);
        c
    } else {
        Command::new(program)
    };
    let output = command.args(args).output().expect("the C test runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{} failed ({}):\n{stdout}\n{}",
        program.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The `prefabric` command to compare with: `PREFABRIC_CLI`, else the one in
/// this test's target folder (`target/<profile>/prefabric`, beside `deps`).
fn cli() -> Option<PathBuf> {
    let named = std::env::var_os("PREFABRIC_CLI").map(PathBuf::from);
    if let Some(named) = &named {
        assert!(named.is_file(), "PREFABRIC_CLI names {}, which is not a file", named.display());
    }
    let exe = std::env::current_exe().expect("the test knows its path");
    let beside =
        exe.parent().and_then(Path::parent).map(|dir| dir.join(format!("prefabric{}", std::env::consts::EXE_SUFFIX)));
    let found = named.or(beside).filter(|p| p.is_file());
    if let Some(cli) = &found {
        // Shown with a failing test: a command older than the library differs from it.
        eprintln!("comparing with the command {} (PREFABRIC_CLI names another)", cli.display());
    } else {
        assert!(
            std::env::var_os("PREFABRIC_REQUIRE_CLI").is_none_or(|v| v != "1"),
            "PREFABRIC_REQUIRE_CLI=1 but the prefabric command was not found (PREFABRIC_CLI, or target/<profile>/prefabric)"
        );
        eprintln!(
            "the prefabric command was not found: the C tests compare with the library's render::json \
             (build it with `cargo build -p prefabric-cli --profile test`, or name it in PREFABRIC_CLI)"
        );
    }
    found
}

/// What the command `cli` prints for `args`.
fn command_output(cli: &Path, args: &[&str]) -> String {
    let output =
        Command::new(cli).args(args).output().unwrap_or_else(|e| panic!("{} does not run: {e}", cli.display()));
    assert!(output.status.success(), "{} {args:?} failed: {}", cli.display(), String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("the command prints UTF-8")
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch folder is made");
    dir
}

#[test]
fn c_generates_every_map_type_as_the_command_does() {
    let expected = scratch("c-expected");
    let pack = std::sync::Arc::new(prefabric::Pack::embedded().expect("the built-in pack loads"));
    let names: Vec<String> = pack.map_types().map(|m| m.name.clone()).collect();
    let cli = cli();
    for name in &names {
        let json = match &cli {
            Some(cli) => {
                let seed = SEED.to_string();
                command_output(cli, &["generate", "--map-type", name, "--seed", &seed, "--format", "json"])
            }
            None => {
                let generator = prefabric::SharedGenerator::new(pack.clone(), name).expect("a built-in map type");
                prefabric::render::json(&generator.generate(SEED).expect("the seed makes a map"), &pack)
            }
        };
        std::fs::write(expected.join(format!("{name}.json")), json).expect("the expected JSON is written");
    }
    let program = compile("generate");
    let seed = PathBuf::from(SEED.to_string());
    let stdout = run(&program, &[&expected, &seed]);
    assert!(stdout.contains(&format!("{} map types, 0 failures", names.len())), "{stdout}");
    // One map printed as text: as many rows as the first map type is high.
    let first = pack.map_types().next().expect("a map type");
    let rows = stdout.lines().filter(|l| l.chars().count() == first.width as usize).count();
    assert!(rows >= first.height as usize, "no map printed as text:\n{stdout}");
}

#[test]
fn c_world_levels_follow_their_stairs_as_the_command_does() {
    let pack = prefabric::Pack::embedded().expect("the built-in pack loads");
    let mut world = prefabric::World::new(&pack, SEED).expect("the built-in pack has a world").trace(false);
    let first = world.plan().levels[0].name.clone();
    let json = match cli() {
        Some(cli) => {
            let seed = SEED.to_string();
            command_output(&cli, &["world", "--seed", &seed, "--level", &first, "--format", "json"])
        }
        None => {
            // The level once every level its stairs lead to is made, as `world --level` prints it.
            let exits: Vec<prefabric::Point> = world
                .level(&first)
                .expect("the first level")
                .exits()
                .iter()
                .filter(|e| e.to.is_some())
                .map(|e| e.at)
                .collect();
            for at in exits {
                world.follow(&first, at).expect("the stairs lead somewhere");
            }
            prefabric::render::json(world.level(&first).expect("the first level"), &pack)
        }
    };
    let expected = scratch("c-world-expected").join("level.json");
    std::fs::write(&expected, json).expect("the expected JSON is written");
    let program = compile("world");
    let seed = PathBuf::from(SEED.to_string());
    let stdout = run(&program, &[&expected, &seed]);
    assert!(stdout.contains(", 0 failures"), "{stdout}");
    assert!(stdout.contains(&format!("{first} down at (")), "no staircase down taken:\n{stdout}");
}

#[test]
fn c_bad_input_gets_codes_and_messages() {
    let broken = scratch("c-broken-pack");
    std::fs::write(broken.join("pack.toml"), "name = \"broken\"\ndefault_map_type = = \"x\"\n")
        .expect("the broken pack is written");
    let missing = scratch("c-missing").join("no-such-pack");
    let no_world = Path::new(env!("CARGO_MANIFEST_DIR")).join("../prefabric/tests/fixtures/tiny_pack");
    let program = compile("bad_input");
    let stdout = run(&program, &[&broken, &missing, &no_world]);
    assert!(stdout.contains("0 failures"), "{stdout}");
}

#[test]
fn the_readme_c_example_compiles_and_runs() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
        .expect("the README reads");
    let section = readme.split("\n## From C").nth(1).expect("the README has a section \"From C\"");
    let block = section.split("```c\n").nth(1).and_then(|b| b.split("\n```").next()).expect("a ```c block");
    let source = scratch("c-readme-source").join("readme.c");
    std::fs::write(&source, block).expect("the example is written");
    let program = compile_source("readme", &source);
    let stdout = run(&program, &[]);
    assert!(stdout.contains("start at ("), "{stdout}");
}
