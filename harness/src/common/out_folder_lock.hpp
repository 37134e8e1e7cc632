// One command at a time per out folder. Two commands writing the same folder (a CI job's run and
// an `ab` beside it) each rewrite results.json after every scenario, so the last one silently
// replaces the other's results. The first takes the folder's `.perfgate-lock` (a RunLock, which
// writes its pid, host and command line there); a second does not wait (a queue is --lock's job,
// for the perf VM) but fails at once naming the folder and the holder. The kernel releases the
// lock when the holder exits, however it exits.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "common/run_lock.hpp"

namespace perfgate {

class OutFolderLock {
 public:
  // Creates the folder. Throws UsageError (exit 2) when another process holds it, RunError when
  // the lock file cannot be opened.
  OutFolderLock(const std::filesystem::path& folder, const std::string& holder);

  static constexpr const char* kFile = ".perfgate-lock";

 private:
  std::unique_ptr<RunLock> lock_;
};

}  // namespace perfgate
