#include "suite/execute.hpp"

#include <iostream>
#include <memory>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"
#include "measure/host.hpp"
#include "postgres/pg_server.hpp"
#include "run/child.hpp"
#include "store/results_file.hpp"
#include "suite/baseline_apply.hpp"
#include "suite/family.hpp"
#include "suite/run_document.hpp"
#include "suite/scenario_run.hpp"

namespace perfgate::suite {

using json = nlohmann::json;

namespace {

json host_header() {
  json host = measure::to_json(measure::host_info());
  host["load_before"] = measure::load_average();
  host["load_after"] = nullptr;
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
  for (const auto& g : r.doc["gates"])
    if (g["passed"].is_boolean() && !g["passed"].get<bool>() && g["kind"] != "equivalence")
      failures.push_back(name + ": " + g["kind"].get<std::string>() +
                         " gate failed: " + g["detail"].get<std::string>());
}

}  // namespace

RunOutcome execute_plan(const plan::RunPlan& rp, const plan::RunOptions& options, const std::vector<std::string>& argv,
                        const json& run_extra, const StatusLine& status) {
  auto baseline = load_run_baseline(rp, options);
  install_interrupt_handlers();
  // What runs killed by SIGKILL left behind (cgroups, temporary directories, clusters), with
  // one stderr line each saying what was removed.
  run::reap_leftovers();
  if (const auto n = fixtures::PgServer::remove_stale_clusters(); n > 0)
    std::cerr << "perfgate: removed " << n << " PostgreSQL cluster director" << (n == 1 ? "y" : "ies")
              << " of runs killed earlier\n";
  json host = host_header();
  json run = run_header(rp, argv, run_extra);
  run["baseline"] = baseline_header(baseline, options);
  RunOutcome out;
  out.results_path = results_path_of(options);
  store::ResultsFile results(out.results_path, run, host);
  if (!host["allowed_cpus"].empty() && host["cgroup"]["cpu_source"] == "rusage" && !options.quiet)
    std::cerr << "perfgate: note: CPU figures come from rusage (" << host["cgroup"]["note"].get<std::string>() << ")\n";

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
    try {
      sr.execute();
    } catch (const Interrupted&) {
      out.interrupted = true;
    } catch (const Error& e) {
      sr.fail(e);  // could not even start (fixture, program): recorded, and on with the others
    }
    results.put_scenario(sr.doc);
    if (out.interrupted) break;
  }
  status.done();

  std::vector<model::Comparison*> gated;
  for (auto& r : runs)
    for (auto& c : r->comparisons)
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
    results.put_scenario(r->doc);
    collect_failures(*r, out.failures);
    exit_code = worse_exit_code(exit_code, r->exit_code);
  }
  const RunEnding end = run_ending(exit_code, out.interrupted);
  results.finish(end.exit_code, end.status, out.failures.empty() ? end.status : out.failures.front(), out.failures,
                 end.stop_reason);
  out.exit_code = end.exit_code;
  out.results = results.document();
  return out;
}

}  // namespace perfgate::suite
