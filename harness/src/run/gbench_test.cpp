// Reading Google Benchmark's JSON: one sample's figures per benchmark, the gbench kind's pairs
// (one gated metric per pair, never a sum), and what a failed benchmark means.
#include <gtest/gtest.h>

#include "catalog/gbench_names.hpp"
#include "common/errors.hpp"
#include "run/gbench_runner.hpp"
#include "run/gbench_sample.hpp"

using namespace perfgate;
using json = nlohmann::json;

namespace {

json entry(const std::string& name, double cpu, const std::string& unit = "ns", int rep = 0) {
  return {{"name", name},
          {"run_name", name},
          {"run_type", "iteration"},
          {"repetitions", 2},
          {"repetition_index", rep},
          {"threads", 1},
          {"iterations", 100},
          {"real_time", cpu * 1.5},
          {"cpu_time", cpu},
          {"time_unit", unit},
          {"items_per_second", 1e6 / cpu}};
}

}  // namespace

TEST(GbenchNames, TimeMetricAndPairs) {
  EXPECT_EQ(catalog::gbench_time_metric("BM_A"), "cpu_time");
  EXPECT_EQ(catalog::gbench_time_metric("BM_A/8/real_time"), "real_time");
  EXPECT_EQ(catalog::gbench_time_metric("BM_A/manual_time/threads:2"), "real_time");
  EXPECT_EQ(catalog::gbench_time_metric("BM_real_time/8"), "cpu_time");
  EXPECT_EQ(catalog::split_gbench_pair_name("BM_Sum/before/repeats:10").first, "BM_Sum");
  EXPECT_EQ(catalog::split_gbench_pair_name("BM_Sum/after/real_time").second, "after");
  EXPECT_EQ(catalog::split_gbench_pair_name("BM_Sum/8").first, "");
  EXPECT_EQ(catalog::gbench_gated_metric("BM_A/repeats:3"), "BM_A/repeats:3:cpu_time");
  EXPECT_EQ(catalog::gbench_benchmark_of("BM_A/repeats:3:cpu_time"), "BM_A/repeats:3");
  EXPECT_EQ(catalog::gbench_benchmark_of("BM_A:items_per_second"), "BM_A");
  EXPECT_NE(catalog::gbench_benchmark_of("BM_AB:cpu_time"), catalog::gbench_benchmark_of("BM_A:cpu_time"));
}

TEST(GbenchFigures, TimesInNanosecondsCountersAndRepetitionsInOrder) {
  json doc = {{"benchmarks", {entry("BM_B", 2, "us"), entry("BM_A", 10), entry("BM_B", 3, "us", 1)}}};
  auto f = run::gbench_figures(doc);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].first, "BM_B");
  ASSERT_EQ(f[0].second.size(), 2u);
  EXPECT_DOUBLE_EQ(f[0].second[1].cpu_ns, 3000);
  EXPECT_DOUBLE_EQ(f[1].second[0].real_ns, 15);
  EXPECT_DOUBLE_EQ(f[1].second[0].counters.at("items_per_second"), 1e5);
  EXPECT_EQ(f[1].second[0].counters.count("iterations"), 0u);
}

TEST(GbenchFigures, AggregatesOnlyGiveTheMedian) {
  json median = entry("BM_A", 7);
  median["name"] = "BM_A_median";
  median["run_type"] = "aggregate";
  median["aggregate_name"] = "median";
  median["aggregate_unit"] = "time";
  json mean = median;
  mean["aggregate_name"] = "mean";
  mean["cpu_time"] = 9;
  auto f = run::gbench_figures({{"benchmarks", {mean, median}}});
  ASSERT_EQ(f.size(), 1u);
  ASSERT_EQ(f[0].second.size(), 1u);
  EXPECT_DOUBLE_EQ(f[0].second[0].cpu_ns, 7);
}

TEST(GbenchFigures, AFailedBenchmarkIsARunError) {
  json bad = entry("BM_A", 1);
  bad["error_occurred"] = true;
  bad["error_message"] = "no input";
  try {
    run::gbench_figures({{"benchmarks", {bad}}});
    FAIL();
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("BM_A failed: no input"), std::string::npos);
  }
}

TEST(GbenchKind, EachPairIsItsOwnGatedMetricNeverASum) {
  json doc = {{"benchmarks",
               {entry("BM_X/before", 10), entry("BM_X/after", 20), entry("BM_Y/before/real_time", 100),
                entry("BM_Y/after/real_time", 50), entry("BM_Z", 1)}}};
  auto g = run::pair_gbench_output(doc);
  EXPECT_EQ(g.gated, (std::vector<std::string>{"BM_X:cpu_time", "BM_Y:real_time"}));
  ASSERT_EQ(g.samples.size(), 2u);
  const auto& after = g.samples[1];
  EXPECT_EQ(after.variant, "after");
  EXPECT_DOUBLE_EQ(after.metrics.at("BM_X:cpu_time").value, 20);
  EXPECT_EQ(after.metrics.count("cpu_time"), 0u);  // no sum over the pairs
  EXPECT_EQ(after.metrics.at("BM_X:items_per_second").better, Better::Higher);
  EXPECT_EQ(after.metrics.at("BM_X:items_per_second").unit, "items/s");
  EXPECT_EQ(g.notes.size(), 1u);  // BM_Z is not a pair
}

TEST(GbenchBinary, RecognisedByItsLibrary) {
  EXPECT_FALSE(run::is_gbench_binary("/bin/sh"));
  EXPECT_FALSE(run::is_gbench_binary("/nonexistent"));
  EXPECT_TRUE(run::is_gbench_binary(GBENCH_BINARY));
  EXPECT_FALSE(run::is_gbench_binary("/proc/self/exe"));  // this test names libbenchmark's flags, links none
}
