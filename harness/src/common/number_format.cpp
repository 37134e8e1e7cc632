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

}  // namespace perfgate
