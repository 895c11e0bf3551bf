//! Email, for real: `umpire mail` sends over SMTP to a server in this process (mailin-embedded
//! on 127.0.0.1, an ephemeral port; plaintext and STARTTLS), the received bytes are checked
//! header by header and byte for byte, and `umpire apply` takes them on the other player's copy.
//! Also `.eml` files, mbox, pasted entries, standard input, and the error messages.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mail_parser::{MessageParser, MimeHeaders};
use mailin_embedded::{AuthMechanism, Handler, Response, Server, SslConfig, response};

mod support;
use support::{MARNE_NEW, failing, ok, players_with_keys, text, umpire_env, umpire_in};

/// `umpire mail game.log` from bob to `to` through `host` (and `port`), then `rest`.
fn mail_args<'a>(to: &'a str, host: &'a str, port: Option<&'a str>, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["mail", "game.log", "--to", to, "--from", "bob@example.org", "--smtp-host", host];
    if let Some(port) = port {
        args.extend(["--smtp-port", port]);
    }
    args.extend(rest);
    args
}

/// Two players, two directories: keys, genesis (alice, german), join (bob, allied), and the
/// join taken by alice from a mailed `.eml`.
struct Players {
    _t: tempfile::TempDir,
    alice: PathBuf,
    bob: PathBuf,
}

fn started() -> Players {
    let t = tempfile::tempdir().unwrap();
    let (alice, bob) = players_with_keys(t.path());
    ok(&alice, &MARNE_NEW);
    // The genesis goes by mail too; `join` reads its attachment, saved by the player.
    ok(&alice, &["mail", "game.log", "--to", "bob@example.org", "--from", "alice@example.org", "--eml-out", "0.eml"]);
    let eml = std::fs::read(alice.join("0.eml")).unwrap();
    std::fs::write(bob.join("game.log.0.yaml"), attachment(&eml, "game.log.0.yaml")).unwrap();
    ok(&bob, &["join", "game.log.0.yaml", "--as", "allied", "--key", "bob.key", "-o", "game.log"]);
    ok(&bob, &["mail", "game.log", "--to", "alice@example.org", "--from", "bob@example.org", "--eml-out", "1.eml"]);
    std::fs::copy(bob.join("1.eml"), alice.join("1.eml")).unwrap();
    let out = ok(&alice, &["apply", "game.log", "1.eml"]);
    assert!(out.contains("appended 1 entry"), "{out}");
    Players { _t: t, alice, bob }
}

/// The decoded bytes of the named attachment.
fn attachment(eml: &[u8], name: &str) -> Vec<u8> {
    let msg = MessageParser::default().parse(eml).expect("a message");
    let part = msg.attachments().find(|p| p.attachment_name() == Some(name)).unwrap_or_else(|| panic!("no attachment {name}"));
    part.contents().to_vec()
}

fn sign(dir: &Path, seat: &str, key: &str, orders: &str) -> String {
    std::fs::write(dir.join("orders.yaml"), orders).unwrap();
    ok(dir, &["orders", "sign", "game.log", "orders.yaml", "--as", seat, "--key", key])
}

// ---------------------------------------------------------------------------------------
// The in-process SMTP server
// ---------------------------------------------------------------------------------------

/// One message as the server got it.
#[derive(Clone, Debug)]
struct Got {
    from: String,
    to: Vec<String>,
    data: Vec<u8>,
}

#[derive(Clone)]
struct Sink {
    got: Arc<Mutex<Vec<Got>>>,
    reject_rcpt: Option<String>,
    cur: Option<Got>,
}

/// The one account of the test server (offered after STARTTLS only).
const USER: &str = "bob";
const PASSWORD: &str = "correct horse";

impl Handler for Sink {
    fn rcpt(&mut self, to: &str) -> Response {
        if self.reject_rcpt.as_deref() == Some(to) {
            return response::NO_MAILBOX;
        }
        response::OK
    }
    fn data_start(&mut self, _domain: &str, from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.cur = Some(Got { from: from.to_string(), to: to.to_vec(), data: Vec::new() });
        response::OK
    }
    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        if let Some(c) = &mut self.cur {
            c.data.extend_from_slice(buf);
        }
        Ok(())
    }
    fn auth_plain(&mut self, _authz: &str, user: &str, password: &str) -> Response {
        if user == USER && password == PASSWORD { response::AUTH_OK } else { response::INVALID_CREDENTIALS }
    }
    fn data_end(&mut self) -> Response {
        if let Some(c) = self.cur.take() {
            self.got.lock().unwrap().push(c);
        }
        response::OK
    }
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail").join(name).display().to_string()
}

