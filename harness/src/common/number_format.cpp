#include "common/number_format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

namespace perfgate {
namespace {

const char* const kMinus = "\xE2\x88\x92";  // U+2212, as the report prints it

// A unit's scale: the units it steps through, each `base` times the last.
struct Scale {
  std::vector<std::string> names;
  double base = 1000;
  std::size_t index = 0;  // where the given unit sits in `names`
};

std::optional<Scale> scale_of(const std::string& unit) {
  if (unit == "ns" || unit == "us" || unit == "µs" || unit == "ms" || unit == "s") {
    Scale s{{"ns", "µs", "ms", "s"}, 1000};
    s.index = unit == "ns" ? 0 : unit == "ms" ? 2 : unit == "s" ? 3 : 1;
    return s;
  }
  const bool rate = unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0;
  const std::string stem = rate ? unit.substr(0, unit.size() - 2) : unit;
  const std::vector<std::string> binary = {"B", "KiB", "MiB", "GiB", "TiB"};
  for (std::size_t k = 0; k < binary.size(); ++k)
    if (stem == binary[k] || (k == 0 && stem == "bytes")) {
      Scale s{binary, 1024, k};
      if (rate)
        for (auto& n : s.names) n += "/s";
      return s;
    }
  // Other rates: SI prefixes glued to the number ("39.8k req/s").
  if (rate || unit == "rps") return Scale{{"", "k", "M", "G"}, 1000, 0};
  return std::nullopt;
}

// Decimals for about three significant figures; none: below 1, "%#.3g" instead.
std::optional<int> decimals(double a) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", a);
  const double r = std::strtod(buf, nullptr);
  if (r >= 100) return 0;
  if (r >= 10) return 1;
  if (r >= 1) return 2;
  return std::nullopt;
}

double displayed(double a) {
  const auto d = decimals(a);
  if (!d) return a;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", *d, a);
  return std::strtod(buf, nullptr);
}

std::string with_separators(const std::string& digits) {
  const std::size_t dot = digits.find('.');
  const std::size_t whole = dot == std::string::npos ? digits.size() : dot;
  std::string out;
  for (std::size_t i = 0; i < whole; ++i) {
    if (i && (whole - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out + digits.substr(whole);
}

// |v| in about three significant figures; whole numbers of a count stay whole.
std::string magnitude(double a, bool count) {
  char buf[64];
  if (a == 0) return "0";
  if (count && a == std::floor(a) && a < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", a);
    return with_separators(buf);
  }
  if (const auto d = decimals(a)) {
    std::snprintf(buf, sizeof buf, "%.*f", *d, a);
    return with_separators(buf);
  }
  std::snprintf(buf, sizeof buf, "%#.3g", a);
  if (std::string(buf).find('e') != std::string::npos) std::snprintf(buf, sizeof buf, "%.2e", a);
  return buf;
}

}  // namespace

std::string format_quantity(double value, const std::string& unit) {
  if (std::isnan(value)) return "\xE2\x80\x94";  // —
  const std::string sign = value < 0 ? kMinus : "";
  if (std::isinf(value)) return sign + "\xE2\x88\x9E";  // ∞
  double a = std::fabs(value);
  if (unit == "%") return sign + magnitude(a, false) + "%";
  const bool plain = unit.empty() || unit == "count" || unit == "ratio" || unit == "1";
  auto scale = scale_of(unit);
  if (!scale) return sign + magnitude(a, true) + (plain ? "" : " " + unit);
  if (a == 0) return "0 " + unit;
  // Down while the figure is below 1, then up while it would print as a whole step of the next unit.
  std::size_t i = scale->index;
  while (i > 0 && a < 1) {
    a *= scale->base;
    --i;
  }
  while (i + 1 < scale->names.size() && displayed(a) >= scale->base) {
    a /= scale->base;
    ++i;
  }
  const bool si = scale->names.front().empty();
  const bool whole = !si && scale->base == 1024 && i == 0;  // bytes stay whole; times and rates do not
  const std::string number = sign + magnitude(a, whole);
  if (si) return number + scale->names[i] + (unit == "1/s" || unit == "/s" ? "/s" : " " + unit);
  return number + " " + scale->names[i];
}

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

std::string format_percent(double fraction, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f%%", decimals, 100 * fraction);
  return buf;
}

std::string format_change(double ratio) {
  if (!std::isfinite(ratio)) return "+inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (ratio - 1) * 100);
  return buf;
}

}  // namespace perfgate
