//! `umpire key new|show`.

use std::path::PathBuf;

use super::common::CliError;
use super::term::{one_line, say};
use crate::crypto::keys::{PublicKey, SecretKey};

/// Key commands.
#[derive(Debug, clap::Subcommand)]
pub enum KeyCommand {
    /// Make a key pair: NAME.key (secret, mode 0600) and NAME.pub (give it to the other players).
    New {
        /// Your name, e.g. `alice`.
        name: String,
        /// Directory to write the files in.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Print the name, public key and key id of a key file (secret or public).
    Show {
        /// A `.key` or `.pub` file.
        file: PathBuf,
    },
}

/// Run a key command.
pub fn run(c: KeyCommand) -> Result<i32, CliError> {
    match c {
        KeyCommand::New { name, dir } => {
            if name.is_empty() || name.contains(['/', '\\', '\0']) || name.starts_with('.') {
                return Err(CliError::Usage(format!("{name:?} is not usable as a file name; use letters, digits, - and _")));
            }
            let key = SecretKey::generate(&name);
            let secret = dir.join(format!("{name}.key"));
            let public = dir.join(format!("{name}.pub"));
            if public.exists() {
                return Err(crate::crypto::keys::KeyError::Exists { path: public.display().to_string() }.into());
            }
            key.write_file(&secret)?;
            key.public().write_file(&public)?;
            say!("secret key: {} (mode 0600; keep it, never send it)", secret.display());
            say!("public key: {} (send it to the other players)", public.display());
            say!("key id:     {}", key.public().id());
            Ok(0)
        }
        KeyCommand::Show { file } => {
            let bytes = super::common::read_limited(&file, 64 * 1024)?;
            let text = String::from_utf8(bytes).map_err(|_| CliError::Other(format!("{}: not UTF-8; not a key file", file.display())))?;
            let public = if text.contains("secret-key/1") {
                SecretKey::read_file(&file)?.public()
            } else {
                PublicKey::from_file_text(&text, &file.display().to_string())?
            };
            say!("name:   {}", one_line(&public.name));
            say!("public: {}", public.to_text());
            say!("key id: {}", public.id());
            Ok(0)
        }
    }
}
