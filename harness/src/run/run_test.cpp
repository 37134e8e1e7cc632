// The runner's pieces on real processes: splitting, ordering, pinning, cgroup placement,
// timeouts, syscall counts read before reaping.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "measure/host.hpp"
#include "process/owner.hpp"
#include "process/spawn.hpp"
#include "run/ab_sampling.hpp"
#include "run/child.hpp"
#include "run/child_test_run.hpp"
#include "run/output_mask.hpp"
#include "run/sample.hpp"
#include "run/schedule.hpp"

using namespace perfgate;
using namespace perfgate::run;

TEST(SplitCommand, SplitsLikeAShell) {
  EXPECT_EQ(split_command("a 'b c' \"d e\" f\\ g"), (std::vector<std::string>{"a", "b c", "d e", "f g"}));
  EXPECT_THROW(split_command("a | b"), UsageError);
  EXPECT_THROW(split_command("echo $(date)"), UsageError);
  EXPECT_THROW(split_command("echo 'open"), UsageError);
}

TEST(RoundOrder, SeededPermutations) {
  RoundOrder a(42), b(42), c(43);
  std::vector<std::string> v = {"before", "after", "x", "y"};
  bool differs = false;
  std::set<std::vector<std::string>> seen;
  for (int i = 0; i < 20; ++i) {
    auto oa = a.next(v), ob = b.next(v), oc = c.next(v);
    EXPECT_EQ(oa, ob);
    differs = differs || oa != oc;
    auto sorted = oa;
    std::sort(sorted.begin(), sorted.end());
    auto expect = v;
    std::sort(expect.begin(), expect.end());
    EXPECT_EQ(sorted, expect);
    seen.insert(oa);
  }
  EXPECT_TRUE(differs);
  EXPECT_GT(seen.size(), 3u) << "orders must vary from round to round";
}

// Seeded digest rounds: the same seed picks the same rounds; none of the first seven (a run of
// long commands deciding at its first look pays for the first and last only); at most one per
// eight rounds, and near an eighth of a long run.
TEST(DigestRound, AnEighthAtMostOnePerEightRounds) {
  int total = 0, runs = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed, ++runs) {
    int seeded = 0;
    for (int r = 2; r <= 160; ++r) {
      const bool d = digest_round(seed, r, seeded);
      EXPECT_EQ(d, digest_round(seed, r, seeded));
      if (r < 8) {
        EXPECT_FALSE(d) << "seed " << seed << " round " << r;
      }
      if (d) ++seeded;
      EXPECT_LE(seeded * 8, r) << "seed " << seed << " round " << r;
    }
    total += seeded;
  }
  const double share = static_cast<double>(total) / (runs * 159.0);
  EXPECT_GT(share, 0.08);
  EXPECT_LT(share, 0.126);
}

namespace {
ChildResult run_sh(const std::string& script, const TempDir& dir, std::vector<int> cpus = {}, double timeout = 30) {
  return run_in(dir, {"/bin/sh", "-c", script}, std::move(cpus), timeout);
}
}  // namespace

TEST(RunChild, ExitCodeAndOutput) {
  TempDir d("perfgate-test-");
  auto r = run_sh("echo hello; echo oops >&2; exit 7", d);
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(read_file(d.path() / "out"), "hello\n");
  EXPECT_EQ(read_file(d.path() / "err"), "oops\n");
  EXPECT_GT(r.wall_ms, 0);
}

TEST(RunChild, PinnedAndInItsOwnCgroupBeforeItRuns) {
  TempDir d("perfgate-test-");
  auto cpus = measure::allowed_cpus();
  const int cpu = cpus.back();
  auto r = run_sh("grep Cpus_allowed_list /proc/self/status; cat /proc/self/cgroup", d, {cpu});
  ASSERT_EQ(r.exit_code, 0);
  std::string out = read_file(d.path() / "out");
  EXPECT_NE(out.find("Cpus_allowed_list:\t" + std::to_string(cpu) + "\n"), std::string::npos) << out;
  if (measure::cgroup_layout().writable) {
    EXPECT_NE(out.find("perfgate-" + process::owner_tag() + "-run-test"), std::string::npos) << out;
  }
  // /proc/stat was read around it: the loss of its CPU is known (0 on a quiet host).
  ASSERT_TRUE(r.steal_ms.has_value());
  EXPECT_GE(*r.steal_ms, 0.0);
  EXPECT_GE(r.irq_ms.value(), 0.0);
}

