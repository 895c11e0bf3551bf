//! The JSON Schemas in `schemas/` are generated from the Rust types; this fails when they
//! are stale. Regenerate with `cargo run -- schema --out schemas`.

#[test]
fn schemas_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let mut stale = Vec::new();
    for (name, text) in umpire::schema::all() {
        let on_disk = std::fs::read_to_string(dir.join(&name)).unwrap_or_default();
        if on_disk != text {
            stale.push(name);
        }
    }
    assert!(stale.is_empty(), "stale schemas {stale:?}: run `cargo run -- schema --out schemas` and commit the result");
}
