// Google Benchmark in a scenario: as the scenario itself (kind gbench, run/gbench_runner.hpp),
// or as microbenchmarks a manifest names (service.gbench) run once after the rounds.
#include <sstream>

#include "run/gbench_runner.hpp"
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
    outcome.stop_reason = "repetitions";
  } catch (const Interrupted&) {
    record_interrupt(json::array());
    throw;
  } catch (const Error& e) {
    record_error(e);
  }
  doc["commands"] = {{"gbench", g.argv}};
  doc["gates"] = json::array();
  if (error_message.empty()) doc["gates"].push_back(g.equivalence);
  for (const auto& n : g.notes) doc["notes"].push_back(n);
  analyse();
  if (!g.context.is_null()) doc["extra"]["gbench_context"] = g.context;
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
  const auto bin = run::run_gbench_binary(m.name, (m.dir / g["program"].get<std::string>()).string(), args,
                                          run_dir.subdir("gbench"), sp.cpus, sp.timeout_s);
  if (bin.result.exit_code != 0) {
    doc["notes"].push_back("microbenchmark " + g["program"].get<std::string>() +
                           " failed: " + tail_of_file(bin.stderr_path, 300));
    return;
  }
  const json& j = bin.doc;
  if (!j.is_object()) return;
  json rows = json::array();
  for (const auto& b : j.value("benchmarks", json::array()))
    rows.push_back({{"name", b.value("name", "")},
                    {"real_time", b.value("real_time", 0.0)},
                    {"cpu_time", b.value("cpu_time", 0.0)},
                    {"time_unit", b.value("time_unit", "ns")},
                    {"iterations", b.value("iterations", 0)}});
  doc["extra"]["gbench"] = {
      {"program", g["program"]}, {"context", j.value("context", json::object())}, {"benchmarks", rows}};
}

}  // namespace perfgate::suite
