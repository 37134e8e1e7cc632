// `perfgate bisect`: the whole search — the path, the worktrees and builds, the timed steps
// (resumed from the cache when a run already took them) and the answer — with nothing of the
// command line. cli/cmd_bisect.cpp parses flags and prints; this runs.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bisect/commit_path.hpp"
#include "bisect/search.hpp"
#include "bisect/step_runner.hpp"
#include "common/defaults.hpp"
#include "suite/run_sink.hpp"

namespace perfgate::bisect {

struct BisectOptions {
  std::filesystem::path repo = ".";
  std::string good, bad, build;
  std::filesystem::path cache;  // empty: default_cache(repo)
  double alpha = defaults::kAlpha;
  StepSetup step;
};

struct BisectReport {
  std::vector<Commit> path;
  Outcome outcome;
  std::string metric;
  std::filesystem::path cache;
  std::map<int, std::string> skipped_builds;  // index → why (the build log)
  int reused_steps = 0;
  int builds_reused = 0, builds_made = 0;
  nlohmann::json to_json(const BisectOptions& o) const;
};

// Throws UsageError (exit 2) on a bad range or flags, RunError (4) when good does not build,
// Interrupted (130) on Ctrl-C — every step finished before it is kept in the cache.
BisectReport run_bisect(const BisectOptions& options, const suite::RunSink& status);

}  // namespace perfgate::bisect
