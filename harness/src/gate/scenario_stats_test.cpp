#include "gate/scenario_stats.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "run/metric_specs.hpp"

using namespace perfgate;

namespace {

std::vector<run::Sample> rounds(const std::string& metric, std::vector<double> before, std::vector<double> after) {
  std::vector<run::Sample> out;
  for (std::size_t i = 0; i < before.size(); ++i)
    for (auto [variant, v] : {std::pair{"before", before[i]}, std::pair{"after", after[i]}}) {
      run::Sample s;
      s.round = static_cast<int>(i);
      s.variant = variant;
      s.metrics[metric] = run::measured(metric, v, "test");
      out.push_back(s);
    }
  return out;
}

}  // namespace

TEST(DeclaredExact, ACountWithOneValuePerVariantStaysExact) {
  auto samples = rounds("syscalls", {1398, 1398, 1398}, {284, 284, 284});
  auto summaries = gate::summarize_samples(samples);
  auto comparisons = gate::compare_samples(samples, {{"after", "before", true}}, {"syscalls"}, 1);
  EXPECT_TRUE(gate::check_declared_exact(summaries, comparisons).empty());
  ASSERT_EQ(comparisons.size(), 1u);
  EXPECT_TRUE(comparisons[0].exact.value());
}

TEST(DeclaredExact, ADeclaredExactCountThatVariesIsABugAndLosesExactness) {
  auto samples = rounds("syscalls", {1398, 1399, 1398}, {284, 284, 284});
  auto summaries = gate::summarize_samples(samples);
  auto comparisons = gate::compare_samples(samples, {{"after", "before", true}}, {"syscalls"}, 1);
  auto notes = gate::check_declared_exact(summaries, comparisons);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("bug: syscalls of before is declared exact but took values from 1398 to 1399 over 3 rounds: "
                          "the count depends on timing"),
            std::string::npos)
      << notes[0];
  EXPECT_FALSE(comparisons[0].exact.value());
}

TEST(DeclaredExact, TimesAreNeverExact) {
  auto samples = rounds("cpu_ms", {10, 10, 10}, {5, 5, 5});
  auto comparisons = gate::compare_samples(samples, {{"after", "before", true}}, {"cpu_ms"}, 1);
  ASSERT_EQ(comparisons.size(), 1u);
  EXPECT_FALSE(comparisons[0].exact.value());
  EXPECT_FALSE(run::harness_metric("instructions")->exact);  // CPU-specific string functions
  EXPECT_TRUE(run::harness_metric("allocs")->exact);
}

TEST(CompareSamples, OnlyTheWantedMetricsKeepTheIntervalsOfTheFullAnalysis) {
  // Two metrics with zeros, so each interval is a seeded bootstrap: a look that asks for one
  // metric must get the interval the final analysis gives it, or a look would decide on
  // another interval than the one printed.
  std::vector<run::Sample> samples;
  for (int i = 0; i < 40; ++i)
    for (const char* variant : {"before", "after"}) {
      run::Sample s;
      s.round = i;
      s.variant = variant;
      // Spread values, a zero in round 0: intervals that differ with the bootstrap's seed.
      const double x = i == 0 ? 0.0 : std::fmod(i * 2.718281828 + (variant[0] == 'a' ? 1.414 : 0.0), 5.0);
      s.metrics["errors"] = run::measured("errors", x, "test");
      s.metrics["ctx_involuntary"] = run::measured("ctx_involuntary", x, "test");
      samples.push_back(s);
    }
  const auto all = gate::compare_samples(samples, {{"after", "before", true}}, {"errors"}, 7);
  const auto one =
      gate::compare_samples(samples, {{"after", "before", true}}, {"errors"}, 7, std::set<std::string>{"errors"});
  ASSERT_EQ(all.size(), 2u);
  ASSERT_EQ(one.size(), 1u);
  const auto& full = all[0].metric == "errors" ? all[0] : all[1];
  EXPECT_EQ(one[0].metric, "errors");
  EXPECT_FALSE(one[0].r.log_scale);
  EXPECT_EQ(one[0].r.ci.lo, full.r.ci.lo);
  EXPECT_EQ(one[0].r.ci.hi, full.r.ci.hi);
}
