#include "plan/plan.hpp"

#include <random>
#include <sstream>

#include "catalog/catalog.hpp"
#include "catalog/counting_measures.hpp"
#include "common/errors.hpp"
#include "common/program_path.hpp"
#include "measure/host.hpp"
#include "plan/against.hpp"
#include "plan/shard.hpp"
#include "stats/power.hpp"
#include "stats/sequential.hpp"

namespace perfgate::plan {

std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> out;
  std::istringstream in(text);
  std::string part;
  auto number = [&](const std::string& s) {
    try {
      std::size_t used = 0;
      int v = std::stoi(s, &used);
      if (used != s.size() || v < 0) throw std::invalid_argument(s);
      return v;
    } catch (const std::exception&) {
      throw UsageError("--cpus: '" + text + "' is not a CPU list like 1 or 0,1 or 0-3");
    }
  };
  while (std::getline(in, part, ',')) {
    auto dash = part.find('-');
    if (dash == std::string::npos) {
      out.push_back(number(part));
    } else {
      int a = number(part.substr(0, dash)), b = number(part.substr(dash + 1));
      if (b < a) throw UsageError("--cpus: range '" + part + "' is backwards");
      for (int c = a; c <= b; ++c) out.push_back(c);
    }
  }
  if (out.empty()) throw UsageError("--cpus: empty CPU list");
  auto allowed = measure::allowed_cpus();
  for (int c : out)
    if (std::find(allowed.begin(), allowed.end(), c) == allowed.end())
      throw UsageError("--cpus: CPU " + std::to_string(c) + " is not available to this process");
  return out;
}

std::vector<int> choose_cpus(const std::string& count) {
  auto allowed = measure::allowed_cpus();
  if (count == "all" || allowed.empty()) return allowed;
  std::size_t n = std::min<std::size_t>(std::stoul(count), allowed.size());
  return std::vector<int>(allowed.end() - static_cast<long>(n), allowed.end());
}

json RunPlan::options_json() const {
  json j = {{"alpha", alpha},
            {"noise", noise},
            {"looks_per_scenario", looks_per_scenario},
            {"gated_comparisons", gated_total},
            {"alpha_per_look", alpha_per_look}};
  if (decide_all) j["decide_all"] = true;
  if (!scenarios.empty()) {
    const auto& s = scenarios.front();
    j["min_rounds"] = s.min_rounds;
    j["max_rounds"] = s.max_rounds;
    j["warmup"] = s.warmup;
    j["max_time_s"] = s.max_time_s;
    j["timeout_s"] = s.timeout_s;
    j["cpus"] = s.cpus;
    j["policy"] = name_of(s.policy);
    if (s.schedule == Schedule::Duet) j["duet"] = true;
    if (s.look_budget_s > 0) j["look_budget_s"] = s.look_budget_s;
  }
  return j;
}

namespace {

constexpr int kLooks = kLooksPerScenario;
}  // namespace

void apply_rounds(ScenarioPlan& s, const catalog::Profile* p, const RunOptions& o) {
  s.min_rounds = o.min_rounds.value_or(p && p->min_rounds ? *p->min_rounds : defaults::kMinRounds);
  s.max_rounds = o.max_rounds.value_or(p && p->max_rounds ? *p->max_rounds : defaults::kMaxRounds);
  s.warmup = o.warmup.value_or(p && p->warmup ? *p->warmup : defaults::kWarmup);
  s.max_time_s = o.max_time_s.value_or(p && p->max_time_s ? *p->max_time_s : 0.0);
  s.timeout_s = o.timeout_s.value_or(p && p->timeout_s ? *p->timeout_s : defaults::kTimeoutS);
  if (s.min_rounds < 2) throw UsageError("--min-rounds must be at least 2 (a paired test needs pairs)");
  if (s.max_rounds < s.min_rounds) s.max_rounds = s.min_rounds;
  s.looks = stats::look_schedule(s.min_rounds, s.max_rounds, kLooks);
}

