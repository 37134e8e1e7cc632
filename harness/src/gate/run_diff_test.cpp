#include "gate/run_diff.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>

namespace model = perfgate::model;
namespace gate = perfgate::gate;
using perfgate::stats::Verdict;

namespace {

model::ResultsDoc results(const std::vector<double>& after_cpu, const std::string& host = "h") {
  model::ScenarioResult s;
  s.name = "s";
  s.profile = "quick";
  s.primary_metric = "cpu_ms";
  s.variant_names = {"before", "after"};
  for (std::size_t i = 0; i < after_cpu.size(); ++i)
    for (const std::string v : {"before", "after"}) {
      perfgate::run::Sample x;
      x.round = static_cast<int>(i) + 1;
      x.variant = v;
      x.metrics["cpu_ms"].value = v == "before" ? 10.0 + 0.01 * static_cast<double>(i) : after_cpu[i];
      s.samples.push_back(x);
    }
  s.summaries["after"]["cpu_ms"].unit = "ms";
  s.summaries["after"]["cpu_ms"].better = perfgate::Better::Lower;
  model::ResultsDoc d;
  d.run.commit = "c";
  d.host.fingerprint = host;
  d.scenarios = {s};
  return d;
}

// One scenario whose variants measured cpu_ms = base + a small per-round wobble, times `scale`
// (per variant): a machine that drifted is every variant scaled alike.
model::ScenarioResult scenario(const std::string& name, const std::map<std::string, double>& scale, int rounds = 10) {
  model::ScenarioResult s;
  s.name = name;
  s.profile = "quick";
  s.primary_metric = "cpu_ms";
  for (const auto& [v, _] : scale) s.variant_names.push_back(v);
  std::sort(s.variant_names.begin(), s.variant_names.end(), std::greater<>());  // before, after
  for (int i = 0; i < rounds; ++i)
    for (const auto& [v, factor] : scale) {
      perfgate::run::Sample x;
      x.round = i + 1;
      x.variant = v;
      const double base = v == "after" ? 5.0 : 10.0, wobble = 0.01 * ((i * 7) % 10) * (v == "after" ? 1.3 : 1.0);
      x.metrics["cpu_ms"].value = (base + wobble) * factor;
      s.samples.push_back(x);
    }
  return s;
}

model::ResultsDoc run_of(std::vector<model::ScenarioResult> scenarios) {
  model::ResultsDoc d;
  d.run.commit = "c";
  d.host.fingerprint = "h";
  d.outcome.status = model::RunStatus::Passed;
  d.scenarios = std::move(scenarios);
  return d;
}

const gate::DiffRow& row_of(const gate::RunDiff& d, const std::string& variant) {
  for (const auto& r : d.rows)
    if (r.variant == variant) return r;
  throw std::runtime_error("no row of " + variant);
}

}  // namespace

TEST(RunDiff, SlowerAfterIsWorseAndUnchangedBeforeIsTheSame) {
  std::vector<double> a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(5 + 0.01 * i);
    b.push_back(7 + 0.01 * i);
  }
  auto d = perfgate::gate::diff_runs(results(a), results(b), {});
  ASSERT_EQ(d.rows.size(), 2u);  // before and after, cpu_ms (wall_ms absent)
  for (const auto& r : d.rows) {
    if (r.variant == "after") {
      EXPECT_EQ(r.verdict, Verdict::Worse);
      EXPECT_NEAR(r.change, 1.4, 0.01);
      EXPECT_LT(r.p_adjusted, 0.05);
    } else {
      EXPECT_EQ(r.verdict, Verdict::Same);
    }
  }
  EXPECT_TRUE(d.same_host);
  ASSERT_EQ(d.gate.size(), 1u);  // the gate judges AFTER only
  EXPECT_EQ(d.rows[d.gate[0].row].variant, "after");
  EXPECT_EQ(d.gate[0].verdict, Verdict::Worse);
  EXPECT_EQ(d.regressions(), 1);
}

