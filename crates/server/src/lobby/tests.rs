//! The lobby hub's unit tests.

use super::*;

fn lobby() -> Arc<Lobby> {
    let (_, shutdown) = watch::channel(false);
    let settings = LobbySettings {
        max_seeks_per_address: 0,
        seek_rate: Rate::UNLIMITED,
        ..LobbySettings::default()
    };
    Lobby::new(settings, Slots::new(0, 0), shutdown)
}

fn seek(lobby: &Lobby, id: &str) {
    rated_seek(lobby, id, None, None);
}

/// A rated seek of player `id` at `rating` (none: no player), with `range`.
fn rated_seek(lobby: &Lobby, id: &str, rating: Option<i64>, range: Option<[i64; 2]>) {
    let info = SeekInfo {
        variant: Variant::Xiangqi,
        control: None,
        side: Side::Second,
        handicap: None,
        rated: rating.is_some(),
        player: rating.map(|rating| jiang_protocol::PlayerRef {
            id: format!("p-{id}"),
            name: None,
            rating: Some(rating),
            provisional: false,
        }),
        rating_range: range,
    };
    lobby.add_seek(
        id,
        info,
        IpAddr::from([127, 0, 0, 1]),
        seat::hash_token("t"),
    );
}

fn playing(moves: u64, spectators: u64, listed: bool) -> Listing {
    Listing::Playing(PlayingGame {
        variant: Variant::Shogi,
        control: None,
        handicap: None,
        moves,
        spectators,
        listed,
        computer: None,
        players: Default::default(),
    })
}

#[test]
fn the_lists_are_bounded_and_updates_are_differences() {
    let lobby = lobby();
    for i in 0..MAX_SEEKS + 20 {
        seek(&lobby, &format!("s{i:03}"));
    }
    for i in 0..MAX_GAMES + 10 {
        lobby.game_listing(&format!("g{i:03}"), playing(0, 0, true));
    }
    lobby.game_listing("hidden", playing(0, 9, false));
    let now = Instant::now();
    let first = lobby.flush(now).expect("an update");
    assert_eq!(first.seeks.len(), MAX_SEEKS);
    assert_eq!(first.games.len(), MAX_GAMES);
    assert!(first.games.iter().all(|g| g.id != "hidden"));
    assert_eq!(first.counts.map(|c| c.games), Some(MAX_GAMES as u64 + 11));
    // The oldest seeks are listed; the newest games first.
    assert!(first.seeks.iter().any(|s| s.id == "s000"));
    assert!(!first.seeks.iter().any(|s| s.id == "s119"));
    assert!(first.games.iter().any(|g| g.id == "g059"));
    assert!(!first.games.iter().any(|g| g.id == "g000"));
    // Nothing changed: no update.
    assert_eq!(lobby.flush(now), None);
    // A taken seek leaves, the next oldest enters; a watched game climbs in, a move of a
    // listed game is sent again, the game it pushed out leaves.
    lobby.game_listing("s000", playing(0, 0, true));
    lobby.game_listing("g000", playing(3, 2, true));
    lobby.game_listing("g059", playing(1, 0, true));
    let next = lobby.flush(now).expect("an update");
    assert_eq!(next.seeks_gone, ["s000"]);
    assert_eq!(
        next.seeks.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["s100"]
    );
    let changed: Vec<&str> = next.games.iter().map(|g| g.id.as_str()).collect();
    assert!(
        changed.contains(&"g000") && changed.contains(&"g059"),
        "{changed:?}"
    );
    // The taken seek is a game in play now, the newest: two make room.
    assert!(changed.contains(&"s000"));
    let mut gone = next.games_gone.clone();
    gone.sort();
    assert_eq!(gone, ["g010", "g011"], "the oldest listed games make room");
    // The snapshot is what the sockets were told, in order.
    let snapshot = lobby.snapshot();
    assert_eq!(snapshot.seeks.len(), MAX_SEEKS);
    assert_eq!(snapshot.seeks[0].id, "s001");
    assert_eq!(snapshot.games[0].id, "g000", "the most watched first");
    // The end of a game takes it off.
    lobby.game_listing("g000", Listing::Over);
    let last = lobby.flush(now).expect("an update");
    assert_eq!(last.games_gone, ["g000"]);
}

#[test]
fn holds_keep_a_seek_only_with_its_token() {
    let lobby = lobby();
    seek(&lobby, "a");
    lobby.hold(1, &[("a".into(), "wrong".into())]);
    assert!(lobby.lock().seeks["a"].gone_since.is_some());
    lobby.hold(1, &[("a".into(), "t".into())]);
    assert!(lobby.lock().seeks["a"].gone_since.is_none());
    lobby.game_listing(
        "a",
        Listing::Waiting {
            creator_present: true,
        },
    );
    lobby.release(1);
    assert!(
        lobby.lock().seeks["a"].gone_since.is_none(),
        "the game page still holds it"
    );
    lobby.game_listing(
        "a",
        Listing::Waiting {
            creator_present: false,
        },
    );
    let gone = lobby.lock().seeks["a"].gone_since.expect("absent");
    // Expired only once the timeout has passed since.
    lobby.flush(gone);
    assert!(lobby.lock().seeks.contains_key("a"));
    lobby.flush(gone + lobby.settings.seek_timeout);
    assert!(!lobby.lock().seeks.contains_key("a"));
}

#[test]
fn rated_pairing_prefers_the_nearest_rating_within_each_range() {
    let lobby = lobby();
    rated_seek(&lobby, "low", Some(1200), None);
    rated_seek(&lobby, "mid", Some(1500), None);
    rated_seek(&lobby, "high", Some(1900), None);
    rated_seek(&lobby, "picky", Some(1850), Some([1800, 2000]));
    seek(&lobby, "casual");
    let matching = |me| lobby.matching(Variant::Xiangqi, None, &[], true, me);
    assert_eq!(
        matching(Some(("me", 1850))),
        ["picky", "high", "mid", "low"]
    );
    assert_eq!(matching(Some(("me", 1450))), ["mid", "low", "high"]);
    // Never one's own seek; casual pairing sees casual seeks only.
    assert_eq!(matching(Some(("p-mid", 1500))), ["low", "high"]);
    assert_eq!(
        lobby.matching(Variant::Xiangqi, None, &[], false, None),
        ["casual"]
    );
}
