#include "plan/ab_plan.hpp"

#include <algorithm>
#include <filesystem>

#include "catalog/counting_measures.hpp"
#include "common/errors.hpp"
#include "common/program_path.hpp"
#include "stats/sequential.hpp"
#include "stats/spending.hpp"

namespace perfgate::plan {
namespace {

// `ab` without --max-rounds: looks growing by a fifth from 8 rounds (more for a family) to 640
// while they fit 50 s (or --max-time), each at the spending boundary's level (stats/spending.hpp),
// so one pair stays under a minute and an effect just above a narrow noise band is still sampled
// until decided.
constexpr double kAbLookBudgetSeconds = 50;

// argv[0] as the sample will find it: a relative path with a slash is the working folder's
// (as sh -c finds it there), a bare name is looked up on PATH.
void check_program(const std::string& program, const std::string& workdir) {
  namespace fs = std::filesystem;
  if (program.find('/') == std::string::npos || fs::path(program).is_absolute() || workdir.empty()) {
    resolve_program(program);
    return;
  }
  try {
    resolve_program((fs::path(workdir) / program).string());
  } catch (const UsageError&) {
    throw UsageError("cannot execute " + program + " in " + workdir);
  }
}

ScenarioPlan ab_scenario(const AbPair& pair, const std::string& metric, const RunOptions& o, const std::string& workdir,
                         int family) {
  ScenarioPlan s;
  s.manifest.name = pair.name;
  s.manifest.title = pair.name;
  s.manifest.kind = catalog::ScenarioKind::Ab;
  s.manifest.program = pair.before_argv.at(0);
  s.manifest.policy = catalog::Policy::NoRegress;
  catalog::Variant before, after;
  before.name = "before";
  before.label = pair.before.label;
  after.name = "after";
  after.label = pair.after.label;
  after.compare_to = "before";
  s.variants = {before, after};
  s.manifest.variants = s.variants;
  s.profile = "ab";
  s.params = pair.params;
  s.policy = o.policy.value_or(catalog::Policy::NoRegress);
  apply_rounds(s, nullptr, o);
  apply_budgeted_rounds(s, o, family);
  // Unpinned by default, as hyperfine runs it: a command may have threads of its own (zstd -dc
  // reads and writes on a second one) and one CPU cost it 5-8% here (docs/hyperfine.md).
  s.cpus = o.cpus ? *o.cpus : choose_cpus(o.duet ? "2" : "all");
  s.schedule = o.duet ? Schedule::Duet : Schedule::Sequential;
  if (o.duet && s.cpus.size() != 2)
    throw UsageError("--duet needs exactly two CPUs (BEFORE on one, AFTER on the other); this process may use " +
                     std::to_string(s.cpus.size()) + (o.cpus ? " given by --cpus" : ""));
  if (metric == "auto") s.metric_selection = MetricSelection::ChosenAfterRounds;
  s.gated_metrics = {metric == "auto" ? std::string("cpu_ms") : metric};
  s.manifest.primary_metric = *s.gated_metrics.begin();
  s.manifest.measure = o.measures;
  UserCommands commands;
  commands.before_argv = pair.before_argv;
  commands.after_argv = pair.after_argv;
  commands.side = {{"before", pair.before}, {"after", pair.after}};
  commands.masks = o.masks;
  commands.check = o.check;  // never through --shell: the files are appended
  s.source = std::move(commands);
  const std::string before_dir = pair.before_workdir.value_or(workdir),
                    after_dir = pair.after_workdir.value_or(workdir);
  if (!before_dir.empty()) s.workdir["before"] = before_dir;
  if (!after_dir.empty()) s.workdir["after"] = after_dir;
  check_program(pair.before_argv.at(0), before_dir);
  check_program(pair.after_argv.at(0), after_dir);
  return s;
}

}  // namespace

void apply_budgeted_rounds(ScenarioPlan& s, const RunOptions& o, int family) {
  if (o.max_rounds) return;
  const int floor = min_decidable_rounds(stats::budgeted_spending(o.alpha.value_or(defaults::kAlpha), 0), 1, family);
  s.min_rounds = o.min_rounds.value_or(std::max(stats::kBudgetedFirstLook, floor));
  s.looks = stats::growing_schedule(s.min_rounds, std::max(s.min_rounds, stats::kBudgetedLastLook));
  s.max_rounds = s.looks.back();
  // --max-time is the budget itself, the same design at another size: a larger one never gives
  // fewer rounds (it used to switch to run's 8-30 schedule and stop after the round past it).
  s.look_budget_s = o.max_time_s.value_or(kAbLookBudgetSeconds);
  // The budget is kept within one round even where its looks would not end the rounds first.
  s.max_time_s = s.look_budget_s;
}

std::string ab_workdir(const RunOptions& o) {
  namespace fs = std::filesystem;
  if (o.isolate) {
    if (!o.workdir.empty()) throw UsageError("--workdir and --isolate: choose one");
    return "";
  }
  if (o.workdir.empty()) return fs::current_path().string();
  std::error_code ec;
  if (!fs::is_directory(o.workdir, ec)) throw UsageError("--workdir " + o.workdir + ": not a folder");
  return fs::canonical(o.workdir).string();
}

namespace {

// A count asked for (--measure) is what the user means to gate, unless --metric names something else.
std::string gated_metric(const std::string& metric, const std::vector<std::string>& measures) {
  auto has = [&](const char* m) { return std::find(measures.begin(), measures.end(), m) != measures.end(); };
  if (metric != "auto") return metric;
  if (has("instructions")) return "instructions";
  if (has("allocs")) return "allocs";
  return metric;
}

}  // namespace

RunPlan plan_ab(const std::string& name, const std::vector<std::string>& before_argv,
                const std::vector<std::string>& after_argv, const std::string& metric, const RunOptions& o) {
  AbPair pair;
  pair.name = name;
  pair.before_argv = before_argv;
  pair.after_argv = after_argv;
  return plan_ab_family({pair}, metric, o);
}

RunPlan plan_ab_family(const std::vector<AbPair>& pairs, const std::string& metric, const RunOptions& o) {
  if (pairs.empty()) throw UsageError("ab: no pair of commands to compare");
  for (const auto& m : o.measures) catalog::check_counting_measure(m);
  RunPlan rp;
  const std::string workdir = ab_workdir(o);
  const std::string gated = gated_metric(metric, o.measures);
  const int family = static_cast<int>(pairs.size());  // one gated comparison a pair, one Holm family
  for (const auto& p : pairs) rp.scenarios.push_back(ab_scenario(p, gated, o, workdir, family));
  finish_plan(rp, o);
  return rp;
}

}  // namespace perfgate::plan
