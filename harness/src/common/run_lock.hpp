// The perf VM's lock: one batch measures at a time. An exclusive flock(2) on a file, waited for
// with a timeout; while waiting, perfgate says who holds it (the holder writes a line about
// itself into the file once it has the lock). Released on destruction, and by the kernel if the
// holder dies, so a crashed batch never blocks the queue.
//
// The same flock also guards caches that several processes read and one at a time replaces (the
// PostgreSQL cluster image): shared or exclusive, waited for without a timeout or a word, the
// file left empty.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace perfgate {

class RunLock {
 public:
  enum class Sharing { kShared, kExclusive };

  // `waiting` hears, once a minute, who holds it and how long until the timeout. Throws RunError
  // on timeout (naming the holder) or when the file cannot be opened,
  // Interrupted on SIGINT/SIGTERM while waiting.
  RunLock(const std::filesystem::path& file, double timeout_s, const std::string& holder,
          const std::function<void(const std::string&)>& waiting);
  // Waits as long as it takes: a cache's holders keep it for the time of one copy, not a batch,
  // so there is no queue to report and no holder line (shared holders would overwrite each
  // other's). Throws RunError when the file cannot be opened or locked.
  RunLock(const std::filesystem::path& file, Sharing sharing);
  // Takes the lock at once or not at all, with a holder line like the waiting lock's: none when
  // another process holds it, whose line is then in *held_by (an out folder: a second command
  // fails at once rather than queue). Throws RunError when the file cannot be opened or locked.
  static std::unique_ptr<RunLock> try_exclusive(const std::filesystem::path& file, const std::string& holder,
                                                std::string* held_by);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

  double waited_s() const { return waited_s_; }
  double acquired_unix() const { return acquired_unix_; }
  const std::string& waited_for() const { return waited_for_; }  // the holder seen while waiting, if any

 private:
  explicit RunLock(int fd) : fd_(fd) {}
  void write_holder(const std::string& holder);

  int fd_ = -1;
  bool wrote_holder_ = false;
  double waited_s_ = 0, acquired_unix_ = 0;
  std::string waited_for_;
};

}  // namespace perfgate
