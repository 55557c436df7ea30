//! Writing an output file without ever leaving half of one, clobbering a file
//! the user did not name, or replacing something that is not a plain file.
//!
//! In: the path the user gave and the bytes. Out: the bytes at that path, or an
//! error saying why not. What stands at the path decides how:
//!
//! * nothing, or a regular file: the bytes go to a new temporary file beside it
//!   (`.NAME.PID-N.partial`, created exclusively, so never a file that already
//!   exists and never another run's), are flushed to disk, and the temporary
//!   file is renamed over the target (keeping a replaced file's permissions);
//!   a reader sees the old file or the new one, never a mixture, and two runs
//!   writing one path at once each leave a whole file;
//! * a symbolic link: followed, and its target written as above;
//! * a FIFO, a character device, or any path through `/dev` or `/proc` (such as
//!   `/dev/stdout` or `/dev/null`): written straight into, never replaced;
//! * a read-only file: refused unless the command was given `--force`;
//! * a folder: refused.
//!
//! A temporary file is removed on every error, and on Ctrl-C (or SIGTERM, or
//! SIGHUP) by the handler [`remove_partial_files_on_interrupt`] installs.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The temporary files being written now, removed if the process is interrupted.
static PARTIAL_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Numbers this process's temporary files, so each name is new.
static NEXT_PARTIAL: AtomicU64 = AtomicU64::new(0);

/// Why a read-only file is not replaced.
pub(crate) const READ_ONLY: &str = "the file is read-only";

/// Symbolic links followed at most, as the kernel's own limit.
const MAX_LINKS: usize = 40;

/// Names tried for a temporary file before giving up.
const MAX_NAME_TRIES: u32 = 100;

/// Installs a handler for Ctrl-C, SIGTERM and SIGHUP that removes every
/// temporary file being written, then exits with status 130.
pub(crate) fn remove_partial_files_on_interrupt() {
    // Without a handler (another one already set) an interrupted write may leave
    // its `.partial` file behind, which is no reason to refuse to run.
    let _ = ctrlc::set_handler(|| {
        let pending = PARTIAL_FILES.lock().map(|files| files.clone()).unwrap_or_default();
        for file in pending {
            let _ = fs::remove_file(file);
        }
        std::process::exit(130);
    });
}

/// Writes `bytes` at `path` as the module documentation says; `force` lets it
/// replace a read-only file. The error says what stood in the way.
pub(crate) fn write(path: &Path, bytes: &[u8], force: bool) -> io::Result<()> {
    if passes_through_devices(path) {
        return write_straight(path, bytes, true);
    }
    let target = follow_links(path)?;
    match fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => Err(io::Error::other("it is a folder; give a file name")),
        Ok(meta) if !meta.is_file() => write_straight(&target, bytes, false),
        Ok(meta) if meta.permissions().readonly() && !force => {
            Err(io::Error::new(io::ErrorKind::PermissionDenied, READ_ONLY))
        }
        Ok(meta) => replace(&target, bytes, Some(meta.permissions())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => replace(&target, bytes, None),
        Err(e) => Err(e),
    }
}

/// True when `path` is under `/dev` or `/proc`, where files are devices, pipes
/// or views of a process (`/dev/stdout` leads to whatever standard output is):
/// written into as they are, never replaced.
fn passes_through_devices(path: &Path) -> bool {
    let mut parts = path.components();
    matches!(
        (parts.next(), parts.next()),
        (Some(Component::RootDir), Some(Component::Normal(top))) if top == "dev" || top == "proc"
    )
}

/// The file a chain of symbolic links at `path` ends at (which may not exist
/// yet); `path` itself when it is no link.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(folder) if to.is_relative() => folder.join(to),
                    _ => to,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::other(format!("more than {MAX_LINKS} symbolic links in a chain; is there a loop?")))
}

/// Writes into what is at `path` without replacing it (a FIFO, a device).
fn write_straight(path: &Path, bytes: &[u8], truncate: bool) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).truncate(truncate).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Writes a new temporary file beside `target`, flushes it to disk and renames
/// it over `target`, giving it `permissions` (those of the file it replaces).
fn replace(target: &Path, bytes: &[u8], permissions: Option<fs::Permissions>) -> io::Result<()> {
    let (partial, mut file) = new_partial_file(target)?;
    let written = (|| {
        file.write_all(bytes)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&partial, target)
    })();
    forget_partial(&partial);
    if written.is_err() {
        let _ = fs::remove_file(&partial);
    }
    written?;
    // The rename itself lasts once the folder is flushed too; not every file
    // system lets a folder be opened for that, and the file is whole either way.
    if let Some(folder) = target.parent().filter(|f| !f.as_os_str().is_empty()) {
        let _ = File::open(folder).and_then(|f| f.sync_all());
    }
    Ok(())
}

