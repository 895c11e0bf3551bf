//! The log file: entries separated by `---` lines; locked, atomic, durable append (DESIGN §2.3).
//!
//! **Format.** Each entry is preceded by a line `---`, so a non-empty log starts with
//! `---\n`; an empty file is a log of no entries. [`split_log`] splits on lines that are
//! exactly `---` (a `---\r` line, from a CRLF copy, counts too); entries themselves never
//! hold such a line (see [`super::entry`]). CRLF is tolerated per entry by [`Entry::parse`].
//!
//! **Writing.** Every change writes the whole new log to a fresh temporary file in the same
//! directory, fsyncs it, renames it over the log and fsyncs the directory. A crash at any
//! point leaves the old log or the new one, never a torn one (a stray temporary file
//! `.<name>.<pid>.<n>.tmp` may remain after a crash; it is never read, and the next append
//! under the lock removes it once its process is gone).
//!
//! **Locking.** [`LockedLog`] holds an exclusive `std::fs::File::lock` on the log file.
//! Because a rename replaces the file (a new inode), a lock on the old inode no longer
//! protects the path. So:
//! - [`LockedLog::open`] loops: open the path, lock it, then check (device and inode) that
//!   the path still names the file it locked; if not (someone renamed a new log over it
//!   meanwhile), drop it and retry.
//! - [`LockedLog::append`] locks the temporary file *before* renaming it over the log and
//!   keeps that lock, so the path is never unlocked while this `LockedLog` lives; waiters
//!   on the old inode wake up, see that the path moved on, and retry.
//! - Before writing, it checks that the path still names the locked file with the size it
//!   read ([`StoreError::Changed`] otherwise: something wrote without the lock).
//!
//! **Fault injection.** [`LockedLog::set_crash_point`] makes the next write call
//! `std::process::abort()` at a chosen point, for crash tests (the CLI may set it from a
//! test-only environment variable; this library reads no environment).

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::entry::{Entry, EntryError};

/// Largest log accepted, in bytes.
pub const MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;

/// Storage failures.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {size} bytes is over the {limit}-byte limit for a log")]
    TooLarge { path: PathBuf, size: u64, limit: u64 },
    #[error("{path}: does not start with a `---` line; not an umpire log")]
    NotALog { path: PathBuf },
    #[error("{path}: entry {index} (counting from 0): {source}")]
    Entry {
        path: PathBuf,
        index: usize,
        #[source]
        source: EntryError,
    },
    #[error("{path} already exists; refusing to overwrite it")]
    Exists { path: PathBuf },
    #[error("{path}: the log changed on disk while this command ran (now {found} entries, expected {expected}); run it again")]
    Changed { path: PathBuf, expected: usize, found: usize },
}

/// Where a write may be made to abort, for crash tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrashPoint {
    /// The new log is fully written and fsynced to the temporary file, not yet renamed.
    AfterTempWrite,
    /// The temporary file has been renamed over the log; the directory is not yet fsynced.
    AfterRename,
}

/// Open `path` for reading, refusing anything but a regular file.
///
/// A FIFO given where a file is expected (a key, an entry, a log) would block `open` itself
/// until a writer appears, and a device (`/dev/zero`, `/dev/tty`) would be read forever or
/// wait for input. So the file is opened with `O_NONBLOCK` (an open of a FIFO then returns at
/// once), and checked on the open handle (`fstat`, no race with a rename of the path) to be a
/// regular file before anything is read. On a regular file `O_NONBLOCK` changes nothing.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let mut opts = std::fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let f = opts.open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a directory" } else { "not a regular file (a FIFO, socket or device)" };
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{what}; give the path of a file")));
    }
    Ok(f)
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io { path: path.to_path_buf(), source }
}

fn is_separator(line: &[u8]) -> bool {
    line == b"---" || line == b"---\r"
}

/// Split log text into entry byte strings (each without its `---` line).
///
/// Text before the first `---` line is dropped here; [`read_log`] refuses a log that has
/// any (`NotALog`).
pub fn split_log(bytes: &[u8]) -> Vec<&[u8]> {
    let mut spans = EntrySpans::default();
    spans.feed(bytes);
    spans.finish().into_iter().map(|(s, e)| &bytes[s as usize..e as usize]).collect()
}

