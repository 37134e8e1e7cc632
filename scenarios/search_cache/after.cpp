// AFTER: a weigher bounds the cache by the heap its pages hold (32 MiB), whatever their count;
// the least recently used pages leave first, the TTL is unchanged. A page heavier than the
// whole budget is answered but not kept.
#include <algorithm>

#include "result_cache.hpp"

namespace search_cache {

WeighedCache::WeighedCache(std::size_t budget_bytes, std::chrono::seconds ttl, Keep keep, KeyField dropped)
    : budget_(budget_bytes), keep_(keep), dropped_(dropped), store_(ttl) {}

std::string WeighedCache::keyed(const std::string& key) const {
  if (dropped_ == KeyField::None) return key;
  std::string out;
  std::size_t start = 0;
  for (int field = 0; start <= key.size(); ++field) {
    const std::size_t end = std::min(key.find('\t', start), key.size());
    if (field != static_cast<int>(dropped_)) out.append(key, start, end - start).push_back('\t');
    start = end + 1;
  }
  return out;
}

// The honest cache looks its key up as given: the lies' key rewriting must cost it nothing.
PagePtr WeighedCache::get(const std::string& key) {
  return dropped_ == KeyField::None ? store_.get(key) : store_.get(keyed(key));
}

void WeighedCache::put(const std::string& key_text, PagePtr page) {
  const std::string key = keyed(key_text);
  if (keep_ == Keep::FirstHalf && page->size() > 1)
    page = std::make_shared<const Page>(page->begin(), page->begin() + static_cast<std::ptrdiff_t>(page->size() / 2));
  const std::size_t bytes = entry_bytes(key, *page);
  if (bytes > budget_) return;
  store_.insert(key, std::move(page), bytes);
  while (store_.bytes() > budget_ && store_.evict_oldest()) {
  }
}

}  // namespace search_cache
