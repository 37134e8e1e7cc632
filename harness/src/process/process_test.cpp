#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "process/capture.hpp"
#include "process/owner.hpp"
#include "process/reap.hpp"
#include "process/spawn.hpp"

using namespace perfgate::process;
using namespace std::chrono_literals;

namespace {

// A PID that certainly ran and is certainly gone: a child we started and reaped.
pid_t dead_pid() {
  SpawnSpec s;
  s.argv = {*find_program("true")};
  s.env = environment_with({});
  const pid_t pid = spawn(s).pid;
  int status = 0;
  waitpid(pid, &status, 0);
  return pid;
}

fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("process-test-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(Owner, ParsesTaggedAndUntaggedNames) {
  auto t = owner_of("perfgate-run-123-456789-Ab3xYz", "perfgate-run-");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->pid, 123);
  EXPECT_EQ(t->start.value(), 456789u);
  auto u = owner_of("perfgate-123-before-1", "perfgate-");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->pid, 123);
  EXPECT_FALSE(u->start);
  EXPECT_FALSE(owner_of("perfgate-probe-123", "perfgate-"));
  EXPECT_FALSE(owner_of("perfgate-run-123", "perfgate-run-"));  // no '-' after the pid
  EXPECT_FALSE(owner_of("other-123-4-x", "perfgate-"));
}

TEST(Owner, OurTagIsAliveAndAnotherStartTimeIsNot) {
  auto me = owner_of("perfgate-" + owner_tag() + "-x", "perfgate-");
  ASSERT_TRUE(me && me->start);
  EXPECT_FALSE(owner_gone(*me));
  Owner reused = *me;
  reused.start = *me->start + 1;  // our PID, another process's start: PID reuse
  EXPECT_TRUE(owner_gone(reused));
  EXPECT_TRUE(owner_gone(Owner{dead_pid(), std::nullopt}));
}

TEST(Capture, ReturnsStdoutOfAShortCommand) {
  auto out = capture_stdout({"sh", "-c", "echo hello; echo oops >&2"}, 10s);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "hello\n");
}

TEST(Capture, FailureExitAndMissingProgramAndTimeoutGiveNothing) {
  EXPECT_FALSE(capture_stdout({"sh", "-c", "echo partial; exit 3"}, 10s));
  EXPECT_FALSE(capture_stdout({"perfgate-no-such-program-xyz"}, 10s));
  // Closes stdout and keeps running: the deadline still ends it.
  EXPECT_FALSE(capture_stdout({"sh", "-c", "exec >&-; sleep 30"}, 200ms));
}

TEST(Spawn, NamesTheProgramAndStepWhenExecFails) {
  SpawnSpec s;
  s.argv = {"/nonexistent/perfgate-prog"};
  try {
    spawn(s);
    FAIL() << "no throw";
  } catch (const SpawnError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/perfgate-prog"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("execve"), std::string::npos) << e.what();
  }
}

namespace {
// What a spawned child wrote to its stdout (the file `out`), once it has exited.
std::string stdout_of(SpawnSpec s, const fs::path& out) {
  const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  s.stdout_fd = fd;
  const pid_t pid = spawn(s).pid;
  ::close(fd);
  int status = 0;
  waitpid(pid, &status, 0);
  std::ifstream in(out);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
}  // namespace

TEST(Spawn, SetsCwdEnvironmentAndOutput) {
  fs::path d = scratch("env");
  SpawnSpec s;
  s.argv = {*find_program("sh"), "-c", "echo \"$PERFGATE_X $(pwd)\""};
  s.env = environment_with({{"PERFGATE_X", "value"}});
  s.cwd = d;
  EXPECT_EQ(stdout_of(s, d / "out"), "value " + fs::canonical(d).string() + "\n");
  fs::remove_all(d);
}

// A benchmark binary runs at the same addresses every time: its stack (and everything else) is
// where the last run's was, so a run cannot draw a faster or slower placement than the other side.
TEST(Spawn, FixedAddressesGiveTheSameStackEveryRun) {
  fs::path d = scratch("fixed");
  auto stack_of = [&](bool fixed) {
    SpawnSpec s;
    s.argv = {*find_program("grep"), "-e", "stack", "-e", "^", "/proc/self/personality", "/proc/self/maps"};
    s.fixed_addresses = fixed;
    std::istringstream in(stdout_of(s, d / "maps"));
    std::string line, persona, stack;
    while (std::getline(in, line)) {
      if (line.rfind("/proc/self/personality:", 0) == 0) persona = line.substr(line.find(':') + 1);
      if (line.find("[stack]") != std::string::npos) stack = line.substr(0, line.find(' '));
    }
    EXPECT_FALSE(stack.empty());
    return std::make_pair(std::stoul(persona, nullptr, 16), stack);
  };
  const auto a = stack_of(true), b = stack_of(true);
  EXPECT_NE(a.first & ADDR_NO_RANDOMIZE, 0u);
  EXPECT_EQ(a.second, b.second);
  EXPECT_EQ(stack_of(false).first & ADDR_NO_RANDOMIZE, 0u);
  fs::remove_all(d);
}

// A child given a nice value runs at it where we may raise priority; elsewhere at ours.
TEST(Spawn, NiceValueWhereAllowed) {
  fs::path d = scratch("nice");
  SpawnSpec s;
  s.argv = {*find_program("cat"), "/proc/self/stat"};
  s.nice = -7;
  const std::string stat = stdout_of(s, d / "stat");
  // Fields after the command's closing parenthesis: state is field 3, nice field 19.
  std::istringstream rest(stat.substr(stat.rfind(')') + 2));
  std::string field;
  for (int i = 3; i <= 19; ++i) rest >> field;
  EXPECT_EQ(std::stoi(field), may_raise_priority() ? -7 : ::getpriority(PRIO_PROCESS, 0));
  fs::remove_all(d);
}

// A relative program path means relative to where we are, not to the child's new cwd.
TEST(Spawn, RelativeProgramPathIsOursNotTheChilds) {
  fs::path d = scratch("relative");
  fs::path here = fs::current_path();
  fs::current_path("/");
  SpawnSpec s;
  s.argv = {"bin/sh", "-c", "exit 0"};  // /bin/sh, named from "/"
  s.cwd = d;
  const pid_t pid = spawn(s).pid;
  int status = 0;
  waitpid(pid, &status, 0);
  fs::current_path(here);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  fs::remove_all(d);
}

TEST(Reap, RemovesDirectoriesOfDeadOwnersOnly) {
  fs::path base = scratch("reap");
  const std::string dead = std::to_string(dead_pid());
  fs::create_directories(base / ("perfgate-run-" + dead + "-1-abc") / "inside");
  fs::create_directories(base / ("perfgate-run-" + owner_tag() + "-def"));
  fs::create_directories(base / ("unrelated-" + dead + "-1-x"));
  Reaped r = reap_dead_owners({}, base, {"perfgate-run-"});
  ASSERT_EQ(r.dirs.size(), 1u);
  EXPECT_EQ(r.dirs[0].filename(), "perfgate-run-" + dead + "-1-abc");
  EXPECT_TRUE(fs::exists(base / ("perfgate-run-" + owner_tag() + "-def")));
  EXPECT_TRUE(fs::exists(base / ("unrelated-" + dead + "-1-x")));
  EXPECT_NE(describe(r).find("1 temporary directory"), std::string::npos) << describe(r);
  fs::remove_all(base);
}
