#include "bisect/step_runner.hpp"

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "bisect/step_verdict.hpp"
#include "catalog/catalog.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "layouts/layout_ab.hpp"
#include "plan/ab_plan.hpp"
#include "plan/against.hpp"
#include "plan/nested_run.hpp"
#include "process/capture.hpp"
#include "run/child.hpp"
#include "suite/benchmark_lister.hpp"
#include "suite/execute.hpp"
#include "suite/paired_rounds.hpp"

namespace perfgate::bisect {
namespace {

using json = nlohmann::json;

// Cumulative 10, 20, 40, 80, 160 rounds: five looks at alpha/5 each.
constexpr int kBatches[] = {10, 10, 20, 40, 80};
constexpr int kLooks = 5;

std::string replaced(std::string word, const std::string& tree) {
  for (auto at = word.find("{rev_dir}"); at != std::string::npos; at = word.find("{rev_dir}", at + tree.size()))
    word.replace(at, 9, tree);
  return word;
}

std::string first_failure(const suite::RunOutcome& o) {
  return o.failures.empty() ? "exit " + std::to_string(o.exit_code) : o.failures.front();
}

}  // namespace

StepRunner::StepRunner(StepSetup setup, const Worktrees& trees, const Commit& good, const Built& good_build,
                       const suite::RunSink& status)
    : setup_(std::move(setup)), trees_(trees), good_(good), good_build_(good_build), status_(status) {}

std::vector<std::string> StepRunner::words_for(const std::filesystem::path& tree) const {
  std::vector<std::string> words;
  for (const auto& w : setup_.command) words.push_back(replaced(w, tree.string()));
  return setup_.shell.command(words);
}

std::filesystem::path StepRunner::script_for(const Commit& tested, int batch) const {
  const json all = json::parse(read_file(*setup_.script));
  auto of = [&](const Commit& c) {
    if (all.contains(c.subject)) return all[c.subject];
    if (all.contains("*")) return all["*"];
    throw UsageError(setup_.script->string() + ": scripts neither \"" + c.subject + "\" nor \"*\"");
  };
  const auto file = trees_.cache() / "steps" /
                    (good_.short_sha() + "-" + tested.short_sha() + "-b" + std::to_string(batch) + ".script.json");
  write_file_atomic(file, json{{"before", of(good_)}, {"after", of(tested)}}.dump());
  return file;
}

StepResult StepRunner::time(const Commit& tested, const Built& build, double alpha) {
  StepResult r;
  r.alpha = alpha;
  if (!build.ok()) {
    r.verdict = Verdict::BuildFailed;
    r.note = "the build exited " + std::to_string(build.exit_code) + " (" + build.log.string() + ")";
    return r;
  }
  if (setup_.layouts > 0) return time_over_layouts(tested, alpha);
  std::vector<double> good_values, tested_values;
  bool higher_is_better = false;
  const auto start = std::chrono::steady_clock::now();
  int rounds = 0;
  for (int k = 0; k < kLooks; ++k) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (k > 0 && elapsed + elapsed / rounds * kBatches[k] > setup_.budget_s) {
      r.note = "undecided after " + std::to_string(rounds) + " rounds: another " + std::to_string(kBatches[k]) +
               " would not fit the step budget of " + std::to_string(static_cast<int>(setup_.budget_s)) + " s";
      break;
    }
    // A scenario step runs the tested build's AFTER against the good build's (`run --against`).
    const std::string against =
        setup_.scenario.empty()
            ? std::string()
            : (setup_.catalog.empty() ? good_build_.tree : good_build_.tree / setup_.catalog).string();
    const plan::RunOptions o = plan::nested_options(
        setup_.options,
        {.rounds = kBatches[k],
         .warmup = k == 0 ? 1 : 0,
         .seed_offset = static_cast<std::uint64_t>(k),
         .results_file = (trees_.cache() / "steps" /
                          (good_.short_sha() + "-" + tested.short_sha() + "-b" + std::to_string(k) + ".json"))
                             .string(),
         .debug_samples = setup_.script ? script_for(tested, k).string() : std::string(),
         .argv = setup_.argv,
         .bisect_step = model::BisectStep{.good = good_.sha, .tested = tested.sha, .batch = k},
         .against_dir = against});
    plan::RunPlan plan;
    if (setup_.scenario.empty()) {
      plan::AbPair pair;
      pair.name = "bisect-" + tested.short_sha().substr(0, 8) + "-b" + std::to_string(k);
      pair.before_argv = words_for(good_build_.tree);
      pair.after_argv = words_for(build.tree);
      pair.before_workdir = good_build_.tree.string();
      pair.after_workdir = build.tree.string();
      plan = plan::plan_ab_family({pair}, setup_.metric, o);
    } else {
      const auto catalog =
          setup_.catalog.empty() ? plan::other_build_catalog(build.tree, "--scenario") : build.tree / setup_.catalog;
      plan = plan::plan_run(catalog::load_catalog(catalog), {setup_.scenario}, o, suite::benchmark_lister());
    }
    std::filesystem::create_directories(std::filesystem::path(o.outputs.json_path).parent_path());
    const auto outcome = suite::execute_plan(plan, status_);
    files_.push_back(o.outputs.json_path);
    if (outcome.interrupted) throw Interrupted();
    if (outcome.exit_code == kExitEquivalence) {
      r.verdict = Verdict::OutputDiffers;
      r.note = first_failure(outcome);
      return r;
    }
    if (outcome.exit_code == kExitRun || outcome.exit_code == kExitUsage) {
      r.verdict = Verdict::CannotTell;
      r.note = "could not run: " + first_failure(outcome);
      return r;
    }
    const auto& s = outcome.document.scenarios.at(0);
    if (setup_.metric == "auto") setup_.metric = suite::gated_metric(s);
    const auto values = suite::paired_rounds(s, setup_.metric);
    good_values.insert(good_values.end(), values.before.begin(), values.before.end());
    tested_values.insert(tested_values.end(), values.after.begin(), values.after.end());
    higher_is_better = values.better == Better::Higher;
    rounds = static_cast<int>(tested_values.size());
    r = decide_step(good_values, tested_values, alpha / kLooks, setup_.band, higher_is_better,
                    setup_.options.seed.value_or(1));
    r.alpha = alpha;
    if (r.verdict != Verdict::CannotTell) return r;
  }
  if (r.note.empty()) r.note = "undecided after " + std::to_string(rounds) + " rounds (the most a step takes)";
  return r;
}

