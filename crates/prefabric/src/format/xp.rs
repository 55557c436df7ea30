//! REXPaint `.xp` images, read and written.
//!
//! An `.xp` file is gzip-compressed. Decompressed, every integer is little-endian: an
//! `i32` version (negative; -1 in current files), an `i32` layer count, then each layer
//! as an `i32` width, an `i32` height and `width * height` cells in column-major order
//! (the cell at `(x, y)` is number `x * height + y`). A cell is ten bytes: a `u32`
//! glyph code (code page 437 with REXPaint's standard fonts, see
//! [`cp437`](super::cp437)), then the foreground and the background colour as red,
//! green, blue bytes. A background of `#ff00ff` marks a transparent cell. Files from
//! before REXPaint R9 have no version and start with the (positive) layer count;
//! [`read`] accepts those too.
//!
//! [`read`] takes the file's bytes and gives an [`XpImage`] of one or more layers, all
//! the same size, or an [`Error`] naming the file and saying what is wrong. It stops
//! decompressing at [`Limits::max_xp_bytes`], checks every declared count and size
//! against the bytes actually present before it allocates, and never panics. In memory
//! an [`XpLayer`] is row-major, like a [`Grid`]. [`write()`] gives the same bytes for the
//! same image every time, and [`read`] gives that image back.
//!
//! Layers are numbered from 0 in this API and from 1 in error messages, as REXPaint's
//! own interface numbers them.

use crate::error::{Error, ErrorKind, Location};
use crate::geom::Point;
use crate::grid::Grid;
use crate::limits::Limits;
use flate2::read::GzDecoder;
use flate2::{Compression, GzBuilder};
use std::fmt;
use std::io::{Read, Write};
use std::ops::Index;

/// The version [`write()`] puts in every file: current REXPaint's.
const VERSION: i32 = -1;
/// The two bytes every gzip stream starts with.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// Bytes in one cell: a `u32` glyph and two colours of three bytes.
const CELL_BYTES: usize = 10;
/// The fewest bytes a layer can take: its `i32` width and height and one cell.
const MIN_LAYER_BYTES: u64 = 8 + CELL_BYTES as u64;
/// The hint for files whose content is cut short or garbled.
const DAMAGED: &str = "the file was probably cut short or damaged when copied; save it again from REXPaint";

/// A colour, eight bits a channel.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rgb {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

impl Rgb {
    /// Magenta, `#ff00ff`: as a background, it marks a cell transparent.
    pub const TRANSPARENT: Rgb = Rgb::new(255, 0, 255);

    /// A colour from its channels.
    pub const fn new(r: u8, g: u8, b: u8) -> Rgb {
        Rgb { r, g, b }
    }

    /// Parses `#rrggbb` (hex digits in either case), as written by [`Rgb`]'s `Display`.
    pub fn parse(s: &str) -> Option<Rgb> {
        let hex = s.strip_prefix('#')?;
        // Checked first: `from_str_radix` would also take a sign, and slicing needs ASCII.
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb::new(channel(0)?, channel(2)?, channel(4)?))
    }
}

impl fmt::Display for Rgb {
    /// `#rrggbb` in lower case.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

/// One cell of a layer: a glyph drawn in a foreground colour over a background.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct XpCell {
    /// The glyph code; with REXPaint's standard fonts a code page 437 code (0–255),
    /// which [`cp437::to_char`](super::cp437::to_char) turns into a character.
    pub glyph: u32,
    /// The colour the glyph is drawn in.
    pub fg: Rgb,
    /// The colour behind the glyph; [`Rgb::TRANSPARENT`] makes the cell transparent.
    pub bg: Rgb,
}

impl XpCell {
    /// A transparent cell as REXPaint writes one: a space in black over
    /// [`Rgb::TRANSPARENT`]. Only the background makes a cell transparent.
    pub const TRANSPARENT: XpCell = XpCell { glyph: 32, fg: Rgb::new(0, 0, 0), bg: Rgb::TRANSPARENT };

    /// True when the background is [`Rgb::TRANSPARENT`]: REXPaint shows the layers
    /// below through such a cell.
    pub fn is_transparent(&self) -> bool {
        self.bg == Rgb::TRANSPARENT
    }

