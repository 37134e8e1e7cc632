// The three answers a gated comparison can give — changed (better or worse), the same, or
// cannot tell — each earned by a test at a stated level, never by the absence of one; and
// "at least N times better".
//
// With r the per-round log-ratios (AFTER / BEFORE, turned so that above 0 is worse) and b the
// noise band, one-sided signed-rank tests of the shifted rounds (the Wilcoxon test the Walsh
// interval inverts, so "the test rejects at a" is "the interval at 1 − 2a lies beyond the edge"):
//   worse   rejects θ ≤ ln(1 + b)                      (the interval wholly above +band)
//   better  rejects θ ≥ ln(1 − b)                      (wholly below −band)
//   same    rejects θ ≥ ln(1 + b)         (no-regress: non-inferiority, wholly below +band)
//           rejects both θ ≥ ln(1 + b) and θ ≤ ln(1 − b)   (otherwise: equivalence, TOST,
//                                                          wholly inside ±band)
// "worse" and "better" are Holm-corrected across the run's gated comparisons at the look's
// level: a false alarm may come from any of the m, so the family's chance of one stays under
// alpha. "the same" is not divided by m: it is an intersection-union test. A run passes only
// when every gated comparison earns its own "the same" (or "better"), so a comparison that
// moved beyond the band passes the run only by escaping its own test, at most alpha whatever
// m is; dividing by m bought nothing but rounds (at m = 20 and 7 looks the exact test could
// not say "the same" before round 13, and then only if every round agreed). A comparison none
// of its tests decides is "cannot tell": more rounds, more time or a wider band would decide it
// (rounds_to_decide says how many rounds).
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "perfgate/better.hpp"  // Better: the metric's direction
#include "perfgate/enum_names.hpp"
#include "stats/paired.hpp"

namespace perfgate::stats {

using perfgate::Better;
// "the same" is always inside ±band; "not worse" is no-regress's own word for an interval below
// +band that reaches past -band (AFTER may have gained, but not beyond the band at this level).
enum class Verdict { Better, Worse, Same, NotWorse, CannotTell };

constexpr auto names(Verdict) {
  return in_declaration_order<Verdict>({"better", "worse", "the same", "not worse", "cannot tell"});
}

// What a comparison may conclude short of a change: a no-regress gate also "not worse" (its
// non-inferiority is all it asks); improve and exploratory comparisons "the same" or nothing.
enum class SameMeans { NotWorse, Equivalent };

// The one-sided p-values of one comparison. p_same rejects both edges (inside ±band); p_not_worse
// only +band, and is 1 where "not worse" is no answer (SameMeans::Equivalent).
struct StateTests {
  double p_worse = 1, p_better = 1, p_same = 1, p_not_worse = 1;
};

// From the per-round log-ratios when the comparison has them; for a ratio of medians (counts
// with zeros) from its bootstrap interval and the two-sided rank test: beyond an edge, p/2;
// inside the band, the same at p = 0 (the interval's own level, uncorrected). Zero spread: exact.
// Throws std::invalid_argument unless 0 <= band < 1.
StateTests state_tests(const PairedRatio& r, double band, Better better, SameMeans same);

struct Decided {
  Verdict verdict = Verdict::CannotTell;
  double p_worse = 1, p_better = 1;    // Holm-adjusted
  double p_same = 1, p_not_worse = 1;  // as tested: an intersection-union test needs no correction
  // The two-sided level of the interval this verdict was decided on (the test that decided it,
  // or for "cannot tell" the one nearest to deciding): 1 - 2 alpha for "the same" and "not
  // worse", 1 - alpha / k for "worse" or "better" at Holm's k-th largest multiplier.
  double confidence = 0.95;
};

// The verdicts of `tests` (the run's gated comparisons): "worse" and "better" one-sided at
// alpha / 2, Holm-corrected across the family (a change may be called at either edge: the
// two-sided interval at 1 - alpha); "the same" and "not worse" one-sided at alpha itself, each
// edge's test rejecting a null of its own (Schuirmann's two one-sided tests: the interval at
// 1 - 2 alpha; a change of +band or more is called "the same" at most alpha of the time, as
// issue 48's simulation checks). The first earned of worse, better, the same, not worse is the
// verdict. Throws std::invalid_argument unless 0 < alpha <= 1.
std::vector<Decided> decide_verdicts(const std::vector<StateTests>& tests, double alpha);

// One comparison from its interval alone (two runs compared, no rounds): outside the band with
// p_adjusted < alpha is changed, inside it is the same, below +band (SameMeans::NotWorse) not
// worse, else cannot tell.
Verdict decide_interval(const PairedRatio& r, double p_adjusted, double alpha, double band, Better better,
                        SameMeans same);

// For a comparison that cannot tell: the rounds its observed spread needs for the two-sided
// interval at 1 - `alpha` (Decided::confidence: the nearest test's) to decide either way, from
// the normal approximation of the signed-rank interval:
// n ≥ (z σ √(π/3) / distance to the deciding edge)², and never fewer than the exact rank test
// needs to reject at all (stats/power.hpp: min_rank_rounds) or than n + 1. Rounds in all, not more. Null with no
// spread, no log-ratios, or an estimate on the edge itself.
std::optional<int> rounds_to_decide(const std::vector<double>& log_ratios, double alpha, double band, SameMeans same,
                                    Better better);

// "AFTER is at least `factor` x better", judged on the whole interval, not the point estimate:
// Lower: ci.hi <= 1 / factor; Higher: ci.lo >= factor. Throws std::invalid_argument unless
// factor > 0.
bool meets_factor(const PairedRatio& r, double factor, Better better);
// ... and the opposite answer: even the interval's best end does not reach the factor.
bool misses_factor(const PairedRatio& r, double factor, Better better);

}  // namespace perfgate::stats
