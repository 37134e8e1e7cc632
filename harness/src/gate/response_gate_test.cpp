// The response gate and a program's own "not equivalent": exit 3 with the reason, and a
// detail that says what was checked.
#include <gtest/gtest.h>

#include "gate/equivalence.hpp"

using namespace perfgate;

namespace {
const load::BodyDigest kAlpha{1, 2}, kBeta{3, 4};
}  // namespace

TEST(ResponseGate, DetailSaysWhatWasCheckedWhenEveryAnswerAgreed) {
  gate::ResponseGate g;
  g.book().begin("before", 1, "window");
  g.book().answer("/a", 0, 200, kAlpha, "alpha");
  g.book().begin("after", 1, "window");
  g.book().answer("/a", 0, 200, kAlpha, "alpha");
  g.book().answer("/a", 1, 200, kAlpha, "alpha");
  const auto r = g.result();
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.kind, model::GateKind::Equivalence);
  EXPECT_NE(r.detail.find("3 answers of 1 paths checked"), std::string::npos) << r.detail;
}

TEST(ResponseGate, FailsWithTheBooksFirstDifference) {
  gate::ResponseGate g;
  g.book().begin("after", 2, "warm-up");
  g.book().answer("/a", 0, 200, kAlpha, "alpha");
  g.book().answer("/a", 7, 200, kBeta, "");
  const auto r = g.result();
  EXPECT_TRUE(r.failed());
  EXPECT_NE(r.detail.find("GET /a: after (round 2, warm-up request #7)"), std::string::npos) << r.detail;
}

TEST(ResponseGate, AServersOwnDivergenceFailsTheGate) {
  gate::ResponseGate g;
  g.book().report_divergence("server (after) reported not equivalent: stale row");
  EXPECT_TRUE(g.result().failed());
}

TEST(SelfReport, AProgramsEquivalentFalseThrowsWithItsReason) {
  TempDir d("perfgate-test-");
  gate::EquivalenceGate g({{"before", ""}, {"after", ""}}, d.path());
  run::Sample s;
  s.variant = "after";
  s.round = 3;
  s.divergence = "user 17 answered id 18";
  try {
    g.check(s, {});
    FAIL() << "no throw";
  } catch (const gate::EquivalenceFailure& e) {
    EXPECT_EQ(e.code(), kExitEquivalence);
    EXPECT_NE(std::string(e.what()).find("after (round 3) reported not equivalent: user 17 answered id 18"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(g.result().failed());
}

TEST(SelfReport, ReadsTheContractFields) {
  using run::reported_divergence;
  EXPECT_FALSE(reported_divergence(nlohmann::json::parse(R"({"metrics":{}})")));
  EXPECT_FALSE(reported_divergence(nlohmann::json::parse(R"({"equivalent":true})")));
  EXPECT_EQ(*reported_divergence(nlohmann::json::parse(R"({"equivalent":false,"equivalence_reason":"row 3"})")),
            "row 3");
  EXPECT_EQ(*reported_divergence(nlohmann::json::parse(R"({"equivalent":false})")), "no reason given");
  EXPECT_NE(reported_divergence(nlohmann::json::parse(R"({"equivalent":"no"})"))->find("must be true or false"),
            std::string::npos);
}

TEST(SelfReport, ParsedFromTheLastLineEvenWithoutMetrics) {
  run::Sample s;
  run::parse_program_report(s, R"({"equivalent": false, "equivalence_reason": "page 2 skipped"})", "prog");
  EXPECT_EQ(s.divergence, "page 2 skipped");
  run::Sample t;
  run::parse_program_report(t, R"({"digest": "ab", "metrics": {}})", "prog");
  EXPECT_TRUE(t.divergence.empty());
}