    /// A cell from its ten bytes in a file.
    fn from_bytes(bytes: &[u8; CELL_BYTES]) -> XpCell {
        let [g0, g1, g2, g3, fr, fg, fb, br, bg, bb] = *bytes;
        XpCell { glyph: u32::from_le_bytes([g0, g1, g2, g3]), fg: Rgb::new(fr, fg, fb), bg: Rgb::new(br, bg, bb) }
    }

    /// Appends the cell's ten bytes, as a file holds them.
    fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.glyph.to_le_bytes());
        out.extend_from_slice(&[self.fg.r, self.fg.g, self.fg.b, self.bg.r, self.bg.g, self.bg.b]);
    }
}

/// One layer of an image: a rectangle of cells, stored row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XpLayer {
    cells: Grid<XpCell>,
}

impl XpLayer {
    /// A `width × height` layer filled with `fill`. A side below 1 gives an empty layer,
    /// which no [`XpImage`] accepts.
    pub fn new(width: i32, height: i32, fill: XpCell) -> XpLayer {
        XpLayer { cells: Grid::new(width, height, fill) }
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.cells.width()
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.cells.height()
    }

    /// The cell at `p`, or `None` outside the layer.
    pub fn get(&self, p: Point) -> Option<&XpCell> {
        self.cells.get(p)
    }

    /// Sets the cell at `p`; returns false (and does nothing) outside the layer.
    pub fn set(&mut self, p: Point, cell: XpCell) -> bool {
        self.cells.set(p, cell)
    }

    /// Every cell, row by row (the file stores them column by column).
    pub fn cells(&self) -> &[XpCell] {
        self.cells.cells()
    }

    /// How many cells are transparent.
    pub fn transparent_count(&self) -> usize {
        self.cells().iter().filter(|c| c.is_transparent()).count()
    }

    /// A layer from its cells as a file stores them, column by column. `columns` holds
    /// exactly `width * height` cells of [`CELL_BYTES`], both sides at least 1.
    fn from_columns(width: i32, height: i32, columns: &[u8]) -> XpLayer {
        let mut layer = XpLayer::new(width, height, XpCell::TRANSPARENT);
        let (w, h) = (layer.width().max(1) as usize, layer.height().max(1) as usize);
        let cells = layer.cells.cells_mut();
        for (i, bytes) in columns.as_chunks::<CELL_BYTES>().0.iter().enumerate() {
            // File cell `i` is at x = i / height, y = i % height.
            if let Some(cell) = cells.get_mut(i % h * w + i / h) {
                *cell = XpCell::from_bytes(bytes);
            }
        }
        layer
    }
}

impl Index<Point> for XpLayer {
    type Output = XpCell;

    /// The cell at `p`; panics outside the layer, like slice indexing.
    fn index(&self, p: Point) -> &XpCell {
        &self.cells[p]
    }
}

/// A REXPaint image: layers of the same size, drawn bottom (layer 0) to top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XpImage {
    version: Option<i32>,
    width: i32,
    height: i32,
    layers: Vec<XpLayer>,
}

impl XpImage {
    /// A `width × height` image with no layers yet (add them with
    /// [`XpImage::push_layer`]) and version -1. A side below 1 counts as 0, and such an
    /// image accepts no layer.
    pub fn new(width: i32, height: i32) -> XpImage {
        XpImage { version: Some(VERSION), width: width.max(0), height: height.max(0), layers: Vec::new() }
    }

    /// An image of the given layers, bottom first, with version -1. Fails unless there
    /// is at least one layer and every layer has the same size, at least 1x1.
    pub fn with_layers(layers: Vec<XpLayer>) -> Result<XpImage, Error> {
        let Some(first) = layers.first() else {
            return Err(Error::new(ErrorKind::Invalid, "an image needs at least one layer"));
        };
        let mut image = XpImage::new(first.width(), first.height());
        for layer in layers {
            image.push_layer(layer)?;
        }
        Ok(image)
    }

    /// Adds a layer on top. Fails, leaving the image as it was, unless the layer is the
    /// image's size and at least 1x1.
    pub fn push_layer(&mut self, layer: XpLayer) -> Result<(), Error> {
        let number = self.layers.len() + 1;
        let (w, h) = (layer.width(), layer.height());
        if w < 1 || h < 1 {
            let message = format!("layer {number} is {w}x{h}; a layer needs at least one cell");
            return Err(Error::new(ErrorKind::Invalid, message));
        }
        if (w, h) != (self.width, self.height) {
            let message = format!(
                "layer {number} is {w}x{h} but the image is {}x{}; every layer of an image has the same size",
                self.width, self.height
            );
            return Err(Error::new(ErrorKind::Invalid, message));
        }
        self.layers.push(layer);
        Ok(())
    }

