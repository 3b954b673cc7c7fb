//! Glicko-2 ratings, pure (no I/O): Mark Glickman's "Example of the Glicko-2 system"
//! (<http://www.glicko.net/glicko/glicko2.pdf>), steps 1–8, with one game a rating period as
//! lichess does. The store applies [`rate_game`] inside the transaction that stores a game's
//! end (see `store::players`).
//!
//! May use: nothing of the server.

use std::f64::consts::PI;

/// The rating a new player starts with (Glicko scale).
pub const INITIAL_RATING: f64 = 1500.0;
/// The rating deviation a new player starts with, and the most it can be.
pub const INITIAL_DEVIATION: f64 = 350.0;
/// The least rating deviation (so that a rating always moves a little).
pub const MIN_DEVIATION: f64 = 45.0;
/// The volatility a new player starts with.
pub const INITIAL_VOLATILITY: f64 = 0.06;
/// τ, the system constant that limits how fast the volatility changes.
pub const TAU: f64 = 0.5;
/// A rating whose deviation is above this is provisional (as on lichess): shown with a `?`
/// and kept off the leaderboard.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The ratio between the Glicko and the Glicko-2 scales.
const SCALE: f64 = 173.7178;
/// The convergence tolerance of the volatility iteration (step 5).
const EPSILON: f64 = 0.000_001;

/// One player's Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: INITIAL_RATING,
            deviation: INITIAL_DEVIATION,
            volatility: INITIAL_VOLATILITY,
        }
    }
}

impl Rating {
    /// Whether the rating is still provisional (deviation above [`PROVISIONAL_DEVIATION`]).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }
}

/// One game of a rating period: the opponent's rating before it, and the score (1 a win,
/// 0.5 a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// 1, 0.5 or 0.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The new volatility (step 5, the Illinois algorithm as the paper gives it).
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    // The iteration converges in a few dozen steps; the bound only guards against NaN input.
    for _ in 0..200 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// `player`'s rating after a rating period with `games` (all against ratings from before the
/// period), with system constant `tau`. Without games only the deviation grows (step 6).
/// The deviation is not clamped here (see [`rate_game`]).
pub fn update(player: Rating, games: &[Game], tau: f64) -> Rating {
    let mu = (player.rating - INITIAL_RATING) / SCALE;
    let phi = player.deviation / SCALE;
    if games.is_empty() {
        let phi_star = (phi * phi + player.volatility * player.volatility).sqrt();
        return Rating {
            deviation: phi_star * SCALE,
            ..player
        };
    }
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for game in games {
        let mu_j = (game.opponent.rating - INITIAL_RATING) / SCALE;
        let phi_j = game.opponent.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        v_inv += g(phi_j).powi(2) * e * (1.0 - e);
        sum += g(phi_j) * (game.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    let sigma = new_volatility(phi, player.volatility, v, delta, tau);
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    Rating {
        rating: mu_new * SCALE + INITIAL_RATING,
        deviation: phi_new * SCALE,
        volatility: sigma,
    }
}

/// Both players' ratings after one game between them (one game a rating period), with
/// Jiang's [`TAU`] and the deviation kept within [`MIN_DEVIATION`]..=[`INITIAL_DEVIATION`].
/// `first_score` is the first player's score (1, 0.5 or 0).
pub fn rate_game(first: Rating, second: Rating, first_score: f64) -> (Rating, Rating) {
    let clamp = |r: Rating| Rating {
        deviation: r.deviation.clamp(MIN_DEVIATION, INITIAL_DEVIATION),
        ..r
    };
    let a = update(
        first,
        &[Game {
            opponent: second,
            score: first_score,
        }],
        TAU,
    );
    let b = update(
        second,
        &[Game {
            opponent: first,
            score: 1.0 - first_score,
        }],
        TAU,
    );
    (clamp(a), clamp(b))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        let games = [
            Game {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Game {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Game {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = update(r(1500.0, 200.0), &games, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser_by_as_much_between_equals() {
        let (winner, loser) = rate_game(Rating::default(), Rating::default(), 1.0);
        assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
        assert!((winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-9);
        assert!(winner.deviation < INITIAL_DEVIATION && winner.provisional());
        let (a, b) = rate_game(Rating::default(), Rating::default(), 0.5);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
    }

    /// A reference written straight from the paper's formulas, independently of [`update`]:
    /// plain bisection instead of the Illinois iteration for the volatility.
    fn reference(player: Rating, games: &[Game], tau: f64) -> Rating {
        let mu = (player.rating - 1500.0) / 173.7178;
        let phi = player.deviation / 173.7178;
        let gf = |p: f64| 1.0 / (1.0 + 3.0 * p.powi(2) / PI.powi(2)).sqrt();
        let (mut v_inv, mut s) = (0.0, 0.0);
        for game in games {
            let mj = (game.opponent.rating - 1500.0) / 173.7178;
            let pj = game.opponent.deviation / 173.7178;
            let e = 1.0 / (1.0 + (-gf(pj) * (mu - mj)).exp());
            v_inv += gf(pj).powi(2) * e * (1.0 - e);
            s += gf(pj) * (game.score - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * s;
        let a = player.volatility.powi(2).ln();
        let f = |x: f64| {
            x.exp() * (delta.powi(2) - phi.powi(2) - v - x.exp())
                / (2.0 * (phi.powi(2) + v + x.exp()).powi(2))
                - (x - a) / tau.powi(2)
        };
        // f decreases: bracket its root, then halve the bracket.
        let (mut lo, mut hi) = (a - 1.0, a + 1.0);
        while f(lo) < 0.0 {
            lo -= 1.0;
        }
        while f(hi) > 0.0 {
            hi += 1.0;
        }
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if f(mid) > 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let sigma = ((lo + hi) / 4.0).exp();
        let pstar = (phi.powi(2) + sigma.powi(2)).sqrt();
        let pnew = 1.0 / (1.0 / pstar.powi(2) + 1.0 / v).sqrt();
        Rating {
            rating: (mu + pnew.powi(2) * s) * 173.7178 + 1500.0,
            deviation: pnew * 173.7178,
            volatility: sigma,
        }
    }

    fn any_rating() -> impl Strategy<Value = Rating> {
        (800.0..2800.0f64, 45.0..350.0f64, 0.03..0.1f64).prop_map(
            |(rating, deviation, volatility)| Rating {
                rating,
                deviation,
                volatility,
            },
        )
    }

    proptest! {
        #[test]
        fn series_agree_with_the_reference(
            start in any_rating(),
            series in proptest::collection::vec((any_rating(), 0..3u8), 1..30),
        ) {
            let (mut ours, mut theirs) = (start, start);
            for (opponent, score) in series {
                let game = [Game { opponent, score: f64::from(score) / 2.0 }];
                ours = update(ours, &game, TAU);
                theirs = reference(theirs, &game, TAU);
                prop_assert!((ours.rating - theirs.rating).abs() < 0.01, "{ours:?} {theirs:?}");
                prop_assert!((ours.deviation - theirs.deviation).abs() < 0.01);
                prop_assert!((ours.volatility - theirs.volatility).abs() < 0.0001);
            }
        }
    }
}
