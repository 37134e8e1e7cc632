#include "suite/calibration.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "catalog/catalog.hpp"
#include "catalog/counting_measures.hpp"
#include "common/defaults.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "export/calibration_text.hpp"
#include "export/exports.hpp"
#include "measure/host.hpp"
#include "plan/ab_plan.hpp"
#include "plan/nested_run.hpp"
#include "run/counting_sample.hpp"
#include "suite/calibration_summary.hpp"
#include "suite/execute.hpp"

namespace perfgate::suite {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// One `ab` run of the calibration program, in process.
CalibrationPair run_pair(const CalibrationOptions& o, const TempDir& dir, const std::string& mode,
                         std::uint64_t n_before, std::uint64_t n_after, int serial) {
  const fs::path self = dir.path() / ("self-" + std::to_string(serial));
  const bool duet = mode == "cpu-duet";
  // The CPU-bound program with each timed sample followed by a valgrind run: instruction counts'
  // A/A spread beside CPU time's, from the same pairs.
  const bool counted = mode == "cpu-counted";
  auto words = [&](std::uint64_t n) {
    return std::vector<std::string>{o.program.string(), duet || counted ? "cpu" : mode, std::to_string(n),
                                    "--self-time", self.string()};
  };
  // Instruction counts have no spread to wait out: the first look's rounds show it, and valgrind
  // makes every further round cost ~50x. ab's own default is a 50 s time-budgeted design per pair;
  // calibrate wants many short pairs in its budget, so without an explicit bound each pair stops
  // by 30 rounds (the fixed design).
  std::optional<int> max_rounds;
  if (counted)
    max_rounds = o.ab.min_rounds.value_or(defaults::kMinRounds);
  else if (!o.ab.max_rounds && !o.ab.max_time_s)
    max_rounds = defaults::kMaxRounds;
  const plan::RunOptions ab = plan::nested_options(
      o.ab, {.max_rounds = max_rounds,
             .seed_offset = static_cast<std::uint64_t>(serial),
             .results_file = (dir.path() / ("pair-" + std::to_string(serial) + ".json")).string(),
             .duet = duet,
             .measures = counted ? std::optional(std::vector<std::string>{"instructions"}) : std::nullopt,
             .argv = {"perfgate", "calibrate"}});
  const auto plan = plan::plan_ab("calibrate-" + mode, words(n_before), words(n_after), o.metric, ab);
  const auto start = std::chrono::steady_clock::now();
  // Calibrate prints one table at the end: what a pair would always show only explains its failure.
  std::string log;
  RunSink sink;
  sink.log = [&log](const std::string& line, bool always) {
    if (always) log += "perfgate: " + line + "\n";
  };
  const RunOutcome outcome = execute_plan(plan, sink);
  CalibrationPair p;
  p.exit_code = outcome.exit_code;
  p.seconds = seconds_since(start);
  if (p.exit_code == kExitInterrupted) throw Interrupted();
  if (!outcome.document.scenarios.empty()) p.scenario = outcome.document.scenarios.front();
  // A pair that cannot tell (5) still measured every round; calibration reads its samples.
  if (p.exit_code >= kExitUsage && p.exit_code != kExitCannotTell) {
    std::string why;
    for (const auto& f : outcome.failures) why += f + "; ";
    throw RunError("calibrate: the " + mode + " pair exited " + std::to_string(p.exit_code) + ": " +
                   (why + log).substr(0, 400));
  }
  std::ifstream in(self);
  for (double ms; in >> ms;) p.self_ms.push_back(ms);
  return p;
}

std::uint64_t work_of(const CalibrationOptions& o, const std::string& mode) {
  // Under valgrind a sample runs ~50x longer: a tenth of the work keeps the pair short.
  return mode == "cpu" || mode == "cpu-duet" ? o.cpu_iterations
         : mode == "cpu-counted"             ? o.cpu_iterations / 10
         : mode == "syscall"                 ? o.syscalls
                                             : o.memory_mib;
}

// The workloads this host can calibrate, and the program that does the work.
CalibrationOptions resolved(CalibrationOptions o) {
  // Duet needs two CPUs for this process; on one, only sequential rounds can be calibrated.
  if (measure::allowed_cpus().size() < 2 || o.ab.cpus)
    o.workloads.erase(std::remove(o.workloads.begin(), o.workloads.end(), "cpu-duet"), o.workloads.end());
  try {
    catalog::check_counting_measure("instructions");
  } catch (const UsageError&) {  // no valgrind here: calibrate what can be measured
    o.workloads.erase(std::remove(o.workloads.begin(), o.workloads.end(), "cpu-counted"), o.workloads.end());
  }
  if (o.program.empty())
    o.program = catalog::executable_dir().parent_path() / "libexec" / "perfgate" / "calibration_work";
  if (!fs::exists(o.program))
    throw RunError("calibrate: the calibration program " + o.program.string() +
                   " is missing (build target calibration_work)");
  return o;
}

}  // namespace