/// Where the entries of log text lie, found from its bytes given in pieces of any size: the
/// same entries as [`split_log`] (which is this on one piece), for a log read from its file a
/// block at a time ([`super::stream::LogFile`]) without holding the text.
#[derive(Debug, Default)]
pub struct EntrySpans {
    /// Bytes fed so far.
    pos: u64,
    /// The current line's length so far, and its first bytes: a separator is 3 or 4 long.
    line_len: u64,
    line_head: [u8; 4],
    /// Where the current entry starts (just after its `---` line), once one has.
    start: Option<u64>,
    /// Each finished entry's `[start, end)` in the text.
    spans: Vec<(u64, u64)>,
}

impl EntrySpans {
    /// The next piece of the text.
    pub fn feed(&mut self, mut piece: &[u8]) {
        while !piece.is_empty() {
            let (segment, newline) = match piece.iter().position(|&b| b == b'\n') {
                Some(i) => (&piece[..i], true),
                None => (piece, false),
            };
            self.add_to_line(segment);
            let taken = segment.len() + usize::from(newline);
            self.pos += taken as u64;
            piece = &piece[taken..];
            if newline {
                self.end_line(1);
            }
        }
    }

    fn add_to_line(&mut self, segment: &[u8]) {
        for (k, &b) in segment.iter().take(4).enumerate() {
            if let Some(slot) = self.line_head.get_mut(self.line_len as usize + k) {
                *slot = b;
            }
        }
        self.line_len += segment.len() as u64;
    }

    /// A line ended at `self.pos`, after its newline of `newline` bytes (0 for the text's
    /// last line without one): split there if it was a `---` line.
    fn end_line(&mut self, newline: u64) {
        if self.line_len <= 4 && is_separator(&self.line_head[..self.line_len as usize]) {
            if let Some(s) = self.start {
                self.spans.push((s, self.pos - newline - self.line_len));
            }
            self.start = Some(self.pos);
        }
        self.line_len = 0;
    }

    /// The entries' spans, once the whole text was fed.
    pub fn finish(mut self) -> Vec<(u64, u64)> {
        if self.line_len > 0 {
            self.end_line(0);
        }
        if let Some(s) = self.start {
            self.spans.push((s, self.pos));
        }
        self.spans
    }
}

/// Join entries into log text: each preceded by `---\n`.
pub fn join_log(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.iter().map(|e| e.bytes.len() + 4).sum());
    for e in entries {
        out.extend_from_slice(b"---\n");
        out.extend_from_slice(&e.bytes);
    }
    out
}

/// Log text of entries given as their bytes: what [`join_log`] writes for the entries parsed
/// from `parts`.
fn join_parts(parts: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::with_capacity(parts.iter().map(|p| p.len() + 4).sum());
    for p in parts {
        out.extend_from_slice(b"---\n");
        // An entry's bytes are its text with CRLF read as LF (`Entry::parse`).
        if p.contains(&b'\r') {
            out.extend_from_slice(&super::entry::crlf_to_lf(p));
        } else {
            out.extend_from_slice(p);
        }
    }
    out
}

/// Parse log text (the whole file) into entries.
pub fn parse_log(path: &Path, bytes: &[u8]) -> Result<Vec<Entry>, StoreError> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    if !(bytes.starts_with(b"---\n") || bytes.starts_with(b"---\r\n")) {
        return Err(StoreError::NotALog { path: path.to_path_buf() });
    }
    split_log(bytes)
        .into_iter()
        .enumerate()
        .map(|(index, b)| Entry::parse(b).map_err(|source| StoreError::Entry { path: path.to_path_buf(), index, source }))
        .collect()
}

fn read_all(path: &Path, f: &mut std::fs::File) -> Result<Vec<u8>, StoreError> {
    let size = f.metadata().map_err(io(path))?.len();
    if size > MAX_LOG_BYTES {
        return Err(StoreError::TooLarge { path: path.to_path_buf(), size, limit: MAX_LOG_BYTES });
    }
    let mut buf = Vec::with_capacity(size as usize);
    f.take(MAX_LOG_BYTES + 1).read_to_end(&mut buf).map_err(io(path))?;
    if buf.len() as u64 > MAX_LOG_BYTES {
        return Err(StoreError::TooLarge { path: path.to_path_buf(), size: buf.len() as u64, limit: MAX_LOG_BYTES });
    }
    Ok(buf)
}

/// Read and parse every entry of a log file (form only; see `log::protocol` for the chain).
pub fn read_log(path: &Path) -> Result<Vec<Entry>, StoreError> {
    let bytes = read_log_bytes(path)?;
    parse_log(path, &bytes)
}

