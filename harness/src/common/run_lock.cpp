#include "common/run_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "common/time_stamp.hpp"

namespace perfgate {
namespace {

std::string holder_of(int fd) {
  char buf[1024];
  ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string s = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s.empty() ? "an unknown process (the lock file says nothing)" : s;
}

int open_lock_file(const std::filesystem::path& file, mode_t mode) {
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, mode);
  if (fd < 0) throw RunError("cannot open the lock file " + file.string() + ": " + std::strerror(errno));
  return fd;
}

}  // namespace

RunLock::RunLock(const std::filesystem::path& file, double timeout_s, const std::string& holder,
                 const std::function<void(const std::string&)>& waiting) {
  fd_ = open_lock_file(file, 0644);  // readable by all: a waiter of another user can name the holder
  install_interrupt_handlers();
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double next_message = 0;
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const std::string e = std::strerror(errno);
      ::close(fd_);
      throw RunError("cannot lock " + file.string() + ": " + e);
    }
    const double t = elapsed();
    // The holder writes its line just after it takes the lock: an empty file in the first
    // second means "not written yet", so keep reading rather than report an unknown holder.
    const std::string who_now = holder_of(fd_);
    const bool known = who_now.rfind("an unknown", 0) != 0;
    if (waited_for_.empty() || (known && waited_for_.rfind("an unknown", 0) == 0)) waited_for_ = who_now;
    if (t >= timeout_s) {
      const std::string who = holder_of(fd_);
      ::close(fd_);
      throw RunError("timed out after " + std::to_string(static_cast<int>(timeout_s)) + " s waiting for the lock " +
                     file.string() + ", held by " + who + " (--lock-timeout to wait longer)");
    }
    if (t >= next_message && (known || t >= 1.0)) {
      waiting("waiting for the lock " + file.string() + ", held by " + holder_of(fd_) + " (" +
              std::to_string(static_cast<int>(timeout_s - t)) + " s until the timeout)");
      (void)who_now;
      next_message = t + 60;
    }
    try {
      check_interrupted();
    } catch (...) {
      ::close(fd_);
      throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  waited_s_ = elapsed();
  write_holder(holder);
}

std::unique_ptr<RunLock> RunLock::try_exclusive(const std::filesystem::path& file, const std::string& holder,
                                                std::string* held_by) {
  std::unique_ptr<RunLock> lock(new RunLock(open_lock_file(file, 0644)));
  while (::flock(lock->fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) throw RunError("cannot lock " + file.string() + ": " + std::strerror(errno));
    if (held_by) *held_by = holder_of(lock->fd_);
    return nullptr;
  }
  lock->write_holder(holder);
  return lock;
}

void RunLock::write_holder(const std::string& holder) {
  acquired_unix_ = now_unix();
  char host[256] = "?";
  ::gethostname(host, sizeof host - 1);
  const std::string line =
      "pid " + std::to_string(::getpid()) + " on " + host + ": " + holder + " (since " + now_iso8601() + ")\n";
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, line.data(), line.size(), 0);
  wrote_holder_ = true;
}

RunLock::RunLock(const std::filesystem::path& file, Sharing sharing) : fd_(open_lock_file(file, 0600)) {
  const auto start = std::chrono::steady_clock::now();
  while (::flock(fd_, sharing == Sharing::kShared ? LOCK_SH : LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const std::string e = std::strerror(errno);
    ::close(fd_);
    throw RunError("cannot lock " + file.string() + ": " + e);
  }
  waited_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  acquired_unix_ = now_unix();
}

RunLock::~RunLock() {
  if (fd_ < 0) return;
  if (wrote_holder_) (void)!::ftruncate(fd_, 0);  // nobody holds it now; a waiter seeing an empty file says so
  ::flock(fd_, LOCK_UN);
  ::close(fd_);
}

}  // namespace perfgate
