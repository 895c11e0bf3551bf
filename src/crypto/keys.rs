//! Ed25519 keys and their files (DESIGN §2.1).
//!
//! Key files are small YAML documents written by the tool. A secret key file is created
//! exclusively with mode 0600 and refused on read (Unix) when any group/other permission
//! bit is set; its `public` must match the seed.

use std::io::Write as _;
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use super::sha256;

const SECRET_TAG: &str = "secret-key/1";
const PUBLIC_TAG: &str = "public-key/1";

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SecretFile {
    umpire: String,
    name: String,
    public: String,
    secret: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PublicFile {
    umpire: String,
    name: String,
    public: String,
}

fn io_err(path: &Path, source: std::io::Error) -> KeyError {
    KeyError::Io { path: path.display().to_string(), source }
}

/// Create `path` exclusively (mode `mode` on Unix) and write `text`, fsynced.
fn write_new(path: &Path, text: &str, mode: u32) -> Result<(), KeyError> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        opts.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    let mut f = opts.open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists { KeyError::Exists { path: path.display().to_string() } } else { io_err(path, e) }
    })?;
    #[cfg(unix)]
    {
        // The umask may have narrowed the mode; make sure it is exactly `mode`.
        use std::os::unix::fs::PermissionsExt as _;
        f.set_permissions(std::fs::Permissions::from_mode(mode)).map_err(|e| io_err(path, e))?;
    }
    f.write_all(text.as_bytes()).map_err(|e| io_err(path, e))?;
    f.sync_all().map_err(|e| io_err(path, e))?;
    Ok(())
}

/// Errors reading, writing or parsing keys.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The secret key file can be read by group or others.
    #[error("{path}: secret key file is readable by others (mode {mode:o}); run `chmod 600 {path}`")]
    Permissions { path: String, mode: u32 },
    /// The file is not a key file of the expected kind.
    #[error("{path}: not an umpire {expected} file: {reason}")]
    Format { path: String, expected: &'static str, reason: String },
    /// A public key text is malformed.
    #[error("bad public key {text:?}: {reason} (want `ed25519:` + base64 of 32 bytes)")]
    BadPublic { text: String, reason: String },
    /// A public key file was given where the secret key file is wanted.
    #[error("{path}: this is a public key; give the secret key file (NAME.key, made with NAME.pub by `umpire key new NAME`)")]
    PublicNotSecret { path: String },
    /// Refusing to overwrite an existing file.
    #[error("{path} already exists; refusing to overwrite a key")]
    Exists { path: String },
}

/// A secret key: a name and a 32-byte Ed25519 seed.
#[derive(Clone)]
pub struct SecretKey {
    /// Human name given at creation.
    pub name: String,
    /// The signing key (holds the seed).
    pub signing: SigningKey,
}

/// A public key with its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKey {
    /// Human name.
    pub name: String,
    /// The verifying key.
    pub key: VerifyingKey,
}

