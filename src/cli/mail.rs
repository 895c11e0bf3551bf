//! `umpire mail`: send an entry to the other players by email (SMTP, sendmail, or an `.eml`
//! file). It only reads the log: a send that fails can be retried without anything being
//! appended twice.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::common::{self, CliError, fail};
use super::term::say;
use crate::log::store;
use crate::mail::{self, Addressing, MailConfig, Security, SmtpSettings};

/// Arguments of `umpire mail`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Settings come from ~/.config/umpire/mail.yaml (or --config FILE); flags override them:\n\
  from: \"Alice <alice@example.org>\"\n\
  smtp_host: smtp.example.org\n\
  smtp_port: 587              # 587: STARTTLS; 465: implicit TLS\n\
  smtp_user: alice@example.org\n\
  password_command: \"pass show mail\"   # or the UMPIRE_SMTP_PASSWORD variable; never a password here\n\
See docs/mail.md.")]
pub struct MailArgs {
    /// The game log.
    pub log: PathBuf,
    /// The entry to send: an entry file, or a seq number (default: the newest entry of the log).
    pub entry: Option<String>,
    /// Recipient (repeat for several; default: `to` in the config).
    #[arg(long, value_name = "ADDR")]
    pub to: Vec<String>,
    /// Sender, `Name <addr>` or `addr` (default: `from` in the config, else the name of
    /// --key when it is an address).
    #[arg(long, value_name = "ADDR")]
    pub from: Option<String>,
    /// Your key, when it is named after your address (`umpire key new alice@example.org`):
    /// its name is the sender. Only the name is read.
    #[arg(long, value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// Also attach the whole log (the opponent can catch up from it).
    #[arg(long)]
    pub with_log: bool,
    /// Settings file (default: ~/.config/umpire/mail.yaml).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// SMTP server.
    #[arg(long, value_name = "HOST")]
    pub smtp_host: Option<String>,
    /// SMTP port (default 587, or 465 with --tls implicit).
    #[arg(long, value_name = "PORT")]
    pub smtp_port: Option<u16>,
    /// SMTP login name (the password: UMPIRE_SMTP_PASSWORD, or password_command in the config).
    #[arg(long, value_name = "USER")]
    pub smtp_user: Option<String>,
    /// `starttls` (upgrade a plain connection; must succeed) or `implicit` (TLS from the start).
    #[arg(long, value_name = "MODE")]
    pub tls: Option<String>,
    /// Trust this CA certificate (PEM) too, for a server with a private certificate.
    #[arg(long, value_name = "FILE")]
    pub smtp_ca_file: Option<PathBuf>,
    /// Send over SMTP without any encryption. Only for loopback tests and local relays.
    #[arg(long)]
    pub insecure_plaintext: bool,
    /// Hand the message to a sendmail program instead of SMTP.
    #[arg(long, value_name = "PATH", num_args = 0..=1, default_missing_value = "/usr/sbin/sendmail")]
    pub sendmail: Option<PathBuf>,
    /// Write the message to this .eml file instead of sending it.
    #[arg(long, value_name = "FILE")]
    pub eml_out: Option<PathBuf>,
    /// Seconds allowed for each network operation.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<u64>,
}