namespace {

void parse_scenario_args(ScenarioPlan& s, ContractProgram& program, const RunOptions& o) {
  for (const auto& a : o.scenario_args) {
    auto eq = a.find('=');
    if (eq == std::string::npos) throw UsageError("--scenario-arg: '" + a + "' must be VARIANT=ARGUMENT");
    program.extra_args[a.substr(0, eq)].push_back(a.substr(eq + 1));
  }
  (void)s;
}

void check_statistics(const RunPlan& rp) {
  if (rp.alpha <= 0 || rp.alpha >= 1) throw UsageError("--alpha must be between 0 and 1");
  if (rp.noise < 0 || rp.noise >= 1) throw UsageError("--noise must be a percentage between 0 and 100");
  // An `improve` scenario passes only when its rank test rejects; with fewer rounds than the test
  // can ever reject at (inside the run's family, at the per-look level) it is a certain failure,
  // so it is refused before anything runs. A no-regress one still runs: its results say it could
  // not resolve anything (detectable_effect null).
  const int needed = min_decidable_rounds(rp.alpha, rp.looks_per_scenario, std::max(1, rp.gated_total));
  for (const auto& s : rp.scenarios)
    if (s.policy == catalog::Policy::Improve && s.max_rounds < needed)
      throw UsageError((s.manifest.file.empty() ? s.manifest.name : s.manifest.file.string()) + ": profile " +
                       s.profile + ": max_rounds " + std::to_string(s.max_rounds) +
                       " can never decide an improvement: a rank test inside this run's family (" +
                       std::to_string(rp.gated_total) + " gated comparisons x " +
                       std::to_string(rp.looks_per_scenario) + " looks at alpha " +
                       std::to_string(rp.alpha).substr(0, 6) + ") needs at least " + std::to_string(needed) +
                       " rounds (n >= log2(2 looks m / alpha)); raise min_rounds/max_rounds "
                       "or --max-rounds to " +
                       std::to_string(needed));
}

BaselinePlan baseline_of(const RunPlan& rp, const RunOptions& o) {
  BaselinePlan b;
  b.tolerance = o.baseline_tolerance;
  const bool users = !rp.scenarios.empty() && users_commands(rp.scenarios.front());
  using Kind = catalog::BaselineChoice::Kind;
  const Kind kind = o.baseline ? o.baseline->kind : Kind::DefaultFile;
  if (kind == Kind::None)
    b.why_none = "--baseline none";
  else if (!o.against_dir.empty())
    b.why_none = "--against compares builds, not a change";
  else if (users && !o.baseline)
    b.why_none = "ab: no --baseline given";
  else if (kind == Kind::File)
    b.file = o.baseline->file, b.named = true;
  else
    b.file = o.catalog_dir.empty() ? catalog::bundled_baseline() : catalog_folder(o.catalog_dir) / "baseline.json";
  return b;
}

}  // namespace

std::filesystem::path catalog_folder(const std::string& dir) {
  return std::filesystem::absolute(dir).lexically_normal();
}

int min_decidable_rounds(double alpha, int looks, int family) {
  return stats::min_rank_rounds(alpha / (static_cast<double>(looks) * std::max(1, family)));
}

void finish_plan(RunPlan& rp, const RunOptions& o, std::optional<std::uint64_t> seed) {
  rp.alpha = o.alpha.value_or(defaults::kAlpha);
  rp.noise = o.noise.value_or(defaults::kNoise);
  rp.decide_all = o.decide_all;
  rp.parity_measures = o.parity_measures;
  rp.seed = seed ? *seed : o.seed ? *o.seed : std::random_device{}();
  // Alpha is split over the looks the schedules take, no more: a fixed number of rounds (--runs N,
  // a profile with min = max) is one look at full alpha. A budgeted scenario's looks take their
  // levels from its spending boundary instead (stats/spending.hpp).
  rp.looks_per_scenario = 1;
  for (const auto& s : rp.scenarios)
    if (s.look_budget_s <= 0) rp.looks_per_scenario = std::max(rp.looks_per_scenario, static_cast<int>(s.looks.size()));
  rp.alpha_per_look = stats::alpha_per_look(rp.alpha, rp.looks_per_scenario);
  rp.gated_total = 0;
  for (const auto& s : rp.scenarios) rp.gated_total += static_cast<int>(s.gated_metrics.size());
  check_statistics(rp);
  rp.outputs = o.outputs;
  rp.baseline = baseline_of(rp, o);
  if (!o.debug_samples.empty()) rp.debug_samples = o.debug_samples;
  if (!o.lock_file.empty()) rp.lock = LockPlan{o.lock_file, o.lock_timeout_s};
  rp.record.argv = o.argv;
  if (!o.catalog_dir.empty()) rp.record.catalog = catalog_folder(o.catalog_dir).string();
  rp.record.lie_args = o.lie_args;
  rp.record.bisect = o.bisect_step;
}

std::string ScenarioPlan::seeder() const {
  if (const auto* p = program()) return p->program;
  return argv_of("after").empty() ? std::string() : argv_of("after").front();
}

const std::vector<std::string>& ScenarioPlan::argv_of(const std::string& variant) const {
  static const std::vector<std::string> none;
  if (const auto* c = commands()) return variant == "before" ? c->before_argv : c->after_argv;
  if (const auto* g = gbench()) return variant == "before" ? g->before_argv : g->after_argv;
  return none;
}