// Issue 23: the identical build a minute apart on a machine that slowed by 30% moves BEFORE and
// AFTER alike. Every raw row is "worse"; the gate, dividing AFTER's change by BEFORE's, passes.
TEST(RunDiff, DriftThatMovesBeforeAndAfterAlikeFailsNoGate) {
  const auto o = run_of({scenario("s", {{"before", 1.0}, {"after", 1.0}})});
  const auto n = run_of({scenario("s", {{"before", 1.3}, {"after", 1.3}})});
  const auto d = gate::diff_runs(o, n, {});
  EXPECT_EQ(row_of(d, "before").verdict, Verdict::Worse);
  EXPECT_EQ(row_of(d, "after").verdict, Verdict::Worse);
  ASSERT_EQ(d.gate.size(), 1u);
  const auto& g = d.gate[0];
  EXPECT_TRUE(g.drift_corrected);
  EXPECT_EQ(g.basis, "corrected by before");
  ASSERT_TRUE(g.reference.has_value());
  EXPECT_EQ(d.rows[*g.reference].variant, "before");
  EXPECT_NEAR(g.change, 1.0, 1e-9);
  EXPECT_LE(g.ci[0], 1.0);
  EXPECT_GE(g.ci[1], 1.0);
  EXPECT_EQ(g.verdict, Verdict::Same);
  EXPECT_EQ(d.regressions(), 0);
  EXPECT_EQ(gate::nothing_comparable(d, {}), "");
}

TEST(RunDiff, AfterSlowerThanBeforeMovedIsARegressionOfTheCorrectedChange) {
  const auto o = run_of({scenario("s", {{"before", 1.0}, {"after", 1.0}})});
  const auto n = run_of({scenario("s", {{"before", 1.1}, {"after", 1.5}})});
  const auto d = gate::diff_runs(o, n, {});
  ASSERT_EQ(d.gate.size(), 1u);
  const auto& g = d.gate[0];
  EXPECT_NEAR(row_of(d, "after").change, 1.5, 1e-9);
  EXPECT_NEAR(g.change, 1.5 / 1.1, 1e-9);  // AFTER's change over BEFORE's
  EXPECT_LT(g.ci[0], g.change);
  EXPECT_GT(g.ci[1], g.change);
  EXPECT_GT(g.ci[0], 1.02);
  EXPECT_LT(g.p_adjusted, 0.05);
  EXPECT_EQ(g.verdict, Verdict::Worse);
  EXPECT_EQ(d.regressions(), 1);
}

TEST(RunDiff, AfterFasterThanBeforeMovedIsBetterNotARegression) {
  const auto o = run_of({scenario("s", {{"before", 1.0}, {"after", 1.0}})});
  const auto n = run_of({scenario("s", {{"before", 1.2}, {"after", 0.9}})});
  const auto d = gate::diff_runs(o, n, {});
  ASSERT_EQ(d.gate.size(), 1u);
  EXPECT_EQ(d.gate[0].verdict, Verdict::Better);
  EXPECT_EQ(d.regressions(), 0);
}

// The gate's Holm family is its own rows: one gated row is corrected by one, whatever the table shows.
TEST(RunDiff, GateRowsAreHolmCorrectedAmongThemselves) {
  const auto o =
      run_of({scenario("a", {{"before", 1.0}, {"after", 1.0}}), scenario("b", {{"before", 1.0}, {"after", 1.0}})});
  const auto n =
      run_of({scenario("a", {{"before", 1.0}, {"after", 1.5}}), scenario("b", {{"before", 1.0}, {"after", 1.0}})});
  const auto d = gate::diff_runs(o, n, {});
  ASSERT_EQ(d.rows.size(), 4u);
  ASSERT_EQ(d.gate.size(), 2u);
  for (const auto& g : d.gate) {
    EXPECT_GE(g.p_adjusted, g.p);
    EXPECT_LE(g.p_adjusted, std::min(1.0, 2 * g.p) + 1e-12);
  }
  EXPECT_EQ(d.regressions(), 1);
}

TEST(RunDiff, GatedVariantsAreAfterOrTheOnlyOneOrTheNamedOnes) {
  model::ScenarioResult two, one, three;
  two.variant_names = {"before", "after"};
  one.variant_names = {"solo"};
  three.variant_names = {"before", "after_4k", "after_64k"};
  EXPECT_EQ(gate::gated_variants(two, {}), std::vector<std::string>{"after"});
  EXPECT_EQ(gate::gated_variants(one, {}), std::vector<std::string>{"solo"});
  EXPECT_TRUE(gate::gated_variants(three, {}).empty());
  EXPECT_EQ(gate::gated_variants(three, {"after_64k", "nope"}), std::vector<std::string>{"after_64k"});
  EXPECT_EQ(gate::gated_variants(two, {"before"}), std::vector<std::string>{"before"});
}

