// Contention warnings (run/contention.hpp): each sign on its own, and none on a quiet machine or
// where a figure is too short to say anything.
#include "run/contention.hpp"

#include <gtest/gtest.h>

using namespace perfgate::run;

namespace {
Sample sample(const std::string& variant, double wall, double irq, double wait) {
  Sample s;
  s.variant = variant;
  s.metrics["wall_ms"] = {wall, "ms", perfgate::Better::Lower, "test"};
  s.metrics["cpu_wait_ms"] = {wait, "ms", perfgate::Better::Lower, "test"};
  s.irq_ms = irq;
  return s;
}
Sample bench(const std::string& variant, double real, double cpu) {
  Sample s;
  s.variant = variant;
  s.metrics["BM_A:real_time"] = {real, "ns", perfgate::Better::Lower, "gbench"};
  s.metrics["BM_A:cpu_time"] = {cpu, "ns", perfgate::Better::Lower, "gbench"};
  s.metrics["BM_R:real_time"] = {9 * real, "ns", perfgate::Better::Lower, "gbench"};
  s.metrics["BM_R:cpu_time"] = {cpu, "ns", perfgate::Better::Lower, "gbench"};
  return s;
}
}  // namespace

TEST(Contention, AQuietMachineSaysNothing) {
  EXPECT_TRUE(
      contention_warnings({sample("before", 400, 0, 10), sample("after", 400, 10, 20)}, {"before", "after"}).empty());
}

TEST(Contention, InterruptsAndWaitingEachSaySo) {
  const auto w =
      contention_warnings({sample("after", 400, 60, 10), sample("after", 400, 50, 200)}, {"before", "after"});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("after: interrupts took 14% of its wall time; it waited for a CPU 26% of its wall time "
                       "(median of 2 samples): its CPU was shared",
                       0),
            0u)
      << w[0];
}

TEST(Contention, ShortSamplesSayNothing) {
  // A 16 ms command's one tick of interrupts and its start's wait are no sign of a shared CPU.
  EXPECT_TRUE(contention_warnings({sample("after", 16, 10, 18)}, {"after"}).empty());
}

TEST(Contention, BenchmarksThatRanLongerThanTheirCpuTimeSaySo) {
  // BM_R is measured by real time: left out, it would hide nothing and add a false 9x.
  EXPECT_TRUE(contention_warnings({bench("before", 105, 100)}, {"before"}, {"BM_R"}).empty());
  const auto w = contention_warnings({bench("before", 2500, 100), bench("before", 3600, 100)}, {"before"}, {"BM_R"});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].rfind("before: its benchmarks took 30.5x their CPU time in real time (median of 2 samples)", 0), 0u)
      << w[0];
}
