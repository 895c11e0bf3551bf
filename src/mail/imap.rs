//! An IMAP folder as a [`MailSource`]: the `imap` crate speaks the protocol, over a rustls
//! stream we build ourselves (ring, Mozilla's roots from webpki-roots, plus an optional
//! private CA), so the robot uses the same TLS as `umpire mail` and no OpenSSL.
//!
//! TLS is always on: implicit TLS (port 993) or STARTTLS, which must succeed before the
//! password is sent. The folder is opened with EXAMINE (read-only) and messages are
//! fetched with `BODY.PEEK[]`, so the robot never marks, moves or deletes anything.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::Duration;

use super::MailError;
use super::source::{MailSource, MessageRef};

/// How the connection is protected (there is no plaintext mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImapTls {
    /// TLS from the first byte (port 993).
    Implicit,
    /// Plain connection upgraded with STARTTLS, which must be offered and succeed (port 143).
    StartTls,
}

/// Everything needed to read one IMAP folder.
#[derive(Clone)]
pub struct ImapSettings {
    pub host: String,
    pub port: u16,
    pub tls: ImapTls,
    pub user: String,
    /// From `password_command`, run by the command line; never stored.
    pub password: String,
    /// The folder to watch (`INBOX`).
    pub folder: String,
    /// Extra trusted root certificates (PEM), for a server with a private CA.
    pub ca_pem: Option<Vec<u8>>,
    /// For connecting and for each read and write.
    pub timeout: Duration,
}

impl std::fmt::Debug for ImapSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the password.
        f.debug_struct("ImapSettings")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("user", &self.user)
            .field("folder", &self.folder)
            .finish_non_exhaustive()
    }
}

type Tls = rustls::StreamOwned<rustls::ClientConnection, TcpStream>;

/// An IMAP folder, connected on first use and again after any failure.
pub struct ImapSource {
    s: ImapSettings,
    session: Option<imap::Session<Tls>>,
    uidvalidity: u32,
}

impl ImapSource {
    pub fn new(s: ImapSettings) -> ImapSource {
        ImapSource { s, session: None, uidvalidity: 0 }
    }

    fn server(&self) -> String {
        format!("{}@{}:{}", self.s.user, self.s.host, self.s.port)
    }

    fn err(&self, why: impl std::fmt::Display, hint: &str) -> MailError {
        MailError::Imap { server: self.server(), why: why.to_string(), hint: hint.to_string() }
    }

