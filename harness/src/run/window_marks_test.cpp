// Window marks on a real program (tests/tools/window_marker): perfgate's reading of a marked
// part holds the part and no more than a little of what is around it.
#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "run/child.hpp"
#include "run/child_test_run.hpp"
#include "run/metric_specs.hpp"
#include "run/sample.hpp"

using namespace perfgate;
using namespace perfgate::run;

namespace {
ChildResult run_marker(const std::vector<std::string>& args, const TempDir& dir) {
  std::vector<std::string> argv = {WINDOW_MARKER};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_in(dir, argv);
}
}  // namespace

TEST(WindowMarks, ReadsThePartThatWasMarked) {
  TempDir d("perfgate-test-");
  // 60 ms of CPU before, 100 ms asleep and 60 ms of CPU inside, 60 ms of CPU after.
  const auto r = run_marker({"ok", "60", "100"}, d);
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_EQ(r.windows.count("work"), 1u);
  const auto& w = r.windows.at("work");
  EXPECT_EQ(w.opened, 1);
  EXPECT_GE(w.wall_ms, 160);
  EXPECT_LT(w.wall_ms, r.wall_ms - 100);  // the spins around it (60 ms of CPU each) are not in it
  Sample s;
  add_outside_metrics(s, r);
  ASSERT_TRUE(s.metrics.count("work_window_wall_ms"));
  EXPECT_EQ(s.metrics.at("work_window_wall_ms").value, w.wall_ms);
  if (w.cpu_ms) {
    EXPECT_GE(*w.cpu_ms, 40);  // the spin inside, less what the cgroup had not booked yet at the mark
    EXPECT_LT(*w.cpu_ms, s.metrics.at("cpu_ms").value);  // not the ones outside
    EXPECT_TRUE(s.metrics.count("work_window_cpu_ms"));
  }
}

TEST(WindowMarks, WithoutMarksNoWindow) {
  TempDir d("perfgate-test-");
  EXPECT_TRUE(run_in(d, {"/bin/true"}).windows.empty());
}

TEST(WindowMarks, UnbalancedMarksAreAnError) {
  TempDir d("perfgate-test-");
  EXPECT_THROW(run_marker({"unclosed"}, d), RunError);
  EXPECT_THROW(run_marker({"twice"}, d), RunError);
}

TEST(WindowMarks, AProgramMayNotReportWhatPerfgateMeasured) {
  Sample s;
  s.metrics["work_window_wall_ms"] = measured("work_window_wall_ms", 12, "window-marks: monotonic-clock");
  EXPECT_THROW(parse_program_report(s, R"({"digest": "", "metrics": {"work_window_wall_ms": {"value": 1}}})", "prog"),
               RunError);
}
