// BEFORE (seed 000 [5], "CachedBlobBackend"): on a miss every reader downloads the WHOLE
// blob itself and writes it through ONE deterministic temporary path, <sha256>.tmp, which it
// renames into place. K concurrent cold readers make K remote fetches, and their truncating
// writes race on that one path: a reader that opens it truncates the file another reader
// is writing, and a torn interleaving can be renamed into the cache. There is no cleanup
// on the error path. Each reader serves the bytes of its own fetch as they arrive.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "blob_cache.hpp"

namespace blob_stampede {
namespace {

class BeforeCache final : public BlobCache {
 public:
  using BlobCache::BlobCache;

  void read(const std::string& sha256, int reader, const Sink& sink) override {
    const auto final_path = this->final_path(sha256);
    if (serve_from_disk(final_path, sink)) {
      ++counters_.disk_hits;
      return;
    }
    const auto tmp = config_.dir / (sha256 + ".tmp");  // the same path for every caller: the race
    Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fd.get() < 0) throw std::runtime_error("cannot create " + tmp.string() + ": " + std::strerror(errno));
    observe_writer(fd.get());
    if (config_.hooks.after_open) config_.hooks.after_open(reader);

    ++counters_.fetches_started;
    std::uint64_t written = 0;
    // On a failed fetch the exception leaves the temporary file as it is (no cleanup).
    fetch_blob(config_.remote, sha256, [&](const char* data, std::size_t n) {
      write_all(fd.get(), data, n, tmp);
      sink(data, n);
      written += n;
      if (config_.hooks.after_write) config_.hooks.after_write(reader, written);
    });
    if (config_.fsync && ::fsync(fd.get()) != 0)
      throw std::runtime_error("fsync " + tmp.string() + ": " + std::strerror(errno));
    if (config_.fsync) ++counters_.fsyncs;
    fd.close();
    if (config_.hooks.before_rename) config_.hooks.before_rename(reader);
    if (::rename(tmp.c_str(), final_path.c_str()) == 0) {
      counters_.landed();
    } else {
      // Another reader already renamed the shared temporary file (with our bytes in it, or
      // not): the blob is "in place" as far as this code can tell.
      if (errno != ENOENT) throw std::runtime_error("cannot rename " + tmp.string() + ": " + std::strerror(errno));
      ++counters_.lost_renames;
    }
  }

 private:
  // Observation only (one fstat): how many callers wrote into a temporary file that another
  // caller also wrote into — the exposure to the race, counted on every run.
  void observe_writer(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return;
    std::lock_guard lock(mutex_);
    const int n = ++writers_[{st.st_dev, st.st_ino}];
    if (n == 2)
      counters_.shared_tmp_writers += 2;
    else if (n > 2)
      ++counters_.shared_tmp_writers;
  }

  std::mutex mutex_;
  std::map<std::pair<dev_t, ino_t>, int> writers_;
};

}  // namespace

std::unique_ptr<BlobCache> make_before(CacheConfig config) { return std::make_unique<BeforeCache>(std::move(config)); }

}  // namespace blob_stampede
