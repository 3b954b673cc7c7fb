//! Game ids and seat tokens: random from the operating system, tokens stored only as SHA-256
//! hashes and compared in constant time. A rematch seat's token is derived from the player's
//! token in the finished game, so the server never has to keep a plaintext token to hand it out.

use hmac::{Hmac, Mac};
use rand::TryRngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Random base62 text of `len` characters (rejection sampling: no modulo bias).
pub fn random_base62(len: usize) -> String {
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 64];
    while out.len() < len {
        OsRng
            .try_fill_bytes(&mut buf)
            .expect("the operating system's random source failed");
        for &b in &buf {
            // 248 = 4 * 62: bytes below it map uniformly.
            if b < 248 && out.len() < len {
                out.push(BASE62[(b % 62) as usize] as char);
            }
        }
    }
    out
}

/// A new game id: 10 base62 characters (about 59 bits), short enough for a link.
pub fn new_game_id() -> String {
    random_base62(10)
}

/// Whether `id` looks like a game id (so junk never reaches the database).
pub fn is_game_id(id: &str) -> bool {
    (8..=32).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A new seat token: 32 base62 characters (about 190 bits).
pub fn new_token() -> String {
    random_base62(32)
}

/// The token of a player's seat in the rematch of game `game_id`, derived from the token
/// `old_token` of the player's seat in that game: HMAC-SHA256 keyed with the old token, written
/// as 32 base62 characters like any token.
///
/// Only the holder of the old token can compute it, so the server stores just its hash, hands it
/// to that player whenever the player shows the old token (after a restart too), and every tab
/// of the player gets the same one. A game has at most one rematch, so the game id makes it
/// unique.
pub fn rematch_token(old_token: &str, game_id: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(old_token.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(b"jiang-rematch-v1:");
    mac.update(game_id.as_bytes());
    let mut n: [u8; 32] = mac.finalize().into_bytes().into();
    // The low 32 base62 digits of the 256-bit MAC read as a big-endian number: 62^32 is about
    // 2^190.5, far below 2^256, so every digit is as good as uniform.
    let mut out = [0u8; 32];
    for digit in out.iter_mut().rev() {
        let mut rem = 0u32;
        for byte in n.iter_mut() {
            let acc = (rem << 8) | u32::from(*byte);
            *byte = (acc / 62) as u8;
            rem = acc % 62;
        }
        *digit = BASE62[rem as usize];
    }
    out.iter().map(|&b| b as char).collect()
}

/// The stored form of a token: SHA-256, hex.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Whether `token` hashes to `stored`, compared in constant time.
pub fn token_matches(token: &str, stored: &str) -> bool {
    let hashed = hash_token(token);
    hashed.as_bytes().ct_eq(stored.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_are_base62_and_distinct() {
        let a = new_game_id();
        assert_eq!(a.len(), 10);
        assert!(is_game_id(&a));
        assert_ne!(a, new_game_id());
        let t = new_token();
        assert_eq!(t.len(), 32);
        assert!(token_matches(&t, &hash_token(&t)));
        assert!(!token_matches(&new_token(), &hash_token(&t)));
        assert!(!is_game_id("../etc"));
    }

    #[test]
    fn rematch_tokens_are_tokens_bound_to_the_old_token_and_the_game() {
        let old = new_token();
        let derived = rematch_token(&old, "Ab3dE5gH9k");
        assert_eq!(derived.len(), 32);
        assert!(derived.bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_eq!(derived, rematch_token(&old, "Ab3dE5gH9k"), "deterministic");
        assert_ne!(derived, rematch_token(&old, "Ab3dE5gH9K"));
        assert_ne!(derived, rematch_token(&new_token(), "Ab3dE5gH9k"));
        assert_ne!(derived, old);
    }

    #[test]
    fn rematch_token_matches_an_independent_hmac() {
        // Both values computed independently with Python's hmac module and int arithmetic.
        const EXPECTED_HMAC_HEX: &str =
            "5c6c0a4aa0c58f06416670b02073b3b2215dacfc12432be624003c83bd8d0e19";
        const EXPECTED_TOKEN: &str = "gBgk31G3RCKvitzBX51W9PCoc0CfW2Kf";
        let mac = {
            let mut m = Hmac::<Sha256>::new_from_slice(b"k").unwrap();
            m.update(b"jiang-rematch-v1:g");
            hex::encode(m.finalize().into_bytes())
        };
        assert_eq!(mac, EXPECTED_HMAC_HEX);
        assert_eq!(rematch_token("k", "g"), EXPECTED_TOKEN);
    }
}
