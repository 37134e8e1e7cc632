// The cache in front of the asset store. It lives on the actor thread (server.cpp), which
// owns it alone: no implementation locks anything.
//
//   cache_none.hpp  no cache: every lookup misses (the write-up's baseline)
//   lru_scan.hpp    BEFORE — the write-up's LRU: a hash map + a recency queue whose touch()
//                   on a hit is an O(n) scan of the queue
//   lru.hpp         AFTER — O(1) LRU: a hash map into a linked list (the write-up's follow-up)
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace asset_cache {

// A stored asset: its gzip bytes, shared between the cache and the responses in flight.
using Blob = std::shared_ptr<const std::string>;

class Cache {
 public:
  virtual ~Cache() = default;
  // The value under `key`, or nullptr. A hit makes `key` the most recently used.
  virtual Blob get(std::string_view key) = 0;
  // Inserts or replaces `key`, evicting the least recently used entry when full.
  virtual void put(std::string_view key, Blob value) = 0;
  virtual std::size_t size() const = 0;
  virtual std::size_t capacity() const = 0;
  virtual const char* name() const = 0;
};

// Transparent hashing, so a lookup by string_view allocates nothing.
struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

}  // namespace asset_cache
