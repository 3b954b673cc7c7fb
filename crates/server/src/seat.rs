//! Game ids and seat tokens: random from the operating system, tokens stored only as SHA-256
//! hashes and compared in constant time.

use rand::TryRngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Random base62 text of `len` characters (rejection sampling: no modulo bias).
fn base62(len: usize) -> String {
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
    base62(10)
}

/// Whether `id` looks like a game id (so junk never reaches the database).
pub fn is_game_id(id: &str) -> bool {
    (8..=32).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A new seat token: 32 base62 characters (about 190 bits).
pub fn new_token() -> String {
    base62(32)
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
}