impl SecretKey {
    /// A fresh key from the operating system's randomness.
    ///
    /// Panics only if the operating system has no randomness to give.
    pub fn generate(name: &str) -> SecretKey {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).expect("the operating system's random source failed");
        SecretKey::from_seed(name, seed)
    }
    /// A key from a known 32-byte seed (test vectors, demo with fixed seed).
    pub fn from_seed(name: &str, seed: [u8; 32]) -> SecretKey {
        SecretKey { name: name.to_string(), signing: SigningKey::from_bytes(&seed) }
    }
    /// The 32-byte seed (used in chain, salt, seal and draw derivations).
    pub fn seed(&self) -> [u8; 32] {
        self.signing.to_bytes()
    }
    /// The matching public key.
    pub fn public(&self) -> PublicKey {
        PublicKey { name: self.name.clone(), key: self.signing.verifying_key() }
    }
    /// Ed25519 signature over `msg`.
    pub fn sign(&self, msg: &[u8]) -> Signature {
        self.signing.sign(msg)
    }
    /// The secret key file text (YAML: `umpire: secret-key/1`, name, public, secret).
    pub fn to_file_text(&self) -> String {
        let f = SecretFile {
            umpire: SECRET_TAG.to_string(),
            name: self.name.clone(),
            public: public_text(&self.signing.verifying_key()),
            secret: STANDARD.encode(self.seed()),
        };
        yaml_serde::to_string(&f).expect("serialising a key file cannot fail")
    }
    /// Parse a secret key file text (`path` is only for messages).
    pub fn from_file_text(text: &str, path: &str) -> Result<SecretKey, KeyError> {
        let fmt = |reason: String| KeyError::Format { path: path.to_string(), expected: "secret key", reason };
        let f: SecretFile = crate::log::yamlscan::from_str(text).map_err(|e| fmt(e.to_string()))?;
        if f.umpire != SECRET_TAG {
            return Err(fmt(format!("`umpire: {}` (want `umpire: {SECRET_TAG}`)", f.umpire)));
        }
        let raw = STANDARD.decode(f.secret.trim().as_bytes()).map_err(|e| fmt(format!("secret: {e}")))?;
        let seed: [u8; 32] = raw.try_into().map_err(|v: Vec<u8>| fmt(format!("secret: {} bytes, want 32", v.len())))?;
        let key = SecretKey::from_seed(&f.name, seed);
        let public = parse_public_text(&f.public).map_err(|e| fmt(format!("public: {e}")))?;
        if public != key.signing.verifying_key() {
            return Err(fmt("`public` does not match `secret`".to_string()));
        }
        Ok(key)
    }
    /// Read a secret key file, refusing one readable by group or others (Unix).
    pub fn read_file(path: &Path) -> Result<SecretKey, KeyError> {
        let f = crate::log::store::open_regular(path).map_err(|e| io_err(path, e))?;
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt as _;
            f.metadata().map_err(|e| io_err(path, e))?.permissions().mode() & 0o7777
        };
        let text = read_limited(f, path)?;
        // A public key file given by mistake is readable by everyone, as it should be: say
        // what it is rather than advise `chmod 600` on it.
        if is_public_key_file(&text) {
            return Err(KeyError::PublicNotSecret { path: path.display().to_string() });
        }
        #[cfg(unix)]
        if mode & 0o077 != 0 {
            return Err(KeyError::Permissions { path: path.display().to_string(), mode });
        }
        SecretKey::from_file_text(&text, &path.display().to_string())
    }
    /// Write the secret key file with mode 0600 (created exclusively; never overwrites).
    pub fn write_file(&self, path: &Path) -> Result<(), KeyError> {
        write_new(path, &self.to_file_text(), 0o600)
    }
}

impl PublicKey {
    /// `ed25519:` + standard base64 (padded) of the 32 key bytes.
    pub fn to_text(&self) -> String {
        public_text(&self.key)
    }
    /// Key id: first 16 hex chars of SHA-256 of the 32 public key bytes.
    pub fn id(&self) -> String {
        key_id(&self.key)
    }
    /// The public key file text (YAML: `umpire: public-key/1`, name, public).
    pub fn to_file_text(&self) -> String {
        let f = PublicFile { umpire: PUBLIC_TAG.to_string(), name: self.name.clone(), public: self.to_text() };
        yaml_serde::to_string(&f).expect("serialising a key file cannot fail")
    }
    /// Parse a public key file text.
    pub fn from_file_text(text: &str, path: &str) -> Result<PublicKey, KeyError> {
        let fmt = |reason: String| KeyError::Format { path: path.to_string(), expected: "public key", reason };
        let f: PublicFile = crate::log::yamlscan::from_str(text).map_err(|e| fmt(e.to_string()))?;
        if f.umpire != PUBLIC_TAG {
            return Err(fmt(format!("`umpire: {}` (want `umpire: {PUBLIC_TAG}`)", f.umpire)));
        }
        let key = parse_public_text(&f.public).map_err(|e| fmt(format!("public: {e}")))?;
        Ok(PublicKey { name: f.name, key })
    }
    /// Read a public key file.
    pub fn read_file(path: &Path) -> Result<PublicKey, KeyError> {
        let f = crate::log::store::open_regular(path).map_err(|e| io_err(path, e))?;
        let text = read_limited(f, path)?;
        PublicKey::from_file_text(&text, &path.display().to_string())
    }
    /// Write the public key file (never overwrites).
    pub fn write_file(&self, path: &Path) -> Result<(), KeyError> {
        write_new(path, &self.to_file_text(), 0o644)
    }
    /// Verify with `verify_strict`.
    pub fn verify(&self, msg: &[u8], sig: &Signature) -> bool {
        verify_strict(&self.key, msg, sig)
    }
}

