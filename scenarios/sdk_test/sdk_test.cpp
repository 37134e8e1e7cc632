// The scenario SDK every bundled program uses: the canonical row serialisation the digests
// are made of, and scenario_main's dispatch, refusals and result line.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "call_main.hpp"
#include "perfgate/canonical_row.hpp"
#include "perfgate/scenario_main.hpp"

using perfgate::CanonicalRow;

TEST(CanonicalRow, EveryValueIsTypeTaggedAndLengthPrefixed) {
  const auto row = CanonicalRow(6).text("a;b").integer(-42).real(0.1).null().boolean(true).decimal("12.50").str();
  EXPECT_EQ(row, "R6;T3:a;b;I-42;F0.10000000000000001;N;B1;D12.50;");
}

TEST(CanonicalRow, NullIsNotAnEmptyText) {
  EXPECT_NE(CanonicalRow(1).null().str(), CanonicalRow(1).text("").str());
  EXPECT_EQ(CanonicalRow(1).text("").str(), "R1;T0:;");
}

TEST(CanonicalRow, ANumberIsNotItsText) {
  EXPECT_NE(CanonicalRow(1).integer(1).str(), CanonicalRow(1).text("1").str());
  EXPECT_NE(CanonicalRow(1).integer(1).str(), CanonicalRow(1).real(1.0).str());
}

TEST(CanonicalRow, BoundariesCannotShift) {
  EXPECT_NE(CanonicalRow(2).text("ab").text("c").str(), CanonicalRow(2).text("a").text("bc").str());
  // A dropped column changes the row even when the remaining bytes would line up.
  EXPECT_NE(CanonicalRow(2).text("x").null().str(), CanonicalRow(1).text("x").str() + "N;");
}

TEST(CanonicalRow, RealsHaveOneFixedSpelling) {
  EXPECT_EQ(CanonicalRow(1).real(-0.0).str(), CanonicalRow(1).real(0.0).str());
  EXPECT_EQ(CanonicalRow(1).real(std::numeric_limits<double>::infinity()).str(), "R1;Finf;");
  EXPECT_EQ(CanonicalRow(1).real(2.5).str(), "R1;F2.5;");
  EXPECT_NE(CanonicalRow(1).real(0.1 + 0.2).str(), CanonicalRow(1).real(0.3).str());
}

namespace {

using sdk_test::call;

perfgate::json last_line(const std::string& out) {
  std::istringstream in(out);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return perfgate::json::parse(last);
}

perfgate::ScenarioProgram program() {
  return perfgate::ScenarioProgram("prog")
      .variants({"before", "after"})
      .lies({"stop-early"})
      .seed([](const perfgate::Invocation&) {
        return perfgate::json{{"rows", 3}};
      })
      .run([](const perfgate::Invocation& inv) {
        if (inv.has("explode")) throw std::runtime_error("disk on fire");
        if (inv.has("throw-divergence")) throw perfgate::NotEquivalent("row 7 differs");
        perfgate::Report r;
        r.digest(inv.lying("stop-early") ? "short" : "whole").metric("rows", 3, "count");
        if (inv.lying("stop-early")) r.not_equivalent("listed 1 of 3 rows").not_equivalent("a later reason");
        return r;
      });
}

}  // namespace

TEST(ScenarioMain, RunPrintsTheReportAsTheLastLine) {
  const auto o = call(program(), {"run", "--variant", "after", "--fixture", "x"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = last_line(o.out);
  EXPECT_EQ(j.at("digest"), "whole");
  EXPECT_FALSE(j.contains("equivalent")) << "an honest run says nothing about equivalence";
  EXPECT_FALSE(j.contains("extra"));
}

TEST(ScenarioMain, ADivergenceIsReportedNotThrown) {
  const auto o = call(program(), {"run", "--variant", "after", "--fixture", "x", "--lie", "stop-early"});
  ASSERT_EQ(o.code, 0) << o.err;
  const auto j = last_line(o.out);
  EXPECT_EQ(j.at("equivalent"), false);
  EXPECT_EQ(j.at("equivalence_reason"), "listed 1 of 3 rows") << "the first reason is kept";
  EXPECT_EQ(j.at("extra").at("lie"), "stop-early");

  const auto t = call(program(), {"run", "--variant", "after", "--fixture", "x", "--throw-divergence"});
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_EQ(last_line(t.out).at("equivalence_reason"), "row 7 differs");
}

TEST(ScenarioMain, UsageErrorsExitTwoAndFailuresExitOne) {
  auto o = call(program(), {"run", "--variant", "after", "--fixture", "x", "--lie", "sideways"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("unknown lie 'sideways': prog declares stop-early"), std::string::npos) << o.err;
  o = call(program(), {"run", "--variant", "diagonal", "--fixture", "x"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("expected before or after"), std::string::npos) << o.err;
  o = call(program(), {"serve", "--variant", "after", "--fixture", "x"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("no `serve` command"), std::string::npos) << o.err;
  o = call(program(), {"run", "--variant", "after", "--fixture", "x", "--explode"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("prog: disk on fire"), std::string::npos) << o.err;
}

TEST(ScenarioMain, SeedPrintsItsFigures) {
  const auto o = call(program(), {"seed", "--target", "/nowhere"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(last_line(o.out).at("rows"), 3);
}

TEST(ScenarioMain, LoadRunsOnePhaseAgainstATarget) {
  auto p = program().load([](const perfgate::Invocation& inv) {
    perfgate::Report r;
    r.digest(inv.flag("phase") + "@" + inv.target).metric("selects", 2, "count");
    return r;
  });
  auto o = call(p, {"load", "--phase", "serial", "--variant", "after", "--target", "127.0.0.1:143"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(last_line(o.out).at("digest"), "serial@127.0.0.1:143");
  o = call(p, {"load", "--phase", "serial", "--variant", "after"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("load needs --target"), std::string::npos) << o.err;
  o = call(program(), {"load", "--phase", "serial", "--variant", "after", "--target", "127.0.0.1:1"});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("no `load` command"), std::string::npos) << o.err;
}