/// Start a server on 127.0.0.1 (ephemeral port) in a background thread; it lives as long as
/// the test process (mailin-embedded has no stop). Returns the port and the inbox.
fn smtp_server(starttls: bool, reject_rcpt: Option<&str>) -> (u16, Arc<Mutex<Vec<Got>>>) {
    // mailin-embedded's rustls brings aws-lc-rs, lettre's brings ring: name one for the process.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let got = Arc::new(Mutex::new(Vec::new()));
    let sink = Sink { got: got.clone(), reject_rcpt: reject_rcpt.map(str::to_string), cur: None };
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut server = Server::new(sink);
    server.with_name("localhost").with_tcp_listener(listener).with_num_threads(2);
    if starttls {
        server
            .with_ssl(SslConfig::SelfSigned { cert_path: fixture("test-cert.pem"), key_path: fixture("test-key.pem") })
            .unwrap()
            .with_auth(AuthMechanism::Plain);
    } else {
        server.with_ssl(SslConfig::None).unwrap();
    }
    std::thread::spawn(move || {
        let _ = server.serve();
    });
    (port, got)
}

fn wait_for(got: &Arc<Mutex<Vec<Got>>>, n: usize) -> Vec<Got> {
    let start = Instant::now();
    while got.lock().unwrap().len() < n {
        assert!(start.elapsed() < Duration::from_secs(20), "the server did not get {n} message(s)");
        std::thread::sleep(Duration::from_millis(10));
    }
    got.lock().unwrap().clone()
}

const ALLIED_MOVE: &str = "actions:\n  - move: {units: [FR-11], path: [3329, 3328]}\n  - end_phase: movement\n  - end_phase: combat\n";

/// Check a received turn message: envelope, headers, body, attachment byte for byte.
fn check_turn_message(got: &Got, sender_dir: &Path, seq: u64) {
    assert_eq!(got.from, "bob@example.org");
    assert_eq!(got.to, vec!["alice@example.org".to_string()]);
    let msg = MessageParser::default().parse(&got.data).expect("a MIME message");
    let subject = msg.subject().unwrap();
    assert!(subject.starts_with(&"[umpire] glorys-end/marne ".to_string()), "{subject}");
    assert!(subject.contains(&format!(" #{seq} allied: Turn 8 (4–6 Sep), German player turn, phase E: operational movement")), "{subject}");
    assert_eq!(msg.from().unwrap().first().unwrap().address(), Some("bob@example.org"));
    assert_eq!(msg.to().unwrap().first().unwrap().address(), Some("alice@example.org"));
    assert_eq!(msg.header_raw("X-Umpire-Seq").map(str::trim), Some(seq.to_string().as_str()));
    assert!(msg.message_id().unwrap().starts_with("umpire."), "{:?}", msg.message_id());
    assert_eq!(msg.date().unwrap().to_rfc3339(), "2026-11-23T12:00:00Z");
    let body = msg.body_text(0).unwrap();
    assert!(body.contains("allied signed entry 2 (orders)"), "{body}");
    assert!(body.contains("FR-11 move 3229 → 3329 → 3328 (2 MP) [GE 12.1]"), "what happened, in words: {body}");
    assert!(body.contains("Waiting for german:"), "what is expected now: {body}");
    assert!(body.contains("umpire apply game.log"), "{body}");
    let name = format!("game.log.{seq}.yaml");
    let part = msg.attachments().find(|p| p.attachment_name() == Some(name.as_str())).expect("the entry attachment");
    let ct = part.content_type().unwrap();
    assert_eq!((ct.ctype(), ct.subtype()), ("application", Some("yaml")));
    assert_eq!(part.contents(), std::fs::read(sender_dir.join(&name)).unwrap().as_slice(), "the attachment is the entry, byte for byte");
}