/// `umpire mail`.
pub fn run(a: MailArgs) -> Result<i32, CliError> {
    let cfg = load_config(a.config.as_deref())?;
    let entries = store::read_log(&a.log)?;
    let seq = pick_entry(&a, &entries)?;
    // The game as it stood right after that entry: the subject and body describe that moment.
    let game = common::replay_entries(&entries[..=seq as usize], &a.log)?;
    let log_name = a.log.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "game.log".into());
    let log_bytes = if a.with_log { Some(store::join_log(&entries)) } else { None };
    let turn = mail::compose(&game, seq, &log_name, log_bytes);

    let to: Vec<String> = if a.to.is_empty() { cfg.to.iter().cloned().collect() } else { a.to.clone() };
    if to.is_empty() {
        return Err(CliError::Usage("say who gets it: --to ADDRESS (or `to:` in the config file)".into()));
    }
    let Some(from) = a.from.clone().or(cfg.from.clone()).or(key_address(a.key.as_deref())?) else {
        return Err(CliError::Usage(
            "say who sends it: --from ADDRESS, `from:` in ~/.config/umpire/mail.yaml, or --key with a key named after your address (`umpire key new alice@example.org`)".into(),
        ));
    };
    let addressing = Addressing { from, to: to.clone(), date: clock() };
    let message = mail::build_message(&turn, &addressing).map_err(mail_err)?;
    let timeout = Duration::from_secs(a.timeout.or(cfg.timeout).unwrap_or(30).max(1));

    let transports = [a.eml_out.is_some(), a.sendmail.is_some(), a.smtp_host.is_some() || a.insecure_plaintext];
    if transports.iter().filter(|t| **t).count() > 1 {
        return Err(CliError::Usage("choose one way to send: --eml-out FILE, --sendmail [PATH], or SMTP (--smtp-host …)".into()));
    }
    if let Some(out) = &a.eml_out {
        std::fs::write(out, message.formatted()).map_err(|e| CliError::Other(format!("{}: {e}", out.display())))?;
        say!("wrote entry {seq} as a message to {} (subject: {})", out.display(), turn.subject);
        say!("nothing was sent; the log is unchanged");
        return Ok(0);
    }
    let sendmail = a.sendmail.clone().or_else(|| if a.smtp_host.is_none() { cfg.sendmail.clone() } else { None });
    if let Some(program) = sendmail {
        mail::send_sendmail(&program, &message, timeout).map_err(mail_err)?;
        say!("handed entry {seq} to {} for {}", program.display(), to.join(", "));
        say!("subject: {}", turn.subject);
        return Ok(0);
    }
    let Some(host) = a.smtp_host.clone().or(cfg.smtp_host.clone()) else {
        return Err(CliError::Usage(
            "no mail server: give --smtp-host HOST (or smtp_host in ~/.config/umpire/mail.yaml), or --sendmail, or --eml-out FILE to write the message and send it yourself".into(),
        ));
    };
    let security = if a.insecure_plaintext {
        Security::Plaintext
    } else {
        match a.tls.as_deref().or(cfg.tls.as_deref()) {
            Some("starttls") => Security::StartTls,
            Some("implicit") | Some("tls") => Security::Implicit,
            Some(other) => {
                return Err(CliError::Usage(format!(
                    "--tls {other}: choose `starttls` or `implicit` (plaintext only with --insecure-plaintext)"
                )));
            }
            None if a.smtp_port.or(cfg.smtp_port) == Some(465) => Security::Implicit,
            None => Security::StartTls,
        }
    };
    let port = a.smtp_port.or(cfg.smtp_port).unwrap_or(if security == Security::Implicit { 465 } else { 587 });
    let user = a.smtp_user.clone().or(cfg.smtp_user.clone());
    let password = match &user {
        Some(_) => Some(password(&cfg)?),
        None => None,
    };
    let ca_pem = match a.smtp_ca_file.clone().or(cfg.ca_file.clone()) {
        // Bounded, and a regular file (a FIFO here would hang the command).
        Some(p) => Some(super::common::read_limited(&p, MAX_CA_FILE_BYTES).map_err(|e| CliError::Other(format!("CA file: {e}")))?),
        None => None,
    };
    let settings = SmtpSettings { host: host.clone(), port, security, user, password, ca_pem, timeout };
    let reply = mail::send_smtp(&settings, &message).map_err(mail_err)?;
    say!("sent entry {seq} to {} via {host}:{port}{}", to.join(", "), if security == Security::Plaintext { " (unencrypted)" } else { "" });
    say!("subject: {}", turn.subject);
    say!("server: {reply}");
    Ok(0)
}

/// The sender named by a key: its name, when that is an email address.
fn key_address(key: Option<&Path>) -> Result<Option<String>, CliError> {
    let Some(path) = key else { return Ok(None) };
    let key = crate::crypto::keys::SecretKey::read_file(path)?;
    match mail::parse_mailbox("key name", &key.name) {
        Ok(_) => Ok(Some(key.name.clone())),
        Err(_) => Err(CliError::Usage(format!(
            "{}: the key is named {:?}, which is not an email address; give --from ADDRESS (or `from:` in the config)",
            path.display(),
            key.name
        ))),
    }
}

