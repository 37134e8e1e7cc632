#include "store/results_complete.hpp"

#include <algorithm>

#include "common/errors.hpp"

namespace perfgate::store {

std::optional<std::string> incompleteness(const model::ResultsDoc& doc) {
  const model::RunStatus status = doc.outcome.status;
  if (status == model::RunStatus::Running)
    return "outcome.status: \"running\": the run never finished (killed, out of memory, a lost runner?), so "
           "nothing in it can vouch for a gate";
  if (status == model::RunStatus::Interrupted)
    return "outcome.status: \"interrupted\": the run was stopped (exit 130) before its plan ran";
  if (!doc.run.shard) return std::nullopt;
  std::string missing;
  for (const auto& name : doc.run.shard->scenarios)
    if (std::none_of(doc.scenarios.begin(), doc.scenarios.end(), [&](const auto& s) { return s.name == name; }))
      missing += (missing.empty() ? "" : ", ") + name;
  if (missing.empty()) return std::nullopt;
  return "scenarios: lacks " + missing + ", which run.shard.scenarios planned for shard " +
         std::to_string(doc.run.shard->index) + "/" + std::to_string(doc.run.shard->count);
}

void require_complete(const model::ResultsDoc& doc, const std::string& file) {
  if (const auto why = incompleteness(doc)) throw UsageError(file + ": " + *why);
}

void require_measured(const model::ResultsDoc& doc, const std::string& file) {
  if (!doc.run.options || !doc.run.options->contains("debug_samples")) return;
  throw UsageError(file + ": run.options.debug_samples: the samples were scripted by " +
                   (*doc.run.options)["debug_samples"].dump() + ", not measured; refused");
}

std::string why_not_gateable(const model::ResultsDoc& doc, const std::string& file) {
  if (const auto why = incompleteness(doc)) return file + ": " + *why;
  if (doc.outcome.status == model::RunStatus::Error)
    return file + ": outcome.status: \"error\" (exit " + std::to_string(doc.outcome.exit_code) +
           "): the run could not be made, so it measured less than it planned";
  for (const auto& s : doc.scenarios)
    if (s.error) return file + ": scenario " + s.name + " (" + s.profile + ") could not run: " + s.error->message;
  return "";
}

}  // namespace perfgate::store
