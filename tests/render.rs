//! Pictures: SVG well-formedness, golden files, determinism, the replay page.
//!
//! Goldens live in `tests/golden/`. After an intended change to the drawing, regenerate them
//! with `UMPIRE_UPDATE_GOLDEN=1 cargo test --release --test render` and look at the diff (and
//! at the pictures) before committing. Without that variable a mismatch fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use umpire::engine::SeatInfo;
use umpire::engine::registry::RulesetId;
use umpire::render::svg;

const TIME: &str = "2026-11-23T12:00:00Z";
/// The demo game and step of the mid-game golden (a prepared assault awaits its die).
const DEMO_SEED: &str = "1914";
const DEMO_STEP: &str = "18";

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Compare with a golden file, or rewrite it when `UMPIRE_UPDATE_GOLDEN` is set.
fn check_golden(name: &str, actual: &str) {
    let path = golden_dir().join(name);
    if std::env::var_os("UMPIRE_UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, actual).unwrap();
        eprintln!("golden rewritten: {}", path.display());
        return;
    }
    let expected =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (regenerate with UMPIRE_UPDATE_GOLDEN=1)", path.display()));
    if expected != actual {
        let out = std::env::temp_dir().join(format!("umpire-actual-{name}"));
        std::fs::write(&out, actual).unwrap();
        let first = expected.lines().zip(actual.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{name} differs from its golden at line {} (actual written to {}); if the change is intended, regenerate with UMPIRE_UPDATE_GOLDEN=1 cargo test --release --test render",
            first + 1,
            out.display()
        );
    }
}

/// Well-formed XML, checked by Python's parser when available, and always by a small
/// tag-balance check of our own.
fn assert_well_formed(name: &str, text: &str) {
    assert_tags_balance(name, text);
    let path = std::env::temp_dir().join(format!("umpire-wf-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    match Command::new("python3").args(["-c", "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])"]).arg(&path).output() {
        Ok(o) => assert!(o.status.success(), "{name} is not well-formed XML: {}", String::from_utf8_lossy(&o.stderr)),
        Err(_) => eprintln!("python3 not found: only the tag-balance check ran for {name}"),
    }
    let _ = std::fs::remove_file(&path);
}

/// Every start tag is closed in order; no stray `<` or `&` in text.
fn assert_tags_balance(name: &str, text: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        let between = &rest[..i];
        for (j, _) in between.match_indices('&') {
            let ent = &between[j..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].iter().any(|e| ent.starts_with(e)),
                "{name}: bare & in text near {:?}",
                &ent[..ent.len().min(20)]
            );
        }
        rest = &rest[i..];
        let end = rest.find('>').unwrap_or_else(|| panic!("{name}: unterminated tag"));
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(close) = tag.strip_prefix('/') {
            let open = stack.pop().unwrap_or_else(|| panic!("{name}: </{close}> closes nothing"));
            assert_eq!(open, close, "{name}: <{open}> closed by </{close}>");
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    assert!(stack.is_empty(), "{name}: unclosed {stack:?}");
}

fn marne_start_svg() -> String {
    let text = umpire::scenarios::find("glorys-end/marne").unwrap().text;
    let seats = [SeatInfo { seat: "german".into(), side: "german".into() }, SeatInfo { seat: "allied".into(), side: "allied".into() }];
    let state = RulesetId::GlorysEnd.setup(text, None, &seats).unwrap();
    svg::to_svg(&state.picture())
}

fn umpire(dir: &Path, args: &[&str]) -> Output {
    let o = Command::new(env!("CARGO_BIN_EXE_umpire")).args(args).current_dir(dir).env("UMPIRE_FIXED_TIME", TIME).output().unwrap();
    assert!(o.status.success(), "umpire {args:?}: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    o
}

fn demo(seed: &str) -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("demo");
    umpire(t.path(), &["demo", "--dir", dir.to_str().unwrap(), "--seed", seed]);
    (t, dir)
}

#[test]
fn marne_start_svg_is_well_formed_and_matches_its_golden() {
    let svg = marne_start_svg();
    assert_well_formed("marne-start.svg", &svg);
    // What the issue asks to see.
    for want in ["3130", "Paris", "Reims", "#1f5fbf", "5-6-4", "class=\"stack\"", "OOC"] {
        assert!(svg.contains(want), "the start map lacks {want:?}");
    }
    assert_eq!(svg, marne_start_svg(), "the same state gives the same bytes");
    check_golden("marne-start.svg", &svg);
}

