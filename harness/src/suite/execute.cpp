#include "suite/execute.hpp"

#include <iostream>
#include <memory>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"
#include "measure/cgroup.hpp"
#include "measure/host.hpp"
#include "postgres/pg_server.hpp"
#include "run/child.hpp"
#include "store/results_codec.hpp"
#include "store/results_file.hpp"
#include "store/verdict_rows.hpp"
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

std::filesystem::path results_path_of(const plan::RunOptions& o) {
  if (!o.json_path.empty()) return o.json_path;
  if (!o.out_dir.empty()) return std::filesystem::path(o.out_dir) / "results.json";
  return {};
}

// Why each scenario failed, for the run's message and stderr: its error, then every failed
// gate except equivalence (whose failure is the scenario's error already).
void collect_failures(const ScenarioRun& r, std::vector<std::string>& failures) {
  const std::string& name = r.sp.manifest.name;
  if (!r.error_message.empty()) failures.push_back(name + ": " + r.error_message);
  for (const auto& g : r.result.gates)
    if (g.failed() && g.kind != model::GateKind::Equivalence)
      failures.push_back(name + ": " + store::failure_message(g));
}

}  // namespace

RunOutcome execute_plan(const plan::RunPlan& rp, const plan::RunOptions& options, const std::vector<std::string>& argv,
                        const json& run_extra, const StatusLine& status,
                        const std::optional<std::vector<std::string>>& lie_args) {
  auto baseline = load_run_baseline(rp, options);
  const auto script = load_sample_script(rp, options);
  // Even with --quiet: a table of scripted figures must not be read as a measurement.
  if (script)
    std::cerr << "perfgate: --debug-samples " << options.debug_samples << ": scripted samples, no program runs\n";
  install_interrupt_handlers();
  // What runs killed by SIGKILL left behind (cgroups, temporary directories, clusters), with
  // one stderr line each saying what was removed.
  run::reap_leftovers();
  if (const auto n = fixtures::PgServer::remove_stale_clusters(); n > 0)
    std::cerr << "perfgate: removed " << n << " PostgreSQL cluster director" << (n == 1 ? "y" : "ies")
              << " of runs killed earlier\n";
  model::RunHeader run = run_header(rp, options, argv, run_extra);
  run.baseline = baseline_header(baseline, options);
  run.lies = lie_args;
  RunOutcome out;
  out.results_path = results_path_of(options);
  store::ResultsFile results(out.results_path, std::move(run), host_header());
  if (const auto& cg = measure::cgroup_layout();
      !measure::allowed_cpus().empty() && cg.cpu_source == "rusage" && !options.quiet)
    std::cerr << "perfgate: note: CPU figures come from rusage (" << cg.note << ")\n";

  const auto reproduce = reproduce_argv(argv, rp.seed);
  TempDir run_dir("perfgate-run-");
  PgContext pg;  // after run_dir: destroyed first, so the cluster stops before the run's files go
  std::vector<std::unique_ptr<ScenarioRun>> runs;
  for (std::size_t i = 0; i < rp.scenarios.size(); ++i) {
    runs.push_back(std::make_unique<ScenarioRun>(rp.scenarios[i], rp, status, run_dir, static_cast<int>(i),
                                                 static_cast<int>(rp.scenarios.size())));
    ScenarioRun& sr = *runs.back();
    sr.reproduce = scenario_reproduce(reproduce, rp.scenarios[i]);
    sr.pg = &pg;
    sr.script = script ? &*script : nullptr;
    try {
      sr.execute();
    } catch (const Interrupted&) {
      out.interrupted = true;
    } catch (const Error& e) {
      sr.fail(e);  // could not even start (fixture, program): recorded, and on with the others
    }
    results.put_scenario(sr.result);
    if (out.interrupted) break;
  }
  status.done();

  std::vector<model::Comparison*> gated;
  for (auto& r : runs)
    for (auto& c : r->result.comparisons)
      if (c.gated) gated.push_back(&c);
  decide_family(gated, rp.family_total, rp.alpha_per_look, rp.noise);

  for (auto& r : runs)
    if (!out.interrupted || r.get() != runs.back().get()) r->finalise();
  if (baseline && !out.interrupted) {
    auto counts = apply_baseline(runs, *baseline, results.document(), rp.alpha, options.baseline_tolerance);
    if (!options.quiet || counts.missing)
      std::cerr << "perfgate: baseline " << baseline->file.string() << ": " << counts.compared << " compared, "
                << counts.missing << " with no comparable baseline\n";
  }
  int exit_code = kExitOk;
  for (auto& r : runs) {
    results.put_scenario(r->result);
    collect_failures(*r, out.failures);
    exit_code = worse_exit_code(exit_code, r->exit_code);
  }
  const RunEnding end = run_ending(exit_code, out.interrupted);
  results.finish(end.exit_code, end.status, out.failures.empty() ? end.status : out.failures.front(), out.failures,
                 end.stop_reason);
  out.exit_code = end.exit_code;
  out.document = results.document();
  out.results = store::to_json(out.document);
  return out;
}

}  // namespace perfgate::suite
