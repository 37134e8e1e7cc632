// Errors carry the exit code of DESIGN.md's table; they are caught once, at the CLI boundary.
#pragma once

#include <stdexcept>
#include <string>

namespace perfgate {

enum ExitCode : int {
  kExitOk = 0,
  kExitPerformance = 1,    // a performance gate failed (AFTER lost, a claim missed, a baseline regression)
  kExitUsage = 2,          // bad usage or bad input (unknown scenario, malformed manifest, bad flag)
  kExitEquivalence = 3,    // BEFORE and AFTER did not do the same work
  kExitRun = 4,            // the run could not be made (crash, timeout, PostgreSQL would not start)
  kExitCannotTell = 5,     // a gated comparison could not tell (rounds or time ran out); --cannot-tell
  kExitInterrupted = 130,  // SIGINT/SIGTERM: results hold what completed (128 + SIGINT, as shells report)
};

// The more severe of two exit codes, for a run of many scenarios or a merge of many shards:
// unequal work (3) makes any timing meaningless, so it outranks everything; a run that could not
// be made (4) outranks a verdict about the runs that could (1); then interrupted, then a
// comparison that could not tell (5), then usage.
inline int worse_exit_code(int a, int b) {
  auto rank = [](int c) {
    return c == kExitEquivalence   ? 6
           : c == kExitRun         ? 5
           : c == kExitPerformance ? 4
           : c == kExitInterrupted ? 3
           : c == kExitCannotTell  ? 2
           : c                     ? 1
                                   : 0;
  };
  return rank(b) > rank(a) ? b : a;
}

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// Bad usage or bad input: exit 2.
struct UsageError : Error {
  explicit UsageError(const std::string& m) : Error(kExitUsage, m) {}
};
// The run could not be made: exit 4.
struct RunError : Error {
  explicit RunError(const std::string& m) : Error(kExitRun, m) {}
};
// SIGINT or SIGTERM arrived.
struct Interrupted : Error {
  Interrupted() : Error(kExitInterrupted, "interrupted") {}
};

}  // namespace perfgate
