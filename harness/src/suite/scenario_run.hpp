// One scenario through the data flow: fixture → runner → stats → gates, into its entry of the
// results document (`result`, a model value: store/results_codec.hpp encodes it). Verdicts are
// provisional until the run's Holm family is decided (suite/family.hpp); finalise() then adds
// the policy and claim gates and the exit code.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cache/fixture_cache.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "gate/scenario_stats.hpp"
#include "plan/plan.hpp"
#include "run/batch_runner.hpp"
#include "run/sample_script.hpp"
#include "run/service_sampler.hpp"
#include "suite/pg_context.hpp"
#include "suite/run_sink.hpp"
#include "suite/stopping_rule.hpp"

namespace perfgate::suite {

using json = nlohmann::json;

struct ScenarioRun {
  ScenarioRun(const plan::ScenarioPlan& sp_, const plan::RunPlan& rp_, const RunSink& status_, const TempDir& run_dir_,
              int index_, int count_)
      : sp(sp_), rp(rp_), status(status_), run_dir(run_dir_), index(index_), count(count_) {}
  const plan::ScenarioPlan& sp;
  const plan::RunPlan& rp;
  const RunSink& status;
  const TempDir& run_dir;
  int index, count;
  std::string reproduce;  // the command that re-runs exactly this scenario
  PgContext* pg = nullptr;
  const run::SampleScript* script = nullptr;  // --debug-samples: no program runs (suite/debug_samples.hpp)

  model::ScenarioResult result;  // comparisons are the run's Holm family's to decide (execute.cpp)
  run::BatchOutcome outcome;
  std::optional<fixtures::FixtureInfo> fixture;
  std::string error_message;
  int exit_code = kExitOk;
  // The level its last test ran at (StoppingRule::alpha_of_last_test), which the family decides at.
  double decided_at_alpha = rp.alpha_per_look;
  // A Google Benchmark pair's benchmarks decided at an earlier look: run no more, decided at
  // their own level.
  SettledMetrics settled;
  // The level the family decides `metric` at.
  double decided_at_alpha_of(const std::string& metric) const;

  // Prepares the fixture and runs every round. Throws Interrupted (after analysing what
  // completed) and Error when the scenario could not even start.
  void execute();
  // Summaries and comparisons of whatever samples exist.
  void analyse();
  // After the run's Holm correction: the policy and claim gates and this scenario's exit code.
  void finalise();
  // Records an error that stopped the scenario before its rounds, then analyses what exists.
  void fail(const Error& e);

  // The comparison of `variant` against before on `metric`, or null.
  const model::Comparison* find(const std::string& variant, const std::string& metric) const;
  std::string prefix() const;

  // What the scenario's way of sampling (suite/sampling.hpp) draws on.
  run::ServicePlan service_plan() const;
  // A Google Benchmark pair (a GbenchBinaries source): one run of a binary per sample, and the
  // "same benchmarks" gate.
  run::BatchHooks::TakeSample gbench_sampler() const;
  // Takes the settled benchmarks' figures out of a scripted sample (--debug-samples), as the
  // real sampler does not run them.
  void drop_settled(run::Sample& s) const;
  model::GateResult gbench_pair_gate() const;

 private:
  void describe();  // what the scenario is, from its plan and manifest
  std::vector<run::VariantCommand> commands() const;
  std::vector<gate::VariantPair> pairs() const;
  std::vector<std::string> gated_metrics() const;
  run::BatchPlan batch_plan() const;
  std::string estimate(const std::vector<run::Sample>& samples) const;
  // The rounds stopped: by an error (recorded; the scenario exits with its code) or by an
  // interrupt (what completed is analysed with `gates` as they stood; the caller rethrows).
  void record_error(const Error& e);
  void record_interrupt(std::vector<model::GateResult> gates);
  void fill_anchors();
  void note_digest_runs(const run::BatchPlan& bp);
  void run_rounds();

  // suite/scenario_fixture.cpp
  void prepare_fixture();
  void prepare_postgres();
  // suite/scenario_gbench.cpp
  void run_gbench_kind();
  void run_microbenchmarks();
  // What a Google Benchmark pair's two contexts and lists say.
  void note_gbench_pair();
  // The gbench kind's gated metrics, one per X/before–X/after pair, known once the binary ran.
  std::optional<std::set<std::string>> gbench_gated;
};

}  // namespace perfgate::suite
