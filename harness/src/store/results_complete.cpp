#include "store/results_complete.hpp"

#include <algorithm>

#include "common/errors.hpp"

namespace perfgate::store {

void require_complete(const model::ResultsDoc& doc, const std::string& file) {
  const std::string& status = doc.outcome.status;
  if (status == "running")
    throw UsageError(file +
                     ": outcome.status: \"running\": the run never finished (killed, out of memory, a lost "
                     "runner?), so nothing in it can vouch for a gate");
  if (status == "interrupted")
    throw UsageError(file + ": outcome.status: \"interrupted\": the run was stopped (exit 130) before its plan ran");
  if (!doc.run.shard) return;
  std::string missing;
  for (const auto& name : doc.run.shard->scenarios)
    if (std::none_of(doc.scenarios.begin(), doc.scenarios.end(), [&](const auto& s) { return s.name == name; }))
      missing += (missing.empty() ? "" : ", ") + name;
  if (!missing.empty())
    throw UsageError(file + ": scenarios: lacks " + missing + ", which run.shard.scenarios planned for shard " +
                     std::to_string(doc.run.shard->index) + "/" + std::to_string(doc.run.shard->count));
}

}  // namespace perfgate::store