/// `ed25519:` + base64 of the key bytes.
pub fn public_text(key: &VerifyingKey) -> String {
    format!("ed25519:{}", STANDARD.encode(key.as_bytes()))
}

/// Does this text look like a public key file (`umpire: public-key/1` at the top level)?
/// A line check, not a parse: it only chooses the message for a file that is refused anyway.
fn is_public_key_file(text: &str) -> bool {
    text.lines().any(|l| l.strip_prefix("umpire:").is_some_and(|v| v.trim().trim_matches(|c| c == '"' || c == '\'') == PUBLIC_TAG))
}

/// Key files are tiny; refuse to read more than this.
const MAX_KEY_FILE_BYTES: u64 = 64 * 1024;

fn read_limited(f: std::fs::File, path: &Path) -> Result<String, KeyError> {
    use std::io::Read as _;
    let mut buf = Vec::new();
    f.take(MAX_KEY_FILE_BYTES + 1).read_to_end(&mut buf).map_err(|e| io_err(path, e))?;
    if buf.len() as u64 > MAX_KEY_FILE_BYTES {
        return Err(KeyError::Format {
            path: path.display().to_string(),
            expected: "key",
            reason: format!("file is larger than {MAX_KEY_FILE_BYTES} bytes"),
        });
    }
    String::from_utf8(buf).map_err(|_| KeyError::Format {
        path: path.display().to_string(),
        expected: "key",
        reason: "not UTF-8".to_string(),
    })
}

/// Parse `ed25519:<base64>` into a key (rejects weak/invalid points).
pub fn parse_public_text(text: &str) -> Result<VerifyingKey, KeyError> {
    let bad = |reason: &str| KeyError::BadPublic { text: text.chars().take(100).collect(), reason: reason.to_string() };
    let b64 = text.strip_prefix("ed25519:").ok_or_else(|| bad("missing `ed25519:` prefix"))?;
    let raw = STANDARD.decode(b64.as_bytes()).map_err(|e| bad(&format!("not base64: {e}")))?;
    let bytes: [u8; 32] = raw.try_into().map_err(|v: Vec<u8>| bad(&format!("{} bytes, want 32", v.len())))?;
    // One spelling only: re-encoding must give the same text (no non-canonical base64).
    if STANDARD.encode(bytes) != b64 {
        return Err(bad("non-canonical base64"));
    }
    let key = VerifyingKey::from_bytes(&bytes).map_err(|_| bad("not a valid Ed25519 point"))?;
    if key.is_weak() {
        return Err(bad("weak (small-order) key"));
    }
    // One encoding per point: refuse non-canonical encodings (y ≥ p, or x = 0 with the
    // sign bit set).
    if key.to_edwards().compress().to_bytes() != bytes {
        return Err(bad("non-canonical point encoding"));
    }
    Ok(key)
}

/// First 16 hex chars of SHA-256 of the 32 public key bytes.
pub fn key_id(key: &VerifyingKey) -> String {
    sha256(key.as_bytes()).to_hex()[..16].to_string()
}

