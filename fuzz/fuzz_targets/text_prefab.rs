//! Fuzzes the text prefab parser: any bytes must give prefabs or located errors,
//! never a panic, and whatever loads must survive being written and read again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prefabric::format::text;
use prefabric::{Limits, Pack, Prefab, render};
use std::sync::OnceLock;

fn pack() -> &'static Pack {
    static PACK: OnceLock<Pack> = OnceLock::new();
    PACK.get_or_init(|| Pack::embedded().expect("the embedded pack loads"))
}

fuzz_target!(|data: &[u8]| {
    let source = String::from_utf8_lossy(data);
    let limits = Limits { max_prefab_side: 64, ..Limits::default() };
    let (raws, errors) = text::parse("fuzz.txt", &source, &limits);
    assert!(errors.iter().all(|e| e.location().is_some_and(|l| l.line > 0)));
    for raw in &raws {
        let Ok(prefab) = Prefab::from_text("fuzz.txt", raw, pack().palette()) else { continue };
        let written = render::prefab_text(&prefab, pack().palette()).expect("a loaded prefab can be written");
        let (again, errors) = text::parse("again.txt", &written, &limits);
        assert!(errors.is_empty(), "{errors:?}\n{written}");
        let back = Prefab::from_text("again.txt", &again[0], pack().palette()).expect("written prefabs read back");
        assert_eq!(back, prefab);
    }
});
