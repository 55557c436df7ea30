//! Maps as PNG images.
//!
//! In: a map, its pack's palette and [`PngOptions`]. Out: the bytes of a PNG file —
//! one square tile of `scale` pixels per cell in the terrain's palette colour (its
//! variant's, else its role's), each object as a smaller square of its kind's
//! colour over the terrain, every placed prefab outlined in the colour of its
//! encounter category or of the stage that placed it when asked, and below the map
//! a legend naming every colour used, in an 8x8 bitmap font. The same map and
//! options always give the same bytes. Images beyond [`MAX_PIXELS`] are refused
//! before anything is allocated.

use super::colour::{BACKGROUND, object_colour, stage_colour, terrain_colour};
use crate::error::{Error, ErrorKind};
use crate::format::palette::Palette;
use crate::format::xp::Rgb;
use crate::geom::Rect;
use crate::map::{Map, ObjectKind, PlacedPrefab, Stage, Terrain};
use crate::vocab::Category;
use font8x8::UnicodeFonts;

/// The largest scale: a cell of 32x32 pixels.
pub const MAX_SCALE: u32 = 32;

/// The most pixels an image may have (75 MB of colour before compression).
pub const MAX_PIXELS: u64 = 25_000_000;

/// How a map is drawn as a PNG image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PngOptions {
    /// Pixels per cell side, 1 to [`MAX_SCALE`].
    pub scale: u32,
    /// Outline placed prefabs, coloured this way.
    pub highlight: Option<Highlight>,
    /// Add a legend of the colours below the map.
    pub legend: bool,
}

impl Default for PngOptions {
    fn default() -> PngOptions {
        PngOptions { scale: 4, highlight: None, legend: false }
    }
}

/// What the outline of a placed prefab is coloured by.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Highlight {
    /// Its encounter's category (fluff, reward, risk-reward, danger); features and
    /// layout pieces in colours of their own — Cogmind's debug view.
    Category,
    /// The stage that placed it: features, layout or encounters.
    Stage,
}

const TEXT: Rgb = Rgb::new(0xdc, 0xdc, 0xdc);
/// The legend's font is 8x8; an entry's line is this tall.
const LINE: u32 = 12;
const MARGIN: u32 = 4;
/// Space between two legend entries on a line.
const GAP: u32 = 12;

/// The outline colour of a placed prefab and what the legend calls it.
fn outline_colour(placed: &PlacedPrefab, highlight: Highlight) -> (Rgb, &'static str) {
    match (highlight, &placed.encounter) {
        (Highlight::Category, Some(e)) => match e.category {
            Category::Fluff => (Rgb::new(0x60, 0xd0, 0x60), "fluff encounter"),
            Category::Reward => (Rgb::new(0xff, 0xd7, 0x00), "reward encounter"),
            Category::RiskReward => (Rgb::new(0xff, 0x8c, 0x00), "risk-reward encounter"),
            Category::Danger => (Rgb::new(0xff, 0x30, 0x30), "danger encounter"),
        },
        (Highlight::Category, None) if placed.stage == Stage::Feature => (Rgb::new(0xff, 0xff, 0xff), "feature"),
        (Highlight::Category, None) => (Rgb::new(0x80, 0xa0, 0xff), "layout piece"),
        (Highlight::Stage, _) => match placed.stage {
            Stage::Feature => (stage_colour(Stage::Feature), "placed by features"),
            Stage::Layout => (stage_colour(Stage::Layout), "placed by the layout"),
            Stage::Encounter => (stage_colour(Stage::Encounter), "placed by encounters"),
        },
    }
}

/// An RGB image being drawn.
struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: u32, height: u32) -> Canvas {
        let pixels = [BACKGROUND.r, BACKGROUND.g, BACKGROUND.b].repeat(width as usize * height as usize);
        Canvas { width, height, pixels }
    }

    /// Fills the rectangle at (`x`, `y`) of `w` by `h` pixels, clipped to the canvas.
    fn fill(&mut self, x: u32, y: u32, w: u32, h: u32, colour: Rgb) {
        let (x1, y1) = ((x + w).min(self.width), (y + h).min(self.height));
        for py in y.min(y1)..y1 {
            let row = py as usize * self.width as usize;
            for px in x.min(x1)..x1 {
                let i = (row + px as usize) * 3;
                self.pixels[i..i + 3].copy_from_slice(&[colour.r, colour.g, colour.b]);
            }
        }
    }

    /// Draws a frame `thickness` pixels wide just inside the rectangle.
    fn frame(&mut self, x: u32, y: u32, w: u32, h: u32, thickness: u32, colour: Rgb) {
        let t = thickness.min(w).min(h);
        self.fill(x, y, w, t, colour);
        self.fill(x, y + h - t, w, t, colour);
        self.fill(x, y, t, h, colour);
        self.fill(x + w - t, y, t, h, colour);
    }

    /// Writes `text` with its top-left corner at (`x`, `y`); a character the font
    /// lacks is a blank.
    fn text(&mut self, x: u32, y: u32, text: &str, colour: Rgb) {
        for (i, c) in text.chars().enumerate() {
            let Some(rows) = font8x8::BASIC_FONTS.get(c) else { continue };
            let left = x + 8 * i as u32;
            for (dy, bits) in rows.iter().enumerate() {
                for dx in 0..8 {
                    // The font's least significant bit is a row's leftmost pixel.
                    if bits >> dx & 1 == 1 {
                        self.fill(left + dx, y + dy as u32, 1, 1, colour);
                    }
                }
            }
        }
    }
}

