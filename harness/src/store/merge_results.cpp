#include "store/merge_results.hpp"

#include <algorithm>
#include <set>

#include "common/errors.hpp"
#include "common/shell_words.hpp"
#include "store/results_file.hpp"

namespace perfgate::store {

namespace {

// Shards join into one run only when they are parts of one plan: one profile, one family of
// gated comparisons (each shard's Holm correction counted the others' as p = 1, so a shard of
// another plan breaks the family-wise guarantee), all shards or none, all --against or none.
void require_same_plan(const MergeInput& in, const MergeInput& first) {
  const model::RunHeader &run = in.doc.run, &ref = first.doc.run;
  auto refuse = [&](const std::string& field, const std::string& why) {
    throw UsageError(in.file + ": " + field + ": " + why + " (" + first.file + " is the first file)");
  };
  if (run.profile != ref.profile)
    refuse("run.profile", "\"" + run.profile + "\" differs from the first file's \"" + ref.profile +
                              "\": shards of one plan run at one profile");
  if (run.shard.has_value() != ref.shard.has_value())
    refuse("run.shard", run.shard ? "a shard, and the first file is not one"
                                  : "not a shard (run --shard i/n), and the first file is one");
  if (run.shard && run.shard->of != ref.shard->of)
    refuse("run.shard.of", std::to_string(run.shard->of) + " planned scenarios, the first file's " +
                               std::to_string(ref.shard->of) + ": shards of different plans");
  if (run.against.has_value() != ref.against.has_value())
    refuse("run.against", run.against ? "an --against run (this build against another), the first file is not"
                                      : "not an --against run, and the first file is one");
  // Shards of one PR gate compare against one base build: a shard measured against another
  // commit is a different comparison, whatever its figures.
  auto against_commit = [](const model::RunHeader& h) {
    return h.against ? h.against->commit.value_or("") : std::string();
  };
  if (run.against && against_commit(run) != against_commit(ref))
    refuse("run.against.git.commit", "\"" + against_commit(run) + "\" differs from the first file's \"" +
                                         against_commit(ref) + "\": shards compared against different base builds");
}

}  // namespace

model::ResultsDoc merge_results(const std::vector<MergeInput>& inputs, const std::vector<std::string>& command_line,
                                const MergeOptions& o) {
  if (inputs.empty()) throw UsageError("merge: no results files given");
  const model::ResultsDoc& first = inputs.front().doc;
  const std::string& commit = first.run.commit;
  std::set<std::string> keys;
  std::set<int> shard_indices;
  int shard_count = 0;
  model::ResultsDoc merged;
  std::vector<std::string>& failures = merged.outcome.failures;
  int exit_code = 0;
  bool interrupted = false;
  std::string started = first.run.started_at, finished;
  std::set<std::string> hosts;
  for (const auto& in : inputs) {
    const model::RunHeader& run = in.doc.run;
    require_same_plan(in, inputs.front());
    if (run.commit != commit && !o.allow_mixed_commits)
      throw UsageError(in.file + ": run.git.commit " + run.commit + " differs from " + inputs.front().file + "'s " +
                       commit + " (merge joins shards of one build; --allow-mixed-commits to merge anyway)");
    if (run.shard) {
      const int count = run.shard->count, index = run.shard->index;
      if (shard_count && count != shard_count)
        throw UsageError(in.file + ": run.shard: " + std::to_string(index) + "/" + std::to_string(count) +
                         " does not belong with shards of " + std::to_string(shard_count));
      shard_count = count;
      if (!shard_indices.insert(index).second)
        throw UsageError(in.file + ": run.shard: shard " + std::to_string(index) + "/" + std::to_string(count) +
                         " is given twice");
    }
    const std::string& host = in.doc.host.fingerprint;
    hosts.insert(host);
    merged.run.merged_from.push_back(
        {in.file, run.id, host, in.doc.host.hostname, run.commit, run.shard, in.doc.outcome.exit_code});
    for (auto s : in.doc.scenarios) {
      const std::string key = s.name + "/" + s.profile;
      if (!keys.insert(key).second)
        throw UsageError(in.file + ": scenario " + key + " is also in an earlier file (shards must not overlap)");
      if (!s.merged_from) s.merged_from = {in.file, run.id, host, run.shard};
      merged.scenarios.push_back(std::move(s));
    }
    exit_code = worse_exit_code(exit_code, in.doc.outcome.exit_code);
    interrupted = interrupted || in.doc.outcome.status == model::RunStatus::Interrupted;
    failures.insert(failures.end(), in.doc.outcome.failures.begin(), in.doc.outcome.failures.end());
    if (!run.started_at.empty()) started = std::min(started, run.started_at);
    finished = std::max(finished, run.finished_at);
  }
  if (shard_count) {
    std::string missing;
    for (int i = 1; i <= shard_count; ++i)
      if (!shard_indices.count(i))
        missing += (missing.empty() ? "" : ", ") + std::to_string(i) + "/" + std::to_string(shard_count);
    if (!missing.empty() && !o.allow_partial)
      throw UsageError("merge: shards " + missing + " are missing (--allow-partial to merge what is there)");
    if (!missing.empty()) failures.push_back("merge: shards " + missing + " are missing");
  }
  auto from = std::move(merged.run.merged_from);
  merged.run = first.run;
  merged.run.id = "merged-" + now_iso8601();
  merged.run.command_line = command_line;
  merged.run.started_at = started;
  merged.run.finished_at = finished;
  merged.run.merged_from = std::move(from);
  merged.run.shard.reset();
  // The merge command reproduces this file from the shards; each scenario's own reproduce line
  // re-runs it with its shard's seed.
  merged.run.reproduce = join_command(command_line);
  for (const auto& in : inputs)
    if (in.doc.run.seed != first.run.seed) merged.run.seed.reset();
  const RunEnding end = run_ending(exit_code, interrupted);
  merged.host = first.host;
  if (hosts.size() > 1)
    merged.host.note = "merged from " + std::to_string(hosts.size()) +
                       " hosts; each scenario's merged_from.host_fingerprint says where it ran";
  merged.outcome.exit_code = exit_code;
  merged.outcome.status = end.status;
  merged.outcome.message = failures.empty() ? std::string(name_of(end.status)) : failures.front();
  return merged;
}

}  // namespace perfgate::store
