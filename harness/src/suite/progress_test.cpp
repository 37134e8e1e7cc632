// A log with no terminal hears from a long command: a line per finished scenario or step, the
// GitHub Actions groups, and a heartbeat when nothing was written for the heartbeat's interval.
#include "suite/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>

#include "common/files.hpp"
#include "model/results_model.hpp"

namespace perfgate::suite {
namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  char buf[512];
  while (const std::size_t n = std::fread(buf, 1, sizeof buf, f)) text.append(buf, n);
  return text;
}

model::ScenarioResult finished_scenario() {
  model::ScenarioResult s;
  s.name = "blob_stampede_with_a_long_name";
  s.stop = model::Stop{run::StopKind::MaxRounds, "max rounds (12)", 12, {}};
  return s;
}

TEST(ProgressLog, SaysEachFinishedScenarioInsideItsGroup) {
  std::FILE* f = std::tmpfile();
  {
    Progress p(Progress::Mode::Log, f, std::chrono::hours(1), true);
    const auto sink = p.sink();
    sink.scenario_started("blob_stampede_with_a_long_name");
    sink.note("a note of the scenario");
    sink.scenario_finished(finished_scenario(), 2.5);
    sink.step_finished("bisect step abc1234 subject: slower, 3.0 s");
  }
  EXPECT_EQ(contents(f),
            "::group::blob_stampede_with_a_long_name\n"
            "perfgate: running blob_stampede_with_a_long_name\n"
            "perfgate: a note of the scenario\n"
            "::endgroup::\n"
            "perfgate: done blob_stampede_with_a_long_name: 12 rounds (max rounds (12)), 2.5 s\n"
            "perfgate: done bisect step abc1234 subject: slower, 3.0 s\n");
  std::fclose(f);
}

TEST(ProgressLog, NoGroupsOffGitHubAndNothingWhenQuiet) {
  std::FILE* f = std::tmpfile();
  {
    Progress p(Progress::Mode::Log, f, std::chrono::hours(1), false);
    p.sink().scenario_started("x");
  }
  EXPECT_EQ(contents(f), "perfgate: running x\n");  // at once: a run shorter than a heartbeat says what it does
  {
    Progress q(Progress::Mode::Quiet, f, std::chrono::milliseconds(1), true);
    const auto sink = q.sink();
    sink.scenario_started("x");
    sink.update("round 1 of 3");
    sink.scenario_finished(finished_scenario(), 1);
  }
  EXPECT_EQ(contents(f), "perfgate: running x\n");  // quiet added nothing
  std::fclose(f);
}

TEST(ProgressLog, BeatsWithTheLatestStatusWhenSilent) {
  // Read through a handle of its own: the heartbeat writes from its thread meanwhile.
  const TempDir dir("progress-test-");
  const auto path = dir.path() / "log";
  std::FILE* f = std::fopen(path.c_str(), "w");
  std::string text;
  {
    Progress p(Progress::Mode::Log, f, std::chrono::milliseconds(20), false);
    p.update("upload_spool: round 3 of 12");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (text.find("still running") == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      text = read_file(path);
    }
  }  // the heartbeat stops before its file closes
  std::fclose(f);
  EXPECT_NE(text.find("perfgate: still running (0 s): upload_spool: round 3 of 12\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace perfgate::suite
