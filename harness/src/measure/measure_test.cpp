// Measurement from outside, checked on real child processes (no figures asserted that depend
// on the machine's speed).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "measure/cgroup.hpp"
#include "measure/host.hpp"
#include "measure/proc_io.hpp"
#include "measure/proc_stat.hpp"

using namespace perfgate::measure;

TEST(Cgroup, LayoutIsConsistent) {
  const auto& l = cgroup_layout();
  EXPECT_TRUE(l.layout == "v2" || l.layout == "hybrid" || l.layout == "v1" || l.layout == "none");
  // A source is only claimed when the hierarchy behind it is usable.
  if (l.cpu_source == "cgroup-v2") {
    EXPECT_TRUE(l.v2_parent.has_value());
  }
  if (l.cpu_source == "cgroup-v1-cpuacct") {
    EXPECT_TRUE(l.cpuacct_parent.has_value());
  }
  if (l.cpu_source == "rusage") {
    EXPECT_FALSE(l.note.empty()) << "a fallback must say why";
  }
}

TEST(Cgroup, SampleCgroupIsCreatedAndRemoved) {
  std::vector<std::string> files;
  {
    SampleCgroup cg("unit-test");
    files = cg.procs_files();
    for (const auto& f : files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
    if (cg.has_cpu()) {
      auto cpu = cg.cpu();
      ASSERT_TRUE(cpu.has_value());
      EXPECT_EQ(cpu->usage_usec, 0u) << "a fresh cgroup has used no CPU";
    }
    EXPECT_TRUE(cg.pids().empty());
  }
  for (const auto& f : files) EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(f).parent_path())) << f;
}

TEST(ProcIo, CountsOurOwnReads) {
  auto before = read_proc_io(::getpid());
  ASSERT_TRUE(before.has_value());
  char buf[16];
  for (int i = 0; i < 50; ++i) {
    std::FILE* f = std::fopen("/proc/self/stat", "r");
    ASSERT_NE(f, nullptr);
    setvbuf(f, nullptr, _IONBF, 0);
    (void)!std::fread(buf, 1, sizeof buf, f);
    std::fclose(f);
  }
  auto after = read_proc_io(::getpid());
  ASSERT_TRUE(after.has_value());
  EXPECT_GE(after->syscr - before->syscr, 50u);
}

TEST(Host, FingerprintIsStableAndLoadIsRead) {
  auto a = host_info(), b = host_info();
  EXPECT_EQ(a.fingerprint, b.fingerprint);
  EXPECT_EQ(a.fingerprint.size(), 16u);
  EXPECT_GT(a.cores, 0);
  EXPECT_FALSE(a.allowed_cpus.empty());
  auto l = load_average();
  for (double v : l) EXPECT_GE(v, 0.0);
  auto j = to_json(a);
  EXPECT_TRUE(j["cgroup"].contains("cpu_source"));
}

// Two VMs both named "AMD EPYC" by their hypervisor can be different generations.
TEST(Host, CpuModelCarriesTheCpuidFamilyAndModel) {
  EXPECT_EQ(cpu_model_of("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
                         "model name\t: AMD EPYC\nstepping\t: 1\n"),
            "AMD EPYC (family 25 model 17)");
  EXPECT_EQ(cpu_model_of("processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\n"),
            "Intel(R) Xeon(R) Processor");  // a kernel that shows no family (another architecture)
  EXPECT_EQ(cpu_model_of(""), "unknown");
}

namespace {
std::string fixture(const std::string& name) {
  std::ifstream in(std::string(PERFGATE_MEASURE_TESTDATA) + "/" + name);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST(ProcStat, ParsesPerCpuIrqSoftirqAndStealColumns) {
  auto t = parse_proc_stat(fixture("proc_stat_before.txt"));
  ASSERT_EQ(t.size(), 2u);  // the aggregate "cpu" line is not a CPU
  EXPECT_EQ(t[0].irq, 0u);
  EXPECT_EQ(t[0].softirq, 100u);
  EXPECT_EQ(t[0].steal, 700u);
  EXPECT_EQ(t[1].steal, 820u);
  // An old kernel's line without the steal column reads it as 0.
  auto old = parse_proc_stat("cpu3 1 2 3 4 5 6 7\n");
  EXPECT_EQ(old[3].softirq, 7u);
  EXPECT_EQ(old[3].steal, 0u);
}

TEST(ProcStat, LossIsPerCpuOfTheSampleAveraged) {
  auto before = parse_proc_stat(fixture("proc_stat_before.txt"));
  auto after = parse_proc_stat(fixture("proc_stat_after.txt"));
  // cpu1: steal 820 → 827 = 7 ticks, irq 0 → 2 and softirq 110 → 113 = 5 ticks; 100 ticks/s.
  auto one = cpu_loss(before, after, {1}, 100);
  EXPECT_DOUBLE_EQ(one.steal_ms, 70.0);
  EXPECT_DOUBLE_EQ(one.irq_ms, 50.0);
  // Both CPUs: (1 + 7) / 2 ticks of steal, (0 + 5) / 2 of interrupts.
  auto both = cpu_loss(before, after, {}, 100);
  EXPECT_DOUBLE_EQ(both.steal_ms, 40.0);
  EXPECT_DOUBLE_EQ(both.irq_ms, 25.0);
  // A CPU the tables do not have counts for nothing.
  EXPECT_DOUBLE_EQ(cpu_loss(before, after, {7}, 100).steal_ms, 0.0);
}

TEST(ProcStat, ThisMachineHasItsCpusInProcStat) {
  auto now = read_proc_stat();
  EXPECT_FALSE(now.empty());
  EXPECT_TRUE(now.count(0));
}
