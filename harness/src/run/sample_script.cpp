#include "run/sample_script.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "run/metric_specs.hpp"

namespace perfgate::run {
namespace {

using json = nlohmann::json;

// The same numbers on every platform and standard library (std::uniform_real_distribution's
// are not), so a test can state what a generated round reports.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

template <typename T>
const T& cycled(const std::vector<T>& list, int measured_round) {
  return list[static_cast<std::size_t>(measured_round - 1) % list.size()];
}

struct Reader {
  std::string file;
  UsageError fail(const std::string& field, const std::string& why) const {
    return UsageError(file + ": " + field + ": " + why + " (--debug-samples; the format is in run/sample_script.hpp)");
  }

  double value(const json& v, const std::string& at) const {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
      throw fail(at, "must be a number >= 0, not " + v.dump());
    return v.get<double>();
  }

  SampleScript::Values values(const json& v, const std::string& at) const {
    SampleScript::Values out;
    if (v.is_number()) {
      out.list = {value(v, at)};
    } else if (v.is_array()) {
      if (v.empty()) throw fail(at, "must list at least one value");
      for (std::size_t i = 0; i < v.size(); ++i) out.list.push_back(value(v[i], at + "[" + std::to_string(i) + "]"));
    } else if (v.is_object()) {
      for (const auto& [k, _] : v.items())
        if (k != "median" && k != "spread" && k != "seed") throw fail(at + "." + k, "unknown (median, spread, seed)");
      if (!v.contains("median")) throw fail(at + ".median", "missing");
      out.median = value(v["median"], at + ".median");
      out.spread = v.contains("spread") ? value(v["spread"], at + ".spread") : 0.0;
      if (out.spread >= 1) throw fail(at + ".spread", "must be below 1 (a share of the median), or values go negative");
      if (v.contains("seed")) {
        if (!v["seed"].is_number_unsigned()) throw fail(at + ".seed", "must be an integer >= 0");
        out.seed = v["seed"].get<std::uint64_t>();
      }
    } else {
      throw fail(at, "must be a number, a list of numbers or {\"median\": M, \"spread\": S}");
    }
    return out;
  }

  template <typename T>
  std::vector<T> list_of(const json& v, const std::string& at, bool (json::*is)() const, const char* what) const {
    const json items = v.is_array() ? v : json::array({v});
    if (items.empty()) throw fail(at, std::string("must list at least one ") + what);
    std::vector<T> out;
    for (const auto& x : items) {
      if (!(x.*is)()) throw fail(at, std::string("must be ") + what + " or a list of them, not " + x.dump());
      out.push_back(x.get<T>());
    }
    return out;
  }

  SampleScript::Variant variant(const json& v, const std::string& at) const {
    if (!v.is_object() || v.empty()) throw fail(at, "must be an object of metrics, digest and exit_code");
    SampleScript::Variant out;
    for (const auto& [k, x] : v.items()) {
      if (k == "digest")
        out.digests = list_of<std::string>(x, at + ".digest", &json::is_string, "a string");
      else if (k == "exit_code")
        out.exit_codes = list_of<int>(x, at + ".exit_code", &json::is_number_integer, "an integer");
      else
        out.metrics[k] = values(x, at + "." + k);
    }
    return out;
  }

  std::map<std::string, SampleScript::Variant> scenario(const json& v, const std::string& at) const {
    if (!v.is_object() || v.empty())
      throw fail(at.empty() ? "(top level)" : at, "must be an object of variants (before, after, ...)");
    std::map<std::string, SampleScript::Variant> out;
    for (const auto& [name, x] : v.items()) out[name] = variant(x, (at.empty() ? "" : at + ".") + name);
    return out;
  }
};

// A metric perfgate measures keeps its declaration (unit, direction, exactness), so scripted
// figures are compared the way measured ones would be; any other is a program's own metric.
MetricValue scripted(const std::string& name, double value) {
  MetricValue v{value, "", "lower", "scripted"};
  if (const MetricSpec* s = harness_metric(name)) {
    v.unit = s->unit;
    v.better = s->better;
    v.exact = s->exact;
  }
  return v;
}

}  // namespace

double SampleScript::Values::at(int measured_round, std::uint64_t default_seed) const {
  if (!list.empty()) return cycled(list, measured_round);
  const std::uint64_t bits =
      splitmix64(seed.value_or(default_seed) ^ splitmix64(static_cast<std::uint64_t>(measured_round)));
  const double u = static_cast<double>(bits >> 11) * 0x1.0p-53 * 2 - 1;
  return median * (1 + spread * u);
}

SampleScript SampleScript::load(const fs::path& file) {
  const Reader r{file.string()};
  const auto text = try_read_file(file);
  if (!text) throw UsageError(r.file + ": cannot read the --debug-samples script (does it exist?)");
  const json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded()) throw r.fail("(top level)", "not valid JSON");
  if (!doc.is_object()) throw r.fail("(top level)", "must be an object");
  SampleScript s;
  s.file_ = file;
  s.per_scenario_ = doc.contains("scenarios");
  if (!s.per_scenario_) {
    s.scenarios_[""] = r.scenario(doc, "");
    return s;
  }
  if (doc.size() != 1) throw r.fail("(top level)", "with \"scenarios\", nothing else: every variant is a scenario's");
  const json& all = doc["scenarios"];
  if (!all.is_object() || all.empty()) throw r.fail("scenarios", "must be an object of scenario names");
  for (const auto& [name, v] : all.items()) s.scenarios_[name] = r.scenario(v, "scenarios." + name);
  return s;
}

std::string SampleScript::lacks(const std::string& scenario, const std::string& variant) const {
  const auto sc = scenarios_.find(per_scenario_ ? scenario : "");
  if (sc == scenarios_.end()) return "scenarios." + scenario;
  if (!sc->second.count(variant)) return (per_scenario_ ? "scenarios." + scenario + "." : "") + variant;
  return "";
}

const SampleScript::Variant& SampleScript::variant_of(const std::string& scenario, const std::string& variant) const {
  if (const std::string missing = lacks(scenario, variant); !missing.empty())
    throw UsageError(file_.string() + ": " + missing + ": not scripted");
  return scenarios_.at(per_scenario_ ? scenario : "").at(variant);
}

Sample SampleScript::take(const std::string& scenario, const std::string& variant, int round, int warmup_rounds,
                          int order) const {
  const Variant& v = variant_of(scenario, variant);
  Sample s;
  s.round = round;
  s.variant = variant;
  s.warmup = round <= warmup_rounds;
  s.order = order;
  const int measured = s.warmup ? 1 : round - warmup_rounds;
  s.exit_code = cycled(v.exit_codes, measured);
  if (s.exit_code != 0)
    throw RunError(scenario + ", round " + std::to_string(round) + ", variant " + variant + ": exited with " +
                   std::to_string(s.exit_code) + " (scripted by --debug-samples " + file_.string() + ")");
  s.digest = cycled(v.digests, measured);
  for (const auto& [name, values] : v.metrics)
    s.metrics[name] = scripted(name, values.at(measured, fnv1a(scenario + "/" + variant + "/" + name)));
  return s;
}

}  // namespace perfgate::run
