#include "stats/verdict.hpp"

#include <cmath>
#include <stdexcept>

namespace perfgate::stats {

Verdict decide(const PairedRatio& r, double p_adjusted, double alpha, double noise, Better better) {
  if (!(alpha > 0.0 && alpha <= 1.0)) throw std::invalid_argument("alpha must be in (0, 1], e.g. 0.05");
  if (!(noise >= 0.0 && noise < 1.0)) throw std::invalid_argument("noise band must be in [0, 1), e.g. 0.02");
  if (!(p_adjusted < alpha)) return Verdict::NoChange;
  // Strict inequalities: the band is closed, so an interval touching its edge is not outside it.
  const bool below = r.ci.hi < 1.0 - noise;
  const bool above = r.ci.lo > 1.0 + noise;
  if (better == Better::Lower) {
    if (below) return Verdict::Better;
    if (above) return Verdict::Worse;
  } else {
    if (above) return Verdict::Better;
    if (below) return Verdict::Worse;
  }
  return Verdict::NoChange;
}

bool meets_factor(const PairedRatio& r, double factor, Better better) {
  if (!(factor > 0.0) || std::isinf(factor)) throw std::invalid_argument("claimed factor must be a positive number");
  return better == Better::Lower ? r.ci.hi <= 1.0 / factor : r.ci.lo >= factor;
}

}  // namespace perfgate::stats
