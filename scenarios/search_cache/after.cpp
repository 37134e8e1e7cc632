// AFTER: a weigher bounds the cache by the heap its pages hold (32 MiB), whatever their count;
// the least recently used pages leave first, the TTL is unchanged. A page heavier than the
// whole budget is answered but not kept.
#include <algorithm>

#include "result_cache.hpp"

namespace search_cache {
namespace {
constexpr std::size_t kPendingHits = 64;  // deferred-lru: the hits buffered between two puts
}

WeighedCache::WeighedCache(std::size_t budget_bytes, std::chrono::seconds ttl, Shortcuts lies)
    : budget_(budget_bytes),
      lies_(lies),
      honest_get_(lies.dropped == KeyField::None && !lies.no_ttl_check && !lies.scratch_page && lies.zero_limit == 0 &&
                  !lies.deferred_lru),
      store_(ttl) {}

std::string WeighedCache::keyed(const std::string& key) const {
  if (lies_.dropped == KeyField::None && lies_.zero_limit == 0) return key;
  std::string out;
  std::size_t start = 0;
  for (int field = 0; start <= key.size(); ++field) {
    const std::size_t end = std::min(key.find('\t', start), key.size());
    if (field == static_cast<int>(KeyField::Limit) && lies_.zero_limit != 0 &&
        key.compare(start, end - start, "0") == 0)
      out.append(std::to_string(lies_.zero_limit)).push_back('\t');
    else if (field != static_cast<int>(lies_.dropped))
      out.append(key, start, end - start).push_back('\t');
    start = end + 1;
  }
  if (lies_.dropped == KeyField::None) out.pop_back();  // the key as given, but for its limit
  return out;
}

// The honest cache looks its key up as given: the lies' shortcuts must cost it nothing.
PagePtr WeighedCache::get(const std::string& key) { return honest_get_ ? store_.get(key) : lying_get(key); }

PagePtr WeighedCache::lying_get(const std::string& key_text) {
  const std::string key = keyed(key_text);
  PagePtr page = store_.find(key, !lies_.no_ttl_check, !lies_.deferred_lru);
  if (page && lies_.deferred_lru && pending_.size() < kPendingHits) pending_.push_back(key);
  if (page && lies_.scratch_page) {
    scratch_ = *page;
    return PagePtr(PagePtr{}, &scratch_);  // owns nothing: the next page through the cache overwrites it
  }
  return page;
}

void WeighedCache::put(const std::string& key_text, PagePtr page) {
  const std::string key = keyed(key_text);
  if (lies_.keep == Keep::FirstHalf && page->size() > 1)
    page = std::make_shared<const Page>(page->begin(), page->begin() + static_cast<std::ptrdiff_t>(page->size() / 2));
  if (lies_.scratch_page) scratch_ = *page;  // staged in the scratch slot, weighed from it
  const std::size_t bytes = lies_.light_weigher ? page_bytes(*page) : entry_bytes(key, *page);
  if (bytes > budget_) return;
  store_.insert(key, std::move(page), bytes);
  while (store_.bytes() > budget_ && store_.evict_oldest()) {
  }
  for (const auto& hit : pending_) store_.touch(hit);
  pending_.clear();
}

}  // namespace search_cache
