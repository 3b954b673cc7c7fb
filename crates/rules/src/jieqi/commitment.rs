//! The fairness commitment: published at the start, checkable by anyone at the end.
//!
//! # Exact bytes
//!
//! The commitment is the SHA-256 digest of the ASCII string
//!
//! ```text
//! jiang-jieqi-v1:<red word>:<black word>:<salt hex>
//! ```
//!
//! where `<red word>` is Red's 15 identities in deal order as uppercase FEN letters
//! (`RNBAABNRCCPPPPP` unshuffled), `<black word>` is Black's as lowercase letters
//! (`rnbaabnrccppppp`), and `<salt hex>` is the 16-byte salt as 32 lowercase hexadecimal
//! digits. There is no trailing newline. The commitment is written as 64 lowercase
//! hexadecimal digits. Deal order is Red a0 b0 c0 d0 f0 g0 h0 i0 b2 h2 a3 c3 e3 g3 i3 and
//! Black a9 b9 c9 d9 f9 g9 h9 i9 b7 h7 a6 c6 e6 g6 i6.
//!
//! Anyone can check a finished game with a shell:
//!
//! ```text
//! printf '%s' 'jiang-jieqi-v1:RNBAABNRCCPPPPP:rnbaabnrccppppp:000102030405060708090a0b0c0d0e0f' | sha256sum
//! ```
//!
//! which prints the commitment of that (unshuffled) deal and salt (the test vector in this
//! module's tests).

use std::fmt;
use std::str::FromStr;

use rand_core::CryptoRng;
use sha2::{Digest, Sha256};

use super::Deal;
use crate::Side;

/// The prefix of the committed string; a new format would get a new version.
pub const COMMITMENT_PREFIX: &str = "jiang-jieqi-v1";

/// Bytes of salt.
pub const SALT_BYTES: usize = 16;

/// The random salt that keeps a commitment from being brute-forced over the possible deals.
/// Secret until the game ends; `Debug` does not print it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Salt([u8; SALT_BYTES]);

/// The SHA-256 commitment to a deal and its salt (see the module documentation for the bytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Commitment([u8; 32]);

/// A salt or commitment that is not the right number of hexadecimal digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected} hexadecimal digits, got `{text}`")]
pub struct HexError {
    /// How many digits were expected.
    pub expected: usize,
    /// What was given.
    pub text: String,
}

impl Salt {
    /// A fresh salt from a cryptographically secure generator.
    pub fn random<R: CryptoRng + ?Sized>(rng: &mut R) -> Salt {
        let mut bytes = [0; SALT_BYTES];
        rng.fill_bytes(&mut bytes);
        Salt(bytes)
    }

    /// A salt with these bytes (for verifying a published game).
    pub const fn from_bytes(bytes: [u8; SALT_BYTES]) -> Salt {
        Salt(bytes)
    }

    /// The salt's bytes.
    pub const fn bytes(&self) -> [u8; SALT_BYTES] {
        self.0
    }
}

impl fmt::Debug for Salt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Salt(<hidden>)")
    }
}

impl fmt::Display for Salt {
    /// 32 lowercase hexadecimal digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, &self.0)
    }
}

impl FromStr for Salt {
    type Err = HexError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_hex(text).map(Salt)
    }
}

impl Commitment {
    /// The commitment to `deal` under `salt`.
    pub fn new(deal: &Deal, salt: &Salt) -> Commitment {
        Commitment(Sha256::digest(committed_text(deal, salt).as_bytes()).into())
    }

    /// Whether `deal` and `salt` are what this commitment was made from.
    pub fn verify(&self, deal: &Deal, salt: &Salt) -> bool {
        // Public data on both sides: no need for a constant-time comparison.
        Commitment::new(deal, salt) == *self
    }

    /// The digest's bytes.
    pub const fn bytes(&self) -> [u8; 32] {
        self.0
    }
}

