//! `umpire apply` keeps a cache next to the log (`crate::cache`) and writes it again only
//! once it lags `cache::SLACK` entries behind; whatever the cache holds, every command sees
//! the game a replay from genesis gives (issue 20).

mod common;
mod support;

use support::umpire_in;
use umpire::log::store;

#[test]
fn apply_rewrites_the_cache_once_per_slack_and_status_agrees_with_a_replay() {
    let (mut game, mut players) = common::started_marne(7, 512);
    while game.entries.len() < 20 + 2 * umpire::cache::SLACK + 3 {
        common::any_step(&mut game, &mut players, 7);
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.log");
    let cache = umpire::cache::path_for(&log);
    std::fs::write(&log, store::join_log(&game.entries[..20])).unwrap();
    // No cache yet: the first apply replays from genesis and writes one.
    let mut written_at = Vec::new();
    for (i, e) in game.entries.iter().enumerate().skip(20) {
        let before = std::fs::read(&cache).ok();
        std::fs::write(dir.path().join("entry.yaml"), &e.bytes).unwrap();
        let out = umpire_in(dir.path(), &["apply", "game.log", "entry.yaml"], None);
        assert!(out.status.success(), "entry {i}: {}", String::from_utf8_lossy(&out.stderr));
        if std::fs::read(&cache).ok() != before {
            written_at.push(i);
        }
        // What status says from the cache is what it says after a replay from genesis.
        let cached = umpire_in(dir.path(), &["status", "game.log"], None);
        let kept = std::fs::read(&cache).unwrap();
        std::fs::remove_file(&cache).unwrap();
        let replayed = umpire_in(dir.path(), &["status", "game.log"], None);
        std::fs::write(&cache, kept).unwrap();
        assert!(cached.status.success() && replayed.status.success());
        assert_eq!(String::from_utf8_lossy(&cached.stdout), String::from_utf8_lossy(&replayed.stdout), "entry {i}");
    }
    let slack = umpire::cache::SLACK;
    // Written by the first apply (no cache), then each time the log is SLACK entries ahead.
    let expected: Vec<usize> = (20..game.entries.len()).filter(|i| (i - 20) % slack == 0).collect();
    assert_eq!(written_at, expected);
    assert_eq!(std::fs::read(&log).unwrap(), store::join_log(&game.entries));
}
