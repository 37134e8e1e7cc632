#include "plan/batch_file.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "common/errors.hpp"
#include "common/files.hpp"

namespace perfgate::plan {

using json = nlohmann::json;

BatchFile load_batch_file(const std::filesystem::path& file) {
  const std::string f = file.string();
  auto fail = [&](const std::string& field, const std::string& problem) -> UsageError {
    return UsageError(f + ": " + field + ": " + problem);
  };
  auto text = try_read_file(file);
  if (!text) throw UsageError(f + ": cannot read the batch plan (does it exist?)");
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded()) throw UsageError(f + ": not valid JSON (the batch plan is described in docs/batch.md)");
  if (!doc.is_object()) throw fail("(top level)", "must be an object");
  if (!doc.contains("schema_version")) throw fail("schema_version", "missing (1)");
  if (doc["schema_version"] != 1)
    throw fail("schema_version", "is " + doc["schema_version"].dump() + "; this perfgate reads 1");
  for (const auto& [k, _] : doc.items())
    if (k != "schema_version" && k != "steps" && k != "options" && k != "description")
      throw fail(k, "unknown field (known: schema_version, steps, options, description)");
  if (!doc.contains("steps") || !doc["steps"].is_array() || doc["steps"].empty())
    throw fail("steps", "must be a non-empty array of {profile, scenarios}");
  BatchFile b;
  b.file = file;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < doc["steps"].size(); ++i) {
    const json& s = doc["steps"][i];
    const std::string at = "steps[" + std::to_string(i) + "]";
    if (!s.is_object()) throw fail(at, "must be an object {profile, scenarios}");
    for (const auto& [k, _] : s.items())
      if (k != "profile" && k != "scenarios") throw fail(at + "." + k, "unknown field (known: profile, scenarios)");
    BatchStep step;
    if (!s.contains("profile") || !s["profile"].is_string() || s["profile"].get<std::string>().empty())
      throw fail(at + ".profile", "must be a profile name (quick, full)");
    step.profile = s["profile"];
    if (!s.contains("scenarios") || !s["scenarios"].is_array() || s["scenarios"].empty())
      throw fail(at + ".scenarios", "must be a non-empty array of scenario names");
    for (std::size_t j = 0; j < s["scenarios"].size(); ++j) {
      const json& n = s["scenarios"][j];
      if (!n.is_string() || n.get<std::string>().empty())
        throw fail(at + ".scenarios[" + std::to_string(j) + "]", "must be a scenario name");
      const std::string key = n.get<std::string>() + "/" + step.profile;
      if (!seen.insert(key).second)
        throw fail(at + ".scenarios[" + std::to_string(j) + "]", key + " is already planned");
      step.scenarios.push_back(n);
    }
    b.steps.push_back(std::move(step));
  }
  if (doc.contains("options")) {
    const json& o = doc["options"];
    if (!o.is_object()) throw fail("options", "must be an object");
    for (const auto& [k, v] : o.items()) {
      const std::string at = "options." + k;
      if (k == "min_rounds" || k == "max_rounds" || k == "warmup") {
        if (!v.is_number_integer() || v.get<int>() < (k == "warmup" ? 0 : 2))
          throw fail(at, "must be an integer >= " + std::string(k == "warmup" ? "0" : "2"));
        (k == "min_rounds"   ? b.defaults.min_rounds
         : k == "max_rounds" ? b.defaults.max_rounds
                             : b.defaults.warmup) = v.get<int>();
      } else if (k == "max_time_s" || k == "timeout_s") {
        if (!v.is_number() || v.get<double>() <= 0) throw fail(at, "must be a positive number of seconds");
        (k == "max_time_s" ? b.defaults.max_time_s : b.defaults.timeout_s) = v.get<double>();
      } else if (k == "seed") {
        if (!v.is_number_unsigned()) throw fail(at, "must be a non-negative integer");
        b.defaults.seed = v.get<std::uint64_t>();
      } else if (k == "policy") {
        if (!v.is_string() || (v != "improve" && v != "no-regress"))
          throw fail(at, "must be \"improve\" or \"no-regress\"");
        b.defaults.policy = v.get<std::string>();
      } else {
        throw fail(at, "unknown option (known: min_rounds, max_rounds, warmup, max_time_s, timeout_s, seed, policy)");
      }
    }
  }
  return b;
}

void apply_batch_defaults(RunOptions& o, const BatchFile& b) {
  const RunOptions& d = b.defaults;
  if (!o.min_rounds) o.min_rounds = d.min_rounds;
  if (!o.max_rounds) o.max_rounds = d.max_rounds;
  if (!o.warmup) o.warmup = d.warmup;
  if (!o.max_time_s) o.max_time_s = d.max_time_s;
  if (!o.timeout_s) o.timeout_s = d.timeout_s;
  if (!o.seed) o.seed = d.seed;
  if (!o.policy) o.policy = d.policy;
}

}  // namespace perfgate::plan
