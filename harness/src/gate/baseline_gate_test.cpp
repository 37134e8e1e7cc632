#include "gate/baseline_gate.hpp"

#include <gtest/gtest.h>

using namespace perfgate;

namespace {

store::BaselineEntry entry(double ratio, double lo, double hi, const std::string& host = "h1") {
  store::BaselineEntry e;
  e.scenario = "s";
  e.profile = "quick";
  e.metric = "cpu_ms";
  e.unit = "ms";
  e.ratio = ratio;
  e.ci = {lo, hi};
  e.n = 10;
  e.before_median = 100;
  e.after_median = 100 * ratio;
  e.before_median_ci = {98, 102};
  e.after_median_ci = {100 * lo, 100 * hi};
  e.host_fingerprint = host;
  e.commit = "abc";
  return e;
}

}  // namespace

TEST(BaselineGate, SameRatioPasses) {
  store::Baseline b;
  b.exists = true;
  b.entries = {entry(0.5, 0.48, 0.52)};
  auto c = gate::check_against_baseline({entry(0.51, 0.49, 0.53)}, b, {});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(c[0].comparable);
  EXPECT_EQ(c[0].ratio.verdict, "no significant change");
  EXPECT_TRUE(gate::baseline_gate_json(c[0])["passed"].get<bool>());
}

TEST(BaselineGate, RatioMovedFromHalfToEightTenthsFails) {
  store::Baseline b;
  b.exists = true;
  b.entries = {entry(0.5, 0.48, 0.52)};
  auto c = gate::check_against_baseline({entry(0.8, 0.77, 0.83)}, b, {});
  EXPECT_EQ(c[0].ratio.verdict, "worse");
  EXPECT_NEAR(c[0].ratio.change, 1.6, 1e-9);
  auto g = gate::baseline_gate_json(c[0]);
  EXPECT_FALSE(g["passed"].get<bool>());
  EXPECT_NE(g["detail"].get<std::string>().find("ratio moved"), std::string::npos);
  EXPECT_TRUE(c[0].absolute_compared);  // same host
}

TEST(BaselineGate, ImprovementIsReportedNotFailed) {
  store::Baseline b;
  b.exists = true;
  b.entries = {entry(0.8, 0.77, 0.83)};
  auto c = gate::check_against_baseline({entry(0.5, 0.48, 0.52, "h2")}, b, {});
  EXPECT_EQ(c[0].ratio.verdict, "better");
  EXPECT_TRUE(gate::baseline_gate_json(c[0])["passed"].get<bool>());
  EXPECT_FALSE(c[0].absolute_compared);
  EXPECT_NE(c[0].absolute_why.find("host fingerprint differs"), std::string::npos);
}

TEST(BaselineGate, WithinToleranceIsNotAFailureEvenIfSignificant) {
  store::Baseline b;
  b.exists = true;
  b.entries = {entry(1.0, 0.999, 1.001)};
  auto c = gate::check_against_baseline({entry(1.03, 1.029, 1.031)}, b, {0.05, 0.05});
  EXPECT_EQ(c[0].ratio.verdict, "no significant change");
}

TEST(BaselineGate, MissingEntryIsNoComparableBaselineNeverAPass) {
  store::Baseline b;
  b.exists = true;
  auto c = gate::check_against_baseline({entry(0.5, 0.48, 0.52)}, b, {});
  EXPECT_FALSE(c[0].comparable);
  auto g = gate::baseline_gate_json(c[0]);
  EXPECT_TRUE(g["passed"].is_null());
  EXPECT_NE(g["detail"].get<std::string>().find("no comparable baseline"), std::string::npos);
}

TEST(BaselineGate, ShiftTestOfExactCounts) {
  auto same = gate::shift_test(0.2, {0.2, 0.2}, 0.2, {0.2, 0.2}, 0.95);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->p, 1.0);
  auto moved = gate::shift_test(0.25, {0.25, 0.25}, 0.2, {0.2, 0.2}, 0.95);
  EXPECT_EQ(moved->p, 0.0);
  EXPECT_FALSE(gate::shift_test(0, {0, 0}, 0.2, {0.2, 0.2}, 0.95));
}
