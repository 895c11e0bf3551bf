//! Where the robot finds mail: a local Maildir, an mbox file, or an IMAP folder
//! ([`super::imap`]), all behind [`MailSource`] so the robot's loop is the same for each.
//!
//! A source only reads: it never deletes, moves or flags a message (the player's mail client
//! keeps doing that). What was handled is the journal's business, by each message's [`MessageRef::id`].

use std::path::{Path, PathBuf};

use super::MailError;
use crate::crypto::sha256;

/// A message a source holds, before it is fetched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageRef {
    /// Stable for the life of the message in that source: a Maildir file's unique name, an
    /// IMAP `UIDVALIDITY:UID`, the SHA-256 of an mbox message's bytes.
    pub id: String,
    /// Its size in bytes when the source knows it without fetching.
    pub size: Option<u64>,
}

/// A mailbox the robot reads.
pub trait MailSource {
    /// For messages to a person: `Maildir /home/bob/Maildir`, `IMAP bob@imap.example.org/INBOX`.
    fn describe(&self) -> String;
    /// The messages there now, oldest first as far as the source can tell.
    fn list(&mut self) -> Result<Vec<MessageRef>, MailError>;
    /// The bytes of one listed message; [`MailError::TooLarge`] past `limit` bytes, without
    /// reading more than `limit + 1` of them.
    fn fetch(&mut self, msg: &MessageRef, limit: usize) -> Result<Vec<u8>, MailError>;
}

fn io_err(what: &Path, e: std::io::Error) -> MailError {
    MailError::Source { what: what.display().to_string(), why: e.to_string() }
}

/// A Maildir (`new/` and `cur/`; `tmp/` holds messages still being delivered).
pub struct MaildirSource {
    dir: PathBuf,
}

impl MaildirSource {
    pub fn new(dir: &Path) -> MaildirSource {
        MaildirSource { dir: dir.to_path_buf() }
    }
}

/// Read at most `limit + 1` bytes of a regular file; too large is an error.
fn read_bounded(path: &Path, limit: usize) -> Result<Vec<u8>, MailError> {
    use std::io::Read;
    let f = crate::log::store::open_regular(path).map_err(|e| io_err(path, e))?;
    let mut buf = Vec::new();
    f.take(limit as u64 + 1).read_to_end(&mut buf).map_err(|e| io_err(path, e))?;
    if buf.len() > limit {
        return Err(MailError::TooLarge { what: path.display().to_string(), size: buf.len(), limit });
    }
    Ok(buf)
}

impl MailSource for MaildirSource {
    fn describe(&self) -> String {
        format!("Maildir {}", self.dir.display())
    }

    fn list(&mut self) -> Result<Vec<MessageRef>, MailError> {
        let mut found = Vec::new();
        for sub in ["new", "cur"] {
            let d = self.dir.join(sub);
            let rd = match std::fs::read_dir(&d) {
                Ok(rd) => rd,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && sub == "cur" => continue,
                Err(e) => return Err(io_err(&d, e)),
            };
            for de in rd {
                let de = de.map_err(|e| io_err(&d, e))?;
                let name = de.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                let Ok(meta) = de.metadata() else { continue };
                if !meta.is_file() {
                    continue;
                }
                // The unique part survives the move from new/ to cur/ and the flags a mail
                // client appends after `:2,`.
                let unique = name.split(':').next().unwrap_or(&name).to_string();
                let mtime = meta.modified().ok();
                found.push((mtime, unique, meta.len()));
            }
        }
        found.sort();
        found.dedup_by(|a, b| a.1 == b.1);
        Ok(found.into_iter().map(|(_, id, size)| MessageRef { id: format!("maildir:{id}"), size: Some(size) }).collect())
    }

