// `perfgate merge A.json B.json ... -o merged.json`: shard results read, each checked finished and
// measured, joined (store/merge_results.hpp), written through the export registry (the merged
// file is merge's product: unwritten, exit 4) and summed up in one line.
#pragma once

#include <string>
#include <vector>

#include "store/merge_results.hpp"

namespace perfgate::exports {

// The merged outcome's exit code.
int run_merge(const std::vector<std::string>& files, const std::string& out, const store::MergeOptions& options,
              const std::vector<std::string>& argv);

}  // namespace perfgate::exports
