//! Benchmarks of drawing a varying prefab's outcome, what each placement of one
//! costs on top of turning it.
//!
//! * `vary/transformed_plain` — a prefab without variation turned by a quarter
//!   turn, the work every placement does: the yardstick.
//! * `vary/variant_<name>` — drawing one outcome of a default-pack prefab with
//!   variation lines (its terrain and references rewritten).
//! * `vary/placed_<name>` — drawing the outcome and turning it, as a placement
//!   does.
//!
//! Run with `cargo bench -p prefabric --bench vary`; criterion prints the median as
//! the middle value of `time: [low median high]`.

use criterion::{Criterion, criterion_group, criterion_main};
use prefabric::{Pack, Transform};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let pack = Pack::embedded().unwrap_or_else(|e| panic!("{e}"));
    let turn = Transform::parse("r90").unwrap_or_else(|| panic!("r90 is a transform"));
    let plain = pack.prefab("guest_room").unwrap_or_else(|| panic!("guest_room is in the default pack"));
    assert!(!plain.varies());
    c.bench_function("vary/transformed_plain", |b| b.iter(|| black_box(black_box(plain).transformed(turn))));
    for name in ["columbarium", "storage_alcove_deep", "swarmer_mound_large", "greenhouse"] {
        let prefab = pack.prefab(name).unwrap_or_else(|| panic!("{name} is in the default pack"));
        assert!(prefab.varies(), "{name} has variation lines");
        let mut seed = 0u32;
        c.bench_function(&format!("vary/variant_{name}"), |b| {
            b.iter(|| {
                seed = seed.wrapping_add(1);
                black_box(prefab.variant(black_box(seed)).into_owned())
            })
        });
        c.bench_function(&format!("vary/placed_{name}"), |b| {
            b.iter(|| {
                seed = seed.wrapping_add(1);
                black_box(prefab.variant(black_box(seed)).transformed(turn))
            })
        });
    }
}

criterion_group!(vary_benches, benches);
criterion_main!(vary_benches);
