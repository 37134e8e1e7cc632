// A count of the work done is equal on both sides in every round; a claimed cost count that
// falls far beyond its claim is said.
#include "gate/work_counts.hpp"

#include <gtest/gtest.h>

#include "model/test_values.hpp"

using namespace perfgate;

namespace {

using model::testing::metric_value;

std::vector<run::Sample> count_rounds(const std::vector<std::pair<double, double>>& before_after) {
  std::vector<run::Sample> out;
  int round = 0;
  for (const auto& [b, a] : before_after) {
    ++round;
    for (const auto& [variant, v] : {std::pair{"before", b}, std::pair{"after", a}}) {
      run::Sample s;
      s.variant = variant;
      s.round = round;
      s.metrics["rows"] = metric_value(v, "count");
      out.push_back(s);
    }
  }
  return out;
}

model::Comparison syscw(double ratio) {
  model::Comparison c;
  c.metric = "syscw";
  c.exact = true;
  c.r.ratio = ratio;
  return c;
}

}  // namespace

TEST(WorkCounts, EqualCountsPass) {
  const auto g = gate::work_count_gate(count_rounds({{4000, 4000}, {4000, 4000}}), "rows");
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.passed());
  EXPECT_NE(g.detail.find("equal in 2 rounds"), std::string::npos) << g.detail;
}

TEST(WorkCounts, ARowFewerInOneRoundIsNotTheSameWork) {
  // Fewer rows is "better" for a cost metric: an upper bound would pass it.
  const auto g = gate::work_count_gate(count_rounds({{4000, 4000}, {4000, 3999}}), "rows");
  ASSERT_TRUE(g.passed() || g.failed());
  EXPECT_TRUE(g.failed());
  EXPECT_NE(g.detail.find("3,999"), std::string::npos) << g.detail;
  EXPECT_NE(g.detail.find("round 2"), std::string::npos) << g.detail;
}

TEST(WorkCounts, MoreIsNotTheSameWorkEither) {
  EXPECT_TRUE(gate::work_count_gate(count_rounds({{10, 11}}), "rows").failed());
}

TEST(WorkCounts, NeverMeasuredIsNotJudged) {
  const auto g = gate::work_count_gate(count_rounds({{1, 1}}), "pages");
  EXPECT_TRUE(!g.passed() && !g.failed());
}

TEST(WorkCounts, AClaimedCountFallingFarBeyondItsClaimIsSaid) {
  catalog::Claim claim{"syscw", 5, {}, ""};
  const auto within = syscw(1.0 / 6), beyond = syscw(1.0 / 41);
  EXPECT_FALSE(gate::beyond_claim_note(&within, claim));
  const auto note = gate::beyond_claim_note(&beyond, claim);
  ASSERT_TRUE(note);
  EXPECT_NE(note->find("improved 41.0x where the claim explains 5x"), std::string::npos) << *note;
  auto timed = beyond;
  timed.exact = false;  // a time beyond its claim is a good day, not a question
  EXPECT_FALSE(gate::beyond_claim_note(&timed, claim));
}