impl fmt::Display for Commitment {
    /// 64 lowercase hexadecimal digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(f, &self.0)
    }
}

impl fmt::Debug for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Commitment({self})")
    }
}

impl FromStr for Commitment {
    type Err = HexError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_hex(text).map(Commitment)
    }
}

/// Whether `commitment` was made from `deal` and `salt`: what a player checks after the game.
pub fn verify(commitment: &Commitment, deal: &Deal, salt: &Salt) -> bool {
    commitment.verify(deal, salt)
}

/// The exact string that is hashed: `jiang-jieqi-v1:<red>:<black>:<salt hex>`.
pub fn committed_text(deal: &Deal, salt: &Salt) -> String {
    format!(
        "{COMMITMENT_PREFIX}:{}:{}:{salt}",
        deal.letters(Side::RED),
        deal.letters(Side::BLACK)
    )
}

fn write_hex(f: &mut fmt::Formatter<'_>, bytes: &[u8]) -> fmt::Result {
    bytes.iter().try_for_each(|b| write!(f, "{b:02x}"))
}

fn parse_hex<const N: usize>(text: &str) -> Result<[u8; N], HexError> {
    let error = || HexError {
        expected: 2 * N,
        text: text.to_owned(),
    };
    let digits = text.as_bytes();
    if digits.len() != 2 * N {
        return Err(error());
    }
    let mut bytes = [0; N];
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        let high = (pair[0] as char).to_digit(16).ok_or_else(error)?;
        let low = (pair[1] as char).to_digit(16).ok_or_else(error)?;
        bytes[i] = (high * 16 + low) as u8;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    const VECTOR_SALT: &str = "000102030405060708090a0b0c0d0e0f";

    #[test]
    fn test_vector_matches_sha256sum() {
        // printf '%s' 'jiang-jieqi-v1:RNBAABNRCCPPPPP:rnbaabnrccppppp:000102030405060708090a0b0c0d0e0f' | sha256sum
        let salt: Salt = VECTOR_SALT.parse().unwrap();
        assert_eq!(
            committed_text(&Deal::STANDARD, &salt),
            "jiang-jieqi-v1:RNBAABNRCCPPPPP:rnbaabnrccppppp:000102030405060708090a0b0c0d0e0f"
        );
        let commitment = Commitment::new(&Deal::STANDARD, &salt);
        assert_eq!(commitment.to_string(), TEST_VECTOR_DIGEST);
        assert!(verify(&commitment, &Deal::STANDARD, &salt));
    }

    /// Computed independently with coreutils' `sha256sum` (see above).
    const TEST_VECTOR_DIGEST: &str =
        "dc64c09e9604b499b8584131907956b83cc83ab85d39dad4f7c38ef876333efd";

    #[test]
    fn round_trip_and_tamper() {
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        for _ in 0..20 {
            let deal = Deal::shuffled(&mut rng);
            let salt = Salt::random(&mut rng);
            let commitment = Commitment::new(&deal, &salt);
            let published: Commitment = commitment.to_string().parse().unwrap();
            let deal_back: Deal = deal.to_string().parse().unwrap();
            let salt_back: Salt = salt.to_string().parse().unwrap();
            assert!(published.verify(&deal_back, &salt_back));
            let mut other_salt = salt.bytes();
            other_salt[0] ^= 1;
            assert!(!published.verify(&deal, &Salt::from_bytes(other_salt)));
            let other_deal = Deal::shuffled(&mut rng);
            if other_deal != deal {
                assert!(!published.verify(&other_deal, &salt));
            }
        }
    }

    #[test]
    fn bad_hex_is_rejected() {
        assert!("00".parse::<Salt>().is_err());
        assert!("zz0102030405060708090a0b0c0d0e0f".parse::<Salt>().is_err());
        assert!("é0102030405060708090a0b0c0d0e0".parse::<Salt>().is_err());
        assert_eq!(format!("{:?}", Salt::from_bytes([1; 16])), "Salt(<hidden>)");
    }
}
