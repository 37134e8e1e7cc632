// blob_stampede: a local on-disk cache of content-addressed blobs in front of a slow remote
// store (seed 000 [5]). BEFORE (before.cpp) and AFTER (after.cpp) implement BlobCache.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "remote_client.hpp"

namespace blob_stampede {

// Where served bytes go (the reader's consumer: a response body, a player).
using Sink = std::function<void(const char* data, std::size_t n)>;

// Test-only hooks, to order concurrent callers deterministically (never set by the program).
// `reader` is the id the caller passed to read().
struct Hooks {
  std::function<void(int reader)> after_open;                          // a temporary file was opened for writing
  std::function<void(int reader, std::uint64_t written)> after_write;  // a chunk went to the temporary file
  std::function<void(int reader)> before_rename;                       // written, synced and closed; not renamed yet
};

struct CacheConfig {
  std::filesystem::path dir;  // the cache directory: <dir>/<sha256> once cached
  Endpoint remote;
  bool fsync = true;  // fsync the temporary file before the rename (both variants)
  Hooks hooks;
  // AFTER's lies (the manifest's `lies`; each serves less than BEFORE): "truncated-hit" serves
  // a hit's stream without its last 256 KiB chunk, "empty-hit" serves a hit nothing at all,
  // "waiters-no-wait" has a caller that finds a fetch in the air leave with nothing served,
  // "any-cached-file" looks a blob up without its hash (whichever file the cache holds),
  // "swap-first-chunks" serves a hit's first two chunks in each other's place, "one-gate" has one
  // gate for every blob (a waiter is served the file the flight in the air landed, whichever
  // blob it was), "no-fsync" renames the temporary file into place without its fsync,
  // "background-fill" serves the leader's fetch from memory and leaves the cache file to a
  // write-behind thread that lands it later, "empty-on-404" serves a blob the remote does not
  // hold as an empty stream.
  std::string lie;
};

// What a cache did, counted by the cache itself (the remote counts fetches on its side).
struct CacheCounters {
  std::atomic<std::uint64_t> fetches_started{0};
  std::atomic<std::uint64_t> disk_hits{0};     // served from the cache file
  std::atomic<std::uint64_t> lost_renames{0};  // BEFORE: the shared temp file was already renamed by another caller
  std::atomic<std::uint64_t> shared_tmp_writers{
      0};                                       // BEFORE: callers that wrote into a temp file another caller also wrote
  std::atomic<std::uint64_t> temp_cleanups{0};  // AFTER: temporary files removed on an error path
  std::atomic<std::uint64_t> coalesced{0};      // AFTER: waits on another caller's flight instead of fetching
  std::atomic<std::uint64_t> fsyncs{0};         // temporary files fsynced before their rename
  // When a file was first renamed to the final path (steady_clock ticks; 0: never).
  std::atomic<std::int64_t> first_landed{0};
  void landed() {
    std::int64_t expected = 0;
    first_landed.compare_exchange_strong(expected, std::chrono::steady_clock::now().time_since_epoch().count());
  }
};

class BlobCache {
 public:
  explicit BlobCache(CacheConfig config) : config_(std::move(config)) {}
  virtual ~BlobCache() = default;
  // Serves the blob `sha256` to `sink`, from the cache file or from the remote. Throws on a
  // failed fetch (the sink may have seen part of the bytes).
  virtual void read(const std::string& sha256, int reader, const Sink& sink) = 0;
  const CacheConfig& config() const { return config_; }
  const CacheCounters& counters() const { return counters_; }
  std::filesystem::path final_path(const std::string& sha256) const { return config_.dir / sha256; }

 protected:
  CacheConfig config_;
  CacheCounters counters_;
};

// BEFORE: every missing reader fetches the whole blob itself, writing it through one fixed
// temporary path (<sha256>.tmp) that it then renames into place.
std::unique_ptr<BlobCache> make_before(CacheConfig config);
// AFTER: a per-hash gate (the first caller fetches; waiters re-check and serve from disk),
// unique temporary names, atomic rename, cleanup on every error path.
std::unique_ptr<BlobCache> make_after(CacheConfig config);
std::unique_ptr<BlobCache> make_cache(const std::string& variant, CacheConfig config);

namespace after {
// AFTER's write path alone (no gate): fetch into a unique temporary file, fsync, rename
// into place; on any error the temporary file is removed and the error rethrown.
void fill_cache_file(const CacheConfig& config, CacheCounters& counters, const std::string& sha256, int reader);
// Number of per-hash gates currently held or waited on (0 when every caller has left).
std::size_t open_gates(const BlobCache& after_cache);
}  // namespace after

// --- shared by both variants -----------------------------------------------------------

// Streams the cache file to `sink` if it exists; false when there is no such file. The last
// `hold_back` bytes are not served (AFTER's lies only; 0 otherwise).
bool serve_from_disk(const std::filesystem::path& path, const Sink& sink, std::size_t hold_back = 0);

// Owns a file descriptor.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset(int fd = -1);  // closes the one held, holds `fd`
  void close();             // throws on a close(2) error (a write-back error surfaces here)

 private:
  int fd_;
};

void write_all(int fd, const char* data, std::size_t n, const std::filesystem::path& what);

// The cache's hash gate: the SHA-256 of the file at the final path equals the blob's name.
// False when the file is missing or differs (a torn file).
bool cache_file_ok(const std::filesystem::path& dir, const std::string& sha256);

}  // namespace blob_stampede
