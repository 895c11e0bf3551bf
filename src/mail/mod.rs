//! Email: turns sent as messages, and entries found in received messages (DESIGN §1, §3).
//!
//! Sending: [`compose`] describes one entry of a game in words (subject, plain-text body) and
//! carries the entry's exact bytes; [`build_message`] makes the MIME message (the entry as a
//! base64 `application/yaml` attachment, so no mail system can change a byte of it); then one
//! of three transports: [`send_smtp`] (lettre, rustls; STARTTLS, implicit TLS, or plaintext
//! only when the caller asks for it), [`send_sendmail`], or the formatted bytes written as an
//! `.eml` file by the caller.
//!
//! Receiving: [`detect`] tells an entry file, an RFC 5322 message, an mbox and plain text
//! apart by their content; [`entries_in_message`], [`entries_in_mbox`] and [`entries_in_text`]
//! find every umpire entry in them (attachments, `---`-separated logs, entries pasted inline).
//!
//! The robot (`umpire robot`) lives in [`robot`]: it reads a mailbox ([`source`]: Maildir,
//! mbox, or IMAP in [`imap`]), applies what arrives, answers what needs no decision, keeps a
//! [`journal`], and sends through an [`Outbox`](robot::Outbox).
//!
//! No printing, no environment, no clock here: the command line passes the date, the
//! password and the settings in.

pub mod imap;
pub mod journal;
pub mod robot;
pub mod source;

use std::io::{Read, Write};
use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};

use crate::crypto::Hash;
use crate::engine::game::{Game, describe_outcome};
use crate::log::entry::{Entry, Kind, kind_name};

/// Largest message accepted (one `.eml`, or one message of an mbox, or standard input).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;
/// Largest mbox file accepted (the log limit: an mbox of one game's turns is far smaller).
pub const MAX_MBOX_BYTES: usize = 256 * 1024 * 1024;
/// Nested messages (forwards of forwards) followed this deep, no deeper.
const MAX_NESTING: usize = 8;

/// Why sending or reading mail failed. Every message says what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// An address that is not an email address.
    #[error("{what} {addr:?} is not an email address ({why}); write it as `name@example.org` or `Name <name@example.org>`")]
    BadAddress { what: &'static str, addr: String, why: String },
    /// The message could not be built.
    #[error("cannot build the message: {0}")]
    Build(String),
    /// The SMTP host name does not resolve.
    #[error(
        "cannot find the mail server {host:?}: {why}\n  hint: check the spelling of smtp_host / --smtp-host and that this machine can resolve names (DNS)"
    )]
    Dns { host: String, why: String },
    /// Nobody listens on the port.
    #[error(
        "the mail server {host}:{port} refused the connection\n  hint: check --smtp-port (587 for STARTTLS submission, 465 for implicit TLS) and that the server is running"
    )]
    Refused { host: String, port: u16 },
    /// The connection could not be made (network unreachable, …).
    #[error(
        "cannot connect to the mail server {host}:{port}: {why}\n  hint: check the host, the port and the network (a firewall may block outgoing mail ports)"
    )]
    Connect { host: String, port: u16, why: String },
    /// No answer in time.
    #[error(
        "the mail server {host}:{port} did not answer within {secs} s ({phase})\n  hint: check the host and port; a firewall that silently drops packets looks like this; --timeout SECS waits longer"
    )]
    Timeout { host: String, port: u16, phase: String, secs: u64 },
    /// The TLS handshake or the certificate failed.
    #[error(
        "TLS with {host}:{port} failed: {why}\n  hint: port 465 wants implicit TLS (`--tls implicit`), port 587 wants STARTTLS (`--tls starttls`); a server with a private certificate needs its CA in `ca_file` / --smtp-ca-file"
    )]
    Tls { host: String, port: u16, why: String },
    /// STARTTLS was required and the server does not offer it.
    #[error(
        "the mail server {host}:{port} does not offer STARTTLS, and umpire will not send your password or your turn in the clear\n  hint: use port 465 with `--tls implicit`, or for a local relay on this machine only `--insecure-plaintext`"
    )]
    NoStartTls { host: String, port: u16 },
    /// The server refused the user name and password.
    #[error(
        "the mail server refused the login of {user:?}: {reply}\n  hint: check smtp_user / --smtp-user and the password (UMPIRE_SMTP_PASSWORD or password_command); many providers want an app password"
    )]
    Auth { user: String, reply: String },
    /// A login is configured and the server offers no usable way to log in.
    #[error(
        "the mail server offers no login method umpire can use (it offers: {offered})\n  hint: if it only offers login after STARTTLS, do not use --insecure-plaintext"
    )]
    AuthUnsupported { offered: String },
    /// The server requires a login and none is configured.
    #[error(
        "the mail server wants a login: {reply}\n  hint: set smtp_user / --smtp-user and the password (UMPIRE_SMTP_PASSWORD or password_command in the config)"
    )]
    AuthRequired { reply: String },
    /// The sender address was refused.
    #[error(
        "the mail server refused the sender {from:?}: {reply}\n  hint: many servers only accept your own address as `from` (and only after login)"
    )]
    SenderRejected { from: String, reply: String },
    /// A recipient was refused.
    #[error(
        "the mail server refused the recipient {to:?}: {reply}\n  hint: check the address; a server that relays only for logged-in users refuses outside recipients without a login"
    )]
    RecipientRejected { to: String, reply: String },
    /// The message itself was refused after DATA.
    #[error("the mail server refused the message: {reply}\n  hint: it may be too large (try without --with-log) or caught by a filter")]
    MessageRejected { reply: String },
    /// Another SMTP failure.
    #[error("SMTP failed while {phase}: {why}")]
    Smtp { phase: String, why: String },
    /// The sendmail program failed.
    #[error(
        "{program}: {why}\n  hint: --sendmail PATH names the program (default /usr/sbin/sendmail); it must accept `-i -f FROM -- TO…` on standard input"
    )]
    Sendmail { program: String, why: String },
    /// Input too large.
    #[error("{what} is {size} bytes; the limit is {limit}")]
    TooLarge { what: String, size: usize, limit: usize },
    /// A message that cannot be parsed as MIME.
    #[error("{0}: not a readable email message")]
    NotAMessage(String),
    /// A mailbox could not be read.
    #[error("cannot read {what}: {why}\n  hint: check the path in the robot's `mailbox:` settings and that this user may read it")]
    Source { what: String, why: String },
    /// The IMAP server could not be used.
    #[error("IMAP {server}: {why}\n  hint: {hint}")]
    Imap { server: String, why: String, hint: String },
    /// Nothing that looks like an umpire entry.
    #[error(
        "no umpire entry in {what}{}\n  hint: an entry is attached as a .yaml file, or pasted as text from the line `umpire: entry/2` through its `sig: ed25519:…` line",
        problems_text(problems)
    )]
    NoEntries { what: String, problems: Vec<String> },
}

