//! Jieqi's hidden information on top of the xiangqi family's public game.
//!
//! The core (`crate::xiangqi`) knows only what is public: which points are covered, the
//! identities revealed so far, and moves with their reveal suffixes. This module holds the
//! secret: the [`Deal`] (what lies under each covered point), its fairness [`Commitment`], and
//! what each player has learnt by capturing covered pieces ([`JieqiGame`]). A [`JieqiView`]
//! for each [`Observer`] is the only thing a server should ever send (jieqi.md, "What each
//! observer may know").

mod commitment;
mod deal;
mod game;
mod view;

pub use commitment::{
    COMMITMENT_PREFIX, Commitment, HexError, SALT_BYTES, Salt, committed_text, verify,
};
pub use deal::{
    COVERED_PER_SIDE, Deal, DealError, STANDARD_ORDER, deal_index, deal_points, moves_as,
};
pub use game::{JieqiError, JieqiGame};
pub use view::{CapturedPiece, JieqiView, Observer, Revelation, UnseenPool};
