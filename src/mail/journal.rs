//! The robot's journal: one JSON object per line, appended and fsynced before the robot acts
//! on what it records, so that a robot killed at any point can tell on restart what it did.
//!
//! Records (field `t`):
//! - `seen`: a message was read to the end and everything in it was applied, skipped or
//!   refused. A message is recorded only after the log writes it caused are durable, so a
//!   crash in between reads it again (applying an entry twice is a no-op).
//! - `signed`: an entry the robot signed, with its bytes, written *before* the entry goes
//!   into the log. On restart an entry signed but missing from the log is appended as those
//!   very bytes (never signed again: one chain value, one entry, DESIGN §2.5).
//! - `sent`: that entry was handed to the mail server. Written after the server accepted
//!   it; an entry `signed` without `sent` is sent again on restart, byte for byte.
//! - `void`: a `signed` entry that can no longer go into the log (the game moved on without
//!   it, so it was never sent: nobody saw its reveal).
//! - `notified`: the human was told about a decision due at a seq, so it is said once.
//!
//! A crash while writing leaves at most one torn last line; it is cut off when the journal
//! is opened again (it recorded nothing that had happened yet).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One line of the journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Record {
    /// A message fully handled.
    Seen {
        msg: String,
        /// What came of it, for a person reading the journal.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        note: String,
    },
    /// An entry signed by the robot (its exact bytes, base64), before it enters the log.
    Signed { game: String, seq: u64, hash: String, entry: String, why: String },
    /// That entry was accepted by the mail server (or written to the outbox).
    Sent { game: String, seq: u64, hash: String, to: Vec<String> },
    /// A signed entry that will never be sent: the log moved on without it.
    Void { game: String, seq: u64, hash: String, why: String },
    /// The human was told that a decision is due at `seq`.
    Notified { game: String, seq: u64, what: String },
}

/// Why the journal could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error(
        "robot journal {path}: {why}\n  hint: the journal is the robot's memory; do not edit it by hand (a damaged line means the disk or another program changed it)"
    )]
    Io { path: PathBuf, why: String },
    #[error(
        "robot journal {path}, line {line}: not a journal record ({why})\n  hint: the file was changed by something other than the robot; move it aside to start afresh (messages will be read again; entries already in the logs are skipped)"
    )]
    Corrupt { path: PathBuf, line: usize, why: String },
}

/// The journal, open for appending, with what it holds so far.
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
    records: Vec<Record>,
    seen: BTreeSet<String>,
}

