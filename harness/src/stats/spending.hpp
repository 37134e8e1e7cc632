// Looks as often as they are useful, with the run's error held at alpha over all of them: an
// alpha-spending boundary (Lan & DeMets, Biometrika 1983) over the budget's time.
//
// A budgeted run (ab, gbench) spends alpha as its budget passes (budgeted_spending): a share at
// once, then Pocock's way, keeping some back for the test where the budget ends. Each look's
// nominal level is found from the correlation of
// cumulative statistics: the standardised rank statistic after n rounds behaves as B(n) / √n
// for a Brownian motion B (its increments are the rounds, independent and identically
// distributed under the null), so P(no earlier look crossed, this one does) is computed by
// numerical integration (Armitage, McPherson & Rowe 1969) and the boundary set where it equals
// the alpha spent since the last look. Unlike splitting alpha evenly between the looks
// (Bonferroni), the correlation between looks that share rounds is not paid for twice: the
// levels of 27 looks from 8 to 640 rounds add up to well over alpha, the run's error stays at
// alpha (spending_test), so looking every fifth more rounds costs little.
//
// Time decides where looks fall and how much each spends, never the data, so stopping at any
// look, or at the budget's end with everything left spent there, keeps the run at alpha.
#pragma once

#include <vector>

namespace perfgate::stats {

// Pocock-type spending: alpha · ln(1 + (e − 1) t), t clamped to [0, 1]; 0 at 0, alpha at 1.
double pocock_spending(double alpha, double t);

// What a budgeted run has spent by the share t of its design, at any test but the last:
// alpha · (0.16 + 0.56 ln(1 + (e − 1) t)). 0.16 alpha at once, so a first look at 8 rounds can
// decide (0.008 at alpha 0.05; the exact rank test of 8 rounds reaches 0.0078 when all agree, and
// a command of a second reaches its verdict in 16 runs, not hyperfine's 20); Pocock's way after;
// and 28% kept back for the last test, where the budget ends, since a short budget's verdicts are
// made there (simulated against the doubling looks on budgets of 20 to 640 rounds: as many "the
// same" at the end of the short ones, fewer rounds in the long).
double budgeted_spending(double alpha, double t);

class SpendingBoundary {
 public:
  // Throws std::invalid_argument unless 0 < alpha < 1.
  explicit SpendingBoundary(double alpha);
  // The nominal two-sided level of a test after `rounds` rounds (more than at the last look)
  // when `spent` of alpha is spent in all by it (at least what was spent already; alpha at a
  // last look). Throws std::invalid_argument unless rounds exceed the last look's.
  double look(int rounds, double spent);
  double spent() const { return spent_; }
  int rounds_at_last_look() const { return rounds_; }

 private:
  double alpha_;
  double spent_ = 0;
  int rounds_ = 0;
  // Where B(rounds_) may be with no look crossed so far: a sub-density on an even grid.
  std::vector<double> grid_, density_;
};

}  // namespace perfgate::stats