std::optional<std::string> StepRunner::output_of(const Commit& c, const std::filesystem::path& tree) {
  if (setup_.script) {
    const json all = json::parse(read_file(*setup_.script));
    const json v = all.contains(c.subject) ? all[c.subject] : all.value("*", json::object());
    const json d = v.value("digest", json("scripted"));
    return d.is_array() ? d.at(0).get<std::string>() : d.get<std::string>();
  }
  auto words = words_for(tree);
  if (setup_.shell.none() && words.at(0).find('/') != std::string::npos &&
      !std::filesystem::path(words[0]).is_absolute())
    words[0] = (tree / words[0]).string();
  return process::capture_stdout(
      words, std::chrono::seconds(static_cast<long>(setup_.options.timeout_s.value_or(defaults::kTimeoutS))), tree);
}

std::optional<bool> StepRunner::output_differs(const Commit& tested, const Built& build) {
  if (!build.ok()) return std::nullopt;
  if (!good_output_) good_output_ = output_of(good_, good_build_.tree);
  const auto mine = output_of(tested, build.tree);
  if (!good_output_ || !mine) return std::nullopt;
  return *mine != *good_output_;
}

StepResult StepRunner::time_over_layouts(const Commit& tested, double alpha) {
  layouts::LayoutRequest req;
  req.name = "bisect-" + tested.short_sha().substr(0, 8);
  const std::string good_tree = trees_.tree(good_, "{layout}").string();
  const std::string tested_tree = trees_.tree(tested, "{layout}").string();
  req.before_argv = words_for(good_tree);
  req.after_argv = words_for(tested_tree);
  req.before_workdir = good_tree;
  req.after_workdir = tested_tree;
  req.layouts = setup_.layouts;
  req.rounds = setup_.layout_rounds;
  req.metric = setup_.metric;
  req.options = plan::nested_options(setup_.options,
                                     {.debug_samples = setup_.script ? script_for(tested, 0).string() : std::string(),
                                      .policy = catalog::Policy::NoRegress,  // "not slower" is an answer
                                      .noise = setup_.band,
                                      .alpha = alpha,
                                      .cannot_tell = plan::CannotTellExit::Fail,
                                      .argv = setup_.argv});
  req.dir = trees_.cache() / "steps" / (good_.short_sha() + "-" + tested.short_sha() + "-layouts");
  const auto outcome = layouts::run_layouts(req, status_);
  for (const auto& run : outcome.runs) files_.push_back(run.results);
  StepResult r;
  r.alpha = alpha;
  if (outcome.exit_code == kExitEquivalence) {
    r.verdict = Verdict::OutputDiffers;
    r.note = outcome.failure;
    return r;
  }
  if (!outcome.effect) {
    r.verdict = Verdict::CannotTell;
    r.note = "could not run: " + outcome.failure;
    return r;
  }
  if (setup_.metric == "auto") setup_.metric = outcome.metric;
  return decide_step_over_layouts(*outcome.effect, alpha);
}

}  // namespace perfgate::bisect
