//! The four games Jiang plays and the two families they belong to.

use std::fmt;
use std::str::FromStr;

use crate::Side;

/// A game Jiang plays. The variant picks the family and its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Chinese chess (象棋).
    Xiangqi,
    /// Xiangqi with shuffled face-down pieces (揭棋).
    Jieqi,
    /// Japanese chess (将棋), 9×9.
    Shogi,
    /// 5×5 shogi (5五将棋).
    Minishogi,
}

/// The rules machinery a variant runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// 9×10 intersections: Xiangqi and Jieqi.
    Xiangqi,
    /// N×N squares with pieces in hand: Shogi and Minishogi.
    Shogi,
}

/// A variant name that Jiang does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}`: expected one of xiangqi, jieqi, shogi, minishogi")]
pub struct UnknownVariant(pub String);

impl Variant {
    /// Every variant, in display order.
    pub const ALL: [Variant; 4] = [
        Variant::Xiangqi,
        Variant::Jieqi,
        Variant::Shogi,
        Variant::Minishogi,
    ];

    /// The lowercase name used on the command line, in the API and in URLs.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Xiangqi => "xiangqi",
            Variant::Jieqi => "jieqi",
            Variant::Shogi => "shogi",
            Variant::Minishogi => "minishogi",
        }
    }

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

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| UnknownVariant(s.to_owned()))
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
