// Parts both variants share: serving a cache file, file descriptors, the hash gate.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <perfgate/seeders/blobs.hpp>
#include <stdexcept>
#include <vector>

#include "blob_cache.hpp"

namespace blob_stampede {

void Fd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

void Fd::close() {
  const int fd = fd_;
  fd_ = -1;
  if (fd >= 0 && ::close(fd) != 0) throw std::runtime_error(std::string("close: ") + std::strerror(errno));
}

void write_all(int fd, const char* data, std::size_t n, const std::filesystem::path& what) {
  while (n) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write " + what.string() + ": " + std::strerror(errno));
    }
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

bool serve_from_disk(const std::filesystem::path& path, const Sink& sink, std::size_t hold_back) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT) return false;
    throw std::runtime_error("cannot open " + path.string() + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    throw std::runtime_error("cannot stat " + path.string() + ": " + std::strerror(errno));
  const auto file_size = static_cast<std::size_t>(st.st_size);
  const std::size_t size = file_size - std::min(hold_back, file_size);
  if (size == 0) return true;
  // A shared read-only mapping: the page cache's pages, without a copy per reader (files at
  // the final path are never truncated, in either variant).
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd.get(), 0);
  if (map == MAP_FAILED) throw std::runtime_error("cannot map " + path.string() + ": " + std::strerror(errno));
  ::madvise(map, size, MADV_SEQUENTIAL);
  static constexpr std::size_t kChunk = 256 * 1024;
  const char* data = static_cast<const char*>(map);
  try {
    for (std::size_t off = 0; off < size; off += kChunk) sink(data + off, std::min(kChunk, size - off));
  } catch (...) {
    ::munmap(map, size);
    throw;
  }
  ::munmap(map, size);
  return true;
}

bool cache_file_ok(const std::filesystem::path& dir, const std::string& sha256) {
  const auto path = dir / sha256;
  if (!std::filesystem::exists(path)) return false;
  return perfgate::seeders::sha256_file(path) == sha256;
}

std::unique_ptr<BlobCache> make_cache(const std::string& variant, CacheConfig config) {
  if (variant == "before") return make_before(std::move(config));
  if (variant == "after") return make_after(std::move(config));
  throw std::runtime_error("unknown variant '" + variant + "': expected before or after");
}

}  // namespace blob_stampede
