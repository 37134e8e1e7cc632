// The scripted sample source (--debug-samples) on files written here: what the e2e tests of the
// deciding logic take for granted about it, pinned where a change would show first.
#include "run/sample_script.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/usage_error_of.hpp"

using namespace perfgate;
using namespace perfgate::run;

namespace {

SampleScript script(const TempDir& dir, const std::string& text) {
  const fs::path f = dir.path() / "script.json";
  std::ofstream(f) << text;
  return SampleScript::load(f);
}

}  // namespace

TEST(SampleScript, ListsCycleByMeasuredRoundAndWarmUpReportsRoundOne) {
  TempDir dir("perfgate-test-");
  const auto s = script(dir, R"({"before": {"cpu_ms": [1, 2, 3], "digest": ["a", "b"]}, "after": {"cpu_ms": 5}})");
  // Two warm-up rounds: batch round 3 is measured round 1.
  EXPECT_EQ(s.take("x", "before", 1, 2, 0).metrics.at("cpu_ms").value, 1);
  EXPECT_TRUE(s.take("x", "before", 2, 2, 0).warmup);
  EXPECT_EQ(s.take("x", "before", 4, 2, 0).metrics.at("cpu_ms").value, 2);
  EXPECT_EQ(s.take("x", "before", 6, 2, 0).metrics.at("cpu_ms").value, 1);  // measured round 4: cycled
  EXPECT_EQ(s.take("x", "before", 4, 2, 0).digest, "b");
  const Sample a = s.take("x", "after", 9, 2, 1);
  EXPECT_EQ(a.digest, "scripted");
  EXPECT_EQ(a.metrics.at("cpu_ms").source, "scripted");
  EXPECT_EQ(a.metrics.at("cpu_ms").unit, "ms");  // perfgate's own metric keeps its declaration
  EXPECT_EQ(a.round, 9);
  EXPECT_EQ(a.order, 1);
}

TEST(SampleScript, GeneratedValuesStayInTheirSpreadAndDependOnTheRoundOnly) {
  TempDir dir("perfgate-test-");
  const auto s = script(dir, R"({"before": {"cpu_ms": {"median": 10, "spread": 0.1}},
                                 "after": {"cpu_ms": {"median": 10, "spread": 0.1}}})");
  bool differs = false;
  for (int round = 1; round <= 200; ++round) {
    const double b = s.take("x", "before", round, 0, 0).metrics.at("cpu_ms").value;
    EXPECT_GE(b, 9);
    EXPECT_LT(b, 11);
    EXPECT_EQ(b, s.take("x", "before", round, 0, 1).metrics.at("cpu_ms").value);
    differs = differs || b != s.take("x", "after", round, 0, 0).metrics.at("cpu_ms").value;
  }
  EXPECT_TRUE(differs) << "an A/A pair, not identical twins: the default seed is per variant";
}

TEST(SampleScript, PerScenarioScriptsAndExitCodes) {
  TempDir dir("perfgate-test-");
  const auto s = script(dir, R"({"scenarios": {"one": {"before": {"cpu_ms": 1}, "after": {"cpu_ms": 1,
                                 "exit_code": [0, 3]}}}})");
  EXPECT_EQ(s.lacks("one", "after"), "");
  EXPECT_EQ(s.lacks("one", "sweep"), "scenarios.one.sweep");
  EXPECT_EQ(s.lacks("two", "before"), "scenarios.two");
  EXPECT_NO_THROW(s.take("one", "after", 2, 1, 0));
  EXPECT_THROW(s.take("one", "after", 3, 1, 0), RunError);  // measured round 2 exits with 3
}

TEST(SampleScript, MalformedScriptsAreUsageErrorsNamingTheField) {
  TempDir dir("perfgate-test-");
  for (const char* bad :
       {R"([])", R"({"before": 1})", R"({"before": {"cpu_ms": []}})", R"({"before": {"cpu_ms": {"spread": 0.1}}})",
        R"({"before": {"exit_code": 1.5}})", R"({"scenarios": {}, "before": {}})", "not json"}) {
    EXPECT_THROW(script(dir, bad), UsageError) << bad;
  }
  const auto error = usage_error_of([&] { script(dir, R"({"after": {"cpu_ms": {"median": 1, "colour": 2}}})"); });
  EXPECT_NE(error.find("after.cpu_ms.colour: unknown"), std::string::npos) << error;
}
