// The plan stage: which scenarios, at which profile, with which rounds, policy, CPUs and
// looks — everything decided before the first process starts, so the results can say it.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "catalog/manifest.hpp"
#include "plan/options.hpp"

namespace perfgate::plan {

using json = nlohmann::json;

// ab: what hyperfine's options say of one command's samples, as given (run/ab_sampling.hpp
// runs them): where its stdout goes, its stdin, the shell commands around its runs, and the exit
// codes that are not failures.
struct AbSideOptions {
  std::string output = "null";                    // null | pipe | inherit | a file
  std::string input;                              // empty: /dev/null
  std::string prepare, conclude, setup, cleanup;  // empty: none
  std::string ignore_failure;                     // empty: none; "all-non-zero" or "1,2"
  std::string label;                              // --command-name; empty: the command
};

struct ScenarioPlan {
  catalog::Manifest manifest;
  std::string profile;
  json params = json::object();
  std::vector<catalog::Variant> variants;  // those that run at this profile; before, after first
  catalog::Policy policy = catalog::Policy::Improve;
  int min_rounds = 8, max_rounds = 30, warmup = 1;
  double max_time_s = 0, timeout_s = 600;
  std::vector<int> looks;
  // ab's budgeted design (stats::doubling_schedule): a look is taken only while it fits this
  // many seconds, projected from the pace so far; 0: every scheduled look is taken.
  double look_budget_s = 0;
  std::vector<int> cpus;
  std::string program;  // resolved path of the scenario program
  std::set<std::string> gated_metrics;
  std::vector<catalog::Claim> claims;                          // those that apply at this profile
  std::map<std::string, std::vector<std::string>> extra_args;  // variant → appended args
  // --against: a variant run by another program (the other build's), as another variant name.
  std::map<std::string, std::string> program_of, run_as;
  // `perfgate ab`: the two commands, run as they are.
  bool ab = false;
  // `ab --metric auto` (its default): the gated metric is chosen from what both sides measured
  // (gate/metric_choice.hpp); gated_metrics holds one placeholder so the Holm family counts it.
  bool choose_metric = false;
  // --duet: BEFORE and AFTER of a round at the same time on two CPUs (run/batch_runner.hpp).
  bool duet = false;
  std::vector<std::string> before_argv, after_argv;
  // Variant → the folder its samples run in (ab: the caller's, or --workdir DIR). A variant not
  // here gets a fresh folder per sample (scenarios, `ab --isolate`). Per variant, so that two
  // builds of one program can each run in their own tree.
  std::map<std::string, std::string> workdir;
  std::map<std::string, AbSideOptions> ab_side;  // ab: variant → its hyperfine-style options
  // ab --mask, --check (run/output_mask.hpp, run/output_check.hpp): how two outputs are compared.
  std::vector<std::string> output_masks;
  std::vector<std::string> output_check;  // argv of the user's comparison; empty: the digests must be equal
  // Two Google Benchmark binaries (`perfgate gbench`, a gbench scenario under --against):
  // before_argv and after_argv, each run once per round. gbench_benchmarks are those both run
  // (one gated metric each, plan/gbench_plan.hpp); gbench_only, per variant, those only one has.
  bool gbench_pair = false;
  bool gbench_after_only = false;  // --against: only the X/after benchmarks of a gbench scenario
  std::vector<std::string> gbench_benchmarks;
  std::map<std::string, std::vector<std::string>> gbench_only;
};

// The user's own commands (`ab`, `perfgate gbench`), not a catalog's scenario: they run in the
// caller's folder, compare with a baseline only when --baseline is given, and re-run by the same
// command line.
inline bool users_commands(const ScenarioPlan& s) { return s.ab || (s.gbench_pair && s.manifest.file.empty()); }

struct RunPlan {
  std::vector<ScenarioPlan> scenarios;
  double alpha = 0.05, noise = 0.02;
  std::uint64_t seed = 1;
  int looks_per_scenario = 4;
  int gated_total = 0;  // gated comparisons in the whole run: the Holm family
  // A shard's Holm family is the whole run's (every shard's gated comparisons), so verdicts
  // stay valid when shards are merged: the other shards' comparisons count as p = 1.
  int family_total = 0;  // 0: this plan's own gated comparisons
  double alpha_per_look = 0.0125;
  json options_json() const;
};

RunPlan plan_run(const std::vector<catalog::Manifest>& catalog, const std::vector<std::string>& names,
                 const RunOptions& options);

// A plan that runs nothing (an empty shard): options resolved like plan_run's.
RunPlan plan_nothing(const RunOptions& options);

// Recomputes the run-wide figures (seed, Holm family size, alpha per look) after scenarios
// were added or removed (batch steps, --against).
void finish_plan(RunPlan& plan, const RunOptions& options);

// Rounds, warm-up, time limits and looks of `s` from the options, else the profile `p` (may
// be null), else the defaults (8-30 rounds, four looks).
void apply_rounds(ScenarioPlan& s, const catalog::Profile* p, const RunOptions& options);

// Looks per scenario of the sequential design (stats/sequential.hpp): alpha is split between them.
inline constexpr int kLooksPerScenario = 4;

// The fewest rounds at which a paired rank test can reject inside a family of `family` gated
// comparisons over `looks` looks at `alpha`: the smallest n with 2 / 2^n < alpha / (looks m),
// n >= log2(2 looks m / alpha). A profile whose first look is below it cannot stop early on a
// rank-tested metric; an `improve` scenario whose max_rounds is below it is refused (exit 2).
int min_decidable_rounds(double alpha, int looks, int family);

// The CPUs a sample is pinned to: the last `count` allowed CPUs, so CPU 0 is left to the
// harness and the system when there is more than one.
std::vector<int> choose_cpus(const std::string& count);

}  // namespace perfgate::plan
