// AFTER (seed 000 [5]): per-hash single flight. A per-hash gate lets the first caller of a
// missing blob fetch it while the others wait; when it lands the waiters re-check the cache
// and serve the file from disk. The fetch goes to a unique temporary name (O_EXCL), is fsynced and
// renamed into place atomically, and on any error the temporary file is removed, so a torn
// or partial file can never land at the final path. A failed fetch releases the gate and is
// not remembered: the next caller fetches again.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>

#include "blob_cache.hpp"

namespace blob_stampede {
namespace {

// The per-hash gate: at most one fetch of a blob in the air. The first caller of a missing
// blob opens a flight and fetches; callers that miss meanwhile wait for the flight to land,
// then all re-check the cache at once (not one by one through a lock). A failed flight lands
// too: the re-checking waiters find no file, and one of them opens the next flight.
class GateTable {
 public:
  struct Flight {
    bool landed = false;
  };

  // Returns the flight to wait for, or nullptr when the caller leads a new one.
  std::shared_ptr<Flight> join_or_lead(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto& slot = flights_[key];
    if (slot) return slot;
    slot = std::make_shared<Flight>();
    return nullptr;
  }
  void wait(const std::shared_ptr<Flight>& flight) {
    std::unique_lock lock(mutex_);
    landed_.wait(lock, [&] { return flight->landed; });
  }
  // The leader, on every path (success or error).
  void land(const std::string& key) {
    {
      std::lock_guard lock(mutex_);
      auto it = flights_.find(key);
      it->second->landed = true;
      flights_.erase(it);
    }
    landed_.notify_all();
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return flights_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable landed_;
  std::unordered_map<std::string, std::shared_ptr<Flight>> flights_;
};

std::string unique_suffix() {
  thread_local std::mt19937_64 rng(std::random_device{}());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng()));
  return buf;
}

class AfterCache final : public BlobCache {
 public:
  using BlobCache::BlobCache;

  void read(const std::string& sha256, int reader, const Sink& sink) override {
    const std::size_t hold_back = config_.lie == "truncated-hit" ? 256 * 1024
                                  : config_.lie == "empty-hit"   ? SIZE_MAX
                                                                 : 0;
    const Sink served = config_.lie == "swap-first-chunks" ? first_chunks_swapped(sink) : sink;
    for (;;) {
      // A hit, or a re-check after a flight landed.
      if (serve_from_disk(config_.lie == "any-cached-file" ? any_cached_file(sha256) : final_path(sha256), served,
                          hold_back)) {
        ++counters_.disk_hits;
        return;
      }
      if (auto flight = gates_.join_or_lead(sha256)) {
        ++counters_.coalesced;
        if (config_.lie == "waiters-no-wait") return;  // the lie: a waiter leaves with nothing served
        gates_.wait(flight);                           // another caller is fetching: wait, then re-check
        continue;
      }
      try {  // we lead: re-check (a flight may have landed since our miss), then fetch
        if (!std::filesystem::exists(final_path(sha256))) after::fill_cache_file(config_, counters_, sha256, reader);
      } catch (...) {
        gates_.land(sha256);  // released on the error path too; the failure is not remembered
        throw;
      }
      gates_.land(sha256);
    }
  }

  std::size_t open_gates() const { return gates_.size(); }

 private:
  // The lie "any-cached-file": a lookup that does not look at the hash, answered by whichever
  // blob the cache holds (its final path when it holds none).
  std::filesystem::path any_cached_file(const std::string& sha256) const {
    for (const auto& entry : std::filesystem::directory_iterator(config_.dir))
      if (entry.is_regular_file() && entry.path().filename().string().front() != '.') return entry.path();
    return final_path(sha256);
  }
  // The lie "swap-first-chunks": the stream's first two chunks served in each other's place.
  static Sink first_chunks_swapped(const Sink& sink) {
    auto held = std::make_shared<std::string>();
    auto calls = std::make_shared<int>(0);
    return [sink, held, calls](const char* data, std::size_t n) {
      if ((*calls)++ == 0) {
        held->assign(data, n);
        return;
      }
      sink(data, n);
      if (*calls == 2) sink(held->data(), held->size());
    };
  }

  GateTable gates_;
};

}  // namespace

namespace after {

void fill_cache_file(const CacheConfig& config, CacheCounters& counters, const std::string& sha256, int reader) {
  const auto final_path = config.dir / sha256;
  std::filesystem::path tmp;
  Fd fd;
  for (int attempt = 0; fd.get() < 0; ++attempt) {
    tmp = config.dir / ("." + sha256 + "." + unique_suffix() + ".tmp");
    fd.reset(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
    if (fd.get() < 0 && (errno != EEXIST || attempt > 8))
      throw std::runtime_error("cannot create " + tmp.string() + ": " + std::strerror(errno));
  }
  if (config.hooks.after_open) config.hooks.after_open(reader);
  try {
    ++counters.fetches_started;
    std::uint64_t written = 0;
    fetch_blob(config.remote, sha256, [&](const char* data, std::size_t n) {
      write_all(fd.get(), data, n, tmp);
      written += n;
      if (config.hooks.after_write) config.hooks.after_write(reader, written);
    });
    if (config.fsync && ::fsync(fd.get()) != 0)
      throw std::runtime_error("fsync " + tmp.string() + ": " + std::strerror(errno));
    fd.close();
    if (config.hooks.before_rename) config.hooks.before_rename(reader);
    if (::rename(tmp.c_str(), final_path.c_str()) != 0)
      throw std::runtime_error("cannot rename " + tmp.string() + ": " + std::strerror(errno));
    counters.landed();
  } catch (...) {
    fd.reset();
    ::unlink(tmp.c_str());
    ++counters.temp_cleanups;
    throw;
  }
}

std::size_t open_gates(const BlobCache& after_cache) {
  const auto* a = dynamic_cast<const AfterCache*>(&after_cache);
  if (!a) throw std::invalid_argument("open_gates: not an AFTER cache");
  return a->open_gates();
}

}  // namespace after

std::unique_ptr<BlobCache> make_after(CacheConfig config) { return std::make_unique<AfterCache>(std::move(config)); }

}  // namespace blob_stampede
