// The default metric of `perfgate ab` follows what both sides measured, and the wall guard
// fails an AFTER that trades CPU for waiting while tolerating its own noise.
#include "gate/metric_choice.hpp"

#include <gtest/gtest.h>

#include "model/test_values.hpp"

using namespace perfgate;

namespace {
// Rounds of BEFORE and AFTER with fixed cpu/wall figures; `jitter` alternates per round.
std::vector<run::Sample> rounds(double cpu_b, double wall_b, double cpu_a, double wall_a, double jitter = 0) {
  std::vector<run::Sample> out;
  for (int r = 1; r <= 10; ++r)
    for (const char* v : {"before", "after"}) {
      run::Sample s;
      s.round = r;
      s.variant = v;
      const bool b = s.variant == "before";
      const double j = (r % 2 ? 1 + jitter : 1 - jitter);
      s.metrics["cpu_ms"].value = b ? cpu_b : cpu_a;
      s.metrics["wall_ms"].value = (b ? wall_b : wall_a) * (b ? 1 : j);
      out.push_back(s);
    }
  run::Sample warm = out.front();
  warm.warmup = true;
  warm.metrics["cpu_ms"].value = 1;  // a warm-up must not move the choice
  out.push_back(warm);
  return out;
}
model::Comparison wall(double ratio, double lo, double hi) {
  auto c = model::testing::comparison("wall_ms", lo, hi);
  c.r.ratio = ratio;
  return c;
}
}  // namespace

TEST(MetricChoice, CpuBoundOnBothSidesGatesCpuTime) {
  auto c = gate::choose_ab_metric(rounds(40, 45, 44, 50));
  EXPECT_EQ(c.metric, "cpu_ms");
  EXPECT_NEAR(c.cpu_wall_ratio_before, 40.0 / 45, 1e-9);
  EXPECT_NE(c.why.find("CPU-bound"), std::string::npos);
}

TEST(MetricChoice, WaitingOnEitherSideGatesWallTime) {
  EXPECT_EQ(gate::choose_ab_metric(rounds(2, 100, 2, 100)).metric, "wall_ms");
  // BEFORE alone looks CPU-bound; the AFTER waits: the choice must look at both.
  auto c = gate::choose_ab_metric(rounds(40, 45, 20, 120));
  EXPECT_EQ(c.metric, "wall_ms");
  EXPECT_NE(c.why.find("AFTER"), std::string::npos);
}

TEST(MetricChoice, NoCpuTimeFallsBackToWall) {
  auto s = rounds(40, 45, 40, 45);
  for (auto& x : s) x.metrics.erase("cpu_ms");
  EXPECT_EQ(gate::choose_ab_metric(s).metric, "wall_ms");
  EXPECT_TRUE(gate::to_json(gate::choose_ab_metric(s))["cpu_wall_ratio_before"].is_null());
}

TEST(WallGuard, BandWidensWithTheRunsOwnSpread) {
  catalog::Guard g;
  EXPECT_DOUBLE_EQ(gate::guard_band(rounds(40, 45, 40, 45), g, 0.02), 0.10);
  EXPECT_GT(gate::guard_band(rounds(40, 45, 40, 45, 0.6), g, 0.02), 0.15);
}

TEST(WallGuard, FailsOnlyWhenTheWholeIntervalIsBeyondTheBand) {
  catalog::Guard g;
  auto slower = wall(1.6, 1.5, 1.7), noisy = wall(1.08, 0.95, 1.2), inside = wall(1.12, 1.09, 1.15);
  EXPECT_TRUE(gate::guard_gate(&slower, g, 0.1).failed());
  EXPECT_TRUE(gate::guard_gate(&noisy, g, 0.1).cannot_tell());   // reaches +20%: never a pass
  EXPECT_TRUE(gate::guard_gate(&inside, g, 0.1).cannot_tell());  // slower; beyond 10%? not yet known
  EXPECT_TRUE(gate::guard_gate(nullptr, g, 0.1).passed());
}

TEST(WallGuard, StaysOpenOnlyWhileSlowerButNotYetBeyondTheBand) {
  EXPECT_FALSE(gate::guard_decided(wall(1.12, 1.04, 1.21), 0.1));  // slower; beyond 10%? not yet known
  EXPECT_TRUE(gate::guard_decided(wall(1.15, 1.11, 1.20), 0.1));   // beyond: the guard fails
  EXPECT_TRUE(gate::guard_decided(wall(1.03, 1.01, 1.08), 0.1));   // slower, but within the band
  EXPECT_FALSE(gate::guard_decided(wall(1.05, 0.90, 1.30), 0.1));  // noisy: reaches +30%, open
}

TEST(MetricChoice, TimeQueuedBehindOtherWorkIsNotWaiting) {
  // 40 ms of CPU in 65 ms of wall: on a busy machine, 22 ms of it runnable but queued.
  auto s = rounds(40, 65, 40, 65);
  EXPECT_EQ(gate::choose_ab_metric(s).metric, "wall_ms");  // without pressure figures: looks like waiting
  for (auto& x : s) x.metrics["cpu_wait_ms"].value = 22;
  auto c = gate::choose_ab_metric(s);
  EXPECT_EQ(c.metric, "cpu_ms");
  EXPECT_NEAR(c.busy_wall_ratio_after, 62.0 / 65, 1e-9);
  EXPECT_NE(c.why.find("run-queue"), std::string::npos);
}
