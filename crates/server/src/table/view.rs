//! A game drawn as the wire's types: the per-viewer variant fields of a view (Jieqi: only what
//! that viewer may know), the board hints and the history. The rules crate decides every
//! answer; this only changes its shape.

use std::collections::{BTreeMap, HashMap};

use jiang_protocol::{Capture, Hints, ImpassePoints, NotationList, ShownPosition, VariantFields};
use jiang_rules::jieqi::{JieqiView, Observer};
use jiang_rules::{AnyGame, NotationStyle, Side, Variant, WrongFamily, per_side, unseen};

/// [`AnyGame`] as the server shows it.
pub trait WireGame {
    /// The viewer's variant-specific view fields (Jieqi: commitment, captures, pools; after the
    /// end, deal and salt; shogi: impasse points). `viewer` is `None` for spectators.
    fn variant_fields(&self, viewer: Option<Side>) -> VariantFields;
    /// The view's `hints` for a viewer whose `legal_moves` (the view's: empty unless the
    /// viewer is to move) are given: the checked king, the legal moves' human names and, in
    /// shogi, whether impasse may be declared. Public information and the viewer's own only.
    fn hints(&self, legal_moves: &[String]) -> Hints;
    /// The move list in `style` with the positions the game went through (public positions)
    /// and Jieqi's reveal notes, or why this style does not fit this variant.
    fn history(&self, style: NotationStyle) -> Result<NotationList, WrongFamily>;
    /// On a finished Jieqi game analysed as one side knew it, while on the game's record: per
    /// side name, the pieces captured by that side as the knowing side saw them. `None`
    /// elsewhere.
    fn captured(&self) -> Option<BTreeMap<String, Vec<Capture>>>;
}

impl WireGame for AnyGame {
    fn variant_fields(&self, viewer: Option<Side>) -> VariantFields {
        if let Some(view) = self.view(Observer::from(viewer)) {
            return jieqi_fields(&view);
        }
        let impasse = self.impasse_points().map(|points| {
            per_side(Variant::Shogi, |side| {
                let p = &points[side.index()];
                ImpassePoints {
                    king_in_zone: p.king_in_zone,
                    pieces_in_zone: p.pieces_in_zone,
                    declaration: p.declaration,
                    needed: p.needed,
                    total: p.total,
                }
            })
        });
        VariantFields {
            impasse,
            ..VariantFields::default()
        }
    }

    fn hints(&self, legal_moves: &[String]) -> Hints {
        let names = if legal_moves.is_empty() {
            Vec::new()
        } else {
            self.legal_move_names()
        };
        let can_declare_impasse = self
            .can_declare_impasse()
            .map(|can| can && !legal_moves.is_empty());
        aligned_hints(self.check(), legal_moves, names, can_declare_impasse)
    }

    fn history(&self, style: NotationStyle) -> Result<NotationList, WrongFamily> {
        let moves = self.notation(style)?;
        let positions = self
            .public_positions()
            .into_iter()
            .map(|p| ShownPosition {
                fen: p.fen,
                check: p.check,
            })
            .collect();
        Ok(NotationList {
            style: style.name().to_owned(),
            moves,
            notes: self.reveal_notes(style),
            positions,
        })
    }

    fn captured(&self) -> Option<BTreeMap<String, Vec<Capture>>> {
        self.known_view().map(|view| captures(&view))
    }
}

/// Jieqi's fields of a view, from the viewer's [`JieqiView`] alone.
fn jieqi_fields(view: &JieqiView) -> VariantFields {
    let revelation = view.revelation.as_ref();
    VariantFields {
        commitment: Some(view.commitment.to_string()),
        captured: Some(captures(view)),
        pool: Some(unseen(view)),
        covered: Some(per_side(Variant::Jieqi, |side| view.covered[side.index()])),
        deal: revelation.map(|r| r.deal.to_string()),
        salt: revelation.map(|r| r.salt.to_string()),
        covered_pieces: revelation.map(|r| {
            r.covered
                .iter()
                .map(|(square, piece)| (square.to_string(), piece.fen_letter().to_string()))
                .collect()
        }),
        ..VariantFields::default()
    }
}

/// Per side name, the pieces captured by that side as `view`'s observer sees them.
fn captures(view: &JieqiView) -> BTreeMap<String, Vec<Capture>> {
    let name = |side: Side| Variant::Jieqi.side_name(side).to_owned();
    per_side(Variant::Jieqi, |side| {
        view.captured[side.index()]
            .iter()
            .map(|c| Capture {
                ply: c.ply as u64,
                square: c.square.to_string(),
                side: name(c.side),
                was_covered: c.was_covered,
                piece: c.piece.map(|p| p.fen_letter().to_string()),
            })
            .collect()
    })
}

/// Hints with `legal_names` aligned to `legal_moves` from `names` (machine text → names, as
/// the rules crate lists them). A move without names gets an empty list.
fn aligned_hints(
    check: Option<String>,
    legal_moves: &[String],
    names: Vec<(String, Vec<String>)>,
    can_declare_impasse: Option<bool>,
) -> Hints {
    let mut by_text: HashMap<String, Vec<String>> = names.into_iter().collect();
    let legal_names = legal_moves
        .iter()
        .map(|mv| by_text.remove(mv).unwrap_or_default())
        .collect();
    Hints {
        check,
        legal_names,
        can_declare_impasse,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_legal_moves_order_and_missing_ones_are_empty() {
        let legal = ["b".to_owned(), "a".to_owned(), "c".to_owned()];
        let names = vec![
            ("a".to_owned(), vec!["A".to_owned()]),
            ("b".to_owned(), vec!["B".to_owned(), "B2".to_owned()]),
        ];
        let hints = aligned_hints(None, &legal, names, None);
        assert_eq!(
            hints.legal_names,
            [
                vec!["B".to_owned(), "B2".to_owned()],
                vec!["A".to_owned()],
                vec![]
            ]
        );
        let json = serde_json::to_value(&hints).unwrap();
        assert!(json.get("can_declare_impasse").is_none());
        assert_eq!(json["check"], serde_json::Value::Null);
    }
}