#[test]
fn smtp_plaintext_send_then_apply() {
    let p = started();
    let (port, got) = smtp_server(false, None);
    sign(&p.bob, "allied", "bob.key", ALLIED_MOVE);
    let log_before = std::fs::read(p.bob.join("game.log")).unwrap();
    let port_s = port.to_string();
    let out = ok(&p.bob, &mail_args("alice@example.org", "127.0.0.1", Some(&port_s), &["--insecure-plaintext", "--timeout", "10"]));
    assert!(out.contains("sent entry 2 to alice@example.org via 127.0.0.1:") && out.contains("(unencrypted)"), "{out}");
    assert_eq!(std::fs::read(p.bob.join("game.log")).unwrap(), log_before, "mail never writes the log");
    let got = wait_for(&got, 1);
    check_turn_message(&got[0], &p.bob, 2);

    // Alice applies the message as it arrived; then the two logs are the same.
    std::fs::write(p.alice.join("turn.eml"), &got[0].data).unwrap();
    let out = ok(&p.alice, &["apply", "game.log", "turn.eml"]);
    assert!(out.contains("entry 2 by allied") && out.contains("appended 1 entry"), "{out}");
    assert_eq!(std::fs::read(p.alice.join("game.log")).unwrap(), std::fs::read(p.bob.join("game.log")).unwrap());
}

#[test]
fn smtp_starttls_with_a_private_ca() {
    let p = started();
    let (port, got) = smtp_server(true, None);
    sign(&p.bob, "allied", "bob.key", ALLIED_MOVE);
    let port_s = port.to_string();
    let base = mail_args("alice@example.org", "127.0.0.1", Some(&port_s), &["--tls", "starttls", "--timeout", "10"]);
    // Without the server's certificate trusted: a TLS error that says what to do.
    let err = failing(&p.bob, &base);
    assert!(err.contains("TLS with 127.0.0.1:") && err.contains("ca_file"), "{err}");
    // With it: sent encrypted.
    let ca = fixture("test-cert.pem");
    let mut args = base.to_vec();
    args.extend(["--smtp-ca-file", ca.as_str()]);
    // Implicit TLS against a STARTTLS port: a TLS error that names the two modes.
    let mut implicit = base.to_vec();
    implicit[11] = "implicit";
    implicit.extend(["--smtp-ca-file", ca.as_str()]);
    let err = failing(&p.bob, &implicit);
    assert!(err.contains("TLS with 127.0.0.1:") && err.contains("--tls implicit"), "{err}");
    // This server wants a login: without one, the error says so.
    let err = failing(&p.bob, &args);
    assert!(err.contains("the mail server wants a login") && err.contains("UMPIRE_SMTP_PASSWORD"), "{err}");
    // The wrong password is refused as a login failure; the right one, from the config's
    // password_command (its first line), sends.
    args.extend(["--smtp-user", USER]);
    let o = umpire_env(&p.bob, &args, None, &[("UMPIRE_SMTP_PASSWORD", "wrong")]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("refused the login of \"bob\"") && text(&o).contains("535"), "{}", text(&o));
    std::fs::write(p.bob.join("mail.yaml"), format!("password_command: \"echo '{PASSWORD}'; echo second line\"\n")).unwrap();
    args.extend(["--config", "mail.yaml"]);
    let out = ok(&p.bob, &args);
    assert!(out.contains("sent entry 2") && !out.contains("unencrypted"), "{out}");
    let got = wait_for(&got, 1);
    check_turn_message(&got[0], &p.bob, 2);
    // A plaintext-only server is refused rather than used in the clear.
    let (plain_port, _) = smtp_server(false, None);
    let plain_s = plain_port.to_string();
    let err = failing(&p.bob, &mail_args("alice@example.org", "127.0.0.1", Some(&plain_s), &["--timeout", "10"]));
    assert!(err.contains("does not offer STARTTLS"), "{err}");
}

