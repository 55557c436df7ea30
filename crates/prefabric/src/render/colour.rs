//! The colours the image renderers share, so the JSON's legend, the PNG and the
//! REXPaint image agree: a terrain's colour from the palette, the outline colour
//! of each stage's prefabs, and the background behind them.

use crate::format::palette::Palette;
use crate::format::xp::Rgb;
use crate::map::{ObjectKind, Stage, Terrain};

/// Behind everything: cells without a colour of their own.
pub(super) const BACKGROUND: Rgb = Rgb::new(0x10, 0x10, 0x10);

/// The terrain's colour: its variant's in the palette, else its role's.
pub(super) fn terrain_colour(t: Terrain, palette: &Palette) -> Rgb {
    palette.colour_of(Some(t)).or_else(|| palette.colour_of(Some(Terrain::new(t.role())))).unwrap_or(BACKGROUND)
}

/// Outline colour of prefabs placed by each stage.
#[cfg_attr(not(any(feature = "png", feature = "xp")), allow(dead_code))]
pub(super) fn stage_colour(stage: Stage) -> Rgb {
    match stage {
        Stage::Feature => Rgb::new(0x40, 0xe0, 0xff),
        Stage::Layout => Rgb::new(0x80, 0xff, 0x80),
        Stage::Encounter => Rgb::new(0xff, 0x80, 0xc0),
    }
}

/// The colour an object of `kind` is drawn in over the terrain.
#[cfg_attr(not(feature = "png"), allow(dead_code))]
pub(super) fn object_colour(kind: ObjectKind) -> Rgb {
    match kind {
        ObjectKind::Machine => Rgb::new(0xb0, 0xc4, 0xde),
        ObjectKind::Entity => Rgb::new(0xff, 0x40, 0x40),
        ObjectKind::Item => Rgb::new(0xff, 0xd8, 0x40),
        ObjectKind::Prop => Rgb::new(0x40, 0xd0, 0xd0),
        ObjectKind::Trap => Rgb::new(0xff, 0x40, 0xff),
        ObjectKind::Debris => Rgb::new(0xa0, 0x80, 0x60),
    }
}
