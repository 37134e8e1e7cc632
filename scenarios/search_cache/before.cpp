// BEFORE: the cache is bounded by how many pages it holds (1,000), not by what they weigh. A
// page of 500 enriched rows is ~300 KiB, so a full cache retains ~300 MiB of heap.
#include "result_cache.hpp"

namespace search_cache {

CountCappedCache::CountCappedCache(std::size_t max_entries, std::chrono::seconds ttl)
    : max_entries_(max_entries), store_(ttl) {}

PagePtr CountCappedCache::get(const std::string& key) { return store_.get(key); }

void CountCappedCache::put(const std::string& key, PagePtr page) {
  const std::size_t bytes = entry_bytes(key, *page);
  store_.insert(key, std::move(page), bytes);
  while (store_.size() > max_entries_ && store_.evict_oldest()) {
  }
}

}  // namespace search_cache
