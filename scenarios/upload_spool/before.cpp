// BEFORE: every frame goes straight to the file with its own write(2) — the bare File of
// `stream_body_to_path`.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

#include "spool.hpp"

namespace upload_spool {

WriteResult spool_bare(const fs::path& dir, const Params& p) {
  WriteResult r;
  perfgate::Digest d;
  FrameSource frames(p);
  for (int f = 0; f < p.files; ++f) {
    fs::path path = dir / ("upload-" + std::to_string(f) + ".spool");
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
      const int err = errno;
      throw IoError("create", path, err);
    }
    for (int i = 0; i < p.frames; ++i) {
      const char* frame = frames.frame(f, i);
      std::size_t off = 0;
      while (off < frames.frame_bytes()) {
        ssize_t n = ::write(fd, frame + off, frames.frame_bytes() - off);
        ++r.calls;
        if (n < 0) {
          const int err = errno;
          ::close(fd);
          throw IoError("write", path, err);
        }
        off += static_cast<std::size_t>(n);
      }
    }
    ::close(fd);
    digest_and_remove(path, d, r);
  }
  r.digest = d.hex();
  return r;
}

}  // namespace upload_spool
