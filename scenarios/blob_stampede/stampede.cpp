#include "stampede.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <latch>
#include <perfgate/sample.hpp>
#include <stdexcept>
#include <thread>

namespace blob_stampede {
namespace {
using Clock = std::chrono::steady_clock;

ReaderResult serve(BlobCache& cache, const std::string& sha256, int reader, Clock::time_point t0) {
  ReaderResult r;
  perfgate::Digest hash;  // the consumer: checks what it was served
  try {
    cache.read(sha256, reader, [&](const char* data, std::size_t n) {
      hash.update(data, n);
      r.bytes += n;
    });
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  r.hash = hash.hex();
  r.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return r;
}

}  // namespace

ReaderResult read_one(BlobCache& cache, const std::string& sha256, int reader) {
  return serve(cache, sha256, reader, Clock::now());
}

StampedeResult run_stampede(BlobCache& cache, const std::string& sha256, int readers, int first_reader,
                            bool early_clock) {
  return run_stampede(cache, std::vector<std::string>(static_cast<std::size_t>(readers), sha256), first_reader,
                      early_clock);
}

StampedeResult run_stampede(BlobCache& cache, const std::vector<std::string>& blobs, int first_reader,
                            bool early_clock) {
  const int readers = static_cast<int>(blobs.size());
  StampedeResult result;
  result.readers.resize(static_cast<std::size_t>(readers));
  std::latch ready(readers), go(1);
  Clock::time_point t0;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(readers));
  for (int i = 0; i < readers; ++i) {
    threads.emplace_back([&, i] {
      ready.count_down();
      go.wait();
      result.readers[static_cast<std::size_t>(i)] =
          serve(cache, blobs[static_cast<std::size_t>(i)], first_reader + i, t0);
    });
  }
  ready.wait();
  t0 = Clock::now();
  result.released = t0;
  go.count_down();
  // The lie "early-stampede-clock": the clock read once the readers are on their way.
  if (early_clock) result.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  for (auto& t : threads) t.join();
  if (!early_clock) result.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return result;
}

std::string xxh3_file(const std::filesystem::path& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw std::runtime_error("cannot open " + path.string());
  perfgate::Digest hash;
  std::vector<char> buf(1 << 20);
  for (ssize_t n; (n = ::read(fd.get(), buf.data(), buf.size())) != 0;) {
    if (n < 0) throw std::runtime_error("cannot read " + path.string());
    hash.update(buf.data(), static_cast<std::size_t>(n));
  }
  return hash.hex();
}

std::string xxh3_of(std::string_view data) {
  perfgate::Digest hash;
  hash.update(data);
  return hash.hex();
}

}  // namespace blob_stampede