    fn fetch(&mut self, msg: &MessageRef, limit: usize) -> Result<Vec<u8>, MailError> {
        let unique = msg.id.strip_prefix("maildir:").unwrap_or(&msg.id);
        for sub in ["new", "cur"] {
            let d = self.dir.join(sub);
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            for de in rd.flatten() {
                let name = de.file_name().to_string_lossy().into_owned();
                if name.split(':').next() == Some(unique) {
                    return read_bounded(&de.path(), limit);
                }
            }
        }
        Err(MailError::Source { what: self.describe(), why: format!("message {unique} is gone (moved or deleted meanwhile)") })
    }
}

/// An mbox file, read whole at each [`MailSource::list`] (bounded by [`super::MAX_MBOX_BYTES`]).
pub struct MboxSource {
    path: PathBuf,
    messages: Vec<(String, Vec<u8>)>,
}

impl MboxSource {
    pub fn new(path: &Path) -> MboxSource {
        MboxSource { path: path.to_path_buf(), messages: Vec::new() }
    }
}

impl MailSource for MboxSource {
    fn describe(&self) -> String {
        format!("mbox {}", self.path.display())
    }

    fn list(&mut self) -> Result<Vec<MessageRef>, MailError> {
        self.messages.clear();
        if !self.path.exists() {
            return Ok(Vec::new());
        }
        let bytes = read_bounded(&self.path, super::MAX_MBOX_BYTES)?;
        for m in mail_parser::mailbox::mbox::MessageIterator::new(std::io::Cursor::new(&bytes[..])) {
            let m = m.map_err(|e| MailError::NotAMessage(format!("{}: {e}", self.path.display())))?;
            let contents = m.contents().to_vec();
            // An mbox has no message ids of its own; the content names a message wherever
            // a mail client moves it in the file.
            let id = format!("mbox:{}", sha256(&contents).to_hex());
            if !self.messages.iter().any(|(i, _)| *i == id) {
                self.messages.push((id, contents));
            }
        }
        Ok(self.messages.iter().map(|(id, b)| MessageRef { id: id.clone(), size: Some(b.len() as u64) }).collect())
    }

    fn fetch(&mut self, msg: &MessageRef, limit: usize) -> Result<Vec<u8>, MailError> {
        let Some((_, b)) = self.messages.iter().find(|(id, _)| *id == msg.id) else {
            return Err(MailError::Source { what: self.describe(), why: "message not found (list first)".into() });
        };
        if b.len() > limit {
            return Err(MailError::TooLarge { what: format!("{} message", self.describe()), size: b.len(), limit });
        }
        Ok(b.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maildir_ids_survive_the_move_to_cur() {
        let t = tempfile::tempdir().unwrap();
        for s in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(t.path().join(s)).unwrap();
        }
        std::fs::write(t.path().join("new/111.a.host"), b"From: a@b\n\nx\n").unwrap();
        std::fs::write(t.path().join("tmp/222.b.host"), b"half delivered").unwrap();
        let mut src = MaildirSource::new(t.path());
        let before = src.list().unwrap();
        assert_eq!(before.len(), 1);
        std::fs::rename(t.path().join("new/111.a.host"), t.path().join("cur/111.a.host:2,S")).unwrap();
        let after = src.list().unwrap();
        assert_eq!(before, after);
        assert_eq!(src.fetch(&after[0], 100).unwrap(), b"From: a@b\n\nx\n");
        assert!(matches!(src.fetch(&after[0], 3), Err(MailError::TooLarge { .. })));
    }

    #[test]
    fn mbox_messages_are_named_by_content() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("inbox");
        std::fs::write(&p, b"From a@b Mon Nov 23 12:00:00 2026\nFrom: a@b\n\none\n\nFrom c@d Mon Nov 23 12:00:01 2026\nFrom: c@d\n\ntwo\n")
            .unwrap();
        let mut src = MboxSource::new(&p);
        let l = src.list().unwrap();
        assert_eq!(l.len(), 2);
        assert_ne!(l[0].id, l[1].id);
        assert!(String::from_utf8_lossy(&src.fetch(&l[1], 1000).unwrap()).contains("two"));
        assert!(MboxSource::new(&t.path().join("none")).list().unwrap().is_empty());
    }
}
