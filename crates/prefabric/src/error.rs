//! Errors with the place they come from.
//!
//! Every error prefabric reports carries an [`ErrorKind`] (what kind of fault), a
//! message saying what is wrong, an optional hint saying how to fix it, and, where the
//! fault is in a file, a [`Location`] (`file:line:col`). Loading a pack collects every
//! problem it finds into [`Problems`] instead of stopping at the first one; a
//! [`Report`] shows them to a person, at most [`SHOWN_PER_SHAPE`] of one shape
//! followed by how many more are like them, so 100,000 misspelt names make a
//! report of a screen, not of 200,000 lines, while [`Problems`] keeps them all.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// The kind of fault behind an [`Error`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A file could not be read or written.
    Io,
    /// A text file does not follow its syntax (prefab text, TOML).
    Syntax,
    /// A binary file is not in the format it claims to be.
    Format,
    /// The content is well-formed but wrong: a missing reference, an impossible size.
    Invalid,
    /// Input exceeds one of the [`Limits`](crate::Limits).
    Limit,
    /// Generation could not produce a valid map.
    Generation,
    /// Not wrong, but against a convention: reported, never fatal.
    Lint,
}

impl ErrorKind {
    /// A short lower-case name, as printed before the message.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Io => "i/o error",
            ErrorKind::Syntax => "syntax error",
            ErrorKind::Format => "format error",
            ErrorKind::Invalid => "invalid",
            ErrorKind::Limit => "limit exceeded",
            ErrorKind::Generation => "generation failed",
            ErrorKind::Lint => "warning",
        }
    }
}

/// A place in a file: 1-based line and column (columns count characters).
/// A line of 0 means "the whole file".
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    /// The file as the user named it (or as the embedded pack names it).
    pub file: String,
    /// 1-based line, or 0 when the problem concerns the whole file.
    pub line: u32,
    /// 1-based column in characters, or 0 when only the line is known.
    pub col: u32,
}

impl Location {
    /// A location pointing at a whole file.
    pub fn file(file: impl Into<String>) -> Location {
        Location { file: file.into(), line: 0, col: 0 }
    }

    /// A location at a line and column.
    pub fn at(file: impl Into<String>, line: u32, col: u32) -> Location {
        Location { file: file.into(), line, col }
    }

    /// The location of byte `offset` within `source` (clamped to its end).
    /// Scans `source` up to `offset`; the loaders locate many offsets of one
    /// file through a line index made once instead.
    pub fn at_offset(file: impl Into<String>, source: &str, offset: usize) -> Location {
        LineIndex::new(&source[..char_floor(source, offset)]).locate(file, source, offset)
    }
}

/// Where each line of a source starts, so that locating a byte offset costs a
/// binary search and the characters of one line instead of a scan from the
/// start: loading a file of many entries stays linear in its size.
#[derive(Clone, Debug, Default)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `source`'s lines.
    pub(crate) fn new(source: &str) -> LineIndex {
        let starts = std::iter::once(0).chain(source.match_indices('\n').map(|(i, _)| i + 1)).collect();
        LineIndex { starts }
    }

    /// The location of byte `offset` (clamped to the end) within `source`, the
    /// text this index was made from.
    pub(crate) fn locate(&self, file: impl Into<String>, source: &str, offset: usize) -> Location {
        let end = char_floor(source, offset);
        let line = self.starts.partition_point(|&start| start <= end).max(1);
        let line_start = self.starts.get(line - 1).copied().unwrap_or(0).min(end);
        let col = source.get(line_start..end).map_or(0, |s| s.chars().count()) + 1;
        Location::at(file, saturate(line), saturate(col))
    }
}

/// `offset` clamped to `source`, moved back to a character boundary.
fn char_floor(source: &str, offset: usize) -> usize {
    let mut end = offset.min(source.len());
    while !source.is_char_boundary(end) {
        end -= 1;
    }
    end
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.col) {
            (0, _) => write!(f, "{}", self.file),
            (line, 0) => write!(f, "{}:{}", self.file, line),
            (line, col) => write!(f, "{}:{}:{}", self.file, line, col),
        }
    }
}

