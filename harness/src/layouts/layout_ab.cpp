#include "layouts/layout_ab.hpp"

#include "common/errors.hpp"
#include "layouts/layout_script.hpp"
#include "plan/ab_plan.hpp"
#include "plan/nested_run.hpp"
#include "stats/summary.hpp"
#include "suite/execute.hpp"
#include "suite/paired_rounds.hpp"

namespace perfgate::layouts {

std::string with_layout(std::string word, int layout) {
  const std::string n = std::to_string(layout);
  for (auto at = word.find("{layout}"); at != std::string::npos; at = word.find("{layout}", at + n.size()))
    word.replace(at, 8, n);
  return word;
}

namespace {

bool names_layout(const std::vector<std::string>& argv) {
  for (const auto& w : argv)
    if (w.find("{layout}") != std::string::npos) return true;
  return false;
}

std::vector<std::string> with_layout(const std::vector<std::string>& argv, int layout) {
  std::vector<std::string> out;
  for (const auto& w : argv) out.push_back(layouts::with_layout(w, layout));
  return out;
}

std::optional<std::string> with_layout(const std::optional<std::string>& dir, int layout) {
  if (!dir) return std::nullopt;
  return layouts::with_layout(*dir, layout);
}

std::string first_failure(const suite::RunOutcome& o) {
  return o.failures.empty() ? "exit " + std::to_string(o.exit_code) : o.failures.front();
}

}  // namespace

void check_request(const LayoutRequest& r) {
  if (r.layouts < 2)
    throw UsageError("--layouts " + std::to_string(r.layouts) +
                     ": a verdict over layouts needs 2 layouts or more (8 decide a 10% change over a ±5% layout "
                     "spread; docs/layout.md)");
  if (r.rounds < 2)
    throw UsageError("--layout-rounds " + std::to_string(r.rounds) + ": each layout needs 2 rounds or more");
  const bool dirs = (r.before_workdir && r.before_workdir->find("{layout}") != std::string::npos) ||
                    (r.after_workdir && r.after_workdir->find("{layout}") != std::string::npos);
  if (!names_layout(r.before_argv) && !names_layout(r.after_argv) && !dirs)
    throw UsageError("--layouts " + std::to_string(r.layouts) +
                     ": neither command names {layout}, so every layout would run the same build; write the "
                     "path of layout K's build with {layout} (e.g. ./build-{layout}/prog; docs/layout.md)");
}

LayoutOutcome run_layouts(const LayoutRequest& r, const suite::RunSink& sink) {
  check_request(r);
  LayoutOutcome out;
  out.metric = r.metric;
  out.band = r.options.noise.value_or(defaults::kNoise);
  out.alpha = r.options.alpha.value_or(defaults::kAlpha);
  std::filesystem::create_directories(r.dir);
  std::vector<stats::LayoutPair> pairs;
  for (int k = 1; k <= r.layouts; ++k) {
    // Each layout is another build: its first run warms its own files.
    const plan::RunOptions o = plan::nested_options(
        r.options, {.rounds = r.rounds,
                    .warmup = r.options.warmup.value_or(defaults::kWarmup),
                    .seed_offset = static_cast<std::uint64_t>(k),
                    .results_file = (r.dir / ("layout-" + std::to_string(k) + ".json")).string(),
                    .debug_samples = r.options.debug_samples.empty()
                                         ? std::string()
                                         : script_for_layout(r.options.debug_samples, k, r.layouts, r.dir).string()});
    plan::AbPair pair;
    pair.name = r.name + "[layout=" + std::to_string(k) + "]";
    pair.before_argv = with_layout(r.before_argv, k);
    pair.after_argv = with_layout(r.after_argv, k);
    pair.before_workdir = with_layout(r.before_workdir, k);
    pair.after_workdir = with_layout(r.after_workdir, k);
    sink.update("layout " + std::to_string(k) + "/" + std::to_string(r.layouts) + ": " + std::to_string(r.rounds) +
                " paired rounds");
    const auto outcome = suite::execute_plan(plan::plan_ab_family({pair}, out.metric, o), sink);
    if (outcome.interrupted) throw Interrupted();
    if (outcome.exit_code == kExitEquivalence || outcome.exit_code == kExitRun || outcome.exit_code == kExitUsage) {
      out.exit_code = outcome.exit_code;
      out.failure = "layout " + std::to_string(k) + ": " + first_failure(outcome);
      return out;
    }
    const auto& s = outcome.document.scenarios.at(0);
    if (out.metric == "auto") out.metric = suite::gated_metric(s);
    const auto values = suite::paired_rounds(s, out.metric);
    if (values.before.empty()) {
      out.exit_code = kExitRun;
      out.failure = "layout " + std::to_string(k) + ": no round measured " + out.metric + " on both sides";
      return out;
    }
    out.unit = values.unit;
    out.better = values.better;
    out.runs.push_back({k, o.outputs.json_path, stats::median(values.before), stats::median(values.after),
                        values.before, values.after});
    pairs.push_back({values.before, values.after});
    sink.note("layout " + std::to_string(k) + ": " + out.metric + " after/before " +
              std::to_string(out.runs.back().after_median / out.runs.back().before_median).substr(0, 5) + "x");
  }
  sink.done();
  // ab's policy (no-regress unless --policy says otherwise) decides what "not changed" may be.
  const bool no_regress = r.options.policy.value_or(catalog::Policy::NoRegress) == catalog::Policy::NoRegress;
  out.effect = stats::layout_effect(pairs, out.band, out.better,
                                    no_regress ? stats::SameMeans::NotWorse : stats::SameMeans::Equivalent, out.alpha);
  const auto v = out.effect->decided.verdict;
  out.exit_code = v == stats::Verdict::Worse        ? kExitPerformance
                  : v == stats::Verdict::CannotTell ? kExitCannotTell
                                                    : kExitOk;
  // --cannot-tell warn|pass (PERFGATE_CANNOT_TELL) as for any run: the verdict is kept, the exit code changes.
  if (out.exit_code == kExitCannotTell && r.options.outputs.cannot_tell != plan::CannotTellExit::Fail) {
    out.exit_code = kExitOk;
    if (r.options.outputs.cannot_tell == plan::CannotTellExit::Warn)
      sink.note("warning: the comparison over layouts cannot tell; exit 0 as --cannot-tell warn asks", true);
  }
  return out;
}

}  // namespace perfgate::layouts
