//! Unit tests of the REXPaint `.xp` reader and writer: images read back as
//! written, and every damaged or hostile file refused with an error, never a
//! panic or an unbounded allocation.

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