#[test]
fn demo_mid_game_svg_matches_its_golden_and_the_page_is_self_contained() {
    let (t, dir) = demo(DEMO_SEED);
    let log = dir.join("game.log");
    let out = t.path().join("mid.svg");
    let o = umpire(t.path(), &["show", log.to_str().unwrap(), "--at", DEMO_STEP, "--svg", out.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("map:"));
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_well_formed("demo-mid.svg", &svg);
    assert!(svg.contains("class=\"arrow\""), "a battle awaits its die at this step: its arrows are drawn");
    check_golden(&format!("demo-{DEMO_SEED}-step{DEMO_STEP}.svg"), &svg);

    // --as: a seat's view: of each Allied stack only the top unit shows (GE 13.8).
    let out2 = t.path().join("mid-as.svg");
    umpire(t.path(), &["show", log.to_str().unwrap(), "--at", DEMO_STEP, "--as", "german", "--svg", out2.to_str().unwrap()]);
    let as_svg = std::fs::read_to_string(&out2).unwrap();
    assert_well_formed("demo-mid-as.svg", &as_svg);
    let (public, german) = (stacks(&svg), stacks(&as_svg));
    assert_eq!(public.len(), german.len(), "the same stacks are drawn");
    let mut hidden = 0;
    for (p, g) in public.iter().zip(&german) {
        if ["FR-", "GB-", "BE-"].iter().any(|n| p[0].starts_with(n)) {
            // Fortresses are never hidden (a reading of GE 13.8): one mobile unit shows.
            let mobile = |v: &Vec<String>| v.iter().filter(|u| !u.contains(" fort ")).count();
            assert!(
                g.iter().all(|u| p.contains(u)) && mobile(g) == mobile(p).min(1),
                "an Allied stack shows its top unit only to german: {p:?} vs {g:?}"
            );
            hidden += mobile(p) - mobile(g);
        } else {
            assert_eq!(p, g, "german sees its own stacks whole");
        }
    }
    assert!(hidden > 0, "at this step some Allied stack holds more than one unit, so the view hides something");

    // The page the demo wrote: one file, nothing fetched, every step, a few MB at most.
    let page = std::fs::read_to_string(dir.join("replay.html")).unwrap();
    // Each map layer is stored once: the page grows by tens of kB a step, not by a whole map.
    let steps = std::fs::read_to_string(&log).unwrap().lines().filter(|l| *l == "---").count();
    assert!(page.len() < 100_000 * steps, "replay.html is {} bytes for {steps} steps", page.len());
    for bad in ["<link", "src=\"http", "src='http", "url(http", "@import", "fetch(", "XMLHttpRequest"] {
        assert!(!page.contains(bad), "the page must not load anything: found {bad:?}");
    }
    assert!(page.contains(&format!("\"l\":\"entry {} ", steps - 1)), "every step is in the page");
    assert!(page.contains("step="), "the page reads #step=N");
    let script_end = page.matches("</script>").count();
    assert_eq!(script_end, 2, "data and code scripts only; no </script> inside the data");

    // replay --html writes the same page, deterministically.
    let html = t.path().join("r.html");
    umpire(t.path(), &["replay", log.to_str().unwrap(), "--html", html.to_str().unwrap()]);
    assert_eq!(std::fs::read_to_string(&html).unwrap(), page);
    let html_as = t.path().join("r-as.html");
    umpire(t.path(), &["replay", log.to_str().unwrap(), "--as", "allied", "--to", "10", "--html", html_as.to_str().unwrap()]);
    let p = std::fs::read_to_string(&html_as).unwrap();
    assert!(p.contains("seen by allied") && p.contains("\"l\":\"entry 10 ") && !p.contains("\"l\":\"entry 11 "));
}

#[test]
fn text_is_escaped() {
    use umpire::render::*;
    let p = Picture {
        title: "a <b> & \"c\"".into(),
        notes: vec!["</script><!--".into()],
        legend: vec![LegendItem { colour: Rgb(1, 2, 3), text: "x&y".into() }],
        kind: Kind::HexMap(HexMap {
            cells: vec![Cell {
                id: "0101".into(),
                axial: Axial { q: 0, r: 0 },
                fill: Rgb::WHITE,
                place: Some(PlaceMark { name: "St <Malo>".into(), kind: PlaceKind::Town }),
                vp: None,
                outline: None,
                marks: vec![],
            }],
            ..Default::default()
        }),
    };
    let s = svg::to_svg(&p);
    assert_well_formed("escape.svg", &s);
    let page = html::page(&html::Page {
        title: "t<".into(),
        subtitle: "s&".into(),
        steps: vec![html::Step { label: "</script>".into(), events: vec![], pending: None, note: None, diff: vec![], picture: p }],
    });
    assert_eq!(page.matches("</script>").count(), 2);
}

/// The unit lines of each stack drawn in an SVG, in drawing order (one `<title>` per stack).
fn stacks(svg: &str) -> Vec<Vec<String>> {
    svg.split("class=\"stack\"><title>")
        .skip(1)
        .map(|rest| rest.split("</title>").next().unwrap_or("").lines().map(str::to_string).collect())
        .collect()
}
