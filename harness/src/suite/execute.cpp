#include "suite/execute.hpp"

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"
#include "common/run_lock.hpp"
#include "export/verdict_rows.hpp"
#include "measure/cgroup.hpp"
#include "measure/host.hpp"
#include "postgres/pg_server.hpp"
#include "run/child.hpp"
#include "store/results_codec.hpp"
#include "store/results_file.hpp"
#include "suite/baseline_apply.hpp"
#include "suite/debug_samples.hpp"
#include "suite/family.hpp"
#include "suite/run_document.hpp"
#include "suite/scenario_run.hpp"

namespace perfgate::suite {

using json = nlohmann::json;

namespace {

model::HostInfo host_header() {
  model::HostInfo host = store::host_from_json(measure::to_json(measure::host_info()));
  const auto load = measure::load_average();
  host.load_before.assign(load.begin(), load.end());
  return host;
}

// Why each scenario failed, for the run's message and stderr: its error, then every failed
// gate except equivalence (whose failure is the scenario's error already).
void collect_failures(const ScenarioRun& r, std::vector<std::string>& failures) {
  const std::string& name = r.sp.manifest.name;
  if (!r.error_message.empty()) failures.push_back(name + ": " + r.error_message);
  for (const auto& g : r.result.gates)
    if ((g.failed() || g.cannot_tell()) && g.kind != model::GateKind::Equivalence)
      failures.push_back(name + ": " + exports::failure_message(g));
}

// --lock: the machine's lock, held for the whole run; what the wait was is recorded beside the
// run (a batch's inside its batch section, where it always was).
std::unique_ptr<RunLock> take_lock(const plan::RunPlan& rp, model::RunHeader& run, const RunSink& sink) {
  if (!rp.lock) return nullptr;
  std::string what;
  for (const auto& sp : rp.scenarios) what += (what.empty() ? "" : " ") + sp.manifest.name + "/" + sp.profile;
  const bool batch = run.batch.has_value();
  const std::string holder =
      batch ? "perfgate batch " + run.batch->plan + " [" + what + "]" : "perfgate run [" + what + "]";
  auto held = std::make_unique<RunLock>(rp.lock->file, rp.lock->timeout_s, holder,
                                        [&sink](const std::string& line) { sink.note(line, true); });
  const model::LockWait lock{std::filesystem::absolute(rp.lock->file).string(), held->waited_s(), held->acquired_unix(),
                             held->waited_for()};
  if (batch) {
    const auto load = measure::load_average();
    run.batch->lock = lock;
    run.batch->load_before = std::vector<double>(load.begin(), load.end());
  } else {
    run.lock = lock;
  }
  return held;
}

}  // namespace

RunOutcome execute_plan(const plan::RunPlan& rp, const RunSink& sink) {
  PgContext pg;
  return execute_plan(rp, sink, pg);
}

RunOutcome execute_plan(const plan::RunPlan& rp, const RunSink& sink, PgContext& pg) {
  auto baseline = load_run_baseline(rp.baseline);
  const auto script = load_sample_script(rp);
  // Even with --quiet: a table of scripted figures must not be read as a measurement.
  if (script) sink.note("--debug-samples " + rp.debug_samples->string() + ": scripted samples, no program runs", true);
  install_interrupt_handlers();
  // What runs killed by SIGKILL left behind (cgroups, temporary directories, clusters), with
  // one log line each saying what was removed.
  run::reap_leftovers([&sink](const std::string& line) { sink.note(line, true); });
  if (const auto n = fixtures::PgServer::remove_stale_clusters(); n > 0)
    sink.note("removed " + std::to_string(n) + " PostgreSQL cluster director" + (n == 1 ? "y" : "ies") +
                  " of runs killed earlier",
              true);
  model::RunHeader run = run_header(rp);
  run.baseline = baseline_header(baseline, rp.baseline);
  // Taken once everything that can be wrong with the input has been found.
  const auto lock = take_lock(rp, run, sink);
  RunOutcome out;
  out.results_path = rp.outputs.results_file();
  store::ResultsFile results(out.results_path, std::move(run), host_header());
  if (const auto& cg = measure::cgroup_layout(); !measure::allowed_cpus().empty() && cg.cpu_source == "rusage")
    sink.note("note: CPU figures come from rusage (" + cg.note + ")");

  const auto reproduce = reproduce_argv(rp.record.argv, rp.seed);
  TempDir run_dir("perfgate-run-");
  std::vector<std::unique_ptr<ScenarioRun>> runs;
  for (std::size_t i = 0; i < rp.scenarios.size(); ++i) {
    runs.push_back(std::make_unique<ScenarioRun>(rp.scenarios[i], rp, sink, run_dir, static_cast<int>(i),
                                                 static_cast<int>(rp.scenarios.size())));
    ScenarioRun& sr = *runs.back();
    sr.reproduce = scenario_reproduce(reproduce, rp.scenarios[i]);
    sr.pg = &pg;
    sr.script = script ? &*script : nullptr;
    sink.scenario_started(rp.scenarios[i].manifest.name);
    const auto started = std::chrono::steady_clock::now();
    try {
      sr.execute();
    } catch (const Interrupted&) {
      out.interrupted = true;
    } catch (const Error& e) {
      sr.fail(e);  // could not even start (fixture, program): recorded, and on with the others
    }
    results.put_scenario(sr.result);
    sink.done();
    sink.scenario_finished(sr.result,
                           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    if (out.interrupted) break;
  }
  sink.done();

  // One Holm family, each member decided at the level its own last test ran at: a pair of an
  // `ab` family that stopped "the same" at round 8 keeps the level it stopped at when another
  // pair runs on to stricter looks (a budgeted scenario's last test spends the looks its budget
  // left untested; one that stopped early did not), and so does a benchmark of a Google
  // Benchmark pair settled at an earlier look than the pair's last.
  std::vector<model::Comparison*> gated;
  std::vector<double> level;
  for (auto& r : runs)
    for (auto& c : r->result.comparisons)
      if (c.gated) {
        gated.push_back(&c);
        level.push_back(r->decided_at_alpha_of(c.metric));
      }
  decide_family(gated, level, rp.family_total, rp.noise);

  for (auto& r : runs)
    if (!out.interrupted || r.get() != runs.back().get()) r->finalise();
  if (baseline && !out.interrupted) {
    auto counts = apply_baseline(runs, *baseline, results.document(), rp.alpha, rp.baseline.tolerance);
    sink.note("baseline " + baseline->file.string() + ": " + std::to_string(counts.compared) + " compared, " +
                  std::to_string(counts.missing) + " with no comparable baseline",
              counts.missing > 0);
  }
  int exit_code = kExitOk;
  for (auto& r : runs) {
    results.put_scenario(r->result);
    collect_failures(*r, out.failures);
    exit_code = worse_exit_code(exit_code, r->exit_code);
  }
  store::RunEnding end = store::run_ending(exit_code, out.interrupted);
  // --cannot-tell warn|pass: the results keep the state; only the exit code changes.
  if (end.exit_code == kExitCannotTell && rp.outputs.cannot_tell != plan::CannotTellExit::Fail) {
    end.exit_code = kExitOk;
    if (rp.outputs.cannot_tell == plan::CannotTellExit::Warn)
      out.failures.push_back("warning: some gated comparisons cannot tell; exit 0 as --cannot-tell warn asks");
  }
  results.finish(end, out.failures);
  out.exit_code = end.exit_code;
  out.document = results.document();
  return out;
}

}  // namespace perfgate::suite
