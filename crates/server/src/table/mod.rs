//! The one place where the server meets a game's rules: the rules crate's [`AnyGame`] (one
//! type for a game of any variant, Jieqi's per-observer view included) drawn as the wire's
//! types, and its typed refusals mapped to the wire's `ErrorCode`/`ErrorReason`.
//!
//! Everything else in the server works with `AnyGame` and never matches on variants: creating
//! and rebuilding games, legal moves, play, outcomes, records and notation are the rules
//! crate's; here are only the per-viewer variant fields of a view, the board hints and the
//! history (`view`), Jieqi's deals from the operating system's generator, and `errors`.
//!
//! May use: the rules crate and the protocol's types. Nothing async, no I/O.

use rand::TryRngCore;
use rand::rngs::OsRng;

use jiang_rules::Variant;
pub use jiang_rules::{
    AnyGame, NotationStyle, RecordError, RecordFormat, RecordInfo, RefusedMove, Setup, SetupError,
    TreeExportError, WrongFamily, per_side,
};

mod errors;
mod view;

pub use errors::Refusal;
pub use view::WireGame;

/// Creates a new game's set-up: the start from `fen`, a `handicap` name or the variant's
/// standard start, and for Jieqi a fresh secret deal from the operating system's generator
/// (jieqi.md, setup).
pub fn create(
    variant: Variant,
    fen: Option<&str>,
    handicap: Option<&str>,
) -> Result<Setup, SetupError> {
    Setup::create(variant, fen, handicap, &mut OsRng.unwrap_err())
}

