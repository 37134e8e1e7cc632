#include "common/number_format.hpp"

#include <cmath>
#include <cstdio>

namespace perfgate {

std::string format_number(double v) {
  if (!std::isfinite(v)) return "inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1000 ? "%.0f" : std::fabs(v) >= 10 ? "%.1f" : "%.3g", v);
  return buf;
}

std::string format_p_value(double p) {
  if (p < 1e-15) return "<1e-15";
  char buf[32];
  std::snprintf(buf, sizeof buf, p < 0.001 ? "%.1e" : "%.3f", p);
  return buf;
}

}  // namespace perfgate
