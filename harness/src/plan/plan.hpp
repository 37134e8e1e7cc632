// The plan stage: which scenarios, at which profile, with which rounds, policy, CPUs and
// looks — everything decided before the first process starts, so the results can say it.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "catalog/command_sampling.hpp"
#include "catalog/manifest.hpp"
#include "common/defaults.hpp"
#include "plan/options.hpp"

namespace perfgate::plan {

using json = nlohmann::json;

// ab: one command's samples as hyperfine's options say (catalog/command_sampling.hpp), and its
// name (--command-name; empty: the command).
struct AbSideOptions {
  catalog::CommandSampling sampling;
  std::string label;
};

// How a scenario's samples are made, chosen when it is planned (suite/sampler.hpp turns it into
// the one way its rounds take a sample).
// A catalog scenario: its program, run per the scenario contract (docs/scenario-contract.md) —
// one child per sample (batch), a server and the load generator (service), or a Google
// Benchmark binary's X/before–X/after pairs (gbench): the manifest's kind says which.
struct ContractProgram {
  std::string program;                                         // resolved path
  std::map<std::string, std::vector<std::string>> extra_args;  // variant → appended args
  // --against: a variant run by another program (the other build's), as another variant name.
  std::map<std::string, std::string> program_of, run_as;
};

// `perfgate ab`: the user's two commands, run as they are, stdout digested.
struct UserCommands {
  std::vector<std::string> before_argv, after_argv;
  std::map<std::string, AbSideOptions> side;  // variant → its hyperfine-style options
  // --mask, --check (run/output_mask.hpp, run/output_check.hpp): how two outputs are compared.
  std::vector<std::string> masks;
  std::vector<std::string> check;  // argv of the user's comparison; empty: the digests must be equal
};

// Two Google Benchmark binaries (`perfgate gbench`, a gbench scenario under --against), each run
// once per round. `benchmarks` are those both run (one gated metric each, plan/gbench_plan.hpp);
// `only`, per variant, those only one has.
struct GbenchBinaries {
  std::vector<std::string> before_argv, after_argv;
  bool after_only = false;  // --against: only the X/after benchmarks of a gbench scenario
  std::vector<std::string> benchmarks;
  std::map<std::string, std::vector<std::string>> only;
  // Whether the binaries are the user's (`perfgate gbench`) rather than a catalog scenario's.
  bool users = false;
};

using SampleSource = std::variant<ContractProgram, UserCommands, GbenchBinaries>;

// Which metric a scenario gates: the ones planned, or (`ab --metric auto`) the one chosen from
// what both sides measured (gate/metric_choice.hpp), with one placeholder in gated_metrics so
// the Holm family counts it.
enum class MetricSelection { Planned, ChosenAfterRounds };

// How the rounds place BEFORE and AFTER: one after the other (a random side first), or
// --duet's both at once on two CPUs, swapping them every round (run/batch_runner.hpp).
enum class Schedule { Sequential, Duet };

struct ScenarioPlan {
  catalog::Manifest manifest;
  std::string profile;
  json params = json::object();
  std::vector<catalog::Variant> variants;  // those that run at this profile; before, after first
  catalog::Policy policy = catalog::Policy::Improve;
  int min_rounds = defaults::kMinRounds, max_rounds = defaults::kMaxRounds, warmup = defaults::kWarmup;
  double max_time_s = 0, timeout_s = defaults::kTimeoutS;
  std::vector<int> looks;
  // ab's budgeted design (stats::BudgetedLooks): a look is taken only while it fits this many
  // seconds, projected from the pace so far, at the spending boundary's level; 0: every
  // scheduled look is taken, at alpha_per_look.
  double look_budget_s = 0;
  std::vector<int> cpus;
  std::set<std::string> gated_metrics;
  MetricSelection metric_selection = MetricSelection::Planned;
  Schedule schedule = Schedule::Sequential;
  std::vector<catalog::Claim> claims;  // those that apply at this profile
  SampleSource source;
  // Variant → the folder its samples run in (ab: the caller's, or --workdir DIR). A variant not
  // here gets a fresh folder per sample (scenarios, `ab --isolate`). Per variant, so that two
  // builds of one program can each run in their own tree.
  std::map<std::string, std::string> workdir;

