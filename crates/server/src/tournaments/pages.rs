//! [`Standings`]: a tournament's state as its sockets see it, a page at a time. The state is
//! computed once per change; each page is cut and serialised once, when a socket first asks
//! for it, and its bytes are shared by every socket that follows it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, OnceLock};

use jiang_protocol::{
    PAGE_FINISHED_GAMES, STANDINGS_PAGE_LINES, TournamentPage, TournamentServerMessage,
    TournamentState, to_sorted_json,
};

/// A tournament's standings, cut into the pages of the socket's `standings` message.
#[derive(Debug)]
pub(crate) struct Standings {
    state: TournamentState,
    /// Each player's line in `state.standings`.
    line_of: HashMap<String, usize>,
    /// Each page's message, serialised on first demand.
    pages: Vec<OnceLock<Arc<str>>>,
}

impl Standings {
    pub(crate) fn new(state: TournamentState) -> Arc<Standings> {
        let line_of = state
            .standings
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        let pages = state.standings.len().div_ceil(STANDINGS_PAGE_LINES).max(1);
        Arc::new(Standings {
            state,
            line_of,
            pages: (0..pages).map(|_| OnceLock::new()).collect(),
        })
    }

    /// The whole state.
    pub(crate) fn state(&self) -> &TournamentState {
        &self.state
    }

    /// How many pages there are (at least 1).
    pub(crate) fn pages(&self) -> u32 {
        u32::try_from(self.pages.len()).unwrap_or(u32::MAX)
    }

    /// The page where `player` stands, if they joined.
    pub(crate) fn page_of(&self, player: &str) -> Option<u32> {
        let line = *self.line_of.get(player)?;
        u32::try_from(line / STANDINGS_PAGE_LINES + 1).ok()
    }

    /// The `standings` message of page `page` (from 1; 0 reads as 1, past the last as the last).
    pub(crate) fn page(&self, page: u32) -> Arc<str> {
        let page = page.clamp(1, self.pages());
        self.pages[page as usize - 1]
            .get_or_init(|| {
                let message = TournamentServerMessage::Standings(Box::new(page_of(
                    &self.state,
                    page,
                    self.pages(),
                )));
                to_sorted_json(&message).into()
            })
            .clone()
    }
}

/// Page `page` of `state` (of `pages`): its lines, its players' games and the names these
/// mention.
fn page_of(state: &TournamentState, page: u32, pages: u32) -> TournamentPage {
    let first = (page as usize - 1) * STANDINGS_PAGE_LINES;
    let standings: Vec<_> = state
        .standings
        .iter()
        .skip(first)
        .take(STANDINGS_PAGE_LINES)
        .cloned()
        .collect();
    let here: HashSet<&str> = standings.iter().map(|s| s.id.as_str()).collect();
    let on_page = |g: &&jiang_protocol::TournamentGame| {
        here.contains(g.first.as_str()) || here.contains(g.second.as_str())
    };
    let finished = state
        .games
        .iter()
        .filter(|g| g.result != "playing")
        .filter(on_page)
        .count();
    let mut skip = finished.saturating_sub(PAGE_FINISHED_GAMES);
    let games: Vec<_> = state
        .games
        .iter()
        .filter(on_page)
        .filter(|g| {
            if g.result != "playing" && skip > 0 {
                skip -= 1;
                false
            } else {
                true
            }
        })
        .cloned()
        .collect();
    let byes: Vec<_> = state
        .byes
        .iter()
        .filter(|b| here.contains(b.player.as_str()))
        .cloned()
        .collect();
    let mentioned: HashSet<&str> = games
        .iter()
        .flat_map(|g| [g.first.as_str(), g.second.as_str()])
        .filter(|p| !here.contains(p))
        .collect();
    let names: BTreeMap<String, String> = state
        .standings
        .iter()
        .filter(|s| mentioned.contains(s.id.as_str()))
        .filter_map(|s| Some((s.id.clone(), s.name.clone()?)))
        .collect();
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    TournamentPage {
        tournament: state.tournament.clone(),
        round: state.round,
        page,
        pages,
        standings,
        games,
        playing: count(state.games.iter().filter(|g| g.result == "playing").count()),
        played: count(state.games.len()),
        byes,
        names,
    }
}

#[cfg(test)]
mod tests {
    use jiang_protocol::{
        TimeControlSpec, TournamentBye, TournamentGame, TournamentKind, TournamentStanding,
        TournamentStatus, TournamentSummary,
    };

    use super::*;

    fn player(i: usize) -> String {
        format!("p{i:03}")
    }