    fn tls_config(&self) -> Result<rustls::ClientConfig, MailError> {
        let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
        if let Some(pem) = &self.s.ca_pem {
            use rustls::pki_types::CertificateDer;
            use rustls::pki_types::pem::PemObject;
            let mut n = 0;
            for c in CertificateDer::pem_slice_iter(pem) {
                let c = c.map_err(|e| self.err(format!("the CA file is not PEM: {e}"), "ca_file names a PEM certificate file"))?;
                roots
                    .add(c)
                    .map_err(|e| self.err(format!("the CA file holds an unusable certificate: {e}"), "ca_file names a CA certificate"))?;
                n += 1;
            }
            if n == 0 {
                return Err(self.err("the CA file holds no certificate", "ca_file names a PEM file with `BEGIN CERTIFICATE`"));
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| self.err(e, "a TLS setup problem"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(config)
    }

    /// Wrap `tcp` in TLS and finish the handshake now, so a bad certificate is reported as
    /// such rather than as a failed read later.
    fn handshake(&self, mut tcp: TcpStream) -> Result<Tls, MailError> {
        let name = rustls::pki_types::ServerName::try_from(self.s.host.clone())
            .map_err(|e| self.err(format!("{e}"), "host must be a host name or an IP address"))?;
        let mut conn = rustls::ClientConnection::new(Arc::new(self.tls_config()?), name)
            .map_err(|e| self.err(format!("TLS: {e}"), "a TLS setup problem"))?;
        while conn.is_handshaking() {
            conn.complete_io(&mut tcp).map_err(|e| {
                self.err(
                    format!("TLS handshake failed: {e}"),
                    "port 993 wants `tls: implicit`, port 143 wants `tls: starttls`; a server with a private certificate needs its CA in `ca_file`",
                )
            })?;
        }
        Ok(rustls::StreamOwned::new(conn, tcp))
    }

    /// The one command sent without the crate: it keeps STARTTLS behind its own TLS features
    /// (native-tls, or rustls-connector with no way to add a private CA), so we ask for the
    /// upgrade ourselves and hand the crate the TLS stream. Read byte by byte: nothing past
    /// the tagged reply may be consumed before the handshake.
    fn starttls(&self, tcp: &mut TcpStream) -> Result<(), MailError> {
        let io = |e: std::io::Error| self.err(format!("STARTTLS: {e}"), "a network problem");
        tcp.write_all(b"u0 STARTTLS\r\n").map_err(io)?;
        tcp.flush().map_err(io)?;
        loop {
            let mut line = Vec::new();
            let mut b = [0u8; 1];
            while !line.ends_with(b"\n") {
                if line.len() > 8192 {
                    return Err(self.err("STARTTLS: the server's reply line is too long", "is this an IMAP server?"));
                }
                let n = tcp.read(&mut b).map_err(io)?;
                if n == 0 {
                    return Err(self.err("STARTTLS: the server closed the connection", "use port 993 with `tls: implicit`"));
                }
                line.push(b[0]);
            }
            if line.starts_with(b"* ") {
                continue;
            }
            if line.starts_with(b"u0 OK") || line.starts_with(b"u0 ok") {
                return Ok(());
            }
            let text = String::from_utf8_lossy(&line).trim().to_string();
            return Err(self.err(
                format!("the server refused STARTTLS ({text}), and umpire will not send your password in the clear"),
                "use port 993 with `tls: implicit`",
            ));
        }
    }

    fn connect(&mut self) -> Result<(), MailError> {
        let addrs = super::resolve(&self.s.host, self.s.port, self.s.timeout)?;
        let mut last = None;
        let mut tcp = None;
        for a in &addrs {
            match TcpStream::connect_timeout(a, self.s.timeout) {
                Ok(t) => {
                    tcp = Some(t);
                    break;
                }
                Err(e) => last = Some(e),
            }
        }
        let Some(tcp) = tcp else {
            let why = last.map(|e| e.to_string()).unwrap_or_else(|| "no address".into());
            return Err(self.err(
                format!("cannot connect: {why}"),
                "check host and port (993 for implicit TLS, 143 for STARTTLS) and that the server runs",
            ));
        };
        let io = |e: std::io::Error| self.err(e, "a network problem");
        tcp.set_read_timeout(Some(self.s.timeout)).map_err(io)?;
        tcp.set_write_timeout(Some(self.s.timeout)).map_err(io)?;
        let proto = |e: imap::Error| self.err(e, "the server did not answer as an IMAP server; check the port and the TLS mode");
        let client = match self.s.tls {
            ImapTls::Implicit => {
                let mut c = imap::Client::new(self.handshake(tcp)?);
                c.read_greeting().map_err(proto)?;
                c
            }
            ImapTls::StartTls => {
                let mut plain = imap::Client::new(tcp);
                plain.read_greeting().map_err(proto)?;
                let caps = plain.capabilities().map_err(proto)?;
                if !caps.has_str("STARTTLS") {
                    return Err(self.err(
                        "the server does not offer STARTTLS, and umpire will not send your password in the clear",
                        "use port 993 with `tls: implicit`",
                    ));
                }
                let mut tcp = plain.into_inner().map_err(proto)?;
                self.starttls(&mut tcp)?;
                let mut c = imap::Client::new(self.handshake(tcp)?);
                // The greeting came before STARTTLS; none follows the handshake.
                c.greeting_read = true;
                c
            }
        };
        let session = client.login(&self.s.user, &self.s.password).map_err(|(e, _)| {
            self.err(format!("login refused: {e}"), "check `user` and what `password_command` prints (many providers want an app password)")
        })?;
        self.session = Some(session);
        Ok(())
    }

    fn with_session<T>(&mut self, f: impl FnOnce(&mut imap::Session<Tls>, &ImapSettings) -> imap::Result<T>) -> Result<T, MailError> {
        if self.session.is_none() {
            self.connect()?;
        }
        let s = self.s.clone();
        let session = self.session.as_mut().ok_or_else(|| MailError::Imap {
            server: String::new(),
            why: "not connected".into(),
            hint: String::new(),
        })?;
        match f(session, &s) {
            Ok(v) => Ok(v),
            Err(e) => {
                // Whatever went wrong, start from a fresh connection next time.
                self.session = None;
                Err(self.err(e, "the robot reconnects at its next pass"))
            }
        }
    }
}

impl MailSource for ImapSource {
    fn describe(&self) -> String {
        format!("IMAP {}/{}", self.server(), self.s.folder)
    }

    fn list(&mut self) -> Result<Vec<MessageRef>, MailError> {
        let (validity, refs) = self.with_session(|sess, s| {
            // EXAMINE again at every pass: it is read-only and brings the new messages in.
            let mb = sess.examine(&s.folder)?;
            let validity = mb.uid_validity.unwrap_or(0);
            if mb.exists == 0 {
                return Ok((validity, Vec::new()));
            }
            let fetches = sess.uid_fetch("1:*", "(UID RFC822.SIZE)")?;
            let mut refs: Vec<(u32, Option<u64>)> = fetches.iter().filter_map(|f| f.uid.map(|u| (u, f.size.map(u64::from)))).collect();
            refs.sort();
            Ok((validity, refs))
        })?;
        self.uidvalidity = validity;
        Ok(refs.into_iter().map(|(uid, size)| MessageRef { id: format!("imap:{}:{validity}:{uid}", self.s.folder), size }).collect())
    }

    fn fetch(&mut self, msg: &MessageRef, limit: usize) -> Result<Vec<u8>, MailError> {
        if let Some(size) = msg.size
            && size > limit as u64
        {
            return Err(MailError::TooLarge { what: format!("{} message {}", self.describe(), msg.id), size: size as usize, limit });
        }
        let uid = msg
            .id
            .rsplit(':')
            .next()
            .and_then(|u| u.parse::<u32>().ok())
            .ok_or_else(|| self.err(format!("bad message id {}", msg.id), "a bug"))?;
        let body = self.with_session(|sess, _| {
            let f = sess.uid_fetch(uid.to_string(), "BODY.PEEK[]")?;
            Ok(f.iter().find(|x| x.uid == Some(uid)).and_then(|x| x.body().map(<[u8]>::to_vec)))
        })?;
        let body = body.ok_or_else(|| self.err(format!("message {uid} is gone"), "it was deleted meanwhile; nothing to do"))?;
        if body.len() > limit {
            return Err(MailError::TooLarge { what: format!("{} message {}", self.describe(), msg.id), size: body.len(), limit });
        }
        Ok(body)
    }
}

impl Drop for ImapSource {
    fn drop(&mut self) {
        if let Some(mut s) = self.session.take() {
            let _ = s.logout();
        }
    }
}

// The stream type must be usable by the imap crate.
const _: fn() = || {
    fn is_rw<T: Read + Write>() {}
    is_rw::<Tls>();
};
