// The suite layer's decisions without running a program: the Holm family with shard padding,
// exit-code severity, the run's ending, reproduce commands, the baseline applied to scenarios
// whose samples are given, and the threat coverage of given lie checks.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "gate/baseline_entries.hpp"
#include "model/test_values.hpp"
#include "store/results_codec.hpp"
#include "store/results_file.hpp"
#include "suite/baseline_apply.hpp"
#include "suite/family.hpp"
#include "suite/run_document.hpp"
#include "suite/scenario_run.hpp"
#include "suite/threat_coverage.hpp"

namespace perfgate::suite {
namespace {

model::Comparison gated_comparison(double p, double lo, double hi) {
  auto c = model::testing::comparison("cpu_ms", lo, hi);
  c.gated = true;
  c.r.p_wilcoxon = p;
  return c;
}

TEST(Family, AloneASmallPIsAVerdict) {
  auto c = gated_comparison(0.01, 1.2, 1.3);
  decide_family({&c}, 0, 0.05, 0.02);
  EXPECT_DOUBLE_EQ(c.p_adjusted, 0.01);
  EXPECT_EQ(c.verdict, stats::Verdict::Worse);
}

TEST(Family, AShardCountsTheOtherShardsComparisons) {
  // Nine comparisons of other shards (p = 1) join the family: Holm multiplies the smallest p
  // by ten, and the same data no longer decides.
  auto c = gated_comparison(0.01, 1.2, 1.3);
  decide_family({&c}, 10, 0.05, 0.02);
  EXPECT_DOUBLE_EQ(c.p_adjusted, 0.1);
  EXPECT_EQ(c.verdict, stats::Verdict::CannotTell);
  EXPECT_DOUBLE_EQ(c.alpha_corrected, 0.005);
}

TEST(Family, AFamilyTotalBelowTheGatedCountAddsNothing) {
  auto a = gated_comparison(0.01, 1.2, 1.3), b = gated_comparison(0.02, 1.2, 1.3);
  decide_family({&a, &b}, 1, 0.05, 0.02);
  EXPECT_DOUBLE_EQ(a.p_adjusted, 0.02);  // Holm over two, not one
  EXPECT_DOUBLE_EQ(b.p_adjusted, 0.02);
}

TEST(Family, EachMemberIsDecidedAtItsOwnLevel) {
  // The same data, two members: one whose last look ran at 0.05 (it stopped early), one at
  // 0.001 (it ran on to stricter looks). Holm is over both at each level.
  auto early = gated_comparison(0.01, 1.2, 1.3), late = gated_comparison(0.01, 1.2, 1.3);
  decide_family({&early, &late}, std::vector<double>{0.05, 0.001}, 0, 0.02);
  EXPECT_EQ(early.verdict, stats::Verdict::Worse);
  EXPECT_DOUBLE_EQ(early.alpha_corrected, 0.025);
  EXPECT_EQ(late.verdict, stats::Verdict::CannotTell);
  EXPECT_DOUBLE_EQ(late.alpha_corrected, 0.0005);
  EXPECT_DOUBLE_EQ(early.p_adjusted, 0.02);
  EXPECT_DOUBLE_EQ(late.p_adjusted, 0.02);
}

TEST(ExitCode, SeverityNotNumber) {
  EXPECT_EQ(worse_exit_code(kExitOk, kExitPerformance), kExitPerformance);
  EXPECT_EQ(worse_exit_code(kExitPerformance, kExitUsage), kExitPerformance);
  EXPECT_EQ(worse_exit_code(kExitEquivalence, kExitRun), kExitEquivalence);
  EXPECT_EQ(worse_exit_code(kExitRun, kExitEquivalence), kExitEquivalence);
  EXPECT_EQ(worse_exit_code(kExitPerformance, kExitRun), kExitRun);
  EXPECT_EQ(worse_exit_code(kExitUsage, kExitOk), kExitUsage);
}

TEST(RunEnding, StatusAndStopReasonFollowTheExitCode) {
  using store::run_ending, model::RunStatus;
  EXPECT_EQ(run_ending(kExitOk, false).status, RunStatus::Passed);
  EXPECT_EQ(run_ending(kExitPerformance, false).status, RunStatus::Failed);
  EXPECT_EQ(run_ending(kExitEquivalence, false).status, RunStatus::Failed);
  EXPECT_EQ(run_ending(kExitRun, false).status, RunStatus::Error);
  EXPECT_EQ(run_ending(kExitCannotTell, false).status, RunStatus::CannotTell);
  const auto i = run_ending(kExitPerformance, true);
  EXPECT_EQ(i.exit_code, kExitInterrupted);
  EXPECT_EQ(i.status, RunStatus::Interrupted);
  // run.stop_reason is the status in the words files have always used.
  const std::vector<std::pair<RunStatus, std::string>> words = {
      {RunStatus::Running, "running"},    {RunStatus::Passed, "completed"},
      {RunStatus::Failed, "gate failed"}, {RunStatus::CannotTell, "cannot tell"},
      {RunStatus::Error, "error"},        {RunStatus::Interrupted, "interrupted"}};
  for (const auto& [status, word] : words) {
    model::ResultsDoc d;
    d.outcome.status = status;
    EXPECT_EQ(store::to_json(d)["run"]["stop_reason"], word);
  }
}

plan::ScenarioPlan scenario_plan(const std::string& name) {
  plan::ScenarioPlan sp;
  sp.manifest.name = name;
  sp.manifest.primary_metric = "cpu_ms";
  sp.profile = "quick";
  sp.policy = catalog::Policy::NoRegress;
  catalog::Variant before, after;
  before.name = "before";
  after.name = "after";
  after.compare_to = "before";
  sp.variants = {before, after};
  sp.gated_metrics = {"cpu_ms"};
  return sp;
}

TEST(Reproduce, KeepsOnlyThisScenarioOfTheNamedOnes) {
  const std::vector<std::string> argv = {"perfgate", "run", "alpha", "beta", "--profile", "quick", "--seed", "7"};
  EXPECT_EQ(scenario_reproduce(argv, scenario_plan("beta")), "perfgate run beta --profile quick --seed 7");
}

TEST(Reproduce, NamesTheScenarioWhenTheRunNamedNone) {
  const std::vector<std::string> argv = {"perfgate", "run", "--profile", "full"};
  EXPECT_EQ(scenario_reproduce(argv, scenario_plan("gamma")), "perfgate run gamma --profile full");
}

TEST(Reproduce, AFlagsValueIsNotAScenarioName) {
  const std::vector<std::string> argv = {"perfgate", "run", "--out", "dir with space", "alpha"};
  EXPECT_EQ(scenario_reproduce(argv, scenario_plan("alpha")), "perfgate run --out 'dir with space' alpha");
}

TEST(Reproduce, AbKeepsItsCommandsWhole) {
  auto sp = scenario_plan("ab");
  sp.source = plan::UserCommands{};
  const std::vector<std::string> argv = {"perfgate", "ab", "--", "sh -c 'true'", "true"};
  EXPECT_EQ(scenario_reproduce(argv, sp), "perfgate ab -- 'sh -c '\\''true'\\''' true");
}

TEST(Reproduce, TheSeedIsAddedOnlyWhenMissing) {
  EXPECT_EQ(reproduce_argv({"perfgate", "run"}, 42), (std::vector<std::string>{"perfgate", "run", "--seed", "42"}));
  EXPECT_EQ(reproduce_argv({"perfgate", "run", "--seed=3"}, 42),
            (std::vector<std::string>{"perfgate", "run", "--seed=3"}));
}

// A scenario whose AFTER costs `ratio` times BEFORE's CPU, over `rounds` rounds with a
// deterministic ±1% wobble; analysed, decided alone, finalised.
struct Analysed {
  plan::RunPlan rp;
  RunSink status;
  TempDir dir{"perfgate-suite-test-"};
  std::vector<std::unique_ptr<ScenarioRun>> runs;

