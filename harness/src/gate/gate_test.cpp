// Gates: the equivalence gate names the first differing line; policies and claims decide on
// the interval, not on the point estimate.
#include <gtest/gtest.h>

#include <fstream>

#include "gate/equivalence.hpp"
#include "gate/policy.hpp"

using namespace perfgate;

namespace {
run::Sample sample(const std::string& variant, int round, const std::string& digest) {
  run::Sample s;
  s.variant = variant;
  s.round = round;
  s.digest = digest;
  return s;
}
run::SampleFiles output(const TempDir& d, const std::string& name, const std::string& text) {
  run::SampleFiles f;
  f.output_path = d.path() / name;
  std::ofstream(f.output_path) << text;
  return f;
}
model::Comparison comparison(double ratio, double lo, double hi, stats::Verdict v, Better better = Better::Lower) {
  model::Comparison c;
  c.variant = "after";
  c.baseline = "before";
  c.metric = "wall_ms";
  c.better = better;
  c.r.ratio = ratio;
  c.r.ci = {lo, hi};
  c.r.n = 10;
  c.verdict = v;
  return c;
}
}  // namespace

TEST(Equivalence, EqualDigestsPass) {
  TempDir d("perfgate-test-");
  gate::EquivalenceGate g({{"before", ""}, {"after", ""}}, d.path());
  g.check(sample("before", 1, "aa"), output(d, "1", "x\n"));
  g.check(sample("after", 1, "aa"), output(d, "2", "x\n"));
  EXPECT_TRUE(g.result().passed.value());
}

TEST(Equivalence, MismatchNamesSampleAndFirstDifferingLine) {
  TempDir d("perfgate-test-");
  gate::EquivalenceGate g({{"before", ""}, {"after", ""}}, d.path());
  g.check(sample("before", 1, "aa"), output(d, "1", "row 1\nrow 2\nrow 3\n"));
  try {
    g.check(sample("after", 2, "bb"), output(d, "2", "row 1\nrow 2'\nrow 3\n"));
    FAIL() << "no throw";
  } catch (const gate::EquivalenceFailure& e) {
    std::string m = e.what();
    EXPECT_EQ(e.code(), kExitEquivalence);
    EXPECT_NE(m.find("after (round 2)"), std::string::npos) << m;
    EXPECT_NE(m.find("first differing line 2: before 'row 2', after 'row 2''"), std::string::npos) << m;
  }
  EXPECT_FALSE(g.result().passed.value());
}

TEST(Equivalence, SweepVariantsCompareTheirExtraField) {
  TempDir d("perfgate-test-");
  gate::EquivalenceGate g({{"before", ""}, {"after", ""}, {"read-1m", "read_digest"}}, d.path());
  auto b = sample("before", 1, "full");
  b.extra["read_digest"] = "r1";
  g.check(b, {});
  auto sweep = sample("read-1m", 1, "partial");
  sweep.extra["read_digest"] = "r1";
  EXPECT_NO_THROW(g.check(sweep, {}));
  sweep.extra["read_digest"] = "r2";
  EXPECT_THROW(g.check(sweep, {}), gate::EquivalenceFailure);
}

TEST(Policy, ImproveNeedsABetterVerdict) {
  auto better = comparison(0.5, 0.45, 0.55, stats::Verdict::Better);
  auto same = comparison(0.99, 0.95, 1.03, stats::Verdict::NoChange);
  auto worse = comparison(1.3, 1.2, 1.4, stats::Verdict::Worse);
  using catalog::Policy;
  EXPECT_TRUE(gate::policy_gate(&better, "wall_ms", Policy::Improve).passed.value());
  EXPECT_FALSE(gate::policy_gate(&same, "wall_ms", Policy::Improve).passed.value());
  EXPECT_TRUE(gate::policy_gate(&same, "wall_ms", Policy::NoRegress).passed.value());
  EXPECT_FALSE(gate::policy_gate(&worse, "wall_ms", Policy::NoRegress).passed.value());
  EXPECT_FALSE(gate::policy_gate(nullptr, "wall_ms", Policy::NoRegress).passed.value());
}

TEST(Claims, JudgedOnTheWholeInterval) {
  catalog::Claim claim{"wall_ms", 5, {}, "after at least 5x faster"};
  auto clear = comparison(0.15, 0.14, 0.19, stats::Verdict::Better);
  auto straddles = comparison(0.18, 0.15, 0.21, stats::Verdict::Better);
  EXPECT_TRUE(gate::claim_gate(&clear, claim).passed.value());
  EXPECT_FALSE(gate::claim_gate(&straddles, claim).passed.value());
}
