// The self-report gate believes a program's own figure only as far as the outside one shows it:
// an AFTER that says it saved more than perfgate saw is caught, an honest one under a noisy
// outside figure is not.
#include "gate/self_report.hpp"

#include <gtest/gtest.h>

#include <random>

#include "model/test_values.hpp"

using namespace perfgate;

namespace {

using model::testing::metric_value;

struct Figures {
  double self, outside;
};

// Rounds of paired samples: before and after's self-reported total_ms and outside wall_ms, the
// outside figure with uniform noise of ±`noise` ms.
std::vector<run::Sample> rounds(int n, Figures before, Figures after, double noise, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  std::vector<run::Sample> out;
  for (int r = 1; r <= n; ++r)
    for (const auto& [variant, f] : {std::pair{"before", before}, std::pair{"after", after}}) {
      run::Sample s;
      s.variant = variant;
      s.round = r;
      s.metrics["total_ms"] = metric_value(f.self, "ms");
      s.metrics["wall_ms"] = metric_value(f.outside + u(rng), "ms");
      out.push_back(s);
    }
  return out;
}

catalog::SelfReport check(double slack = 0.05) {
  catalog::SelfReport c;
  c.metrics = {"total_ms"};
  c.outside = "wall_ms";
  c.slack = slack;
  return c;
}

}  // namespace

TEST(SelfReportGate, AnHonestSavingSeenOutsidePasses) {
  // AFTER saves 62 ms of its own stopwatch; the process around it saves as much and a little setup.
  const auto g = gate::self_report_gate(rounds(12, {80, 120}, {18, 55}, 4), check());
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.passed()) << g.detail;
  EXPECT_EQ(g.kind, model::GateKind::Equivalence);
}

TEST(SelfReportGate, AStopwatchStartedLateIsALieNamingBothFigures) {
  // The stopwatch leaves the 18 ms AFTER really spends out: it says 80 saved, wall shows 62.
  const auto g = gate::self_report_gate(rounds(12, {80, 120}, {0, 58}, 4), check());
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.failed());
  EXPECT_NE(g.detail.find("total_ms says it saved 80"), std::string::npos) << g.detail;
  EXPECT_NE(g.detail.find("wall_ms shows"), std::string::npos) << g.detail;
}

TEST(SelfReportGate, OutsideNoiseAloneNeverCallsALie) {
  // A/A under ±15 ms of wall noise (far above the 4 ms slack): over many seeds, never a lie.
  for (unsigned seed = 1; seed <= 200; ++seed) {
    const auto g = gate::self_report_gate(rounds(12, {80, 120}, {80, 120}, 15, seed), check());
    ASSERT_TRUE(g.passed() || g.failed());
    EXPECT_TRUE(g.passed()) << "seed " << seed << ": " << g.detail;
  }
}

TEST(SelfReportGate, ASummedFigureAndAScaleCount) {
  // Two phases of the program's own clock in µs, against cgroup CPU in ms: the second phase's
  // saving is claimed but not seen.
  std::vector<run::Sample> samples;
  for (int r = 1; r <= 8; ++r)
    for (const auto& [variant, a, b, cpu] :
         {std::tuple{"before", 30000.0, 20000.0, 70.0}, std::tuple{"after", 30000.0, 2000.0, 70.0}}) {
      run::Sample s;
      s.variant = variant;
      s.round = r;
      s.metrics["render_us"] = metric_value(a, "us");
      s.metrics["etag_us"] = metric_value(b, "us");
      s.metrics["cpu_ms"] = metric_value(cpu, "ms");
      samples.push_back(s);
    }
  catalog::SelfReport c;
  c.metrics = {"render_us", "etag_us"};
  c.outside = "cpu_ms";
  c.scale = 0.001;
  const auto g = gate::self_report_gate(samples, c);
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.failed()) << g.detail;
  EXPECT_NE(g.detail.find("render_us + etag_us"), std::string::npos) << g.detail;
}

TEST(SelfReportGate, TooFewRoundsIsNotJudged) {
  const auto g = gate::self_report_gate(rounds(1, {80, 120}, {0, 58}, 0), check());
  EXPECT_TRUE(!g.passed() && !g.failed());
  EXPECT_NE(g.detail.find("not judged"), std::string::npos);
}

TEST(SelfReportGate, WarmUpAndMissingFiguresAreLeftOut) {
  auto samples = rounds(6, {80, 120}, {18, 55}, 0);
  samples.front().warmup = true;
  samples.back().metrics.erase("wall_ms");
  const auto g = gate::self_report_gate(samples, check());
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_NE(g.detail.find("median of 4"), std::string::npos) << g.detail;
}

TEST(SelfReportGate, EqualHoldsARelayedCountToTheWitnessInEverySample) {
  catalog::SelfReport c = check(0);
  c.check = catalog::SelfCheck::Equal;
  auto samples = rounds(3, {12, 12}, {4, 4}, 0);
  auto g = gate::self_report_gate(samples, c);
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.passed()) << g.detail;
  samples[5].metrics["total_ms"].value = 3;  // round 3's AFTER relays one fewer than was seen
  g = gate::self_report_gate(samples, c);
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.failed());
  EXPECT_NE(g.detail.find("after (round 3)"), std::string::npos) << g.detail;
  EXPECT_NE(g.detail.find("not the same"), std::string::npos) << g.detail;
}

TEST(SelfReportGate, CoversWantsTheOutsideFigureToHoldTheProgramsOwn) {
  catalog::SelfReport c = check(0);
  c.check = catalog::SelfCheck::Covers;
  // More seen than said (a window around a stopwatch): passes; less seen than said: a lie.
  auto g = gate::self_report_gate(rounds(2, {80, 81}, {20, 20.5}, 0), c);
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.passed()) << g.detail;
  g = gate::self_report_gate(rounds(2, {80, 81}, {20, 12}, 0), c);
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.failed());
  EXPECT_NE(g.detail.find("less than the program says"), std::string::npos) << g.detail;
  c.slack = 0.7;  // 20 said, 12 seen: within 70% of the outside figure (8.4)
  g = gate::self_report_gate(rounds(2, {80, 81}, {20, 12}, 0), c);
  EXPECT_TRUE(g.passed()) << g.detail;
}

TEST(SelfReportGate, PerSampleChecksWithoutBothFiguresAreNotJudged) {
  catalog::SelfReport c = check(0);
  c.check = catalog::SelfCheck::Equal;
  c.outside = "requests_seen";
  const auto g = gate::self_report_gate(rounds(2, {1, 1}, {1, 1}, 0), c);
  EXPECT_TRUE(!g.passed() && !g.failed());
}