/// An error: what is wrong, where, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    location: Option<Location>,
    message: String,
    help: Option<String>,
}

impl Error {
    /// A new error without a location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, location: None, message: message.into(), help: None }
    }

    /// A new error at a location.
    pub fn at(kind: ErrorKind, location: Location, message: impl Into<String>) -> Error {
        Error { kind, location: Some(location), message: message.into(), help: None }
    }

    /// Adds a hint on how to fix the problem.
    pub fn with_help(mut self, help: impl Into<String>) -> Error {
        self.help = Some(help.into());
        self
    }

    /// The same error with `prefix` put before its message (saying which
    /// part of a larger job it comes from).
    pub fn prefixed(mut self, prefix: &str) -> Error {
        self.message.insert_str(0, prefix);
        self
    }

    /// Sets the location if none is set yet.
    pub fn or_at(mut self, location: Location) -> Error {
        if self.location.is_none() {
            self.location = Some(location);
        }
        self
    }

    /// The kind of fault.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Where the fault is, if it is in a file.
    pub fn location(&self) -> Option<&Location> {
        self.location.as_ref()
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// How to fix it, when known.
    pub fn help(&self) -> Option<&str> {
        self.help.as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = &self.location {
            write!(f, "{location}: ")?;
        }
        write!(f, "{}: {}", self.kind.name(), self.message)?;
        if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Every problem found while loading or checking content.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems {
    errors: Vec<Error>,
}

impl Problems {
    /// An empty list.
    pub fn new() -> Problems {
        Problems::default()
    }

    /// Adds one problem.
    pub fn push(&mut self, error: Error) {
        self.errors.push(error);
    }

    /// Adds several problems.
    pub fn extend(&mut self, errors: impl IntoIterator<Item = Error>) {
        self.errors.extend(errors);
    }

    /// True when nothing was found.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// How many problems were found.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// The problems, in the order found (after [`Problems::sort`], by place).
    pub fn errors(&self) -> &[Error] {
        &self.errors
    }

    /// Sorts the problems by location (problems without a location last), keeping
    /// the order of problems at the same place.
    pub fn sort(&mut self) {
        self.errors.sort_by(|a, b| match (&a.location, &b.location) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
    }

    /// The problems as a person reads them: in order, but at most
    /// [`SHOWN_PER_SHAPE`] of one shape (see [`Report`]).
    pub fn report(&self) -> Report<'_> {
        Report::of(&self.errors)
    }

    /// `Ok(value)` when empty, else `Err(self)`.
    pub fn into_result<T>(self, value: T) -> Result<T, Problems> {
        if self.is_empty() { Ok(value) } else { Err(self) }
    }
}

impl From<Error> for Problems {
    fn from(error: Error) -> Problems {
        Problems { errors: vec![error] }
    }
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

/// How many problems of one shape a [`Report`] shows before it sums up the rest.
pub const SHOWN_PER_SHAPE: usize = 10;

/// Problems as a person reads them: each as [`Error`] shows it, in the order
/// given, except that after [`SHOWN_PER_SHAPE`] problems of one shape (the
/// same kind and message but for the words in backquotes and the numbers) one
/// line says how many more there are and where: "… and 99,990 more like it in
/// maps/hotel.toml". The lines shown depend only on the problems, never on
/// what else was loaded.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    errors: &'a [Error],
    per_shape: usize,
}

/// One line of a [`Report`]: a problem, or how many more are like the one before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportLine<'a> {
    /// A problem shown in full.
    Problem(&'a Error),
    /// How many problems of the shape just shown are not, and in how many files.
    More {
        /// How many are not shown.
        count: usize,
        /// The file they are all in, when they are in one.
        file: Option<&'a str>,
        /// How many files they are in.
        files: usize,
    },
}

impl<'a> Report<'a> {
    /// A report of `errors`, showing [`SHOWN_PER_SHAPE`] of each shape.
    pub fn of(errors: &'a [Error]) -> Report<'a> {
        Report { errors, per_shape: SHOWN_PER_SHAPE }
    }

    /// The same report showing `n` problems of each shape (at least one).
    pub fn per_shape(self, n: usize) -> Report<'a> {
        Report { per_shape: n.max(1), ..self }
    }

    /// The report's lines, in order: each problem shown, and after the last one
    /// shown of a shape with more, how many more.
    pub fn lines(&self) -> Vec<ReportLine<'a>> {
        // Each problem's shape, and per shape how many there are and which
        // files those past the cap are in.
        let mut shapes: HashMap<(&str, String), usize> = HashMap::new();
        let mut of_shape = Vec::with_capacity(self.errors.len());
        let mut seen: Vec<(usize, BTreeSet<&'a str>)> = Vec::new();
        for error in self.errors {
            let next = shapes.len();
            let shape = *shapes.entry((error.kind.name(), shape_of(&error.message))).or_insert(next);
            if shape == seen.len() {
                seen.push((0, BTreeSet::new()));
            }
            let (count, files) = &mut seen[shape];
            *count += 1;
            if *count > self.per_shape {
                files.insert(error.location.as_ref().map_or("", |l| l.file.as_str()));
            }
            of_shape.push(shape);
        }
        let mut shown = vec![0; seen.len()];
        let mut lines = Vec::with_capacity(self.errors.len().min(seen.len() * (self.per_shape + 1)));
        for (error, &shape) in self.errors.iter().zip(&of_shape) {
            shown[shape] += 1;
            if shown[shape] > self.per_shape {
                continue;
            }
            lines.push(ReportLine::Problem(error));
            let (count, files) = &seen[shape];
            if shown[shape] == self.per_shape && *count > self.per_shape {
                let file = if files.len() == 1 { files.first().copied().filter(|f| !f.is_empty()) } else { None };
                lines.push(ReportLine::More { count: count - self.per_shape, file, files: files.len() });
            }
        }
        lines
    }
}

impl fmt::Display for ReportLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportLine::Problem(error) => write!(f, "{error}"),
            ReportLine::More { count, file, files } => {
                write!(f, "… and {} more like it", with_thousands(*count))?;
                match (file, files) {
                    (Some(file), _) => write!(f, " in {file}"),
                    (None, 0 | 1) => Ok(()),
                    (None, n) => write!(f, " in {} files", with_thousands(*n)),
                }
            }
        }
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, line) in self.lines().iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{line}")?;
        }
        Ok(())
    }
}

