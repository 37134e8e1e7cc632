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

#include "plan/options.hpp"

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

// Fills the fields the command line left unset from the plan's options.
void apply_batch_defaults(RunOptions& options, const BatchFile& plan);

}  // namespace perfgate::plan
