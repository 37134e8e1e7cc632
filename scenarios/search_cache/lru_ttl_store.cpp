#include "result_cache.hpp"

namespace search_cache {

// The page, the shared_ptr block holding it (make_shared: two counts and a vtable pointer), the
// LRU list node and the index's node (a copy of the key, the cached hash), and the key twice.
std::size_t entry_bytes(const std::string& key, const Page& page) {
  const std::size_t list_node =
      2 * sizeof(void*) + sizeof(std::string) + sizeof(PagePtr) + sizeof(std::size_t) + sizeof(Clock::time_point);
  const std::size_t map_node = sizeof(void*) + sizeof(std::string) + sizeof(void*) + sizeof(std::size_t);
  return page_bytes(page) + heap_chunk(16 + sizeof(Page)) + heap_chunk(list_node) + heap_chunk(map_node) +
         2 * heap_of(key);
}

PagePtr LruTtlStore::get(const std::string& key) {
  auto it = map_.find(key);
  if (it == map_.end()) return nullptr;
  if (now() >= it->second->expires) {
    erase(it->second);
    return nullptr;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->page;
}

PagePtr LruTtlStore::find(const std::string& key, bool check_ttl, bool splice) {
  auto it = map_.find(key);
  if (it == map_.end()) return nullptr;
  if (check_ttl && now() >= it->second->expires) {
    erase(it->second);
    return nullptr;
  }
  if (splice) lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->page;
}

void LruTtlStore::touch(const std::string& key) {
  if (auto it = map_.find(key); it != map_.end()) lru_.splice(lru_.begin(), lru_, it->second);
}

void LruTtlStore::insert(const std::string& key, PagePtr page, std::size_t bytes) {
  if (auto it = map_.find(key); it != map_.end()) erase(it->second);
  lru_.push_front(Entry{key, std::move(page), bytes, now() + ttl_});
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