impl Journal {
    /// Open (or create) `dir/journal`, cutting a torn last line.
    pub fn open(dir: &Path) -> Result<Journal, JournalError> {
        let path = dir.join("journal");
        let io = |e: std::io::Error| JournalError::Io { path: path.clone(), why: e.to_string() };
        std::fs::create_dir_all(dir).map_err(io)?;
        let mut file = std::fs::OpenOptions::new().read(true).append(true).create(true).open(&path).map_err(io)?;
        let mut bytes = Vec::new();
        {
            use std::io::Read;
            (&file).read_to_end(&mut bytes).map_err(io)?;
        }
        let good = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if good < bytes.len() {
            // A torn line from a crash mid-write: it recorded nothing that happened yet.
            file.set_len(good as u64).map_err(io)?;
            file.sync_all().map_err(io)?;
            bytes.truncate(good);
        }
        let mut records = Vec::new();
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
            if line.is_empty() {
                continue;
            }
            let r: Record =
                serde_json::from_slice(line).map_err(|e| JournalError::Corrupt { path: path.clone(), line: i + 1, why: e.to_string() })?;
            records.push(r);
        }
        let seen = records
            .iter()
            .filter_map(|r| match r {
                Record::Seen { msg, .. } => Some(msg.clone()),
                _ => None,
            })
            .collect();
        // Make sure the directory entry of a new journal is durable too.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        file.flush().map_err(io)?;
        Ok(Journal { path, file, records, seen })
    }

    /// Append one record and make it durable before returning.
    pub fn add(&mut self, r: Record) -> Result<(), JournalError> {
        let mut line = serde_json::to_vec(&r).map_err(|e| JournalError::Io { path: self.path.clone(), why: e.to_string() })?;
        line.push(b'\n');
        let io = |e: std::io::Error| JournalError::Io { path: self.path.clone(), why: e.to_string() };
        self.file.write_all(&line).map_err(io)?;
        self.file.sync_data().map_err(io)?;
        if let Record::Seen { msg, .. } = &r {
            self.seen.insert(msg.clone());
        }
        self.records.push(r);
        Ok(())
    }

    /// Was this message handled already?
    pub fn seen(&self, msg: &str) -> bool {
        self.seen.contains(msg)
    }

    /// Every record, oldest first.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// Entries signed for `game` and neither sent nor void: `(seq, hash, bytes)`.
    pub fn unsent(&self, game: &str) -> Vec<(u64, String, Vec<u8>)> {
        let mut open: BTreeMap<String, (u64, Vec<u8>)> = BTreeMap::new();
        for r in &self.records {
            match r {
                Record::Signed { game: g, seq, hash, entry, .. } if g == game => {
                    use base64::Engine as _;
                    if let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(entry) {
                        open.insert(hash.clone(), (*seq, bytes));
                    }
                }
                Record::Sent { game: g, hash, .. } | Record::Void { game: g, hash, .. } if g == game => {
                    open.remove(hash);
                }
                _ => {}
            }
        }
        let mut v: Vec<_> = open.into_iter().map(|(h, (s, b))| (s, h, b)).collect();
        v.sort();
        v
    }

    /// Was the human told about the decision due at `seq` of `game`?
    pub fn notified(&self, game: &str, seq: u64, what: &str) -> bool {
        self.records.iter().any(|r| matches!(r, Record::Notified { game: g, seq: s, what: w } if g == game && *s == seq && w == what))
    }

    /// Where the journal lives.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_line_is_cut_and_the_rest_kept() {
        let t = tempfile::tempdir().unwrap();
        {
            let mut j = Journal::open(t.path()).unwrap();
            j.add(Record::Seen { msg: "m1".into(), note: String::new() }).unwrap();
        }
        let mut f = std::fs::OpenOptions::new().append(true).open(t.path().join("journal")).unwrap();
        f.write_all(b"{\"t\":\"seen\",\"msg\":\"m2").unwrap();
        drop(f);
        let mut j = Journal::open(t.path()).unwrap();
        assert!(j.seen("m1") && !j.seen("m2"));
        j.add(Record::Seen { msg: "m3".into(), note: String::new() }).unwrap();
        let j = Journal::open(t.path()).unwrap();
        assert!(j.seen("m3") && j.records().len() == 2);
    }

    #[test]
    fn signed_until_sent_or_void() {
        let t = tempfile::tempdir().unwrap();
        let mut j = Journal::open(t.path()).unwrap();
        let signed = |seq: u64, h: &str| Record::Signed { game: "g".into(), seq, hash: h.into(), entry: "AAEC".into(), why: "ack".into() };
        j.add(signed(5, "h5")).unwrap();
        j.add(signed(7, "h7")).unwrap();
        assert_eq!(j.unsent("g").len(), 2);
        j.add(Record::Sent { game: "g".into(), seq: 5, hash: "h5".into(), to: vec![] }).unwrap();
        assert_eq!(j.unsent("g"), vec![(7, "h7".to_string(), vec![0, 1, 2])]);
        j.add(Record::Void { game: "g".into(), seq: 7, hash: "h7".into(), why: "x".into() }).unwrap();
        assert!(j.unsent("g").is_empty() && j.unsent("other").is_empty());
    }

    #[test]
    fn a_changed_line_is_an_error_with_a_hint() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("journal"), b"not json\n").unwrap();
        let e = Journal::open(t.path()).err().expect("refused");
        assert!(e.to_string().contains("line 1") && e.to_string().contains("hint"), "{e}");
    }
}