fn problems_text(problems: &[String]) -> String {
    if problems.is_empty() {
        return String::new();
    }
    let mut s = String::from("; what looked like entries:");
    for p in problems {
        s.push_str("\n    ");
        s.push_str(p);
    }
    s
}

// ---------------------------------------------------------------------------------------
// Composing
// ---------------------------------------------------------------------------------------

/// One entry of a game, described for the opponent: what a turn message carries.
#[derive(Clone, Debug)]
pub struct TurnMail {
    /// `[umpire] glorys-end/marne 3f9a1c2b #17 german: Turn 9 (…), …`.
    pub subject: String,
    /// The plain-text body: what happened, and what is expected now.
    pub text: String,
    /// The attachment's file name: `game.log.17.yaml`.
    pub entry_name: String,
    /// The entry's exact bytes.
    pub entry_bytes: Vec<u8>,
    /// The whole log, when it is sent along: (file name, bytes).
    pub log: Option<(String, Vec<u8>)>,
    /// Game id (hash of entry 0).
    pub game_id: Hash,
    /// The entry's seq.
    pub seq: u64,
    /// The entry's hash.
    pub entry_hash: Hash,
    /// The previous entry (seq and hash), which this message answers in the thread.
    pub prev: Option<(u64, Hash)>,
}

/// The `Message-ID` of the message that carries entry `seq` (hash `hash`) of `game`. It
/// depends on the entry alone, so both players' tools name every message of a game alike and
/// mail clients thread a whole game (`In-Reply-To` the previous entry, `References` the
/// genesis), and a message re-sent byte for byte is recognisably the same one.
pub fn entry_message_id(game: &Hash, seq: u64, hash: &Hash) -> String {
    format!("umpire.{seq}.{}@game-{}.umpire.invalid", hash.short(32), game.short(16))
}

