// AFTER — O(1) LRU: the entries in a doubly linked list from most to least recently used, a
// hash map from key to list node. A hit splices its node to the front; an insert into a
// full cache drops the back. No scan anywhere.
#pragma once

#include <list>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "cache.hpp"

namespace asset_cache {

class LruCache final : public Cache {
 public:
  explicit LruCache(std::size_t capacity) : capacity_(capacity) {
    if (capacity == 0) throw std::invalid_argument("lru cache capacity must be >= 1");
    index_.reserve(capacity);
  }

  Blob get(std::string_view key) override {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    entries_.splice(entries_.begin(), entries_, it->second);
    return it->second->value;
  }

  void put(std::string_view key, Blob value) override {
    if (auto it = index_.find(key); it != index_.end()) {
      it->second->value = std::move(value);
      entries_.splice(entries_.begin(), entries_, it->second);
      return;
    }
    if (index_.size() >= capacity_) {
      index_.erase(std::string_view(entries_.back().key));
      entries_.pop_back();
    }
    entries_.push_front(Entry{std::string(key), std::move(value)});
    // The map's key views the node's string: list nodes never move.
    index_.emplace(std::string_view(entries_.front().key), entries_.begin());
  }

  std::size_t size() const override { return index_.size(); }
  std::size_t capacity() const override { return capacity_; }
  const char* name() const override { return "lru"; }

 private:
  struct Entry {
    std::string key;
    Blob value;
  };
  std::size_t capacity_;
  std::list<Entry> entries_;
  std::unordered_map<std::string_view, std::list<Entry>::iterator, StringHash, std::equal_to<>> index_;
};

}  // namespace asset_cache
