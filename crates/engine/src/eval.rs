//! Evaluation per family, written as a sum of weighted terms so that one function serves the
//! search (adding `weight × coefficient`) and the tuner (collecting the coefficients). Each
//! family's terms live beside its game tree: `xiangqi::eval`, `shogi::eval`.

/// Coefficients are in sixteenths: a score is `Σ weight × coefficient / SCALE`.
pub const SCALE: i32 = 16;

/// Where evaluation terms go.
pub trait Terms {
    /// Adds `coefficient` (in sixteenths) of weight number `index`.
    fn add(&mut self, index: usize, coefficient: i32);
}

/// Sums the terms with a weight vector: the score the search uses.
pub struct Sum<'w> {
    /// The weights.
    pub weights: &'w [i32],
    /// The running total (in sixteenths of a centipawn).
    pub total: i64,
}

impl Terms for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, coefficient: i32) {
        self.total += self.weights[index] as i64 * coefficient as i64;
    }
}

/// Collects the coefficients: the features the tuner fits.
pub struct Features(pub Vec<f64>);

impl Terms for Features {
    fn add(&mut self, index: usize, coefficient: i32) {
        self.0[index] += coefficient as f64 / SCALE as f64;
    }
}