/// Describe entry `seq` of a game. `game` must have been replayed up to and including that
/// entry and no further (the subject names the situation right after it). `log_name` is the
/// log's file name (`game.log`), used for the attachment name and the instructions.
pub fn compose(game: &Game, seq: u64, log_name: &str, log: Option<Vec<u8>>) -> TurnMail {
    let entry = &game.entries[seq as usize];
    let step = &game.steps[seq as usize];
    let id8 = game.id().short(8);
    let scenario = &game.genesis().scenario.name;
    let situation = match game.outcome() {
        Some(o) => format!("game over — {}", describe_outcome(&o)),
        None if !game.in_play() => "waiting for every seat to join".to_string(),
        None => game.state.expect().when,
    };
    let subject = format!("[umpire] {scenario} {id8} #{seq} {}: {situation}", step.seat);
    let entry_name = format!("{log_name}.{seq}.yaml");

    let mut t = String::new();
    t.push_str(&format!(
        "{} signed entry {seq} ({}) in the {} game {} (scenario {scenario}).\n",
        step.seat,
        kind_name(step.kind),
        game.ruleset.title(),
        game.id().short(16)
    ));
    t.push_str("\nWhat happened:\n");
    if step.events.is_empty() && step.note.is_none() && step.pending.is_none() {
        t.push_str("    nothing visible (the entry only reveals a dice value)\n");
    }
    for e in &step.events {
        match &e.rule {
            Some(r) => t.push_str(&format!("    {} [{r}]\n", e.text)),
            None => t.push_str(&format!("    {}\n", e.text)),
        }
    }
    if let Some(n) = &step.note {
        t.push_str(&format!("    note from {}: {}\n", step.seat, n.trim()));
    }
    if let Some(p) = &step.pending {
        t.push_str(&format!("    awaiting the dice: {p}\n"));
    }
    t.push_str(&format!("\nNow: {situation}\n"));
    let waiting = game.waiting_for();
    for (seat, what) in &waiting {
        // The ruleset's wording often starts with the seat already.
        let what = what.strip_prefix(&format!("{seat}: ")).unwrap_or(what);
        t.push_str(&format!("Waiting for {seat}: {what}\n"));
    }
    // After a resignation the owed dice are never rolled: no hint then.
    if let Some(p) = game.pending.as_ref().filter(|_| game.outcome().is_none()) {
        t.push_str(&format!(
            "\n{} sees the dice of entry {} before answering: `umpire status {log_name} --as {} --key YOUR.key`.\n",
            p.dice_from, p.seq, p.dice_from
        ));
    }
    t.push_str("\nTo take it in:\n");
    if entry.kind() == Kind::Genesis {
        t.push_str(&format!(
            "    save the attachment {entry_name}, then\n    umpire join {entry_name} --as YOUR-SEAT --key YOUR.key -o {log_name}\n"
        ));
    } else {
        t.push_str(&format!(
            "    save this message (or its attachment {entry_name}), then\n    umpire apply {log_name} MESSAGE.eml\n    or pipe it from your mail client into `umpire apply {log_name} -`\n"
        ));
    }
    t.push_str(&format!("\nEntry {seq}: {} bytes, SHA-256 {}\n", entry.bytes.len(), entry.hash));
    t.push_str("-- \nsent by umpire, the wargame adjudicator; the attachment is the signed entry, byte for byte.\n");

    TurnMail {
        subject,
        text: t,
        entry_name,
        entry_bytes: entry.bytes.clone(),
        log: log.map(|b| (log_name.to_string(), b)),
        game_id: game.id(),
        seq,
        entry_hash: entry.hash,
        prev: seq.checked_sub(1).and_then(|p| game.entries.get(p as usize)).map(|e| (e.seq(), e.hash)),
    }
}

/// Who a message is from and to, and the facts the library may not read itself.
#[derive(Clone, Debug)]
pub struct Addressing {
    /// `Name <addr>` or `addr`.
    pub from: String,
    /// One or more recipients.
    pub to: Vec<String>,
    /// The `Date:` header (the caller's clock).
    pub date: SystemTime,
}

/// Parse an address for a header.
pub fn parse_mailbox(what: &'static str, addr: &str) -> Result<Mailbox, MailError> {
    addr.trim().parse::<Mailbox>().map_err(|e| MailError::BadAddress { what, addr: addr.to_string(), why: e.to_string() })
}

/// Build the MIME message: `multipart/mixed` with the text, the entry (base64
/// `application/yaml`, so its bytes arrive unchanged) and optionally the log.
pub fn build_message(turn: &TurnMail, addr: &Addressing) -> Result<lettre::Message, MailError> {
    let from = parse_mailbox("from address", &addr.from)?;
    let mut b = lettre::Message::builder().from(from).subject(turn.subject.clone()).date(addr.date);
    if addr.to.is_empty() {
        return Err(MailError::Build("no recipient: give --to ADDRESS".into()));
    }
    for t in &addr.to {
        b = b.to(parse_mailbox("recipient", t)?);
    }
    let id = entry_message_id(&turn.game_id, turn.seq, &turn.entry_hash);
    let root = entry_message_id(&turn.game_id, 0, &turn.game_id);
    b = b.message_id(Some(format!("<{id}>")));
    if let Some((pseq, phash)) = turn.prev {
        let parent = entry_message_id(&turn.game_id, pseq, &phash);
        b = b.in_reply_to(format!("<{parent}>"));
        let refs = if pseq == 0 { format!("<{root}>") } else { format!("<{root}> <{parent}>") };
        b = b.references(refs);
    }
    b = b
        .user_agent(format!("umpire {}", env!("CARGO_PKG_VERSION")))
        .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("X-Umpire-Game"), turn.game_id.to_hex()))
        .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("X-Umpire-Seq"), turn.seq.to_string()))
        .raw_header(HeaderValue::new(HeaderName::new_from_ascii_str("X-Umpire-Entry"), turn.entry_hash.to_hex()));
    let yaml = ContentType::parse("application/yaml").map_err(|e| MailError::Build(e.to_string()))?;
    let entry_body = lettre::message::Body::new_with_encoding(turn.entry_bytes.clone(), ContentTransferEncoding::Base64)
        .map_err(|_| MailError::Build("cannot encode the entry".into()))?;
    // A fixed boundary derived from the entry keeps messages reproducible; it cannot occur
    // in base64 or in the text (it contains `=_`, which neither produces at a line start).
    let mut mp = MultiPart::mixed()
        .boundary(format!("=_umpire_{}", turn.entry_hash.short(32)))
        .singlepart(SinglePart::plain(turn.text.clone()))
        .singlepart(Attachment::new(turn.entry_name.clone()).body(entry_body, yaml.clone()));
    if let Some((name, bytes)) = &turn.log {
        let body = lettre::message::Body::new_with_encoding(bytes.clone(), ContentTransferEncoding::Base64)
            .map_err(|_| MailError::Build("cannot encode the log".into()))?;
        mp = mp.singlepart(Attachment::new(name.clone()).body(body, yaml.clone()));
    }
    b.multipart(mp).map_err(|e| MailError::Build(e.to_string()))
}

