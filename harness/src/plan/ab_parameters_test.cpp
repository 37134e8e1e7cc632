// hyperfine's parameters: the values of a scan and a list, their combinations, substitution.
#include "plan/ab_parameters.hpp"

#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "plan/hyperfine_pairs.hpp"

namespace perfgate::plan {

using V = std::vector<std::string>;

TEST(Parameters, IntegerScanCountsUpToMax) {
  EXPECT_EQ(parameter_scan("t", "1", "4", "").values, (V{"1", "2", "3", "4"}));
  EXPECT_EQ(parameter_scan("t", "0", "10", "5").values, (V{"0", "5", "10"}));
  EXPECT_EQ(parameter_scan("t", "-2", "0", "").values, (V{"-2", "-1", "0"}));
  EXPECT_TRUE(parameter_scan("t", "1", "2", "").numeric);
}

TEST(Parameters, DecimalScanStepsExactlyAsHyperfine) {
  // hyperfine -P delay 0.3 0.7 -D 0.2: 0.3, 0.5, 0.7 (binary floating point would miss 0.7)
  EXPECT_EQ(parameter_scan("d", "0.3", "0.7", "0.2").values, (V{"0.3", "0.5", "0.7"}));
  EXPECT_EQ(parameter_scan("d", "0", "0.3", "0.1").values, (V{"0.0", "0.1", "0.2", "0.3"}));
}

TEST(Parameters, BadScansAreUsageErrors) {
  EXPECT_THROW(parameter_scan("t", "4", "1", ""), UsageError);
  EXPECT_THROW(parameter_scan("t", "1", "x", ""), UsageError);
  EXPECT_THROW(parameter_scan("t", "1", "4", "0"), UsageError);
  EXPECT_THROW(parameter_scan("t", "0", "1000000", ""), UsageError);
}

TEST(Parameters, ListSplitsOnUnescapedCommas) {
  EXPECT_EQ(parameter_list("c", "gcc,clang").values, (V{"gcc", "clang"}));
  EXPECT_EQ(parameter_list("c", "a\\,b,c").values, (V{"a,b", "c"}));
  EXPECT_FALSE(parameter_list("c", "x").numeric);
}

TEST(Parameters, CombinationsVaryTheLastFastest) {
  const auto all = parameter_combinations({parameter_list("a", "1,2"), parameter_list("b", "x,y")});
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(describe(all[0]), "a=1,b=x");
  EXPECT_EQ(describe(all[1]), "a=1,b=y");
  EXPECT_EQ(describe(all[3]), "a=2,b=y");
  EXPECT_EQ(parameter_combinations({}).size(), 1u);
  EXPECT_THROW(parameter_combinations({parameter_list("a", "1"), parameter_list("a", "2")}), UsageError);
}

TEST(Parameters, SubstituteReplacesEveryOccurrence) {
  EXPECT_EQ(substitute("make -j {t} && echo {t} {u}", {{"t", "4"}}), "make -j 4 && echo 4 {u}");
  EXPECT_EQ(substitute("{t}", {{"t", "{t}"}}), "{t}");  // a value holding the token is not expanded again
}

namespace {
std::vector<std::string> split(const std::string& c) { return {c}; }
}  // namespace

// Commands typed alike stay results of their own: the pairs' names get their place ("X (2)").
TEST(HyperfinePairs, EqualCommandsKeepAPlaceEach) {
  HyperfineCommands f;
  f.commands = {"X", "X", "X"};
  const auto pairs = hyperfine_pairs(f, "", "", "ab", split);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].name, "X (1)");
  EXPECT_EQ(pairs[1].name, "X (2)");
  f.commands = {"X", "Y", "Y"};
  const auto xyy = hyperfine_pairs(f, "", "", "ab", split);
  EXPECT_EQ(xyy[0].name, "Y (1)");
  EXPECT_EQ(xyy[1].name, "Y (2)");
  f.commands = {"X", "X"};
  EXPECT_EQ(hyperfine_pairs(f, "", "", "ab", split).at(0).name, "ab");
}

// One command scanned: the reference is the first value, with its own parameters.
TEST(HyperfinePairs, OneCommandScanGivesEachSideItsOwnValue) {
  HyperfineCommands f;
  f.commands = {"X {n}"};
  f.scan = {"n", "1", "3"};
  const auto pairs = hyperfine_pairs(f, "", "", "ab", split);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].before.sampling.parameters.at("n"), "1");
  EXPECT_EQ(pairs[0].after.sampling.parameters.at("n"), "2");
  EXPECT_EQ(pairs[1].before.sampling.parameters.at("n"), "1");
  EXPECT_EQ(pairs[1].after.sampling.parameters.at("n"), "3");
  EXPECT_EQ(pairs[1].after.label, "X 3");
}

}  // namespace perfgate::plan
