//! The combat results tables (RTL-10.5, 10.6, 11.1; digest E.1–E.3) as data
//! (`data/crt.yaml`), the odds column (RTL-10.52, 10.53) and the result codes (RTL-11.11).

use std::sync::OnceLock;

use serde::Deserialize;

/// The bundled tables.
pub const CRT_YAML: &str = include_str!("data/crt.yaml");

/// Which table a combat uses (RTL-10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    Assault,
    Mobile,
}

impl Table {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Table::Assault => "Assault",
            Table::Mobile => "Mobile",
        }
    }
}

#[derive(Deserialize)]
struct RawTable {
    columns: Vec<String>,
    below: String,
    rows: Vec<Vec<String>>,
}

#[derive(Deserialize)]
struct RawCrts {
    version: String,
    assault: RawTable,
    mobile: RawTable,
}

/// One table: its columns as (attack, defence) ratios and its 12 rows.
pub struct Crt {
    pub columns: Vec<(u32, u32)>,
    pub labels: Vec<String>,
    pub below: Outcome,
    pub rows: Vec<Vec<Outcome>>,
}

/// Both tables.
pub struct Crts {
    pub version: String,
    pub assault: Crt,
    pub mobile: Crt,
}

/// A result cell (RTL-11.11): what each side loses and suffers.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Outcome {
    pub text: String,
    /// Attacker steps lost.
    pub a_steps: u32,
    pub a_retreat: bool,
    pub a_disrupt: bool,
    pub d_steps: u32,
    pub d_retreat: bool,
    pub d_disrupt: bool,
    /// E: every defending unit eliminated.
    pub d_eliminated: bool,
}

/// Read one result code such as `A1 D3R`, `A2Rd`, `DE`, `DRd`.
pub fn parse_outcome(text: &str) -> Option<Outcome> {
    let mut o = Outcome { text: text.to_string(), ..Outcome::default() };
    for part in text.split_whitespace() {
        let mut chars = part.chars();
        let who = chars.next()?;
        let rest: String = chars.collect();
        let (steps, retreat, disrupt, elim) = match rest.as_str() {
            "E" => (0, false, false, true),
            r => {
                let digits: String = r.chars().take_while(|c| c.is_ascii_digit()).collect();
                let tail = &r[digits.len()..];
                let steps = if digits.is_empty() { 0 } else { digits.parse().ok()? };
                match tail {
                    "" => (steps, false, false, false),
                    "R" => (steps, true, false, false),
                    "Rd" => (steps, true, true, false),
                    "d" => (steps, false, true, false),
                    _ => return None,
                }
            }
        };
        match who {
            'A' if !elim => {
                o.a_steps = steps;
                o.a_retreat = retreat;
                o.a_disrupt = disrupt;
            }
            'D' => {
                o.d_steps = steps;
                o.d_retreat = retreat;
                o.d_disrupt = disrupt;
                o.d_eliminated = elim;
            }
            _ => return None,
        }
    }
    Some(o)
}

fn build(raw: RawTable) -> Result<Crt, String> {
    let mut columns = Vec::new();
    for c in &raw.columns {
        let (a, d) = c.split_once('-').ok_or(format!("column {c:?}"))?;
        columns.push((a.parse().map_err(|_| format!("column {c:?}"))?, d.parse().map_err(|_| format!("column {c:?}"))?));
    }
    if raw.rows.len() != 12 {
        return Err("a CRT has 12 rows: 0 or less, 1 to 10, 11 or more".into());
    }
    let mut rows = Vec::new();
    for r in &raw.rows {
        if r.len() != columns.len() {
            return Err(format!("a row has {} cells for {} columns", r.len(), columns.len()));
        }
        rows.push(r.iter().map(|t| parse_outcome(t).ok_or(format!("result {t:?}"))).collect::<Result<Vec<_>, _>>()?);
    }
    Ok(Crt { columns, labels: raw.columns, below: parse_outcome(&raw.below).ok_or("below")?, rows })
}

/// The bundled tables, read once. The file is part of the program: a broken copy is a
/// build defect the unit tests catch, so this never fails at play time.
pub fn crts() -> &'static Crts {
    static C: OnceLock<Crts> = OnceLock::new();
    C.get_or_init(|| {
        let raw: RawCrts = yaml_serde::from_str(CRT_YAML).unwrap_or_else(|e| panic!("data/crt.yaml: {e}"));
        Crts {
            version: raw.version,
            assault: build(raw.assault).unwrap_or_else(|e| panic!("data/crt.yaml assault: {e}")),
            mobile: build(raw.mobile).unwrap_or_else(|e| panic!("data/crt.yaml mobile: {e}")),
        }
    })
}

impl Crts {
    /// One table.
    pub fn table(&self, t: Table) -> &Crt {
        match t {
            Table::Assault => &self.assault,
            Table::Mobile => &self.mobile,
        }
    }
}