// ---------------------------------------------------------------------------------------
// Transports
// ---------------------------------------------------------------------------------------

/// How the SMTP connection is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Security {
    /// Plain connection upgraded with STARTTLS, which must succeed (port 587).
    StartTls,
    /// TLS from the first byte (port 465).
    Implicit,
    /// No encryption at all: only for loopback tests and local relays, on explicit request.
    Plaintext,
}

/// Everything needed to talk to an SMTP server.
#[derive(Clone)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// Login name; with `password`.
    pub user: Option<String>,
    pub password: Option<String>,
    /// Extra trusted root certificates (PEM), for servers with a private CA.
    pub ca_pem: Option<Vec<u8>>,
    /// For each network operation (resolving, connecting, each read and write).
    pub timeout: Duration,
}

impl std::fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the password.
        f.debug_struct("SmtpSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

/// Resolve with a time limit: `getaddrinfo` has none of its own that we control.
pub(crate) fn resolve(host: &str, port: u16, timeout: Duration) -> Result<Vec<SocketAddr>, MailError> {
    let (tx, rx) = std::sync::mpsc::channel();
    let h = host.to_string();
    std::thread::spawn(move || {
        let _ = tx.send((h.as_str(), port).to_socket_addrs().map(|a| a.collect::<Vec<_>>()));
    });
    match rx.recv_timeout(timeout) {
        Ok(Ok(addrs)) if !addrs.is_empty() => Ok(addrs),
        Ok(Ok(_)) => Err(MailError::Dns { host: host.into(), why: "no address".into() }),
        Ok(Err(e)) => Err(MailError::Dns { host: host.into(), why: e.to_string() }),
        Err(_) => Err(MailError::Dns { host: host.into(), why: format!("no answer within {} s", timeout.as_secs()) }),
    }
}

/// The first `std::io::Error` in an error's chain.
fn io_cause<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a std::io::Error> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            return Some(io);
        }
        cur = err.source();
    }
    None
}

/// The whole chain of an error, as one line.
fn chain_text(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(err) = cur {
        let s = err.to_string();
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
        cur = err.source();
    }
    parts.join(": ")
}

/// Map a lettre error during `phase` to a helpful one.
fn classify(s: &SmtpSettings, phase: &str, e: lettre::transport::smtp::Error) -> MailError {
    let (host, port) = (s.host.clone(), s.port);
    if let Some(io) = io_cause(&e) {
        use std::io::ErrorKind as K;
        match io.kind() {
            K::ConnectionRefused => return MailError::Refused { host, port },
            K::TimedOut | K::WouldBlock => return MailError::Timeout { host, port, phase: phase.into(), secs: s.timeout.as_secs() },
            _ => {}
        }
    }
    // lettre reports a failed handshake during STARTTLS as a network error whose source is
    // the rustls error; anything but a server reply while starting TLS is a TLS failure.
    if e.is_tls() || (phase == "starting TLS" && !e.is_permanent() && !e.is_transient()) {
        return MailError::Tls { host, port, why: chain_text(&e) };
    }
    if e.is_timeout() {
        return MailError::Timeout { host, port, phase: phase.into(), secs: s.timeout.as_secs() };
    }
    // An implicit-TLS client talking to a plaintext server (or the reverse) usually shows up
    // as a garbled response or a closed connection right at the start.
    if phase == "connecting" && s.security == Security::Implicit && (e.is_response() || io_cause(&e).is_some()) {
        return MailError::Tls { host, port, why: chain_text(&e) };
    }
    if phase == "connecting" && io_cause(&e).is_some() && !e.is_response() {
        return MailError::Connect { host, port, why: chain_text(&e) };
    }
    MailError::Smtp { phase: phase.into(), why: chain_text(&e) }
}