/// A Marne turn each way using only `mail` and `apply MESSAGE.eml`; the two logs end identical.
#[test]
fn a_turn_round_trip_by_mail() {
    let p = started();
    let mail = |dir: &Path, to: &str, from: &str, out: &str| ok(dir, &["mail", "game.log", "--to", to, "--from", from, "--eml-out", out]);

    // Bob: move, end of movement, end of the combat phase (no attack): the German turn begins.
    sign(&p.bob, "allied", "bob.key", ALLIED_MOVE);
    let out = mail(&p.bob, "alice@example.org", "bob@example.org", "2.eml");
    assert!(out.contains("nothing was sent; the log is unchanged"), "{out}");
    std::fs::copy(p.bob.join("2.eml"), p.alice.join("2.eml")).unwrap();
    ok(&p.alice, &["apply", "game.log", "2.eml"]);

    // Alice: her turn without moves, with standing instructions for the Allied command roll
    // of 6 (GE 10.1); then it is Turn 9, the Allies again.
    sign(
        &p.alice,
        "german",
        "alice.key",
        "actions:\n  - standing: {out_of_command: [in-contact]}\n  - end_phase: movement\n  - end_phase: combat\n",
    );
    mail(&p.alice, "bob@example.org", "alice@example.org", "3.eml");
    let eml = std::fs::read(p.alice.join("3.eml")).unwrap();
    let subject = MessageParser::default().parse(&eml).unwrap().subject().unwrap().to_string();
    assert!(subject.contains("#3 german: Turn 9 (7–9 Sep), Allied player turn, phase C: command & control"), "{subject}");
    std::fs::copy(p.alice.join("3.eml"), p.bob.join("3.eml")).unwrap();
    let out = ok(&p.bob, &["apply", "game.log", "3.eml"]);
    assert!(out.contains("waiting for allied"), "{out}");

    // Bob's entry opens with his command & control roll (a leading roll, DESIGN §2.5): his
    // tool shows him the die before he writes the rest, and nobody waits for a reveal.
    let st = ok(&p.bob, &["status", "game.log", "--as", "allied", "--key", "bob.key"]);
    assert!(st.contains("opens with a leading roll") && st.contains("d6 rolled"), "{st}");
    sign(&p.bob, "allied", "bob.key", "actions:\n  - end_phase: movement\n");
    mail(&p.bob, "alice@example.org", "bob@example.org", "4.eml");
    let eml = std::fs::read(p.bob.join("4.eml")).unwrap();
    let msg = MessageParser::default().parse(&eml).unwrap();
    let body = msg.body_text(0).unwrap();
    assert!(body.contains("leading roll") && body.contains("d6 rolled"), "the body tells the roll: {body}");
    std::fs::copy(p.bob.join("4.eml"), p.alice.join("4.eml")).unwrap();
    let out = ok(&p.alice, &["apply", "game.log", "4.eml"]);
    assert!(out.contains("d6 rolled"), "{out}");

    assert_eq!(
        std::fs::read(p.alice.join("game.log")).unwrap(),
        std::fs::read(p.bob.join("game.log")).unwrap(),
        "both copies of the log agree"
    );
    let v = ok(&p.bob, &["verify", "game.log"]);
    assert!(v.contains("OK: the log verifies"), "{v}");
}

#[test]
fn mbox_stdin_pasted_and_idempotent() {
    let p = started();
    sign(&p.bob, "allied", "bob.key", "actions:\n  - move: {units: [FR-11], path: [3329, 3328]}\n  - end_phase: movement\n");
    ok(&p.bob, &["mail", "game.log", "--to", "alice@example.org", "--from", "bob@example.org", "--eml-out", "2.eml"]);
    sign(&p.bob, "allied", "bob.key", "actions:\n  - end_phase: combat\n");
    ok(&p.bob, &["mail", "game.log", "--to", "alice@example.org", "--from", "bob@example.org", "--eml-out", "3.eml"]);

    // An mbox with both messages, newest first (as some clients export): applied by seq.
    let mut mbox = Vec::new();
    for name in ["3.eml", "2.eml"] {
        mbox.extend_from_slice(b"From bob@example.org Mon Nov 23 12:00:00 2026\n");
        let eml = std::fs::read(p.bob.join(name)).unwrap();
        mbox.extend(String::from_utf8(eml).unwrap().replace("\r\n", "\n").into_bytes());
        mbox.extend_from_slice(b"\n");
    }
    let alice_start = std::fs::read(p.alice.join("game.log")).unwrap();
    std::fs::write(p.alice.join("inbox.mbox"), &mbox).unwrap();
    let out = ok(&p.alice, &["apply", "game.log", "inbox.mbox"]);
    assert!(out.contains("appended 2 entries"), "{out}");
    assert!(out.find("entry 2 by allied").unwrap() < out.find("entry 3 by allied").unwrap(), "{out}");
    assert_eq!(std::fs::read(p.alice.join("game.log")).unwrap(), std::fs::read(p.bob.join("game.log")).unwrap());

    // Again: nothing appended, and it says which entries it skipped.
    let out = ok(&p.alice, &["apply", "game.log", "inbox.mbox"]);
    assert!(
        out.contains("entry 2 is already in the log; skipped")
            && out.contains("entry 3 is already in the log; skipped")
            && !out.contains("appended"),
        "{out}"
    );

    // The same from standard input, on a fresh copy of alice's log.
    std::fs::write(p.alice.join("game.log"), &alice_start).unwrap();
    let eml2 = std::fs::read(p.bob.join("2.eml")).unwrap();
    let o = umpire_in(&p.alice, &["apply", "game.log", "-"], Some(&eml2));
    assert!(o.status.success() && text(&o).contains("entry 2 by allied"), "{}", text(&o));

    // Entry 3 pasted into a plain message by hand (a mail client that lost the attachment).
    let entry3 = std::fs::read_to_string(p.bob.join("game.log.3.yaml")).unwrap();
    let pasted = format!(
        "From: Bob <bob@example.org>\r\nTo: alice@example.org\r\nSubject: my move\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHi Alice, here it is:\r\n\r\n{}\r\ncheers, Bob\r\n",
        entry3.replace('\n', "\r\n")
    );
    std::fs::write(p.alice.join("pasted.eml"), pasted).unwrap();
    let out = ok(&p.alice, &["apply", "game.log", "pasted.eml"]);
    assert!(out.contains("entry 3 by allied") && out.contains("appended 1 entry"), "{out}");
    assert_eq!(std::fs::read(p.alice.join("game.log")).unwrap(), std::fs::read(p.bob.join("game.log")).unwrap());

    // The whole log attached (--with-log) brings a fresh copy up to date too.
    std::fs::write(p.alice.join("game.log"), &alice_start).unwrap();
    ok(&p.bob, &["mail", "game.log", "2", "--with-log", "--to", "alice@example.org", "--from", "bob@example.org", "--eml-out", "log.eml"]);
    std::fs::copy(p.bob.join("log.eml"), p.alice.join("log.eml")).unwrap();
    let out = ok(&p.alice, &["apply", "game.log", "log.eml"]);
    assert!(out.contains("appended 2 entries"), "{out}");
}

