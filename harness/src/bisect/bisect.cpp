#include "bisect/bisect.hpp"

#include <chrono>
#include <cstdio>
#include <map>

#include "bisect/step_store.hpp"
#include "bisect/worktrees.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/shell_words.hpp"

namespace perfgate::bisect {

using json = nlohmann::json;

namespace {

json identity_of(const BisectOptions& o) {
  json script = nullptr;
  if (o.step.script) script = read_file(*o.step.script);
  return {{"command", o.step.command},
          {"shell", join_command(o.step.shell.argv())},
          {"scenario", o.step.scenario},
          {"catalog", o.step.catalog},
          {"build", o.build},
          {"metric", o.step.metric},
          {"band", o.step.band},
          {"budget_s", o.step.budget_s},
          {"layouts", o.step.layouts},
          {"layout_rounds", o.step.layout_rounds},
          {"script", script}};
}

// A timed step for the log: the commit, its verdict, its ratio to good and its seconds.
std::string step_line(const Commit& c, const StepResult& r, double seconds) {
  char figures[96] = "";
  if (r.ratio > 0)
    std::snprintf(figures, sizeof figures, ", %.3gx [%.3g, %.3g] over %d rounds", r.ratio, r.lo, r.hi, r.rounds);
  char secs[32];
  std::snprintf(secs, sizeof secs, ", %.1f s", seconds);
  return "bisect step " + c.short_sha() + " " + c.subject + ": " + std::string(name_of(r.verdict)) + figures +
         (r.note.empty() ? "" : " (" + r.note + ")") + (seconds > 0 ? secs : "");
}

}  // namespace

BisectReport run_bisect(const BisectOptions& o, const suite::RunSink& status) {
  BisectReport report;
  report.path = first_parent_path(o.repo, o.good, o.bad);
  report.cache = o.cache.empty() ? default_cache(o.repo) : o.cache;
  const Worktrees trees(o.repo, report.cache);
  const auto& path = report.path;
  status.update("bisect: building good " + path[0].short_sha());
  auto count = [&](const Built& b) { ++(b.reused ? report.builds_reused : report.builds_made); };
  // A commit's build: the plain one, or with --layouts each of its K layouts (the first failure,
  // else layout 1's build, which the untimed output check runs).
  auto build_all = [&](const Commit& c) {
    if (o.step.layouts == 0) {
      Built b = trees.build(c, o.build);
      count(b);
      return b;
    }
    Built first;
    for (int k = 1; k <= o.step.layouts; ++k) {
      status.update("bisect: building " + c.short_sha() + " " + c.subject + ", layout " + std::to_string(k) + "/" +
                    std::to_string(o.step.layouts));
      Built b = trees.build(c, o.build, k);
      count(b);
      if (!b.ok()) return b;
      if (k == 1) first = b;
    }
    return first;
  };
  const Built good = build_all(path[0]);
  if (!good.ok())
    throw RunError("the good commit " + path[0].short_sha() + " does not build: `" + o.build + "` exited " +
                   std::to_string(good.exit_code) + " (log: " + good.log.string() + ")");
  const suite::RunSink inner = status.inner();  // a step's batches are not scenarios of their own in the log
  StepRunner runner(o.step, trees, path[0], good, inner);
  const StepStore store(report.cache / "steps", identity_of(o));
  std::map<int, Built> built;
  auto build = [&](int i) {
    status.update("bisect: building " + path[i].short_sha() + " " + path[i].subject);
    if (built.count(i)) return built.at(i);
    const Built b = build_all(path[i]);
    built[i] = b;
    if (!b.ok())
      report.skipped_builds[i] =
          "`" + o.build + "` exited " + std::to_string(b.exit_code) + " (log: " + b.log.string() + ")";
    return b;
  };
  Callbacks cb;
  cb.time = [&](int i, double alpha) {
    const auto started = std::chrono::steady_clock::now();
    if (auto kept = store.find(path[0].sha, path[i].sha, alpha)) {
      runner.adopt_metric(kept->second);
      ++report.reused_steps;
      if (kept->first.verdict == Verdict::BuildFailed) report.skipped_builds[i] = kept->first.note;
      status.step_finished(step_line(path[i], kept->first, 0) + " (kept from an earlier run)");
      return kept->first;
    }
    const Built b = build(i);
    status.update("bisect: timing " + path[i].short_sha() + " " + path[i].subject + " against good");
    const StepResult r = runner.time(path[i], b, alpha);
    store.keep(path[0].sha, path[i].sha, alpha, r, runner.metric());
    status.step_finished(
        step_line(path[i], r, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()));
    return r;
  };
  cb.builds = [&](int i) { return build(i).ok(); };
  cb.output_differs = [&](int i) -> std::optional<bool> {
    const Built b = build(i);
    status.update("bisect: output of " + path[i].short_sha());
    return runner.output_differs(path[i], b);
  };
  report.outcome = search(static_cast<int>(path.size()) - 1, o.alpha, cb);
  report.metric = runner.metric();
  status.done();
  return report;
}

json BisectReport::to_json(const BisectOptions& o) const {
  json commits = json::array();
  for (std::size_t i = 0; i < path.size(); ++i)
    commits.push_back({{"index", i}, {"sha", path[i].sha}, {"subject", path[i].subject}});
  json steps = json::array();
  for (const auto& s : outcome.steps) {
    json j = bisect::to_json(s.result);
    j["index"] = s.index;
    j["sha"] = path[static_cast<std::size_t>(s.index)].sha;
    j["subject"] = path[static_cast<std::size_t>(s.index)].subject;
    steps.push_back(j);
  }
  json b = {{"good", path.front().sha},
            {"bad", path.back().sha},
            {"path", "first-parent"},
            {"commits", commits},
            {"metric", metric},
            {"band", o.step.band},
            {"alpha", o.alpha},
            {"alpha_rule", "step i is decided at alpha * 6 / (pi^2 i^2), which sums to alpha over any number of steps"},
            {"step_budget_s", o.step.budget_s},
            {"layouts", o.step.layouts},
            {"layout_rounds", o.step.layout_rounds},
            {"build", o.build},
            {"command", o.step.command},
            {"scenario", o.step.scenario},
            {"steps", steps},
            {"answer", name_of(outcome.answer)},
            {"cache", cache.string()},
            {"reused_steps", reused_steps}};
  // Only a single-commit answer names a culprit: a range names its candidates and no one of them.
  b["first_slower"] = outcome.answer == Answer::FirstSlower && outcome.first >= 0
                          ? json(path[static_cast<std::size_t>(outcome.first)].sha)
                          : json(nullptr);
  json candidates = json::array();
  for (int i : outcome.candidates) candidates.push_back(path[static_cast<std::size_t>(i)].sha);
  b["candidates"] = candidates;
  b["changed_behaviour_at"] =
      outcome.changed_at ? json(path[static_cast<std::size_t>(*outcome.changed_at)].sha) : json(nullptr);
  json skipped = json::object();
  for (const auto& [i, why] : skipped_builds) skipped[path[static_cast<std::size_t>(i)].sha] = why;
  b["build_failures"] = skipped;
  return b;
}

}  // namespace perfgate::bisect
