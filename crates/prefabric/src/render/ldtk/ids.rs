//! The numbers an LDtk project is made of: its grid size in pixels, the
//! `iid` of each level, layer and entity, the project's `uid`s, and each
//! role's IntGrid value.
//!
//! In: cell counts, keys drawn from a level's seed, roles. Out: pixels, UUIDs
//! and ids. Guarantees: an `iid` is a UUID (RFC 9562 version 8) that depends
//! on its key, kind and number alone; `uid`s are handed out in order, each
//! once; an IntGrid value is never 0 (LDtk's empty cell).

use crate::map::Role;
use crate::rng::Rng;

/// Pixels per map cell in the project (every layer's grid size).
pub const LDTK_GRID_SIZE: i32 = 16;

/// A cell count in pixels.
pub(super) fn px(cells: i32) -> i64 {
    i64::from(cells) * i64::from(LDTK_GRID_SIZE)
}

/// A UUID (RFC 9562 version 8, custom) drawn from `key`, `what` and `n`.
pub(super) fn iid(key: u64, what: &str, n: u64) -> String {
    let mut rng = Rng::stream_n(key, what, n);
    let (high, low) = (rng.next_u64(), rng.next_u64());
    let high = (high & !0xf000) | 0x8000;
    let low = (low & !(0xc << 60)) | (0x8 << 60);
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

/// Hands out the project's `uid`s in order.
#[derive(Default)]
pub(super) struct Uids(i64);

impl Uids {
    pub(super) fn next(&mut self) -> i64 {
        self.0 += 1;
        self.0
    }
}

/// A role's IntGrid value: its index plus one, since 0 is an empty cell.
pub(super) fn role_value(role: Role) -> u8 {
    role.index() as u8 + 1
}
