// From a paired ratio to a verdict, and to "at least N times better".
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "perfgate/better.hpp"  // Better: the metric's direction
#include "stats/paired.hpp"

namespace perfgate::stats {

using perfgate::Better;
enum class Verdict { Better, Worse, NoChange };

constexpr std::array<std::pair<Verdict, std::string_view>, 3> names(Verdict) {
  return {{{Verdict::Better, "better"}, {Verdict::Worse, "worse"}, {Verdict::NoChange, "no significant change"}}};
}

// Better or Worse only when both hold: p_adjusted < alpha (p_adjusted already corrected for
// every comparison of the run, e.g. by holm()) and the CI lies wholly outside the noise band
// [1 - noise, 1 + noise], on AFTER's good side (Better) or bad side (Worse) given `better`.
// Anything else, a NaN p included, is NoChange. Throws std::invalid_argument unless
// 0 < alpha <= 1 and 0 <= noise < 1.
Verdict decide(const PairedRatio& r, double p_adjusted, double alpha, double noise, Better better);

// "AFTER is at least `factor` x better", judged on the whole interval, not the point estimate:
// Lower: ci.hi <= 1 / factor; Higher: ci.lo >= factor. Throws std::invalid_argument unless
// factor > 0.
bool meets_factor(const PairedRatio& r, double factor, Better better);

}  // namespace perfgate::stats
