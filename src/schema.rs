//! JSON Schemas generated from the Rust types (kept current by a test).