fn mail_err(e: mail::MailError) -> CliError {
    CliError::Other(e.to_string())
}

/// Which entry: a seq number, an entry file (which must be in the log), or the newest.
fn pick_entry(a: &MailArgs, entries: &[crate::log::entry::Entry]) -> Result<u64, CliError> {
    let last = entries.len() as u64 - 1;
    let Some(arg) = &a.entry else { return Ok(last) };
    if !Path::new(arg).exists()
        && let Ok(n) = arg.parse::<u64>()
    {
        if n > last {
            return fail(format!("{}: there is no entry {n}; the log ends at entry {last}", a.log.display()));
        }
        return Ok(n);
    }
    let file = common::read_entry_file(Path::new(arg))?;
    let [entry] = file.as_slice() else {
        return fail(format!("{arg}: holds {} entries; name one entry file (or use --with-log to send the whole log)", file.len()));
    };
    match entries.get(entry.seq() as usize) {
        Some(e) if e.hash == entry.hash => Ok(entry.seq()),
        _ => fail(format!(
            "{arg}: entry {} is not in {}: only entries of the log can be mailed (apply or sign it first)",
            entry.seq(),
            a.log.display()
        )),
    }
}

/// Largest CA certificate file read (a bundle of every public root is about 250 KB).
const MAX_CA_FILE_BYTES: usize = 4 * 1024 * 1024;

/// Largest mail config file read (a real one is a few lines).
const MAX_CONFIG_BYTES: usize = 64 * 1024;

/// The config: --config FILE (must exist), or the default file if there is one.
fn load_config(path: Option<&Path>) -> Result<MailConfig, CliError> {
    let (path, required) = match path {
        Some(p) => (p.to_path_buf(), true),
        None => {
            let xdg = std::env::var("XDG_CONFIG_HOME").ok();
            let home = std::env::var("HOME").ok();
            match mail::default_config_path(xdg.as_deref(), home.as_deref()) {
                Some(p) => (p, false),
                None => return Ok(MailConfig::default()),
            }
        }
    };
    if !required && !path.exists() {
        return Ok(MailConfig::default());
    }
    // A regular file of bounded size (a FIFO or device here would hang the command).
    let bytes = super::common::read_limited(&path, MAX_CONFIG_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|_| CliError::Other(format!("{}: not UTF-8", path.display())))?;
    MailConfig::parse(&text).map_err(|e| CliError::Other(format!("{}: {e}", path.display())))
}

/// The SMTP password: UMPIRE_SMTP_PASSWORD, else the first line of `password_command`.
fn password(cfg: &MailConfig) -> Result<String, CliError> {
    if let Ok(p) = std::env::var("UMPIRE_SMTP_PASSWORD") {
        return Ok(p);
    }
    let Some(cmd) = &cfg.password_command else {
        return fail(
            "a login name is set but no password: set UMPIRE_SMTP_PASSWORD, or `password_command: \"pass show mail\"` in the config file",
        );
    };
    password_command(cmd, std::process::Stdio::inherit())
}

/// Run `password_command` and take the first line it prints. `stdin`: the terminal for
/// `umpire mail` (a password manager may ask), nothing for the unattended robot.
pub fn password_command(cmd: &str, stdin: std::process::Stdio) -> Result<String, CliError> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(stdin)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| CliError::Other(format!("password_command {cmd:?}: cannot run it: {e}")))?;
    if !out.status.success() {
        return fail(format!("password_command {cmd:?} failed ({})", out.status));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or("").to_string();
    if first.is_empty() {
        return fail(format!("password_command {cmd:?} printed no password"));
    }
    Ok(first)
}

/// The message date; `UMPIRE_FIXED_TIME` pins it (tests).
fn clock() -> SystemTime {
    if let Ok(t) = std::env::var("UMPIRE_FIXED_TIME")
        && let Ok(st) = humantime::parse_rfc3339(&t)
    {
        return st;
    }
    SystemTime::now()
}
