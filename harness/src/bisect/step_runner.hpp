// One timed step of `perfgate bisect`: a tested commit's build against the good commit's, in
// paired rounds through the suite (as `perfgate ab` runs a pair, or `run --against` a
// scenario), taken in batches of 10, 10, 20, 40, 80 rounds until the step's question is
// decided (step_verdict.hpp) at alpha/5 per look, or the next batch would not fit the step's
// time budget (time decides where the looks fall, never the data). Each batch's results file is
// kept in the cache, and the step's verdict too, so a second run reuses it (step_store.hpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bisect/search.hpp"
#include "bisect/worktrees.hpp"
#include "common/defaults.hpp"
#include "plan/options.hpp"
#include "plan/shell.hpp"
#include "suite/run_sink.hpp"

namespace perfgate::bisect {

struct StepSetup {
  // The command (words; {rev_dir} is the commit's worktree), run in each commit's worktree, or
  // a scenario of the catalog each worktree builds (`catalog`: relative to the worktree; empty:
  // where a perfgate build puts it).
  std::vector<std::string> command;
  plan::Shell shell;  // --shell, resolved (none: the words run as they are)
  std::string scenario, catalog;
  std::string metric = "auto";  // resolved by the first step that measures, then kept
  double band = defaults::kNoise;
  double budget_s = 120;  // per step
  // --layouts K: each commit built in K layouts, a step decided over them (layouts/layout_ab.hpp)
  // from --layout-rounds paired rounds of each layout pair, in one look.
  int layouts = 0, layout_rounds = 3;
  plan::RunOptions options;  // seed, CPUs, timeout, noise, --debug-samples
  // --debug-samples: commit subject (or "*") → the VARIANT every sample of that commit reports.
  std::optional<std::filesystem::path> script;
  std::vector<std::string> argv;  // perfgate's own, for the results files
};

class StepRunner {
 public:
  StepRunner(StepSetup setup, const Worktrees& trees, const Commit& good, const Built& good_build,
             const suite::RunSink& status);
  // The tested commit against good at `alpha`.
  StepResult time(const Commit& tested, const Built& build, double alpha);
  // Whether the tested commit's output differs from good's (one run of each, not timed); none
  // when it cannot run.
  std::optional<bool> output_differs(const Commit& tested, const Built& build);
  const std::string& metric() const { return setup_.metric; }
  // A resumed step's metric, when this run has not resolved "auto" yet.
  void adopt_metric(const std::string& m) {
    if (setup_.metric == "auto" && !m.empty()) setup_.metric = m;
  }
  // The batch results files of every step taken so far, in order.
  const std::vector<std::filesystem::path>& batch_files() const { return files_; }

 private:
  std::optional<std::string> output_of(const Commit& c, const std::filesystem::path& tree);
  std::vector<std::string> words_for(const std::filesystem::path& tree) const;
  std::filesystem::path script_for(const Commit& tested, int batch) const;
  StepResult time_over_layouts(const Commit& tested, double alpha);

  StepSetup setup_;
  const Worktrees& trees_;
  Commit good_;
  Built good_build_;
  const suite::RunSink& status_;
  std::optional<std::string> good_output_;
  std::vector<std::filesystem::path> files_;
};

}  // namespace perfgate::bisect