/// Creates a temporary file beside `target` under a name no file has, and
/// records it for the interrupt handler.
fn new_partial_file(target: &Path) -> io::Result<(PathBuf, File)> {
    let name = target.file_name().ok_or_else(|| io::Error::other("the path names no file"))?;
    for _ in 0..MAX_NAME_TRIES {
        let n = NEXT_PARTIAL.fetch_add(1, Ordering::Relaxed);
        let mut partial_name = std::ffi::OsString::from(".");
        partial_name.push(name);
        partial_name.push(format!(".{}-{n}.partial", std::process::id()));
        let partial = target.with_file_name(partial_name);
        // Recorded before it exists, so an interrupt between the two still removes it.
        if let Ok(mut files) = PARTIAL_FILES.lock() {
            files.push(partial.clone());
        }
        match OpenOptions::new().write(true).create_new(true).open(&partial) {
            Ok(file) => return Ok((partial, file)),
            Err(e) => {
                forget_partial(&partial);
                if e.kind() != io::ErrorKind::AlreadyExists {
                    return Err(e);
                }
            }
        }
    }
    Err(io::Error::other(format!("no free temporary name beside it after {MAX_NAME_TRIES} tries")))
}

fn forget_partial(partial: &Path) {
    if let Ok(mut files) = PARTIAL_FILES.lock() {
        files.retain(|f| f != partial);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("prefabric-safe-write-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("listed")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_or_existing_file_is_replaced_whole_and_a_users_partial_file_is_kept() {
        let dir = scratch("plain");
        let target = dir.join("map.txt");
        fs::write(dir.join("map.txt.partial"), "the user's own").expect("written");
        write(&target, b"one", false).expect("written");
        write(&target, b"two", false).expect("written again");
        assert_eq!(fs::read(&target).expect("read"), b"two");
        assert_eq!(fs::read(dir.join("map.txt.partial")).expect("kept"), b"the user's own");
        assert_eq!(names(&dir), ["map.txt", "map.txt.partial"], "no temporary file left");
        fs::remove_dir_all(&dir).expect("cleaned");
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_followed_and_kept() {
        let dir = scratch("link");
        fs::create_dir(dir.join("real")).expect("a folder");
        std::os::unix::fs::symlink("real/map.json", dir.join("latest.json")).expect("a link");
        write(&dir.join("latest.json"), b"{}", false).expect("written");
        assert!(fs::symlink_metadata(dir.join("latest.json")).expect("there").file_type().is_symlink());
        assert_eq!(fs::read(dir.join("real/map.json")).expect("the link's target"), b"{}");
        fs::remove_dir_all(&dir).expect("cleaned");
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_file_needs_force_and_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("read-only");
        let target = dir.join("map.txt");
        fs::write(&target, "old").expect("written");
        fs::set_permissions(&target, fs::Permissions::from_mode(0o444)).expect("read-only");
        let refused = write(&target, b"new", false).expect_err("refused");
        assert_eq!(refused.to_string(), READ_ONLY);
        assert_eq!(fs::read(&target).expect("read"), b"old");
        write(&target, b"new", true).expect("forced");
        assert_eq!(fs::read(&target).expect("read"), b"new");
        assert_eq!(fs::metadata(&target).expect("there").permissions().mode() & 0o777, 0o444);
        fs::remove_dir_all(&dir).expect("cleaned");
    }

    #[test]
    fn dev_null_is_written_into_not_replaced_and_a_folder_is_refused() {
        if cfg!(unix) {
            write(Path::new("/dev/null"), b"nothing", false).expect("written into");
            assert!(!fs::metadata("/dev/null").expect("there").is_file(), "still a device");
        }
        let dir = scratch("folder");
        let e = write(&dir, b"x", false).expect_err("a folder");
        assert!(e.to_string().contains("it is a folder"), "{e}");
        fs::remove_dir_all(&dir).expect("cleaned");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_into_not_replaced() {
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to test with
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read(fifo).expect("read from the pipe"))
        };
        write(&fifo, b"through the pipe", false).expect("written into");
        assert_eq!(reader.join().expect("the reader"), b"through the pipe");
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&fifo).expect("there").file_type().is_fifo(), "still a FIFO");
        fs::remove_dir_all(&dir).expect("cleaned");
    }

    #[test]
    fn runs_writing_one_path_at_once_each_leave_a_whole_file() {
        let dir = scratch("race");
        let target = dir.join("map.txt");
        let contents: Vec<Vec<u8>> = (0..8u8).map(|i| vec![b'a' + i; 256 * 1024]).collect();
        std::thread::scope(|s| {
            for bytes in &contents {
                let target = &target;
                s.spawn(move || write(target, bytes, false).expect("each write succeeds"));
            }
        });
        let ended = fs::read(&target).expect("read");
        assert!(contents.contains(&ended), "the file is one whole write");
        assert_eq!(names(&dir), ["map.txt"]);
        fs::remove_dir_all(&dir).expect("cleaned");
    }
}