/// The server's reply in an error, for the user (`550 5.1.1 no such user`).
fn reply_text(e: &lettre::transport::smtp::Error) -> String {
    chain_text(e)
}

/// Send a message over SMTP. Returns the server's last reply (with its queue id, usually).
///
/// The conversation is driven step by step (connect, STARTTLS, login, MAIL, RCPT, DATA) so
/// that a failure is reported with the step that failed: a refused recipient is not a
/// refused login.
pub fn send_smtp(s: &SmtpSettings, message: &lettre::Message) -> Result<String, MailError> {
    let addrs = resolve(&s.host, s.port, s.timeout)?;
    let tls = || -> Result<TlsParameters, MailError> {
        let mut b = TlsParameters::builder(s.host.clone());
        if let Some(pem) = &s.ca_pem {
            let cert = Certificate::from_pem(pem).map_err(|e| MailError::Tls {
                host: s.host.clone(),
                port: s.port,
                why: format!("the CA file is not a PEM certificate: {e}"),
            })?;
            b = b.add_root_certificate(cert);
        }
        b.build_rustls().map_err(|e| MailError::Tls { host: s.host.clone(), port: s.port, why: chain_text(&e) })
    };
    let hello = ClientId::default();
    let wrapper = if s.security == Security::Implicit { Some(tls()?) } else { None };
    let mut conn = SmtpConnection::connect(addrs.as_slice(), Some(s.timeout), &hello, wrapper.as_ref(), None)
        .map_err(|e| classify(s, "connecting", e))?;
    let result = converse(s, &mut conn, message, &hello, &tls);
    match &result {
        Ok(_) => {
            let _ = conn.quit();
        }
        Err(_) => conn.abort(),
    }
    result
}

fn converse(
    s: &SmtpSettings,
    conn: &mut SmtpConnection,
    message: &lettre::Message,
    hello: &ClientId,
    tls: &dyn Fn() -> Result<TlsParameters, MailError>,
) -> Result<String, MailError> {
    if s.security == Security::StartTls {
        if !conn.can_starttls() {
            return Err(MailError::NoStartTls { host: s.host.clone(), port: s.port });
        }
        conn.starttls(&tls()?, hello).map_err(|e| classify(s, "starting TLS", e))?;
    }
    if let (Some(user), Some(pw)) = (&s.user, &s.password) {
        let mechanisms = [Mechanism::Plain, Mechanism::Login];
        if !mechanisms.iter().any(|m| conn.server_info().supports_auth_mechanism(*m)) {
            let offered = conn.server_info().to_string();
            return Err(MailError::AuthUnsupported { offered });
        }
        conn.auth(&mechanisms, &Credentials::new(user.clone(), pw.clone())).map_err(|e| {
            if e.is_permanent() || e.is_transient() {
                MailError::Auth { user: user.clone(), reply: reply_text(&e) }
            } else {
                classify(s, "logging in", e)
            }
        })?;
    }
    let env = message.envelope();
    let bytes = message.formatted();
    let mut params = Vec::new();
    if !bytes.is_ascii() {
        // Our messages are ASCII (base64 and encoded words); this is for safety only.
        if conn.server_info().supports_feature(Extension::EightBitMime) {
            params.push(MailParameter::Body(MailBodyParameter::EightBitMime));
        }
    }
    let from = env.from().map(|a| a.to_string()).unwrap_or_default();
    let logged_in = s.user.is_some();
    conn.command(Mail::new(env.from().cloned(), params)).map_err(|e| {
        let code = e.status().map(|c| c.to_string()).unwrap_or_default();
        // 530 is "authentication required"; some servers say 503 "bad sequence" for the same.
        if code == "530" || (code == "503" && !logged_in) {
            MailError::AuthRequired { reply: reply_text(&e) }
        } else if e.is_permanent() || e.is_transient() {
            MailError::SenderRejected { from: from.clone(), reply: reply_text(&e) }
        } else {
            classify(s, "sending MAIL FROM", e)
        }
    })?;
    for to in env.to() {
        conn.command(Rcpt::new(to.clone(), vec![])).map_err(|e| {
            if e.status().map(|c| c.to_string().starts_with("530")).unwrap_or(false) {
                MailError::AuthRequired { reply: reply_text(&e) }
            } else if e.is_permanent() || e.is_transient() {
                MailError::RecipientRejected { to: to.to_string(), reply: reply_text(&e) }
            } else {
                classify(s, "sending RCPT TO", e)
            }
        })?;
    }
    conn.command(Data).map_err(|e| {
        if e.is_permanent() || e.is_transient() {
            MailError::MessageRejected { reply: reply_text(&e) }
        } else {
            classify(s, "sending DATA", e)
        }
    })?;
    let reply = conn.message(&bytes).map_err(|e| {
        if e.is_permanent() || e.is_transient() {
            MailError::MessageRejected { reply: reply_text(&e) }
        } else {
            classify(s, "sending the message", e)
        }
    })?;
    Ok(format!("{} {}", reply.code(), reply.message().collect::<Vec<_>>().join(" ")))
}

