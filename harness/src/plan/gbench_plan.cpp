#include "plan/gbench_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "catalog/gbench_names.hpp"
#include "common/errors.hpp"
#include "common/program_path.hpp"
#include "plan/ab_plan.hpp"

namespace perfgate::plan {

namespace {

bool is_flag(const std::string& arg, const std::string& flag) { return arg == flag || arg.rfind(flag + "=", 0) == 0; }

// The binary as the folder it runs in sees it (as `ab` resolves argv[0]).
std::string binary(const std::string& program, const std::string& workdir) {
  namespace fs = std::filesystem;
  const bool relative_path = program.find('/') != std::string::npos && fs::path(program).is_relative();
  const std::string path = relative_path && !workdir.empty() ? (fs::path(workdir) / program).string() : program;
  try {
    return resolve_program(path);
  } catch (const UsageError& e) {
    throw UsageError("gbench: " + program + (workdir.empty() ? "" : " (in " + workdir + ")") + ": " + e.what());
  }
}

void set_filter(std::vector<std::string>& argv, const std::string& regex) {
  for (auto& a : argv)
    if (is_flag(a, "--benchmark_filter")) {
      a = "--benchmark_filter=" + regex;
      return;
    }
  argv.insert(argv.begin() + 1, "--benchmark_filter=" + regex);
}

}  // namespace

std::string exact_regex(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (std::string(".^$|()[]{}*+?\\").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

GbenchParams gbench_params(const json& params) {
  GbenchParams g;
  const json& r = params.value("repetitions", json());
  if (r.is_number_integer() && r.get<int>() >= 2) g.repetitions = r.get<int>();
  if (params.contains("min_time")) {
    const json& t = params["min_time"];
    std::ostringstream v;
    if (t.is_string())
      v << t.get<std::string>();
    else
      v << t.get<double>();
    g.min_time = v.str();
  }
  if (params.contains("filter") && params["filter"].is_string()) g.filter = params["filter"].get<std::string>();
  return g;
}

namespace {

// What each binary listed: the benchmarks both run become the gated metrics (NAME:cpu_time, or
// NAME:real_time), those only one has are kept to be reported (and not run: the filter becomes
// the exact names both share). Throws UsageError when the two share no benchmark.
void set_benchmarks(ScenarioPlan& s, const BenchmarkLister& list) {
  auto& g = std::get<GbenchBinaries>(s.source);
  auto listed = [&](const std::string& variant, const std::vector<std::string>& argv) {
    const auto wd = s.workdir.find(variant);
    return list(s.manifest.name, argv, wd == s.workdir.end() ? std::string() : wd->second);
  };
  const auto listed_before = listed("before", g.before_argv), listed_after = listed("after", g.after_argv);
  auto has = [](const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  // --against a gbench scenario: its X/after benchmarks, named alike in both builds.
  auto kept = [&g](const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const auto& n : names)
      if (!g.after_only || catalog::split_gbench_pair_name(n).second == "after") out.push_back(n);
    return out;
  };
  const auto before = kept(listed_before), after = kept(listed_after);
  for (const auto& b : after)
    if (has(before, b) && !has(g.benchmarks, b)) g.benchmarks.push_back(b);
  for (const auto& b : before)
    if (!has(after, b)) g.only["before"].push_back(b);
  for (const auto& b : after)
    if (!has(before, b)) g.only["after"].push_back(b);
  if (g.benchmarks.empty())
    throw UsageError((s.manifest.name == "gbench" ? std::string("gbench") : "gbench " + s.manifest.name) +
                     ": the two binaries share no benchmark (before lists " + std::to_string(before.size()) +
                     ", after " + std::to_string(after.size()) +
                     (before.empty() && after.empty() ? "; is the filter right?" : "; are they the same suite?") + ")");
  s.gated_metrics.clear();
  for (const auto& b : g.benchmarks) s.gated_metrics.insert(catalog::gbench_gated_metric(b));
  const std::size_t n = g.benchmarks.size();
  if (listed_before.size() != n || listed_after.size() != n) {  // run only what is compared
    std::string names;
    for (const auto& b : g.benchmarks) names += (names.empty() ? "" : "|") + exact_regex(b);
    set_filter(g.before_argv, "^(" + names + ")$");
    set_filter(g.after_argv, "^(" + names + ")$");
  }
}

}  // namespace

std::vector<std::string> gbench_only_lines(const ScenarioPlan& s) {
  std::vector<std::string> lines;
  const auto* g = s.gbench();
  if (!g) return lines;
  for (const auto& [variant, names] : g->only)
    for (const auto& name : names)
      lines.push_back("warning: " + name + " is only in " + variant + " (" + s.argv_of(variant).at(0) +
                      "): not compared");
  return lines;
}

void plan_gbench_against(ScenarioPlan& s, const std::string& other_program, const BenchmarkLister& list) {
  const GbenchParams p = gbench_params(s.params);
  std::vector<std::string> flags = {"--benchmark_repetitions=1",
                                    "--benchmark_min_time=" + p.min_time.value_or(kGbenchMinTime)};
  if (p.filter) flags.insert(flags.begin(), "--benchmark_filter=" + *p.filter);
  const ContractProgram program = std::get<ContractProgram>(s.source);
  GbenchBinaries g;
  g.before_argv = {other_program};
  g.after_argv = {program.program};
  for (const auto& v : s.variants)  // --scenario-arg VARIANT=ARG: appended to both, as the kind does
    if (auto it = program.extra_args.find(v.name); it != program.extra_args.end())
      flags.insert(flags.end(), it->second.begin(), it->second.end());
  g.before_argv.insert(g.before_argv.end(), flags.begin(), flags.end());
  g.after_argv.insert(g.after_argv.end(), flags.begin(), flags.end());
  g.after_only = true;
  s.source = std::move(g);
  s.manifest.guard.metric = "none";
  s.warmup = std::max(s.warmup, 1);
  if (!list) throw UsageError("--against: " + s.manifest.name + ": no way to list its benchmarks");
  set_benchmarks(s, list);
}

GbenchArgs with_positional_binaries(GbenchArgs g) {
  auto a_binary = [&](std::size_t i) { return g.args.size() > i && g.args[i].rfind('-', 0) != 0; };
  if (g.before.empty() && g.after.empty() && a_binary(0) && a_binary(1)) {
    g.before = g.args[0];
    g.after = g.args[1];
    g.args.erase(g.args.begin(), g.args.begin() + 2);
  }
  if (g.before.empty() || g.after.empty())
    throw UsageError(
        "gbench needs two Google Benchmark binaries: perfgate gbench OLD NEW (compare.py's order), or "
        "--before OLD --after NEW");
  return g;
}

RunPlan plan_gbench(const GbenchArgs& given, const RunOptions& o, const BenchmarkLister& list) {
  const GbenchArgs g = with_positional_binaries(given);
  std::string filter = g.filter;
  std::vector<std::string> args;
  bool repetitions = false, min_time = false;
  for (const auto& a : g.args) {
    for (const char* owned : {"--benchmark_out", "--benchmark_out_format", "--benchmark_list_tests"})
      if (is_flag(a, owned))
        throw UsageError("gbench: " + a + ": perfgate runs the binaries with " + owned +
                         " itself (it reads their JSON); --export-gbench FILE writes the results in Google "
                         "Benchmark's format");
    if (is_flag(a, "--benchmark_filter")) {
      if (!filter.empty()) throw UsageError("gbench: --filter and " + a + ": give one filter");
      filter = a.substr(a.find('=') == std::string::npos ? a.size() : a.find('=') + 1);
      continue;
    }
    repetitions = repetitions || is_flag(a, "--benchmark_repetitions");
    min_time = min_time || is_flag(a, "--benchmark_min_time");
    args.push_back(a);
  }
  RunPlan rp;
  ScenarioPlan s;
  s.manifest.name = g.name;
  s.manifest.title = g.name;
  s.manifest.kind = catalog::ScenarioKind::Gbench;
  s.manifest.program = g.after;
  s.manifest.policy = catalog::Policy::NoRegress;
  s.manifest.primary_metric = "cpu_time";
  s.manifest.guard.metric = "none";  // a benchmark runs for a fixed time: the process's wall says nothing
  catalog::Variant before, after;
  before.name = "before";
  before.label = g.before;
  after.name = "after";
  after.label = g.after;
  after.compare_to = "before";
  s.variants = {before, after};
  s.manifest.variants = s.variants;
  s.profile = "gbench";
  s.policy = o.policy.value_or(catalog::Policy::NoRegress);
  apply_rounds(s, nullptr, o);
  s.cpus = o.cpus ? *o.cpus : choose_cpus("1");
  const std::string workdir = ab_workdir(o);
  if (!workdir.empty()) s.workdir = {{"before", workdir}, {"after", workdir}};
  std::vector<std::string> common;
  if (!filter.empty()) common.push_back("--benchmark_filter=" + filter);
  if (!repetitions) common.push_back("--benchmark_repetitions=1");
  if (!min_time) common.push_back(std::string("--benchmark_min_time=") + kGbenchPairMinTime);
  common.insert(common.end(), args.begin(), args.end());
  GbenchBinaries binaries;
  binaries.users = true;
  binaries.before_argv = {binary(g.before, workdir)};
  binaries.after_argv = {binary(g.after, workdir)};
  binaries.before_argv.insert(binaries.before_argv.end(), common.begin(), common.end());
  binaries.after_argv.insert(binaries.after_argv.end(), common.begin(), common.end());
  s.source = std::move(binaries);
  s.params = {{"before", g.before}, {"after", g.after}, {"args", g.args}};
  if (!filter.empty()) s.params["filter"] = filter;
  set_benchmarks(s, list);
  apply_budgeted_rounds(s, o, static_cast<int>(s.gated_metrics.size()));
  for (auto& line : gbench_only_lines(s)) rp.notes.push_back(s.manifest.name + ": " + line);
  rp.scenarios.push_back(std::move(s));
  finish_plan(rp, o);
  return rp;
}

}  // namespace perfgate::plan
