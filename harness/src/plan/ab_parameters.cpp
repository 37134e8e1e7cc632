#include "plan/ab_parameters.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

#include "common/errors.hpp"

namespace perfgate::plan {
namespace {

// A decimal number as an integer count of 10^-decimals: exact steps, as hyperfine's Decimal.
struct Fixed {
  std::int64_t units = 0;
  int decimals = 0;
};

Fixed parse_fixed(const std::string& flag, const std::string& text) {
  Fixed f;
  std::size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) ++i;
  bool digits = false, point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9' || f.units > (INT64_MAX - 9) / 10)
      throw UsageError(flag + ": '" + text + "' is not a number");
    f.units = f.units * 10 + (c - '0');
    digits = true;
    if (point) ++f.decimals;
  }
  if (!digits) throw UsageError(flag + ": '" + text + "' is not a number");
  if (negative) f.units = -f.units;
  return f;
}

std::int64_t scaled(Fixed f, int decimals) {
  for (int d = f.decimals; d < decimals; ++d) f.units *= 10;
  return f.units;
}

std::string format_fixed(std::int64_t units, int decimals) {
  const bool negative = units < 0;
  std::string digits = std::to_string(negative ? -units : units);
  if (decimals > 0) {
    if (digits.size() <= static_cast<std::size_t>(decimals))
      digits.insert(0, static_cast<std::size_t>(decimals) + 1 - digits.size(), '0');
    digits.insert(digits.size() - static_cast<std::size_t>(decimals), ".");
  }
  return (negative ? "-" : "") + digits;
}

}  // namespace

Parameter parameter_scan(const std::string& name, const std::string& min, const std::string& max,
                         const std::string& step) {
  const std::string flag = "--parameter-scan " + name;
  const Fixed lo = parse_fixed(flag, min), hi = parse_fixed(flag, max);
  const Fixed by = step.empty() ? Fixed{1, 0} : parse_fixed("--parameter-step-size", step);
  const int decimals = std::max({lo.decimals, hi.decimals, by.decimals});
  const std::int64_t a = scaled(lo, decimals), b = scaled(hi, decimals), d = scaled(by, decimals);
  if (d <= 0) throw UsageError("--parameter-step-size: " + step + " must be above 0");
  if (b < a) throw UsageError(flag + ": MAX " + max + " is below MIN " + min);
  if ((b - a) / d >= 100000) throw UsageError(flag + ": more than 100,000 values");
  Parameter p{name, {}, true};
  for (std::int64_t v = a; v <= b; v += d) p.values.push_back(format_fixed(v, decimals));
  return p;
}

Parameter parameter_list(const std::string& name, const std::string& values) {
  Parameter p{name, {}, false};
  std::string value;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const char c = values[i];
    if (c == '\\' && i + 1 < values.size() && (values[i + 1] == ',' || values[i + 1] == '\\')) {
      value += values[++i];
    } else if (c == ',') {
      p.values.push_back(value);
      value.clear();
    } else {
      value += c;
    }
  }
  p.values.push_back(value);
  return p;
}

std::vector<Binding> parameter_combinations(const std::vector<Parameter>& parameters) {
  std::set<std::string> names;
  for (const auto& p : parameters) {
    if (p.name.empty()) throw UsageError("a parameter needs a name");
    if (!names.insert(p.name).second) throw UsageError("parameter " + p.name + " is given twice");
  }
  std::vector<Binding> out{{}};
  for (const auto& p : parameters) {
    std::vector<Binding> next;
    for (const auto& b : out)
      for (const auto& v : p.values) {
        Binding grown = b;
        grown.emplace_back(p.name, v);
        next.push_back(std::move(grown));
      }
    out = std::move(next);
  }
  return out;
}

std::string substitute(std::string text, const Binding& binding) {
  for (const auto& [name, value] : binding) {
    const std::string token = "{" + name + "}";
    for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + value.size()))
      text.replace(at, token.size(), value);
  }
  return text;
}

std::string describe(const Binding& binding) {
  std::string out;
  for (const auto& [name, value] : binding) out += (out.empty() ? "" : ",") + name + "=" + value;
  return out;
}

}  // namespace perfgate::plan