    /// The version the file declared (REXPaint's current one is -1), or `None` for a
    /// file from before REXPaint R9, which had none. New images have -1.
    pub fn version(&self) -> Option<i32> {
        self.version
    }

    /// Width in cells, the same for every layer.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells, the same for every layer.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The layers, bottom first.
    pub fn layers(&self) -> &[XpLayer] {
        &self.layers
    }

    /// Layer `index` (0 is the bottom), if there is one.
    pub fn layer(&self, index: usize) -> Option<&XpLayer> {
        self.layers.get(index)
    }

    /// Layer `index` (0 is the bottom), mutably, if there is one.
    pub fn layer_mut(&mut self, index: usize) -> Option<&mut XpLayer> {
        self.layers.get_mut(index)
    }
}

/// Reads an `.xp` file from its bytes. `file` names it in errors.
///
/// Fails with [`ErrorKind::Limit`] when the file decompresses to more than
/// [`Limits::max_xp_bytes`], and with [`ErrorKind::Format`] when it is empty, not
/// gzip, a corrupt gzip stream, or declares a version, layer count or size that is
/// impossible or does not match the bytes present.
pub fn read(file: &str, bytes: &[u8], limits: &Limits) -> Result<XpImage, Error> {
    let data = decompress(file, bytes, limits.max_xp_bytes)?;
    parse(file, &data)
}

/// Writes an image as an `.xp` file: gzip-compressed, version -1, the same bytes for
/// the same image every time. The gzip header holds no file name, a modification
/// time of 0 and an unknown (255) operating system: `1f 8b 08 00 00 00 00 00 00 ff`.
///
/// An image with no layers is written with a layer count of 0, which REXPaint and
/// [`read`] reject: give it a layer first.
pub fn write(image: &XpImage) -> Vec<u8> {
    let count = image.layers.len();
    let mut raw = Vec::with_capacity(8 + image.layers.iter().map(|l| 8 + l.cells().len() * CELL_BYTES).sum::<usize>());
    raw.extend_from_slice(&VERSION.to_le_bytes());
    raw.extend_from_slice(&i32::try_from(count).unwrap_or(i32::MAX).to_le_bytes());
    for layer in &image.layers {
        raw.extend_from_slice(&layer.width().to_le_bytes());
        raw.extend_from_slice(&layer.height().to_le_bytes());
        let (w, h) = (layer.width() as usize, layer.height() as usize);
        let cells = layer.cells();
        for x in 0..w {
            for y in 0..h {
                cells[y * w + x].write_to(&mut raw);
            }
        }
    }
    // Pinned rather than left to flate2's defaults, so the bytes never change with it.
    let mut encoder = GzBuilder::new().mtime(0).operating_system(255).write(Vec::new(), Compression::default());
    // Writing into a Vec cannot fail, so neither can compressing into one.
    #[allow(clippy::expect_used)]
    encoder.write_all(&raw).and_then(|()| encoder.finish()).expect("compressing into memory cannot fail")
}

/// "1 layer", "2 layers".
fn n_layers(n: i64) -> String {
    if n == 1 { "1 layer".to_string() } else { format!("{n} layers") }
}

/// An error about the file's content.
fn format_error(file: &str, message: impl Into<String>) -> Error {
    Error::at(ErrorKind::Format, Location::file(file), message)
}

/// The decompressed content, at most `max` bytes of it.
fn decompress(file: &str, bytes: &[u8], max: u64) -> Result<Vec<u8>, Error> {
    if bytes.is_empty() {
        return Err(format_error(file, "the file is empty").with_help("save the image again from REXPaint"));
    }
    if !bytes.starts_with(&GZIP_MAGIC) {
        let start: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
        let message = format!(
            "not a gzip file (it starts with bytes {}); REXPaint .xp files are gzip-compressed",
            start.join(" ")
        );
        return Err(format_error(file, message)
            .with_help("save the image from REXPaint as .xp; its exports (.png, .txt, .csv, .xml) are other formats"));
    }
    let mut data = Vec::new();
    let mut decoder = GzDecoder::new(bytes).take(max.saturating_add(1));
    if let Err(e) = decoder.read_to_end(&mut data) {
        return Err(format_error(file, format!("the gzip stream is corrupt or truncated: {e}")).with_help(DAMAGED));
    }
    if data.len() as u64 > max {
        let message = format!("the file decompresses to more than {max} bytes");
        let help = "if the image really is this large, raise Limits::max_xp_bytes";
        return Err(Error::at(ErrorKind::Limit, Location::file(file), message).with_help(help));
    }
    Ok(data)
}