/// Read a log file's bytes (size-limited), checking only that it looks like a log (empty, or
/// starting with a `---` line); the caller splits and parses.
pub fn read_log_bytes(path: &Path) -> Result<Vec<u8>, StoreError> {
    let mut f = open_regular(path).map_err(io(path))?;
    let bytes = read_all(path, &mut f)?;
    if !(bytes.is_empty() || bytes.starts_with(b"---\n") || bytes.starts_with(b"---\r\n")) {
        return Err(StoreError::NotALog { path: path.to_path_buf() });
    }
    Ok(bytes)
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        let d = std::fs::File::open(dir).map_err(io(dir))?;
        d.sync_all().map_err(io(dir))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh temporary file next to `path`, holding `bytes`, fsynced. Returns its path and
/// open handle (read + write).
fn write_temp(path: &Path, bytes: &[u8], like: Option<&std::fs::Metadata>) -> Result<(PathBuf, std::fs::File), StoreError> {
    let dir = parent_dir(path);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "log".to_string());
    loop {
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        let f = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&tmp);
        let mut f = match f {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io(&tmp)(e)),
        };
        let result = (|| {
            if let Some(m) = like {
                f.set_permissions(m.permissions()).map_err(io(&tmp))?;
            }
            f.write_all(bytes).map_err(io(&tmp))?;
            f.sync_all().map_err(io(&tmp))?;
            Ok(())
        })();
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        return Ok((tmp, f));
    }
}

/// Is the process `pid` alive (or can we not tell)? Only a definite "no such process" counts
/// as dead, so a file is never taken from a process that might still be writing it.
#[cfg(unix)]
fn process_may_be_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 sends nothing; it only asks whether `pid` exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// Remove the temporary files a crashed writer left beside `path` (`.<name>.<pid>.<n>.tmp`,
/// see [`write_temp`]). Called with the log's lock held: every append writes its temporary
/// file under that lock, so the only other writer that could own one is a `create_log` of
/// the same name racing with us, and that one is alive. So a file is removed when the process
/// named in it is gone, and never when it is this process (another thread may be creating a
/// log) or one that still runs. Failures are ignored: a leftover is untidy, not wrong.
#[cfg(unix)]
fn remove_stale_temps(path: &Path) {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else { return };
    let prefix = format!(".{name}.");
    let Ok(dir) = std::fs::read_dir(parent_dir(path)) else { return };
    let me = std::process::id();
    for e in dir.flatten() {
        let file = e.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)).and_then(|r| r.strip_suffix(".tmp")) else {
            continue;
        };
        // `<pid>.<n>`, both decimal: nothing else of ours looks like that.
        let Some((pid, n)) = rest.split_once('.') else { continue };
        let (Ok(pid), true) = (pid.parse::<u32>(), !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) else { continue };
        if pid == me || process_may_be_alive(pid) {
            continue;
        }
        // Only regular files: a directory or a link with that name is not ours to remove.
        if e.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(not(unix))]
fn remove_stale_temps(_: &Path) {}

/// Create a new log holding `entries` (fails if `path` exists), atomically and durably.
pub fn create_log(path: &Path, entries: &[Entry]) -> Result<(), StoreError> {
    let (tmp, _f) = write_temp(path, &join_log(entries), None)?;
    // A hard link is an atomic, exclusive create of the complete file.
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(StoreError::Exists { path: path.to_path_buf() });
        }
        Err(e) => return Err(io(path)(e)),
    }
    sync_dir(&parent_dir(path))
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    true
}

/// Exclusive access to a log for read–check–append: holds the lock on the log file
/// until dropped, so concurrent appenders serialise.
pub struct LockedLog {
    path: PathBuf,
    lock: std::fs::File,
    /// The log as [`join_log`] writes its entries (each after a `---\n` line), as read or
    /// last written under the lock: an append extends it, so no entry is copied or joined
    /// again (issue 20: a long game's `apply` cloned every entry for this).
    text: Vec<u8>,
    /// Entries in `text`.
    count: usize,
    /// Size of the file as read (or last written) under the lock.
    size: u64,
    crash: Option<CrashPoint>,
}

