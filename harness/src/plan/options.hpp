// What a user asked for, before it is resolved against manifests: the typed values of the flag
// groups (cli/flag_groups.hpp, where each is declared and checked once). Planning (plan.hpp,
// ab_plan.hpp, gbench_plan.hpp, batch_file.hpp) resolves it into a RunPlan — the only thing the
// suite takes — and nothing edits a plan after it is made, so every input that changes a plan
// (--measure, --mask, --check, --lock, --shard, --against) is a field here.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "catalog/baseline_choice.hpp"
#include "catalog/kinds.hpp"
#include "common/defaults.hpp"
#include "model/run_sections.hpp"
#include "perfgate/enum_names.hpp"

namespace perfgate::plan {

// Where a run's documents go: the results (--json FILE, else --out DIR/results.json, else none)
// and what is written from them (export/exports.hpp); --quiet keeps the terminal to failures.
// What the exit code says when a gated comparison cannot tell (--cannot-tell): 5 (fail, the
// default), 0 with a warning (warn), or 0 (pass). The results record the state either way.
enum class CannotTellExit { Fail, Warn, Pass };
constexpr auto names(CannotTellExit) { return in_declaration_order<CannotTellExit>({"fail", "warn", "pass"}); }

struct Outputs {
  std::string out_dir, json_path;
  CannotTellExit cannot_tell = CannotTellExit::Fail;
  // JUnit XML, Google Benchmark JSON, ab's markdown and CSV tables and hyperfine's JSON (empty:
  // none), and the unit ab's tables print times in (empty: chosen per table).
  std::string junit, gbench, ab_markdown, ab_csv, ab_hyperfine_json, time_unit;
  bool quiet = false;
  // The results file they name; empty: not written.
  std::string results_file() const {
    return !json_path.empty() ? json_path : out_dir.empty() ? std::string() : out_dir + "/results.json";
  }
};

struct RunOptions {
  std::string profile = "quick";
  std::optional<int> min_rounds, max_rounds, warmup;
  std::optional<double> max_time_s, timeout_s;
  std::optional<catalog::Policy> policy;
  // The noise band, as a fraction (--noise takes a percentage), and the family-wise error rate;
  // none: the defaults table's, which finish_plan completes the plan with.
  std::optional<double> noise, alpha;
  // --decide-all: take rounds until every gated comparison is decided, even after a gate has
  // failed (by default a scenario stops once one has: more rounds cannot turn it green).
  bool decide_all = false;
  // After the rounds, a parity scenario's capacity and per-request measures (docs/parity.md);
  // a lie asks only whether the gates catch it, so `lies` leaves them out.
  bool parity_measures = true;
  std::optional<std::uint64_t> seed;
  std::optional<std::vector<int>> cpus;
  Outputs outputs;
  std::string catalog_dir;                 // empty: the bundled catalog
  std::vector<std::string> scenario_args;  // VARIANT=ARG, appended to that variant's command (tests)

  // Against baseline.json (docs/baseline.md); none: --baseline not given, which is the default
  // file for a catalog run and no baseline for the user's own commands (plan.cpp's baseline_of).
  std::optional<catalog::BaselineChoice> baseline;
  double baseline_tolerance = defaults::kBaselineTolerance;  // a fraction (--baseline-tolerance takes a percentage)
  // --shard i/n: run the i-th of n deterministic parts of the selected scenarios.
  std::string shard;
  // --against DIR: this build's AFTER against the AFTER of another build of perfgate.
  std::string against_dir;
  // Counting samples beside the timed ones (--measure allocs|instructions).
  std::vector<std::string> measures;
  // --lock FILE: measure only while holding this machine's lock (empty: none).
  std::string lock_file;
  double lock_timeout_s = defaults::kLockTimeoutS;
  // ab --duet: BEFORE and AFTER of a round run at the same time on two CPUs.
  bool duet = false;
  // ab: the folder samples run in (empty: the caller's); --isolate: a fresh one per sample.
  std::string workdir;
  bool isolate = false;
  // ab --mask and --check (run/output_mask.hpp, run/output_check.hpp): how two outputs are compared
  // (the patterns compiled and the command split into words by the flags' checks).
  std::vector<std::string> masks;
  std::vector<std::string> check;
  // --debug-samples FILE (hidden): samples from a script, not from programs (run/sample_script.hpp).
  std::string debug_samples;
  // `perfgate lies`: BEFORE against AFTER only (no sweep variant, no claim), AFTER given these
  // arguments, recorded as run.lies.
  std::optional<std::vector<std::string>> lie_args;
  // The command line as typed: recorded in the results and re-run by their reproduce line.
  std::vector<std::string> argv;
  // `perfgate bisect`: the step this run is (good, tested, batch), recorded as run.bisect.
  std::optional<model::BisectStep> bisect_step;
};

// "0,1" or "0-3,6" → CPU numbers. Throws UsageError.
std::vector<int> parse_cpu_list(const std::string& text);

}  // namespace perfgate::plan
