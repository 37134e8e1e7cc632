// `perfgate merge`: shard results (or any runs of one commit) joined into one results document.
// Every shard planned its statistics for the whole run (the Holm family of every shard's gated
// comparisons, see docs/ci.md), so verdicts are kept as they are; merging only concatenates
// scenarios, keeps where each came from (run id, host, shard), and takes the most serious
// outcome.
#pragma once

#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::store {

struct MergeInput {
  std::string file;
  model::ResultsDoc doc;  // from read_results
};

struct MergeOptions {
  bool allow_partial = false;  // some shards of i/n missing
  bool allow_mixed_commits = false;
};

// Throws UsageError on: no input, a scenario/profile in two inputs, shards of different counts
// or a shard twice, missing shards (unless allow_partial), different commits (unless allowed).
model::ResultsDoc merge_results(const std::vector<MergeInput>& inputs, const std::vector<std::string>& command_line,
                                const MergeOptions& options);

}  // namespace perfgate::store