// A run killed by SIGKILL leaves its sample cgroup with a process still in it; the next run's
// reaper kills that process and removes the cgroup, and leaves a live owner's cgroup alone.
TEST(ReapLeftovers, RemovesCgroupsOfDeadOwnersWithWhatRunsInThem) {
  const auto parents = measure::cgroup_parents();
  if (parents.empty()) GTEST_SKIP() << "no writable cgroup hierarchy here";
  // A PID that certainly ran and is gone: a child we started and reaped.
  TempDir d("perfgate-test-");
  measure::SampleCgroup mine("reap-live");
  run_sh("echo $$", d);
  const std::string dead_pid = read_file(d.path() / "out").substr(0, read_file(d.path() / "out").find('\n'));
  const fs::path orphan = parents.front() / ("perfgate-" + dead_pid + "-1-sample");
  ASSERT_EQ(::mkdir(orphan.c_str(), 0755), 0) << orphan;
  process::SpawnSpec s;
  s.argv = {"/bin/sleep", "60"};
  if (parents.front() == measure::cgroup_layout().v2_parent)
    s.v2_cgroup = orphan;
  else
    s.v1_cgroups = {orphan};
  const pid_t sleeper = process::spawn(s).pid;
  auto reaped = reap_leftovers();
  int status = 0;
  ASSERT_EQ(::waitpid(sleeper, &status, 0), sleeper);
  EXPECT_TRUE(WIFSIGNALED(status)) << "the process left in the dead run's cgroup is killed";
  EXPECT_FALSE(fs::exists(orphan));
  EXPECT_GE(reaped.cgroups.size(), 1u);
  EXPECT_TRUE(fs::exists(*(mine.v2_dir() ? mine.v2_dir() : std::optional<fs::path>(mine.v1_dirs().front()))));
}

TEST(RunChild, SyscallsAreReadBeforeReaping) {
  TempDir d("perfgate-test-");
  auto r = run_sh("dd if=/dev/zero of=/dev/null bs=512 count=300 2>/dev/null", d);
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_TRUE(r.io.has_value());
  EXPECT_GE(r.io->syscr, 300u);
  EXPECT_GE(r.io->syscw, 300u);
}

TEST(RunChild, CpuIsMeasured) {
  TempDir d("perfgate-test-");
  auto r = run_sh("i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", d);
  ASSERT_EQ(r.exit_code, 0);
  if (r.cgroup_cpu) {
    EXPECT_GT(r.cgroup_cpu->usage_usec, 0u);
  } else
    EXPECT_GT(r.usage.ru_utime.tv_sec * 1000000 + r.usage.ru_utime.tv_usec, 0);
}

// Wall time starts at the child's execve, by its own clock: with this thread on the one CPU
// the child spins on, we learn of the exec late, and a clock read on waking measured
// CPU-bound samples shorter than the CPU time they used (0.03 ms for 3.6 ms).
TEST(RunChild, WallIsNeverShorterThanTheCpuTimeOfAOneThreadProgram) {
  const auto cpus = measure::allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  cpu_set_t mine, one;
  ASSERT_EQ(::sched_getaffinity(0, sizeof mine, &mine), 0);
  CPU_ZERO(&one);
  CPU_SET(cpus.front(), &one);
  ASSERT_EQ(::sched_setaffinity(0, sizeof one, &one), 0);
  TempDir d("perfgate-test-");
  for (int i = 0; i < 8; ++i) {
    auto r = run_sh("i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done", d, {cpus.front()});
    ASSERT_EQ(r.exit_code, 0);
    const double cpu_ms = (r.usage.ru_utime.tv_sec + r.usage.ru_stime.tv_sec) * 1e3 +
                          (r.usage.ru_utime.tv_usec + r.usage.ru_stime.tv_usec) / 1e3;
    EXPECT_GE(r.wall_ms, 0.9 * cpu_ms) << "sample " << i;
  }
  ::sched_setaffinity(0, sizeof mine, &mine);
}

TEST(RunChild, TimeoutKillsTheWholeSample) {
  TempDir d("perfgate-test-");
  auto r = run_sh("sleep 30 & sleep 30; wait", d, {}, 0.5);
  EXPECT_TRUE(r.timed_out);
}

TEST(RunChild, MissingProgramIsAUsageError) {
  TempDir d("perfgate-test-");
  EXPECT_THROW(run_in(d, {"/nonexistent/program"}), UsageError);
}