/// A message with the words in backquotes emptied and every run of digits
/// made one `#`: "no prefab named `x` in this pack" and "no prefab named `y`
/// in this pack" are one shape, as are "rating 12 must be 1-9" and "rating 0
/// must be 1-9".
fn shape_of(message: &str) -> String {
    let mut shape = String::with_capacity(message.len());
    let mut quoted = false;
    let mut digits = false;
    for c in message.chars() {
        if c == '`' {
            quoted = !quoted;
            shape.push(c);
        } else if quoted {
            continue;
        } else if c.is_ascii_digit() {
            if !digits {
                shape.push('#');
            }
        } else {
            shape.push(c);
        }
        digits = c.is_ascii_digit() && !quoted;
    }
    shape
}

/// `n` with a comma between groups of three digits: 99,990.
fn with_thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Shorthand for results whose error is a single [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_character_columns() {
        let src = "ab\ncé d\nx";
        assert_eq!(Location::at_offset("f", src, 0), Location::at("f", 1, 1));
        assert_eq!(Location::at_offset("f", src, 3), Location::at("f", 2, 1));
        // 'é' is two bytes but one column.
        assert_eq!(Location::at_offset("f", src, 7), Location::at("f", 2, 4));
        assert_eq!(Location::at_offset("f", src, 999), Location::at("f", 3, 2));
    }

    #[test]
    fn a_line_index_locates_every_offset_as_a_scan_from_the_start_does() {
        let src = "ab\ncé d\n\n\nxyz\r\n→ end";
        let index = LineIndex::new(src);
        for offset in 0..=src.len() + 2 {
            let end = char_floor(src, offset);
            let before = &src[..end];
            let line = before.matches('\n').count() + 1;
            let col = before[before.rfind('\n').map_or(0, |i| i + 1)..].chars().count() + 1;
            let expected = Location::at("f", line as u32, col as u32);
            assert_eq!(index.locate("f", src, offset), expected, "offset {offset}");
            assert_eq!(Location::at_offset("f", src, offset), expected, "offset {offset}");
        }
    }

    #[test]
    fn display_shows_location_kind_message_and_help() {
        let e = Error::at(ErrorKind::Invalid, Location::at("maps/a.toml", 3, 7), "no prefab named `x`")
            .with_help("did you mean `y`?");
        assert_eq!(e.to_string(), "maps/a.toml:3:7: invalid: no prefab named `x`\n  help: did you mean `y`?");
        assert_eq!(Location::file("p.txt").to_string(), "p.txt");
        assert_eq!(Location::at("p.txt", 4, 0).to_string(), "p.txt:4");
    }

    #[test]
    fn problems_sort_by_location() {
        let mut p = Problems::new();
        p.push(Error::new(ErrorKind::Io, "late"));
        p.push(Error::at(ErrorKind::Syntax, Location::at("b", 1, 1), "b"));
        p.push(Error::at(ErrorKind::Syntax, Location::at("a", 9, 1), "a9"));
        p.push(Error::at(ErrorKind::Syntax, Location::at("a", 2, 5), "a2"));
        p.sort();
        let order: Vec<&str> = p.errors().iter().map(|e| e.message()).collect();
        assert_eq!(order, ["a2", "a9", "b", "late"]);
    }

    #[test]
    fn a_report_shows_a_few_of_each_shape_then_how_many_more() {
        let mut p = Problems::new();
        let unknown = |file: &str, line: u32, name: &str| {
            Error::at(ErrorKind::Invalid, Location::at(file, line, 1), format!("no prefab named `{name}` in this pack"))
                .with_help("did you mean `x`?")
        };
        p.push(Error::at(ErrorKind::Syntax, Location::at("a.toml", 1, 1), "first"));
        for line in 2..=13 {
            p.push(unknown("a.toml", line, &format!("n{line}")));
        }
        p.push(Error::at(ErrorKind::Invalid, Location::at("a.toml", 14, 1), "rating 12 must be 1-9"));
        p.push(unknown("b.toml", 1, "late"));
        p.push(Error::at(ErrorKind::Invalid, Location::at("c.toml", 1, 1), "rating 0 must be 1-9"));
        let text = p.report().per_shape(3).to_string();
        let expected = [
            "a.toml:1:1: syntax error: first",
            "a.toml:2:1: invalid: no prefab named `n2` in this pack\n  help: did you mean `x`?",
            "a.toml:3:1: invalid: no prefab named `n3` in this pack\n  help: did you mean `x`?",
            "a.toml:4:1: invalid: no prefab named `n4` in this pack\n  help: did you mean `x`?",
            "… and 10 more like it in 2 files",
            "a.toml:14:1: invalid: rating 12 must be 1-9",
            "c.toml:1:1: invalid: rating 0 must be 1-9",
        ];
        assert_eq!(text, expected.join("\n"));
        // Few enough of every shape: the report is the list, line for line.
        assert_eq!(p.report().per_shape(13).to_string(), p.to_string());
        assert_eq!(p.report().to_string().lines().filter(|l| l.starts_with("…")).count(), 1);
        let many: Vec<Error> = (1..=100_000).map(|line| unknown("maps/hotel.toml", line, "nope")).collect();
        let lines = Report::of(&many).lines();
        assert_eq!(lines.len(), SHOWN_PER_SHAPE + 1);
        assert_eq!(lines[SHOWN_PER_SHAPE].to_string(), "… and 99,990 more like it in maps/hotel.toml");
    }

    #[test]
    fn shapes_ignore_quoted_words_and_numbers() {
        assert_eq!(shape_of("no prefab named `a_1` in this pack"), "no prefab named `` in this pack");
        assert_eq!(shape_of("size [12, 0] must be 1-9"), "size [#, #] must be #-#");
        assert_eq!(with_thousands(0), "0");
        assert_eq!(with_thousands(999), "999");
        assert_eq!(with_thousands(1_000), "1,000");
        assert_eq!(with_thousands(99_990), "99,990");
        assert_eq!(with_thousands(1_234_567), "1,234,567");
    }
}