impl Crt {
    /// The column for `att` against `dfn` (RTL-10.52): the highest ratio not above the true
    /// one, in integers (a/d ≤ att/dfn ⇔ a·dfn ≤ att·d); odds above the last column use it
    /// (10.53b/c); `None` below the first (10.53a).
    pub fn column(&self, att: u32, dfn: u32) -> Option<usize> {
        let dfn = dfn.max(1);
        let mut best = None;
        for (i, &(a, d)) in self.columns.iter().enumerate() {
            if u64::from(a) * u64::from(dfn) <= u64::from(att) * u64::from(d) {
                best = Some(i);
            }
        }
        best
    }
    /// The row of a modified roll (RTL-10.63): 0 or less, 1..10, 11 or more.
    pub fn row(modified: i32) -> usize {
        modified.clamp(0, 11) as usize
    }
    /// The result at a column and a modified roll; below the first column the automatic one.
    pub fn result(&self, column: Option<usize>, modified: i32) -> &Outcome {
        match column {
            Some(c) => &self.rows[Crt::row(modified)][c],
            None => &self.below,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_load_with_exact_multisets() {
        let c = crts();
        assert_eq!(c.assault.rows.iter().map(|r| r.len()).sum::<usize>(), 144);
        assert_eq!(c.mobile.rows.iter().map(|r| r.len()).sum::<usize>(), 156);
        let count = |t: &Crt, s: &str| t.rows.iter().flatten().filter(|o| o.text == s).count();
        // Digest E.1 / E.2 multisets (a few of each).
        assert_eq!(count(&c.assault, "AR"), 23);
        assert_eq!(count(&c.assault, "DR"), 21);
        assert_eq!(count(&c.assault, "A1 D1"), 13);
        assert_eq!(count(&c.assault, "DE"), 6);
        assert_eq!(count(&c.mobile, "AR"), 35);
        assert_eq!(count(&c.mobile, "DR"), 31);
        assert_eq!(count(&c.mobile, "D1R"), 21);
        assert_eq!(count(&c.mobile, "A1 D2R"), 7);
    }

    /// RTL-10.52's examples: 8:2 → 4:1, 8:3 → 2:1, 8:4 → 2:1, 8:5 → 3:2, 2:3 → 1:2, 27:4 → 6:1.
    #[test]
    fn odds_round_in_the_defenders_favour() {
        let t = &crts().mobile;
        let label = |a, d| t.column(a, d).map(|i| t.labels[i].clone());
        assert_eq!(label(8, 2).as_deref(), Some("4-1"));
        assert_eq!(label(8, 3).as_deref(), Some("2-1"));
        assert_eq!(label(8, 4).as_deref(), Some("2-1"));
        assert_eq!(label(8, 5).as_deref(), Some("3-2"));
        assert_eq!(label(2, 3).as_deref(), Some("1-2"));
        assert_eq!(label(27, 4).as_deref(), Some("6-1"));
        assert_eq!(label(18, 1).as_deref(), Some("8-1"));
        assert_eq!(label(1, 5), None);
        let a = &crts().assault;
        assert_eq!(a.column(24, 2).map(|i| a.labels[i].as_str()), Some("7-1"));
    }

    /// The golden test: digest E.3, the extended example of play (RTL-S7.0). Every anchor
    /// whose status is `chart` is reproduced exactly; the two `conflict` anchors are the
    /// decoded chart's cells, asserted as such so a replaced chart shows up here.
    #[test]
    fn extended_example_of_play_s7() {
        let c = crts();
        let at = |t: Table, att: u32, dfn: u32, roll: i32, drm: i32| {
            let tab = c.table(t);
            let net = drm.clamp(-5, 5);
            tab.result(tab.column(att, dfn), roll + net).text.clone()
        };
        // Mobile: overrun 18 vs 4, roll 5, DRM -3 -> 4-1 at 2: D2R.
        assert_eq!(at(Table::Mobile, 18, 4, 5, -3), "D2R");
        // 27 vs 4, roll 9, DRM -4 -> 6-1 at 5: D1R.
        assert_eq!(at(Table::Mobile, 27, 4, 9, -4), "D1R");
        // 18:1 capped at 8-1, roll 6, DRM -3 -> 3: D3R.
        assert_eq!(at(Table::Mobile, 18, 1, 6, -3), "D3R");
        // Overrun 17 vs 4, roll 6, DRM 0 -> 4-1 at 6: DR.
        assert_eq!(at(Table::Mobile, 17, 4, 6, 0), "DR");
        // Armored-car overrun 2 vs 3, roll 9, DRM -1 -> 1-2 at 8: A1R.
        assert_eq!(at(Table::Mobile, 2, 3, 9, -1), "A1R");
        // 38 vs 10, roll 2, DRM -7 clamped to -5 -> 3-1 at "0 or less": D2R.
        assert_eq!(at(Table::Mobile, 38, 10, 2, -7), "D2R");
        // Assault: 24 vs 2, roll 5, DRM -4 -> 7-1 at 1: DE.
        assert_eq!(at(Table::Assault, 24, 2, 5, -4), "DE");
        // Assault 7-1, roll 2, DRM -2 -> 0: DE.
        assert_eq!(at(Table::Assault, 21, 3, 2, -2), "DE");
        // Conflicts (digest E.3): the decoded cells, not the example's.
        assert_eq!(at(Table::Assault, 11, 7, 4, 2), "A2 D2");
        assert_eq!(at(Table::Assault, 8, 4, 10, -2), "AR");
    }

    #[test]
    fn result_codes() {
        let o = parse_outcome("A1 D3R").unwrap();
        assert_eq!((o.a_steps, o.a_retreat, o.d_steps, o.d_retreat), (1, false, 3, true));
        let o = parse_outcome("A2Rd").unwrap();
        assert!(o.a_retreat && o.a_disrupt && o.a_steps == 2);
        assert!(parse_outcome("DE").unwrap().d_eliminated);
        assert!(parse_outcome("X9").is_none());
    }
}
