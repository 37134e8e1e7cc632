#include "run/gbench_runner.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include "catalog/gbench_names.hpp"
#include "common/errors.hpp"
#include "measure/cgroup.hpp"
#include "run/child.hpp"

namespace perfgate::run {

using json = nlohmann::json;

namespace {

// Google Benchmark's own rate counters are per second (SetBytesProcessed, SetItemsProcessed);
// a user's counter is a count unless it says otherwise.
std::string counter_unit(const std::string& name) {
  if (name == "bytes_per_second") return "B/s";
  if (name == "items_per_second") return "items/s";
  return "count";
}

double ns_per(const std::string& unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  throw RunError("Google Benchmark output: unknown time_unit '" + unit + "'");
}

GbenchFigures figures_of(const json& b) {
  static const std::set<std::string> known = {"name",
                                              "family_index",
                                              "per_family_instance_index",
                                              "run_name",
                                              "run_type",
                                              "repetitions",
                                              "repetition_index",
                                              "threads",
                                              "iterations",
                                              "real_time",
                                              "cpu_time",
                                              "time_unit",
                                              "aggregate_name",
                                              "aggregate_unit",
                                              "label",
                                              "error_occurred",
                                              "error_message"};
  const double k = ns_per(b.value("time_unit", "ns"));
  GbenchFigures f;
  f.real_ns = b.value("real_time", 0.0) * k;
  f.cpu_ns = b.value("cpu_time", 0.0) * k;
  for (const auto& [key, v] : b.items())
    if (!known.count(key) && v.is_number()) f.counters[key] = v.get<double>();
  return f;
}

}  // namespace

std::vector<std::pair<std::string, std::vector<GbenchFigures>>> gbench_figures(const json& doc) {
  std::vector<std::pair<std::string, std::vector<GbenchFigures>>> out;
  std::map<std::string, GbenchFigures> medians;  // aggregates, used where there is no iteration entry
  auto slot = [&out](const std::string& name) -> std::vector<GbenchFigures>& {
    for (auto& [n, reps] : out)
      if (n == name) return reps;
    return out.emplace_back(name, std::vector<GbenchFigures>{}).second;
  };
  for (const auto& b : doc.value("benchmarks", json::array())) {
    const std::string name = b.value("run_name", b.value("name", ""));
    if (b.value("error_occurred", false))
      throw RunError("Google Benchmark: " + name + " failed: " + b.value("error_message", "error"));
    const std::string type = b.value("run_type", "iteration");
    if (type == "iteration")
      slot(name).push_back(figures_of(b));
    else if (type == "aggregate" && b.value("aggregate_name", "") == "median" &&
             b.value("aggregate_unit", "time") == "time")
      medians[name] = figures_of(b);
  }
  for (const auto& [name, f] : medians)
    if (auto& reps = slot(name); reps.empty()) reps.push_back(f);
  return out;
}

void add_gbench_metrics(Sample& s, const std::string& name, const GbenchFigures& f) {
  s.metrics[name + ":real_time"] = {f.real_ns, "ns", Better::Lower, "gbench"};
  s.metrics[name + ":cpu_time"] = {f.cpu_ns, "ns", Better::Lower, "gbench"};
  for (const auto& [counter, v] : f.counters)
    s.metrics[name + ":" + counter] = {v, counter_unit(counter), Better::Higher, "gbench-counter"};
}

GbenchRun pair_gbench_output(const json& doc) {
  GbenchRun g;
  // base → side → repetition values
  std::map<std::string, std::map<std::string, std::vector<GbenchFigures>>> by;
  std::map<std::string, std::string> time_of;  // base → the time its benchmarks are measured by
  for (auto& [name, reps] : gbench_figures(doc)) {
    auto [base, side] = catalog::split_gbench_pair_name(name);
    if (base.empty()) {
      g.notes.push_back("gbench: " + name + " is not named X/before or X/after; not used");
      continue;
    }
    time_of[base] = catalog::gbench_time_metric(name);
    auto& to = by[base][side];
    to.insert(to.end(), reps.begin(), reps.end());
  }
  std::vector<std::string> pairs;
  std::size_t rounds = SIZE_MAX;
  for (const auto& [base, sides] : by) {
    if (!sides.count("before") || !sides.count("after")) {
      g.notes.push_back("gbench: " + base + " has no " + (sides.count("before") ? "after" : "before") +
                        " side; not used");
      continue;
    }
    pairs.push_back(base);
    rounds = std::min({rounds, sides.at("before").size(), sides.at("after").size()});
  }
  if (pairs.empty()) throw RunError("Google Benchmark: no pair of benchmarks named X/before and X/after in the output");
  for (std::size_t i = 0; i < rounds; ++i) {
    int order = 0;
    for (const std::string side : {"before", "after"}) {
      Sample s;
      s.round = static_cast<int>(i) + 1;
      s.variant = side;
      s.order = order++;
      s.digest = "gbench";
      for (const auto& base : pairs) add_gbench_metrics(s, base, by[base][side][i]);
      g.samples.push_back(std::move(s));
    }
  }
  for (const auto& base : pairs) g.gated.push_back(base + ":" + time_of[base]);
  g.rounds = static_cast<int>(rounds);
  std::string names;
  for (const auto& p : pairs) names += (names.empty() ? "" : ", ") + p;
  g.equivalence = {{"kind", "equivalence"},
                   {"name", "same benchmarks"},
                   {"passed", true},
                   {"detail", std::to_string(pairs.size()) + " pair(s) " + names +
                                  ": each X/before has its X/after with " + std::to_string(rounds) +
                                  " repetitions; Google Benchmark reports no digest of the "
                                  "work, so equal work is the benchmark code's responsibility"}};
  g.context = doc.value("context", json());
  return g;
}

GbenchBinaryRun run_gbench_binary(const std::string& name, const std::string& program,
                                  const std::vector<std::string>& args, const fs::path& dir,
                                  const std::vector<int>& cpus, double timeout_s, const fs::path& cwd) {
  ChildSpec spec;
  spec.argv = {program, "--benchmark_format=json", "--benchmark_out=" + (dir / "out.json").string(),
               "--benchmark_out_format=json"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = cwd.empty() ? dir : cwd;
  spec.stdout_path = dir / "stdout";
  spec.stderr_path = dir / "stderr";
  spec.cpus = cpus;
  spec.timeout_s = timeout_s;
  // As Google Benchmark itself does since 1.9.3 (BENCHMARK_MAIN re-enters without ASLR): a randomised
  // stack or heap can put one run's hot data across a cache-line or page boundary and the next's
  // not, so one benchmark can draw two modes 4x apart from run to run (docs/gbench.md).
  spec.fixed_addresses = true;
  // A benchmark pinned beside another job is preempted every few milliseconds and comes back to
  // caches the other filled: beside a two-job build one benchmark's runs spread 19-90 µs at nice 0
  // and 16-23 µs at -20 (docs/gbench.md). Where perfgate may not raise it, it runs at ours.
  spec.nice = kBenchmarkNice;
  measure::SampleCgroup cg(name + "-gbench");
  GbenchBinaryRun b;
  b.result = run_child(spec, cg);
  b.argv = spec.argv;
  b.stderr_path = spec.stderr_path;
  if (auto text = try_read_file(dir / "out.json")) b.doc = json::parse(*text, nullptr, false);
  if (b.doc.is_discarded()) b.doc = json();
  return b;
}

GbenchRun run_gbench(const GbenchSpec& gs, const TempDir& run_dir) {
  std::vector<std::string> args = {"--benchmark_repetitions=" + std::to_string(gs.repetitions),
                                   "--benchmark_enable_random_interleaving=true"};
  if (gs.min_time) args.push_back("--benchmark_min_time=" + *gs.min_time);
  if (gs.filter) args.push_back("--benchmark_filter=" + *gs.filter);
  args.insert(args.end(), gs.extra_args.begin(), gs.extra_args.end());
  const auto b =
      run_gbench_binary(gs.scenario, gs.program, args, run_dir.subdir("gbench-" + gs.scenario), gs.cpus, gs.timeout_s);
  const ChildResult& r = b.result;
  if (r.timed_out)
    throw RunError(gs.scenario + ": the benchmark binary timed out after " +
                   std::to_string(static_cast<int>(gs.timeout_s)) + " s");
  if (r.signal || r.exit_code != 0)
    throw RunError(gs.scenario + ": the benchmark binary failed (" +
                   (r.signal ? "signal " + std::to_string(r.signal) : "exit " + std::to_string(r.exit_code)) +
                   "); its stderr:\n" + tail_of_file(b.stderr_path));
  if (!b.doc.is_object()) throw RunError(gs.scenario + ": the benchmark binary wrote no JSON to --benchmark_out");
  GbenchRun g = pair_gbench_output(b.doc);
  g.argv = b.argv;
  return g;
}

}  // namespace perfgate::run
