// `perfgate bisect` from its flags to its answer: the request checked, the search run with the
// progress line, the table of every tested commit printed, bisect.json written, and where the
// worktrees are kept said (they stay, so a rerun resumes).
#pragma once

#include <string>
#include <vector>

#include "bisect/bisect.hpp"
#include "common/defaults.hpp"
#include "plan/build_source.hpp"

namespace perfgate::bisect {

// --bad defaults to HEAD, as git bisect's. Throws UsageError (exit 2) on a request that cannot
// run: no --good, no --build, a command and --scenario both or neither, --layouts with --scenario.
void check_request(BisectOptions& o);

// `perfgate bisect` as its flags give it: the search's options, where the builds come from as
// typed (the --clean line repeats --repo and --cache), and the command's own choices.
struct BisectCommand {
  BisectOptions options;
  plan::BuildSource source;  // --build, --repo, --cache, --layouts (K into options.step.layouts)
  std::string shell;         // --shell's word (plan/shell.hpp)
  std::string script;        // --debug-samples
  bool clean = false;        // --clean: remove the cache's worktrees and steps, then exit
  std::string out_dir = defaults::kOutDir, json_path;
};

// --clean, or the request checked, the out folder taken (common/command_opening.hpp), the
// search run with a progress line, every tested commit printed, bisect.json written and where
// the worktrees are kept said.
void run_bisect_command(BisectCommand& command, const std::vector<std::string>& argv);

}  // namespace perfgate::bisect