/// Hand a message to a local `sendmail` program (`-i -f FROM -- TO…`), with a time limit.
pub fn send_sendmail(program: &Path, message: &lettre::Message, timeout: Duration) -> Result<(), MailError> {
    let name = program.display().to_string();
    let err = |why: String| MailError::Sendmail { program: name.clone(), why };
    let env = message.envelope();
    let mut cmd = Command::new(program);
    cmd.arg("-i");
    if let Some(f) = env.from() {
        cmd.arg("-f").arg(f);
    }
    cmd.arg("--");
    for t in env.to() {
        cmd.arg(t);
    }
    let mut child =
        cmd.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().map_err(|e| err(format!("cannot run it: {e}")))?;
    let bytes = message.formatted();
    // Write from a thread: a sendmail that stops reading must not block us past the timeout.
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = (&mut stderr).take(64 * 1024).read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(err(format!("did not finish within {} s; stopped it", timeout.as_secs())));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(err(e.to_string())),
        }
    };
    let wrote = writer.join().unwrap_or_else(|_| Err(std::io::Error::other("writer thread panicked")));
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).trim().to_string();
    if !status.success() {
        return Err(err(format!("exited with {status}{}", if stderr.is_empty() { String::new() } else { format!(": {stderr}") })));
    }
    wrote.map_err(|e| err(format!("could not take the whole message: {e}")))?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Receiving
// ---------------------------------------------------------------------------------------

/// What an input file is, judged by its content (never by its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// An entry file, or entries in log form (`---` lines).
    Entries,
    /// One RFC 5322 message (`.eml`, or a message piped from a mail client).
    Message,
    /// An mbox mailbox (starts with a `From ` line).
    Mbox,
    /// Anything else: searched for entries pasted as text.
    Text,
}

/// Header names that mark the start of an RFC 5322 message.
const MESSAGE_HEADERS: [&str; 10] =
    ["from", "to", "subject", "date", "message-id", "mime-version", "content-type", "received", "return-path", "delivered-to"];

/// Judge an input by its first bytes.
pub fn detect(bytes: &[u8]) -> InputKind {
    let start = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if start.starts_with(b"From ") {
        return InputKind::Mbox;
    }
    if start.starts_with(b"---\n") || start.starts_with(b"---\r\n") || start.starts_with(b"umpire:") {
        return InputKind::Entries;
    }
    // A header block: every line up to the first empty one is `Name: value` or a
    // continuation, and at least one name is a message header.
    let mut known = false;
    for (i, line) in start.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return if known && i > 0 { InputKind::Message } else { InputKind::Text };
        }
        if i > 2000 {
            break;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            if i == 0 {
                return InputKind::Text;
            }
            continue;
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else { return InputKind::Text };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|&b| (33..=126).contains(&b)) {
            return InputKind::Text;
        }
        if MESSAGE_HEADERS.iter().any(|h| name.eq_ignore_ascii_case(h.as_bytes())) {
            known = true;
        }
    }
    // Headers only, no body: still a message if it looked like one.
    if known { InputKind::Message } else { InputKind::Text }
}

/// An entry found in a message, with where it was found.
#[derive(Clone, Debug)]
pub struct FoundEntry {
    pub entry: Entry,
    /// `message 2 ("[umpire] …"), attachment game.log.17.yaml`.
    pub origin: String,
}

/// What a search found: entries (each once, by hash, in the order found) and the things
/// that looked like entries but did not parse.
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub entries: Vec<FoundEntry>,
    pub problems: Vec<String>,
    /// Messages read (1 for a message, N for an mbox).
    pub messages: usize,
}

impl Found {
    fn add(&mut self, entry: Entry, origin: String) {
        if !self.entries.iter().any(|f| f.entry.hash == entry.hash) {
            self.entries.push(FoundEntry { entry, origin });
        }
    }

    fn merge(&mut self, other: Found) {
        for f in other.entries {
            self.add(f.entry, f.origin);
        }
        self.problems.extend(other.problems);
        self.messages += other.messages;
    }

    /// An error when nothing was found; `what` names the input.
    pub fn require_some(self, what: &str) -> Result<Found, MailError> {
        if self.entries.is_empty() {
            return Err(MailError::NoEntries { what: what.to_string(), problems: self.problems });
        }
        Ok(self)
    }
}

