// Google Benchmark in a scenario: as the scenario itself (kind gbench, run/gbench_runner.hpp),
// or as microbenchmarks a manifest names (service.gbench) run once after the rounds.
#include <sstream>

#include "run/gbench_runner.hpp"
#include "store/results_codec.hpp"
#include "suite/scenario_run.hpp"

namespace perfgate::suite {

namespace {

// The profile's params as the runner's flags: repetitions (at least 2, default the profile's
// min_rounds), min_time (seconds, or Google Benchmark's "0.5s"), filter.
run::GbenchSpec gbench_spec(const plan::ScenarioPlan& sp) {
  run::GbenchSpec g;
  g.scenario = sp.manifest.name;
  g.program = sp.program;
  const json& r = sp.params.value("repetitions", json());
  g.repetitions = r.is_number_integer() && r.get<int>() >= 2 ? r.get<int>() : sp.min_rounds;
  if (sp.params.contains("min_time")) {
    const json& t = sp.params["min_time"];
    std::ostringstream v;
    if (t.is_string())
      v << t.get<std::string>();
    else
      v << t.get<double>();
    g.min_time = v.str();
  }
  if (sp.params.contains("filter") && sp.params["filter"].is_string())
    g.filter = sp.params["filter"].get<std::string>();
  for (const auto& v : sp.variants)
    if (auto it = sp.extra_args.find(v.name); it != sp.extra_args.end())
      g.extra_args.insert(g.extra_args.end(), it->second.begin(), it->second.end());
  g.cpus = sp.cpus;
  g.timeout_s = sp.timeout_s;
  return g;
}

}  // namespace

// Repetition i of X/before and of X/after are round i, so stats and gates work unchanged.
void ScenarioRun::run_gbench_kind() {
  run::GbenchRun g;
  const run::GbenchSpec spec = gbench_spec(sp);
  try {
    status.update(prefix() + "Google Benchmark, " + std::to_string(spec.repetitions) + " repetitions");
    g = run::run_gbench(spec, run_dir);
    outcome.samples = g.samples;
    outcome.rounds = g.rounds;
    outcome.stop = run::StopReason::plain(run::StopKind::Repetitions);
  } catch (const Interrupted&) {
    record_interrupt({});
    throw;
  } catch (const Error& e) {
    record_error(e);
  }
  result.commands = std::map<std::string, std::vector<std::string>>{{"gbench", g.argv}};
  result.gates.clear();
  if (error_message.empty()) result.gates.push_back(store::gate_from_json(g.equivalence));
  result.notes.insert(result.notes.end(), g.notes.begin(), g.notes.end());
  analyse();
  if (!g.context.is_null()) result.extra->gbench_context = g.context;
}

// The manifest's service.gbench binary, once after the rounds; its JSON kept in extra.gbench
// for the report. A failure is a note, not a verdict: these figures gate nothing.
void ScenarioRun::run_microbenchmarks() {
  const auto& m = sp.manifest;
  json g = m.service.contains("gbench") ? m.service["gbench"] : json();
  if (!g.is_object() || !g.contains("program")) return;
  status.update(prefix() + "microbenchmarks");
  std::vector<std::string> args;
  for (const auto& a : g.value("args", json::array())) {
    std::string arg = a.get<std::string>();
    if (auto at = arg.find("{fixture}"); at != std::string::npos && fixture) arg.replace(at, 9, fixture->location);
    args.push_back(arg);
  }
  const std::string program = g.value("program", "");
  const auto bin =
      run::run_gbench_binary(m.name, (m.dir / program).string(), args, run_dir.subdir("gbench"), sp.cpus, sp.timeout_s);
  if (bin.result.exit_code != 0) {
    result.notes.push_back("microbenchmark " + program + " failed: " + tail_of_file(bin.stderr_path, 300));
    return;
  }
  if (!bin.doc.is_object()) return;
  if (!result.extra) result.extra.emplace();
  result.extra->microbenchmarks = store::microbenchmarks_from_gbench(program, bin.doc);
}

}  // namespace perfgate::suite
