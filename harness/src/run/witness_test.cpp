// Witness files: read by perfgate itself, never overriding what the sample already has.
#include "run/witness.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "run/metric_specs.hpp"

using namespace perfgate;
using namespace perfgate::run;

TEST(Witness, FilesBecomeMetricsNamingTheirSource) {
  TempDir d("perfgate-test-");
  const auto dir = witness_dir(d.path() / "work");
  std::ofstream(dir / "store.json")
      << R"({"metrics": {"requests_seen": {"value": 14, "unit": "count", "exact": true}}})";
  std::ofstream(dir / "notes.txt") << "not a witness file";
  Sample s;
  add_witness_metrics(s, dir, "t");
  ASSERT_EQ(s.metrics.count("requests_seen"), 1u);
  EXPECT_EQ(s.metrics["requests_seen"].value, 14);
  EXPECT_TRUE(s.metrics["requests_seen"].exact);
  EXPECT_EQ(s.metrics["requests_seen"].source, "witness:store.json");
  EXPECT_EQ(s.metrics.size(), 1u);
}

TEST(Witness, AWitnessMayNotNameWhatTheSampleHas) {
  TempDir d("perfgate-test-");
  const auto dir = witness_dir(d.path() / "work");
  std::ofstream(dir / "w.json") << R"({"metrics": {"wall_ms": {"value": 1}}})";
  Sample s;
  s.metrics["wall_ms"] = measured("wall_ms", 5, "monotonic-clock");
  EXPECT_THROW(add_witness_metrics(s, dir, "t"), RunError);
  std::ofstream(dir / "w.json") << "[1]";
  Sample t;
  EXPECT_THROW(add_witness_metrics(t, dir, "t"), RunError);
}
