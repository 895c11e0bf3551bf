//! `umpire robot`: watch a mailbox, apply what arrives, answer what needs no decision, and
//! tell the human when a decision is due. The work is done by [`crate::mail::robot`]; this
//! reads the settings, runs `password_command`, reads the clock and prints.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::common::{CliError, fail};
use super::term::{one_line, say, say_err};
use crate::crypto::keys::SecretKey;
use crate::mail::imap::{ImapSettings, ImapSource, ImapTls};
use crate::mail::journal::Journal;
use crate::mail::robot::{Clock, CrashAt, GameSeat, MaildirOutbox, Outbox, Report, Robot, SendmailOutbox, SmtpOutbox};
use crate::mail::source::{MailSource, MaildirSource, MboxSource};
use crate::mail::{Security, SmtpSettings};

/// `umpire robot --help`, after the options: examples, the settings, what it answers.
const ROBOT_HELP: &str = r#"Examples:
  umpire robot --config ~/.config/umpire/robot.yaml              # a pass every 60 s, until stopped
  umpire robot --config robot.yaml --once                         # one pass (cron, or a first try)
  umpire robot --config robot.yaml --notify 'notify-send umpire'  # and a command per decision

The settings (YAML; relative paths are relative to the file, ~/ is your home):
  from: "Bob <bob@example.org>"
  state_dir: ~/.local/state/umpire-robot   # journal, lock (default: robot-state beside it)
  mailbox:                                 # one of imap, maildir, mbox
    imap:
      host: imap.example.org
      port: 993                            # 993: implicit TLS; 143: STARTTLS (no plaintext)
      user: bob@example.org
      password_command: "pass show mail"   # never a password in the file
      folder: INBOX
    # maildir: ~/Maildir
    # mbox: /var/mail/bob
  send:                                    # SMTP as for `umpire mail`, or sendmail, or maildir
    smtp_host: smtp.example.org
    smtp_port: 587
    smtp_user: bob@example.org
    password_command: "pass show mail"
  games:
    - log: ~/games/marne/game.log
      seat: allied
      key: ~/bob.key
      to: ["alice@example.org"]

What it answers on its own (engine::auto): an ack when your next entry only reveals dice and
the rules leave you nothing to decide after the roll, an ack that rolls a leading roll that
cannot lead, and the ack that opens your commitments at the end. Nothing else: orders, draws,
amendments and resignations are yours, and it tells you when one is due. A refused, forged
or foreign entry changes nothing. See docs/robot.md."#;

