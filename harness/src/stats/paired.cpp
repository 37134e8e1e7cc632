#include "stats/paired.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "stats/power.hpp"
#include "stats/rank_tests.hpp"
#include "stats/summary.hpp"
#include "stats/walsh.hpp"

namespace perfgate::stats {

namespace {

void require_pairs(const std::vector<double>& before, const std::vector<double>& after) {
  if (before.size() != after.size()) {
    throw std::invalid_argument("paired ratio: BEFORE has " + std::to_string(before.size()) + " rounds and AFTER " +
                                std::to_string(after.size()) + "; every round must measure both");
  }
  if (before.size() < 2) throw std::invalid_argument("paired ratio needs at least 2 rounds");
  for (const auto* side : {&before, &after}) {
    for (double v : *side) {
      if (!std::isfinite(v)) throw std::invalid_argument("paired ratio: non-finite sample");
      // A ratio of medians that can change sign says nothing about "how many times better".
      if (v < 0.0) throw std::invalid_argument("paired ratio: negative sample; ratios need a metric >= 0");
    }
  }
}

double ratio_of_medians(double after_median, double before_median) {
  if (before_median == 0.0) {
    return after_median == 0.0 ? 1.0 : std::numeric_limits<double>::infinity();
  }
  return after_median / before_median;
}

// The type-7 median (percentile_sorted's) by selection, not a full sort: it runs 10,000 times
// per interval, at every look of a run, for each metric with a zero.
double median_of(const std::vector<double>& values, const std::vector<std::size_t>& idx, std::vector<double>& scratch) {
  for (std::size_t k = 0; k < idx.size(); ++k) scratch[k] = values[idx[k]];
  const std::size_t mid = scratch.size() / 2;
  std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(mid), scratch.end());
  if (scratch.size() % 2 == 1) return scratch[mid];
  const double lo = *std::max_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(mid));
  return lo + 0.5 * (scratch[mid] - lo);
}

}  // namespace

PairedRatio paired_ratio(const std::vector<double>& before, const std::vector<double>& after, std::uint64_t seed,
                         int resamples, double confidence) {
  require_pairs(before, after);
  const std::size_t n = before.size();
  const bool positive = std::all_of(before.begin(), before.end(), [](double v) { return v > 0.0; }) &&
                        std::all_of(after.begin(), after.end(), [](double v) { return v > 0.0; });

  PairedRatio out{};
  out.n = n;
  out.log_scale = positive;
  // Ranks are unchanged by log, so the raw values give the same U with no rounding ties.
  out.p_mann_whitney = mann_whitney_u(before, after).p_value;

  if (positive) {
    // Log-ratios make "2x slower" and "2x faster" symmetric, and pairing cancels the drift a
    // round shares between its variants.
    std::vector<double> r(n);
    for (std::size_t i = 0; i < n; ++i) r[i] = std::log(after[i] / before[i]);
    const ShiftEstimate hl = hodges_lehmann(r, confidence);
    out.ratio = std::exp(hl.estimate);
    out.ci = {std::exp(hl.lo), std::exp(hl.hi)};
    out.ci_confidence = hl.confidence;
    out.log_ratios = r;
    if (zero_spread(r)) {
      out.zero_spread = true;
      out.p_wilcoxon = r[0] == 0.0 ? 1.0 : 0.0;
      out.wilcoxon_method = "zero-spread";
      return out;
    }
    const TestResult w = wilcoxon_signed_rank(r);
    out.p_wilcoxon = w.p_value;
    out.wilcoxon_method = w.method;
    return out;
  }

  // A zero makes log-ratios undefined, so fall back to the ratio of medians: robust to the
  // zeros of a count and still 1 when nothing changed.
  out.ratio = ratio_of_medians(median(after), median(before));
  out.ci_confidence = confidence;
  std::vector<double> scratch_before(n);
  std::vector<double> scratch_after(n);
  out.ci = bootstrap_ci(n, seed, resamples, confidence, [&](const std::vector<std::size_t>& idx) {
    return ratio_of_medians(median_of(after, idx, scratch_after), median_of(before, idx, scratch_before));
  });
  if (zero_spread(before) && zero_spread(after)) {
    out.zero_spread = true;
    out.p_wilcoxon = before[0] == after[0] ? 1.0 : 0.0;
    out.wilcoxon_method = "zero-spread";
    return out;
  }
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i) d[i] = after[i] - before[i];
  const TestResult w = wilcoxon_signed_rank(d);
  out.p_wilcoxon = w.p_value;
  out.wilcoxon_method = w.method;
  return out;
}

bool reaches_level(const PairedRatio& r, double asked) { return r.zero_spread || r.ci_confidence + 1e-9 >= asked; }

}  // namespace perfgate::stats