namespace {

std::vector<ScenarioPlan> catalog_scenarios(const std::vector<catalog::Manifest>& catalog,
                                            const std::vector<std::string>& names, const RunOptions& o) {
  std::vector<const catalog::Manifest*> chosen;
  if (names.empty())
    for (const auto& m : catalog) chosen.push_back(&m);
  else
    for (const auto& n : names) chosen.push_back(&catalog::find_scenario(catalog, n));
  for (const auto& m : o.measures) catalog::check_counting_measure(m);
  std::vector<ScenarioPlan> out;
  for (const auto* m : chosen) {
    auto pit = m->profiles.find(o.profile);
    if (pit == m->profiles.end()) {
      std::string known;
      for (const auto& n : m->profile_names()) known += (known.empty() ? "" : ", ") + n;
      throw UsageError("scenario " + m->name + " has no profile '" + o.profile + "' (it has: " + known + ")");
    }
    ScenarioPlan s;
    s.manifest = *m;
    s.profile = o.profile;
    s.params = pit->second.params;
    for (const auto& v : m->variants)
      if (v.in_profile(o.profile) && (!o.lie_args || v.name == "before" || v.name == "after")) s.variants.push_back(v);
    s.policy = o.policy.value_or(m->policy);
    apply_rounds(s, &pit->second, o);
    s.cpus = o.cpus ? *o.cpus : choose_cpus(m->cpus);
    // Beside the manifest first (bundled and user catalogs), else absolute or on PATH.
    std::filesystem::path prog = m->program;
    if (prog.is_relative() && (m->program.find('/') != std::string::npos || std::filesystem::exists(m->dir / prog)))
      prog = m->dir / prog;
    ContractProgram program;
    try {
      program.program = resolve_program(prog.string());
    } catch (const UsageError& e) {
      throw UsageError(m->file.string() + ": program: " + e.what() + " (is the project built?)");
    }
    s.gated_metrics = {m->primary_metric};
    // `perfgate lies` asks only whether a lie is caught: no claim is judged at its two rounds.
    if (!o.lie_args)
      for (const auto& c : m->claims)
        if (c.profiles.empty() || std::find(c.profiles.begin(), c.profiles.end(), o.profile) != c.profiles.end())
          s.claims.push_back(c);
    parse_scenario_args(s, program, o);
    if (o.lie_args)
      for (const auto& a : *o.lie_args) program.extra_args["after"].push_back(a);
    // Counting samples of batch scenarios beside the timed ones; instruction counts are gated.
    if (m->kind == catalog::ScenarioKind::Batch)
      for (const auto& c : o.measures) {
        if (std::find(s.manifest.measure.begin(), s.manifest.measure.end(), c) == s.manifest.measure.end())
          s.manifest.measure.push_back(c);
        if (c == "instructions") s.gated_metrics.insert("instructions");
      }
    s.source = std::move(program);
    out.push_back(std::move(s));
  }
  if (out.empty()) throw UsageError("no scenarios to run");
  return out;
}

}  // namespace

RunPlan plan_run(const std::vector<catalog::Manifest>& catalog, const std::vector<std::string>& names,
                 const RunOptions& o, const BenchmarkLister& list) {
  RunPlan rp;
  std::vector<std::string> chosen = names;
  int family = 0;
  if (!o.shard.empty()) {
    const ShardSelection part = select_shard(catalog, names, o.shard);
    RunPlan all;
    all.scenarios = catalog_scenarios(catalog, part.all, o);
    for (const auto& s : all.scenarios) family += static_cast<int>(s.gated_metrics.size());
    rp.record.shard = part.info;
    if (part.names.empty()) {
      rp.notes.push_back("shard " + o.shard + " has no scenarios (" + std::to_string(part.all.size()) +
                         " scenarios in " + std::to_string(part.count) + " shards)");
      finish_plan(rp, o);
      rp.gated_total = rp.family_total = family;
      return rp;
    }
    chosen = part.names;
  }
  rp.scenarios = catalog_scenarios(catalog, chosen, o);
  if (!o.against_dir.empty()) {
    rp.record.against = apply_against(rp, o, rp.notes, list);
    if (rp.scenarios.empty()) {
      std::string why;
      for (const auto& n : rp.notes) why += (why.empty() ? " (" : "; ") + n;
      throw UsageError("--against: no scenario left to compare" + why + (why.empty() ? "" : ")"));
    }
  }
  finish_plan(rp, o);
  if (!o.shard.empty()) rp.gated_total = rp.family_total = family;
  return rp;
}

}  // namespace perfgate::plan
