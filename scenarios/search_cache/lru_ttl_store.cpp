#include "result_cache.hpp"

namespace search_cache {

std::size_t entry_bytes(const std::string& key, const Page& page) {
  return page_bytes(page) + (key.capacity() > 15 ? key.capacity() + 1 : 0);
}

PagePtr LruTtlStore::get(const std::string& key) {
  auto it = map_.find(key);
  if (it == map_.end()) return nullptr;
  if (Clock::now() >= it->second->expires) {
    erase(it->second);
    return nullptr;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->page;
}

void LruTtlStore::insert(const std::string& key, PagePtr page, std::size_t bytes) {
  if (auto it = map_.find(key); it != map_.end()) erase(it->second);
  lru_.push_front(Entry{key, std::move(page), bytes, Clock::now() + ttl_});
  map_.emplace(key, lru_.begin());
  bytes_ += bytes;
}

bool LruTtlStore::evict_oldest() {
  if (lru_.empty()) return false;
  erase(std::prev(lru_.end()));
  return true;
}

void LruTtlStore::erase(std::list<Entry>::iterator it) {
  bytes_ -= it->bytes;
  map_.erase(it->key);
  lru_.erase(it);
}

}  // namespace search_cache
