//! The log file: entries separated by `---` lines; locked, atomic, durable append (DESIGN §2.3).
//!
//! CONTRACT (skeleton): signatures are fixed; bodies are filled in by the protocol work.

use std::path::{Path, PathBuf};

use super::entry::{Entry, EntryError};

/// Largest log accepted, in bytes.
pub const MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;

/// Storage failures.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, #[source] source: std::io::Error },
    #[error("{path}: {size} bytes is over the {limit}-byte limit for a log")]
    TooLarge { path: PathBuf, size: u64, limit: u64 },
    #[error("{path}: does not start with a `---` line; not an umpire log")]
    NotALog { path: PathBuf },
    #[error("{path}: entry {index} (counting from 0): {source}")]
    Entry { path: PathBuf, index: usize, #[source] source: EntryError },
    #[error("{path} already exists; refusing to overwrite it")]
    Exists { path: PathBuf },
    #[error("{path}: the log changed on disk while this command ran (now {found} entries, expected {expected}); run it again")]
    Changed { path: PathBuf, expected: usize, found: usize },
}

/// Split log text into entry byte strings (each without its `---` line).
pub fn split_log(bytes: &[u8]) -> Vec<&[u8]> {
    todo!()
}

/// Join entries into log text: each preceded by `---\n`.
pub fn join_log(entries: &[Entry]) -> Vec<u8> {
    todo!()
}

/// Read and parse every entry of a log file (form only; see `log::protocol` for the chain).
pub fn read_log(path: &Path) -> Result<Vec<Entry>, StoreError> {
    todo!()
}

/// Create a new log holding `entries` (fails if `path` exists), atomically and durably.
pub fn create_log(path: &Path, entries: &[Entry]) -> Result<(), StoreError> {
    todo!()
}

/// Exclusive access to a log for read–check–append: holds the lock on the log file
/// until dropped, so concurrent appenders serialise.
pub struct LockedLog {
    path: PathBuf,
    lock: std::fs::File,
    entries: Vec<Entry>,
}

impl LockedLog {
    /// Lock `path` (blocking) and read it.
    pub fn open(path: &Path) -> Result<LockedLog, StoreError> {
        todo!()
    }
    /// The entries as read under the lock.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
    /// Append entries: write the whole new log to a temporary file in the same directory,
    /// fsync, rename over, fsync the directory. A crash leaves the old or the new log.
    pub fn append(&mut self, new: &[Entry]) -> Result<(), StoreError> {
        todo!()
    }
    /// Replace the whole log (used by amendments that truncate); same atomicity.
    pub fn replace(&mut self, all: &[Entry]) -> Result<(), StoreError> {
        todo!()
    }
    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Where a test may make `append` abort the process (crash tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrashPoint {
    /// After the temporary file is written and synced, before the rename.
    AfterTempWrite,
    /// After the rename, before the directory sync.
    AfterRename,
}

impl LockedLog {
    /// Arm a crash point for the next append.
    pub fn set_crash_point(&mut self, _p: Option<CrashPoint>) {
        todo!()
    }
}
