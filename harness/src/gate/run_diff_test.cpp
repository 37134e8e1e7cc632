#include "gate/run_diff.hpp"

#include <gtest/gtest.h>

using nlohmann::json;

namespace {

json results(const std::vector<double>& after_cpu, const std::string& host = "h") {
  json samples = json::array();
  for (std::size_t i = 0; i < after_cpu.size(); ++i)
    for (const std::string v : {"before", "after"})
      samples.push_back({{"round", i + 1},
                         {"variant", v},
                         {"warmup", false},
                         {"metrics", {{"cpu_ms", {{"value", v == "before" ? 10.0 + 0.01 * i : after_cpu[i]}}}}}});
  json s = {{"name", "s"},
            {"profile", "quick"},
            {"primary_metric", "cpu_ms"},
            {"variants", {{{"name", "before"}}, {{"name", "after"}}}},
            {"samples", samples},
            {"summaries", {{"after", {{"cpu_ms", {{"unit", "ms"}, {"better", "lower"}}}}}}}};
  return {{"run", {{"git", {{"commit", "c"}}}}}, {"host", {{"fingerprint", host}}}, {"scenarios", {s}}};
}

}  // namespace

TEST(RunDiff, SlowerAfterIsWorseAndUnchangedBeforeIsTilde) {
  std::vector<double> a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(5 + 0.01 * i);
    b.push_back(7 + 0.01 * i);
  }
  auto d = perfgate::gate::diff_runs(results(a), results(b), {});
  ASSERT_EQ(d.rows.size(), 2u);  // before and after, cpu_ms (wall_ms absent)
  for (const auto& r : d.rows) {
    if (r.variant == "after") {
      EXPECT_EQ(r.verdict, "worse");
      EXPECT_NEAR(r.change, 1.4, 0.01);
      EXPECT_LT(r.p_adjusted, 0.05);
    } else {
      EXPECT_EQ(r.verdict, "~");
    }
  }
  EXPECT_TRUE(d.same_host);
}
