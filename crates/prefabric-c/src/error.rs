//! The last error of the calling thread: a status code, its message, and for
//! a pack that does not load, every problem with its file, line and column.
//!
//! In: the failures of the entry points (a null pointer, an argument out of
//! range, a pack's `Problems`, a generation that failed, a panic caught at the
//! boundary). Out: a [`PrefabricStatus`] the entry point returns, and a
//! thread-local record `prefabric_last_error_message`, `prefabric_error_count`
//! and `prefabric_error_at` read. The strings handed out stay valid until the
//! next failing call on the same thread; a successful call leaves them alone.

use std::cell::RefCell;
use std::ffi::{CString, c_char};

/// What a call returns: `PREFABRIC_STATUS_OK` (0), or why it failed. The
/// message of the failure is `prefabric_last_error_message()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrefabricStatus {
    /// The call succeeded.
    Ok = 0,
    /// A pointer argument was NULL.
    NullPointer = 1,
    /// An argument is not valid: a map type the pack lacks, a size of 0 or one
    /// the map type cannot take, a depth out of range, a string that is not UTF-8.
    InvalidArgument = 2,
    /// An index past the end of what it indexes, or a cell outside the map.
    OutOfRange = 3,
    /// The pack did not load: `prefabric_error_count()` problems, each read
    /// with `prefabric_error_at()`.
    Pack = 4,
    /// Every attempt at generating the seed failed.
    Generation = 5,
    /// prefabric itself failed (a bug, caught before it crossed into C):
    /// please report it with the message.
    Internal = 6,
}

/// A failure: its code, its message, and the problems of a pack.
pub(crate) struct Failure {
    pub(crate) status: PrefabricStatus,
    pub(crate) message: String,
    pub(crate) problems: Vec<prefabric::Error>,
}

impl Failure {
    /// A failure with no problems list.
    pub(crate) fn new(status: PrefabricStatus, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into(), problems: Vec::new() }
    }

    /// A NULL pointer given for the argument `what` of `function`.
    pub(crate) fn null(function: &str, what: &str) -> Failure {
        Failure::new(PrefabricStatus::NullPointer, format!("{function}: {what} is NULL"))
    }

    /// An index past the end.
    pub(crate) fn range(function: &str, what: &str, index: usize, count: usize) -> Failure {
        let valid = match count {
            0 => "there are none".to_string(),
            1 => "there is 1 (index 0)".to_string(),
            _ => format!("there are {count} (0 to {})", count - 1),
        };
        Failure::new(PrefabricStatus::OutOfRange, format!("{function}: {what} {index} is out of range: {valid}"))
    }

    /// A pack that does not load in `function`: the text `prefabric check` prints, then every problem.
    pub(crate) fn pack(function: &str, problems: &prefabric::Problems) -> Failure {
        let n = problems.len();
        Failure {
            status: PrefabricStatus::Pack,
            message: format!(
                "{function}: {}\n{n} problem{} in the pack",
                problems.report(),
                if n == 1 { "" } else { "s" }
            ),
            problems: problems.errors().to_vec(),
        }
    }
}

/// One problem of a pack that does not load. Its strings stay valid until
/// the next failing call on the same thread.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PrefabricProblem {
    /// The file the problem is in, as the pack names it; NULL when it concerns no file.
    pub file: *const c_char,
    /// The 1-based line; 0 when the problem concerns the whole file.
    pub line: u32,
    /// The 1-based column in characters; 0 when only the line is known.
    pub column: u32,
    /// What is wrong.
    pub message: *const c_char,
    /// How to fix it; NULL when the library does not know.
    pub help: *const c_char,
    /// The problem as `prefabric check` prints it, with file, line and column.
    pub text: *const c_char,
}

/// A problem's strings, kept alive for the C caller.
struct StoredProblem {
    file: Option<CString>,
    line: u32,
    column: u32,
    message: CString,
    help: Option<CString>,
    text: CString,
}

/// The thread's last failure.
struct LastError {
    status: PrefabricStatus,
    message: CString,
    problems: Vec<StoredProblem>,
}

thread_local! {
    static LAST: RefCell<LastError> = RefCell::new(LastError {
        status: PrefabricStatus::Ok,
        message: CString::default(),
        problems: Vec::new(),
    });
}

/// A C string of `text`, with any NUL byte (which C cannot hold) shown as U+FFFD.
pub(crate) fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "\u{FFFD}")).unwrap_or_default()
}

/// Records `failure` as the thread's last error and returns its status.
pub(crate) fn record(failure: Failure) -> PrefabricStatus {
    let problems = failure
        .problems
        .iter()
        .map(|e| {
            let location = e.location();
            StoredProblem {
                file: location.map(|l| c_string(&l.file)),
                line: location.map_or(0, |l| l.line),
                column: location.map_or(0, |l| if l.line > 0 { l.col } else { 0 }),
                message: c_string(e.message()),
                help: e.help().map(c_string),
                text: c_string(&e.to_string()),
            }
        })
        .collect();
    let status = failure.status;
    LAST.with(|last| {
        if let Ok(mut last) = last.try_borrow_mut() {
            *last = LastError { status, message: c_string(&failure.message), problems };
        }
    });
    status
}

/// The thread's last status (`Ok` when no call failed yet).
pub(crate) fn last_status() -> PrefabricStatus {
    LAST.with(|last| last.try_borrow().map_or(PrefabricStatus::Internal, |l| l.status))
}

/// The thread's last message, valid until the next failing call on this thread.
pub(crate) fn last_message() -> *const c_char {
    LAST.with(|last| last.try_borrow().map_or(c"".as_ptr(), |l| l.message.as_ptr()))
}

/// How many problems the thread's last failure carries.
pub(crate) fn problem_count() -> usize {
    LAST.with(|last| last.try_borrow().map_or(0, |l| l.problems.len()))
}

/// The `index`th problem of the thread's last failure, if there is one.
pub(crate) fn problem(index: usize) -> Option<PrefabricProblem> {
    let opt = |s: &Option<CString>| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
    LAST.with(|last| {
        let last = last.try_borrow().ok()?;
        let p = last.problems.get(index)?;
        Some(PrefabricProblem {
            file: opt(&p.file),
            line: p.line,
            column: p.column,
            message: p.message.as_ptr(),
            help: opt(&p.help),
            text: p.text.as_ptr(),
        })
    })
}
