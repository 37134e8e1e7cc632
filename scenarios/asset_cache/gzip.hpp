// gzip with zlib: the seeder compresses, the server inflates (unless the client accepts gzip).
#pragma once

#include <zlib.h>

#include <string>
#include <string_view>

namespace asset_cache {

// gzip (RFC 1952) at `level`, with a fixed header (mtime 0), so equal input gives equal bytes.
std::string gzip(std::string_view raw, int level = 6);

// One gzip member of `text` + `blob`: `text` deflated at `level`, then `blob` in stored
// blocks (level 0). For content whose bulk cannot be compressed (random bytes), which zlib
// would otherwise Huffman-code at no gain and make every inflate decode symbol by symbol.
std::string gzip_text_then_stored(std::string_view text, std::string_view blob, int level = 6);

// Inflates one gzip member; reuses its zlib state between calls (one Inflater per thread).
class Inflater {
 public:
  Inflater();
  ~Inflater();
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  // Throws std::runtime_error on corrupt input.
  std::string inflate(std::string_view gz);

 private:
  z_stream z_{};
};

// True when an Accept-Encoding value admits gzip ("gzip", "x-gzip" or "*" with q > 0, and
// gzip not refused with q=0).
bool accepts_gzip(std::string_view accept_encoding);

// Convenience for tests and tools.
std::string gunzip(std::string_view gz);

}  // namespace asset_cache