TEST(RoundOrder, GatedPairIsAdjacent) {
  RoundOrder o(7);
  std::vector<std::string> v = {"before", "after", "a", "b", "c", "d"};
  for (int i = 0; i < 50; ++i) {
    auto r = o.next_adjacent(v, "before", "after");
    auto ia = std::find(r.begin(), r.end(), "before") - r.begin();
    auto ib = std::find(r.begin(), r.end(), "after") - r.begin();
    EXPECT_EQ(std::abs(ia - ib), 1);
    EXPECT_EQ(r.size(), v.size());
  }
}

// Service samples have no wall_ms (a window, not a process): their steal is summarised, but
// there is no wall variance to set it against.
TEST(StealSummary, SamplesWithoutWallAreCountedWithoutAVarianceShare) {
  std::vector<Sample> samples(3);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    samples[i].variant = "after";
    samples[i].steal_ms = 2.0 * static_cast<double>(i);
    samples[i].irq_ms = 1;
  }
  samples[2].steal_flagged = true;
  auto j = summarise_steal(samples, "after");
  EXPECT_EQ(j["samples"], 3);
  EXPECT_EQ(j["flagged_samples"], 1);
  EXPECT_DOUBLE_EQ(j["steal_ms_mean"].get<double>(), 2.0);
  EXPECT_FALSE(j.contains("wall_variance_explained_by_steal"));
}

// A span (a service window) reads this machine's /proc/stat at both ends: steal and irq are
// set, not negative, and no more than the span lasted on each of its CPUs.
TEST(StealSpan, RecordsWhatTheSpansCpusLost) {
  Sample s;
  const auto t0 = std::chrono::steady_clock::now();
  {
    const StealSpan span({0});
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    span.record(s);
  }
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(s.steal_ms.has_value());
  ASSERT_TRUE(s.irq_ms.has_value());
  EXPECT_GE(*s.steal_ms, 0);
  EXPECT_GE(*s.irq_ms, 0);
  // /proc/stat counts in ticks (10 ms): a tick may land on either side of the span.
  EXPECT_LE(*s.steal_ms + *s.irq_ms, wall_ms + 20);
}

// Steal per variant: wall samples that vary only by what the hypervisor took are fully
// explained by steal; warm-ups and other variants are left out; a sample over the share is flagged.
TEST(StealSummary, ExplainsWallVarianceAndCountsFlaggedSamples) {
  std::vector<Sample> samples;
  auto add = [&](const std::string& variant, double wall, double steal, bool warmup = false) {
    Sample s;
    s.variant = variant;
    s.warmup = warmup;
    s.metrics["wall_ms"] = {wall, "ms", Better::Lower, "monotonic-clock"};
    s.steal_ms = steal;
    s.irq_ms = 0;
    s.steal_flagged = steal > kStealFlagShare * wall;
    samples.push_back(s);
  };
  add("before", 50, 0);
  add("before", 60, 10);
  add("before", 50, 0);
  add("before", 70, 20);
  add("before", 500, 400, true);
  add("after", 50, 0);
  auto j = summarise_steal(samples, "before");
  EXPECT_EQ(j["samples"], 4);
  EXPECT_EQ(j["flagged_samples"], 2);
  EXPECT_DOUBLE_EQ(j["steal_ms_mean"].get<double>(), 7.5);
  EXPECT_DOUBLE_EQ(j["steal_ms_max"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["wall_variance_explained_by_steal"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(summarise_steal(samples, "after")["wall_variance_explained_by_steal"].get<double>(), 0.0);
  EXPECT_EQ(summarise_steal(samples, "absent")["samples"], 0);
}

// ab --mask: every match of each mask, in order, becomes "<masked N>", and is counted.
TEST(OutputMask, MatchesAreReplacedAndCounted) {
  const auto masks = perfgate::run::compile_masks({"took [0-9.]+ ms", "pid [0-9]+"});
  std::vector<long> counts;
  EXPECT_EQ(perfgate::run::mask_line("pid 42: took 1.5 ms, then took 20 ms", masks, counts),
            "<masked 2>: <masked 1>, then <masked 1>");
  EXPECT_EQ(counts, (std::vector<long>{2, 1}));
  EXPECT_EQ(perfgate::run::mask_line("sum 4950", masks, counts), "sum 4950");
  EXPECT_EQ(counts, (std::vector<long>{2, 1}));
  EXPECT_THROW(perfgate::run::compile_masks({"took [0-9"}), perfgate::UsageError);
  EXPECT_THROW(perfgate::run::compile_masks({""}), perfgate::UsageError);
}