/// Find entries in text: each from a line `umpire: entry/2` (or `/1`, to name it) through its `sig: ed25519:` line
/// (CRLF is read as LF). Also finds every entry of a `---`-separated log.
pub fn entries_in_text(bytes: &[u8], origin: &str) -> Found {
    let mut found = Found::default();
    let norm;
    let text: &[u8] = if bytes.contains(&b'\r') {
        norm = bytes
            .iter()
            .enumerate()
            .filter(|&(i, &b)| !(b == b'\r' && bytes.get(i + 1) == Some(&b'\n')))
            .map(|(_, &b)| b)
            .collect::<Vec<u8>>();
        &norm
    } else {
        bytes
    };
    let mut start: Option<usize> = None;
    let mut pos = 0;
    let mut n = 0;
    while pos < text.len() {
        let end = text[pos..].iter().position(|&b| b == b'\n').map(|i| pos + i + 1).unwrap_or(text.len());
        let line = &text[pos..end];
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        if content == b"umpire: entry/2" || content == b"umpire: entry/1" {
            if let Some(s) = start {
                found.problems.push(format!("{origin}: text from offset {s} starts an entry but has no `sig:` line before the next entry"));
            }
            start = Some(pos);
        } else if content.starts_with(b"sig: ed25519:")
            && let Some(s) = start.take()
        {
            n += 1;
            let mut candidate = text[s..pos].to_vec();
            candidate.extend_from_slice(content);
            candidate.push(b'\n');
            match Entry::parse(&candidate) {
                Ok(e) => {
                    let seq = e.seq();
                    found.add(e, format!("{origin} (entry {seq})"));
                }
                Err(e) => found.problems.push(format!("{origin}: entry #{n} found there: {e}")),
            }
        }
        pos = end;
    }
    if let Some(s) = start {
        found.problems.push(format!(
            "{origin}: text from offset {s} starts an entry but ends before its `sig:` line (cut off, or wrapped by the mail program?)"
        ));
    }
    found
}

/// Undo `format=flowed` (RFC 3676): a line ending in a space continues on the next one.
fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for raw in text.split_terminator('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        // Space-stuffing: a leading space was added by the sender.
        let line = line.strip_prefix(' ').unwrap_or(line);
        if line.ends_with(' ') && line != "-- " {
            out.push_str(if delsp { &line[..line.len() - 1] } else { line });
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Find entries in one parsed message, its parts and nested messages.
fn scan_message(msg: &mail_parser::Message<'_>, label: &str, depth: usize, found: &mut Found) {
    use mail_parser::{MimeHeaders, PartType};
    for (i, part) in msg.parts.iter().enumerate() {
        let name = part
            .attachment_name()
            .map(|n| format!("attachment {n}"))
            .unwrap_or_else(|| if i == 0 { "body".to_string() } else { format!("part {i}") });
        let origin = format!("{label}, {name}");
        match &part.body {
            PartType::Text(t) => {
                let ct = part.content_type();
                let flowed = ct.and_then(|c| c.attribute("format")).is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
                if flowed {
                    let delsp = ct.and_then(|c| c.attribute("delsp")).is_some_and(|d| d.eq_ignore_ascii_case("yes"));
                    found.merge(entries_in_text(unflow(t, delsp).as_bytes(), &origin));
                } else {
                    found.merge(entries_in_text(t.as_bytes(), &origin));
                }
            }
            PartType::Binary(b) | PartType::InlineBinary(b) => found.merge(entries_in_text(b, &origin)),
            PartType::Message(inner) if depth < MAX_NESTING => {
                scan_message(inner, &format!("{label}, forwarded message"), depth + 1, found)
            }
            // HTML: the text alternative carries the same words; multipart containers hold
            // nothing themselves.
            _ => {}
        }
    }
}

/// Find the entries in one RFC 5322 message.
pub fn entries_in_message(bytes: &[u8], what: &str) -> Result<Found, MailError> {
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(MailError::TooLarge { what: what.to_string(), size: bytes.len(), limit: MAX_MESSAGE_BYTES });
    }
    let msg = mail_parser::MessageParser::default().parse(bytes).ok_or_else(|| MailError::NotAMessage(what.to_string()))?;
    let label = match msg.subject() {
        Some(s) => format!("{what} ({s:?})"),
        None => what.to_string(),
    };
    let mut found = Found { messages: 1, ..Found::default() };
    scan_message(&msg, &label, 0, &mut found);
    Ok(found)
}

/// Find the entries in every message of an mbox.
pub fn entries_in_mbox(bytes: &[u8], what: &str) -> Result<Found, MailError> {
    if bytes.len() > MAX_MBOX_BYTES {
        return Err(MailError::TooLarge { what: what.to_string(), size: bytes.len(), limit: MAX_MBOX_BYTES });
    }
    let mut found = Found::default();
    for (i, m) in mail_parser::mailbox::mbox::MessageIterator::new(std::io::Cursor::new(bytes)).enumerate() {
        let m = m.map_err(|e| MailError::NotAMessage(format!("{what}: {e}")))?;
        let label = format!("{what} message {}", i + 1);
        match entries_in_message(m.contents(), &label) {
            Ok(f) => found.merge(f),
            Err(e @ MailError::TooLarge { .. }) => return Err(e),
            Err(e) => found.problems.push(e.to_string()),
        }
    }
    Ok(found)
}

/// Read the entries in any input, judged by content. `Entries` inputs are left to the
/// caller (they are parsed as entry files, with their own errors); this returns `None` then.
pub fn entries_in_input(bytes: &[u8], what: &str) -> Result<Option<Found>, MailError> {
    let found = match detect(bytes) {
        InputKind::Entries => return Ok(None),
        InputKind::Message => entries_in_message(bytes, what)?,
        InputKind::Mbox => entries_in_mbox(bytes, what)?,
        InputKind::Text => {
            if bytes.len() > MAX_MESSAGE_BYTES {
                return Err(MailError::TooLarge { what: what.to_string(), size: bytes.len(), limit: MAX_MESSAGE_BYTES });
            }
            entries_in_text(bytes, what)
        }
    };
    found.require_some(what).map(Some)
}

/// Default config file: `$XDG_CONFIG_HOME/umpire/mail.yaml` or `~/.config/umpire/mail.yaml`.
/// The caller passes the two variables (the library reads no environment).
pub fn default_config_path(xdg_config_home: Option<&str>, home: Option<&str>) -> Option<PathBuf> {
    match (xdg_config_home.filter(|s| !s.is_empty()), home.filter(|s| !s.is_empty())) {
        (Some(x), _) => Some(Path::new(x).join("umpire").join("mail.yaml")),
        (None, Some(h)) => Some(Path::new(h).join(".config").join("umpire").join("mail.yaml")),
        _ => None,
    }
}

/// The settings file, `mail.yaml`. Never holds the password itself.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// `Name <addr>` or `addr`.
    pub from: Option<String>,
    pub smtp_host: Option<String>,
    pub smtp_port: Option<u16>,
    pub smtp_user: Option<String>,
    /// `starttls` or `implicit` (default: implicit on port 465, STARTTLS otherwise).
    pub tls: Option<String>,
    /// A command whose first line of output is the password (`pass show mail`), run by `sh -c`.
    pub password_command: Option<String>,
    /// Extra CA certificate (PEM) to trust.
    pub ca_file: Option<PathBuf>,
    /// Seconds for each network operation.
    pub timeout: Option<u64>,
    /// Default recipient.
    pub to: Option<String>,
    /// Use this sendmail program instead of SMTP.
    pub sendmail: Option<PathBuf>,
}

