// AFTER: a weigher bounds the cache by the heap its pages hold (32 MiB), whatever their count;
// the least recently used pages leave first, the TTL is unchanged. A page heavier than the
// whole budget is answered but not kept.
#include "result_cache.hpp"

namespace search_cache {

WeighedCache::WeighedCache(std::size_t budget_bytes, std::chrono::seconds ttl, Keep keep)
    : budget_(budget_bytes), keep_(keep), store_(ttl) {}

PagePtr WeighedCache::get(const std::string& key) { return store_.get(key); }

void WeighedCache::put(const std::string& key, PagePtr page) {
  if (keep_ == Keep::FirstHalf && page->size() > 1)
    page = std::make_shared<const Page>(page->begin(), page->begin() + static_cast<std::ptrdiff_t>(page->size() / 2));
  const std::size_t bytes = entry_bytes(key, *page);
  if (bytes > budget_) return;
  store_.insert(key, std::move(page), bytes);
  while (store_.bytes() > budget_ && store_.evict_oldest()) {
  }
}

}  // namespace search_cache
