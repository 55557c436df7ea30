//! Fuzzes the definition file parser: any bytes must give definition lines or
//! errors located at a line, never a panic, and never more lines than the limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prefabric::Limits;
use prefabric::format::def;

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    let limits = Limits { max_def_lines: 64, ..Limits::default() };
    let (lines, errors) = def::parse("fuzz.def", &source, &limits);
    assert!(lines.len() <= 64);
    assert!(errors.iter().all(|e| e.location().is_some_and(|l| l.file == "fuzz.def" && l.line > 0)));
    for line in &lines {
        assert!(!line.picks.is_empty());
        assert!(line.chance <= 100 && line.keywords.iter().all(|k| k.chance <= 100));
    }
});