/// One legend entry: a swatch of `colour` and its name.
struct Entry {
    colour: Rgb,
    name: String,
}

impl Entry {
    fn width(&self) -> u32 {
        8 + 4 + 8 * self.name.chars().count() as u32
    }
}

/// The legend's entries, in a fixed order: terrain as it appears on the map (by
/// terrain), objects by kind, outlines by category or stage.
fn legend_entries(map: &Map, palette: &Palette, highlight: Option<Highlight>) -> Vec<Entry> {
    let mut terrains: Vec<Terrain> = map.terrain().cells().to_vec();
    terrains.sort();
    terrains.dedup();
    let mut entries: Vec<Entry> =
        terrains.into_iter().map(|t| Entry { colour: terrain_colour(t, palette), name: t.to_string() }).collect();
    let mut kinds: Vec<ObjectKind> = map.objects().iter().map(|o| o.kind).collect();
    kinds.sort();
    kinds.dedup();
    entries.extend(kinds.into_iter().map(|k| Entry { colour: object_colour(k), name: k.name().to_string() }));
    if let Some(h) = highlight {
        let mut outlines: Vec<(Rgb, &str)> = map.prefabs().iter().map(|p| outline_colour(p, h)).collect();
        outlines.sort_by_key(|&(_, name)| name);
        outlines.dedup();
        entries.extend(outlines.into_iter().map(|(colour, name)| Entry { colour, name: name.to_string() }));
    }
    entries
}

/// Lays entries out in lines no wider than `width`; returns each entry's place.
fn layout_legend(entries: &[Entry], width: u32) -> Vec<(u32, u32)> {
    let mut places = Vec::with_capacity(entries.len());
    let (mut x, mut y) = (MARGIN, MARGIN);
    for e in entries {
        if x > MARGIN && x + e.width() + MARGIN > width {
            x = MARGIN;
            y += LINE;
        }
        places.push((x, y));
        x += e.width() + GAP;
    }
    places
}

/// The map as a PNG image; an error when it would have more than [`MAX_PIXELS`]
/// or `options.scale` is not 1 to [`MAX_SCALE`].
pub fn map_png(map: &Map, palette: &Palette, options: &PngOptions) -> Result<Vec<u8>, Error> {
    let scale = options.scale;
    if !(1..=MAX_SCALE).contains(&scale) {
        return Err(Error::new(ErrorKind::Limit, format!("scale {scale} must be 1-{MAX_SCALE}")));
    }
    let (map_w, map_h) = (map.width() as u32 * scale, map.height() as u32 * scale);
    let entries = if options.legend { legend_entries(map, palette, options.highlight) } else { Vec::new() };
    let widest = entries.iter().map(|e| e.width() + 2 * MARGIN).max().unwrap_or(0);
    let width = map_w.max(widest);
    let places = layout_legend(&entries, width);
    let legend_h = places.last().map_or(0, |&(_, y)| y + LINE + MARGIN);
    let height = map_h + legend_h;
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PIXELS {
        return Err(Error::new(
            ErrorKind::Limit,
            format!("the image would be {width}x{height} pixels, more than {MAX_PIXELS}"),
        )
        .with_help("use a smaller scale"));
    }
    let mut canvas = Canvas::new(width, height);
    draw_map(&mut canvas, map, palette, options);
    for (e, &(x, y)) in entries.iter().zip(&places) {
        canvas.fill(x, map_h + y, 8, 8, e.colour);
        canvas.text(x + 12, map_h + y, &e.name, TEXT);
    }
    encode(&canvas)
}

/// Terrain, objects and outlines, `options.scale` pixels per cell.
fn draw_map(canvas: &mut Canvas, map: &Map, palette: &Palette, options: &PngOptions) {
    let s = options.scale;
    for p in map.bounds().points() {
        canvas.fill(p.x as u32 * s, p.y as u32 * s, s, s, terrain_colour(map.terrain()[p], palette));
    }
    // An object is a square inset from its cell, so the floor shows around it.
    let inset = if s >= 3 { (s / 4).max(1) } else { 0 };
    for object in map.objects() {
        let colour = object_colour(object.kind);
        for &(p, _) in &object.cells {
            canvas.fill(p.x as u32 * s + inset, p.y as u32 * s + inset, s - 2 * inset, s - 2 * inset, colour);
        }
    }
    if let Some(h) = options.highlight {
        let thickness = (s / 4).max(1);
        for placed in map.prefabs() {
            let Rect { x, y, width, height } = placed.bounds;
            let (colour, _) = outline_colour(placed, h);
            canvas.frame(x as u32 * s, y as u32 * s, width as u32 * s, height as u32 * s, thickness, colour);
        }
    }
}

fn encode(canvas: &Canvas) -> Result<Vec<u8>, Error> {
    encode_pixels(canvas.width, canvas.height, png::ColorType::Rgb, &canvas.pixels)
}

/// A PNG image of `width` x `height` pixels from their RGBA bytes, row by row.
#[cfg(feature = "tiled")]
pub(super) fn encode_rgba(width: u32, height: u32, pixels: &[u8]) -> Result<Vec<u8>, Error> {
    encode_pixels(width, height, png::ColorType::Rgba, pixels)
}

fn encode_pixels(width: u32, height: u32, colour: png::ColorType, pixels: &[u8]) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    let failed = |e: png::EncodingError| Error::new(ErrorKind::Io, format!("cannot encode the PNG image: {e}"));
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(colour);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(pixels).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(bytes)
}
