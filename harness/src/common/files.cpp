#include "common/files.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/errors.hpp"
#include "common/printable_text.hpp"
#include "process/owner.hpp"

namespace perfgate {

TempDir::TempDir(const std::string& prefix) {
  const char* base = std::getenv("TMPDIR");
  // The owner's tag in the name lets a later run remove it if we are killed (SIGKILL).
  fs::path tmpl = fs::path(base && *base ? base : "/tmp") / (prefix + process::owner_tag() + "-XXXXXX");
  std::string buf = tmpl.string();
  if (!mkdtemp(buf.data()))
    throw RunError("cannot create a temporary directory under " + tmpl.parent_path().string() + ": " +
                   std::strerror(errno));
  path_ = buf;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string padded_serial(int serial) {
  char padded[16];
  std::snprintf(padded, sizeof padded, "%09d", serial);
  return padded;
}

const std::vector<std::string>& temp_dir_prefixes() {
  static const std::vector<std::string> prefixes = {"perfgate-",      "perfgate-run-",       "perfgate-seed-",
                                                    "perfgate-test-", "perfgate-calibrate-", "perfgate-report-"};
  return prefixes;
}

fs::path TempDir::subdir(const std::string& name) const {
  fs::path p = path_ / name;
  std::error_code ec;
  fs::remove_all(p, ec);
  fs::create_directories(p);
  return p;
}

StagedDir::StagedDir(const fs::path& dir) : dir_(fs::absolute(dir).lexically_normal()) {
  if (dir_.filename().empty()) dir_ = dir_.parent_path();  // "out/" names "out"
  fs::create_directories(dir_.parent_path());
  std::string tmpl = (dir_.parent_path() / ("." + dir_.filename().string() + ".staged-XXXXXX")).string();
  if (!mkdtemp(tmpl.data()))
    throw RunError("cannot create a folder beside " + dir_.string() + ": " + std::strerror(errno));
  ::chmod(tmpl.c_str(), 0755);  // mkdtemp makes it 0700; a published folder is read by others
  staged_ = tmpl;
}

StagedDir::~StagedDir() {
  std::error_code ec;
  if (!committed_) fs::remove_all(staged_, ec);
}

void StagedDir::commit() {
  if (::rename(staged_.c_str(), dir_.c_str()) != 0) {
    // rename(2) replaces only an empty folder: swap the two, then remove the old one (now at
    // the staged path).
    if (errno != ENOTEMPTY && errno != EEXIST)
      throw RunError("cannot move " + staged_.string() + " to " + dir_.string() + ": " + std::strerror(errno));
    if (::renameat2(AT_FDCWD, staged_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0)
      throw RunError("cannot replace " + dir_.string() + " with " + staged_.string() + ": " + std::strerror(errno));
  }
  committed_ = true;
  std::error_code ec;
  fs::remove_all(staged_, ec);
}

void write_file_atomic(const fs::path& path, const std::string& content) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  std::string tmpl = (path.parent_path() / ("." + path.filename().string() + ".XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0) throw RunError("cannot write " + path.string() + ": " + std::strerror(errno));
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      throw RunError("cannot write " + path.string() + ": " + std::strerror(err));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  ::fchmod(fd, 0644);
  ::fsync(fd);
  ::close(fd);
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmpl.c_str());
    throw RunError("cannot write " + path.string() + ": " + std::strerror(err));
  }
}

void append_file(const fs::path& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw RunError("cannot append to " + path.string() + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      throw RunError("cannot append to " + path.string() + ": " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

std::optional<std::string> try_read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string read_file(const fs::path& path) {
  auto s = try_read_file(path);
  if (!s) throw UsageError("cannot read " + path.string() + ": " + std::strerror(errno));
  return *s;
}

std::string last_nonempty_line(const fs::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {};
  std::streamoff size = in.tellg();
  // The JSON line is small next to what a program may print before it; read the tail only.
  const std::streamoff chunk = std::min<std::streamoff>(size, 8 << 20);
  in.seekg(size - chunk);
  std::string buf(static_cast<std::size_t>(chunk), '\0');
  in.read(buf.data(), chunk);
  while (!buf.empty() && (buf.back() == '\n' || buf.back() == '\r' || buf.back() == ' ')) buf.pop_back();
  auto nl = buf.rfind('\n');
  return nl == std::string::npos ? buf : buf.substr(nl + 1);
}

std::string tail_of_file(const fs::path& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {};
  std::streamoff size = in.tellg();
  std::streamoff n = std::min<std::streamoff>(size, static_cast<std::streamoff>(max_bytes));
  in.seekg(size - n);
  std::string buf(static_cast<std::size_t>(n), '\0');
  in.read(buf.data(), n);
  // Cut inside a UTF-8 character: drop its tail rather than show it escaped.
  std::size_t from = 0;
  while (n < size && from < 3 && from < buf.size() && (static_cast<unsigned char>(buf[from]) & 0xC0) == 0x80) ++from;
  while (!buf.empty() && (buf.back() == '\n' || buf.back() == '\r')) buf.pop_back();
  return printable_text(std::string_view(buf).substr(std::min(from, buf.size())));
}

}  // namespace perfgate
