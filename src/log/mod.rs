//! The game log: entry bytes, signing, parsing, the chain, storage (DESIGN §2.2–§2.4).

pub mod entry;
pub mod protocol;
pub mod store;
pub mod stream;
pub mod yamlevents;
pub mod yamlscan;

pub use entry::{Body, Draft, Entry, EntryError, Kind};
