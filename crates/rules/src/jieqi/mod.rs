//! Jieqi's hidden information on top of the xiangqi family's public game.
//!
//! The core (`crate::xiangqi`) knows only what is public: which points are covered, the
//! identities revealed so far, and moves with their reveal suffixes. This module holds the
//! secret: the [`Deal`] (what lies under each covered point), its fairness [`Commitment`], and
//! what each player has learnt by capturing covered pieces ([`JieqiGame`]). A [`JieqiView`]
//! for each [`Observer`] is the only thing a server should ever send (jieqi.md, "What each
//! observer may know").
//!
//! ```
//! use jiang_rules::jieqi::{JieqiGame, Observer, verify};
//! use jiang_rules::{Outcome, Reason, Side};
//!
//! // The server deals from the operating system's generator.
//! let mut game = JieqiGame::new(&mut rand_core::UnwrapErr(rand_core::OsRng));
//! let commitment = *game.commitment(); // published at creation
//! let played = game.play("h2h9")?; // as the player sent it; the deal supplies the reveal
//! assert_eq!(played.iccs(), "h2h9");
//! let red = game.view(Observer::Red); // Red learns what it captured on h9 ...
//! assert!(red.captured[0][0].piece.is_some());
//! let spectator = game.view(Observer::Spectator); // ... nobody else does
//! assert!(spectator.captured[0][0].piece.is_none());
//! game.end(Outcome::win(Side::BLACK, Reason::Resignation))?;
//! let revelation = game.view(Observer::Spectator).revelation.unwrap();
//! assert!(verify(&commitment, &revelation.deal, &revelation.salt));
//! # Ok::<(), jiang_rules::jieqi::JieqiError>(())
//! ```

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
