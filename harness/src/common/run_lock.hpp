// The perf VM's lock: one batch measures at a time. An exclusive flock(2) on a file, waited for
// with a timeout; while waiting, perfgate says who holds it (the holder writes a line about
// itself into the file once it has the lock). Released on destruction, and by the kernel if the
// holder dies, so a crashed batch never blocks the queue.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

namespace perfgate {

class RunLock {
 public:
  // Throws RunError on timeout (naming the holder) or when the file cannot be opened,
  // Interrupted on SIGINT/SIGTERM while waiting.
  RunLock(const std::filesystem::path& file, double timeout_s, const std::string& holder, std::ostream& log);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  double waited_s() const { return waited_s_; }
  double acquired_unix() const { return acquired_unix_; }
  const std::string& waited_for() const { return waited_for_; }  // the holder seen while waiting, if any

 private:
  int fd_ = -1;
  double waited_s_ = 0, acquired_unix_ = 0;
  std::string waited_for_;
};

}  // namespace perfgate
