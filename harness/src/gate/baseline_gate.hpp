// The baseline gate: this run's AFTER/BEFORE ratios against the accepted ones in
// baseline.json (docs/baseline.md, "The comparison"). Only accepted runs that measured what this
// run measured count (the scenario fingerprint: sources, params, measurement version); the rest
// are stale. Then, by what the metric is:
//
// - exact (a count of the work, declared so where the metric is defined): compared on every
//   host class with the same core count; worse when it moved beyond the tolerance.
// - host-dependent (time, CPU, latency, memory): compared only with accepted runs on this
//   run's host class (CPU model x cores), and within it by machine (gate/spread_rule.hpp): this
//   machine's runs when it has at least 3 (between-run rule), else the spread of the class's
//   machines when two or more have runs (between-machine rule). y_i = ln ratio_i, mean ȳ, sd s
//   over k (runs or machines); this run's x = ln ratio is a new draw, so with d = (x - ȳ)
//   toward the bad side, t = (d - ln(1 + tol)) / (s sqrt(1 + 1/k)) has at most a t(k-1) tail:
//   one-sided p, Holm across the run's time-ratio comparisons, worse when p_adjusted < alpha.
//   The change's interval is the 95% prediction interval of the ratio. Otherwise: not
//   comparable, never a guess — ratios move by factors between CPU classes (carddav_report
//   0.459 on AMD EPYC, 0.133 on Intel Xeon) and by up to 50% between machines of one class.
// Absolute medians are compared only on the host the baseline was measured on (reported, not
// gated: a machine's load moves them more than code does). A metric with no entry, or with an
// entry that cannot be compared, is "no comparable baseline" — never a pass.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/defaults.hpp"
#include "model/results_model.hpp"

namespace perfgate::gate {

struct BaselineOptions {
  double alpha = defaults::kAlpha;
  double tolerance = defaults::kBaselineTolerance;  // a fraction; an entry's own tolerance wins
  int min_runs = 3;                                 // accepted runs on this machine for the between-run rule
  // The least between-run sd (ln ratio) the between-run rule assumes for a ratio that varies at
  // all: three runs recorded back to back on one machine can agree by chance far more closely
  // than two machines of one class do (photos_timeline's three agreed within 0.4%).
  double min_between_sd = 0.01;
};

struct ShiftTest {
  double change = 1;  // now / baseline
  std::array<double, 2> ci{1, 1};
  double p = 1, p_adjusted = 1;
  stats::Verdict verdict = stats::Verdict::CannotTell;
  std::string rule = "shift";  // between-run, between-machine, exact; shift (absolute figures)
  int accepted_runs = 0;       // runs behind the reference (on this host class for between-run)
  double between_sd = 0;       // sd of the accepted ln ratios (between-run)
  std::string why;             // which rule and why that one, for people
  // The ratios this rule does not call worse at α before Holm's correction: the
  // accepted band `history publish` draws. Ratio rules only.
  std::array<double, 2> accepted{0, 0};
};

struct BaselineCheck {
  model::BaselineEntry now;                   // this run's figures, shaped like an entry
  std::optional<model::BaselineEntry> entry;  // the accepted one, when there is one
  bool comparable = false;
  std::string why;  // why not comparable
  double tolerance = defaults::kBaselineTolerance;
  ShiftTest ratio;
  bool absolute_compared = false;
  std::string absolute_why;  // why absolute figures were (not) compared
  ShiftTest absolute;        // AFTER's median now / AFTER's median in the baseline
};

// ln(now/base) with standard errors from two intervals at `confidence`. Null when an end is
// not positive and finite.
std::optional<ShiftTest> shift_test(double now, std::array<double, 2> now_ci, double base,
                                    std::array<double, 2> base_ci, double confidence);

// The rule and the verdict of one ratio against an entry's accepted runs, before any
// correction (between-run p is Holm-corrected by check_against_baseline). None when nothing
// current on this host class (or core count, for an exact count) can be compared with; then
// `why_not` says why, with what the other classes accepted.
std::optional<ShiftTest> ratio_rule(const model::BaselineEntry& now, const model::BaselineEntry& entry,
                                    double tolerance, const BaselineOptions& options, std::string* why_not);

// Checks `now` (one entry per gated metric of the run, from gate::entries_from_scenario)
// against `baseline` with ratio_rule, Holm across the between-run comparisons.
std::vector<BaselineCheck> check_against_baseline(const std::vector<model::BaselineEntry>& now,
                                                  const model::Baseline& baseline, const BaselineOptions& options);

// The gate of one check: passed is empty when there was nothing to compare with. The figures
// behind it go to the scenario's `baseline` array (store/results_codec.hpp).
model::GateResult baseline_gate(const BaselineCheck& check);

}  // namespace perfgate::gate
