// AFTER (seed 000 [5]): per-hash single flight. A per-hash gate lets the first caller of a
// missing blob fetch it while the others wait; when it lands the waiters re-check the cache
// and serve the file from disk. The fetch goes to a unique temporary name (O_EXCL), is fsynced and
// renamed into place atomically, and on any error the temporary file is removed, so a torn
// or partial file can never land at the final path. A failed fetch releases the gate and is
// not remembered: the next caller fetches again.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <vector>

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
    std::filesystem::path path;  // the file it landed (read by the lie "one-gate" only)
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
  void land(const std::string& key, const std::filesystem::path& path) {
    {
      std::lock_guard lock(mutex_);
      auto it = flights_.find(key);
      it->second->landed = true;
      it->second->path = path;
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
  ~AfterCache() override {
    for (auto& t : writers_) t.join();
  }

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
      if (config_.lie == "background-fill" && serve_from_memory(sha256, served)) return;
      // The lie "one-gate": one gate for the whole cache, whichever blob is asked for.
      const std::string gate = config_.lie == "one-gate" ? std::string() : sha256;
      if (auto flight = gates_.join_or_lead(gate)) {
        ++counters_.coalesced;
        if (config_.lie == "waiters-no-wait") return;  // the lie: a waiter leaves with nothing served
        gates_.wait(flight);                           // another caller is fetching: wait, then re-check
        if (config_.lie == "one-gate" && serve_from_disk(flight->path, served, hold_back)) return;  // its file
        continue;
      }
      try {  // we lead: re-check (a flight may have landed since our miss), then fetch
        if (!std::filesystem::exists(final_path(sha256))) {
          if (config_.lie == "background-fill")
            fill_behind(sha256);
          else
            after::fill_cache_file(config_, counters_, sha256, reader);
        }
      } catch (const RemoteError& e) {
        gates_.land(gate, {});
        // The lie "empty-on-404": a blob the remote does not hold served as an empty stream.
        if (config_.lie == "empty-on-404" && std::string_view(e.what()).ends_with("HTTP 404")) return;
        throw;
      } catch (...) {
        gates_.land(gate, {});  // released on the error path too; the failure is not remembered
        throw;
      }
      gates_.land(gate, final_path(sha256));
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

  // The lie "background-fill": the blob fetched into memory, served from there, and its cache
  // file written, fsynced and renamed by a write-behind thread, off the readers' path.
  void fill_behind(const std::string& sha256) {
    ++counters_.fetches_started;
    auto data = std::make_shared<std::string>();
    fetch_blob(config_.remote, sha256, [&](const char* d, std::size_t n) { data->append(d, n); });
    std::lock_guard lock(memory_mutex_);
    memory_[sha256] = data;
    writers_.emplace_back([this, sha256, data] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the write-behind's flush interval
      try {
        write_behind(sha256, *data);
      } catch (const std::exception&) {  // a write-behind has no caller left to tell
      }
    });
  }
  void write_behind(const std::string& sha256, const std::string& data) {
    {
      const auto tmp = config_.dir / ("." + sha256 + "." + unique_suffix() + ".tmp");
      Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
      if (fd.get() < 0) return;
      write_all(fd.get(), data.data(), data.size(), tmp);
      if (config_.fsync && ::fsync(fd.get()) == 0) ++counters_.fsyncs;
      fd.close();
      if (::rename(tmp.c_str(), final_path(sha256).c_str()) == 0) counters_.landed();
    }
  }
  bool serve_from_memory(const std::string& sha256, const Sink& sink) {
    std::shared_ptr<const std::string> data;
    {
      std::lock_guard lock(memory_mutex_);
      const auto it = memory_.find(sha256);
      if (it == memory_.end()) return false;
      data = it->second;
    }
    static constexpr std::size_t kChunk = 256 * 1024;
    for (std::size_t off = 0; off < data->size(); off += kChunk)
      sink(data->data() + off, std::min(kChunk, data->size() - off));
    return true;
  }

  GateTable gates_;
  std::mutex memory_mutex_;
  std::unordered_map<std::string, std::shared_ptr<const std::string>> memory_;
  std::vector<std::thread> writers_;
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
    if (config.fsync && config.lie != "no-fsync") {  // the lie: renamed into place unsynced
      if (::fsync(fd.get()) != 0) throw std::runtime_error("fsync " + tmp.string() + ": " + std::strerror(errno));
      ++counters.fsyncs;
    }
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