#[test]
fn a_message_without_an_entry_is_an_error() {
    let p = started();
    std::fs::write(p.alice.join("chat.eml"), "From: bob@example.org\nTo: alice@example.org\nSubject: hi\n\nNo move today, sorry.\n")
        .unwrap();
    let err = failing(&p.alice, &["apply", "game.log", "chat.eml"]);
    assert!(err.contains("no umpire entry in chat.eml"), "{err}");
    // A pasted entry cut short by a mail program is named, not silently ignored.
    let entry1 = std::fs::read_to_string(p.bob.join("game.log.1.yaml")).unwrap();
    let cut: String = entry1.lines().take(4).map(|l| format!("{l}\n")).collect();
    std::fs::write(p.alice.join("cut.eml"), format!("From: bob@example.org\nSubject: x\n\n{cut}")).unwrap();
    let err = failing(&p.alice, &["apply", "game.log", "cut.eml"]);
    assert!(err.contains("ends before its `sig:` line"), "{err}");
}

#[test]
fn send_errors_say_what_to_do() {
    let p = started();
    let log_before = std::fs::read(p.bob.join("game.log")).unwrap();
    // Connection refused: a port nobody listens on.
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let port_s = port.to_string();
    let err = failing(&p.bob, &mail_args("alice@example.org", "127.0.0.1", Some(&port_s), &["--insecure-plaintext", "--timeout", "5"]));
    assert!(err.contains("refused the connection") && err.contains("hint:"), "{err}");

    // A host that does not resolve (`.invalid` never does, RFC 2606).
    let err = failing(&p.bob, &mail_args("alice@example.org", "smtp.umpire-test.invalid", None, &["--timeout", "5"]));
    assert!(err.contains("cannot find the mail server \"smtp.umpire-test.invalid\"") && err.contains("DNS"), "{err}");

    // A recipient the server refuses.
    let (port, got) = smtp_server(false, Some("nobody@example.org"));
    let port_s = port.to_string();
    let err = failing(&p.bob, &mail_args("nobody@example.org", "127.0.0.1", Some(&port_s), &["--insecure-plaintext", "--timeout", "5"]));
    assert!(err.contains("refused the recipient \"nobody@example.org\"") && err.contains("550"), "{err}");
    assert!(got.lock().unwrap().is_empty());
    assert_eq!(std::fs::read(p.bob.join("game.log")).unwrap(), log_before, "a failed send leaves the log alone; retrying is safe");

    // No server configured, bad addresses, and a password in the config file.
    let err = umpire_in(&p.bob, &["mail", "game.log", "--to", "alice@example.org", "--from", "bob@example.org"], None);
    assert_eq!(err.status.code(), Some(2));
    assert!(text(&err).contains("--eml-out"), "{}", text(&err));
    let err = failing(&p.bob, &["mail", "game.log", "--to", "not an address", "--from", "bob@example.org", "--eml-out", "x.eml"]);
    assert!(err.contains("is not an email address"), "{err}");
    std::fs::write(p.bob.join("mail.yaml"), "smtp_host: 127.0.0.1\npassword: hunter2\n").unwrap();
    let err = failing(&p.bob, &["mail", "game.log", "--config", "mail.yaml", "--to", "alice@example.org", "--from", "bob@example.org"]);
    assert!(err.contains("password may not be written in the config file"), "{err}");
}

