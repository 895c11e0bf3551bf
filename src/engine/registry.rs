//! The registry of rulesets (enum dispatch).

/// Every ruleset umpire knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulesetId {
    GlorysEnd,
}
