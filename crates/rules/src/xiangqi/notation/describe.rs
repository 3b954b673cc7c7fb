//! The language-neutral description of a move that WXF and Chinese notation both spell:
//! which piece (kind, and how it is told apart from like pieces), which way it goes, and the
//! closing number.

use crate::Side;
use crate::xiangqi::{PieceKind, Square};

/// What the notations need to know about a position: who stands where, as the kind each
/// piece *moves as* (a covered Jieqi piece moves as its point's piece), and who is to move.
#[derive(Clone, Debug)]
pub(crate) struct Board {
    cells: [Option<(Side, PieceKind)>; Square::COUNT],
    turn: Side,
}

impl Board {
    /// An empty board with `turn` to move.
    pub(crate) fn new(turn: Side) -> Board {
        Board {
            cells: [None; Square::COUNT],
            turn,
        }
    }

    /// Puts a piece of `side` that moves as `kind` on `square`.
    pub(crate) fn put(&mut self, square: Square, side: Side, kind: PieceKind) {
        self.cells[square.index()] = Some((side, kind));
    }

    /// What stands on `square`.
    pub(crate) fn at(&self, square: Square) -> Option<(Side, PieceKind)> {
        self.cells[square.index()]
    }

    /// The side to move.
    pub(crate) fn turn(&self) -> Side {
        self.turn
    }
}

/// Which way a piece goes, from its owner's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Towards the enemy (`+`, 进).
    Forward,
    /// Towards its own back rank (`-`, 退).
    Backward,
    /// Along its rank (`.`, 平).
    Sideways,
}

/// How the moving piece is found among like pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    /// The file, numbered 1–9 from the mover's own right.
    pub file: u8,
    /// Its place among the like pieces on that file, 0 = frontmost (nearest the enemy).
    pub index: u8,
    /// How many like pieces of the mover stand on that file (1 = alone).
    pub count: u8,
    /// Whether another file also holds two or more of them (tandem pieces on two files),
    /// so the file must be named too.
    pub other_tandem_file: bool,
}

/// A move as the human notations see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Description {
    /// The mover.
    pub side: Side,
    /// The kind the piece moves as.
    pub kind: PieceKind,
    /// Which of the like pieces it is.
    pub origin: Origin,
    /// Which way it goes.
    pub direction: Direction,
    /// Distance (straight movers along their file) or destination file (everything else).
    pub number: u8,
}

/// The file number (1–9) of `square` from `side`'s own right.
pub(crate) fn own_file(side: Side, square: Square) -> u8 {
    match side {
        Side::First => Square::FILES - square.file(),
        Side::Second => square.file() + 1,
    }
}

/// Whether pieces of `kind` move in straight lines (then the last number of a move along
/// the file is a distance).
fn moves_straight(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::General | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
    )
}

/// Describes the move `from`–`to` of the piece on `from`; `None` if `from` is empty.
pub(crate) fn describe(board: &Board, from: Square, to: Square) -> Option<Description> {
    let (side, kind) = board.at(from)?;
    let file = from.file();
    let like_on = |f: u8| {
        (0..Square::RANKS)
            .filter_map(move |rank| Square::new(f, rank))
            .filter(move |&s| board.at(s) == Some((side, kind)))
    };
    // Like pieces on the same file, frontmost first.
    let mut on_file: Vec<Square> = like_on(file).collect();
    on_file.sort_by_key(|s| std::cmp::Reverse(s.relative_rank(side)));
    let index = on_file.iter().position(|&s| s == from)? as u8;
    let count = on_file.len() as u8;
    let other_tandem_file =
        count > 1 && (0..Square::FILES).any(|f| f != file && like_on(f).nth(1).is_some());
    let (from_rank, to_rank) = (from.relative_rank(side), to.relative_rank(side));
    let direction = match to_rank.cmp(&from_rank) {
        std::cmp::Ordering::Greater => Direction::Forward,
        std::cmp::Ordering::Less => Direction::Backward,
        std::cmp::Ordering::Equal => Direction::Sideways,
    };
    let number = if direction != Direction::Sideways && moves_straight(kind) {
        from_rank.abs_diff(to_rank)
    } else {
        own_file(side, to)
    };
    Some(Description {
        side,
        kind,
        origin: Origin {
            file: own_file(side, from),
            index,
            count,
            other_tandem_file,
        },
        direction,
        number,
    })
}

