// K concurrent readers of one blob, released together; what each was served.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "blob_cache.hpp"

namespace blob_stampede {

// What a reader was served is hashed with XXH3-128 (perfgate::Digest): the gate's instrument,
// cheap next to the work it checks. The source's XXH3-128 is in the fixture (blob.json).
struct ReaderResult {
  std::string hash;  // XXH3-128 of the bytes served to this reader
  std::uint64_t bytes = 0;
  double ms = 0;      // from the release to the last byte served
  std::string error;  // empty when served whole
};

struct StampedeResult {
  std::vector<ReaderResult> readers;  // in reader order
  double wall_ms = 0;                 // from the release to the last reader done
  std::chrono::steady_clock::time_point released;
};

// Starts `readers` threads, waits until every one is ready, releases them at once and joins.
// Reader i calls cache.read(sha256, first_reader + i, ...). Errors are recorded, not thrown.
// `early_clock`: the lie "early-stampede-clock" (AFTER only), wall_ms read once the readers are
// released, before they are joined.
StampedeResult run_stampede(BlobCache& cache, const std::string& sha256, int readers, int first_reader = 0,
                            bool early_clock = false);
// The same, reader i asking for blobs[i] (a herd on several blobs at once).
StampedeResult run_stampede(BlobCache& cache, const std::vector<std::string>& blobs, int first_reader,
                            bool early_clock = false);

// One reader, on the calling thread.
ReaderResult read_one(BlobCache& cache, const std::string& sha256, int reader);

// XXH3-128 (hex, as perfgate::Digest prints it) of a file, or of a string.
std::string xxh3_file(const std::filesystem::path& path);
std::string xxh3_of(std::string_view data);

}  // namespace blob_stampede
