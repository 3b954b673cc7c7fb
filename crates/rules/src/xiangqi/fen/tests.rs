//! FEN reading and writing: the start aliases, refusals naming the field and rank, the
//! position checks, Jieqi's pool field, set-up round trips.

use super::*;

fn xq(text: &str) -> Result<Position, FenError> {
    Position::parse_fen(Variant::Xiangqi, text)
}

#[test]
fn start_and_aliases() {
    assert_eq!(xq("startpos").unwrap().to_fen(), XIANGQI_START);
    // Short form, `r` for Red, E/H letters: the same position, written canonically.
    let alt = xq("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
    assert_eq!(alt.to_fen(), XIANGQI_START);
    let black =
        xq("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12").unwrap();
    assert_eq!(
        black.to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12"
    );
}

#[test]
fn errors_name_the_field_and_rank() {
    assert_eq!(xq("   "), Err(FenError::Empty));
    assert_eq!(
        xq("rnbakabnr/9/1c5c1 w").unwrap_err().to_string(),
        "field 1 (board): expected 10 ranks separated by `/`, found 3"
    );
    assert_eq!(
        xq("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w").unwrap_err(),
        FenError::BadCharacter {
            rank: 0,
            found: 'Q'
        }
    );
    assert_eq!(
        xq("rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap_err(),
        FenError::RankLength {
            rank: 7,
            points: 10
        }
    );
    assert_eq!(
        xq("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w")
            .unwrap_err()
            .to_string(),
        "field 1 (board), rank 0: describes 8 points, expected 9"
    );
    assert_eq!(
        xq("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR g").unwrap_err(),
        FenError::BadSide("g".into())
    );
    // The start position's board, then bad other fields.
    let board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    type Expected = fn(&FenError) -> bool;
    let bad_fields: [(&str, Expected); 5] = [
        ("w - - 0", |e| {
            matches!(e, FenError::FieldCount { found: 5, .. })
        }),
        ("w - - x 1", |e| {
            matches!(e, FenError::BadCounter { field: 5, .. })
        }),
        ("w - - 0 0", |e| {
            matches!(e, FenError::BadCounter { field: 6, .. })
        }),
        ("w a - 0 1", |e| {
            matches!(e, FenError::BadPlaceholder { field: 3, .. })
        }),
        ("w R2 - 0 1", |e| matches!(e, FenError::PoolInXiangqi(_))),
    ];
    for (fields, expected) in bad_fields {
        let error = xq(&format!("{board} {fields}")).unwrap_err();
        assert!(expected(&error), "{fields}: {error:?}");
    }
}

#[test]
fn validation_errors() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    assert!(matches!(
        xq("9/9/9/9/9/9/9/9/9/4K4 w"),
        Err(FenError::GeneralCount {
            side: SideName(Side::Second),
            found: 0
        })
    ));
    assert!(matches!(
        xq("3kk4/9/9/9/9/9/9/9/9/4K4 w"),
        Err(FenError::GeneralCount { found: 2, .. })
    ));
    assert_eq!(
        xq("4k4/9/9/9/9/9/9/9/9/K8 w").unwrap_err(),
        FenError::GeneralOutsidePalace {
            side: SideName(Side::First),
            square: sq("a0")
        }
    );
    assert!(matches!(
        xq("4k4/9/9/9/9/9/9/9/9/A2K5 w"),
        Err(FenError::UnreachablePoint { .. })
    ));
    assert!(matches!(
        xq("4k4/9/9/9/B8/9/9/9/9/3K5 w"),
        Err(FenError::UnreachablePoint { .. })
    ));
    assert!(matches!(
        xq("4k4/9/9/9/9/9/9/9/P8/3K5 w"),
        Err(FenError::UnreachablePoint { .. })
    ));
    assert!(matches!(
        xq("4k4/9/9/9/PPPPPP3/9/9/9/9/3K5 w"),
        Err(FenError::TooMany {
            found: 6,
            max: 5,
            ..
        })
    ));
    // Red to move while Black's general is attacked.
    assert_eq!(
        xq("4k4/9/9/9/4R4/9/9/9/9/3K5 w").unwrap_err().to_string(),
        "Black is not to move but its general is in check"
    );
    // Facing generals are their own problem, whoever is to move.
    for turn in ["w", "b"] {
        assert_eq!(
            xq(&format!("4k4/9/9/9/9/9/9/9/9/4K4 {turn}")),
            Err(FenError::GeneralsFacing {
                red: sq("e0"),
                black: sq("e9")
            })
        );
    }
    // A piece between them: no problem.
    assert!(xq("4k4/9/9/9/4P4/9/9/9/9/4K4 b").is_ok());
}

#[test]
fn jieqi_pool_field() {
    let jq = |t: &str| Position::parse_fen(Variant::Jieqi, t);
    let board = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX";
    for pool in ["A2B2N2R2C2P5a2b2n2r2c2p5k1", "A2A2", "A", "R3"] {
        let parsed = jq(&format!("{board} w {pool} 0 1"));
        assert!(matches!(parsed, Err(FenError::BadPool(_))), "{pool}");
    }
    assert_eq!(jq(&format!("{board} w")).unwrap().to_fen(), JIEQI_START);
    // Pieces in any order, letters and counts read as given.
    let p = jq(&format!("{board} w p5c2r2n2b2a2P5C2R2N2B2A2 0 1")).unwrap();
    assert_eq!(p.to_fen(), JIEQI_START);
}

#[test]
fn setup_round_trip() {
    let p = xq(XIANGQI_START).unwrap();
    assert_eq!(p.to_setup().validate(Variant::Xiangqi).unwrap(), p);
}
