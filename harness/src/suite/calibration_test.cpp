// What calibration pairs say, from scenario results written by hand: false alarms counted from
// exit codes and verdicts, catches per injected fraction, the per-round log-ratio spread and the
// harness's wall perturbation; and when duet rounds win.
#include <gtest/gtest.h>

#include <cmath>

#include "common/errors.hpp"
#include "suite/calibration_summary.hpp"

namespace perfgate::suite {
namespace {

using json = nlohmann::json;

// A pair's scenario: per round BEFORE's and AFTER's cpu_ms and wall_ms, and AFTER's verdict.
model::ScenarioResult scenario(const std::vector<std::pair<double, double>>& rounds, stats::Verdict verdict) {
  model::ScenarioResult s;
  s.primary_metric = "cpu_ms";
  int r = 0;
  for (const auto& [b, a] : rounds) {
    for (const auto& [variant, v] : {std::pair{"before", b}, std::pair{"after", a}}) {
      run::Sample x;
      x.variant = variant;
      x.round = r;
      x.metrics["cpu_ms"].value = v;
      x.metrics["wall_ms"].value = v + 10;
      s.samples.push_back(x);
    }
    ++r;
  }
  run::Sample warmup;
  warmup.variant = "before";
  warmup.warmup = true;
  warmup.metrics["cpu_ms"].value = 1e6;
  s.samples.push_back(warmup);
  model::Comparison c;
  c.variant = "after";
  c.metric = "cpu_ms";
  c.verdict = verdict;
  s.comparisons.push_back(c);
  return s;
}

CalibrationPair pair(int exit_code, const model::ScenarioResult& s) { return {exit_code, s, 2.0, {100, 100, 100}}; }

TEST(Calibration, CountsFalseAlarmsAndCatches) {
  WorkloadPairs w{"cpu", {"calibration_work", "cpu", "1000"}, {}, {}};
  w.aa.push_back(pair(kExitOk, scenario({{100, 101}, {102, 100}, {100, 100}}, stats::Verdict::NoChange)));
  w.aa.push_back(pair(kExitPerformance, scenario({{100, 103}, {100, 104}, {100, 102}}, stats::Verdict::Worse)));
  w.injected[0.05].push_back(
      pair(kExitPerformance, scenario({{100, 105}, {100, 105}, {100, 106}}, stats::Verdict::Worse)));
  w.injected[0.05].push_back(pair(kExitOk, scenario({{100, 101}, {100, 100}, {100, 99}}, stats::Verdict::NoChange)));
  const json doc = summarize_workload(w, 0.0125, 0.02);
  EXPECT_EQ(doc["gate"]["aa_pairs"], 2);
  EXPECT_EQ(doc["gate"]["false_alarms"], 1);
  EXPECT_EQ(doc["gate"]["injected"][0]["pairs"], 2);
  EXPECT_EQ(doc["gate"]["injected"][0]["caught"], 1);
  EXPECT_EQ(doc["metrics"]["cpu_ms"]["false_alarms"], 1);
  EXPECT_DOUBLE_EQ(doc["metrics"]["cpu_ms"]["false_alarm_rate"].get<double>(), 0.5);
  EXPECT_EQ(doc["rounds_median"], 3);
  // The warm-up sample (1e6) is left out: the before values of the first pair are 100, 102, 100.
  EXPECT_LT(doc["metrics"]["cpu_ms"]["per_sample_cv"].get<double>(), 0.02);
  EXPECT_GT(doc["metrics"]["cpu_ms"]["round_log_ratio_sd"].get<double>(), 0);
  // wall under perfgate (median 110) against the program's own 100 ms.
  EXPECT_NEAR(doc["perturbation"]["fraction"].get<double>(), 0.1, 0.03);
}

TEST(Calibration, APairThatMeasuredNothingLeavesNullsNotErrors) {
  WorkloadPairs w{"memory", {"calibration_work", "memory", "48"}, {}, {}};
  w.aa.push_back({kExitRun, model::ScenarioResult{}, 1.0, {}});
  const json doc = summarize_workload(w, 0.0125, 0.02);
  EXPECT_TRUE(doc["perturbation"]["fraction"].is_null());
  EXPECT_TRUE(doc["metrics"].empty());
}

TEST(Calibration, DetectableEffectShrinksWithRoundsAndNeverBelowTheBand) {
  const double d8 = detectable_effect(0.02, 8, 0.0125, 0.02, 0.8), d30 = detectable_effect(0.02, 30, 0.0125, 0.02, 0.8);
  EXPECT_GT(d8, d30);
  EXPECT_GT(d30, 0.02);
  EXPECT_NEAR(detectable_effect(0, 8, 0.0125, 0.02, 0.8), 0.02, 1e-12);
  EXPECT_TRUE(std::isnan(detectable_effect(NAN, 8, 0.0125, 0.02, 0.8)));
}

TEST(Calibration, DuetWinsOnlyWithSmallerSpreadAndNoMoreAlarms) {
  auto workload = [](const char* name, double sd, double rate) {
    json m = {{"round_log_ratio_sd", sd}, {"false_alarms", 0}, {"false_alarm_rate", rate}, {"aa_pairs", 4}};
    return json{{"name", name}, {"metrics", {{"cpu_ms", m}, {"wall_ms", m}}}};
  };
  EXPECT_TRUE(duet_against_sequential(json{workload("cpu", 0.02, 0), workload("cpu-duet", 0.01, 0)})["duet_wins"]);
  EXPECT_FALSE(duet_against_sequential(json{workload("cpu", 0.02, 0), workload("cpu-duet", 0.01, 0.25)})["duet_wins"]);
  EXPECT_TRUE(duet_against_sequential(json{workload("cpu", 0.02, 0)}).is_null());
}

}  // namespace
}  // namespace perfgate::suite
