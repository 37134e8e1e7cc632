#include "gate/run_diff.hpp"

#include <gtest/gtest.h>

namespace model = perfgate::model;

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
  s.summaries["after"]["cpu_ms"].better = "lower";
  model::ResultsDoc d;
  d.run.commit = "c";
  d.host.fingerprint = host;
  d.scenarios = {s};
  return d;
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