  const ContractProgram* program() const { return std::get_if<ContractProgram>(&source); }
  const UserCommands* commands() const { return std::get_if<UserCommands>(&source); }
  const GbenchBinaries* gbench() const { return std::get_if<GbenchBinaries>(&source); }
  // The program that seeds the scenario's fixture: the contract program, or AFTER's binary.
  std::string seeder() const;
  // The command one variant runs as given (the user's commands, a Google Benchmark binary);
  // empty for a catalog program, whose command is made per sample.
  const std::vector<std::string>& argv_of(const std::string& variant) const;
};

// The user's own commands (`ab`, `perfgate gbench`), not a catalog's scenario: they run in the
// caller's folder, compare with a baseline only when --baseline is given, and re-run by the same
// command line.
inline bool users_commands(const ScenarioPlan& s) { return s.commands() || (s.gbench() && s.gbench()->users); }

// The baseline a run is compared with, or why none (the results' run.baseline).
struct BaselinePlan {
  std::optional<std::filesystem::path> file;  // none: not compared
  bool named = false;                         // --baseline FILE: a missing file is exit 2
  double tolerance = defaults::kBaselineTolerance;
  std::string why_none;
};

// --lock FILE: the run measures only while holding this machine's lock.
struct LockPlan {
  std::filesystem::path file;
  double timeout_s = defaults::kLockTimeoutS;
};

// What the results' run header records besides the plan's own figures: the command line, the
// folder whose commit is the subject, and sections of the commands that made the plan.
struct RunRecord {
  std::vector<std::string> argv;
  std::optional<std::string> catalog;  // a --catalog run's folder, absolute
  // Sections for people (none: not that command): --shard's part, --against's other build,
  // `perfgate batch`'s plan, a bisect step.
  std::optional<model::Shard> shard;
  std::optional<model::AgainstBuild> against;
  std::optional<model::BatchRun> batch;
  std::optional<model::BisectStep> bisect;
  std::optional<std::vector<std::string>> lie_args;  // `perfgate lies`
};

struct RunPlan {
  std::vector<ScenarioPlan> scenarios;
  double alpha = defaults::kAlpha, noise = defaults::kNoise;
  std::uint64_t seed = 1;
  int looks_per_scenario = 4;
  int gated_total = 0;  // gated comparisons in the whole run: the Holm family
  // A shard's Holm family is the whole run's (every shard's gated comparisons), so verdicts
  // stay valid when shards are merged: the other shards' comparisons count as p = 1.
  int family_total = 0;  // 0: this plan's own gated comparisons
  double alpha_per_look = 0.0125;
  bool decide_all = false;      // RunOptions::decide_all
  bool parity_measures = true;  // RunOptions::parity_measures
  Outputs outputs;
  BaselinePlan baseline;
  std::optional<std::filesystem::path> debug_samples;  // --debug-samples: scripted samples
  std::optional<LockPlan> lock;
  RunRecord record;
  // What planning has to tell the user before anything runs ("shard 2/3 has no scenarios",
  // --against's skipped scenarios, benchmarks only one binary has).
  std::vector<std::string> notes;
  json options_json() const;
};

// Lists the benchmarks of a Google Benchmark command run in `workdir` (suite/benchmark_lister.hpp
// runs it: planning runs nothing itself). Throws UsageError when the binary cannot list them.
using BenchmarkLister = std::function<std::vector<std::string>(
    const std::string& scenario, const std::vector<std::string>& argv, const std::string& workdir)>;

// `perfgate run` (and lies, bisect and batch steps): the scenarios `names` of `catalog` (all when
// empty) at options.profile, then --shard's part of them, --against's other build as BEFORE
// (its gbench pairs listed by `list`), --measure's counting samples, `lies`' pair. Throws
// UsageError for anything the run could not do, before anything runs.
RunPlan plan_run(const std::vector<catalog::Manifest>& catalog, const std::vector<std::string>& names,
                 const RunOptions& options, const BenchmarkLister& list = {});

// Planning's own last step, after the scenarios are chosen (plan_run, plan_ab_family,
// plan_gbench, plan_batch): the run-wide figures (seed — `seed` when given, else the options'
// or a drawn one —, Holm family size, alpha per look), outputs, baseline, lock and record.
void finish_plan(RunPlan& plan, const RunOptions& options, std::optional<std::uint64_t> seed = std::nullopt);

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

// A --catalog folder as the results record it: absolute, so the file names it from anywhere.
std::filesystem::path catalog_folder(const std::string& catalog_dir);

// The CPUs a sample is pinned to: the last `count` allowed CPUs, so CPU 0 is left to the
// harness and the system when there is more than one.
std::vector<int> choose_cpus(const std::string& count);

}  // namespace perfgate::plan
