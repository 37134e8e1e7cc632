// One command at a time per out folder. Two commands writing the same folder (a CI job's run and
// an `ab` beside it) each rewrite results.json after every scenario, so the last one silently
// replaces the other's results. The first takes an exclusive flock(2) on `.perfgate-lock` inside
// the folder and writes its pid and command line there; a second does not wait (a queue is
// --lock's job, for the perf VM) but fails at once naming the folder and the holder. The
// kernel releases the lock when the holder exits, however it exits.
#pragma once

#include <filesystem>
#include <string>

namespace perfgate {

class OutFolderLock {
 public:
  // Creates the folder. Throws UsageError (exit 2) when another process holds it, RunError when
  // the lock file cannot be opened.
  OutFolderLock(const std::filesystem::path& folder, const std::string& holder);
  ~OutFolderLock();
  OutFolderLock(const OutFolderLock&) = delete;
  OutFolderLock& operator=(const OutFolderLock&) = delete;

  static constexpr const char* kFile = ".perfgate-lock";

 private:
  int fd_ = -1;
};

}  // namespace perfgate
