#include "run/sample_script.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/json_fields.hpp"
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

bool is_value(const json& v) { return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0; }

// VALUES: a number, a list of numbers, or {"median": M, "spread": S, "seed": K}.
SampleScript::Values values_at(const FieldReader& r, const std::string& key) {
  const json& v = r.required(key, "a number, a list of numbers or {\"median\": M, \"spread\": S}");
  SampleScript::Values out;
  if (v.is_number()) {
    out.list = {r.number(key, Sign::kNonNegative)};
  } else if (v.is_array()) {
    if (v.empty()) r.fail(key, "must list at least one value");
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!is_value(v[i])) r.fail(FieldReader::index(key, i), "must be a number >= 0, not " + v[i].dump());
      out.list.push_back(v[i].get<double>());
    }
  } else if (v.is_object()) {
    const FieldReader o = r.child(key);
    o.allow_only({"median", "spread", "seed"});
    out.median = o.number("median", Sign::kNonNegative);
    out.spread = o.optional_number("spread", Sign::kNonNegative).value_or(0.0);
    if (out.spread >= 1) o.fail("spread", "must be below 1 (a share of the median), or values go negative");
    out.seed = o.optional_integer<std::uint64_t>("seed", 0);
  } else {
    r.fail(key, "must be a number, a list of numbers or {\"median\": M, \"spread\": S}");
  }
  return out;
}

// DIGEST (a string or a list of them) and CODES (an integer or a list of them).
std::vector<std::string> digests_at(const FieldReader& r) {
  return r.object().at("digest").is_array() ? r.non_empty_strings("digest") : std::vector{r.string("digest")};
}

std::vector<int> exit_codes_at(const FieldReader& r) {
  const json& v = r.object().at("exit_code");
  if (!v.is_array()) return {r.integer<int>("exit_code", 0)};
  if (v.empty()) r.fail("exit_code", "must list at least one exit status");
  std::vector<int> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number_integer() || v[i].get<long long>() < 0)
      r.fail(FieldReader::index("exit_code", i), "must be an integer >= 0, not " + v[i].dump());
    out.push_back(v[i].get<int>());
  }
  return out;
}

SampleScript::Variant variant_at(const FieldReader& r) {
  if (r.keys().empty()) r.fail("must be an object of metrics, digest and exit_code");
  SampleScript::Variant out;
  for (const std::string& key : r.keys()) {
    if (key == "digest")
      out.digests = digests_at(r);
    else if (key == "exit_code")
      out.exit_codes = exit_codes_at(r);
    else
      out.metrics[key] = values_at(r, key);
  }
  return out;
}

std::map<std::string, SampleScript::Variant> scenario_at(const FieldReader& r) {
  if (r.keys().empty()) r.fail("must be an object of variants (before, after, ...)");
  std::map<std::string, SampleScript::Variant> out;
  for (const std::string& name : r.keys()) out[name] = variant_at(r.child(name));
  return out;
}

// A metric perfgate measures keeps its declaration (unit, direction, exactness), so scripted
// figures are compared the way measured ones would be; any other is a program's own metric.
MetricValue scripted(const std::string& name, double value) {
  MetricValue v{value, "", Better::Lower, "scripted"};
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
  const auto text = try_read_file(file);
  if (!text) throw UsageError(file.string() + ": cannot read the --debug-samples script (does it exist?)");
  const json doc = parse_document(*text, file.string(), "a --debug-samples script, run/sample_script.hpp");
  const FieldReader top(doc, file.string());
  SampleScript s;
  s.file_ = file;
  s.per_scenario_ = top.has("scenarios");
  if (!s.per_scenario_) {
    s.scenarios_[""] = scenario_at(top);
    return s;
  }
  if (top.keys().size() != 1) top.fail("with \"scenarios\", nothing else: every variant is a scenario's");
  const FieldReader all = top.child("scenarios");
  if (all.keys().empty()) all.fail("must be an object of scenario names");
  for (const std::string& name : all.keys()) s.scenarios_[name] = scenario_at(all.child(name));
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
