// `perfgate bisect` from its flags to its answer: the request checked, the search run with the
// progress line, the table of every tested commit printed, bisect.json written, and where the
// worktrees are kept said (they stay, so a rerun resumes).
#pragma once

#include <string>

#include "bisect/bisect.hpp"
#include "common/command_opening.hpp"

namespace perfgate::bisect {

// --bad defaults to HEAD, as git bisect's. Throws UsageError (exit 2) on a request that cannot
// run: no --good, no --build, a command and --scenario both or neither, --layouts with --scenario.
void check_request(BisectOptions& o);

// `--clean`: removes the cache's worktrees and steps and says so.
void clean_cache(const BisectOptions& o);

// The search, shown and written to the opening's JSON file. `repo` and `cache` as typed: the
// --clean line repeats them.
void run_bisect_command(const BisectOptions& o, const CommandOpening& opening, const std::string& repo,
                        const std::string& cache);

}  // namespace perfgate::bisect
