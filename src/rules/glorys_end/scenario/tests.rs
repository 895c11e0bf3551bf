use super::*;

#[test]
fn bundled_marne_loads() {
    let s = Scenario::from_text(MARNE_YAML).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    assert_eq!(s.name, "marne");
}
