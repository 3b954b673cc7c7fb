//! The four games Jiang plays and the two families they belong to.

use crate::Side;

/// A variant name that Jiang does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}`: expected one of xiangqi, jieqi, shogi, minishogi")]
pub struct UnknownVariant(pub String);

named_enum! {
    /// A game Jiang plays. The variant picks the family and its parameters. Declared in
    /// display order; its name is the lowercase one used on the command line, in the API and
    /// in URLs.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Variant (unknown: UnknownVariant) {
        /// Chinese chess (象棋).
        Xiangqi = "xiangqi",
        /// Xiangqi with shuffled face-down pieces (揭棋).
        Jieqi = "jieqi",
        /// Japanese chess (将棋), 9×9.
        Shogi = "shogi",
        /// 5×5 shogi (5五将棋).
        Minishogi = "minishogi",
    }
}

/// The rules machinery a variant runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// 9×10 intersections: Xiangqi and Jieqi.
    Xiangqi,
    /// N×N squares with pieces in hand: Shogi and Minishogi.
    Shogi,
}

impl Variant {
    /// The family whose rules machinery this variant uses.
    pub const fn family(self) -> Family {
        match self {
            Variant::Xiangqi | Variant::Jieqi => Family::Xiangqi,
            Variant::Shogi | Variant::Minishogi => Family::Shogi,
        }
    }

    /// The name of `side` in this variant's family: `red`/`black` or `sente`/`gote`.
    pub const fn side_name(self, side: Side) -> &'static str {
        match (self.family(), side) {
            (Family::Xiangqi, Side::First) => "red",
            (Family::Xiangqi, Side::Second) => "black",
            (Family::Shogi, Side::First) => "sente",
            (Family::Shogi, Side::Second) => "gote",
        }
    }

    /// The side named `name` in this variant's family (`red`, `black`, `sente`, `gote`).
    pub fn side_from_name(self, name: &str) -> Option<Side> {
        Side::BOTH.into_iter().find(|&s| self.side_name(s) == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
        }
        assert!("chess".parse::<Variant>().is_err());
    }

    #[test]
    fn side_names_follow_the_family() {
        assert_eq!(Variant::Jieqi.side_name(Side::RED), "red");
        assert_eq!(Variant::Minishogi.side_name(Side::GOTE), "gote");
        assert_eq!(Variant::Shogi.side_from_name("sente"), Some(Side::First));
        assert_eq!(Variant::Shogi.side_from_name("red"), None);
    }
}
