#include "common/out_folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/errors.hpp"
#include "common/time_stamp.hpp"

namespace perfgate {

OutFolderLock::OutFolderLock(const std::filesystem::path& folder, const std::string& holder) {
  std::filesystem::create_directories(folder);
  const auto file = folder / kFile;
  fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw RunError("cannot open " + file.string() + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    char buf[1024];
    const ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
    std::string who = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
    while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
    ::close(fd_);
    fd_ = -1;
    if (e != EWOULDBLOCK) throw RunError("cannot lock " + file.string() + ": " + std::strerror(e));
    throw UsageError("the out folder " + std::filesystem::absolute(folder).string() + " is in use by " +
                     (who.empty() ? std::string("another perfgate") : who) +
                     ": its results would replace each other's; wait for it to finish, or give this one --out DIR");
  }
  const std::string line = "pid " + std::to_string(::getpid()) + " (" + holder + ", since " + now_iso8601() + ")\n";
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, line.data(), line.size(), 0);
}

OutFolderLock::~OutFolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace perfgate