impl LockedLog {
    /// Lock `path` (blocking) and read its entries.
    pub fn open(path: &Path) -> Result<(LockedLog, Vec<Entry>), StoreError> {
        Self::open_with(path, |bytes, _| parse_log(path, bytes))
    }
    /// Lock `path` (blocking) and read it, turning its bytes (and the same split into
    /// entries, [`split_log`]) into what the caller wants with `read` (e.g. a game restored
    /// from a cache, see `crate::cache`); whatever it makes must stand for every entry of
    /// the file, as [`parse_log`] would read them.
    pub fn open_with<T, F: FnMut(&[u8], &[&[u8]]) -> Result<T, StoreError>>(
        path: &Path,
        mut read: F,
    ) -> Result<(LockedLog, T), StoreError> {
        loop {
            let mut f = open_regular(path).map_err(io(path))?;
            f.lock().map_err(io(path))?;
            let locked = f.metadata().map_err(io(path))?;
            match std::fs::metadata(path) {
                Ok(now) if same_file(&locked, &now) => {}
                // Replaced (or removed) between our open and our lock: try again.
                Ok(_) => continue,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io(path)(e)),
            }
            let bytes = read_all(path, &mut f)?;
            let parts = split_log(&bytes);
            let out = read(&bytes, &parts)?;
            let (text, count) = (join_parts(&parts), parts.len());
            drop(parts);
            let size = bytes.len() as u64;
            return Ok((LockedLog { path: path.to_path_buf(), lock: f, text, count, size, crash: None }, out));
        }
    }
    /// How many entries the log holds (as read, or last written, under the lock).
    pub fn len(&self) -> usize {
        self.count
    }
    /// Whether the log holds no entry.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    /// Make the next writes abort the process at `point` (crash tests); `None` disarms.
    pub fn set_crash_point(&mut self, point: Option<CrashPoint>) {
        self.crash = point;
    }
    /// Append entries: write the whole new log to a temporary file in the same directory,
    /// fsync, rename over, fsync the directory. A crash leaves the old or the new log.
    pub fn append(&mut self, new: &[Entry]) -> Result<(), StoreError> {
        let mut bytes = std::mem::take(&mut self.text);
        let old = bytes.len();
        bytes.extend(join_log(new));
        if let Err(e) = self.write(&bytes) {
            bytes.truncate(old);
            self.text = bytes;
            return Err(e);
        }
        self.text = bytes;
        self.count += new.len();
        sync_dir(&parent_dir(&self.path))
    }
    /// Replace the whole log (used by amendments that truncate); same atomicity.
    pub fn replace(&mut self, all: &[Entry]) -> Result<(), StoreError> {
        let bytes = join_log(all);
        self.write(&bytes)?;
        (self.text, self.count) = (bytes, all.len());
        sync_dir(&parent_dir(&self.path))
    }
    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let locked = self.lock.metadata().map_err(io(&path))?;
        let unchanged = match std::fs::metadata(&path) {
            Ok(now) => same_file(&locked, &now) && now.len() == self.size && locked.len() == self.size,
            Err(_) => false,
        };
        if !unchanged {
            let found = read_log(&path).map(|v| v.len()).unwrap_or(0);
            return Err(StoreError::Changed { path, expected: self.count, found });
        }
        remove_stale_temps(&path);
        let (tmp, tmp_file) = write_temp(&path, bytes, Some(&locked))?;
        // Lock the new file before it becomes the log, so the path is never unlocked.
        if let Err(e) = tmp_file.lock() {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(&tmp)(e));
        }
        if self.crash == Some(CrashPoint::AfterTempWrite) {
            std::process::abort();
        }
        if let Err(e) = std::fs::rename(&tmp, &path) {
            let _ = std::fs::remove_file(&tmp);
            return Err(io(&path)(e));
        }
        // From here the new log is in place; hold its lock (the old one is released).
        self.lock = tmp_file;
        self.size = bytes.len() as u64;
        if self.crash == Some(CrashPoint::AfterRename) {
            std::process::abort();
        }
        // The caller records the new entries, then fsyncs the directory.
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::keys::SecretKey;
    use crate::log::entry::{Body, Draft, Kind};

    fn entry(seq: u64) -> Entry {
        let mut b = Body::new(Kind::Ack);
        b.note = Some(format!("entry {seq}\n---\nnot a separator"));
        Draft { game: None, seq: 0, prev: None, seat: format!("s{seq}"), reveal: None, dice_from: None, time: "t".into(), body: b }
            .sign(&SecretKey::from_seed("a", [1; 32]))
    }

    #[test]
    fn split_and_join() {
        let es = vec![entry(1), entry(2), entry(3)];
        let text = join_log(&es);
        assert!(text.starts_with(b"---\n"));
        let parts = split_log(&text);
        assert_eq!(parts.len(), 3);
        for (p, e) in parts.iter().zip(&es) {
            assert_eq!(*p, e.bytes.as_slice());
        }
        assert!(split_log(b"").is_empty());
        assert_eq!(split_log(b"---\n"), vec![&b""[..]]);
        assert_eq!(split_log(b"x\n---\na\n---\r\nb"), vec![&b"a\n"[..], &b"b"[..]]);
        // `----` and ` ---` are not separators.
        assert_eq!(split_log(b"---\n----\n ---\n--- \n"), vec![&b"----\n ---\n--- \n"[..]]);
    }

    #[test]
    fn read_and_create() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("game.log");
        let es = vec![entry(1), entry(2)];
        create_log(&p, &es).unwrap();
        assert!(matches!(create_log(&p, &es), Err(StoreError::Exists { .. })));
        assert_eq!(read_log(&p).unwrap(), es);
        // CRLF copy.
        let crlf = String::from_utf8(std::fs::read(&p).unwrap()).unwrap().replace('\n', "\r\n");
        let q = dir.path().join("crlf.log");
        std::fs::write(&q, crlf).unwrap();
        assert_eq!(read_log(&q).unwrap(), es);
        // Not a log; a broken entry.
        std::fs::write(&q, b"hello\n").unwrap();
        assert!(matches!(read_log(&q), Err(StoreError::NotALog { .. })));
        std::fs::write(&q, b"---\nhello\n").unwrap();
        assert!(matches!(read_log(&q), Err(StoreError::Entry { index: 0, .. })));
        assert!(matches!(read_log(&dir.path().join("none")), Err(StoreError::Io { .. })));
        // Over the size limit (a sparse file: nothing is written).
        let big = dir.path().join("big.log");
        std::fs::File::create(&big).unwrap().set_len(MAX_LOG_BYTES + 1).unwrap();
        assert!(matches!(read_log(&big), Err(StoreError::TooLarge { .. })));
        assert!(matches!(LockedLog::open(&big), Err(StoreError::TooLarge { .. })));
        std::fs::remove_file(&big).unwrap();
        // Empty file: no entries.
        std::fs::write(&q, b"").unwrap();
        assert!(read_log(&q).unwrap().is_empty());
        // No temporary files left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn append_replace_and_changed() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("game.log");
        create_log(&p, &[entry(1)]).unwrap();
        {
            let (mut l, entries) = LockedLog::open(&p).unwrap();
            assert_eq!((entries.len(), l.len()), (1, 1));
            l.append(&[entry(2)]).unwrap();
            l.append(&[entry(3), entry(4)]).unwrap();
            assert_eq!(l.len(), 4);
            assert_eq!(read_log(&p).unwrap().len(), 4);
            l.replace(&[entry(1), entry(2)]).unwrap();
            assert_eq!(read_log(&p).unwrap(), vec![entry(1), entry(2)]);
            assert_eq!(l.path(), p.as_path());
        }
        // Someone writing without the lock is detected.
        let (mut l, _) = LockedLog::open(&p).unwrap();
        std::fs::write(&p, join_log(&[entry(7)])).unwrap();
        assert!(matches!(l.append(&[entry(3)]), Err(StoreError::Changed { expected: 2, found: 1, .. })));
        assert_eq!(read_log(&p).unwrap(), vec![entry(7)]);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn an_append_writes_the_log_as_read_then_the_new_entries() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("game.log");
        // A copy with CRLF line ends: appending writes it out with LF, as before (the
        // entries' bytes are read with CRLF as LF), and the new entry after it.
        let crlf = String::from_utf8(join_log(&[entry(1), entry(2)])).unwrap().replace('\n', "\r\n");
        std::fs::write(&p, &crlf).unwrap();
        let (mut l, entries) = LockedLog::open(&p).unwrap();
        assert_eq!(entries, vec![entry(1), entry(2)]);
        l.append(&[entry(3)]).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), join_log(&[entry(1), entry(2), entry(3)]));
        // A caller that reads the log its own way gets the same text to append to.
        drop(l);
        let (mut l, n) = LockedLog::open_with(&p, |_, parts| Ok(parts.len())).unwrap();
        assert_eq!((n, l.len()), (3, 3));
        l.append(&[entry(4)]).unwrap();
        assert_eq!(read_log(&p).unwrap(), vec![entry(1), entry(2), entry(3), entry(4)]);
        assert_eq!(l.len(), 4);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("game.log");
        create_log(&p, &[entry(1)]).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        LockedLog::open(&p).unwrap().0.append(&[entry(2)]).unwrap();
        assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o640);
    }
}