/// The same set-up for a rematch: the same start and handicap, and for Jieqi a new deal.
pub fn rematch(variant: Variant, setup: &Setup) -> Result<Setup, SetupError> {
    setup.rematch(variant, &mut OsRng.unwrap_err())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiang_rules::{Outcome, Reason, Side, shogi};

    #[test]
    fn rules_refusals_name_their_reason_under_the_code_they_refine() {
        use jiang_protocol::{ErrorCode, ErrorReason as R};
        let reason = |variant, fen: Option<&str>, moves: &[&str], mv: &str| {
            let setup = create(variant, fen, None).unwrap();
            let mut table = AnyGame::open(variant, &setup, &[]).unwrap();
            for m in moves {
                table.play(m).unwrap();
            }
            table.play(mv).unwrap_err().reason()
        };
        let x = Variant::Xiangqi;
        assert_eq!(reason(x, None, &[], "zz"), Some(R::Malformed));
        assert_eq!(reason(x, None, &[], "e4e5"), Some(R::NoPiece));
        assert_eq!(reason(x, None, &[], "h7e7"), Some(R::NotYourPiece));
        assert_eq!(reason(x, None, &[], "a0a5"), Some(R::Unreachable));
        assert_eq!(reason(x, None, &[], "h2e2C"), Some(R::RevealLetter));
        // The red chariot on e1 shields its general from the black chariot on the e-file.
        let pinned = "4k4/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
        assert_eq!(
            reason(x, Some(pinned), &[], "e1d1"),
            Some(R::LeavesGeneralInCheck)
        );
        assert_eq!(reason(Variant::Jieqi, None, &[], "zz"), Some(R::Malformed));
        let s = Variant::Shogi;
        assert_eq!(reason(s, None, &[], "zz"), Some(R::Malformed));
        assert_eq!(reason(s, None, &[], "7g7e"), Some(R::Unreachable));
        // One position per shogi cause: the rules' typed reason, refined into the server's.
        let shogi_reasons = [
            (Variant::Minishogi, None, "9a9b", R::OffBoard),
            (s, None, "P*5e", R::NotInHand),
            (s, None, "5e5d", R::NoPiece),
            (s, None, "3c3d", R::NotYourPiece),
            (s, None, "5i4i", R::Unreachable),
            (s, None, "7g7f+", R::CannotPromote),
            (
                s,
                Some("k8/9/9/4G4/9/9/9/9/4K4 b - 1"),
                "5d5c+",
                R::CannotPromote,
            ),
            (
                s,
                Some("k8/4P4/9/9/9/9/9/9/4K4 b - 1"),
                "5b5a",
                R::MustPromote,
            ),
            (
                s,
                Some("k8/9/9/9/9/9/9/9/4K4 b G 1"),
                "G*5i",
                R::DropOnOccupied,
            ),
            (s, Some("k8/9/9/9/9/9/9/9/4K4 b N 1"), "N*5b", R::DeadDrop),
            (s, Some("k8/9/6+P2/9/9/9/4P4/9/4K4 b P 1"), "P*5e", R::Nifu),
            (
                s,
                Some("8k/9/8G/9/9/9/9/9/4K2L1 b P 1"),
                "P*1b",
                R::Uchifuzume,
            ),
            (
                s,
                Some("k3r4/9/9/9/9/9/9/4G4/4K4 b G 1"),
                "5h4h",
                R::LeavesKingInCheck,
            ),
            (
                s,
                Some("k3r4/9/9/9/9/9/9/9/4K4 b G 1"),
                "G*1e",
                R::LeavesKingInCheck,
            ),
        ];
        for (variant, fen, mv, want) in shogi_reasons {
            assert_eq!(reason(variant, fen, &[], mv), Some(want), "{mv} in {fen:?}");
        }

        let setup = create(s, None, None).unwrap();
        let mut table = AnyGame::open(s, &setup, &[]).unwrap();
        let e = table.declare_impasse().unwrap_err();
        assert_eq!(e.reason(), Some(R::KingNotInZone));
        table.end(Outcome::win(Side::First, Reason::Resignation));
        assert_eq!(table.play("7g7f").unwrap_err().reason(), Some(R::GameOver));

        // Every reason refines one of the two rules codes, and the typed errors the server
        // passes through without a finer reason stay without one.
        for r in R::ALL {
            assert!(matches!(
                r.code(),
                ErrorCode::IllegalMove | ErrorCode::ImpasseRejected
            ));
        }
        assert_eq!(RefusedMove::NoImpasse(Variant::Xiangqi).reason(), None);
    }

    #[test]
    fn refusals_keep_the_rules_typed_reason_and_their_message() {
        let setup = create(Variant::Xiangqi, None, None).unwrap();
        let mut table = AnyGame::open(Variant::Xiangqi, &setup, &[]).unwrap();
        let e = table.play("a0a5").unwrap_err();
        assert!(matches!(e, RefusedMove::Xiangqi(_)), "{e:?}");
        assert!(!e.to_string().is_empty());
        assert!(matches!(
            table.declare_impasse(),
            Err(RefusedMove::NoImpasse(Variant::Xiangqi))
        ));
        table.end(Outcome::win(Side::First, Reason::Resignation));
        let e = table.play("h2e2").unwrap_err();
        assert!(
            matches!(e, RefusedMove::Ended(Reason::Resignation)),
            "{e:?}"
        );
        assert_eq!(e.to_string(), "the game is over (resignation)");

        let setup = create(Variant::Shogi, None, None).unwrap();
        let mut table = AnyGame::open(Variant::Shogi, &setup, &[]).unwrap();
        let e = table.play("7g7e").unwrap_err();
        assert!(
            matches!(e, RefusedMove::Shogi(shogi::PlayError::Move(_))),
            "{e:?}"
        );
        let e = table.declare_impasse().unwrap_err();
        assert!(
            matches!(
                e,
                RefusedMove::Shogi(shogi::PlayError::Impasse(
                    shogi::ImpasseError::KingNotInZone
                ))
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("condition 1"), "{e}");

        let e = table
            .record(
                RecordFormat::Pgn,
                &RecordInfo {
                    id: "x".into(),
                    url: "u".into(),
                    clock: None,
                    move_ms: Vec::new(),
                    created_at: 0,
                    result: None,
                    takebacks: Vec::new(),
                },
            )
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "A shogi record cannot be written as pgn: use kif, ki2, csa or sfen."
        );
    }

    #[test]
    fn every_variant_opens_and_plays() {
        for (variant, mv) in [
            (Variant::Xiangqi, "h2e2"),
            (Variant::Shogi, "7g7f"),
            (Variant::Minishogi, "5d5c"),
        ] {
            let setup = create(variant, None, None).unwrap();
            let mut table = AnyGame::open(variant, &setup, &[]).unwrap();
            assert!(table.legal_moves().contains(&mv.to_owned()), "{variant}");
            assert_eq!(table.play(mv).unwrap(), mv);
            assert!(table.play("zz").is_err());
            let again = AnyGame::open(variant, &setup, table.moves()).unwrap();
            assert_eq!(again.fen(), table.fen());
        }
        let setup = create(Variant::Jieqi, None, None).unwrap();
        let mut table = AnyGame::open(Variant::Jieqi, &setup, &[]).unwrap();
        let recorded = table.play("h2e2").unwrap();
        assert_eq!(recorded.len(), 5, "a reveal carries its letter: {recorded}");
        let again = AnyGame::open(Variant::Jieqi, &setup, table.moves()).unwrap();
        assert_eq!(again.fen(), table.fen());
    }

    /// The engine reasons over what the side knew: after Red took a covered piece, Red's input
    /// differs from the public game's, and Black's (which does not know it) does not.
    #[test]
    fn the_engine_input_is_the_sides_view_on_the_record() {
        let setup = create(Variant::Jieqi, None, None).unwrap();
        let mut finished = AnyGame::open(Variant::Jieqi, &setup, &[]).unwrap();
        finished.play("h2h9").unwrap();
        let input = |mut t: AnyGame| {
            for mv in finished.moves() {
                t.play(mv).unwrap();
            }
            format!("{:?}", jiang_engine::Input::for_seat(&t, t.turn()).unwrap())
        };
        let public = input(finished.public_restart());
        let red = input(finished.knowledge_restart(Side::RED));
        let black = input(finished.knowledge_restart(Side::BLACK));
        assert_ne!(red, public);
        assert_eq!(black, public);
    }
}