TEST(RunDiff, DriftReferenceIsCompareToElseBefore) {
  model::ScenarioResult s;
  s.variant_names = {"before", "after", "base_4k", "after_4k"};
  EXPECT_EQ(gate::drift_reference(s, "after"), "before");  // no variant details: BEFORE
  EXPECT_FALSE(gate::drift_reference(s, "before").has_value());
  s.variants = {{"before", "", std::nullopt, nullptr, true, "digest", ""},
                {"after", "", "before", nullptr, true, "digest", ""},
                {"base_4k", "", std::nullopt, nullptr, false, "digest", ""},
                {"after_4k", "", "base_4k", nullptr, false, "digest", ""}};
  EXPECT_EQ(gate::drift_reference(s, "after_4k"), "base_4k");
  EXPECT_FALSE(gate::drift_reference(s, "base_4k").has_value());
}

// A single-variant run has no BEFORE to divide by: its only variant is judged on its own change.
TEST(RunDiff, SingleVariantScenarioIsGatedRaw) {
  const auto o = run_of({scenario("s", {{"solo", 1.0}})});
  const auto n = run_of({scenario("s", {{"solo", 1.5}})});
  const auto d = gate::diff_runs(o, n, {});
  ASSERT_EQ(d.gate.size(), 1u);
  EXPECT_FALSE(d.gate[0].drift_corrected);
  EXPECT_FALSE(d.gate[0].reference.has_value());
  EXPECT_NEAR(d.gate[0].change, 1.5, 1e-9);
  EXPECT_EQ(d.gate[0].verdict, Verdict::Worse);
}

// Gating BEFORE itself is asking for the old behaviour: drift then fails the gate.
TEST(RunDiff, GatingBeforeItselfJudgesItRaw) {
  const auto o = run_of({scenario("s", {{"before", 1.0}, {"after", 1.0}})});
  const auto n = run_of({scenario("s", {{"before", 1.3}, {"after", 1.3}})});
  gate::DiffOptions opt;
  opt.gate_variants = {"before"};
  const auto d = gate::diff_runs(o, n, opt);
  ASSERT_EQ(d.gate.size(), 1u);
  EXPECT_EQ(d.rows[d.gate[0].row].variant, "before");
  EXPECT_FALSE(d.gate[0].drift_corrected);
  EXPECT_EQ(d.gate[0].verdict, Verdict::Worse);
}

// A count of 0 has no per-round ratio: the row is judged on its own change, and says why.
TEST(RunDiff, ZeroValuesAreJudgedRaw) {
  auto o = run_of({scenario("s", {{"before", 1.0}, {"after", 1.0}})});
  for (auto& x : o.scenarios[0].samples)
    if (x.variant == "before") x.metrics["cpu_ms"].value = 0;
  const auto d = gate::diff_runs(o, o, {});
  ASSERT_EQ(d.gate.size(), 1u);
  EXPECT_FALSE(d.gate[0].drift_corrected);
  EXPECT_EQ(d.gate[0].basis, "a value is 0, no ratio per round");
  EXPECT_EQ(d.gate[0].verdict, Verdict::Same);
}

TEST(RunDiff, NothingComparableSaysWhy) {
  const auto a = run_of({scenario("a", {{"before", 1.0}, {"after", 1.0}})});
  const auto b = run_of({scenario("b", {{"before", 1.0}, {"after", 1.0}})});
  EXPECT_EQ(gate::nothing_comparable(gate::diff_runs(a, b, {}), {}), "no scenario (and profile) is in both runs");
  auto empty = a;
  empty.scenarios[0].samples.clear();
  EXPECT_NE(gate::nothing_comparable(gate::diff_runs(a, empty, {}), {}).find("measured at least twice"),
            std::string::npos);
  gate::DiffOptions opt;
  opt.gate_variants = {"nope"};
  EXPECT_EQ(gate::nothing_comparable(gate::diff_runs(a, a, opt), opt),
            "no row of --gate-variant nope was measured by both runs");
  EXPECT_EQ(gate::nothing_comparable(gate::diff_runs(a, a, {}), {}), "");
}

TEST(RunDiff, JsonCarriesTheGateAndBothOutcomes) {
  auto o = run_of({scenario("s", {{"before", 1.0}, {"after", 1.0}})});
  auto n = run_of({scenario("s", {{"before", 1.1}, {"after", 1.5}})});
  n.outcome = {4, model::RunStatus::Error, "x could not run", {}};
  const auto j = gate::to_json(gate::diff_runs(o, n, {}));
  EXPECT_EQ(j["new_outcome"]["status"], "error");
  EXPECT_EQ(j["new_outcome"]["exit_code"], 4);
  EXPECT_EQ(j["old_outcome"]["status"], "passed");
  ASSERT_EQ(j["gate"]["rows"].size(), 1u);
  EXPECT_EQ(j["gate"]["rows"][0]["drift_corrected"], true);
  EXPECT_EQ(j["gate"]["regressions"], 1);
}
