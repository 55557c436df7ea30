//! The checked-in header `include/prefabric.h` is what cbindgen makes from the
//! source now: a function, type or doc comment changed in `src/` without the
//! header fails here. `PREFABRIC_BLESS=1` writes the fresh header instead.

use std::path::Path;

#[test]
fn the_header_is_up_to_date() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml reads");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen makes the header");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let fresh = String::from_utf8(fresh).expect("the header is UTF-8");
    let path = crate_dir.join("include/prefabric.h");
    if std::env::var_os("PREFABRIC_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("include/prefabric.h is written");
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "{} differs from what cbindgen makes from src/ now; run \
         `PREFABRIC_BLESS=1 cargo test -p prefabric-c --test header` and commit the header",
        path.display()
    );
}
