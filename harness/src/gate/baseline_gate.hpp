// The baseline gate: this run's AFTER/BEFORE ratios against the accepted ones in
// baseline.json. A ratio significantly worse than the baseline's, beyond a tolerance, fails;
// absolute medians are compared only on the host the baseline was measured on (reported, not
// gated: a machine's load moves them more than code does). A metric with no entry, or with an
// entry that cannot be compared, is "no comparable baseline" — never a pass.
//
// The test (docs/baseline.md): q = ratio_now / ratio_baseline on the log scale, each side's
// standard error recovered from its confidence interval, se = (ln hi - ln lo) / (2 z), so
// z = ln q / sqrt(se_now² + se_base²) with a two-sided normal p, Holm-corrected across the
// run's baseline comparisons. A verdict needs both that p below alpha and the interval of q,
// exp(ln q ± z sqrt(...)), wholly outside the tolerance band [1 - tol, 1 + tol].
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/baseline_file.hpp"

namespace perfgate::gate {

struct BaselineOptions {
  double alpha = 0.05;
  double tolerance = 0.05;  // a fraction; an entry's own tolerance wins
};

struct ShiftTest {
  double change = 1;  // now / baseline
  std::array<double, 2> ci{1, 1};
  double p = 1, p_adjusted = 1;
  std::string verdict = "no significant change";  // better, worse, no significant change
};

struct BaselineCheck {
  store::BaselineEntry now;                   // this run's figures, shaped like an entry
  std::optional<store::BaselineEntry> entry;  // the accepted one, when there is one
  bool comparable = false;
  std::string why;  // why not comparable
  double tolerance = 0.05;
  ShiftTest ratio;
  bool absolute_compared = false;
  std::string absolute_why;  // why absolute figures were (not) compared
  ShiftTest absolute;        // AFTER's median now / AFTER's median in the baseline
};

// ln(now/base) with standard errors from two intervals at `confidence`. Null when an end is
// not positive and finite.
std::optional<ShiftTest> shift_test(double now, std::array<double, 2> now_ci, double base,
                                    std::array<double, 2> base_ci, double confidence);

// Checks `now` (one entry per gated metric of the run, from store::entries_from_scenario)
// against `baseline`, Holm across the comparable ones, verdicts with the tolerance band.
std::vector<BaselineCheck> check_against_baseline(const std::vector<store::BaselineEntry>& now,
                                                  const store::Baseline& baseline, const BaselineOptions& options);

// {kind: baseline, name, passed (null when there was nothing to compare with), detail}.
nlohmann::json baseline_gate_json(const BaselineCheck& check);
// The figures behind the gate, for the scenario's `baseline` array in the results.
nlohmann::json to_json(const BaselineCheck& check);

}  // namespace perfgate::gate
