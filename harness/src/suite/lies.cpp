#include "suite/lies.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "plan/nested_run.hpp"
#include "plan/plan.hpp"
#include "suite/execute.hpp"

namespace perfgate::suite {

using json = nlohmann::json;

namespace {

struct Ran {
  int exit_code = 0;
  model::ScenarioResult scenario;  // the scenario's entry of the results
};

// BEFORE against AFTER (+ `lie_args`) at the lies' profile: no other variant, no claim, no
// baseline, nothing written; the same suite as `perfgate run` otherwise.
Ran run_pair(const std::vector<catalog::Manifest>& catalog, const std::string& scenario,
             const std::vector<std::string>& lie_args, const LiesOptions& lo, const std::vector<std::string>& argv,
             const RunSink& status, PgContext& pg) {
  plan::RunOptions asked;
  asked.profile = lo.profile;
  asked.seed = lo.seed;
  asked.cpus = lo.cpus;
  // Only equivalence (and exact counts) decide a lie; a performance verdict at two rounds is
  // neither possible nor wanted, so no `improve` policy asks for one.
  const plan::RunOptions o = plan::nested_options(asked, {.rounds = lo.rounds,
                                                          .warmup = 0,
                                                          .policy = catalog::Policy::NoRegress,
                                                          .argv = argv,
                                                          .lie_args = lie_args,
                                                          .parity_measures = false});
  const plan::RunPlan rp = plan::plan_run(catalog, {scenario}, o);
  RunOutcome out = execute_plan(rp, status, pg);
  if (out.interrupted) throw Interrupted();
  Ran r;
  r.exit_code = out.exit_code;
  if (!out.document.scenarios.empty()) r.scenario = out.document.scenarios.front();
  return r;
}

std::string clip(const std::string& s, std::size_t n = 400) { return s.size() > n ? s.substr(0, n) + "..." : s; }

// The run's own words for why it failed: its error, else its first failed gate.
std::string why(const Ran& r) {
  if (r.scenario.error) return r.scenario.error->message;
  for (const auto& g : r.scenario.gates)
    if (g.failed()) return g.detail.empty() ? "a gate failed" : g.detail;
  return "no gate failed";
}

std::string list(const std::vector<double>& v) {
  std::string s;
  for (double x : v) {
    const json j = x == std::floor(x) && std::abs(x) < 1e15 ? json(static_cast<long long>(x)) : json(x);
    s += (s.empty() ? "" : ",") + j.dump();
  }
  return s.empty() ? "(none)" : s;
}

void judge_equivalence(LieCheck& c, const Ran& lie) {
  c.caught = lie.exit_code == kExitEquivalence;
  if (c.caught)
    c.how = "exit 3: " + clip(why(lie));
  else if ((c.could_not_run = lie.exit_code == kExitRun || lie.exit_code == kExitUsage))
    c.how = "could not run (exit " + std::to_string(lie.exit_code) + "): " + clip(why(lie));
  else
    c.how = "NOT caught: exit " + std::to_string(lie.exit_code) + ", the equivalence gate passed (" +
            clip(why(lie), 200) + ")";
}

void judge_exact(LieCheck& c, const std::string& metric, const Ran& honest, const Ran& lie) {
  if (lie.exit_code == kExitEquivalence) {
    c.how = "declared " + c.caught_by + " but caught by equivalence (declare \"equivalence\"): " + clip(why(lie), 200);
    return;
  }
  for (const Ran* r : {&honest, &lie})
    if (r->exit_code == kExitRun || r->exit_code == kExitUsage || r->exit_code == kExitEquivalence) {
      c.could_not_run = r->exit_code != kExitEquivalence;
      c.how = std::string(r == &honest ? "honest after" : "the lie") + " could not run (exit " +
              std::to_string(r->exit_code) + "): " + clip(why(*r));
      return;
    }
  const auto truth = honest.scenario.measured_values("after", metric);
  const auto told = lie.scenario.measured_values("after", metric);
  const std::string counts = c.caught_by + " after=" + list(truth) + " lie=" + list(told);
  if (truth.empty() || told.empty()) {
    c.how = counts + ": metric '" + metric + "' missing from the samples";
    return;
  }
  for (double t : truth)
    if (t != truth.front()) {
      c.how = counts + ": not an exact count (honest after varies), the gate cannot decide";
      return;
    }
  for (double v : told)
    if (v == truth.front()) {
      c.how = "NOT caught: " + counts + " (the lie's count equals honest after's)";
      return;
    }
  c.caught = true;
  c.how = counts;
}

}  // namespace

std::vector<LieCheck> check_lies(const std::vector<catalog::Manifest>& catalog, const std::vector<std::string>& names,
                                 const LiesOptions& lo, const std::vector<std::string>& argv, const RunSink& status) {
  std::vector<const catalog::Manifest*> chosen;
  if (names.empty())
    for (const auto& m : catalog) chosen.push_back(&m);
  else
    for (const auto& n : names) chosen.push_back(&catalog::find_scenario(catalog, n));
  std::vector<LieCheck> out;
  const RunSink inner = status.inner();  // one log line per lie, not per run of it
  // One throwaway cluster for every run (declared after `inner`, which its progress reports to):
  // starting and stopping one per run was a third of a PostgreSQL lie's time.
  PgContext pg;
  for (const auto* m : chosen) {
    if (m->lies.empty()) {
      out.push_back({m->name, "(none)", "", "", false, false, 0, m->file.string() + " declares no lies"});
      continue;
    }
    std::optional<Ran> honest;  // run once per scenario, for its exact-count lies
    for (const auto& l : m->lies) {
      const auto started = std::chrono::steady_clock::now();
      LieCheck c;
      for (int run = 1; run <= lo.repeat; ++run) {
        c = LieCheck{m->name, l.name, l.what, l.caught_by.text(), false, false, 0, ""};
        status.update(m->name + ": lie " + l.name +
                      (lo.repeat > 1 ? " (run " + std::to_string(run) + " of " + std::to_string(lo.repeat) + ")" : ""));
        const Ran lie = run_pair(catalog, m->name, l.args, lo, argv, inner, pg);
        c.exit_code = lie.exit_code;
        if (l.caught_by.gate == catalog::CaughtBy::Gate::Equivalence) {
          judge_equivalence(c, lie);
        } else {
          if (!honest) honest = run_pair(catalog, m->name, {}, lo, argv, inner, pg);
          judge_exact(c, l.caught_by.metric, *honest, lie);
        }
        if (lo.repeat == 1) break;
        if (!c.caught) {
          c.how = "run " + std::to_string(run) + " of " + std::to_string(lo.repeat) + ": " + c.how;
          break;
        }
        if (run == lo.repeat)
          c.how = "caught in " + std::to_string(run) + " of " + std::to_string(run) + " runs; " + c.how;
      }
      char secs[32];
      std::snprintf(secs, sizeof secs, ", %.1f s",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      status.step_finished("lie " + m->name + "/" + l.name + ": " + (c.caught ? "caught" : "NOT caught") + " (" +
                           c.how + ")" + secs);
      out.push_back(std::move(c));
    }
  }
  status.done();
  return out;
}

int lies_exit_code(const std::vector<LieCheck>& checks) {
  int code = kExitOk;
  for (const auto& c : checks) {
    if (c.caught) continue;
    if (c.could_not_run) return kExitRun;
    code = kExitPerformance;
  }
  return code;
}

json to_json(const LieCheck& c) {
  return {{"scenario", c.scenario}, {"lie", c.lie}, {"what", c.what},          {"caught_by", c.caught_by},
          {"caught", c.caught},     {"how", c.how}, {"exit_code", c.exit_code}};
}

}  // namespace perfgate::suite
