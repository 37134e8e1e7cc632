// The plan of `perfgate batch` (docs/batch.md): scenario lists with their profiles, run in
// order, and round options that apply unless the command line sets them. Read strictly:
// a malformed plan is exit 2 before the lock is taken or anything is written.
//   {"schema_version": 1,
//    "steps": [{"profile": "quick", "scenarios": ["upload_spool", "asset_cache"]},
//              {"profile": "full", "scenarios": ["upload_spool"]}],
//    "options": {"min_rounds": 8, "max_rounds": 16, "seed": 7}}
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "plan/plan.hpp"

namespace perfgate::plan {

struct BatchStep {
  std::string profile;
  std::vector<std::string> scenarios;
};

struct BatchFile {
  std::filesystem::path file;
  std::vector<BatchStep> steps;
  RunOptions defaults;  // only the optional round fields, seed and policy are read
};

BatchFile load_batch_file(const std::filesystem::path& file);

// The batch as one run: every step's scenarios (of the catalog in `prebuilt`, which must hold
// every program: a batch never compiles) at its profile, the plan file's options where the
// command line left them unset, one seed for all, and the results' run.batch section.
// options.lock_file is the perf VM's lock. Throws UsageError naming the plan file.
RunPlan plan_batch(const BatchFile& plan, const std::filesystem::path& prebuilt, RunOptions options);

}  // namespace perfgate::plan