  void build(const std::vector<double>& ratios, int rounds = 12) {
    for (std::size_t i = 0; i < ratios.size(); ++i) rp.scenarios.push_back(scenario_plan("s" + std::to_string(i)));
    rp.gated_total = static_cast<int>(ratios.size());
    for (std::size_t i = 0; i < ratios.size(); ++i) {
      auto r = std::make_unique<ScenarioRun>(rp.scenarios[i], rp, status, dir, static_cast<int>(i),
                                             static_cast<int>(ratios.size()));
      r->result.name = rp.scenarios[i].manifest.name;
      r->result.profile = "quick";
      for (int k = 1; k <= rounds; ++k)
        for (const std::string v : {"before", "after"}) {
          run::Sample s;
          s.round = k;
          s.variant = v;
          s.order = v == "after";
          const double wobble = 1 + 0.01 * std::sin(k * 1.7 + (v == "after"));
          s.metrics["cpu_ms"] = {100 * (v == "after" ? ratios[i] : 1.0) * wobble, "ms", Better::Lower, "cgroup"};
          r->outcome.samples.push_back(s);
        }
      r->outcome.rounds = rounds;
      r->analyse();
      runs.push_back(std::move(r));
    }
    std::vector<model::Comparison*> gated;
    for (auto& r : runs)
      for (auto& c : r->result.comparisons)
        if (c.gated) gated.push_back(&c);
    decide_family(gated, 0, rp.alpha, rp.noise);
    for (auto& r : runs) r->finalise();
  }
  model::ResultsDoc results() const {
    model::ResultsDoc d;
    d.run.id = "test";
    d.run.commit = "abc";
    d.host.cpu_model = "test cpu";
    d.host.cores = 2;
    d.host.kernel = "test";
    return d;
  }
};

TEST(BaselineApply, AMetricWithNoEntryIsCountedMissingAndChangesNoExitCode) {
  Analysed a;
  a.build({1.0});
  ASSERT_EQ(a.runs[0]->exit_code, kExitOk);
  store::Baseline none;
  auto counts = apply_baseline(a.runs, none, a.results(), 0.05, 0.05);
  EXPECT_EQ(counts.compared, 0);
  EXPECT_EQ(counts.missing, 1);
  EXPECT_EQ(a.runs[0]->exit_code, kExitOk);
  ASSERT_EQ(a.runs[0]->result.baseline.size(), 1u);
  EXPECT_FALSE(a.runs[0]->result.baseline[0].compared);
  EXPECT_EQ(store::to_json(a.runs[0]->result)["baseline"][0]["status"], "no comparable baseline");
}

TEST(BaselineApply, LosingAnAcceptedImprovementFailsThePassingScenario) {
  // baseline: AFTER was twice as fast; now AFTER is as slow as BEFORE (and so passes its own
  // no-regress policy gate), so the baseline gate alone turns it into exit 1.
  Analysed accepted;
  accepted.build({0.5});
  Analysed now;
  now.build({1.0});
  ASSERT_EQ(now.runs[0]->exit_code, kExitOk);
  store::Baseline b;
  b.exists = true;
  b.entries = gate::entries_from_scenario(accepted.results(), accepted.runs[0]->result);
  ASSERT_EQ(b.entries.size(), 1u);
  // A time ratio is gated against three accepted runs of this host class at least.
  auto& e = b.entries[0];
  for (double f : {0.99, 1.0, 1.01}) {
    auto r = e.as_run();
    r.ratio = e.ratio * f;
    r.run_id = "run-" + std::to_string(f);
    e.runs.push_back(r);
  }
  auto counts = apply_baseline(now.runs, b, now.results(), 0.05, 0.05);
  EXPECT_EQ(counts.compared, 1);
  EXPECT_EQ(now.runs[0]->exit_code, kExitPerformance);
}

TEST(BaselineApply, ScenariosWithoutAVerdictAreLeftAlone) {
  Analysed a;
  a.build({1.0, 1.0});
  a.runs[0]->exit_code = kExitEquivalence;
  a.runs[1]->exit_code = kExitRun;
  a.runs[1]->error_message = "crashed";
  auto gates_before = a.runs[0]->result.gates.size();
  store::Baseline none;
  auto counts = apply_baseline(a.runs, none, a.results(), 0.05, 0.05);
  EXPECT_EQ(counts.compared + counts.missing, 0);
  EXPECT_EQ(a.runs[0]->result.gates.size(), gates_before);
  EXPECT_TRUE(a.runs[1]->result.baseline.empty());
  EXPECT_EQ(a.runs[0]->exit_code, kExitEquivalence);
}

// The entry a scenario's run makes is the model value the results file holds: every section it
// fills (anchors with our medians, the stop, exclusions, a PostgreSQL fixture, the parity pass,
// microbenchmarks) encodes and reads back to the same JSON, so no section is written that the
// codec does not own.
TEST(ScenarioEntry, EverySectionTheRunFillsReadsBackAsWritten) {
  Analysed a;
  a.rp.scenarios.push_back(scenario_plan("s0"));
  a.rp.scenarios[0].manifest.anchors =
      json::array({{{"metric", "cpu_ms"}, {"before", 10}, {"after", 5}, {"label", "published"}}, {{"metric", "rps"}}});
  a.build({0.5});
  ScenarioRun& r = *a.runs[0];
  r.result.anchors = store::anchors_from_json(a.rp.scenarios[0].manifest.anchors);
  r.finalise();  // again, with the anchors: only the policy gate is added twice
  ASSERT_EQ(r.result.anchors.size(), 2u);
  ASSERT_TRUE(r.result.anchors[0].ours.has_value());
  EXPECT_NEAR(r.result.anchors[0].ours->ratio.value(), 0.5, 0.02);
  EXPECT_FALSE(r.result.anchors[1].ours.has_value());  // rps was not measured
  r.result.postgres = model::PostgresInfo{"throwaway cluster", "16.4", "tpl_s0", true};
  r.result.parity = model::Parity{{{"statements", json::object()}}, json{{"after", {{"rss_kib", 1}}}}};
  r.result.extra->microbenchmarks = store::microbenchmarks_from_gbench(
      "bench", {{"context", {{"host_name", "h"}}},
                {"benchmarks", {{{"name", "BM_x"}, {"real_time", 2.5}, {"cpu_time", 2.0}, {"iterations", 7}}}}});
  r.result.commands = std::map<std::string, std::vector<std::string>>{{"before", {"prog", "run"}},
                                                                      {"after", {"prog", "run", "--fast"}}};
  const json written = store::to_json(r.result);
  EXPECT_EQ(written["stop"]["rounds"], 12);
  EXPECT_EQ(written["anchors"][0]["label"], "published");
  EXPECT_EQ(written["anchors"][0]["ours"]["before"], r.result.summaries["before"]["cpu_ms"].s.median);
  EXPECT_FALSE(written["anchors"][1].contains("ours"));
  EXPECT_EQ(written["postgres"]["template"], "tpl_s0");
  EXPECT_EQ(written["parity"]["measures"]["after"]["rss_kib"], 1);
  EXPECT_EQ(written["extra"]["gbench"]["benchmarks"][0]["iterations"], 7);
  EXPECT_TRUE(written["fixture"].is_null() || !written.contains("fixture"));
  EXPECT_EQ(store::to_json(store::scenario_from_json(written)), written);
  EXPECT_TRUE(store::scenario_from_json(written).other.empty()) << store::scenario_from_json(written).other.dump();
}

TEST(ThreatCoverage, AClassShowsTheAnswerThatNeedsWorkFirst) {
  catalog::Manifest m;
  m.name = "demo";
  m.file = "/x/demo/scenario.json";
  m.lies = {{"stale", "w", {}, {}}, {"guess", "w", {}, {}}};
  m.threats = {{"cache.freshness", "a write missed", "a read after a write", "stale", ""},
               {"cache.freshness", "a delete missed", "not asked yet: a read after a delete", "", ""},
               {"input.errors", "an unknown name guessed", "an unknown name", "guess", ""},
               {"access.refusal", "", "", "", "no caller can exist"}};
  LieCheck stale{"demo", "stale", "w", "equivalence", true, false, 3, "exit 3"};
  LieCheck guess{"demo", "guess", "w", "equivalence", false, false, 0, "exit 0"};
  const CoverageReport r = threat_coverage({m}, {stale, guess});
  ASSERT_EQ(r.scenarios.size(), 1u);
  std::map<std::string, ClassAnswer> asked(r.scenarios[0].asked.begin(), r.scenarios[0].asked.end());
  EXPECT_EQ(asked.size(), catalog::asked_classes().size());
  EXPECT_EQ(asked.at("cache.freshness"), ClassAnswer::NotAsked);  // one caught, one not asked
  EXPECT_EQ(asked.at("input.errors"), ClassAnswer::Missed);
  EXPECT_EQ(asked.at("access.refusal"), ClassAnswer::NotApplicable);
  EXPECT_EQ(asked.at("work.deferred"), ClassAnswer::NoLie);  // not answered at all: a finding too
  EXPECT_EQ(to_json(r.scenarios[0])["asked"]["cache.freshness"], "not asked");
}

}  // namespace
}  // namespace perfgate::suite