    /// `players` players p000… (p000 first; odd ones named), and games between neighbours:
    /// `finished` finished rounds of (p0–p1, p2–p3, …), then one round in progress.
    fn state(players: usize, finished: usize) -> TournamentState {
        let standings = (0..players)
            .map(|i| TournamentStanding {
                id: player(i),
                name: (i % 2 == 1).then(|| format!("Name {i}")),
                rank: u32::try_from(i + 1).unwrap(),
                score: 0.0,
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                withdrawn: false,
                on_fire: None,
                buchholz: None,
                sonneborn_berger: None,
                sheet: vec![],
            })
            .collect();
        let mut games = vec![];
        for round in 0..=finished {
            // Pairs across the page boundary too: (p19, p20) is a game of pages 1 and 2.
            for i in (round % 2..players.saturating_sub(1)).step_by(2) {
                games.push(TournamentGame {
                    id: format!("g{round}-{i}"),
                    round: None,
                    first: player(i),
                    second: player(i + 1),
                    result: if round < finished { "first" } else { "playing" }.to_owned(),
                });
            }
        }
        TournamentState {
            tournament: TournamentSummary {
                id: "t".into(),
                kind: TournamentKind::Arena,
                variant: "xiangqi".into(),
                clock: TimeControlSpec::default(),
                minutes: Some(60),
                rounds: None,
                starts_at: "2026-12-24T18:00:00Z".into(),
                ends_at: None,
                finished_at: None,
                rated: false,
                status: TournamentStatus::Running,
                created_by: "p000".into(),
                scheduled: false,
                players: u32::try_from(players).unwrap(),
            },
            round: None,
            standings,
            games,
            byes: vec![TournamentBye {
                round: 1,
                player: player(players - 1),
            }],
        }
    }

    fn page(standings: &Standings, n: u32) -> TournamentPage {
        match serde_json::from_str(&standings.page(n)).unwrap() {
            TournamentServerMessage::Standings(page) => *page,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pages_hold_their_lines_and_their_players_games() {
        let s = Standings::new(state(45, 2));
        assert_eq!(s.pages(), 3);
        assert_eq!(s.page_of("p000"), Some(1));
        assert_eq!(s.page_of("p019"), Some(1));
        assert_eq!(s.page_of("p020"), Some(2));
        assert_eq!(s.page_of("p044"), Some(3));
        assert_eq!(s.page_of("nobody"), None);
        let second = page(&s, 2);
        assert_eq!((second.page, second.pages), (2, 3));
        let ids: Vec<_> = second.standings.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(ids.first(), Some(&"p020"));
        assert_eq!(ids.len(), 20);
        // Every game with a player of the page, and only those.
        let here = |p: &str| ("p020".."p040").contains(&p);
        let expected: Vec<_> = s
            .state()
            .games
            .iter()
            .filter(|g| here(&g.first) || here(&g.second))
            .map(|g| g.id.clone())
            .collect();
        let got: Vec<_> = second.games.iter().map(|g| g.id.clone()).collect();
        assert_eq!(got, expected);
        assert!(got.contains(&"g1-19".to_owned()), "p19–p20 crosses pages");
        // The opponent from page 1 is named (p019 has a name; p040's opponent p039 is on it).
        assert_eq!(
            second.names,
            BTreeMap::from([("p019".to_owned(), "Name 19".to_owned())])
        );
        // The totals are the tournament's.
        assert_eq!(second.played, u32::try_from(s.state().games.len()).unwrap());
        assert_eq!(second.playing, 22);
        // The bye is on the last page, with its player.
        assert!(second.byes.is_empty());
        let last = page(&s, 3);
        assert_eq!(last.standings.len(), 5);
        assert_eq!(last.byes.len(), 1);
        // Out of range reads as the nearest page.
        assert_eq!(page(&s, 0).page, 1);
        assert_eq!(page(&s, 99).page, 3);
    }

    #[test]
    fn a_page_lists_every_game_in_progress_and_the_latest_finished() {
        let s = Standings::new(state(4, 60));
        let only = page(&s, 1);
        assert_eq!(only.pages, 1);
        let finished: Vec<_> = only
            .games
            .iter()
            .filter(|g| g.result != "playing")
            .collect();
        assert_eq!(finished.len(), PAGE_FINISHED_GAMES);
        // The latest ones, oldest first: the first rounds are left out.
        assert_eq!(finished.last().unwrap().id, "g59-1");
        assert!(!only.games.iter().any(|g| g.id == "g0-0"));
        let playing: Vec<_> = only
            .games
            .iter()
            .filter(|g| g.result == "playing")
            .collect();
        assert_eq!(playing.len(), 2);
        assert_eq!(only.games.last().unwrap().result, "playing");
    }

    #[test]
    fn nobody_yet_is_one_empty_page_and_pages_are_serialised_once() {
        let s = Standings::new(TournamentState {
            standings: vec![],
            games: vec![],
            byes: vec![],
            ..state(1, 0)
        });
        assert_eq!(s.pages(), 1);
        let first = page(&s, 1);
        assert!(first.standings.is_empty() && first.games.is_empty());
        assert!(Arc::ptr_eq(&s.page(1), &s.page(1)));
    }
}