/// Reads decompressed content front to back.
struct Cursor<'a> {
    rest: &'a [u8],
}

impl<'a> Cursor<'a> {
    fn i32(&mut self) -> Option<i32> {
        let (head, rest) = self.rest.split_first_chunk::<4>()?;
        self.rest = rest;
        Some(i32::from_le_bytes(*head))
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = self.rest.split_at_checked(n)?;
        self.rest = rest;
        Some(head)
    }

    fn remaining(&self) -> usize {
        self.rest.len()
    }
}

/// The image in decompressed content, every size checked before it is allocated.
fn parse(file: &str, data: &[u8]) -> Result<XpImage, Error> {
    let mut input = Cursor { rest: data };
    let too_short = || {
        let message = format!(
            "the file decompresses to only {} bytes, too few for its header (a version and a layer count, 4 bytes each)",
            data.len()
        );
        format_error(file, message).with_help(DAMAGED)
    };
    let first = input.i32().ok_or_else(too_short)?;
    let (version, count) = match first {
        0 => {
            let message = "the file starts with 0, which is neither a version (negative; -1 in current REXPaint \
                           files) nor a layer count (positive, in files from before REXPaint R9)";
            return Err(format_error(file, message).with_help(DAMAGED));
        }
        v if v < 0 => (Some(v), input.i32().ok_or_else(too_short)?),
        n => (None, n),
    };
    let count = match usize::try_from(count) {
        Ok(n) if n > 0 => n,
        _ => {
            let message = format!("the file declares {}; an image has at least one", n_layers(count.into()));
            return Err(format_error(file, message).with_help(DAMAGED));
        }
    };
    let after_header = input.remaining();
    if count as u64 * MIN_LAYER_BYTES > after_header as u64 {
        let message = format!(
            "the file declares {} but only {after_header} bytes follow its header, too few for even {0} of one \
             cell ({MIN_LAYER_BYTES} bytes each): the file is truncated or its header is damaged",
            n_layers(count as i64)
        );
        return Err(format_error(file, message).with_help(DAMAGED));
    }

    let mut layers = Vec::with_capacity(count);
    let mut size = None;
    for number in 1..=count {
        let left = input.remaining();
        let (Some(width), Some(height)) = (input.i32(), input.i32()) else {
            let message = format!(
                "layer {number} of {count} is cut off before its size (8 bytes) with only {left} bytes left: \
                 the file is truncated"
            );
            return Err(format_error(file, message).with_help(DAMAGED));
        };
        if width < 1 || height < 1 {
            let message = format!("layer {number} declares a size of {width}x{height}; both sides must be at least 1");
            return Err(format_error(file, message).with_help(DAMAGED));
        }
        if let Some((w, h)) = size
            && (w, h) != (width, height)
        {
            let message = format!(
                "layer {number} is {width}x{height} but layer 1 is {w}x{h}; every layer of an image has the same size"
            );
            return Err(format_error(file, message).with_help(DAMAGED));
        }
        // Both sides are positive i32s, so neither product overflows a u128.
        let needed = width as u128 * height as u128 * CELL_BYTES as u128;
        let left = input.remaining();
        let Some(columns) = usize::try_from(needed).ok().and_then(|n| input.take(n)) else {
            let message = format!(
                "layer {number} declares {width}x{height} cells ({needed} bytes) but only {left} bytes remain: \
                 the file is truncated"
            );
            return Err(format_error(file, message).with_help(DAMAGED));
        };
        layers.push(XpLayer::from_columns(width, height, columns));
        size = Some((width, height));
    }
    if input.remaining() > 0 {
        let message = format!(
            "{} bytes follow layer {count}, the last the file declares: the file is damaged or declares too few \
             layers",
            input.remaining()
        );
        return Err(format_error(file, message).with_help(DAMAGED));
    }
    let (width, height) = size.unwrap_or((0, 0));
    Ok(XpImage { version, width, height, layers })
}

#[cfg(test)]
mod tests;
