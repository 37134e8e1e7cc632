// Google Benchmark in a scenario: as the scenario itself (kind gbench, run/gbench_runner.hpp),
// as two binaries compared benchmark by benchmark (`perfgate gbench`, run/gbench_sample.hpp),
// or as microbenchmarks a manifest names (service.gbench) run once after the rounds.
#include "catalog/gbench_names.hpp"
#include "plan/gbench_plan.hpp"
#include "process/spawn.hpp"
#include "run/gbench_runner.hpp"
#include "run/gbench_sample.hpp"
#include "store/results_codec.hpp"
#include "suite/scenario_run.hpp"

namespace perfgate::suite {

namespace {

// The profile's params as the runner's flags: repetitions (at least 2, default the profile's
// min_rounds), min_time, filter.
run::GbenchSpec gbench_spec(const plan::ScenarioPlan& sp) {
  run::GbenchSpec g;
  g.scenario = sp.manifest.name;
  const auto& program = std::get<plan::ContractProgram>(sp.source);
  g.program = program.program;
  const plan::GbenchParams p = plan::gbench_params(sp.params);
  g.repetitions = p.repetitions.value_or(sp.min_rounds);
  g.min_time = p.min_time;
  g.filter = p.filter;
  for (const auto& v : sp.variants)
    if (auto it = program.extra_args.find(v.name); it != program.extra_args.end())
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
    gbench_gated = std::set<std::string>(g.gated.begin(), g.gated.end());
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

run::BatchHooks::TakeSample ScenarioRun::gbench_sampler() const {
  const auto& binaries = *sp.gbench();
  run::GbenchSampling g;
  g.scenario = sp.manifest.name;
  g.argv = {{"before", binaries.before_argv}, {"after", binaries.after_argv}};
  g.workdir = sp.workdir;
  g.benchmarks = binaries.benchmarks;
  g.cpus = sp.cpus;
  g.timeout_s = sp.timeout_s;
  // A benchmark settled at a look runs no more: the rounds left go to the undecided ones.
  return [this, g](const std::string& variant, int round, bool warmup, int order, int serial) {
    if (settled.empty()) return run::take_gbench_sample(g, variant, round, warmup, order, serial, run_dir);
    std::vector<std::string> undecided;
    for (const auto& b : g.benchmarks)
      if (!settled.count(catalog::gbench_gated_metric(b))) undecided.push_back(b);
    return run::take_gbench_sample(run::only_benchmarks(g, undecided), variant, round, warmup, order, serial, run_dir);
  };
}

void ScenarioRun::drop_settled(run::Sample& s) const {
  std::set<std::string> benchmarks;
  for (const auto& [metric, how] : settled) benchmarks.insert(catalog::gbench_benchmark_of(metric));
  for (auto it = s.metrics.begin(); it != s.metrics.end();)
    it = benchmarks.count(catalog::gbench_benchmark_of(it->first)) ? s.metrics.erase(it) : std::next(it);
}

double ScenarioRun::decided_at_alpha_of(const std::string& metric) const {
  const auto it = settled.find(metric);
  return it == settled.end() ? decided_at_alpha : it->second.alpha;
}

// Google Benchmark reports no digest of the work: the gate says which benchmarks were paired and
// which only one binary has; equal work per benchmark is the benchmark code's to ensure.
model::GateResult ScenarioRun::gbench_pair_gate() const {
  model::GateResult g{model::GateKind::Equivalence, "same benchmarks"};
  g.outcome = model::GateOutcome::Passed;
  const auto& binaries = *sp.gbench();
  std::string names;
  for (const auto& b : binaries.benchmarks) names += (names.empty() ? "" : ", ") + b;
  g.detail = std::to_string(binaries.benchmarks.size()) + " benchmark(s) in both binaries, paired by name: " + names;
  for (const auto& [variant, only] : binaries.only)
    g.detail += "; only in " + variant + " (not compared): " + std::to_string(only.size());
  g.detail += ". Google Benchmark reports no digest of the work, so equal work is the benchmark code's responsibility";
  return g;
}

// What a reader must know beside the verdicts: benchmarks one binary lacks, and the two
// binaries' contexts where they differ or where Google Benchmark itself warns (CPU scaling).
void ScenarioRun::note_gbench_pair() {
  for (auto& line : plan::gbench_only_lines(sp)) result.notes.push_back(std::move(line));
  if (!settled.empty())
    result.notes.push_back(std::to_string(settled.size()) + " of " + std::to_string(sp.gated_metrics.size()) +
                           " benchmarks were decided before the last round and ran no more; each is decided "
                           "at the level of the look that settled it, over the rounds it ran");
  if (!process::may_raise_priority())
    result.notes.push_back("the benchmark binaries ran at perfgate's own priority: nice " +
                           std::to_string(run::kBenchmarkNice) +
                           " needs root or CAP_SYS_NICE, and without it a job beside them preempts them "
                           "and leaves their rounds wider (docs/gbench.md)");
  // Each variant's context reaches the results as extra.VARIANT.gbench_context (analyse keeps
  // the last measured sample's extra); the samples' own extra is not written.
  std::map<std::string, json> context;  // variant → its first measured sample's
  for (const auto& s : outcome.samples)
    if (!s.warmup && s.extra.contains("gbench_context") && !context.count(s.variant))
      context[s.variant] = s.extra["gbench_context"];
  if (!context.count("before") || !context.count("after")) return;
  const json &b = context["before"], &a = context["after"];
  const std::string build_b = b.value("library_build_type", "?"), build_a = a.value("library_build_type", "?");
  if (build_b != build_a)
    result.notes.push_back("warning: the binaries' libbenchmark builds differ (before " + build_b + ", after " +
                           build_a + "): a debug library adds its own overhead to every iteration of one side");
  else if (build_b == "debug")
    result.notes.push_back(
        "both binaries report libbenchmark's library_build_type debug (Debian's package is "
        "built so): the library's overhead is the same on both sides");
  for (const auto& [variant, c] : context)
    if (c.value("cpu_scaling_enabled", false))
      result.notes.push_back("warning: " + variant +
                             ": Google Benchmark found CPU frequency scaling enabled: figures move with the clock "
                             "(the interleaved rounds spread it over both sides; a fixed governor steadies them)");
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