/// Arguments of `umpire robot`.
#[derive(Debug, clap::Args)]
#[command(after_help = ROBOT_HELP)]
pub struct RobotArgs {
    /// The robot's settings file (default: ~/.config/umpire/robot.yaml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// One pass, then exit (0: done, 1: a pass failed).
    #[arg(long)]
    pub once: bool,
    /// Seconds between passes.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub interval: u64,
    /// Run this command (with `sh -c`) for each decision due; it gets UMPIRE_LOG,
    /// UMPIRE_SEAT, UMPIRE_SEQ and UMPIRE_WHAT in its environment and the line on stdin.
    #[arg(long, value_name = "CMD")]
    pub notify: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ImapConf {
    host: String,
    port: Option<u16>,
    tls: Option<String>,
    user: String,
    password_command: String,
    folder: Option<String>,
    ca_file: Option<String>,
    timeout: Option<u64>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MailboxConf {
    imap: Option<ImapConf>,
    maildir: Option<String>,
    mbox: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SendConf {
    smtp_host: Option<String>,
    smtp_port: Option<u16>,
    smtp_user: Option<String>,
    tls: Option<String>,
    password_command: Option<String>,
    ca_file: Option<String>,
    timeout: Option<u64>,
    sendmail: Option<String>,
    maildir: Option<String>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GameConf {
    log: String,
    seat: String,
    key: String,
    to: Vec<String>,
    /// The seat's own standing instructions (`Ruleset::standing_orders`), never sent.
    #[serde(default)]
    standing: Option<yaml_serde::Value>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RobotConf {
    from: Option<String>,
    state_dir: Option<String>,
    notify: Option<String>,
    max_message_bytes: Option<usize>,
    mailbox: MailboxConf,
    send: SendConf,
    games: Vec<GameConf>,
}

/// Largest settings file read.
const MAX_CONFIG_BYTES: usize = 256 * 1024;

/// `~/x` and relative paths (relative to the config file's folder).
fn path(base: &Path, p: &str) -> PathBuf {
    if let Some(rest) = p.strip_prefix("~/")
        && let Ok(home) = std::env::var("HOME")
    {
        return Path::new(&home).join(rest);
    }
    base.join(p)
}

fn config_path(a: &RobotArgs) -> Result<PathBuf, CliError> {
    if let Some(p) = &a.config {
        return Ok(p.clone());
    }
    let xdg = std::env::var("XDG_CONFIG_HOME").ok().filter(|s| !s.is_empty());
    let home = std::env::var("HOME").ok().filter(|s| !s.is_empty());
    match (xdg, home) {
        (Some(x), _) => Ok(Path::new(&x).join("umpire/robot.yaml")),
        (None, Some(h)) => Ok(Path::new(&h).join(".config/umpire/robot.yaml")),
        _ => Err(CliError::Usage("say where the settings are: --config FILE".into())),
    }
}

fn read_ca(base: &Path, p: &Option<String>) -> Result<Option<Vec<u8>>, CliError> {
    match p {
        Some(p) => Ok(Some(super::common::read_limited(&path(base, p), 4 * 1024 * 1024)?)),
        None => Ok(None),
    }
}

fn source_from(base: &Path, m: &MailboxConf) -> Result<Box<dyn MailSource>, CliError> {
    let n = usize::from(m.imap.is_some()) + usize::from(m.maildir.is_some()) + usize::from(m.mbox.is_some());
    if n != 1 {
        return Err(CliError::Usage("the settings' `mailbox:` names exactly one of imap, maildir, mbox".into()));
    }
    if let Some(d) = &m.maildir {
        return Ok(Box::new(MaildirSource::new(&path(base, d))));
    }
    if let Some(f) = &m.mbox {
        return Ok(Box::new(MboxSource::new(&path(base, f))));
    }
    let i = m.imap.as_ref().ok_or_else(|| CliError::Usage("mailbox: imap".into()))?;
    let tls = match i.tls.as_deref() {
        Some("implicit") | Some("tls") => ImapTls::Implicit,
        Some("starttls") => ImapTls::StartTls,
        Some(other) => {
            return Err(CliError::Usage(format!(
                "mailbox.imap.tls: {other:?}: choose `implicit` (port 993) or `starttls` (port 143); there is no plaintext IMAP"
            )));
        }
        None if i.port == Some(143) => ImapTls::StartTls,
        None => ImapTls::Implicit,
    };
    let port = i.port.unwrap_or(if tls == ImapTls::Implicit { 993 } else { 143 });
    let password = super::mail::password_command(&i.password_command, std::process::Stdio::null())?;
    Ok(Box::new(ImapSource::new(ImapSettings {
        host: i.host.clone(),
        port,
        tls,
        user: i.user.clone(),
        password,
        folder: i.folder.clone().unwrap_or_else(|| "INBOX".into()),
        ca_pem: read_ca(base, &i.ca_file)?,
        timeout: Duration::from_secs(i.timeout.unwrap_or(30).max(1)),
    })))
}

fn outbox_from(base: &Path, s: &SendConf) -> Result<Box<dyn Outbox>, CliError> {
    let timeout = Duration::from_secs(s.timeout.unwrap_or(30).max(1));
    if let Some(d) = &s.maildir {
        return Ok(Box::new(MaildirOutbox { dir: path(base, d) }));
    }
    if let Some(p) = &s.sendmail {
        return Ok(Box::new(SendmailOutbox { program: path(base, p), timeout }));
    }
    let Some(host) = s.smtp_host.clone() else {
        return Err(CliError::Usage("the settings' `send:` names smtp_host (or sendmail, or maildir)".into()));
    };
    let security = match s.tls.as_deref() {
        Some("starttls") => Security::StartTls,
        Some("implicit") | Some("tls") => Security::Implicit,
        Some(other) => return Err(CliError::Usage(format!("send.tls: {other:?}: choose `starttls` or `implicit`"))),
        None if s.smtp_port == Some(465) => Security::Implicit,
        None => Security::StartTls,
    };
    let port = s.smtp_port.unwrap_or(if security == Security::Implicit { 465 } else { 587 });
    let password = match (&s.smtp_user, &s.password_command) {
        (Some(_), Some(cmd)) => Some(super::mail::password_command(cmd, std::process::Stdio::null())?),
        (Some(_), None) => match std::env::var("UMPIRE_SMTP_PASSWORD") {
            Ok(p) => Some(p),
            Err(_) => {
                return fail("send.smtp_user is set but no password: add `password_command` to `send:` (or set UMPIRE_SMTP_PASSWORD)");
            }
        },
        _ => None,
    };
    let ca_pem = read_ca(base, &s.ca_file)?;
    Ok(Box::new(SmtpOutbox(SmtpSettings { host, port, security, user: s.smtp_user.clone(), password, ca_pem, timeout })))
}

fn clock() -> Clock {
    if let Ok(t) = std::env::var("UMPIRE_FIXED_TIME")
        && let Ok(st) = humantime::parse_rfc3339(&t)
    {
        return Clock { time: t, date: st };
    }
    let now = SystemTime::now();
    Clock { time: humantime::format_rfc3339_seconds(now).to_string(), date: now }
}

/// `umpire robot`.
pub fn run(a: RobotArgs) -> Result<i32, CliError> {
    let cfg_path = config_path(&a)?;
    let bytes = super::common::read_limited(&cfg_path, MAX_CONFIG_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| CliError::Other(format!("{}: not UTF-8", cfg_path.display())))?;
    if text.lines().any(|l| {
        let l = l.trim_start().trim_start_matches("- ");
        l.starts_with("password:") || l.starts_with("smtp_password:") || l.starts_with("imap_password:")
    }) {
        return fail(format!(
            "{}: a password may not be written in the settings; use `password_command: \"pass show mail\"`",
            cfg_path.display()
        ));
    }
    let cfg: RobotConf = crate::log::yamlscan::from_str(&text).map_err(|e| CliError::Other(format!("{}: {e}", cfg_path.display())))?;
    let base = cfg_path.parent().map(Path::to_path_buf).unwrap_or_default();
    if cfg.games.is_empty() {
        return Err(CliError::Usage(format!("{}: `games:` lists no game to watch", cfg_path.display())));
    }
    let mut games = Vec::new();
    for g in &cfg.games {
        if g.to.is_empty() {
            return Err(CliError::Usage(format!("{}: game {}: `to:` names nobody to answer", cfg_path.display(), g.log)));
        }
        let key = SecretKey::read_file(&path(&base, &g.key))?;
        games.push(GameSeat { log: path(&base, &g.log), seat: g.seat.clone(), key, to: g.to.clone(), standing: g.standing.clone() });
    }
    // `from:`, else the name of the first game's key when it is an address.
    let key_name = games.first().map(|g| g.key.name.clone()).filter(|n| crate::mail::parse_mailbox("key name", n).is_ok());
    let Some(from) = cfg.from.clone().or(key_name) else {
        return Err(CliError::Usage(format!(
            "{}: say who the robot sends as: `from: \"Name <you@example.org>\"` (or name your key after your address)",
            cfg_path.display()
        )));
    };
    crate::mail::parse_mailbox("from address", &from).map_err(|e| CliError::Usage(e.to_string()))?;
    let state = cfg.state_dir.as_deref().map(|d| path(&base, d)).unwrap_or_else(|| base.join("robot-state"));
    crate::mail::robot::prepare_state_dir(&state).map_err(|e| CliError::Other(format!("{}: {e}", state.display())))?;
    let _lock = crate::mail::robot::lock_state_dir(&state).map_err(CliError::Other)?;
    let journal = Journal::open(&state).map_err(|e| CliError::Other(e.to_string()))?;
    let mut source = source_from(&base, &cfg.mailbox)?;
    let mut outbox = outbox_from(&base, &cfg.send)?;
    let notify = a.notify.clone().or(cfg.notify.clone());
    let crash_at = std::env::var("UMPIRE_ROBOT_CRASH").ok().and_then(|s| CrashAt::parse(&s));
    say!("robot: watching {} for {} game(s); answers go via {}", source.describe(), games.len(), outbox.describe());
    let mut robot = Robot {
        games,
        from,
        max_message_bytes: cfg.max_message_bytes.unwrap_or(crate::mail::MAX_MESSAGE_BYTES),
        journal,
        source: source.as_mut(),
        outbox: outbox.as_mut(),
        crash_at,
    };
    loop {
        let failed = match robot.pass(&clock) {
            Ok(reports) => {
                for r in &reports {
                    say!("robot: {}", one_line(&r.line()));
                    if let (Report::Decision { log, seat, seq, what }, Some(cmd)) = (r, &notify) {
                        run_notify(cmd, log, seat, *seq, what, &r.line());
                    }
                }
                reports.iter().any(|r| matches!(r, Report::Retry { .. }))
            }
            Err(e) => {
                say_err!("umpire robot: {e}");
                true
            }
        };
        if a.once {
            return Ok(i32::from(failed));
        }
        std::thread::sleep(Duration::from_secs(a.interval.max(1)));
    }
}

/// How long a `--notify` command may run: the robot waits for it, and a notifier that hangs
/// (a dialog nobody closes) must not stop the robot answering the other games.
const NOTIFY_TIMEOUT: Duration = Duration::from_secs(30);

/// Waits for `child` up to `limit`; past it the child is killed and `None` returned.
fn wait_at_most(child: &mut std::process::Child, limit: Duration) -> std::io::Result<Option<std::process::ExitStatus>> {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(st) = child.try_wait()? {
            return Ok(Some(st));
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Tell the human through their own command; its failure is reported, never fatal.
fn run_notify(cmd: &str, log: &Path, seat: &str, seq: u64, what: &str, line: &str) {
    use std::io::Write;
    let child = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .env("UMPIRE_LOG", log)
        .env("UMPIRE_SEAT", seat)
        .env("UMPIRE_SEQ", seq.to_string())
        .env("UMPIRE_WHAT", what)
        .stdin(std::process::Stdio::piped())
        .spawn();
    match child {
        Ok(mut c) => {
            if let Some(mut i) = c.stdin.take() {
                let _ = writeln!(i, "{line}");
            }
            match wait_at_most(&mut c, NOTIFY_TIMEOUT) {
                Ok(Some(st)) if st.success() => {}
                Ok(Some(st)) => say_err!("umpire robot: --notify command {cmd:?} exited with {st}"),
                Ok(None) => say_err!(
                    "umpire robot: --notify command {cmd:?} still ran after {} s and was stopped (a notifier should return at once; put a long job in the background with &)",
                    NOTIFY_TIMEOUT.as_secs()
                ),
                Err(e) => say_err!("umpire robot: --notify command {cmd:?}: {e}"),
            }
        }
        Err(e) => say_err!("umpire robot: --notify command {cmd:?}: cannot run it: {e}"),
    }
}

#[cfg(test)]
mod notify_tests {
    use super::*;

    #[test]
    fn a_hanging_notifier_is_stopped_and_reported_as_such() {
        let mut child = std::process::Command::new("sh").arg("-c").arg("sleep 30").spawn().unwrap();
        assert!(wait_at_most(&mut child, Duration::from_millis(100)).unwrap().is_none());
        // Killed and reaped: nothing is left running.
        assert!(child.try_wait().unwrap().is_some());
    }

    #[test]
    fn a_quick_notifier_gives_its_status() {
        let mut child = std::process::Command::new("sh").arg("-c").arg("exit 3").spawn().unwrap();
        let st = wait_at_most(&mut child, Duration::from_secs(30)).unwrap().unwrap();
        assert_eq!(st.code(), Some(3));
    }
}
