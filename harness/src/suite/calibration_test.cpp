// What calibration pairs say, from scenario results written by hand: false alarms counted from
// exit codes and verdicts, catches per injected fraction, the per-round log-ratio spread and the
// harness's wall perturbation; and when duet rounds win.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "common/errors.hpp"
#include "stats/power.hpp"
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
  w.aa.push_back(pair(kExitOk, scenario({{100, 101}, {102, 100}, {100, 100}}, stats::Verdict::Same)));
  w.aa.push_back(pair(kExitPerformance, scenario({{100, 103}, {100, 104}, {100, 102}}, stats::Verdict::Worse)));
  w.injected[0.05].push_back(
      pair(kExitPerformance, scenario({{100, 105}, {100, 105}, {100, 106}}, stats::Verdict::Worse)));
  w.injected[0.05].push_back(pair(kExitOk, scenario({{100, 101}, {100, 100}, {100, 99}}, stats::Verdict::Same)));
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
  const auto d8 = stats::detectable_effect_of_spread(0.02, 8, 0.0125, 0.02, 0.8);
  const auto d30 = stats::detectable_effect_of_spread(0.02, 30, 0.0125, 0.02, 0.8);
  ASSERT_TRUE(d8 && d30);
  EXPECT_GT(*d8, *d30);
  EXPECT_GT(*d30, 0.02);
  EXPECT_NEAR(stats::detectable_effect_of_spread(0, 8, 0.0125, 0.02, 0.8).value(), 0.02, 1e-12);
  EXPECT_FALSE(stats::detectable_effect_of_spread(NAN, 8, 0.0125, 0.02, 0.8));
  // Seven rounds: the exact rank test cannot reach 0.0125 (2 / 2^7 > 0.0125), so nothing is resolved.
  EXPECT_FALSE(stats::detectable_effect_of_spread(0.02, 7, 0.0125, 0.02, 0.8));
}

// calibrate's figure and a comparison's are one formula: the pooled A/A spread of a workload
// whose every pair has the same log-ratios gives what the gate reports for one of those pairs.
TEST(Calibration, DetectableEffectIsTheComparisonsFigure) {
  std::vector<std::pair<double, double>> rounds;
  for (int i = 0; i < 10; ++i) rounds.push_back({100.0, 100.0 * (1 + 0.02 * ((i % 3) - 1) + 0.001 * i)});
  WorkloadPairs w{"cpu", {"calibration_work", "cpu", "1000"}, {}, {}};
  for (int k = 0; k < 2; ++k) w.aa.push_back(pair(kExitOk, scenario(rounds, stats::Verdict::Same)));
  const json doc = summarize_workload(w, 0.0125, 0.02);
  std::vector<double> logs;
  for (const auto& [b, a] : rounds) logs.push_back(std::log(a / b));
  const auto gate_figure = stats::detectable_effect(logs, 0.0125, 0.02, 0.8);
  ASSERT_TRUE(gate_figure.has_value());
  EXPECT_NEAR(doc["metrics"]["cpu_ms"]["detectable_effect_80"].get<double>(), *gate_figure, 1e-12);
  // sqrt(pi/3), the signed-rank test's factor: with sqrt(pi/2) the figure would be ~22% further from the band.
  const double z = 2.4977 + 0.8416;  // z(1 - 0.0125/2) + z(0.8)
  const double sd = doc["metrics"]["cpu_ms"]["round_log_ratio_sd"].get<double>();
  EXPECT_NEAR(std::log1p(*gate_figure) - std::log1p(0.02), z * sd * std::sqrt(std::numbers::pi / 3) / std::sqrt(10.0),
              1e-3 * sd);
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
