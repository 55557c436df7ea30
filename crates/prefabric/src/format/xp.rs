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
mod tests {
    use super::*;
    use flate2::write::GzEncoder;
    use proptest::prelude::*;

    const FILE: &str = "maps/bad.xp";

    fn gzip(raw: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(raw).unwrap();
        encoder.finish().unwrap()
    }

    /// Little-endian `i32`s, as a file holds them.
    fn ints(values: &[i32]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// `n` cells of bytes, each cell's glyph its number.
    fn cells(n: u32) -> Vec<u8> {
        let mut out = Vec::new();
        for i in 0..n {
            XpCell { glyph: i, fg: Rgb::new(1, 2, 3), bg: Rgb::new(4, 5, 6) }.write_to(&mut out);
        }
        out
    }

    fn raw_error(raw: &[u8]) -> Error {
        bytes_error(&gzip(raw), &Limits::default())
    }

    fn bytes_error(bytes: &[u8], limits: &Limits) -> Error {
        let e = read(FILE, bytes, limits).expect_err("the file is bad");
        assert_eq!(e.location(), Some(&Location::file(FILE)));
        assert!(e.to_string().starts_with(FILE), "{e}");
        e
    }

    fn sample() -> XpImage {
        let cell = |glyph, fg, bg| XpCell { glyph, fg, bg };
        let mut bottom = XpLayer::new(5, 3, cell(219, Rgb::new(10, 20, 30), Rgb::new(0, 0, 0)));
        bottom.set(Point::new(4, 0), cell(u32::from(b'@'), Rgb::new(255, 255, 0), Rgb::new(1, 1, 1)));
        bottom.set(Point::new(0, 2), cell(1000, Rgb::new(1, 2, 3), Rgb::new(4, 5, 6)));
        let mut top = XpLayer::new(5, 3, XpCell::TRANSPARENT);
        top.set(Point::new(2, 1), cell(u32::from(b'#'), Rgb::new(200, 0, 0), Rgb::new(9, 9, 9)));
        let mut middle = XpLayer::new(5, 3, cell(32, Rgb::new(0, 0, 0), Rgb::TRANSPARENT));
        middle.set(Point::new(1, 1), cell(0, Rgb::new(7, 7, 7), Rgb::new(8, 8, 8)));
        XpImage::with_layers(vec![bottom, middle, top]).unwrap()
    }

    #[test]
    fn written_images_read_back_equal() {
        let image = sample();
        let back = read("sample.xp", &write(&image), &Limits::default()).unwrap();
        assert_eq!(back, image);
        assert_eq!(back.version(), Some(-1));
        assert_eq!((back.width(), back.height(), back.layers().len()), (5, 3, 3));
        assert_eq!(back.layer(0).unwrap()[Point::new(0, 2)].glyph, 1000);
        assert_eq!(back.layer(0).unwrap().transparent_count(), 0);
        assert_eq!(back.layer(1).unwrap().transparent_count(), 14);
        assert_eq!(back.layer(2).unwrap().transparent_count(), 14);
        assert!(back.layer(2).unwrap()[Point::new(0, 0)].is_transparent());
        assert!(back.layer(3).is_none());
    }

    #[test]
    fn cells_are_column_major_in_the_file() {
        // A 3x2 layer: file cell i has glyph i, and sits at x = i / 2, y = i % 2.
        let mut raw = ints(&[-1, 1, 3, 2]);
        raw.extend(cells(6));
        let image = read("cols.xp", &gzip(&raw), &Limits::default()).unwrap();
        let layer = image.layer(0).unwrap();
        let glyphs: Vec<u32> = layer.cells().iter().map(|c| c.glyph).collect();
        assert_eq!(glyphs, [0, 2, 4, 1, 3, 5]);
        assert_eq!(layer.get(Point::new(2, 1)).map(|c| c.glyph), Some(5));
        assert_eq!(layer.get(Point::new(3, 0)), None);
        assert_eq!(layer[Point::new(0, 1)].fg, Rgb::new(1, 2, 3));
        assert_eq!(layer[Point::new(0, 1)].bg, Rgb::new(4, 5, 6));
        // And written back column-major too.
        let written = write(&image);
        let mut decoded = Vec::new();
        GzDecoder::new(&written[..]).read_to_end(&mut decoded).unwrap();
        assert_eq!(decoded, raw);
    }

    #[test]
    fn legacy_files_without_a_version_are_read() {
        let mut raw = ints(&[2, 2, 1]);
        raw.extend(cells(2));
        raw.extend(ints(&[2, 1]));
        raw.extend(cells(2));
        let image = read("old.xp", &gzip(&raw), &Limits::default()).unwrap();
        assert_eq!(image.version(), None);
        assert_eq!((image.width(), image.height(), image.layers().len()), (2, 1, 2));
        assert_eq!(image.layer(1).unwrap()[Point::new(1, 0)].glyph, 1);
        // Written back, it gains the current version.
        let again = read("new.xp", &write(&image), &Limits::default()).unwrap();
        assert_eq!(again.version(), Some(-1));
        assert_eq!(again.layers(), image.layers());
    }

    #[test]
    fn other_negative_versions_are_kept() {
        let mut raw = ints(&[-7, 1, 1, 1]);
        raw.extend(cells(1));
        assert_eq!(read("v.xp", &gzip(&raw), &Limits::default()).unwrap().version(), Some(-7));
    }

    #[test]
    fn writing_is_deterministic_with_a_fixed_header() {
        let image = sample();
        let (a, b) = (write(&image), write(&image));
        assert_eq!(a, b);
        // Magic, deflate, no flags (so no file name), mtime 0, no extra flags, OS unknown.
        assert_eq!(a[..10], [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
        assert_eq!(write(&image.clone()), a);
    }

    #[test]
    fn empty_files_say_so() {
        let e = bytes_error(b"", &Limits::default());
        assert_eq!(e.kind(), ErrorKind::Format);
        assert_eq!(e.message(), "the file is empty");
    }

    #[test]
    fn files_that_are_not_gzip_say_so() {
        let e = bytes_error(b"PK\x03\x04zip", &Limits::default());
        assert_eq!(e.kind(), ErrorKind::Format);
        assert_eq!(
            e.message(),
            "not a gzip file (it starts with bytes 50 4b 03 04); REXPaint .xp files are gzip-compressed"
        );
        assert!(e.help().unwrap().contains(".xp"));
        let e = bytes_error(&[0x1f], &Limits::default());
        assert!(e.message().starts_with("not a gzip file (it starts with bytes 1f)"), "{e}");
    }

    #[test]
    fn truncated_and_corrupt_gzip_streams_say_so() {
        let good = write(&sample());
        for cut in [3, 10, 12, good.len() / 2, good.len() - 1] {
            let e = bytes_error(&good[..cut], &Limits::default());
            assert_eq!(e.kind(), ErrorKind::Format);
            assert!(e.message().starts_with("the gzip stream is corrupt or truncated: "), "{cut}: {e}");
            assert!(e.message().len() > "the gzip stream is corrupt or truncated: ".len(), "{e}");
        }
        // A wrong checksum in the trailer.
        let mut bad = good.clone();
        let crc = bad.len() - 8;
        bad[crc] ^= 0xff;
        let e = bytes_error(&bad, &Limits::default());
        assert!(e.message().starts_with("the gzip stream is corrupt or truncated: "), "{e}");
        // A reserved compression method in the header.
        let mut bad = good;
        bad[2] = 7;
        let e = bytes_error(&bad, &Limits::default());
        assert!(e.message().starts_with("the gzip stream is corrupt or truncated: "), "{e}");
    }

    #[test]
    fn decompression_bombs_stop_at_the_limit() {
        // 200 MiB of zeros compress to about 200 KB.
        let zeros = vec![0u8; 1 << 20];
        let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
        for _ in 0..200 {
            encoder.write_all(&zeros).unwrap();
        }
        let bomb = encoder.finish().unwrap();
        assert!(bomb.len() < 300_000, "{}", bomb.len());
        let e = bytes_error(&bomb, &Limits::default());
        assert_eq!(e.kind(), ErrorKind::Limit);
        assert_eq!(e.message(), "the file decompresses to more than 134217728 bytes");
        assert_eq!(e.help(), Some("if the image really is this large, raise Limits::max_xp_bytes"));

        // A valid file just over a small limit, and one just under it.
        let limits = Limits { max_xp_bytes: 27, ..Limits::default() };
        let mut raw = ints(&[-1, 1, 1, 2]);
        raw.extend(cells(2));
        assert_eq!(raw.len(), 36);
        let e = bytes_error(&gzip(&raw), &limits);
        assert_eq!(e.message(), "the file decompresses to more than 27 bytes");
        let limits = Limits { max_xp_bytes: 36, ..Limits::default() };
        assert!(read(FILE, &gzip(&raw), &limits).is_ok());
    }

    #[test]
    fn short_headers_say_so() {
        for raw in [&[][..], &[1, 2, 3][..], &ints(&[-1])[..], &[0xff, 0xff, 0xff, 0xff, 1][..]] {
            let e = raw_error(raw);
            assert_eq!(e.kind(), ErrorKind::Format);
            assert_eq!(
                e.message(),
                format!(
                    "the file decompresses to only {} bytes, too few for its header (a version and a layer count, \
                     4 bytes each)",
                    raw.len()
                )
            );
        }
    }

    #[test]
    fn version_zero_and_empty_layer_counts_are_refused() {
        let e = raw_error(&ints(&[0, 1, 1, 1]));
        assert!(e.message().starts_with("the file starts with 0, which is neither a version"), "{e}");
        assert_eq!(e.help(), Some(DAMAGED));
        for count in [0, -1, i32::MIN] {
            let e = raw_error(&ints(&[-1, count]));
            assert_eq!(e.message(), format!("the file declares {count} layers; an image has at least one"));
        }
    }

    #[test]
    fn layer_counts_beyond_the_bytes_present_are_refused_before_allocating() {
        let mut raw = ints(&[-1, i32::MAX, 1, 1]);
        raw.extend(cells(1));
        let e = raw_error(&raw);
        assert_eq!(
            e.message(),
            "the file declares 2147483647 layers but only 18 bytes follow its header, too few for even 2147483647 \
             layers of one cell (18 bytes each): the file is truncated or its header is damaged"
        );
        // A legacy count is checked the same way.
        let e = raw_error(&ints(&[1_000_000, 1, 1]));
        assert!(e.message().starts_with("the file declares 1000000 layers but only 8 bytes follow"), "{e}");
    }

    #[test]
    fn impossible_sizes_are_refused() {
        for (w, h) in [(-5, 10), (10, -5), (0, 3), (3, 0), (i32::MIN, i32::MIN)] {
            let mut raw = ints(&[-1, 1, w, h]);
            raw.extend(cells(10));
            let e = raw_error(&raw);
            assert_eq!(e.message(), format!("layer 1 declares a size of {w}x{h}; both sides must be at least 1"));
        }
        let mut raw = ints(&[-1, 1, i32::MAX, i32::MAX]);
        raw.extend(cells(10));
        let e = raw_error(&raw);
        assert_eq!(
            e.message(),
            "layer 1 declares 2147483647x2147483647 cells (46116860141324206090 bytes) but only 100 bytes remain: \
             the file is truncated"
        );
    }

    #[test]
    fn truncated_cells_are_refused() {
        let mut raw = ints(&[-1, 2, 2, 2]);
        raw.extend(cells(4));
        raw.extend(ints(&[80, 50]));
        raw.extend(vec![0; 1234]);
        let e = raw_error(&raw);
        // Layer 2 differs from layer 1, which is reported first.
        assert!(e.message().starts_with("layer 2 is 80x50 but layer 1 is 2x2"), "{e}");

        let mut raw = ints(&[-1, 2, 80, 50]);
        raw.extend(cells(4000));
        raw.extend(ints(&[80, 50]));
        raw.extend(vec![0; 1234]);
        let e = raw_error(&raw);
        assert_eq!(
            e.message(),
            "layer 2 declares 80x50 cells (40000 bytes) but only 1234 bytes remain: the file is truncated"
        );
        assert_eq!(e.help(), Some(DAMAGED));

        // Room for the declared count of one-cell layers, but the first layer took it.
        let mut raw = ints(&[-1, 2, 3, 1]);
        raw.extend(cells(3));
        raw.extend([0; 6]);
        let e = raw_error(&raw);
        assert_eq!(
            e.message(),
            "layer 2 of 2 is cut off before its size (8 bytes) with only 6 bytes left: the file is truncated"
        );
    }

    #[test]
    fn layers_of_different_sizes_are_refused() {
        let mut raw = ints(&[-1, 2, 3, 2]);
        raw.extend(cells(6));
        raw.extend(ints(&[2, 3]));
        raw.extend(cells(6));
        let e = raw_error(&raw);
        assert_eq!(e.message(), "layer 2 is 2x3 but layer 1 is 3x2; every layer of an image has the same size");
    }

    #[test]
    fn trailing_bytes_are_refused() {
        let mut raw = ints(&[-1, 1, 2, 2]);
        raw.extend(cells(4));
        raw.extend([1, 2, 3]);
        let e = raw_error(&raw);
        assert_eq!(
            e.message(),
            "3 bytes follow layer 1, the last the file declares: the file is damaged or declares too few layers"
        );
    }

    #[test]
    fn images_keep_their_layers_the_same_size() {
        let cell = XpCell { glyph: 65, fg: Rgb::new(1, 2, 3), bg: Rgb::new(0, 0, 0) };
        assert!(XpImage::with_layers(Vec::new()).is_err());
        assert!(XpImage::with_layers(vec![XpLayer::new(0, 4, cell)]).is_err());
        let e = XpImage::with_layers(vec![XpLayer::new(3, 2, cell), XpLayer::new(2, 3, cell)]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Invalid);
        assert_eq!(e.message(), "layer 2 is 2x3 but the image is 3x2; every layer of an image has the same size");

        let mut image = XpImage::new(3, 2);
        assert_eq!((image.version(), image.layers().len()), (Some(-1), 0));
        assert!(image.push_layer(XpLayer::new(3, 3, cell)).is_err());
        assert!(image.push_layer(XpLayer::new(3, 2, cell)).is_ok());
        assert!(image.layer_mut(0).unwrap().set(Point::new(2, 1), XpCell::TRANSPARENT));
        assert!(!image.layer_mut(0).unwrap().set(Point::new(3, 1), XpCell::TRANSPARENT));
        assert_eq!(image.layer(0).unwrap().transparent_count(), 1);
        assert!(XpImage::new(-2, 2).push_layer(XpLayer::new(-2, 2, cell)).is_err());
        // An image without layers writes a file that is refused on reading.
        let e = read(FILE, &write(&XpImage::new(3, 2)), &Limits::default()).unwrap_err();
        assert_eq!(e.message(), "the file declares 0 layers; an image has at least one");
    }

    #[test]
    fn colours_parse_and_print_as_hex() {
        assert_eq!(Rgb::parse("#FF00ff"), Some(Rgb::TRANSPARENT));
        assert_eq!(Rgb::parse("#0a1B2c"), Some(Rgb::new(0x0a, 0x1b, 0x2c)));
        assert_eq!(Rgb::new(0x0a, 0x1b, 0x2c).to_string(), "#0a1b2c");
        assert_eq!(Rgb::TRANSPARENT.to_string(), "#ff00ff");
        for bad in ["", "#", "ff00ff", "#ff00f", "#ff00ff0", "#+f00ff", "#gg0000", "#ff00fé", "#ff0éf", " #ff00ff"] {
            assert_eq!(Rgb::parse(bad), None, "{bad:?}");
        }
        assert!(XpCell::TRANSPARENT.is_transparent());
        assert!(Rgb::new(0, 0, 0) < Rgb::new(0, 0, 1));
    }

    /// A small valid file's decompressed bytes: two 3x2 layers.
    fn valid_raw() -> Vec<u8> {
        let mut raw = ints(&[-1, 2, 3, 2]);
        raw.extend(cells(6));
        raw.extend(ints(&[3, 2]));
        raw.extend(cells(6));
        raw
    }

    /// A change to a byte string: overwrite, insert, delete, or cut at a position.
    #[derive(Clone, Debug)]
    enum Mutation {
        Set(usize, u8),
        Insert(usize, u8),
        Delete(usize),
        Truncate(usize),
        SetI32(usize, i32),
    }

    fn mutation() -> impl Strategy<Value = Mutation> {
        prop_oneof![
            (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Set(i, b)),
            (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
            any::<usize>().prop_map(Mutation::Delete),
            any::<usize>().prop_map(Mutation::Truncate),
            (any::<usize>(), prop_oneof![Just(0), Just(-1), Just(1), Just(i32::MAX), Just(i32::MIN), any::<i32>()])
                .prop_map(|(i, v)| Mutation::SetI32(i, v)),
        ]
    }

    fn mutate(bytes: &mut Vec<u8>, mutations: &[Mutation]) {
        for m in mutations {
            let len = bytes.len();
            match *m {
                Mutation::Set(i, b) if len > 0 => bytes[i % len] = b,
                Mutation::Insert(i, b) => bytes.insert(i % (len + 1), b),
                Mutation::Delete(i) if len > 0 => {
                    bytes.remove(i % len);
                }
                Mutation::Truncate(i) => bytes.truncate(i % (len + 1)),
                // Overwrites a whole header-sized field, aligned to 4 bytes.
                Mutation::SetI32(i, v) if len >= 4 => {
                    let at = (i % (len / 4)) * 4;
                    bytes[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
                _ => {}
            }
        }
    }

    fn small_limits() -> Limits {
        Limits { max_xp_bytes: 4096, ..Limits::default() }
    }

    /// Whatever reads must write and read back unchanged; whatever fails must say where.
    fn check(result: Result<XpImage, Error>) -> Result<(), TestCaseError> {
        match result {
            Ok(image) => {
                let back = read("again.xp", &write(&image), &small_limits());
                prop_assert_eq!(back.map(|b| b.layers().to_vec()), Ok(image.layers().to_vec()));
            }
            Err(e) => prop_assert_eq!(e.location(), Some(&Location::file(FILE))),
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            check(read(FILE, &bytes, &small_limits()))?;
            let mut gz = GZIP_MAGIC.to_vec();
            gz.extend(&bytes);
            check(read(FILE, &gz, &small_limits()))?;
        }

        #[test]
        fn mutated_gzip_files_never_panic(mutations in proptest::collection::vec(mutation(), 1..6)) {
            let mut bytes = write(&sample());
            mutate(&mut bytes, &mutations);
            check(read(FILE, &bytes, &small_limits()))?;
        }

        #[test]
        fn mutated_content_never_panics(mutations in proptest::collection::vec(mutation(), 1..6)) {
            let mut raw = valid_raw();
            mutate(&mut raw, &mutations);
            check(read(FILE, &gzip(&raw), &small_limits()))?;
        }
    }
}