/// The conventional name of a tandem piece's place on its file, shared by WXF and Chinese.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// Alone on its file: named by the file.
    Alone,
    /// Front (`+`, 前).
    Front,
    /// Middle of three or of five (WXF: the file; Chinese: 中).
    Middle,
    /// Rear (`-`, 后).
    Rear,
    /// Foremost of four or five (WXF `++`; Chinese 一).
    Foremost,
    /// Rearmost of four or five (WXF `--`; Chinese 四/五).
    Rearmost,
    /// Any other place (six or more like pieces on a file, only possible in Jieqi): the
    /// 1-based ordinal from the front, with the file.
    Ordinal(u8),
}

/// The conventional place of the piece at `index` among `count` like pieces on a file
/// (WXF tandem rules: two `+ -`; three `+`, file, `-`; four `++ + - --`; five
/// `++ + file - --`; two tandem files: `+`, file, `-` after the file number).
pub(crate) fn place(origin: Origin) -> Place {
    let Origin { index, count, .. } = origin;
    match (count, index) {
        (1, _) => Place::Alone,
        (2, 0) | (3, 0) => Place::Front,
        (2, 1) | (3, 2) => Place::Rear,
        (3, 1) | (5, 2) => Place::Middle,
        (4 | 5, 0) => Place::Foremost,
        (4 | 5, 1) => Place::Front,
        (4, 2) | (5, 3) => Place::Rear,
        (4, 3) | (5, 4) => Place::Rearmost,
        (_, i) => Place::Ordinal(i + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn files_are_counted_from_each_players_right() {
        assert_eq!(own_file(Side::RED, sq("i0")), 1);
        assert_eq!(own_file(Side::RED, sq("a0")), 9);
        assert_eq!(own_file(Side::BLACK, sq("a9")), 1);
        assert_eq!(own_file(Side::BLACK, sq("i9")), 9);
    }

    #[test]
    fn places_follow_the_wxf_tandem_rules() {
        let o = |index, count| Origin {
            file: 3,
            index,
            count,
            other_tandem_file: false,
        };
        let places: Vec<Vec<Place>> = (1..=5)
            .map(|n| (0..n).map(|i| place(o(i, n))).collect())
            .collect();
        use Place::*;
        assert_eq!(places[0], [Alone]);
        assert_eq!(places[1], [Front, Rear]);
        assert_eq!(places[2], [Front, Middle, Rear]);
        assert_eq!(places[3], [Foremost, Front, Rear, Rearmost]);
        assert_eq!(places[4], [Foremost, Front, Middle, Rear, Rearmost]);
        assert_eq!(place(o(5, 6)), Ordinal(6));
    }

    #[test]
    fn describes_straight_and_diagonal_movers() {
        let mut board = Board::new(Side::RED);
        board.put(sq("h2"), Side::RED, PieceKind::Cannon);
        board.put(sq("h0"), Side::RED, PieceKind::Horse);
        board.put(sq("b9"), Side::BLACK, PieceKind::Horse);
        let d = describe(&board, sq("h2"), sq("e2")).unwrap();
        assert_eq!(
            (d.origin.file, d.direction, d.number),
            (2, Direction::Sideways, 5)
        );
        let d = describe(&board, sq("h0"), sq("g2")).unwrap();
        assert_eq!(
            (d.origin.file, d.direction, d.number),
            (2, Direction::Forward, 3)
        );
        let d = describe(&board, sq("b9"), sq("c7")).unwrap();
        assert_eq!(
            (d.origin.file, d.direction, d.number),
            (2, Direction::Forward, 3)
        );
    }
}
