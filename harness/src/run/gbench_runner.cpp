#include "run/gbench_runner.hpp"

#include <cstdint>
#include <map>
#include <set>

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

// "BM_Sum/before/repeats:10" → ("BM_Sum", "before"); "" when it is not a before/after benchmark.
std::pair<std::string, std::string> split_name(std::string name) {
  auto ends_with_option = [](const std::string& part) {
    for (const char* p : {"repeats:", "min_time:", "min_warmup_time:", "iterations:", "threads:"})
      if (part.rfind(p, 0) == 0) return true;
    return part == "real_time" || part == "process_time" || part == "manual_time";
  };
  while (true) {
    auto slash = name.rfind('/');
    if (slash == std::string::npos || !ends_with_option(name.substr(slash + 1))) break;
    name.resize(slash);
  }
  auto slash = name.rfind('/');
  if (slash == std::string::npos) return {"", ""};
  std::string side = name.substr(slash + 1);
  if (side != "before" && side != "after") return {"", ""};
  return {name.substr(0, slash), side};
}

}  // namespace

GbenchRun pair_gbench_output(const json& doc) {
  GbenchRun g;
  // base → side → repetition values
  struct Rep {
    double real_ns = 0, cpu_ns = 0;
    std::map<std::string, double> counters;
  };
  std::map<std::string, std::map<std::string, std::vector<Rep>>> by;
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
  for (const auto& b : doc.value("benchmarks", json::array())) {
    if (b.value("run_type", "iteration") != "iteration") continue;
    const std::string name = b.value("run_name", b.value("name", ""));
    if (b.value("error_occurred", false))
      throw RunError("Google Benchmark: " + name + " failed: " + b.value("error_message", "error"));
    auto [base, side] = split_name(name);
    if (base.empty()) {
      g.notes.push_back("gbench: " + name + " is not named X/before or X/after; not used");
      continue;
    }
    const double k = ns_per(b.value("time_unit", "ns"));
    Rep r;
    r.real_ns = b.value("real_time", 0.0) * k;
    r.cpu_ns = b.value("cpu_time", 0.0) * k;
    for (const auto& [key, v] : b.items())
      if (!known.count(key) && v.is_number()) r.counters[key] = v.get<double>();
    by[base][side].push_back(r);
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
  const bool several = pairs.size() > 1;
  for (std::size_t i = 0; i < rounds; ++i) {
    int order = 0;
    for (const std::string side : {"before", "after"}) {
      Sample s;
      s.round = static_cast<int>(i) + 1;
      s.variant = side;
      s.order = order++;
      s.digest = "gbench";
      double real = 0, cpu = 0;
      for (const auto& base : pairs) {
        const Rep& r = by[base][side][i];
        real += r.real_ns;
        cpu += r.cpu_ns;
        const std::string prefix = several ? base + ":" : "";
        if (several) {
          s.metrics[prefix + "real_time"] = {r.real_ns, "ns", Better::Lower, "gbench"};
          s.metrics[prefix + "cpu_time"] = {r.cpu_ns, "ns", Better::Lower, "gbench"};
        }
        for (const auto& [name, v] : r.counters)
          s.metrics[prefix + name] = {v, counter_unit(name), Better::Higher, "gbench-counter"};
      }
      s.metrics["real_time"] = {real, "ns", Better::Lower, "gbench"};
      s.metrics["cpu_time"] = {cpu, "ns", Better::Lower, "gbench"};
      g.samples.push_back(std::move(s));
    }
  }
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
                                  const std::vector<int>& cpus, double timeout_s) {
  ChildSpec spec;
  spec.argv = {program, "--benchmark_format=json", "--benchmark_out=" + (dir / "out.json").string(),
               "--benchmark_out_format=json"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.cwd = dir;
  spec.stdout_path = dir / "stdout";
  spec.stderr_path = dir / "stderr";
  spec.cpus = cpus;
  spec.timeout_s = timeout_s;
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