json run_calibration(const CalibrationOptions& options) {
  const CalibrationOptions o = resolved(options);
  const auto start = std::chrono::steady_clock::now();
  TempDir dir("perfgate-calibrate-");
  std::map<std::string, WorkloadPairs> pairs;
  for (const auto& w : o.workloads) pairs[w] = {w, {o.program.string(), w, std::to_string(work_of(o, w))}, {}, {}};
  // Round-robin over kinds of pair, each over every workload, so a short budget still samples
  // each of them; A/A twice per cycle: false alarms need the most pairs.
  std::vector<std::pair<std::string, double>> cycle;
  for (const auto& w : o.workloads) cycle.push_back({w, 0.0});
  for (double x : o.extra_work)
    for (const auto& w : o.workloads) cycle.push_back({w, x});
  for (const auto& w : o.workloads) cycle.push_back({w, 0.0});
  // A pair is started only when it is expected to end inside the budget: its expected length is
  // the longest pair of its kind so far (the longest of any kind before its first), since the
  // kinds differ several-fold and a pair's rounds vary with the noise it meets; a second is kept
  // for summarising. A first pair always runs, so a tiny budget still writes a document.
  std::map<std::pair<std::string, double>, double> longest;
  double longest_any = 0;
  int serial = 0;
  for (std::size_t i = 0;; i = (i + 1) % cycle.size()) {
    const auto& [mode, extra] = cycle[i];
    const auto seen = longest.find(cycle[i]);
    const double expected = seen != longest.end() ? seen->second : longest_any;
    if (serial >= 1 && seconds_since(start) + expected + 1.0 > o.budget_s) break;
    const std::uint64_t n = work_of(o, mode);
    const auto n_after = static_cast<std::uint64_t>(std::llround(static_cast<double>(n) * (1 + extra)));
    CalibrationPair p = run_pair(o, dir, mode, n, n_after, ++serial);
    longest[cycle[i]] = std::max(longest[cycle[i]], p.seconds);
    longest_any = std::max(longest_any, p.seconds);
    auto& w = pairs[mode];
    (extra == 0 ? w.aa : w.injected[extra]).push_back(std::move(p));
  }
  auto probe = plan::plan_ab("probe", {o.program.string()}, {o.program.string()}, o.metric, o.ab);
  json workloads = json::array();
  for (const auto& w : o.workloads)
    workloads.push_back(summarize_workload(pairs[w], probe.alpha_per_look, probe.noise));
  json defaults = probe.options_json();
  defaults["metric"] = o.metric;
  return {{"kind", "perfgate-calibration"},
          {"version", 1},
          {"budget_s", o.budget_s},
          {"elapsed_s", seconds_since(start)},
          {"pairs", serial},
          {"stop", "budget"},
          {"load_average", measure::load_average()},
          {"defaults", defaults},
          {"notes",
           {"false alarms and catches of the gated metric are exit codes of `perfgate ab` (gate); per metric they "
            "are the comparison's verdict, uncorrected for metrics ab does not gate",
            "detectable_effect_*: stats::detectable_effect_of_spread (the signed-rank test's normal approximation, "
            "sd x sqrt(pi/3)) of the pooled per-round log-ratio sd of the A/A pairs at their median round count "
            "and ab's per-look alpha, noise band included; null where that many rounds cannot reject at all",
            "perturbation: median wall under perfgate against the program's own median wall (steady clock from main "
            "to exit): process creation, cgroup placement and exit are the difference"}},
          {"workloads", workloads},
          {"duet_vs_sequential", duet_against_sequential(workloads)}};
}

void calibrate(const CalibrationOptions& options, const std::filesystem::path& json_file) {
  const json doc = run_calibration(options);
  exports::print_calibration(std::cout, doc);
  if (exports::write_exports({exports::json_export("the calibration", json_file, doc)}, kExitOk) == 0)
    std::cerr << "perfgate: calibration in " << json_file.string() << "\n";
}

}  // namespace perfgate::suite
