//! A log file read a few entries at a time, for a replay that lets each entry go once the
//! rules took it (issue 20's memory: `verify` of a long game would otherwise hold the whole
//! text beside the game it rebuilds).
//!
//! [`LogFile::open`] reads the file once, a block at a time, and keeps only where each entry
//! lies ([`EntrySpans`], the same split as [`split_log`](super::store::split_log)); [`LogFile::with_entries`] then
//! reads the bytes of a run of entries again when they are wanted. The file is held open
//! from the first read to the last, and umpire never writes a log in place (it renames a new
//! file over it, `store`), so every read sees the file the spans were found in. A file
//! another program shortens meanwhile is an I/O error, never a silently shorter log.

use std::io::{Read as _, Seek as _, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::store::{EntrySpans, MAX_LOG_BYTES, StoreError, open_regular};

/// Bytes read per block when finding the entries.
const BLOCK: usize = 1 << 20;

/// An open log file and where its entries lie; see the module documentation.
#[derive(Debug)]
pub struct LogFile {
    path: PathBuf,
    /// Shared by the threads that read chunks of entries (a seek then a read each).
    file: Mutex<std::fs::File>,
    /// The file's size when it was read through.
    size: u64,
    /// Each entry's `[start, end)` in the file, without its `---` line.
    spans: Vec<(u64, u64)>,
}

impl LogFile {
    /// Open a log and find its entries, with the checks of [`super::store::read_log_bytes`]:
    /// a regular file, at most [`MAX_LOG_BYTES`], empty or starting with a `---` line.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let io = |source| StoreError::Io { path: path.to_path_buf(), source };
        let mut file = open_regular(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if size > MAX_LOG_BYTES {
            return Err(StoreError::TooLarge { path: path.to_path_buf(), size, limit: MAX_LOG_BYTES });
        }
        let mut found = EntrySpans::default();
        let mut block = vec![0u8; BLOCK];
        let mut read = 0_u64;
        let mut head = Vec::with_capacity(5);
        loop {
            let n = file.read(&mut block).map_err(io)?;
            if n == 0 {
                break;
            }
            if head.len() < 5 {
                head.extend(block[..n].iter().take(5 - head.len()));
            }
            read += n as u64;
            if read > MAX_LOG_BYTES {
                return Err(StoreError::TooLarge { path: path.to_path_buf(), size: read, limit: MAX_LOG_BYTES });
            }
            found.feed(&block[..n]);
        }
        if !(head.is_empty() || head.starts_with(b"---\n") || head.starts_with(b"---\r\n")) {
            return Err(StoreError::NotALog { path: path.to_path_buf() });
        }
        Ok(LogFile { path: path.to_path_buf(), file: Mutex::new(file), size: read, spans: found.finish() })
    }

    /// How many entries the log holds.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the log holds no entry (an empty file).
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Hand the bytes of entries `range` (by index, counting from 0) to `f`, one slice each,
    /// as [`split_log`](super::store::split_log) would give them; they are read from the file for this call alone.
    pub fn with_entries<T>(&self, range: Range<usize>, f: impl FnOnce(&[&[u8]]) -> T) -> Result<T, StoreError> {
        let spans = &self.spans[range];
        let (Some(first), Some(last)) = (spans.first(), spans.last()) else { return Ok(f(&[])) };
        let buf = self.read_range(first.0, last.1)?;
        let parts: Vec<&[u8]> = spans.iter().map(|&(s, e)| &buf[(s - first.0) as usize..(e - first.0) as usize]).collect();
        Ok(f(&parts))
    }

    /// The whole text, as [`super::store::read_log_bytes`] returns it, for a replay that
    /// turns out to need every entry at once; its entries are [`LogFile::entries_of`] it.
    pub fn read_all(&self) -> Result<Vec<u8>, StoreError> {
        let bytes = self.read_range(0, self.size)?;
        // The text read twice must split the same way, or it changed in between.
        let mut again = EntrySpans::default();
        again.feed(&bytes);
        if again.finish() != self.spans {
            let io = std::io::Error::other("the log changed on disk while it was read");
            return Err(StoreError::Io { path: self.path.clone(), source: io });
        }
        Ok(bytes)
    }

    /// Each entry's bytes in `text`, the whole text [`LogFile::read_all`] returned: the
    /// entries found when the file was opened, as [`split_log`](super::store::split_log) gives them.
    pub fn entries_of<'t>(&self, text: &'t [u8]) -> Vec<&'t [u8]> {
        self.spans.iter().map(|&(s, e)| &text[s as usize..e as usize]).collect()
    }

    fn read_range(&self, start: u64, end: u64) -> Result<Vec<u8>, StoreError> {
        let io = |source| StoreError::Io { path: self.path.clone(), source };
        let mut buf = vec![0u8; (end - start) as usize];
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        file.seek(SeekFrom::Start(start)).map_err(io)?;
        // A short read (the file was cut meanwhile) is `UnexpectedEof`.
        file.read_exact(&mut buf).map_err(io)?;
        Ok(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::LogFile;
    use crate::log::store::{EntrySpans, StoreError, split_log};

    /// Texts whose split has corners: text before the first `---`, CRLF separators, lines
    /// that only look like one, a last line without a newline, a separator as that line.
    const TEXTS: &[&[u8]] = &[
        b"",
        b"---\n",
        b"---",
        b"---\r\n",
        b"x\n---\na\n---\r\nb",
        b"---\n----\n ---\n--- \n",
        b"---\na: 1\n---\nb: 2\n---\n",
        b"---\na: 1\n---\n\n---\n---\r\nc\r\n",
        b"---\nlong line here\n--\n---x\n---",
    ];

    #[test]
    fn spans_found_piece_by_piece_are_split_logs() {
        for text in TEXTS {
            let whole: Vec<&[u8]> = split_log(text);
            for piece in 1..=text.len().max(1) {
                let mut spans = EntrySpans::default();
                for p in text.chunks(piece) {
                    spans.feed(p);
                }
                let parts: Vec<&[u8]> = spans.finish().into_iter().map(|(s, e)| &text[s as usize..e as usize]).collect();
                assert_eq!(parts, whole, "{:?} in pieces of {piece}", String::from_utf8_lossy(text));
            }
        }
    }

    #[test]
    fn a_log_file_gives_the_entries_of_its_text() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (k, text) in TEXTS.iter().enumerate().filter(|(_, t)| t.is_empty() || t.starts_with(b"---\n") || t.starts_with(b"---\r\n")) {
            let path = dir.path().join(format!("{k}.log"));
            std::fs::write(&path, text).expect("writes");
            let log = LogFile::open(&path).expect("opens");
            let whole = split_log(text);
            assert_eq!(log.len(), whole.len());
            for a in 0..=whole.len() {
                for b in a..=whole.len() {
                    let got = log.with_entries(a..b, |p| p.iter().map(|x| x.to_vec()).collect::<Vec<_>>()).expect("reads");
                    assert_eq!(got, whole[a..b].iter().map(|x| x.to_vec()).collect::<Vec<_>>());
                }
            }
            let all = log.read_all().expect("reads");
            assert_eq!(all, *text);
            assert_eq!(log.entries_of(&all), whole);
        }
    }

    #[test]
    fn what_is_not_a_log_is_refused_as_read_log_bytes_refuses_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("x.log");
        std::fs::write(&path, b"x\n---\na\n").expect("writes");
        assert!(matches!(LogFile::open(&path), Err(StoreError::NotALog { .. })));
        assert!(matches!(LogFile::open(dir.path()), Err(StoreError::Io { .. })));
    }

    #[test]
    fn a_log_cut_after_it_was_opened_is_an_error_not_a_shorter_log() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("x.log");
        std::fs::write(&path, b"---\na: 1\n---\nb: 2\n").expect("writes");
        let log = LogFile::open(&path).expect("opens");
        std::fs::OpenOptions::new().write(true).open(&path).expect("opens").set_len(10).expect("cuts");
        assert!(matches!(log.with_entries(1..2, |_| ()), Err(StoreError::Io { .. })));
        assert!(matches!(log.read_all(), Err(StoreError::Io { .. })));
    }
}
