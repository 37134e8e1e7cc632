// --cache none|lru-scan|lru --capacity N
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "cache_none.hpp"
#include "lru.hpp"
#include "lru_scan.hpp"

namespace asset_cache {

inline std::unique_ptr<Cache> make_cache(const std::string& kind, std::size_t capacity) {
  if (kind == "none") return std::make_unique<NoCache>();
  if (kind == "lru-scan") return std::make_unique<LruScanCache>(capacity);
  if (kind == "lru") return std::make_unique<LruCache>(capacity);
  throw std::invalid_argument("unknown --cache '" + kind + "': expected none, lru-scan or lru");
}

}  // namespace asset_cache