/// `verify_strict` (rejects malleable and small-order signatures).
pub fn verify_strict(key: &VerifyingKey, msg: &[u8], sig: &Signature) -> bool {
    key.verify_strict(msg, sig).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_text_and_id() {
        let k = SecretKey::from_seed("alice", [1; 32]);
        let p = k.public();
        let t = p.to_text();
        assert!(t.starts_with("ed25519:"));
        assert_eq!(t.len(), 8 + 44);
        assert_eq!(parse_public_text(&t).unwrap(), p.key);
        assert_eq!(p.id(), sha256(p.key.as_bytes()).to_hex()[..16]);
        assert_eq!(p.id().len(), 16);
    }

    #[test]
    fn bad_public_texts() {
        for t in ["", "ed25519:", "ed25519:AAAA", "x25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "ed25519:!!!!"] {
            assert!(matches!(parse_public_text(t), Err(KeyError::BadPublic { .. })), "{t}");
        }
        // Identity point: weak.
        let mut id = [0u8; 32];
        id[0] = 1;
        let t = format!("ed25519:{}", STANDARD.encode(id));
        assert!(matches!(parse_public_text(&t), Err(KeyError::BadPublic { .. })));
        // A y >= p encoding (y = p + 1, a second spelling of y = 1) is refused.
        let mut noncanon = [0xffu8; 32];
        noncanon[0] = 0xee; // y = p + ... (>= p), sign bit clear
        noncanon[31] = 0x7f;
        let t = format!("ed25519:{}", STANDARD.encode(noncanon));
        assert!(parse_public_text(&t).is_err());
        // Unpadded base64 refused.
        let good = SecretKey::from_seed("a", [1; 32]).public().to_text();
        assert!(parse_public_text(good.trim_end_matches('=')).is_err());
    }

    #[test]
    fn sign_verify() {
        let k = SecretKey::from_seed("alice", [1; 32]);
        let s = k.sign(b"hello");
        assert!(k.public().verify(b"hello", &s));
        assert!(!k.public().verify(b"hellp", &s));
        assert!(!SecretKey::from_seed("b", [2; 32]).public().verify(b"hello", &s));
    }

    #[test]
    fn file_round_trips() {
        let k = SecretKey::from_seed("Alice Smith: the \"general\"", [1; 32]);
        let t = k.to_file_text();
        assert!(t.starts_with("umpire: secret-key/1\n"), "{t}");
        let k2 = SecretKey::from_file_text(&t, "x").unwrap();
        assert_eq!(k2.seed(), k.seed());
        assert_eq!(k2.name, k.name);
        let p = k.public();
        let pt = p.to_file_text();
        assert!(pt.starts_with("umpire: public-key/1\n"));
        assert_eq!(PublicKey::from_file_text(&pt, "x").unwrap(), p);
        // A public file is not a secret file and vice versa.
        assert!(matches!(SecretKey::from_file_text(&pt, "x"), Err(KeyError::Format { .. })));
        assert!(matches!(PublicKey::from_file_text(&t, "x"), Err(KeyError::Format { .. })));
    }

    #[test]
    fn file_format_errors() {
        let k = SecretKey::from_seed("a", [1; 32]);
        let other = SecretKey::from_seed("a", [2; 32]);
        let mismatched = k.to_file_text().replace(&k.public().to_text(), &other.public().to_text());
        for t in [
            "".to_string(),
            "- a\n".to_string(),
            "umpire: secret-key/2\nname: a\npublic: x\nsecret: y\n".to_string(),
            mismatched,
            k.to_file_text() + "extra: 1\n",
            k.to_file_text().replace(&STANDARD.encode([1u8; 32]), "AAAA"),
        ] {
            assert!(matches!(SecretKey::from_file_text(&t, "f"), Err(KeyError::Format { .. })), "{t}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn key_files_on_disk() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let k = SecretKey::from_seed("alice", [1; 32]);
        let path = dir.path().join("alice.key");
        k.write_file(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(SecretKey::read_file(&path).unwrap().seed(), [1; 32]);
        // Never overwrite.
        assert!(matches!(k.write_file(&path), Err(KeyError::Exists { .. })));
        // Refuse group/other permission bits.
        for m in [0o640, 0o604, 0o610, 0o601, 0o660] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(m)).unwrap();
            match SecretKey::read_file(&path) {
                Err(e @ KeyError::Permissions { .. }) => assert!(e.to_string().contains("chmod 600")),
                other => panic!("mode {m:o}: {:?}", other.map(|k| k.name)),
            }
        }
        let pp = dir.path().join("alice.pub");
        k.public().write_file(&pp).unwrap();
        assert_eq!(PublicKey::read_file(&pp).unwrap(), k.public());
        assert!(matches!(k.public().write_file(&pp), Err(KeyError::Exists { .. })));
        assert!(matches!(SecretKey::read_file(&dir.path().join("none")), Err(KeyError::Io { .. })));
    }
}
