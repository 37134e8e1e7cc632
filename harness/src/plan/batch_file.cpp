#include "plan/batch_file.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/json_fields.hpp"
#include "plan/against.hpp"
#include "plan/plan.hpp"

namespace perfgate::plan {

using json = nlohmann::json;

namespace {

BatchStep read_step(const FieldReader& s, std::set<std::string>& planned) {
  s.allow_only({"profile", "scenarios"});
  BatchStep step;
  step.profile = s.non_empty_string("profile");
  step.scenarios = s.non_empty_strings("scenarios", "scenario names");
  for (std::size_t j = 0; j < step.scenarios.size(); ++j) {
    const std::string at = FieldReader::index("scenarios", j), key = step.scenarios[j] + "/" + step.profile;
    if (step.scenarios[j].empty()) s.fail(at, "must be a scenario name");
    if (!planned.insert(key).second) s.fail(at, key + " is already planned");
  }
  return step;
}

// The round options, which apply where the command line does not set them.
void read_options(const FieldReader& o, RunOptions& d) {
  o.allow_only({"min_rounds", "max_rounds", "warmup", "max_time_s", "timeout_s", "seed", "policy"});
  d.min_rounds = o.optional_integer("min_rounds", 2);
  d.max_rounds = o.optional_integer("max_rounds", 2);
  d.warmup = o.optional_integer("warmup", 0);
  d.max_time_s = o.optional_number("max_time_s", Sign::kPositive);
  d.timeout_s = o.optional_number("timeout_s", Sign::kPositive);
  d.seed = o.optional_integer<std::uint64_t>("seed", 0);
  if (o.has("policy")) d.policy = o.enum_of<catalog::Policy>("policy");
}

}  // namespace

BatchFile load_batch_file(const std::filesystem::path& file) {
  const std::string f = file.string();
  auto text = try_read_file(file);
  if (!text) throw UsageError(f + ": cannot read the batch plan (does it exist?)");
  const json doc = parse_document(*text, f, "the batch plan is described in docs/batch.md");
  const FieldReader r(doc, f);
  const json& version = r.required("schema_version", "1");
  if (version != 1) r.fail("schema_version", "is " + version.dump() + "; this perfgate reads 1");
  r.allow_only({"schema_version", "steps", "options", "description"});
  r.non_empty_array("steps", "{profile, scenarios}");
  BatchFile b;
  b.file = file;
  std::set<std::string> planned;
  for (const FieldReader& s : r.elements("steps")) b.steps.push_back(read_step(s, planned));
  read_options(r.optional_child("options"), b.defaults);
  return b;
}

namespace {

// Fills the fields the command line left unset from the plan's options.
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

}  // namespace

RunPlan plan_batch(const BatchFile& bf, const std::filesystem::path& prebuilt, RunOptions o) {
  namespace fs = std::filesystem;
  const fs::path catalog_dir = other_build_catalog(prebuilt, "--prebuilt");
  const auto catalog = catalog::load_catalog(catalog_dir);
  apply_batch_defaults(o, bf);
  RunPlan combined;
  for (const auto& step : bf.steps) {
    RunOptions so = o;
    so.profile = step.profile;
    so.lock_file.clear();
    try {
      auto part = plan_run(catalog, step.scenarios, so);
      for (auto& s : part.scenarios) combined.scenarios.push_back(std::move(s));
    } catch (const UsageError& e) {
      const std::string what = e.what();
      if (what.find("program") != std::string::npos)
        throw UsageError(what + " — perfgate batch never compiles: build " + prebuilt.string() +
                         " before queueing the batch");
      throw UsageError(bf.file.string() + ": " + what);
    }
  }
  combined.record.batch = model::BatchRun{.plan = fs::absolute(bf.file).string(),
                                          .prebuilt = fs::absolute(prebuilt).string(),
                                          .catalog = fs::absolute(catalog_dir).string(),
                                          .steps = static_cast<int>(bf.steps.size())};
  finish_plan(combined, o);  // one seed for every step
  return combined;
}

}  // namespace perfgate::plan
