//! `umpire schema`: write the JSON Schemas.

use std::path::PathBuf;

use super::common::CliError;
use super::term::say;

/// Arguments of `umpire schema`.
#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// Directory to write the schemas into.
    #[arg(long, default_value = "schemas")]
    pub out: PathBuf,
}

/// `umpire schema`.
pub fn run(a: SchemaArgs) -> Result<i32, CliError> {
    std::fs::create_dir_all(&a.out).map_err(|e| CliError::Other(format!("{}: {e}", a.out.display())))?;
    for (name, text) in crate::schema::all() {
        let p = a.out.join(name);
        std::fs::write(&p, text).map_err(|e| CliError::Other(format!("{}: {e}", p.display())))?;
        say!("wrote {}", p.display());
    }
    Ok(0)
}
