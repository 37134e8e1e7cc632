// AFTER: frames gather in a 512 KiB buffer and reach the file one full buffer per write(2) —
// BufWriter::with_capacity(512 KiB) around the same File.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <vector>

#include "spool.hpp"

namespace upload_spool {
namespace {

class BufferedWriter {
 public:
  BufferedWriter(int fd, const fs::path& path, std::size_t capacity, std::uint64_t& calls, bool drop_errors)
      : fd_(fd), path_(path), calls_(calls), drop_errors_(drop_errors) {
    buf_.reserve(capacity);
  }
  void write(const char* data, std::size_t n) {
    if (buf_.size() + n > buf_.capacity()) flush();
    if (n >= buf_.capacity()) {
      write_all(data, n);  // larger than the buffer: bypass it, as BufWriter does
      return;
    }
    buf_.insert(buf_.end(), data, data + n);
  }
  void flush() {
    if (!buf_.empty()) write_all(buf_.data(), buf_.size());
    buf_.clear();
  }

 private:
  void write_all(const char* p, std::size_t n) {
    while (n > 0) {
      ssize_t w = ::write(fd_, p, n);
      ++calls_;
      if (w < 0 && drop_errors_) return;  // the lie "ignore-enospc": the failed write and its bytes dropped
      if (w < 0) {
        const int err = errno;
        throw IoError("write", path_, err);
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
  }
  int fd_;
  const fs::path& path_;
  std::vector<char> buf_;
  std::uint64_t& calls_;
  bool drop_errors_;
};

int open_spool(const fs::path& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    const int err = errno;
    throw IoError("create", path, err);
  }
  return fd;
}

// The lie "phantom-spool": the first `buffer` bytes of the upload written (one buffer, as the
// honest writer's first flush), the rest never; the file removed after.
void write_head(const fs::path& path, const std::string& content, std::size_t buffer, std::uint64_t& calls) {
  int fd = open_spool(path);
  try {
    BufferedWriter w(fd, path, buffer, calls, false);
    w.write(content.data(), std::min(content.size(), buffer));
    w.flush();
  } catch (const IoError&) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  ::unlink(path.c_str());
}

}  // namespace

WriteResult spool_buffered(const fs::path& dir, const Params& p, std::size_t buffer) {
  WriteResult r;
  perfgate::Digest d;
  FrameSource frames(p);
  for (int f = 0; f < p.files; ++f) {
    fs::path path = dir / ("upload-" + std::to_string(f) + ".spool");
    // The lies "skip-spool-write" (nothing written) and "phantom-spool" (only the upload's first
    // buffer written, so a full device still fails on its first write): the upload answered from
    // the frames in memory, as if it had all landed on disk.
    const bool phantom = p.lie == "phantom-spool";
    if (p.lie == "skip-spool-write" || phantom) {
      std::string content;
      for (int i = 0; i < p.frames; ++i) content.append(frames.frame(f, i), frames.frame_bytes());
      if (phantom) write_head(path, content, buffer, r.calls);
      d.field(content);
      r.lines.push_back(path.filename().string() + " " + std::to_string(content.size()) + " " +
                        perfgate::digest_of(content));
      r.bytes += content.size();
      continue;
    }
    int fd = open_spool(path);
    try {
      BufferedWriter w(fd, path, buffer, r.calls, p.lie == "ignore-enospc");
      const int frames_written = p.lie == "drop-last-frame" ? p.frames - 1 : p.frames;
      for (int i = 0; i < frames_written; ++i) {
        // The lie "swap-last-frames": the upload's last two frames land in each other's place.
        const bool swap = p.lie == "swap-last-frames" && i >= frames_written - 2;
        w.write(frames.frame(f, swap ? 2 * frames_written - 3 - i : i), frames.frame_bytes());
      }
      if (p.lie != "no-final-flush") w.flush();  // the lie: the last buffer left to a destructor that never writes
    } catch (const IoError&) {
      ::close(fd);
      throw;
    }
    ::close(fd);
    digest_and_remove(path, d, r);
  }
  r.digest = d.hex();
  return r;
}

}  // namespace upload_spool