impl MailConfig {
    /// Parse the YAML text of a config file.
    pub fn parse(text: &str) -> Result<MailConfig, String> {
        if text.trim().is_empty() {
            return Ok(MailConfig::default());
        }
        if text.lines().any(|l| l.trim_start().starts_with("password:") || l.trim_start().starts_with("smtp_password:")) {
            return Err("a password may not be written in the config file; use `password_command: \"pass show mail\"` or the UMPIRE_SMTP_PASSWORD variable".into());
        }
        crate::log::yamlscan::from_str(text).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_content() {
        assert_eq!(detect(b"From alice@example.org Mon Nov 23 12:00:00 2026\nFrom: a@b\n\nhi\n"), InputKind::Mbox);
        assert_eq!(detect(b"umpire: entry/2\ngame: x\n"), InputKind::Entries);
        assert_eq!(detect(b"---\numpire: entry/1\n"), InputKind::Entries);
        assert_eq!(detect(b"Return-Path: <a@b>\r\nFrom: a@b\r\nSubject: x\r\n\r\nbody\r\n"), InputKind::Message);
        assert_eq!(detect(b"X-Foo: bar\nX-Bar: baz\n\nbody"), InputKind::Text);
        assert_eq!(detect(b"hello there\numpire: entry/1\n"), InputKind::Text);
    }

    #[test]
    fn unflows() {
        assert_eq!(unflow("a \nb\n", false), "a b\n");
        assert_eq!(unflow("a \nb\n", true), "ab\n");
        assert_eq!(unflow(" From x\n", false), "From x\n");
    }

    #[test]
    fn finds_nothing_in_garbage() {
        let f = entries_in_text(b"umpire: entry/2\nseq: 1\n", "x");
        assert!(f.entries.is_empty());
        assert_eq!(f.problems.len(), 1);
        let f = entries_in_text(b"umpire: entry/2\nseq: 1\nsig: ed25519:AAAA\n", "x");
        assert!(f.entries.is_empty() && f.problems.len() == 1, "{f:?}");
    }

    #[test]
    fn config_refuses_passwords() {
        assert!(MailConfig::parse("smtp_host: h\npassword: x\n").is_err());
        assert!(MailConfig::parse("smtp_hots: h\n").is_err());
        let c = MailConfig::parse("smtp_host: h\nsmtp_port: 587\npassword_command: pass show mail\n").unwrap();
        assert_eq!(c.smtp_port, Some(587));
    }
}