#[test]
fn config_file_and_sendmail() {
    let p = started();
    // A fake sendmail that stores its arguments and the message.
    let script = p.bob.join("fake-sendmail");
    std::fs::write(&script, format!("#!/bin/sh\necho \"$@\" > {0}/args\ncat > {0}/sent.eml\n", p.bob.display())).unwrap();
    let mut perm = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&script, perm).unwrap();
    std::fs::create_dir_all(p.bob.join(".config/umpire")).unwrap();
    std::fs::write(
        p.bob.join(".config/umpire/mail.yaml"),
        format!("from: Bob <bob@example.org>\nto: alice@example.org\nsendmail: {}\n", script.display()),
    )
    .unwrap();
    let out = ok(&p.bob, &["mail", "game.log"]);
    assert!(out.contains("handed entry 1 to"), "{out}");
    assert_eq!(std::fs::read_to_string(p.bob.join("args")).unwrap().trim(), "-i -f bob@example.org -- alice@example.org");
    let sent = std::fs::read(p.bob.join("sent.eml")).unwrap();
    assert_eq!(attachment(&sent, "game.log.1.yaml"), std::fs::read(p.bob.join("game.log.1.yaml")).unwrap());
}

/// Against Debian's aiosmtpd, started by `.ci/run` (`UMPIRE_AIOSMTPD_PORT`, messages stored
/// in `UMPIRE_AIOSMTPD_DIR` as a Maildir; `UMPIRE_AIOSMTPD_TLS=1` when it offers STARTTLS).
/// Run: `cargo test --release --test mail -- --ignored aiosmtpd`.
#[test]
#[ignore]
fn aiosmtpd_send_and_apply() {
    let port = std::env::var("UMPIRE_AIOSMTPD_PORT").expect("UMPIRE_AIOSMTPD_PORT: the port aiosmtpd listens on (see .ci/run)");
    let dir = PathBuf::from(std::env::var("UMPIRE_AIOSMTPD_DIR").expect("UMPIRE_AIOSMTPD_DIR: where aiosmtpd stores messages"));
    let tls = std::env::var("UMPIRE_AIOSMTPD_TLS").is_ok_and(|v| v == "1");
    let p = started();
    sign(&p.bob, "allied", "bob.key", ALLIED_MOVE);
    let ca = fixture("test-cert.pem");
    let mut args = mail_args("alice@example.org", "127.0.0.1", Some(&port), &["--timeout", "10"]);
    if tls {
        args.extend(["--tls", "starttls", "--smtp-ca-file", &ca]);
    } else {
        args.push("--insecure-plaintext");
    }
    let out = ok(&p.bob, &args);
    assert!(out.contains("sent entry 2"), "{out}");
    // Find the stored message (a Maildir: new/ holds one file per message).
    let start = Instant::now();
    let stored = loop {
        let files: Vec<_> =
            ["new", "cur"].iter().flat_map(|d| std::fs::read_dir(dir.join(d)).into_iter().flatten().flatten().map(|e| e.path())).collect();
        let mine =
            files.into_iter().find(|f| std::fs::read(f).map(|b| String::from_utf8_lossy(&b).contains("X-Umpire-Seq: 2")).unwrap_or(false));
        if let Some(f) = mine {
            break f;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "aiosmtpd stored no message in {}", dir.display());
        std::thread::sleep(Duration::from_millis(50));
    };
    let data = std::fs::read(&stored).unwrap();
    check_turn_message(&Got { from: "bob@example.org".into(), to: vec!["alice@example.org".into()], data: data.clone() }, &p.bob, 2);
    std::fs::write(p.alice.join("turn.eml"), &data).unwrap();
    ok(&p.alice, &["apply", "game.log", "turn.eml"]);
    assert_eq!(std::fs::read(p.alice.join("game.log")).unwrap(), std::fs::read(p.bob.join("game.log")).unwrap());
}
