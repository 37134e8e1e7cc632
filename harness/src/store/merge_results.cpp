#include "store/merge_results.hpp"

#include <set>

#include "common/errors.hpp"
#include "store/results_file.hpp"

namespace perfgate::store {

using json = nlohmann::json;

int more_serious_exit(int a, int b) {
  auto rank = [](int c) {
    return c == kExitEquivalence   ? 5
           : c == kExitRun         ? 4
           : c == kExitPerformance ? 3
           : c == kExitInterrupted ? 2
           : c                     ? 1
                                   : 0;
  };
  return rank(b) > rank(a) ? b : a;
}

json merge_results(const std::vector<MergeInput>& inputs, const std::vector<std::string>& command_line,
                   const MergeOptions& o) {
  if (inputs.empty()) throw UsageError("merge: no results files given");
  const json& first = inputs.front().doc;
  const std::string commit = first["run"]["git"].value("commit", "unknown");
  std::set<std::string> keys;
  std::set<int> shard_indices;
  int shard_count = 0;
  json from = json::array(), scenarios = json::array(), failures = json::array();
  int exit_code = 0;
  bool interrupted = false;
  std::string started = first["run"].value("started_at", ""), finished;
  std::set<std::string> hosts;
  for (const auto& in : inputs) {
    const json& run = in.doc["run"];
    const std::string c = run["git"].value("commit", "unknown");
    if (c != commit && !o.allow_mixed_commits)
      throw UsageError(in.file + ": run.git.commit " + c + " differs from " + inputs.front().file + "'s " + commit +
                       " (merge joins shards of one build; --allow-mixed-commits to merge anyway)");
    json shard = run.value("shard", json());
    if (shard.is_object()) {
      const int count = shard.value("count", 0), index = shard.value("index", 0);
      if (shard_count && count != shard_count)
        throw UsageError(in.file + ": run.shard: " + std::to_string(index) + "/" + std::to_string(count) +
                         " does not belong with shards of " + std::to_string(shard_count));
      shard_count = count;
      if (!shard_indices.insert(index).second)
        throw UsageError(in.file + ": run.shard: shard " + std::to_string(index) + "/" + std::to_string(count) +
                         " is given twice");
    }
    const std::string host = in.doc["host"].value("fingerprint", "");
    hosts.insert(host);
    from.push_back({{"file", in.file},
                    {"run_id", run.value("id", "")},
                    {"shard", shard},
                    {"host_fingerprint", host},
                    {"hostname", in.doc["host"].value("hostname", "")},
                    {"commit", c},
                    {"exit_code", in.doc["outcome"].value("exit_code", 0)}});
    for (auto s : in.doc["scenarios"]) {
      const std::string key = s.value("name", "") + "/" + s.value("profile", "");
      if (!keys.insert(key).second)
        throw UsageError(in.file + ": scenario " + key + " is also in an earlier file (shards must not overlap)");
      if (!s.contains("merged_from"))
        s["merged_from"] = {
            {"file", in.file}, {"run_id", run.value("id", "")}, {"host_fingerprint", host}, {"shard", shard}};
      scenarios.push_back(s);
    }
    const json& outcome = in.doc.value("outcome", json::object());
    exit_code = more_serious_exit(exit_code, outcome.value("exit_code", 0));
    interrupted = interrupted || outcome.value("status", "") == "interrupted";
    for (const auto& f : outcome.value("failures", json::array())) failures.push_back(f);
    started = std::min(started, run.value("started_at", started));
    if (run["finished_at"].is_string()) finished = std::max(finished, run["finished_at"].get<std::string>());
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
  json run = first["run"];
  run["id"] = "merged-" + now_iso8601();
  run["command_line"] = command_line;
  run["started_at"] = started;
  run["finished_at"] = finished.empty() ? json() : json(finished);
  run["merged_from"] = from;
  run.erase("shard");
  const std::string status = interrupted             ? "interrupted"
                             : exit_code == 0        ? "passed"
                             : exit_code == kExitRun ? "error"
                                                     : "failed";
  run["stop_reason"] = interrupted             ? "interrupted"
                       : exit_code == 0        ? "completed"
                       : exit_code == kExitRun ? "error"
                                               : "gate failed";
  json host = first["host"];
  if (hosts.size() > 1)
    host["note"] = "merged from " + std::to_string(hosts.size()) +
                   " hosts; each scenario's merged_from.host_fingerprint says where it ran";
  return {{"schema_version", kSchemaVersion},
          {"run", run},
          {"host", host},
          {"scenarios", scenarios},
          {"outcome",
           {{"exit_code", exit_code},
            {"status", status},
            {"message", failures.empty() ? status : failures.front().get<std::string>()},
            {"failures", failures}}}};
}

}  // namespace perfgate::store
